"""A report's markdown with its evidence made clickable: every evidence id, every number in a claim, every quote.

Links use private schemes the report view handles itself (`evidence:`, `number:`, `quote:`); nothing in a
report (which a model helped write) can open a web page, a file or any other link.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from stockbench.evidence.records import ClaimCitation, EvidenceRequest, ReportCitations

EVIDENCE_ID = re.compile(r"(\\?\[)?(ev-[0-9a-f]{24})(\\?\])?")


@dataclass
class LinkedReport:
    """The markdown to render, and what each `number:N` / `quote:N` link stands for."""

    markdown: str
    links: list[EvidenceRequest] = field(default_factory=list)

    def request(self, scheme: str, target: str) -> EvidenceRequest | None:
        """The request a clicked link stands for (None for anything that is not ours)."""
        if scheme == "evidence" and target.startswith("ev-"):
            return EvidenceRequest((target,))
        if scheme in {"number", "quote"} and target.isdigit() and int(target) < len(self.links):
            return self.links[int(target)]
        return None


def _link_numbers(claim: ClaimCitation, linked: LinkedReport) -> str:
    out, last, text = [], 0, claim.text
    for number in claim.numbers:
        linked.links.append(EvidenceRequest(claim.evidence_ids, number=number.text))
        out += [text[last : number.start], f"[{number.text}](number:{len(linked.links) - 1})"]
        last = number.end
    return "".join([*out, text[last:]])


def _link_claims(markdown: str, citations: ReportCitations, linked: LinkedReport) -> str:
    done: dict[str, str] = {}
    lines = []
    for line in markdown.split("\n"):
        claim = next((c for c in citations.claims if c.text in line), None)
        if claim is None:
            lines.append(line)
            continue
        if claim.text not in done:
            done[claim.text] = _link_numbers(claim, linked)
        lines.append(line.replace(claim.text, done[claim.text]))
    return "\n".join(lines)


def _link_ids(markdown: str) -> str:
    def one(match: re.Match[str]) -> str:
        opening, evidence_id, closing = match.groups()
        link = f"[{evidence_id}](evidence:{evidence_id})"
        return f"\\[{link}\\]" if opening and closing else (opening or "") + link + (closing or "")

    return EVIDENCE_ID.sub(one, markdown)


def _quotes_section(citations: ReportCitations, linked: LinkedReport, heading: str) -> str:
    if not citations.quotes:
        return ""
    parts = ["", "---", "", f"### {heading}", ""]
    for quote in citations.quotes:
        linked.links.append(EvidenceRequest((quote.evidence_id,), quote=quote.text))
        parts += [f"> {' '.join(quote.text.split())}", "", f"[{quote.evidence_id}](quote:{len(linked.links) - 1})", ""]
    return "\n".join(parts)


def link_report(
    markdown: str, citations: ReportCitations, quotes_heading: str = "Quotes and their sources"
) -> LinkedReport:
    """`markdown` with evidence ids, claim numbers and quotes (what `citations` says the report cites) turned into
    links the report view handles."""
    linked = LinkedReport("")
    text = _link_claims(markdown, citations, linked)
    text = _link_ids(text)
    linked.markdown = text + _quotes_section(citations, linked, quotes_heading)
    return linked
