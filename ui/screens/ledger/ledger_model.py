"""The ledger's tables as Qt models: one generic table model, and each view's columns declared as data.

Voided entries stay in the history (a correction never erases one): they are shown struck through, greyed,
with the reason in the status column.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Generic, TypeVar

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QColor, QFont

from stockbench.clock import MARKET_TZ
from stockbench.ledger.entries import CashEntry, CorporateAction, Fill, OrderStatus, Position
from stockbench.market.instruments import parse_symbol
from ui.i18n.ledger_words import word
from ui.models import reword

Index = QModelIndex | QPersistentModelIndex
T = TypeVar("T")
RIGHT = Qt.AlignmentFlag.AlignRight
LEFT = Qt.AlignmentFlag.AlignLeft
MUTED = QColor(128, 128, 128)


@dataclass(frozen=True)
class Entry(Generic[T]):
    """A history entry with its void reason (None while it is in force)."""

    entry: T
    void_reason: str | None = None

    @property
    def voided(self) -> bool:
        return self.void_reason is not None


@dataclass(frozen=True)
class Column(Generic[T]):
    key: str
    title: str  # marked with QT_TRANSLATE_NOOP("LedgerModel", ...)
    value: Callable[[T], str]
    align: Qt.AlignmentFlag = LEFT


def money(value: Decimal | None) -> str:
    return "" if value is None else f"{value:,.2f}"


def price(value: Decimal | None) -> str:
    """A price with at least two decimals and no trailing zeros beyond them (10.4300 -> 10.43, 2.345 -> 2.345)."""
    if value is None:
        return ""
    exponent = value.normalize().as_tuple().exponent
    return f"{value:.2f}" if isinstance(exponent, int) and exponent >= -2 else f"{value.normalize():f}"


def when(value: date | datetime | None, symbol: str | None = None) -> str:
    """A date as is; an instant in the exchange's zone of `symbol` (China's when there is none: HK's is the same)."""
    if value is None:
        return ""
    if not isinstance(value, datetime):
        return value.isoformat()
    market = parse_symbol(symbol).market if symbol else "CN"
    return value.astimezone(MARKET_TZ[market]).strftime("%Y-%m-%d %H:%M:%S")


def _status(item: Entry[Any]) -> str:
    if item.void_reason is None:
        return ""
    return QCoreApplication.translate("LedgerModel", "Voided: {0}").format(item.void_reason)


