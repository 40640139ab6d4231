"""Quote grounding: a quote must appear verbatim in the full text of the source it cites, without leaving out a
negation or qualifier that the source attaches to it; and the quotations written in a report's text.

Both sides are normalised the same way before comparing: Unicode NFKC (full-width letters, digits and
punctuation to their ordinary forms), invisible and control characters removed, whitespace between CJK
characters removed (PDF text breaks lines anywhere) and other runs of whitespace collapsed to one space.
Nothing else is forgiven: one changed character is a mismatch, reported with the source passage around
the closest match so the quote can be fixed.

A verbatim span can still invert its source (“存在虚假记载” cut from "不存在虚假记载"), so a quote is also
rejected when, at every place it occurs, the rest of its clause carries a negation or qualifier (`NEGATIONS`,
`QUALIFIERS`, less the words of `NON_NEGATING`) that the quote leaves out. A clause runs between 。；;！？!?,
"——", a full stop before a space, and the end of a line clearly narrower than the source's full lines (a
heading, a paragraph's last line: text from a PDF wraps every full line mid-sentence), reaching at most
`CLAUSE_REACH` characters either side of the quote. A comma does not end one: telling a new subject after a
comma apart is beyond a rule this simple, so a quote of half a sentence may be asked to take the other half too.
"""

from __future__ import annotations

import bisect
import difflib
import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from stockbench.errors import Problem
from stockbench.messages import problem, value_word

# Invisible and formatting characters: soft hyphen, zero-width and bidi controls (including the isolates
# used in "Trojan Source" text), word joiners, fillers, variation selectors and Unicode tag characters
# (which can smuggle hidden instructions), and C0/DEL controls other than tab and line breaks.
INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\uffa0\ufeff\ufff9-\ufffb\U000e0000-\U000e007f"
    "\U000e0100-\U000e01ef\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]"
)
_CJK = r"\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_CJK_CHAR = re.compile(f"[{_CJK}]")
_SPACE_BETWEEN_CJK = re.compile(rf"(?<=[{_CJK}])\s+(?=[{_CJK}])|(?<=[{_CJK}])\s+(?=\S)|(?<=\S)\s+(?=[{_CJK}])")
_SPACES = re.compile(r"\s+")
_LINE_BREAK = re.compile(r"[\r\n]")
FULL_TEXT_KINDS = {"document", "announcement_text", "filing", "page"}
CONTEXT = 60
CLAUSE_REACH = 400
WRAP = 0.8  # a line at least this share of the text's usual (median) width was wrapped, not ended

# Simplified and traditional forms (Hong Kong filings are written in traditional characters).
NEGATIONS = ("不", "未", "无", "無", "没有", "沒有", "没", "沒", "非", "否", "并非", "並非", "并未", "並未",
             "绝非", "絕非", "毫无", "毫無", "从未", "從未", "非常规", "非常規",
             "not", "no", "never", "nor", "neither", "without", "none", "cannot", "n't")  # fmt: skip
QUALIFIERS = ("可能", "或将", "或將", "或许", "或許", "如果", "假如", "倘若", "若", "如若", "一旦", "除非",
              "if", "unless", "may", "might", "could")  # fmt: skip
# Words holding a negation's or qualifier's character that neither negate nor qualify what follows. 毫不犹豫
# ("without hesitation") is here: it affirms, and dropping it keeps the meaning. A longer word wins over a
# shorter one at the same place, so 非常规 ("unconventional") still negates although 非常 does not.
NON_NEGATING = ("未来", "未來", "非常", "非凡", "非但", "无论", "無論", "无疑", "無疑", "无锡", "無錫",
                "毫无疑问", "毫無疑問", "不仅", "不僅", "不但", "不光", "不断", "不斷", "不久", "不过", "不過",
                "不少", "不管", "不得不", "毫不犹豫", "毫不猶豫", "否则", "否則", "并且", "並且", "若干",
                "沉没", "沉沒", "淹没", "淹沒", "not only", "no doubt", "none the less")  # fmt: skip
_CHINESE = sorted((w for w in {*NEGATIONS, *QUALIFIERS, *NON_NEGATING} if not w.isascii()), key=len, reverse=True)
_CHINESE_WORD = re.compile("|".join(_CHINESE))  # longest first: the longer word wins at a place
# One pass finds English words and the characters a Chinese word can start with: an alternation of every word
# tried at every character is slow on long clauses, and English words need their own boundaries anyway.
_TOKEN = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*|[" + "".join(sorted({w[0] for w in _CHINESE})) + "]")
_ENGLISH_WORDS = {w for w in (*NEGATIONS, *QUALIFIERS) if w.isascii() and w != "n't"}
_PHRASES = {w.split(" ")[0]: re.compile(" " + w.split(" ", 1)[1] + "(?![a-z])") for w in NON_NEGATING if " " in w}
_NUMBER_SIGN = re.compile(r"\. ?\d")  # "No. 5"
_CLAUSE_BREAK = re.compile(r"[。;!?]|[—―]{2}|\.(?= \D)")
_ENDS_CLAUSE = re.compile(r"(?:[。;!?]|[—―]{2}|\.)\s*$")


