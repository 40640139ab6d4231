"""The ledger's records: the immutable entries (each saying what happened to an account and when), the draft a
fill starts as, and the views the ledger answers with (a position, an order's status)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Literal

from stockbench.clock import Market

Side = Literal["buy", "sell"]
CashKind = Literal["deposit", "withdrawal", "dividend", "interest", "fee", "tax", "transfer_in", "transfer_out"]
ActionKind = Literal["cash_dividend", "bonus", "capitalization", "split"]
Settlement = Literal["T+1", "T+0"]

CASH_SIGN: dict[str, int] = {
    "deposit": 1,
    "withdrawal": -1,
    "dividend": 1,
    "interest": 1,
    "fee": -1,
    "tax": -1,
    "transfer_in": 1,
    "transfer_out": -1,
}


@dataclass(frozen=True, slots=True)
class Account:
    name: str
    base_currency: str
    markets: tuple[Market, ...]
    created_at: datetime
    note: str = ""


@dataclass(frozen=True, slots=True)
class FeeTerms:
    """An account's commission terms for a market, from `since` on."""

    account: str
    market: Market
    since: datetime
    commission_rate: Decimal
    commission_min: Decimal
    bundled_exchange_fees: bool


@dataclass(frozen=True, slots=True)
class Fill:
    fill_id: str
    account: str
    symbol: str
    side: Side
    qty: int
    price: Decimal
    currency: str
    executed_at: datetime
    trade_date: date
    fees: Decimal
    fee_items: tuple[tuple[str, Decimal], ...]
    fees_source: Literal["computed", "broker"]
    settlement: Settlement
    order_id: str | None = None
    report_id: str | None = None
    note: str = ""

    @property
    def amount(self) -> Decimal:
        return self.price * self.qty


@dataclass(frozen=True, slots=True)
class CashEntry:
    entry_id: str
    account: str
    kind: CashKind
    currency: str
    amount: Decimal  # signed: its effect on the balance
    occurred_at: datetime
    symbol: str | None = None
    transfer_id: str | None = None
    fx_rate: Decimal | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class CorporateAction:
    """A corporate action credited to one account's holding of `symbol`.

    `qty` (shares credited) and `amount` (cash credited) are fixed when the entry is recorded, from the
    holding at the record date (or the broker's figure); `effective` is the ex-date's start.
    """

    action_id: str
    account: str
    symbol: str
    kind: ActionKind
    ex_date: date
    effective: datetime
    pay_date: date | None
    cash_per_share: Decimal | None
    shares_per_share: Decimal | None
    qty: int | None
    amount: Decimal | None
    currency: str
    taxable: bool  # A-share dividends (and 送股 at par) are taxed at sale by holding period
    note: str = ""


@dataclass(frozen=True, slots=True)
class Order:
    order_id: str
    account: str
    symbol: str
    side: Side
    qty: int
    price: Decimal
    placed_at: datetime
    valid_until: date | None = None
    report_id: str | None = None
    note: str = ""


Entry = Fill | CashEntry | CorporateAction


@dataclass(frozen=True)
class FillDraft:
    """What the user entered for a fill, before validation."""

    account: str
    symbol: str
    side: Side
    qty: int
    price: Decimal
    executed_at: datetime
    fee: Decimal | None = None  # the broker's total, overriding the computed fees
    order_id: str | None = None
    report_id: str | None = None
    ref_price: Decimal | None = None  # the day's reference price, when known: limits are checked against it
    note: str = ""


@dataclass(frozen=True)
class Position:
    """One holding as the user sees it (money rounded for display; quantities exact)."""

    account: str
    symbol: str
    currency: str
    qty: int
    sellable: int
    cost: Decimal
    avg_cost: Decimal | None
    diluted_cost: Decimal | None
    realized_pnl: Decimal
    unrealized_pnl: Decimal | None
    market_value: Decimal | None
    price: Decimal | None
    fees: Decimal
    dividends: Decimal
    dividend_tax: Decimal


@dataclass(frozen=True)
class OrderStatus:
    order: Order
    status: str  # open | partially_filled | filled | cancelled | expired
    filled: int
