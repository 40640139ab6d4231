"""Trading calendars: which days each market trades, and when bought shares become sellable.

The shipped calendar (exchange_calendars' XSHG for every mainland exchange, XHKG for Hong Kong) is
trusted through the rule table's `known_through`; the workspace's holiday table corrects it and, once
the user vouches for it (`stockbench rules holiday extend`), extends it. Past the known range every
answer is `CalendarUnknown`, never a weekday guess.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Literal, cast, get_args

from stockbench.clock import Market
from stockbench.errors import CalendarUnknown, InternalError, InvalidInput
from stockbench.market.instruments import Instrument, SecurityType
from stockbench.market.tables import CalendarRow, RuleTables
from stockbench.messages import user_error
from stockbench.store.database import Database

HolidayKind = Literal["closed", "half_day", "open"]
HOLIDAY_KINDS: tuple[HolidayKind, ...] = get_args(HolidayKind)
Settlement = Literal["T+1", "T+0"]
SETTLEMENTS: tuple[Settlement, ...] = get_args(Settlement)
# The earliest day the shipped calendars are built from: exchange_calendars records XSHG holidays from
# 1991 (before that it would report weekdays). Fixed, because its own default (twenty years before
# today) would make the answers depend on the day the program runs.
CALENDAR_START = date(1991, 1, 1)
_DAY = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class ShippedCalendar:
    """Sessions and half days of one exchange_calendars calendar, over the range it is trusted for."""

    name: str
    first: date
    last: date
    sessions: frozenset[date]
    half_days: frozenset[date]


@functools.cache
def shipped_calendar(name: str, through: date) -> ShippedCalendar:
    """Build calendar `name` up to `through` (once per process: importing pandas and building is slow)."""
    import exchange_calendars as xc

    # exchange_calendars trips pandas deprecation warnings while it builds; they are not ours to fix.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", FutureWarning)
        try:
            kind = type(xc.get_calendar(name))
        except xc.errors.InvalidCalendarName as error:
            raise InternalError(f"the rule tables name an unknown exchange calendar {name!r}") from error
        start = max(CALENDAR_START, kind.bound_min().date())
        end = min(through, kind.bound_max().date())
        built = xc.get_calendar(name, start=start.isoformat(), end=end.isoformat())
        sessions = frozenset(ts.date() for ts in built.sessions)
        half_days = frozenset(ts.date() for ts in built.early_closes)
    return ShippedCalendar(name, min(sessions), end, sessions, half_days & sessions)


def _unknown(market: Market, day: date, first: date, last: date) -> CalendarUnknown:
    if day < first:
        return user_error(CalendarUnknown, "calendar_before_start", market=market, first=first, day=day)
    return user_error(
        CalendarUnknown, "calendar_past_end", market=market, last=last, day=day, **_holiday_commands(market)
    )


def _holiday_commands(market: str) -> dict[str, str]:
    return {"add": f"stockbench rules holiday add {market} DATE [--half-day | --open]",
            "extend": f"stockbench rules holiday extend {market} --through DATE"}  # fmt: skip


@dataclass(frozen=True)
class TradingCalendar:
    """One market's trading days: the shipped calendar with the workspace's holidays on top.

    Every method raises `CalendarUnknown` for a day outside `known_from`..`known_through`, including
    when a walk to the next or previous session would have to leave that range.
    """

    market: Market
    shipped: ShippedCalendar = field(repr=False)
    known_through: date
    overrides: Mapping[date, HolidayKind] = field(default_factory=dict, repr=False)

    @property
    def name(self) -> str:
        return self.shipped.name

    @property
    def known_from(self) -> date:
        return self.shipped.first

    def _check(self, day: date) -> None:
        if not self.known_from <= day <= self.known_through:
            raise _unknown(self.market, day, self.known_from, self.known_through)

    def is_session(self, day: date) -> bool:
        """True when the market trades on `day`."""
        self._check(day)
        kind = self.overrides.get(day)
        if kind is not None:
            return kind != "closed"
        if day <= self.shipped.last:
            return day in self.shipped.sessions
        return day.weekday() < 5  # past the shipped range, within a vouched extension

    def is_half_day(self, day: date) -> bool:
        """True when `day` is a session with the morning only (Hong Kong half days)."""
        self._check(day)
        kind = self.overrides.get(day)
        if kind is not None:
            return kind == "half_day"
        return day in self.shipped.half_days

    def _days(self, start: date, end: date) -> Iterator[date]:
        if start > end:
            raise user_error(InvalidInput, "period_reversed", start=start, end=end)
        self._check(start)
        self._check(end)
        day = start
        while day <= end:
            yield day
            day += _DAY

    def sessions(self, start: date, end: date) -> list[date]:
        """The sessions from `start` to `end`, both included."""
        return [day for day in self._days(start, end) if self.is_session(day)]

    def half_days(self, start: date, end: date) -> list[date]:
        """The half-day sessions from `start` to `end`, both included."""
        return [day for day in self._days(start, end) if self.is_half_day(day)]

    def count_sessions(self, start: date, end: date) -> int:
        """How many sessions lie from `start` to `end`, both included."""
        return len(self.sessions(start, end))

    def _step(self, day: date, step: timedelta) -> date:
        self._check(day)
        day += step
        while not self.is_session(day):
            day += step
        return day

    def next_session(self, day: date) -> date:
        """The first session strictly after `day`."""
        return self._step(day, _DAY)

    def previous_session(self, day: date) -> date:
        """The last session strictly before `day`."""
        return self._step(day, -_DAY)

    def session_offset(self, day: date, n: int) -> date:
        """The `n`-th session after `day` (n > 0) or before it (n < 0); `day` itself when n == 0."""
        if n == 0:
            if not self.is_session(day):
                raise user_error(InvalidInput, "not_a_session", day=day, market=self.market)
            return day
        step = _DAY if n > 0 else -_DAY
        for _ in range(abs(n)):
            day = self._step(day, step)
        return day


@dataclass(frozen=True, slots=True)
class Holiday:
    """A workspace correction or addition to a market's calendar."""

    market: Market
    day: date
    kind: HolidayKind
    note: str
    added_at: datetime


