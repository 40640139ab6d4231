"""What a chart draws, prepared off the GUI thread: bars as float arrays (x = bar index, so non-trading days leave no
gaps), moving averages, the zones, fills, open orders and reports; and the bucketing that keeps drawing cheap when
many bars share a pixel. No pyqtgraph here: this module is plain data and numpy."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
AVERAGES = (5, 20, 60)


@dataclass(frozen=True)
class Bars:
    """Daily bars on one price scale; `days` are numpy dates, the rest float64 arrays of the same length."""

    days: npt.NDArray[np.datetime64]
    open: FloatArray
    high: FloatArray
    low: FloatArray
    close: FloatArray
    volume: FloatArray

    def __len__(self) -> int:
        return len(self.close)

    def index_of(self, day: date) -> int:
        """The index of the last bar on or before `day` (0 when `day` precedes every bar)."""
        found = int(np.searchsorted(self.days, np.datetime64(day, "D"), side="right")) - 1
        return max(found, 0)

    def day(self, index: int) -> date:
        value: date = self.days[index].astype("datetime64[D]").item()
        return value


@dataclass(frozen=True)
class ZoneLevels:
    """The one zone algorithm's buy zone, sell zone and stop, exact (Decimal) as `stockbench zones` prints them."""

    buy_low: Decimal
    buy_high: Decimal
    sell_low: Decimal
    sell_high: Decimal
    stop: Decimal
    position: str
    as_of: date


@dataclass(frozen=True)
class FillMark:
    index: int
    price: float  # on the chart's price scale (adjusted like the bars)
    side: str
    qty: int
    raw_price: Decimal
    account: str


@dataclass(frozen=True)
class OrderLine:
    order_id: str
    side: str
    qty: int
    price: Decimal


@dataclass(frozen=True)
class ReportMark:
    index: int
    day: date
    action: str
    report_id: str


@dataclass(frozen=True)
class ChartData:
    """Everything one chart shows."""

    symbol: str
    name: str | None
    bars: Bars
    averages: dict[int, FloatArray] = field(default_factory=dict)
    zones: ZoneLevels | None = None
    zone_note: str = ""  # why there are no zones
    zone_flags: tuple[str, ...] = ()  # the zones' flags ("code: details"), each shown on its own line
    fills: tuple[FillMark, ...] = ()
    orders: tuple[OrderLine, ...] = ()
    reports: tuple[ReportMark, ...] = ()


def price_text(value: Decimal) -> str:
    """A price as the user reads it: exact, with at least two decimals and no trailing zeros beyond them."""
    text = f"{value:f}"
    if "." not in text:
        return f"{text}.00"
    whole, cents = text.split(".")
    return f"{whole}.{cents.rstrip('0').ljust(2, '0')}"


def moving_average(close: FloatArray, window: int) -> FloatArray:
    """The simple moving average of `close`; NaN during warm-up (never zero-filled)."""
    result = np.full(len(close), np.nan)
    if len(close) >= window:
        sums = np.cumsum(np.insert(close, 0, 0.0))
        result[window - 1 :] = (sums[window:] - sums[:-window]) / window
    return result


def averages_of(close: FloatArray, windows: Sequence[int] = AVERAGES) -> dict[int, FloatArray]:
    return {w: moving_average(close, w) for w in windows}


@dataclass(frozen=True)
class Buckets:
    """Consecutive bars merged `size` at a time: x is each bucket's middle; OHLC as one candle; volume the most."""

    x: FloatArray
    open: FloatArray
    high: FloatArray
    low: FloatArray
    close: FloatArray
    volume: FloatArray


def bucket(bars: Bars, start: int, stop: int, size: int) -> Buckets:
    """Bars `start`..`stop` (exclusive) merged `size` at a time (size 1 returns them as they are)."""
    start, stop = max(start, 0), min(stop, len(bars))
    if stop <= start:
        empty = np.empty(0)
        return Buckets(empty, empty, empty, empty, empty, empty)
    if size <= 1:
        sl = slice(start, stop)
        x = np.arange(start, stop, dtype=np.float64)
        return Buckets(x, bars.open[sl], bars.high[sl], bars.low[sl], bars.close[sl], bars.volume[sl])
    edges = np.arange(start, stop, size)
    ends = np.minimum(edges + size, stop)
    return Buckets(
        x=(edges + ends - 1) / 2.0,
        open=bars.open[edges],
        high=np.maximum.reduceat(bars.high[start:stop], edges - start),
        low=np.minimum.reduceat(bars.low[start:stop], edges - start),
        close=bars.close[ends - 1],
        volume=np.maximum.reduceat(bars.volume[start:stop], edges - start),
    )


def synthetic_bars(sessions: int, seed: int = 7, start: date = date(2016, 1, 4)) -> Bars:
    """A random-walk series of `sessions` weekday bars (benchmarks, tests and screenshots)."""
    rng = np.random.default_rng(seed)
    days = np.busday_offset(np.datetime64(start, "D"), np.arange(sessions), roll="forward")
    close = 20.0 * np.exp(np.cumsum(rng.normal(0.0003, 0.018, sessions)))
    open_ = np.concatenate(([close[0]], close[:-1])) * (1 + rng.normal(0, 0.004, sessions))
    spread = np.abs(rng.normal(0, 0.012, sessions)) * close
    high = np.maximum(open_, close) + spread
    low = np.minimum(open_, close) - spread
    volume = rng.integers(1_000_000, 9_000_000, sessions).astype(np.float64)
    return Bars(days, open_, high, low, close, volume)
