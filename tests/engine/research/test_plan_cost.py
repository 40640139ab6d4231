"""The plan and cost contract: a question run is routed by rules (a purely technical question plans, offers and
fetches no announcements and no search, whatever the model asks for), a plan over its ceiling is refused unless
approved, an unknown price with a ceiling is refused (never counted as zero), and each model call reserves its
worst case before it is sent, so a ceiling too small for the next call pauses the run with the cost reason."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from stockbench.cli.main import run
from stockbench.errors import RuleViolation
from stockbench.llm.messages import ChatRequest, Usage
from stockbench.llm.models import ModelRegistry
from stockbench.llm.prices import Prices
from stockbench.research.llm_port import MAX_OUTPUT_TOKENS
from stockbench.research.models import CostCeilingReached
from tests.engine.research.conftest import DEMO_SYMBOL, TEST_KEY, Lab
from tests.engine.research.scripted import calls, with_arguments
from tests.llm_server.server import ToolCallSpec

TECHNICAL = "均线和MACD现在怎么看？支撑位在哪里？"
ANNOUNCEMENT_KINDS = {"announcement_list", "announcement_text", "search_result"}


def announcement_ids(lab: Lab) -> list[str]:
    rows = lab.db.fetchall("SELECT source_id FROM announcements WHERE symbol = ? ORDER BY published_at DESC",
                           [DEMO_SYMBOL])  # fmt: skip
    return [str(r[0]) for r in rows]


def evidence_kinds(lab: Lab, run_id: str) -> set[str]:
    return {e.kind for e in lab.bench.research.store.for_run(run_id)}


def offered_tools(request: Any) -> set[str]:
    return {t["function"]["name"] for t in request.json.get("tools", [])}


def test_a_technical_question_plans_offers_and_fetches_no_announcements_and_no_search(lab: Lab) -> None:
    lab.add_model()
    lab.bench.workspace.settings.set("search.url", "http://127.0.0.1:9/")  # a provider exists, but is not needed
    wanted = announcement_ids(lab)[:2]
    lab.model.on("scene", with_arguments(lambda args: {**args, "announcements_to_read": wanted}))
    lab.model.on("analyze", calls(ToolCallSpec("documents_read", {"announcement_id": wanted[0]}, id="call_doc"),
                                  ToolCallSpec("search", {"terms": ["白酒 政策"]}, id="call_search")))  # fmt: skip
    outcome = lab.research().analyze(DEMO_SYMBOL, question=TECHNICAL, model="scripted")
    assert outcome.status == "published", outcome
    plan = lab.bench.research.record(outcome.run_id).plan
    assert (plan.kind, plan.routes) == ("question", ("technical",))
    assert "announcements" not in plan.data and {"documents_read", "search"}.isdisjoint(plan.tools)
    for request in lab.server.chats:
        assert {"documents_read", "search"}.isdisjoint(offered_tools(request))
    prepare = json.loads(lab.bench.research.journal.stored(outcome.run_id, "prepare/facts", "result") or "{}")
    collect = json.loads(lab.bench.research.journal.stored(outcome.run_id, "collect/facts", "result") or "{}")
    assert prepare["announcements"] == [] and collect["documents"] == []
    asked = lab.tool_results(outcome.run_id, "analyze/main/tool/")
    refused = {
        request["name"]: result for _, request, result in asked if request["name"] in ("documents_read", "search")
    }
    assert set(refused) == {"documents_read", "search"}
    assert all(r["accepted"] is False for r in refused.values())
    assert evidence_kinds(lab, outcome.run_id).isdisjoint(ANNOUNCEMENT_KINDS)


def test_a_full_run_plans_and_reads_announcements(lab: Lab) -> None:
    outcome = lab.bench.research.analyze(DEMO_SYMBOL)
    plan = lab.bench.research.record(outcome.run_id).plan
    assert plan.kind == "full" and "announcements" in plan.data and "documents_read" in plan.tools
    assert {"announcement_list", "announcement_text"} <= evidence_kinds(lab, outcome.run_id)


# ---- the cost contract ---------------------------------------------------------------------------------------
def priced(lab: Lab) -> None:
    """A model with a known price (DeepSeek's), served by the scripted server."""
    lab.add_model("deep", provider="deepseek", model="deepseek-chat", key=TEST_KEY)


def test_a_plan_over_its_ceiling_is_refused_unless_approved(lab: Lab) -> None:
    priced(lab)
    research = lab.research()
    with pytest.raises(RuleViolation, match="exceeds the ceiling") as refused:
        research.start(DEMO_SYMBOL, model="deep", max_cost=Decimal("0.01"))
    [problem] = refused.value.problems
    assert problem.code == "over_ceiling"
    from stockbench.messages import said

    message, fix = said(problem, "zh")  # the plan approval dialog's words in the Chinese interface
    assert message.startswith("计划的预估费用 ") and "超过了费用上限 0.01" in message
    assert fix == "请提高 --max-cost，或用 --approve-plan 批准该计划"
    [(reason,)] = lab.db.fetchall("SELECT reason FROM run_status WHERE status = 'failed'")
    assert reason.startswith("plan refused: ") and "0.01" in reason
    assert lab.server.chats == []  # refused before anything ran
    approved = research.start(DEMO_SYMBOL, model="deep", max_cost=Decimal("0.01"), approve_plan=True)
    estimate = approved.plan.estimated_cost
    assert estimate is not None and estimate > Decimal("0.01")


def test_an_unknown_price_with_a_ceiling_is_refused_never_counted_as_zero(lab: Lab) -> None:
    lab.add_model()  # an OpenAI-compatible endpoint: no price is known
    research = lab.research()
    for approve in (False, True):
        with pytest.raises(RuleViolation, match="price of model 'scripted' is unknown") as refused:
            research.start(DEMO_SYMBOL, model="scripted", max_cost=Decimal("100"), approve_plan=approve)
        assert [p.code for p in refused.value.problems] == ["price_unknown"]
    free = research.start(DEMO_SYMBOL, model="scripted")  # without a ceiling it may run; its estimate is unknown
    assert free.plan.estimated_cost is None
    port = research.model("scripted")
    request = port.request([{"role": "user", "content": "你好"}], [])
    with pytest.raises(CostCeilingReached, match="unknown"):
        port.complete(request, ceiling_left=Decimal("100"))
    assert lab.server.chats == []


def worst_case(lab: Lab, payload: str) -> Decimal:
    prices = Prices(ModelRegistry(lab.bench.workspace.settings))
    found = prices.estimate(ChatRequest.from_canonical(payload), MAX_OUTPUT_TOKENS)
    assert found is not None
    return found.amount


def test_each_call_reserves_its_worst_case_and_a_ceiling_too_small_for_the_next_pauses(lab: Lab) -> None:
    priced(lab)
    research = lab.research()
    first = worst_case(lab, research.model("deep").request([{"role": "user", "content": "x"}], []))
    ceiling = Decimal("0.1")  # room for the first calls (a first prompt of about 57k tokens), not for all
    outcome = research.analyze(DEMO_SYMBOL, model="deep", max_cost=ceiling, approve_plan=True)
    assert (outcome.status, outcome.stage) != ("published", "publish"), "the ceiling was meant to stop the run"
    assert outcome.status == "paused" and "ceiling" in outcome.reason and "cost" in outcome.reason
    assert lab.status_rows(outcome.run_id)[-1].resume_at is None
    rows = lab.db.fetchall(
        "SELECT key, phase, payload, cost FROM run_events WHERE run_id = ? AND kind = 'model_call' ORDER BY seq",
        [outcome.run_id],
    )
    results = {k: (p, c) for k, phase, p, c in rows if phase == "result"}
    intents = {k: p for k, phase, p, _ in rows if phase == "intent"}
    [pending] = [k for k in intents if k not in results]
    assert len(results) >= 2 and len(lab.server.chats) == len(results)  # the reserved call was never sent
    spent = sum((Decimal(c) for _, c in results.values()), Decimal(0))
    assert spent == lab.bench.research.journal.spent(outcome.run_id) < ceiling
    reserve = worst_case(lab, intents[pending])
    assert ceiling - spent < reserve  # the next call's worst case did not fit what was left
    assert str(reserve) in outcome.reason or f"{reserve:f}" in outcome.reason
    prices = Prices(ModelRegistry(lab.bench.workspace.settings))
    for key, (payload, cost) in results.items():  # each call settled at its actual usage, below its reservation
        usage = json.loads(payload)["usage"]
        raw = {"prompt_tokens": usage["prompt_tokens"], "completion_tokens": usage["completion_tokens"],
               "prompt_tokens_details": {"cached_tokens": usage["cached_tokens"]}}  # fmt: skip
        actual = prices.actual("deep", Usage.from_raw(raw))
        assert actual is not None and actual.amount < worst_case(lab, intents[key]), key
        assert abs(Decimal(cost) - actual.amount) <= Decimal("0.0000005"), key  # stored to 6 places
    assert first > 0


def test_the_cli_refuses_then_runs_an_approved_plan_until_the_ceiling(
    lab: Lab, capsys: pytest.CaptureFixture[str]
) -> None:
    priced(lab)
    lab.bench.close()
    assert run(["--json", "analyze", DEMO_SYMBOL, "--model", "deep", "--max-cost", "0.01"]) == 1
    assert "exceeds the ceiling" in capsys.readouterr().err
    code = run(["--json", "analyze", DEMO_SYMBOL, "--model", "deep", "--max-cost", "0.01", "--approve-plan"])
    outcome = json.loads(capsys.readouterr().out)
    assert code == 4 and outcome["status"] == "paused" and "ceiling" in outcome["reason"]  # paused: exit 4
    assert lab.server.chats == []  # even the first call did not fit: nothing was sent
