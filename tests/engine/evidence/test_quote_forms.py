"""Quotations in every form a report can write them, apostrophes that are not quotations, and the rule that a
quote may not drop a negation or qualifier its source attaches to it (Chinese and English, long sources)."""

from __future__ import annotations

import dataclasses
import time

import pytest

from stockbench.evidence.quotes import (
    CLAUSE_REACH,
    NEGATIONS,
    NON_NEGATING,
    QUALIFIERS,
    Quotation,
    check_quote,
    normalise,
    quotations,
    quoted_spans,
)


def found(text: str) -> list[tuple[str, str]]:
    return [(q.text, q.form) for q in quotations(text)]


# ---- the forms ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("公告称“公司业绩稳步增长”。", [("公司业绩稳步增长", "“”")]),
        ("公告称‘公司业绩稳步增长’。", [("公司业绩稳步增长", "‘’")]),
        ("公告称「公司业绩稳步增长」。", [("公司业绩稳步增长", "「」")]),
        ("公告称『公司业绩稳步增长』。", [("公司业绩稳步增长", "『』")]),
        ('公告称"公司业绩稳步增长"。', [("公司业绩稳步增长", '""')]),
        ("公告称'公司业绩稳步增长'。", [("公司业绩稳步增长", "''")]),
        ("公告称＂公司业绩稳步增长＂。", [("公司业绩稳步增长", '""')]),  # full-width straight quotes
        ("公告称＇公司业绩稳步增长＇。", [("公司业绩稳步增长", "''")]),
        ("其“护城河”仍在，‘好’字当头。", [("护城河", "“”"), ("好", "‘’")]),  # no minimum length
        ("He said \"we expect growth\" and 'no more'.", [("we expect growth", '""'), ("no more", "''")]),
        ("“公司 坚持\n稳中求进”", [("公司坚持稳中求进", "“”")]),  # normalised; a single line break inside
    ],
)
def test_every_form_is_a_quotation(text: str, quoted: list[tuple[str, str]]) -> None:
    assert found(text) == quoted


def test_a_quotation_knows_where_its_content_is() -> None:
    text = "甲说“公司业绩稳步增长”，乙说'growth'。"
    first, second = quotations(text)
    assert (text[first.start : first.end], text[second.start : second.end]) == ("公司业绩稳步增长", "growth")
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.text = "x"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("他说“公司‘不’会亏损”。", [("公司‘不’会亏损", "“”")]),
        ("「甲『乙』丙」", [("甲『乙』丙", "「」")]),
        ("“外“内”外”", [("外“内”外", "“”")]),  # the same kind nested
        ("'he said \"yes\" twice'", [('he said "yes" twice', "''")]),
        ("“a ‘b’ c” and ‘d’", [("a ‘b’ c", "“”"), ("d", "‘’")]),
    ],
)
def test_a_quotation_inside_another_is_part_of_the_outer_one(text: str, quoted: list[tuple[str, str]]) -> None:
    assert found(text) == quoted


@pytest.mark.parametrize("text", ["“未闭合的引号", "“”与''", "“第一段\n\n第二段”", "「」"])
def test_unclosed_and_empty_marks_are_not_quotations(text: str) -> None:
    assert found(text) == []


def test_quoted_spans_are_the_texts_of_the_quotations() -> None:
    text = "“甲”与「乙」\n> 丙"
    assert quoted_spans(text) == [q.text for q in quotations(text)] == ["甲", "乙", "丙"]


# ---- apostrophes ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "the company's results",
        "the company’s results",
        "we don't and won’t expect it",
        "the companies' results and the banks’ view",
        "rock'n'roll",
        "in the '90s",
        "腾讯's results",
        "O'Neil’s view",
    ],
)
def test_apostrophes_are_not_quotations(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("the 'Buy' rating and the company's view", [("Buy", "''")]),
        ("‘the company’s view’ stands", [("the company’s view", "‘’")]),
        ("it's 'fine', they don't say 'never'", [("fine", "''"), ("never", "''")]),
        ("公司‘稳健’经营", [("稳健", "‘’")]),  # a CJK character is not a letter: Chinese has no apostrophes
        ("他说'好'就走了", [("好", "''")]),
        ("腾讯's 'AI' plan", [("AI", "''")]),
    ],
)
def test_single_quotes_around_words_are_quotations(text: str, quoted: list[tuple[str, str]]) -> None:
    assert found(text) == quoted


