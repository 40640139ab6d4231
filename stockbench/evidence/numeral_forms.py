"""How numerals are written, for the reader in `numerals`: the character forms that are made plain before
reading (Unicode digit forms, full-width signs, superscripts, invisible characters) and number words:
Chinese numerals (三千二, 壹仟贰佰万, 三億, 三点五亿) and English ones (two million, one and a half billion).
"""

from __future__ import annotations

import bisect
import re
from decimal import Decimal

from stockbench.evidence.quotes import INVISIBLE

# ---- character forms -------------------------------------------------------------------------------

# The zeros of every Unicode decimal digit run (Arabic-Indic, Devanagari, full-width, mathematical 𝟎 ...).
_DIGIT_ZEROS = (
    0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6, 0xD66, 0xDE6, 0xE50, 0xED0, 0xF20,
    0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0,
    0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0,
    0x11450, 0x114D0, 0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60, 0x16AC0,
    0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E950, 0x1FBF0,
)  # fmt: skip
_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻"
_FORMS = "₀₁₂₃₄₅₆₇₈₉．，％＋－−（）￥＄～＾٫٬"
# One-to-one maps keep text positions stable: digit forms, full-width punctuation and brackets to ASCII.
_PLAIN = str.maketrans(
    {chr(zero + i): str(i) for zero in _DIGIT_ZEROS for i in range(10)}
    | dict(zip(_SUPERSCRIPTS + _FORMS, "0123456789+-0123456789.,%+--()¥$~^.,", strict=True))
)
# What `plain_text` removes or inserts: invisible characters go; an exponent (10⁸) or a power (R²) gets a "^".
_EDITS = re.compile(f"(?P<gone>{INVISIBLE.pattern}+)|(?P<sup>[{_SUPERSCRIPTS}]+)")


def _one_class(*classes: str) -> re.Pattern[str]:
    """One character class for several (searching one class is several times faster than an alternation)."""
    if all(c.startswith("[") and c.endswith("]") and not c.startswith("[^") for c in classes):
        return re.compile("[" + "".join(c[1:-1] for c in classes) + "]")
    return re.compile("|".join(classes))


# Most documents need no change at all: two fast searches say so, and the text is read as it is.
_SPECIAL = _one_class(INVISIBLE.pattern, "[" + re.escape(_SUPERSCRIPTS + _FORMS) + "]")
_OTHER_DIGIT = re.compile(r"[^\D0-9]")

Breaks = list[tuple[int, int]]  # (plain start, original start) of each piece of a plain text


def _edited(text: str) -> tuple[str, Breaks]:
    pieces: list[str] = []
    breaks: Breaks = []
    at = size = 0
    for edit in _EDITS.finditer(text):
        start, end = edit.span()
        if start > at:
            pieces.append(text[at:start])
            breaks.append((size, at))
            size += start - at
        if edit.lastgroup == "sup":
            before = text[max(start - 2, 0) : start].translate(_PLAIN)
            if before == "10" or (before[-1:].isascii() and before[-1:].isalpha()):  # 2×10⁸, R²
                pieces.append("^")
                breaks.append((size, start))
                size += 1
            pieces.append(text[start:end])
            breaks.append((size, start))
            size += end - start
        at = end
    pieces.append(text[at:])
    breaks.append((size, at))
    return "".join(pieces).translate(_PLAIN), breaks


def plain_with_breaks(text: str) -> tuple[str, Breaks | None]:
    """The plain text the reader sees (see `numerals.plain_text`), with where its pieces were in `text`
    (None when no character moved)."""
    if _SPECIAL.search(text) is None:
        return (text if _OTHER_DIGIT.search(text) is None else text.translate(_PLAIN)), None
    if _EDITS.search(text) is None:
        return text.translate(_PLAIN), None
    return _edited(text)


def _original(breaks: Breaks | None, position: int) -> int:
    if breaks is None:
        return position
    plain_start, start = breaks[bisect.bisect_right(breaks, (position, 1 << 62)) - 1]
    return start + position - plain_start


def original_span(breaks: Breaks | None, start: int, end: int) -> tuple[int, int]:
    """Where the span [start, end) of a plain text was in the original text."""
    if breaks is None:
        return start, end
    return _original(breaks, start), _original(breaks, end - 1) + 1


# ---- number words ----------------------------------------------------------------------------------

CN_DIGITS = {
    "零": 0, "〇": 0, "一": 1, "壹": 1, "二": 2, "贰": 2, "貳": 2, "两": 2, "兩": 2, "三": 3, "叁": 3, "參": 3,
    "四": 4, "肆": 4, "五": 5, "伍": 5, "六": 6, "陆": 6, "陸": 6, "七": 7, "柒": 7, "八": 8, "捌": 8, "九": 9,
    "玖": 9,
}  # fmt: skip
CN_PLACES = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
CN_BIG = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8}
# A place or multiplier character beside a digit makes a numeral a number even without a unit (两千万); 十
# alone does not (十一月, 三十而立).
CN_BIG_PLACES = frozenset("百佰千仟万萬亿億")
_DIGIT_CHARS = "".join(CN_DIGITS)
CN_START = _DIGIT_CHARS + "十拾"
CN_CHARS = CN_START + "百佰千仟万萬亿億"
# 三点五亿 = 3.5亿: 点 is a decimal point only between numeral characters (三点 is three o'clock, 三千点 a level).
CN_NUMERAL = rf"(?:[{CN_START}]|(?<=分之)[百千万])[{CN_CHARS}]*(?:点[{_DIGIT_CHARS}]+[万萬亿億]*)?"

