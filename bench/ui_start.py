"""Cold start and reopen of the desktop shell, each against an empty PySide6 window (a QApplication and a bare
QMainWindow of the same size) started in a fresh process in the same run.

Every process runs offscreen (QT_QPA_PLATFORM=offscreen) and reports instants measured from just before it was
spawned, with its modules' bytecode kept in the run's temporary folder (as an installed Python keeps it; a machine
that sets PYTHONDONTWRITEBYTECODE otherwise compiles every module on every start, seconds of it). Ours goes through
`ui.app.run_desktop` exactly as `stockbench` does: the window paints at once and the workspace opens in the
background.

- ui_start: the demo market (built beforehand, not timed); ours is the first paint of the main window, with the
  median time until the workspace's screens are attached in a note.
- ui_start reopen: a workspace in use for years (built beforehand, not timed, in the run's temporary folder): the
  demo market, 10 years of daily bars for 60 more symbols imported as a generic file through the data layer's
  import, all 60 on the watchlist, and 100 reports published by offline analyses. Ours is the instant the window
  is usable: screens attached, the watchlist's rows and the report list filled; notes give the first paint, the
  attach and the instant every zone of the watchlist is shown. Target: usable within 2 s.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from decimal import Decimal
from pathlib import Path

import polars as pl

from bench.harness import Result, benchmark

RUNS = 7
REOPEN_RUNS = 3  # each waits for every zone of the watchlist (seconds)
REOPEN_USABLE_S = 2.0  # the window usable within 2 s of start, whatever the machine
CENT = Decimal("0.01")

_COMMON = """
import json, sys, time
START = float(sys.argv[1])
marks = {}
from PySide6.QtCore import QEvent, QObject, QTimer
class FirstPaint(QObject):
    def __init__(self, kind):
        super().__init__()
        self.kind = kind
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint and "paint" not in marks and isinstance(watched, self.kind):
            marks["paint"] = time.time() - START
            on_paint()
        return False
"""

REFERENCE = (
    _COMMON
    + """
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication(sys.argv[:1])
def on_paint():
    QTimer.singleShot(0, app.quit)
watcher = FirstPaint(QMainWindow)
app.installEventFilter(watcher)
window = QMainWindow()
window.resize(1440, 900)
window.show()
app.exec()
print(json.dumps(marks))
"""
)

# Our shell in the child: the app, its settings kept in the run's folder (argv[3]), the window class watched.
_SHELL = """
from pathlib import Path
from PySide6.QtCore import QCoreApplication, QSettings, Qt
from ui.app import create_app, run_desktop
app = create_app(sys.argv[:1])
QCoreApplication.setOrganizationName("StockWorkbenchBench")
QSettings.setDefaultFormat(QSettings.Format.IniFormat)
QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, sys.argv[3])
from ui.main_window import MainWindow
"""

OURS = (
    _COMMON
    + _SHELL
    + """
def on_paint():
    pass
def ready(window):
    marks["attached"] = time.time() - START
    marks["screens"] = len(window.docks)
    QTimer.singleShot(0, window.close)
watcher = FirstPaint(MainWindow)
app.installEventFilter(watcher)
run_desktop(sys.argv[:1], Path(sys.argv[2]), ready=ready)
print(json.dumps(marks))
"""
)


REOPEN = (
    _COMMON
    + _SHELL
    + """
gaps, last = [], [0.0]
def beat():
    now = time.perf_counter()
    gaps.append(now - last[0])
    last[0] = now
heartbeat = QTimer()
heartbeat.setTimerType(Qt.TimerType.PreciseTimer)
heartbeat.setInterval(16)
heartbeat.timeout.connect(beat)
def on_paint():
    last[0] = time.perf_counter()
    heartbeat.start()
waiting = {"rows", "reports", "zones"}
def mark(name, window):
    if name not in waiting:
        return
    waiting.discard(name)
    marks[name] = time.time() - START
    if not waiting & {"rows", "reports"} and "usable" not in marks:
        marks["usable"] = time.time() - START
        marks["stall_to_usable"] = max(gaps, default=0.0)
    if not waiting:
        marks["stall"] = max(gaps, default=0.0)
        heartbeat.stop()
        QTimer.singleShot(0, window.close)
def ready(window):
    marks["attached"] = time.time() - START
    watchlist, reports = window.panels["watchlist"], window.panels["report"]
    watchlist.refreshed.connect(lambda: mark("rows", window) if watchlist.model.rows else None)
    watchlist.zones_refreshed.connect(lambda: mark("zones", window))
    reports.model.modelReset.connect(lambda: mark("reports", window) if reports.model.rowCount() else None)
