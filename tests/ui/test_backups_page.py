"""Settings > Backups: the folder and the backups taken so far, a backup by hand, another folder, and a restore that
closes the workspace, puts the backup back (the current file kept aside) and offers the journal's newer entries."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from stockbench.workbench import Workbench
from ui.dialogs.settings.settings_dialog import SettingsDialog
from ui.main_window import MainWindow

WAIT_MS = 20_000


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    home = tmp_path / "books"
    with Workbench.open(home) as bench:
        bench.ledger.add_account("main", "CNY")
    made = MainWindow(settings=QSettings())
    made.presenter.interactive = False
    qtbot.addWidget(made)
    with qtbot.waitSignal(made.workspace_attached, timeout=WAIT_MS):
        made.attach_bench(Workbench.open(home))
    yield made
    made.shutdown()


def backups_page(window: MainWindow, qtbot: QtBot) -> SettingsDialog:
    dialog = window.open_settings()
    assert isinstance(dialog, SettingsDialog)
    dialog.tabs.setCurrentWidget(dialog.backups)
    qtbot.waitUntil(lambda: dialog.backups.view is not None, timeout=WAIT_MS)
    return dialog


def test_back_up_now_lists_the_copy_and_another_folder_takes_the_next(
    window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    page = backups_page(window, qtbot).backups
    assert page.view is not None and page.view.backups == () and not page.view.chosen
    assert "books" in page.folder.text() and not page.default_button.isEnabled()
    assert not page.restore_button.isEnabled()
    page.backup_button.click()
    qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=WAIT_MS)
    assert page.table.item(0, 1).text() == "by hand" and page.table.item(0, 3).text().endswith("-manual.duckdb")
    assert page.status.text().startswith("Backed up: workspace-")
    synced = tmp_path / "synced"
    page._set_folder(synced)
    qtbot.waitUntil(lambda: page.view is not None and page.view.chosen, timeout=WAIT_MS)
    assert str(synced) in page.folder.text() and page.table.rowCount() == 0 and page.default_button.isEnabled()
    page.backup_button.click()
    qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=WAIT_MS)
    assert len(list(synced.glob("workspace-*-manual.duckdb"))) == 1
    page.default_button.click()  # back to the workspace's own folder: the first backup is listed again
    qtbot.waitUntil(lambda: page.view is not None and not page.view.chosen, timeout=WAIT_MS)
    assert page.table.rowCount() == 1


def test_a_folder_that_cannot_be_written_is_said_and_nothing_changes(
    window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    page = backups_page(window, qtbot).backups
    blocked = tmp_path / "a file"
    blocked.write_text("x")
    page._set_folder(blocked / "inside")
    qtbot.waitUntil(lambda: "cannot be the backup folder" in page.status.text(), timeout=WAIT_MS)
    assert window.ctx is not None and window.ctx.bench.backup_folder() == window.ctx.bench.paths.backups


def test_restore_puts_the_backup_back_keeps_the_file_aside_and_offers_the_journal(
    window: MainWindow, qtbot: QtBot
) -> None:
    assert window.ctx is not None
    home = window.ctx.bench.home
    dialog = backups_page(window, qtbot)
    page = dialog.backups
    page.backup_button.click()
    qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=WAIT_MS)
    window.ctx.bench.ledger.cash("main", "deposit", Decimal("5000"))  # after the backup: only in the journal
    page.table.selectRow(0)
    assert page.restore_button.isEnabled()
    page.ask_restore()
    box = page.confirm
    assert box.isVisible() and "workspace.before-restore-" in box.informativeText()
    [restore] = [b for b in box.buttons() if b.text() == "Restore"]
    with qtbot.waitSignal(window.workspace_attached, timeout=WAIT_MS):
        restore.click()
    assert window.ctx is not None and window.ctx.bench.home == home
    assert [a.name for a in window.ctx.bench.ledger.accounts()] == ["main"]
    assert window.ctx.bench.ledger.balance("main").get("CNY", Decimal(0)) == 0  # the books as the backup held them
    [aside] = home.glob("workspace.before-restore-*.duckdb")
    assert aside.name in window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: getattr(window, "journal_box", None) is not None, timeout=WAIT_MS)
    journal: QMessageBox = window.journal_box
    [rebuild] = [b for b in journal.buttons() if b.text() == "Rebuild the books"]
    rebuild.click()
    qtbot.waitUntil(lambda: "rebuilt from the journal" in window.statusBar().currentMessage(), timeout=WAIT_MS)
    assert window.ctx.bench.ledger.balance("main")["CNY"] == Decimal("5000")
