"""Issue 19.8 (the chart): the zone and stop labels over the candles, inside the plot and off each other, the
active period's button checked, report markers that stay readable when reports are close together, and the dark
theme reaching the chart at once."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QRectF, QSettings
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from stockbench.workbench import Workbench
from ui.charts.chart_data import Bars, ChartData, ReportMark, ZoneLevels, averages_of, synthetic_bars
from ui.charts.chart_widget import StockChartWidget
from ui.charts.zone_labels import stack
from ui.context import AppContext
from ui.main_window import MainWindow
from ui.screens.chart.chart_panel import ChartPanel
from ui.theme import apply_theme

WAIT_MS = 60_000
SYMBOL = "605903.SH"


def chart_on(qtbot: QtBot, data: ChartData) -> StockChartWidget:
    chart = StockChartWidget()
    qtbot.addWidget(chart)
    chart.resize(900, 500)
    chart.show()
    qtbot.waitExposed(chart)
    chart.set_data(data, visible=120)
    chart.graphics.grab()  # lays out the labels
    return chart


def synthetic(reports: tuple[ReportMark, ...] = ()) -> ChartData:
    bars = synthetic_bars(300)
    middle = Decimal(str(round(float(bars.close[-60:].mean()), 2)))  # inside the visible candles
    zones = ZoneLevels(middle - 2, middle - 1, middle + 1, middle + 2, middle, "flat", date(2017, 2, 1))
    return ChartData("SYN", "synthetic", bars, averages_of(bars.close), zones=zones, reports=reports)


def report(index: int, action: str = "buy", report_id: str = "r") -> ReportMark:
    return ReportMark(index, date(2017, 1, 1), action, f"{report_id}{index}")


def test_the_zone_labels_are_drawn_over_the_candles(qtbot: QtBot) -> None:
    """Found in the real window: the stop's label, then the buy zone's, were drawn under the candles."""
    bars = synthetic_bars(300)
    low, high = float(bars.low[-120:].min()), float(bars.high[-120:].max())

    def at(part: float) -> Decimal:  # a price `part` of the way up the candles in view
        return Decimal(str(round(low + part * (high - low), 2)))

    zones = ZoneLevels(at(0.3), at(0.4), at(0.7), at(0.8), at(0.1), "flat", date(2017, 2, 1))
    chart = chart_on(qtbot, ChartData("SYN", "synthetic", bars, averages_of(bars.close), zones=zones))
    scene = chart.graphics.scene()
    assert sorted(chart.zone_labels.items) == ["buy", "sell", "stop"]
    for kind, label in chart.zone_labels.items.items():
        stacked = scene.items(label.sceneBoundingRect().center())  # topmost first
        assert chart.candles in stacked and label in stacked, kind
        assert stacked.index(label) < stacked.index(chart.candles), kind
        assert label.fill.color().alpha() > 200, kind  # on a backing: read over the candles, not through them
    assert all(band.zValue() < chart.candles.zValue() for band in chart.zone_bands)  # the bands stay beneath


def test_an_open_orders_label_is_read_over_the_candles_in_either_theme(qtbot: QtBot) -> None:
    """Found in the real window (the demo, 1366x768): "Buy 100 @ 353.50" drew straight over the candles inside
    the buy zone's band, hard to read; it now has the zone labels' backing, and follows a theme switch."""
    from dataclasses import replace

    from ui.charts.chart_data import OrderLine

    data = synthetic()
    assert data.zones is not None
    price = data.zones.buy_high.quantize(Decimal("0.01"))  # in the band, among the candles in view
    chart = chart_on(qtbot, replace(data, orders=(OrderLine("o1", "buy", 100, price),)))
    (line,) = chart.order_lines
    label = line.label
    assert label.toPlainText() == f"Buy 100 @ {price}"
    assert line.zValue() > chart.candles.zValue() and label.parentItem() is line  # drawn over the candles
    assert label.fill.color().alpha() > 200 and label.fill.color().lightness() > 200
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, "dark")
    try:
        chart.apply_theme()
        assert label.fill.color().alpha() > 200 and label.fill.color().lightness() < 80
    finally:
        apply_theme(app, "light")


def labels_in_plot(chart: StockChartWidget) -> list[QRectF]:
    """The zone labels' rectangles in the scene, each checked to lie inside the price plot."""
    chart.graphics.grab()
    plot = chart.price_plot.vb.sceneBoundingRect()
    rects = [label.sceneBoundingRect() for label in chart.zone_labels.items.values()]
    for rect in rects:
        assert plot.contains(rect), (rect, plot)
    return rects


