"""A workspace: one folder, one DuckDB file, owned by one process at a time.

`Workspace.open(home)` creates the folder on first use, takes the lock (or refuses, naming the holder),
opens the database and applies pending migrations. `close()` releases everything, in reverse order.
"""

from __future__ import annotations

import functools
import logging
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Literal

import duckdb

import stockbench
from stockbench.config import WorkspacePaths, resolve_home
from stockbench.errors import InvalidInput
from stockbench.messages import user_error
from stockbench.store.backups import backup_and_prune
from stockbench.store.damage import as_damage, books_damage, damaged, unsaved
from stockbench.store.database import Database
from stockbench.store.lock import LockHolder, WorkspaceLock
from stockbench.store.migrations import current_version, latest_version, migrate
from stockbench.store.settings import Settings

WorkspaceKind = Literal["user", "demo"]
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WorkspaceInfo:
    home: Path
    database: Path
    kind: str
    workspace_id: str
    created_at: datetime
    schema_version: int
    latest_schema_version: int
    database_bytes: int
    exports_bytes: int
    tables: dict[str, int]


def _folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) if folder.exists() else 0


class Workspace:
    """An open workspace. Use as a context manager, or call `close()`."""

    def __init__(self, paths: WorkspacePaths, lock: WorkspaceLock, db: Database) -> None:
        self.paths, self._lock, self.db = paths, lock, db
        self.settings = Settings(db)

    @classmethod
    def open(
        cls,
        home: str | Path | None = None,
        *,
        kind: WorkspaceKind = "user",
        command: str = "",
    ) -> Workspace:
        """Open (creating if needed) the workspace at `home`, migrate it, and own it until `close()`."""
        paths = WorkspacePaths(resolve_home(home))
        if paths.home.exists() and not paths.home.is_dir():
            raise user_error(InvalidInput, "workspace_is_a_file", home=paths.home, option="--home")
        try:
            return cls._open(paths, kind, command)
        except (OSError, duckdb.Error) as error:
            if (damage := as_damage(paths, error)) is None:
                raise
            log.info("the workspace %s cannot be used (%s): %s", paths.home, damage.reason, error)
            raise damage from error

    @classmethod
    def _open(cls, paths: WorkspacePaths, kind: WorkspaceKind, command: str) -> Workspace:
        paths.home.mkdir(parents=True, exist_ok=True)
        paths.exports.mkdir(exist_ok=True)
        lock = WorkspaceLock(paths.lock)
        lock.acquire(command)
        try:
            db = Database(paths.database, unsaved=functools.partial(unsaved, paths))
        except BaseException:
            lock.release()
            raise
        try:
            # Before anything is written: the books must read back in full (a few milliseconds; doctor reads all).
            if (reason := books_damage(db)) is not None:
                raise damaged(paths, reason)
            if 0 < current_version(db) < latest_version():  # a released workspace about to be upgraded
                backup_and_prune(db, paths, "migration")  # BackupFailed: no migration without its backup
            migrate(db)
            workspace = cls(paths, lock, db)
            workspace._register(kind)
        except BaseException:
            db.close()
            lock.release()
            raise
        return workspace

    def _register(self, kind: WorkspaceKind) -> None:
        if self.db.scalar("SELECT count(*) FROM workspace"):
            return
        with self.db.transaction() as cur:
            cur.execute(
                "INSERT INTO workspace (id, kind, created_at, created_by_version) VALUES (?, ?, ?, ?)",
                [uuid.uuid4().hex, kind, datetime.now(UTC), stockbench.__version__],
            )

    @property
    def home(self) -> Path:
        return self.paths.home

    def take_stale_holder(self) -> LockHolder | None:
        """The process that died holding this workspace, found by this process since the last call (None: each
        session closed it); a front end takes it once, to say so."""
        return self._lock.take_stale_holder()

    @property
    def schema_version(self) -> int:
        return current_version(self.db)

    @property
    def kind(self) -> WorkspaceKind:
        kind: WorkspaceKind = self.db.scalar("SELECT kind FROM workspace")
        return kind

    def info(self) -> WorkspaceInfo:
        """Where the workspace is, its schema version, its sizes and its tables' row counts."""
        self.db.checkpoint()
        ws_id, kind, created = self.db.fetchone("SELECT id, kind, created_at FROM workspace") or (
            "",
            "",
            None,
        )
        names = [
            r[0]
            for r in self.db.fetchall(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY 1"
            )
        ]
        tables = {n: int(self.db.scalar(f'SELECT count(*) FROM "{n}"')) for n in names}
        return WorkspaceInfo(
            home=self.paths.home,
            database=self.paths.database,
            kind=kind,
            workspace_id=ws_id,
            created_at=created,
            schema_version=current_version(self.db),
            latest_schema_version=latest_version(),
            database_bytes=self.paths.database.stat().st_size,
            exports_bytes=_folder_bytes(self.paths.exports),
            tables=tables,
        )

    def close(self) -> None:
        self.db.close()
        self._lock.release()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