TIME_HEADER = str(QT_TRANSLATE_NOOP("LedgerModel", "Time (exchange)"))  # every instant is shown in the exchange's zone
POSITION_COLUMNS: tuple[Column[Position], ...] = (
    Column("symbol", str(QT_TRANSLATE_NOOP("LedgerModel", "Symbol")), lambda p: p.symbol),
    Column("qty", str(QT_TRANSLATE_NOOP("LedgerModel", "Quantity")), lambda p: f"{p.qty:,}", RIGHT),
    Column("sellable", str(QT_TRANSLATE_NOOP("LedgerModel", "Sellable")), lambda p: f"{p.sellable:,}", RIGHT),
    Column("avg_cost", str(QT_TRANSLATE_NOOP("LedgerModel", "Average cost")), lambda p: price(p.avg_cost), RIGHT),
    Column("price", str(QT_TRANSLATE_NOOP("LedgerModel", "Last close")), lambda p: price(p.price), RIGHT),
    Column(  # a broker's order: cost and price, then the P&L (it was past the panel's edge at 1366x768)
        "unrealized", str(QT_TRANSLATE_NOOP("LedgerModel", "Unrealised P&L")), lambda p: money(p.unrealized_pnl), RIGHT
    ),
    Column("value", str(QT_TRANSLATE_NOOP("LedgerModel", "Market value")), lambda p: money(p.market_value), RIGHT),
    Column("cost", str(QT_TRANSLATE_NOOP("LedgerModel", "Cost")), lambda p: money(p.cost), RIGHT),
    Column("realized", str(QT_TRANSLATE_NOOP("LedgerModel", "Realised P&L")), lambda p: money(p.realized_pnl), RIGHT),
    Column("fees", str(QT_TRANSLATE_NOOP("LedgerModel", "Fees")), lambda p: money(p.fees), RIGHT),
    Column("dividends", str(QT_TRANSLATE_NOOP("LedgerModel", "Dividends")), lambda p: money(p.dividends), RIGHT),
    Column("currency", str(QT_TRANSLATE_NOOP("LedgerModel", "Currency")), lambda p: p.currency),
)
# Each tab's columns given up, in this order, while the rest do not fit the panel (their values in the row's tip): at
# 1366x768 the panel is about 590 px wide, and the positions' twelve columns, the fills' entry and the orders' id
# stood past its edge behind a horizontal scroll bar.
POSITION_OPTIONAL = ("dividends", "fees", "currency", "realized", "cost", "sellable")
CASH_OPTIONAL = ("id", "note", "symbol", "currency", "status")
FILL_OPTIONAL = ("id", "order", "fees_source", "status", "fees")
ORDER_OPTIONAL = ("id", "report", "valid_until", "filled")
ACTION_OPTIONAL = ("id", "pay_date", "status", "qty", "shares_ps")
CASH_COLUMNS: tuple[Column[Entry[CashEntry]], ...] = (
    Column(
        "at",
        TIME_HEADER,
        lambda e: when(e.entry.occurred_at, e.entry.symbol),
    ),
    Column("kind", str(QT_TRANSLATE_NOOP("LedgerModel", "Kind")), lambda e: word(e.entry.kind)),
    Column("amount", str(QT_TRANSLATE_NOOP("LedgerModel", "Amount")), lambda e: money(e.entry.amount), RIGHT),
    Column("currency", str(QT_TRANSLATE_NOOP("LedgerModel", "Currency")), lambda e: e.entry.currency),
    Column("symbol", str(QT_TRANSLATE_NOOP("LedgerModel", "Symbol")), lambda e: e.entry.symbol or ""),
    Column("note", str(QT_TRANSLATE_NOOP("LedgerModel", "Note")), lambda e: e.entry.note),
    Column("status", str(QT_TRANSLATE_NOOP("LedgerModel", "Status")), _status),
    Column("id", str(QT_TRANSLATE_NOOP("LedgerModel", "Entry")), lambda e: e.entry.entry_id),
)
FILL_COLUMNS: tuple[Column[Entry[Fill]], ...] = (
    Column(
        "at",
        TIME_HEADER,
        lambda e: when(e.entry.executed_at, e.entry.symbol),
    ),
    Column("symbol", str(QT_TRANSLATE_NOOP("LedgerModel", "Symbol")), lambda e: e.entry.symbol),
    Column("side", str(QT_TRANSLATE_NOOP("LedgerModel", "Side")), lambda e: word(e.entry.side)),
    Column("qty", str(QT_TRANSLATE_NOOP("LedgerModel", "Quantity")), lambda e: f"{e.entry.qty:,}", RIGHT),
    Column("price", str(QT_TRANSLATE_NOOP("LedgerModel", "Price")), lambda e: price(e.entry.price), RIGHT),
    Column("amount", str(QT_TRANSLATE_NOOP("LedgerModel", "Amount")), lambda e: money(e.entry.amount), RIGHT),
    Column("fees", str(QT_TRANSLATE_NOOP("LedgerModel", "Fees")), lambda e: money(e.entry.fees), RIGHT),
    Column("fees_source", str(QT_TRANSLATE_NOOP("LedgerModel", "Fees from")), lambda e: word(e.entry.fees_source)),
    Column("order", str(QT_TRANSLATE_NOOP("LedgerModel", "Order")), lambda e: e.entry.order_id or ""),
    Column("status", str(QT_TRANSLATE_NOOP("LedgerModel", "Status")), _status),
    Column("id", str(QT_TRANSLATE_NOOP("LedgerModel", "Fill")), lambda e: e.entry.fill_id),
)
ORDER_COLUMNS: tuple[Column[OrderStatus], ...] = (
    Column(
        "placed", str(QT_TRANSLATE_NOOP("LedgerModel", "Placed")), lambda s: when(s.order.placed_at, s.order.symbol)
    ),
    Column("symbol", str(QT_TRANSLATE_NOOP("LedgerModel", "Symbol")), lambda s: s.order.symbol),
    Column("side", str(QT_TRANSLATE_NOOP("LedgerModel", "Side")), lambda s: word(s.order.side)),
    Column("qty", str(QT_TRANSLATE_NOOP("LedgerModel", "Quantity")), lambda s: f"{s.order.qty:,}", RIGHT),
    Column("price", str(QT_TRANSLATE_NOOP("LedgerModel", "Price")), lambda s: price(s.order.price), RIGHT),
    Column("filled", str(QT_TRANSLATE_NOOP("LedgerModel", "Filled")), lambda s: f"{s.filled:,}", RIGHT),
    Column("status", str(QT_TRANSLATE_NOOP("LedgerModel", "Status")), lambda s: word(s.status)),
    Column("valid_until", str(QT_TRANSLATE_NOOP("LedgerModel", "Valid until")), lambda s: when(s.order.valid_until)),
    Column("report", str(QT_TRANSLATE_NOOP("LedgerModel", "Report")), lambda s: s.order.report_id or ""),
    Column("id", str(QT_TRANSLATE_NOOP("LedgerModel", "Order")), lambda s: s.order.order_id),
)
ACTION_COLUMNS: tuple[Column[Entry[CorporateAction]], ...] = (
    Column("ex_date", str(QT_TRANSLATE_NOOP("LedgerModel", "Ex-date")), lambda e: when(e.entry.ex_date)),
    Column("symbol", str(QT_TRANSLATE_NOOP("LedgerModel", "Symbol")), lambda e: e.entry.symbol),
    Column("kind", str(QT_TRANSLATE_NOOP("LedgerModel", "Kind")), lambda e: word(e.entry.kind)),
    Column(
        "cash_ps",
        str(QT_TRANSLATE_NOOP("LedgerModel", "Cash per share")),
        lambda e: price(e.entry.cash_per_share),
        RIGHT,
    ),
    Column(
        "shares_ps",
        str(QT_TRANSLATE_NOOP("LedgerModel", "Shares per share")),
        lambda e: price(e.entry.shares_per_share),
        RIGHT,
    ),
    Column(
        "qty",
        str(QT_TRANSLATE_NOOP("LedgerModel", "Shares credited")),
        lambda e: "" if e.entry.qty is None else f"{e.entry.qty:,}",
        RIGHT,
    ),
    Column("amount", str(QT_TRANSLATE_NOOP("LedgerModel", "Cash credited")), lambda e: money(e.entry.amount), RIGHT),
    Column("pay_date", str(QT_TRANSLATE_NOOP("LedgerModel", "Pay date")), lambda e: when(e.entry.pay_date)),
    Column("status", str(QT_TRANSLATE_NOOP("LedgerModel", "Status")), _status),
    Column("id", str(QT_TRANSLATE_NOOP("LedgerModel", "Entry")), lambda e: e.entry.action_id),
)


