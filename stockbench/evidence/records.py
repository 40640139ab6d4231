"""What a look-up of a report's evidence asks and answers: the evidence a report cites (per claim, number and quote),
a request for some of it, and each cited evidence with the passage that supports the number or quote.

Plain frozen data (`stockbench.evidence.lookup` computes it): the front ends may hold it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

QuoteVerdict = Literal["", "mismatch", "drops_negation"]


@dataclass(frozen=True)
class EvidenceRequest:
    """What to look up: evidence ids, and the number or quote to find in them (neither: the whole evidence)."""

    evidence_ids: tuple[str, ...]
    number: str | None = None
    quote: str | None = None


@dataclass(frozen=True)
class EvidenceDetail:
    """One evidence record and the passage that supports the number or quote looked up.

    `found` is False when the number or quote was not located in this evidence, or (for a quote) when the quote
    check refused it there: `quote_check` then says why ("mismatch", or "drops_negation" with the `dropped` word).
    """

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
    found: bool
    missing: bool = False  # the evidence id is not in the store
    quote_check: QuoteVerdict = ""
    dropped: str = ""  # the negation or qualifier a refused quote leaves out


@dataclass(frozen=True)
class NumberSpan:
    """A number written in a claim that must trace to its evidence: where it is in the claim's text."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class ClaimCitation:
    """A claim or risk of a report, the evidence it cites, and the numbers in it."""

    text: str
    evidence_ids: tuple[str, ...]
    numbers: tuple[NumberSpan, ...]


@dataclass(frozen=True)
class QuoteCitation:
    """A quotation of a report and the evidence it quotes."""

    text: str
    evidence_id: str


@dataclass(frozen=True)
class ReportCitations:
    """Everything a report cites: its claims and risks (longest text first), its quotes, and every evidence id it
    names anywhere (claims, risks, quotes and its text), in order of first mention."""

    claims: tuple[ClaimCitation, ...] = ()
    quotes: tuple[QuoteCitation, ...] = ()
    evidence_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class EvidenceAnswer:
    """A look-up in a report: what was asked, and each cited evidence (the ones holding the value first)."""

    report_id: str
    request: EvidenceRequest
    details: tuple[EvidenceDetail, ...]
