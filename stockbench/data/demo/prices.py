"""Daily bars of the demo stocks, drawn session by session under the exchanges' rules.

Prices are integers of the instrument's smallest step (CNY cents; thousandths of a HKD, every Hong Kong
tick being a multiple of it). An A-share day is bounded by the limits the rule tables give for its board,
its name's ST status, its date and its listing session, computed from the reference price exactly as
`stockbench.market.limits.price_limits` does (half-up to the tick); a draw beyond a limit closes on it,
which is how limit-up and limit-down days arise. On an A-share ex-date the reference is the exchange's
ex-rights price; Hong Kong has no limits and no adjusted reference, and its prices sit on the spread
table's tick for the price band and date.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from stockbench.data.demo.accounts import Accounts, Dividend
from stockbench.data.demo.factors import Factors
from stockbench.data.demo.schedule import StockSchedule
from stockbench.data.demo.seed import DemoSeed
from stockbench.data.demo.streams import daily_rate, normals, stream
from stockbench.errors import InternalError
from stockbench.market.instruments import Board, Instrument
from stockbench.market.limits import limit_pct, price_limits
from stockbench.market.tables import RuleTables
from stockbench.market.ticks import spread_table

BP = 10_000
CNY_TICK = Decimal("0.01")
PULL = 0.03  # share of the gap to the company's value closed each session
JUMP_CHANCE = 0.003  # sessions with news large enough to carry the price to a limit
LOCKED_CHANCE = 0.35  # share of limit days that trade at the limit all day
BOARD_TURNOVER = {Board.MAIN: 1.0, Board.CHINEXT: 1.6, Board.STAR: 1.4, Board.BSE: 1.2}
BOARD_VOL = {Board.MAIN: 1.0, Board.CHINEXT: 1.15, Board.STAR: 1.2, Board.BSE: 1.25}
LOCK_UP_SESSIONS = 244
HK_MIN_UNITS = 10  # HK$0.01, the spread table's lowest price


@dataclass
class StockPath:
    """One instrument's bars as parallel lists; prices in `unit` (a fraction of the currency)."""

    symbol: str
    unit: Decimal
    days: list[date] = field(default_factory=list)
    open: list[int] = field(default_factory=list)
    high: list[int] = field(default_factory=list)
    low: list[int] = field(default_factory=list)
    close: list[int] = field(default_factory=list)
    ref: list[int] = field(default_factory=list)  # the day's reference price (prev_close)
    volume: list[int] = field(default_factory=list)
    amount: list[int] = field(default_factory=list)  # cents of the currency
    turnover: list[int | None] = field(default_factory=list)  # millionths of a percent
    float_shares: list[int] = field(default_factory=list)
    total_shares: list[int] = field(default_factory=list)

    def add(self, day: date, ohlc: tuple[int, int, int, int], ref: int, volume: int, shares: tuple[int, int]) -> None:
        o, h, lo, c = ohlc
        if not (lo <= min(o, c) and h >= max(o, c) and lo > 0):
            raise InternalError(f"demo bar for {self.symbol} on {day} is inconsistent: {ohlc}")
        vwap = (h + lo + 2 * c) / 4
        cents_per_unit = Decimal("0.01") / self.unit
        self.days.append(day)
        self.open.append(o)
        self.high.append(h)
        self.low.append(lo)
        self.close.append(c)
        self.ref.append(ref)
        self.volume.append(volume)
        self.amount.append(round(volume * vwap / float(cents_per_unit)))
        self.turnover.append(round(volume * 100_000_000 / shares[0]))
        self.float_shares.append(shares[0])
        self.total_shares.append(shares[1])


class LimitBook:
    """Limit percentages in basis points by board, ST status and date, read once from the rule tables."""

    def __init__(self, tables: RuleTables) -> None:
        self.tables = tables
        self._bp: dict[tuple[Board, bool, date], int | None] = {}

    def bp(self, instrument: Instrument, day: date, st: bool) -> int | None:
        key = (instrument.board, st, day)
        if key not in self._bp:
            found = limit_pct(instrument, day, st=st, tables=self.tables)
            self._bp[key] = None if found is None else int(found[0] * BP)
        return self._bp[key]


