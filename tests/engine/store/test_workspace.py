from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import duckdb
import pytest

from stockbench.errors import InternalError, WorkspaceLocked, WorkspaceTooNew
from stockbench.store.database import Database
from stockbench.store.migrations import available, current_version, latest_version, migrate
from stockbench.store.workspace import Workspace


def test_open_creates_folder_database_and_latest_schema(home: Path) -> None:
    with Workspace.open(home) as ws:
        assert ws.paths.database.is_file()
        assert ws.paths.exports.is_dir()
        assert ws.schema_version == latest_version()
        info = ws.info()
        assert info.kind == "user"
        assert info.database_bytes > 0
        assert "settings" in info.tables


def test_reopen_keeps_identity(home: Path) -> None:
    with Workspace.open(home) as ws:
        first = ws.info().workspace_id
    with Workspace.open(home) as ws:
        assert ws.info().workspace_id == first


@pytest.mark.parametrize("start", range(latest_version()))
def test_migrates_from_each_earlier_version(tmp_path: Path, start: int) -> None:
    path = tmp_path / "old.duckdb"
    db = Database(path)
    migrate(db, target=start)
    assert current_version(db) == start
    db.close()
    db = Database(path)
    applied = migrate(db)
    assert applied == list(range(start + 1, latest_version() + 1))
    assert current_version(db) == latest_version()
    checksums = dict(db.fetchall("SELECT version, checksum FROM schema_migrations"))
    assert checksums == {m.version: m.checksum for m in available()}
    db.close()


def test_a_newer_workspace_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.duckdb"
    db = Database(path)
    migrate(db)
    with db.transaction() as cur:
        cur.execute(
            "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (999, 'future', 'x', now())"
        )
    with pytest.raises(WorkspaceTooNew, match="schema version 999"):
        migrate(db)
    db.close()


def test_transaction_rolls_back_on_error(tmp_path: Path) -> None:
    db = Database(tmp_path / "t.duckdb")
    migrate(db)

    def failing_write() -> None:
        with db.transaction() as cur:
            cur.execute("INSERT INTO settings (key, value, updated_at) VALUES ('a', '1', now())")
            raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        failing_write()
    assert db.scalar("SELECT count(*) FROM settings") == 0
    db.close()


def test_nested_transaction_joins_the_outer_one(tmp_path: Path) -> None:
    db = Database(tmp_path / "t.duckdb")
    migrate(db)

    def failing_write() -> None:
        with db.transaction() as cur:
            cur.execute("INSERT INTO settings (key, value, updated_at) VALUES ('a', '1', now())")
            with db.transaction() as inner:
                inner.execute("INSERT INTO settings (key, value, updated_at) VALUES ('b', '2', now())")
            raise ValueError("outer")

    with pytest.raises(ValueError, match="outer"):
        failing_write()
    assert db.scalar("SELECT count(*) FROM settings") == 0
    db.close()


def test_threads_write_through_one_writer(tmp_path: Path) -> None:
    db = Database(tmp_path / "t.duckdb")
    migrate(db)
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            for i in range(25):
                with db.transaction() as cur:
                    cur.execute("INSERT INTO settings (key, value, updated_at) VALUES (?, '0', now())", [f"k{n}-{i}"])
                    assert db.cursor() is cur
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert db.scalar("SELECT count(*) FROM settings") == 100
    db.close()


def test_settings_round_trip_and_refuse_secrets(home: Path) -> None:
    with Workspace.open(home) as ws:
        ws.settings.set("ui.language", "zh_CN")
        ws.settings.set("models", {"default": "offline", "ceiling": 1.5})
        assert ws.settings.get("ui.language") == "zh_CN"
        assert ws.settings.get("models")["ceiling"] == 1.5
        assert ws.settings.get("missing", "x") == "x"
        with pytest.raises(InternalError, match="keyring"):
            ws.settings.set("models.deepseek.api_key", "sk-123")
        assert "models.deepseek.api_key" not in ws.settings.all()


_HOLD = """
import sys, time
from stockbench.store.workspace import Workspace
ws = Workspace.open(sys.argv[1], command="holder-test")
print("ready", flush=True)
sys.stdin.readline()
ws.close()
"""


def test_second_process_is_refused_naming_the_holder(home: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(home)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "ready"
        with pytest.raises(WorkspaceLocked) as caught:
            Workspace.open(home)
        assert f"process {holder.pid}" in caught.value.message
        assert "holder-test" in caught.value.message
        assert "--home" in caught.value.hint
        cli = subprocess.run(
            [sys.executable, "-m", "stockbench", "--home", str(home), "info"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert cli.returncode == 1
        assert f"is in use by Stock Workbench process {holder.pid}" in cli.stderr
        assert cli.stdout == ""
    finally:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(timeout=30)
        holder.stdout.close()  # type: ignore[union-attr]
    # Nothing was corrupted: the workspace opens and reads normally afterwards.
    with Workspace.open(home) as ws:
        assert ws.schema_version == latest_version()


def test_a_killed_holder_leaves_no_stale_lock(home: Path) -> None:
    with subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(home)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    ) as holder:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == b"ready"
        holder.kill()
        holder.wait(timeout=30)
    with Workspace.open(home) as ws:
        assert ws.schema_version == latest_version()
    with Workspace.open(home) as ws:  # a later open in the same process (the desktop prepares, then opens)
        stale = ws.take_stale_holder()
        assert stale is not None and stale.pid == holder.pid and stale.command == "holder-test"
        assert ws.take_stale_holder() is None  # said once
    with Workspace.open(home) as ws:
        assert ws.take_stale_holder() is None  # the last session closed it


def test_a_locked_workspace_is_refused_in_the_language_asked_for(home: Path) -> None:
    from stockbench.messages import error_words

    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(home)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        with pytest.raises(WorkspaceLocked) as caught:
            Workspace.open(home)
    finally:
        assert holder.stdin is not None and holder.stdout is not None
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(timeout=30)
        holder.stdout.close()
    message, hint = error_words(caught.value, "zh")
    assert message.startswith(f"工作区 {home} 正被股票研究工作台进程 {holder.pid} 使用") and "holder-test" in message
    assert "打开工作区" in hint and "--home" in hint
    assert error_words(caught.value, "en") == (caught.value.message, caught.value.hint)


def test_duckdb_itself_also_refuses_a_second_writer(home: Path) -> None:
    with Workspace.open(home) as ws:
        probe = f"import duckdb; duckdb.connect({str(ws.paths.database)!r})"
        result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
        assert result.returncode != 0
        assert "lock" in result.stderr.lower()
    duckdb.connect(str(home / "workspace.duckdb")).close()


def test_the_lock_holder_is_described_in_local_time_with_its_zone_named(tmp_path: Path) -> None:
    """Issue 19.5: the message said "since 2026-12-01T12:20:48+00:00" (UTC, as the file stores it)."""
    import json
    from datetime import UTC, datetime

    from stockbench.store.lock import describe_holder

    lock = tmp_path / "workspace.lock"
    started = datetime(2026, 12, 1, 12, 20, 48, tzinfo=UTC)
    lock.write_text(json.dumps({"pid": 4242, "host": "desk", "command": "stockbench (desktop)",
                                "since": started.isoformat()}), encoding="utf-8")  # fmt: skip
    local = started.astimezone()
    text = describe_holder(lock)
    assert f"since {local:%Y-%m-%d %H:%M:%S} {local.tzname()}" in text and "+00:00" not in text
