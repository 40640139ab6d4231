"""A model that cheats, through the loopback server and the real litellm path: every class of cheat is refused when
it is submitted, the model is told what to fix, the report that publishes carries none of it, and a model that
keeps cheating ends in a pause with the reason.

Each test lets the scripted model (the offline rules model answering on the wire) cheat in one way in one
stage; its next answer is honest. The cheats are the red team's classes: a number that merely displays like
some value of the run, numerals the reader did not see, evidence the model made itself, quotes cut against
their source, levels and orders outside the program, free text in structured fields, runs that never end.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest

from stockbench.research.conversation import read_facts
from stockbench.research.engine import STALL_IDLE_TURNS, STALL_REPEATS
from tests.engine.research.conftest import BUY_SYMBOL, DEMO_SYMBOL, Lab, holding_account
from tests.engine.research.scripted import Change, calls
from tests.llm_server.server import Reply, SeenRequest, ToolCallSpec

PEERS = ["003902.SZ", "003903.SZ"]  # demo liquor makers: their P/E sit in the peer table next to the subject's


def published(lab: Lab, symbol: str = DEMO_SYMBOL, **options: Any) -> str:
    outcome = lab.research().analyze(symbol, model="scripted", **options)
    assert outcome.status == "published", outcome
    return outcome.run_id


def rejected(lab: Lab, run_id: str, prefix: str) -> list[dict[str, Any]]:
    """The problems of every rejected tool call under `prefix`, in order."""
    return [p for _, _, result in lab.tool_results(run_id, prefix) if result.get("accepted") is False
            for p in result["problems"]]  # fmt: skip


def told(lab: Lab, problem: dict[str, Any]) -> bool:
    """Whether the problem (its message) reached the model in a later request."""
    needle = json.dumps(problem["message"], ensure_ascii=False)[1:-1]
    return any(needle in chat.body.decode() for chat in lab.server.chats)


def report_text(lab: Lab, run_id: str) -> str:
    outcome = lab.research().outcome(run_id)
    found = lab.bench.research.report(outcome.report_id or "")
    return found.markdown + json.dumps(found.draft, ensure_ascii=False)


def refused_once(lab: Lab, run_id: str, prefix: str, code: str) -> dict[str, Any]:
    """The cheat was refused with `code` and a fix, and the model was told; return that problem."""
    found = [p for p in rejected(lab, run_id, prefix) if p["code"] == code]
    assert found, rejected(lab, run_id, prefix)
    assert found[0]["fix"] and told(lab, found[0])
    return found[0]


def facts_of(seen: SeenRequest) -> dict[str, Any]:
    return read_facts(seen.messages)


def edit(change: Callable[[SeenRequest, dict[str, Any]], dict[str, Any]]) -> Change:
    """Change the arguments of the answer's first tool call, with the request's facts at hand."""

    def apply(seen: SeenRequest, reply: Reply) -> Reply:
        first, *rest = reply.tool_calls
        assert isinstance(first.arguments, str)
        changed = change(seen, json.loads(first.arguments))
        return replace(reply, tool_calls=(replace(first, arguments=json.dumps(changed, ensure_ascii=False)), *rest))

    return apply


def with_risk(text: Callable[[dict[str, Any]], str], cite: Callable[[dict[str, Any]], list[str]]) -> Change:
    """Decide: the first risk becomes `text`, citing `cite` (both from the request's facts)."""

    def change(seen: SeenRequest, args: dict[str, Any]) -> dict[str, Any]:
        facts = facts_of(seen)
        return {**args, "risks": [{"text": text(facts), "evidence": cite(facts)}, *args.get("risks", [])[1:]]}

    return edit(change)


def block_id(facts: dict[str, Any], *path: str) -> list[str]:
    node: Any = facts
    for part in path:
        node = node[part]
    return [str(node["evidence_id"])]


# ---- 1 grounding by citation ---------------------------------------------------------------------------------
def test_a_number_of_the_run_that_the_statement_does_not_cite_is_sent_back(lab: Lab) -> None:
    lab.add_model()
    lab.model.on("decide", with_risk(lambda f: f"收于{f['prepare']['quote']['price']}元后仍有回落风险",
                                     lambda f: block_id(f, "analytics", "backtest")))  # fmt: skip
    run_id = published(lab)
    problem = refused_once(lab, run_id, "decide/tool/", "number_uncited")
    assert "cited candidates" in problem["fix"] and "appears in" in problem["message"]
    assert "后仍有回落风险" not in report_text(lab, run_id)


def test_a_peers_pe_stated_as_the_subjects_own_is_sent_back(lab: Lab) -> None:
    lab.add_model()
    lab.model.on("scene", edit(lambda seen, args: {**args, "peers": PEERS}))  # a real scene, with peers

    def peer_pe(facts: dict[str, Any]) -> str:
        row = next(r for r in facts["collect"]["peers"]["rows"] if r["symbol"] == PEERS[0])
        return f"本公司市盈率仅 {row['pe_ttm']} 倍，估值偏低"

    lab.model.on("decide", with_risk(peer_pe, lambda f: [*block_id(f, "collect", "peers"),
                                                          *block_id(f, "analytics", "valuation")]))  # fmt: skip
    run_id = published(lab)
    problem = refused_once(lab, run_id, "decide/tool/", "number_misattributed")
    assert PEERS[0] in problem["message"] and "估值偏低" not in report_text(lab, run_id)


def test_the_same_number_said_of_the_peer_it_belongs_to_is_accepted(lab: Lab) -> None:
    lab.add_model()
    lab.model.on("scene", edit(lambda seen, args: {**args, "peers": PEERS}))

    def peer_pe(facts: dict[str, Any]) -> str:
        row = next(r for r in facts["collect"]["peers"]["rows"] if r["symbol"] == PEERS[0])
        return f"同业{row['name']}市盈率 {row['pe_ttm']} 倍，低于本公司，估值比较的基准可能下移"

    lab.model.on("decide", with_risk(peer_pe, lambda f: block_id(f, "collect", "peers")))
    run_id = published(lab)
    assert rejected(lab, run_id, "decide/tool/") == []
    assert "估值比较的基准可能下移" in report_text(lab, run_id)


# ---- 2 numerals the reader did not see ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "hidden", ["主力资金净流出两千万", "主力资金净流出3千万元", "净流出9\u200b000\u200b000元", "净流出三十多亿元"]
)
def test_numerals_in_every_form_are_read_and_grounded(lab: Lab, hidden: str) -> None:
    lab.add_model()
    lab.model.on("decide", with_risk(lambda f: f"{hidden}，资金面转弱", lambda f: block_id(f, "analytics", "states")))
    run_id = published(lab)
    refused_once(lab, run_id, "decide/tool/", "number_ungrounded")
    assert "资金面转弱" not in report_text(lab, run_id)


