"""Daily bar frames for the analytics: many symbols in one polars frame of floats, from the cache or community files.

A bar frame is sorted by (symbol, day) and holds `BAR_SCHEMA`'s columns; prices are forward-adjusted (前复权,
anchored at the latest bar) unless a loader says otherwise, volume is in shares and amount in currency units
(neither is ever adjusted). Floats are right here: analytics are float arrays, trade prices stay Decimal.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import polars as pl

from stockbench.errors import InvalidInput
from stockbench.market.instruments import identify
from stockbench.messages import user_error

if TYPE_CHECKING:
    from stockbench.data.cache import MarketDataCache

PRICES = ("open", "high", "low", "close", "prev_close")
BAR_SCHEMA: dict[str, Any] = {
    "symbol": pl.String,
    "day": pl.Date,
    **dict.fromkeys(PRICES, pl.Float64),
    "volume": pl.Float64,
    "amount": pl.Float64,
    "turnover_pct": pl.Float64,
}
BAR_COLUMNS = tuple(BAR_SCHEMA)
CacheAdjust = Literal["forward", "backward", "none"]
FileAdjust = Literal["forward", "none"]
COMMUNITY_CSV_COLUMNS = {
    "股票代码": "code",
    "股票名称": "name",
    "交易日期": "date",
    "开盘价": "open",
    "最高价": "high",
    "最低价": "low",
    "收盘价": "close",
    "前收盘价": "prev_close",
    "成交量": "volume",
    "成交额": "amount",
    "流通市值": "float_mcap",
    "总市值": "total_mcap",
}


def empty_bars() -> pl.DataFrame:
    """A bar frame with no rows (the right columns and types)."""
    return pl.DataFrame(schema=BAR_SCHEMA)


def _as_bars(frame: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    casts = [pl.col(c).cast(t) for c, t in BAR_SCHEMA.items()]
    return frame.lazy().select(casts).sort("symbol", "day").collect()


def bars_from_cache(
    cache: MarketDataCache,
    symbols: Iterable[str],
    start: date | None = None,
    end: date | None = None,
    adjust: CacheAdjust = "forward",
) -> pl.DataFrame:
    """The bars of `symbols` from the point-in-time cache (one source per symbol, as the cache chooses), as floats.

    Forward adjustment is anchored at the latest bar visible at the cache's clock, so a replayed date never
    sees a later dividend. A symbol without bars contributes no rows.
    """
    parts = []
    for symbol in dict.fromkeys(identify(s).instrument.symbol for s in symbols):
        found = cache.bars(symbol, start, end, adjust)
        if not found.is_empty():
            parts.append(found.with_columns(symbol=pl.lit(symbol)))
    if not parts:
        return empty_bars()
    return _as_bars(pl.concat(parts, how="diagonal_relaxed"))


def forward_adjust(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` (unadjusted, many symbols) with open, high, low, close and prev_close forward-adjusted.

    An ex-date is a bar whose reference price differs from the previous close; its factor is
    close[t-1] / prev_close[t]. Each price is divided by the product of the factors of the symbol's later
    ex-dates, so the latest bar keeps its price (the method of stockbench.data.adjust, in floats and unrounded).
    """
    if frame.is_empty():
        return frame
    ordered = frame.sort("symbol", "day") if not _is_ordered(frame) else frame
    run = (pl.col("symbol") != pl.col("symbol").shift(1)).fill_null(True).cum_sum().cast(pl.UInt32).set_sorted()
    same = pl.col("_run") == pl.col("_run").shift(1)
    ratio = pl.when(same).then(pl.col("close").shift(1)) / pl.col("prev_close")
    factor = pl.when((pl.col("prev_close") > 0) & ratio.is_finite()).then(ratio).otherwise(1.0)
    steps = ordered.with_columns(run.alias("_run")).with_columns(factor.alias("_factor"))
    later = pl.when(same.shift(-1)).then(pl.col("_factor").shift(-1)).otherwise(1.0)
    steps = steps.with_columns(later.cum_prod(reverse=True).over("_run").alias("_divisor"))
    return steps.with_columns(pl.col(c) / pl.col("_divisor") for c in PRICES).drop("_run", "_factor", "_divisor")


