"""Checks on a batch of decide-stage judgments: risks and verdict cited, the position state legal, the program's
zones kept, scenarios on the calibrated table, open orders decided (a MODIFY through the order gate), the
action one the position allows (with a state it goes with, no buy path under avoid: the publication gate
`actions` checks the same), agreeing with its reason and the baseline's expected value, every gap disclosed."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from stockbench.analytics.position_states import ACTIONS
from stockbench.errors import Problem
from stockbench.evidence.documents import ActionChoice, ActionRule, OrderPlan
from stockbench.evidence.gates import choice_problems
from stockbench.messages import check_words, problem, value_word
from stockbench.research import judgments as j
from stockbench.research.blocks import AnalyticsFacts, OpenOrderFact
from stockbench.research.statements import VERDICT_PARTS, judgment_statements
from stockbench.research.wording.actions import plan_reason

if TYPE_CHECKING:
    from stockbench.research.state import Accepted
    from stockbench.research.validate import Checker

SUM_TOLERANCE = Decimal("0.001")


def judgment_problems(checker: Checker, batch: j.Judgments) -> list[Problem]:
    """Problems with every judgment present in the batch."""
    analytics = checker.facts.analytics or AnalyticsFacts()
    problems: list[Problem] = []
    for i, risk in enumerate(batch.risks or []):
        problems += checker.cited(risk, f"risks[{i}]")
    if batch.debate_verdict is not None:
        for name in VERDICT_PARTS:
            problems += checker.cited(getattr(batch.debate_verdict, name), f"debate_verdict.{name}")
    rest = batch.model_copy(update={"risks": None, "debate_verdict": None, "action": None})
    problems += checker.statements(rest)
    if batch.position_state is not None:
        problems += _position_state(batch.position_state, analytics)
    if batch.zones is not None and not batch.zones.accept_program_zones:
        problems.append(problem("zones_program_only", location="zones"))
    if batch.scenarios is not None:
        problems += _scenarios(batch.scenarios, analytics)
    if batch.continuity is not None:
        problems += _continuity(batch.continuity)
    if batch.open_orders is not None:
        problems += _open_orders(checker, batch.open_orders, analytics)
    if batch.action is not None:
        problems += _action(checker, batch.action, analytics)
        choice = ActionChoice(batch.action.action, batch.position_state or "")
        problems += choice_problems(choice, action_rules(analytics), judgment_statements(batch, ()))
    if batch.gaps is not None:
        problems += _gaps(checker, batch.gaps)
    return problems


def _position_state(state: str, analytics: AnalyticsFacts) -> list[Problem]:
    allowed = analytics.position_state.allowed if analytics.position_state else ()
    if state in allowed:
        return []
    return [problem("position_state_illegal", state=state, allowed=", ".join(allowed), location="position_state")]


def _scenarios(scenarios: Sequence[j.ScenarioJudgment], analytics: AnalyticsFacts) -> list[Problem]:
    table = analytics.scenarios.table() if analytics.scenarios else {}
    tolerance = analytics.scenarios.tolerance if analytics.scenarios else Decimal("0.05")
    problems, total = [], Decimal(0)
    for i, s in enumerate(scenarios):
        where = f"scenarios[{i}]"
        try:
            p = Decimal(s.probability)
        except InvalidOperation:
            problems.append(problem("probability_format", probability=s.probability, location=where))
            continue
        total += p
        if s.name not in table:
            problems.append(problem("scenario_unknown.judgment", name=s.name, names=", ".join(table), location=where))
        elif abs(p - table[s.name]) > tolerance:
            problems.append(
                problem(
                    "probability_off_table.judgment",
                    name=s.name,
                    probability=p,
                    tolerance=tolerance,
                    calibrated=table[s.name],
                    location=where,
                )
            )
    if scenarios and abs(total - 1) > SUM_TOLERANCE:
        problems.append(problem("probabilities_sum.judgment", total=total))
    if {s.name for s in scenarios} != set(table):
        problems.append(problem("scenarios_incomplete", names=", ".join(table)))
    return problems


def _continuity(continuity: j.Continuity) -> list[Problem]:
    return [
        problem("continuity_incomplete", field=f"continuity.{name}")
        for name in ("old_plan", "what_happened", "what_changed", "what_to_do")
        if not getattr(continuity, name).strip()
    ]


def _open_orders(
    checker: Checker, decisions: Sequence[j.OpenOrderDecision], analytics: AnalyticsFacts
) -> list[Problem]:
    orders = {o.order_id: o for o in checker.facts.open_orders}
    given = {d.order_id for d in decisions}
    problems = [
        problem("open_order_undecided", order=oid, choices="KEEP, MODIFY or CANCEL")
        for oid in sorted(set(orders) - given)
    ]
    problems += [problem("open_order_unknown", order=oid) for oid in sorted(given - set(orders))]
    for i, d in enumerate(decisions):
        order = orders.get(d.order_id)
        if order is None or d.decision == "CANCEL":
            continue
        if d.decision == "MODIFY":
            problems += _modify(checker, d, order, f"open_orders[{i}]")
        modified = _decimal(d.new_price) if d.decision == "MODIFY" else None
        price = modified if modified is not None else order.price
        band = analytics.zones.band(order.side) if analytics.zones else None
        if band is not None and not band.holds(price):
            problems.append(
                problem(
                    "order_outside_zone",
                    order=d.order_id,
                    price=price,
                    side=order.side,
                    side_zh=value_word("side", order.side, "zh"),
                    low=band.low,
                    high=band.high,
                    modify="MODIFY",
                    cancel="CANCEL",
                )
            )
    return problems


def _modify(checker: Checker, decision: j.OpenOrderDecision, order: OpenOrderFact, where: str) -> list[Problem]:
    """A MODIFY is a new order at the broker: the same gate as the program's orders (tick, lot, limits, sellable,
    cash), and none at all in a report with data gaps."""
    rules = checker.rules
    if rules is not None and rules.gaps:
        return [problem("modify_with_gaps", order=decision.order_id, keep="KEEP", cancel="CANCEL", location=where)]
    price = _decimal(decision.new_price) if decision.new_price is not None else order.price
    if price is None:
        return [problem("modify_price_format", price=decision.new_price, location=where)]
    if decision.new_price is None and decision.new_qty is None:
        return [problem("modify_unchanged", modify="MODIFY", order=decision.order_id, keep="KEEP", location=where)]
    if rules is None or rules.check_order is None or rules.account is None:
        return []
    qty = decision.new_qty if decision.new_qty is not None else order.remaining
    plan = OrderPlan(rules.account, rules.subject, order.side, qty, price, "modify")
    return [replace(p, location=where) for p in rules.check_order(plan)]


def _action(checker: Checker, action: j.FinalAction, analytics: AnalyticsFacts) -> list[Problem]:
    problems = checker.cited(action.why, "action.why", "reason")
    baseline = analytics.baseline
    problems += agreement(action.action, action.why.text, baseline.direction if baseline else "")
    if action.action in {"buy", "add"} and baseline is not None and ev_vetoes(baseline.reasons):
        problems.append(problem("negative_ev_buy", location="action"))
    if action.action in {"buy", "add"} and baseline is not None:
        problems += capped_buy(baseline.reasons, action.action)
    return problems


def capped_buy(reasons: Sequence[Mapping[str, Any]], action: str) -> list[Problem]:
    """A buy or add the baseline's caps forbid: an input it could not know (unknown is never a pass, so the decision
    is at most wait, hold for a holder) or a plan the zones call not tradeable (no trade)."""
    cap = "hold" if action == "add" else "wait"
    words = {**_action_words(action), "cap": cap, "cap_zh": value_word("action", cap, "zh")}
    unknown = [str(r.get("check")) for r in reasons if r.get("code") == "input_unknown"]
    found = []
    if unknown:
        found.append(problem("buy_with_unknown_input", inputs=check_words(unknown, "en"),
                             inputs_zh=check_words(unknown, "zh"), location="action", **words))  # fmt: skip
    plan = [r for r in reasons if r.get("code") == "no_trade"]
    if plan:
        english = "; ".join(dict.fromkeys(plan_reason(r, "en") for r in plan))
        chinese = "；".join(dict.fromkeys(plan_reason(r, "zh") for r in plan))
        found.append(problem("buy_without_a_tradeable_plan", reasons=english, reasons_zh=chinese, location="action",
                             **words))  # fmt: skip
    return found


def ev_vetoes(reasons: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the baseline's backtest vetoes a buy: its EV check failed (an EV after costs that is not positive,
    over at least the decision_baseline table's buy_min_trades trades; fewer trades cannot veto)."""
    return any(r.get("code") == "check_failed" and r.get("check") == "ev" for r in reasons)


