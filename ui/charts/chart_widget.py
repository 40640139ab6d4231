"""The stock chart: candlesticks over volume with moving averages, the zones and stop, fills, open orders and
report markers, a crosshair whose bar values show above the plot, and x-only zoom and pan with the price axis
fitting the visible bars. `set_data` only draws: the data is prepared off the GUI thread (ui.charts.chart_data)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QLabel, QSizePolicy, QStackedWidget, QVBoxLayout, QWidget

from ui.charts.candlestick_item import CandlestickItem, VolumeItem
from ui.charts.chart_data import AVERAGES, ChartData, ReportMark, ZoneLevels, price_text
from ui.charts.crosshair import Crosshair
from ui.charts.palette import DEFAULT_SCHEME, CandleScheme, chart_colors
from ui.charts.zone_item import PRICE_LINE_Z, PriceLineItem, ZoneBandItem
from ui.charts.zone_labels import ZoneLabel, ZoneLabels, label_backing
from ui.i18n.action_words import action_word
from ui.i18n.language import engine_language

EmptyReason = Literal["loading", "no_bars", "no_symbol"]

DEFAULT_VISIBLE = 160  # bars shown when a symbol opens (zoom out to see all of them)
MIN_VISIBLE = 10
AVERAGE_COLORS = {5: QColor(240, 160, 40), 20: QColor(170, 90, 220), 60: QColor(40, 150, 220)}


MARKER_LOW, MARKER_STEP, MARKER_LEVELS = 0.04, 0.07, 4  # label heights, as fractions of the plot's height
MARKER_NEAR = 12  # bars: report markers closer than this get their labels at different heights


@dataclass(frozen=True)
class ReportMarker:
    """One report line: the reports published on its bar (merged, with their count) and its label's level."""

    index: int
    actions: tuple[str, ...]
    count: int
    level: int


def report_markers(reports: Sequence[ReportMark]) -> list[ReportMarker]:
    """Reports on one bar merged into one marker (its distinct actions and a count); markers near each other
    stepped up a level (cycling through `MARKER_LEVELS`), so that no label lies on another's."""
    by_bar: dict[int, list[str]] = {}
    for report in sorted(reports, key=lambda r: r.index):
        by_bar.setdefault(report.index, []).append(report.action)
    markers: list[ReportMarker] = []
    for index, actions in by_bar.items():
        near = bool(markers) and index - markers[-1].index < MARKER_NEAR
        level = (markers[-1].level + 1) % MARKER_LEVELS if near else 0
        markers.append(ReportMarker(index, tuple(dict.fromkeys(actions)), len(actions), level))
    return markers


def _fit_y_now(view: pg.ViewBox, _x_range: object) -> None:
    """Fit `view`'s y range to what x now shows, as x moves. pyqtgraph finds what is in view only while painting
    (the averages, clipped to the view, take their new extent there) and the fit set there asks for a second
    paint of every pan or zoom step, the first on the old scale (bench/ui_stall.py: twice the painting while
    research runs)."""
    view.updateMatrix()  # the items clipped to the view take the part now in view
    view.updateAutoRange()
    view.updateMatrix()  # and the new y scale now: set while painting, it too asked for another paint


class IndexDateAxis(pg.AxisItem):  # type: ignore[misc]
    """A bottom axis over bar indices that labels each tick with its bar's date."""

    def __init__(self) -> None:
        super().__init__(orientation="bottom")
        self.days: np.ndarray = np.empty(0, dtype="datetime64[D]")

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:  # noqa: N802
        labels = []
        for value in values:
            index = round(value)
            day = str(self.days[index]) if 0 <= index < len(self.days) else ""
            labels.append(day[:7] if spacing > 40 else day)
        return labels


def volume_text(value: float, language: str) -> str:
    """A share count as people read it: 万 and 亿 in Chinese, K, M and B in English (no 1e+07)."""
    steps = ((1e8, "亿"), (1e4, "万")) if language == "zh" else ((1e9, "B"), (1e6, "M"), (1e3, "K"))
    for size, unit in steps:
        if abs(value) >= size:
            shown = value / size
            return f"{shown:.0f}{unit}" if abs(shown) >= 100 else f"{shown:.3g}{unit}"
    return f"{value:.0f}"


class VolumeAxis(pg.AxisItem):  # type: ignore[misc]
    """The volume plot's axis, labelled in 万/亿 or K/M (pyqtgraph would write 1e+07 and an SI prefix)."""

    def __init__(self) -> None:
        super().__init__(orientation="right")
        self.enableAutoSIPrefix(False)

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:  # noqa: N802
        language = engine_language()
        return [volume_text(v * scale, language) for v in values]


