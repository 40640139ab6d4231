"""Real workspace files damaged the ways disks and people damage them: cut to nothing, cut short, bytes flipped.

`books_workspace` makes a real workspace with an account and three deposits (and, with `backup=True`, a complete
backup of it in `backups/`); `DAMAGES` damages its file in place. Shared by the store, CLI and desktop tests.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import duckdb

from stockbench.cli.main import run
from stockbench.config import WorkspacePaths
from stockbench.store.backups import backup_name, manifest_path

BACKUP_TAKEN = datetime(2026, 12, 1, 7, 30, tzinfo=UTC)  # 15:30 in Asia/Shanghai
BACKUP_NAME = backup_name(BACKUP_TAKEN, "daily")
DEPOSITS = (Decimal("10001.50"), Decimal("20002.25"), Decimal("30003.75"))
HEADER = 12_288  # DuckDB's main header and its two database headers; blocks of 256 KiB (8-byte checksum first) follow
BLOCK = 262_144


def books_workspace(home: Path, *, backup: bool = True) -> WorkspacePaths:
    """A real workspace at `home` with account "main" and `DEPOSITS`, closed (checkpointed), and its backup."""
    assert run(["--home", str(home), "ledger", "account", "add", "main", "--currency", "CNY"]) == 0
    for amount in DEPOSITS:
        assert run(["--home", str(home), "ledger", "cash", "main", "deposit", str(amount)]) == 0
    paths = WorkspacePaths(home)
    if backup:
        paths.backups.mkdir(exist_ok=True)
        copy = paths.backups / BACKUP_NAME
        shutil.copyfile(paths.database, copy)
        digest = hashlib.sha256(copy.read_bytes()).hexdigest()
        manifest = {"reason": "daily", "bytes": copy.stat().st_size, "schema_version": 14, "sha256": digest}
        manifest_path(copy).write_text(json.dumps(manifest), encoding="utf-8")
    return paths


def deposits(database: Path) -> list[Decimal]:
    """The deposits stored in `database`, read directly (read-only), oldest first."""
    con = duckdb.connect(str(database), read_only=True)
    try:
        rows = con.execute("SELECT amount FROM cash_entries WHERE kind = 'deposit' ORDER BY occurred_at").fetchall()
    finally:
        con.close()
    return [Decimal(r[0]) for r in rows]


def books_offset(database: Path) -> int:
    """The file offset of a deposit's amount: a data block of the books (read only when the books are read)."""
    con = duckdb.connect(str(database), read_only=True)
    try:
        block, offset = con.execute(
            "SELECT block_id, block_offset FROM pragma_storage_info('cash_entries') "
            "WHERE column_name = 'amount' AND segment_type LIKE 'DECIMAL%'"
        ).fetchone() or (0, 0)
    finally:
        con.close()
    return HEADER + int(block) * BLOCK + 8 + int(offset)


def truncate(size: int) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        with path.open("r+b") as f:
            f.truncate(size)

    return damage


def flip(at: Callable[[Path], int] | int) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        offset = at(path) if callable(at) else at
        with path.open("r+b") as f:
            f.seek(offset)
            byte = f.read(1)[0]
            f.seek(offset)
            f.write(bytes([byte ^ 0xFF]))

    return damage


def half(path: Path) -> None:
    truncate(path.stat().st_size // 2)(path)


def foreign(path: Path) -> None:
    path.write_bytes(b"PK\x03\x04 a zip file, not a workspace" * 100)


# name: (how the file is damaged, the reason the workspace gives)
DAMAGES: dict[str, tuple[Callable[[Path], None], str]] = {
    "zero_length": (truncate(0), "not_a_database"),
    "truncated_4096": (truncate(4096), "not_a_database"),
    "truncated_half": (half, "not_a_database"),
    "foreign_file": (foreign, "not_a_database"),
    "flip_main_header": (flip(100), "corrupt"),
    "flip_database_header": (flip(4096 + 40), "corrupt"),
    "flip_catalog_block": (flip(HEADER + 200), "corrupt"),
    "flip_books_block": (flip(books_offset), "corrupt"),
}
