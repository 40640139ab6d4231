"""A workspace file DuckDB or the OS refuses, said as a `WorkspaceDamaged` with a stable reason and the newest backup.

What DuckDB 2.0 answers (reproduced on real files, see tests/engine/store/test_damage.py):
- a zero-length or foreign file: "... exists, but it is not a valid DuckDB database file!"; a file cut short
  (4,096 bytes, or half of it): "Could not read enough bytes from file ..." -> `not_a_database`;
- a flipped byte in the headers or the catalogue (the first blocks): "Corrupt database file: computed checksum ...
  does not match stored checksum ... in block at location N" at connect; a flipped byte in a table's data block:
  the same, but only when that block is read -> `corrupt` (hence `read_problems`, the read check);
- a damaged `.wal`: "Failure while replaying WAL file ...: Corrupt WAL file ..." (or "Failed to decode LEB128") at
  connect -> `wal_missing_or_bad`. A missing `.wal`, a `.wal` cut short or one whose first byte is flipped is
  accepted silently: the changes committed after the last checkpoint are gone without a word. DuckDB checkpoints
  (and removes the `.wal`) when the workspace closes, so only a crash leaves committed changes in the `.wal` alone;
- a read-only folder or file: PermissionError / "Permission denied" / "Read-only file system" -> `read_only`;
- a full disk, or a file past the size limit: ENOSPC / EFBIG, "No space left on device" / "File too large" ->
  `disk_full` (DuckDB rolls the transaction back: nothing committed before is touched).
"""

from __future__ import annotations

import errno
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

import duckdb

from stockbench.config import WorkspacePaths
from stockbench.errors import DamageReason, WorkspaceDamaged
from stockbench.messages import ERRORS
from stockbench.store.backups import newest_backup

if TYPE_CHECKING:
    from stockbench.store.database import Database

SHANGHAI = ZoneInfo("Asia/Shanghai")
# The user's books and the workspace's own rows: small, and read in full at every open (a few milliseconds);
# `read_problems` with no tables reads everything (doctor's integrity check).
BOOKS = (
    "workspace", "schema_migrations", "settings", "accounts", "account_fees", "cash_entries", "fills", "orders",
    "order_events", "corporate_actions", "voids", "ledger_cash", "ledger_lots", "ledger_totals", "watchlist_groups",
    "watchlist_items",
)  # fmt: skip

_TEXTS: tuple[tuple[DamageReason, tuple[str, ...]], ...] = (  # checked in order: a full disk while writing the WAL
    ("disk_full", ("no space left on device", "file too large", "disk quota exceeded")),
    ("read_only", ("permission denied", "read-only file system", "operation not permitted")),
    ("wal_missing_or_bad", ("replaying wal", "corrupt wal")),
    ("not_a_database", ("not a valid duckdb database file", "could not read enough bytes")),
    ("corrupt", ("corrupt database file", "data may be corrupt", "checksum")),
)
_ERRNOS: dict[int, DamageReason] = {
    errno.ENOSPC: "disk_full", errno.EFBIG: "disk_full", errno.EDQUOT: "disk_full",
    errno.EACCES: "read_only", errno.EPERM: "read_only", errno.EROFS: "read_only",
}  # fmt: skip


def damage_reason(error: BaseException) -> DamageReason | None:
    """Why the workspace file could not be used, read from what DuckDB or the OS raised (None: not a damage)."""
    if isinstance(error, OSError) and error.errno in _ERRNOS:
        return _ERRNOS[error.errno]
    return reason_of_text(str(error)) if isinstance(error, duckdb.Error | OSError) else None


def reason_of_text(text: str) -> DamageReason | None:
    """The damage DuckDB's message `text` describes (None: none it is known to say)."""
    lowered = text.lower()
    return next((reason for reason, marks in _TEXTS if any(mark in lowered for mark in marks)), None)


def damaged(paths: WorkspacePaths, reason: DamageReason) -> WorkspaceDamaged:
    """The error that says `reason` about the workspace at `paths`, naming its newest backup and how to restore it."""
    try:
        backup = newest_backup(paths)
    except OSError:  # the folder cannot even be listed: no backup can be named
        backup = None
    which = "backup" if backup is not None else "no_backup"
    params = {"file": str(paths.database), "folder": str(paths.home)}
    if backup is not None:
        name = backup.path.name
        params |= {"backup": name, "taken": shanghai_time(backup.taken_at), "command": f"stockbench restore {name}"}
    key = f"workspace_damaged.{reason}.{which}"
    message, hint = ERRORS[key]
    return WorkspaceDamaged(
        message.en.format(**params), hint.en.format(**params), reason=reason,
        backup=backup.path.name if backup is not None else None, key=key, params=tuple(sorted(params.items())),
    )  # fmt: skip


def as_damage(paths: WorkspacePaths, error: BaseException) -> WorkspaceDamaged | None:
    """`error` as a `WorkspaceDamaged` of the workspace at `paths`, or None when it is not a damage."""
    if isinstance(error, WorkspaceDamaged):
        return error
    reason = damage_reason(error)
    return damaged(paths, reason) if reason is not None else None


def shanghai_time(moment: datetime) -> str:
    """A backup's time as people read it: Beijing time, to the minute."""
    return f"{moment.astimezone(SHANGHAI):%Y-%m-%d %H:%M} (Asia/Shanghai)"


@dataclass(frozen=True)
class ReadProblem:
    """A table one of whose blocks did not read back (DuckDB's words, for the log and doctor's detail)."""

    table: str
    error: str


@dataclass(frozen=True)
class ReadResult:
    tables: int
    problems: tuple[ReadProblem, ...]
    seconds: float


def read_problems(db: Database, tables: Iterable[str] | None = None) -> ReadResult:
    """Read every value of `tables` (default: every table) so that DuckDB verifies each block's checksum; the
    tables that fail."""
    started = time.perf_counter()
    present = [
        r[0]
        for r in db.fetchall(
            "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() ORDER BY 1"
        )
    ]
    chosen = present if tables is None else [t for t in tables if t in set(present)]
    # the hash of each whole row: every value is read (and the outer sum uses it, so none is optimised away)
    reads = [f'SELECT count(*) AS n, bit_xor(hash(t)) AS h FROM "{table}" AS t' for table in chosen]
    try:  # one query for all (a query costs about a millisecond); only a failure needs one per table, to name it
        if reads:
            db.fetchall(f"SELECT sum(n), bit_xor(h) FROM ({' UNION ALL '.join(reads)})")
        found: list[ReadProblem] = []
    except duckdb.Error:
        found = [ReadProblem(table, error) for table, read in zip(chosen, reads, strict=True)
                 if (error := _read_error(db, read))]  # fmt: skip
    return ReadResult(len(chosen), tuple(found), time.perf_counter() - started)


def _read_error(db: Database, read: str) -> str:
    try:
        db.fetchall(read)
    except duckdb.Error as error:
        return str(error)
    return ""


def books_damage(db: Database) -> DamageReason | None:
    """Why the books (`BOOKS`) do not read back in full, or None when they do: the check at every open."""
    problems = read_problems(db, BOOKS).problems
    if not problems:
        return None
    return next((r for p in problems if (r := reason_of_text(p.error)) is not None), "corrupt")


def unsaved(paths: WorkspacePaths, error: duckdb.Error) -> Exception:
    """A commit that could not be written (a full disk, a read-only file) as the workspace's damage, naming its
    newest backup (what was saved before is intact); any other error as it is."""
    reason = damage_reason(error)
    if reason not in ("disk_full", "read_only"):
        return error
    return damaged(paths, reason)
