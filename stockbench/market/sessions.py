"""Session phases: what an exchange is doing at an instant (auction, continuous trading, lunch, closed).

Timetables come from the rule tables (`[[sessions]]` and `[[after_hours_fixed_price]]`), chosen by the
market, the date, the exchange and the board; trading days and half days come from the calendar.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Literal, get_args

from stockbench.clock import MARKET_TZ, Market
from stockbench.errors import CalendarUnknown, InternalError, InvalidInput
from stockbench.market.calendars import TradingCalendar
from stockbench.market.tables import RuleTables, SessionTable, in_force
from stockbench.messages import user_error

PhaseName = Literal[
    "closed",
    "preopen_cancellable",
    "preopen_noncancellable",
    "preopen_wait",
    "continuous",
    "lunch_break",
    "closing_auction",
    "after_hours_fixed_price",
]
PHASES: tuple[PhaseName, ...] = get_args(PhaseName)
# How an instrument's session went, as stored market data tells: it traded; it did not (the daily bars have none
# that day, or one with no volume); or the latest quote of that day says it was suspended or delisted.
DayTrading = Literal["traded", "not_traded", "suspended", "delisted"]

# The boards each exchange lists, per market; where a caller names no exchange or board, the board
# implies its exchange (main and fund: Shanghai), an exchange its first board, and CN means the
# Shanghai main board.
VENUES: dict[Market, dict[str, tuple[str, ...]]] = {
    "CN": {"SH": ("main", "star", "fund"), "SZ": ("main", "chinext", "fund"), "BJ": ("bse",)},
    "HK": {"HK": ("hk_main", "hk_gem")},
}


@dataclass(frozen=True, slots=True)
class SessionState:
    """The phase of a market at an instant, for one exchange and board.

    `trading_day` is False (and `phase` "closed") on a day without a session; `half_day` marks a
    morning-only session; `local` is the instant in the exchange's time zone.
    """

    phase: PhaseName
    trading_day: bool
    half_day: bool
    local: datetime
    exchange: str
    board: str


_PARSE = "stockbench.clock.parse_instant"  # how a front end reads a time a person gives


def venue(market: Market, exchange: str | None = None, board: str | None = None) -> tuple[str, str]:
    """The (exchange, board) a phase question is about, filling in what the caller left out.

    With neither given, CN means the Shanghai main board and HK the main board; a board alone implies
    its exchange (STAR, main board and funds: SH; ChiNext: SZ; Beijing: BJ); an exchange alone implies
    its main board. A board the exchange does not list is an error.
    """
    venues = VENUES.get(market)
    if venues is None:
        raise user_error(InvalidInput, "no_timetables", market=repr(market), choices="CN or HK")
    listed = "; ".join(f"{ex}: {', '.join(b)}" for ex, b in venues.items())
    if exchange is None:
        exchange = next((ex for ex, boards in venues.items() if board is None or board in boards), None)
        if exchange is None:
            raise user_error(InvalidInput, "no_board", market=market, board=repr(board), listed=listed)
    if exchange not in venues:
        raise user_error(InvalidInput, "no_exchange", market=market, exchange=repr(exchange), listed=", ".join(venues))
    board = board or venues[exchange][0]
    if board not in venues[exchange]:
        raise user_error(InvalidInput, "exchange_no_board", exchange=exchange, board=repr(board), listed=listed)
    return exchange, board


def _timetables(market: Market, exchange: str, board: str, tables: RuleTables) -> list[SessionTable]:
    rows = [t for t in tables.sessions if t.market == market and exchange in t.exchanges and board in t.boards]
    if not rows:
        raise InternalError(
            f"no {market} session timetable covers exchange {exchange!r} with board {board!r}; "
            "the rule tables' [[sessions]] rows do not list this exchange and board",
        )
    return rows


def _timetable(rows: list[SessionTable], day: date, half_day: bool) -> SessionTable:
    found = in_force([t for t in rows if t.half_day == half_day], day)
    if not found:
        raise user_error(CalendarUnknown, "timetable_unknown.half_day" if half_day else "timetable_unknown",
                         market=rows[0].market, day=day, since=min(t.since for t in rows))  # fmt: skip
    return found[0]


def _after_hours(day: date, board: str, at: time, tables: RuleTables) -> bool:
    return any(board in row.boards and row.window[0] <= at < row.window[1] for row in in_force(tables.after_hours, day))


def _phase_name(name: str) -> PhaseName:
    if name not in PHASES:
        raise InternalError(f"the session tables name an unknown phase {name!r}")
    return name


def phase_at(
    market: Market,
    instant: datetime,
    calendar: TradingCalendar,
    tables: RuleTables,
    *,
    exchange: str | None = None,
    board: str | None = None,
) -> SessionState:
    """The phase of `market` at `instant` (timezone-aware) for `exchange`/`board` (see `venue`)."""
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise user_error(InvalidInput, "naive_instant", instant=instant.isoformat(), function=_PARSE)
    if calendar.market != market:
        raise user_error(InvalidInput, "calendar_mismatch", calendar=calendar.market, market=market)
    exchange, board = venue(market, exchange, board)
    local = instant.astimezone(MARKET_TZ[market])
    day, at = local.date(), local.time()
    rows = _timetables(market, exchange, board, tables)
    if not calendar.is_session(day):
        return SessionState("closed", False, False, local, exchange, board)
    half = calendar.is_half_day(day)
    table = _timetable(rows, day, half)
    phase: PhaseName = "closed"
    for row in table.phases:
        if row.start <= at < row.end:
            phase = _phase_name(row.name)
            break
    else:
        if not half and _after_hours(day, board, at, tables):
            phase = "after_hours_fixed_price"
    return SessionState(phase, True, half, local, exchange, board)


DEFAULT_FILL_PHASES: tuple[PhaseName, ...] = ("continuous", "closing_auction")
LOOKBACK_DAYS = 31


def last_trading_minute(
    market: Market,
    instant: datetime,
    calendar: TradingCalendar,
    tables: RuleTables,
    *,
    exchange: str | None = None,
    board: str | None = None,
    phases: tuple[PhaseName, ...] = DEFAULT_FILL_PHASES,
) -> datetime:
    """The minute a fill entered at `instant` most likely executed: `instant` to the minute while one of `phases` is
    running, else the last minute of the latest such phase before it (14:59 after a CN close, 11:29 over the lunch
    break, the previous session's 14:59 before the open), in the exchange's time zone. CalendarUnknown when no
    session is known in the LOOKBACK_DAYS before it."""
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise user_error(InvalidInput, "naive_instant", instant=instant.isoformat(), function=_PARSE)
    zone = MARKET_TZ[market]
    exchange, board = venue(market, exchange, board)
    local = instant.astimezone(zone)
    rows = _timetables(market, exchange, board, tables)
    day = local.date()
    for _ in range(LOOKBACK_DAYS):
        if calendar.is_session(day):
            table = _timetable(rows, day, calendar.is_half_day(day))
            spans = sorted(((datetime.combine(day, r.start, zone), datetime.combine(day, r.end, zone))
                            for r in table.phases if r.name in phases), key=lambda s: s[1], reverse=True)  # fmt: skip
            for start, end in spans:
                if start <= local < end:
                    return local.replace(second=0, microsecond=0)
                if end <= local:
                    return end - timedelta(minutes=1)
        day -= timedelta(days=1)
    raise user_error(CalendarUnknown, "no_recent_session", market=market, days=LOOKBACK_DAYS, day=f"{local:%Y-%m-%d}",
                     add=f"stockbench rules holiday add {market} DATE [--half-day | --open]",
                     extend=f"stockbench rules holiday extend {market} --through DATE")  # fmt: skip
