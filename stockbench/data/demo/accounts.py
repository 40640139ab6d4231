"""The demo companies' books: quarterly statements (year-to-date, as Chinese reports are), dividends, shares.

Revenue follows the sector's growth with noise; profit is revenue times a margin (negative in a seed's
loss years); equity accumulates profit less dividends. A statement becomes visible on its publication
session: Q1 by April, H1 by August, Q3 by October, the annual report by April of the next year; statements
older than a listing inside the demo period are published with the prospectus.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from stockbench.data.demo.schedule import StockSchedule
from stockbench.data.demo.seed import DemoSeed, Sector
from stockbench.data.demo.streams import normals, stream, uniforms

QUARTER_ENDS = ((3, 31), (6, 30), (9, 30), (12, 31))
# Publication windows (month, first day, last day) by quarter; the annual report comes the next year.
PUBLICATION = {1: (4, 15, 29), 2: (8, 10, 30), 3: (10, 15, 30), 4: (3, 20, 28)}
PREANNOUNCEMENT = (1, 10, 30)  # January of the next year
PROSPECTUS_LEAD = 7  # sessions between the prospectus and the first session
PARENT_SHARE = 0.96  # share of profit and equity attributable to the parent's shareholders
MIN_CASH_PER10 = Decimal("0.10")
CENT = Decimal("0.01")
LOSS_DRIFT = -0.15  # yearly price trend of a company in a loss year

# item -> (statement, unit kind): "money" is the reporting currency, "per_share" money per share, "%" percent.
ITEMS: dict[str, tuple[str, str]] = {
    "revenue": ("income", "money"),
    "operating_cost": ("income", "money"),
    "operating_profit": ("income", "money"),
    "total_profit": ("income", "money"),
    "net_profit": ("income", "money"),
    "net_profit_parent": ("income", "money"),
    "net_profit_parent_deducted": ("income", "money"),
    "eps_basic": ("income", "per_share"),
    "total_assets": ("balance", "money"),
    "total_liabilities": ("balance", "money"),
    "total_equity": ("balance", "money"),
    "equity_parent": ("balance", "money"),
    "cash": ("balance", "money"),
    "accounts_receivable": ("balance", "money"),
    "inventory": ("balance", "money"),
    "operating_cash_flow": ("cashflow", "money"),
    "investing_cash_flow": ("cashflow", "money"),
    "financing_cash_flow": ("cashflow", "money"),
    "capex": ("cashflow", "money"),
    "roe": ("indicator", "%"),
    "gross_margin": ("indicator", "%"),
    "net_margin": ("indicator", "%"),
    "debt_to_assets": ("indicator", "%"),
    "revenue_yoy": ("indicator", "%"),
    "net_profit_parent_yoy": ("indicator", "%"),
    "bps": ("indicator", "per_share"),
    "ocf_per_share": ("indicator", "per_share"),
}


@dataclass(frozen=True, slots=True)
class Statement:
    """One period's figures (flows year-to-date, balances at period end), visible from `published`."""

    period_end: date
    published: date
    values: dict[str, float]

    @property
    def quarter(self) -> int:
        return (self.period_end.month - 1) // 3 + 1


@dataclass(frozen=True, slots=True)
class Dividend:
    """A dividend out of `fiscal_year`'s profit: cash and bonus shares per 10 shares held."""

    fiscal_year: int
    ex_date: date
    record_date: date
    announced: date
    cash_per10: Decimal
    bonus_per10: Decimal

    @property
    def cash(self) -> Decimal:
        return self.cash_per10 / 10

    @property
    def bonus_ratio(self) -> Decimal:
        return self.bonus_per10 / 10


@dataclass(frozen=True, slots=True)
class Accounts:
    statements: tuple[Statement, ...]
    dividends: tuple[Dividend, ...]
    shares: tuple[tuple[date, int], ...]  # (from, total shares)
    drift: dict[int, float]  # yearly growth the share price trends with
    preannounced: dict[int, date] = field(default_factory=dict)  # fiscal year -> 业绩预告 session

    def shares_on(self, day: date) -> int:
        count = self.shares[0][1]
        for start, value in self.shares:
            if start > day:
                break
            count = value
        return count

    def annual(self, year: int) -> Statement | None:
        return next((s for s in self.statements if s.period_end == date(year, 12, 31)), None)


@dataclass
class _Year:
    revenue: float
    margin: float
    gross: float
    growth: float


def _session_in(sessions: list[date], year: int, window: tuple[int, int, int], pick: float) -> date:
    month, first, last = window
    start, end = (
        bisect.bisect_left(sessions, date(year, month, first)),
        bisect.bisect_right(sessions, date(year, month, last)),
    )
    if start >= end:
        return date(year, month, last)  # past the calendar: never published
    return sessions[start + int(pick * (end - start))]


