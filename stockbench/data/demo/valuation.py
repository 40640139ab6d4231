"""Daily valuation of the demo stocks from their prices and the statements published by each day.

Market value is close x total shares; PE (TTM), PS (TTM) and P/CF (TTM) divide it by trailing-twelve-month
figures built from year-to-date statements (this period + last fiscal year - the same period a year
before); static PE uses the last annual report, PB the latest parent equity. Only statements published on
or before the day are used, so the history is point-in-time.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

import polars as pl

from stockbench.data.demo.accounts import Accounts, Statement
from stockbench.data.demo.prices import StockPath

CENT = Decimal("0.01")
PRICE_UNIT = Decimal("0.0001")
RATIO_SCALE = 10_000  # ratios are stored with four decimals

SCHEMA = {
    "symbol": pl.String,
    "day": pl.Date,
    "close": pl.Int64,  # 0.0001 of the currency
    "mcap_cents": pl.Int64,
    "pe_ttm": pl.Int64,
    "pe_static": pl.Int64,
    "pb_mrq": pl.Int64,
    "ps_ttm": pl.Int64,
    "pcf_ocf_ttm": pl.Int64,
}


@dataclass(frozen=True, slots=True)
class Basis:
    """What valuation divides by, as known from one publication day on."""

    published: date
    profit_ttm: float | None
    revenue_ttm: float | None
    ocf_ttm: float | None
    profit_annual: float | None
    equity: float


def _ttm(item: str, latest: Statement, by_period: dict[date, Statement]) -> float | None:
    if latest.quarter == 4:
        return latest.values[item]
    end = latest.period_end
    last_year = by_period.get(date(end.year - 1, 12, 31))
    same = by_period.get(date(end.year - 1, end.month, end.day))
    if last_year is None or same is None:
        return None
    return latest.values[item] + last_year.values[item] - same.values[item]


def bases(accounts: Accounts) -> list[Basis]:
    """The valuation basis after each publication day, in order."""
    ordered = sorted(accounts.statements, key=lambda s: (s.published, s.period_end))
    found: list[Basis] = []
    for at, statement in enumerate(ordered):
        if at + 1 < len(ordered) and ordered[at + 1].published == statement.published:
            continue  # several periods published together (a prospectus): the latest counts
        known = {s.period_end: s for s in ordered[: at + 1]}
        latest = known[max(known)]
        annual = max((s for s in known.values() if s.quarter == 4), key=lambda s: s.period_end, default=None)
        found.append(
            Basis(
                latest.published,
                _ttm("net_profit_parent", latest, known),
                _ttm("revenue", latest, known),
                _ttm("operating_cash_flow", latest, known),
                annual.values["net_profit_parent"] if annual else None,
                latest.values["equity_parent"],
            )
        )
    return found


def _ratio(mcap: float, denominator: float | None) -> int | None:
    if not denominator:
        return None
    return round(mcap / denominator * RATIO_SCALE)


def valuation_frame(path: StockPath, accounts: Accounts) -> pl.DataFrame:
    """One valuation row per bar day once a statement is published."""
    basis_list = bases(accounts)
    columns: dict[str, list[object]] = {name: [] for name in SCHEMA}
    num, den = (path.unit / CENT).as_integer_ratio()  # price units per cent: 1 (CNY) or 1/10 (HKD)
    to_units = int(path.unit / PRICE_UNIT)
    at = -1
    for i, day in enumerate(path.days):
        while at + 1 < len(basis_list) and basis_list[at + 1].published <= day:
            at += 1
        if at < 0:
            continue
        basis = basis_list[at]
        mcap_cents = (path.close[i] * path.total_shares[i] * num + den // 2) // den
        mcap = mcap_cents / 100
        values = (
            path.symbol,
            day,
            path.close[i] * to_units,
            mcap_cents,
            _ratio(mcap, basis.profit_ttm),
            _ratio(mcap, basis.profit_annual),
            _ratio(mcap, basis.equity),
            _ratio(mcap, basis.revenue_ttm),
            _ratio(mcap, basis.ocf_ttm),
        )
        for column, value in zip(columns.values(), values, strict=True):
            column.append(value)
    return pl.DataFrame(columns, schema=SCHEMA)