class ColumnTableModel(QAbstractTableModel, Generic[T]):
    """Rows of one record type shown through a list of column specs."""

    def __init__(self, columns: Sequence[Column[T]], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.columns = tuple(columns)
        self._rows: list[T] = []
        self.tooltip: Callable[[T], str | None] | None = None  # a row's tip (the values of its columns given up)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802 - Qt's signature
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, column = self._rows[index.row()], self.columns[index.column()]
        voided = isinstance(row, Entry) and row.voided
        if role == Qt.ItemDataRole.DisplayRole:
            return column.value(row)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(column.align | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and voided:
            return MUTED
        if role == Qt.ItemDataRole.FontRole and voided:
            font = QFont()
            font.setStrikeOut(True)
            return font
        if role == Qt.ItemDataRole.UserRole:
            return row
        if role == Qt.ItemDataRole.ToolTipRole and self.tooltip is not None:
            return self.tooltip(row)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return QCoreApplication.translate("LedgerModel", self.columns[section].title)
        return None

    def set_rows(self, rows: Sequence[T]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def rows(self) -> list[T]:
        return list(self._rows)

    def retranslate(self) -> None:
        """Ask the views to read the titles and cells again, in the current language (rows and widths stay)."""
        reword(self)

    def row_at(self, at: int) -> T:
        return self._rows[at]

    def column_values(self, key: str) -> list[str]:
        """The displayed values of one column (by key), top to bottom."""
        column = next(c for c in self.columns if c.key == key)
        return [column.value(r) for r in self._rows]
