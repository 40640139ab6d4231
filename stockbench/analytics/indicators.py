"""Technical indicators over a bar frame of many symbols at once, vectorised with polars (each symbol on its own).

Every indicator reads only its own symbol's rows up to the row's day (nothing looks ahead), and warm-up rows are
null, never zero-filled. Recursive indicators (EMA, MACD, RSI, ATR, KDJ, OBV, drawdown, relative strength) depend
on where the frame starts, as in every charting package: give them history (a year at least) before the day of
interest. Where conventions differ, these are the ones used, and why:

- MA n: simple mean of the last n closes (warm-up n-1 rows). EMA n: alpha = 2/(n+1), seeded as TA-Lib seeds it:
  the first value (row n-1) is the simple mean of the first n closes. Chinese charting software (通达信 EMA)
  seeds with the first close instead; the two converge as (1-alpha)^t.
- MACD (12, 26, 9): DIF = EMA12 - EMA26, DEA = EMA9 of DIF, and the A-share bar (MACD柱) = 2 x (DIF - DEA).
  TA-Lib's macdhist is DIF - DEA, half the A-share bar. The seeding is TA-Lib's MACD (so it matches
  talib.MACD from its first value): the slow EMA is EMA26 (row 25), the fast EMA inside MACD is seeded at the
  same row 25 with the mean of closes 14..25 (not the mean of the first 12, as the ema12 column is), so
  `macd_dif` differs from `ema12 - ema26` by a seed difference that decays as (11/13)^t (below 1e-9 relative
  after about 150 sessions); DEA is seeded at row 33 with the mean of DIF 25..33. DIF starts at row 25,
  DEA and the bar at row 33.
- RSI n (6, 12, 24): Wilder's smoothing, seeded as TA-Lib does: the mean gain and mean loss of the first n
  changes (row n), then avg = avg + (x - avg)/n. The common Chinese formula SMA(MAX(C-LC,0),n,1) /
  SMA(ABS(C-LC),n,1) x 100 is the same recursion (SMA(X,n,1) is Wilder's alpha = 1/n) seeded with the first
  change instead. When the mean gain and the mean loss are both zero (no movement at all), RSI is 50, the
  middle; TA-Lib reports 0 there (also whenever their sum is below 1e-8).
- KDJ (9, 3, 3), the Chinese convention: RSV = (C - LLV(L,9)) / (HHV(H,9) - LLV(L,9)) x 100 (lows and highs,
  not closes), K = SMA(RSV,3,1) = (2/3)K[-1] + (1/3)RSV, D = SMA(K,3,1), J = 3K - 2D, with K[-1] = D[-1] = 50
  before the first RSV (row 8). When HHV = LLV (nine sessions at one price) RSV is 50, the middle of an empty
  range; TA-Lib's STOCHF reports 0 there. TA-Lib's STOCH smooths with moving averages and has no J: only the
  RSV (= STOCHF fastk) is shared with it.
- BOLL (20, 2): mid = MA20, bands = mid +/- 2 x the POPULATION standard deviation of the last 20 closes, as
  TA-Lib's BBANDS; 通达信 and 同花顺 use STD, the sample deviation (n-1), so their bands are sqrt(20/19),
  about 2.6%, wider apart.
- ATR 14: true range max(H-L, |H-C[-1]|, |L-C[-1]|) from row 1, Wilder's smoothing seeded with the mean of the
  first 14 true ranges (row 14), as TA-Lib; some Chinese software shows MA(TR,14) instead.
- OBV: TA-Lib's: the first row is that day's volume, then + volume on an up close, - volume on a down close,
  unchanged on an unchanged close (Chinese software starts at 0; the two differ by a constant).
- vol_ratio (量比) on daily bars: the day's volume / the mean volume of the previous 5 sessions (null when that
  mean is 0). The intraday 量比 scales the 5-day mean per minute to the minutes traded so far; at the close it
  is this value.
- turnover_pct: the frame's turnover in percent of the float (from the data source), passed through.
- high_52w / low_52w: the highest high and lowest low of the last 250 sessions, today included (null until 250
  sessions exist). drawdown: close / the highest close so far - 1 (0 at a new peak, negative below it).
- rs_<benchmark>: the symbol's close over the benchmark's close on the same day, divided by that ratio on the
  symbol's first day with both (1.0 there); rs_<benchmark>_chg20 / _chg60: its change over 20 / 60 sessions,
  (1 + the symbol's return) / (1 + the benchmark's return) - 1. Null on days the benchmark has no close.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

import polars as pl

from stockbench.errors import InvalidInput
from stockbench.messages import user_error

MA_PERIODS = (5, 10, 20, 60, 120, 250)
EMA_PERIODS = (5, 10, 12, 20, 26, 60, 120, 250)
MACD_FAST, MACD_SLOW, MACD_SIGNAL = 12, 26, 9
RSI_PERIODS = (6, 12, 24)
KDJ_N, KDJ_M1, KDJ_M2, KDJ_SEED = 9, 3, 3, 50.0
BOLL_N, BOLL_K = 20, 2.0
ATR_N = 14
VOL_RATIO_N = 5
YEAR_SESSIONS = 250
RS_CHANGES = (20, 60)
NEUTRAL = 50.0  # RSI and RSV when there is no movement or no range: the middle

INDICATOR_COLUMNS = (
    *(f"ma{n}" for n in MA_PERIODS),
    *(f"ema{n}" for n in EMA_PERIODS),
    "macd_dif",
    "macd_dea",
    "macd_bar",
    *(f"rsi{n}" for n in RSI_PERIODS),
    "kdj_rsv",
    "kdj_k",
    "kdj_d",
    "kdj_j",
    "boll_mid",
    "boll_up",
    "boll_low",
    "atr14",
    "obv",
    "vol_ratio",
    "turnover_pct",
    "high_52w",
    "low_52w",
    "drawdown",
)
_NEEDED = ("symbol", "day", "open", "high", "low", "close", "volume")
_BY = "_g"


def _seeded(x: pl.Expr, first: int, seed: pl.Expr, alpha: float) -> pl.Expr:
    """y[first] = seed, then y = y[-1] + alpha (x - y[-1]), per symbol; null before row `first`.

    `seed` must not hold a window expression (`over`): seeds needing one are columns of an earlier stage.
    """
    start = pl.when(pl.col("_i") == first).then(seed).when(pl.col("_i") > first).then(x)
    return start.ewm_mean(alpha=alpha, adjust=False, ignore_nulls=True).over(_BY)


def _trailing_mean(running_sum: str, n: int) -> pl.Expr:
    """The mean of the last n values from a per-symbol running sum (null for each symbol's first n-1 rows).

    Differences of running sums cost one pass for every window length; their rounding error is about
    1e-16 x (running sum / window sum), far below 1e-9 even over decades of bars.
    """
    total, row = pl.col(running_sum), pl.col("_i")
    return pl.when(row >= n).then(total - total.shift(n)).when(row == n - 1).then(total) / n


def _first_mean(column: str, offset: int, n: int) -> pl.Expr:
    """The mean of rows offset .. offset+n-1 of each symbol, on every row of the symbol (the seed of a recursion)."""
    return pl.col(column).slice(offset, n).mean().over(_BY)


def _within(n: int, values: pl.Expr) -> pl.Expr:
    """`values` computed over the whole column, kept from each symbol's row n on. Exact for operations without
    arithmetic across rows (shift, min, max): a window reaching into the previous symbol is one thrown away."""
    return pl.when(pl.col("_i") >= n).then(values)


def _ordered(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` sorted by (symbol, day), refusing a repeated (symbol, day)."""
    missing = [c for c in _NEEDED if c not in frame.columns]
    if missing:
        raise user_error(InvalidInput, "frame_lacks", columns=", ".join(missing), module="stockbench.analytics.frames")
    same = pl.col("symbol") == pl.col("symbol").shift(1)
    disordered = (pl.col("symbol") < pl.col("symbol").shift(1)) | (same & (pl.col("day") <= pl.col("day").shift(1)))
    if frame.select(disordered.any()).item():
        frame = frame.sort("symbol", "day")
        if frame.select((same & (pl.col("day") == pl.col("day").shift(1))).any()).item():
            raise user_error(InvalidInput, "frame_repeats_day")
    return frame


def _steps() -> list[pl.Expr]:
    """Row-wise inputs: the daily gain and loss, the true range and the OBV step."""
    close, prev = pl.col("close"), pl.col("_prev")
    up_down = pl.when(close > prev).then(1.0).when(close < prev).then(-1.0).otherwise(0.0)
    # max(H - L, |H - C[-1]|, |L - C[-1]|) is the one subtraction max(H, C[-1]) - min(L, C[-1]), bit for bit
    true_range = pl.max_horizontal(pl.col("high"), prev) - pl.min_horizontal(pl.col("low"), prev)
    return [
        (close - prev).clip(lower_bound=0.0).alias("_gain"),
        (prev - close).clip(lower_bound=0.0).alias("_loss"),
        pl.when(prev.is_not_null()).then(true_range).alias("_tr"),
        pl.when(pl.col("_i") == 0).then(pl.col("volume")).otherwise(up_down * pl.col("volume")).alias("_obv_step"),
    ]


def _windows() -> list[pl.Expr]:
    """Moving windows, running values, and the means that seed the recursions."""
    close, volumes = pl.col("close"), pl.col("_volume_sum")
    prior = pl.when(pl.col("_i") > VOL_RATIO_N).then(volumes.shift(1) - volumes.shift(VOL_RATIO_N + 1))
    prior_volume = prior.when(pl.col("_i") == VOL_RATIO_N).then(volumes.shift(1)) / VOL_RATIO_N
    return [
        *(_trailing_mean("_close_sum", n).alias(f"ma{n}") for n in MA_PERIODS),
        *(_first_mean("close", 0, n).alias(f"_ema_seed{n}") for n in EMA_PERIODS if n not in MA_PERIODS),
        _first_mean("close", MACD_SLOW - MACD_FAST, MACD_FAST).alias("_fast_seed"),
        *(_first_mean(f"_{x}", 1, n).alias(f"_{x}_seed{n}") for n in RSI_PERIODS for x in ("gain", "loss")),
        _first_mean("_tr", 1, ATR_N).alias("_tr_seed"),
        close.rolling_std(BOLL_N, ddof=0).over(_BY).alias("_sd"),
        _within(KDJ_N - 1, pl.col("low").rolling_min(KDJ_N)).alias("_llv"),
        _within(KDJ_N - 1, pl.col("high").rolling_max(KDJ_N)).alias("_hhv"),
        _within(YEAR_SESSIONS - 1, pl.col("high").rolling_max(YEAR_SESSIONS)).alias("high_52w"),
        _within(YEAR_SESSIONS - 1, pl.col("low").rolling_min(YEAR_SESSIONS)).alias("low_52w"),
        pl.col("_obv_step").cum_sum().over(_BY).alias("obv"),
        pl.when(prior_volume > 0).then(pl.col("volume") / prior_volume).alias("vol_ratio"),
        (close / close.cum_max().over(_BY) - 1.0).alias("drawdown"),
    ]


def _rsv() -> pl.Expr:
    span = pl.col("_hhv") - pl.col("_llv")
    inside = pl.when(span > 0).then((pl.col("close") - pl.col("_llv")) / span * 100.0).otherwise(NEUTRAL)
    return pl.when(span.is_not_null()).then(inside)


def _ema_seed(n: int) -> pl.Expr:
    return pl.col(f"ma{n}" if n in MA_PERIODS else f"_ema_seed{n}")


def _smoothed() -> list[pl.Expr]:
    """The recursions seeded from the window columns: EMAs, MACD's fast EMA, RSI means, ATR; and RSV."""
    close = pl.col("close")
    found = [_seeded(close, n - 1, _ema_seed(n), 2.0 / (n + 1)).alias(f"ema{n}") for n in EMA_PERIODS]
    found.append(_seeded(close, MACD_SLOW - 1, pl.col("_fast_seed"), 2.0 / (MACD_FAST + 1)).alias("_fast"))
    for n in RSI_PERIODS:
        found.append(_seeded(pl.col("_gain"), n, pl.col(f"_gain_seed{n}"), 1.0 / n).alias(f"_gain{n}"))
        found.append(_seeded(pl.col("_loss"), n, pl.col(f"_loss_seed{n}"), 1.0 / n).alias(f"_loss{n}"))
    found.append(_seeded(pl.col("_tr"), ATR_N, pl.col("_tr_seed"), 1.0 / ATR_N).alias("atr14"))
    found.append(_rsv().alias("kdj_rsv"))
    return found


def _rsi(n: int) -> pl.Expr:
    gain, loss = pl.col(f"_gain{n}"), pl.col(f"_loss{n}")
    return pl.when(gain + loss > 0).then(100.0 * gain / (gain + loss)).when(gain.is_not_null()).then(NEUTRAL)


def _sma_1(x: str, m: int) -> pl.Expr:
    """The Chinese SMA(X, m, 1) = ((m-1) Y[-1] + X) / m, with Y[-1] = 50 before X's first value (KDJ's K and D)."""
    seed = KDJ_SEED * (m - 1) / m + pl.col(x) / m
    return _seeded(pl.col(x), KDJ_N - 1, seed, 1.0 / m)


def _starts() -> list[pl.Expr]:
    """Each row's position in its symbol, the previous close, and the running sums the moving means use."""
    same_symbol = pl.col(_BY) == pl.col(_BY).shift(1)
    return [
        pl.int_range(pl.len(), dtype=pl.Int32).over(_BY).alias("_i"),
        pl.when(same_symbol).then(pl.col("close").shift(1)).alias("_prev"),
        pl.col("close").cum_sum().over(_BY).alias("_close_sum"),
        pl.col("volume").cum_sum().over(_BY).alias("_volume_sum"),
    ]


def _derived() -> list[pl.Expr]:
    """DIF, K and RSI from the smoothed columns."""
    dif = pl.when(pl.col("_i") >= MACD_SLOW - 1).then(pl.col("_fast") - pl.col("ema26"))
    return [
        dif.alias("macd_dif"),
        _sma_1("kdj_rsv", KDJ_M1).alias("kdj_k"),
        *(_rsi(n).alias(f"rsi{n}") for n in RSI_PERIODS),
    ]


def _signal() -> list[pl.Expr]:
    """DEA (seeded by the stage before) and D."""
    dea = _seeded(pl.col("macd_dif"), MACD_SLOW + MACD_SIGNAL - 2, pl.col("_dea_seed"), 2.0 / (MACD_SIGNAL + 1))
    return [dea.alias("macd_dea"), _sma_1("kdj_k", KDJ_M2).alias("kdj_d")]


def _combined() -> list[pl.Expr]:
    """The MACD bar, J and the Bollinger bands."""
    mid, deviation = pl.col(f"ma{BOLL_N}"), BOLL_K * pl.col("_sd")
    return [
        (2.0 * (pl.col("macd_dif") - pl.col("macd_dea"))).alias("macd_bar"),
        (3.0 * pl.col("kdj_k") - 2.0 * pl.col("kdj_d")).alias("kdj_j"),
        mid.alias("boll_mid"),
        (mid + deviation).alias("boll_up"),
        (mid - deviation).alias("boll_low"),
    ]


def _stages() -> list[tuple[list[pl.Expr], tuple[str, ...]]]:
    """The computation in stages, each reading only earlier ones, with the helper columns spent after it."""
    seeds = (
        *(f"_{x}_seed{n}" for n in RSI_PERIODS for x in ("gain", "loss")),
        *(f"_ema_seed{n}" for n in EMA_PERIODS if n not in MA_PERIODS),
        "_fast_seed",
        "_tr_seed",
    )
    means = tuple(f"_{x}{n}" for n in RSI_PERIODS for x in ("gain", "loss"))
    return [
        (_starts(), ()),
        (_steps(), ("_prev",)),
        (_windows(), ("_close_sum", "_volume_sum", "_obv_step")),
        (_smoothed(), ("_gain", "_loss", "_tr", "_llv", "_hhv", *seeds)),
        (_derived(), ("_fast", *means)),
        ([_first_mean("macd_dif", MACD_SLOW - 1, MACD_SIGNAL).alias("_dea_seed")], ()),
        (_signal(), ("_dea_seed",)),
        (_combined(), ("_sd", "_i", _BY)),
    ]


def add_indicators(frame: pl.DataFrame, benchmarks: Mapping[str, pl.DataFrame] | None = None) -> pl.DataFrame:
    """`frame` (a bar frame of one or many symbols) with every column of INDICATOR_COLUMNS added, per symbol.

    `benchmarks` maps a name to a benchmark's bars (day, close; e.g. an index) and adds
    rs_<name>, rs_<name>_chg20 and rs_<name>_chg60 for each. See the module docstring for the conventions.
    """
    ordered = _ordered(frame)
    if "turnover_pct" not in ordered.columns:
        ordered = ordered.with_columns(turnover_pct=pl.lit(None, dtype=pl.Float64))
    keep = [c for c in ordered.columns if c not in INDICATOR_COLUMNS or c == "turnover_pct"]
    staged = ordered.select(keep).with_columns(
        pl.col("close", "high", "low", "volume").cast(pl.Float64),
        # Flagged sorted (it is: a running count over rows ordered by symbol), `over` takes contiguous slices
        # of each symbol instead of hashing and scattering 4.5M rows: three times faster.
        (pl.col("symbol") != pl.col("symbol").shift(1))
        .fill_null(True)
        .cum_sum()
        .cast(pl.UInt32)
        .set_sorted()
        .alias(_BY),
    )
    for expressions, spent in _stages():
        staged = staged.with_columns(expressions).drop(spent)
    computed = staged.select(*keep, *(c for c in INDICATOR_COLUMNS if c != "turnover_pct"))
    for name, bench in (benchmarks or {}).items():
        computed = add_relative_strength(computed, bench, name)
    return computed


def rs_column(name: str) -> str:
    """The relative-strength column for a benchmark name: rs_000300_sh for "000300.SH"."""
    return "rs_" + re.sub(r"[^0-9a-z]+", "_", name.lower()).strip("_")


def add_relative_strength(frame: pl.DataFrame, benchmark: pl.DataFrame, name: str) -> pl.DataFrame:
    """`frame` with rs_<name> (normalised close ratio to `benchmark`) and its 20- and 60-session changes."""
    if "symbol" in benchmark.columns and benchmark.get_column("symbol").n_unique() > 1:
        raise user_error(InvalidInput, "frame_benchmark_symbols", name=repr(name))
    column = rs_column(name)
    closes = benchmark.select("day", _bench=pl.col("close").cast(pl.Float64)).unique("day", keep="last")
    joined = _ordered(frame).join(closes, on="day", how="left", maintain_order="left")
    ratio = pl.col("close") / pl.col("_bench")
    rs = (ratio / ratio.drop_nulls().first()).over("symbol")
    joined = joined.with_columns(rs.alias(column)).drop("_bench")
    changes = [
        (pl.col(column) / pl.col(column).shift(n) - 1.0).over("symbol").alias(f"{column}_chg{n}") for n in RS_CHANGES
    ]
    return joined.with_columns(changes)


@dataclass(frozen=True, slots=True)
class IndicatorSnapshot:
    """One symbol's indicators on its latest session on or before a date (None: warm-up or undefined)."""

    symbol: str
    day: date
    values: Mapping[str, float | None]


def _value(raw: object) -> float | None:
    if not isinstance(raw, int | float):
        return None
    return float(raw) if math.isfinite(raw) else None


def indicator_snapshot(
    frame: pl.DataFrame, as_of: date | None = None, symbol: str | None = None
) -> IndicatorSnapshot | None:
    """The indicators of `symbol` (or the frame's only symbol) on its latest session on or before `as_of`.

    `frame` may be bars (indicators are then computed on the rows up to `as_of`) or the output of
    add_indicators. None when the symbol has no session on or before `as_of`.
    """
    rows = frame if symbol is None else frame.filter(pl.col("symbol") == symbol)
    if rows.get_column("symbol").n_unique() > 1:
        raise user_error(InvalidInput, "frame_several_symbols.indicators")
    if as_of is not None:
        rows = rows.filter(pl.col("day") <= as_of)
    if rows.is_empty():
        return None
    if not set(INDICATOR_COLUMNS) <= set(rows.columns):
        rows = add_indicators(rows)
    last = rows.sort("day").row(-1, named=True)
    names = [*INDICATOR_COLUMNS, *(c for c in rows.columns if c.startswith("rs_"))]
    return IndicatorSnapshot(str(last["symbol"]), last["day"], {n: _value(last[n]) for n in names})


def latest_indicators(
    frame: pl.DataFrame, as_of: date | None = None, symbol: str | None = None
) -> dict[str, float | None]:
    """`{name: value}` of indicator_snapshot (empty when there is no session on or before `as_of`)."""
    found = indicator_snapshot(frame, as_of, symbol)
    return dict(found.values) if found is not None else {}
