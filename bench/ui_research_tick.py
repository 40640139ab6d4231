"""The GUI thread's cost of the research panel's once-a-second tick while a run executes, with a long run history.

In a fresh offscreen process on the demo market: the research screen at its dock's size (360x600, as at 1366x768)
holds `HISTORY` finished runs of history and one executing run; its own one-second timer refreshes the executing
run's elapsed cell. A 16 ms precise QTimer heartbeat records the gap between its ticks for `SECONDS` seconds. Ours
is the largest gap (ms) with the long history; the reference is one 16 ms frame; the target is no stall over 50 ms
(ratio 50/16), as in `ui_stall`. Notes give the GUI thread's busy time per second (its CPU time over the window)
with the long history and with none, measured in the same process: the table's columns measured again over every
row on each tick made that cost grow with the history. Last, the GUI thread's time to take the history read again
(Refresh) when it says the same of every run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.harness import Result, benchmark
from bench.ui_start import demo_workspace

FRAME_MS = 16.0
STALL_MS = 50.0
HISTORY = 650  # the replay batch's analyses: a user who researches twenty stocks a day has as many in a month
SECONDS = 5.0

CHILD = """
import json, sys, time
from PySide6.QtCore import QCoreApplication, QEventLoop, QSettings, Qt, QTimer
from ui.app import create_app
from ui.context import build_context, close_context

app = create_app(sys.argv[:1])
QCoreApplication.setOrganizationName("StockWorkbenchBench")
QSettings.setDefaultFormat(QSettings.Format.IniFormat)
QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, sys.argv[2])
from stockbench.workbench import Workbench
from ui.errors import ErrorPresenter
from ui.screens import load_screen
from ui.screens.research.run_model import RunRow
from stockbench.research.outcomes import RunListing
from datetime import datetime, timezone
now = datetime.now(timezone.utc)

history, seconds = int(sys.argv[3]), float(sys.argv[4])
ctx = build_context(Workbench.open(sys.argv[1], command="bench"), ErrorPresenter(interactive=False))


def pause(ms):
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def measure(count):
    panel = load_screen("research")(ctx, None)
    panel.resize(360, 600)
    panel.show()
    pause(500)  # its first read of the runs
    for number in range(count):
        panel.model.upsert(RunRow(f"RUN20261207-{number:06d}", "605903.SH", "offline rules model",
                                  status="published", action="wait", started=now))
    panel.model.upsert(RunRow("RUN20261207-running", "003901.SZ", "offline rules model").started_executing())
    panel._timer.start()  # its once-a-second tick, as while a run of its own executes
    pause(500)  # the columns fitted to the new rows
    gaps, last = [], [time.perf_counter()]

    def beat():
        now = time.perf_counter()
        gaps.append((now - last[0]) * 1000)
        last[0] = now

    heartbeat = QTimer()
    heartbeat.setTimerType(Qt.TimerType.PreciseTimer)
    heartbeat.setInterval(16)
    heartbeat.timeout.connect(beat)
    busy = time.thread_time()
    last[0] = time.perf_counter()
    heartbeat.start()
    pause(int(seconds * 1000))
    heartbeat.stop()
    busy = time.thread_time() - busy
    history = [RunListing(r.run_id, r.symbol, r.status, r.stage, r.started or now, r.model, r.reason,
                          r.report_id or "", r.action or "") for r in panel.model.rows() if not r.executing()]
    read = time.thread_time()
    for _ in range(3):  # the history read again (Refresh), saying the same of every run
        panel.model.merge_history(history)
        pause(60)
    read = (time.thread_time() - read) / 3
    panel.close()
    panel.deleteLater()
    return {"gaps": gaps, "busy_ms_per_s": busy * 1000 / seconds, "read_ms": read * 1000}


runs = {"none": measure(0), "long": measure(history)}
close_context(ctx)
print(json.dumps(runs))
"""


@benchmark("ui_research_tick")
def ui_research_tick() -> Result:
    with tempfile.TemporaryDirectory(prefix="stockbench-bench-") as folder:
        home = demo_workspace(Path(folder))
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
        command = [sys.executable, "-c", CHILD, str(home), str(Path(folder) / "settings"), str(HISTORY), str(SECONDS)]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True, timeout=600)
    runs = json.loads(done.stdout.strip().splitlines()[-1])
    long, none = runs["long"], runs["none"]
    notes = {
        "busy": f"{long['busy_ms_per_s']:.1f} ms a second with {HISTORY} runs, {none['busy_ms_per_s']:.1f} with none",
        "max gap with none": f"{max(none['gaps']):.1f} ms",
        "history read again": f"{long['read_ms']:.1f} ms with {HISTORY} runs, {none['read_ms']:.1f} with none",
        "ticks over 50 ms": str(sum(g > STALL_MS for g in long["gaps"])),
    }
    return Result("ui_research_tick", max(long["gaps"]), FRAME_MS, "ms", target=STALL_MS / FRAME_MS, notes=notes)
