"""Quote grounding: a quote must appear verbatim in the full text of the source it cites.

Both sides are normalised the same way before comparing: Unicode NFKC (full-width letters, digits and
punctuation to their ordinary forms), invisible and control characters removed, whitespace between CJK
characters removed (PDF text breaks lines anywhere) and other runs of whitespace collapsed to one space.
Nothing else is forgiven: one changed character is a mismatch, reported with the source passage around
the closest match so the quote can be fixed.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from stockbench.errors import Problem

# Invisible and formatting characters: soft hyphen, zero-width and bidi controls (including the isolates
# used in "Trojan Source" text), word joiners, fillers, variation selectors and Unicode tag characters
# (which can smuggle hidden instructions), and C0/DEL controls other than tab and line breaks.
INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\uffa0\ufeff\ufff9-\ufffb\U000e0000-\U000e007f"
    "\U000e0100-\U000e01ef\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]"
)
_CJK = r"\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_SPACE_BETWEEN_CJK = re.compile(rf"(?<=[{_CJK}])\s+(?=[{_CJK}])|(?<=[{_CJK}])\s+(?=\S)|(?<=\S)\s+(?=[{_CJK}])")
_SPACES = re.compile(r"\s+")
FULL_TEXT_KINDS = {"document", "announcement_text", "filing", "page"}
CONTEXT = 60
QUOTATION_MIN = 10  # shorter quoted spans are terms ("护城河"), not quotations
_QUOTED = re.compile(r"“([^”\n]+)”|「([^」\n]+)」|『([^』\n]+)』|\"([^\"\n]+)\"")


def normalise(text: str) -> str:
    """The comparison form of a text (see the module docstring)."""
    text = INVISIBLE.sub("", unicodedata.normalize("NFKC", text))
    text = _SPACE_BETWEEN_CJK.sub("", text)
    return _SPACES.sub(" ", text).strip()


def quoted_spans(text: str) -> list[str]:
    """The normalised quotations in `text` (between “”, 「」, 『』 or straight double quotes) long enough to matter."""
    spans = (normalise(next(g for g in m.groups() if g is not None)) for m in _QUOTED.finditer(text))
    return [span for span in spans if len(span) >= QUOTATION_MIN]


@dataclass(frozen=True, slots=True)
class QuoteCheck:
    ok: bool
    passage: str = ""  # the source passage around the closest match, when not ok
    ratio: float = 0.0


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


def check_quote(quote: str, source: str) -> QuoteCheck:
    """Whether `quote` occurs verbatim (after normalisation) in `source`."""
    wanted, text = normalise(quote), normalise(source)
    if not wanted:
        return QuoteCheck(False, "", 0.0)
    if wanted in text:
        return QuoteCheck(True)
    start, ratio = _closest(wanted, text)
    passage = text[max(start - CONTEXT, 0) : start + len(wanted) + CONTEXT]
    return QuoteCheck(False, passage, ratio)


def quote_problem(quote: str, evidence_id: str, kind: str | None, body: str | None, location: str) -> Problem | None:
    """A problem when the quote's cited source is missing, not a full text, or does not contain it."""
    if body is None or kind is None:
        return Problem(
            "quote_source_missing",
            f"the quote at {location} cites {evidence_id}, which is not evidence of this run",
            "cite the evidence id of the document it comes from",
            location=location,
        )
    if kind not in FULL_TEXT_KINDS:
        return Problem(
            "quote_not_full_text",
            f"the quote at {location} cites {evidence_id}, a {kind}, not a fetched full text",
            "fetch the full document (documents_read) and quote from it; snippets are candidates only",
            location=location,
        )
    found = check_quote(quote, body)
    if found.ok:
        return None
    return Problem(
        "quote_mismatch",
        f"the quote at {location} does not appear verbatim in {evidence_id}",
        f"copy the passage exactly; the closest source passage is: «{found.passage}»",
        location=location,
    )