watcher = FirstPaint(MainWindow)
app.installEventFilter(watcher)
run_desktop(sys.argv[:1], Path(sys.argv[2]), ready=ready)
print(json.dumps(marks))
"""
)
REOPEN_SYMBOLS = 60
REOPEN_YEARS = 10
REOPEN_REPORTS = 100
RESEARCHED = ("605903.SH", "003901.SZ", "301901.SZ", "688901.SH", "02971.HK")  # one of each board, 20 runs each


def synthetic_bars(target: Path, symbols: list[str], sessions: list[date]) -> Path:
    """A generic-format parquet of a random walk per symbol inside the main board's 10% limits (ticks of 0.01)."""
    rng = random.Random(19)
    rows: dict[str, list[object]] = {c: [] for c in ("symbol", "date", "open", "high", "low", "close", "prev_close",
                                                     "volume", "amount", "name")}  # fmt: skip
    for number, symbol in enumerate(symbols):
        close = Decimal(rng.randint(500, 5000)) / 100
        for day in sessions:
            previous = close
            step = Decimal(str(max(-0.095, min(0.095, rng.gauss(0.0003, 0.02)))))
            close = max(Decimal("1.00"), (previous * (1 + step)).quantize(CENT))
            opened = max(Decimal("1.00"), (previous * (1 + step / 2)).quantize(CENT))
            high = max(opened, close) + (abs(step) * previous / 3).quantize(CENT)
            low = max(Decimal("0.50"), min(opened, close) - (abs(step) * previous / 3).quantize(CENT))
            volume = rng.randint(1_000_000, 30_000_000)
            for key, value in (("symbol", symbol), ("date", day.isoformat()), ("open", str(opened)),
                               ("high", str(high)), ("low", str(low)), ("close", str(close)),
                               ("prev_close", str(previous)), ("volume", volume),
                               ("amount", str((close * volume).quantize(CENT))),
                               ("name", f"示例合成{number:02d}")):  # fmt: skip
                rows[key].append(value)
    path = target / "synthetic_bars.parquet"
    pl.DataFrame(rows).write_parquet(path)
    return path


def reopen_workspace(folder: Path) -> Path:
    """A workspace in use for years (setup, not timed): the demo market, 10 years of daily bars for 60 more symbols
    imported through the data layer, all 60 on the watchlist, and 100 reports from offline analyses."""
    from stockbench.market.calendars import Calendars
    from stockbench.market.tables import load_tables
    from stockbench.workbench import Workbench

    home = demo_workspace(folder, "reopen")
    with Workbench.open(home, command="bench") as bench:
        last = bench.clock.now().date()
        first = last.replace(year=last.year - REOPEN_YEARS)
        sessions = Calendars(None, load_tables()).calendar("CN").sessions(first, last)
        symbols = [f"6001{n:02d}.SH" for n in range(REOPEN_SYMBOLS)]
        report = bench.data.import_file(synthetic_bars(folder, symbols, sessions))
        assert report.stored == len(symbols) * len(sessions), report
        for symbol in symbols:
            bench.watchlist.add(symbol)
        for number in range(REOPEN_REPORTS):
            outcome = bench.research.analyze(RESEARCHED[number % len(RESEARCHED)])
            assert outcome.status == "published", outcome
    return home


def demo_workspace(folder: Path, name: str = "demo") -> Path:
    """The demo market built in `folder` (setup for the UI benchmarks, not timed)."""
    from stockbench.data.demo import ensure_demo
    from stockbench.store.workspace import Workspace

    home = folder / name
    with Workspace.open(home, kind="demo", command="bench") as workspace:
        ensure_demo(workspace)
    return home


def _child(script: str, *args: str, bytecode: Path | None = None) -> dict[str, float]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    if bytecode is not None:  # compiled modules kept, as any installed Python keeps them (not in the checkout)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(bytecode)
    start = time.time()
    done = subprocess.run([sys.executable, "-c", script, repr(start), *args], env=env, capture_output=True,
                          text=True, check=True, timeout=120)  # fmt: skip
    marks: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return marks


def _median(runs: list[dict[str, float]], key: str) -> float:
    return statistics.median(run[key] for run in runs)


@benchmark("ui_start")
def ui_start() -> tuple[Result, Result]:
    with tempfile.TemporaryDirectory(prefix="stockbench-bench-") as folder:
        home, reopened = demo_workspace(Path(folder)), reopen_workspace(Path(folder))
        settings, reopen_settings = str(Path(folder) / "settings"), str(Path(folder) / "reopen-settings")
        compiled = Path(folder) / "bytecode"
        _child(REFERENCE, bytecode=compiled)
        _child(OURS, str(home), settings, bytecode=compiled)  # warm the file cache once for both
        _child(REOPEN, str(reopened), reopen_settings, bytecode=compiled)  # the reopen's layout is remembered
        ours, reference, reopen = [], [], []
        for number in range(RUNS):
            reference.append(_child(REFERENCE, bytecode=compiled)["paint"])
            ours.append(_child(OURS, str(home), settings, bytecode=compiled))
            if number < REOPEN_RUNS:
                reopen.append(_child(REOPEN, str(reopened), reopen_settings, bytecode=compiled))
    empty = statistics.median(reference)
    start = Result(
        "ui_start",
        _median(ours, "paint"),
        empty,
        "s",
        target=2.0,
        notes={"workspace attached": f"{_median(ours, 'attached'):.2f} s", "screens": str(int(ours[-1]["screens"]))},
    )
    notes = {
        "window painted": f"{_median(reopen, 'paint'):.2f} s",
        "attached": f"{_median(reopen, 'attached'):.2f} s",
        "every zone shown": f"{_median(reopen, 'zones'):.2f} s",
        "longest UI stall until usable": f"{_median(reopen, 'stall_to_usable') * 1000:.0f} ms",
        "until every zone": f"{_median(reopen, 'stall') * 1000:.0f} ms",
        "workspace": f"{REOPEN_REPORTS} reports, {REOPEN_SYMBOLS} symbols x {REOPEN_YEARS} years on the watchlist",
    }
    usable = _median(reopen, "usable")
    notes["target"] = f"usable within {REOPEN_USABLE_S:g} s"  # as a ratio against this run's empty window
    return start, Result("ui_start reopen", usable, empty, "s", target=REOPEN_USABLE_S / empty, notes=notes)
