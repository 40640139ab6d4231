"""Backups of a workspace: where they live and how they are found (taking, pruning and restoring build on this).

A backup is two files in the backup folder: the copy, `workspace-20261202T071500Z-daily.duckdb`, and beside it
its manifest, the same name with `.json`, written last (after the copy is complete and on disk). A copy without
its manifest is an unfinished backup and is never listed or restored. The folder is the workspace's `backups/`
unless `backups.toml` in the workspace folder names another (for example a synced folder): that choice is kept
in a plain file, not in the database, so it can still be read when the database file is damaged.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import stockbench
from stockbench.config import WorkspacePaths
from stockbench.errors import BackupFailed, NotFound
from stockbench.messages import user_error
from stockbench.store.checks import Check

if TYPE_CHECKING:
    from stockbench.store.database import Database

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

    def as_dict(self) -> dict[str, object]:
        return {"path": str(self.path), "taken_at": self.taken_at.isoformat(), "reason": self.reason,
                "bytes": self.bytes, "schema_version": self.schema_version, "sha256": self.sha256}  # fmt: skip


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


def choose_folder(paths: WorkspacePaths, folder: Path | None) -> None:
    """Send this workspace's backups to `folder` (None: back to its own backups/), kept in backups.toml."""
    chosen = paths.home / FOLDER_FILE
    if folder is None:
        chosen.unlink(missing_ok=True)
        return
    target = folder.expanduser().resolve()
    probe = target / f".stockbench-probe-{os.getpid()}"
    try:  # a folder that cannot be written is said now, not at the next backup
        target.mkdir(parents=True, exist_ok=True)
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        raise user_error(BackupFailed, "backup_folder_unusable", folder=target,
                         why=error.strerror or str(error)) from error  # fmt: skip
    paths.home.mkdir(parents=True, exist_ok=True)
    chosen.write_text(f"folder = {json.dumps(target.as_posix())}\n", encoding="utf-8")


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


# ---- taking a backup ----------------------------------------------------------------------------------------------
_CHUNK = 8 << 20


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as reading:
        while chunk := reading.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _copy(source: Path, target: Path) -> str:
    """Copy `source` to `target` (created, never overwritten) and flush it to disk; the copy's sha256."""
    digest = hashlib.sha256()
    with source.open("rb") as reading, target.open("xb") as writing:
        while chunk := reading.read(_CHUNK):
            digest.update(chunk)
            writing.write(chunk)
        writing.flush()
        os.fsync(writing.fileno())
    return digest.hexdigest()


def _free_name(folder: Path, taken_at: datetime, reason: BackupReason) -> tuple[Path, datetime]:
    """The backup's path: named at `taken_at`, or a second later while that name is taken (never overwritten)."""
    at = taken_at.astimezone(UTC).replace(microsecond=0)
    while (folder / backup_name(at, reason)).exists():
        at += timedelta(seconds=1)
    return folder / backup_name(at, reason), at


def _sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every system can sync a folder (the rename is still atomic)
        handle = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


def take_backup(
    db: Database,
    paths: WorkspacePaths,
    reason: BackupReason,
    *,
    folder: Path | None = None,
    now: datetime | None = None,
) -> BackupInfo:
    """A consistent copy of the workspace's database in `folder` (default: its backup folder), with its manifest.

    The copy is taken under the database's single writer: CHECKPOINT folds the write-ahead log into the file, and
    while the writer lock is held no transaction of this process can change the file, so the bytes copied are one
    committed state. (DuckDB's `COPY FROM DATABASE` into an attached file gives the same guarantee but rewrites
    every table: bench/backup.py measures both against `cp`.) The copy is written under a temporary name, flushed,
    renamed, and only then is its manifest written: a backup cut short is never listed. BackupFailed says why a
    backup could not be taken, and leaves nothing behind.
    """
    target_folder = folder if folder is not None else backup_folder(paths)
    taken = now or datetime.now(UTC)
    partial: Path | None = None
    try:
        target_folder.mkdir(parents=True, exist_ok=True)
        with db.exclusive():
            db.cursor().execute("CHECKPOINT")
            path, at = _free_name(target_folder, taken, reason)
            partial = path.with_name(path.name + ".partial")
            partial.unlink(missing_ok=True)
            sha256 = _copy(paths.database, partial)
            version = int(db.scalar("SELECT coalesce(max(version), 0) FROM schema_migrations") or 0)
            workspace_id = str(db.scalar("SELECT id FROM workspace") or "")
        partial.rename(path)
        partial = None
        manifest = {"reason": reason, "bytes": path.stat().st_size, "schema_version": version, "sha256": sha256,
                    "workspace_id": workspace_id, "version": stockbench.__version__,
                    "taken_at": at.isoformat()}  # fmt: skip
        temporary = manifest_path(path).with_suffix(".json.partial")
        temporary.write_text(json.dumps(manifest, indent=2, sort_keys=True), encoding="utf-8")
        temporary.rename(manifest_path(path))
        _sync_folder(target_folder)
    except OSError as error:
        if partial is not None:
            with contextlib.suppress(OSError):
                partial.unlink(missing_ok=True)
        why = error.strerror or type(error).__name__
        raise user_error(BackupFailed, "backup_failed", folder=target_folder, why=why,
                         command="stockbench backups folder DIR") from error  # fmt: skip
    found = read_backup(path)
    if found is None:  # the manifest just written does not read back: the folder is not keeping what is written
        raise user_error(BackupFailed, "backup_failed", folder=target_folder, why="the manifest did not read back",
                         command="stockbench backups folder DIR")  # fmt: skip
    return found