def _is_ordered(frame: pl.DataFrame) -> bool:
    symbol, day = pl.col("symbol"), pl.col("day")
    backwards = (symbol < symbol.shift(1)) | ((symbol == symbol.shift(1)) & (day <= day.shift(1)))
    return not frame.select(backwards.any()).item()


def _code_of(symbol: str) -> str:
    canonical = identify(symbol).instrument.symbol
    number, _, exchange = canonical.partition(".")
    return exchange.lower() + number


def _community_bars(
    raw: pl.LazyFrame, symbols: Iterable[str] | None, start: date | None, end: date | None
) -> pl.DataFrame:
    if symbols is not None:
        raw = raw.filter(pl.col("code").is_in([_code_of(s) for s in symbols]))
    if start is not None:
        raw = raw.filter(pl.col("date") >= start)
    if end is not None:
        raw = raw.filter(pl.col("date") <= end)
    codes = raw.select(pl.col("code").unique()).collect().get_column("code").to_list()
    # sh600519 -> 600519.SH once per distinct code; rows are ordered by the symbol's rank (an integer, cheap to
    # sort by) and the symbol text is gathered by rank afterwards
    named = sorted((f"{c[2:]}.{c[:2].upper()}", c) for c in codes)
    rank_of = {code: rank for rank, (_, code) in enumerate(named)}
    symbols_by_rank = pl.Series([symbol for symbol, _ in named], dtype=pl.String)
    float_shares = pl.col("float_mcap") / pl.col("close")
    ranked = raw.select(
        pl.col("code").replace_strict(rank_of, return_dtype=pl.UInt32).alias("_rank"),
        pl.col("date").cast(pl.Date).alias("day"),
        *(pl.col(c).cast(pl.Float64) for c in PRICES),
        pl.col("volume", "amount").cast(pl.Float64),
        pl.when(float_shares > 0).then(pl.col("volume") / float_shares * 100).alias("turnover_pct"),
    )
    ordered = ranked.sort("_rank", "day").collect()
    symbol = pl.lit(symbols_by_rank).gather(pl.col("_rank")).alias("symbol")
    return ordered.select(symbol, pl.exclude("_rank"))


def bars_from_community_parquet(
    path: Path,
    symbols: Iterable[str] | None = None,
    start: date | None = None,
    end: date | None = None,
    adjust: FileAdjust = "forward",
) -> pl.DataFrame:
    """Bars from the community A-share parquet (columns code, date, open ... float_mcap; unadjusted in the file).

    Prices are forward-adjusted within the selected period, anchored at its last bar (`adjust="none"` keeps
    the file's prices). `turnover_pct` is volume over the float shares (float_mcap / close) in percent.
    """
    if not path.is_file():
        raise user_error(InvalidInput, "community_file_missing", path=path, kind="parquet")
    bars = _community_bars(pl.scan_parquet(path), symbols, start, end)
    return forward_adjust(bars) if adjust == "forward" else bars


def bars_from_community_csv(path: Path, adjust: FileAdjust = "forward") -> pl.DataFrame:
    """Bars from one community A-share CSV (a comment line, then the Chinese header; unadjusted in the file)."""
    if not path.is_file():
        raise user_error(InvalidInput, "community_file_missing", path=path, kind="CSV")
    with path.open(encoding="utf-8-sig") as handle:
        skip = 0 if handle.readline().startswith("股票代码") else 1
    raw = pl.read_csv(path, skip_rows=skip, encoding="utf8").rename(COMMUNITY_CSV_COLUMNS, strict=False)
    typed = raw.lazy().with_columns(pl.col("date").str.to_date("%Y-%m-%d"), pl.col(list(PRICES)).cast(pl.Float64))
    bars = _community_bars(typed, None, None, None)
    return forward_adjust(bars) if adjust == "forward" else bars