# ---- normalisation -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Normal:
    """A normalised text and the offsets in it where a line of the original began (after the first)."""

    text: str
    lines: tuple[int, ...]


def _normal_line(line: str) -> str:
    line = INVISIBLE.sub("", unicodedata.normalize("NFKC", line))
    return _SPACES.sub(" ", _SPACE_BETWEEN_CJK.sub("", line)).strip()


def _normalised(text: str) -> _Normal:
    """`normalise(text)` built line by line, keeping where the lines met: line breaks end clauses.

    A line break is a starter that never composes, so NFKC of the lines is NFKC of the text; the whitespace
    around a break goes, as anywhere, when a CJK character touches it and becomes one space otherwise.
    """
    parts: list[str] = []
    starts: list[int] = []
    size = 0
    for line in _LINE_BREAK.split(text):
        part = _normal_line(line)
        if not part:
            continue
        if parts:
            joint = "" if _CJK_CHAR.match(parts[-1][-1]) or _CJK_CHAR.match(part[0]) else " "
            parts.append(joint)
            size += len(joint)
            starts.append(size)
        parts.append(part)
        size += len(part)
    return _Normal("".join(parts), tuple(starts))


def normalise(text: str) -> str:
    """The comparison form of a text (see the module docstring)."""
    return _normalised(text).text


# ---- quotations in a report's text ---------------------------------------------------------------------

QuoteForm = Literal["“”", "‘’", "「」", "『』", '""', "''", ">"]


@dataclass(frozen=True, slots=True)
class Quotation:
    """One quotation in a text: its normalised content and where that content is in the original text.

    For a blockquote, `start`..`end` runs from its first line's content to its last's, and `text` joins the
    lines' contents without their ">" markers.
    """

    text: str
    start: int
    end: int
    form: QuoteForm


# opener -> (closer, form); full-width straight quotes count as straight quotes
_PAIRS: dict[str, tuple[str, QuoteForm]] = {
    "“": ("”", "“”"), "「": ("」", "「」"), "『": ("』", "『』"), "‘": ("’", "‘’"),
    '"': ('"', '""'), "＂": ("＂", '""'), "'": ("'", "''"), "＇": ("＇", "''"),
}  # fmt: skip
_SINGLE = "‘’'＇"  # single quotes double as apostrophes
_OPENER = re.compile("[" + "".join(_PAIRS) + "]")
_MARKS = {opener: re.compile(f"[{re.escape(opener + closer)}]") for opener, (closer, _) in _PAIRS.items()}
_BLOCKQUOTE = re.compile(r"[ \t]*>(?:[ \t]*>)*[ \t]*")
_BLOCK_START = re.compile(r"[ \t]*(?:[-*+][ \t]|#|\||```|\d+[.)][ \t])")  # ends a blockquote's lazy continuation


def _letter(text: str, at: int) -> bool:
    """Whether text[at] is a letter of an alphabet (a CJK character is not: Chinese has no apostrophes)."""
    if not 0 <= at < len(text):
        return False
    char = unicodedata.normalize("NFKC", text[at])[:1]
    return char.isalpha() and char < "\u2e80"


def _opens(text: str, at: int) -> bool:
    if text[at] not in _SINGLE:
        return True
    possessive = text[at + 1 : at + 2] == "s" and not _letter(text, at + 2)  # 腾讯's: no letter before it
    return not (possessive or _letter(text, at - 1) or text[at - 1 : at].isdigit())


def _closes(text: str, at: int) -> bool:
    return text[at] not in _SINGLE or not _letter(text, at + 1)


def _closing(text: str, at: int, end: int) -> int:
    """Where the quotation opened at `at` closes before `end` (-1 if it does not); same-kind nesting counts."""
    opener, (closer, _) = text[at], _PAIRS[text[at]]
    depth = 0
    for mark in _MARKS[opener].finditer(text, at + 1, end):
        j = mark.start()
        if text[j] == closer and _closes(text, j):
            if depth == 0:
                return j
            depth -= 1
        elif text[j] == opener != closer and _opens(text, j):
            depth += 1
    return -1


