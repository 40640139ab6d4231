"""Cold start of the desktop shell: a fresh process to the first painted main window, against an empty PySide6
window (a QApplication and a bare QMainWindow of the same size) in a fresh process, in the same run.

Both run offscreen (QT_QPA_PLATFORM=offscreen) and report the instant of their window's first paint event,
measured from just before the process was spawned. Ours goes through `ui.app.run_desktop` exactly as
`stockbench` does: the window paints at once and the workspace (the demo market, built beforehand and not
timed) opens in the background; a note gives the median time until the workspace's screens are attached.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.harness import Result, benchmark

RUNS = 7

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

OURS = (
    _COMMON
    + """
from pathlib import Path
from PySide6.QtCore import QCoreApplication, QSettings
from ui.app import create_app, run_desktop
app = create_app(sys.argv[:1])
QCoreApplication.setOrganizationName("StockWorkbenchBench")
QSettings.setDefaultFormat(QSettings.Format.IniFormat)
QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, sys.argv[3])
from ui.main_window import MainWindow
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


def demo_workspace(folder: Path) -> Path:
    """The demo market built in `folder` (setup for the UI benchmarks, not timed)."""
    from stockbench.data.demo import ensure_demo
    from stockbench.store.workspace import Workspace

    home = folder / "demo"
    with Workspace.open(home, kind="demo", command="bench") as workspace:
        ensure_demo(workspace)
    return home


def _child(script: str, *args: str) -> dict[str, float]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    start = time.time()
    done = subprocess.run([sys.executable, "-c", script, repr(start), *args], env=env, capture_output=True,
                          text=True, check=True, timeout=120)  # fmt: skip
    marks: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return marks


@benchmark("ui_start")
def ui_start() -> Result:
    with tempfile.TemporaryDirectory(prefix="stockbench-bench-") as folder:
        home = demo_workspace(Path(folder))
        settings = str(Path(folder) / "settings")
        _child(OURS, str(home), settings)  # warm the file cache once for both
        ours, reference, attached = [], [], []
        for _ in range(RUNS):
            reference.append(_child(REFERENCE)["paint"])
            marks = _child(OURS, str(home), settings)
            ours.append(marks["paint"])
            attached.append(marks["attached"])
    return Result(
        "ui_start",
        statistics.median(ours),
        statistics.median(reference),
        "s",
        target=2.0,
        notes={"workspace attached": f"{statistics.median(attached):.2f} s", "screens": str(int(marks["screens"]))},
    )
