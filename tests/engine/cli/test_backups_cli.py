"""`stockbench backup`, `backups list|folder` and `restore` on a real workspace: the JSON keys, the words in both
languages, and a restore that keeps the current file aside and says when the journal holds newer entries."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stockbench.cli.main import run


def call(capsys: pytest.CaptureFixture[str], *args: str, code: int = 0) -> Any:
    capsys.readouterr()  # what earlier commands printed
    result = run([*args, "--json"])
    captured = capsys.readouterr()
    assert result == code, captured.err
    return json.loads(captured.out)


def test_backup_list_folder_and_restore(home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    h = ["--home", str(home)]
    assert run([*h, "ledger", "account", "add", "main", "--currency", "CNY"]) == 0
    assert run([*h, "ledger", "cash", "main", "deposit", "1000"]) == 0
    taken = call(capsys, *h, "backup")
    assert set(taken) >= {"path", "taken_at", "reason", "bytes", "schema_version", "sha256"}
    assert taken["reason"] == "manual" and Path(taken["path"]).parent == home / "backups"
    listed = call(capsys, *h, "backups", "list")
    assert [b["path"] for b in listed] == [taken["path"]]

    assert run([*h, "ledger", "cash", "main", "deposit", "5"]) == 0  # after the backup: in the journal only
    refused = call(capsys, *h, "restore", Path(taken["path"]).name, code=1)
    assert refused["error"]["code"] == "invalid_input" and "--yes" in refused["error"]["hint"]
    done = call(capsys, *h, "restore", Path(taken["path"]).name, "--yes")
    assert Path(done["aside"]).is_file() and done["journal_ahead"] is True
    capsys.readouterr()
    assert run([*h, "--lang", "zh", "restore", Path(taken["path"]).name, "--yes"]) == 0
    said = capsys.readouterr().out
    assert "已恢复" in said and "stockbench ledger rebuild --from-journal" in said
    rebuilt = call(capsys, *h, "ledger", "rebuild", "--from-journal", "--yes")
    assert rebuilt["rebuilt"] is True

    synced = tmp_path / "synced"
    assert call(capsys, *h, "backups", "folder", str(synced)) == {"folder": str(synced.resolve())}
    assert Path(call(capsys, *h, "backup")["path"]).parent == synced.resolve()
    assert call(capsys, *h, "backups", "folder", "--default") == {"folder": str(home / "backups")}
    capsys.readouterr()
    assert run([*h, "--lang", "zh", "backups", "list"]) == 0
    assert capsys.readouterr().out.startswith(f"备份保存在 {home / 'backups'}")
    missing = call(capsys, *h, "restore", "workspace-20200101T000000Z-manual.duckdb", "--yes", code=1)
    assert "is not a complete backup" in missing["error"]["message"]


def test_a_backup_folder_that_cannot_be_written_is_refused_and_the_setting_kept(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    h = ["--home", str(home)]
    good = tmp_path / "synced"
    assert call(capsys, *h, "backups", "folder", str(good))["folder"] == str(good)
    blocked = tmp_path / "a file"
    blocked.write_text("x")
    refused = call(capsys, *h, "backups", "folder", str(blocked / "inside"), code=1)
    assert refused["error"]["code"] == "backup_failed"
    assert (
        "cannot be the backup folder" in refused["error"]["message"]
        and "nothing was changed" in refused["error"]["hint"]
    )
    assert call(capsys, *h, "backups", "folder")["folder"] == str(good)
