"""Every way of writing a number the reader must see (red-team families), what it reads, and what stays unread."""

from __future__ import annotations

import re
import unicodedata

import pytest

from stockbench.evidence.numeral_forms import original_span, plain_with_breaks
from stockbench.evidence.numerals import extract_numbers, number_at, plain_text, scan, unreadable_numerals


def read(text: str) -> list[tuple[str, str, str]]:
    """(value, half width, unit) of each number, as strings for readable assertions."""
    return [(f"{n.value.normalize():f}", f"{n.half_width.normalize():f}", n.unit) for n in extract_numbers(text)]


def where(text: str) -> list[str]:
    """The original text under each number's [start:end]."""
    return [text[n.start : n.end] for n in extract_numbers(text)]


def family(cases: list[tuple[str, list[tuple[str, str, str]]]]) -> pytest.MarkDecorator:
    return pytest.mark.parametrize(
        ("text", "expected"), cases, ids=[c[0].encode("unicode_escape").decode() for c in cases]
    )


# ---- invisible characters ----------------------------------------------------------------------------


@family([
    ("9\u200b000\u200b000", [("9000000", "0.5", "plain")]),
    ("成交额1\u00ad2.3亿元", [("1230000000", "5000000", "plain")]),
    ("上涨3\u2060.5\ufeff%", [("3.5", "0.05", "pct")]),
    ("净利润7\u200d4\u200c7.34亿元", [("74734000000", "500000", "plain")]),
])  # fmt: skip
def test_invisible_characters_are_removed_before_reading(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert read(text) == expected


def test_positions_are_in_the_original_text() -> None:
    text = "目标价\u200b1\u200b8\u200b00元，上涨\u200b5%"
    first, second = extract_numbers(text)
    assert (first.start, first.end, second.start, second.end) == (4, 11, 15, 17)
    assert text[first.start : first.end] == "1\u200b8\u200b00元" and first.text == "1800元"
    assert text[second.start : second.end] == "5%"


def test_plain_text_drops_invisible_characters_and_the_fast_index_agrees() -> None:
    text = "收盘价1\u200b,689.50元，成交额12.35亿元，涨幅3\u200b.5%"
    plain = plain_text(text)
    assert plain == "收盘价1,689.50元,成交额12.35亿元,涨幅3.5%"  # the full-width comma is made ASCII too
    exact = [(n.unit, float(n.value)) for n in extract_numbers(text)]
    fast = [(unit, approx) for unit, approx, _ in scan(plain)]
    assert fast == exact
    again = [number_at(plain, start) for _, _, start in scan(plain)]
    assert [(n.unit, float(n.value)) for n in again if n is not None] == exact


def test_plain_text_keeps_positions_where_nothing_is_removed() -> None:
    text = "１，６８９．５０元，٣٤%，⁹⁸⁷"
    plain, breaks = plain_with_breaks(text)
    assert plain == "1,689.50元,34%,987" and len(plain) == len(text)
    assert [original_span(breaks, i, i + 1) for i in range(len(plain))] == [(i, i + 1) for i in range(len(text))]


# ---- Chinese numerals with multipliers, financial and traditional forms ---------------------------------


@family([
    ("两千万", [("20000000", "5000000", "plain")]),
    ("三千万左右", [("30000000", "5000000", "plain")]),
    ("十万亿", [("10000000000000", "5000000000000", "plain")]),
    ("两千三百万股", [("23000000", "500000", "plain")]),
    ("一亿二千万", [("120000000", "5000000", "plain")]),
    ("三点五亿元", [("350000000", "5000000", "plain")]),
    ("三千二", [("3200", "50", "plain")]),  # colloquial: the last digit takes the next place down
    ("两万五", [("25000", "500", "plain")]),
    ("一百五", [("150", "5", "plain")]),
    ("一亿二", [("120000000", "5000000", "plain")]),
    ("一千零五", [("1005", "0.5", "plain")]),
    ("一两万元", [("15000", "10000", "plain")]),  # a colloquial range: 1万 to 2万
])  # fmt: skip
def test_chinese_numerals_with_a_multiplier_are_numbers(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert read(text) == expected


@family([
    ("壹仟贰佰万元", [("12000000", "500000", "plain")]),
    ("叁佰伍拾元", [("350", "5", "plain")]),
    ("壹億貳仟萬元", [("120000000", "5000000", "plain")]),
    ("三億元", [("300000000", "50000000", "plain")]),
    ("成交額五萬股", [("50000", "5000", "plain")]),
    ("玖仟零捌拾元", [("9080", "5", "plain")]),
])  # fmt: skip
def test_financial_and_traditional_numerals(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert read(text) == expected


@family([
    ("3千万元", [("30000000", "5000000", "plain")]),
    ("5千", [("5000", "500", "plain")]),
    ("1.2千亿", [("120000000000", "5000000000", "plain")]),
    ("3百万", [("3000000", "500000", "plain")]),
    ("2.5十亿", [("2500000000", "50000000", "plain")]),
    ("3 thousand shares", [("3000", "500", "plain")]),
    ("上升2百分点", [("2", "0.5", "pp")]),  # 百分点 is a unit, not 百
])  # fmt: skip
def test_digits_with_a_chinese_multiplier(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert read(text) == expected


# ---- qualifiers ----------------------------------------------------------------------------------------


@family([
    ("三十多亿元", [("3500000000", "500000000", "plain")]),  # [30亿, 40亿)
    ("30多亿", [("3500000000", "500000000", "plain")]),
    ("3亿多元", [("350000000", "50000000", "plain")]),  # [3亿, 4亿)
    ("1000余万元", [("15000000", "5000000", "plain")]),  # [1000万, 2000万)
    ("三十余家", [("35", "5", "plain")]),
    ("1.5亿多", [("155000000", "5000000", "plain")]),
    ("约30%", [("30", "0.5", "pct")]),  # 约 and the like do not widen
    ("近三成", [("30", "0.5", "pct")]),
    ("逾两千万元", [("20000000", "5000000", "plain")]),
    ("超过3.5亿元", [("350000000", "5000000", "plain")]),
    ("将近八折", [("80", "0.5", "pct")]),
    ("大约三十亿", [("3000000000", "500000000", "plain")]),
    ("30%左右", [("30", "0.5", "pct")]),
    ("3000点上下", [("3000", "0.5", "plain")]),
    ("三十左右", [("30", "5", "plain")]),
])  # fmt: skip
def test_qualifiers(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert read(text) == expected


def test_a_qualified_range_holds_its_bounds_only() -> None:
    (number,) = extract_numbers("三十多亿")
    low, high = number.value - number.half_width, number.value + number.half_width
    assert (low, high) == (3_000_000_000, 4_000_000_000)  # the window is [low, high)


# ---- 成 and 折 -------------------------------------------------------------------------------------------


@family([
    ("三成", [("30", "0.5", "pct")]),
    ("三成五", [("35", "0.5", "pct")]),
    ("3成", [("30", "0.5", "pct")]),
    ("3.5成", [("35", "0.5", "pct")]),
    ("八折", [("80", "0.5", "pct")]),
    ("八五折", [("85", "0.5", "pct")]),
    ("7.5折", [("75", "0.5", "pct")]),
    ("85折", [("85", "0.5", "pct")]),
    ("打9折", [("90", "0.5", "pct")]),
])  # fmt: skip
def test_cheng_and_zhe_are_percentages(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert read(text) == expected


def test_a_probability_of_a_different_tenth_is_not_three_cheng() -> None:
    (number,) = extract_numbers("三成")
    low, high = number.value - number.half_width, number.value + number.half_width
    assert low <= 30 < high and not low <= 28 < high


# ---- index points ----------------------------------------------------------------------------------------


@family([
    ("上证3000点", [("3000", "0.5", "plain")]),
    ("创业板2000点", [("2000", "0.5", "plain")]),
    ("中证2000点", [("2000", "0.5", "plain")]),
    ("沪深300点", [("300", "0.5", "plain")]),
    ("上证指数3000点", [("3000", "0.5", "plain")]),
    ("恒生指数18,000点", [("18000", "0.5", "plain")]),
    ("the CSI 300 at 3,500 points", [("3500", "0.5", "plain")]),
    ("CSI 3500 points", [("3500", "0.5", "plain")]),
])  # fmt: skip
def test_index_levels_are_read(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(
    "text",
    ["沪深300", "中证100", "中证200", "中证500", "中证800", "中证1000", "中证2000", "上证50", "上证180", "上证380",
     "深证100", "科创50", "科创100", "创业板50", "北证50", "国证2000", "CSI 300", "CSI 500", "CSI 1000", "STAR 50",
     "ChiNext 50", "S&P 500", "沪深300指数", "中证500ETF", "中证A500"],
)  # fmt: skip
def test_index_names_are_not_numbers(text: str) -> None:
    assert read(text) == []


# ---- English number words ------------------------------------------------------------------------------


@family([
    ("two million", [("2000000", "500000", "plain")]),
    ("twenty-five percent", [("25", "0.5", "pct")]),
    ("three hundred", [("300", "50", "plain")]),
    ("one and a half billion", [("1500000000", "50000000", "plain")]),
    ("forty", [("40", "5", "plain")]),
    ("twelve percent", [("12", "0.5", "pct")]),
    ("Forty percent of revenue", [("40", "0.5", "pct")]),
    ("three hundred and fifty thousand shares", [("350000", "5000", "plain")]),
    ("RMB two billion", [("2000000000", "500000000", "plain")]),
    ("seven percent", [("7", "0.5", "pct")]),  # small, but with a unit
    ("three times", [("3", "0.5", "multiple")]),
    ("up two percentage points", [("2", "0.5", "pp")]),
])  # fmt: skip
def test_english_number_words(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert read(text) == expected


def test_english_periods_are_marked() -> None:
    (number,) = extract_numbers("over twenty sessions")
    assert number.period and number.value == 20


@pytest.mark.parametrize(
    "text", ["one of the risks", "The two companies", "ten days", "someone often", "once", "a third of them"]
)
def test_small_english_words_are_not_numbers(text: str) -> None:
    assert read(text) == []


# ---- digit forms -------------------------------------------------------------------------------------------


@family([
    ("收于⁹⁸⁷元", [("987", "0.5", "plain")]),
    ("₁₂", [("12", "0.5", "plain")]),
    ("٣٤٫٥", [("34.5", "0.05", "plain")]),  # with the Arabic decimal separator
    ("٣٤%", [("34", "0.5", "pct")]),
    ("۱۲۳", [("123", "0.5", "plain")]),
    ("𝟗𝟖𝟕元", [("987", "0.5", "plain")]),
    ("१२", [("12", "0.5", "plain")]),
])  # fmt: skip
def test_unicode_digit_forms_are_digits(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize("text", ["①", "⑴ 估值", "⒈ 结论", "❶", "Ⅲ期临床", "R²为", "面积m²"])
def test_enumerators_and_powers_are_not_numbers(text: str) -> None:
    assert read(text) == [] and unreadable_numerals(text) == []


def test_the_digit_table_covers_every_unicode_decimal_digit() -> None:
    digits = re.findall(r"\d", "".join(map(chr, range(0x80, 0x20000))))
    assert all(plain_text(d) == str(unicodedata.decimal(d)) for d in digits)


# ---- numbers glued to letters -----------------------------------------------------------------------------


@family([
    ("tp98765", [("98765", "0.5", "plain")]),
    ("PE(88)", [("88", "0.5", "plain")]),
    ("https://x.example/a/98765.html", [("98765", "0.5", "plain")]),
    ("Revenue(1500)", [("1500", "0.5", "plain")]),
    ("x_98765", [("98765", "0.5", "plain")]),
    ("RSI80%", [("80", "0.5", "pct")]),
    ("PE25倍", [("25", "0.5", "multiple")]),
    ("abc1e3", [("1000", "500", "plain")]),
])  # fmt: skip
def test_numbers_glued_to_letters_are_read(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(
    "text",
    ["MA20", "ma250", "EMA12", "SMA5", "WMA10", "RSI6", "rsi14", "ATR14", "atr14", "KDJ(9,3,3)", "MACD(12,26,9)",
     "BOLL(20,2)", "OBV10", "CCI14", "WR10", "BIAS6", "DMI14", "VOL5", "ROC12", "MTM6", "PSY12", "TRIX12", "DIF12",
     "DEA9", "MA5/10/20", "MA(5,10,20)", "return_20_pct", "ev_pct", "high_52w", "low_20", "h20",
     "ev-3a4b5c6d7e8f9a0b", "hb-0123abcd", "RUN20261201-1a2b3c4d", "R20261201-1a2b3c4d", "QR20261201-1a2b3c4d",
     "RV20261201-1a2b3c4d", "EVAL20261201-1a2b3c4d", "O20261127-1a2b3c4d", "F20261127-1a2b3c4d",
     "C20261127-1a2b3c4d", "A20261127-1a2b3c4d", "sh600519", "600519.SH", "BK0896", "Q3", "H1", "FY24", "3Q24",
     "1H23", "5G", "PM2.5", "T+1"],
)  # fmt: skip
def test_indicator_field_and_id_forms_are_not_numbers(text: str) -> None:
    assert read(text) == [] and unreadable_numerals(text) == []


# ---- scientific notation ------------------------------------------------------------------------------------


@family([
    ("1e3", [("1000", "500", "plain")]),
    ("1.5E+8", [("150000000", "5000000", "plain")]),
    ("2.5e-3", [("0.0025", "0.00005", "plain")]),
    ("2×10^8", [("200000000", "50000000", "plain")]),
    ("2x10⁸", [("200000000", "50000000", "plain")]),
    ("2 × 10⁸元", [("200000000", "50000000", "plain")]),
    ("10⁸", [("100000000", "50000000", "plain")]),
    ("1.5×10⁻³", [("0.0015", "0.00005", "plain")]),
])  # fmt: skip
def test_scientific_notation_is_one_number(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert read(text) == expected


def test_a_superscript_exponent_is_located_in_the_original_text() -> None:
    text = "约2×10⁸元"
    (number,) = extract_numbers(text)
    assert text[number.start : number.end] == "2×10⁸元" and number.text == "2×10^8元"


# ---- digit groups ---------------------------------------------------------------------------------------------


@family([
    ("9\u00a0000\u00a0000", [("9000000", "0.5", "plain")]),
    ("9\u2009000\u2009000", [("9000000", "0.5", "plain")]),
    ("9\u202f000\u202f000", [("9000000", "0.5", "plain")]),
    ("9'000'000", [("9000000", "0.5", "plain")]),
    ("9 000 000", [("9000000", "0.5", "plain")]),
    ("1 234.5元", [("1234.5", "0.05", "plain")]),
    ("成交量 842743 手", [("842743", "0.5", "plain")]),
    ("5 10 20", [("5", "0.5", "plain"), ("10", "0.5", "plain"), ("20", "0.5", "plain")]),  # not groups of three
    ("12 3456", [("12", "0.5", "plain"), ("3456", "0.5", "plain")]),
])  # fmt: skip
def test_digit_groups(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert read(text) == expected


# ---- ranges --------------------------------------------------------------------------------------------------


@family([
    ("3-5%", [("3", "0.5", "pct"), ("5", "0.5", "pct")]),
    ("1.2-1.5亿元", [("120000000", "5000000", "plain"), ("150000000", "5000000", "plain")]),
    ("20~30倍", [("20", "0.5", "multiple"), ("30", "0.5", "multiple")]),
    ("3至5成", [("30", "0.5", "pct"), ("50", "0.5", "pct")]),
    ("三至五成", [("30", "0.5", "pct"), ("50", "0.5", "pct")]),
    ("1-2万股", [("10000", "5000", "plain"), ("20000", "5000", "plain")]),
    ("1,650-1,700元", [("1650", "0.5", "plain"), ("1700", "0.5", "plain")]),
    ("上升1–2个百分点", [("1", "0.5", "pp"), ("2", "0.5", "pp")]),
])  # fmt: skip
def test_a_range_shares_its_unit_and_multiplier(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert read(text) == expected


def test_a_range_of_periods_is_a_period() -> None:
    assert [n.period for n in extract_numbers("近3-5个交易日")] == [True, True]


# ---- fractions -----------------------------------------------------------------------------------------------


@family([
    ("三分之一", [("33.33333333333333333333333333", "0.5", "pct")]),
    ("1/3", [("33.33333333333333333333333333", "0.5", "pct")]),
    ("2/5的仓位", [("40", "0.5", "pct")]),
    ("十分之一", [("10", "0.5", "pct")]),
    ("千分之三", [("0.3", "0.05", "pct")]),
    ("百分之百", [("100", "0.5", "pct")]),
    ("6/28", [("6", "0.5", "plain"), ("28", "0.5", "plain")]),  # not a proper fraction with a small denominator
])  # fmt: skip
def test_fractions_are_percentages(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert read(text) == expected


def test_a_third_stands_for_its_roundings() -> None:
    (number,) = extract_numbers("三分之一")
    low, high = number.value - number.half_width, number.value + number.half_width
    assert low <= 33 < high and low <= 33.3 < high and not low <= 35 < high


# ---- dates, codes and words stay unread -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["一股力量", "一成不变", "万科A", "千万不要追高", "万一跌破", "十一月", "三十而立", "二〇二四年", "一季度",
     "两市成交额", "三五成群", "一五一十", "十分重要", "上千万", "数百万股", "几十亿元", "成本", "折旧", "折合人民币",
     "一波三折", "七折八扣", "6-8月", "2023-2024年", "sh600519,贵州茅台,2024-06-28", "下午三点五十分", "3:30"],
)  # fmt: skip
def test_words_dates_and_codes_stay_unread(text: str) -> None:
    assert read(text) == [] and unreadable_numerals(text) == []


# ---- failing closed ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("目标价1,23,456元", ["1,23,456"]),
        ("市值1,2345,6789元", ["1,2345,6789"]),
        ("三百百万元", ["三百百万元"]),
        ("一万万股", ["一万万股"]),
        ("仓位½", ["½"]),
        ("1⅓倍", ["⅓"]),
        ("目标价1\u200b,23,456元", ["1\u200b,23,456"]),
        ("目标价1469**58元", ["1469**58"]),  # rendered as 146958
        ("目标价1,469<b></b>.58元", ["1,469<b></b>.58"]),
        ("目标价1469`58`元", ["1469`58"]),
        ("目标价1\u03324\u03326\u03329\u0332元", ["1\u03324\u03326\u03329\u0332"]),  # combining low lines
        ("目标价1〇〇元", ["1〇〇"]),
    ],
)
def test_unreadable_numerals_are_reported_in_original_positions(text: str, tokens: list[str]) -> None:
    found = unreadable_numerals(text)
    assert [token for _, _, token in found] == tokens
    assert all(text[start:end] == token for start, end, token in found)


@pytest.mark.parametrize(
    "text",
    ["贵州茅台（600519.SH）2024年6月28日收于1,469.00元，上涨0.48%，近5日累计上涨1.80%。",
     "买入区间1,440.00-1,455.00元，止损1,398.00元；情景概率：乐观25%，基准50%，悲观25%。",
     "Volume was 30.94 million shares and turnover RMB 0.27 billion, 1.23x the average of the previous 5 sessions.",
     "导入记录为“sh600519,贵州茅台,2022-01-14,1877.39,1893.0,1863.0”。", "MA5,10,20", "分别为5,10,20日均线",
     "KDJ(9,3,3)金叉", "约三十亿元", "两三千万", "**1,469.00元**", "收于`1,469.00`元", "2*10^8", "return_20_pct",
     "1️⃣ 结论", "1~3%"],
)  # fmt: skip
def test_ordinary_report_text_has_nothing_unreadable(text: str) -> None:
    assert unreadable_numerals(text) == []