def _inline(text: str, start: int, end: int) -> Iterator[Quotation]:
    """The outermost quotations between quotation marks in text[start:end] (one paragraph)."""
    found = _OPENER.search(text, start, end)
    while found is not None:
        at = found.start()
        close = _closing(text, at, end) if _opens(text, at) else -1
        if close < 0:
            found = _OPENER.search(text, at + 1, end)
            continue
        content = normalise(text[at + 1 : close])
        if content:
            yield Quotation(content, at + 1, close, _PAIRS[text[at]][1])
        found = _OPENER.search(text, close + 1, end)


def _blockquote(text: str, lines: list[tuple[int, int]]) -> Iterator[Quotation]:
    content = normalise("\n".join(text[s:e] for s, e in lines))
    if content:
        yield Quotation(content, lines[0][0], lines[-1][1], ">")


def _blocks(text: str) -> Iterator[tuple[bool, list[tuple[int, int]]]]:
    """(is a blockquote, content spans of its lines) of each block of `text`; blank lines separate blocks.

    A plain line right after a blockquote's line continues it, as Markdown's lazy continuation renders it,
    unless it starts a block of its own (a list item, a heading, a table row, a fence).
    """
    block: list[tuple[int, int]] = []
    quoted, pos = False, 0
    for line in text.split("\n"):
        start, end, pos = pos, pos + len(line.rstrip()), pos + len(line) + 1
        marker = _BLOCKQUOTE.match(line)
        if marker is not None:
            start += marker.end()
        kind = marker is not None or (bool(block) and quoted and not _BLOCK_START.match(line))
        if block and (start >= end or kind != quoted):
            yield quoted, block
            block = []
        if start < end:
            quoted = kind
            block.append((start, end))
    if block:
        yield quoted, block


def quotations(text: str) -> list[Quotation]:
    """Every quotation in `text`: between “” ‘’ 「」 『』 or straight quotes, and Markdown blockquotes.

    Apostrophes are not quotation marks: a single quote after a letter or digit, or before a possessive "s",
    opens nothing, and one before a letter closes nothing (company's, don't, 腾讯's). A quotation inside
    another is part of the outer one; none crosses a blank line.
    """
    found: list[Quotation] = []
    for quoted, lines in _blocks(text):
        found += _blockquote(text, lines) if quoted else _inline(text, lines[0][0], lines[-1][1])
    return found


def quoted_spans(text: str) -> list[str]:
    """The normalised texts of the quotations in `text` (see `quotations`)."""
    return [q.text for q in quotations(text)]


# ---- checking a quote against its source ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class QuoteCheck:
    """Whether a quote holds against its source, and if not why (`reason`) and what to quote instead."""

    ok: bool
    passage: str = ""  # the source passage around the closest match, or the whole clause it drops a word of
    ratio: float = 0.0
    reason: Literal["", "mismatch", "drops_negation"] = ""
    dropped: str = ""  # the negation or qualifier left out, for drops_negation