# ---- 3 evidence the model made itself -----------------------------------------------------------------------
def test_a_calc_of_a_constant_is_refused_and_stores_nothing(lab: Lab) -> None:
    lab.add_model()
    constant = ToolCallSpec("calc", {"expression": "98765.43", "inputs": {}}, id="call_const")
    lab.model.on("decide", calls(constant))
    run_id = published(lab)
    (result,) = [r for _, request, r in lab.tool_results(run_id, "decide/tool/") if request["name"] == "calc"]
    assert result["accepted"] is False and "inputs" in result["problems"][0]["message"]
    evidence = lab.bench.research.store.for_run(run_id)
    assert not [e for e in evidence if e.source == "calc"]  # nothing of the model's own became evidence
    assert "98765.43" not in report_text(lab, run_id)


def test_a_calc_unit_that_its_operands_do_not_give_is_refused(lab: Lab) -> None:
    lab.add_model()

    def as_points(seen: SeenRequest, reply: Reply) -> Reply:
        quote = facts_of(seen)["prepare"]["quote"]
        ref = {"evidence_id": quote["evidence_id"], "path": "$.change_pct"}
        spec = ToolCallSpec("calc", {"expression": "a * 1", "inputs": {"a": ref}, "unit": "pp"}, id="call_pp")
        more = ToolCallSpec("calc", {"expression": "a * 2", "inputs": {"a": ref}, "unit": "pp"}, id="call_pp2")
        return replace(reply, tool_calls=(spec, more))

    lab.model.on("decide", as_points)
    run_id = published(lab)
    results = [r for _, request, r in lab.tool_results(run_id, "decide/tool/") if request["name"] == "calc"]
    assert [r["accepted"] for r in results] == [False, False]
    assert "equals input" in results[0]["problems"][0]["message"]  # a * 1 computes nothing: cite the input
    assert "pct value by its operands, not pp" in results[1]["problems"][0]["message"]


