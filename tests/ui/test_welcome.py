from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from stockbench.workbench import Workbench
from ui.dialogs.welcome_dialog import WelcomeDialog
from ui.main_window import MainWindow
from ui.workspace_controller import WELCOME_SETTING


def test_demo_choice_opens_the_demo_market(qtbot: QtBot, demo_home: Path) -> None:
    dialog = WelcomeDialog(demo_folder=demo_home)
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.workspace_opened, timeout=30_000) as signal:
        dialog.demo_button.click()
        assert not dialog.new_button.isEnabled()  # busy while the workspace opens
    bench = signal.args[0]
    assert isinstance(bench, Workbench)
    try:
        assert bench.workspace.kind == "demo"
        assert bench.clock.is_replay  # the demo pins its replay clock
        assert dialog.result() == WelcomeDialog.DialogCode.Accepted
    finally:
        bench.close()


@pytest.mark.slow
def test_demo_choice_creates_the_demo_market_in_a_new_folder(qtbot: QtBot, tmp_path: Path) -> None:
    folder = tmp_path / "demo"  # nothing there yet: the market is generated (several seconds)
    dialog = WelcomeDialog(demo_folder=folder)
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.workspace_opened, timeout=60_000) as signal:
        dialog.choose_demo()
    bench = signal.args[0]
    try:
        assert len(bench.analytics.universe("all")) > 10
        from stockbench.data.demo import STARTER_WATCHLIST

        assert bench.watchlist.symbols() == list(STARTER_WATCHLIST)  # something to right-click at once
    finally:
        bench.close()


def test_new_workspace_goes_into_an_empty_folder(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = WelcomeDialog()
    qtbot.addWidget(dialog)
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine", encoding="utf-8")
    dialog.choose_folder(busy, existing=False)
    assert dialog.status.text() == "Choose an empty folder for a new workspace."
    assert not (busy / "workspace.duckdb").exists()
    with qtbot.waitSignal(dialog.workspace_opened, timeout=10_000) as signal:
        dialog.choose_folder(tmp_path / "fresh", existing=False)
    bench = signal.args[0]
    try:
        assert bench.workspace.kind == "user" and bench.home == (tmp_path / "fresh").resolve()
    finally:
        bench.close()


def test_open_existing_refuses_a_folder_without_a_workspace(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = WelcomeDialog()
    qtbot.addWidget(dialog)
    dialog.choose_folder(tmp_path, existing=True)
    assert "holds no workspace" in dialog.status.text()
    assert dialog.demo_button.isEnabled() and not dialog.opener.busy


def test_the_window_offers_the_welcome_once(qtbot: QtBot, demo_home: Path) -> None:
    window = MainWindow(settings=QSettings())
    qtbot.addWidget(window)
    window.open_workspace(demo_home, "demo", welcome=True)
    dialog = window.findChild(WelcomeDialog)
    assert isinstance(dialog, WelcomeDialog) and dialog.isVisible()
    assert QSettings().value(WELCOME_SETTING, type=bool)
    with qtbot.waitSignal(window.workspace_attached, timeout=30_000):
        dialog.choose_demo()
    assert window.ctx is not None and window.ctx.bench.home == demo_home.resolve()
    window.shutdown()