@dataclass(frozen=True, slots=True)
class Extension:
    """The user's word that the workspace holiday table is complete through `known_through`."""

    market: Market
    known_through: date
    note: str
    holidays_in_range: int  # workspace holidays between the shipped range's end and `known_through`


class Calendars:
    """The trading calendars of a workspace (`db` None: the shipped calendars only, read-only)."""

    def __init__(self, db: Database | None, tables: RuleTables) -> None:
        self._db = db
        self._tables = tables

    def _shipped(self, market: Market) -> ShippedCalendar:
        row = self._row(market)
        return shipped_calendar(row.exchange_calendar, row.known_through)

    def _row(self, market: Market) -> CalendarRow:
        row = self._tables.calendars.get(market)
        if row is None:
            known = ", ".join(sorted(self._tables.calendars))
            raise user_error(InvalidInput, "no_calendar", market=repr(market), known=known)
        return row

    def calendar(self, market: Market) -> TradingCalendar:
        """The trading calendar of `market`, with this workspace's holidays and extension applied."""
        shipped = self._shipped(market)
        extension = self._extension(market)
        known = max(shipped.last, extension) if extension else shipped.last
        overrides = {h.day: h.kind for h in self.holidays(market)}
        return TradingCalendar(market, shipped, known, overrides)

    def _writable(self) -> Database:
        if self._db is None:
            raise InternalError("these calendars have no workspace: holidays cannot be recorded")
        return self._db

    def add_holiday(self, market: Market, day: date, kind: HolidayKind = "closed", note: str = "") -> Holiday:
        """Record that `market` is closed, open or half-day on `day` (replacing an earlier entry)."""
        self._row(market)
        if kind not in HOLIDAY_KINDS:
            raise user_error(InvalidInput, "unknown_holiday_kind", kind=repr(kind), kinds=", ".join(HOLIDAY_KINDS))
        if kind == "half_day" and not self._has_half_days(market):
            raise user_error(InvalidInput, "no_half_days", market=market)
        holiday = Holiday(market, day, kind, note, datetime.now(UTC))
        with self._writable().transaction() as cur:
            cur.execute(
                "INSERT OR REPLACE INTO market_holidays (market, day, kind, note, added_at) VALUES (?, ?, ?, ?, ?)",
                [market, day, kind, note, holiday.added_at],
            )
        return holiday

    def _has_half_days(self, market: Market) -> bool:
        return any(t.market == market and t.half_day for t in self._tables.sessions)

    def holidays(self, market: Market | None = None) -> list[Holiday]:
        """The workspace's holidays, by market and day (all markets when `market` is None)."""
        if self._db is None:
            return []
        rows = self._db.fetchall(
            "SELECT market, day, kind, note, added_at FROM market_holidays"
            " WHERE ? IS NULL OR market = ? ORDER BY market, day",
            [market, market],
        )
        return [Holiday(m, d, cast(HolidayKind, k), n, a) for m, d, k, n, a in rows]

    def extend(self, market: Market, known_through: date, note: str = "") -> Extension:
        """Vouch that the workspace holidays of `market` are complete through `known_through`."""
        shipped = self._shipped(market).last
        if known_through < shipped:
            raise user_error(InvalidInput, "calendar_already_known", market=market, shipped=shipped)
        with self._writable().transaction() as cur:
            cur.execute(
                "INSERT OR REPLACE INTO calendar_extensions (market, known_through, note, updated_at) "
                "VALUES (?, ?, ?, ?)",
                [market, known_through, note, datetime.now(UTC)],
            )
        added = [h for h in self.holidays(market) if shipped < h.day <= known_through]
        return Extension(market, known_through, note, len(added))

    def _extension(self, market: Market) -> date | None:
        if self._db is None:
            return None
        value = self._db.scalar("SELECT known_through FROM calendar_extensions WHERE market = ?", [market])
        return cast(date | None, value)