def _years(seed: DemoSeed, schedule: StockSchedule, sector: Sector) -> dict[int, _Year]:
    stock = schedule.stock
    rng = stream(seed.number, stock.symbol, "years")
    first, last = seed.first_period.year - 1, seed.last_session.year
    z = normals(rng, 3 * (last - first + 1)).tolist()
    pe = sector.pe * (0.7 if schedule.new_listing else 1.0)
    anchor_year = max(stock.list_date.year - 1, seed.first_session.year - 1)
    revenue = float(stock.price) * stock.shares / pe / sector.margin
    years: dict[int, _Year] = {}
    for i, year in enumerate(range(first, last + 1)):
        growth = min(max(sector.growth + 0.06 * z[3 * i], -0.35), 0.8)
        loss = year in stock.loss_years
        margin = -(0.05 + 0.03 * abs(z[3 * i + 1])) if loss else sector.margin * (1 + 0.06 * z[3 * i + 1])
        years[year] = _Year(0.0, margin, min(max(sector.gross * (1 + 0.05 * z[3 * i + 2]), 0.05), 0.95), growth)
    years[anchor_year].revenue = revenue
    for year in range(anchor_year + 1, last + 1):
        years[year].revenue = years[year - 1].revenue * (1 + years[year].growth)
    for year in range(anchor_year - 1, first - 1, -1):
        years[year].revenue = years[year + 1].revenue / (1 + years[year + 1].growth)
    return years


def _publication(seed: DemoSeed, schedule: StockSchedule, sessions: list[date], period: date, pick: float) -> date:
    quarter = (period.month - 1) // 3 + 1
    year = period.year + (1 if quarter == 4 else 0)
    normal = _session_in(sessions, year, PUBLICATION[quarter], pick)
    for change in schedule.stock.names:
        if quarter == 4 and change.halt is not None and change.halt.year == year:
            normal = sessions[sessions.index(change.halt) - 1]  # the report that triggered the warning
    if schedule.new_listing and normal < schedule.stock.list_date:
        return sessions[sessions.index(schedule.stock.list_date) - PROSPECTUS_LEAD]
    return normal


def build_accounts(seed: DemoSeed, schedule: StockSchedule, sessions: list[date]) -> Accounts:
    """Statements, dividends and share counts of one stock; `sessions` is its market's, from `first_period`'s year."""
    stock = schedule.stock
    sector = seed.sectors[stock.sector]
    years = _years(seed, schedule, sector)
    rng = stream(seed.number, stock.symbol, "quarters")
    book = _Book(stock.shares, years[seed.first_period.year - 1], sector)
    statements: list[Statement] = []
    dividends: list[Dividend] = []
    last_published = seed.last_session
    for year in sorted(years)[1:]:
        dividend = _dividend(seed, schedule, book, year, sessions)
        if dividend is not None:
            dividends.append(dividend)
        for quarter, (month, day) in enumerate(QUARTER_ENDS, start=1):
            period = date(year, month, day)
            noise = normals(rng, 8).tolist()
            paid = [d for d in dividends if _quarter_of(d.ex_date) == (year, quarter)]
            book.close_quarter(years[year], quarter, noise, paid)
            if period < seed.first_period:
                continue
            published = _publication(seed, schedule, sessions, period, float(uniforms(rng, 1)[0]))
            if published > last_published:
                continue
            statements.append(Statement(period, published, book.figures(quarter)))
    shares = [(date(1990, 1, 1), stock.shares)]
    for d in dividends:
        if d.bonus_per10:
            shares.append((d.ex_date, int(shares[-1][1] * (1 + d.bonus_ratio))))
    drift = {y: (LOSS_DRIFT if years[y].margin < 0 else years[y].growth) for y in years}
    pre = {
        s.period_end.year: _session_in(sessions, s.period_end.year + 1, PREANNOUNCEMENT, 0.5)
        for s in statements
        if s.quarter == 4
    }
    return Accounts(tuple(statements), tuple(dividends), tuple(shares), drift, pre)


def _quarter_of(day: date) -> tuple[int, int]:
    return day.year, (day.month - 1) // 3 + 1


