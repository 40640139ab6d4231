"""Opening a damaged workspace in the window: a dialog gives the reason, the newest backup and its time, and offers
another workspace, the restore command on the clipboard, or quitting."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import duckdb
import pytest
import shiboken6
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QFileDialog
from pytestqt.qtbot import QtBot

from stockbench.cli.main import run
from stockbench.errors import WorkspaceDamaged
from stockbench.store.backups import list_backups, newest_backup
from tests.damaged_workspaces import BACKUP_NAME, BLOCK, DAMAGES, HEADER, books_workspace, flip
from ui.dialogs.damaged_workspace_dialog import DamagedWorkspaceDialog
from ui.main_window import MainWindow

WAIT_MS = 10_000
SLOW_MS = 30_000  # a workspace opened, then restored and opened again, on a loaded machine


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[MainWindow]:
    made = MainWindow(settings=QSettings())
    made.presenter.interactive = False
    qtbot.addWidget(made)
    yield made
    made.set_language("en")  # the language setting outlives the window: English again for the tests after this one
    made.shutdown()


def open_damaged(window: MainWindow, qtbot: QtBot, home: Path) -> DamagedWorkspaceDialog:
    with qtbot.waitSignal(window.presenter.error_presented, timeout=WAIT_MS):
        window.open_workspace(home)
    dialog = window.damage_dialog
    assert isinstance(dialog, DamagedWorkspaceDialog)
    return dialog


@pytest.mark.parametrize("name", ["truncated_4096", "flip_main_header", "zero_length"])
def test_the_dialog_names_the_reason_and_the_newest_backup(
    window: MainWindow, qtbot: QtBot, tmp_path: Path, name: str
) -> None:
    paths = books_workspace(tmp_path / "books")
    damage, reason = DAMAGES[name]
    damage(paths.database)
    dialog = open_damaged(window, qtbot, paths.home)
    assert dialog.error.reason == reason
    assert dialog.reason_label.text().startswith("The workspace file")
    hint = dialog.hint_label.text()
    assert f"newest backup: {BACKUP_NAME}, taken 2026-12-01 15:30 (Asia/Shanghai)" in hint
    assert f"stockbench restore {BACKUP_NAME}" in hint
    assert dialog.restore_button is not None and dialog.restore_button.text() == "Restore this backup"
    assert dialog.copy_button is not None
    dialog.copy_button.click()
    assert QApplication.clipboard().text() == f"stockbench restore {BACKUP_NAME}"
    assert window.ctx is None  # nothing was attached


def test_open_another_asks_for_a_folder_and_quit_closes_the_window(
    window: MainWindow, qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = books_workspace(tmp_path / "books")
    paths.database.write_bytes(b"")
    asked: list[str] = []
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *args, **kw: asked.append("asked") or "")
    open_damaged(window, qtbot, paths.home).open_button.click()
    assert asked == ["asked"]
    window.show()
    open_damaged(window, qtbot, paths.home).quit_button.click()
    assert not window.isVisible()


def test_in_chinese_with_no_backup(window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    window.set_language("zh_CN")
    paths = books_workspace(tmp_path / "books", backup=False)
    paths.database.write_bytes(b"")
    dialog = open_damaged(window, qtbot, paths.home)
    assert dialog.windowTitle() == "无法打开工作区"
    assert dialog.reason_label.text().startswith("工作区文件") and "此工作区没有备份" in dialog.hint_label.text()
    assert dialog.copy_button is None and dialog.open_button.text() == "打开其他工作区…"


def test_restore_this_backup_puts_it_back_and_opens_the_workspace(
    window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    paths = books_workspace(tmp_path / "books")
    DAMAGES["zero_length"][0](paths.database)
    dialog = open_damaged(window, qtbot, paths.home)
    assert dialog.restore_button is not None
    with qtbot.waitSignal(window.workspace_attached, timeout=WAIT_MS):
        dialog.restore_button.click()
    assert window.ctx is not None and window.ctx.bench.home == paths.home
    assert [a.name for a in window.ctx.bench.ledger.accounts()] == ["main"]
    [aside] = paths.home.glob("workspace.before-restore-*.duckdb")
    assert aside.read_bytes() == b""  # the damaged file, kept beside it


def test_a_block_that_does_not_read_back_while_open_offers_the_newest_backup(
    window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    paths = books_workspace(tmp_path / "books")
    bars = tmp_path / "bars.csv"
    closes = [10 + (i % 97) / 100 for i in range(3001)]  # prices that wander between 10.00 and 10.96
    rows = [f"600519.SH,{day},{closes[i]:.2f},11.00,9.90,{closes[i + 1]:.2f},{closes[i]:.2f},{100000 + i}"
            for i, day in enumerate(sessions(3000))]  # fmt: skip
    bars.write_text("symbol,date,open,high,low,close,prev_close,volume\n" + "\n".join(rows) + "\n", encoding="utf-8")
    assert run(["--home", str(paths.home), "data", "import", str(bars)]) == 0  # after a backup (reason: import)
    newest = newest_backup(paths)
    assert newest is not None and newest.reason == "import"
    flip(bars_offset)(paths.database)
    with qtbot.waitSignal(window.workspace_attached, timeout=SLOW_MS):
        window.open_workspace(paths.home)  # the books read back: the workspace opens
    assert window.ctx is not None
    failures: list[BaseException] = []
    window.ctx.op(lambda bench: bench.data.bars("600519.SH"), failure=failures.append, parent=window)
    qtbot.waitUntil(lambda: failures != [], timeout=SLOW_MS)
    dialog = window.damage_dialog
    assert isinstance(dialog, DamagedWorkspaceDialog) and dialog.windowTitle() == "The workspace file is damaged"
    assert dialog.error.reason == "corrupt" and dialog.error.backup == newest.path.name
    assert f"stockbench restore {newest.path.name}" in dialog.hint_label.text()
    assert [type(f) for f in failures] == [WorkspaceDamaged]  # the screen that asked is told too, in the same words
    assert dialog.restore_button is not None
    with qtbot.waitSignal(window.workspace_attached, timeout=SLOW_MS):
        dialog.restore_button.click()
    assert window.ctx is not None and len(window.ctx.bench.data.bars("600519.SH")) == 0  # the backup before the import
    assert [b.reason for b in list_backups(paths.backups)].count("close") == 0  # the damaged file was not copied


def sessions(count: int) -> list[str]:
    day, found = date(2010, 1, 4), []
    while len(found) < count:
        if day.weekday() < 5:
            found.append(day.isoformat())
        day += timedelta(days=1)
    return found


def bars_offset(database: Path) -> int:
    """The file offset of a close price inside the bars table's data (read only when the bars are read)."""
    con = duckdb.connect(str(database), read_only=True)
    try:
        block, offset = con.execute(
            "SELECT block_id, block_offset FROM pragma_storage_info('bars') "
            "WHERE column_name = 'close' AND block_id >= 0 ORDER BY block_id DESC LIMIT 1"
        ).fetchone() or (0, 0)
    finally:
        con.close()
    return HEADER + int(block) * BLOCK + 8 + int(offset) + 16


def test_a_damage_reported_after_its_dialog_was_closed_shows_it_again(
    window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    """The dialog is deleted when it closes; a later damage report (an op of the same workspace failing late) must
    not touch the deleted dialog (CI: RuntimeError, "Internal C++ object already deleted"), and shows a new one."""
    paths = books_workspace(tmp_path / "books")
    paths.database.write_bytes(b"")
    first = open_damaged(window, qtbot, paths.home)
    first.close()
    qtbot.waitUntil(lambda: not shiboken6.isValid(first), timeout=WAIT_MS)  # deleted on close
    with qtbot.waitSignal(window.presenter.error_presented, timeout=WAIT_MS):
        window.presenter.present(WorkspaceDamaged(f"{paths.database} is damaged", reason="corrupt"))
    assert isinstance(window.damage_dialog, DamagedWorkspaceDialog) and window.damage_dialog is not first
