"""Rolling backups: a consistent copy at each trigger (before a migration and a ledger import, on close, once a
day), the retention rule, restore keeping the current file aside, and the doctor's check."""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest

from stockbench.clock import ReplayClock
from stockbench.config import WorkspacePaths
from stockbench.errors import BackupFailed, InvalidInput, NotFound, WorkspaceLocked
from stockbench.store.backups import (
    BackupInfo,
    backup_name,
    backups_check,
    list_backups,
    prune,
    restore_backup,
    retained,
    take_backup,
)
from stockbench.store.database import Database
from stockbench.store.migrations import current_version, latest_version, migrate
from stockbench.workbench import Workbench

NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
CSV = "executed_at,symbol,side,qty,price\n2024-01-02 10:00,600519,buy,100,1650\n"


def workbench(home: Path) -> Workbench:
    return Workbench.open(home, clock=ReplayClock.as_of(datetime(2024, 1, 3, 10, tzinfo=UTC)))


def with_books(home: Path) -> None:
    with workbench(home) as bench:
        bench.ledger.add_account("main", "CNY")
        bench.ledger.cash("main", "deposit", Decimal("1000000"), at=datetime(2023, 12, 29, 1, tzinfo=UTC))


def cash_of(database: Path) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(database), read_only=True)
    try:
        return con.execute("SELECT account, kind, amount FROM cash_entries ORDER BY 1, 2").fetchall()
    finally:
        con.close()


# ---- taking one ------------------------------------------------------------------------------------------------
def test_a_backup_is_a_complete_copy_with_its_manifest(home: Path) -> None:
    with_books(home)
    with workbench(home) as bench:
        found = bench.backup()
        assert found.reason == "manual" and found.path.parent == WorkspacePaths(home).backups
        assert found.sha256 == hashlib.sha256(found.path.read_bytes()).hexdigest()
        assert found.schema_version == latest_version() and found.bytes == found.path.stat().st_size
        assert bench.backups() == [found]
    assert cash_of(found.path) == cash_of(home / "workspace.duckdb") == [("main", "deposit", Decimal("1000000.00"))]
    assert not list(found.path.parent.glob("*.partial"))


def test_two_backups_in_one_second_never_overwrite_each_other(home: Path) -> None:
    with workbench(home) as bench:
        paths = bench.paths
        first = take_backup(bench.workspace.db, paths, "manual", now=NOW)
        second = take_backup(bench.workspace.db, paths, "manual", now=NOW)
    assert first.path != second.path and second.taken_at == NOW + timedelta(seconds=1)


def test_a_backup_that_cannot_be_written_says_why_and_leaves_nothing(home: Path, tmp_path: Path) -> None:
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("x")
    with workbench(home) as bench:
        with pytest.raises(BackupFailed) as refused:
            bench.backup(to=blocked / "inside")
        assert "no backup could be written to" in refused.value.message
        assert "stockbench backups folder DIR" in refused.value.hint
    assert blocked.read_text() == "x"


# ---- the triggers --------------------------------------------------------------------------------------------------
def test_a_migration_is_preceded_by_a_backup_of_the_old_file(home: Path) -> None:
    home.mkdir(parents=True)
    db = Database(home / "workspace.duckdb")
    migrate(db, target=latest_version() - 1)  # a workspace of the previous release
    db.close()
    with workbench(home) as bench:
        assert bench.workspace.schema_version == latest_version()
        [taken] = bench.backups()
    assert taken.reason == "migration" and taken.schema_version == latest_version() - 1
    with workbench(home) as bench:  # an up-to-date workspace: no migration, no backup
        assert len(bench.backups()) == 1


def test_no_migration_runs_without_its_backup(home: Path, tmp_path: Path) -> None:
    home.mkdir(parents=True)
    db = Database(home / "workspace.duckdb")
    migrate(db, target=latest_version() - 1)
    db.close()
    blocked = tmp_path / "not a folder"
    blocked.write_text("x")
    (home / "backups.toml").write_text(f'folder = "{(blocked / "b").as_posix()}"\n', encoding="utf-8")
    with pytest.raises(BackupFailed):
        Workbench.open(home)
    db = Database(home / "workspace.duckdb")
    assert current_version(db) == latest_version() - 1  # untouched
    db.close()