def settlement(instrument: Instrument, tables: RuleTables) -> Settlement:
    """When shares bought in `instrument` can be sold: "T+1" (next session) or "T+0" (same day)."""
    rules = tables.settlement
    if instrument.security_type is SecurityType.INDEX:
        raise user_error(InvalidInput, "index_not_tradable", symbol=instrument.symbol)
    if instrument.market != "CN":
        value = rules[instrument.market.lower()]
    elif instrument.security_type is SecurityType.STOCK:
        value = rules["cn_stock"]
    elif instrument.fund_kind is not None and instrument.fund_kind.value in rules["cn_fund_t0_kinds"]:
        value = "T+0"
    else:
        value = rules["cn_fund"]  # a fund of unknown kind is taken as T+1: never claim early sellability
    if value not in SETTLEMENTS:
        raise InternalError(f"settlement rule {value!r} for {instrument.symbol} is not one of {SETTLEMENTS}")
    return cast(Settlement, value)


def sellable_from(instrument: Instrument, trade_day: date, calendar: TradingCalendar, tables: RuleTables) -> date:
    """The first day shares of `instrument` bought on session `trade_day` can be sold."""
    if calendar.market != instrument.market:
        raise user_error(InvalidInput, "wrong_calendar", symbol=instrument.symbol, market=calendar.market,
                         own=instrument.market)  # fmt: skip
    if not calendar.is_session(trade_day):
        raise user_error(InvalidInput, "not_a_session.trade", day=trade_day, market=calendar.market)
    return calendar.next_session(trade_day) if settlement(instrument, tables) == "T+1" else trade_day