def limit_ticks(ref: int, bp: int) -> tuple[int, int]:
    """Limit-up and limit-down in ticks: ref x (1 +/- bp/10000), half-up, in integers only."""
    return (ref * (BP + bp) + BP // 2) // BP, (ref * (BP - bp) + BP // 2) // BP


def ex_reference(prev: int, dividend: Dividend, unit: Decimal) -> int:
    """The exchange's ex-rights reference: (previous close - cash) / (1 + bonus ratio), half-up to the tick."""
    value = (prev * unit - dividend.cash) / (1 + dividend.bonus_ratio)
    if value <= 0:
        raise InternalError(f"demo dividend {dividend} leaves no reference price from {prev * unit}")
    return int((value / unit).to_integral_value(ROUND_HALF_UP))


@dataclass(frozen=True, slots=True)
class Draws:
    """One stock's noise: z (four normal rows) and u (five uniform rows), one column per bar."""

    z: list[list[float]]
    u: list[list[float]]

    @classmethod
    def of(cls, seed: int, symbol: str, n: int) -> Draws:
        rng = stream(seed, symbol, "bars")
        z = [normals(rng, n).tolist() for _ in range(4)]
        u = [rng.random(n).tolist() for _ in range(5)]
        return cls(z, u)


@dataclass(frozen=True, slots=True)
class Context:
    seed: DemoSeed
    tables: RuleTables
    factors: Factors
    limits: LimitBook


def _listing_limits(ctx: Context, instrument: Instrument, ref: int, unit: Decimal, day: date) -> tuple[int, int] | None:
    """Limits on a listing's first session when a band (not a no-limit rule) applies; None without one."""
    found = price_limits(instrument, ref * unit, day, listing_session=1, tables=ctx.tables)
    if found.up is None or found.down is None:
        return None
    return int(found.up / unit), int(found.down / unit)


def _news_sessions(trading: tuple[date, ...], news: dict[date, int]) -> dict[date, int]:
    """The session after each piece of news (published after the close), with its direction."""
    moved: dict[date, int] = {}
    for day, direction in news.items():
        at = bisect.bisect_right(trading, day)
        if at < len(trading):
            moved[trading[at]] = direction
    return moved


class _AShareWalk:
    """One A-share stock's walk through its sessions: reference price, limits, the day's prices, volume."""

    def __init__(self, ctx: Context, schedule: StockSchedule, accounts: Accounts, news: dict[date, int]) -> None:
        stock = schedule.stock
        self.ctx, self.schedule, self.accounts, self.stock = ctx, schedule, accounts, stock
        self.sector = ctx.seed.sectors[stock.sector]
        self.path = StockPath(stock.symbol, CNY_TICK)
        self.draws = Draws.of(ctx.seed.number, stock.symbol, len(schedule.trading))
        self.drift = {year: daily_rate(g) for year, g in accounts.drift.items()}
        self.dividends = {d.ex_date: d for d in accounts.dividends}
        self.vol = self.sector.vol * BOARD_VOL[stock.instrument.board]
        self.prev = int(stock.price / CNY_TICK)
        self.anchor = float(self.prev)
        self.settled = max(schedule.free_sessions, 1) if schedule.new_listing else 0
        self.moved = _news_sessions(schedule.trading, news)
        self.st_days = schedule.st_on(schedule.trading)

    def run(self) -> StockPath:
        for i, day in enumerate(self.schedule.trading):
            self._step(i, day)
        return self.path

    def _bounds(self, day: date, ref: int, session: int | None, st: bool) -> tuple[int, int] | None:
        """The day's limits in ticks; None on a listing's no-limit sessions."""
        free = self.schedule.free_sessions
        if session is not None and session <= free:
            return None
        if session == 1:  # a listing whose first session is banded rather than free
            return _listing_limits(self.ctx, self.stock.instrument, ref, CNY_TICK, day)
        bp = self.ctx.limits.bp(self.stock.instrument, day, st)
        return None if bp is None else limit_ticks(ref, bp)

    def _step(self, i: int, day: date) -> None:
        ref = self.prev
        if day in self.dividends:
            ref = ex_reference(self.prev, self.dividends[day], CNY_TICK)
            self.anchor *= ref / self.prev
        session = i + 1 if self.schedule.new_listing else None
        st = self.st_days[i]
        bounds = self._bounds(day, ref, session, st)
        move = self.ctx.factors.move("CN", self.stock.sector, day, self.sector.beta)
        self.anchor *= 1 + self.drift[day.year] + move
        if session == self.settled + 1:
            self.anchor = ref * 0.9  # after the listing's first sessions, value settles below their prices
        z = [row[i] for row in self.draws.z]
        u = [row[i] for row in self.draws.u]
        locked = False
        if session is not None and session <= self.schedule.free_sessions:
            r = (0.4 + 1.6 * u[1]) if session == 1 else (0.07 * z[0] - 0.02)
            ohlc = _day(ref, r, self.vol * 2, z, bounds=None, locked=False)
        else:
            r = PULL * (self.anchor / ref - 1) + move + self.vol * (1.3 if st else 1.0) * z[0]
            if bounds is not None and (day in self.moved or u[0] < JUMP_CHANCE * (2 if st else 1)):
                direction = self.moved.get(day) or (1 if u[1] < 0.55 else -1)
                r = ((bounds[0] - ref) / ref + 0.005 + 0.02 * u[3]) * direction
                locked = u[2] < LOCKED_CHANCE
            ohlc = _day(ref, r, self.vol, z, bounds=bounds, locked=locked)
        self._record(day, ref, session, ohlc, locked=locked, draw=u[4])
        self.prev = ohlc[3]

    def _record(
        self, day: date, ref: int, session: int | None, ohlc: tuple[int, int, int, int], *, locked: bool, draw: float
    ) -> None:
        shares = self.accounts.shares_on(day)
        float_shares = int(shares * _float_ratio(self.stock.float_ratio, session))
        base = self.sector.turnover * BOARD_TURNOVER[self.stock.instrument.board]
        turn = _turnover(base, ohlc[3] / ref - 1, draw, locked)
        if session is not None and session <= self.settled:
            turn = 0.55 + 0.2 * draw if session == 1 else 0.25 + 0.2 * draw
        self.path.add(day, ohlc, ref, max(int(float_shares * turn), 100), (float_shares, shares))


def a_share_path(ctx: Context, schedule: StockSchedule, accounts: Accounts, news: dict[date, int]) -> StockPath:
    """The bars of one A-share stock; `news` (day -> +1/-1) carries the next session to a limit."""
    return _AShareWalk(ctx, schedule, accounts, news).run()


def _float_ratio(ratio: float, session: int | None) -> float:
    """Shares free to trade: a new listing's locked-up shares become tradable after a year."""
    return min(1.0, ratio * 3) if session is not None and session > LOCK_UP_SESSIONS else ratio


def _turnover(base: float, change: float, draw: float, locked: bool) -> float:
    turn = base * (0.55 + 0.9 * draw) * (1 + 5 * abs(change))
    return turn * 0.12 if locked else turn


def _day(
    ref: int, r: float, vol: float, z: list[float], *, bounds: tuple[int, int] | None, locked: bool
) -> tuple[int, int, int, int]:
    """Open, high, low and close in ticks for a day whose close is ref x (1 + r), within `bounds`."""
    top, bottom = (bounds[0], max(bounds[1], 1)) if bounds else (10**12, 1)

    def clamp(value: float) -> int:
        return min(max(round(value), bottom), top)

    close = clamp(ref * (1 + r))
    if locked:
        return close, close, close, close
    open_ = clamp(ref * (1 + 0.3 * r + 0.35 * vol * z[1]))
    spread = 0.55 * vol * ref
    high = min(max(open_, close) + round(abs(z[2]) * spread), top)
    low = max(min(open_, close) - round(abs(z[3]) * spread), bottom)
    return open_, high, low, close


class HkTicks:
    """Hong Kong spread-table bands in thousandths of a HKD, by date (from the rule tables)."""

    def __init__(self, tables: RuleTables) -> None:
        self.tables = tables
        self._by_table: dict[str, tuple[tuple[int, int, int], ...]] = {}

    def bands(self, instrument: Instrument, day: date) -> tuple[tuple[int, int, int], ...]:
        table = spread_table(instrument, day, self.tables)
        if table.name not in self._by_table:
            self._by_table[table.name] = tuple(
                (int(b.lower * 1000), int(b.upper * 1000), int(b.tick * 1000)) for b in table.bands
            )
        return self._by_table[table.name]


def hk_round(value: float, bands: tuple[tuple[int, int, int], ...]) -> int:
    """`value` (thousandths of a HKD) rounded to the tick of the band that contains it."""
    if value <= bands[0][0]:
        return bands[0][0]
    for lower, upper, tick in bands:
        if value <= upper and (value >= lower if lower == bands[0][0] else value > lower):
            return min(round(value / tick) * tick, upper)
    return bands[-1][1]


def hk_path(ctx: Context, schedule: StockSchedule, accounts: Accounts, ticks: HkTicks) -> StockPath:
    """The bars of one Hong Kong stock (no limits; prev_close is the previous close, as HKEX reports it)."""
    stock = schedule.stock
    sector = ctx.seed.sectors[stock.sector]
    path = StockPath(stock.symbol, Decimal("0.001"))
    draws = Draws.of(ctx.seed.number, stock.symbol, len(schedule.trading))
    z, u = draws.z, draws.u
    drift = {year: daily_rate(g) for year, g in accounts.drift.items()}
    dividends = {d.ex_date: d for d in accounts.dividends}
    prev = int(stock.price / path.unit)
    anchor = float(prev)
    for i, day in enumerate(schedule.trading):
        bands = ticks.bands(stock.instrument, day)
        base = prev
        if day in dividends:  # the price drops by the dividend; HKEX publishes no adjusted reference
            base = max(prev - int(dividends[day].cash * 1000), HK_MIN_UNITS)
            anchor *= base / prev
        move = ctx.factors.move("HK", stock.sector, day, sector.beta)
        anchor *= 1 + drift[day.year] + move
        r = PULL * (anchor / base - 1) + move + sector.vol * z[0][i]
        if u[0][i] < JUMP_CHANCE:
            r = (0.08 + 0.12 * u[3][i]) * (1 if u[1][i] < 0.5 else -1)
        close = hk_round(base * (1 + r), bands)
        open_ = hk_round(base * (1 + 0.3 * r + 0.35 * sector.vol * z[1][i]), bands)
        spread = 0.55 * sector.vol * base
        high = max(hk_round(max(open_, close) + abs(z[2][i]) * spread, bands), open_, close)
        low = min(hk_round(min(open_, close) - abs(z[3][i]) * spread, bands), open_, close)
        shares = accounts.shares_on(day)
        float_shares = int(shares * stock.float_ratio)
        turn = _turnover(sector.turnover, close / base - 1, u[4][i], False)
        path.add(day, (open_, high, low, close), prev, max(int(float_shares * turn), 100), (float_shares, shares))
        prev = close
    return path