def test_a_ledger_import_is_preceded_by_a_backup_and_a_check_is_not(home: Path, tmp_path: Path) -> None:
    with_books(home)
    fills = tmp_path / "fills.csv"
    fills.write_text(CSV, encoding="utf-8")
    with workbench(home) as bench:
        bench.ledger.import_fills(fills, "main", dry_run=True)
        assert bench.backups() == []
        bench.ledger.import_fills(fills, "main")
        [taken] = bench.backups()
    assert taken.reason == "import"
    assert cash_of(taken.path) == [("main", "deposit", Decimal("1000000.00"))]
    con = duckdb.connect(str(taken.path), read_only=True)
    assert con.execute("SELECT count(*) FROM fills").fetchone() == (0,)  # the copy is of the books before it
    con.close()


BARS = "symbol,date,open,high,low,close,prev_close,volume\n600519.SH,2024-01-02,10.00,10.50,9.90,10.20,10.00,100000\n"


def test_a_market_data_import_is_preceded_by_a_backup_and_a_missing_file_is_not(home: Path, tmp_path: Path) -> None:
    with_books(home)
    with workbench(home) as bench:
        with pytest.raises(InvalidInput):
            bench.data.import_file(tmp_path / "absent.csv")
        assert bench.backups() == []  # nothing to import: nothing copied
        bars = tmp_path / "bars.csv"
        bars.write_text(BARS, encoding="utf-8")
        report = bench.data.import_file(bars)
        [taken] = bench.backups()
    assert report.stored == 1 and taken.reason == "import"
    con = duckdb.connect(str(taken.path), read_only=True)
    try:  # the copy is of the workspace before the bars came in
        assert con.execute("SELECT count(*) FROM bars WHERE symbol = '600519.SH'").fetchone() == (0,)
    finally:
        con.close()


def test_closing_a_users_workspace_backs_it_up_and_the_demo_is_not(home: Path, tmp_path: Path) -> None:
    with workbench(home) as bench:
        taken = bench.backup_on_close()
    assert taken is not None and taken.reason == "close"
    demo = tmp_path / "demo"
    with Workbench.open(demo, kind="demo") as bench:
        assert bench.backup_on_close() is None and bench.backup_if_due() is None


def test_the_daily_backup_is_taken_once_a_day(home: Path) -> None:
    with workbench(home) as bench:
        first = bench.backup_if_due(NOW)
        assert first is not None and first.reason == "daily"
        assert bench.backup_if_due(first.taken_at + timedelta(hours=23)) is None
        later = bench.backup_if_due(first.taken_at + timedelta(hours=24, seconds=1))
        assert later is not None and later.reason == "daily"


# ---- the retention rule ---------------------------------------------------------------------------------------------
def info(at: datetime, reason: str = "daily") -> BackupInfo:
    return BackupInfo(Path(backup_name(at, reason)), at, reason, 1, 1, "", "", "")  # type: ignore[arg-type]


def test_retention_keeps_7_daily_4_weekly_12_monthly_the_newest_3_and_every_manual_one() -> None:
    now = datetime(2026, 12, 2, 12, tzinfo=UTC)  # a Wednesday
    daily = [info(now - timedelta(days=n, hours=1)) for n in range(500)]  # one a day for 500 days
    extra = [info(now - timedelta(minutes=m), "close") for m in (5, 10, 15, 20)]  # several today
    manual = info(now - timedelta(days=900), "manual")
    kept = retained([*daily, *extra, manual], now)
    days = {b.taken_at.date() for b in [*daily, *extra] if b.path in kept}
    today = now.date()
    assert {today - timedelta(days=n) for n in range(7)} <= days  # the last 7 days
    weeks = {d.isocalendar()[:2] for d in days}
    assert all((today - timedelta(weeks=n)).isocalendar()[:2] in weeks for n in range(4))
    months = {(d.year, d.month) for d in days}
    assert len({m for m in months if (today.year - m[0]) * 12 + today.month - m[1] < 12}) == 12
    assert min(days) >= date(2025, 12, 1)  # nothing older than the 12th month back...
    assert manual.path in kept  # ...but the manual backup
    assert {b.path for b in extra[:3]} <= kept and extra[3].path not in kept  # today: the newest 3, then one a day
    assert len(kept) <= 3 + 7 + 4 + 12 + 1


