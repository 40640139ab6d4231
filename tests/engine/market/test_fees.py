"""Fees: hand-worked A-share and Hong Kong examples either side of every effective date, properties, CLI.

Every expected figure is worked out by hand in the comment above it; none is recomputed with the code
under test. "half-up" means rounding to the cent with .5 going up.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stockbench.cli.main import run
from stockbench.errors import InternalError, InvalidInput
from stockbench.market.fees import FeeBreakdown, FeeSettings, break_even_price, order_fees
from stockbench.market.instruments import Instrument, SecurityType, parse_symbol
from stockbench.market.tables import load_tables

D = Decimal
MOUTAI = parse_symbol("600519.SH")  # Shanghai main board stock
PING_AN = parse_symbol("000001.SZ")  # Shenzhen main board stock
BSE_OLD = parse_symbol("830799.BJ")  # Beijing code of the pre-920 era
BSE_NEW = parse_symbol("920118.BJ")
CSI300_ETF = parse_symbol("510300.SH")  # Shanghai ETF (fund)
TENCENT = parse_symbol("00700.HK")
TRACKER = parse_symbol("02800.HK").with_data(security_type=SecurityType.FUND)  # HK ETF
APPLE = parse_symbol("AAPL.US")


def items(fees: FeeBreakdown) -> dict[str, str]:
    return {name: str(amount) for name, amount in fees.items}


# ---------------------------------------------------------------------------------------------------------
# A-shares (default commission: 0.025%, minimum 5 CNY, exchange fees not bundled)


def test_cn_sell_before_stamp_duty_cut_2023_08_28() -> None:
    fees = order_fees(MOUTAI, "sell", 100, D("1800.00"), date(2023, 8, 25))
    # amount 100 x 1800.00 = 180000.00
    # commission 180000 x 0.00025 = 45.00; stamp 180000 x 0.001 = 180.00; transfer 180000 x 0.00001 = 1.80
    # handling (old rate) 180000 x 0.0000487 = 8.766 -> 8.77; regulatory 180000 x 0.00002 = 3.60
    # total 45.00 + 180.00 + 1.80 + 8.77 + 3.60 = 239.17
    assert items(fees) == {
        "commission": "45.00",
        "stamp_duty": "180.00",
        "transfer_fee": "1.80",
        "handling_fee": "8.77",
        "regulatory_fee": "3.60",
    }
    assert fees.total == D("239.17")
    assert fees.amount == D("180000.00")
    assert fees.currency == "CNY"
    assert fees.unconfirmed == ("handling_fee",)  # the pre-2023-08-28 handling rate is flagged


def test_cn_sell_from_stamp_duty_cut_2023_08_28() -> None:
    fees = order_fees(MOUTAI, "sell", 100, D("1800.00"), date(2023, 8, 28))
    # stamp 180000 x 0.0005 = 90.00; handling (new rate) 180000 x 0.0000341 = 6.138 -> 6.14
    # total 45.00 + 90.00 + 1.80 + 6.14 + 3.60 = 146.54
    assert items(fees) == {
        "commission": "45.00",
        "stamp_duty": "90.00",
        "transfer_fee": "1.80",
        "handling_fee": "6.14",
        "regulatory_fee": "3.60",
    }
    assert fees.total == D("146.54")
    assert fees.unconfirmed == ()


def test_cn_buy_pays_no_stamp_duty_and_the_item_is_omitted() -> None:
    fees = order_fees(MOUTAI, "buy", 100, D("1800.00"), date(2023, 8, 28))
    # total 45.00 + 1.80 + 6.14 + 3.60 = 56.54
    assert list(items(fees)) == ["commission", "transfer_fee", "handling_fee", "regulatory_fee"]
    assert fees.total == D("56.54")


def test_cn_transfer_fee_halves_on_2022_04_29() -> None:
    before = order_fees(PING_AN, "buy", 1000, D("10.00"), date(2022, 4, 28))
    after = order_fees(PING_AN, "buy", 1000, D("10.00"), date(2022, 4, 29))
    # amount 10000.00; commission 10000 x 0.00025 = 2.50 -> minimum 5.00
    # transfer before 10000 x 0.00002 = 0.20, after 10000 x 0.00001 = 0.10
    # handling 10000 x 0.0000487 = 0.487 -> 0.49; regulatory 10000 x 0.00002 = 0.20
    # totals 5.00 + 0.20 + 0.49 + 0.20 = 5.89 and 5.00 + 0.10 + 0.49 + 0.20 = 5.79
    assert items(before) == {
        "commission": "5.00",
        "transfer_fee": "0.20",
        "handling_fee": "0.49",
        "regulatory_fee": "0.20",
    }
    assert before.total == D("5.89")
    assert before.unconfirmed == ("transfer_fee", "handling_fee")
    assert after.item("transfer_fee") == D("0.10")
    assert after.total == D("5.79")
    assert after.unconfirmed == ("handling_fee",)


def test_cn_beijing_handling_fee_before_and_after_2023_08_28() -> None:
    before = order_fees(BSE_OLD, "buy", 2000, D("20.00"), date(2023, 8, 25))
    after = order_fees(BSE_OLD, "buy", 2000, D("20.00"), date(2023, 8, 28))
    # amount 40000.00; commission 40000 x 0.00025 = 10.00; transfer 40000 x 0.00001 = 0.40
    # handling before 40000 x 0.00025 = 10.00, after 40000 x 0.000125 = 5.00; regulatory 0.80
    # totals 10.00 + 0.40 + 10.00 + 0.80 = 21.20 and 10.00 + 0.40 + 5.00 + 0.80 = 16.20
    assert before.item("handling_fee") == D("10.00")
    assert before.total == D("21.20")
    assert after.item("handling_fee") == D("5.00")
    assert after.total == D("16.20")


def test_cn_beijing_rate_is_not_the_shanghai_shenzhen_rate() -> None:
    bse = order_fees(BSE_NEW, "sell", 1000, D("30.00"), date(2025, 11, 3))
    szse = order_fees(PING_AN, "sell", 1000, D("30.00"), date(2025, 11, 3))
    # amount 30000.00: Beijing 30000 x 0.000125 = 3.75; Shenzhen 30000 x 0.0000341 = 1.023 -> 1.02
    assert bse.item("handling_fee") == D("3.75")
    assert szse.item("handling_fee") == D("1.02")
    # Beijing sell total: commission 7.50 + stamp 15.00 + transfer 0.30 + handling 3.75 + regulatory 0.60
    assert bse.total == D("27.15")


def test_cn_commission_minimum_on_a_small_order_only() -> None:
    small = order_fees(PING_AN, "buy", 100, D("12.34"), date(2024, 1, 2))
    large = order_fees(PING_AN, "buy", 10000, D("12.34"), date(2024, 1, 2))
    # small: amount 1234.00; commission 1234 x 0.00025 = 0.3085 -> minimum 5.00
    # transfer 0.01234 -> 0.01; handling 0.0420794 -> 0.04; regulatory 0.02468 -> 0.02; total 5.07
    assert items(small) == {
        "commission": "5.00",
        "transfer_fee": "0.01",
        "handling_fee": "0.04",
        "regulatory_fee": "0.02",
    }
    assert small.total == D("5.07")
    # large: amount 123400.00; commission 123400 x 0.00025 = 30.85; transfer 1.234 -> 1.23
    # handling 123400 x 0.0000341 = 4.20794 -> 4.21; regulatory 2.468 -> 2.47; total 38.76
    assert items(large) == {
        "commission": "30.85",
        "transfer_fee": "1.23",
        "handling_fee": "4.21",
        "regulatory_fee": "2.47",
    }
    assert large.total == D("38.76")


def test_cn_commission_rounds_half_up_just_above_the_minimum() -> None:
    fees = order_fees(PING_AN, "buy", 1000, D("20.02"), date(2024, 1, 2))
    # amount 20020.00; commission 20020 x 0.00025 = 5.005 -> 5.01 half-up (half-even would give 5.00)
    assert fees.item("commission") == D("5.01")


def test_cn_bundled_exchange_fees_are_inside_the_commission() -> None:
    bundled = FeeSettings(D("0.00025"), D("5"), bundled_exchange_fees=True)
    buy = order_fees(PING_AN, "buy", 10000, D("12.34"), date(2024, 1, 2), settings=bundled)
    sell = order_fees(PING_AN, "sell", 10000, D("12.34"), date(2024, 1, 2), settings=bundled)
    # amount 123400.00: commission 30.85 and transfer 1.23 stay; handling and regulatory are not itemised
    # buy total 30.85 + 1.23 = 32.08 (unbundled it is 38.76, see above)
    assert items(buy) == {"commission": "30.85", "transfer_fee": "1.23"}
    assert buy.total == D("32.08")
    # sell adds stamp 123400 x 0.0005 = 61.70: total 30.85 + 61.70 + 1.23 = 93.78
    assert items(sell) == {"commission": "30.85", "stamp_duty": "61.70", "transfer_fee": "1.23"}
    assert sell.total == D("93.78")


def test_cn_account_commission_rate_and_minimum() -> None:
    cheap = FeeSettings(D("0.0001"), D("0"))
    fees = order_fees(PING_AN, "buy", 10000, D("12.34"), date(2024, 1, 2), settings=cheap)
    # commission 123400 x 0.0001 = 12.34; total 12.34 + 1.23 + 4.21 + 2.47 = 20.25
    assert fees.item("commission") == D("12.34")
    assert fees.total == D("20.25")


def test_cn_etf_pays_no_stamp_duty_and_no_transfer_fee() -> None:
    buy = order_fees(CSI300_ETF, "buy", 10000, D("3.851"), date(2024, 1, 2))
    sell = order_fees(CSI300_ETF, "sell", 10000, D("3.851"), date(2024, 1, 2))
    # amount 38510.000; commission 38510 x 0.00025 = 9.6275 -> 9.63
    # handling 38510 x 0.0000341 = 1.313191 -> 1.31; regulatory 38510 x 0.00002 = 0.7702 -> 0.77
    # total 9.63 + 1.31 + 0.77 = 11.71 on either side
    expected = {"commission": "9.63", "handling_fee": "1.31", "regulatory_fee": "0.77"}
    assert items(buy) == expected
    assert items(sell) == expected
    assert sell.total == D("11.71")


# ---------------------------------------------------------------------------------------------------------
# Hong Kong (default commission: 0.03%, minimum HK$3)


def test_hk_stamp_duty_before_2023_11_17_is_0_13_pct_rounded_up() -> None:
    fees = order_fees(TENCENT, "buy", 100, D("320.40"), date(2023, 11, 16))
    # amount 32040.00; commission 32040 x 0.0003 = 9.612 -> 9.61
    # stamp 32040 x 0.0013 = 41.652 -> up to 42.00; trading 32040 x 0.0000565 = 1.81026 -> 1.81
    # SFC 32040 x 0.000027 = 0.86508 -> 0.87; AFRC 32040 x 0.0000015 = 0.04806 -> 0.05
    # settlement 32040 x 0.00002 = 0.6408 -> minimum 2.00
    # total 9.61 + 42.00 + 1.81 + 0.87 + 0.05 + 2.00 = 56.34
    assert items(fees) == {
        "commission": "9.61",
        "stamp_duty": "42.00",
        "trading_fee": "1.81",
        "sfc_levy": "0.87",
        "afrc_levy": "0.05",
        "settlement_fee": "2.00",
    }
    assert fees.total == D("56.34")
    assert fees.currency == "HKD"
    assert fees.unconfirmed == ("stamp_duty",)


def test_hk_stamp_duty_from_2023_11_17_is_0_1_pct_rounded_up_on_both_sides() -> None:
    buy = order_fees(TENCENT, "buy", 100, D("320.40"), date(2023, 11, 17))
    sell = order_fees(TENCENT, "sell", 100, D("320.40"), date(2023, 11, 17))
    # stamp 32040 x 0.001 = 32.04 -> up to 33.00 (not 32.00)
    # total 9.61 + 33.00 + 1.81 + 0.87 + 0.05 + 2.00 = 47.34
    assert buy.item("stamp_duty") == D("33.00")
    assert sell.item("stamp_duty") == D("33.00")
    assert buy.total == sell.total == D("47.34")


def test_hk_stamp_duty_on_a_whole_dollar_is_not_rounded_further() -> None:
    fees = order_fees(TENCENT, "sell", 100, D("320.00"), date(2024, 1, 2))
    # stamp 32000 x 0.001 = 32 exactly -> 32.00
    assert fees.item("stamp_duty") == D("32.00")


def test_hk_trading_fee_rises_on_2023_01_01() -> None:
    before = order_fees(TENCENT, "buy", 1000, D("300.00"), date(2022, 12, 30))
    after = order_fees(TENCENT, "buy", 1000, D("300.00"), date(2023, 1, 3))
    # amount 300000.00; commission 90.00; stamp 300000 x 0.0013 = 390.00; SFC 8.10; AFRC 0.45
    # settlement 300000 x 0.00002 = 6.00 (between the HK$2 minimum and the HK$100 maximum)
    # trading before 300000 x 0.00005 = 15.00: total 90 + 390 + 15 + 8.10 + 0.45 + 6 = 509.55
    # trading after 300000 x 0.0000565 = 16.95: total 90 + 390 + 16.95 + 8.10 + 0.45 + 6 = 511.50
    assert items(before) == {
        "commission": "90.00",
        "stamp_duty": "390.00",
        "trading_fee": "15.00",
        "sfc_levy": "8.10",
        "afrc_levy": "0.45",
        "settlement_fee": "6.00",
    }
    assert before.total == D("509.55")
    assert after.item("trading_fee") == D("16.95")
    assert after.total == D("511.50")


def test_hk_settlement_fee_maximum_before_2025_06_30() -> None:
    fees = order_fees(TENCENT, "buy", 10000, D("1000.00"), date(2025, 6, 27))
    # amount 10000000.00; settlement 10000000 x 0.00002 = 200 -> maximum 100.00
    assert fees.item("settlement_fee") == D("100.00")


def test_hk_settlement_fee_from_2025_06_30_has_no_bounds() -> None:
    large = order_fees(TENCENT, "buy", 10000, D("1000.00"), date(2025, 6, 30))
    small = order_fees(TENCENT, "buy", 100, D("320.40"), date(2025, 6, 30))
    # large: 10000000 x 0.000042 = 420.00 (no maximum)
    assert large.item("settlement_fee") == D("420.00")
    # small: 32040 x 0.000042 = 1.34568 -> 1.35 (no HK$2 minimum)
    # total 9.61 + 33.00 + 1.81 + 0.87 + 0.05 + 1.35 = 46.69
    assert items(small) == {
        "commission": "9.61",
        "stamp_duty": "33.00",
        "trading_fee": "1.81",
        "sfc_levy": "0.87",
        "afrc_levy": "0.05",
        "settlement_fee": "1.35",
    }
    assert small.total == D("46.69")


def test_hk_etf_is_exempt_from_stamp_duty() -> None:
    fees = order_fees(TRACKER, "sell", 5000, D("25.00"), date(2024, 6, 3))
    # amount 125000.00; commission 37.50; trading 125000 x 0.0000565 = 7.0625 -> 7.06
    # SFC 125000 x 0.000027 = 3.375 -> 3.38; AFRC 125000 x 0.0000015 = 0.1875 -> 0.19
    # settlement 125000 x 0.00002 = 2.50; total 37.50 + 7.06 + 3.38 + 0.19 + 2.50 = 50.63
    assert items(fees) == {
        "commission": "37.50",
        "trading_fee": "7.06",
        "sfc_levy": "3.38",
        "afrc_levy": "0.19",
        "settlement_fee": "2.50",
    }
    assert fees.total == D("50.63")


def test_hk_commission_minimum_and_bundling_leaves_hk_levies_itemised() -> None:
    bundled = FeeSettings(D("0.0003"), D("3"), bundled_exchange_fees=True)
    fees = order_fees(TENCENT, "buy", 100, D("5.00"), date(2024, 1, 2), settings=bundled)
    # amount 500.00; commission 500 x 0.0003 = 0.15 -> minimum 3.00; stamp 0.50 -> up to 1.00
    # trading 0.02825 -> 0.03; SFC 0.0135 -> 0.01; AFRC 0.00075 -> 0.00 (omitted); settlement minimum 2.00
    assert items(fees) == {
        "commission": "3.00",
        "stamp_duty": "1.00",
        "trading_fee": "0.03",
        "sfc_levy": "0.01",
        "settlement_fee": "2.00",
    }
    assert fees.total == D("6.04")


# ---------------------------------------------------------------------------------------------------------
# US, bad input, and the tables as the only source of rates


def test_us_orders_carry_the_commission_only() -> None:
    broker = FeeSettings(D("0.001"), D("1"))
    fees = order_fees(APPLE, "buy", 10, D("190.00"), date(2024, 1, 2), settings=broker)
    # commission 1900.00 x 0.001 = 1.90
    assert items(fees) == {"commission": "1.90"}
    assert fees.currency == "USD"


def test_us_has_no_default_commission() -> None:
    with pytest.raises(InvalidInput, match="no default commission for market US"):
        order_fees(APPLE, "buy", 10, D("190.00"), date(2024, 1, 2))


@pytest.mark.parametrize("symbol", ["000001.SH", "399001.SZ", "HSI.HK"])
def test_indices_are_not_tradable(symbol: str) -> None:
    with pytest.raises(InvalidInput, match="indices are not tradable"):
        order_fees(parse_symbol(symbol), "buy", 100, D("10"), date(2024, 1, 2))


@pytest.mark.parametrize(
    ("qty", "price", "message"),
    [
        (0, D("10"), "quantity '0'"),
        (-100, D("10"), "quantity '-100'"),
        (100, D("0"), "price '0'"),
        (100, D("-1.5"), "price '-1.5'"),
        (100, D("NaN"), "price 'NaN'"),
    ],
)
def test_bad_quantity_or_price(qty: int, price: Decimal, message: str) -> None:
    with pytest.raises(InvalidInput, match=re.escape(message)):
        order_fees(PING_AN, "buy", qty, price, date(2024, 1, 2))


def test_bad_side_and_negative_commission() -> None:
    with pytest.raises(InvalidInput, match="side 'hold'"):
        order_fees(PING_AN, "hold", 100, D("10"), date(2024, 1, 2))  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match=re.escape("commission rate '-0.001'")):
        FeeSettings(D("-0.001"), D("5"))


def test_rates_come_from_the_tables() -> None:
    tables = load_tables()
    doubled = tuple(
        replace(r, rate=D("0.002")) if r.market == "CN" and r.item == "stamp_duty" else r for r in tables.fees
    )
    dearer = {"CN": replace(tables.commission_defaults["CN"], min=D("7"))}
    edited = replace(tables, fees=doubled, commission_defaults=dearer)
    fees = order_fees(PING_AN, "sell", 100, D("12.34"), date(2024, 1, 2), tables=edited)
    # stamp 1234 x 0.002 = 2.468 -> 2.47; commission 0.3085 -> the edited minimum 7.00
    assert fees.item("stamp_duty") == D("2.47")
    assert fees.item("commission") == D("7.00")


def test_overlapping_rows_and_unknown_rounding_are_table_bugs() -> None:
    tables = load_tables()
    cn_stamp = [r for r in tables.fees if r.market == "CN" and r.item == "stamp_duty"]
    stamp = next(r for r in cn_stamp if r.rate == D("0.0005"))
    overlapping = replace(tables, fees=(*tables.fees, stamp))
    with pytest.raises(InternalError, match="overlap"):
        order_fees(PING_AN, "sell", 100, D("10"), date(2024, 1, 2), tables=overlapping)
    odd = replace(tables, fees=tuple(replace(r, round="nearest") if r is stamp else r for r in tables.fees))
    with pytest.raises(InternalError, match="unknown rounding mode 'nearest'"):
        order_fees(PING_AN, "sell", 100, D("10"), date(2024, 1, 2), tables=odd)


# ---------------------------------------------------------------------------------------------------------
# Break-even price


def test_break_even_cn_large_order() -> None:
    # buy 100 @ 1800.00 on 2024-01-02: fees 45.00 + 1.80 + 6.14 + 3.60 = 56.54; cost 180056.54
    # sell @ 1802.03: amount 180203; fees 45.05 + 90.10 + 1.80 + 6.14 + 3.60 = 146.69;
    #   net 180056.31 < 180056.54
    # sell @ 1802.04: amount 180204; fees 45.05 + 90.10 + 1.80 + 6.14 + 3.60 = 146.69;
    #   net 180057.31 >= 180056.54
    assert break_even_price(MOUTAI, 100, D("1800.00"), date(2024, 1, 2), tick=D("0.01")) == D("1802.04")


def test_break_even_cn_small_order_pays_the_minimum_twice() -> None:
    # buy 100 @ 10.00: fees 5.00 + 0.01 + 0.03 (0.0341) + 0.02 = 5.06; cost 1005.06
    # sell @ 10.10: amount 1010; fees 5.00 + 0.51 (0.505 half-up) + 0.01 + 0.03 + 0.02 = 5.57; net 1004.43
    # sell @ 10.11: amount 1011; fees 5.00 + 0.51 (0.5055) + 0.01 + 0.03 + 0.02 = 5.57; net 1005.43
    assert break_even_price(PING_AN, 100, D("10.00"), date(2024, 1, 2), tick=D("0.01")) == D("10.11")


def test_break_even_hk_on_the_tick_grid() -> None:
    # buy 100 @ 320.40 on 2024-01-02: fees 47.34 (see above); cost 32087.34; tick 0.20
    # sell @ 321.20: fees 9.64 + 33.00 + 1.81 + 0.87 + 0.05 + 2.00 = 47.37; net 32072.63 (short)
    # sell @ 321.40: fees 9.64 + 33.00 + 1.82 + 0.87 + 0.05 + 2.00 = 47.38; net 32092.62
    assert break_even_price(TENCENT, 100, D("320.40"), date(2024, 1, 2), tick=D("0.2")) == D("321.40")


def test_break_even_rejects_a_bad_tick() -> None:
    with pytest.raises(InvalidInput, match="tick '0'"):
        break_even_price(PING_AN, 100, D("10"), date(2024, 1, 2), tick=D("0"))


# ---------------------------------------------------------------------------------------------------------
# Properties

TRADABLE = [MOUTAI, PING_AN, BSE_OLD, BSE_NEW, CSI300_ETF, TENCENT, TRACKER]
prices = st.decimals(min_value=D("0.001"), max_value=D("5000"), places=3)
days = st.dates(min_value=date(2016, 1, 1), max_value=date(2026, 12, 31))
accounts = st.builds(
    FeeSettings,
    st.decimals(min_value=D("0"), max_value=D("0.003"), places=5),
    st.decimals(min_value=D("0"), max_value=D("20"), places=2),
    st.booleans(),
)


@settings(max_examples=200)
@given(
    instrument=st.sampled_from(TRADABLE),
    side=st.sampled_from(["buy", "sell"]),
    qty=st.integers(1, 1_000_000),
    more=st.integers(1, 50_000),
    price=prices,
    day=days,
    account=accounts,
)
def test_total_is_the_sum_of_positive_items_and_rises_with_qty(
    *, instrument: Instrument, side: str, qty: int, more: int, price: Decimal, day: date, account: FeeSettings
) -> None:
    fees = order_fees(instrument, side, qty, price, day, settings=account)  # type: ignore[arg-type]
    bigger = order_fees(instrument, side, qty + more, price, day, settings=account)  # type: ignore[arg-type]
    assert fees.total == sum(amount for _, amount in fees.items)
    assert all(amount > 0 for _, amount in fees.items)
    assert fees.total >= 0
    assert bigger.total >= fees.total


@settings(max_examples=50)
@given(st.sampled_from(TRADABLE), st.integers(1, 20_000), prices, days)
def test_break_even_is_the_least_recovering_price(
    instrument: Instrument,
    qty: int,
    price: Decimal,
    day: date,
) -> None:
    tick = D("0.01")
    found = break_even_price(instrument, qty, price, day, tick=tick)
    cost = qty * price + order_fees(instrument, "buy", qty, price, day).total

    def net(at: Decimal) -> Decimal:
        return qty * at - order_fees(instrument, "sell", qty, at, day).total

    assert found % tick == 0
    assert net(found) >= cost
    assert found - tick <= 0 or net(found - tick) < cost


# ---------------------------------------------------------------------------------------------------------
# CLI


def fees_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert run(["--json", "rules", "fees", *args]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_cli_fees_json(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    order = ["--side", "sell", "--qty", "100", "--price", "1800.00", "--date", "2023-08-25"]
    data = fees_json(capsys, "600519", *order)
    names = ["commission", "stamp_duty", "transfer_fee", "handling_fee", "regulatory_fee"]
    assert list(data["items"]) == names  # type: ignore[call-overload]
    assert data["items"] == {
        "commission": "45.00",
        "stamp_duty": "180.00",
        "transfer_fee": "1.80",
        "handling_fee": "8.77",
        "regulatory_fee": "3.60",
    }
    assert data["total"] == "239.17"
    assert data["currency"] == "CNY"
    assert data["amount"] == "180000.00"
    assert data["unconfirmed"] == ["handling_fee"]
    assert data["symbol"] == "600519.SH"


def test_cli_fees_date_defaults_to_the_clock_in_the_market(
    home: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # --as-of 2023-11-16 stands at 18:00 that day; stamp 32040 x 0.0013 = 41.652 -> 42.00
    order = ["--side", "buy", "--qty", "100", "--price", "320.40"]
    assert run(["--json", "--as-of", "2023-11-16", "rules", "fees", "700", *order]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["date"] == "2023-11-16"
    assert data["items"]["stamp_duty"] == "42.00"
    assert data["total"] == "56.34"


def test_cli_fees_account_options(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["000001.SZ", "--side", "buy", "--qty", "10000", "--price", "12.34", "--date", "2024-01-02"]
    bundled = fees_json(capsys, *args, "--bundled")
    # 30.85 + 1.23 = 32.08 (see test_cn_bundled_exchange_fees_are_inside_the_commission)
    assert bundled["items"] == {"commission": "30.85", "transfer_fee": "1.23"}
    assert bundled["total"] == "32.08"
    cheap = fees_json(capsys, *args, "--commission-rate", "0.0001", "--commission-min", "0")
    # 12.34 + 1.23 + 4.21 + 2.47 = 20.25
    assert cheap["total"] == "20.25"
    us = fees_json(
        capsys,
        "AAPL",
        "--side",
        "buy",
        "--qty",
        "10",
        "--price",
        "190",
        "--date",
        "2024-01-02",
        "--commission-rate",
        "0.001",
        "--commission-min",
        "1",
    )
    assert us["items"] == {"commission": "1.90"}


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--price", "abc", "price 'abc' is not a number"),
        ("--price", "-3", "--price -3 is negative"),
        ("--qty", "10.5", "--qty '10.5' is not a whole number"),
        ("--qty", "0", "quantity '0' is not a positive whole number"),
        ("--commission-rate", "x", "--commission-rate 'x' is not a number"),
        ("--date", "2024-13-01", "'2024-13-01' is not a date"),
    ],
)
def test_cli_fees_bad_values_exit_1_naming_the_value(
    home: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, message: str
) -> None:
    args = {"--qty": "100", "--price": "10.00", "--date": "2024-01-02", option: value}
    flat = [part for pair in args.items() for part in pair]
    assert run(["rules", "fees", "000001.SZ", "--side", "buy", *flat]) == 1
    assert message in capsys.readouterr().err


def test_cli_fees_index_and_human_output(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["rules", "fees", "000001.SH", "--side", "buy", "--qty", "100", "--price", "3000"]) == 1
    assert "indices are not tradable" in capsys.readouterr().err
    order = ["--side", "sell", "--qty", "100", "--price", "320.40", "--date", "2023-11-16"]
    assert run(["rules", "fees", "700", *order]) == 0
    out = capsys.readouterr().out
    assert "stamp_duty" in out
    assert "56.34" in out
    assert "unconfirmed rates" in out
