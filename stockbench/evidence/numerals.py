"""Reading numbers in text: each number with its unit (万, 亿, %, 个百分点, 倍 ...) and display precision.

"1,234.5" stands for any value that rounds half-up to it, [1234.45, 1234.55); "12.3万" for [122,500,
123,500); "三十多亿" for [30亿, 40亿). Dates, times, stock codes, evidence ids, indicator names and parameters
(MA20, KDJ(9,3,3)), index names (沪深300), T+1, list numbering and ordinals are not numbers in this sense:
one tokenizer skips them before it reads numbers, so their digits are never read as values. Everything
else that looks like a number is read (digits, Chinese and English number words, 1e3, 2×10⁸, 三成, 八五折,
1/3) or, when it cannot be, reported by `unreadable_numerals`, so no number escapes the check.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from stockbench.evidence.numeral_forms import (
    CN_BIG_PLACES,
    CN_CHARS,
    CN_DIGITS,
    CN_NUMERAL,
    EN_NUMBER,
    EN_START,
    Breaks,
    chinese_range,
    chinese_value,
    english_is_number,
    english_value,
    original_span,
    plain_with_breaks,
)

Unit = Literal["plain", "pct", "fraction", "pp", "multiple"]
UNITS: frozenset[str] = frozenset({"plain", "pct", "fraction", "pp", "multiple"})

_SCALES = {"万亿": 10**12, "亿": 10**8, "万": 10**4, "萬億": 10**12, "億": 10**8, "萬": 10**4, "千": 10**3, "百": 100}
MULTIPLIERS: dict[str, Decimal] = {
    **{k: Decimal(v) for k, v in _SCALES.items()},
    **{p + k: Decimal(pv * v) for p, pv in (("十", 10), ("百", 100), ("千", 1000)) for k, v in _SCALES.items()
       if v >= 10**4},
    "trillion": Decimal(10) ** 12, "billion": Decimal(10) ** 9, "bn": Decimal(10) ** 9,
    "million": Decimal(10) ** 6, "mn": Decimal(10) ** 6, "thousand": Decimal(10) ** 3,
}  # fmt: skip
PERIOD_CONSTANTS = {1, 2, 3, 5, 6, 10, 12, 14, 20, 30, 60, 90, 120, 180, 250, 252}  # 14: the ATR's and RSI's window

_CURRENCY = r"HK\$|US\$|RMB|CNY|HKD|USD|[¥$]"
_GROUPED = (  # 1,234,567; 9 000 000 with NBSP, thin or narrow spaces or apostrophes; a plain space only by threes
    r"(?:(?=\d{1,3}[,\u00a0\u2009\u202f' ]\d{3})(?:\d{1,3}(?:,\d{3})+|\d{1,3}(?:[\u00a0\u2009\u202f']\d{3})+(?!\d)"
    r"|\d{1,3}(?: \d{3})+(?!\d))|\d+)(?:\.\d+)?"
)
_EXP = r"[eE][+-]?\d{1,3}(?![A-Za-z0-9.])|\s?[×xX*·]\s?10\^[+-]?\d{1,3}(?![\d.])"
_FRACTION = (  # 1/3, 2/5: a proper fraction with a small denominator (6/28 is a date, 5/3 is not a share)
    r"(?<![\d/.])(?=\d\d?/)(?:1/[2-9]|2/[3-9]|3/[4-9]|4/[5-9]|5/[6-9]|6/[7-9]|7/[89]|8/9|[1-9]/1[0-2]|1[01]/12|10/11)"
    r"(?![\d/]|\.\d)"
)
_MULT = (r"[十百千](?=[万亿萬億])(?:万亿|亿|万|萬億|億|萬)|万亿|亿|万|萬億|億|萬|千|百(?!分)"
         r"|(?i:thousand|trillion|billion|million|bn|mn)(?![A-Za-z])")  # fmt: skip
_QUAL = r"(?P<qual>多(?![头空方单仓少])|余(?!额))(?P<mult2>万亿|亿|万|萬億|億|萬)?"  # 三十多亿, 1000余万
_UNIT = (
    r"%|个百分点|百分点|個百分點|百分點|倍|港元|美元|元|股"
    r"|成(?![交本功为不长员立熟果绩型形效就都群份分品])(?P<tenth>[一二三四五六七八九](?![十百千万亿]))?"  # 三成五
    r"|折(?![合旧算叠现返扣腾服射中价])"  # 八五折, not 折合 or 折旧
    r"|(?:percentage\s+points?|ppts?|pp|percent|per\s+cent|[xX]|times|yuan|shares|HKD|RMB|USD|CNY)(?![A-Za-z])"
)
_NUMBER = (
    r"(?:(?P<cur>" + _CURRENCY + r")\s?)?"
    r"(?:(?<![0-9A-Za-z%.)])(?P<sign>[+-]))?"  # a hyphen after a digit is a range dash, not a sign
    r"(?:(?P<pctword>百分之)|(?P<fden>[" + CN_CHARS + r"]+)分之)?"
    r"(?:(?P<frac>" + _FRACTION + r")|(?P<ten>(?<![\d.])10\^[+-]?\d{1,3}(?![\d.]))"
    r"|(?P<num>" + _GROUPED + r")(?P<exp>" + _EXP + r")?"
    r"(?:(?=\s?[万亿萬億千百十tbmTBM])\s?(?P<mult>" + _MULT + r"))?"  # the look-aheads only make it fast
    r"|(?P<cn>" + CN_NUMERAL + r")|(?P<en>" + EN_NUMBER + r"))"
    r"(?:" + _QUAL + r")?"
    r"(?:(?=\s?[%个百個倍港美元股成折pxXtysHRUC])\s?(?P<unit>" + _UNIT + r"))?"
)
_DAY = r"(?:3[01]|[12]\d|0?[1-9])"
_MONTH = r"(?:1[0-2]|0?[1-9])"
_YEAR = r"(?<!\d)(?<!\d,)(?<!\d\.)(?:19|20)\d{2}"  # a year may follow a list comma (a CSV row), not a digit group
_NOT_UNIT = r"(?![\d.%]|,\d|\s?(?:倍|%|元|万|亿|x(?![A-Za-z])))"  # RSI80% is a value, RSI6 a name
_INDICATORS = r"MA|EMA|SMA|WMA|RSI|ATR|KDJ|MACD|BOLL|OBV|CCI|WR|BIAS|DMI|ADX|VOL|ROC|MTM|PSY|TRIX|DIF|DEA"
_LEVEL = r"(?!\d|[.,]\d|\s?(?:点|points?\b|pts?\b))"  # 上证3000点 is a level, 上证50 a name
_INDICATOR = (  # MA20, MA5/10/20, KDJ(9,3,3): not Revenue(1500) or PE(88)
    rf"(?<![A-Za-z])(?i:{_INDICATORS})(?:\d{{1,3}}(?:/\d{{1,3}})*{_NOT_UNIT}|\s?\(\s?\d+(?:\s?,\s?\d+)*\s?\))"
)
# What is not a number, grouped by the kind of character it starts with (the tokenizer tries only the
# group that can start at each position, which keeps it fast on megabytes of documents).
_SKIP_DIGIT = [  # one pattern per leading shape; the year forms share their prefix (much faster in `re`)
    _YEAR + r"(?:\s?[-/]\s?" + _MONTH + r"(?:\s?[-/]\s?" + _DAY + r")?(?!\d|\.\d)"  # 2024-06-28, 2024/6, ranges a..b
    r"|\." + _MONTH + r"\." + _DAY + r"(?!\d)"  # 2024.06.28
    r"|\s?(?:[-~至到]\s?(?:19|20)\d{2}\s?)?(?:财年|年度|年)(?:\s?" + _MONTH + r"\s?月(?:\s?" + _DAY + r"\s?[日号])?)?"
    r"|\s?[QH][1-4](?![0-9])|[EAF](?![A-Za-z0-9]))",  # 2024年6月28日, 2023-2024年, 2023Q3, 2025E
    r"(?<![\d.])" + _MONTH + r"(?:\s?[-~至到]\s?" + _MONTH + r")?\s?月(?:\s?" + _DAY + r"\s?[日号])?",  # 6月28日, 6-8月
    r"(?<![\d.:])(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?![\d:])",  # times
    r"(?<![A-Za-z0-9])(?:\d{6}\.(?i:SH|SZ|BJ|SS)|\d{4,5}\.(?i:HK))(?![A-Za-z0-9])",  # 600519.SH, 00700.HK
    r"\d++(?:st|nd|rd|th)(?![A-Za-z])|\d\u20e3",  # 1st, 2nd; the keycap enumerator 1️⃣
    r"(?<![A-Za-z0-9])(?:[1-4]Q|[12]H)(?:\d{2}){0,2}(?![A-Za-z0-9])|[2-6]G(?![A-Za-z0-9])",  # 3Q24, 1H23, 5G
]
_SKIP_LETTER = [
    r"(?<![A-Za-z])(?:Q[1-4]|H[12]|FY)\s?(?:19|20)\d{2}(?![\d.])",  # Q3 2024
    r"(?<![A-Za-z])(?:in|since|during|until|through|before|after|year)\s+(?:19|20)\d{2}(?![\d.,%])",  # in 2021
    r"(?<![A-Za-z])(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?\s+\d{1,2}(?![\d.%])"  # only month names: not Market 15%
    r"(?:st|nd|rd|th)?(?:,?\s+(?:19|20)\d{2}(?![\d.]))?",  # June 28, 2024
    r"(?<![A-Za-z0-9])(?i:sh|sz|bj|hk)\d{5,6}(?![0-9])|(?<![A-Za-z0-9])BK\d{4}(?![0-9])",  # sh600519, BK0896
    r"(?<![A-Za-z])(?i:code|ticker)[:\s]*\d{5,6}(?![\d.])",
    r"(?<![A-Za-z0-9])(?:ev-[0-9a-f]{4,}|hb-[0-9a-f]{8,}|(?:RUN|EVAL|QR|RV|[A-Z])\d{8}-[0-9a-f]{8}(?![0-9a-f]))",  # ids
    r"(?<![A-Za-z])[TD]\s?\+\s?\d(?!\d)",  # T+1
    r"(?<![A-Za-z])(?:CSI\s?A?(?:50|100|200|300|500|800|1000|2000)|SSE\s?(?:50|180|380)|STAR\s?(?:50|100)|"
    r"ChiNext\s?(?:50|100)|S&P\s?500|(?i:Nasdaq)\s?100|Russell\s?2000|Nikkei\s?225|FTSE\s?100|"
    r"FTSE China A\s?50|Euro Stoxx\s?50|A50)" + _LEVEL,  # CSI 300
    _INDICATOR,
    r"(?<![A-Za-z0-9_])[a-z]+\d{0,3}(?:_(?:[a-z]+\d{0,3}|\d{1,3}[a-z]*))+(?![A-Za-z0-9_])",  # return_20_pct
    r"(?<![A-Za-z0-9_])h\d{1,3}(?![A-Za-z0-9_])",  # h20: a horizon of the program's facts
    r"(?<![A-Za-z0-9])(?:Q[1-4]|H[12]|FY\d{2}(?:\d{2})?)(?![A-Za-z0-9])",  # Q3, H1, FY24
    r"(?<![A-Za-z])[A-Za-z]\^[23](?!\d)|PM(?:2\.5|10)|COVID-19|Level[-\s]?[12](?!\d)|L[12](?![\d.])",  # R², PM2.5
]
_SKIP_CJK = [
    r"代码[:：\s]*\d{5,6}(?![\d.])",
    r"(?:沪深300|中证A?(?:50|100|200|500|800|1000|2000)|上证(?:50|180|380)|深证(?:100|300)|科创(?:50|100|200)|"
    r"创业板50|北证50|国证2000|标普500|纳斯达克100|富时中国A50)" + _LEVEL,  # 沪深300, not 上证3000点
    r"第\s?[\d" + CN_CHARS + r"]+",  # ordinals
    r"一波[二三四五]折|七折八扣",  # idioms, not discounts
    r"[几数][十百千万亿萬億]+",  # 几十亿, 数百万: vague, not 十亿 or 百万
]
_SKIP = (
    r"(?=\d)(?:" + "|".join(_SKIP_DIGIT) + r")"
    r"|(?=[A-Za-z])(?:" + "|".join(_SKIP_LETTER) + r")"
    r"|(?=[代沪中上深科创北国标纳富第一七几数])(?:" + "|".join(_SKIP_CJK) + r")"
    r"|\(\s?\d{5,6}(?:\.[A-Za-z]{2})?\s?\)"  # (600519)
    r"|(?m:^)[ \t]*(?:#+[ \t]*)?(?:[-*][ \t]+)?(?:\d{1,2}[.、)](?![\d%])|\(\d{1,2}\))"  # list numbering
)
# Exclusions come first in one alternation: at any position where an exclusion starts, it wins and its
# text is consumed, so a date or a code is never read as numbers.
_TOKEN = re.compile("(?P<skip>" + _SKIP + r")|(?=[\dHURC¥$+\-" + CN_CHARS + EN_START + "])" + _NUMBER)
_PERIOD_AFTER = re.compile(r"[\s-]?个?(交易日|个交易日|日|天|周|个月|月|年|季度|分钟|小时|sessions?\b|days?\b|weeks?\b|"
                           r"months?\b|years?\b)")  # fmt: skip
_CONNECTOR = re.compile(r"[ \t]?(?:[-~—–至到])[ \t]?")
_CONNECTOR_FIRST = frozenset("-~—–至到 \t")
_SEPARATORS = re.compile("[,\u00a0\u2009\u202f' ]")
_POWER = re.compile(r"[+-]?\d+$")
_PCT_WORDS = frozenset({"%", "percent", "per cent"})
_PP_WORDS = frozenset(
    {"个百分点", "百分点", "個百分點", "百分點", "pp", "ppt", "ppts", "percentage point", "percentage points"}
)
_MULTIPLE_WORDS = frozenset({"倍", "x", "X", "times"})
_RATIO_WORDS = _PCT_WORDS | _PP_WORDS | _MULTIPLE_WORDS
_HALF = Decimal("0.5")
_ONE = Decimal(1)
_UNREADABLE = "unreadable"
# Malformed digit groups (1,23,456) and numerals the reader has no reading for: ½; digits joined by markup a
# renderer hides (1469**58, 1469<b></b>58; an underscore inside a word is not emphasis, a struck digit is
# seen); digits carrying combining marks (1̲4̲6̲9̲) or mixed with 〇 (1〇〇).
_GROUPS = re.compile(r"(?<![\d,.])\d{1,3}(?:,\d+){2,}(?:\.\d+)?(?![\d,])")
_MARKS = r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20e2\u20e4-\u20ff\ufe20-\ufe2f]"  # not the keycap
_OTHER_NUMERALS = re.compile(
    "[\u00bc-\u00be\u2150-\u215f\u2189]+"
    r"|\d+(?:[.,]\d+)*(?:[.,]?(?:\*+|`|<!--.*?-->|<[A-Za-z/][^<>\n]{0,80}>)+[.,]?\d+(?:[.,]\d+)*)+"
    rf"|(?:\d{_MARKS}*)*\d{_MARKS}+(?:\d{_MARKS}*)*|[\d〇]*(?:\d〇|〇\d)[\d〇]*"
)
_DIGIT_RUN = re.compile(r"\d+")
_FAR = 1 << 62


def chinese_numeral(text: str) -> int | None:
    """The value of an integer Chinese numeral (三十五 -> 35, 两千三百万 -> 23,000,000, 三千二 -> 3200), or None."""
    value = chinese_value(text)
    return int(value) if value is not None and value == value.to_integral_value() else None


@dataclass(frozen=True, slots=True)
class TextNumber:
    """A number as written in a text, with where it is, its value, unit and display precision.

    `text` is the number as read (invisible characters removed, digit and full-width forms made ASCII);
    `start` and `end` are positions in the text given to the reader (`extract_numbers` maps them back to the
    original text, `number_at` keeps those of the plain text).
    """

    text: str
    start: int
    end: int
    value: Decimal  # base units: yuan not 亿元; percent units for % (15.2 means 15.2%)
    half_width: Decimal
    unit: Unit
    signed: bool
    period: bool = False


# ---- reading ---------------------------------------------------------------------------------------


def plain_text(text: str) -> str:
    """`text` as the reader sees it: digit forms, full-width signs and brackets made ASCII, invisible characters
    removed and a "^" before a superscript exponent (2×10⁸ -> 2×10^8).

    Positions move only where characters were removed or "^" inserted (rare outside adversarial text);
    `scan` and `number_at` take positions in this plain text, `extract_numbers` reports original ones.
    """
    return plain_with_breaks(text)[0]


def _precision(digits: str) -> Decimal:
    point = digits.find(".")
    places = len(digits) - point - 1 if point >= 0 else 0
    return Decimal(5) * Decimal(10) ** (-places - 1)


def _place(value: Decimal) -> Decimal:
    """The place of the last non-zero digit: 30 -> 10, 35 -> 1, 1.5 -> 0.1, 3亿 -> 1亿."""
    exponent = value.normalize().as_tuple().exponent
    return _ONE.scaleb(exponent) if value and isinstance(exponent, int) else _ONE


def _range_tail(plain: str, end: int) -> tuple[str, str] | None:
    """The unit and multiplier a range shares with its first number: 3-5%, 1.2-1.5亿元, 三至五成."""
    connector = _CONNECTOR.match(plain, end)
    following = _TOKEN.match(plain, connector.end()) if connector else None
    if following is None or following.lastgroup == "skip":
        return None
    mult = following["mult"] or following["mult2"] or ""
    numeral = following["cn"] or ""
    if numeral[:1] in CN_DIGITS and numeral[1:] and all(c in "万萬亿億" for c in numeral[1:]):
        mult = numeral[1:]  # 三至五亿元: only a bare multiplier is shared
    unit = following["unit"] or ""
    return (unit[:1] if unit.startswith("成") else unit, mult) if unit or mult else None


def _qualified(plain: str, match: re.Match[str]) -> bool:
    """Whether a word numeral is marked as an amount: 约三十, 三十左右."""
    start = match.start()
    return plain.startswith(("左右", "上下"), match.end()) or plain[max(start - 2, 0) : start].endswith(
        ("约", "逾", "超过", "将近")
    )


def _chinese(plain: str, match: re.Match[str], word: str, ratio: bool) -> tuple[Decimal, Decimal] | str | None:
    raw = match["cn"]
    big = any(c in CN_BIG_PLACES for c in raw)
    placed = big or "十" in raw or "拾" in raw
    digit = raw[0] in "十拾" or any(c in CN_DIGITS for c in raw)  # 十万亿 has a coefficient too
    if not (ratio or (digit and big) or (placed and (word or match["qual"] or _qualified(plain, match)))):
        return None  # 一股力量, 一成不变, 十一月: words, not numbers
    if word == "折" and len(raw) == 2 and raw[0] in CN_DIGITS and raw[1] in CN_DIGITS:
        return Decimal(CN_DIGITS[raw[0]] * 10 + CN_DIGITS[raw[1]]), _HALF  # 八五折
    value = chinese_value(raw)
    if value is not None:
        return value, (min(_place(value), _ONE) if ratio else _place(value)) / 2
    bounds = chinese_range(raw)
    if bounds is None:
        return _UNREADABLE
    low, high = bounds
    return (low + high) / 2, (high - low + _place(low)) / 2  # 三五千: [2500, 5500)


def _english(raw: str, word: str, ratio: bool) -> tuple[Decimal, Decimal] | None:
    if not (word or english_is_number(raw)):
        return None  # one of the risks
    value = english_value(raw)
    return value, (min(_place(value), _ONE) if ratio else _place(value)) / 2


def _digits(match: re.Match[str]) -> tuple[Decimal, Decimal]:
    if match["ten"]:
        power = int(match["ten"][3:])
        return _ONE.scaleb(power), _HALF.scaleb(power)
    raw = _SEPARATORS.sub("", match["num"])
    value, half = Decimal(raw), _precision(raw)
    if match["exp"]:
        written = _POWER.search(match["exp"])
        power = int(written[0]) if written else 0
        value, half = value.scaleb(power), half.scaleb(power)
    return value, half


def _with_unit(match: re.Match[str], word: str, value: Decimal, half: Decimal) -> tuple[Unit, Decimal, Decimal]:
    if match["fden"]:
        den = chinese_value(match["fden"]) or _ONE
        return "pct", value * 100 / den, _HALF * min(_ONE, 100 / den)  # 三分之一, 千分之三
    if match["pctword"] or word in _PCT_WORDS:
        return "pct", value, half
    if word in _PP_WORDS:
        return "pp", value, half
    if word in _MULTIPLE_WORDS:
        return "multiple", value, half
    if word == "成":  # 三成 = 30% with the precision of "30%"
        tenth = CN_DIGITS[match["tenth"]] if match["tenth"] else 0
        return "pct", value * 10 + tenth, min(_HALF, half * 10)
    if word == "折":  # 八折 = 80%, 7.5折 = 75%, 85折 = 八五折 = 85%
        raw = match["num"] or match["cn"] or ""
        if len(raw) == 2 and all(c.isdigit() or c in CN_DIGITS for c in raw):
            return "pct", value, _HALF
        return "pct", value * 10, min(_HALF, half * 10)
    return "plain", value, half


def _value(plain: str, match: re.Match[str]) -> tuple[Decimal, Decimal, Unit] | str | None:
    """(value, half width, unit) of a number match; None when it is not a number; _UNREADABLE when it cannot be read."""
    if match["frac"]:
        top, bottom = match["frac"].split("/")
        return Decimal(100) * int(top) / int(bottom), _HALF, "pct"
    unit_word, mult = match["unit"] or "", match["mult"] or ""
    bare = not (unit_word or mult or match["qual"] or match["pctword"] or match["fden"])
    if bare and plain[match.end() : match.end() + 1] in _CONNECTOR_FIRST:
        unit_word, mult = _range_tail(plain, match.end()) or ("", "")
    word = "成" if unit_word.startswith("成") else " ".join(unit_word.split())  # 三成五 is 成 and a tenth
    ratio = bool(match["pctword"] or match["fden"]) or word in _RATIO_WORDS or word in ("成", "折")
    found: tuple[Decimal, Decimal] | str | None
    if match["cn"] is not None:
        found = _chinese(plain, match, word, ratio)
    elif match["en"] is not None:
        found = _english(match["en"], word, ratio)
    else:
        found = _digits(match)
    if not isinstance(found, tuple):
        return found
    value, half = found
    if match["qual"]:  # 三十多: from 30 up to 40
        step = _place(value)
        value, half = value + step / 2, step / 2
    scale = MULTIPLIERS.get(mult.lower(), _ONE) * MULTIPLIERS.get(match["mult2"] or "", _ONE)
    unit, value, half = _with_unit(match, word, value * scale, half * scale)
    return (-value if match["sign"] == "-" else value), half, unit


def _period(plain: str, match: re.Match[str], unit: Unit) -> bool:
    if unit != "plain" or match["mult"] or match["cur"] or match["qual"]:
        return False
    if _PERIOD_AFTER.match(plain, match.end()):
        return True
    connector = _CONNECTOR.match(plain, match.end())  # 3-5个交易日
    following = _TOKEN.match(plain, connector.end()) if connector else None
    if following is None or following.lastgroup == "skip" or following["unit"]:
        return False
    return _PERIOD_AFTER.match(plain, following.end()) is not None


def _read(plain: str, match: re.Match[str], breaks: Breaks | None = None) -> TextNumber | None:
    found = _value(plain, match)
    if not isinstance(found, tuple):
        return None
    value, half, unit = found
    text = match.group(0).rstrip()
    start, end = original_span(breaks, match.start(), match.start() + len(text))
    return TextNumber(text, start, end, value, half, unit, match["sign"] is not None, _period(plain, match, unit))


def extract_numbers(text: str) -> list[TextNumber]:
    """Every number in `text` that must be grounded (dates, codes, ids and numbering are skipped)."""
    plain, breaks = plain_with_breaks(text)
    found = []
    for match in _TOKEN.finditer(plain):
        if match.lastgroup != "skip" and (number := _read(plain, match, breaks)) is not None:
            found.append(number)
    return found


def number_at(plain: str, start: int) -> TextNumber | None:
    """The number `extract_numbers` reads at `start` of a `plain_text` (to re-read an indexed document)."""
    match = _TOKEN.match(plain, start)
    return None if match is None or match.lastgroup == "skip" else _read(plain, match)


def scan(plain: str) -> Iterator[tuple[Unit, float, int]]:
    """(unit, approximate value, start) of every number in a `plain_text`, fast: no Decimals are built."""
    connector = _CONNECTOR_FIRST
    for match in _TOKEN.finditer(plain):
        last = match.lastgroup
        if last == "skip":
            continue
        if last == "num" and plain[match.end() : match.end() + 1] not in connector:  # the common case: bare digits
            try:
                approx = float(match.group())
            except ValueError:  # a currency sign or digit groups: read it exactly
                pass
            else:
                yield "plain", approx, match.start()
                continue
        found = _value(plain, match)
        if isinstance(found, tuple):
            yield found[2], float(found[0]), match.start()


# ---- failing closed --------------------------------------------------------------------------------


def _malformed(groups: str) -> bool:
    """Digit groups of mixed widths (1,23,456 or 1,2345,6789), which no reader can take at face value."""
    widths = [len(g) for g in groups.split(".", maxsplit=1)[0].split(",")[1:]]
    return any(w != 3 for w in widths) and any(w >= 3 for w in widths)


def unreadable_numerals(text: str) -> list[tuple[int, int, str]]:
    """(start, end, text) of every numeral-like token in `text` that the reader cannot read (it fails closed).

    These are digits that neither a number nor an exclusion took, malformed digit groups (1,23,456), Chinese
    numerals with place characters that do not parse (三百百万) and numerals with no reading (½).
    """
    plain, breaks = plain_with_breaks(text)
    taken: list[tuple[int, int]] = []
    skipped: list[tuple[int, int]] = []
    bad: list[tuple[int, int]] = []
    for match in _TOKEN.finditer(plain):
        found = None if match.lastgroup == "skip" else _value(plain, match)
        if found == _UNREADABLE:
            bad.append(match.span())
        elif match.lastgroup == "skip" or found is not None:
            taken.append(match.span())
            if match.lastgroup == "skip":
                skipped.append(match.span())
    covered = _merged(taken)
    bad += [d.span() for d in _DIGIT_RUN.finditer(plain) if not _inside(covered, d.span())]
    bad += [g.span() for g in _GROUPS.finditer(plain) if _malformed(g[0]) and not _inside(skipped, g.span())]
    bad += [o.span() for o in _OTHER_NUMERALS.finditer(plain) if not _inside(taken, o.span())]  # 2*10^8 is one
    spans = sorted({original_span(breaks, s, e) for s, e in bad})
    return [(s, e, text[s:e]) for s, e in spans]


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted spans with touching ones joined: a digit run may be read by two numbers (28,146 and 1.0)."""
    joined: list[tuple[int, int]] = []
    for start, end in spans:
        if joined and start <= joined[-1][1]:
            joined[-1] = (joined[-1][0], max(end, joined[-1][1]))
        else:
            joined.append((start, end))
    return joined


def _inside(spans: list[tuple[int, int]], span: tuple[int, int]) -> bool:
    """Whether `span` lies within one of `spans` (sorted and not overlapping)."""
    i = bisect.bisect_right(spans, (span[0], _FAR)) - 1
    return i >= 0 and spans[i][0] <= span[0] and span[1] <= spans[i][1]
