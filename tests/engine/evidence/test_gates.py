"""Each publication gate on its own: what passes, what is blocked, and that gates never rewrite the draft."""

from __future__ import annotations

import copy
from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest

from stockbench.errors import Problem
from stockbench.evidence import gates
from stockbench.evidence.documents import (
    ActionChoice,
    Claim,
    Gap,
    GateContext,
    MethodStep,
    OrderPlan,
    QuoteRef,
    ReportDraft,
    Risk,
    ScenarioPlan,
    Section,
    ZoneBand,
    ZonePlan,
)
from stockbench.evidence.store import Evidence, EvidenceStore
from tests.engine.evidence.conftest import AT, LedgerSnapshot, context, ledger_checker

D = Decimal
NOTICE = "公司拟向全体股东每10股派发现金红利308.76元（含税）。本次利润分配方案尚需提交股东大会审议。"


@pytest.fixture
def evidence(store: EvidenceStore) -> dict[str, Evidence]:
    return {
        "quote": store.put("run", "quote", "tencent", {"last": "1469.00", "change_pct": "0.48"}, fetched_at=AT),
        "notice": store.put("run", "document", "cninfo", NOTICE, fetched_at=AT),
        "snippet": store.put("run", "search_result", "search", "派发现金红利308.76元……", fetched_at=AT),
        "other": store.put("run-other", "quote", "tencent", {"last": "10.52"}, fetched_at=AT),
    }


@pytest.fixture
def ctx(store: EvidenceStore, evidence: dict[str, Evidence]) -> GateContext:
    return context(
        "run", store.for_run("run"), sections=("summary", "risks"), judgments=("verdict",), steps=("quote", "flow"),
        anchors={"box_low": D("1440"), "ma60": D("1455"), "box_high": D("1560"), "atr": D("1398")},
        calibrated={"bull": D("0.3"), "bear": D("0.7")},
    )  # fmt: skip


@pytest.fixture
def draft(evidence: dict[str, Evidence]) -> ReportDraft:
    quote, notice = evidence["quote"].evidence_id, evidence["notice"].evidence_id
    return ReportDraft(
        "run", "600519.SH",
        (Section("summary", "结论", "收于1,469.00元，上涨0.48%。"), Section("risks", "风险", "方案尚需股东大会审议。")),
        claims=(Claim("收于1,469.00元", (quote,)),),
        risks=(Risk("方案尚需提交股东大会审议", (notice,)),),
        quotes=(QuoteRef("本次利润分配方案尚需提交股东大会审议", notice, "risks"),),
        zones=ZonePlan(ZoneBand(D("1440"), D("1455"), ("box_low", "ma60")),
                       ZoneBand(D("1560"), D("1560"), ("box_high",)), D("1398"), ("atr",)),
        scenarios=(ScenarioPlan("bull", D("0.3")), ScenarioPlan("bear", D("0.7"))),
        method=(MethodStep("quote", "done"), MethodStep("flow", "skipped", "本方法不要求")),
        judgments={"verdict": "中性"},
    )  # fmt: skip


def codes(problems: list[Problem]) -> list[str]:
    return [p.code for p in problems]


def test_a_clean_draft_passes_every_gate_and_is_not_changed(draft: ReportDraft, ctx: GateContext) -> None:
    before = copy.deepcopy(draft)
    results = gates.run_gates(draft, ctx)
    assert [name for name, _ in gates.GATES] == list(results)
    assert gates.blocking(results) == []
    assert draft == before


def test_blocking_lists_every_problem_of_every_gate() -> None:
    a, b, c = Problem("x", "1"), Problem("y", "2"), Problem("z", "3")
    assert gates.blocking({"one": [a, b], "two": [], "three": [c]}) == [a, b, c]


# ---- structure -----------------------------------------------------------------------------------


