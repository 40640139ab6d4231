"""Grounding by citation: a number must be a value of the evidence its statement cites, in the field that means what
the sentence says (the metric it names, the company it speaks of), never a coincidence elsewhere in the run."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from stockbench.evidence.citations import concept_of, ground_statement
from stockbench.evidence.documents import GateContext, Statement
from stockbench.evidence.numbers import extract_numbers
from stockbench.evidence.store import Evidence, canonical_json, digest, evidence_id_for

AT = datetime(2026, 11, 27, 7, tzinfo=UTC)
SUBJECT = "605903.SH"


def evidence(kind: str, body: object, media: str = "application/json") -> Evidence:
    text = body if isinstance(body, str) else canonical_json(body)
    return Evidence(evidence_id_for(text), digest(text), kind, "test", media, AT, text)


VALUATION = evidence("computation", {"pe_ttm": {"value": "34.67", "percentile": "0.5476"}, "pb_mrq": {"value": "5.97"}})
PEERS = evidence("computation", {"rows": [
    {"symbol": SUBJECT, "name": "示例酱香酒业", "pe_ttm": "34.67", "pb_mrq": "5.97"},
    {"symbol": "003902.SZ", "name": "示例浓香酒业", "pe_ttm": "27.51", "pb_mrq": "6.90"},
    {"symbol": "003903.SZ", "name": "示例清香酒业", "pe_ttm": "24.46", "pb_mrq": "6.35"},
]})  # fmt: skip
QUOTE = evidence("quote", {"symbol": SUBJECT, "price": "358.53", "change_pct": "1.96"})
DOCUMENT = evidence("announcement_text", "公司2026年前三季度实现营业收入12.35亿元，同比增长7.57%。", "text/plain")
SEARCH = evidence("search_result", {"query": "98765.43", "results": [{"snippet": "营收增长 31.5%"}]})
ALL = (VALUATION, PEERS, QUOTE, DOCUMENT, SEARCH)


@pytest.fixture
def ctx() -> GateContext:
    return GateContext("run", {e.evidence_id: e for e in ALL}, (), (), (), {}, {})


def codes(ctx: GateContext, text: str, *cited: Evidence) -> list[str]:
    statement = Statement("risks[0]", text, tuple(e.evidence_id for e in cited))
    return [p.code for p in ground_statement(statement, ctx, SUBJECT)]


def test_a_number_counts_only_in_the_evidence_the_statement_cites(ctx: GateContext) -> None:
    assert codes(ctx, "收于358.53元", QUOTE) == []
    assert codes(ctx, "收于358.53元", VALUATION) == ["number_uncited"]  # it is in the run, but not where cited
    assert codes(ctx, "收于358.54元", QUOTE) == ["number_ungrounded"]  # nowhere in the run


def test_a_peers_pe_is_not_the_subjects_own(ctx: GateContext) -> None:
    assert codes(ctx, "本公司市盈率仅 27.51 倍", PEERS, VALUATION) == ["number_misattributed"]
    assert codes(ctx, "本公司市盈率 34.67 倍", PEERS) == []
    assert codes(ctx, "示例浓香酒业市盈率 27.51 倍，低于本公司的 34.67 倍", PEERS) == []  # each of its company
    assert codes(ctx, "003902.SZ 的市盈率为 27.51 倍", PEERS) == []  # named by its code
    assert codes(ctx, "同业最低市盈率 24.46 倍", PEERS) == []  # the peer group: any peer, never the subject
    assert codes(ctx, "同业市盈率 34.67 倍", PEERS) == ["number_misattributed"]


def test_the_metric_the_sentence_names_must_be_the_fields(ctx: GateContext) -> None:
    assert codes(ctx, "市净率 5.97 倍", VALUATION) == []
    assert codes(ctx, "市盈率 5.97 倍", VALUATION) == ["number_misattributed"]  # a P/B said to be a P/E
    assert codes(ctx, "市盈率分位 54.76%", VALUATION) == []
    assert codes(ctx, "市盈率 0.5476", VALUATION) == ["number_misattributed"]  # a percentile is not the P/E itself
    assert codes(ctx, "PE 34.67x", VALUATION) == [] and codes(ctx, "34.67倍市盈率", VALUATION) == []


def test_documents_ground_what_they_write_and_search_results_nothing(ctx: GateContext) -> None:
    assert codes(ctx, "营业收入12.35亿元，增长7.57%", DOCUMENT) == []
    assert codes(ctx, "营收增长 31.5%", SEARCH) == ["number_ungrounded"]  # a snippet is a candidate, not evidence
    assert codes(ctx, "代码 98765.43", SEARCH) == ["number_ungrounded"]  # nor is the model's own query


def test_the_fix_lists_the_cited_evidences_candidates(ctx: GateContext) -> None:
    statement = Statement("risks[0]", "涨幅1.95%", (QUOTE.evidence_id,))
    (problem,) = ground_statement(statement, ctx, SUBJECT)
    assert problem.code == "number_ungrounded" and "1.96%" in problem.fix and QUOTE.evidence_id in problem.fix


def test_the_concept_is_read_next_to_the_number() -> None:
    text = "市盈率 34.67 倍，换手率 2.1%，收于 358.53 元"
    found = [concept_of(text, n) for n in extract_numbers(text)]
    assert found == [("pe", False), ("turnover", False), (None, False)]


def test_a_baseline_reason_s_limit_is_cited_in_its_unit_and_its_reason_code_names_no_company() -> None:
    """A baseline reason carries its unit for its value and its limit ({"code": "check_failed", "value": "56.27",
    "limit": "50", "unit": "pct"}): "50%" grounds on the limit as it does on the value (numbers.py already read
    both), and the reason's code is no symbol, so its numbers are the subject's, not a company called check_failed."""
    baseline = evidence(
        "computation",
        {
            "direction": "wait",
            "reasons": [
                {
                    "code": "check_failed",
                    "check": "extension",
                    "value": "56.27",
                    "op": "<=",
                    "limit": "50",
                    "unit": "pct",
                }
            ],
        },
    )
    peers = evidence("computation", {"rows": [{"code": "003902.SZ", "pe_ttm": "27.51"}]})  # a code that IS a symbol
    ctx = GateContext("run", {e.evidence_id: e for e in (baseline, peers)}, (), (), (), {}, {})
    assert codes(ctx, "高于250日均线 56.27%，超过决策基线的过热上限 50%", baseline) == []
    assert codes(ctx, "above the 250-day MA by 56.27%, beyond the overheating limit of 50%", baseline) == []
    assert codes(ctx, "本公司市盈率 27.51 倍", peers) == ["number_misattributed"]  # a row's symbol code still names it


def test_a_buy_s_setup_record_grounds_on_the_baseline_s_reason() -> None:
    """The buy's reason cites the setup's measured record (decision_baseline v1.4): the words the report and the
    model's facts carry for it ground on the baseline block, each figure in its unit."""
    from stockbench.research.wording.actions import baseline_reason

    reason = {"code": "buy_conditions_met", "setup_beat_rate": 0.455, "base_beat_rate": 0.431,
              "setup_excess_pct": 0.79, "base_excess_pct": 0.29, "measured_from": "2021-01-01"}  # fmt: skip
    baseline = evidence("computation", {"direction": "buy", "reasons": [reason]})
    ctx = GateContext("run", {baseline.evidence_id: baseline}, (), (), (), {}, {})
    for language in ("zh", "en"):
        assert codes(ctx, baseline_reason(reason, language), baseline) == [], language
    assert codes(ctx, "跑赢市场的占 46.5%", baseline) == ["number_ungrounded"]  # a slip is still caught
