"""Every fill validation rule, with its exact message; a rejected fill writes nothing."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal

import pytest

from stockbench.data.records import Bar, Quote, TradingStatus
from stockbench.errors import InvalidInput, RuleViolation
from stockbench.ledger.book import Ledger
from stockbench.market.registry import InstrumentData
from stockbench.messages import error_words
from stockbench.workbench import Workbench
from tests.engine.ledger.conftest import cn, draft, hk, snapshot


def rejected(book: Ledger, fill: object) -> list[tuple[str, str, str]]:
    before = snapshot(book)
    with pytest.raises(RuleViolation) as caught:
        book.record_fill(fill)  # type: ignore[arg-type]
    assert snapshot(book) == before, "a rejected fill must leave the ledger exactly as it was"
    return [(p.code, p.message, p.fix) for p in caught.value.problems]


def test_a_valid_buy_is_recorded_with_computed_fees(book: Ledger) -> None:
    fill = book.record_fill(draft("600519", "buy", 100, "1650.00", cn("2024-01-02", "10:01")))
    # 165,000: commission 0.025% = 41.25; transfer 0.001% = 1.65; handling 0.00341% = 5.6265 -> 5.63;
    # regulatory 0.002% = 3.30; no stamp duty on a buy.
    assert dict(fill.fee_items) == {
        "commission": Decimal("41.25"),
        "transfer_fee": Decimal("1.65"),
        "handling_fee": Decimal("5.63"),
        "regulatory_fee": Decimal("3.30"),
    }
    assert fill.fees == Decimal("51.83")
    assert fill.trade_date.isoformat() == "2024-01-02"
    assert book.balance("main") == {"CNY": Decimal("834948.17")}


def test_lot_rule(book: Ledger) -> None:
    assert rejected(book, draft("600519", "buy", 150, "1650.00", cn("2024-01-02"))) == [
        ("lot_multiple", "a buy of 600519.SH must be a multiple of 100 shares, not 150", "buy 100 or 200")
    ]


def test_tick_rule(book: Ledger) -> None:
    assert rejected(book, draft("600519", "buy", 100, "1650.005", cn("2024-01-02"))) == [
        ("price_off_tick", "1650.005 is not a valid price step for 600519.SH: 3 decimals, where its prices have at "
         "most 2", "use 1650.00 or 1650.01")
    ]  # fmt: skip


def test_session_time_rules(book: Ledger) -> None:
    assert rejected(book, draft("600519", "buy", 100, "1650", cn("2024-01-02", "12:00"))) == [
        (
            "outside_session",
            "2024-01-02 12:00:00 is outside trading for 600519.SH (phase: lunch break)",
            "give the execution time from the broker's confirmation, e.g. 10:31:05",
        )
    ]
    assert rejected(book, draft("600519", "buy", 100, "1650", cn("2024-01-06"))) == [
        ("outside_session", "2024-01-06 10:00:00 is not a trading day for 600519.SH", "check the date of the fill")
    ]
    # The opening auction's match at 09:25 and the closing auction's at 15:00:00 are execution times.
    book.record_fill(draft("600519", "buy", 100, "1650", cn("2024-01-02", "09:25")))
    book.record_fill(draft("600519", "buy", 100, "1650", cn("2024-01-02", "15:00")))


def test_t_plus_1_sellable_rule(book: Ledger) -> None:
    book.record_fill(draft("600519", "buy", 200, "1650", cn("2024-01-02", "10:00")))
    book.record_fill(draft("600519", "buy", 100, "1660", cn("2024-01-03", "10:00")))
    assert rejected(book, draft("600519", "sell", 300, "1670", cn("2024-01-03", "14:00"))) == [
        (
            "exceeds_sellable",
            "selling 300 600519.SH exceeds the sellable quantity of 200 "
            "(100 bought that day are not sellable until the next session)",
            "sell at most 200",
        )
    ]
    book.record_fill(draft("600519", "sell", 200, "1670", cn("2024-01-03", "14:00")))


def test_cash_rule(book: Ledger) -> None:
    assert rejected(book, draft("600519", "buy", 700, "1650", cn("2024-01-02"))) == [
        (
            "insufficient_cash",
            # 1,155,000 + commission 288.75 + transfer 11.55 + handling 39.3855 -> 39.39 + regulatory 23.10
            "buying 700 600519.SH needs 1155362.79 CNY but the cash balance is 1000000.00 CNY",
            "deposit at least 155362.79 CNY first, or reduce the quantity",
        )
    ]


def test_limit_rule_when_the_reference_price_is_known(book: Ledger) -> None:
    book.cash("main", "deposit", Decimal("10000"), at=cn("2020-07-01", "09:00"))
    assert rejected(book, draft("000001", "buy", 100, "15.69", cn("2020-07-06"), ref_price=Decimal("14.25"))) == [
        ("above_limit_up", "15.69 is above the day's limit-up price 15.68", "buy at 15.68 or lower")
    ]
    book.record_fill(draft("000001", "buy", 100, "15.68", cn("2020-07-06"), ref_price=Decimal("14.25")))


def test_every_problem_at_once(book: Ledger) -> None:
    codes = [c for c, _, _ in rejected(book, draft("600519", "buy", 150, "1650.005", cn("2024-01-06")))]
    assert codes == ["outside_session", "lot_multiple", "price_off_tick"]


def test_future_unknown_account_symbol_and_market(book: Ledger) -> None:
    assert rejected(book, draft("600519", "buy", 100, "1650", cn("2025-01-02")))[0][0] == "future_time"
    assert rejected(book, draft("600519", "buy", 100, "1650", cn("2024-01-02"), account="nope")) == [
        ("unknown_account", "there is no account named 'nope'", "list them with: stockbench ledger account list")
    ]
    assert rejected(book, draft("60051", "buy", 100, "1650", cn("2024-01-02")))[0][0] == "invalid_symbol"
    assert rejected(book, draft("000300.SH", "buy", 100, "3500", cn("2024-01-02")))[0][0] == "not_tradable"
    assert rejected(book, draft("00700.HK", "buy", 100, "300", hk("2024-01-02")))[0] == (
        "market_not_in_account",
        "account 'main' does not trade the HK market",
        "record it in an account for HK, or add the market to this account",
    )


def test_calendar_unknown_past_the_known_years(book: Ledger) -> None:
    book.clock = type(book.clock)(cn("2027-06-30", "18:00"))  # type: ignore[call-arg]
    problems = rejected(book, draft("600519", "buy", 100, "1650", cn("2027-01-04")))
    assert problems[0][0] == "calendar_unknown"


def test_broker_fees_override_and_negative_fees(book: Ledger) -> None:
    fill = book.record_fill(draft("600519", "buy", 100, "1650", cn("2024-01-02"), fee=Decimal("50.00")))
    assert fill.fees == Decimal("50.00") and fill.fees_source == "broker"
    assert rejected(book, draft("600519", "buy", 100, "1650", cn("2024-01-02"), fee=Decimal("-1")))[0][0] == (
        "negative_fee"
    )


def test_star_and_hk_lots(book: Ledger) -> None:
    book.record_fill(draft("688981", "buy", 201, "50.00", cn("2024-01-02")))
    assert rejected(book, draft("688981", "buy", 199, "50.00", cn("2024-01-02")))[0][0] == "lot_minimum"
    book.add_account("hk", "HKD")
    book.cash("hk", "deposit", Decimal("500000"), at=hk("2023-12-29", "09:00"))
    hsbc = draft("00005.HK", "buy", 400, "60.00", hk("2024-01-02"), account="hk")
    assert rejected(book, hsbc)[0][0] == "lot_unknown"
    book.market.registry.save(InstrumentData("00005.HK", name="HSBC", board_lot=400, source="test"))
    book.record_fill(hsbc)
    assert rejected(book, draft("00005.HK", "buy", 500, "60.00", hk("2024-01-02"), account="hk"))[0][0] == "hk_odd_lot"
    # Hong Kong allows same-day round trips.
    book.record_fill(draft("00005.HK", "sell", 400, "60.50", hk("2024-01-02", "14:00"), account="hk"))


def test_odd_lot_sell_rule(book: Ledger) -> None:
    book.record_fill(draft("600519", "buy", 100, "1650", cn("2024-01-02")))
    book.bonus("main", "600519", cn("2024-01-04").date(), Decimal("0.5"))  # 100 -> 150 shares
    assert rejected(book, draft("600519", "sell", 120, "1600", cn("2024-01-05")))[0][0] == "odd_lot_sell"
    assert rejected(book, draft("600519", "sell", 30, "1600", cn("2024-01-05")))[0][0] == "odd_lot_sell"
    book.record_fill(draft("600519", "sell", 50, "1600", cn("2024-01-05")))
    book.record_fill(draft("600519", "sell", 100, "1600", cn("2024-01-08")))


def test_a_late_fill_that_breaks_a_later_sell_is_rejected(book: Ledger) -> None:
    book.record_fill(draft("600519", "buy", 100, "1650", cn("2024-01-02")))
    book.record_fill(draft("600519", "sell", 100, "1700", cn("2024-01-05")))
    problems = rejected(book, draft("600519", "sell", 100, "1660", cn("2024-01-03")))
    assert [c for c, _, _ in problems] == ["exceeds_sellable"]
    assert "later entry" in problems[0][1]


def test_fee_terms_saved_twice_at_one_instant_keep_both_and_the_later_is_in_force(book: Ledger) -> None:
    """Settings > Fees saved twice under a frozen clock: no database error, the second terms win."""
    book.set_fees("main", "CN", rate=Decimal("0.0002"), minimum=Decimal("5"), bundled=False)
    book.set_fees("main", "CN", rate=Decimal("0.0001"), minimum=Decimal("1"), bundled=True)
    terms = book.fee_settings("main", "CN", book.clock.now() + timedelta(seconds=1))
    assert (terms.commission_rate, terms.commission_min, terms.bundled_exchange_fees) == (
        Decimal("0.0001"), Decimal("1"), True)  # fmt: skip
    with pytest.raises(InvalidInput) as refused:
        book.set_fees("main", "CN", rate=Decimal("-0.1"), minimum=Decimal("5"), bundled=False)
    assert error_words(refused.value, "zh")[0] == "佣金费率和最低佣金不能为负数"


# ---- what the workspace knows of the day: listed yet, traded that day -------------------------------------------

SESSIONS = ["2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05", "2024-01-08"]


def store_bars(bench: Workbench, symbol: str, days: list[str], *, silent: str = "") -> None:
    """Daily bars of `symbol` on `days` (volume 0 on `silent`)."""
    p = Decimal("1650.00")
    bars = [Bar(symbol, date.fromisoformat(d), p, p, p, p, p, 0 if d == silent else 10_000, None, "eastmoney")
            for d in days]  # fmt: skip
    bench.data.cache.store_bars(bars)


def test_a_fill_on_a_session_the_stored_bars_skip_is_refused_as_not_traded(bench: Workbench, book: Ledger) -> None:
    store_bars(bench, "600519.SH", [d for d in SESSIONS if d != "2024-01-04"], silent="2024-01-05")
    assert rejected(book, draft("600519", "buy", 100, "1650.00", cn("2024-01-04", "10:01"))) == [
        ("not_traded", "600519.SH did not trade on 2024-01-04 (suspended): a fill cannot be recorded",
         "check the fill's date in the broker's confirmation; if the stored daily bars lack that day by mistake, "
         "fetch them again (stockbench data fetch 600519.SH)")
    ]  # fmt: skip
    assert [c for c, _, _ in rejected(book, draft("600519", "buy", 100, "1650", cn("2024-01-05")))] == ["not_traded"]
    with pytest.raises(RuleViolation) as caught:
        book.record_fill(draft("600519", "buy", 100, "1650.00", cn("2024-01-04", "10:01")))
    assert error_words(caught.value, "zh")[0] == "成交未记录：600519.SH 在 2024-01-04 停牌，没有成交，不能记录成交"
    assert book.preview_fill(draft("600519", "buy", 100, "1650", cn("2024-01-04")))[1][0].code == "not_traded"
    book.record_fill(draft("600519", "buy", 100, "1650.00", cn("2024-01-03")))  # a day with a bar
    book.record_fill(draft("600519", "buy", 100, "1650.00", cn("2024-01-09")))  # after the last bar: not known


def store_quote(bench: Workbench, symbol: str, at: datetime, status: TradingStatus) -> None:
    """A quote of `symbol` at `at` saying `status` (a halted line: price = previous close, no open, high or low)."""
    p = Decimal("1650.00")
    bench.data.cache.store_quotes([Quote(symbol, at, p, p, None, None, None, 0, None, "tencent", status=status)])


@pytest.mark.parametrize(
    ("status", "code", "message"),
    [
        ("suspended", "suspended",
         "600519.SH was suspended on 2024-12-31 (its quote of that day says so): a fill cannot be recorded"),
        ("delisted", "delisted",
         "600519.SH was delisted on 2024-12-31 (its quote of that day says so): a fill cannot be recorded"),
    ],
)  # fmt: skip
def test_a_fill_today_on_a_name_its_quote_of_today_says_is_halted_is_refused_with_its_own_reason(
    bench: Workbench, book: Ledger, status: TradingStatus, code: str, message: str
) -> None:
    """No bar of today is stored yet (bars before it only, so the bars cannot tell), but today's latest quote says
    the name is suspended or delisted: a fill today is refused, with words of its own in either language."""
    store_bars(bench, "600519.SH", ["2024-12-27", "2024-12-30"])
    store_quote(bench, "600519.SH", cn("2024-12-31", "09:30"), "trading")
    store_quote(bench, "600519.SH", cn("2024-12-31", "09:35"), status)  # the latest of the day decides
    fill = draft("600519", "buy", 100, "1650.00", cn("2024-12-31", "10:01"))
    [(found, words, _)] = rejected(book, fill)
    assert (found, words) == (code, message)
    with pytest.raises(RuleViolation) as caught:
        book.record_fill(fill)
    zh = error_words(caught.value, "zh")[0]
    assert "600519.SH 在 2024-12-31" in zh and ("停牌" if status == "suspended" else "已退市") in zh
    book.record_fill(draft("600519", "buy", 100, "1650.00", cn("2024-12-30", "10:01")))  # the day before: traded


def test_a_day_whose_bar_shows_trading_is_not_refused_for_a_halted_quote_of_that_day(
    bench: Workbench, book: Ledger
) -> None:
    """A name halted after it traded that day did trade: a bar with volume outweighs the day's suspended quote; a
    quote of another day says nothing of this one."""
    store_bars(bench, "600519.SH", ["2024-12-27", "2024-12-30"])
    store_quote(bench, "600519.SH", cn("2024-12-30", "14:00"), "suspended")
    store_quote(bench, "600519.SH", cn("2024-12-27", "14:00"), "suspended")
    assert bench.data.trading_on("600519.SH", date(2024, 12, 30)) == "traded"
    book.record_fill(draft("600519", "buy", 100, "1650.00", cn("2024-12-30", "10:01")))
    assert bench.data.trading_on("600519.SH", date(2024, 12, 31)) is None  # no quote of that day: nothing tells


def test_with_no_bars_stored_or_no_data_port_a_fill_is_accepted_as_before(bench: Workbench, book: Ledger) -> None:
    store_bars(bench, "600519.SH", [d for d in SESSIONS if d != "2024-01-04"])
    book.record_fill(draft("000001", "buy", 100, "9.00", cn("2024-01-04")))  # no bars of 000001.SZ at all
    plain = Ledger(bench.workspace.db, bench.clock, bench.market)  # the ledger alone checks no market data
    plain.record_fill(draft("600519", "buy", 100, "1650.00", cn("2024-01-04")))


def test_a_fill_before_the_listing_date_is_refused_as_not_listed(bench: Workbench, book: Ledger) -> None:
    bench.market.registry.save(InstrumentData("688981.SH", list_date=date(2020, 7, 16)))
    book.cash("main", "deposit", Decimal("10000"), at=cn("2020-07-01", "09:00"))
    assert rejected(book, draft("688981", "buy", 200, "30.00", cn("2020-07-15"))) == [
        (
            "not_listed",
            "688981.SH was not listed yet on 2020-07-15 (listed 2020-07-16): a fill cannot be recorded",
            "check the fill's date in the broker's confirmation",
        )
    ]
    book.record_fill(draft("688981", "buy", 200, "30.00", cn("2020-07-16")))  # the listing day trades
