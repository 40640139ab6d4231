"""Reading numbers in text: each number with its unit (万, 亿, %, 个百分点, 倍 ...) and display precision.

"1,234.5" stands for any value that rounds half-up to it, [1234.45, 1234.55); "12.3万" for [122,500,
123,500). Dates, times, stock codes, evidence ids, indicator names and parameters (MA20, KDJ(9,3,3)),
index names (沪深300), T+1, list numbering and ordinals are not numbers in this sense: one tokenizer
skips them before it reads numbers, so their digits are never read as values.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

Unit = Literal["plain", "pct", "fraction", "pp", "multiple"]
UNITS: frozenset[str] = frozenset({"plain", "pct", "fraction", "pp", "multiple"})

# One-to-one maps keep text positions stable: full-width digits, punctuation and brackets to ASCII.
_FULL_WIDTH = str.maketrans("０１２３４５６７８９．，％＋－−（）￥＄", "0123456789.,%+--()¥$")
MULTIPLIERS = {
    "万亿": Decimal(10) ** 12,
    "亿": Decimal(10) ** 8,
    "万": Decimal(10) ** 4,
    "萬億": Decimal(10) ** 12,  # traditional forms, as Hong Kong filings write them
    "億": Decimal(10) ** 8,
    "萬": Decimal(10) ** 4,
    "千": Decimal(10) ** 3,
    "trillion": Decimal(10) ** 12,
    "billion": Decimal(10) ** 9,
    "bn": Decimal(10) ** 9,
    "million": Decimal(10) ** 6,
    "mn": Decimal(10) ** 6,
}
PERIOD_CONSTANTS = {1, 2, 3, 5, 6, 10, 12, 20, 30, 60, 90, 120, 180, 250, 252}

_CN_DIGITS = "零〇一二两三四五六七八九十百千万亿"
_CURRENCY = r"HK\$|US\$|RMB|CNY|HKD|USD|[¥$]"
_END = r"(?![A-Za-z])"
_ENGLISH_MULT = ("trillion", "billion", "million", "bn", "mn")
_MULT_WORDS = ["万亿", "亿", "万", "萬億", "億", "萬", "千(?=[元股])", *(w + _END for w in _ENGLISH_MULT)]
_ENGLISH_UNITS = ("percentage points?", "ppts?", "pp", "percent", "per cent", "[xX]")
_UNIT_WORDS = ["%", "个百分点", "百分点", "個百分點", "百分點", *(w + _END for w in _ENGLISH_UNITS)]
_UNIT_WORDS += ["倍", "成(?![交本功为不])", "港元", "美元", "元", "股"]  # 成 as in 三成, not 成交 or 一成不变
_NUMBER = (
    r"(?:(?P<cur>" + _CURRENCY + r")\s?)?"
    r"(?:(?<![0-9A-Za-z%.)])(?P<sign>[+-]))?"  # a hyphen after a digit is a range dash, not a sign
    r"(?P<pctword>百分之)?"
    r"(?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[" + _CN_DIGITS + r"]+)"
    r"(?:(?=\s?[万亿萬億千tbm])\s?(?P<mult>" + "|".join(_MULT_WORDS) + r"))?"  # the look-aheads only make it fast
    r"(?:(?=\s?[%个百個pxX倍成港美元股])\s?(?P<unit>" + "|".join(_UNIT_WORDS) + r"))?"
)
_DAY = r"(?:3[01]|[12]\d|0?[1-9])"
_MONTH = r"(?:1[0-2]|0?[1-9])"
_YEAR = r"(?<![\d,])(?<![\d]\.)(?:19|20)\d{2}"
_NOT_METRIC = r"(?!(?i:RMB|CNY|HKD|USD|HK|US|PEG|PE|PB|PS|PCF|ROE|ROA|ROIC|EPS|BPS|DPS|TTM|MRQ|LYR|EV|EBITDA|EBIT)\d)"
# What is not a number, grouped by the kind of character it starts with (the tokenizer tries only the
# group that can start at each position, which keeps it fast on megabytes of documents).
_SKIP_DIGIT = [  # one pattern per leading shape; the year forms share their prefix (much faster in `re`)
    _YEAR + r"(?:\s?[-/]\s?" + _MONTH + r"(?:\s?[-/]\s?" + _DAY + r")?(?!\d|\.\d)"  # 2024-06-28, 2024/6, ranges a..b
    r"|\." + _MONTH + r"\." + _DAY + r"(?!\d)"  # 2024.06.28
    r"|\s?(?:财年|年度|年)(?:\s?" + _MONTH + r"\s?月(?:\s?" + _DAY + r"\s?[日号])?)?"  # 2024年6月28日
    r"|\s?[QH][1-4](?![0-9])|[EAF](?![A-Za-z0-9]))",  # 2023Q3, 2025E
    r"(?<![\d.])" + _MONTH + r"\s?月(?:\s?" + _DAY + r"\s?[日号])?",  # 6月28日, 12月
    r"(?<![\d.:])(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?![\d:])",  # times
    r"(?<![A-Za-z0-9])(?:\d{6}\.(?i:SH|SZ|BJ|SS)|\d{4,5}\.(?i:HK))(?![A-Za-z0-9])",  # 600519.SH, 00700.HK
    r"\d+(?:st|nd|rd|th)(?![A-Za-z])",  # 1st, 2nd
]
_SKIP_LETTER = [
    r"(?<![A-Za-z])(?:Q[1-4]|H[12]|FY)\s?(?:19|20)\d{2}(?![\d.])",  # Q3 2024
    r"(?<![A-Za-z])(?:in|since|during|until|through|before|after|year)\s+(?:19|20)\d{2}(?![\d.,%])",  # in 2021
    r"(?<![A-Za-z])(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?\s+\d{1,2}(?![\d.%])"  # only month names: not Market 15%
    r"(?:st|nd|rd|th)?(?:,?\s+(?:19|20)\d{2}(?![\d.]))?",  # June 28, 2024
    r"(?<![A-Za-z0-9])(?i:sh|sz|bj|hk)\d{5,6}(?![0-9])",  # sh600519
    r"(?<![A-Za-z])(?i:code|ticker)[:\s]*\d{5,6}(?![\d.])",
    r"(?<![A-Za-z0-9])ev-[0-9a-f]{4,}|(?<![A-Za-z0-9])[A-Z]\d{8}-[0-9a-f]{8}",  # evidence and entry ids
    r"(?<![A-Za-z0-9])hb-[0-9a-f]{8,}",  # handbook versions
    r"(?<![A-Za-z])[TD]\s?\+\s?\d(?!\d)",  # T+1
    r"(?<![A-Za-z])(?:CSI|SSE|STAR|ChiNext|S&P|Nasdaq|NASDAQ|FTSE China A)\s?\d{2,4}(?![\d.,])",  # CSI 300
    r"(?<![A-Za-z])[A-Z]{1,6}\(\s?\d+(?:\s?,\s?\d+)*\s?\)",  # KDJ(9,3,3), BOLL(20,2): capitals, not Revenue(1500)
    r"(?<![A-Za-z0-9_])" + _NOT_METRIC + r"[A-Za-z_]+\d+(?![\d.,%]|\s?(?:倍|%|元|万|亿|x(?![A-Za-z])))[A-Za-z_\d]*",
]
_SKIP_CJK = [
    r"代码[:：\s]*\d{5,6}(?![\d.])",
    r"(?:沪深|中证|上证|深证|科创|创业板|北证|国证|标普|恒生科技|富时中国A)\s?\d{2,4}(?![\d.])",  # 沪深300
    r"第\s?[\d" + _CN_DIGITS + r"]+",  # ordinals
]
_SKIP = (
    r"(?=\d)(?:" + "|".join(_SKIP_DIGIT) + r")"
    r"|(?=[A-Za-z])(?:" + "|".join(_SKIP_LETTER) + r")"
    r"|(?=[代沪中上深科创北国标恒富第])(?:" + "|".join(_SKIP_CJK) + r")"
    r"|\(\s?\d{5,6}(?:\.[A-Za-z]{2})?\s?\)"  # (600519)
    r"|(?m:^)[ \t]*(?:#+[ \t]*)?(?:[-*][ \t]+)?(?:\d{1,2}[.、)](?![\d%])|\(\d{1,2}\))"  # list numbering
)
# Exclusions come first in one alternation: at any position where an exclusion starts, it wins and its
# text is consumed, so a date or a code is never read as numbers.
_TOKEN = re.compile("(?P<skip>" + _SKIP + r")|(?=[\dHURC¥$+\-百" + _CN_DIGITS + "])" + _NUMBER)
_PERIOD_AFTER = re.compile(r"[\s-]?个?(交易日|个交易日|日|天|周|个月|月|年|季度|分钟|小时|sessions?\b|days?\b|weeks?\b|"
                           r"months?\b|years?\b)")  # fmt: skip
_CN_VALUES = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
              "九": 9}  # fmt: skip
_CN_SMALL = {"十": 10, "百": 100, "千": 1000}
_CN_DIGIT_OR_TEN = frozenset("零〇一二两三四五六七八九十")
_CN_RATIO_UNITS = frozenset({"成", "倍", "%", "个百分点", "百分点", "個百分點", "百分點"})
_PCT_WORDS = frozenset({"%", "percent", "per cent"})
_PP_WORDS = frozenset(
    {"个百分点", "百分点", "個百分點", "百分點", "pp", "ppt", "ppts", "percentage point", "percentage points"}
)
_MULTIPLE_WORDS = frozenset({"倍", "x", "X"})


def chinese_numeral(text: str) -> int | None:
    """The value of a Chinese numeral (三十五 -> 35, 一百二十 -> 120, 两 -> 2, 三万亿 -> 3e12), or None."""
    total, below_yi, section, number = 0, 0, 0, 0
    for char in text:
        if char in _CN_VALUES:
            number = _CN_VALUES[char]
        elif char in _CN_SMALL:
            section += (number or 1) * _CN_SMALL[char]
            number = 0
        elif char == "万":
            below_yi += (section + number) * 10_000
            section = number = 0
        elif char == "亿":
            total = (total + below_yi + section + number) * 100_000_000
            below_yi = section = number = 0
        else:
            return None
    return total + below_yi + section + number


def _cn_step(text: str) -> int:
    """The place value of a Chinese numeral's last digit: 两千三百万 -> 1,000,000 (it reads as 2300万)."""
    step = 1
    for char in reversed(text):
        if char in _CN_VALUES:
            return step
        step *= _CN_SMALL.get(char) or (10_000 if char == "万" else 100_000_000)
    return step


