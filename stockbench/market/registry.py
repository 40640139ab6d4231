"""Instrument data in the workspace: names, board lots, listing dates, fund kinds, name history (ST).

Identity comes from the code (`instruments.identify`); everything else comes from here. Data providers
and the demo market write through `InstrumentRegistry.save`; everything else reads.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from typing import Any, Literal

from stockbench.market.instruments import FundKind, Identified, Instrument, SecurityType, identify
from stockbench.store.database import Database

# ST, *ST, S*ST, SST carry the special-treatment limit; a leading S before a Chinese name or before ST
# marks shares whose split-share reform is not complete (their own 5% rule). On ex-dates the exchanges
# prefix the name with XD, XR or DR for the day (XDST罗顿), which says nothing about the status.
_ST_NAME = re.compile(r"^\s*(\*?S?\*?ST)", re.IGNORECASE)
_EX_DATE_PREFIX = re.compile(r"^(?:XD|XR|DR)")
_UNREFORMED = re.compile(r"^S(?:\*?ST|[^\x00-\x7F])")
_FIRST_DAY_NAME = re.compile(r"^N[^\x00-\x7F]")  # an A-share's name on its listing day: N中芯, N宁德
LimitStatus = Literal["normal", "st", "unreformed"]


def strip_day_prefix(name: str) -> str:
    """The name without the exchange's ex-date prefix of the day (XD/XR/DR)."""
    return _EX_DATE_PREFIX.sub("", name.strip())


def is_st_name(name: str | None) -> bool:
    """True when an A-share name marks special treatment (ST, *ST, SST, S*ST), ex-date prefixes aside."""
    return bool(name and _ST_NAME.match(strip_day_prefix(name)))


def special_treatment(name: str | None) -> str | None:
    """The flag *ST (delisting risk warning) or ST (other risk warning) when the name marks special treatment
    (S*ST counts as *ST, SST as ST), else None."""
    if name is None or not is_st_name(name):
        return None
    return "*ST" if "*" in strip_day_prefix(name).lstrip()[:4] else "ST"


def is_unreformed_name(name: str | None) -> bool:
    """True when the name marks shares not yet through the split-share reform (S佳通, S*ST前锋)."""
    return bool(name and _UNREFORMED.match(strip_day_prefix(name)))


def limit_status(name: str | None) -> LimitStatus:
    """The price-limit status a name implies; unreformed shares take precedence over ST."""
    if is_unreformed_name(name):
        return "unreformed"
    return "st" if is_st_name(name) else "normal"


@dataclass(frozen=True, slots=True)
class InstrumentData:
    """What a provider knows about an instrument beyond its code."""

    symbol: str
    name: str | None = None
    security_type: SecurityType | None = None
    board_lot: int | None = None
    list_date: date | None = None
    delist_date: date | None = None
    fund_kind: FundKind | None = None
    source: str = "user"


_DATA = "name, security_type, board_lot, list_date, fund_kind"  # the instrument data `resolve` reads


def _enriched(found: Identified, row: Sequence[Any]) -> Identified:
    name, kind, lot, listed, fund_kind = row
    enriched = found.instrument.with_data(
        name=name,
        security_type=SecurityType(kind),
        board_lot=lot,
        list_date=listed,
        fund_kind=FundKind(fund_kind) if fund_kind else None,
    )
    return replace(found, instrument=enriched)


def _listing_date(instrument: Instrument, first: tuple[date, str] | None) -> date | None:
    """The listing day from the instrument data, else (A-shares) from the first recorded name (see listing_date)."""
    if instrument.list_date is not None or not instrument.is_a_share:
        return instrument.list_date
    return first[0] if first is not None and _FIRST_DAY_NAME.match(first[1]) else None


@dataclass(frozen=True, slots=True)
class NameHistory:
    """The recorded names of some instruments, read once: `name_on` and `listing_date` answered as the registry
    answers them, without a query each."""

    instruments: Mapping[str, Instrument]
    history: Mapping[str, tuple[tuple[date, str], ...]]  # (valid_from, name) in date order, per symbol

    def name_on(self, symbol: str, day: date) -> str | None:
        """The name `symbol` carried on `day`, if known (InstrumentRegistry.name_on)."""
        names = self.history.get(symbol, ())
        at = bisect.bisect_right(names, day, key=lambda entry: entry[0])
        return names[at - 1][1] if at else None

    def listing_date(self, symbol: str) -> date | None:
        """The listing day (InstrumentRegistry.listing_date)."""
        names = self.history.get(symbol, ())
        return _listing_date(self.instruments[symbol], names[0] if names else None)


