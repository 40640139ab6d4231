"""Where a report's number or quote comes from: the evidence it cites and the passage around the value or quotation.

The evidence is re-read with the rules the publication gates use (the number reader, the quote check), so what the
user is shown is what the gate accepted, and a quote the check refuses (one that drops a negation, say) is shown
as refused. `EvidenceLookup` is the service behind `Workbench.evidence`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from stockbench.errors import InvalidInput, NotFound
from stockbench.evidence.numbers import EvidenceValue, extract_numbers, index_evidence
from stockbench.evidence.numeral_forms import original_span, plain_with_breaks
from stockbench.evidence.numerals import PERIOD_CONSTANTS, number_at
from stockbench.evidence.quotes import QuoteCheck, check_quote, normalise
from stockbench.evidence.records import (
    ClaimCitation,
    EvidenceAnswer,
    EvidenceDetail,
    EvidenceRequest,
    NumberSpan,
    QuoteCitation,
    ReportCitations,
)
from stockbench.evidence.store import Evidence, EvidenceStore, digest
from stockbench.messages import Language, user_error

CONTEXT = 80
JSON_PASSAGE = 900
MAX_LOCATIONS = 5  # a number that several values display as lists where each is
MAX_HINTED = 12  # numbers or quotes named in a "not found" hint
EVIDENCE_ID = re.compile(r"ev-[0-9a-f]{24}")
_PATH_PART = re.compile(r"\.([^.\[]+)|\[(\d+)\]")

Located = tuple[str, str, str, bool]  # (passage, highlight, where, found)


# ---- what a report cites ----------------------------------------------------------------------------------------
def claim_numbers(text: str) -> tuple[NumberSpan, ...]:
    """The numbers of a claim that trace to evidence (a period such as "20日" is not one)."""
    return tuple(
        NumberSpan(n.start, n.end, text[n.start : n.end])
        for n in extract_numbers(text)
        if not (n.period and abs(n.value) in PERIOD_CONSTANTS)
    )


def report_citations(draft: Mapping[str, Any], markdown: str = "") -> ReportCitations:
    """The claims and risks of a report's `draft` (longest text first, each once), its quotes, and every evidence
    id it cites or its `markdown` names."""
    found: dict[str, tuple[str, ...]] = {}
    for item in [*draft.get("claims", []), *draft.get("risks", [])]:
        text = str(item.get("text", "")).strip()
        if text and text not in found:
            found[text] = tuple(str(e) for e in item.get("evidence", []))
    claims = tuple(
        ClaimCitation(t, ids, claim_numbers(t)) for t, ids in sorted(found.items(), key=lambda p: -len(p[0]))
    )
    quotes = tuple(
        QuoteCitation(str(q["text"]), str(q["evidence_id"]))
        for q in draft.get("quotes", [])
        if q.get("text") and q.get("evidence_id")
    )
    named = (
        [e for c in claims for e in c.evidence_ids] + [q.evidence_id for q in quotes] + EVIDENCE_ID.findall(markdown)
    )
    return ReportCitations(claims, quotes, tuple(dict.fromkeys(named)))


# ---- one evidence, read for a number or a quote -----------------------------------------------------------------
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


Words = Callable[[Any], Any]  # a program record said again in the reader's language (identity: as stored)


def _as_stored(value: Any) -> Any:
    return value


def _opening(found: Evidence, words: Words = _as_stored) -> str:
    if found.media_type == "application/json":
        return _json_text(words(json.loads(found.body)))
    return found.body[: CONTEXT * 5] + ("…" if len(found.body) > CONTEXT * 5 else "")


def _number_detail(found: Evidence, number: str, words: Words = _as_stored) -> Located:
    """The passage around the value a number written in a report displays as."""
    read = extract_numbers(number)
    matches: list[EvidenceValue] = []
    if read:
        matches = index_evidence([(found.evidence_id, found.media_type, found.body)]).matches(read[0])
    if not matches:
        return _opening(found, words), "", "", False
    match = matches[0]
    where = "; ".join(m.where for m in matches[:MAX_LOCATIONS]) + ("; …" if len(matches) > MAX_LOCATIONS else "")
    if match.where.startswith("text@"):
        # The index holds positions in the reader's plain text, which may lack invisible characters the body has.
        plain, breaks = plain_with_breaks(found.body)
        start = int(match.where.removeprefix("text@"))
        written = number_at(plain, start)
        start, end = original_span(breaks, start, written.end if written is not None else start + len(number))
        return _text_passage(found.body, start, end), found.body[start:end], where, True
    parent, scalar = _navigate(json.loads(found.body), match.where)
    shown = words(parent) if parent is not None else scalar
    return _json_text(shown), json.dumps(scalar, ensure_ascii=False), where, True


def _quote_detail(found: Evidence, quote: str, check: QuoteCheck) -> Located:
    """The passage of a quotation: where it stands when the check accepts it, else the check's own passage."""
    if check.reason == "drops_negation":
        return check.passage, normalise(quote), "", False
    if not check.ok:
        return check.passage or _opening(found), "", "", False
    at = found.body.find(quote)
    if at >= 0:
        return _text_passage(found.body, at, at + len(quote)), quote, f"text@{at}", True
    text, wanted = normalise(found.body), normalise(quote)  # verbatim after normalisation: shown normalised
    at = text.find(wanted)
    return _text_passage(text, at, at + len(wanted)), wanted, "", True


