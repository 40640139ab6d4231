"""The ledger's checks for `stockbench doctor`: its derived tables equal a replay, and its journal equals its tables.

Both only read: the replay check re-materialises inside a transaction that is always rolled back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stockbench.errors import InvalidInput
from stockbench.ledger.journal import JournalLine, dump_rows, encode, read_journal, source_row_count
from stockbench.ledger.replay import replay
from stockbench.ledger.store import load_entries, materialise
from stockbench.messages import NOTES
from stockbench.store.checks import Check, CheckStatus
from stockbench.store.database import Database

DERIVED = ("ledger_lots", "ledger_totals", "ledger_cash")


def _check(name: str, status: CheckStatus, key: str, **params: object) -> Check:
    values = tuple(sorted((k, str(v)) for k, v in params.items()))
    return Check(name, status, NOTES[key].en.format(**dict(values)), key, values)


class _Undo(Exception):
    """Raised to roll the replay check's transaction back."""


def ledger_replay_check(db: Database) -> Check:
    """ "ledger_replay": replaying every account's entries gives exactly the stored ledger_lots, _totals and _cash."""
    accounts = [r[0] for r in db.fetchall("SELECT name FROM accounts ORDER BY name")]
    found: Check | None = None
    try:
        with db.transaction() as cur:
            for account in accounts:
                stored = {t: _rows(db, t, account) for t in DERIVED}
                state = replay(load_entries(db, account))
                if state.problems:
                    found = _check("ledger_replay", "failed", "check.ledger_replay.fails", account=account,
                                   problem=state.problems[0].problem.message)  # fmt: skip
                    break
                materialise(cur, account, state)
                for table in DERIVED:
                    difference = _first_difference(stored[table], _rows(db, table, account))
                    if difference:
                        found = _check("ledger_replay", "failed", "check.ledger_replay.differs", account=account,
                                       table=table, difference=difference)  # fmt: skip
                        break
                if found:
                    break
            raise _Undo
    except _Undo:
        pass
    return found or _check("ledger_replay", "ok", "check.ledger_replay.ok", accounts=len(accounts))


def _rows(db: Database, table: str, account: str) -> list[str]:
    return sorted(map(repr, db.fetchall(f"SELECT * FROM {table} WHERE account = ?", [account])))


def _first_difference(stored: list[str], replayed: list[str]) -> str:
    for row in stored:
        if row not in replayed:
            return f"stored {row} is not in the replay"
    for row in replayed:
        if row not in stored:
            return f"the replay has {row}, not stored"
    return ""


def journal_check(db: Database, path: Path) -> Check:
    """ "journal": the journal's chain is intact and its records are exactly the ledger tables' rows."""
    if not path.exists() or path.stat().st_size == 0:
        rows = source_row_count(db)
        if rows:
            return _check("journal", "failed", "check.journal.missing", path=path, rows=rows)
        return _check("journal", "ok", "check.journal.empty")
    try:
        lines = read_journal(path)
    except InvalidInput as error:
        params = dict(error.params)
        return _check("journal", "failed", "check.journal.broken", line=params["line"], why=params["why"])
    difference = _journal_difference(db, lines)
    if difference:
        return _check("journal", "failed", "check.journal.differs", difference=difference)
    return _check("journal", "ok", "check.journal.ok", lines=len(lines))


def _journal_difference(db: Database, lines: list[JournalLine]) -> str:
    """The first way the journal's records and the tables' rows differ ("" when they are the same)."""
    tables: dict[tuple[str, str], dict[str, Any]] = {}
    for source, values in dump_rows(db):
        record = {name: encode(codec, v) for (name, codec), v in zip(source.columns, values, strict=True)}
        tables[(source.kind, source.row_id(values))] = record
    seen: dict[tuple[str, str], int] = {}
    for line in lines:
        key = (line.kind, line.id)
        if key in seen:
            return f"line {line.number}: {line.kind} {line.id} is already at line {seen[key]}"
        seen[key] = line.number
        if key not in tables:
            return f"line {line.number}: {line.kind} {line.id} is not in the tables"
        for name, value in line.record:
            if tables[key][name] != value:
                return (f"line {line.number}: {line.kind} {line.id} has {name} {value!r} in the journal, "
                        f"{tables[key][name]!r} in the tables")  # fmt: skip
    for kind, row_id in tables:
        if (kind, row_id) not in seen:
            return f"{kind} {row_id} is in the tables but not in the journal"
    return ""
