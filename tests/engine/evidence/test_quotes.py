"""Quote grounding: the defined normalisation, verbatim matching, and the passage shown on a mismatch."""

from __future__ import annotations

import pytest

from stockbench.evidence.quotes import check_quote, normalise, quote_problem, quoted_spans

SOURCE = (
    "甲公司2023年年度报告摘要\n"
    "报告期内，公司实现营业总收入1,505.60亿元，同比增长18.04%；归属于上市公司股东的净利润747.34亿元，"
    "同比增长19.16%。\n公司坚持稳中求进工作总基调，持续推进 高质量 发展。\n"
    "The Board recommends a final dividend of RMB 30.876 per share (tax inclusive)."
)


@pytest.mark.parametrize(
    ("raw", "normal"),
    [
        ("Ａ股　市场", "A股市场"),  # full-width letters and the ideographic space
        ("１，５０５．６０亿元", "1,505.60亿元"),
        ("净利润\u200b747.34\u2060亿元", "净利润747.34亿元"),  # zero-width space and word joiner
        ("\ufeff公告\u00ad正文", "公告正文"),  # byte-order mark, soft hyphen
        ("稳中\u202e求进\u2066工作\u2069", "稳中求进工作"),  # bidi override and isolates
        ("hidden\U000e0041\U000e0042 tags", "hidden tags"),  # Unicode tag characters
        ("公司 坚持\n稳中求进", "公司坚持稳中求进"),  # PDF line breaks between CJK characters
        ("a   final\n\tdividend ", "a final dividend"),
        ("RMB 30.876", "RMB 30.876"),
    ],
)
def test_normalisation(raw: str, normal: str) -> None:
    assert normalise(raw) == normal


@pytest.mark.parametrize(
    "quote",
    [
        "实现营业总收入1,505.60亿元，同比增长18.04%",
        "实现营业总收入１，５０５．６０亿元，同比增长１８．０４％",  # full-width forms
        "实现营业总收入 1,505.60 亿元",  # spaces around CJK
        "持续推进高质量发展",  # the source has spaces inside
        "净利润747.34\u200b亿元",
        "a final   dividend of RMB 30.876 per share",
        "公司坚持稳中求进工作总基调，\n持续推进",
    ],
)
def test_verbatim_quotes_match_after_normalisation(quote: str) -> None:
    assert check_quote(quote, SOURCE).ok


@pytest.mark.parametrize(
    "quote",
    [
        "实现营业总收入1,505.61亿元",  # a changed number
        "实现营业收入1,505.60亿元",  # a dropped character
        "实现营业总收入1,505.60万元",  # a changed unit
        "公司坚持稳中求近工作总基调",  # one changed character
        "公司坚持求进稳中工作总基调",  # swapped words
        "a final dividend of RMB 30.867 per share",
        "a special dividend of RMB 30.876 per share",
        "",
        "   ",
    ],
)
def test_any_other_difference_is_a_mismatch(quote: str) -> None:
    assert not check_quote(quote, SOURCE).ok


def test_the_mismatch_carries_the_source_passage_around_the_closest_match() -> None:
    found = check_quote("公司坚持稳中求近工作总基调", SOURCE)
    assert not found.ok and found.ratio > 0.9
    assert "公司坚持稳中求进工作总基调" in found.passage
    assert len(found.passage) < len(normalise(SOURCE))  # a passage, not the whole document


def test_the_closest_passage_is_found_in_a_long_document() -> None:
    filler = "".join(f"第{i}段：本段与引文无关，仅为填充内容。" for i in range(2000))
    source = filler + "董事会建议派发末期股息每股30.876元（含税）。" + filler
    found = check_quote("董事会建议派发末期股息每股30.867元（含税）", source)
    assert not found.ok
    assert "董事会建议派发末期股息每股30.876元" in found.passage


def test_quote_problem_codes() -> None:
    assert quote_problem("持续推进高质量发展", "ev-doc", "document", SOURCE, "q0") is None
    missing = quote_problem("x", "ev-gone", None, None, "q1")
    snippet = quote_problem("持续推进高质量发展", "ev-snip", "search_result", SOURCE, "q2")
    wrong = quote_problem("持续推进高品质发展", "ev-doc", "document", SOURCE, "q3")
    assert missing is not None and missing.code == "quote_source_missing" and missing.location == "q1"
    assert snippet is not None and snippet.code == "quote_not_full_text" and "search_result" in snippet.message
    assert wrong is not None and wrong.code == "quote_mismatch"
    assert "持续推进高质量发展" in wrong.fix  # the source passage, to copy from


@pytest.mark.parametrize("kind", ["document", "announcement_text", "filing", "page"])
def test_full_text_kinds_may_be_quoted(kind: str) -> None:
    assert quote_problem("持续推进高质量发展", "ev-doc", kind, SOURCE, "q") is None


@pytest.mark.parametrize("kind", ["search_result", "quote", "bars", "computation", "news_list"])
def test_other_kinds_may_not_be_quoted(kind: str) -> None:
    problem = quote_problem("持续推进高质量发展", "ev-x", kind, SOURCE, "q")
    assert problem is not None and problem.code == "quote_not_full_text"


def test_quoted_spans_are_the_long_quotations_in_a_text() -> None:
    text = "公告称“公司坚持稳中求进工作总基调”，其“护城河”仍在；「持续推进高质量发展的方针不变」。"
    text += 'He said "we expect growth".'
    assert quoted_spans(text) == ["公司坚持稳中求进工作总基调", "持续推进高质量发展的方针不变", "we expect growth"]