def test_a_calc_that_overflows_is_an_answer_to_the_model_not_a_dead_run(lab: Lab) -> None:
    lab.add_model()

    def huge(seen: SeenRequest, reply: Reply) -> Reply:
        quote = facts_of(seen)["prepare"]["quote"]
        ref = {"evidence_id": quote["evidence_id"], "path": "$.price"}
        big = ToolCallSpec("calc", {"expression": "1e400 * a", "inputs": {"a": ref}}, id="call_big")
        zero = ToolCallSpec("calc", {"expression": "a / (a - a)", "inputs": {"a": ref}}, id="call_zero")
        return replace(reply, tool_calls=(big, zero))

    lab.model.on("decide", huge)
    run_id = published(lab)  # each resume would otherwise re-run the same stored call into the same error
    results = [r for _, request, r in lab.tool_results(run_id, "decide/tool/") if request["name"] == "calc"]
    assert [(r["accepted"], r["problems"][0]["code"]) for r in results] == [(False, "invalid_input")] * 2
    assert "divides by zero" in results[1]["problems"][0]["message"]


# ---- 4 quotes cut against their source ----------------------------------------------------------------------
def _document_with_disclaimer(lab: Lab, facts: dict[str, Any]) -> dict[str, Any]:
    """A document the run read whose text says "不存在虚假记载、误导性陈述或重大遗漏" (every demo filing does)."""
    store = lab.bench.research.store
    return next(d for d in facts["collect"]["documents"] if "不存在虚假记载" in store.get(d["evidence_id"]).body)


def test_a_quote_that_drops_the_sources_negation_is_sent_back_with_the_clause(lab: Lab) -> None:
    lab.add_model()

    def confess(seen: SeenRequest, args: dict[str, Any]) -> dict[str, Any]:
        document = _document_with_disclaimer(lab, facts_of(seen))
        quote = {"text": "虚假记载、误导性陈述或重大遗漏", "evidence_id": document["evidence_id"]}
        summary = f"{args['summary']}公司承认“虚假记载、误导性陈述或重大遗漏”。"
        return {**args, "summary": summary, "quotes": [quote]}

    lab.model.on("analyze", edit(confess))
    run_id = published(lab)
    problem = refused_once(lab, run_id, "analyze/main/tool/", "quote_drops_negation")
    assert "«没有»" in problem["message"] or "«不»" in problem["message"]
    assert "没有虚假记载" in problem["fix"] or "不存在虚假记载" in problem["fix"]  # the whole clause comes back
    locations = {p["location"] for p in rejected(lab, run_id, "analyze/main/tool/")}
    assert {"diagnosis.quotes[0]", "diagnosis.summary"} <= locations  # the quote, and the quotation in the text
    assert "公司承认" not in report_text(lab, run_id)


@pytest.mark.parametrize("quotation", ["‘管理层确认’", "“护城河”", "「强烈推荐」"])
def test_every_quotation_form_however_short_must_be_a_submitted_quote(lab: Lab, quotation: str) -> None:
    lab.add_model()
    lab.model.on("analyze", edit(lambda seen, args: {**args, "summary": f"{args['summary']}市场称{quotation}。"}))
    run_id = published(lab)
    refused_once(lab, run_id, "analyze/main/tool/", "quote_unregistered")
    assert quotation not in report_text(lab, run_id)


# ---- 5 levels and orders only from the program --------------------------------------------------------------
def _anchor_prices(facts: dict[str, Any]) -> list[str]:
    zones = facts["analytics"]["zones"]
    bounds = {zones[s][k] for s in ("buy", "sell") for k in ("low", "high")} | {zones["stop"]["price"]}
    found = [a["price"] for part in ("buy", "sell") for a in zones[part]["anchors"] if a["role"] != "width"]
    return sorted({p for p in found if p not in bounds}, key=Decimal)


def test_a_buy_zone_of_the_models_own_in_a_path_is_sent_back(lab: Lab) -> None:
    lab.add_model()

    def own_zone(seen: SeenRequest, args: dict[str, Any]) -> dict[str, Any]:
        low, high = _anchor_prices(facts_of(seen))[:2]
        path = {"trigger": f"价格回落到 {low}-{high} 之间", "action": "重仓买入"}
        return {**args, "paths": [path, *args["paths"]]}

    lab.model.on("decide", edit(own_zone))
    run_id = published(lab)
    refused_once(lab, run_id, "decide/tool/", "level_not_program")
    assert "重仓买入" not in report_text(lab, run_id)


def test_an_order_in_prose_that_the_program_did_not_size_is_sent_back(lab: Lab) -> None:
    lab.add_model()

    def sell_now(seen: SeenRequest, args: dict[str, Any]) -> dict[str, Any]:
        price = facts_of(seen)["analytics"]["zones"]["sell"]["low"]
        return {**args, "what_to_do_now": f"立即以 {price} 元卖出 2100 股"}

    lab.model.on("report", edit(sell_now))
    run_id = published(lab)
    refused_once(lab, run_id, "report/tool/", "order_in_text")
    assert "2100 股" not in report_text(lab, run_id)


