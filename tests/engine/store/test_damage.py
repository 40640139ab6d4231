"""A damaged workspace file is refused with a stable reason and the newest backup, and is never changed."""

from __future__ import annotations

import errno
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from stockbench.errors import WorkspaceDamaged
from stockbench.messages import error_words
from stockbench.store.damage import BOOKS, damage_reason, read_problems
from stockbench.store.database import Database
from stockbench.store.workspace import Workspace
from tests.damaged_workspaces import BACKUP_NAME, DAMAGES, DEPOSITS, books_workspace, deposits, flip


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("name", sorted(DAMAGES))
def test_a_damaged_file_is_refused_with_its_reason_and_the_newest_backup(home: Path, name: str) -> None:
    paths = books_workspace(home)
    damage, reason = DAMAGES[name]
    damage(paths.database)
    before = digest(paths.database)
    with pytest.raises(WorkspaceDamaged) as refused:
        Workspace.open(home)
    error = refused.value
    assert (error.reason, error.backup, error.code) == (reason, BACKUP_NAME, "workspace_damaged")
    assert "\n" not in error.message and str(paths.database) in error.message
    assert f"newest backup: {BACKUP_NAME}, taken 2026-12-01 15:30 (Asia/Shanghai)" in error.hint
    assert f"`stockbench restore {BACKUP_NAME}`" in error.hint
    message, hint = error_words(error, "zh")
    assert "工作区文件" in message and f"stockbench restore {BACKUP_NAME}" in hint and "最新的备份" in hint
    assert digest(paths.database) == before  # never modified
    assert not Path(f"{paths.database}.wal").exists()
    assert error.as_dict()["reason"] == reason and error.as_dict()["backup"] == BACKUP_NAME


def test_with_no_backup_the_hint_says_so_and_what_to_do(home: Path) -> None:
    paths = books_workspace(home, backup=False)
    paths.database.write_bytes(b"")
    with pytest.raises(WorkspaceDamaged) as refused:
        Workspace.open(home)
    assert refused.value.backup is None
    assert "there is no backup of this workspace" in refused.value.hint
    assert "move" in refused.value.hint and "open a new workspace" in refused.value.hint
    assert "没有备份" in error_words(refused.value, "zh")[1]


def test_the_lock_is_released_after_a_refusal(home: Path) -> None:
    paths = books_workspace(home)
    good = paths.database.read_bytes()
    paths.database.write_bytes(b"")
    with pytest.raises(WorkspaceDamaged):
        Workspace.open(home)
    paths.database.write_bytes(good)  # what `stockbench restore` will do
    with Workspace.open(home) as ws:
        assert ws.db.scalar("SELECT count(*) FROM cash_entries") == len(DEPOSITS)


def test_a_flip_outside_the_books_opens_and_the_full_read_finds_it(tmp_path: Path) -> None:
    path = tmp_path / "big.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE fills AS SELECT i AS n FROM range(10) t(i)")
    con.execute("CREATE TABLE bars AS SELECT i AS n, repeat('x', 40) || i AS s FROM range(100000) t(i)")
    con.close()
    flip(path.stat().st_size // 2)(path)
    db = Database(path)
    try:
        books = read_problems(db, BOOKS)
        assert books.tables == 1 and books.problems == ()  # the books read at open: bars are not among them
        found = read_problems(db)
        assert found.tables == 2 and [p.table for p in found.problems] == ["bars"]
        assert "checksum" in found.problems[0].error
    finally:
        db.close()


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (OSError(errno.ENOSPC, "No space left on device"), "disk_full"),
        (OSError(errno.EFBIG, "File too large"), "disk_full"),
        (PermissionError(errno.EACCES, "Permission denied"), "read_only"),
        (OSError(errno.EROFS, "Read-only file system"), "read_only"),
        (duckdb.TransactionException('Failed to commit: Could not write file "w.wal": File too large'), "disk_full"),
        (duckdb.IOException('Cannot open file "w.duckdb": Permission denied'), "read_only"),
        (
            duckdb.Error('Failure while replaying WAL file "w.wal": Corrupt WAL file: entry at byte 52'),
            "wal_missing_or_bad",
        ),
        (duckdb.IOException('Failure while replaying WAL file "w.wal": Failed to decode LEB128'), "wal_missing_or_bad"),
        (duckdb.Error("Corrupt database file: computed checksum 1 does not match stored checksum 2"), "corrupt"),
        (duckdb.CatalogException("Table with name nope does not exist!"), None),
        (OSError(errno.ENOENT, "No such file"), None),
        (ValueError("Permission denied"), None),
    ],
)
def test_what_duckdb_and_the_os_say_is_classified(error: BaseException, reason: str | None) -> None:
    assert damage_reason(error) == reason


CRASH = """
import os, sys
from decimal import Decimal
from stockbench.workbench import Workbench
bench = Workbench.open(sys.argv[1])
bench.ledger.cash("main", "deposit", Decimal("444.44"))
os._exit(0)  # as a crash would: no close, no checkpoint
"""


def crash_after_a_deposit(home: Path) -> None:
    """A deposit committed to the WAL, then the process dies before the checkpoint that closing does."""
    env = {**os.environ, "STOCKBENCH_HOME": str(home)}
    subprocess.run([sys.executable, "-c", CRASH, str(home)], check=True, env=env, timeout=60)


def test_a_damaged_wal_is_refused_and_left_as_it_is(home: Path) -> None:
    paths = books_workspace(home)
    crash_after_a_deposit(home)
    wal = Path(f"{paths.database}.wal")
    assert wal.stat().st_size > 200
    flip(60)(wal)
    before = (digest(paths.database), digest(wal))
    with pytest.raises(WorkspaceDamaged) as refused:
        Workspace.open(home)
    assert refused.value.reason == "wal_missing_or_bad" and refused.value.backup == BACKUP_NAME
    assert ".wal" in refused.value.message
    assert (digest(paths.database), digest(wal)) == before


def test_a_missing_wal_after_a_close_loses_nothing(home: Path) -> None:
    """DuckDB accepts a missing WAL silently, so what matters is that a closed workspace needs none: closing
    checkpoints every committed entry into the file."""
    paths = books_workspace(home)
    assert not Path(f"{paths.database}.wal").exists()
    with Workspace.open(home) as ws:
        assert ws.db.scalar("SELECT count(*) FROM cash_entries") == len(DEPOSITS)
    assert deposits(paths.database) == list(DEPOSITS)


def test_a_missing_wal_after_a_crash_is_silent_in_duckdb(home: Path) -> None:
    """What DuckDB does (documented, not wanted): the deposit that lived only in the WAL is gone without a word; the
    ledger journal (issue 21's `journal` check) is what notices."""
    paths = books_workspace(home)
    crash_after_a_deposit(home)
    Path(f"{paths.database}.wal").unlink()
    with Workspace.open(home) as ws:
        assert ws.db.scalar("SELECT count(*) FROM cash_entries") == len(DEPOSITS)