def test_structure(draft: ReportDraft, ctx: GateContext) -> None:
    assert gates.structure(draft, ctx) == []
    thin = replace(draft, sections=(Section("summary", "结论", "\n "),), judgments={"verdict": " ", "x": "y"})
    found = gates.structure(thin, ctx)
    assert [(p.code, p.location) for p in found] == [("section_missing", "summary"), ("section_missing", "risks"),
                                                     ("judgment_missing", "verdict")]  # fmt: skip


# ---- evidence and risks --------------------------------------------------------------------------


def test_claims_must_cite_this_runs_evidence(
    draft: ReportDraft, ctx: GateContext, evidence: dict[str, Evidence]
) -> None:
    other = evidence["other"].evidence_id
    bad = replace(
        draft, claims=(Claim("a", ()), Claim("b", (evidence["quote"].evidence_id, other)), Claim("c", ("x",)))
    )
    found = gates.evidence(bad, ctx)
    assert [(p.code, p.location) for p in found] == [("evidence_missing", "claims[0]"),
                                                     ("evidence_unknown", "claims[1]"),
                                                     ("evidence_unknown", "claims[2]")]  # fmt: skip
    assert other in found[1].message and "run run" in found[1].message


def test_risks_must_exist_and_cite_evidence(draft: ReportDraft, ctx: GateContext) -> None:
    assert codes(gates.risk_evidence(replace(draft, risks=()), ctx)) == ["risks_missing"]
    assert codes(gates.risk_evidence(replace(draft, risks=(Risk("估值", ()),)), ctx)) == ["evidence_missing"]
    assert codes(gates.risk_evidence(replace(draft, risks=(Risk("估值", ("ev-x",)),)), ctx)) == ["evidence_unknown"]


# ---- numbers -------------------------------------------------------------------------------------


def test_numbers_are_checked_in_every_text_a_reader_sees(draft: ReportDraft, ctx: GateContext) -> None:
    noisy = replace(
        draft,
        sections=(Section("summary", "目标价1,800元", "收于1,469.00元"), Section("risks", "风险", "回撤35%")),
        claims=(Claim("上涨0.49%", draft.claims[0].evidence),),
        risks=(Risk("跌幅12%", draft.risks[0].evidence),),
        scenarios=(ScenarioPlan("bull", D("0.3"), "目标1,750元"), ScenarioPlan("bear", D("0.7"))),
        gaps=(Gap("flow", "近7日缺失"),),
        method=(MethodStep("quote", "done"), MethodStep("flow", "skipped", "近45日无数据")),
        judgments={"verdict": "涨幅20%"},
    )
    found = gates.numbers(noisy, ctx) + gates.citations(noisy, ctx)  # claims and risks: held to what they cite
    assert [p.location.split("[")[0] for p in found] == [
        "section:summary.title", "section:risks", "scenarios.bull", "judgments.verdict", "gaps.flow", "method.flow",
        "claims", "risks",
    ]  # fmt: skip
    assert {p.code for p in found} == {"number_ungrounded"}


def test_the_number_index_is_built_once_per_context(draft: ReportDraft, ctx: GateContext) -> None:
    first = ctx.numbers
    gates.run_gates(draft, ctx)
    assert ctx.numbers is first


# ---- quotes --------------------------------------------------------------------------------------


def test_quotes(draft: ReportDraft, ctx: GateContext, evidence: dict[str, Evidence]) -> None:
    notice, snippet = evidence["notice"].evidence_id, evidence["snippet"].evidence_id
    bad = replace(draft, quotes=(QuoteRef("本次利润分配方案尚需提交董事会审议", notice, "a"),
                                 QuoteRef("派发现金红利308.76元", snippet, "b"),
                                 QuoteRef("本次利润分配方案", evidence["other"].evidence_id, "c")))  # fmt: skip
    found = gates.quotes(bad, ctx)
    assert [(p.code, p.location) for p in found] == [("quote_mismatch", "a"), ("quote_not_full_text", "b"),
                                                     ("quote_source_missing", "c")]  # fmt: skip


