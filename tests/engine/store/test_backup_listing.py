"""Finding backups: only complete ones (copy and manifest), newest first, in the folder the workspace names."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from stockbench.config import WorkspacePaths
from stockbench.store.backups import backup_folder, backup_name, list_backups, manifest_path, newest_backup


def put(folder: Path, at: datetime, reason: str, *, manifest: bool = True) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / backup_name(at, reason)  # type: ignore[arg-type]
    path.write_bytes(b"copy")
    if manifest:
        data = {"reason": reason, "bytes": 4, "schema_version": 14, "sha256": "ab", "workspace_id": "w", "version": "1"}
        manifest_path(path).write_text(json.dumps(data), encoding="utf-8")
    return path


def test_only_complete_backups_are_listed_newest_first(tmp_path: Path) -> None:
    paths = WorkspacePaths(tmp_path)
    old = put(paths.backups, datetime(2026, 11, 30, 7, 0, tzinfo=UTC), "daily")
    new = put(paths.backups, datetime(2026, 12, 1, 8, 30, 5, tzinfo=UTC), "close")
    put(paths.backups, datetime(2026, 12, 2, 9, 0, tzinfo=UTC), "manual", manifest=False)  # unfinished
    (paths.backups / "workspace-garbage.duckdb").write_bytes(b"x")
    found = list_backups(paths.backups)
    assert [b.path for b in found] == [new, old]
    assert found[0].taken_at == datetime(2026, 12, 1, 8, 30, 5, tzinfo=UTC) and found[0].reason == "close"
    assert new.name == "workspace-20261201T083005Z-close.duckdb"
    newest = newest_backup(paths)
    assert newest is not None and newest.path == new


def test_a_manifest_that_disagrees_with_the_name_is_not_a_backup(tmp_path: Path) -> None:
    path = put(tmp_path, datetime(2026, 12, 1, tzinfo=UTC), "daily")
    manifest_path(path).write_text(json.dumps({"reason": "close", "bytes": 4, "schema_version": 1, "sha256": ""}))
    assert list_backups(tmp_path) == []


def test_the_folder_named_in_backups_toml_is_used(tmp_path: Path) -> None:
    paths = WorkspacePaths(tmp_path / "ws")
    paths.home.mkdir()
    assert backup_folder(paths) == paths.backups and newest_backup(paths) is None
    synced = tmp_path / "synced folder"
    (paths.home / "backups.toml").write_text(f'folder = "{synced.as_posix()}"\n', encoding="utf-8")
    assert backup_folder(paths) == synced
    (paths.home / "backups.toml").write_text("folder = [broken", encoding="utf-8")
    assert backup_folder(paths) == paths.backups
