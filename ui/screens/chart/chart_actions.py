"""The chart screen's engine work, run in the background: bars (forward-adjusted onto the last session's price
scale, the scale the zones are computed on), moving averages, zones, fills, open orders and report dates."""

from __future__ import annotations

from datetime import date, timedelta

import numpy as np
import polars as pl

from stockbench.clock import MARKET_TZ, Market
from stockbench.errors import UserError
from stockbench.ledger.entries import Fill
from stockbench.workbench import Workbench
from ui.charts.chart_data import Bars, ChartData, FillMark, OrderLine, ReportMark, ZoneLevels, averages_of
from ui.errors import error_text

YEARS = 10
OPEN_STATUSES = ("open", "partially_filled")


def chart_data(bench: Workbench, symbol: str, years: int = YEARS) -> ChartData:
    """Everything the chart of `symbol` shows, on the last session's price scale."""
    instrument = bench.market.registry.instrument(symbol)
    symbol = instrument.symbol
    today = bench.analytics.today(instrument.market)
    start = today - timedelta(days=366 * years)
    adjusted = bench.data.bars(symbol, start, today, adjust="forward")
    raw = bench.data.bars(symbol, start, today)
    bars = _bars(adjusted)
    zones, note, flags = _zones(bench, symbol)
    return ChartData(
        symbol=symbol,
        name=instrument.name,
        bars=bars,
        averages=averages_of(bars.close),
        zones=zones,
        zone_note=note if zones is None else "",
        zone_flags=flags,
        fills=_fills(bench, symbol, bars, _factors(adjusted, raw)),
        orders=_orders(bench, symbol),
        reports=_reports(bench, symbol, bars, instrument.market),
    )


def _floats(frame: pl.DataFrame, column: str) -> np.ndarray:
    return frame.get_column(column).cast(pl.Float64).to_numpy()


def _bars(frame: pl.DataFrame) -> Bars:
    days = frame.get_column("day").to_numpy().astype("datetime64[D]")
    return Bars(days, *(_floats(frame, c) for c in ("open", "high", "low", "close", "volume")))


def _factors(adjusted: pl.DataFrame, raw: pl.DataFrame) -> dict[date, float]:
    """Adjusted close / raw close per day: how a price traded that day maps onto the chart's scale."""
    if adjusted.is_empty():
        return {}
    joined = adjusted.select("day", pl.col("close").cast(pl.Float64).alias("a")).join(
        raw.select("day", pl.col("close").cast(pl.Float64).alias("r")), on="day"
    )
    return {d: a / r for d, a, r in joined.iter_rows() if r}


def _zones(bench: Workbench, symbol: str) -> tuple[ZoneLevels | None, str, tuple[str, ...]]:
    try:
        found = bench.analytics.zones(symbol)
    except UserError as error:
        return None, error_text(error), ()
    levels = ZoneLevels(found.buy.low, found.buy.high, found.sell.low, found.sell.high, found.stop,
                        found.position, found.as_of)  # fmt: skip
    return levels, "", tuple(found.flags)


def _fills(bench: Workbench, symbol: str, bars: Bars, factors: dict[date, float]) -> tuple[FillMark, ...]:
    if not len(bars):
        return ()
    marks = []
    for account in bench.ledger.accounts():
        for entry, void in bench.ledger.history(account.name):
            if isinstance(entry, Fill) and entry.symbol == symbol and void is None:
                scaled = float(entry.price) * factors.get(entry.trade_date, 1.0)
                marks.append(FillMark(bars.index_of(entry.trade_date), scaled, entry.side, entry.qty, entry.price,
                                      account.name))  # fmt: skip
    return tuple(marks)


def _orders(bench: Workbench, symbol: str) -> tuple[OrderLine, ...]:
    return tuple(
        OrderLine(s.order.order_id, s.order.side, s.order.qty - s.filled, s.order.price)
        for s in bench.ledger.orders()
        if s.order.symbol == symbol and s.status in OPEN_STATUSES
    )


def _reports(bench: Workbench, symbol: str, bars: Bars, market: Market) -> tuple[ReportMark, ...]:
    if not len(bars):
        return ()
    marks = []
    for report in bench.research.reports(symbol):
        day = report.published_at.astimezone(MARKET_TZ[market]).date()
        marks.append(ReportMark(bars.index_of(day), day, report.action, report.report_id))
    return tuple(marks)


def default_symbol(bench: Workbench) -> str | None:
    """What the chart opens on: the top of the watchlist, else the workspace's first stock."""
    listed = bench.watchlist.symbols()
    if listed:
        return listed[0]
    stocks = bench.analytics.universe("all")
    return stocks[0] if stocks else None