def test_quotations_in_the_text_must_be_submitted_quotes(draft: ReportDraft, ctx: GateContext) -> None:
    registered = replace(
        draft,
        sections=(*draft.sections[:1], Section("risks", "风险", "公告称“本次利润分配方案尚需提交股东大会审议”。")),
    )
    assert gates.quotes(registered, ctx) == []
    partial = replace(
        draft, sections=(*draft.sections[:1], Section("risks", "风险", "公告称“利润分配方案尚需提交股东”。"))
    )
    assert gates.quotes(partial, ctx) == []  # a part of a submitted quote
    term = replace(draft, sections=(*draft.sections[:1], Section("risks", "风险", "其“护城河”仍在。")))
    (short,) = gates.quotes(term, ctx)  # however short, a quotation is a quotation: quoted or said plainly
    assert (short.code, short.location) == ("quote_unregistered", "section:risks")
    invented = replace(
        draft, sections=(*draft.sections[:1], Section("risks", "风险", "公告称“公司将持续提高分红比例并回购”。"))
    )
    (problem,) = gates.quotes(invented, ctx)
    assert (problem.code, problem.location) == ("quote_unregistered", "section:risks")


# ---- method coverage -----------------------------------------------------------------------------


def test_method_coverage(draft: ReportDraft, ctx: GateContext) -> None:
    assert gates.method_coverage(draft, ctx) == []
    steps = (MethodStep("flow", "skipped", " "), MethodStep("extra", "done"))
    assert [(p.code, p.location) for p in gates.method_coverage(replace(draft, method=steps), ctx)] == [
        ("step_missing", "quote"), ("skip_unexplained", "flow")]  # fmt: skip
    odd = (MethodStep("quote", "maybe"), MethodStep("flow", "done"))
    assert codes(gates.method_coverage(replace(draft, method=odd), ctx)) == ["step_status"]


# ---- zones ---------------------------------------------------------------------------------------


def test_no_zones_is_not_a_problem(draft: ReportDraft, ctx: GateContext) -> None:
    assert gates.zone_anchors(replace(draft, zones=None), ctx) == []
    assert gates.zone_anchors(replace(draft, zones=ZonePlan(None, None, None)), ctx) == []


@pytest.mark.parametrize(
    ("zones", "expected"),
    [
        (ZonePlan(ZoneBand(D("1440"), D("1455"), ()), None, None), ["zone_unanchored"]),
        (ZonePlan(None, None, D("1398")), ["zone_unanchored"]),
        (ZonePlan(ZoneBand(D("1440"), D("1455"), ("box_low", "ma250")), None, None), ["zone_anchor_unknown"]),
        (ZonePlan(ZoneBand(D("1411.2"), D("1484.1"), ("box_low", "ma60")), None, None), []),  # 2% either side
        (ZonePlan(ZoneBand(D("1411.1"), D("1455"), ("box_low", "ma60")), None, None), ["zone_off_anchor"]),
        (ZonePlan(ZoneBand(D("1440"), D("1484.2"), ("box_low", "ma60")), None, None), ["zone_off_anchor"]),
        (ZonePlan(None, None, D("1350"), ("atr",)), ["zone_off_anchor"]),
        (ZonePlan(ZoneBand(D("1455"), D("1440"), ("box_low", "ma60")), None, None), ["zone_inverted"]),
        (ZonePlan(ZoneBand(D("1440"), D("1480"), ("box_low", "ma60")), ZoneBand(D("1470"), D("1560"),
                                                                                 ("ma60", "box_high")), None),
         ["zones_overlap"]),
        (ZonePlan(ZoneBand(D("1440"), D("1455"), ("box_low", "ma60")), ZoneBand(D("1455"), D("1560"),
                                                                                 ("ma60", "box_high")), None), []),
    ],
)  # fmt: skip
def test_zone_anchors(draft: ReportDraft, ctx: GateContext, zones: ZonePlan, expected: list[str]) -> None:
    assert codes(gates.zone_anchors(replace(draft, zones=zones), ctx)) == expected


