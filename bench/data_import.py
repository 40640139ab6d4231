"""Import of the shared 4.5M-row community parquet into a fresh workspace cache, against polars reading the file.

The import reads, validates every row, converts prices to exact decimals, upserts the bars (primary-key
index maintained), and records instruments and name history. Reported in seconds (the harness compares
times) with rows per second in the notes. Needs ../shared/data; without it the result says so.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import polars as pl

from bench.harness import Result, benchmark, median_seconds

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
PARQUET = SHARED / "ashare_daily_2017_2022.parquet"


def skipped(name: str) -> Result:
    """A visible placeholder when the shared data is absent (ratio 0, never a silent pass of real work)."""
    return Result(name, 0.0, 1.0, "s", target=1.0, notes={"skipped": f"{PARQUET} is absent"})


def import_once() -> tuple[float, int]:
    """Import the parquet into a new file-backed workspace database; (seconds, rows stored)."""
    from stockbench.clock import SystemClock
    from stockbench.data.cache import MarketDataCache
    from stockbench.data.importer import import_path
    from stockbench.store.database import Database
    from stockbench.store.migrations import migrate

    with tempfile.TemporaryDirectory() as folder:
        db = Database(Path(folder) / "bench.duckdb")
        migrate(db)
        started = time.perf_counter()
        report = import_path(MarketDataCache(db, SystemClock()), db, PARQUET)
        elapsed = time.perf_counter() - started
        db.close()
    return elapsed, report.stored


@benchmark("data_import")
def data_import() -> Result:
    if not PARQUET.exists():
        return skipped("data_import")
    runs = [import_once() for _ in range(3)]
    ours = sorted(seconds for seconds, _ in runs)[1]
    rows = runs[0][1]
    reference = median_seconds(lambda: pl.read_parquet(PARQUET), repeat=5)
    notes = {
        "rows": f"{rows:,}",
        "ours_rows_per_s": f"{rows / ours:,.0f}",
        "polars_rows_per_s": f"{rows / reference:,.0f}",
    }
    return Result("data_import", ours, reference, "s", target=40.0, notes=notes)
