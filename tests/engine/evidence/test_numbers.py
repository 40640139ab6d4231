"""Reading numbers in text (units, precision, exclusions) and grounding them in evidence values."""

from __future__ import annotations

from decimal import Decimal

import pytest

from stockbench.evidence.numbers import (
    EvidenceValue,
    NumberIndex,
    chinese_numeral,
    exact_number,
    extract_numbers,
    ground_numbers,
    index_evidence,
    unit_for_key,
    values_from_json,
    values_from_text,
)
from stockbench.evidence.numerals import unreadable_numerals
from stockbench.evidence.store import canonical_json


def read(text: str) -> list[tuple[str, str, str]]:
    """(value, half width, unit) of each number, as strings for readable assertions."""
    return [(f"{n.value.normalize():f}", f"{n.half_width.normalize():f}", n.unit) for n in extract_numbers(text)]


def index(*bodies: object) -> NumberIndex:
    triples = []
    for i, body in enumerate(bodies):
        if isinstance(body, str):
            triples.append((f"ev-t{i}", "text/plain", body))
        else:
            triples.append((f"ev-j{i}", "application/json", canonical_json(body)))
    return index_evidence(triples)


def ungrounded(text: str, idx: NumberIndex) -> list[str]:
    return [p.message.split("'")[1] for p in ground_numbers(text, idx, "t")]


