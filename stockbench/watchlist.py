"""The watchlist: named groups of symbols in the user's order, stored in the workspace, and the symbol search
(by code or name over the workspace's instruments) used to add to it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import duckdb

from stockbench.clock import Clock
from stockbench.errors import InvalidInput, NotFound, UserError
from stockbench.events import Event, EventBus
from stockbench.market.instruments import identify
from stockbench.market.service import MarketRules
from stockbench.messages import user_error
from stockbench.store.database import Database

DEFAULT_GROUP = "default"  # created on the first add when no group exists; the shell shows it translated
MAX_NAME = 40


@dataclass(frozen=True, slots=True)
class WatchItem:
    """One symbol on one group's list."""

    group: str
    symbol: str
    name: str | None
    position: int
    added_at: datetime
    note: str = ""


@dataclass(frozen=True, slots=True)
class WatchGroup:
    """A named list and its symbols in order."""

    name: str
    position: int
    symbols: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class InstrumentHit:
    """A symbol search result: `known` is False for a valid code the workspace holds no data on yet."""

    symbol: str
    name: str | None
    security_type: str
    known: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class WatchlistChanged(Event):
    """The watchlist changed (`what`: add, remove, move, group)."""

    group: str
    what: str


class Watchlist:
    """Groups of symbols for one workspace. Every write is one transaction; positions stay 0..n-1."""

    def __init__(self, db: Database, clock: Clock, market: MarketRules, events: EventBus | None = None) -> None:
        self._db, self._clock, self._market = db, clock, market
        self._events = events or EventBus()

    # ---- reading ----------------------------------------------------------------------------------------------
    def groups(self) -> list[WatchGroup]:
        """Every group in order, with its symbols in order."""
        rows = self._db.fetchall(
            "SELECT g.name, g.position, list(i.symbol ORDER BY i.position) FILTER (WHERE i.symbol IS NOT NULL) "
            "FROM watchlist_groups g LEFT JOIN watchlist_items i USING (group_id) GROUP BY ALL ORDER BY g.position"
        )
        return [WatchGroup(name, position, tuple(symbols or ())) for name, position, symbols in rows]

    def group(self, name: str) -> WatchGroup:
        """The group called `name`."""
        found = next((g for g in self.groups() if g.name == name.strip()), None)
        if found is None:
            raise self._no_group(name)
        return found

    def items(self, group: str | None = None) -> list[WatchItem]:
        """The items of `group` (default: of every group, group by group), in order."""
        where, params = ("WHERE g.name = ?", [self.group(group).name]) if group is not None else ("", [])
        rows = self._db.fetchall(
            f"SELECT g.name, i.symbol, n.name, i.position, i.added_at, i.note FROM watchlist_items i "
            f"JOIN watchlist_groups g USING (group_id) LEFT JOIN instruments n ON n.symbol = i.symbol {where} "
            "ORDER BY g.position, i.position",
            params,
        )
        return [WatchItem(*row) for row in rows]

    def symbols(self) -> list[str]:
        """Every symbol on any list, once, in list order."""
        return list(dict.fromkeys(item.symbol for item in self.items()))

    def search(self, text: str, limit: int = 20) -> list[InstrumentHit]:
        """Instruments whose code or symbol starts with `text` or whose name contains it (exact code first); a
        valid code the workspace does not know yet is offered too, so it can be added before its data is fetched."""
        cleaned = text.strip()
        if not cleaned:
            return []
        rows = self._db.fetchall(
            """
            SELECT symbol, name, security_type FROM instruments
            WHERE upper(symbol) LIKE upper(?) || '%' ESCAPE '\\' OR contains(lower(coalesce(name, '')), lower(?))
            ORDER BY (split_part(symbol, '.', 1) = upper(?) OR symbol = upper(?)) DESC,
                     starts_with(upper(symbol), upper(?)) DESC, symbol
            LIMIT ?
            """,
            [_like(cleaned), cleaned, cleaned, cleaned, cleaned, limit],
        )
        hits = [InstrumentHit(symbol, name, kind) for symbol, name, kind in rows]
        return _with_identity(cleaned, hits)[:limit]

    # ---- items ------------------------------------------------------------------------------------------------
    def seed(self, symbols: Sequence[str]) -> list[WatchItem]:
        """Start an empty watchlist with `symbols` (those the workspace knows); a watchlist in use is left alone."""
        if self.symbols():
            return []
        stored = {r[0] for r in self._db.fetchall("SELECT symbol FROM instruments")}
        known = [s for s in symbols if s in stored]
        return [self.add(symbol) for symbol in known]

    def add(self, symbol: str, group: str | None = None, *, note: str = "") -> WatchItem:
        """Add `symbol` at the end of `group` (default: the first group, created as DEFAULT_GROUP if none)."""
        canonical = self._market.registry.instrument(symbol).symbol
        with self._db.transaction() as cur:
            group_id, name = self._target_group(cur, group)
            if cur.execute(
                "SELECT count(*) FROM watchlist_items WHERE group_id = ? AND symbol = ?", [group_id, canonical]
            ).fetchall()[0][0]:
                raise user_error(InvalidInput, "watchlist_already_in.add", symbol=canonical, group=name,
                                 command="watchlist move")  # fmt: skip
            size = _count(cur, group_id)
            cur.execute(
                "INSERT INTO watchlist_items (group_id, symbol, position, added_at, note) VALUES (?, ?, ?, ?, ?)",
                [group_id, canonical, size, datetime.now(UTC), note],
            )
        self._changed(name, "add")
        return next(i for i in self.items(name) if i.symbol == canonical)

    def remove(self, symbol: str, group: str | None = None) -> int:
        """Remove `symbol` from `group` (default: from every group); returns how many entries went."""
        canonical = self._market.registry.instrument(symbol).symbol
        holding = [g for g in self.groups() if canonical in g.symbols and (group is None or g.name == group.strip())]
        if not holding:
            if group is not None:
                raise user_error(NotFound, "watchlist_not_in.remove_group", symbol=canonical, group=group,
                                 command="stockbench watchlist list")  # fmt: skip
            raise user_error(NotFound, "watchlist_not_in.remove", symbol=canonical, command="stockbench watchlist list")
        with self._db.transaction() as cur:
            for found in holding:
                group_id = self._group_id(cur, found.name)
                cur.execute("DELETE FROM watchlist_items WHERE group_id = ? AND symbol = ?", [group_id, canonical])
                _renumber(cur, group_id, [s for s in found.symbols if s != canonical])
        for found in holding:
            self._changed(found.name, "remove")
        return len(holding)

    def move(self, symbol: str, position: int, group: str | None = None) -> WatchGroup:
        """Move `symbol` to 0-based `position` within its group (`group` is needed when it sits in several)."""
        canonical = self._market.registry.instrument(symbol).symbol
        found = self._holding_group(canonical, group)
        if not 0 <= position < len(found.symbols):
            raise user_error(InvalidInput, "watchlist_position_outside", position=position, group=found.name,
                             last=len(found.symbols) - 1)  # fmt: skip
        order = [s for s in found.symbols if s != canonical]
        order.insert(position, canonical)
        with self._db.transaction() as cur:
            _renumber(cur, self._group_id(cur, found.name), order)
        self._changed(found.name, "move")
        return self.group(found.name)

    def move_to_group(
        self, symbol: str, target: str, *, source: str | None = None, position: int | None = None
    ) -> WatchItem:
        """Move `symbol` into group `target` (at 0-based `position`, default the end) from the group it is in
        (`source` is needed when it sits in several)."""
        canonical = self._market.registry.instrument(symbol).symbol
        moved = self._holding_group(canonical, source)
        to = self.group(target)
        if to.name == moved.name:
            raise user_error(InvalidInput, "watchlist_already_in.same", symbol=canonical, group=to.name)
        if canonical in to.symbols:
            raise user_error(InvalidInput, "watchlist_already_in.both", symbol=canonical, group=to.name)
        at = len(to.symbols) if position is None else max(0, min(position, len(to.symbols)))
        with self._db.transaction() as cur:
            source_id, target_id = self._group_id(cur, moved.name), self._group_id(cur, to.name)
            cur.execute(
                "UPDATE watchlist_items SET group_id = ? WHERE group_id = ? AND symbol = ?",
                [target_id, source_id, canonical],
            )
            _renumber(cur, source_id, [s for s in moved.symbols if s != canonical])
            _renumber(cur, target_id, [*to.symbols[:at], canonical, *to.symbols[at:]])
        self._changed(to.name, "move")
        return next(i for i in self.items(to.name) if i.symbol == canonical)

    # ---- groups -----------------------------------------------------------------------------------------------
    def add_group(self, name: str) -> WatchGroup:
        """Create an empty group at the end."""
        cleaned = _group_name(name)
        with self._db.transaction() as cur:
            self._insert_group(cur, cleaned)
        self._changed(cleaned, "group")
        return self.group(cleaned)

    def rename_group(self, name: str, new_name: str) -> WatchGroup:
        """Rename a group (its symbols and place stay)."""
        cleaned = _group_name(new_name)
        old = self.group(name).name
        with self._db.transaction() as cur:
            if cleaned != old and self._exists(cur, cleaned):
                raise user_error(InvalidInput, "watchlist_group_exists", name=cleaned)
            cur.execute("UPDATE watchlist_groups SET name = ? WHERE name = ?", [cleaned, old])
        self._changed(cleaned, "group")
        return self.group(cleaned)

    def remove_group(self, name: str) -> int:
        """Delete a group and its items; returns how many symbols it held."""
        found = self.group(name)
        with self._db.transaction() as cur:
            group_id = self._group_id(cur, found.name)
            cur.execute("DELETE FROM watchlist_items WHERE group_id = ?", [group_id])
            cur.execute("DELETE FROM watchlist_groups WHERE group_id = ?", [group_id])
            rest = [g.name for g in self.groups() if g.name != found.name]
            for index, other in enumerate(rest):
                cur.execute("UPDATE watchlist_groups SET position = ? WHERE name = ?", [index, other])
        self._changed(found.name, "group")
        return len(found.symbols)

    def move_group(self, name: str, position: int) -> list[WatchGroup]:
        """Move a group to 0-based `position` among the groups."""
        order = [g.name for g in self.groups()]
        moved = self.group(name).name
        if not 0 <= position < len(order):
            raise user_error(InvalidInput, "watchlist_group_position_outside", position=position, last=len(order) - 1)
        order.remove(moved)
        order.insert(position, moved)
        with self._db.transaction() as cur:
            for index, other in enumerate(order):
                cur.execute("UPDATE watchlist_groups SET position = ? WHERE name = ?", [index, other])
        self._changed(moved, "group")
        return self.groups()

    # ---- internals --------------------------------------------------------------------------------------------
    def _target_group(self, cur: duckdb.DuckDBPyConnection, group: str | None) -> tuple[int, str]:
        if group is not None:
            name = group.strip()
            return self._group_id(cur, name), name
        first = cur.execute("SELECT group_id, name FROM watchlist_groups ORDER BY position LIMIT 1").fetchall()
        if first:
            return int(first[0][0]), str(first[0][1])
        return self._insert_group(cur, DEFAULT_GROUP), DEFAULT_GROUP

    def _insert_group(self, cur: duckdb.DuckDBPyConnection, name: str) -> int:
        if self._exists(cur, name):
            raise user_error(InvalidInput, "watchlist_group_exists", name=name)
        position = cur.execute("SELECT count(*) FROM watchlist_groups").fetchall()[0][0]
        cur.execute(
            "INSERT INTO watchlist_groups (name, position, created_at) VALUES (?, ?, ?)",
            [name, position, datetime.now(UTC)],
        )
        return self._group_id(cur, name)

    def _exists(self, cur: duckdb.DuckDBPyConnection, name: str) -> bool:
        return bool(cur.execute("SELECT count(*) FROM watchlist_groups WHERE name = ?", [name]).fetchall()[0][0])

    def _group_id(self, cur: duckdb.DuckDBPyConnection, name: str) -> int:
        row = cur.execute("SELECT group_id FROM watchlist_groups WHERE name = ?", [name]).fetchall()
        if not row:
            raise self._no_group(name)
        return int(row[0][0])

    def _holding_group(self, symbol: str, group: str | None) -> WatchGroup:
        if group is not None:
            found = self.group(group)
            if symbol not in found.symbols:
                raise user_error(NotFound, "watchlist_not_in.group", symbol=symbol, group=found.name,
                                 command="watchlist add")  # fmt: skip
            return found
        holding = [g for g in self.groups() if symbol in g.symbols]
        if not holding:
            raise user_error(NotFound, "watchlist_not_in", symbol=symbol, command="stockbench watchlist add SYMBOL")
        if len(holding) > 1:
            names = ", ".join(g.name for g in holding)
            raise user_error(InvalidInput, "watchlist_several_groups", symbol=symbol, groups=names, option="--group")
        return holding[0]

    def _no_group(self, name: str) -> NotFound:
        names = [g.name for g in self.groups()]
        if not names:
            return user_error(NotFound, "watchlist_no_group.none", name=name,
                              command="stockbench watchlist group add NAME")  # fmt: skip
        return user_error(NotFound, "watchlist_no_group", name=name, groups=", ".join(names))

    def _changed(self, group: str, what: str) -> None:
        self._events.publish(WatchlistChanged(at=self._clock.now(), group=group, what=what))