class InstrumentRegistry:
    """Reads and writes the `instruments` and `instrument_names` tables."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def resolve(self, text: str) -> Identified:
        """Identity from the code, enriched with whatever instrument data the workspace holds."""
        found = identify(text)
        row = self._db.fetchone(f"SELECT {_DATA} FROM instruments WHERE symbol = ?", [found.instrument.symbol])
        return found if row is None else _enriched(found, row)

    def instruments(self, symbols: Sequence[str]) -> dict[str, Instrument]:
        """`instrument(s)` of each of `symbols` (canonical symbols, as `identify` gives them), in one query."""
        found = {s: identify(s) for s in symbols}
        rows = self._db.fetchall(f"SELECT symbol, {_DATA} FROM instruments WHERE list_contains(?, symbol)",
                                 [list(found)])  # fmt: skip
        stored = {str(row[0]): row[1:] for row in rows}
        return {s: (_enriched(f, stored[s]) if s in stored else f).instrument for s, f in found.items()}

    def names(self, instruments: Sequence[Instrument]) -> NameHistory:
        """The recorded name history of `instruments`, read in one query (for `name_on` and `listing_date` of
        many symbols at once)."""
        rows = self._db.fetchall(
            "SELECT symbol, valid_from, name FROM instrument_names WHERE list_contains(?, symbol)"
            " ORDER BY symbol, valid_from",
            [[i.symbol for i in instruments]],
        )
        history: dict[str, list[tuple[date, str]]] = {}
        for symbol, valid_from, name in rows:
            history.setdefault(str(symbol), []).append((valid_from, str(name)))
        return NameHistory({i.symbol: i for i in instruments}, {s: tuple(h) for s, h in history.items()})

    def instrument(self, text: str) -> Instrument:
        return self.resolve(text).instrument

    def save(self, data: InstrumentData) -> None:
        """Insert or update one instrument's data (fields left None keep their stored value)."""
        base = identify(data.symbol).instrument
        with self._db.transaction() as cur:
            cur.execute(
                """
                INSERT INTO instruments AS i (symbol, name, security_type, board, board_lot, list_date, delist_date,
                    fund_kind, source, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (symbol) DO UPDATE SET
                    name = coalesce(excluded.name, i.name),
                    security_type = excluded.security_type,
                    board_lot = coalesce(excluded.board_lot, i.board_lot),
                    list_date = coalesce(excluded.list_date, i.list_date),
                    delist_date = coalesce(excluded.delist_date, i.delist_date),
                    fund_kind = coalesce(excluded.fund_kind, i.fund_kind),
                    source = excluded.source,
                    updated_at = excluded.updated_at
                """,
                [
                    base.symbol,
                    data.name,
                    (data.security_type or base.security_type).value,
                    base.board.value,
                    data.board_lot,
                    data.list_date,
                    data.delist_date,
                    data.fund_kind.value if data.fund_kind else None,
                    data.source,
                    datetime.now(UTC),
                ],
            )

    def record_name(self, symbol: str, name: str, valid_from: date, source: str) -> None:
        """Record that `symbol` carried `name` from `valid_from` (for ST status on past dates)."""
        with self._db.transaction() as cur:
            cur.execute(
                "INSERT OR REPLACE INTO instrument_names (symbol, valid_from, name, source) VALUES (?, ?, ?, ?)",
                [symbol, valid_from, name, source],
            )

    def name_on(self, symbol: str, day: date) -> str | None:
        """The name `symbol` carried on `day`, if known."""
        value = self._db.scalar(
            "SELECT name FROM instrument_names WHERE symbol = ? AND valid_from <= ? ORDER BY valid_from DESC LIMIT 1",
            [symbol, day],
        )
        return str(value) if value is not None else None

    def names_on(self, symbols: Sequence[str], day: date) -> dict[str, str]:
        """The name each of `symbols` carried on `day`, where known (one query for a whole universe)."""
        rows = self._db.fetchall(
            "SELECT symbol, arg_max(name, valid_from) FROM instrument_names"
            " WHERE valid_from <= ? AND list_contains(?, symbol) GROUP BY symbol",
            [day, list(symbols)],
        )
        return {str(symbol): str(name) for symbol, name in rows}

    def listing_date(self, symbol: str) -> date | None:
        """The listing day: the instrument data's, else (A-shares) the day of the first recorded name when that
        name is a listing day's (N中芯 on 2020-07-16); None when neither is known."""
        instrument = self.instrument(symbol)
        if instrument.list_date is not None or not instrument.is_a_share:
            return instrument.list_date
        row = self._db.fetchone(
            "SELECT valid_from, name FROM instrument_names WHERE symbol = ? ORDER BY valid_from LIMIT 1",
            [instrument.symbol],
        )
        return _listing_date(instrument, (row[0], str(row[1])) if row is not None else None)

    def st_on(self, symbol: str, day: date) -> bool | None:
        """Whether `symbol` was under special treatment on `day`; None when its name history is unknown."""
        name = self.name_on(symbol, day)
        return None if name is None else is_st_name(name)