def test_the_fix_names_the_program_anchors(draft: ReportDraft, ctx: GateContext) -> None:
    zones = ZonePlan(ZoneBand(D("1440"), D("1455"), ("fib",)), None, None)
    (problem,) = gates.zone_anchors(replace(draft, zones=zones), ctx)
    assert "atr, box_high, box_low, ma60" in problem.fix


# ---- probabilities -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pairs", "expected"),
    [
        ((("bull", "0.3"), ("bear", "0.7")), []),
        ((("bull", "0.35"), ("bear", "0.65")), []),  # within the tolerance
        ((("bull", "0.3"), ("bear", "0.72")), ["probabilities_sum"]),
        ((("bull", "0.3"), ("bear", "0.7005")), []),  # the sum is checked to 0.001
        ((("bull", "0.36"), ("bear", "0.64")), ["probability_off_table", "probability_off_table"]),
        ((("bull", "-0.1"), ("bear", "1.1")), ["probability_range", "probability_off_table", "probability_range",
                                                "probability_off_table"]),
        ((("bull", "0.3"), ("bear", "0.3"), ("base", "0.4")), ["probability_off_table", "scenario_unknown"]),
        ((("bull", "1.0"),), ["scenario_missing", "probability_off_table"]),
        ((("bull", "0.3"), ("bull", "0.3"), ("bear", "0.4")), ["scenario_duplicate", "probability_off_table"]),
    ],
)  # fmt: skip
def test_probability(
    draft: ReportDraft, ctx: GateContext, pairs: tuple[tuple[str, str], ...], expected: list[str]
) -> None:
    scenarios = tuple(ScenarioPlan(n, D(p)) for n, p in pairs)
    assert codes(gates.probability(replace(draft, scenarios=scenarios), ctx)) == expected


def test_no_scenarios_is_not_a_problem(draft: ReportDraft, ctx: GateContext) -> None:
    assert gates.probability(replace(draft, scenarios=()), ctx) == []


def test_the_tolerance_comes_from_the_context(draft: ReportDraft, ctx: GateContext) -> None:
    scenarios = (ScenarioPlan("bull", D("0.35")), ScenarioPlan("bear", D("0.65")))
    tight = replace(ctx, probability_tolerance=D("0.01"))
    assert codes(gates.probability(replace(draft, scenarios=scenarios), tight)) == ["probability_off_table"] * 2


# ---- orders --------------------------------------------------------------------------------------


@pytest.fixture
def checked(ctx: GateContext) -> GateContext:
    snapshot = LedgerSnapshot({"main": D("250000")}, {("main", "600519.SH"): 300})
    return replace(ctx, check_order=ledger_checker(snapshot, date(2024, 7, 1), {"600519.SH": D("1469.00")}))


def order(qty: int = 100, price: str = "1455.00", side: str = "buy", action: str = "new") -> OrderPlan:
    return OrderPlan("main", "600519.SH", side, qty, D(price), action)


@pytest.mark.parametrize(
    ("orders", "expected"),
    [
        ((order(),), []),
        ((order(200, "1560.00", "sell"),), []),
        ((order(price="1455.005"),), ["price_off_tick"]),
        ((order(150),), ["lot_multiple"]),
        ((order(400, "1560.00", "sell"),), ["exceeds_holding"]),
        ((order(200),), ["exceeds_cash"]),
        ((order(price="1620.00"),), ["above_limit_up"]),
        ((order(150, "1455.005"),), ["lot_multiple", "price_off_tick"]),
        ((order(action="cancel"), order(150, action="cancel")), []),  # cancelling is not an executable order
        ((order(action="buy"),), ["order_action_unknown"]),
    ],
)  # fmt: skip
def test_orders(draft: ReportDraft, checked: GateContext, orders: tuple[OrderPlan, ...], expected: list[str]) -> None:
    assert codes(gates.orders(replace(draft, orders=orders), checked)) == expected


