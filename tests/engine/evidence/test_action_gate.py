"""The action gate: the action is one of the closed set that the position allows now (the position state machine's
own table), with a state it goes with, and an avoid lists no buy path; every problem at once, each with a fix; a
frozen report keeps what the gate read, and a report published before the gate still verifies."""

from __future__ import annotations

from dataclasses import replace

import pytest

from stockbench.analytics.position_states import (
    ACTIONS,
    PositionFacts,
    PositionState,
    action_problems,
    legal_actions,
)
from stockbench.errors import Problem
from stockbench.evidence import gates
from stockbench.evidence.documents import ActionChoice, ActionRule, GateContext, ReportDraft, Section, Statement
from stockbench.evidence.frozen import draft_from_json, draft_to_json, freeze_context, thaw_context
from stockbench.evidence.store import EvidenceStore
from stockbench.messages import said
from stockbench.research.blocks import AnalyticsFacts, PositionStateFact, parse
from stockbench.research.decisions import action_rules
from tests.engine.evidence.conftest import context

FLAT = PositionFacts(0, 0, "between")
HELD = PositionFacts(500, 500, "between")
BUY_PATH = Statement("paths[0].action", "按计划分批买入", (), "path")
RECHECK_PATH = Statement("paths[0].action", "重新研究后再定，本计划不建仓", (), "path")


def rules(current: PositionState, facts: PositionFacts) -> dict[str, ActionRule]:
    """What the program puts in the position_state block, read back as the gate context gets it."""
    legal = legal_actions(current, facts)
    block = {
        "current": current,
        "actions": {a: list(states) for a, states in legal.items()},
        "refused": {a: [p.as_dict() for p in action_problems(a, current, facts)] for a in ACTIONS if a not in legal},
    }
    return action_rules(AnalyticsFacts(position_state=parse(PositionStateFact, block)))


def draft_with(action: str, state: str, *paths: Statement) -> ReportDraft:
    return ReportDraft("run", "600519.SH", (Section("plan", "计划", "…"),), statements=paths,
                       decision=ActionChoice(action, state))  # fmt: skip


@pytest.fixture
def ctx(store: EvidenceStore) -> GateContext:
    return replace(context("run", store.for_run("run")), action_rules=rules("no_position", FLAT))


def codes(problems: list[Problem]) -> list[str]:
    return [p.code for p in problems]


def test_the_legal_actions_pass(ctx: GateContext) -> None:
    assert gates.actions(draft_with("wait", "watching", BUY_PATH), ctx) == []  # a wait may plan a buy
    assert gates.actions(draft_with("buy", "building", BUY_PATH), ctx) == []
    assert gates.actions(draft_with("avoid", "no_position", RECHECK_PATH), ctx) == []
    held = replace(ctx, action_rules=rules("holding", HELD))
    assert gates.actions(draft_with("hold", "holding"), held) == []
    assert gates.actions(draft_with("reduce", "reducing"), held) == []


def test_hold_with_nothing_held_is_refused_with_the_fix_to_wait(ctx: GateContext) -> None:
    (problem,) = gates.actions(draft_with("hold", "watching"), ctx)
    assert (problem.code, problem.location) == ("action_needs_position", "action")
    assert "wait" in problem.fix and "allowed now: buy, wait, avoid" in problem.fix
    for action in ("reduce", "sell", "add"):
        assert codes(gates.actions(draft_with(action, "reducing"), ctx)) == ["action_needs_position"]


def test_a_buy_path_under_avoid_is_refused(ctx: GateContext) -> None:
    (problem,) = gates.actions(draft_with("avoid", "watching", BUY_PATH), ctx)
    assert (problem.code, problem.location) == ("avoid_with_buy_path", "paths[0].action") and problem.fix
    english = Statement("paths[1].action", "Buy in steps as planned", (), "path")
    assert codes(gates.actions(draft_with("avoid", "watching", english), ctx)) == ["avoid_with_buy_path"]
    trigger = Statement("paths[0].trigger", "价格进入买入区间 1440-1455", (), "path")  # a trigger names the zone
    assert gates.actions(draft_with("avoid", "watching", trigger, RECHECK_PATH), ctx) == []


def test_the_state_table_s_moves_are_enforced(store: EvidenceStore) -> None:
    in_sell = replace(
        context("run", store.for_run("run")), action_rules=rules("no_position", PositionFacts(0, 0, "in_sell"))
    )
    (problem,) = gates.actions(draft_with("buy", "building"), in_sell)
    assert problem.code == "action_move_illegal" and "from no position to building" in problem.message
    assert gates.actions(draft_with("wait", "watching"), in_sell) == []
    bought_today = replace(in_sell, action_rules=rules("holding", PositionFacts(500, 0, "in_sell")))
    assert codes(gates.actions(draft_with("sell", "reducing"), bought_today)) == ["action_move_illegal"]  # T+1


def test_an_action_goes_with_its_state_and_every_problem_comes_at_once(ctx: GateContext) -> None:
    (problem,) = gates.actions(draft_with("buy", "no_position"), ctx)
    assert (problem.code, problem.location) == ("action_state_mismatch", "position_state")
    assert "building" in problem.fix
    assert said(problem, "zh") == (
        "买入对应的持仓状态为“建仓中”，而不是“未持仓”",
        "请随买入提交持仓状态“建仓中”（building）",
    )
    two = draft_with("avoid", "building", BUY_PATH, replace(BUY_PATH, location="paths[1].action"))
    assert codes(gates.actions(two, ctx)) == ["action_state_mismatch", "avoid_with_buy_path", "avoid_with_buy_path"]
    assert codes(gates.actions(draft_with("watch", "watching"), ctx)) == ["action_unknown"]


def test_the_gate_runs_with_the_others_and_is_frozen_with_the_report(ctx: GateContext, store: EvidenceStore) -> None:
    draft = draft_with("hold", "watching")
    assert codes(gates.run_gates(draft, ctx)["actions"]) == ["action_needs_position"]
    thawed = thaw_context(freeze_context(ctx, draft), store, draft)
    assert thawed.action_rules == ctx.action_rules
    assert draft_from_json(draft_to_json(draft)) == draft


def test_a_report_published_before_the_gate_still_passes(ctx: GateContext, store: EvidenceStore) -> None:
    """Old reports ("hold" with nothing held) load and verify: their draft has no decision, their record no rules."""
    old = draft_to_json(draft_with("hold", "watching"))
    del old["decision"]
    frozen = freeze_context(ctx, draft_with("hold", "watching"))
    del frozen["action_rules"]
    draft = draft_from_json(old)
    assert draft.decision is None and gates.actions(draft, thaw_context(frozen, store, draft)) == []
    assert gates.actions(draft_with("hold", "watching"), thaw_context(frozen, store, draft)) == []