class StockChartWidget(QWidget):
    """One symbol's chart. Items are attributes so tests and the panel can reach them."""

    bar_hovered = Signal(int)

    def __init__(self, parent: QWidget | None = None, scheme: CandleScheme = DEFAULT_SCHEME) -> None:
        super().__init__(parent)
        self.data: ChartData | None = None
        self.colors = chart_colors(scheme)
        self.info = QLabel(self)
        self.info.setObjectName("chartInfo")
        # the bar's values are one long line: it may be cut, never widen the chart past its dock
        self.info.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        # the moving averages on a line of their own, each in its curve's colour (after the bar's values on one line,
        # the last of them was cut at the default window size: "MA20 354.93 MA")
        self.legend = QLabel(self)
        self.legend.setObjectName("chartLegend")
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.legend.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.graphics = pg.GraphicsLayoutWidget(self)
        # With no bars to draw, a sentence in the plots' place (not empty axes reading 0 to 1 and a volume axis of 0s
        # and 1s, as after a reopen before the bars had loaded)
        self.empty = QLabel(self)
        self.empty.setObjectName("chartEmpty")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty_reason: tuple[EmptyReason, str] | None = None
        self.plots = QStackedWidget(self)
        self.plots.addWidget(self.graphics)
        self.plots.addWidget(self.empty)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.info)
        layout.addWidget(self.legend)
        layout.addWidget(self.plots, 1)
        self._build_plots()
        self.zone_bands: list[ZoneBandItem] = []
        self.stop_line: PriceLineItem | None = None
        self.zone_labels = ZoneLabels(self.price_plot)
        self.order_lines: list[PriceLineItem] = []
        self.report_lines: list[pg.InfiniteLine] = []
        self.crosshair = Crosshair(self.price_plot, self.volume_plot, self._text_color())
        self.crosshair.moved.connect(self._show_bar)
        self.apply_theme()
        self.show_empty("loading")

    # ---- construction -----------------------------------------------------------------------------------------
    def _build_plots(self) -> None:
        self.axis = IndexDateAxis()
        self.price_plot: pg.PlotItem = self.graphics.addPlot(row=0, col=0)
        self.volume_axis = VolumeAxis()
        self.volume_plot: pg.PlotItem = self.graphics.addPlot(
            row=1, col=0, axisItems={"bottom": self.axis, "right": self.volume_axis}
        )
        self.graphics.ci.layout.setRowStretchFactor(0, 4)
        self.graphics.ci.layout.setRowStretchFactor(1, 1)
        self.price_plot.hideAxis("bottom")
        self.price_plot.showAxis("right")
        self.price_plot.hideAxis("left")
        self.volume_plot.setXLink(self.price_plot)
        for plot in (self.price_plot, self.volume_plot):
            for axis in plot.axes.values():
                # No axis shows a unit label, so no SI prefix to choose: with it on, every range change of every
                # axis (hidden ones too) lays out the label's rich text again, four times a pan step.
                axis["item"].enableAutoSIPrefix(False)
            plot.setMenuEnabled(False)
            plot.vb.setMouseEnabled(x=True, y=False)
            plot.vb.setAutoVisible(y=True)
            plot.vb.enableAutoRange(axis="y")
            plot.vb.sigXRangeChanged.connect(_fit_y_now)
        self.volume_plot.hideAxis("left")
        self.volume_plot.showAxis("right")
        self.candles = CandlestickItem(self.colors.up, self.colors.down)
        self.volume = VolumeItem(self.colors.up, self.colors.down)
        self.price_plot.addItem(self.candles)
        self.volume_plot.addItem(self.volume)
        self.averages: dict[int, pg.PlotDataItem] = {}
        for window in AVERAGES:
            curve = pg.PlotDataItem(pen=pg.mkPen(AVERAGE_COLORS.get(window, QColor("gray")), width=1), connect="finite")
            curve.setDownsampling(auto=True, method="peak")
            curve.setClipToView(True)
            self.price_plot.addItem(curve)
            self.averages[window] = curve
        self.fills = pg.ScatterPlotItem(size=11, pxMode=True)
        self.price_plot.addItem(self.fills)

    def _text_color(self) -> QColor:
        return self.palette().color(QPalette.ColorRole.Text)

    def apply_theme(self) -> None:
        """Follow the widget palette (light or dark): background, axes, their text, the crosshair, the fills' outline
        and the candles (repainted at once)."""
        background = self.palette().color(QPalette.ColorRole.Base)
        self.graphics.setBackground(background)
        self.zone_labels.set_background(background)
        for line in self.order_lines:
            line.set_backing(label_backing(background))
        text = self._text_color()
        for plot in (self.price_plot, self.volume_plot):
            for name in ("right", "bottom"):
                axis = plot.getAxis(name)
                axis.setTextPen(text)
                axis.setPen(text)
        self.crosshair.set_color(text)
        self.info.setPalette(self.palette())
        self.legend.setPalette(self.palette())
        if self.data is not None:
            self._set_fills(self.data)
        self.candles.update()
        self.volume.update()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        # The application's palette reaches this widget as either event, depending on where it sits (inside a dock's
        # scroll area only the application's arrived, and the chart stayed white until a restart).
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self.apply_theme()
        super().changeEvent(event)

    # ---- data -------------------------------------------------------------------------------------------------
    def set_data(self, data: ChartData, visible: int = DEFAULT_VISIBLE) -> None:
        """Draw `data` and show its last `visible` bars."""
        self.data = data
        bars = data.bars
        self.axis.days = bars.days
        self.candles.set_bars(bars)
        self.volume.set_bars(bars)
        x = np.arange(len(bars), dtype=np.float64)
        for window, curve in self.averages.items():
            values = data.averages.get(window)
            curve.setData(x, values) if values is not None else curve.clear()
        self._set_zones(data.zones)
        self._set_orders(data)
        self._set_fills(data)
        self._set_reports(data)
        self.crosshair.set_count(len(bars))
        limits = {"xMin": -2.0, "xMax": len(bars) + 2.0, "minXRange": MIN_VISIBLE}
        self.price_plot.vb.setLimits(**limits)
        self.volume_plot.vb.setLimits(**limits)
        self.show_last(visible)
        if len(bars):
            self._show_bar(len(bars) - 1)
            self.empty_reason = None
            self.plots.setCurrentWidget(self.graphics)
        else:
            self.show_empty("no_bars", data.symbol)

    def show_last(self, count: int) -> None:
        """Show the last `count` bars (all of them when `count` exceeds the series)."""
        n = len(self.data.bars) if self.data else 0
        if not n:
            return
        self.price_plot.vb.setXRange(max(-0.5, n - count - 0.5), n + 0.5, padding=0)

    def set_scheme(self, scheme: CandleScheme) -> None:
        """Switch the candle colours (red up / green up)."""
        self.colors = chart_colors(scheme)
        self.candles.set_colors(self.colors.up, self.colors.down)
        self.volume.set_colors(self.colors.up, self.colors.down)
        if self.data is not None:
            self._set_fills(self.data)

    def _remove(self, items: list[Any]) -> None:
        for item in items:
            self.price_plot.removeItem(item)
        items.clear()

    def _set_zones(self, zones: ZoneLevels | None) -> None:
        self._remove(self.zone_bands)
        self.zone_labels.clear()
        if self.stop_line is not None:
            self.price_plot.removeItem(self.stop_line)
            self.stop_line = None
        if zones is None:
            return
        buy = (
            self.tr("Buy zone %1 – %2")
            .replace("%1", price_text(zones.buy_low))
            .replace("%2", price_text(zones.buy_high))
        )
        sell = (
            self.tr("Sell zone %1 – %2")
            .replace("%1", price_text(zones.sell_low))
            .replace("%2", price_text(zones.sell_high))
        )
        stop = self.tr("Stop %1").replace("%1", price_text(zones.stop))
        self.zone_bands = [
            ZoneBandItem("buy", zones.buy_low, zones.buy_high, self.colors.buy_zone),
            ZoneBandItem("sell", zones.sell_low, zones.sell_high, self.colors.sell_zone),
        ]
        self.stop_line = PriceLineItem(zones.stop, self.colors.stop)
        for item in (*self.zone_bands, self.stop_line):
            self.price_plot.addItem(item, ignoreBounds=True)
        words = self._opaque
        self.zone_labels.set(
            [
                ZoneLabel("sell", sell, words(self.colors.sell_zone), float(zones.sell_low), float(zones.sell_high)),
                ZoneLabel("buy", buy, words(self.colors.buy_zone), float(zones.buy_low), float(zones.buy_high)),
                ZoneLabel("stop", stop, self.colors.stop, float(zones.stop), float(zones.stop)),
            ],
            self.palette().color(QPalette.ColorRole.Base),
        )

    @staticmethod
    def _opaque(band: QColor) -> QColor:
        """A band's colour for its label's words and border: the band's hue, opaque."""
        return QColor(band.red(), band.green(), band.blue())

    def _set_orders(self, data: ChartData) -> None:
        self._remove(self.order_lines)
        for order in data.orders:
            side = self.tr("Buy") if order.side == "buy" else self.tr("Sell")
            text = f"{side} {order.qty:,} @ {price_text(order.price)}"
            backing = label_backing(self.palette().color(QPalette.ColorRole.Base))
            line = PriceLineItem(order.price, self.colors.order, text, backing=backing)
            self.order_lines.append(line)
            self.price_plot.addItem(line, ignoreBounds=True)

    def _set_fills(self, data: ChartData) -> None:
        spots = [
            {
                "pos": (fill.index, fill.price),
                "symbol": "t1" if fill.side == "buy" else "t",
                "brush": self.colors.up if fill.side == "buy" else self.colors.down,
                "pen": pg.mkPen(self._text_color()),
                "data": fill,
            }
            for fill in data.fills
        ]
        self.fills.setData(spots)

    def _set_reports(self, data: ChartData) -> None:
        self._remove(self.report_lines)
        for marker in report_markers(data.reports):
            pen = pg.mkPen(self.colors.report, style=Qt.PenStyle.DotLine)
            options = {"position": MARKER_LOW + marker.level * MARKER_STEP, "color": self.colors.report}
            line = pg.InfiniteLine(pos=marker.index, angle=90, movable=False, pen=pen,
                                   label=self._marker_text(marker), labelOpts=options)  # fmt: skip
            line.setZValue(PRICE_LINE_Z)
            self.report_lines.append(line)
            self.price_plot.addItem(line, ignoreBounds=True)

    def _marker_text(self, marker: ReportMarker) -> str:
        words = " / ".join(action_word(action) for action in marker.actions)
        return words if marker.count == 1 else f"{words} ×{marker.count}"

    def show_empty(self, reason: EmptyReason, symbol: str = "") -> None:
        """Say in the plots' place why there is nothing to draw (`symbol`: the one without bars)."""
        self.empty_reason = (reason, symbol)
        self.info.clear()
        self.legend.clear()
        self.empty.setText(self._empty_text(reason, symbol))
        self.plots.setCurrentWidget(self.empty)

    def _empty_text(self, reason: EmptyReason, symbol: str) -> str:
        if reason == "no_bars":
            return self.tr("%1 has no daily bars yet: there is nothing to draw. Refresh to fetch them.").replace(
                "%1", symbol
            )
        if reason == "no_symbol":
            return self.tr("No symbol to chart yet: type a code above, or add one to the watchlist.")
        return self.tr("Loading the chart…")

    def retranslate(self) -> None:
        """Write the chart's labels again in the current language (data and zoom stay)."""
        if self.empty_reason is not None:
            self.empty.setText(self._empty_text(*self.empty_reason))
        data = self.data
        if data is None:
            return
        self._set_zones(data.zones)
        self._set_orders(data)
        self._set_reports(data)
        self._show_bar(self.crosshair.index if self.crosshair.index is not None else len(data.bars) - 1)

    # ---- crosshair --------------------------------------------------------------------------------------------
    def describe(self, index: int) -> str:
        """The values of bar `index` as one line (date, OHLC, change, volume; the averages are `legend_text`)."""
        if self.data is None or not 0 <= index < len(self.data.bars):
            return ""
        bars = self.data.bars
        previous = bars.close[index - 1] if index else bars.open[index]
        change = (bars.close[index] / previous - 1) * 100 if previous else 0.0
        parts = [
            str(bars.days[index]),
            self.tr("O %1").replace("%1", f"{bars.open[index]:.2f}"),
            self.tr("H %1").replace("%1", f"{bars.high[index]:.2f}"),
            self.tr("L %1").replace("%1", f"{bars.low[index]:.2f}"),
            self.tr("C %1").replace("%1", f"{bars.close[index]:.2f}"),
            f"{change:+.2f}%",
            self.tr("Vol %1").replace("%1", volume_text(float(bars.volume[index]), engine_language())),
        ]
        return "  ".join(parts)

    def legend_text(self, index: int) -> str:
        """The moving averages at bar `index`, each in its curve's colour (rich text)."""
        if self.data is None or not 0 <= index < len(self.data.bars):
            return ""
        parts = [
            f'<span style="color:{self._average_color(window)}">MA{window} {values[index]:.2f}</span>'
            for window, values in self.data.averages.items()
            if not np.isnan(values[index])
        ]
        return "&nbsp;&nbsp;".join(parts)

    @staticmethod
    def _average_color(window: int) -> str:
        return str(AVERAGE_COLORS.get(window, QColor("gray")).name())

    def _show_bar(self, index: int) -> None:
        self.info.setText(self.describe(index))
        self.legend.setText(self.legend_text(index))
        self.bar_hovered.emit(index)