def apart(rects: list[QRectF]) -> None:
    for number, rect in enumerate(rects):
        for other in rects[number + 1 :]:
            assert not rect.intersects(other), (rect, other)


def test_zone_labels_stay_inside_the_plot_and_off_each_other(qtbot: QtBot) -> None:
    """Found in the real window: zone labels lay on each other, and vanished at the top when a zone lay above the
    candles. Here the sell zone lies past the top of the view, the buy zone and the stop past the bottom, close
    together; then all three within a few cents in the middle of the candles."""
    bars = synthetic_bars(300)
    top = Decimal(str(round(float(bars.high.max()), 2)))
    bottom = Decimal(str(round(float(bars.low.min()), 2)))
    far = ZoneLevels(bottom - 3, bottom - 2, top + 5, top + 9, bottom - Decimal("2.5"), "flat", date(2017, 2, 1))
    chart = chart_on(qtbot, ChartData("SYN", "synthetic", bars, averages_of(bars.close), zones=far))
    apart(labels_in_plot(chart))
    texts = {kind: label.toPlainText() for kind, label in chart.zone_labels.items.items()}
    assert texts["sell"].startswith("▲") and texts["buy"].startswith("▼") and texts["stop"].startswith("▼")
    chart.show_last(30)  # the view moves (the price axis fits the bars in view): the labels follow
    apart(labels_in_plot(chart))
    middle = Decimal(str(round(float(bars.close[-20:].mean()), 2)))
    close = ZoneLevels(middle - Decimal("0.02"), middle, middle + Decimal("0.01"), middle + Decimal("0.03"),
                       middle - Decimal("0.01"), "flat", date(2017, 2, 1))  # fmt: skip
    chart.set_data(ChartData("SYN", "synthetic", bars, averages_of(bars.close), zones=close), visible=120)
    apart(labels_in_plot(chart))
    assert not any(label.toPlainText().startswith(("▲", "▼")) for label in chart.zone_labels.items.values())


@pytest.mark.parametrize(
    ("wanted", "heights", "expected"),
    [
        ([50.0, 200.0], [20.0, 20.0], [50.0, 200.0]),  # apart and inside: left where they are
        ([100.0, 105.0], [20.0, 20.0], [100.0, 122.0]),  # too close: the lower one steps down
        ([-40.0, 5.0], [20.0, 20.0], [10.0, 32.0]),  # past the top: brought inside, then apart
        ([290.0, 400.0], [20.0, 20.0], [268.0, 290.0]),  # past the bottom: inside, the upper one steps up
    ],
)
def test_stacked_labels_lie_inside_and_apart(wanted: list[float], heights: list[float], expected: list[float]) -> None:
    assert stack(wanted, heights, top=0.0, bottom=300.0) == pytest.approx(expected)


def test_markers_on_adjacent_days_do_not_overlap(qtbot: QtBot) -> None:
    chart = chart_on(qtbot, synthetic((report(250, "buy"), report(251, "sell"), report(252, "hold"))))
    labels = [line.label for line in chart.report_lines]
    assert len(labels) == 3
    rects = [label.sceneBoundingRect() for label in labels]
    for number, rect in enumerate(rects):
        for other in rects[number + 1 :]:
            assert not rect.intersects(other), (rect, other)


def test_reports_on_one_day_are_merged_with_a_count(qtbot: QtBot) -> None:
    chart = chart_on(qtbot, synthetic((report(250, "buy", "a"), report(250, "buy", "b"), report(200, "sell"))))
    assert len(chart.report_lines) == 2
    texts = sorted(line.label.toPlainText() for line in chart.report_lines)
    assert any(text.endswith("×2") for text in texts) and not all(text.endswith("×2") for text in texts)


@pytest.fixture
def errors(ctx: AppContext) -> Iterator[list[tuple[str, str]]]:
    shown: list[tuple[str, str]] = []
    ctx.presenter.error_presented.connect(lambda title, text: shown.append((title, text)))
    yield shown
    assert shown == [], "the panel presented errors"


