"""The rendered report with clickable evidence, and the evidence view that shows where a number or quote comes from.

The report is rendered from markdown with raw HTML ignored, external resources never loaded and only the
view's own link schemes followed: a report's text cannot open pages, files or images.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QUrl, Signal, Slot
from PySide6.QtWidgets import QTextBrowser, QWidget

from stockbench.evidence.records import EvidenceDetail, EvidenceRequest
from ui.screens.reports.report_export import MARKDOWN_FEATURES, with_line_breaks
from ui.screens.reports.report_links import LinkedReport, link_report
from ui.screens.reports.reports_model import ReportRow

MARK_STYLE = "background-color:rgba(255,196,0,0.45);font-weight:bold;"


class ReportView(QTextBrowser):
    """One report, rendered; clicking an evidence id, a claim's number or a quote emits `evidence_requested`."""

    evidence_requested = Signal(object)  # an EvidenceRequest

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("reportView")
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self._on_anchor)
        self.linked = LinkedReport("")
        self.row: ReportRow | None = None

    def show_report(self, row: ReportRow | None) -> None:
        self.row = row
        if row is None:
            self.linked = LinkedReport("")
            self.clear()
            return
        self.linked = link_report(row.markdown, row.citations, self.tr("Quotes and their sources"))
        text = with_line_breaks(self.linked.markdown)
        if row.tampered:  # said first, before anything of the report is read as trustworthy
            warning = self.tr("Warning: this report is not as it was published. Do not rely on it.")
            text = f"> **{warning}**  \n> {html.escape(row.tampered)}\n\n{text}"
        elif not row.seal_checked:  # shown again with the check's outcome as soon as it is known
            reading = self.tr("Reading the report and checking that it is as it was published…")
            text = f"> {reading}\n\n{text}"
        self.document().setMarkdown(text, MARKDOWN_FEATURES)

    def anchors(self) -> list[str]:
        """Every link target in the rendered report, in order (for tests and accessibility checks)."""
        found: list[str] = []
        block = self.document().begin()
        while block.isValid():
            iterator = block.begin()
            while not iterator.atEnd():
                fragment = iterator.fragment()
                href = fragment.charFormat().anchorHref()
                if href and (not found or found[-1] != href):
                    found.append(href)
                iterator += 1
            block = block.next()
        return found

    def loadResource(self, kind: int, name: QUrl | str) -> Any:  # noqa: N802 - Qt's name
        return None  # no images or style sheets from a report's text, ever

    @Slot(QUrl)
    def _on_anchor(self, url: QUrl) -> None:
        request = self.linked.request(url.scheme(), url.path())
        if request is not None:
            self.evidence_requested.emit(request)


class EvidenceView(QTextBrowser):
    """The evidence behind a clicked link: source, kind, sha256 and the passage with the value marked."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("evidenceView")
        self.setOpenLinks(False)
        self.details: Sequence[EvidenceDetail] = ()
        self.setPlaceholderText(self.tr("Click an evidence id, a number in a claim or a quote to see its source."))

    def loadResource(self, kind: int, name: QUrl | str) -> Any:  # noqa: N802
        return None

    def show_details(self, request: EvidenceRequest, details: Sequence[EvidenceDetail]) -> None:
        self.details = details
        parts = [self._heading(request)] + [self._detail(d, request) for d in details]
        self.setHtml("".join(parts))

    def _heading(self, request: EvidenceRequest) -> str:
        if request.number is not None:
            title = self.tr("Where %1 comes from").replace("%1", request.number)
        elif request.quote is not None:
            title = self.tr("Where the quote comes from")
        else:
            title = self.tr("Evidence")
        return f"<h3>{html.escape(title)}</h3>"

    def _detail(self, detail: EvidenceDetail, request: EvidenceRequest) -> str:
        if detail.missing:
            absent = self.tr("not in this workspace")
            return f"<p><b>{html.escape(detail.evidence_id)}</b>: {html.escape(absent)}</p>"
        rows = [
            (self.tr("Evidence"), detail.evidence_id),
            (self.tr("Source"), detail.source),
            (self.tr("Kind"), detail.kind),
            (self.tr("SHA-256"), detail.sha256 + ("" if detail.intact else "  " + self.tr("(body altered!)"))),
            (self.tr("Fetched"), detail.fetched_at.isoformat(timespec="seconds") if detail.fetched_at else ""),
            (self.tr("Location"), detail.where),
        ]
        table = "".join(f"<tr><td><b>{html.escape(k)}</b></td><td>{html.escape(v)}</td></tr>" for k, v in rows if v)
        why = self._note(detail, request)
        note = f"<p><i>{html.escape(why)}</i></p>" if why else ""
        passage = f"<pre style='white-space:pre-wrap'>{_marked(detail.passage, detail.highlight)}</pre>"
        return f"<hr/><table cellpadding='2'>{table}</table>{note}{passage}"

    def _note(self, detail: EvidenceDetail, request: EvidenceRequest) -> str:
        """Why the number or quote is not shown as found here ("" when it is, or nothing was asked)."""
        if detail.quote_check == "drops_negation":
            text = self.tr("The quote leaves out “%1” of its clause here, so it does not hold; the clause is shown.")
            return text.replace("%1", detail.dropped)
        if detail.quote_check == "mismatch":
            return self.tr("The quote does not match this evidence; the closest passage is shown.")
        if not detail.found and (request.number is not None or request.quote is not None):
            return self.tr("Not found in this evidence; its opening is shown.")
        return ""

    def text(self) -> str:
        return self.toPlainText()


def _marked(passage: str, highlight: str) -> str:
    """`passage` as escaped HTML with the first occurrence of `highlight` marked."""
    at = passage.find(highlight) if highlight else -1
    if at < 0:
        return html.escape(passage)
    end = at + len(highlight)
    return (html.escape(passage[:at]) + f"<span style='{MARK_STYLE}'>{html.escape(highlight)}</span>"
            + html.escape(passage[end:]))  # fmt: skip
