"""The report browser, fully offline: filter and search stored reports (by their latest review's verdict too), read
one with its evidence, compare it with the previous report on the same symbol, verify it, export it to Markdown or
PDF, and review it (a revise verdict may start the revising analysis at once)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QDate, QItemSelection, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDateEdit,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from stockbench.errors import Problem, UserError
from stockbench.evidence.records import EvidenceDetail, EvidenceRequest
from stockbench.messages import said
from stockbench.research.events import ReportPublished
from stockbench.research.review_records import Review
from ui.context import AppContext
from ui.i18n.action_words import action_word
from ui.i18n.language import engine_language
from ui.screens.reports import reports_actions as actions
from ui.screens.reports.report_compare import compare_sections, comparison_html
from ui.screens.reports.report_view import EvidenceView, ReportView, evidence_hint
from ui.screens.reports.reports_model import (
    COLUMN_INDEX,
    ROW_ROLE,
    UNREVIEWED,
    ReportFilter,
    ReportRow,
    ReportsModel,
    ReportsProxy,
)
from ui.screens.reports.review_dialog import ReviewDialog, ReviewDraft, Revision

REPORT_TAB, COMPARE_TAB = 0, 1
TITLE_CHARACTERS, TITLE_PADDING = 12, 12  # the report list's title column shows at least this many CJK characters
READER_WIDTH = 420  # the reader beside the list needs this much room for its buttons and the report's lines
LIST_MARGIN = 12
LIST_SHARE_BESIDE, LIST_SHARE_ABOVE = 0.4, 0.34  # of the panel's width (list beside) or height (list above)
EVIDENCE_SHARE = 0.38  # of the reader's height, once a click asks for evidence (folded away until then)
VERDICT_VALUES = ("", UNREVIEWED, "accept", "revise", "reject")  # the verdict filter's choices


class ReportsPanel(QWidget):
    """Stored reports: list, filters, search, the rendered report, evidence, compare, verify, export, review."""

    screen_name = "report"
    report_shown = Signal(str)  # a report id, once rendered
    evidence_shown = Signal(object)  # the EvidenceDetails shown
    exported = Signal(str)  # the path of a finished export
    verified = Signal(str, list)  # a report id and its problems (empty when it holds)
    review_saved = Signal(object)  # the recorded stockbench.research.reviews.Review
    analyze_requested = Signal(str)  # a symbol: start the analysis that revises a report
    details_loaded = Signal()  # the listed reports' text is read and their seals checked (the list shows before)

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("ReportsPanel")
        self.model = ReportsModel(self)
        self.proxy = ReportsProxy(self)
        self.proxy.setSourceModel(self.model)
        self._wanted: str | None = None  # a report to open once the list has loaded
        self._hinting = False  # the status line holds the evidence hint
        self._list_sizes: list[int] = []  # the list's and the reader's share while the list is folded away
        self._notice = ""  # a status to show once the list has loaded (selecting a report clears the status)
        self.review_dialog: ReviewDialog | None = None
        self._build()
        self._refit = QTimer(self)  # the columns follow what is listed: the list's direction is looked at again
        self._refit.setSingleShot(True)
        self._refit.setInterval(0)
        self._refit.timeout.connect(self.fit_orientation)
        for changed in (self.model.modelReset, self.model.dataChanged, self.model.headerDataChanged):
            changed.connect(self._refit.start)
        ctx.bridge.engine_event.connect(self._on_engine_event)
        self.refresh()

    # ---- layout ------------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        self.splitter = splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.list_part = left = QWidget(splitter)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addLayout(self._build_filters(left))
        left_layout.addWidget(self._build_table(left), 1)
        splitter.addWidget(left)
        splitter.addWidget(self._build_reader(splitter))
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes([520, 780])
        splitter.setChildrenCollapsible(False)
        layout.addWidget(splitter)
        self.retranslate()

    # ---- the list beside or above the reader -------------------------------------------------------
    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.fit_orientation()

    def side_by_side_width(self) -> int:
        """The width the panel needs for the list beside the reader: the list's other columns, a title of
        `TITLE_CHARACTERS` CJK characters, and a reader of `READER_WIDTH`."""
        header = self.table.horizontalHeader()
        title = COLUMN_INDEX["title"]
        others = sum(
            header.sectionSize(i) for i in range(header.count()) if i != title and not header.isSectionHidden(i)
        )
        title_width = self.table.fontMetrics().horizontalAdvance("示" * TITLE_CHARACTERS) + TITLE_PADDING
        list_width = (
            others + title_width + self.table.verticalScrollBar().sizeHint().width() + 2 * self.table.frameWidth()
        )
        return list_width + self.splitter.handleWidth() + READER_WIDTH + LIST_MARGIN

    def fit_orientation(self) -> None:
        """The list beside the reader where both fit, else above it (at 1366x768 the list beside the reader gave
        the title column nothing: "示..."); turned, the splitter gives the list its share of the new direction."""
        wanted = Qt.Orientation.Horizontal if self.width() >= self.side_by_side_width() else Qt.Orientation.Vertical
        if wanted != self.splitter.orientation():
            self.splitter.setOrientation(wanted)
            total = self.width() if wanted == Qt.Orientation.Horizontal else self.height()
            share = LIST_SHARE_BESIDE if wanted == Qt.Orientation.Horizontal else LIST_SHARE_ABOVE
            self.splitter.setSizes([int(total * share), total - int(total * share)])
        self._arrange_buttons(one_row=wanted == Qt.Orientation.Vertical)

    def _arrange_buttons(self, *, one_row: bool) -> None:
        """The reader's buttons on one row under a list above it (the reader has the panel's width) when they fit,
        else on two: checking the report, handing it on."""
        check, hand_on = self._button_rows
        exports = (self.export_md_button, self.export_pdf_button)
        buttons = (self.compare_button, self.verify_button, self.review_button, *exports)
        needed = sum(b.sizeHint().width() for b in buttons) + check.spacing() * len(buttons) + LIST_MARGIN
        target, at = (check, 3) if one_row and needed <= self.width() else (hand_on, 0)
        if target.indexOf(exports[0]) >= 0:
            return
        for offset, button in enumerate(exports):
            check.removeWidget(button)
            hand_on.removeWidget(button)
            target.insertWidget(at + offset, button)

    def retranslate(self) -> None:
        """Set every text in the current language in place (the list keeps its rows, selection, filter and column
        widths; the open report stays as it was written)."""
        self.search_edit.setPlaceholderText(self.tr("Search titles and text"))
        self.view.setPlaceholderText(self.tr("Choose a report in the list to read it here."))  # the empty reader
        self.symbol_edit.setPlaceholderText(self.tr("Symbol"))
        self.action_combo.setItemText(0, self.tr("All actions"))
        for index in range(1, self.action_combo.count()):
            self.action_combo.setItemText(index, action_word(str(self.action_combo.itemData(index))))
        for index, text in enumerate(self._verdict_texts()):
            self.verdict_combo.setItemText(index, text)
        self.verdict_combo.setToolTip(self.tr("Filter by the latest review's verdict"))
        self.since_check.setText(self.tr("From"))
        self.until_check.setText(self.tr("To"))
        self.tabs.setTabText(REPORT_TAB, self.tr("Report"))
        self.tabs.setTabText(COMPARE_TAB, self.tr("Compare"))
        self.compare_button.setText(self.tr("Compare with previous"))
        self.verify_button.setText(self.tr("Verify"))
        self.export_md_button.setText(self.tr("Export Markdown…"))
        self.export_pdf_button.setText(self.tr("Export PDF…"))
        self.review_button.setText(self.tr("Review…"))
        self._word_list_button()
        if self._hinting and self.status_label.text():
            self.status_label.setText(evidence_hint())
        if self.evidence_view.request is not None:  # the record's sentences in the new language: looked up again
            self.show_evidence(self.evidence_view.request)
        self.model.retranslate()
        self._enable_actions(self.current_row())
        if not self.compare_view.document().isEmpty():  # a comparison is shown: word it again
            self._show_comparison()

    def _say(self, text: str) -> None:
        """Put `text` on the reader's status line (in place of the evidence hint)."""
        self._hinting = False
        self.status_label.setText(text)

    def _word_list_button(self) -> None:
        hidden = self.list_button.isChecked()
        self.list_button.setText(self.tr("Show the list") if hidden else self.tr("Hide the list"))
        self.list_button.setToolTip(self.tr("Show the reports' list and filters again") if hidden
                                    else self.tr("Read the report at the panel's full size"))  # fmt: skip

    @Slot(bool)
    def set_list_hidden(self, hidden: bool) -> None:
        """Fold the list and its filters away to read at the panel's full size, or show them again."""
        if self.list_button.isChecked() != hidden:
            self.list_button.setChecked(hidden)  # comes back here through `toggled`
            return
        if hidden:
            self._list_sizes = self.splitter.sizes()
        self.list_part.setVisible(not hidden)
        if not hidden and self._list_sizes:
            self.splitter.setSizes(self._list_sizes)  # as it was before it folded
        self._word_list_button()

    def evidence_folded(self) -> bool:
        """Whether the evidence pane is folded away (until a click asks for evidence)."""
        return self.reading_split.sizes()[1] == 0

    def _unfold_evidence(self) -> None:
        if self.evidence_folded():
            total = sum(self.reading_split.sizes())
            self.reading_split.setSizes([total - int(total * EVIDENCE_SHARE), int(total * EVIDENCE_SHARE)])

    def _fold_evidence(self) -> None:
        self.reading_split.setSizes([sum(self.reading_split.sizes()), 0])

    def _verdict_texts(self) -> tuple[str, ...]:
        """The verdict filter's choices, in the order of `VERDICT_VALUES`."""
        return (self.tr("All reviews"), self.tr("Not reviewed"), self.tr("Accepted"), self.tr("To revise"),
                self.tr("Rejected"))  # fmt: skip

    def _build_filters(self, parent: QWidget) -> QGridLayout:
        grid = QGridLayout()
        self.search_edit = QLineEdit(parent)
        self.search_edit.setClearButtonEnabled(True)
        self.symbol_edit = QLineEdit(parent)
        self.action_combo = QComboBox(parent)
        self.action_combo.addItem("", "")
        self.verdict_combo = QComboBox(parent)
        self.verdict_combo.setObjectName("verdictFilter")
        for text, value in zip(self._verdict_texts(), VERDICT_VALUES, strict=True):
            self.verdict_combo.addItem(text, value)
        self.since_check, self.since_edit = self._date_filter(parent)
        self.until_check, self.until_edit = self._date_filter(parent)
        grid.addWidget(self.search_edit, 0, 0, 1, 4)
        grid.addWidget(self.symbol_edit, 1, 0)
        grid.addWidget(self.action_combo, 1, 1)
        grid.addWidget(self.verdict_combo, 1, 2, 1, 2)
        for column, widget in enumerate((self.since_check, self.since_edit, self.until_check, self.until_edit)):
            grid.addWidget(widget, 2, column)
        self.search_edit.textChanged.connect(self._apply_filter)
        self.symbol_edit.textChanged.connect(self._apply_filter)
        self.action_combo.currentIndexChanged.connect(self._apply_filter)
        self.verdict_combo.currentIndexChanged.connect(self._apply_filter)
        return grid

    def _date_filter(self, parent: QWidget) -> tuple[QCheckBox, QDateEdit]:
        check = QCheckBox(parent)
        edit = QDateEdit(parent)
        edit.setCalendarPopup(True)
        edit.setDisplayFormat("yyyy-MM-dd")
        edit.setEnabled(False)
        check.toggled.connect(edit.setEnabled)
        check.toggled.connect(self._apply_filter)
        edit.dateChanged.connect(self._apply_filter)
        return check, edit

    def _build_table(self, parent: QWidget) -> QTableView:
        self.table = QTableView(parent)
        self.table.setObjectName("reportList")
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COLUMN_INDEX["title"], QHeaderView.ResizeMode.Stretch)
        self.table.selectionModel().selectionChanged.connect(self._on_selection)
        return self.table

    def _build_reader(self, parent: QWidget) -> QWidget:
        reader = QWidget(parent)
        layout = QVBoxLayout(reader)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self._build_toolbar(reader))
        self.status_label = QLabel(reader)
        self.status_label.setWordWrap(True)
        layout.addWidget(self.status_label)
        self.tabs = QTabWidget(reader)
        self.reading_split = split = QSplitter(Qt.Orientation.Vertical, self.tabs)
        self.view = ReportView(split)
        self.view.evidence_requested.connect(self.show_evidence)
        self.evidence_view = EvidenceView(split)
        split.addWidget(self.view)
        split.addWidget(self.evidence_view)
        split.setStretchFactor(0, 4)  # the report is what is read; the evidence pane answers a click
        split.setStretchFactor(1, 1)
        split.setCollapsible(0, False)
        split.setSizes([1, 0])  # folded until a click asks for evidence (at 768 px it took a quarter of the report)
        self.list_button = QPushButton(self.tabs)  # reading at full height: the list and its filters fold away
        self.list_button.setObjectName("listToggle")
        self.list_button.setCheckable(True)
        self.list_button.setFlat(True)
        self.list_button.toggled.connect(self.set_list_hidden)
        self.tabs.setCornerWidget(self.list_button, Qt.Corner.TopRightCorner)
        self.compare_view = QTextBrowser(self.tabs)
        self.compare_view.setObjectName("compareView")
        self.compare_view.setOpenLinks(False)
        self.tabs.addTab(split, "")
        self.tabs.addTab(self.compare_view, "")
        layout.addWidget(self.tabs, 1)
        return reader

    def _build_toolbar(self, reader: QWidget) -> QVBoxLayout:
        """Two rows (checking the report, handing it on): one row ran past the dock's edge at 1366x768."""
        bar, check, hand_on = QVBoxLayout(), QHBoxLayout(), QHBoxLayout()
        self.compare_button = QPushButton(reader)
        self.verify_button = QPushButton(reader)
        self.export_md_button = QPushButton(reader)
        self.export_pdf_button = QPushButton(reader)
        self.review_button = QPushButton(reader)
        self.compare_button.clicked.connect(self.compare_with_previous)
        self.verify_button.clicked.connect(self.verify)
        self.export_md_button.clicked.connect(lambda: self._ask_export("md"))
        self.export_pdf_button.clicked.connect(lambda: self._ask_export("pdf"))
        self.review_button.clicked.connect(self.open_review)
        for row, buttons in ((check, (self.compare_button, self.verify_button, self.review_button)),
                             (hand_on, (self.export_md_button, self.export_pdf_button))):  # fmt: skip
            for button in buttons:
                row.addWidget(button)
            row.addStretch(1)
            bar.addLayout(row)
        self._button_rows = (check, hand_on)
        return bar

    # ---- loading and selection ---------------------------------------------------------------------
    def refresh(self) -> None:
        """Re-read every stored report (offline: nothing is fetched)."""
        actions.load_reports(self.ctx, self, self._on_reports)

    def _on_reports(self, rows: list[ReportRow]) -> None:
        current = self.current_row()
        self.model.set_rows(rows)
        chosen = self.action_combo.currentData()
        self.action_combo.blockSignals(True)
        self.action_combo.clear()
        self.action_combo.addItem(self.tr("All actions"), "")
        for action in self.model.actions():
            self.action_combo.addItem(action_word(action), action)
        self.action_combo.setCurrentIndex(max(self.action_combo.findData(chosen), 0))
        self.action_combo.blockSignals(False)
        self._set_date_range(rows)
        self._apply_filter()
        wanted = self._wanted or (current.report_id if current else None)
        self._wanted = None
        if wanted:
            self.open_report(wanted)
        if self._notice:
            self._say(self._notice)
            self._notice = ""
        unread = [r.report_id for r in rows if not r.seal_checked]
        if unread:
            actions.load_details(self.ctx, self, unread, self._on_details)

    def _on_details(self, found: list[actions.ReportDetail]) -> None:
        """The reports' text and seal checks: the open report is drawn again with them (a warning when it changed),
        and the search filter applied again over the text."""
        self.model.set_details({d.report_id: {"markdown": d.markdown, "draft": d.draft, "citations": d.citations,
                                              "tampered": d.tampered} for d in found})  # fmt: skip
        self._apply_filter()
        shown = self.view.row
        read = self.model.find(shown.report_id) if shown is not None and not shown.seal_checked else None
        if read is not None:
            self.view.show_report(read)
            self._enable_actions(self.current_row())
            self.report_shown.emit(read.report_id)
        self.details_loaded.emit()

    def _set_date_range(self, rows: list[ReportRow]) -> None:
        """Unchecked date filters follow the listed reports' range, so checking one starts from a real date."""
        if not rows:
            return
        for check, edit, day in ((self.since_check, self.since_edit, min(r.day for r in rows)),
                                 (self.until_check, self.until_edit, max(r.day for r in rows))):  # fmt: skip
            if not check.isChecked():
                edit.blockSignals(True)
                edit.setDate(QDate(day.year, day.month, day.day))
                edit.blockSignals(False)

    @Slot(str)
    def open_report(self, report_id: str) -> None:
        """Select and show `report_id` (after the next load when it is not listed yet)."""
        if self.model.find(report_id) is None:
            self._wanted = report_id
            self.refresh()
            return
        self._clear_filter_hiding(report_id)
        for at in range(self.proxy.rowCount()):
            if self.proxy.index(at, 0).data(Qt.ItemDataRole.UserRole) == report_id:
                self.table.selectRow(at)
                return

    @Slot(str)
    def open_latest(self, symbol: str) -> None:
        """Show the newest report on `symbol` (its code or full symbol)."""
        wanted = symbol.strip().casefold()
        found = next((r for r in self.model.rows() if r.symbol.casefold().startswith(wanted)), None)
        if found is not None:
            self.open_report(found.report_id)
        else:
            self._say(self.tr("There is no report on {0} yet.").format(symbol))

    def _clear_filter_hiding(self, report_id: str) -> None:
        row = self.model.find(report_id)
        if row is not None and not self.current_filter().accepts(row):
            for edit in (self.search_edit, self.symbol_edit):
                edit.clear()
            self.action_combo.setCurrentIndex(0)
            self.verdict_combo.setCurrentIndex(0)
            self.since_check.setChecked(False)
            self.until_check.setChecked(False)

    def current_filter(self) -> ReportFilter:
        return ReportFilter(
            symbol=self.symbol_edit.text().strip(),
            since=self.since_edit.date().toPython() if self.since_check.isChecked() else None,  # type: ignore[arg-type]
            until=self.until_edit.date().toPython() if self.until_check.isChecked() else None,  # type: ignore[arg-type]
            action=str(self.action_combo.currentData() or ""),
            verdict=str(self.verdict_combo.currentData() or ""),
            search=self.search_edit.text(),
        )

    def _apply_filter(self) -> None:
        self.proxy.set_filter(self.current_filter())

    def visible_rows(self) -> list[ReportRow]:
        """The reports the list shows now, in order."""
        return [self.proxy.index(i, 0).data(ROW_ROLE) for i in range(self.proxy.rowCount())]

    def current_row(self) -> ReportRow | None:
        rows = self.table.selectionModel().selectedRows()
        found = rows[0].data(ROW_ROLE) if rows else None
        return found if isinstance(found, ReportRow) else None

    def _on_selection(self, selected: QItemSelection, deselected: QItemSelection) -> None:
        row = self.current_row()
        self.view.show_report(row)
        self.evidence_view.clear()
        self._fold_evidence()
        self.compare_view.clear()
        self.tabs.setCurrentIndex(REPORT_TAB)
        self._hinting = row is not None  # the status line says what a click shows, until it says something else
        self.status_label.setText(evidence_hint() if self._hinting else "")
        self._enable_actions(row)
        if row is not None and row.seal_checked:  # else once its text is read (see `_on_details`)
            self.report_shown.emit(row.report_id)

    def _enable_actions(self, row: ReportRow | None) -> None:
        for button in (self.verify_button, self.export_md_button, self.export_pdf_button, self.review_button):
            button.setEnabled(row is not None)
        has_previous = row is not None and self.model.previous(row) is not None
        self.compare_button.setEnabled(has_previous and row is not None and row.seal_checked)  # drafts read
        self.compare_button.setToolTip("" if has_previous else self.tr("There is no earlier report on this symbol"))

    # ---- evidence, compare, verify ---------------------------------------------------------------------
    @Slot(object)
    def show_evidence(self, request: EvidenceRequest) -> None:
        """Look up the evidence behind a clicked link and show it below the report."""
        symbol = self.view.row.symbol if self.view.row else ""
        actions.lookup_evidence(self.ctx, self, request, self._on_evidence, symbol)

    def _on_evidence(self, found: tuple[EvidenceRequest, tuple[EvidenceDetail, ...]]) -> None:
        request, details = found
        self._unfold_evidence()
        self.evidence_view.show_details(request, details, self.view.row.symbol if self.view.row else "")
        self.evidence_view.verticalScrollBar().setValue(0)  # from its heading, as the pane opens
        self.evidence_shown.emit(details)

    def compare_with_previous(self) -> None:
        """Show what changed, section by section, since the previous report on the same symbol."""
        if self._show_comparison():
            self.tabs.setCurrentIndex(COMPARE_TAB)

    def _show_comparison(self) -> bool:
        """Word the comparison of the selected report with its previous one in the current language."""
        row = self.current_row()
        previous = self.model.previous(row) if row is not None else None
        if row is None or previous is None:
            return False
        labels = (self.tr("Previous: {0} ({1})").format(previous.day.isoformat(), previous.report_id),
                  self.tr("This: {0} ({1})").format(row.day.isoformat(), row.report_id))  # fmt: skip
        changes = compare_sections(previous.draft, row.draft)
        self.compare_view.setHtml(comparison_html(changes, labels, self.tr("unchanged")))
        return True

    def verify(self) -> None:
        """Re-check the report from its frozen record and stored evidence alone."""
        row = self.current_row()
        if row is not None:
            self._say(self.tr("Verifying…"))
            actions.verify_report(self.ctx, self, row.report_id, self._on_verified)

    def _on_verified(self, result: tuple[str, list[Problem]]) -> None:
        report_id, problems = result
        if problems:
            language = engine_language()
            lines = "\n".join(f"• {said(p, language)[0]}" for p in problems[:10])
            self._say(self.tr("{0} does not verify:").format(report_id) + "\n" + lines)
        else:
            self._say(self.tr("{0} verifies: every gate passes again on its stored evidence.").format(report_id))
        self.verified.emit(report_id, problems)

    # ---- export and review ---------------------------------------------------------------------------
    def _ask_export(self, kind: str) -> None:
        row = self.current_row()
        if row is None:
            return
        folder = Path(str(self.ctx.bench.home)) / "exports"
        suggested = str(folder / f"{row.symbol}-{row.day.isoformat()}-{row.report_id}.{kind}")
        filters = self.tr("Markdown (*.md)") if kind == "md" else self.tr("PDF (*.pdf)")
        chosen, _ = QFileDialog.getSaveFileName(self, self.tr("Export report"), suggested, filters)
        if chosen:
            (self.export_markdown if kind == "md" else self.export_pdf)(Path(chosen))

    def export_markdown(self, target: Path) -> None:
        """Write the selected report's markdown to `target` (in the background)."""
        row = self.current_row()
        if row is not None:
            actions.export_markdown(self.ctx, self, row.report_id, target, self._on_exported)

    def export_pdf(self, target: Path) -> None:
        """Write the selected report as a PDF to `target` (in the background)."""
        row = self.current_row()
        if row is not None:
            actions.export_pdf(self.ctx, self, row.report_id, target, self._on_exported)

    def _on_exported(self, path: Path) -> None:
        self._say(self.tr("Exported to {0}").format(str(path)))
        self.exported.emit(str(path))

    def open_review(self) -> None:
        """Open the review dialog for the selected report; Save records the review in the background."""
        row = self.current_row()
        if row is None:
            return
        revisions = [
            Revision(r.run_id, f"{r.day.isoformat()} {r.report_id} ({action_word(r.action)})")
            for r in self.model.later(row)
        ]
        dialog = ReviewDialog(row.run_id, row.report_id, row.title, self, revisions=revisions)
        dialog.save_requested.connect(lambda draft: self._save_review(dialog, row, draft))
        dialog.finished.connect(dialog.deleteLater)
        self.review_dialog = dialog
        dialog.open()

    def _save_review(self, dialog: ReviewDialog, row: ReportRow, draft: ReviewDraft) -> None:
        def saved(review: Review) -> None:
            if isValid(dialog):
                dialog.saved()
            self._notice = self.tr("Review {0} saved.").format(review.review_id)  # shown once the list reloads
            self.review_saved.emit(review)
            self.refresh()
            if draft.start_revision:
                self.analyze_requested.emit(row.symbol)

        def refused(error: BaseException) -> None:
            if isinstance(error, UserError) and isValid(dialog):
                dialog.refused(error)
                return
            if isValid(dialog):
                dialog.refused(UserError(self.tr("the review could not be recorded")))
            self.ctx.presenter.present(error)

        actions.save_review(self.ctx, self, draft, saved, refused)

    # ---- engine events ---------------------------------------------------------------------------------
    @Slot(object)
    def _on_engine_event(self, event: object) -> None:
        if isinstance(event, ReportPublished):
            self.refresh()


def screenshot_setup(panel: ReportsPanel) -> None:
    """For screenshots: the newest report, with the evidence of the last number in its claims shown."""
    rows = panel.model.rows()
    if not rows:
        return
    panel.open_report(rows[0].report_id)
    numbers = [a for a in panel.view.anchors() if a.startswith("number:")]
    request = panel.view.linked.request("number", numbers[-1].removeprefix("number:")) if numbers else None
    if request is not None:
        panel.show_evidence(request)