def test_the_active_period_button_is_checked(ctx: AppContext, qtbot: QtBot, errors: list[object]) -> None:
    panel = ChartPanel(ctx)
    qtbot.addWidget(panel)
    panel.resize(1000, 600)
    with qtbot.waitSignal(panel.loaded, timeout=WAIT_MS):
        panel.show_symbol(SYMBOL)
    checked = [count for count, button in panel.range_buttons.items() if button.isChecked()]
    assert checked == [120]  # a symbol opens on six months, and says so
    low, high = panel.chart.price_plot.vb.viewRange()[0]
    assert round(high - low) == 121
    panel.range_buttons[250].click()
    assert [c for c, b in panel.range_buttons.items() if b.isChecked()] == [250]
    panel.chart.price_plot.vb.sigRangeChangedManually.emit([True, False])  # the user zoomed: no period is active
    assert not any(button.isChecked() for button in panel.range_buttons.values())


def test_a_theme_switch_changes_the_chart_at_once(qtbot: QtBot, demo_home: Path) -> None:
    window = MainWindow(settings=QSettings())
    window.presenter.interactive = False
    qtbot.addWidget(window)
    window.show()
    bench = Workbench.open(demo_home, command="tests")
    with qtbot.waitSignal(window.workspace_attached, timeout=10_000):
        window.attach_bench(bench)
    chart = window.panels["chart"].chart  # type: ignore[attr-defined]
    try:
        qtbot.waitUntil(lambda: "stop" in chart.zone_labels.items, timeout=WAIT_MS)  # the first symbol's chart
        window.set_theme("dark")
        assert chart.graphics.backgroundBrush().color().lightness() < 80  # at once, not after a restart
        assert chart.zone_labels["stop"].fill.color().lightness() < 80  # the labels' backing too
        assert chart.price_plot.getAxis("right").textPen().color().lightness() > 180
        assert chart.crosshair.vertical.pen.color().lightness() > 180
        window.set_theme("light")
        assert chart.graphics.backgroundBrush().color().lightness() > 200
    finally:
        window.shutdown()


def test_a_chart_made_in_the_dark_theme_starts_dark(qtbot: QtBot) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, "dark")
    try:
        chart = chart_on(qtbot, synthetic())
        assert chart.graphics.backgroundBrush().color().lightness() < 80
        assert chart.zone_labels["buy"].fill.color().lightness() < 80
    finally:
        apply_theme(app, "light")


def no_bars() -> Bars:
    empty = np.empty(0, dtype=np.float64)
    return Bars(np.empty(0, dtype="datetime64[D]"), empty, empty, empty, empty, empty)


def test_a_chart_without_bars_says_so_instead_of_empty_axes(qtbot: QtBot) -> None:
    """Found in the real window after a reopen: before the bars loaded, the chart showed axes from 0 to 1 and a volume
    axis of 0s and 1s. A chart with no bars says why in the plots' place; with bars, the plots come back."""
    chart = StockChartWidget()
    qtbot.addWidget(chart)
    chart.resize(900, 500)
    chart.show()
    qtbot.waitExposed(chart)
    assert chart.empty.isVisible() and not chart.graphics.isVisible()
    assert chart.empty.text() == "Loading the chart…"
    bars = no_bars()
    chart.set_data(ChartData("920999.BJ", "none", bars, averages_of(bars.close)))
    assert chart.empty.isVisible() and not chart.graphics.isVisible()
    assert "920999.BJ has no daily bars yet" in chart.empty.text()
    assert chart.info.text() == "" and chart.legend.text() == ""
    chart.set_data(synthetic(), visible=120)
    assert chart.graphics.isVisible() and not chart.empty.isVisible()
    assert chart.info.text() and "MA5" in chart.legend.text()


def test_the_chart_screen_says_it_is_loading_until_its_bars_come(
    ctx: AppContext, qtbot: QtBot, errors: list[object]
) -> None:
    panel = ChartPanel(ctx)
    qtbot.addWidget(panel)
    panel.resize(1000, 600)
    panel.show()
    qtbot.waitExposed(panel)
    assert panel.chart.empty.isVisible() and not panel.chart.graphics.isVisible()  # the reopen: no bars yet
    with qtbot.waitSignal(panel.loaded, timeout=WAIT_MS):
        panel.show_symbol(SYMBOL)
    assert panel.chart.graphics.isVisible() and not panel.chart.empty.isVisible()