def test_a_single_quote_after_a_digit_opens_nothing() -> None:
    assert found("涨幅达3'稳健") == []
    assert found("3 '稳健'") == [("稳健", "''")]


# ---- blockquotes ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("> 公司业绩稳步增长", ["公司业绩稳步增长"]),
        ("分析\n   > 公司业绩稳步增长\n结束", ["公司业绩稳步增长结束"]),  # indented; the next line continues it
        ("> 公司业绩\n> 稳步增长", ["公司业绩稳步增长"]),  # one blockquote of two lines
        ("> > 嵌套的引文", ["嵌套的引文"]),
        ("> 引文一\n>\n> 引文二", ["引文一", "引文二"]),  # an empty ">" line ends a blockquote paragraph
        ("> 引文一\n\n结论", ["引文一"]),
        ("> 引文一\n- 列表项", ["引文一"]),  # a list item is a block of its own
        ("> 他说“不会亏损”", ["他说“不会亏损”"]),  # the blockquote is the outer quotation
        ("> We expect growth\nthis year", ["We expect growth this year"]),
        ("PE > 20倍\n价格>均线", []),  # a ">" that does not start a line
    ],
)
def test_blockquotes(text: str, quoted: list[str]) -> None:
    got = quotations(text)
    assert [q.text for q in got] == quoted
    assert all(q.form == ">" for q in got)


def test_a_blockquote_runs_from_its_first_line_to_its_last() -> None:
    text = "前文\n> 公司业绩\n> 稳步增长\n\n“后文”"
    block, after = quotations(text)
    assert text[block.start : block.end] == "公司业绩\n> 稳步增长"
    assert (after.text, after.form) == ("后文", "“”")


# ---- the negation and qualifier rule, in Chinese ----------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "quote", "dropped"),
    [
        ("公司不存在违规担保情形。", "存在违规担保情形", "不"),
        ("公司未发生资金占用。", "发生资金占用", "未"),
        ("公司没有收到问询函。", "有收到问询函", "没"),  # a quote that cuts into the word
        ("公司没有收到问询函。", "收到问询函", "没有"),
        ("公司并非控股股东。", "控股股东", "并非"),
        ("公司将于年内完成重组的说法并不属实。", "公司将于年内完成重组", "不"),  # the negation after the span
        ("如果市场回暖，公司将扩大产能。", "公司将扩大产能", "如果"),  # a comma does not end a clause
        ("公司将扩大产能，除非原材料价格继续上涨。", "公司将扩大产能", "除非"),
        ("公司业绩可能大幅增长。", "公司业绩", "可能"),
        ("公司若经营不善将被实施退市风险警示。", "将被实施退市风险警示", "不"),  # the nearest word is reported
        ("是否分红尚待股东大会审议。", "分红尚待股东大会审议", "否"),  # 是否 is not an exclusion
        ("公司开展非常规油气业务。", "油气业务", "非常规"),  # the longer word wins over 非常
        ("公司毫不犹豫地推进改革。", "犹豫地推进改革", "不"),  # an exclusion cut by the quote no longer excludes
        ("公司並無任何違規擔保。", "任何違規擔保", "無"),  # traditional characters
    ],
)
def test_a_quote_that_drops_a_chinese_negation_or_qualifier_fails(source: str, quote: str, dropped: str) -> None:
    result = check_quote(quote, source)
    assert (result.ok, result.reason, result.dropped) == (False, "drops_negation", dropped)
    assert result.passage == normalise(source).rstrip("。")  # the whole clause, to quote instead


