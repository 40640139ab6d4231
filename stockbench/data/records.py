"""The records every data source produces, whatever its wire format: bars, quotes, flows, filings.

Prices and amounts are exact Decimals in the instrument's currency; volumes are shares (never lots);
amounts are plain currency units (never 万元). Each record names its source; the cache adds fetched_at.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Literal

DataKind = Literal["bars", "quote", "money_flow", "valuation", "financials", "announcements", "instrument"]
Adjust = Literal["none", "forward", "backward"]
TradingStatus = Literal["trading", "suspended", "delisted", "not_listed"]
HALTED: frozenset[TradingStatus] = frozenset({"suspended", "delisted", "not_listed"})  # no order can trade


@dataclass(frozen=True, slots=True)
class Bar:
    """One unadjusted daily bar. `prev_close` is the exchange's reference price for the day (the previous
    close, or the ex-rights reference on an ex-date): limits and adjustment factors derive from it."""

    symbol: str
    day: date
    open: Decimal
    high: Decimal
    low: Decimal
    close: Decimal
    prev_close: Decimal | None
    volume: int  # shares
    amount: Decimal | None  # currency units
    source: str
    turnover_pct: Decimal | None = None
    float_mcap: Decimal | None = None  # float market capitalisation, currency units (when the source gives it)
    total_mcap: Decimal | None = None


@dataclass(frozen=True, slots=True)
class Quote:
    """A quote snapshot. `at` is the quote's own time (exchange zone), not when it was fetched.

    `status` is the trading status the source states (a suspended or delisted name keeps its previous close as
    `last`, with no open, high or low); `delay_minutes` is how late the source publishes (0: real time, as far as
    the source says; Tencent's Hong Kong quotes are 15 minutes late)."""

    symbol: str
    at: datetime
    last: Decimal
    prev_close: Decimal
    open: Decimal | None
    high: Decimal | None
    low: Decimal | None
    volume: int | None  # shares
    amount: Decimal | None  # currency units
    source: str
    name: str | None = None
    limit_up: Decimal | None = None
    limit_down: Decimal | None = None
    board_lot: int | None = None
    currency: str | None = None
    pe: Decimal | None = None
    pb: Decimal | None = None
    turnover_pct: Decimal | None = None
    status: TradingStatus = "trading"
    delay_minutes: int = 0

    def late(self, now: datetime) -> timedelta:
        """How far the quote lags `now` beyond its source's declared delay: a quote of a source that publishes 15
        minutes late, taken 15 minutes ago, is on time (zero), not 15 minutes old."""
        return now - self.at - timedelta(minutes=self.delay_minutes)


@dataclass(frozen=True, slots=True)
class MoneyFlowDay:
    """Net money flow of one session, currency units (positive = net inflow)."""

    symbol: str
    day: date
    main_net: Decimal
    small_net: Decimal | None
    medium_net: Decimal | None
    large_net: Decimal | None
    super_large_net: Decimal | None
    source: str


@dataclass(frozen=True, slots=True)
class ValuationDay:
    symbol: str
    day: date
    close: Decimal | None
    total_mcap: Decimal | None
    pe_ttm: Decimal | None
    pe_static: Decimal | None
    pb_mrq: Decimal | None
    ps_ttm: Decimal | None
    pcf_ocf_ttm: Decimal | None
    source: str


@dataclass(frozen=True, slots=True)
class FinancialItem:
    """One line of a financial statement for a period, visible from its publication date."""

    symbol: str
    period_end: date
    statement: Literal["income", "balance", "cashflow", "indicator"]
    item: str  # stable English key, e.g. revenue, net_profit_parent, total_assets, roe
    value: Decimal
    unit: str  # "CNY", "HKD", "%", "ratio"
    published: date | None
    source: str


@dataclass(frozen=True, slots=True)
class Announcement:
    symbol: str
    source_id: str
    published_at: datetime
    title: str
    category: str
    url: str
    source: str
    text: str | None = None


@dataclass(frozen=True, slots=True)
class FetchFailure:
    """Why a fetch failed, kept as a visible gap (never papered over with other data)."""

    source: str
    what: DataKind
    symbol: str
    reason: str  # one line, safe to show
    kind: Literal[
        "network", "http_status", "blocked", "unparseable", "empty", "unknown_symbol", "unsupported", "not_recorded"
    ]
    url: str = ""
    status: int | None = None
    details: dict[str, str] = field(default_factory=dict)
