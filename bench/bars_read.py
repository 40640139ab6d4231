"""One symbol's daily bars read point-in-time from the cache, against a raw polars filter on an in-memory frame.

The cache holds the whole shared 2017-2022 data set (4.5M bars, imported once as setup); the symbol is one
with the most bars (1,227). Ours: `MarketDataCache.bars` with a replay clock (visibility rule, one-source
choice, Decimal prices). Reference: the same rows filtered by symbol and date from the data set held in
memory as a polars frame. Notes add the forward-adjusted read and the filter on a one-symbol frame.
"""

from __future__ import annotations

import tempfile
from datetime import date
from pathlib import Path

import polars as pl

from bench.data_import import PARQUET, skipped
from bench.harness import Result, benchmark, median_seconds

AS_OF = date(2022, 1, 14)


@benchmark("bars_read")
def bars_read() -> Result:
    if not PARQUET.exists():
        return skipped("bars_read")
    from stockbench.clock import ReplayClock
    from stockbench.data.cache import MarketDataCache
    from stockbench.data.importer import import_path, validate
    from stockbench.store.database import Database
    from stockbench.store.migrations import migrate

    with tempfile.TemporaryDirectory() as folder:
        db = Database(Path(folder) / "bench.duckdb")
        migrate(db)
        cache = MarketDataCache(db, ReplayClock.as_of(AS_OF))
        import_path(cache, db, PARQUET)
        frame = validate(pl.read_parquet(PARQUET).rename({"code": "symbol"}), 1).rename({"day": "date"})
        symbol = frame.group_by("symbol").len().sort(["len", "symbol"], descending=[True, False])["symbol"][0]
        rows = cache.bars(symbol).height
        ours = median_seconds(lambda: cache.bars(symbol), repeat=21)
        adjusted = median_seconds(lambda: cache.bars(symbol, adjust="forward"), repeat=21)

        def raw(data: pl.DataFrame) -> pl.DataFrame:
            return data.filter((pl.col("symbol") == symbol) & (pl.col("date") <= AS_OF)).sort("date")

        reference = median_seconds(lambda: raw(frame), repeat=21)
        one = frame.filter(pl.col("symbol") == symbol)
        small = median_seconds(lambda: raw(one), repeat=21)
        db.close()
    notes = {
        "symbol": symbol,
        "bars": f"{rows:,}",
        "forward_adjusted_s": f"{adjusted:.4g}",
        "one_symbol_frame_s": f"{small:.4g}",
    }
    return Result("bars_read", ours, reference, "s", target=1.0, notes=notes)