@pytest.mark.parametrize(
    ("source", "quote"),
    [
        ("公司不存在违规担保情形。", "不存在违规担保情形"),  # the quote includes the negation
        ("公司不存在违规担保情形。", "公司不存在违规担保情形"),
        ("子公司不存在违规担保。母公司存在违规担保，已整改。", "存在违规担保"),  # one occurrence is clean
        ("公司不再扩张——新工厂将于明年投产。", "新工厂将于明年投产"),
        ("公司不再扩张；新工厂将于明年投产。", "新工厂将于明年投产"),
        ("公司不再扩张！新工厂将于明年投产？", "新工厂将于明年投产"),
        ("公司毫不犹豫地推进改革。", "推进改革"),
        ("公司若干子公司完成改制。", "子公司完成改制"),
        ("无锡工厂完成扩产。", "工厂完成扩产"),
    ],
)
def test_a_quote_that_keeps_its_clause_meaning_passes(source: str, quote: str) -> None:
    assert check_quote(quote, source).ok


# A PDF's text as pypdf gives it: every line broken at the page's width, mid-sentence, under a short title.
PDF_TEXT = (
    "关于不提前赎回可转债的公告\n"
    "本公司董事会及全体董事保证本公告内容不\n"
    "存在任何虚假记载、误导性陈述或者重大遗\n"
    "漏，并对其内容的真实性、准确性和完整性\n"
    "承担法律责任。公司股票价格已满足赎回条\n"
    "件，董事会决定本次行使提前赎回权利。\n"
    "一、赎回条款\n"
    "连续三十个交易日中至少十五个交易日的收盘价格\n"
    "不低于当期转股价格的130%。"
)


def test_a_wrapped_line_does_not_end_a_clause() -> None:
    result = check_quote("存在任何虚假记载、误导性陈述或者重大遗漏", PDF_TEXT)  # 不 ends the line before
    assert (result.reason, result.dropped) == ("drops_negation", "不")
    assert result.passage.startswith("本公司董事会") and result.passage.endswith("承担法律责任")
    result = check_quote("至少十五个交易日的收盘价格", PDF_TEXT)  # 不 starts the line after
    assert (result.reason, result.dropped) == ("drops_negation", "不")


@pytest.mark.parametrize(
    "quote",
    [
        "本公司董事会及全体董事保证本公告内容不存在任何虚假记载",  # the title's 不 is not in its clause
        "赎回条款",  # a heading between two paragraphs
        "公司股票价格已满足赎回条件，董事会决定本次行使提前赎回权利",  # across a wrapped line
    ],
)
def test_a_line_that_stops_short_ends_a_clause(quote: str) -> None:
    assert check_quote(quote, PDF_TEXT).ok


def test_every_occurrence_dirty_reports_the_first_clause() -> None:
    source = "子公司不存在违规担保。母公司亦未发现存在违规担保。"
    result = check_quote("存在违规担保", source)
    assert (result.reason, result.dropped, result.passage) == ("drops_negation", "不", "子公司不存在违规担保")


@pytest.mark.parametrize("word", [w for w in NON_NEGATING if not w.isascii()])
def test_the_chinese_exclusions_neither_negate_nor_qualify(word: str) -> None:
    assert check_quote("公司业绩稳步增长", f"报告提到{word}，公司业绩稳步增长。").ok


@pytest.mark.parametrize("word", [w for w in (*NEGATIONS, *QUALIFIERS) if not w.isascii()])
def test_every_chinese_negation_and_qualifier_counts(word: str) -> None:
    result = check_quote("公司业绩稳步增长", f"报告提到{word}，公司业绩稳步增长。")
    assert (result.reason, result.dropped) == ("drops_negation", word)


# ---- the rule in English ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "quote", "dropped"),
    [
        ("The company does not expect a loss this year.", "expect a loss this year", "not"),
        ("The company doesn't expect a loss.", "expect a loss", "doesn't"),
        ("The company doesn’t expect a loss.", "expect a loss", "doesn’t"),
        ("The company cannot pay a dividend.", "pay a dividend", "cannot"),
        ("The company will NOT pay a dividend.", "pay a dividend", "NOT"),
        ("We see no impairment.", "impairment", "no"),
        ("The board never approved the deal.", "approved the deal", "never"),
        ("Growth is expected if demand recovers.", "Growth is expected", "if"),  # the qualifier after the span
        ("Growth is expected, unless demand falls.", "Growth is expected", "unless"),
        ("The company may pay a special dividend.", "pay a special dividend", "may"),
        ("Sales could double next year.", "double next year", "could"),
        ("公司表示 it does not expect a loss", "expect a loss", "not"),
    ],
)
def test_a_quote_that_drops_an_english_negation_or_qualifier_fails(source: str, quote: str, dropped: str) -> None:
    result = check_quote(quote, source)
    assert (result.ok, result.reason, result.dropped) == (False, "drops_negation", dropped)