# ---- reading ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("收盘价1,689.50元", [("1689.5", "0.005", "plain")]),
        ("收盘价1689.5元", [("1689.5", "0.05", "plain")]),  # four integer digits and a decimal: a price, not a date
        ("成交额12.35亿元", [("1235000000", "500000", "plain")]),
        ("成交量358.75万股", [("3587500", "50", "plain")]),
        ("总市值2.12万亿", [("2120000000000", "5000000000", "plain")]),
        ("5千元", [("5000", "500", "plain")]),
        ("涨幅3.5%", [("3.5", "0.05", "pct")]),
        ("上升1.25个百分点", [("1.25", "0.005", "pp")]),
        ("up 1.25 percentage points", [("1.25", "0.005", "pp")]),
        ("a 2pp gap", [("2", "0.5", "pp")]),
        ("up 15.2 percent", [("15.2", "0.05", "pct")]),
        ("市盈率25.37倍", [("25.37", "0.005", "multiple")]),
        ("trades at 1.8x book", [("1.8", "0.05", "multiple")]),
        ("-3.5%", [("-3.5", "0.05", "pct")]),
        ("+3.5%", [("3.5", "0.05", "pct")]),
        ("下跌3.5%", [("3.5", "0.05", "pct")]),
        ("三成", [("30", "0.5", "pct")]),  # the precision of "30%", not of a tenth
        ("百分之三十五", [("35", "0.5", "pct")]),
        ("两倍", [("2", "0.5", "multiple")]),
        ("三万亿元", [("3000000000000", "500000000000", "plain")]),
        ("增长３５．２％", [("35.2", "0.05", "pct")]),
        ("１，６８９．５０元", [("1689.5", "0.005", "plain")]),
        ("US$333.02", [("333.02", "0.005", "plain")]),
        ("HK$431.0", [("431", "0.05", "plain")]),
        ("RMB1,234.5", [("1234.5", "0.05", "plain")]),
        ("¥1,689.5", [("1689.5", "0.05", "plain")]),
        ("revenue of CNY 1.2 billion", [("1200000000", "50000000", "plain")]),
        ("成交額12.3億港元", [("1230000000", "5000000", "plain")]),
        ("上升1.5個百分點", [("1.5", "0.05", "pp")]),
        ("PE25倍", [("25", "0.5", "multiple")]),  # a valuation ratio glued to its name is still a number
        ("TTM25.3倍", [("25.3", "0.05", "multiple")]),
        ("成交量 842743 手", [("842743", "0.5", "plain")]),  # six digits in prose are a number, not a code
    ],
)
def test_numbers_are_read_with_unit_and_precision(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert read(text) == expected


def test_a_range_dash_is_not_a_minus_sign() -> None:
    assert read("买入区间1,650-1,700元") == [("1650", "0.5", "plain"), ("1700", "0.5", "plain")]
    assert read("1500-1600元") == [("1500", "0.5", "plain"), ("1600", "0.5", "plain")]
    assert read("2000-2100元") == [("2000", "0.5", "plain"), ("2100", "0.5", "plain")]


def test_positions_cover_the_number_as_written() -> None:
    text = "最新价-1,234.5元，成交额12.3亿元"
    first, second = extract_numbers(text)
    assert text[first.start : first.end] == "-1,234.5元" and first.signed
    assert text[second.start : second.end] == "12.3亿元" and not second.signed


@pytest.mark.parametrize(
    "text",
    [
        "2024-06-28",
        "2024/6/28",
        "2024.06.28",
        "2024年6月28日",
        "2024年",
        "2024年度",
        "2024财年",
        "6月28日",
        "12月",
        "4月以来",
        "2023Q3",
        "2025E",
        "Q3 2024",
        "in 2021",
        "since 2019",
        "June 28, 2024",
        "14:30",
        "09:30:00",
        "600519.SH",
        "000001.sz",
        "00700.HK",
        "sh600519",
        "贵州茅台（600519）",
        "(600519.SH)",
        "代码：600519",
        "ev-3a4b5c6d7e8f9a0b1c2d3e4f",
        "引用ev-3a4b5c6d7e8f9a0b1c2d3e4f",
        "MA20",
        "站上MA20",
        "EMA12",
        "rsi6",
        "KDJ(9,3,3)",
        "MACD（12,26,9）",
        "BOLL(20, 2)",
        "沪深300",
        "中证1000指数",
        "CSI 300",
        "T+1",
        "1. 概述",
        "2、估值",
        "(3) 风险",
        "## 1. 结论",
        "第3季度",
        "第二",
        "the 2nd quarter",
        "单位：亿元",
        "万元",
        "一股力量",
        "一成不变",
        "万科A",
        "千万不要追高",
    ],
)
def test_excluded_forms_are_not_numbers(text: str) -> None:
    assert read(text) == []


def test_exclusions_do_not_swallow_the_numbers_next_to_them() -> None:
    assert read("MA20为1,712.30元") == [("1712.3", "0.005", "plain")]
    assert read("2024-06-28收盘1,689.50元") == [("1689.5", "0.005", "plain")]
    assert read("1. 收盘价1,689.50元") == [("1689.5", "0.005", "plain")]
    assert read("3.5%的涨幅来自估值") == [("3.5", "0.05", "pct")]  # a line may begin with a number
    assert read("600519.SH收于1,689.50元") == [("1689.5", "0.005", "plain")]
    assert read("RSI6为72.5") == [("72.5", "0.05", "plain")]


def test_periods_are_marked_so_method_constants_pass() -> None:
    numbers = extract_numbers("近20个交易日上涨5.2%，60日均线，持有3个月，7天，a 20-day average over 60 sessions")
    assert [(n.text, n.period) for n in numbers] == [("20", True), ("5.2%", False), ("60", True), ("3", True),
                                                     ("7", True), ("20", True), ("60", True)]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "value"),
    [("三十五", 35), ("一百二十", 120), ("两", 2), ("十", 10), ("两千三百万", 23_000_000), ("三万亿", 3 * 10**12),
     ("一亿二千万", 120_000_000), ("十万亿", 10**13), ("零", 0), ("三x", None)],
)  # fmt: skip
def test_chinese_numerals(text: str, value: int | None) -> None:
    assert chinese_numeral(text) == value