def _closest(quote: str, source: str) -> tuple[int, float]:
    """Where in `source` the quote most nearly occurs (start index) and how similar it is."""
    if not source:
        return 0, 0.0
    size = len(quote)
    probes = {quote[i : i + 4] for i in range(0, max(len(quote) - 3, 1), max(size // 8, 1))}
    hits = Counter(max(m.start() - size, 0) // 8 * 8 for p in probes if p for m in re.finditer(re.escape(p), source))
    candidates = [start for start, _ in hits.most_common(200)] or [0]
    best, best_ratio = 0, 0.0
    for start in candidates:
        window = source[start : start + size * 2]
        matcher = difflib.SequenceMatcher(None, quote, window, autojunk=False)
        block = max(matcher.get_matching_blocks(), key=lambda b: b.size)
        begin = max(start + block.b - block.a, 0)
        ratio = difflib.SequenceMatcher(None, quote, source[begin : begin + size], autojunk=False).ratio()
        if ratio > best_ratio:
            best, best_ratio = begin, ratio
    return best, best_ratio


def _width(line: str) -> int:
    """How wide `line` prints: a CJK character takes two columns."""
    return len(line) + _CJK_CHAR.subn("", line)[1]


def _line_ends(source: _Normal) -> list[int]:
    """Where a line of the source ended rather than wrapped: after a line clearly narrower than its full lines.

    Text taken from a PDF (cninfo's announcements) breaks every line at the page's width, mid-sentence, so a
    break after a full line would hide the 不 at the end of it; a heading or a paragraph's last line stops short.
    """
    edges = [0, *source.lines, len(source.text)]
    widths = [_width(source.text[a:b]) for a, b in itertools.pairwise(edges)]
    full = sorted(widths)[len(widths) // 2]  # most lines of a PDF's text are full
    return [at for at, width in zip(source.lines, widths, strict=False) if width < WRAP * full]


def _breaks(source: _Normal) -> tuple[list[int], list[int]]:
    """Starts and ends of the clause breaks of `source`, in order; where a line ended is an empty break."""
    found = [(m.start(), m.end()) for m in _CLAUSE_BREAK.finditer(source.text)]
    pairs = sorted([*found, *((at, at) for at in _line_ends(source))])
    return [start for start, _ in pairs], [end for _, end in pairs]


def _clause(breaks: tuple[list[int], list[int]], size: int, start: int, end: int) -> tuple[int, int]:
    """The clause around the span start..end of a text of `size` characters; the span may cross breaks."""
    starts, ends = breaks
    before, after = bisect.bisect_right(ends, start) - 1, bisect.bisect_left(starts, end)
    begin = ends[before] if before >= 0 else 0
    finish = starts[after] if after < len(starts) else size
    return max(begin, start - CLAUSE_REACH), min(finish, end + CLAUSE_REACH)


def _english(part: str, token: re.Match[str]) -> bool:
    """Whether the English word `token` negates or qualifies (a phrase of NON_NEGATING does not)."""
    word = token.group().lower().replace("’", "'")
    if word.endswith("n't"):
        return True
    if word not in _ENGLISH_WORDS or token.group() == "May":  # "May" is the month
        return False
    if word == "no" and _NUMBER_SIGN.match(part, token.end()):
        return False
    phrase = _PHRASES.get(word)
    return phrase is None or phrase.match(part[token.end() : token.end() + 20].lower()) is None


def _negations(part: str) -> Iterator[str]:
    """The negations and qualifiers in `part`, in order."""
    done = 0
    for token in _TOKEN.finditer(part):
        if token.start() < done:
            continue
        if token.group()[0].isascii():
            if _english(part, token):
                yield token.group()
            continue
        word = _CHINESE_WORD.match(part, token.start())
        if word is not None:
            done = word.end()
            if word.group() not in NON_NEGATING:
                yield word.group()


def _drops(source: _Normal, wanted: str) -> tuple[str, str] | None:
    """(clause, word) at the first occurrence when every occurrence of `wanted` leaves out a negation or
    qualifier of its clause, the word being the one nearest the quote; None when one occurrence does not."""
    text, breaks = source.text, _breaks(source)
    first: tuple[str, str] | None = None
    at = text.find(wanted)
    while at >= 0:
        begin, finish = _clause(breaks, len(text), at, at + len(wanted))
        before, after = text[begin:at], text[at + len(wanted) : finish]
        if _ENDS_CLAUSE.search(wanted):  # a quote that ends its sentence carries nothing after it
            after = ""
        # Only the first occurrence is read to its end; the others stop at their first negation, as a long
        # source can hold a short quote thousands of times.
        if next(_negations(before), None) is None and next(_negations(after), None) is None:
            return None
        if first is None:
            nearest = [*_negations(before)][-1:] or [next(_negations(after), "")]
            first = (text[begin:finish].strip(), nearest[0])
        at = text.find(wanted, at + 1)
    return first


def check_quote(quote: str, source: str) -> QuoteCheck:
    """Whether `quote` occurs verbatim (after normalisation) in `source` without leaving out a negation or
    qualifier of its clause there."""
    wanted, text = normalise(quote), _normalised(source)
    if not wanted:
        return QuoteCheck(False, "", 0.0, "mismatch")
    if wanted in text.text:
        dropped = _drops(text, wanted)
        if dropped is None:
            return QuoteCheck(True)
        return QuoteCheck(False, dropped[0], 1.0, "drops_negation", dropped[1])
    start, ratio = _closest(wanted, text.text)
    passage = text.text[max(start - CONTEXT, 0) : start + len(wanted) + CONTEXT]
    return QuoteCheck(False, passage, ratio, "mismatch")


def quote_problem(quote: str, evidence_id: str, kind: str | None, body: str | None, location: str) -> Problem | None:
    """A problem when the quote's cited source is missing, not a full text, does not contain it, or negates
    or qualifies it where the quote does not."""
    if body is None or kind is None:
        return problem("quote_source_missing", where=location, evidence=evidence_id, location=location)
    if kind not in FULL_TEXT_KINDS:
        return problem("quote_not_full_text", where=location, evidence=evidence_id, kind=kind,
                       kind_zh=value_word("evidence_kind", kind, "zh"), location=location)  # fmt: skip
    found = check_quote(quote, body)
    if found.ok:
        return None
    if found.reason == "drops_negation":
        return problem("quote_drops_negation", where=location, dropped=found.dropped, evidence=evidence_id,
                       passage=found.passage, location=location)  # fmt: skip
    return problem("quote_mismatch", where=location, evidence=evidence_id, passage=found.passage, location=location)
