"""Positions at any instant: T+1 sellable across weekends and holidays, FIFO P&L, costs, dividend tax, bonus shares."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from stockbench.ledger.book import Ledger
from stockbench.ledger.tax import add_months, dividend_tax_rate
from tests.engine.ledger.conftest import cn, draft

D = Decimal


def position(book: Ledger, at: object = None, **prices: str) -> object:
    found = book.positions("main", at, {k.replace("_", "."): D(v) for k, v in prices.items()})  # type: ignore[arg-type]
    return found[0] if found else None


def test_t_plus_1_across_a_weekend(book: Ledger) -> None:
    book.record_fill(draft("600519", "buy", 100, "1650", cn("2024-01-05", "10:00")))  # a Friday
    p = position(book, cn("2024-01-05", "14:00"))
    assert (p.qty, p.sellable) == (100, 0)  # type: ignore[attr-defined]
    assert position(book, cn("2024-01-05", "16:00")).sellable == 100  # type: ignore[attr-defined] # after the close
    assert position(book, cn("2024-01-06", "12:00")).sellable == 100  # type: ignore[attr-defined] # Saturday
    book.record_fill(draft("600519", "sell", 100, "1660", cn("2024-01-08", "09:30")))  # Monday


def test_t_plus_1_across_the_spring_festival(book: Ledger) -> None:
    book.record_fill(draft("600519", "buy", 100, "1650", cn("2024-02-08", "14:00")))  # last session before the holiday
    assert position(book, cn("2024-02-08", "14:30")).sellable == 0  # type: ignore[attr-defined]
    assert position(book, cn("2024-02-12", "10:00")).sellable == 100  # type: ignore[attr-defined] # a holiday
    book.record_fill(draft("600519", "sell", 100, "1700", cn("2024-02-19", "10:00")))  # first session after


def test_fifo_realized_pnl_and_costs(book: Ledger) -> None:
    book.record_fill(draft("600519", "buy", 100, "1600", cn("2024-01-02"), fee=D("40")))
    book.record_fill(draft("600519", "buy", 100, "1700", cn("2024-01-03"), fee=D("42")))
    book.record_fill(draft("600519", "sell", 100, "1750", cn("2024-01-04"), fee=D("130")))
    p = position(book, None, **{"600519_SH": "1800"})
    # FIFO: the 1600 lot is sold: proceeds 175000 - 130 = 174870; cost 160040 -> realized 14830.
    assert p.realized_pnl == D("14830.00")  # type: ignore[attr-defined]
    assert (p.qty, p.sellable) == (100, 100)  # type: ignore[attr-defined]
    assert p.avg_cost == D("1700.4200")  # type: ignore[attr-defined] # (170000 + 42) / 100
    # diluted: (160040 + 170042 - 174870) / 100 = 1552.12
    assert p.diluted_cost == D("1552.1200")  # type: ignore[attr-defined]
    assert p.unrealized_pnl == D("9958.00")  # type: ignore[attr-defined] # 180000 - 170042
    assert p.market_value == D("180000.00")  # type: ignore[attr-defined]


def test_positions_now_and_at_an_instant_agree(book: Ledger) -> None:
    book.record_fill(draft("600519", "buy", 100, "1600", cn("2024-01-02")))
    book.record_fill(draft("000001", "buy", 1000, "9.50", cn("2024-01-02")))
    book.record_fill(draft("600519", "sell", 100, "1650", cn("2024-03-01")))
    assert book.positions("main") == book.positions("main", cn("2024-12-31", "18:00"))
    early = book.positions("main", cn("2024-01-02", "10:30"))
    assert [(p.symbol, p.qty, p.sellable) for p in early] == [("000001.SZ", 1000, 0), ("600519.SH", 100, 0)]


def test_dividend_tax_rates_by_holding_period() -> None:
    bought = date(2024, 1, 15)
    assert add_months(bought, 1) == date(2024, 2, 15)
    assert dividend_tax_rate(bought, date(2024, 2, 15)) == D("0.20")  # one month, inclusive
    assert dividend_tax_rate(bought, date(2024, 2, 16)) == D("0.10")
    assert dividend_tax_rate(bought, date(2025, 1, 15)) == D("0.10")  # one year, inclusive
    assert dividend_tax_rate(bought, date(2025, 1, 16)) == D("0")
    assert add_months(date(2024, 1, 31), 1) == date(2024, 2, 29)


def test_dividend_and_its_tax_at_sale(book: Ledger) -> None:
    book.record_fill(draft("600519", "buy", 100, "1600", cn("2024-01-02"), fee=D("0")))
    book.record_fill(draft("600519", "buy", 100, "1600", cn("2024-06-03"), fee=D("0")))
    book.dividend("main", "600519", date(2024, 6, 19), D("30.876"))
    # 200 shares x 30.876 = 6175.20 credited.
    assert book.balance("main") == {"CNY": D("1000000") - D("320000") + D("6175.20")}
    # Sell 100 on 2024-07-02: FIFO takes the January lot (held over 1 month, under a year: 10%).
    book.record_fill(draft("600519", "sell", 100, "1500", cn("2024-07-02"), fee=D("0")))
    p = position(book)
    assert p.dividend_tax == D("308.76")  # type: ignore[attr-defined] # 100 x 30.876 x 10%
    # Sell the June lot on 2024-07-02 too: held under a month -> 20% (617.52)
    book.record_fill(draft("600519", "sell", 100, "1500", cn("2024-07-03"), fee=D("0")))
    closed = book.positions("main")
    assert closed[0].qty == 0 and closed[0].dividend_tax == D("926.28")
    assert closed[0].realized_pnl == D("-20000.00") - D("926.28")
    assert book.balance("main") == {"CNY": D("1000000") + D("6175.20") - D("20000") - D("926.28")}


def test_bonus_shares_adjust_quantity_keep_cost_and_t1_status(book: Ledger) -> None:
    book.record_fill(draft("600519", "buy", 100, "1500", cn("2024-01-02"), fee=D("0")))
    book.record_fill(draft("600519", "buy", 200, "1600", cn("2024-01-04"), fee=D("0")))
    book.bonus("main", "600519", date(2024, 1, 5), D("0.3"))  # 10送3 on 300 shares: 90 shares
    p = position(book, cn("2024-01-05", "10:00"))
    assert p.qty == 390 and p.sellable == 390  # type: ignore[attr-defined]
    assert p.cost == D("470000.00")  # type: ignore[attr-defined] # unchanged
    state = book.state("main")
    assert [lot.qty for lot in state.holdings["600519.SH"].lots] == [130, 260]
    # Bonus shares count as a dividend of 1 CNY par each for the tax at sale: the first lot holds 30 of them.
    assert state.holdings["600519.SH"].lots[0].taxable == D(30)


def test_bonus_on_the_ex_date_keeps_shares_bought_the_day_before_sellable_next_day(book: Ledger) -> None:
    book.record_fill(draft("600519", "buy", 100, "1500", cn("2024-01-04", "14:00"), fee=D("0")))
    book.bonus("main", "600519", date(2024, 1, 5), D("1"), kind="split")
    assert position(book, cn("2024-01-05", "10:00")).sellable == 200  # type: ignore[attr-defined]


def test_rounding_of_credited_shares_and_broker_override(book: Ledger) -> None:
    book.record_fill(draft("600519", "buy", 100, "1500", cn("2024-01-02"), fee=D("0")))
    made = book.bonus("main", "600519", date(2024, 1, 5), D("0.35"))
    assert made.qty == 35
    made = book.bonus("main", "600519", date(2024, 1, 8), D("0.1"), kind="capitalization", qty=14)
    assert made.qty == 14
    assert position(book).qty == 149  # type: ignore[attr-defined]


def test_the_account_research_reads_is_the_holder_else_the_only_one_else_the_last_used(book: Ledger) -> None:
    """`main` is the only account: it is chosen for any symbol. With a second account, the one holding the symbol
    is chosen (the last used among several holders); a symbol no one holds goes to the last used account, and to
    none when there is no last used one (the user picks)."""
    assert book.account_for("600519.SH") == "main" and book.account_for(None) == "main"
    book.add_account("second", "CNY")
    book.cash("second", "deposit", D("500000"), at=cn("2024-01-02", "09:00"))
    assert book.account_for("600519.SH") is None
    assert book.account_for("600519.SH", last_used="second") == "second"
    assert book.account_for("600519.SH", last_used="gone") is None
    book.record_fill(draft("600519", "buy", 100, "1650", cn("2024-01-03"), account="second"))
    assert book.account_for("600519.SH") == "second" and book.account_for("600519.SH", last_used="main") == "second"
    book.record_fill(draft("600519", "buy", 100, "1650", cn("2024-01-03")))
    assert book.account_for("600519.SH") == "main" and book.account_for("600519.SH", last_used="second") == "second"
    book.record_fill(draft("600519", "sell", 100, "1700", cn("2024-01-05")))  # main sold out: no longer a holder
    assert book.account_for("600519.SH", last_used="main") == "second"
