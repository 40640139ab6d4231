"""When each demo stock trades: its sessions, suspensions, names over time and dividend ex-dates.

Sessions come from the real trading calendars; a suspension is a run of sessions with no bar. A listing
inside the demo period carries the exchanges' N (first session) and C (later no-limit sessions) name
prefixes, with the no-limit session count read from the rule tables.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from datetime import date
from typing import Literal

from stockbench.data.demo.seed import DemoSeed, SeedStock
from stockbench.data.demo.streams import stream
from stockbench.errors import InternalError
from stockbench.market.limits import no_limit_sessions
from stockbench.market.registry import is_st_name
from stockbench.market.tables import RuleTables

HaltReason = Literal["risk_warning", "major_event", "pending_announcement"]
EX_WINDOW = ((6, 1), (7, 31))  # annual dividends go ex between June and July
QUIET_START = 20  # no suspension or ex-date in a listing's first sessions
QUIET_END = 40  # nor in the last sessions of the demo period
RANDOM_HALT_CHANCE = 0.35


@dataclass(frozen=True, slots=True)
class HaltSpan:
    """Consecutive sessions without trading, and why."""

    days: tuple[date, ...]
    reason: HaltReason

    @property
    def start(self) -> date:
        return self.days[0]

    @property
    def end(self) -> date:
        return self.days[-1]


@dataclass(frozen=True, slots=True)
class StockSchedule:
    stock: SeedStock
    sessions: tuple[date, ...]  # the market's sessions from listing (or the first demo session)
    trading: tuple[date, ...]  # sessions with a bar
    halts: tuple[HaltSpan, ...]
    names: tuple[tuple[date, str], ...]  # name history: (valid from, name)
    ex_dates: dict[int, date]  # year -> the session the year's dividend goes ex (if there is one)
    new_listing: bool  # listed inside the demo period: its first bar is its first session
    free_sessions: int  # sessions without a daily limit at listing (0: none or not a new listing)

    def st_on(self, days: tuple[date, ...] | list[date]) -> list[bool]:
        """For each of `days` (ascending), whether the name then in force marks special treatment (ST, *ST)."""
        flags, at, current = [], 0, False
        for day in days:
            while at < len(self.names) and self.names[at][0] <= day:
                current = is_st_name(self.names[at][1])
                at += 1
            flags.append(current)
        return flags

    def name_on(self, day: date) -> str:
        current = self.names[0][1]
        for start, name in self.names:
            if start > day:
                break
            current = name
        return current


def _check_session(stock: SeedStock, day: date, sessions: set[date], what: str) -> None:
    if day not in sessions:
        raise InternalError(f"demo seed: {stock.symbol} {what} {day} is not a session")


def _names(stock: SeedStock, sessions: tuple[date, ...], new: bool, free: int) -> tuple[tuple[date, str], ...]:
    names: list[tuple[date, str]] = [(stock.list_date, stock.name)]
    if new and stock.instrument.is_a_share:
        names = [(sessions[0], "N" + stock.name)]
        if free > 1:
            names.append((sessions[1], "C" + stock.name))
        names.append((sessions[max(free, 1)], stock.name))
    names.extend((change.start, change.name) for change in stock.names)
    return tuple(names)


def _ex_dates(stock: SeedStock, sessions: tuple[date, ...], seed: int) -> dict[int, date]:
    rng = stream(seed, stock.symbol, "ex-dates")
    usable = sessions[QUIET_START : len(sessions) - QUIET_END]
    found: dict[int, date] = {}
    for year in range(sessions[0].year, sessions[-1].year + 1):
        (m1, d1), (m2, d2) = EX_WINDOW
        window = usable[
            bisect.bisect_left(usable, date(year, m1, d1)) : bisect.bisect_right(usable, date(year, m2, d2))
        ]
        if window:
            found[year] = window[int(rng.integers(len(window)))]
    return found


def _fixed_halts(stock: SeedStock, sessions: tuple[date, ...]) -> list[HaltSpan]:
    known = set(sessions)
    halts = []
    for change in stock.names:
        _check_session(stock, change.start, known, "name change")
        if change.halt is not None:
            _check_session(stock, change.halt, known, "halt")
            halts.append(HaltSpan((change.halt,), "risk_warning"))
    for halt in stock.halts:
        _check_session(stock, halt.start, known, "halt")
        at = sessions.index(halt.start)
        reason: HaltReason = "major_event" if stock.instrument.is_a_share else "pending_announcement"
        halts.append(HaltSpan(sessions[at : at + halt.sessions], reason))
    return halts


def _random_halt(stock: SeedStock, sessions: tuple[date, ...], blocked: set[date], seed: int) -> HaltSpan | None:
    rng = stream(seed, stock.symbol, "halts")
    if rng.random() >= RANDOM_HALT_CHANCE or len(sessions) < QUIET_START + QUIET_END + 20:
        return None
    length = int(rng.integers(2, 7))
    for _ in range(50):
        at = int(rng.integers(QUIET_START, len(sessions) - QUIET_END - length))
        days = sessions[at - 3 : at + length + 3]
        if not blocked.intersection(days):
            reason: HaltReason = "major_event" if stock.instrument.is_a_share else "pending_announcement"
            return HaltSpan(sessions[at : at + length], reason)
    return None


def plan_stock(stock: SeedStock, seed: DemoSeed, market_sessions: list[date], tables: RuleTables) -> StockSchedule:
    """The schedule of one stock over the demo period."""
    new = stock.list_date >= seed.first_session
    if new:
        _check_session(stock, stock.list_date, set(market_sessions), "listing date")
    sessions = tuple(d for d in market_sessions if d >= stock.list_date)
    free = no_limit_sessions(stock.instrument, stock.list_date, tables) if new and stock.instrument.is_a_share else 0
    ex_dates = _ex_dates(stock, sessions, seed.number) if not new or len(sessions) > QUIET_START else {}
    halts = _fixed_halts(stock, sessions)
    blocked = {d for h in halts for d in h.days} | set(ex_dates.values())
    blocked |= {c.start for c in stock.names} | set(sessions[:QUIET_START])
    extra = _random_halt(stock, sessions, blocked, seed.number)
    if extra is not None:
        halts.append(extra)
    halted = {d for h in halts for d in h.days}
    for year, day in list(ex_dates.items()):
        if day in halted:
            del ex_dates[year]
    return StockSchedule(
        stock=stock,
        sessions=sessions,
        trading=tuple(d for d in sessions if d not in halted),
        halts=tuple(sorted(halts, key=lambda h: h.start)),
        names=_names(stock, sessions, new, free),
        ex_dates=ex_dates,
        new_listing=new,
        free_sessions=free,
    )
