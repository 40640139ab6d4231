"""Backups of a workspace: where they live and how they are found (taking, pruning and restoring build on this).

A backup is two files in the backup folder: the copy, `workspace-20261202T071500Z-daily.duckdb`, and beside it
its manifest, the same name with `.json`, written last (after the copy is complete and on disk). A copy without
its manifest is an unfinished backup and is never listed or restored. The folder is the workspace's `backups/`
unless `backups.toml` in the workspace folder names another (for example a synced folder): that choice is kept
in a plain file, not in the database, so it can still be read when the database file is damaged.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from stockbench.config import WorkspacePaths

BackupReason = Literal["close", "daily", "migration", "import", "manual", "restore"]
REASONS: tuple[BackupReason, ...] = ("close", "daily", "migration", "import", "manual", "restore")
FOLDER_FILE = "backups.toml"  # in the workspace folder: `folder = "/path/to/folder"`
_NAME = re.compile(r"^workspace-(\d{8}T\d{6}Z)-([a-z]+)\.duckdb$")
_STAMP = "%Y%m%dT%H%M%SZ"


@dataclass(frozen=True)
class BackupInfo:
    """One complete backup, as its manifest describes it."""

    path: Path
    taken_at: datetime  # UTC
    reason: BackupReason
    bytes: int
    schema_version: int
    sha256: str
    workspace_id: str
    version: str  # the Stock Workbench release that took it

    @property
    def manifest(self) -> Path:
        return manifest_path(self.path)


def backup_name(taken_at: datetime, reason: BackupReason) -> str:
    """The file name of a backup taken at `taken_at` (any zone; named in UTC, to the second)."""
    return f"workspace-{taken_at.astimezone(UTC).strftime(_STAMP)}-{reason}.duckdb"


def manifest_path(backup: Path) -> Path:
    return backup.with_suffix(".json")


def backup_folder(paths: WorkspacePaths) -> Path:
    """The folder this workspace's backups go to: `backups.toml`'s `folder`, else the workspace's `backups/`."""
    chosen = paths.home / FOLDER_FILE
    if chosen.is_file():
        try:
            folder = tomllib.loads(chosen.read_text(encoding="utf-8")).get("folder")
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            folder = None
        if isinstance(folder, str) and folder.strip():
            path = Path(folder).expanduser()
            return path if path.is_absolute() else paths.home / path
    return paths.backups


def read_backup(path: Path) -> BackupInfo | None:
    """The backup at `path`, or None when it is not a complete backup (no manifest, or one that does not parse)."""
    match = _NAME.match(path.name)
    if match is None or not path.is_file():
        return None
    try:
        data = json.loads(manifest_path(path).read_text(encoding="utf-8"))
        reason = data["reason"]
        if reason not in REASONS or reason != match[2]:
            return None
        return BackupInfo(
            path=path,
            taken_at=datetime.strptime(match[1], _STAMP).replace(tzinfo=UTC),
            reason=reason,
            bytes=int(data["bytes"]),
            schema_version=int(data["schema_version"]),
            sha256=str(data["sha256"]),
            workspace_id=str(data.get("workspace_id", "")),
            version=str(data.get("version", "")),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def list_backups(folder: Path) -> list[BackupInfo]:
    """Every complete backup in `folder`, newest first (an absent folder holds none)."""
    if not folder.is_dir():
        return []
    found = [info for path in folder.glob("workspace-*.duckdb") if (info := read_backup(path)) is not None]
    return sorted(found, key=lambda info: (info.taken_at, info.path.name), reverse=True)


def newest_backup(paths: WorkspacePaths) -> BackupInfo | None:
    """The newest complete backup of this workspace, wherever its backups go (None: there is none)."""
    found = list_backups(backup_folder(paths))
    return found[0] if found else None
