"""The chart on the demo market: zone bands at exactly the prices of the one zone algorithm, fills and open orders
drawn where they belong, the candle colour switch (checked on rendered pixels), the crosshair's values, and ten
years of daily bars drawn merged to the pixel width."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime
from decimal import Decimal

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

from stockbench.clock import MARKET_TZ
from stockbench.ledger.entries import Order
from stockbench.ledger.validation import FillDraft
from ui.charts.chart_data import Bars, ChartData, averages_of, synthetic_bars
from ui.charts.chart_widget import StockChartWidget
from ui.charts.palette import CANDLE_SETTING, GREEN, RED
from ui.context import AppContext
from ui.screens.chart.chart_panel import ChartPanel

CN = MARKET_TZ["CN"]
WAIT_MS = 60_000  # generous: only a failing test waits this long (first engine calls import slowly)
SYMBOL = "605903.SH"


@pytest.fixture
def errors(ctx: AppContext) -> Iterator[list[tuple[str, str]]]:
    shown: list[tuple[str, str]] = []
    ctx.presenter.error_presented.connect(lambda title, text: shown.append((title, text)))
    yield shown
    assert shown == [], "the panel presented errors"


def _loaded(ctx: AppContext, qtbot: QtBot, symbol: str = SYMBOL) -> ChartPanel:
    panel = ChartPanel(ctx)
    qtbot.addWidget(panel)
    panel.resize(1000, 600)
    with qtbot.waitSignal(panel.loaded, timeout=WAIT_MS, check_params_cb=lambda s: s == symbol):
        panel.show_symbol(symbol)
    return panel


def test_zone_bands_and_stop_match_the_zone_algorithm(ctx: AppContext, qtbot: QtBot, errors: list[object]) -> None:
    panel = _loaded(ctx, qtbot)
    zones = ctx.bench.analytics.zones(SYMBOL)  # what `stockbench zones 605903.SH` prints
    bands = {band.kind: band for band in panel.chart.zone_bands}
    assert (bands["buy"].low, bands["buy"].high) == (zones.buy.low, zones.buy.high)
    assert (bands["sell"].low, bands["sell"].high) == (zones.sell.low, zones.sell.high)
    assert bands["buy"].getRegion() == pytest.approx((float(zones.buy.low), float(zones.buy.high)))
    assert bands["sell"].getRegion() == pytest.approx((float(zones.sell.low), float(zones.sell.high)))
    assert panel.chart.stop_line is not None and panel.chart.stop_line.price == zones.stop
    assert panel.chart.stop_line.value() == pytest.approx(float(zones.stop))
    assert str(zones.buy.low) in panel.zone_label.text() and str(zones.stop) in panel.zone_label.text()
    bars = ctx.bench.data.bars(SYMBOL)
    assert len(panel.chart.data.bars) == bars.height  # type: ignore[union-attr]
    assert panel.chart.data.bars.close[-1] == pytest.approx(float(bars["close"][-1]))  # type: ignore[union-attr]


def test_fills_and_open_orders_are_drawn_where_they_belong(ctx: AppContext, qtbot: QtBot, errors: list[object]) -> None:
    ledger = ctx.bench.ledger
    ledger.add_account("main", "CNY")
    ledger.cash("main", "deposit", Decimal("100000"), at=datetime(2026, 11, 2, 9, 0, tzinfo=CN))
    ledger.record_fill(FillDraft("main", SYMBOL, "buy", 200, Decimal("351.64"), datetime(2026, 11, 26, 14, tzinfo=CN)))
    placed = datetime(2026, 11, 27, 15, 30, tzinfo=CN)
    ledger.add_order(Order("", "main", SYMBOL, "sell", 100, Decimal("380.00"), placed))
    panel = _loaded(ctx, qtbot)
    data = panel.chart.data
    assert data is not None
    (fill,) = data.fills
    assert data.bars.day(fill.index).isoformat() == "2026-11-26"
    assert (fill.side, fill.qty, fill.raw_price) == ("buy", 200, Decimal("351.64"))
    spots = panel.chart.fills.data
    assert len(spots) == 1 and spots[0]["x"] == fill.index and spots[0]["y"] == pytest.approx(fill.price)
    (line,) = panel.chart.order_lines
    assert line.price == Decimal("380.00") and line.value() == pytest.approx(380.0)


def _count(image: QImage, color: QColor) -> int:
    """How many pixels of `image` are exactly `color`."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB32)
    pixels = np.frombuffer(rgb.constBits(), dtype=np.uint32).reshape(rgb.height(), rgb.bytesPerLine() // 4)
    return int(np.count_nonzero((pixels[:, : rgb.width()] & 0xFFFFFF) == (color.rgb() & 0xFFFFFF)))


def _rising(sessions: int) -> Bars:
    close = np.linspace(10.0, 20.0, sessions)
    days = np.busday_offset(np.datetime64("2024-01-02"), np.arange(sessions), roll="forward")
    return Bars(days, close - 0.1, close + 0.2, close - 0.2, close, np.full(sessions, 1e6))


def test_candle_colours_follow_the_setting(ctx: AppContext, qtbot: QtBot, errors: list[object]) -> None:
    panel = _loaded(ctx, qtbot)
    assert panel.chart.candles.up_color == RED and panel.chart.candles.down_color == GREEN  # the default
    chart = StockChartWidget()
    qtbot.addWidget(chart)
    chart.resize(600, 400)
    chart.set_data(ChartData("RISE", None, _rising(60)))  # every bar closes above its open
    chart.set_scheme("red_up")
    image = chart.graphics.grab().toImage()
    assert _count(image, RED) > 50 and _count(image, GREEN) == 0
    chart.set_scheme("green_up")
    image = chart.graphics.grab().toImage()
    assert _count(image, GREEN) > 50 and _count(image, RED) == 0
    ctx.settings.setValue(CANDLE_SETTING, "green_up")
    with qtbot.waitSignal(panel.loaded, timeout=WAIT_MS):
        panel.refresh()  # what the main window calls when the setting changes
    assert panel.chart.candles.up_color == GREEN and panel.chart.volume.up_color == GREEN


def test_crosshair_shows_the_bar_under_it(ctx: AppContext, qtbot: QtBot, errors: list[object]) -> None:
    panel = _loaded(ctx, qtbot)
    data = panel.chart.data
    assert data is not None
    index = len(data.bars) - 2
    with qtbot.waitSignal(panel.chart.bar_hovered, timeout=1000) as hovered:
        panel.chart.crosshair.move_to(index + 0.3, 355.0)
    assert hovered.args == [index]
    text = panel.chart.info.text()
    assert str(data.bars.days[index]) in text and f"{data.bars.close[index]:.2f}" in text
    ma20 = data.averages[20][index]
    assert f"MA20 {ma20:.2f}" in panel.chart.legend.text() and ma20 == pytest.approx(
        float(np.mean(data.bars.close[index - 19 : index + 1]))
    )


def test_ten_years_of_daily_bars_render_merged_to_the_pixel_width(qtbot: QtBot) -> None:
    bars = synthetic_bars(2430)  # ten years of sessions
    data = ChartData("SYN", "synthetic", bars, averages_of(bars.close))
    chart = StockChartWidget()
    qtbot.addWidget(chart)
    chart.resize(1000, 600)
    chart.show()
    qtbot.waitExposed(chart)
    started = time.perf_counter()
    chart.set_data(data, visible=len(bars))
    chart.graphics.grab()
    elapsed = time.perf_counter() - started
    stats = chart.candles.last_paint
    assert (stats.first, stats.last) == (0, len(bars))
    assert stats.bucket > 1 and stats.drawn < chart.width()  # merged: never more strokes than pixels
    assert elapsed < 2.0  # loose here; the shell's benchmark measures the real frame times
    chart.show_last(60)
    chart.graphics.grab()
    assert chart.candles.last_paint.bucket == 1 and chart.candles.last_paint.drawn <= 64


class _Paints(QObject):
    """Counts the paint events of a widget."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        self.count += event.type() == QEvent.Type.Paint
        return False


def test_a_pan_fits_price_and_volume_to_the_bars_in_view_and_paints_once(qtbot: QtBot) -> None:
    """pyqtgraph found the bars in view only while painting, and the y range fitted to them asked for a second paint
    of every pan or zoom step (the first on the old scale; bench/ui_stall.py: twice the painting while research
    runs). The chart has them found as x moves, so the one paint fits them."""
    bars = synthetic_bars(600)
    chart = StockChartWidget()
    qtbot.addWidget(chart)
    chart.resize(1000, 600)
    chart.show()
    qtbot.waitExposed(chart)
    data = ChartData("SYN", "synthetic", bars, averages_of(bars.close))
    chart.set_data(data, visible=60)
    qtbot.wait(50)
    paints = _Paints()
    chart.graphics.viewport().installEventFilter(paints)
    scales = set()
    for step in (-1.0, -5.0, -5.0, 3.0, -10.0, -5.0):  # a drag's steps: each moves the lowest low or highest high
        paints.count = 0
        chart.price_plot.vb.translateBy(x=step)
        qtbot.wait(100)
        assert paints.count == 1  # one paint, and it shows the bars in view on their own scale:
        (x0, x1), (y0, y1) = chart.price_plot.vb.viewRange()
        shown = slice(max(0, int(np.ceil(x0))), int(np.floor(x1)) + 1)
        lines = [bars.low[shown], bars.high[shown], *(line[shown] for line in data.averages.values())]
        low, high = min(float(np.nanmin(v)) for v in lines), max(float(np.nanmax(v)) for v in lines)
        assert y0 <= low and y1 >= high and (y1 - y0) < 1.3 * (high - low)
        assert chart.volume_plot.vb.viewRange()[1][1] >= float(bars.volume[shown].max())
        scales.add((round(y0, 6), round(y1, 6)))
    assert len(scales) == 6  # every step changed the price scale


@pytest.mark.parametrize(
    ("value", "zh", "en"),
    [(12_345_678, "1235万", "12.3M"), (350_000_000, "3.5亿", "350M"),
     (8_500, "8500", "8.5K"), (0, "0", "0")],
)  # fmt: skip
def test_the_volume_axis_reads_wan_and_yi_not_1e7(value: float, zh: str, en: str) -> None:
    """Issue 19.8: the volume axis read "1e+07"."""
    from ui.charts.chart_widget import volume_text

    assert (volume_text(value, "zh"), volume_text(value, "en")) == (zh, en)


def test_zone_flags_are_said_in_the_interface_language(qtbot: QtBot) -> None:
    """Issue 19.3: the chart's note read "ex_rights: 2026-06-18 (factor 0.981234); earlier bars adjusted ..." and
    "closed_limit_up: ..." inside the Chinese interface."""
    from ui.i18n.language import Translations
    from ui.screens.chart.chart_panel import flag_text

    flag = "ex_rights: 2026-06-18 (factor 0.981234); earlier bars adjusted onto the 2026-11-27 scale"
    assert flag_text(flag) == "Ex-rights on 2026-06-18: earlier bars are adjusted onto today's scale"
    translations = Translations()
    try:
        assert translations.install("zh_CN")
        shown = flag_text(flag) + flag_text("closed_limit_up: 2026-11-27 closed at the limit-up price 11.00; buying")
        assert "2026-06-18" in shown and "2026-11-27" in shown
        assert "ex_rights" not in shown and "closed" not in shown and "factor" not in shown
    finally:
        translations.install("en")
        translations.uninstall()


def test_the_chart_widget_is_built_once_its_modules_are_imported_off_the_gui_thread(
    ctx: AppContext, qtbot: QtBot, errors: list[object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the chart's modules (pyqtgraph, numpy: most of a second) are not imported yet, the panel shows its bar
    and a placeholder at once, imports them on a worker thread, then builds the chart and loads what was asked for
    meanwhile (a reopened window is usable before the chart is)."""
    from ui.screens.chart import chart_panel

    monkeypatch.setattr(chart_panel, "chart_modules_loaded", lambda: False)
    panel = ChartPanel(ctx)
    qtbot.addWidget(panel)
    assert panel.chart is None and panel.placeholder.text() and panel.analyze_button.text()
    panel.show_symbol(SYMBOL)  # asked for before the widget exists: remembered, loaded once it is built
    with qtbot.waitSignal(panel.loaded, timeout=WAIT_MS, check_params_cb=lambda s: s == SYMBOL):
        pass
    assert isinstance(panel.chart, StockChartWidget) and panel.chart.data is not None
    assert panel.chart.data.symbol == SYMBOL and not panel.placeholder.isVisibleTo(panel)


def test_the_value_line_reads_volume_in_wan_and_yi(qtbot: QtBot) -> None:
    """Found on main: the crosshair's value line read "量 15,649,914"; it reads 万/亿 in Chinese (as the volume axis
    does) and K/M in English."""
    from ui.i18n.language import Translations

    bars = synthetic_bars(30)
    bars.volume[-1] = 15_649_914
    chart = StockChartWidget()
    qtbot.addWidget(chart)
    chart.set_data(ChartData("SYN", "synthetic", bars, averages_of(bars.close)), visible=30)
    assert chart.describe(29).endswith("  Vol 15.6M")
    translations = Translations()
    try:
        assert translations.install("zh_CN")
        assert chart.describe(29).endswith("  量 1565万")
    finally:
        translations.install("en")
        translations.uninstall()
