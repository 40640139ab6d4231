"""Quote grounding: the defined normalisation, verbatim matching, and the passage shown on a mismatch."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stockbench.evidence.quotes import INVISIBLE, QuoteCheck, check_quote, normalise, quote_problem, quoted_spans

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


def test_quoted_spans_are_every_quotation_in_a_text_however_short() -> None:
    text = "公告称“公司坚持稳中求进工作总基调”，其“护城河”仍在；「持续推进高质量发展的方针不变」。"
    text += 'He said "we expect growth".'
    assert quoted_spans(text) == [
        "公司坚持稳中求进工作总基调",
        "护城河",
        "持续推进高质量发展的方针不变",
        "we expect growth",
    ]


# ---- the normalisation, built line by line ------------------------------------------------------------

_CJK = r"\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_BETWEEN_CJK = re.compile(rf"(?<=[{_CJK}])\s+(?=[{_CJK}])|(?<=[{_CJK}])\s+(?=\S)|(?<=\S)\s+(?=[{_CJK}])")


def whole_text_normalise(text: str) -> str:
    """The normalisation as the module docstring defines it, over the whole text at once."""
    text = INVISIBLE.sub("", unicodedata.normalize("NFKC", text))
    return re.sub(r"\s+", " ", _BETWEEN_CJK.sub("", text)).strip()


PIECES = ["公司", "坚持", "a", "final", "１２", "，", "。", " ", "  ", "\n", "\r\n", "\n\n", "\t", "\u3000", "\u200b",
          "\u00a8", "e\u0301", "\ufeff", "\u2028", "Ａ", "—", "%", "\x85"]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12))
def test_normalising_line_by_line_is_normalising_the_whole_text(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert normalise(text) == whole_text_normalise(text)


# ---- why a quote fails ------------------------------------------------------------------------------------

NOTICE = (
    "甲公司关于2023年年度利润分配方案的公告\n"
    "本公司董事会及全体董事保证本公告内容不存在任何虚假记载、误导性陈述或者重大遗漏，并对其内容的真实性、准确性和"
    "完整性承担法律责任。\n"
    "三、相关风险提示\n"
    "本次利润分配方案尚需提交公司2023年年度股东大会审议通过后方可实施，敬请广大投资者注意投资风险。"
)
CLAUSE = (
    "本公司董事会及全体董事保证本公告内容不存在任何虚假记载、误导性陈述或者重大遗漏,"
    "并对其内容的真实性、准确性和完整性承担法律责任"
)


def test_a_verbatim_span_that_drops_the_negation_of_its_clause_fails() -> None:
    found = check_quote("存在任何虚假记载、误导性陈述或者重大遗漏", NOTICE)
    assert found == QuoteCheck(False, CLAUSE, 1.0, "drops_negation", "不")
    assert check_quote("不存在任何虚假记载、误导性陈述或者重大遗漏", NOTICE) == QuoteCheck(True)


def test_the_reason_of_each_result() -> None:
    assert check_quote("本次利润分配方案尚需提交公司2023年年度股东大会审议通过后方可实施", NOTICE).reason == ""
    assert check_quote("本次利润分配方案无需提交股东大会", NOTICE).reason == "mismatch"
    assert check_quote("", NOTICE).reason == "mismatch"
    mismatch = check_quote("本次利润分配方案无需提交股东大会", NOTICE)
    assert mismatch.dropped == "" and "本次利润分配方案尚需提交" in mismatch.passage


def test_quote_problem_for_a_dropped_negation_names_the_word_and_gives_the_clause() -> None:
    problem = quote_problem("存在任何虚假记载、误导性陈述或者重大遗漏", "ev-notice", "document", NOTICE, "risks")
    assert problem is not None and problem.code == "quote_drops_negation" and problem.location == "risks"
    assert "«不»" in problem.message and "ev-notice" in problem.message
    assert f"«{CLAUSE}»" in problem.fix
    assert "including «不»" in problem.fix and "do not quote it" in problem.fix
