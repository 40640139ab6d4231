"""A backup of a workspace holding the whole 2017-2022 A-share parquet (4.5M daily bars), against `cp` of the file.

The workspace is built once (the import takes seconds); then the median of three backups (CHECKPOINT under the
writer lock, a copy with its sha256, fsync, rename, manifest: stockbench.store.backups.take_backup) is compared with
the median of three `cp` runs of the same file to a folder on the same disk, and with DuckDB's own
`COPY FROM DATABASE` into an attached file (the other consistent way, in the notes). Needs ../shared/data.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from bench.data_import import PARQUET, skipped
from bench.harness import Result, benchmark


def _median(fn: object, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - started)
    return sorted(times)[len(times) // 2]


@benchmark("backup")
def backup() -> Result:
    if not PARQUET.exists():
        return skipped("backup")
    from stockbench.clock import SystemClock
    from stockbench.config import WorkspacePaths
    from stockbench.data.cache import MarketDataCache
    from stockbench.data.importer import import_path
    from stockbench.store.backups import take_backup
    from stockbench.store.workspace import Workspace

    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "workspace"
        workspace = Workspace.open(home, command="bench backup")
        try:
            import_path(MarketDataCache(workspace.db, SystemClock()), workspace.db, PARQUET)
            workspace.db.checkpoint()
            paths = WorkspacePaths(home)
            size = paths.database.stat().st_size
            out = Path(folder) / "out"
            out.mkdir()

            def ours() -> None:
                take_backup(workspace.db, paths, "manual", folder=out)

            def cp() -> None:
                target = out / f"cp-{time.monotonic_ns()}.duckdb"
                subprocess.run(["cp", str(paths.database), str(target)], check=True)

            def duckdb_copy() -> None:
                target = out / f"copy-{time.monotonic_ns()}.duckdb"
                cur = workspace.db.cursor()
                cur.execute(f"ATTACH '{target}' AS copied")
                try:
                    cur.execute("COPY FROM DATABASE workspace TO copied")
                finally:
                    cur.execute("DETACH copied")

            def cp_sync() -> None:
                target = out / f"cps-{time.monotonic_ns()}.duckdb"
                subprocess.run(["cp", str(paths.database), str(target)], check=True)
                subprocess.run(["sync", str(target)], check=True)

            reference = _median(cp)
            durable = _median(cp_sync)
            seconds = _median(ours)
            try:
                copied = f"{_median(duckdb_copy, repeat=1):.2f} s"
            except Exception as error:  # the notes say why, the comparison with cp stands
                copied = f"unavailable ({type(error).__name__})"
            shutil.rmtree(out)
        finally:
            workspace.close()
    notes = {"database_mb": f"{size / 1e6:,.0f}", "cp_then_sync": f"{durable:.2f} s", "copy_from_database": copied}
    # `cp` leaves the copy in the page cache; a backup is flushed to disk and hashed, so it is several times slower
    # than cp alone and close to `cp` + `sync` (the note): the target holds it there.
    return Result("backup", seconds, reference, "s", target=15.0, notes=notes)