def action_rules(analytics: AnalyticsFacts | None) -> dict[str, ActionRule]:
    """What the position allows for every action now, from the position_state block (empty for a block written
    before actions were tied to it: then nothing is checked)."""
    state = analytics.position_state if analytics else None
    if state is None or not (state.actions or state.refused):
        return {}
    refused = {
        a: tuple(Problem(p.code, p.message, p.fix, key=p.key, params=tuple(sorted(p.params.items()))) for p in found)
        for a, found in state.refused.items()
    }
    known = [a for a in ACTIONS if a in state.actions or a in refused]
    return {a: ActionRule(tuple(state.actions.get(a, ())), refused.get(a, ())) for a in known}


def action_choice(accepted: Accepted) -> ActionChoice | None:
    """The accepted action with its position state, as the publication gate checks them."""
    if accepted.action is None:
        return None
    return ActionChoice(accepted.action.action, accepted.position_state or "")


def _gaps(checker: Checker, gaps: Sequence[j.GapAcceptance]) -> list[Problem]:
    given = {g.gap for g in gaps}
    return [problem("gap_undisclosed", gap=g) for g in sorted(set(checker.facts.gaps) - given)]


_ACTION_WORDS: dict[str, str] = {
    "buy": r"\bbuy\b|买入", "add": r"\badd\b|加仓", "hold": r"\bhold\b|持有", "reduce": r"\breduce\b|减仓",
    "sell": r"\bsell\b|卖出", "avoid": r"\bavoid\b|回避", "wait": r"\bwait\b|观望",
}  # fmt: skip
_NOT_AN_ACTION = r"(?!\s?(?:区间|区域|区|价|点|信号|条件|时机|机会|zone|price|signal))"
_ACTIONS_NAMED = {a: re.compile(f"(?:{w}){_NOT_AN_ACTION}", re.IGNORECASE) for a, w in _ACTION_WORDS.items()}
_AGREES = re.compile(r"与(?:程序)?基线一致|同(?:程序)?基线|consistent with the baseline|agrees? with the baseline|"
                     r"same as the baseline|follows the baseline", re.IGNORECASE)  # fmt: skip


def agreement(action: str, why: str, baseline: str) -> list[Problem]:
    """The action's stated reason must agree with the action: no other action named as the call, no claim of
    following the baseline when the action differs from it."""
    named = [a for a, pattern in _ACTIONS_NAMED.items() if pattern.search(why)]
    if _AGREES.search(why) and baseline and baseline != action:
        return [
            problem(
                "action_reason_contradicts.baseline",
                baseline=baseline,
                baseline_zh=value_word("action", baseline, "zh"),
                location="action.why",
                **_action_words(action),
            )
        ]
    if named and action not in named:
        named_zh = "、".join(value_word("action", a, "zh") for a in named)
        return [problem("action_reason_contradicts", named=", ".join(named), named_zh=named_zh, location="action.why",
                        **_action_words(action))]  # fmt: skip
    return []


def _action_words(action: str) -> dict[str, str]:
    return {"action": action, "action_zh": value_word("action", action, "zh")}


def _decimal(value: str | None) -> Decimal | None:
    try:
        found = Decimal(str(value).strip()) if value is not None else None
    except InvalidOperation:
        return None
    return found if found is not None and found.is_finite() else None