# ---- evidence values -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "unit"),
    [("change_pct", "pct"), ("pct_chg", "pct"), ("turnover_pct", "pct"), ("diff_pp", "pp"), ("win_rate", "fraction"),
     ("probability", "fraction"), ("pe_ttm", "multiple"), ("pb", "multiple"), ("close", "plain"),
     ("volume", "plain")],
)  # fmt: skip
def test_units_come_from_field_names(key: str, unit: str) -> None:
    assert unit_for_key(key) == unit


def test_json_values_carry_units_and_paths() -> None:
    data = {"quote": {"last": "1689.50", "pe_ttm": 25.37, "change_pct": -1.31}, "bars": [{"close": 1700}],
            "calc": {"unit": "pp", "value": "1.25"}, "roe": {"unit": "%", "value": "30.2"}, "flag": True,
            "day": "2024-06-28", "nan": float("nan")}  # fmt: skip
    found = {(v.where, f"{v.value}", v.unit) for v in values_from_json("ev-1", data)}
    assert found == {
        ("$.quote.last", "1689.50", "plain"),
        ("$.quote.pe_ttm", "25.37", "multiple"),
        ("$.quote.change_pct", "-1.31", "pct"),
        ("$.bars[0].close", "1700", "plain"),
        ("$.calc.value", "1.25", "pp"),
        ("$.roe.value", "30.2", "pct"),
    }


def test_exact_number_accepts_finite_numbers_only() -> None:
    assert exact_number("1,234.50") == Decimal("1234.50")
    assert exact_number(0.1) == Decimal("0.1")
    assert [exact_number(v) for v in (True, None, "NaN", "inf", float("inf"), "abc", "1" * 45)] == [None] * 7


def test_text_values_carry_offsets() -> None:
    values = list(values_from_text("ev-d", "营业总收入1,505.60亿元，同比增长18.04%"))
    assert [(f"{v.value.normalize():f}", v.unit, v.where) for v in values] == [
        ("150560000000", "plain", "text@5"),
        ("18.04", "pct", "text@20"),
    ]


# ---- grounding -----------------------------------------------------------------------------------


def test_display_rounding_is_half_up_at_the_written_precision() -> None:
    idx = index({"last": "1234.46", "low": "1234.45", "high": "1234.55"})
    assert ungrounded("1,234.5元", idx) == []
    only = index({"last": "1234.6"})
    assert ungrounded("1,234.5元", only) == ["1,234.5元"]
    edge = index({"x": "1234.55"})
    assert ungrounded("1,234.5", edge) == ["1,234.5"]  # 1234.55 displays as 1,234.6
    assert ungrounded("1,234.6", edge) == []


def test_negative_values_round_away_from_zero_too() -> None:
    idx = index({"change_pct": "-3.55"})
    assert ungrounded("-3.6%", idx) == [] and ungrounded("-3.5%", idx) == ["-3.5%"]
    assert ungrounded("下跌3.6%", idx) == []  # unsigned text may describe a fall


def test_a_signed_number_needs_a_value_of_its_sign() -> None:
    idx = index({"change_pct": "-1.31"})
    assert ungrounded("+1.31%", idx) == ["+1.31%"]
    assert ungrounded("-1.31%", idx) == []
    rise = index({"change_pct": "1.31"})
    assert ungrounded("-1.31%", rise) == ["-1.31%"]


def test_scaled_units_match_their_base_values() -> None:
    idx = index({"amount": "1234567890", "volume": 3587543, "total_mcap": "2122345678900"})
    assert ungrounded("成交额12.35亿元，成交量358.75万股，总市值2.12万亿元", idx) == []
    assert ungrounded("成交额12.35万元", idx) == ["12.35万元"]
    assert ungrounded("成交量358.75亿股", idx) == ["358.75亿股"]
    assert ungrounded("总市值2.12亿元", idx) == ["2.12亿元"]


def test_percent_and_percentage_points_never_stand_for_each_other() -> None:
    idx = index({"return_pct": "3.25"}, {"unit": "pp", "value": "1.75"})
    assert ungrounded("上涨3.25%，跑赢1.75个百分点", idx) == []
    assert ungrounded("跑赢3.25个百分点", idx) == ["3.25个百分点"]
    assert ungrounded("上涨1.75%", idx) == ["1.75%"]


