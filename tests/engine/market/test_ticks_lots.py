from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stockbench.errors import InvalidInput
from stockbench.market.instruments import parse_symbol
from stockbench.market.lots import board_lot, check_quantity
from stockbench.market.ticks import is_valid_tick, round_to_tick, tick_size

D = Decimal
BEFORE, AFTER = date(2025, 8, 1), date(2025, 8, 4)
HK = parse_symbol("00700.HK")
HK_ETF = parse_symbol("02800.HK").with_data(security_type=parse_symbol("510300").security_type)


def codes(problems: list) -> list[str]:  # type: ignore[type-arg]
    return [p.code for p in problems]


def test_a_share_ticks() -> None:
    assert tick_size(parse_symbol("600519"), D("1700"), AFTER) == D("0.01")
    assert tick_size(parse_symbol("510300"), D("4.123"), AFTER) == D("0.001")
    assert is_valid_tick(parse_symbol("510300"), D("4.123"), AFTER)
    assert not is_valid_tick(parse_symbol("600519"), D("1700.005"), AFTER)
    with pytest.raises(InvalidInput, match="index"):
        tick_size(parse_symbol("000300.SH"), D("4000"), AFTER)


@pytest.mark.parametrize(
    ("price", "before", "after"),
    [
        ("0.01", "0.001", "0.001"),
        ("0.25", "0.001", "0.001"),  # the first band includes both its bounds
        ("0.255", "0.005", "0.005"),
        ("0.50", "0.005", "0.005"),
        ("10.00", "0.010", "0.010"),
        ("10.02", "0.020", "0.010"),
        ("20.00", "0.020", "0.010"),
        ("20.05", "0.050", "0.020"),
        ("50.00", "0.050", "0.020"),
        ("50.05", "0.050", "0.050"),
        ("100.00", "0.050", "0.050"),
        ("100.1", "0.100", "0.100"),
        ("200.2", "0.200", "0.200"),
        ("500.5", "0.500", "0.500"),
        ("1001", "1.000", "1.000"),
        ("2002", "2.000", "2.000"),
        ("5005", "5.000", "5.000"),
        ("9995", "5.000", "5.000"),
    ],
)
def test_hk_spread_table_before_and_after_2025_08_04(price: str, before: str, after: str) -> None:
    assert tick_size(HK, D(price), BEFORE) == D(before)
    assert tick_size(HK, D(price), AFTER) == D(after)
    assert tick_size(HK_ETF, D(price), AFTER) == D(before)  # exchange-traded products keep the old table


def test_hk_prices_outside_the_table() -> None:
    with pytest.raises(InvalidInput, match="outside the Hong Kong spread table"):
        tick_size(HK, D("10000"), AFTER)


def test_rounding_modes() -> None:
    moutai = parse_symbol("600519")
    assert round_to_tick(moutai, D("1700.004"), AFTER, "down") == D("1700.00")
    assert round_to_tick(moutai, D("1700.004"), AFTER, "up") == D("1700.01")
    assert round_to_tick(moutai, D("1700.005"), AFTER, "nearest") == D("1700.01")
    assert round_to_tick(moutai, D("1700.0049"), AFTER, "nearest") == D("1700.00")
    # Across a Hong Kong band edge (pre-2025: 0.01 below 10, 0.02 from 10 to 20).
    assert round_to_tick(HK, D("10.005"), BEFORE, "up") == D("10.02")
    assert round_to_tick(HK, D("10.005"), BEFORE, "down") == D("10.00")
    assert round_to_tick(HK, D("10.011"), BEFORE, "nearest") == D("10.02")
    assert round_to_tick(HK, D("10.009"), BEFORE, "nearest") == D("10.00")


prices = st.decimals(min_value=D("0.01"), max_value=D("9995"), places=4, allow_nan=False, allow_infinity=False)
symbols = st.sampled_from(["600519", "688981", "510300", "00700.HK", "AAPL.US", "920118"])
days = st.sampled_from([BEFORE, AFTER, date(2019, 1, 2)])


@given(symbol=symbols, price=prices, day=days, mode=st.sampled_from(["up", "down", "nearest"]))
def test_a_rounded_price_is_always_a_valid_tick(symbol: str, price: Decimal, day: date, mode: str) -> None:
    instrument = parse_symbol(symbol)
    if instrument.market == "HK" and price < D("0.02"):
        price = D("0.02")
    rounded = round_to_tick(instrument, price, day, mode)  # type: ignore[arg-type]
    assert is_valid_tick(instrument, rounded, day)
    assert abs(rounded - price) <= tick_size(instrument, price, day) * 2


