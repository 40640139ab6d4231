"""The track record screen: how the workspace's published calls turned out once their horizon passed (or one
symbol's): matured calls against the benchmark index, hit rate by action, the Brier score of the scenario
probabilities against the base rate, and model cost per report. Every figure is the engine's (`TrackRecords`)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from functools import partial

from PySide6.QtCore import QT_TRANSLATE_NOOP, QModelIndex, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from stockbench.clock import MARKET_TZ
from stockbench.errors import UserError
from stockbench.messages import error_words
from stockbench.research.events import ReportPublished
from stockbench.research.track_summary import OFFICIAL_BENCHMARKS, Benchmark, Calibration, CostSummary
from ui.charts.palette import candle_scheme, chart_colors
from ui.context import AppContext
from ui.i18n.language import engine_language
from ui.models.record_table import ROW_ROLE
from ui.screens.track_record import track_record_actions as actions
from ui.screens.track_record.track_record_actions import RecordView
from ui.screens.track_record.track_record_model import (
    ACTION_COLUMNS,
    CALL_COLUMNS,
    CallRow,
    RecordModel,
    rate,
)

MARKET_TITLES: dict[str, str] = {
    "CN": str(QT_TRANSLATE_NOOP("TrackRecordPanel", "A-shares")),
    "HK": str(QT_TRANSLATE_NOOP("TrackRecordPanel", "Hong Kong")),
}
FIGURES = ("as_of", "counts", "hit_rate", "calibration", "cost")


class TrackRecordPanel(QWidget):
    """Matured calls, hit rates, calibration and cost per report, for the workspace or one symbol."""

    screen_name = "track_record"
    report_requested = Signal(str)  # a report id (a matured call double-clicked)
    refreshed = Signal(object)  # the RecordView shown

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("TrackRecordPanel")
        self.calls = RecordModel(CALL_COLUMNS, self)
        self.by_action = RecordModel(ACTION_COLUMNS, self)
        self.calls.tooltip = self._call_tip
        self.view: RecordView | None = None
        self._generation = 0
        self._shown_generation = -1  # the load whose record (or refusal) is shown
        self._refusal: UserError | None = None  # why the last load was refused
        self._build()
        ctx.bridge.engine_event.connect(self._on_engine_event)
        self.refresh()

    # ---- layout ------------------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.addLayout(self._build_filter())
        self.benchmark_note = QLabel(self)
        self.benchmark_note.setObjectName("benchmarkNote")
        self.benchmark_note.setWordWrap(True)
        layout.addWidget(self.benchmark_note)
        layout.addWidget(self._build_figures())
        split = QSplitter(Qt.Orientation.Vertical, self)
        self.by_action_box = self._section("byAction", self.by_action)
        self.calls_box = self._section("maturedCalls", self.calls)
        split.addWidget(self.by_action_box)
        split.addWidget(self.calls_box)
        split.setSizes([150, 450])
        layout.addWidget(split, 1)
        self.status_label = QLabel(self)
        self.status_label.setObjectName("trackRecordStatus")
        self.status_label.setWordWrap(True)
        layout.addWidget(self.status_label)
        self.retranslate()

    def retranslate(self) -> None:
        """Set every text in the current language in place (the tables keep their rows and column widths); the
        figures shown are worded again from the record already read."""
        self.symbol_edit.setPlaceholderText(self.tr("Every symbol (type one to filter, e.g. 600519)"))
        self.show_button.setText(self.tr("Show"))
        self.all_button.setText(self.tr("All symbols"))
        self.symbol_label.setText(self.tr("Symbol"))
        self.summary_box.setTitle(self.tr("Summary"))
        titles = {"as_of": self.tr("As of"), "counts": self.tr("Published calls"), "hit_rate": self.tr("Hit rate"),
                  "calibration": self.tr("Calibration"), "cost": self.tr("Cost per report")}  # fmt: skip
        for key, title in titles.items():
            self.figure_titles[key].setText(title)
        self.figures["calibration"].setToolTip(
            self.tr("The multi-class Brier score of the reports' up / sideways / down probabilities against what "
                    "happened (0 is perfect, 2 the worst), beside the score of always forecasting the calibrated "
                    "table's base rate. Positive skill means the reports beat the base rate.")
        )  # fmt: skip
        self.by_action_box.setTitle(self.tr("Hit rate by action"))
        self.calls_box.setTitle(self.tr("Matured calls"))
        for model in (self.calls, self.by_action):
            model.retranslate()
        if self._shown_generation != self._generation:
            self.status_label.setText(self.tr("Scoring the published calls…"))
        elif self._refusal is not None:
            self._show_refusal(self._refusal)
        elif self.view is not None:
            self._show_view(self.view)

    def _build_filter(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.symbol_edit = QLineEdit(self)
        self.symbol_edit.setObjectName("symbolFilter")
        self.symbol_edit.setClearButtonEnabled(True)
        self.symbol_edit.returnPressed.connect(self.refresh)
        self.show_button = QPushButton(self)
        self.show_button.clicked.connect(self.refresh)
        self.all_button = QPushButton(self)
        self.all_button.clicked.connect(self.show_all)
        self.symbol_label = QLabel(self)
        row.addWidget(self.symbol_label)
        row.addWidget(self.symbol_edit, 1)
        row.addWidget(self.show_button)
        row.addWidget(self.all_button)
        return row

    def _build_figures(self) -> QGroupBox:
        self.summary_box = box = QGroupBox(self)
        form = QFormLayout(box)
        self.figures: dict[str, QLabel] = {}
        self.figure_titles: dict[str, QLabel] = {}
        for key in FIGURES:
            label = QLabel("—", box)
            label.setObjectName(f"figure_{key}")
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.figures[key] = label
            self.figure_titles[key] = QLabel(box)
            form.addRow(self.figure_titles[key], label)
        return box

    def _section(self, name: str, model: RecordModel) -> QGroupBox:
        box = QGroupBox(self)
        view = QTableView(box)
        view.setObjectName(name)
        view.setModel(model)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        view.verticalHeader().hide()
        view.setWordWrap(False)
        view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        view.horizontalHeader().setStretchLastSection(False)
        view.doubleClicked.connect(partial(self._activated, model))
        QVBoxLayout(box).addWidget(view)
        return box

    # ---- loading -------------------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Score the calls again at the workspace's clock (for the symbol in the filter, or every symbol)."""
        colors = chart_colors(candle_scheme(self.ctx.settings))
        for model in (self.calls, self.by_action):
            model.set_colors(colors.up, colors.down)
        self._generation += 1
        self.status_label.setText(self.tr("Scoring the published calls…"))
        generation = self._generation
        actions.load_record(self.ctx, self, self.symbol_edit.text(), partial(self._shown, generation),
                            partial(self._failed, generation))  # fmt: skip

    def show_symbol(self, symbol: str) -> None:
        """Show the track record of `symbol` alone."""
        self.symbol_edit.setText(symbol)
        self.refresh()

    def show_all(self) -> None:
        """Show the track record of every symbol in the workspace."""
        self.symbol_edit.clear()
        self.refresh()

    def _shown(self, generation: int, view: RecordView) -> None:
        if generation != self._generation:
            return
        self.view, self._shown_generation, self._refusal = view, generation, None
        self.calls.set_rows(view.calls)
        self.by_action.set_rows(view.actions)
        self._show_view(view)
        self.refreshed.emit(view)

    def _show_view(self, view: RecordView) -> None:
        """The figures, the benchmarks and the status of `view`, in the current language."""
        self._show_figures(view)
        self._show_benchmarks(view.summary.benchmarks)
        if view.summary.counts.reports == 0:
            self.status_label.setText(self.tr("No published report yet: analyse a symbol, then come back once its "
                                              "horizon has passed."))  # fmt: skip
        elif not view.calls:
            self.status_label.setText(self.tr("No call has matured yet: a call matures when its horizon of "
                                              "sessions has passed and the bars cover it."))  # fmt: skip
        else:
            self.status_label.clear()

    def _failed(self, generation: int, error: BaseException) -> None:
        if generation != self._generation:
            return
        self._shown_generation = generation
        if isinstance(error, UserError):
            self._refusal = error
            self._show_refusal(error)
        else:
            self._refusal = None
            self.status_label.clear()
            self.ctx.presenter.present(error)

    def _show_refusal(self, error: UserError) -> None:
        message, hint = error_words(error, engine_language())
        self.status_label.setText(f"{message}\n{hint}" if hint else message)

    # ---- figures -------------------------------------------------------------------------------------------
    def _show_figures(self, view: RecordView) -> None:
        summary = view.summary
        at = view.as_of.astimezone(MARKET_TZ["CN"]).strftime("%Y-%m-%d %H:%M")
        self.figures["as_of"].setText(self.tr("{time} Beijing time").format(time=at))  # the zone named
        counts = summary.counts
        self.figures["counts"].setText(
            self.tr("{0} reports: {1} matured, {2} pending, {3} unscored").format(
                counts.reports, counts.matured, counts.pending, counts.unscored)
        )  # fmt: skip
        judged = sum(a.judged for a in view.actions)
        hits = sum(a.hits for a in view.actions)
        self.figures["hit_rate"].setText(
            self.tr("{0} ({1} hits of {2} judged calls)").format(rate(summary.hit_rate), hits, judged)
        )
        self.figures["calibration"].setText(self._calibration_text(summary.calibration))
        self.figures["cost"].setText(self._cost_text(summary.cost))

    def _calibration_text(self, calib: Calibration) -> str:
        if not calib.n:
            return self.tr("no matured call with scenario probabilities yet")
        return self.tr("Brier score {0} against {1} for the base rate (skill {2}; {3} calls)").format(
            calib.brier, calib.base_rate_brier, "—" if calib.skill is None else calib.skill, calib.n
        )

    def _cost_text(self, cost: CostSummary) -> str:
        per_report = cost.per_report
        if per_report is None:
            return "—"
        text = self.tr("{0} per report ({1} in all over {2} reports)").format(
            _amount(per_report), _amount(cost.total), cost.reports
        )
        if cost.calls_of_unknown_cost:
            text += " " + self.tr("— {0} model call(s) of unknown cost are not counted").format(
                cost.calls_of_unknown_cost
            )
        return text

    def _show_benchmarks(self, benchmarks: Mapping[str, Benchmark]) -> None:
        lines = [self._benchmark_line(market, found) for market, found in benchmarks.items()]
        missing = any(flag for _line, flag in lines)
        self.benchmark_note.setText("\n".join(f"⚠ {line}" if flag else line for line, flag in lines))
        self.benchmark_note.setProperty("missing", missing)

    def _benchmark_line(self, market: str, found: Benchmark) -> tuple[str, bool]:
        """What `market`'s calls are measured against, and whether the official index is missing."""
        title = self.tr(MARKET_TITLES[market]) if market in MARKET_TITLES else market
        official = OFFICIAL_BENCHMARKS.get(market, "—")
        symbol, name = found.symbol, found.name
        if symbol is None:
            text = self.tr("No benchmark index for {0}: the official index {1} has no bars in this workspace, so "
                           "excess returns and hit rates are not computed.")  # fmt: skip
            return text.format(title, official), True
        if not found.official:
            text = self.tr("{0} calls are measured against {1} {2}, a stand-in: the official index {3} has no bars "
                           "in this workspace.")  # fmt: skip
            return text.format(title, symbol, name, official), True
        return self.tr("{0} calls are measured against {1} {2}.").format(title, symbol, name), False

    # ---- requests and events ------------------------------------------------------------------------------
    def _call_tip(self, row: CallRow) -> str | None:
        tip = self.tr("Report {0}").format(row.report_id)
        if row.suspended:
            tip += "\n" + self.tr("Suspended on the exit session: its last close stands in.")
        return tip

    def _activated(self, model: RecordModel, index: QModelIndex) -> None:
        row = index.data(ROW_ROLE)
        if isinstance(row, CallRow):
            self.report_requested.emit(row.report_id)

    @Slot(object)
    def _on_engine_event(self, event: object) -> None:
        if isinstance(event, ReportPublished):
            self.refresh()


def _amount(value: Decimal) -> str:
    """A cost without trailing zeros beyond four places."""
    return f"{value.quantize(Decimal('0.0001')).normalize():f}"
