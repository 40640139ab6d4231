"""Shared fixtures for the shell's tests: isolated Qt settings, a demo workspace built once per session and
copied per test, an opened workbench on the copy, and an `AppContext` factory that shuts down cleanly.

    def test_something(ctx: AppContext, qtbot: QtBot) -> None:
        panel = WatchlistPanel(ctx)
        qtbot.addWidget(panel)
"""

from __future__ import annotations

import importlib
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QSettings
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from stockbench.data.demo import ensure_demo
from stockbench.store.workspace import Workspace
from stockbench.workbench import Workbench
from ui.context import AppContext
from ui.screens.chart.chart_panel import CHART_MODULES

for _module in CHART_MODULES:  # imported up front, so a chart panel builds its chart at once (the window imports
    importlib.import_module(_module)  # them off the GUI thread: test_chart.py::test_the_chart_widget_is_built_...)

TEST_ORGANIZATION = "StockWorkbenchTests"


@pytest.fixture(scope="session", autouse=True)
def gui_thread_collector(qapp: QApplication) -> Iterator[None]:
    """Garbage collection on the GUI thread only, as in the app (ui/collector.py): an engine thread's collection
    that freed a Qt wrapper hung the suite for good (Qt's signal mutex against the GIL)."""
    from ui.collector import collect_on_gui_thread

    collector = collect_on_gui_thread(qapp)
    yield
    collector.stop()


@pytest.fixture(autouse=True)
def qt_settings(tmp_path: Path, qapp: QApplication) -> Path:
    """Every test gets its own QSettings (INI files under tmp, English chosen): no test touches the user's."""
    folder = tmp_path / "qsettings"
    QCoreApplication.setOrganizationName(TEST_ORGANIZATION)
    QCoreApplication.setApplicationName("Stock Workbench")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    QSettings().setValue("ui/language", "en")  # English whatever the machine's locale (a test may switch)
    return folder


@pytest.fixture(scope="session")
def demo_master(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo market, built once per test session (about ten seconds); tests use copies of it."""
    home = tmp_path_factory.mktemp("demo-master")
    with Workspace.open(home, kind="demo", command="tests") as workspace:
        ensure_demo(workspace)
    return home


@pytest.fixture
def demo_home(demo_master: Path, tmp_path: Path) -> Path:
    """A private copy of the demo workspace folder for this test (writes never leak into other tests)."""
    target = tmp_path / "demo"
    shutil.copytree(demo_master, target, ignore=shutil.ignore_patterns("*.lock", "*.wal"))
    return target


@pytest.fixture
def demo_bench(demo_home: Path) -> Iterator[Workbench]:
    """The workbench opened on this test's demo copy (replay clock pinned at the demo's last session)."""
    bench = Workbench.open(demo_home, command="tests")
    yield bench
    bench.close()


@pytest.fixture
def make_context(qapp: QApplication) -> Iterator[Callable[[Workbench], AppContext]]:
    """Build `AppContext`s on a workbench; at teardown their pools are drained and bridges closed."""
    from ui.context import build_context, close_context
    from ui.errors import ErrorPresenter

    made: list[AppContext] = []

    def make(bench: Workbench) -> AppContext:
        ctx = build_context(bench, ErrorPresenter(interactive=False))
        made.append(ctx)
        return ctx

    yield make
    for ctx in made:
        close_context(ctx, close_bench=False)


@pytest.fixture
def ctx(demo_bench: Workbench, make_context: Callable[[Workbench], AppContext]) -> AppContext:
    """An `AppContext` on this test's demo workspace (errors are recorded, never shown in a message box)."""
    return make_context(demo_bench)


# ---- a workspace with published reports (report browser and reviews) ---------------------------------------------
REPORTS_BANK, REPORTS_HK = "003901.SZ", "02971.HK"
REPORTS_TIMEOUT = 15_000


@pytest.fixture(scope="session")
def reports_master(demo_master: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo market with three offline reports: two on the bank (compare; the later may revise the earlier) and
    one in Hong Kong. Built once per session."""
    folder = tmp_path_factory.getbasetemp() / "reports-master"
    shutil.copytree(demo_master, folder, ignore=shutil.ignore_patterns("*.lock", "*.wal"))
    with Workbench.open(folder, kind="demo") as bench:
        for symbol in (REPORTS_BANK, REPORTS_BANK, REPORTS_HK):
            assert bench.research.analyze(symbol, language="zh").status == "published"  # Chinese, as the tests read
    return folder


@pytest.fixture
def reports_bench(reports_master: Path, tmp_path: Path) -> Iterator[Workbench]:
    """This test's copy of the workspace with published reports, opened."""
    home = tmp_path / "reports"
    shutil.copytree(reports_master, home, ignore=shutil.ignore_patterns("*.lock", "*.wal"))
    with Workbench.open(home, kind="demo") as bench:
        yield bench


@pytest.fixture
def reports_ctx(reports_bench: Workbench, make_context: Callable[[Workbench], AppContext]) -> AppContext:
    """An `AppContext` on `reports_bench`."""
    return make_context(reports_bench)


@pytest.fixture
def reports_panel(qtbot: QtBot, reports_ctx: AppContext) -> Any:
    """A shown report browser on `reports_ctx`, its three reports listed and read (text and seal checks)."""
    from ui.screens.reports.reports_panel import ReportsPanel

    made = ReportsPanel(reports_ctx)
    qtbot.addWidget(made)
    made.show()
    qtbot.waitUntil(lambda: made.model.rowCount() == 3 and all(r.seal_checked for r in made.model.rows()),
                    timeout=REPORTS_TIMEOUT)  # fmt: skip
    return made