def test_a_fraction_may_be_written_as_a_percentage_or_a_decimal() -> None:
    idx = index({"win_rate": 0.6235})
    assert ungrounded("胜率62.35%，即0.6235", idx) == []
    assert ungrounded("胜率0.62%", idx) == ["0.62%"]


def test_multiples_and_plain_values_stand_for_each_other() -> None:
    idx = index({"pe_ttm": "25.37"}, {"unit": "multiple", "value": "1.85"})
    assert ungrounded("市盈率25.37倍，PE 25.4，放量1.85倍", idx) == []
    assert ungrounded("市盈率25.37%", idx) == ["25.37%"]


def test_documents_are_evidence_too() -> None:
    idx = index("公司2023年实现营业总收入1,505.60亿元，同比增长18.04%；净利润747.34亿元。")
    assert ungrounded("营收约1,505.6亿元，增长18.0%，净利润747亿元", idx) == []
    assert ungrounded("净利润747.34万元", idx) == ["747.34万元"]


def test_period_constants_pass_but_other_counts_do_not() -> None:
    idx = index({"x": "1"})
    assert ungrounded("近20个交易日，60日均线，250个交易日", idx) == []
    assert ungrounded("连续7天上涨", idx) == ["7"]


def test_the_problem_names_the_number_its_place_and_the_nearest_values() -> None:
    idx = index({"last": "1689.50", "high": "1718.88"})
    (problem,) = ground_numbers("现价1,689.60元", idx, "section:summary")
    assert problem.code == "number_ungrounded"
    assert problem.location == "section:summary[2:11]"
    assert "'1,689.60元'" in problem.message
    assert "nearest: 1689.5 (ev-j0 $.last)" in problem.fix


def test_nearest_values_suggest_the_unit_slip() -> None:
    idx = index({"amount": "1234567890"})
    (problem,) = ground_numbers("成交额12.35万元", idx, "t")
    assert "1234567890 (ev-j0 $.amount)" in problem.fix


def test_no_evidence_means_every_number_is_a_problem() -> None:
    assert ungrounded("收盘1,689.50元，上涨1.2%", index_evidence([])) == ["1,689.50元", "1.2%"]
    assert "nearest: none" in ground_numbers("1.5", index_evidence([]), "t")[0].fix


def test_build_from_exact_values_and_matches_list_them() -> None:
    values = [EvidenceValue(Decimal("1689.50"), "plain", "ev-a", "$.last"),
              EvidenceValue(Decimal("-1.31"), "pct", "ev-b", "$.chg")]  # fmt: skip
    idx = NumberIndex.build(values)
    (number,) = extract_numbers("1,689.5元")
    assert idx.matches(number) == [values[0]]
    (fall,) = extract_numbers("下跌1.3%")
    assert idx.matches(fall) == [values[1]]


def test_the_index_finds_values_among_many() -> None:
    bars = [{"close": f"{10 + i / 100:.2f}", "volume": 100_000 + i} for i in range(5000)]
    idx = index({"bars": bars})
    assert ungrounded("收盘35.67元，成交10.45万股", idx) == []  # 35.67 is bar 2567; 104,500 is near 100,000 + 4500
    assert ungrounded("收盘60.01元", idx) == ["60.01元"]


def test_the_fast_index_holds_exactly_the_values_the_exact_readers_find() -> None:
    data = {"quote": {"last": "1689.50", "pe_ttm": 25.37, "change_pct": -1.31, "volume": 2873456},
            "bars": [{"close": 1700, "turnover_pct": "0.23"}, {"close": "1,702.5"}],
            "calc": {"unit": "pp", "value": "1.25"}, "rate": 0.5862, "list": [1, 2.5, "3"], "text": "not a number",
            "flag": False}  # fmt: skip
    text = "营业总收入1,505.60亿元，同比增长18.04%；跑赢1.25个百分点，PE 25倍，2024-06-28，MA20，-3.5%"
    exact = {(f"{v.value.normalize():f}", v.unit) for v in values_from_json("ev-j", data)}
    exact |= {(f"{v.value.normalize():f}", v.unit) for v in values_from_text("ev-t", text)}
    fast = index_evidence([("ev-j", "application/json", canonical_json(data)), ("ev-t", "text/plain", text)])
    assert {(f"{v.value.normalize():f}", v.unit) for v in fast.values()} == exact


