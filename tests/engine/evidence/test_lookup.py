"""Evidence look-up: the passage around a report's number or quote, read with the gates' rules; what a report cites;
and a look-up within one report (a number of its claims, one of its quotes, an id it cites)."""

from __future__ import annotations

import pytest

from stockbench.errors import InvalidInput, NotFound
from stockbench.evidence.lookup import EvidenceLookup, evidence_detail, lookup, report_citations, report_request
from stockbench.evidence.records import EvidenceRequest
from stockbench.evidence.store import EvidenceStore
from tests.engine.evidence.conftest import AT

DRAFT = {
    "claims": [
        {"text": "站上20日均线，涨幅 3.5%", "evidence": ["ev-" + "a" * 24]},
        {"text": "营收增长 12.5%，净利润 3.2 亿元，市盈率 27.51 倍", "evidence": ["ev-" + "b" * 24, "ev-" + "c" * 24]},
    ],
    "risks": [{"text": "涨幅 3.5% 之后回落", "evidence": ["ev-" + "d" * 24]}],
    "quotes": [{"text": "公司  经营稳健", "evidence_id": "ev-" + "e" * 24}, {"text": "", "evidence_id": "ev-x"}],
}


def test_a_number_is_highlighted_where_the_body_has_it_despite_invisible_characters(store: EvidenceStore) -> None:
    body = "年报摘要：\u200b\u200b营收\ufeff增长 12.5%，净利润 3.2 亿元。"  # three invisible characters
    ev = store.put("run", "document", "https://example.com/a", body, fetched_at=AT)
    detail = evidence_detail(store, ev.evidence_id, number="12.5%")
    assert detail.found and detail.highlight == "12.5%"
    assert detail.passage == body and detail.where.startswith("text@")
    profit = evidence_detail(store, ev.evidence_id, number="3.2亿元")
    assert profit.found and profit.highlight == "3.2 亿元"


def test_a_number_in_json_evidence_shows_its_field(store: EvidenceStore) -> None:
    ev = store.put("run", "valuation", "program", {"pe_ttm": 27.51, "pb": 3.1}, fetched_at=AT)
    detail = evidence_detail(store, ev.evidence_id, number="27.51")
    assert detail.found and detail.highlight == "27.51" and detail.where == "$.pe_ttm"
    assert '"pe_ttm": 27.51' in detail.passage


def test_a_number_the_evidence_does_not_hold_shows_its_opening(store: EvidenceStore) -> None:
    ev = store.put("run", "document", "https://example.com/a", "营收增长 12.5%。", fetched_at=AT)
    detail = evidence_detail(store, ev.evidence_id, number="99.9%")
    assert not detail.found and detail.highlight == "" and detail.passage == "营收增长 12.5%。"


def test_a_quote_that_drops_a_negation_is_shown_as_refused(store: EvidenceStore) -> None:
    body = "管理层表示，公司预计本年度不会出现亏损。"
    ev = store.put("run", "document", "https://example.com/a", body, fetched_at=AT)
    detail = evidence_detail(store, ev.evidence_id, quote="会出现亏损")
    assert not detail.found, "the quote stands verbatim in the body, but its clause says the opposite"
    assert (detail.quote_check, detail.dropped) == ("drops_negation", "不")
    assert "不会出现亏损" in detail.passage and detail.highlight == "会出现亏损"


def test_a_quote_that_holds_is_found_where_it_stands(store: EvidenceStore) -> None:
    body = "董事会认为：公司经营稳健，现金流充裕。"
    ev = store.put("run", "document", "https://example.com/a", body, fetched_at=AT)
    detail = evidence_detail(store, ev.evidence_id, quote="公司经营稳健")
    assert detail.found and detail.quote_check == "" and detail.highlight == "公司经营稳健"
    assert detail.where == f"text@{body.find('公司经营稳健')}"
    other = evidence_detail(store, ev.evidence_id, quote="公司经营困难")
    assert not other.found and other.quote_check == "mismatch" and "经营稳健" in other.passage


def test_lookup_lists_the_evidence_that_holds_the_value_first(store: EvidenceStore) -> None:
    without = store.put("run", "document", "https://example.com/a", "没有数字。", fetched_at=AT)
    holding = store.put("run", "document", "https://example.com/b", "涨幅 3.5%。", fetched_at=AT)
    details = lookup(store, EvidenceRequest((without.evidence_id, "ev-" + "0" * 24, holding.evidence_id), "3.5%"))
    assert details[0].evidence_id == holding.evidence_id
    missing = next(d for d in details if d.missing)
    assert missing.evidence_id == "ev-" + "0" * 24 and not missing.found
    assert [d.evidence_id for d in EvidenceLookup(store).lookup(EvidenceRequest((holding.evidence_id,)))] == [
        holding.evidence_id
    ]


def test_a_report_cites_claims_longest_first_with_their_numbers_but_not_periods() -> None:
    cited = report_citations(DRAFT, "正文引用 [ev-" + "f" * 24 + "] 与 [ev-" + "a" * 24 + "]")
    assert [c.text for c in cited.claims] == [
        "营收增长 12.5%，净利润 3.2 亿元，市盈率 27.51 倍", "站上20日均线，涨幅 3.5%", "涨幅 3.5% 之后回落",
    ]  # fmt: skip
    assert [n.text for n in cited.claims[0].numbers] == ["12.5%", "3.2 亿元", "27.51 倍"]
    assert [n.text for n in cited.claims[1].numbers] == ["3.5%"], "a period (20日) traces to nothing"
    span = cited.claims[1].numbers[0]
    assert cited.claims[1].text[span.start : span.end] == "3.5%"
    assert [(q.text, q.evidence_id) for q in cited.quotes] == [("公司  经营稳健", "ev-" + "e" * 24)]
    assert cited.evidence_ids == tuple(f"ev-{c * 24}" for c in "bcadef")


def test_a_look_up_in_a_report_finds_what_it_cites() -> None:
    cited = report_citations(DRAFT)
    both = report_request(cited, number="3.5%")
    assert both == EvidenceRequest(("ev-" + "a" * 24, "ev-" + "d" * 24), number="3.5%")
    quote = report_request(cited, quote="公司 经营稳健")  # spacing aside, the report's own quote
    assert quote == EvidenceRequest(("ev-" + "e" * 24,), quote="公司  经营稳健")
    assert report_request(cited, evidence_id="ev-" + "c" * 24) == EvidenceRequest(("ev-" + "c" * 24,))


def test_a_look_up_in_a_report_refuses_what_it_does_not_cite() -> None:
    cited = report_citations(DRAFT)
    with pytest.raises(NotFound, match="states the number '20'") as refused:
        report_request(cited, number="20")
    assert "12.5%" in refused.value.hint and "3.5%" in refused.value.hint
    with pytest.raises(NotFound, match="does not quote"):
        report_request(cited, quote="公司经营困难")
    with pytest.raises(NotFound, match="does not cite"):
        report_request(cited, evidence_id="ev-" + "9" * 24)
    with pytest.raises(InvalidInput, match="one thing"):
        report_request(cited, number="3.5%", quote="公司 经营稳健")