def test_prune_removes_what_the_rule_drops_with_its_manifest(home: Path) -> None:
    with workbench(home) as bench:
        for n in range(12):
            take_backup(bench.workspace.db, bench.paths, "daily", now=NOW - timedelta(minutes=10 * n))
        folder = bench.paths.backups
    removed = prune(folder, NOW)
    left = list_backups(folder)
    assert len(removed) == 12 - 3 and len(left) == 3  # one day: the newest three
    assert sorted(p.name for p in folder.iterdir()) == sorted([*(b.path.name for b in left),
                                                               *(b.manifest.name for b in left)])  # fmt: skip


# ---- restoring ----------------------------------------------------------------------------------------------------
def test_restore_keeps_the_current_file_aside_and_puts_the_backup_in_place(home: Path) -> None:
    with_books(home)
    with workbench(home) as bench:
        taken = bench.backup()
        bench.ledger.cash("main", "withdrawal", Decimal("100"), at=datetime(2024, 1, 2, 2, tzinfo=UTC))
    current = (home / "workspace.duckdb").read_bytes()
    done = restore_backup(WorkspacePaths(home), taken.path.name, now=NOW)
    assert done.aside == home / "workspace.before-restore-20261202T090000Z.duckdb"
    assert done.aside.read_bytes() == current  # kept, byte for byte
    assert cash_of(home / "workspace.duckdb") == [("main", "deposit", Decimal("1000000.00"))]
    again = restore_backup(WorkspacePaths(home), str(taken.path), now=NOW)  # by path; never overwrites the first
    assert again.aside is not None and again.aside != done.aside and done.aside.exists()


def test_restore_works_when_the_current_file_is_damaged(home: Path) -> None:
    with_books(home)
    with workbench(home) as bench:
        taken = bench.backup()
    (home / "workspace.duckdb").write_bytes(b"\0" * 4096)
    done = restore_backup(WorkspacePaths(home), taken.path.name, now=NOW)
    assert done.aside is not None and done.aside.read_bytes() == b"\0" * 4096
    with workbench(home) as bench:
        assert [a.name for a in bench.ledger.accounts()] == ["main"]


def test_restore_refuses_an_altered_backup_an_unknown_name_and_an_open_workspace(home: Path) -> None:
    with workbench(home) as bench:
        taken = bench.backup()
        with pytest.raises(WorkspaceLocked):
            restore_backup(bench.paths, taken.path.name)
    before = (home / "workspace.duckdb").read_bytes()
    with pytest.raises(NotFound):
        restore_backup(WorkspacePaths(home), "workspace-20200101T000000Z-manual.duckdb")
    damaged = bytearray(taken.path.read_bytes())
    damaged[5000] ^= 0xFF
    taken.path.write_bytes(bytes(damaged))
    with pytest.raises(BackupFailed, match="sha256 differs"):
        restore_backup(WorkspacePaths(home), taken.path.name)
    assert (home / "workspace.duckdb").read_bytes() == before
    assert not list(home.glob("workspace.before-restore-*"))


# ---- the doctor's check ----------------------------------------------------------------------------------------------
def test_the_backups_check(home: Path) -> None:
    paths = WorkspacePaths(home)
    with workbench(home) as bench:
        assert backups_check(paths, NOW).status == "warning"  # none yet: a warning, the workspace is sound
        taken = bench.backup()
    assert backups_check(paths, taken.taken_at + timedelta(days=1)).status == "ok"
    old = backups_check(paths, taken.taken_at + timedelta(days=9))
    assert (old.status, old.key) == ("warning", "doctor.backups.old")
    taken.path.write_bytes(taken.path.read_bytes()[:-1] + b"?")
    assert backups_check(paths, taken.taken_at).key == "doctor.backups.damaged"
