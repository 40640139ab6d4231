"""Voids, orders (which never change holdings) and balances in several currencies."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from stockbench.errors import InvalidInput, NotFound, RuleViolation
from stockbench.ledger.book import Ledger
from stockbench.ledger.entries import Order
from tests.engine.ledger.conftest import cn, draft, hk, snapshot

D = Decimal


def test_a_void_excludes_the_entry_and_history_keeps_both(book: Ledger) -> None:
    fill = book.record_fill(draft("600519", "buy", 100, "1650", cn("2024-01-02"), fee=D("0")))
    book.void(fill.fill_id, "entered twice")
    assert book.positions("main") == []
    assert book.balance("main") == {"CNY": D("1000000.00")}
    rows = book.history("main")
    assert [(type(e).__name__, reason) for e, reason in rows] == [("CashEntry", None), ("Fill", "entered twice")]
    with pytest.raises(InvalidInput, match="already voided"):
        book.void(fill.fill_id, "again")


def test_a_void_that_would_break_history_is_refused(book: Ledger) -> None:
    buy = book.record_fill(draft("600519", "buy", 100, "1650", cn("2024-01-02")))
    book.record_fill(draft("600519", "sell", 100, "1700", cn("2024-01-03")))
    before = snapshot(book)
    with pytest.raises(RuleViolation) as caught:
        book.void(buy.fill_id, "mistake")
    assert caught.value.problems[0].code == "exceeds_sellable"
    assert "void the later entry first" in caught.value.problems[0].fix
    assert snapshot(book) == before
    with pytest.raises(NotFound):
        book.void("F-nope", "x")
    with pytest.raises(InvalidInput, match="needs a reason"):
        book.void(buy.fill_id, "  ")


def test_orders_never_change_holdings_and_track_fills(book: Ledger) -> None:
    placed = book.add_order(Order("", "main", "600519", "buy", 200, D("1650"), cn("2024-01-02", "09:20")))
    positions_before = book.positions("main")
    assert [s.status for s in book.orders("main")] == ["open"]
    assert book.positions("main") == positions_before == []
    book.record_fill(draft("600519", "buy", 100, "1650", cn("2024-01-02", "10:00"), order_id=placed.order_id))
    assert [(s.status, s.filled) for s in book.orders("main")] == [("partially_filled", 100)]
    overfill = draft("600519", "buy", 200, "1650", cn("2024-01-02", "10:05"), order_id=placed.order_id)
    with pytest.raises(RuleViolation) as caught:
        book.record_fill(overfill)
    assert caught.value.problems[0].code == "order_overfilled"
    wrong_side = draft("600519", "sell", 100, "1650", cn("2024-01-03", "10:05"), order_id=placed.order_id)
    with pytest.raises(RuleViolation) as caught:
        book.record_fill(wrong_side)
    assert "order_mismatch" in [p.code for p in caught.value.problems]
    book.cancel_order(placed.order_id, "changed my mind")
    assert [s.status for s in book.orders("main")] == ["cancelled"]
    late = draft("600519", "buy", 100, "1650", cn("2024-01-02", "10:10"), order_id=placed.order_id)
    with pytest.raises(RuleViolation) as caught:
        book.record_fill(late)
    assert caught.value.problems[0].code == "order_closed"


def test_order_statuses_filled_and_expired(book: Ledger) -> None:
    filled = book.add_order(Order("", "main", "600519", "buy", 100, D("1650"), cn("2024-01-02", "09:20")))
    book.record_fill(draft("600519", "buy", 100, "1650", cn("2024-01-02"), order_id=filled.order_id))
    book.add_order(Order("", "main", "000001", "buy", 100, D("9.50"), cn("2024-01-02", "09:20"), date(2024, 1, 3)))
    assert sorted(s.status for s in book.orders("main")) == ["expired", "filled"]
    with pytest.raises(RuleViolation) as caught:
        book.add_order(Order("", "main", "600519", "buy", 150, D("1650.001"), cn("2024-01-02", "09:20")))
    assert [p.code for p in caught.value.problems] == ["lot_multiple", "price_off_tick"]


def test_multi_currency_balances_and_transfers(book: Ledger) -> None:
    book.add_account("hk", "HKD")
    book.transfer("main", "hk", D("10000"), to_currency="HKD", fx_rate=D("1.0850"), at=cn("2024-01-02", "09:00"))
    assert book.balance("main") == {"CNY": D("990000.00")}
    assert book.balance("hk") == {"HKD": D("10850.00")}
    book.cash("main", "deposit", D("500"), currency="USD", at=cn("2024-01-03", "09:00"))
    assert book.balance("main") == {"CNY": D("990000.00"), "USD": D("500.00")}
    with pytest.raises(InvalidInput, match="FX rate is needed"):
        book.transfer("main", "hk", D("1"), to_currency="HKD")
    before = snapshot(book)
    with pytest.raises(RuleViolation):
        book.transfer("hk", "main", D("20000"), at=hk("2024-01-04", "09:00"))
    assert snapshot(book) == before, "a failed transfer writes neither leg"
    with pytest.raises(InvalidInput, match="more than two decimals"):  # it used to move 1.23 and lose the 0.004
        book.transfer("main", "hk", D("1.234"), to_currency="HKD", fx_rate=D("1.0850"), at=cn("2024-01-04", "09:00"))
    assert snapshot(book) == before


def test_cash_validation(book: Ledger) -> None:
    before = snapshot(book)
    with pytest.raises(RuleViolation) as caught:
        book.cash("main", "withdrawal", D("2000000"), at=cn("2024-01-02", "09:00"))
    assert caught.value.problems[0].code == "insufficient_cash"
    with pytest.raises(InvalidInput, match="more than two decimals"):
        book.cash("main", "deposit", D("1.001"))
    with pytest.raises(InvalidInput, match="in the future"):
        book.cash("main", "deposit", D("1"), at=cn("2025-06-01", "09:00"))
    assert snapshot(book) == before