def evidence_detail(
    store: EvidenceStore,
    evidence_id: str,
    *,
    number: str | None = None,
    quote: str | None = None,
    words: Words = _as_stored,
) -> EvidenceDetail:
    """The evidence `evidence_id` with the passage around `number` or `quote` (or its opening); a program record's
    passage as `words` says it (its sentences in the reader's language; the stored body is not changed)."""
    try:
        found = store.get(evidence_id)
    except NotFound:
        return EvidenceDetail(evidence_id, "", "", "", "", None, False, "", "", "", False, missing=True)
    check: QuoteCheck | None = None
    if number is not None:
        passage, highlight, where, located = _number_detail(found, number, words)
    elif quote is not None:
        check = check_quote(quote, found.body)
        passage, highlight, where, located = _quote_detail(found, quote, check)
    else:
        passage, highlight, where, located = _opening(found, words), "", "", True
    intact = digest(found.body) == found.sha256
    verdict, dropped = (check.reason, check.dropped) if check is not None else ("", "")
    return EvidenceDetail(found.evidence_id, found.kind, found.source, found.sha256, found.media_type,
                          found.fetched_at, intact, passage, highlight, where, located, False, verdict,
                          dropped)  # fmt: skip


def lookup(store: EvidenceStore, request: EvidenceRequest, words: Words = _as_stored) -> tuple[EvidenceDetail, ...]:
    """Every evidence of `request`, the ones that hold the number or quote first."""
    details = [evidence_detail(store, e, number=request.number, quote=request.quote, words=words)
               for e in request.evidence_ids]  # fmt: skip
    return tuple(sorted(details, key=lambda d: not d.found))


# ---- a look-up within a report ----------------------------------------------------------------------------------
def _spaced(text: str) -> str:
    return " ".join(text.split())


def _listing(values: Sequence[str]) -> str:
    shown = list(dict.fromkeys(values))
    return ", ".join(shown[:MAX_HINTED]) + (", …" if len(shown) > MAX_HINTED else "")


def report_request(
    citations: ReportCitations, *, number: str | None = None, quote: str | None = None, evidence_id: str | None = None
) -> EvidenceRequest:
    """The request for one number of a claim, one quote, or one cited evidence id of a report.

    NotFound (with what the report does cite) when the report states no such number, quote or id."""
    if sum(v is not None for v in (number, quote, evidence_id)) != 1:
        raise user_error(InvalidInput, "lookup_one_thing")
    if number is not None:
        wanted = number.strip()
        ids = [e for c in citations.claims if any(n.text == wanted for n in c.numbers) for e in c.evidence_ids]
        if not ids:
            stated = [n.text for c in citations.claims for n in c.numbers]
            if not stated:
                raise user_error(NotFound, "lookup_number_unstated.none", number=wanted)
            raise user_error(NotFound, "lookup_number_unstated", number=wanted, numbers=_listing(stated))
        return EvidenceRequest(tuple(dict.fromkeys(ids)), number=wanted)
    if quote is not None:
        matching = [q for q in citations.quotes if _spaced(q.text) == _spaced(quote)]
        if not matching:
            raise user_error(NotFound, "lookup_quote_unquoted", count=len(citations.quotes))
        return EvidenceRequest(tuple(dict.fromkeys(q.evidence_id for q in matching)), quote=matching[0].text)
    assert evidence_id is not None
    if evidence_id not in citations.evidence_ids:
        raise user_error(
            NotFound, "lookup_evidence_uncited", evidence=evidence_id, cited=_listing(citations.evidence_ids)
        )
    return EvidenceRequest((evidence_id,))


class EvidenceLookup:
    """Look-ups in the workspace's evidence store (`Workbench.evidence`)."""

    def __init__(self, store: EvidenceStore, words: Callable[[Any, Language, str], Any] | None = None) -> None:
        self._store = store
        self._words = words  # a record's sentences in a language, for a symbol's exchange (research's record_words)

    def lookup(
        self, request: EvidenceRequest, language: Language | None = None, symbol: str = ""
    ) -> tuple[EvidenceDetail, ...]:
        """Each evidence of `request` with the passage around its number or quote, the ones holding it first. The
        passages are the stored text, or with a `language` (a person reading it in the window), a program record's
        sentences said in that language, times in `symbol`'s exchange zone (the stored record is not changed)."""
        said = self._words
        if said is None or language is None:
            return lookup(self._store, request)
        return lookup(self._store, request, lambda record: said(record, language, symbol))

    def citations(self, draft: Mapping[str, Any], markdown: str = "") -> ReportCitations:
        """What a report (its `draft` and `markdown`) cites: claims with their numbers, quotes, evidence ids."""
        return report_citations(draft, markdown)

    def in_report(
        self,
        report_id: str,
        citations: ReportCitations,
        *,
        number: str | None = None,
        quote: str | None = None,
        evidence_id: str | None = None,
    ) -> EvidenceAnswer:
        """Where one number of a report's claims, one of its quotes, or one evidence id it cites comes from."""
        request = report_request(citations, number=number, quote=quote, evidence_id=evidence_id)
        return EvidenceAnswer(report_id, request, self.lookup(request))
