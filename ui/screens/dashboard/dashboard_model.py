"""The dashboard's tables: the row records it shows and one table model over any of them, with the columns of each
table declared as data (key, title, alignment, how a row renders, what colours it up or down)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
)

from ui.models.record_table import CENTER, LEFT, RIGHT, Column, RecordTable

CONTEXT = "DashboardModel"


@dataclass(frozen=True)
class AccountRow:
    account: str
    currency: str
    cash: Decimal
    market_value: Decimal
    equity: Decimal
    unpriced: int = 0  # positions without a price, valued at cost


@dataclass(frozen=True)
class PositionRow:
    account: str
    symbol: str
    name: str | None
    currency: str
    qty: int
    sellable: int
    avg_cost: Decimal | None
    cost: Decimal
    price: Decimal | None
    market_value: Decimal | None
    pnl: Decimal | None
    pnl_pct: Decimal | None


@dataclass(frozen=True)
class OrderRow:
    order_id: str
    account: str
    symbol: str
    side: str
    qty: int
    filled: int
    price: Decimal
    status: str
    decision: str | None  # KEEP | MODIFY | CANCEL from the latest report on the symbol, None when it has none
    reason: str = ""
    report_id: str | None = None
    report_date: date | None = None

    @property
    def not_in_report(self) -> bool:
        """The symbol's latest report decides nothing for this order (placed after it, or in another account)."""
        return self.decision is None and self.report_id is not None


@dataclass(frozen=True)
class AlertRow:
    symbol: str
    name: str | None
    day: date
    previous: Decimal
    close: Decimal
    was: str
    now: str


@dataclass(frozen=True)
class PickRow:
    symbol: str
    name: str | None
    score: float
    reasons: str


ZONE_TITLES: dict[str, str] = {
    "stop_hit": str(QT_TRANSLATE_NOOP("DashboardModel", "Stop hit")),
    "below_buy": str(QT_TRANSLATE_NOOP("DashboardModel", "Below buy")),
    "in_buy": str(QT_TRANSLATE_NOOP("DashboardModel", "In buy zone")),
    "between": str(QT_TRANSLATE_NOOP("DashboardModel", "Between")),
    "in_sell": str(QT_TRANSLATE_NOOP("DashboardModel", "In sell zone")),
    "above_sell": str(QT_TRANSLATE_NOOP("DashboardModel", "Above sell")),
}
WORDS: dict[str, str] = {
    "buy": str(QT_TRANSLATE_NOOP("DashboardModel", "Buy")),
    "sell": str(QT_TRANSLATE_NOOP("DashboardModel", "Sell")),
    "open": str(QT_TRANSLATE_NOOP("DashboardModel", "Open")),
    "partially_filled": str(QT_TRANSLATE_NOOP("DashboardModel", "Partly filled")),
    "KEEP": str(QT_TRANSLATE_NOOP("DashboardModel", "KEEP")),
    "MODIFY": str(QT_TRANSLATE_NOOP("DashboardModel", "MODIFY")),
    "CANCEL": str(QT_TRANSLATE_NOOP("DashboardModel", "CANCEL")),
}


def translate(text: str) -> str:
    return QCoreApplication.translate(CONTEXT, text)


def word(key: str | None) -> str:
    return translate(WORDS.get(key, key)) if key else "—"


def decision_word(row: OrderRow) -> str:
    """What the latest report on the order's symbol decided for it; "not in it" where that report decides nothing
    for the order (placed after it, or in another account), "—" where the symbol has no report. The column said
    "—" in both cases, beside the report's date, as if there were no report."""
    if row.not_in_report:
        return translate(str(QT_TRANSLATE_NOOP("DashboardModel", "Not in it")))
    return word(row.decision)


def order_tip(row: OrderRow) -> str | None:
    """The report's reason for its call, or why it made none."""
    if row.not_in_report:
        text = translate(str(QT_TRANSLATE_NOOP("DashboardModel", "The latest report on this symbol (%1) decides "
                                               "nothing for this order: it was placed after that report, or in "
                                               "another account. Analyze again for a call.")))  # fmt: skip
        return text.replace("%1", row.report_date.isoformat() if row.report_date else "—")
    return row.reason or None


def zone_title(position: str) -> str:
    return translate(ZONE_TITLES.get(position, position))


def money(value: Decimal | None) -> str:
    return "—" if value is None else f"{value:,.2f}"


def price(value: Decimal) -> str:
    """A price without trailing zeros beyond the cent (adjusted closes carry six places)."""
    text = f"{value.quantize(Decimal('0.0001')):f}".rstrip("0")
    whole, _, cents = text.partition(".")
    return f"{whole}.{cents.ljust(2, '0')}"


def signed(value: Decimal | None, suffix: str = "") -> str:
    return "—" if value is None else f"{value:+,.2f}{suffix}"


def _value(row: AccountRow | PositionRow) -> str:
    return money(row.market_value)


def _closes(row: AlertRow) -> str:
    return f"{price(row.previous)} → {price(row.close)}"


