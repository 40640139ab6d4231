"""The text journal of the books: every row written to a ledger source table, also appended to a plain file.

The file (`<home>/ledger-journal.jsonl`) holds one UTF-8 JSON object per line, keys sorted, e.g.

    {"hash":"9f2c…","id":"C20240102-1a2b3c4d","kind":"cash","prev":"41d0…","record":{"account":"main",
     "amount":"100000.0000","currency":"CNY",…,"occurred_at":"2024-01-02T09:00:00+08:00",…},
     "recorded_at":"2024-01-02T09:00:01.250000+08:00","seq":2}

- `seq` counts lines from 1; `kind` is one of account, fee_terms, cash, fill, action, order, order_event, void
  (the tables accounts, account_fees, cash_entries, fills, corporate_actions, orders, order_events, voids);
  `id` names the row (its key; fee terms "ACCOUNT MARKET SINCE", order events "ORDER KIND AT").
- `record` is every column of the row exactly as stored: decimals as strings with the column's scale, times as
  ISO 8601 in exchange time (UTC+8) with the offset, dates as ISO dates, booleans and integers as JSON.
- `recorded_at` is when the line was written; `prev` is the previous line's `hash` ("" on line 1); `hash` is the
  SHA-256 (hex) of the line's canonical JSON without `hash` (sorted keys, separators "," and ":", UTF-8).
  Lines are written in exactly that canonical form plus `hash`, so any edit breaks the chain at its line.

The derived tables (ledger_lots, ledger_totals, ledger_cash) are not journalled: a rebuild replays the entries.

Writing in step with the tables (a file cannot join a DuckDB transaction):
1. A ledger write inserts its rows and notes them (`Journal.noted`); the journal joins the transaction as a
   `CommitHook`.
2. Just before COMMIT it checks that the file's last line is the one the tables last committed with (the
   setting `ledger.journal_head`), writes `ledger-journal.pending` (the file's size and last line before this
   write), appends the new lines, fsyncs, and sets the head to its new last line in the same transaction. A
   failure in any of this aborts the transaction: no row is ever in the tables without its line.
3. After COMMIT the pending marker is removed. If the transaction aborts instead, the appended bytes are cut
   off again and the marker removed.
4. After a crash between the file write and COMMIT, the marker is still there and the tables' head is still the
   marker's: the next open (or rebuild) moves the uncommitted lines to `ledger-journal.aborted.jsonl` and cuts
   them off. Committed lines are never rewritten; only bytes of a transaction that did not commit are removed.
5. A journal that is ahead of the tables without a marker (the database was deleted or restored from a
   backup) is left alone and further ledger writes are refused until `stockbench ledger rebuild
   --from-journal` brings the tables up to it. A workspace with ledger rows and no journal (one written before
   the journal existed) gets it started on open: a complete dump of the tables as ordinary lines, once.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Literal

from stockbench.clock import MARKET_TZ
from stockbench.errors import InvalidInput
from stockbench.messages import user_error
from stockbench.store.database import Database
from stockbench.store.settings import LEDGER_JOURNAL_HEAD, Settings

Codec = Literal["text", "int", "decimal", "instant", "date", "bool"]
Kind = Literal["account", "fee_terms", "cash", "fill", "action", "order", "order_event", "void"]
SHOWN_TZ = MARKET_TZ["CN"]  # UTC+8: Shanghai, Shenzhen and Hong Kong read the same clock


@dataclass(frozen=True)
class Source:
    """One journalled table: its kind of line, its key, its columns (name and how each is written)."""

    kind: Kind
    table: str
    key: tuple[str, ...]
    columns: tuple[tuple[str, Codec], ...]
    order: str  # ORDER BY of a complete dump

    @property
    def names(self) -> str:
        return ", ".join(name for name, _ in self.columns)

    def row_id(self, values: Sequence[Any]) -> str:
        codecs = dict(self.columns)
        index = {name: i for i, (name, _) in enumerate(self.columns)}
        return " ".join(str(encode(codecs[k], values[index[k]])) for k in self.key)


def _cols(spec: str) -> tuple[tuple[str, Codec], ...]:
    pairs = (part.split(":") for part in spec.split())
    return tuple((name, codec) for name, codec in pairs)  # type: ignore[misc]


SOURCES: tuple[Source, ...] = (
    Source("account", "accounts", ("name",),
           _cols("name:text base_currency:text markets:text created_at:instant note:text"), "created_at, name"),
    Source("fee_terms", "account_fees", ("account", "market", "since"),
           _cols("account:text market:text since:instant commission_rate:decimal commission_min:decimal "
                 "bundled_exchange_fees:bool"), "account, market, since"),
    Source("order", "orders", ("order_id",),
           _cols("order_id:text account:text symbol:text side:text qty:int price:decimal placed_at:instant "
                 "valid_until:date report_id:text note:text recorded_at:instant"), "recorded_at, order_id"),
    Source("cash", "cash_entries", ("entry_id",),
           _cols("entry_id:text account:text kind:text currency:text amount:decimal occurred_at:instant "
                 "symbol:text transfer_id:text fx_rate:decimal note:text recorded_at:instant seq:int"), "seq"),
    Source("fill", "fills", ("fill_id",),
           _cols("fill_id:text account:text symbol:text side:text qty:int price:decimal currency:text "
                 "executed_at:instant trade_date:date fees:decimal fee_items:text fees_source:text settlement:text "
                 "order_id:text report_id:text note:text recorded_at:instant seq:int"), "seq"),
    Source("action", "corporate_actions", ("action_id",),
           _cols("action_id:text account:text symbol:text kind:text ex_date:date effective_at:instant "
                 "pay_date:date cash_per_share:decimal shares_per_share:decimal qty:int amount:decimal "
                 "currency:text taxable:bool note:text recorded_at:instant seq:int"), "seq"),
    Source("order_event", "order_events", ("order_id", "kind", "event_at"),
           _cols("order_id:text event_at:instant kind:text reason:text"), "event_at, order_id, kind"),
    Source("void", "voids", ("target_id",),
           _cols("target_id:text target_kind:text reason:text voided_at:instant"), "voided_at, target_id"),
)  # fmt: skip
BY_KIND: dict[str, Source] = {s.kind: s for s in SOURCES}
ENTRY_KINDS = ("cash", "fill", "action")


def encode(codec: Codec, value: Any) -> Any:
    """A column value as it is written in `record` (None stays null)."""
    if value is None:
        return None
    if codec == "decimal":
        return format(Decimal(value), "f")
    if codec == "instant":
        return value.astimezone(SHOWN_TZ).isoformat()
    if codec == "date":
        return value.isoformat()
    if codec == "int":
        return int(value)
    if codec == "bool":
        return bool(value)
    return str(value)


def decode(codec: Codec, value: Any) -> Any:
    """A `record` value back as the column's Python value; ValueError when it is not of the column's kind."""
    if value is None:
        return None
    expected: type | tuple[type, ...] = {"int": int, "bool": bool}.get(codec, str)
    if not isinstance(value, expected) or (codec == "int" and isinstance(value, bool)):
        raise ValueError(f"{value!r} is not a {codec}")
    if codec in {"int", "bool", "text"}:
        return value
    text = str(value)
    if codec == "decimal":
        try:
            number = Decimal(text)
        except InvalidOperation:
            raise ValueError(f"{value!r} is not a decimal") from None
        if not number.is_finite():
            raise ValueError(f"{value!r} is not a finite decimal")
        return number
    if codec == "instant":
        parsed = datetime.fromisoformat(text)
        if parsed.tzinfo is None:
            raise ValueError(f"{value!r} has no time zone")
        return parsed
    return date.fromisoformat(text)


def canonical(obj: dict[str, Any]) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def digest(obj: dict[str, Any]) -> str:
    """The hash of a line: SHA-256 of its canonical JSON without `hash`."""
    return hashlib.sha256(canonical({k: v for k, v in obj.items() if k != "hash"}).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class JournalLine:
    """One verified line: where it is in the file, and the row it records (values in the source's column order)."""

    number: int
    seq: int
    kind: Kind
    id: str
    values: tuple[Any, ...]
    record: tuple[tuple[str, Any], ...]  # as written (JSON values), for comparisons
    hash: str

    @property
    def source(self) -> Source:
        return BY_KIND[self.kind]


@dataclass(frozen=True)
class Tail:
    """The journal's end: its last line's seq and hash (0 and "" when empty) and its size in bytes."""

    seq: int = 0
    hash: str = ""
    size: int = 0


def broken(path: Path, number: int, why: str) -> InvalidInput:
    return user_error(InvalidInput, "journal_broken", path=path, line=number, why=why, option="--journal PATH")


def parse_line(path: Path, number: int, text: str, prev: str, seq: int) -> JournalLine:
    """Line `number` checked: JSON, fields, its place in the chain (`prev`, `seq`), its hash and its record."""
    try:
        obj = json.loads(text)
    except ValueError:
        raise broken(path, number, "it is not JSON") from None
    fields_ = {"seq", "kind", "id", "record", "recorded_at", "prev", "hash"}
    if not isinstance(obj, dict) or set(obj) != fields_:
        raise broken(path, number, f"its fields are not {', '.join(sorted(fields_))}")
    if obj["hash"] != digest(obj):
        raise broken(path, number, "its hash does not match its content (the line was changed)")
    if obj["prev"] != prev:
        raise broken(path, number, "it does not follow the line before it (a line was removed or moved)")
    if obj["seq"] != seq:
        raise broken(path, number, f"its seq is {obj['seq']}, not {seq}")
    source = BY_KIND.get(obj["kind"])
    record = obj["record"]
    if source is None or not isinstance(record, dict) or set(record) != {n for n, _ in source.columns}:
        raise broken(path, number, f"its kind '{obj['kind']}' or its record's columns are not known")
    try:
        values = tuple(decode(codec, record[name]) for name, codec in source.columns)
    except ValueError as error:
        raise broken(path, number, f"a column of its record is malformed: {error}") from None
    if source.row_id(values) != obj["id"]:
        raise broken(path, number, "its id does not match its record")
    return JournalLine(number, seq, source.kind, obj["id"], values, tuple(sorted(record.items())), obj["hash"])


def read_journal(path: Path) -> list[JournalLine]:
    """Every line of the journal at `path`, the whole chain verified (InvalidInput naming the first bad line)."""
    lines: list[JournalLine] = []
    prev = ""
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.endswith(b"\n"):
                raise broken(path, number, "it is cut off (no line end)")
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise broken(path, number, "it is not UTF-8") from None
            line = parse_line(path, number, text, prev, len(lines) + 1)
            lines.append(line)
            prev = line.hash
    return lines


def tail(path: Path) -> Tail:
    """The last line's seq and hash, reading only the file's end."""
    if not path.exists() or path.stat().st_size == 0:
        return Tail()
    with path.open("rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        chunk, start = b"", size
        while start > 0 and chunk.count(b"\n") < 2:
            start = max(0, start - 65536)
            handle.seek(start)
            chunk = handle.read(size - start)
    last = chunk.rstrip(b"\n").rsplit(b"\n", 1)[-1]
    try:
        obj = json.loads(last.decode("utf-8"))
        return Tail(int(obj["seq"]), str(obj["hash"]), size)
    except (ValueError, KeyError, TypeError):
        return Tail(-1, "", size)  # unreadable: never equal to a head


def head(db: Database) -> Tail:
    """The last line the tables committed with (from the setting `ledger.journal_head`)."""
    found = Settings(db).get(LEDGER_JOURNAL_HEAD)
    return Tail(int(found["seq"]), str(found["hash"])) if found else Tail()


def set_head(db: Database, at: Tail) -> None:
    if at.seq:
        Settings(db).set(LEDGER_JOURNAL_HEAD, {"seq": at.seq, "hash": at.hash})
    else:
        Settings(db).delete(LEDGER_JOURNAL_HEAD)


def pending_marker(path: Path) -> Path:
    return path.with_name(path.name + ".pending")


def aborted_lines(path: Path) -> Path:
    return path.with_name(path.stem + ".aborted.jsonl")


def _fsync_dir(folder: Path) -> None:
    if os.name == "posix":
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_durably(path: Path, data: bytes, *, append: bool) -> None:
    with path.open("ab" if append else "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def fetch_rows(db: Database, source: Source, keys: Sequence[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    where = " AND ".join(f"{k} = ?" for k in source.key)
    sql = f"SELECT {source.names} FROM {source.table} WHERE {where}"
    return [row for key in keys for row in db.fetchall(sql, list(key))]


def dump_rows(db: Database) -> list[tuple[Source, tuple[Any, ...]]]:
    """Every row of every source table, in journal order (accounts, fee terms, orders, entries, events, voids)."""
    rows: list[tuple[Source, tuple[Any, ...]]] = []
    entries: list[tuple[int, Source, tuple[Any, ...]]] = []
    for source in SOURCES:
        found = db.fetchall(f"SELECT {source.names} FROM {source.table} ORDER BY {source.order}")
        if source.kind in ENTRY_KINDS:
            entries += [(int(r[-1]), source, r) for r in found]
        elif source.kind in {"order_event", "void"}:
            continue
        else:
            rows += [(source, r) for r in found]
    rows += [(s, r) for _, s, r in sorted(entries, key=lambda e: e[0])]
    for source in (BY_KIND["order_event"], BY_KIND["void"]):
        rows += [(source, r) for r in db.fetchall(f"SELECT {source.names} FROM {source.table} ORDER BY {source.order}")]
    return rows


def source_row_count(db: Database) -> int:
    return sum(int(db.scalar(f"SELECT count(*) FROM {s.table}")) for s in SOURCES)


@dataclass
class _Batch:
    """The lines of one transaction: rows noted by key, or given whole (a dump); a `CommitHook`."""

    journal: Journal
    keys: list[tuple[Source, tuple[Any, ...]]] = field(default_factory=list)
    rows: list[tuple[Source, tuple[Any, ...]]] = field(default_factory=list)
    start: bool = False  # a first dump: the file is empty, whatever the head says
    written: Tail | None = None

    def prepare(self) -> None:
        db, path = self.journal.db, self.journal.path
        end, committed = tail(path), head(db)
        if not self.start and (end.seq, end.hash) != (committed.seq, committed.hash):
            raise user_error(InvalidInput, "journal_out_of_step", path=path, lines=max(end.seq, 0), head=committed.seq,
                             command="stockbench ledger rebuild --from-journal")  # fmt: skip
        rows = [*self.rows, *((s, r) for s, key in self.keys for r in fetch_rows(db, s, [key]))]
        now = datetime.now(UTC).astimezone(SHOWN_TZ).isoformat()
        text, prev, seq = [], end.hash, end.seq
        for source, values in rows:
            seq += 1
            record = {name: encode(codec, v) for (name, codec), v in zip(source.columns, values, strict=True)}
            obj = {"seq": seq, "kind": source.kind, "id": source.row_id(values), "prev": prev, "recorded_at": now,
                   "record": record}  # fmt: skip
            obj["hash"] = prev = digest(obj)
            text.append(canonical(obj) + "\n")
        marker = {"size": end.size, "seq": end.seq, "hash": end.hash}
        write_durably(pending_marker(path), canonical(marker).encode("utf-8"), append=False)
        self.written = end
        write_durably(path, "".join(text).encode("utf-8"), append=True)
        _fsync_dir(path.parent)
        set_head(db, Tail(seq, prev))

    def committed(self) -> None:
        self.journal.finished()
        pending_marker(self.journal.path).unlink(missing_ok=True)

    def aborted(self) -> None:
        self.journal.finished()
        if self.written is not None:
            with self.journal.path.open("r+b") as handle:
                handle.truncate(self.written.size)
                os.fsync(handle.fileno())
        pending_marker(self.journal.path).unlink(missing_ok=True)


class Journal:
    """The journal of one workspace's ledger. Call `noted` after each insert into a source table."""

    def __init__(self, db: Database, path: Path) -> None:
        self.db, self.path = db, path
        self._local = threading.local()

    def _batch(self, *, start: bool = False) -> _Batch:
        batch: _Batch | None = getattr(self._local, "batch", None)
        if batch is None:
            batch = self._local.batch = _Batch(self, start=start)
            self.db.at_commit(batch)
        return batch

    def noted(self, kind: Kind, *key: Any) -> None:
        """The row of `kind` with this key was inserted in the current transaction: journal it at COMMIT."""
        self._batch().keys.append((BY_KIND[kind], key))

    def finished(self) -> None:
        self._local.batch = None

    def reconcile(self) -> None:
        """On open: settle a crashed write's lines, and start the journal of a workspace that has none."""
        self.settle()
        if tail(self.path).size:
            return
        with self.db.transaction():
            rows = dump_rows(self.db)
            if rows:
                self._batch(start=True).rows.extend(rows)
            elif head(self.db).seq:
                set_head(self.db, Tail())

    def settle(self) -> None:
        """Cut off the lines of a write that crashed before COMMIT (kept in the .aborted file), if any."""
        marker = pending_marker(self.path)
        if not marker.exists():
            return
        try:
            before = json.loads(marker.read_text(encoding="utf-8"))
            at = Tail(int(before["seq"]), str(before["hash"]), int(before["size"]))
        except (ValueError, KeyError, TypeError):
            return  # not ours to interpret: the journal check reports what is left
        committed = head(self.db)
        if (committed.seq, committed.hash) == (at.seq, at.hash) and self.path.exists():
            with self.path.open("r+b") as handle:
                handle.seek(at.size)
                cut = handle.read()
                if cut:
                    write_durably(aborted_lines(self.path), cut, append=True)
                handle.truncate(at.size)
                os.fsync(handle.fileno())
            marker.unlink()
        elif committed.seq > at.seq:
            marker.unlink()  # the write committed; only the marker's removal was lost
