"""The ledger's values (a side, a cash entry's kind, where a fill's fees came from, an order's status, a corporate
action's kind) in the interface language: the one table behind the ledger's tabs and the fill import's preview. The
books keep the codes; the words are sentence case, as the dashboard words a side and a status."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

CONTEXT = "LedgerModel"
VALUE_WORDS: dict[str, str] = {
    "buy": str(QT_TRANSLATE_NOOP("LedgerModel", "Buy")), "sell": str(QT_TRANSLATE_NOOP("LedgerModel", "Sell")),
    "deposit": str(QT_TRANSLATE_NOOP("LedgerModel", "Deposit")),
    "withdrawal": str(QT_TRANSLATE_NOOP("LedgerModel", "Withdrawal")),
    "dividend": str(QT_TRANSLATE_NOOP("LedgerModel", "Dividend")),
    "interest": str(QT_TRANSLATE_NOOP("LedgerModel", "Interest")), "fee": str(QT_TRANSLATE_NOOP("LedgerModel", "Fee")),
    "tax": str(QT_TRANSLATE_NOOP("LedgerModel", "Tax")),
    "transfer_in": str(QT_TRANSLATE_NOOP("LedgerModel", "Transfer in")),
    "transfer_out": str(QT_TRANSLATE_NOOP("LedgerModel", "Transfer out")),
    "computed": str(QT_TRANSLATE_NOOP("LedgerModel", "Computed")),
    "broker": str(QT_TRANSLATE_NOOP("LedgerModel", "Broker")),
    "open": str(QT_TRANSLATE_NOOP("LedgerModel", "Open")),
    "partially_filled": str(QT_TRANSLATE_NOOP("LedgerModel", "Partly filled")),
    "filled": str(QT_TRANSLATE_NOOP("LedgerModel", "Filled")),
    "cancelled": str(QT_TRANSLATE_NOOP("LedgerModel", "Cancelled")),
    "expired": str(QT_TRANSLATE_NOOP("LedgerModel", "Expired")),
    "cash_dividend": str(QT_TRANSLATE_NOOP("LedgerModel", "Cash dividend")),
    "bonus": str(QT_TRANSLATE_NOOP("LedgerModel", "Bonus shares")),
    "capitalization": str(QT_TRANSLATE_NOOP("LedgerModel", "Capitalisation issue")),
    "split": str(QT_TRANSLATE_NOOP("LedgerModel", "Split")),
}  # fmt: skip


def word(value: str) -> str:
    """A ledger value (side, cash kind, order status...) in the interface language; an unknown one as it is."""
    return QCoreApplication.translate(CONTEXT, VALUE_WORDS[value]) if value in VALUE_WORDS else value
