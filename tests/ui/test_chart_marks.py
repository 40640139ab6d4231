"""Issue 19.8 (the chart): the stop's label over the candles, the active period's button checked, report markers
that stay readable when reports are close together, and the dark theme reaching the chart at once."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from stockbench.workbench import Workbench
from ui.charts.chart_data import ChartData, ReportMark, ZoneLevels, averages_of, synthetic_bars
from ui.charts.chart_widget import StockChartWidget
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


def test_the_stop_label_is_drawn_over_the_candles(qtbot: QtBot) -> None:
    chart = chart_on(qtbot, synthetic())
    assert chart.stop_line is not None
    label = chart.stop_line.label
    scene = chart.graphics.scene()
    stacked = scene.items(label.sceneBoundingRect().center())  # topmost first
    assert chart.candles in stacked and label in stacked
    assert stacked.index(label) < stacked.index(chart.candles)
    assert all(band.zValue() < chart.candles.zValue() for band in chart.zone_bands)  # the bands stay beneath


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
        window.set_theme("dark")
        assert chart.graphics.backgroundBrush().color().lightness() < 80  # at once, not after a restart
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
    finally:
        apply_theme(app, "light")
