"""The chart screen: a symbol box, range buttons and the stock chart. Loading runs in the background (bars, zones,
fills, orders, reports are prepared off the GUI thread); only drawing happens here. It reloads when the ledger
or a report of the shown symbol changes, and re-reads the candle colours on every refresh.

The chart widget (pyqtgraph and numpy: most of a second to import) is not on the path to a usable window: where
its modules are not imported yet, the panel shows its bar and a placeholder at once, imports them on a worker
thread once the window's first loads are in (`CHART_MODULES`), then builds the widget and loads the chart."""

from __future__ import annotations

import importlib
import re
import sys
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QTimer, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from stockbench.events import Event, LedgerChanged
from stockbench.research.events import ReportPublished
from ui.charts.palette import CandleScheme, candle_scheme
from ui.context import AppContext

if TYPE_CHECKING:  # imported on a worker thread (see the module's docstring)
    from ui.charts.chart_data import ChartData
    from ui.charts.chart_widget import StockChartWidget

CHART_MODULES = ("ui.charts.chart_widget", "ui.screens.chart.chart_actions")  # the heavy part, imported off the GUI

RANGES = ((20, "1M"), (120, "6M"), (250, "1Y"), (750, "3Y"), (0, "All"))  # bars; 0 = every bar
RANGE_TITLES = {
    "1M": QT_TRANSLATE_NOOP("ChartPanel", "1M"),
    "6M": QT_TRANSLATE_NOOP("ChartPanel", "6M"),
    "1Y": QT_TRANSLATE_NOOP("ChartPanel", "1Y"),
    "3Y": QT_TRANSLATE_NOOP("ChartPanel", "3Y"),
    "All": QT_TRANSLATE_NOOP("ChartPanel", "All"),
}
DEFAULT_RANGE = 120  # a symbol opens on its last six months
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
# The zone flags (analytics: "code: details") as people read them; %1 is the first date the details name.
FLAG_WORDS = {
    "ex_rights": QT_TRANSLATE_NOOP("ChartPanel", "Ex-rights on %1: earlier bars are adjusted onto today's scale"),
    "closed_limit_up": QT_TRANSLATE_NOOP("ChartPanel", "%1 closed at the limit-up price: a buy the next day may "
                                                       "not fill"),
    "closed_limit_down": QT_TRANSLATE_NOOP("ChartPanel", "%1 closed at the limit-down price"),
    "no_bar": QT_TRANSLATE_NOOP("ChartPanel", "No bar on %1 (suspended, or not fetched): the levels are older"),
    "calendar_unknown": QT_TRANSLATE_NOOP("ChartPanel", "The trading calendar is not known that far"),
}  # fmt: skip


def chart_modules_loaded() -> bool:
    """Whether the chart widget's modules are imported (then the panel builds its chart at once)."""
    return all(name in sys.modules for name in CHART_MODULES)


def import_chart_modules(_bench: object = None) -> None:
    """Import CHART_MODULES (on a worker thread: an op that is not urgent, so it starts once the window's first
    loads are delivered and does not slow them down)."""
    for name in CHART_MODULES:
        importlib.import_module(name)


def flag_text(flag: str) -> str:
    """One zone flag in the interface language (its details kept only as the date they name)."""
    code, _, details = flag.partition(":")
    words = FLAG_WORDS.get(code.strip())
    if words is None:
        return flag
    found = DATE.search(details)
    return QCoreApplication.translate("ChartPanel", str(words)).replace("%1", found.group(0) if found else "")