@pytest.mark.parametrize(
    ("source", "quote"),
    [
        ("The company does not expect a loss this year.", "does not expect a loss this year"),
        ("The company does not expect a loss. It expects growth.", "It expects growth"),  # a full stop ends it
        ("In May the company expected growth.", "the company expected growth"),  # the month
        ("Resolution No. 5 was approved by the board.", "was approved by the board"),
        ("The notice says nothing is known about iffy nonetheless mayors.", "The notice says"),
        ("Not only revenue but profit grew.", "revenue but profit grew"),
        ("No doubt demand recovered.", "demand recovered"),
        ("None the less demand recovered.", "demand recovered"),
        ("the company's plan works", "plan works"),
    ],
)
def test_english_quotes_that_keep_their_meaning_pass(source: str, quote: str) -> None:
    assert check_quote(quote, source).ok


@pytest.mark.parametrize("word", [w for w in NON_NEGATING if w.isascii()])
def test_the_english_exclusions_neither_negate_nor_qualify(word: str) -> None:
    assert check_quote("the company expects growth", f"{word} the company expects growth.").ok


@pytest.mark.parametrize("word", [w.replace("n't", "doesn't") for w in (*NEGATIONS, *QUALIFIERS) if w.isascii()])
def test_every_english_negation_and_qualifier_counts(word: str) -> None:
    result = check_quote("the company expects growth", f"The report says {word} the company expects growth.")
    assert (result.reason, result.dropped) == ("drops_negation", word)


# ---- long sources ---------------------------------------------------------------------------------------------


def test_a_long_source_with_thousands_of_occurrences_is_checked_in_linear_time() -> None:
    def checked(count: int) -> float:
        dirty = "".join(f"第{i}号子公司不存在违规担保。\n" for i in range(count))
        started = time.perf_counter()
        assert check_quote("存在违规担保", dirty + "母公司存在违规担保。").ok  # the only clean one is the last
        result = check_quote("存在违规担保", dirty)
        assert (result.reason, result.passage) == ("drops_negation", "第0号子公司不存在违规担保")
        return time.perf_counter() - started

    small, large = checked(4_000), checked(40_000)  # the large source is about a megabyte
    # ten times the occurrences: about ten times the time when linear, a hundred when quadratic (a ratio measured in
    # the same run, so a loaded machine slows both alike)
    assert large < 40 * max(small, 0.01), (small, large)


def test_a_clause_reaches_only_so_far_in_a_text_without_breaks() -> None:
    source = "公司不" + "甲" * CLAUSE_REACH + "存在违规担保" + "，乙" * 5_000
    assert check_quote("存在违规担保", source).ok  # the negation is beyond the clause's reach
    near = check_quote("存在违规担保", "公司不" + "甲" * 10 + "存在违规担保" + "，乙" * 5_000)
    assert near.reason == "drops_negation" and len(near.passage) <= len("存在违规担保") + 2 * CLAUSE_REACH


def test_a_quote_may_cross_clause_breaks() -> None:
    source = "公司业绩稳步增长。\n子公司不存在违规担保。"
    assert check_quote("公司业绩稳步增长。子公司不存在违规担保", source).ok
    result = check_quote("稳步增长。子公司", source)  # the clause it ends in goes on with the negation
    assert (result.reason, result.dropped, result.passage) == (
        "drops_negation",
        "不",
        "公司业绩稳步增长。子公司不存在违规担保",
    )


def test_a_quotation_is_a_plain_record() -> None:
    quotation = Quotation("甲", 1, 2, "“”")
    assert quotation == quotations("“甲”")[0]
