"""The opportunity scan over the whole shared A-share universe against the same indicators from TA-Lib per symbol.

Setup (not timed, reported as a note): the 2017-2022 community parquet (4,752 stocks, unadjusted) is read and
forward-adjusted with stockbench.analytics.frames. Timed, on that frame: `run_scan` on its last session (screen,
zones, ranking) against a per-symbol loop computing the indicators the screen reads with TA-Lib (SMA 5/20/60/120/
250, ATR 14, 250-session MAX/MIN, SMA of volume 5/60, ROC 60) over each symbol's series, as a charting loop would.
A second ratio uses TA-Lib on the same 420-day window the scan reads (the stricter comparison). Memory is
measured in a fresh process holding the adjusted frame: its RSS before a scan and its peak RSS during one (the
peak reset through /proc/self/clear_refs), and the Python heap peak of one scan (tracemalloc; polars allocates
in Rust, outside what tracemalloc sees).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

import numpy as np
import polars as pl

from bench.harness import Result, benchmark, median_seconds
from stockbench.analytics.frames import bars_from_community_parquet
from stockbench.analytics.scan import load_zone_tables, run_scan

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "ashare_daily_2017_2022.parquet"


def talib_loop(frame: pl.DataFrame) -> int:
    """The scan's indicators with TA-Lib, one symbol at a time; returns the symbols computed."""
    import talib

    symbols = frame.get_column("symbol").to_numpy()
    cuts = np.flatnonzero(symbols[1:] != symbols[:-1]) + 1
    close, high, low, volume = (frame.get_column(c).to_numpy() for c in ("close", "high", "low", "volume"))
    count = 0
    for start, end in zip(np.r_[0, cuts], np.r_[cuts, len(symbols)], strict=True):
        c, h, lo, v = close[start:end], high[start:end], low[start:end], volume[start:end]
        for n in (5, 20, 60, 120, 250):
            talib.SMA(c, n)
        talib.ATR(h, lo, c, 14)
        talib.MAX(h, 250)
        talib.MIN(lo, 250)
        talib.SMA(v, 5)
        talib.SMA(v, 60)
        talib.ROC(c, 60)
        count += 1
    return count


_CHILD = """
import sys, tracemalloc
from pathlib import Path
import polars as pl
from stockbench.analytics.scan import run_scan

def status(key):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])

frame = pl.read_parquet(sys.argv[1])
as_of = frame.get_column("day").max()
run_scan(frame, as_of, 20)
loaded = status("VmRSS")
Path("/proc/self/clear_refs").write_text("5")  # reset the peak (VmHWM) to the current RSS
run_scan(frame, as_of, 20)
peak = status("VmHWM")
tracemalloc.start()
run_scan(frame, as_of, 20)
print(loaded, peak, tracemalloc.get_traced_memory()[1])
"""


def _peaks(frame: pl.DataFrame) -> tuple[float, float, float] | None:
    """(RSS with the frame loaded, peak RSS during one scan, the Python-traced peak of one scan) in MiB, measured
    in a fresh process that reads the adjusted frame from a temporary parquet (Linux /proc; None elsewhere)."""
    if not Path("/proc/self/clear_refs").exists():
        return None
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "frame.parquet"
        frame.write_parquet(path)
        out = subprocess.run([sys.executable, "-c", _CHILD, str(path)], check=True, capture_output=True, text=True)
    loaded, peak, traced = (int(v) for v in out.stdout.split())
    return loaded / 1024, peak / 1024, traced / 2**20


@benchmark("scan")
def scan() -> Result:
    if not DATA.is_file():
        return Result("scan", float("nan"), float("nan"), "s", 1.0, {"skipped": f"{DATA} is absent"})
    started = time.perf_counter()
    frame = bars_from_community_parquet(DATA)
    setup = time.perf_counter() - started
    as_of = frame.get_column("day").max()
    days = load_zone_tables()["scan"].integer("calendar_days")
    window = frame.filter(pl.col("day") > as_of - timedelta(days=days))  # type: ignore[operator]
    result = run_scan(frame, as_of, 20)  # type: ignore[arg-type]
    ours = median_seconds(lambda: run_scan(frame, as_of, 20), repeat=5)  # type: ignore[arg-type]
    reference = median_seconds(lambda: talib_loop(frame), repeat=5)
    windowed = median_seconds(lambda: talib_loop(window), repeat=5)
    memory = _peaks(frame)
    notes = {
        "symbols": f"{frame.get_column('symbol').n_unique():,} ({result.ranked:,} ranked)",
        "rows": f"{frame.height:,}",
        "as of": str(as_of),
        "ratio vs TA-Lib on the same window": f"{ours / windowed:.3g} ({windowed:.3g} s)",
        "peak memory": "not measured (needs Linux /proc)"
        if memory is None
        else f"RSS {memory[1]:.0f} MiB during a scan, {memory[0]:.0f} MiB before it with the frame loaded; "
        f"Python heap peak {memory[2]:.1f} MiB (tracemalloc)",
        "setup (read + adjust)": f"{setup:.1f} s",
    }
    return Result("scan", ours, reference, "s", target=1.0, notes=notes)