@dataclass(frozen=True, slots=True)
class TextNumber:
    """A number as written in a text, with where it is, its value, unit and display precision."""

    text: str
    start: int
    end: int
    value: Decimal  # base units: yuan not 亿元; percent units for % (15.2 means 15.2%)
    half_width: Decimal
    unit: Unit
    signed: bool
    period: bool = False

    def candidates_window(self) -> tuple[Decimal, Decimal]:
        return self.value - self.half_width, self.value + self.half_width


def _precision(digits: str) -> Decimal:
    point = digits.find(".")
    places = len(digits) - point - 1 if point >= 0 else 0
    return Decimal(5) * Decimal(10) ** (-places - 1)


def _unit(match: re.Match[str]) -> tuple[Unit, Decimal] | None:
    """The unit and scale of a number match; None when it is not a number (a Chinese numeral without a unit)."""
    raw, word, mult = match["num"], match["unit"] or "", match["mult"] or ""
    if raw[0] in _CN_DIGITS:
        if not any(c in _CN_DIGIT_OR_TEN for c in raw):
            return None  # 亿元, 万股: a unit, not a number
        if not (word in _CN_RATIO_UNITS or match["pctword"] or (word and any(c in "十百千万亿" for c in raw))):
            return None
    scale = MULTIPLIERS.get(mult, Decimal(1))
    if match["pctword"] or word in _PCT_WORDS:
        return "pct", scale
    if word in _PP_WORDS:
        return "pp", scale
    if word in _MULTIPLE_WORDS:
        return "multiple", scale
    if word == "成":
        return "pct", scale * 10
    return "plain", scale


