"""Numbered SQL migrations: the schema version lives in the file, and opening a workspace upgrades it.

Migrations are `schema/NNNN_name.sql`, applied in order, each in its own transaction together with
its row in `schema_migrations`. A released migration never changes: its checksum is recorded, and a
workspace written by a newer release (a version this code does not know) is refused, not guessed at.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources

import duckdb

from stockbench.errors import InternalError, WorkspaceTooNew
from stockbench.messages import user_error
from stockbench.store.backfills import seal_reports
from stockbench.store.checks import Check, CheckStatus
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
        raise user_error(WorkspaceTooNew, "workspace_too_new", version=version, known=len(migrations),
                         option="--home DIR")  # fmt: skip
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


@functools.cache
def shipped_tables() -> frozenset[str]:
    """The tables a workspace of this release holds: those every shipped migration creates (applied in memory)."""
    db = Database(":memory:")
    try:
        migrate(db)
        return frozenset(r[0] for r in db.fetchall("SELECT table_name FROM duckdb_tables()"))
    finally:
        db.close()


def schema_check(db: Database) -> Check:
    """Doctor's `schema`: every shipped migration applied with its checksum, no version this release does not know,
    and every table the migrations create present."""
    shipped = {m.version: m for m in available()}
    recorded = dict(db.fetchall("SELECT version, checksum FROM schema_migrations ORDER BY version"))
    unknown = sorted(set(recorded) - set(shipped))
    if unknown:
        return _schema("failed", "unknown", f"version(s) {_listed(unknown)} are unknown to this release",
                       versions=_listed(unknown))  # fmt: skip
    changed = sorted(v for v, checksum in recorded.items() if checksum != shipped[v].checksum)
    if changed:
        return _schema("failed", "checksum", f"migration(s) {_listed(changed)} differ from what this release ships",
                       versions=_listed(changed))  # fmt: skip
    pending = sorted(set(shipped) - set(recorded))
    if pending:
        return _schema("failed", "pending", f"version {max(recorded, default=0)}; migrations {_listed(pending)} "
                       "are not applied", version=max(recorded, default=0), pending=_listed(pending))  # fmt: skip
    tables = "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()"
    present = {r[0] for r in db.fetchall(tables)}
    missing = sorted(shipped_tables() - present)
    if missing:
        return _schema("failed", "tables", f"table(s) {', '.join(missing)} are missing", tables=", ".join(missing))
    return _schema("ok", "ok", f"{len(recorded)} migrations applied, checksums match, {len(present)} tables present",
                   version=len(recorded), tables=len(present))  # fmt: skip


def _listed(versions: list[int]) -> str:
    return ", ".join(str(v) for v in versions)


def _schema(status: CheckStatus, case: str, detail: str, **params: object) -> Check:
    return Check("schema", status, f"schema: {detail}", f"doctor.schema.{case}",
                 tuple(sorted((k, str(v)) for k, v in params.items())))  # fmt: skip
