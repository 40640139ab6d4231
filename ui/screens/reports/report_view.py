"""The rendered report with clickable evidence, and the evidence view that shows where a number or quote comes from.

The report is rendered from markdown with raw HTML ignored, external resources never loaded and only the
view's own link schemes followed: a report's text cannot open pages, files or images.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QUrl, Signal, Slot
from PySide6.QtWidgets import QTextBrowser, QWidget

from stockbench.clock import Market, market_words
from stockbench.errors import UserError
from stockbench.evidence.records import EvidenceDetail, EvidenceRequest
from stockbench.market.instruments import parse_symbol
from ui.i18n.language import engine_language
from ui.screens.reports.evidence_record import readable_record, readable_value
from ui.screens.reports.report_export import MARKDOWN_FEATURES, with_line_breaks
from ui.screens.reports.report_links import LinkedReport, link_report
from ui.screens.reports.reports_model import ReportRow

JSON = "application/json"  # a program's own record
MARK_STYLE = "background-color:rgba(255,196,0,0.45);font-weight:bold;"
KIND_CONTEXT = "EvidenceKinds"
# The engine's evidence kinds (the `kind` its stores write), in words; a kind outside the table shows as stored.
KIND_WORDS: dict[str, str] = {
    "computation": str(QT_TRANSLATE_NOOP("EvidenceKinds", "computation")),
    "quote": str(QT_TRANSLATE_NOOP("EvidenceKinds", "quote")),
    "ledger": str(QT_TRANSLATE_NOOP("EvidenceKinds", "ledger snapshot")),
    "report": str(QT_TRANSLATE_NOOP("EvidenceKinds", "earlier report")),
    "report_text": str(QT_TRANSLATE_NOOP("EvidenceKinds", "earlier plan")),
    "announcement_list": str(QT_TRANSLATE_NOOP("EvidenceKinds", "announcement list")),
    "announcement_titles": str(QT_TRANSLATE_NOOP("EvidenceKinds", "announcement titles")),
    "announcement_text": str(QT_TRANSLATE_NOOP("EvidenceKinds", "announcement text")),
    "data_gates": str(QT_TRANSLATE_NOOP("EvidenceKinds", "data gates")),
    "data_gates_text": str(QT_TRANSLATE_NOOP("EvidenceKinds", "data gate reasons")),
    "search_result": str(QT_TRANSLATE_NOOP("EvidenceKinds", "search results")),
    "money_flow": str(QT_TRANSLATE_NOOP("EvidenceKinds", "money flow")),
}


def kind_word(kind: str) -> str:
    """An evidence kind in the interface language."""
    return QCoreApplication.translate(KIND_CONTEXT, KIND_WORDS[kind]) if kind in KIND_WORDS else kind


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


def evidence_hint() -> str:
    """What a click on the report shows, in the interface language."""
    return QCoreApplication.translate(
        "EvidenceView", "Click an evidence id, a number in a claim or a quote to see its source."
    )


class EvidenceView(QTextBrowser):
    """The evidence behind a clicked link: source, kind, sha256 and the passage with the value marked."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("evidenceView")
        self.setOpenLinks(False)
        self.details: Sequence[EvidenceDetail] = ()
        self.request: EvidenceRequest | None = None
        self.market: Market = "CN"
        self._set_placeholder()

    def _set_placeholder(self) -> None:
        self.setPlaceholderText(evidence_hint())

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        """On a language switch, say what is shown again in the new language."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.LanguageChange:
            self._set_placeholder()
            if self.request is not None:
                self.show_details(self.request, self.details)

    def loadResource(self, kind: int, name: QUrl | str) -> Any:  # noqa: N802
        return None

    def clear(self) -> None:
        self.request, self.details = None, ()
        super().clear()

    def show_details(self, request: EvidenceRequest, details: Sequence[EvidenceDetail], symbol: str = "") -> None:
        """The evidence of `request`; times in the exchange zone of `symbol` (the report's), named."""
        self.request, self.details = request, details
        if symbol:
            self.market = _market(symbol)
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
            (self.tr("Kind"), kind_word(detail.kind)),
            (self.tr("SHA-256"), detail.sha256 + ("" if detail.intact else "  " + self.tr("(body altered!)"))),
            (self.tr("Fetched"), self._time(detail.fetched_at) if detail.fetched_at else ""),
            (self.tr("Location"), detail.where),
        ]
        table = "".join(f"<tr><td><b>{html.escape(k)}</b></td><td>{html.escape(v)}</td></tr>" for k, v in rows if v)
        why = self._note(detail, request)
        note = f"<p><i>{html.escape(why)}</i></p>" if why else ""
        passage = f"<pre style='white-space:pre-wrap'>{self._passage(detail)}</pre>"
        return f"<hr/><table cellpadding='2'>{table}</table>{note}{passage}"

    def _passage(self, detail: EvidenceDetail) -> str:
        """The passage with the value marked; a program's record (JSON) field by field in the interface's words."""
        if detail.media_type != JSON:
            return _marked(detail.passage, detail.highlight)
        language = engine_language()
        return _marked(readable_record(detail.passage, language), readable_value(detail.highlight))

    def _time(self, when: datetime) -> str:
        """An instant as people read it here: the exchange's time, the zone named."""
        return market_words(self.market, when, engine_language())

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


def _market(symbol: str) -> Market:
    try:
        return parse_symbol(symbol).market
    except UserError:
        return "CN"


def _marked(passage: str, highlight: str) -> str:
    """`passage` as escaped HTML with the first occurrence of `highlight` marked."""
    at = passage.find(highlight) if highlight else -1
    if at < 0:
        return html.escape(passage)
    end = at + len(highlight)
    return (html.escape(passage[:at]) + f"<span style='{MARK_STYLE}'>{html.escape(highlight)}</span>"
            + html.escape(passage[end:]))  # fmt: skip