class ChartPanel(QWidget):
    """One symbol's chart. `show_symbol(symbol)` is what other screens ask for (through the main window)."""

    screen_name = "chart"
    loaded = Signal(str)  # the symbol, once its chart is drawn
    analyze_requested = Signal(str)

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("ChartPanel")
        self.symbol: str | None = None
        self.active_range: int | None = DEFAULT_RANGE  # None once the user zooms or pans to another span
        self._generation = 0
        self.chart: StockChartWidget | None = None  # built once its modules are imported
        self.placeholder = QLabel(self)
        self.placeholder.setObjectName("chartPlaceholder")
        self._build()
        self._reload = QTimer(self)
        self._reload.setSingleShot(True)
        self._reload.setInterval(300)
        self._reload.timeout.connect(self.refresh)
        ctx.bridge.batch.connect(self._on_events)
        if chart_modules_loaded():
            self._build_chart()
        else:  # after the window's urgent loads (the watchlist, the report list): the window is usable first
            ctx.op(import_chart_modules, lambda _done: self._build_chart(), parent=self)

    def _build_chart(self) -> None:
        """Put the chart widget where the placeholder is, and load the chart (the symbol asked for meanwhile)."""
        if self.chart is not None:
            return
        from ui.charts.chart_widget import StockChartWidget

        self.chart = StockChartWidget(self, candle_scheme(self.ctx.settings))
        self._layout.replaceWidget(self.placeholder, self.chart)
        self.placeholder.hide()
        self.chart.price_plot.vb.sigRangeChangedManually.connect(lambda *_args: self._mark_range(None))
        self.chart.retranslate()
        self.refresh()

    def _build(self) -> None:
        self.symbol_edit = QLineEdit(self)
        self.symbol_edit.setMinimumWidth(self.symbol_edit.fontMetrics().horizontalAdvance("000000.SH") + 24)
        self.symbol_edit.returnPressed.connect(lambda: self.show_symbol(self.symbol_edit.text()))
        self.title = QLabel(self)
        self.title.setObjectName("chartTitle")
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # a long name is cut
        self.zone_label = QLabel(self)
        self.zone_label.setWordWrap(True)
        bar = QHBoxLayout()
        bar.addWidget(self.symbol_edit)
        bar.addWidget(self.title, 1)
        self.range_buttons: dict[int, QPushButton] = {}
        self.range_group = QButtonGroup(self)  # exclusive: the active period is the one checked button
        for count, _key in RANGES:
            button = QPushButton(self)
            button.setFlat(True)
            button.setCheckable(True)
            button.setObjectName("rangeButton")
            button.clicked.connect(lambda _checked=False, c=count: self.show_range(c))
            bar.addWidget(button)
            self.range_group.addButton(button)
            self.range_buttons[count] = button
        self.analyze_button = QPushButton(self)
        self.analyze_button.clicked.connect(self._analyze)
        bar.addWidget(self.analyze_button)
        self._layout = layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.placeholder, 1)
        layout.addWidget(self.zone_label)
        self._mark_range(self.active_range)
        self.retranslate()

    def retranslate(self) -> None:
        """Set the panel's texts in the current language in place (the chart keeps its symbol and zoom)."""
        self.symbol_edit.setPlaceholderText(self.tr("Symbol, e.g. 600519 or 00700.HK"))
        for count, key in RANGES:
            button = self.range_buttons[count]
            button.setText(self.tr(str(RANGE_TITLES[key])))
            button.setFixedWidth(button.fontMetrics().horizontalAdvance(button.text()) + 16)  # not the style's 80 px
        self.analyze_button.setText(self.tr("Analyze"))
        self.placeholder.setText(self.tr("Loading the chart…"))
        if self.chart is None:
            return
        self.chart.retranslate()
        if self.chart.data is not None:
            self.zone_label.setText(self._zone_text(self.chart.data))

    def _mark_range(self, bars: int | None) -> None:
        """Check the button of period `bars` (None: the view is the user's own span, no button is checked)."""
        self.active_range = bars
        self.range_group.setExclusive(False)  # an exclusive group would keep one button checked
        for count, button in self.range_buttons.items():
            button.setChecked(count == bars)
        self.range_group.setExclusive(True)

    # ---- requests ---------------------------------------------------------------------------------------------
    def show_symbol(self, symbol: str) -> None:
        """Load and draw the chart of `symbol`."""
        cleaned = symbol.strip()
        if cleaned:
            self.symbol = cleaned
            self.refresh()

    def show_range(self, bars: int) -> None:
        """Show the last `bars` bars (0: all of them)."""
        self._mark_range(bars)
        data = self.chart.data if self.chart is not None else None
        if self.chart is not None and data is not None:
            self.chart.show_last(bars or len(data.bars))

    def refresh(self) -> None:
        """Re-read the candle colours and reload the shown symbol (the default symbol when none is shown); nothing
        before the chart widget is built (it loads then)."""
        if self.chart is None:
            return
        from ui.screens.chart import chart_actions as actions

        self.set_candle_scheme(candle_scheme(self.ctx.settings))
        self._generation += 1
        generation, symbol = self._generation, self.symbol
        if symbol is None:
            self.ctx.op(actions.default_symbol, self._default_found, urgent=True, parent=self)
            return
        self.ctx.op(lambda bench: actions.chart_data(bench, symbol), lambda data: self._loaded(generation, data),
                    failure=self._failed, urgent=True, parent=self)  # fmt: skip

    def set_candle_scheme(self, scheme: CandleScheme) -> None:
        if self.chart is not None:  # else it reads the setting when it is built
            self.chart.set_scheme(scheme)

    def _analyze(self) -> None:
        if self.symbol:
            self.analyze_requested.emit(self.symbol)

    # ---- results ----------------------------------------------------------------------------------------------
    def _failed(self, error: BaseException) -> None:
        """Show the error and go back to the symbol on screen (a mistyped code must not stick)."""
        assert self.chart is not None  # a load starts only once the chart is built
        self.symbol = self.chart.data.symbol if self.chart.data is not None else None
        self.symbol_edit.setText(self.symbol or "")
        if self.chart.data is None:  # nothing shown before: not "loading" for ever
            self.chart.show_empty("no_symbol")
        self.ctx.presenter.present(error)

    def _default_found(self, symbol: str | None) -> None:
        if symbol and self.symbol is None:
            self.show_symbol(symbol)
        elif not symbol and self.chart is not None and self.chart.data is None:
            self.chart.show_empty("no_symbol")

    def _loaded(self, generation: int, data: ChartData) -> None:
        if generation != self._generation:  # a newer request is on its way
            return
        assert self.chart is not None  # a load starts only once the chart is built
        same = self.chart.data is not None and self.chart.data.symbol == data.symbol
        view = self.chart.price_plot.vb.viewRange()[0] if same else None
        if not same and self.active_range is None:
            self._mark_range(DEFAULT_RANGE)
        span = self.active_range if self.active_range is not None else DEFAULT_RANGE
        self.chart.set_data(data, visible=span or len(data.bars))
        if view is not None:  # a reload keeps the user's zoom
            self.chart.price_plot.vb.setXRange(*view, padding=0)
        self.symbol = data.symbol
        self.symbol_edit.setText(data.symbol)
        self.title.setText(data.name or "")  # the symbol box beside it shows the code
        self.title.setToolTip(f"{data.symbol}  {data.name or ''}")
        self.title.setMinimumWidth(self.title.fontMetrics().horizontalAdvance(data.name or ""))
        self.zone_label.setText(self._zone_text(data))
        self.loaded.emit(data.symbol)

    def _zone_text(self, data: ChartData) -> str:
        from ui.charts.chart_data import price_text

        zones = data.zones
        if zones is None:
            return self.tr("No zones: %1").replace("%1", data.zone_note)
        text = (
            self.tr("Zones as of %1: buy %2 – %3, sell %4 – %5, stop %6")
            .replace("%1", str(zones.as_of)).replace("%2", price_text(zones.buy_low))
            .replace("%3", price_text(zones.buy_high)).replace("%4", price_text(zones.sell_low))
            .replace("%5", price_text(zones.sell_high)).replace("%6", price_text(zones.stop))
        )  # fmt: skip
        notes = [flag_text(flag) for flag in data.zone_flags]
        return "\n".join([text, *notes])

    def _on_events(self, events: list[Event]) -> None:
        if self.symbol is None:
            return
        for event in events:
            if isinstance(event, LedgerChanged) or (isinstance(event, ReportPublished) and event.symbol == self.symbol):
                self._reload.start()
                return


def screenshot_setup(panel: ChartPanel) -> None:
    """For screenshots: a demo stock (the load runs in the background; wait for `loaded`)."""
    panel.show_symbol("605903.SH")
