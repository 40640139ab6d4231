"""The market rule tables, loaded from `resources/market_rules.toml`: one place, versioned, with dates.

Every rule that changed on a date is a row with `since`/`until` (inclusive); `RuleTables` answers
"which row applies on this day". Facts not confirmed by the project's market facts are flagged
`unconfirmed` so reports and `stockbench rules` can say so.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, time
from decimal import Decimal
from pathlib import Path
from typing import Any, Protocol, TypeVar

from stockbench.config import resources_dir
from stockbench.errors import InternalError

RULES_FILE = "market_rules.toml"
FAR_PAST = date(1990, 1, 1)
FAR_FUTURE = date(9999, 12, 31)


class Dated(Protocol):
    @property
    def since(self) -> date: ...

    @property
    def until(self) -> date: ...


D = TypeVar("D", bound=Dated)


def in_force(rows: Iterable[D], day: date) -> list[D]:
    """The rows effective on `day`."""
    return [r for r in rows if r.since <= day <= r.until]


@dataclass(frozen=True, slots=True)
class LimitRow:
    board: str
    status: str
    pct: Decimal
    since: date
    until: date
    unconfirmed: bool = False


@dataclass(frozen=True, slots=True)
class ListingNoLimitRow:
    board: str
    sessions: int
    since: date
    until: date
    unconfirmed: bool = False


@dataclass(frozen=True, slots=True)
class FirstDayBandRow:
    board: str
    up: Decimal
    down: Decimal
    since: date
    until: date
    unconfirmed: bool = False


@dataclass(frozen=True, slots=True)
class FirstSessionRow:
    """A listing event whose first session trades without a daily limit (e.g. a resumed listing)."""

    event: str
    since: date
    until: date
    unconfirmed: bool = False


@dataclass(frozen=True, slots=True)
class SpreadBand:
    lower: Decimal
    upper: Decimal
    tick: Decimal


@dataclass(frozen=True, slots=True)
class SpreadTable:
    name: str
    applies_to: tuple[str, ...]
    bands: tuple[SpreadBand, ...]
    since: date
    until: date
    note: str = ""
    unconfirmed: bool = False


@dataclass(frozen=True, slots=True)
class LotRow:
    board: str
    min: int
    step: int


@dataclass(frozen=True, slots=True)
class CageRow:
    boards: tuple[str, ...]
    buy_pct: Decimal
    sell_pct: Decimal
    ticks: int
    since: date
    until: date
    unconfirmed: bool = False


@dataclass(frozen=True, slots=True)
class FeeRow:
    market: str
    item: str
    side: str
    rate: Decimal
    since: date
    until: date
    applies_to: tuple[str, ...] = ("stock", "fund")
    exchanges: tuple[str, ...] = ()
    round: str = "cent"
    min: Decimal | None = None
    max: Decimal | None = None
    unconfirmed: bool = False


@dataclass(frozen=True, slots=True)
class CommissionDefault:
    rate: Decimal
    min: Decimal
    bundled_exchange_fees: bool


@dataclass(frozen=True, slots=True)
class Phase:
    start: time
    end: time
    name: str


@dataclass(frozen=True, slots=True)
class SessionTable:
    market: str
    exchanges: tuple[str, ...]
    boards: tuple[str, ...]
    phases: tuple[Phase, ...]
    since: date
    until: date
    half_day: bool = False
    note: str = ""
    unconfirmed: bool = False


@dataclass(frozen=True, slots=True)
class AfterHoursRow:
    boards: tuple[str, ...]
    window: tuple[time, time]
    since: date
    until: date


@dataclass(frozen=True, slots=True)
class CalendarRow:
    market: str
    exchange_calendar: str
    known_through: date
    note: str = ""


@dataclass(frozen=True)
class RuleTables:
    """Every market rule table, as loaded from the rules file."""

    version: str
    source: str
    limits: tuple[LimitRow, ...]
    listing_no_limit: tuple[ListingNoLimitRow, ...]
    listing_first_day_band: tuple[FirstDayBandRow, ...]
    first_session_no_limit: tuple[FirstSessionRow, ...]
    ticks: dict[str, Decimal]
    hk_spread: tuple[SpreadTable, ...]
    lots: dict[str, LotRow]
    price_cage: tuple[CageRow, ...]
    settlement: dict[str, Any]
    fees: tuple[FeeRow, ...]
    commission_defaults: dict[str, CommissionDefault]
    sessions: tuple[SessionTable, ...]
    after_hours: tuple[AfterHoursRow, ...]
    calendars: dict[str, CalendarRow]
    path: Path = field(default=Path())


def _date(value: Any, default: date) -> date:
    if value is None:
        return default
    return value if isinstance(value, date) else date.fromisoformat(str(value))


def _dates(row: dict[str, Any]) -> dict[str, date]:
    return {"since": _date(row.get("since"), FAR_PAST), "until": _date(row.get("until"), FAR_FUTURE)}


def _time(text: str) -> time:
    return time.fromisoformat(text)


def _phases(rows: Sequence[Sequence[str]]) -> tuple[Phase, ...]:
    return tuple(Phase(_time(a), _time(b), name) for a, b, name in rows)


def _dec(value: Any) -> Decimal:
    if isinstance(value, float):
        raise InternalError(f"rule table value {value!r} is a float: write it as a string")
    return Decimal(str(value))


def parse_tables(data: dict[str, Any], path: Path = Path()) -> RuleTables:
    """Build typed tables from the parsed TOML (raises InternalError on a malformed table)."""
    try:
        return RuleTables(
            version=data["version"],
            source=data.get("source", ""),
            limits=tuple(
                LimitRow(
                    r["board"],
                    r["status"],
                    _dec(r["pct"]),
                    **_dates(r),
                    unconfirmed=r.get("unconfirmed", False),
                )
                for r in data["limits"]
            ),
            listing_no_limit=tuple(
                ListingNoLimitRow(r["board"], r["sessions"], **_dates(r), unconfirmed=r.get("unconfirmed", False))
                for r in data["listing_no_limit"]
            ),
            listing_first_day_band=tuple(
                FirstDayBandRow(
                    r["board"], _dec(r["up"]), _dec(r["down"]), since=_dates(r)["since"], until=_dates(r)["until"]
                )
                for r in data["listing_first_day_band"]
            ),
            first_session_no_limit=tuple(
                FirstSessionRow(r["event"], **_dates(r), unconfirmed=r.get("unconfirmed", False))
                for r in data.get("first_session_no_limit", [])
            ),
            ticks={k: _dec(v) for k, v in data["ticks"].items()},
            hk_spread=tuple(
                SpreadTable(
                    r["name"],
                    tuple(r["applies_to"]),
                    tuple(SpreadBand(_dec(a), _dec(b), _dec(t)) for a, b, t in r["bands"]),
                    **_dates(r),
                    note=r.get("note", ""),
                    unconfirmed=r.get("unconfirmed", False),
                )
                for r in data["hk_spread"]
            ),
            lots={r["board"]: LotRow(r["board"], r["min"], r["step"]) for r in data["lots"]},
            price_cage=tuple(
                CageRow(
                    tuple(r["boards"]),
                    _dec(r["buy_pct"]),
                    _dec(r["sell_pct"]),
                    r["ticks"],
                    **_dates(r),
                    unconfirmed=r.get("unconfirmed", False),
                )
                for r in data["price_cage"]
            ),
            settlement=dict(data["settlement"]),
            fees=tuple(
                FeeRow(
                    r["market"],
                    r["item"],
                    r["side"],
                    _dec(r["rate"]),
                    **_dates(r),
                    applies_to=tuple(r.get("applies_to", ("stock", "fund"))),
                    exchanges=tuple(r.get("exchanges", ())),
                    round=r.get("round", "cent"),
                    min=_dec(r["min"]) if "min" in r else None,
                    max=_dec(r["max"]) if "max" in r else None,
                    unconfirmed=r.get("unconfirmed", False),
                )
                for r in data["fees"]
            ),
            commission_defaults={
                market: CommissionDefault(_dec(v["rate"]), _dec(v["min"]), bool(v["bundled_exchange_fees"]))
                for market, v in data["commission_defaults"].items()
            },
            sessions=tuple(
                SessionTable(
                    r["market"],
                    tuple(r["exchanges"]),
                    tuple(r["boards"]),
                    _phases(r["phases"]),
                    **_dates(r),
                    half_day=r.get("half_day", False),
                    note=r.get("note", ""),
                    unconfirmed=r.get("unconfirmed", False),
                )
                for r in data["sessions"]
            ),
            after_hours=tuple(
                AfterHoursRow(tuple(r["boards"]), (_time(r["window"][0]), _time(r["window"][1])), **_dates(r))
                for r in data["after_hours_fixed_price"]
            ),
            calendars={
                r["market"]: CalendarRow(
                    r["market"],
                    r["exchange_calendar"],
                    _date(r["known_through"], FAR_PAST),
                    r.get("note", ""),
                )
                for r in data["calendars"]
            },
            path=path,
        )
    except (KeyError, TypeError, ValueError) as error:
        raise InternalError(f"malformed market rule table {path}: {error!r}") from error


@functools.cache
def load_tables(path: Path | None = None) -> RuleTables:
    """The rule tables shipped with the app (cached; pass `path` to load another file)."""
    path = path or resources_dir() / RULES_FILE
    with path.open("rb") as handle:
        return parse_tables(tomllib.load(handle), path)