_EN_ONES = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_EN_TEENS = {"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
             "seventeen": 17, "eighteen": 18, "nineteen": 19}  # fmt: skip
_EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
            "ninety": 90}  # fmt: skip
_EN_SCALES = {"hundred": 100, "thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_EN_WORDS = {**_EN_ONES, **_EN_TEENS, **_EN_TENS}


def _words(words: dict[str, int]) -> str:
    return "(?:" + "|".join(sorted(words, key=len, reverse=True)) + r")(?![A-Za-z])"


_EN_SMALL = rf"(?:{_words(_EN_TENS)}(?:[-\s]{_words(_EN_ONES)})?|{_words(_EN_TEENS)}|{_words(_EN_ONES)})"
_EN_GROUP = rf"{_EN_SMALL}(?:\s+hundred(?![A-Za-z])(?:\s+(?:and\s+)?{_EN_SMALL})?)?"
EN_NUMBER = (
    r"(?<![A-Za-z-])(?i:" + _EN_GROUP + r"(?:\s+and\s+a\s+half(?![A-Za-z]))?"
    r"(?:\s+(?:thousand|million|billion|trillion)(?![A-Za-z]))?)"
    r"(?!-(?i:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)(?![A-Za-z]))"  # twenty-first
)
EN_START = "otfsenOTFSEN"
_EN_TOKEN = re.compile("[a-z]+")


def _section(text: str) -> int | None:
    """A numeral below 万, strictly: places fall, no two digits in a row (三五, 二〇 are not one numeral)."""
    total, digit, place = 0, None, 10**4
    for i, char in enumerate(text):
        if char in CN_DIGITS:
            if digit is not None:
                return None
            digit = CN_DIGITS[char] or None  # 零 only holds a place: 一千零五
            continue
        value = CN_PLACES.get(char)
        if value is None or value >= place or (digit is None and value != 10 and i > 0):
            return None
        total, place, digit = total + (digit or 1) * value, value, None
    if digit is not None:  # 三千二 = 3200: a last digit right after a place takes the next place down
        total += digit * place // 10 if place > 10 and text[-2:-1] in CN_PLACES else digit
    return total


def _integer(text: str) -> int | None:
    """An integer Chinese numeral: groups of 亿 and 万 around numerals below 万 (一亿二千万, 两万五, 三万亿)."""
    for chars, big in (("亿億", 10**8), ("万萬", 10**4)):
        at = min((i for i in (text.find(c) for c in chars) if i >= 0), default=-1)
        if at < 0:
            continue
        high = _integer(text[:at]) if at else 1
        tail = text[at + 1 :]
        if len(tail) == 1 and CN_DIGITS.get(tail):
            low: int | None = CN_DIGITS[tail] * big // 10  # 两万五 = 25,000, 一亿二 = 1.2亿
        else:
            low = _integer(tail) if tail else 0
        if not high or low is None or low >= big:
            return None
        return high * big + low
    return _section(text)


def chinese_value(text: str) -> Decimal | None:
    """The value of a Chinese numeral (三千二 -> 3200, 壹仟贰佰万 -> 12,000,000, 三点五亿 -> 350,000,000), or None."""
    whole, point, fraction = text.partition("点")
    if not point:
        found = _integer(text)
        return None if found is None else Decimal(found)
    digits = fraction.rstrip("万萬亿億")
    integer = _integer(whole)
    if integer is None or not digits or any(c not in CN_DIGITS for c in digits):
        return None
    value = Decimal(f"{integer}." + "".join(str(CN_DIGITS[c]) for c in digits))
    for char in fraction[len(digits) :]:
        value *= CN_BIG[char]
    return value


def chinese_range(text: str) -> tuple[Decimal, Decimal] | None:
    """The bounds of a colloquial range: 三五千 -> (3000, 5000), 一两万 -> (10,000, 20,000); None otherwise."""
    if len(text) < 3 or text[0] not in CN_DIGITS or text[1] not in CN_DIGITS or text[2] in CN_DIGITS:
        return None
    low, high = chinese_value(text[0] + text[2:]), chinese_value(text[1] + text[2:])
    if low is None or high is None or not 0 < low < high:
        return None
    return low, high


def english_value(text: str) -> Decimal:
    """The value of English number words that `EN_NUMBER` matched (one and a half billion -> 1,500,000,000)."""
    total, current = Decimal(0), Decimal(0)
    for word in _EN_TOKEN.findall(text.lower()):
        if word in _EN_WORDS:
            current += _EN_WORDS[word]
        elif word == "hundred":
            current *= 100
        elif word == "half":
            current += Decimal("0.5")
        elif word in _EN_SCALES:
            total, current = total + current * _EN_SCALES[word], Decimal(0)
    return total + current


def english_is_number(text: str) -> bool:
    """Whether number words stand alone as a number: a multiplier, 11 or more, or a compound (one of ... is not)."""
    lowered = text.lower()
    return any(w in lowered for w in (*_EN_SCALES, "half", "-", " ")) or english_value(text) >= 11
