"""`stockbench doctor [--json]`: every check with its status; exit 0 when none failed, 1 when one did; a damaged
file is reported as a failed check naming the newest backup, never a crash."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

from stockbench.cli.main import run
from stockbench.store.migrations import latest_version
from tests.damaged_workspaces import BACKUP_NAME, DAMAGES, books_workspace, flip

CHECKS = ["schema", "report_seals", "integrity", "backups", "ledger_replay", "journal"]


def doctor(capsys: pytest.CaptureFixture[str], home: Path, *options: str) -> tuple[int, Any]:
    capsys.readouterr()
    code = run(["--home", str(home), *options, "doctor", "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_sound_workspace_passes_every_check(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    books_workspace(home)
    code, found = doctor(capsys, home)
    assert code == 0 and found["ok"] is True
    assert [c["name"] for c in found["checks"]] == CHECKS
    # the fixture's backup has a fixed date: by the real clock it grows old (a warning), never a failure
    assert {c["name"]: c["status"] for c in found["checks"] if c["name"] != "backups"} == dict.fromkeys(
        CHECKS[:3] + CHECKS[4:], "ok"
    )
    assert {c["name"]: c["status"] for c in found["checks"]}["backups"] in ("ok", "warning")
    assert set(found) == {"ok", "checks"} and all(set(c) == {"name", "status", "detail"} for c in found["checks"])


def test_human_output_is_one_line_per_check_in_either_language(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    books_workspace(home)
    capsys.readouterr()
    assert run(["--home", str(home), "doctor"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2 + len(CHECKS) and lines[1].startswith(
        f"  [ok] schema: {latest_version()} migrations applied"
    )
    assert lines[-1] == "Nothing is wrong with this workspace."
    assert run(["--lang", "zh", "--home", str(home), "doctor"]) == 0
    chinese = capsys.readouterr().out
    assert f"[正常] 数据结构：已应用 {latest_version()} 个迁移" in chinese and "此工作区没有发现问题。" in chinese


@pytest.mark.parametrize("name", ["zero_length", "truncated_4096", "flip_main_header"])
def test_a_damaged_file_is_a_failed_check_naming_the_backup(
    home: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = books_workspace(home)
    DAMAGES[name][0](paths.database)
    code, found = doctor(capsys, home)
    assert code == 1 and found["ok"] is False
    checks = {c["name"]: c for c in found["checks"]}
    assert checks["integrity"]["status"] == "failed" and BACKUP_NAME in checks["integrity"]["detail"]
    assert f"stockbench restore {BACKUP_NAME}" in checks["integrity"]["detail"]
    assert checks["schema"]["status"] == checks["report_seals"]["status"] == "warning"
    capsys.readouterr()
    assert run(["--lang", "zh", "--home", str(home), "doctor"]) == 1
    assert "[失败] 完整性：工作区文件" in capsys.readouterr().out


def test_a_flip_in_a_large_table_opens_but_the_doctor_finds_it(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = books_workspace(home)
    con = duckdb.connect(str(paths.database))
    con.execute(
        "INSERT INTO bars (symbol, day, open, high, low, close, volume, source, fetched_at) "
        "SELECT '600000.SH', DATE '1990-01-01' + i::INTEGER, 10 + i % 7, 11 + i % 7, 9 + i % 7, 10.5 + i % 7, "
        "1000 + i, 'test', TIMESTAMPTZ '2026-12-01 00:00:00+00' FROM range(60000) t(i)"
    )
    con.execute("CHECKPOINT")
    block = con.execute(
        "SELECT max(block_id) FROM pragma_storage_info('bars') WHERE column_name = 'volume' AND block_id >= 0"
    ).fetchone()
    con.close()
    assert block is not None
    flip(12_288 + int(block[0]) * 262_144 + 1000)(paths.database)
    assert run(["--home", str(home), "ledger", "balance", "main"]) == 0  # the books read back: it opens
    code, found = doctor(capsys, home)
    integrity = {c["name"]: c for c in found["checks"]}["integrity"]
    assert code == 1 and integrity["status"] == "failed" and "bars" in integrity["detail"]
    assert BACKUP_NAME in integrity["detail"]


def test_a_changed_migration_checksum_fails_the_schema_check(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = books_workspace(home)
    con = duckdb.connect(str(paths.database))
    con.execute("UPDATE schema_migrations SET checksum = 'edited' WHERE version = 3")
    con.close()
    code, found = doctor(capsys, home)
    schema = {c["name"]: c for c in found["checks"]}["schema"]
    assert code == 1 and schema["status"] == "failed" and "migration(s) 3 differ" in schema["detail"]


def test_a_missing_table_fails_the_schema_check(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = books_workspace(home)
    con = duckdb.connect(str(paths.database))
    con.execute("DROP TABLE source_health")
    con.close()
    code, found = doctor(capsys, home)
    schema = {c["name"]: c for c in found["checks"]}["schema"]
    assert code == 1 and schema["status"] == "failed" and "source_health" in schema["detail"]