def _read(text: str, match: re.Match[str]) -> TextNumber | None:
    found = _unit(match)
    if found is None:
        return None
    unit, scale = found
    raw = match["num"]
    if raw[0] in _CN_DIGITS:
        value, half = Decimal(chinese_numeral(raw) or 0), Decimal(_cn_step(raw)) / 2
    else:
        value, half = Decimal(raw.replace(",", "")), _precision(raw)
    if match["sign"] == "-":
        value = -value
    period = unit == "plain" and not match["mult"] and not match["cur"] and _PERIOD_AFTER.match(text, match.end())
    return TextNumber(
        match.group(0).rstrip(), match.start(), match.end(), value * scale, half * scale, unit,
        match["sign"] is not None, bool(period),
    )  # fmt: skip


def plain_text(text: str) -> str:
    """`text` with full-width digits, signs and brackets made ASCII (one to one, so positions do not move)."""
    return text.translate(_FULL_WIDTH)


def extract_numbers(text: str) -> list[TextNumber]:
    """Every number in `text` that must be grounded (dates, codes, ids and numbering are skipped)."""
    plain = plain_text(text)
    found = []
    for match in _TOKEN.finditer(plain):
        if match.lastgroup != "skip" and (number := _read(plain, match)) is not None:
            found.append(number)
    return found


def number_at(plain: str, start: int) -> TextNumber | None:
    """The number `extract_numbers` reads at `start` of a `plain_text` (to re-read an indexed document)."""
    match = _TOKEN.match(plain, start)
    return None if match is None or match.lastgroup == "skip" else _read(plain, match)


def scan(plain: str) -> Iterator[tuple[Unit, float, int]]:
    """(unit, approximate value, start) of every number in a `plain_text`, fast: no Decimals are built."""
    for match in _TOKEN.finditer(plain):
        skip, sign, pctword, raw, mult, word = match.group("skip", "sign", "pctword", "num", "mult", "unit")
        if skip is not None:
            continue
        if not (pctword or mult or word) and raw[0] not in _CN_DIGITS:  # the common case: a bare number
            approx = float(raw.replace(",", "")) if "," in raw else float(raw)
            yield "plain", -approx if sign == "-" else approx, match.start()
        elif (found := _unit(match)) is not None:
            approx = float(chinese_numeral(raw) or 0) if raw[0] in _CN_DIGITS else float(raw.replace(",", ""))
            yield found[0], approx * float(found[1]) * (-1.0 if sign == "-" else 1.0), match.start()