ACCOUNT_COLUMNS: tuple[Column, ...] = (
    Column("account", str(QT_TRANSLATE_NOOP("DashboardModel", "Account")), LEFT, lambda r: r.account),
    Column("currency", str(QT_TRANSLATE_NOOP("DashboardModel", "Currency")), CENTER, lambda r: r.currency),
    Column("cash", str(QT_TRANSLATE_NOOP("DashboardModel", "Cash")), RIGHT, lambda r: money(r.cash)),
    Column("market_value", str(QT_TRANSLATE_NOOP("DashboardModel", "Market value")), RIGHT, _value),
    Column("equity", str(QT_TRANSLATE_NOOP("DashboardModel", "Equity")), RIGHT, lambda r: money(r.equity)),
)  # fmt: skip
POSITION_COLUMNS: tuple[Column, ...] = (
    Column("account", str(QT_TRANSLATE_NOOP("DashboardModel", "Account")), LEFT, lambda r: r.account),
    Column("symbol", str(QT_TRANSLATE_NOOP("DashboardModel", "Symbol")), LEFT, lambda r: r.symbol),
    Column("name", str(QT_TRANSLATE_NOOP("DashboardModel", "Name")), LEFT, lambda r: r.name or ""),
    Column("qty", str(QT_TRANSLATE_NOOP("DashboardModel", "Quantity")), RIGHT, lambda r: f"{r.qty:,}"),
    Column("sellable", str(QT_TRANSLATE_NOOP("DashboardModel", "Sellable")), RIGHT, lambda r: f"{r.sellable:,}"),
    Column("avg_cost", str(QT_TRANSLATE_NOOP("DashboardModel", "Avg cost")), RIGHT, lambda r: money(r.avg_cost)),
    Column("price", str(QT_TRANSLATE_NOOP("DashboardModel", "Price")), RIGHT, lambda r: money(r.price)),
    Column("pnl", str(QT_TRANSLATE_NOOP("DashboardModel", "P&L")), RIGHT, lambda r: signed(r.pnl), lambda r: r.pnl),
    Column("pnl_pct", str(QT_TRANSLATE_NOOP("DashboardModel", "P&L %")), RIGHT, lambda r: signed(r.pnl_pct, "%"),
           lambda r: r.pnl_pct),
    Column("market_value", str(QT_TRANSLATE_NOOP("DashboardModel", "Market value")), RIGHT, _value),
    Column("cost", str(QT_TRANSLATE_NOOP("DashboardModel", "Cost")), RIGHT, lambda r: money(r.cost)),
)  # fmt: skip  # a broker's order: cost and price, then the P&L, in view in a dashboard about 600 px wide
# Given up in this order where the dashboard is too narrow for every column (ui.widgets.column_fit; their values are
# then in the row's tip): the cost (the quantity times the average cost), the sellable quantity (the quantity but on
# the day of a buy, T+1), the average cost (the P&L % says it against the price), the P&L in money (its % stays).
POSITION_OPTIONAL = ("cost", "sellable", "avg_cost", "pnl")
ORDER_COLUMNS: tuple[Column, ...] = (
    Column("account", str(QT_TRANSLATE_NOOP("DashboardModel", "Account")), LEFT, lambda r: r.account),
    Column("symbol", str(QT_TRANSLATE_NOOP("DashboardModel", "Symbol")), LEFT, lambda r: r.symbol),
    Column("side", str(QT_TRANSLATE_NOOP("DashboardModel", "Side")), CENTER, lambda r: word(r.side)),
    Column("qty", str(QT_TRANSLATE_NOOP("DashboardModel", "Quantity")), RIGHT, lambda r: f"{r.filled:,}/{r.qty:,}"),
    Column("price", str(QT_TRANSLATE_NOOP("DashboardModel", "Price")), RIGHT, lambda r: money(r.price)),
    Column("status", str(QT_TRANSLATE_NOOP("DashboardModel", "Status")), CENTER, lambda r: word(r.status)),
    Column("decision", str(QT_TRANSLATE_NOOP("DashboardModel", "Report's call")), CENTER, decision_word),
    Column("report_date", str(QT_TRANSLATE_NOOP("DashboardModel", "Report date")), CENTER,
           lambda r: r.report_date.isoformat() if r.report_date else ""),
)  # fmt: skip
ALERT_COLUMNS: tuple[Column, ...] = (
    Column("symbol", str(QT_TRANSLATE_NOOP("DashboardModel", "Symbol")), LEFT, lambda r: r.symbol),
    Column("name", str(QT_TRANSLATE_NOOP("DashboardModel", "Name")), LEFT, lambda r: r.name or ""),
    Column("day", str(QT_TRANSLATE_NOOP("DashboardModel", "Day")), CENTER, lambda r: r.day.isoformat()),
    Column("close", str(QT_TRANSLATE_NOOP("DashboardModel", "Close")), RIGHT, _closes),
    Column("was", str(QT_TRANSLATE_NOOP("DashboardModel", "Was")), CENTER, lambda r: zone_title(r.was)),
    Column("now", str(QT_TRANSLATE_NOOP("DashboardModel", "Now")), CENTER, lambda r: zone_title(r.now)),
)  # fmt: skip
PICK_COLUMNS: tuple[Column, ...] = (
    Column("symbol", str(QT_TRANSLATE_NOOP("DashboardModel", "Symbol")), LEFT, lambda r: r.symbol),
    Column("name", str(QT_TRANSLATE_NOOP("DashboardModel", "Name")), LEFT, lambda r: r.name or ""),
    Column("score", str(QT_TRANSLATE_NOOP("DashboardModel", "Score")), RIGHT, lambda r: f"{r.score:g}"),
    Column("reasons", str(QT_TRANSLATE_NOOP("DashboardModel", "Why")), LEFT, lambda r: r.reasons),
)  # fmt: skip


class RecordModel(RecordTable):
    """The dashboard's tables: column titles translated in this module's context."""

    context = CONTEXT
