"""A report's markdown with its evidence made clickable: every evidence id, every number in a claim, every quote.

Links use private schemes the report view handles itself (`evidence:`, `number:`, `quote:`); nothing in a
report (which a model helped write) can open a web page, a file or any other link.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from stockbench.evidence.numbers import PERIOD_CONSTANTS, extract_numbers
from ui.screens.reports.evidence_lookup import EvidenceRequest

EVIDENCE_ID = re.compile(r"(\\?\[)?(ev-[0-9a-f]{24})(\\?\])?")
SCHEMES = ("evidence", "number", "quote")


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


def _claims(draft: dict[str, Any]) -> list[tuple[str, tuple[str, ...]]]:
    """(text, cited evidence ids) of every claim and risk, longest text first."""
    found: dict[str, tuple[str, ...]] = {}
    for item in [*draft.get("claims", []), *draft.get("risks", [])]:
        text = str(item.get("text", "")).strip()
        if text and text not in found:
            found[text] = tuple(str(e) for e in item.get("evidence", []))
    return sorted(found.items(), key=lambda pair: -len(pair[0]))


def _link_numbers(text: str, evidence: tuple[str, ...], linked: LinkedReport) -> str:
    out, last = [], 0
    for number in extract_numbers(text):
        if number.period and abs(number.value) in PERIOD_CONSTANTS:
            continue
        written = text[number.start : number.end]
        linked.links.append(EvidenceRequest(evidence, number=written))
        out += [text[last : number.start], f"[{written}](number:{len(linked.links) - 1})"]
        last = number.end
    return "".join([*out, text[last:]])


def _link_claims(markdown: str, draft: dict[str, Any], linked: LinkedReport) -> str:
    claims = _claims(draft)
    done: dict[str, str] = {}
    lines = []
    for line in markdown.split("\n"):
        claim = next(((text, evidence) for text, evidence in claims if text in line), None)
        if claim is None:
            lines.append(line)
            continue
        text, evidence = claim
        if text not in done:
            done[text] = _link_numbers(text, evidence, linked)
        lines.append(line.replace(text, done[text]))
    return "\n".join(lines)


def _link_ids(markdown: str) -> str:
    def one(match: re.Match[str]) -> str:
        opening, evidence_id, closing = match.groups()
        link = f"[{evidence_id}](evidence:{evidence_id})"
        return f"\\[{link}\\]" if opening and closing else (opening or "") + link + (closing or "")

    return EVIDENCE_ID.sub(one, markdown)


def _quotes_section(draft: dict[str, Any], linked: LinkedReport, heading: str) -> str:
    quotes = [q for q in draft.get("quotes", []) if q.get("text") and q.get("evidence_id")]
    if not quotes:
        return ""
    parts = ["", "---", "", f"### {heading}", ""]
    for quote in quotes:
        text = " ".join(str(quote["text"]).split())
        linked.links.append(EvidenceRequest((str(quote["evidence_id"]),), quote=str(quote["text"])))
        parts += [f"> {text}", "", f"[{quote['evidence_id']}](quote:{len(linked.links) - 1})", ""]
    return "\n".join(parts)


def link_report(markdown: str, draft: dict[str, Any], quotes_heading: str = "Quotes and their sources") -> LinkedReport:
    """`markdown` with evidence ids, claim numbers and quotes turned into links the report view handles."""
    linked = LinkedReport("")
    text = _link_claims(markdown, draft, linked)
    text = _link_ids(text)
    linked.markdown = text + _quotes_section(draft, linked, quotes_heading)
    return linked