# ---- lots --------------------------------------------------------------------------------------


def test_main_board_buys_in_hundreds() -> None:
    moutai = parse_symbol("600519")
    assert check_quantity(moutai, "buy", 100) == []
    assert check_quantity(moutai, "buy", 300) == []
    [problem] = check_quantity(moutai, "buy", 150)
    assert problem.code == "lot_multiple"
    assert problem.message == "a buy of 600519.SH must be a multiple of 100 shares, not 150"
    assert problem.fix == "buy 100 or 200"
    assert codes(check_quantity(moutai, "buy", 50)) == ["lot_minimum"]
    assert codes(check_quantity(moutai, "buy", 0)) == ["qty_not_positive"]


@pytest.mark.parametrize(("qty", "valid"), [(150, True), (100, True), (50, True), (30, False), (120, False)])
def test_the_market_facts_odd_lot_sell_example(qty: int, valid: bool) -> None:
    problems = check_quantity(parse_symbol("000001.SZ"), "sell", qty, holding=150)
    assert (problems == []) is valid
    if not valid:
        assert codes(problems) == ["odd_lot_sell"]
        assert problems[0].fix == "sell a multiple of 100, or include the whole odd remainder of 50 (e.g. 50)"


def test_selling_more_than_the_holding() -> None:
    problems = check_quantity(parse_symbol("600519"), "sell", 300, holding=200)
    assert codes(problems) == ["exceeds_holding"]
    assert problems[0].message == "selling 300 exceeds the sellable holding of 200"


def test_star_lots() -> None:
    smic = parse_symbol("688981")
    assert board_lot(smic) == (200, 1)
    assert check_quantity(smic, "buy", 200) == []
    assert check_quantity(smic, "buy", 201) == []
    assert check_quantity(smic, "buy", 357) == []
    assert codes(check_quantity(smic, "buy", 199)) == ["lot_minimum"]
    assert codes(check_quantity(smic, "buy", 100)) == ["lot_minimum"]
    assert check_quantity(smic, "sell", 150, holding=150) == []  # the whole holding below 200
    assert check_quantity(smic, "sell", 200, holding=250) == []
    assert codes(check_quantity(smic, "sell", 100, holding=250)) == ["lot_minimum"]


def test_beijing_lots() -> None:
    bj = parse_symbol("920118")
    assert board_lot(bj) == (100, 1)
    assert check_quantity(bj, "buy", 101) == []
    assert codes(check_quantity(bj, "buy", 99)) == ["lot_minimum"]
    assert check_quantity(bj, "sell", 60, holding=60) == []
    assert codes(check_quantity(bj, "sell", 60, holding=160)) == ["lot_minimum"]


@pytest.mark.parametrize(("symbol", "lot"), [("00700.HK", 100), ("09988.HK", 100), ("00005.HK", 400)])
def test_hk_lots_come_from_instrument_data(symbol: str, lot: int) -> None:
    bare = parse_symbol(symbol)
    assert codes(check_quantity(bare, "buy", lot)) == ["lot_unknown"]
    known = bare.with_data(board_lot=lot)
    assert check_quantity(known, "buy", lot * 3) == []
    [odd] = check_quantity(known, "buy", lot + 10)
    assert odd.code == "hk_odd_lot"
    assert "odd-lot market" in odd.message
    assert check_quantity(known, "sell", lot, holding=lot * 2) == []


def test_indices_cannot_be_traded() -> None:
    assert codes(check_quantity(parse_symbol("000300.SH"), "buy", 100)) == ["not_tradable"]


lot_symbols = st.sampled_from(["600519", "300750", "688981", "920118", "510300"])


@st.composite
def valid_buys(draw: st.DrawFn, symbol: str) -> int:
    minimum, step = board_lot(parse_symbol(symbol))  # type: ignore[misc]
    return minimum + step * draw(st.integers(min_value=0, max_value=500))


@given(data=st.data(), symbol=lot_symbols)
def test_a_valid_buy_plus_a_valid_holding_keeps_sells_valid(data: st.DataObject, symbol: str) -> None:
    instrument = parse_symbol(symbol)
    held = data.draw(st.one_of(st.just(0), valid_buys(symbol)))
    bought = data.draw(valid_buys(symbol))
    holding = held + bought
    assert check_quantity(instrument, "buy", bought) == []
    assert check_quantity(instrument, "sell", holding, holding=holding) == []  # the whole holding
    assert check_quantity(instrument, "sell", bought, holding=holding) == []  # just what was bought