def test_a_json_scalar_body_is_indexed() -> None:
    idx = index("1234.5")  # a text body
    json_scalar = index_evidence([("ev-s", "application/json", "1689.5")])
    assert ungrounded("1,234.5", idx) == [] and ungrounded("1,689.5", json_scalar) == []
    (number,) = extract_numbers("1,689.5")
    assert json_scalar.matches(number)[0].where == "$"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Market 15% share", [("15", "0.5", "pct")]),  # a word that begins like a month is not a date
        ("Decreased 12% in the quarter", [("12", "0.5", "pct")]),
        ("Revenue(1500)", [("1500", "0.5", "plain")]),  # not an indicator's parameter list
        ("closed on 2024-06-28.", []),  # a date at the end of a sentence
        ("on June 28, 2024, it rose 3.5%", [("3.5", "0.05", "pct")]),
    ],
)
def test_exclusions_are_narrow(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert read(text) == expected


# ---- the red team's forms (more in test_numeral_families.py) ---------------------------------------------


def test_hidden_and_worded_numbers_are_grounded_like_digits() -> None:
    idx = index({"amount": "20000000", "probability": "0.28", "volume": 9})
    assert ungrounded("成交额两千万元", idx) == []
    assert ungrounded("成交额9\u200b000\u200b000元", idx) == ["9000000元"]
    assert ungrounded("上涨概率三成", idx) == ["三成"]  # 30% does not stand for 0.28
    assert ungrounded("上涨概率28%", idx) == []
    assert ungrounded("成交额3千万元", idx) == ["3千万元"]
    assert ungrounded("turnover of twenty million yuan", idx) == []


def test_problem_positions_point_into_the_original_text() -> None:
    text = "目标价1\u200b8\u200b00元"
    (problem,) = ground_numbers(text, index_evidence([]), "t")
    assert problem.location == "t[3:10]" and text[3:10] == "1\u200b8\u200b00元"


def test_the_fast_index_agrees_with_the_exact_readers_on_every_form() -> None:
    text = ("成交额两千万元，三十多亿元，3亿多元，三成五，八五折，上证3000点，twenty-five percent，⁹⁸⁷，"
            "tp98765，1.5E+8，2×10⁸，9\u00a0000\u00a0000，3-5%，1.2-1.5亿元，三分之一，1/3，9\u200b000元，"
            "约30%，3千万元")  # fmt: skip
    exact = {(f"{v.value.normalize():f}", v.unit) for v in values_from_text("ev-t", text)}
    fast = index_evidence([("ev-t", "text/plain", text)])
    assert {(f"{v.value.normalize():f}", v.unit) for v in fast.values()} == exact
    assert len(exact) >= 18  # every form was read (三分之一 and 1/3 are one value)


@pytest.mark.parametrize(
    "text",
    ["收盘价1,689.50元", "成交额12.35亿元", "总市值2.12万亿", "up 1.25 percentage points", "市盈率25.37倍",
     "2024年6月28日", "贵州茅台（600519）", "KDJ(9,3,3)", "沪深300", "## 1. 结论", "第二", "一成不变", "万科A",
     "近20个交易日上涨5.2%，60日均线，持有3个月，7天，a 20-day average over 60 sessions", "买入区间1,650-1,700元"],
)  # fmt: skip
def test_ordinary_text_has_no_unreadable_numerals(text: str) -> None:
    assert unreadable_numerals(text) == []
