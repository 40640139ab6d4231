"""The whole demo market generated in memory: instruments, names, bars, statements, valuation, money flow,
closing quotes and announcements, as frames ready for the workspace tables.

`generate` is pure: the same seed, rule tables and calendars give the same frames on every machine.
Prices are integers of 0.0001 and money integers of cents in these frames; the writer turns them into
the tables' decimals.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

import polars as pl

from stockbench.clock import Market
from stockbench.data.demo import notices, reports
from stockbench.data.demo.accounts import ITEMS, Accounts, build_accounts
from stockbench.data.demo.factors import build_factors
from stockbench.data.demo.filings import Company, Filing, people_for, render
from stockbench.data.demo.flows import closing_quote, flow_frame
from stockbench.data.demo.indices import index_path
from stockbench.data.demo.prices import Context, HkTicks, LimitBook, StockPath, a_share_path, hk_path
from stockbench.data.demo.schedule import StockSchedule, plan_stock
from stockbench.data.demo.seed import DemoSeed, load_seed
from stockbench.data.demo.texts import load_templates
from stockbench.data.demo.valuation import valuation_frame
from stockbench.market.calendars import Calendars
from stockbench.market.instruments import SecurityType
from stockbench.market.registry import InstrumentData
from stockbench.market.tables import RuleTables, load_tables

PRICE_UNIT = Decimal("0.0001")
CLOSE_MINUTES_UTC = {"CN": 7 * 60 + 30, "HK": 8 * 60 + 30}  # fetched 15:30 Beijing / 16:30 Hong Kong
FINANCIAL_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    "symbol": pl.String,
    "period_end": pl.Date,
    "statement": pl.String,
    "item": pl.String,
    "value": pl.Decimal(28, 6),
    "unit": pl.String,
    "published": pl.Date,
}


@dataclass(frozen=True)
class DemoMarket:
    seed: DemoSeed
    instruments: list[InstrumentData]
    names: list[tuple[str, date, str]]  # symbol, valid from, name
    bars: pl.DataFrame
    valuation: pl.DataFrame
    money_flow: pl.DataFrame
    financials: pl.DataFrame
    quotes: list[dict[str, object]]
    announcements: pl.DataFrame


@dataclass(frozen=True, slots=True)
class _Stock:
    schedule: StockSchedule
    accounts: Accounts
    path: StockPath


def _sessions(seed: DemoSeed, tables: RuleTables) -> dict[Market, list[date]]:
    calendars = Calendars(None, tables)
    start = date(seed.first_period.year, 1, 1)
    return {m: calendars.calendar(m).sessions(start, seed.last_session) for m in ("CN", "HK")}


def _bar_frame(path: StockPath, market: Market) -> pl.DataFrame:
    to_units = int(path.unit / PRICE_UNIT)
    return pl.DataFrame(
        {
            "symbol": [path.symbol] * len(path.days),
            "day": path.days,
            **{c: [v * to_units for v in getattr(path, c)] for c in ("open", "high", "low", "close")},
            "prev_close": [v * to_units for v in path.ref],
            "volume": path.volume,
            "amount": path.amount,
            "turnover": path.turnover,
            "close_minutes": [CLOSE_MINUTES_UTC[market]] * len(path.days),
        },
        schema_overrides={"turnover": pl.Int64, "day": pl.Date},
    )


def _financial_rows(symbol: str, accounts: Accounts, currency: str) -> list[tuple[object, ...]]:
    rows: list[tuple[object, ...]] = []
    for statement in accounts.statements:
        for item, value in statement.values.items():
            kind, unit = ITEMS[item]
            places = 2 if unit == "money" else 4
            exact = Decimal(round(value * 10**places)).scaleb(-places)
            rows.append(
                (symbol, statement.period_end, kind, item, exact, "%" if unit == "%" else currency, statement.published)
            )
    return rows


def _announcement_frame(filings: list[Filing]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "source_id": [f.source_id for f in filings],
            "symbol": [f.symbol for f in filings],
            "published_at": [f.published_at for f in filings],
            "title": [f.title for f in filings],
            "category": [f.category for f in filings],
            "text": [f.text for f in filings],
            "text_sha256": [hashlib.sha256(f.text.encode()).hexdigest() for f in filings],
        },
        schema_overrides={"published_at": pl.Datetime("us", "UTC")},
    )


def _stocks(seed: DemoSeed, tables: RuleTables, sessions: dict[Market, list[date]]) -> list[_Stock]:
    window = {m: [d for d in days if d >= seed.first_session] for m, days in sessions.items()}
    sectors: dict[Market, set[str]] = {"CN": set(), "HK": set()}
    for stock in seed.stocks:
        sectors[stock.instrument.market].add(stock.sector)
    ctx = Context(seed, tables, build_factors(seed.number, window, sectors), LimitBook(tables))
    hk_ticks = HkTicks(tables)
    found = []
    for stock in seed.stocks:
        market = stock.instrument.market
        schedule = plan_stock(stock, seed, window[market], tables)
        accounts = build_accounts(seed, schedule, sessions[market])
        if stock.instrument.is_a_share:
            path = a_share_path(ctx, schedule, accounts, reports.news_days(accounts))
        else:
            path = hk_path(ctx, schedule, accounts, hk_ticks)
        found.append(_Stock(schedule, accounts, path))
    return found


def _filings(
    seed: DemoSeed, tables: RuleTables, stocks: list[_Stock], sessions: dict[Market, list[date]]
) -> list[Filing]:
    templates = load_templates()
    limits = LimitBook(tables)
    filings: list[Filing] = []
    for s in stocks:
        symbol = s.schedule.stock.symbol
        company = Company(
            seed,
            s.schedule,
            s.accounts,
            s.path,
            sessions[s.schedule.stock.instrument.market],
            limits,
            templates,
            people_for(seed, symbol, templates),
        )
        drafts = [
            *reports.periodic_drafts(company),
            *reports.preannouncement_drafts(company),
            *reports.dividend_drafts(company),
            *notices.reduction_drafts(company),
            *notices.risk_drafts(company),
            *notices.limit_change_drafts(company),
            *notices.halt_drafts(company),
            *notices.listing_drafts(company),
        ]
        filings.extend(render(company, drafts))
    return filings


def _instruments(seed: DemoSeed, stocks: list[_Stock]) -> tuple[list[InstrumentData], list[tuple[str, date, str]]]:
    data: list[InstrumentData] = []
    names: list[tuple[str, date, str]] = []
    for s in stocks:
        stock = s.schedule.stock
        current = s.schedule.name_on(seed.last_session)
        kind = SecurityType.STOCK
        data.append(InstrumentData(stock.symbol, current, kind, stock.lot, stock.list_date, source="demo"))
        names.extend((stock.symbol, start, name) for start, name in s.schedule.names)
    for index in seed.indices:
        data.append(InstrumentData(index.symbol, index.name, SecurityType.INDEX, None, index.base_date, source="demo"))
        names.append((index.symbol, index.base_date, index.name))
    return data, names


def _index_paths(seed: DemoSeed, stocks: list[_Stock], sessions: list[date]) -> list[StockPath]:
    a_shares = [s for s in stocks if s.schedule.stock.instrument.is_a_share]
    window = [d for d in sessions if d >= seed.first_session]
    return [
        index_path(
            index,
            [(s.path, s.schedule.new_listing) for s in a_shares if index.sector in {"all", s.schedule.stock.sector}],
            window,
        )
        for index in seed.indices
    ]


def _financials(stocks: list[_Stock]) -> pl.DataFrame:
    rows = [
        row
        for s in stocks
        for row in _financial_rows(s.schedule.stock.symbol, s.accounts, s.schedule.stock.instrument.currency)
    ]
    return pl.DataFrame(rows, schema=FINANCIAL_SCHEMA, orient="row")


def generate(seed: DemoSeed | None = None, tables: RuleTables | None = None) -> DemoMarket:
    """The demo market from `seed` (default: the shipped seed) under `tables` (default: the shipped rules)."""
    seed = seed or load_seed()
    tables = tables or load_tables()
    sessions = _sessions(seed, tables)
    stocks = _stocks(seed, tables, sessions)
    bars = [_bar_frame(s.path, s.schedule.stock.instrument.market) for s in stocks]
    bars += [_bar_frame(p, "CN") for p in _index_paths(seed, stocks, sessions["CN"])]
    instruments, names = _instruments(seed, stocks)
    return DemoMarket(
        seed=seed,
        instruments=instruments,
        names=names,
        bars=pl.concat(bars),
        valuation=pl.concat([valuation_frame(s.path, s.accounts) for s in stocks]),
        money_flow=pl.concat([flow_frame(seed.number, s.path) for s in stocks]),
        financials=_financials(stocks),
        quotes=[closing_quote(s.path, s.schedule, tables) for s in stocks],
        announcements=_announcement_frame(_filings(seed, tables, stocks, sessions)),
    )
