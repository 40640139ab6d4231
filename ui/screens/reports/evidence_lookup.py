"""Where a report's number or quote comes from: the cited evidence and the passage around the value or quotation.

Plain Python (no Qt), run in the background: it reads the evidence store and re-reads the evidence with the
same number and quote rules the publication gates use, so what the user sees is what the gate accepted.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from stockbench.errors import NotFound
from stockbench.evidence.numbers import EvidenceValue, extract_numbers, index_evidence
from stockbench.evidence.numerals import number_at, plain_text
from stockbench.evidence.quotes import check_quote, normalise
from stockbench.evidence.store import Evidence, EvidenceStore, digest

CONTEXT = 80
JSON_PASSAGE = 900
MAX_LOCATIONS = 5  # a number that several values display as lists where each is
_PATH_PART = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


@dataclass(frozen=True)
class EvidenceRequest:
    """What was clicked: evidence ids, and the number or quote to find in them (neither: the whole evidence)."""

    evidence_ids: tuple[str, ...]
    number: str | None = None
    quote: str | None = None


@dataclass(frozen=True)
class EvidenceDetail:
    """One evidence record and the passage that supports the clicked number or quote."""

    evidence_id: str
    kind: str
    source: str
    sha256: str
    media_type: str
    fetched_at: datetime | None
    intact: bool  # the stored body still hashes to its sha256
    passage: str
    highlight: str  # the text to mark inside `passage` ("" for none)
    where: str  # the JSON paths or text offsets holding the value, "; "-separated (the passage shows the first)
    found: bool  # False when the number or quote was not located in this evidence
    missing: bool = False  # the evidence id is not in the store


def _navigate(data: Any, path: str) -> tuple[Any, Any]:
    """(parent container, scalar) at a JSON path such as $.states.trend[0].score."""
    parent, node = None, data
    for key, index in _PATH_PART.findall(path.removeprefix("$")):
        parent = node
        node = node[int(index)] if index else node[key]
    return parent, node


def _text_passage(body: str, start: int, end: int) -> str:
    lead = "…" if start > CONTEXT else ""
    tail = "…" if end + CONTEXT < len(body) else ""
    return lead + body[max(start - CONTEXT, 0) : end + CONTEXT] + tail


def _json_text(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True)
    return text if len(text) <= JSON_PASSAGE else text[:JSON_PASSAGE] + "\n…"


def _number_detail(found: Evidence, number: str) -> tuple[str, str, str, bool]:
    """(passage, highlight, where, found) for a number written in a report."""
    read = extract_numbers(number)
    if not read:
        return _opening(found), "", "", False
    index = index_evidence([(found.evidence_id, found.media_type, found.body)])
    matches: list[EvidenceValue] = index.matches(read[0])
    if not matches:
        return _opening(found), "", "", False
    match = matches[0]
    where = "; ".join(m.where for m in matches[:MAX_LOCATIONS]) + ("; …" if len(matches) > MAX_LOCATIONS else "")
    if match.where.startswith("text@"):
        start = int(match.where.removeprefix("text@"))
        written = number_at(plain_text(found.body), start)
        end = written.end if written is not None else start + len(number)
        return _text_passage(found.body, start, end), found.body[start:end], where, True
    parent, scalar = _navigate(json.loads(found.body), match.where)
    return _json_text(parent if parent is not None else scalar), json.dumps(scalar, ensure_ascii=False), where, True


def _quote_detail(found: Evidence, quote: str) -> tuple[str, str, str, bool]:
    """(passage, highlight, where, found) for a quotation."""
    at = found.body.find(quote)
    if at >= 0:
        return _text_passage(found.body, at, at + len(quote)), quote, f"text@{at}", True
    check = check_quote(quote, found.body)
    if check.ok:  # verbatim after normalisation: show it in the normalised text
        text, wanted = normalise(found.body), normalise(quote)
        at = text.find(wanted)
        return _text_passage(text, at, at + len(wanted)), wanted, "", True
    return check.passage or _opening(found), "", "", False


def _opening(found: Evidence) -> str:
    if found.media_type == "application/json":
        return _json_text(json.loads(found.body))
    return found.body[: CONTEXT * 5] + ("…" if len(found.body) > CONTEXT * 5 else "")


def evidence_detail(store: EvidenceStore, evidence_id: str, *, number: str | None = None,
                    quote: str | None = None) -> EvidenceDetail:  # fmt: skip
    """The evidence `evidence_id` with the passage around `number` or `quote` (or its opening)."""
    try:
        found = store.get(evidence_id)
    except NotFound:
        return EvidenceDetail(evidence_id, "", "", "", "", None, False, "", "", "", False, missing=True)
    if number is not None:
        passage, highlight, where, located = _number_detail(found, number)
    elif quote is not None:
        passage, highlight, where, located = _quote_detail(found, quote)
    else:
        passage, highlight, where, located = _opening(found), "", "", True
    intact = digest(found.body) == found.sha256
    return EvidenceDetail(found.evidence_id, found.kind, found.source, found.sha256, found.media_type,
                          found.fetched_at, intact, passage, highlight, where, located)  # fmt: skip


def lookup(store: EvidenceStore, request: EvidenceRequest) -> list[EvidenceDetail]:
    """Every cited evidence of `request`, the ones that hold the number or quote first."""
    details = [evidence_detail(store, e, number=request.number, quote=request.quote) for e in request.evidence_ids]
    return sorted(details, key=lambda d: not d.found)
