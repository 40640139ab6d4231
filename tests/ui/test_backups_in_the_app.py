"""The app backs a user's workspace up when it closes it and once a day while it runs, off the UI thread for the
daily one; the demo market (rebuilt from its seed) is not backed up."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from stockbench.store.backups import list_backups
from stockbench.workbench import Workbench
from ui.context import build_context, close_context
from ui.errors import ErrorPresenter
from ui.main_window import MainWindow


def test_closing_the_window_backs_the_workspace_up(qtbot: QtBot, tmp_path: Path) -> None:
    home = tmp_path / "books"
    window = MainWindow(settings=QSettings())
    window.presenter.interactive = False
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.workspace_attached, timeout=20_000):
        window.attach_bench(Workbench.open(home))
    window.backup_if_due()  # the first check (a minute after opening): no backup yet, so the day's is taken
    qtbot.waitUntil(lambda: len(list_backups(home / "backups")) == 1, timeout=20_000)
    assert list_backups(home / "backups")[0].reason == "daily"
    window.backup_if_due()  # the same day: nothing more
    qtbot.wait(300)
    window.shutdown()
    assert sorted(b.reason for b in list_backups(home / "backups")) == ["close", "daily"]


def test_the_demo_market_is_not_backed_up_on_close(qtbot: QtBot, demo_home: Path, tmp_path: Path) -> None:
    bench = Workbench.open(demo_home)
    ctx = build_context(bench, ErrorPresenter(interactive=False))
    assert close_context(ctx)
    assert list_backups(demo_home / "backups") == []