# ---- keeping: the retention rule ---------------------------------------------------------------------------------
KEEP_NEWEST, KEEP_DAYS, KEEP_WEEKS, KEEP_MONTHS = 3, 7, 4, 12
NEVER_PRUNED: frozenset[BackupReason] = frozenset({"manual", "restore"})


def retained(backups: Sequence[BackupInfo], now: datetime) -> set[Path]:
    """The backups the rule keeps: the newest 3 whatever they are; the newest of each of the last 7 days, of each
    of the last 4 ISO weeks and of each of the last 12 months (one backup may count for several); and every
    manual or restore backup (those are the user's to delete)."""
    ordered = sorted(backups, key=lambda b: (b.taken_at, b.path.name), reverse=True)
    keep = {b.path for b in ordered[:KEEP_NEWEST]} | {b.path for b in ordered if b.reason in NEVER_PRUNED}
    today = now.astimezone(UTC).date()
    this_week = today.isocalendar()[:2]

    def weeks_back(day: date) -> int:
        year, week = day.isocalendar()[:2]
        monday = date.fromisocalendar(year, week, 1)
        return (date.fromisocalendar(*this_week, 1) - monday).days // 7

    def months_back(day: date) -> int:
        return (today.year - day.year) * 12 + today.month - day.month

    periods: list[tuple[Callable[[date], object], Callable[[date], bool]]] = [
        (lambda d: d, lambda d: 0 <= (today - d).days < KEEP_DAYS),
        (lambda d: d.isocalendar()[:2], lambda d: 0 <= weeks_back(d) < KEEP_WEEKS),
        (lambda d: (d.year, d.month), lambda d: 0 <= months_back(d) < KEEP_MONTHS),
    ]
    for period_of, recent in periods:
        seen: set[object] = set()
        for backup in ordered:  # newest first: the first of each period is its newest
            day = backup.taken_at.astimezone(UTC).date()
            if recent(day) and period_of(day) not in seen:
                seen.add(period_of(day))
                keep.add(backup.path)
    return keep


def prune(folder: Path, now: datetime) -> list[Path]:
    """Delete the backups in `folder` the retention rule does not keep (each with its manifest); those deleted."""
    backups = list_backups(folder)
    keep = retained(backups, now)
    removed = []
    for backup in backups:
        if backup.path not in keep:
            with contextlib.suppress(FileNotFoundError):
                backup.manifest.unlink()  # the manifest first: a half-removed backup is never listed
                backup.path.unlink()
            removed.append(backup.path)
    return removed


def backup_and_prune(db: Database, paths: WorkspacePaths, reason: BackupReason, *, now: datetime | None = None,
                     folder: Path | None = None) -> BackupInfo:  # fmt: skip
    """Take a backup, then prune its folder by the retention rule."""
    found = take_backup(db, paths, reason, folder=folder, now=now)
    with contextlib.suppress(OSError):  # a backup taken is not undone by a folder that cannot be tidied
        prune(found.path.parent, now or datetime.now(UTC))
    return found


SHA_DIFFERS = "its sha256 differs from its manifest"


def verify_backup(info: BackupInfo) -> str | None:
    """Why the backup's file is not what its manifest says (size or sha256), or None when it is."""
    try:
        if info.path.stat().st_size != info.bytes:
            return "its size differs from its manifest"
        return None if _sha256(info.path) == info.sha256 else SHA_DIFFERS
    except OSError as error:
        return error.strerror or type(error).__name__


# ---- the doctor's check --------------------------------------------------------------------------------------------
STALE_AFTER = timedelta(days=8)
DAILY = timedelta(hours=24)


def backups_check(paths: WorkspacePaths, now: datetime) -> Check:
    """`backups`: a warning when there is none yet (a new workspace's first backup comes with the app's first close
    or day), when the newest is older than 8 days, or when it does not match its manifest; ok otherwise, naming the
    newest. Never a failure: the workspace itself is sound."""
    folder = backup_folder(paths)
    found = list_backups(folder)
    if not found:
        return Check("backups", "warning", f"no backup in {folder} yet (take one: stockbench backup)",
                     "doctor.backups.none", (("command", "stockbench backup"), ("folder", str(folder))))  # fmt: skip
    newest = found[0]
    params = {"name": newest.path.name, "count": str(len(found)), "folder": str(folder),
              "age_days": str((now - newest.taken_at).days)}  # fmt: skip
    if (problem := verify_backup(newest)) is not None:
        params["problem"] = problem
        return Check("backups", "warning", f"the newest backup {newest.path.name} is damaged: {problem}",
                     "doctor.backups.damaged", tuple(sorted(params.items())))  # fmt: skip
    if now - newest.taken_at > STALE_AFTER:
        return Check("backups", "warning", f"the newest backup {newest.path.name} is {params['age_days']} days old",
                     "doctor.backups.old", tuple(sorted(params.items())))  # fmt: skip
    return Check("backups", "ok", f"{len(found)} backup(s) in {folder}; the newest is {newest.path.name}",
                 "doctor.backups.ok", tuple(sorted(params.items())))  # fmt: skip


