"""Rebuilding the ledger from its journal: the source tables replaced by the journal's records, then replayed.

The whole chain is verified before anything changes (a broken line is refused by its number). The tables are
then emptied and refilled, and every account's derived state re-materialised, in one transaction; the
journal's last line becomes the tables' head. A journal given from elsewhere (`source`) becomes the
workspace's journal at that commit, the one it replaces kept beside it as `ledger-journal.replaced-*.jsonl`.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from stockbench.errors import InvalidInput, NotFound
from stockbench.ledger.journal import (
    ENTRY_KINDS,
    SOURCES,
    Journal,
    JournalLine,
    Tail,
    pending_marker,
    read_journal,
    set_head,
    source_row_count,
    write_durably,
)
from stockbench.ledger.replay import replay
from stockbench.ledger.store import LEDGER_TABLES, load_entries, materialise
from stockbench.messages import user_error
from stockbench.store.database import Database


@dataclass(frozen=True)
class RebuildResult:
    """What a rebuild restored: the journal's lines, and the rows of each kind."""

    lines: int
    kinds: tuple[tuple[str, int], ...]  # (kind, rows) in journal kind order

    def count(self, *kinds: str) -> int:
        return sum(n for k, n in self.kinds if k in kinds)

    def as_dict(self) -> dict[str, object]:
        return {
            "lines": self.lines,
            "accounts": self.count("account"),
            "entries": self.count(*ENTRY_KINDS),
            "orders": self.count("order"),
            "rebuilt": True,
        }


def rebuild_from_journal(
    db: Database, journal: Path, source: Path | None = None, *, yes: bool = False
) -> RebuildResult:
    """Replace the ledger tables with the records of `source` (default: the workspace's `journal`) and replay them.

    Refused, changing nothing, when a line is broken (InvalidInput naming it), when the file is missing
    (NotFound), or when the ledger already holds rows and `yes` is not given.
    """
    source = source or journal
    if source.resolve() == journal.resolve():
        Journal(db, journal).settle()
    if not source.is_file():
        raise user_error(NotFound, "journal_missing", path=source, option="--journal PATH")
    lines = read_journal(source)
    rows = source_row_count(db)
    if rows and not yes:
        raise user_error(InvalidInput, "rebuild_needs_yes", rows=rows, lines=len(lines))
    with db.transaction() as cur:
        for table in LEDGER_TABLES:
            cur.execute(f"DELETE FROM {table}")
        _insert(db, lines)
        _advance_sequence(db, lines)
        for (account,) in db.fetchall("SELECT name FROM accounts ORDER BY name"):
            state = replay(load_entries(db, account))
            if state.problems:
                raise user_error(InvalidInput, "journal_inconsistent", account=account, command="stockbench doctor",
                                 problem=state.problems[0].problem.message)  # fmt: skip
            materialise(cur, account, state)
        set_head(db, Tail(lines[-1].seq, lines[-1].hash) if lines else Tail())
        if source.resolve() != journal.resolve():
            db.at_commit(_Adopt(source, journal))
    counted = Counter(line.kind for line in lines)
    return RebuildResult(len(lines), tuple((s.kind, counted[s.kind]) for s in SOURCES))


def _insert(db: Database, lines: list[JournalLine]) -> None:
    cur = db.cursor()
    for source in SOURCES:
        values = [line.values for line in lines if line.kind == source.kind]
        if values:
            marks = ", ".join("?" * len(source.columns))
            cur.executemany(f"INSERT INTO {source.table} ({source.names}) VALUES ({marks})", values)


def _advance_sequence(db: Database, lines: list[JournalLine]) -> None:
    """Move `ledger_seq` past every restored entry's seq, so that new entries still replay after them."""
    highest = max((line.values[-1] for line in lines if line.kind in ENTRY_KINDS), default=0)  # seq: last column
    current = db.scalar("SELECT last_value FROM duckdb_sequences() WHERE sequence_name = 'ledger_seq'") or 0
    if highest > current:
        db.fetchall("SELECT max(nextval('ledger_seq')) FROM range(?)", [highest - current])


class _Adopt:
    """At commit, the given journal becomes the workspace's (the one it replaces moved aside); undone on abort."""

    def __init__(self, source: Path, target: Path) -> None:
        self.source, self.target = source, target
        self.aside: Path | None = None
        self.placed = False

    def prepare(self) -> None:
        copy = self.target.with_name(self.target.name + ".incoming")
        write_durably(copy, self.source.read_bytes(), append=False)
        if self.target.exists() and self.target.stat().st_size:
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
            self.aside = self.target.with_name(f"{self.target.stem}.replaced-{stamp}.jsonl")
            os.replace(self.target, self.aside)
        os.replace(copy, self.target)
        self.placed = True
        pending_marker(self.target).unlink(missing_ok=True)

    def committed(self) -> None:
        """Nothing more: the file is in place."""

    def aborted(self) -> None:
        if not self.placed:
            return
        if self.aside is not None:
            os.replace(self.aside, self.target)
        else:
            shutil.move(self.target, self.target.with_name(self.target.name + ".not-adopted"))