def _dividend(seed: DemoSeed, schedule: StockSchedule, book: _Book, year: int, sessions: list[date]) -> Dividend | None:
    """The dividend going ex in `year` out of the previous year's profit, if the company earned one."""
    ex_date = schedule.ex_dates.get(year)
    last_year = book.last_year
    if ex_date is None or last_year is None or last_year["net_profit_parent"] <= 0:
        return None
    sector = seed.sectors[schedule.stock.sector]
    eps = last_year["net_profit_parent"] / book.shares
    cash_per10 = Decimal(repr(round(sector.payout * eps * 10, 6))).quantize(CENT, ROUND_HALF_UP)
    bonus = next((b.per10 for b in schedule.stock.bonus if b.year == year), Decimal(0))
    if cash_per10 < MIN_CASH_PER10 and not bonus:
        return None
    at = sessions.index(ex_date)
    return Dividend(year - 1, ex_date, sessions[at - 1], sessions[at - 4], max(cash_per10, Decimal(0)), bonus)


class _Book:
    """Running balances of one company, closed quarter by quarter."""

    def __init__(self, shares: int, base: _Year, sector: Sector) -> None:
        self.sector = sector
        self.shares = shares
        self.equity = base.revenue / sector.asset_turnover * sector.equity_ratio
        self.year_start_equity = self.equity
        self.ytd: dict[str, float] = {}
        self.prior: dict[int, dict[str, float]] = {}  # quarter -> last year's year-to-date figures
        self.current: dict[int, dict[str, float]] = {}
        self.balance: dict[str, float] = {}
        self.last_year: dict[str, float] | None = None

    def close_quarter(self, year: _Year, quarter: int, noise: list[float], paid: list[Dividend]) -> None:
        if quarter == 1:
            self.prior, self.current, self.ytd = self.current, {}, {}
            self.year_start_equity = self.equity
        sector = self.sector
        revenue = year.revenue * sector.season[quarter - 1] * (1 + 0.04 * noise[0])
        net = revenue * year.margin * (1 + 0.10 * noise[1])
        cash_out = sum(float(d.cash) * self.shares for d in paid)
        for d in paid:
            self.shares = int(self.shares * (1 + d.bonus_ratio))
        self.equity += net - cash_out
        flows = {
            "revenue": revenue,
            "operating_cost": revenue * (1 - year.gross),
            "net_profit": net,
            "net_profit_parent": net * PARENT_SHARE,
            "net_profit_parent_deducted": net * PARENT_SHARE * (1 - 0.06 * abs(noise[2])),
            "total_profit": net / 0.85 if net > 0 else net,
            "operating_profit": (net / 0.85 if net > 0 else net) * (1 - 0.02 * noise[3]),
            "operating_cash_flow": net * (1.1 + 0.35 * noise[4]) + revenue * 0.03,
            "capex": -revenue * (0.06 + 0.01 * noise[5]),
            "financing_cash_flow": -cash_out + revenue * 0.03 * noise[6],
        }
        flows["investing_cash_flow"] = flows["capex"] * (1 + 0.15 * abs(noise[7]))
        for key, value in flows.items():
            self.ytd[key] = self.ytd.get(key, 0.0) + value
        assets = max(year.revenue / sector.asset_turnover * (1 + 0.03 * noise[0]), abs(self.equity) * 1.05)
        self.balance = {
            "total_assets": assets,
            "total_equity": self.equity,
            "equity_parent": self.equity * PARENT_SHARE,
            "total_liabilities": assets - self.equity,
            "cash": assets * (0.14 + 0.02 * noise[5]),
            "accounts_receivable": year.revenue * (0.12 + 0.02 * abs(noise[6])),
            "inventory": year.revenue * (1 - year.gross) * 0.2,
        }
        self.current[quarter] = dict(self.ytd)
        if quarter == 4:
            self.last_year = dict(self.ytd)

    def figures(self, quarter: int) -> dict[str, float]:
        ytd, balance = self.ytd, self.balance
        values = {**ytd, **balance}
        values["eps_basic"] = ytd["net_profit_parent"] / self.shares
        values["bps"] = balance["equity_parent"] / self.shares
        values["ocf_per_share"] = ytd["operating_cash_flow"] / self.shares
        average_equity = (self.year_start_equity * PARENT_SHARE + balance["equity_parent"]) / 2
        if average_equity > 0:
            values["roe"] = ytd["net_profit_parent"] / average_equity * 100
        values["gross_margin"] = (ytd["revenue"] - ytd["operating_cost"]) / ytd["revenue"] * 100
        values["net_margin"] = ytd["net_profit"] / ytd["revenue"] * 100
        values["debt_to_assets"] = balance["total_liabilities"] / balance["total_assets"] * 100
        before = self.prior.get(quarter)
        if before:
            values["revenue_yoy"] = (ytd["revenue"] / before["revenue"] - 1) * 100
            if before["net_profit_parent"] > 0:
                values["net_profit_parent_yoy"] = (ytd["net_profit_parent"] / before["net_profit_parent"] - 1) * 100
        return values