# ---- restoring -----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Restored:
    """A restore: the backup now in place, and where the file it replaced was kept (None: there was none)."""

    backup: BackupInfo
    aside: Path | None

    def as_dict(self) -> dict[str, object]:
        return {"restored": str(self.backup.path), "aside": None if self.aside is None else str(self.aside),
                "taken_at": self.backup.taken_at.isoformat(), "schema_version": self.backup.schema_version}  # fmt: skip


def find_backup(paths: WorkspacePaths, given: str) -> BackupInfo:
    """The complete backup `given` names: a path, or a file name in the workspace's backup folder."""
    for candidate in (Path(given).expanduser(), backup_folder(paths) / given):
        if (found := read_backup(candidate)) is not None:
            return found
    raise user_error(NotFound, "backup_not_found", name=given, command="stockbench backups list")


def _schema_of(path: Path) -> int:
    """The schema version recorded in the database file at `path` (DuckDB opens it read-only: it must be sound)."""
    import duckdb

    con = duckdb.connect(str(path), read_only=True)
    try:
        row = con.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
        return int(row[0]) if row else 0
    finally:
        con.close()


def _check_restorable(info: BackupInfo, copy: Path, sha256: str, latest: int) -> None:
    """BackupFailed unless `copy` (of the backup `info`, hashed `sha256`) matches its manifest, opens in DuckDB and
    has a schema this release knows."""
    if sha256 != info.sha256:
        raise user_error(BackupFailed, "backup_damaged", name=info.path.name, why=SHA_DIFFERS,
                         command="stockbench backups list")  # fmt: skip
    try:
        version = _schema_of(copy)
    except Exception as error:  # DuckDB's own refusal of the file: say it, do not guess
        raise user_error(BackupFailed, "backup_damaged", name=info.path.name, why=str(error).splitlines()[0],
                         command="stockbench backups list") from error  # fmt: skip
    if version > latest:
        raise user_error(BackupFailed, "backup_too_new", name=info.path.name, version=version, latest=latest)


def restore_backup(paths: WorkspacePaths, given: str, *, now: datetime | None = None) -> Restored:
    """Put the backup `given` in place of the workspace's database, keeping the current file aside.

    The current database is never opened (it may be the damaged file being replaced) and never overwritten: it is
    renamed to `workspace.before-restore-<UTC stamp>.duckdb` (its write-ahead log beside it), then the backup is
    copied in under a temporary name and renamed into place. The workspace lock is held throughout (WorkspaceLocked
    names the holder when the app has it open). The copy made of the backup is checked before anything moves:
    its sha256 against the manifest (read once, while copying), that DuckDB opens it, and that its schema is not newer
    than this release; a failed check removes the copy and changes nothing. The next
    open migrates an older backup as usual.
    """
    from stockbench.store.lock import WorkspaceLock
    from stockbench.store.migrations import latest_version

    info = find_backup(paths, given)
    paths.home.mkdir(parents=True, exist_ok=True)
    lock = WorkspaceLock(paths.lock)
    lock.acquire("stockbench restore")
    try:
        stamp = (now or datetime.now(UTC)).astimezone(UTC).strftime(_STAMP)
        aside: Path | None = None
        database, wal = paths.database, paths.database.with_name(paths.database.name + ".wal")
        incoming = database.with_name(database.name + ".restoring")
        incoming.unlink(missing_ok=True)
        try:
            sha256 = _copy(info.path, incoming)
        except OSError as error:
            incoming.unlink(missing_ok=True)
            raise user_error(BackupFailed, "backup_failed", folder=paths.home, why=error.strerror or str(error),
                             command="stockbench backups folder DIR") from error  # fmt: skip
        try:  # the bytes copied in are the ones checked: hashed once while copying, then opened by DuckDB
            _check_restorable(info, incoming, sha256, latest_version())
        except BaseException:
            incoming.unlink(missing_ok=True)
            raise
        if database.exists():
            aside = database.with_name(f"workspace.before-restore-{stamp}.duckdb")
            n = 1
            while aside.exists():
                aside, n = database.with_name(f"workspace.before-restore-{stamp}-{n}.duckdb"), n + 1
            database.rename(aside)
            if wal.exists():
                wal.rename(aside.with_name(aside.name + ".wal"))
        elif wal.exists():  # a log without its file belongs to no database: kept aside too, never replayed
            wal.rename(database.with_name(f"workspace.before-restore-{stamp}.duckdb.wal"))
        incoming.rename(database)
        _sync_folder(paths.home)
    finally:
        lock.release()
    return Restored(info, aside)
