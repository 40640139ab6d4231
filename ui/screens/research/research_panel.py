"""The research panel: start analyses, follow each run's stage and sub-task titles, continue, stop, approve plans.

Each run executes as its own EngineOp on the research pool, so several proceed at once without blocking each
other or the window; engine events are routed to their run by `run_id`. Only titles are shown, never drafts.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from decimal import Decimal

from PySide6.QtCore import QItemSelection, QModelIndex, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from stockbench.clock import MARKET_TZ, Market, zone_words
from stockbench.errors import InvalidInput, UserError
from stockbench.events import Event
from stockbench.market.instruments import parse_symbol
from stockbench.market.numbers import read_decimal
from stockbench.messages import error_words
from stockbench.research.events import RunEnded, RunPaused, StageFinished
from stockbench.research.outcomes import PlanCheckResult, QuickOutcome, RunDetails, RunOutcome
from stockbench.research.records import RunRecord
from stockbench.research.wording import say
from ui.context import AppContext
from ui.i18n.language import chosen_language, engine_language
from ui.screens.research import research_actions as actions
from ui.screens.research.plan_approval_dialog import PlanApprovalDialog
from ui.screens.research.run_model import (
    COLUMNS,
    ENDED,
    OPTIONAL_COLUMNS,
    RunModel,
    RunRow,
    format_cost,
    format_elapsed,
    journal_timeline,
    stage_title,
    status_title,
    subtask_title,
)
from ui.widgets.column_fit import ColumnFit

TICK_MS = 1000
DUE_POLL_MS = 30_000
LINE_EDIT_PADDING = 24  # a line edit's frame and text margins around its words
CEILING_LENGTH = 24  # any text: the engine's number reader refuses or notes what is not a plain amount
OFFLINE_MODEL = "offline"  # the rules model's name (stockbench.llm.models.OFFLINE), shown in words
AUTOMATIC = "\x00automatic"  # the account box's data for "choose for me" (no account name holds a NUL)
# A "planned" or "running" run that is not executing here was interrupted (the app closed, or a step raised):
# its journal lets it continue where it stopped, like a paused one.
RESUMABLE = frozenset({"paused", "error", "running", "planned"})


class ResearchPanel(QWidget):
    """Live research runs and the run history."""

    screen_name = "research"
    open_report_requested = Signal(str)  # a report id
    active_runs_changed = Signal(int)  # how many runs are executing now (for the status bar)
    run_started = Signal(str)  # a run id, once it has been planned and recorded

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("ResearchPanel")
        self.model = RunModel(self)
        self._executing: set[str] = set()
        self._details_pending: set[str] = set()
        self._stop_requested: set[str] = set()
        self.plan_dialog: PlanApprovalDialog | None = None
        self._build()
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)
        self._due = QTimer(self)
        self._due.setInterval(DUE_POLL_MS)
        self._due.timeout.connect(self._poll_due)
        self._due.start()
        ctx.bridge.engine_event.connect(self._on_engine_event)
        self.model.dataChanged.connect(self._on_rows_changed)
        self.refresh()

    # ---- layout ------------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.addLayout(self._build_form())
        self.notice_label = QLabel(self)
        self.notice_label.setObjectName("researchNotice")
        self.notice_label.setWordWrap(True)
        self.notice_label.hide()
        layout.addWidget(self.notice_label)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self._build_table())
        splitter.addWidget(self._build_details())
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout.addWidget(splitter, 1)
        self.retranslate()

    def retranslate(self) -> None:
        """Set every text in the current language in place (the table keeps its rows, columns and selection)."""
        self.symbol_edit.setPlaceholderText(self.tr("Symbol, e.g. 600519"))
        self.question_edit.setPlaceholderText(self.tr("Your question (optional)"))
        self.model_combo.setToolTip(self.tr("The model: the offline rules model needs no key; or type a model's name"))
        for index in range(self.model_combo.count()):  # the built-in model's words follow the language
            if self.model_combo.itemData(index):
                self.model_combo.setItemText(index, self._model_label(str(self.model_combo.itemData(index))))
        self.account_combo.setToolTip(self.tr("The account whose holdings, cash and orders the research reads"))
        self.ceiling_edit.setPlaceholderText(self.tr("Cost ceiling"))
        for edit, shortest in ((self.symbol_edit, "000000.SH"), (self.ceiling_edit, "")):  # their words in view
            metrics = edit.fontMetrics()
            words = max(metrics.horizontalAdvance(shortest), metrics.horizontalAdvance(edit.placeholderText()))
            edit.setMinimumWidth(words + LINE_EDIT_PADDING)
        self.analyze_button.setText(self.tr("Analyze"))
        self.details_box.setTitle(self.tr("Selected run"))
        self.continue_button.setText(self.tr("Continue"))
        self.stop_button.setText(self.tr("Stop"))
        self.report_button.setText(self.tr("Open report"))
        self._account_texts()
        self.model.retranslate()
        self._show_details(self.selected_row())

    def _build_form(self) -> QVBoxLayout:
        """Three rows, so the panel fits a narrow dock with every word in view: what to research, with which model
        and account, then the cost ceiling and go (on two rows the ceiling's words were cut to "Co…")."""
        form = QVBoxLayout()
        row, options, go = QHBoxLayout(), QHBoxLayout(), QHBoxLayout()
        self.symbol_edit = QLineEdit(self)
        self.question_edit = QLineEdit(self)
        self.model_combo = QComboBox(self)
        self.model_combo.setEditable(True)
        self.model_combo.addItem(self._model_label(OFFLINE_MODEL), OFFLINE_MODEL)
        self.account_combo = QComboBox(self)
        self._fill_accounts([])
        self.ceiling_edit = QLineEdit(self)
        self.ceiling_edit.setMaxLength(CEILING_LENGTH)
        self.analyze_button = QPushButton(self)
        self.analyze_button.setDefault(True)
        self.analyze_button.clicked.connect(self._analyze_clicked)
        self.symbol_edit.returnPressed.connect(self._analyze_clicked)
        row.addWidget(self.symbol_edit, 1)
        row.addWidget(self.question_edit, 3)
        options.addWidget(self.model_combo, 1)
        options.addWidget(self.account_combo, 1)
        go.addWidget(self.ceiling_edit, 1)
        go.addWidget(self.analyze_button, 0)
        for line in (row, options, go):
            form.addLayout(line)
        return form

    def _build_table(self) -> QTableView:
        self.table = QTableView(self)
        self.table.setObjectName("researchRuns")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        # the columns that fit the dock, no horizontal scroll bar (at 1366x768 the sub-task and the rest scrolled)
        self.columns = ColumnFit(self.table, [c.key for c in COLUMNS], OPTIONAL_COLUMNS)
        self.model.given_up = self.columns.hidden
        self.table.selectionModel().selectionChanged.connect(self._on_selection)
        self.table.doubleClicked.connect(self._on_double_click)
        return self.table

    def _build_details(self) -> QGroupBox:
        self.details_box = box = QGroupBox(self)
        layout = QVBoxLayout(box)
        self.stage_label = QLabel(box)
        self.stage_label.setObjectName("stageTitle")
        font = self.stage_label.font()
        font.setPointSizeF(font.pointSizeF() * 1.2)
        font.setBold(True)
        self.stage_label.setFont(font)
        self.subtask_label = QLabel(box)
        self.stats_label = QLabel(box)
        self.reason_label = QLabel(box)
        self.reason_label.setObjectName("pauseReason")
        self.reason_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        for label in (self.stage_label, self.subtask_label, self.stats_label, self.reason_label):
            label.setWordWrap(True)  # a long stage title ("... · Publishing: every gate in one pass") wraps: on one
            layout.addWidget(label)  # line it widened the panel past its dock and hid the Analyze button
        layout.addLayout(self._build_buttons(box))
        self.timeline = QListWidget(box)
        self.timeline.setObjectName("runTimeline")
        layout.addWidget(self.timeline, 1)
        self._show_details(None)
        return box

    def _build_buttons(self, box: QGroupBox) -> QHBoxLayout:
        row = QHBoxLayout()
        self.continue_button = QPushButton(box)
        self.continue_button.clicked.connect(self._continue_clicked)
        self.stop_button = QPushButton(box)
        self.stop_button.clicked.connect(self._stop_clicked)
        self.report_button = QPushButton(box)
        self.report_button.clicked.connect(self._open_report)
        for button in (self.continue_button, self.stop_button, self.report_button):
            row.addWidget(button)
        row.addStretch(1)
        return row

    # ---- starting runs ---------------------------------------------------------------------------------
    @Slot(str)
    def start(self, symbol: str, question: str | None = None) -> None:
        """Start an analysis of `symbol` (a question run when `question` is given) with the panel's options."""
        symbol = symbol.strip()
        if not symbol:
            return
        self._notice("")
        self.symbol_edit.setText(symbol)
        try:
            ceiling = self._ceiling()
        except InvalidInput as error:  # a ceiling that is not a plain amount is refused, never taken as none
            self._notice(" — ".join(part for part in error_words(error, engine_language()) if part))
            return
        self._start_request(
            actions.RunRequest(
                symbol,
                question=(question or "").strip() or None,
                model=self._model_name(),
                account=None if self.account_combo.currentData() == AUTOMATIC else self.account_combo.currentData(),
                max_cost=ceiling,
                language=self._report_language(),
                automatic_account=self.account_combo.currentData() == AUTOMATIC,
            )
        )

    @Slot(str)
    def quick_review(self, symbol: str) -> None:
        """A quick review against the day's report: the change list, and the model's answer to each change."""
        self._notice(self.tr("Quick review of {0} is running...").format(symbol))
        language = self._report_language()  # written in the interface's language, like a report
        self.ctx.op(
            lambda bench: bench.research.quick_review(symbol, model=self._model_name(), language=language),
            self._show_quick_review,
            failure=self._after_check_failure,
            research=True,
            parent=self,
        )

    @Slot(str)
    def check_plan(self, symbol: str) -> None:
        """An intraday plan check: the latest plan's rules against current data, with no model at all."""
        self._notice(self.tr("Checking the plan of {0}...").format(symbol))
        self.ctx.op(lambda bench: bench.research.check_plan(symbol), self._show_plan_check,
                    failure=self._after_check_failure, parent=self)  # fmt: skip

    def _show_quick_review(self, result: QuickOutcome) -> None:
        answers = {a.change: a for a in result.answers}
        lines = [self.tr("Quick review: {0} change(s)").format(len(result.changes))]
        for change in result.changes:  # the levels and actions in the review's words, like its details
            answer = answers.get(change.id)
            action = say(f"quick.action.{answer.action}", result.language) if answer else ""
            lines.append(f"[{say(f'quick.level.{change.level}', result.language)}] {change.detail} -> {action}: "
                         f"{answer.response if answer else ''}")  # fmt: skip
        if result.full_analysis_required:
            lines.append(self.tr("A full analysis is required (thesis-level news or an act-level change)."))
        self._notice("\n".join(lines))
        self.refresh()

    def _show_plan_check(self, result: PlanCheckResult) -> None:
        lines = [self.tr("Plan check of report {0}").format(result.report_id)]
        lines += [f"[{c.status}] {c.rule}: {c.detail}" for c in result.checks]
        if result.recommend_full_analysis:
            lines.append(self.tr("The plan conflicts with current data: a full analysis is recommended."))
        self._notice("\n".join(lines))

    def _after_check_failure(self, error: BaseException) -> None:
        self._notice("")
        self.ctx.presenter.present(error)

    def _notice(self, text: str) -> None:
        self.notice_label.setText(text)
        self.notice_label.setVisible(bool(text))

    def _analyze_clicked(self) -> None:
        self.start(self.symbol_edit.text(), self.question_edit.text())

    def _report_language(self) -> str:
        """The report's language: the interface's (a report is read in the language the user works in)."""
        return "zh" if chosen_language(self.ctx.settings) == "zh_CN" else "en"

    def _model_label(self, name: str) -> str:
        """A model as the list shows it: the built-in rules model in words, any other by its name."""
        return self.tr("offline rules model", "the built-in rules model") if name == OFFLINE_MODEL else name

    def _model_name(self) -> str | None:
        """The model chosen from the list (by name), or the name typed in."""
        text = self.model_combo.currentText().strip()
        at = self.model_combo.findText(text)
        return str(self.model_combo.itemData(at)) if at >= 0 and self.model_combo.itemData(at) else text or None

    def _ceiling(self) -> Decimal | None:
        """The cost ceiling typed (None: no ceiling); InvalidInput when it is not a plain amount."""
        text = self.ceiling_edit.text()
        return read_decimal(text, "cost_ceiling").value if text.strip() else None

    def _start_request(self, request: actions.RunRequest) -> None:
        actions.start_run(self.ctx, self, request, self._on_started, self.ctx.presenter.present)

    def _on_started(self, result: RunRecord | actions.PlanRefusal) -> None:
        if isinstance(result, actions.PlanRefusal):
            self._ask_approval(result)
            return
        if result.account:
            self._notice(self.tr("{0} reads the account {1}").format(result.symbol, result.account))
        else:
            self._notice(
                self.tr("{0} reads no account: the research does not know what you hold").format(result.symbol)
            )
        row = self.model.row(result.run_id) or RunRow(result.run_id, result.symbol, result.model)
        self.model.upsert(replace(row, question=result.question, status="queued"), first=True)
        self._execute(result.run_id, resume=False)
        self._select(result.run_id)
        self.run_started.emit(result.run_id)

    def _ask_approval(self, refusal: actions.PlanRefusal) -> None:
        dialog = PlanApprovalDialog(refusal, self)
        dialog.accepted.connect(lambda: self._start_request(replace(refusal.request, approve_plan=True)))
        dialog.finished.connect(dialog.deleteLater)
        self.plan_dialog = dialog
        dialog.open()
        self.refresh()  # the refused plan is in the history, with why

    # ---- executing -----------------------------------------------------------------------------------
    def _execute(self, run_id: str, *, resume: bool) -> None:
        if run_id in self._executing:
            return
        self._executing.add(run_id)
        self.model.update(run_id, lambda r: r.started_executing())
        factory = actions.resume_run if resume else actions.execute_run
        factory(self.ctx, self, run_id, self._on_outcome, lambda error: self._on_run_failed(run_id, error))
        self._runs_changed()

    def _on_outcome(self, outcome: RunOutcome) -> None:
        self._executing.discard(outcome.run_id)
        self._apply_outcome(outcome)
        if outcome.run_id in self._stop_requested and outcome.status not in ENDED:  # read before the stop
            actions.load_outcome(self.ctx, self, outcome.run_id, self._apply_outcome)
        self._load_details(outcome.run_id)
        self._runs_changed()

    def _apply_outcome(self, outcome: RunOutcome) -> None:
        def change(row: RunRow) -> RunRow:
            if row.status == "stopped":  # final: an outcome read just before the stop must not undo it
                return row.stopped_executing()
            return replace(row.stopped_executing(), status=outcome.status, stage=outcome.stage or row.stage,
                           reason=outcome.reason, report_id=outcome.report_id or row.report_id,
                           action=outcome.action or row.action)  # fmt: skip

        self.model.update(outcome.run_id, change)

    def _on_run_failed(self, run_id: str, error: BaseException) -> None:
        self._executing.discard(run_id)
        reason = getattr(error, "message", None) or f"{type(error).__name__}: {error}"
        self.model.update(run_id, lambda r: replace(r.stopped_executing(), status="error", reason=reason)
                          .with_entry("pause", reason))  # fmt: skip
        self.ctx.presenter.present(error)
        self._runs_changed()

    def _continue_clicked(self) -> None:
        self.continue_run()

    def _stop_clicked(self) -> None:
        self.stop_run()

    def _resumable(self, row: RunRow) -> bool:
        """Whether Continue may resume `row`: paused, failed or interrupted, and no call of it still in flight."""
        return row.status in RESUMABLE and row.run_id not in self._executing

    def continue_run(self, run_id: str | None = None) -> None:
        """Resume a paused (or failed) run from its journal."""
        run_id = run_id or self.selected_run_id()
        row = self.model.row(run_id) if run_id else None
        if row is not None and self._resumable(row):
            self._execute(row.run_id, resume=True)

    def stop_run(self, run_id: str | None = None) -> None:
        """Ask a run to stop; an executing run stops at its next step."""
        run_id = run_id or self.selected_run_id()
        if not run_id:
            return
        self.stop_button.setEnabled(False)
        self._stop_requested.add(run_id)
        actions.stop_run(self.ctx, self, run_id, self._on_stopped)

    def _on_stopped(self, outcome: RunOutcome) -> None:
        if outcome.run_id in self._executing:  # it stops at its next step and reports so itself
            return
        self._apply_outcome(outcome)
        self._load_details(outcome.run_id)

    # ---- events, details, timers -----------------------------------------------------------------------
    @Slot(object)
    def _on_engine_event(self, event: Event) -> None:
        touched = self.model.apply([event])
        if isinstance(event, StageFinished | RunPaused | RunEnded):
            for run_id in touched:
                self._load_details(run_id)

    def _load_details(self, run_id: str) -> None:
        if run_id in self._details_pending:
            return
        self._details_pending.add(run_id)
        actions.load_details(self.ctx, self, run_id, lambda details: self._on_details(run_id, details),
                             lambda _: self._details_pending.discard(run_id))  # fmt: skip

    def _on_details(self, run_id: str, details: RunDetails) -> None:
        self._details_pending.discard(run_id)

        def counted(row: RunRow) -> RunRow:
            row = replace(row, calls=details.model_calls, cost=details.cost)
            if not row.timeline and run_id not in self._executing:  # a run from the history: its journal's stages
                row = replace(row, timeline=journal_timeline(details.actions))
            return row

        self.model.update(run_id, counted)

    def _tick(self) -> None:
        self.model.tick()
        row = self.selected_row()
        if row is not None and row.executing():
            self.stats_label.setText(self._stats_text(row))

    def _poll_due(self) -> None:
        actions.load_due(self.ctx, self, self._resume_due)

    def _resume_due(self, run_ids: list[str]) -> None:
        for run_id in run_ids:
            row = self.model.row(run_id)
            if row is not None and self._resumable(row):
                self._execute(run_id, resume=True)

    def _runs_changed(self) -> None:
        selected = self.selected_row()  # Continue follows the calls in flight, which the row itself does not hold
        if selected is not None:
            self._show_details(selected)
        count = len(self._executing)
        if count and not self._timer.isActive():
            self._timer.start()
        elif not count:
            self._timer.stop()
        self.active_runs_changed.emit(count)

    def refresh(self) -> None:
        """Re-read the run history, the models and the accounts."""
        actions.load_runs(self.ctx, self, self.model.merge_history)
        actions.load_models(self.ctx, self, self._on_models)
        self.ctx.op(lambda bench: [a.name for a in bench.ledger.accounts()], self._on_accounts, parent=self)

    def _on_models(self, choice: actions.ModelChoice) -> None:
        current = self._model_name()
        self.model_combo.clear()
        for name in choice.names:
            self.model_combo.addItem(self._model_label(name), name)
        chosen = current if current in choice.names and current != OFFLINE_MODEL else choice.default
        self.model_combo.setCurrentText(self._model_label(chosen))

    def _on_accounts(self, names: list[str]) -> None:
        self._fill_accounts(names)

    def _fill_accounts(self, names: list[str]) -> None:
        """Automatic first (the default), then no account, then each account; the choice made is kept."""
        current = self.account_combo.currentData() if self.account_combo.count() else AUTOMATIC
        self.account_combo.clear()
        self.account_combo.addItem("", AUTOMATIC)
        self.account_combo.addItem("", None)
        for name in names:
            self.account_combo.addItem(name, name)
        self._account_texts()
        self.account_combo.setCurrentIndex(max(self.account_combo.findData(current), 0))

    def _account_texts(self) -> None:
        self.account_combo.setItemText(0, self.tr("Automatic account"))
        self.account_combo.setItemData(0, self.tr("The account holding the symbol, else the only account, else the "
                                                  "one the last run read"), Qt.ItemDataRole.ToolTipRole)  # fmt: skip
        self.account_combo.setItemText(1, self.tr("(no account)"))

    # ---- selection and the details box -------------------------------------------------------------------
    def selected_run_id(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        return str(rows[0].data(Qt.ItemDataRole.UserRole)) if rows else None

    def selected_row(self) -> RunRow | None:
        run_id = self.selected_run_id()
        return self.model.row(run_id) if run_id else None

    def _select(self, run_id: str) -> None:
        at = self.model.row_index(run_id)
        if at >= 0:
            self.table.selectRow(at)

    def _on_selection(self, selected: QItemSelection, deselected: QItemSelection) -> None:
        row = self.selected_row()
        self._show_details(row)
        if row is not None and row.calls is None and row.run_id not in self._executing:
            self._load_details(row.run_id)  # a run from the history: its calls, cost and stages from its journal

    def _on_rows_changed(self, top: QModelIndex, bottom: QModelIndex) -> None:
        row = self.selected_row()
        if row is not None and top.row() <= self.model.row_index(row.run_id) <= bottom.row():
            self._show_details(row)

    def _on_double_click(self, index: QModelIndex) -> None:
        row = self.model.row(str(index.data(Qt.ItemDataRole.UserRole)))
        if row is not None and row.report_id:
            self.open_report_requested.emit(row.report_id)

    def _open_report(self) -> None:
        row = self.selected_row()
        if row is not None and row.report_id:
            self.open_report_requested.emit(row.report_id)

    def _stats_text(self, row: RunRow) -> str:
        calls = "–" if row.calls is None else str(row.calls)
        cost = format_cost(row.cost) or "–"
        # a run from the history was not timed here ("0:00" read as if it had taken no time)
        elapsed = format_elapsed(row.elapsed_now()) if row.elapsed or row.running_since else "–"
        return self.tr("Elapsed {elapsed} · model calls {calls} · cost {cost}").format(
            elapsed=elapsed, calls=calls, cost=cost
        )

    def _show_details(self, row: RunRow | None) -> None:
        if row is None:
            self.stage_label.setText(self.tr("No run selected"))
            for label in (self.subtask_label, self.stats_label, self.reason_label):
                label.clear()
            self.timeline.clear()
            for button in (self.continue_button, self.stop_button, self.report_button):
                button.setEnabled(False)
            return
        stage = stage_title(row.shown_stage()) if row.shown_stage() else ""
        self.stage_label.setText(f"{row.symbol} · {status_title(row.status)}" + (f" · {stage}" if stage else ""))
        self.subtask_label.setText(subtask_title(row.subtask) if row.subtask else "")
        self.stats_label.setText(self._stats_text(row))
        interrupted = row.status in {"running", "planned"} and row.run_id not in self._executing
        self.reason_label.setText(self._interrupted_text() if interrupted else self._reason_text(row))
        self.continue_button.setEnabled(self._resumable(row))
        self.stop_button.setEnabled(row.status in {"queued", "running", "paused", "planned"})
        self.report_button.setEnabled(bool(row.report_id))
        self._fill_timeline(row)

    def _reason_text(self, row: RunRow) -> str:
        if not row.reason:
            return ""
        if row.status == "paused" and row.resume_at is not None:
            at = self._exchange_time(row)
            when = f"{at:%Y-%m-%d %H:%M} {zone_words(_market(row), engine_language())}"
            return self.tr("Paused: {reason}. Automatic resume at {when}, or press Continue.").format(
                reason=row.reason, when=when
            )
        if row.status == "paused":
            return self.tr("Paused: {reason}").format(reason=row.reason)
        return row.reason

    @staticmethod
    def _exchange_time(row: RunRow) -> datetime:
        """The run's resume time in its exchange's zone (times shown to people are exchange time, named)."""
        assert row.resume_at is not None
        return row.resume_at.astimezone(MARKET_TZ[_market(row)])

    def _interrupted_text(self) -> str:
        return self.tr("Interrupted: it is not running now. Continue resumes it from its journal.")

    def _fill_timeline(self, row: RunRow) -> None:
        if self.timeline.count() > len(row.timeline) or self.timeline.property("run_id") != row.run_id:
            self.timeline.clear()
            self.timeline.setProperty("run_id", row.run_id)
        for entry in row.timeline[self.timeline.count() :]:
            if entry.kind == "stage":
                self.timeline.addItem("▶ " + stage_title(entry.text))
            elif entry.kind == "pause":
                self.timeline.addItem("⏸ " + entry.text)
            else:
                self.timeline.addItem("    · " + subtask_title(entry.text))
        self.timeline.scrollToBottom()

    def timeline_texts(self) -> list[str]:
        """The timeline lines of the selected run, as shown."""
        return [self.timeline.item(i).text() for i in range(self.timeline.count())]

    def executing(self) -> set[str]:
        """Runs executing now."""
        return set(self._executing)


def screenshot_setup(panel: ResearchPanel) -> None:
    """For screenshots: start an analysis of a demo stock so the panel shows live titles."""
    panel.start("003901.SZ")


def _market(row: RunRow) -> Market:
    """The market of the run's symbol (an A-share when it does not parse)."""
    try:
        return parse_symbol(row.symbol).market
    except UserError:
        return "CN"
