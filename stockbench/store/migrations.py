"""Numbered SQL migrations: the schema version lives in the file, and opening a workspace upgrades it.

Migrations are `schema/NNNN_name.sql`, applied in order, each in its own transaction together with
its row in `schema_migrations`. A released migration never changes: its checksum is recorded, and a
workspace written by a newer release (a version this code does not know) is refused, not guessed at.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources

import duckdb

from stockbench.errors import InternalError, WorkspaceTooNew
from stockbench.store.backfills import seal_reports
from stockbench.store.database import Database

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


# Steps that SQL cannot express, run right after their migration's SQL in the same transaction. A released
# step never changes, like the SQL beside it.
AFTER_SQL: dict[int, Callable[[duckdb.DuckDBPyConnection], None]] = {10: seal_reports}

_BOOKKEEPING = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       VARCHAR NOT NULL,
    checksum   VARCHAR NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL
)
"""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode("utf-8")).hexdigest()


def available() -> list[Migration]:
    """Every migration shipped with this release, in order."""
    found = []
    for entry in resources.files("stockbench.store.schema").iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise InternalError(f"migrations are not numbered 1..n: {[m.version for m in found]}")
    return found


def latest_version() -> int:
    return len(available())


def current_version(db: Database) -> int:
    """The schema version recorded in the file (0 for an empty file)."""
    exists = db.scalar("SELECT count(*) FROM information_schema.tables WHERE table_name = 'schema_migrations'")
    if not exists:
        return 0
    return int(db.scalar("SELECT coalesce(max(version), 0) FROM schema_migrations"))


def migrate(db: Database, target: int | None = None) -> list[int]:
    """Apply pending migrations up to `target` (default: the latest); return the versions applied."""
    migrations = available()
    target = len(migrations) if target is None else target
    version = current_version(db)
    if version > len(migrations):
        raise WorkspaceTooNew(
            f"This workspace has schema version {version}, newer than this release knows ({len(migrations)}).",
            "Open it with a newer Stock Workbench, or choose another workspace with --home DIR.",
        )
    applied = []
    for migration in migrations[version:target]:
        with db.transaction() as cur:
            cur.execute(_BOOKKEEPING)
            cur.execute(migration.sql)
            if (step := AFTER_SQL.get(migration.version)) is not None:
                step(cur)
            cur.execute(
                "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
                [migration.version, migration.name, migration.checksum, datetime.now(UTC)],
            )
        applied.append(migration.version)
    return applied