def test_a_report_with_gaps_carries_no_executable_orders(draft: ReportDraft, checked: GateContext) -> None:
    gapped = replace(draft, gaps=(Gap("flow", "资金流向缺失"),))
    assert gates.orders(gapped, checked) == []
    assert gates.orders(replace(gapped, orders=(order(action="cancel"),)), checked) == []
    for action in ("new", "modify", "keep"):
        found = gates.orders(replace(gapped, orders=(order(action=action),)), checked)
        assert codes(found) == ["orders_with_gaps"] and "flow" in found[0].message


@pytest.mark.parametrize(
    ("action", "side", "expected"),
    [
        ("buy", "buy", []), ("add", "buy", []), ("hold", "sell", []), ("reduce", "sell", []),
        ("hold", "buy", ["order_against_action"]), ("wait", "buy", ["order_against_action"]),
        ("avoid", "buy", ["order_against_action"]), ("sell", "buy", ["order_against_action"]),
        ("wait", "sell", ["order_against_action"]), ("avoid", "sell", ["order_against_action"]),
    ],
)  # fmt: skip
def test_a_kept_or_new_order_goes_with_the_call(
    draft: ReportDraft, checked: GateContext, action: str, side: str, expected: list[str]
) -> None:
    """The handbook keeps an open order only where it goes with the final action (11.3): a hold kept its open buy
    in the buy zone while its plan bought nothing. A cancelled order is no order, whatever the call."""
    price = "1455.00" if side == "buy" else "1560.00"
    decided = replace(draft, decision=ActionChoice(action, ""))
    before = gates.orders(replace(decided, orders=(order(100, price, side, "keep"),)), checked)
    assert before == [], "a report published before the rule is verified by the gates it was published under"
    checked = replace(checked, orders_follow_action=True)
    for kind in ("new", "keep", "modify"):
        found = gates.orders(replace(decided, orders=(order(100, price, side, kind),)), checked)
        assert codes(found) == expected, kind
    assert gates.orders(replace(decided, orders=(order(100, price, side, "cancel"),)), checked) == []
    if expected:
        message = gates.orders(replace(decided, orders=(order(100, price, side, "keep"),)), checked)[0].message
        assert f"the {side} order at {price}" in message and f"the action is {action}" in message


def test_orders_without_an_order_check_are_blocked(draft: ReportDraft, ctx: GateContext) -> None:
    assert codes(gates.orders(replace(draft, orders=(order(),)), ctx)) == ["orders_unchecked"]
    assert gates.orders(replace(draft, orders=(order(action="cancel"),)), ctx) == []


# ---- the gates' words in Chinese (issue 19.2) ------------------------------------------------------------------
def test_every_problem_of_a_broken_draft_is_said_in_chinese(draft: ReportDraft, ctx: GateContext) -> None:
    import re

    from stockbench.messages import said

    broken = replace(
        draft, sections=(), judgments={}, risks=(), claims=(Claim("收于1,469.00元", ()), Claim("上涨", ("ev-nope",))),
        zones=ZonePlan(ZoneBand(D("1455"), D("1440"), ("box_low", "nope")), ZoneBand(D("1400"), D("1400"), ()),
                       D("1398"), ("atr",)),
        scenarios=(ScenarioPlan("bull", D("1.3")), ScenarioPlan("bull", D("0.1")), ScenarioPlan("odd", D("0.2"))),
        method=(MethodStep("quote", "maybe"),),
    )  # fmt: skip
    found = gates.blocking(gates.run_gates(broken, ctx))
    assert len({p.code for p in found}) >= 10
    for p in found:
        assert p.key, f"{p.code} is not in the message catalogue"
        message, fix = said(p, "zh")
        plain = message + fix
        for value in sorted((v for _, v in p.params), key=len, reverse=True):  # codes and values, not words
            plain = plain.replace(value, "")
        assert (message, fix) != (p.message, p.fix) and not re.findall(r"[A-Za-z]{3,}", plain), (p.code, message, fix)
