"""EngineOp factories of the ledger views: read one account's books, void an entry, cancel an order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from PySide6.QtWidgets import QWidget

from stockbench.ledger.entries import CashEntry, CorporateAction, Fill, OrderStatus, Position
from stockbench.workbench import Workbench
from ui.background import EngineOp
from ui.context import AppContext
from ui.screens.ledger.ledger_model import Entry

Success = Callable[[Any], None]


@dataclass(frozen=True)
class Book:
    """One account's books as the ledger views show them."""

    account: str
    accounts: tuple[str, ...]
    balance: dict[str, Decimal]
    positions: tuple[Position, ...]
    cash: tuple[Entry[CashEntry], ...]
    fills: tuple[Entry[Fill], ...]
    orders: tuple[OrderStatus, ...]
    actions: tuple[Entry[CorporateAction], ...]
    now: datetime  # the workbench clock when read (the cash dialog's default day)
    after_close: bool = False  # the A-share session of `now` is over: today's buys count as sellable (T+1)


def _last_closes(bench: Workbench, symbols: list[str]) -> dict[str, Decimal]:
    """Stored last prices (never fetched here: the ledger view must open offline)."""
    prices = {}
    for symbol in symbols:
        try:
            found = bench.data.quote(symbol, fetch=False).price
        except Exception:  # a missing quote leaves the value column empty; it is not an error
            found = None
        if found is not None:
            prices[symbol] = found
    return prices


def read_book(bench: Workbench, account: str | None) -> Book | None:
    """The books of `account` (or of the first account); None when there is no account yet."""
    ledger = bench.ledger
    accounts = tuple(a.name for a in ledger.accounts())
    if not accounts:
        return None
    name = account if account in accounts else accounts[0]
    held = [p.symbol for p in ledger.positions(name)]
    history, now = ledger.history(name), bench.clock.now()
    return Book(
        name, accounts, ledger.balance(name), tuple(ledger.positions(name, prices=_last_closes(bench, held))),
        tuple(Entry(e, r) for e, r in history if isinstance(e, CashEntry)),
        tuple(Entry(e, r) for e, r in history if isinstance(e, Fill)), tuple(ledger.orders(name)),
        tuple(Entry(e, r) for e, r in history if isinstance(e, CorporateAction)), now,
        ledger.after_the_close("CN", now),
    )  # fmt: skip


def load_book(ctx: AppContext, parent: QWidget, account: str | None, success: Success) -> EngineOp:
    """Read one account's books (a `Book`, or None when there is no account)."""
    return ctx.op(lambda bench: read_book(bench, account), success, parent=parent)


def void_entry(ctx: AppContext, parent: QWidget, entry_id: str, reason: str, success: Success) -> EngineOp:
    """Void a fill, cash entry or corporate action (refused, with why, if later history depends on it)."""
    return ctx.op(lambda bench: bench.ledger.void(entry_id, reason), success, parent=parent)


def cancel_order(ctx: AppContext, parent: QWidget, order_id: str, reason: str, success: Success) -> EngineOp:
    """Record that an open order was cancelled at the broker."""
    return ctx.op(lambda bench: bench.ledger.cancel_order(order_id, reason), success, parent=parent)