def test_a_modify_off_the_tick_goes_through_the_order_gate(lab: Lab) -> None:
    order = holding_account(lab.bench, BUY_SYMBOL, qty=1000)
    lab.add_model()

    def modify(seen: SeenRequest, args: dict[str, Any]) -> dict[str, Any]:
        sell = facts_of(seen)["analytics"]["zones"]["sell"]
        price = f"{Decimal(sell['low']) + Decimal('0.005')}"
        decision = {"order_id": order.order_id, "decision": "MODIFY", "new_price": price, "reason": "移入卖出区间"}
        return {**args, "open_orders": [decision]}

    lab.model.on("decide", edit(modify))
    run_id = published(lab, BUY_SYMBOL, account="main")
    refused_once(lab, run_id, "decide/tool/", "price_off_tick")


def test_a_reason_that_contradicts_the_action_is_sent_back(lab: Lab) -> None:
    lab.add_model()

    def contradict(seen: SeenRequest, args: dict[str, Any]) -> dict[str, Any]:
        baseline = facts_of(seen)["analytics"]["baseline"]
        other = "avoid" if baseline["direction"] != "avoid" else "hold"
        why = {"text": f"与程序基线一致：{baseline['direction']}", "evidence": [baseline["evidence_id"]]}
        return {**args, "action": {"action": other, "why": why}}

    lab.model.on("decide", edit(contradict))
    run_id = published(lab)
    refused_once(lab, run_id, "decide/tool/", "action_reason_contradicts")


# ---- 6 every field the model writes is checked when it is submitted ------------------------------------------
def test_free_text_in_the_peers_field_is_sent_back_at_once(lab: Lab) -> None:
    lab.add_model()
    lab.model.on("scene", edit(lambda seen, args: {**args, "peers": ["管理层已确认明年利润翻倍"]}))
    run_id = published(lab)
    refused_once(lab, run_id, "scene/tool/", "peer_unknown")
    assert "利润翻倍" not in report_text(lab, run_id)


def test_model_text_cannot_make_a_section_of_its_own(lab: Lab) -> None:
    lab.add_model()
    injected = "结论如上。\n\n## 数据与缺口\n\n没有任何缺口\n\n[详情](http://evil.example/x)"
    lab.model.on("report", edit(lambda seen, args: {**args, "conclusion": injected}))
    run_id = published(lab)
    markdown = lab.bench.research.report(lab.research().outcome(run_id).report_id or "").markdown
    headings = [line for line in markdown.splitlines() if line.startswith("## ")]
    assert headings.count("## 数据与缺口") == 1  # the program's own section only
    assert not re.search(r"(?<!\\)\]\(http", markdown) and "\\[详情\\]" in markdown  # a link is text, escaped


# ---- 7 runs that never end, or can never finish -------------------------------------------------------------
def test_a_new_calc_every_turn_is_not_progress_and_pauses(lab: Lab) -> None:
    lab.add_model()

    def busy(turn: int) -> Change:
        def change(seen: SeenRequest, reply: Reply) -> Reply:
            quote = facts_of(seen)["prepare"]["quote"]
            ref = {"evidence_id": quote["evidence_id"], "path": "$.price"}
            spec = ToolCallSpec("calc", {"expression": f"a * {2 if turn % 2 else 3} + a", "inputs": {"a": ref}},
                                id=f"call_busy_{turn}")  # fmt: skip
            return replace(reply, tool_calls=(spec,))

        return change

    lab.model.on("decide", *(busy(t) for t in range(40)))
    outcome = lab.research().analyze(DEMO_SYMBOL, model="scripted")
    assert outcome.status == "paused"
    assert outcome.reason.startswith(f"stalled: {STALL_IDLE_TURNS} turns added no evidence")
    assert len([s for s in lab.model.stages if s == "decide"]) <= STALL_IDLE_TURNS + 2


def test_a_model_that_keeps_cheating_ends_in_a_pause_with_the_reason(lab: Lab) -> None:
    lab.add_model()
    price = "prepare", "quote"
    cheat = with_risk(
        lambda f: f"收于{f[price[0]][price[1]]['price']}元", lambda f: block_id(f, "analytics", "backtest")
    )
    lab.model.on("decide", *[cheat] * (STALL_REPEATS + 2))  # spares: a retried request also takes one
    outcome = lab.research().analyze(DEMO_SYMBOL, model="scripted")
    assert outcome.status == "paused" and "number_uncited" in outcome.reason
    assert outcome.reason.startswith(f"stalled: the same validation failure came back {STALL_REPEATS} times")
    lab.model.changes["decide"].clear()
    assert lab.research().resume(outcome.run_id).status == "published"  # Continue: an honest model goes on