def _count(cur: duckdb.DuckDBPyConnection, group_id: int) -> int:
    return int(cur.execute("SELECT count(*) FROM watchlist_items WHERE group_id = ?", [group_id]).fetchall()[0][0])


def _renumber(cur: duckdb.DuckDBPyConnection, group_id: int, order: Sequence[str]) -> None:
    """Write positions 0..n-1 in `order`."""
    for index, symbol in enumerate(order):
        cur.execute(
            "UPDATE watchlist_items SET position = ? WHERE group_id = ? AND symbol = ?", [index, group_id, symbol]
        )


def _group_name(name: str) -> str:
    cleaned = name.strip()
    if not cleaned or len(cleaned) > MAX_NAME or any(c in cleaned for c in "\n\t\r"):
        raise user_error(InvalidInput, "watchlist_group_name", name=name, limit=MAX_NAME)
    return cleaned


def _like(text: str) -> str:
    """`text` with LIKE wildcards escaped."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _with_identity(text: str, hits: list[InstrumentHit]) -> list[InstrumentHit]:
    """`hits`, led by the instrument `text` names when it is a valid code the workspace does not hold."""
    try:
        instrument = identify(text).instrument
    except UserError:
        return hits
    if any(h.symbol == instrument.symbol for h in hits):
        return hits
    return [InstrumentHit(instrument.symbol, None, instrument.security_type.value, known=False), *hits]
