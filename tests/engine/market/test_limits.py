from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stockbench.errors import InvalidInput
from stockbench.market.instruments import parse_symbol
from stockbench.market.limits import cage_note, limit_pct, price_limits
from stockbench.market.order_rules import check_order
from stockbench.market.ticks import is_valid_tick

D = Decimal


def test_the_market_facts_example() -> None:
    limits = price_limits(parse_symbol("000001.SZ"), D("14.25"), date(2020, 7, 6))
    assert (limits.up, limits.down) == (D("15.68"), D("12.83"))  # 15.675 rounds half-up to 15.68


@pytest.mark.parametrize(
    ("symbol", "day", "st", "pct"),
    [
        ("600519", date(2021, 1, 4), False, "0.10"),
        ("600078", date(2021, 1, 4), True, "0.05"),
        ("600078", date(2026, 7, 3), True, "0.05"),
        ("600078", date(2026, 7, 6), True, "0.10"),
        ("300750", date(2020, 8, 21), False, "0.10"),
        ("300750", date(2020, 8, 24), False, "0.20"),
        ("300001", date(2020, 8, 21), True, "0.05"),
        ("300001", date(2020, 8, 24), True, "0.20"),
        ("688981", date(2021, 1, 4), False, "0.20"),
        ("688981", date(2021, 1, 4), True, "0.20"),
        ("832278", date(2022, 1, 4), False, "0.30"),
        ("920118", date(2026, 1, 5), False, "0.30"),
        ("510300", date(2021, 1, 4), False, "0.10"),
    ],
)
def test_limit_percentages_by_board_status_and_date(symbol: str, day: date, st: bool, pct: str) -> None:
    found = limit_pct(parse_symbol(symbol), day, st=st)
    assert found is not None
    assert found[0] == D(pct)


def test_no_limits_in_hong_kong_or_for_indices() -> None:
    assert price_limits(parse_symbol("00700.HK"), D("500"), date(2025, 1, 2)).up is None
    assert price_limits(parse_symbol("000300.SH"), D("4000"), date(2025, 1, 2)).up is None


def test_st_limit_five_percent() -> None:
    limits = price_limits(parse_symbol("600078"), D("3.33"), date(2021, 3, 1), st=True)
    assert (limits.up, limits.down) == (D("3.50"), D("3.16"))  # 3.4965 -> 3.50; 3.1635 -> 3.16


def test_fund_limits_use_the_fund_tick() -> None:
    limits = price_limits(parse_symbol("510300"), D("4.567"), date(2021, 3, 1))
    assert (limits.up, limits.down) == (D("5.024"), D("4.110"))  # 5.0237 -> 5.024; 4.1103 -> 4.110


@pytest.mark.parametrize(
    ("symbol", "day", "session", "limited"),
    [
        ("688981", date(2020, 7, 16), 1, False),
        ("688981", date(2020, 7, 22), 5, False),
        ("688981", date(2020, 7, 23), 6, True),
        ("301001", date(2020, 8, 24), 3, False),  # ChiNext registration listings
        ("603000", date(2023, 4, 10), 2, False),  # main-board registration from 2023-04-10
        ("920118", date(2024, 1, 2), 1, False),  # Beijing: first session only
        ("920118", date(2024, 1, 3), 2, True),
    ],
)
def test_new_listings_trade_without_limit_for_their_first_sessions(
    symbol: str, day: date, session: int, limited: bool
) -> None:
    assert price_limits(parse_symbol(symbol), D("10"), day, listing_session=session).limited is limited


def test_pre_registration_first_day_band() -> None:
    limits = price_limits(parse_symbol("603259"), D("21.60"), date(2018, 5, 8), listing_session=1)
    assert (limits.up, limits.down) == (D("31.10"), D("13.82"))  # 21.60 x 1.44 = 31.104; x 0.64 = 13.824
    assert price_limits(parse_symbol("603259"), D("31.10"), date(2018, 5, 9), listing_session=2).up == D("34.21")


def test_price_cage_main_board_since_2023_08_28() -> None:
    moutai = parse_symbol("600519")
    # Reference 10.00: 102% = 10.20 and ref + 10 ticks = 10.10, so buys above 10.20 wait.
    ref = D("10.00")
    assert cage_note(moutai, "buy", D("10.20"), ref, date(2023, 8, 28)) is None
    note = cage_note(moutai, "buy", D("10.21"), ref, date(2023, 8, 28))
    assert note is not None and note.code == "price_cage" and note.fix == "buy at 10.20 or lower to be matchable now"
    assert cage_note(moutai, "buy", D("10.21"), ref, date(2023, 8, 25)) is None  # no cage before
    # A low price: ref 2.00 -> 102% = 2.04, ref + 10 ticks = 2.10; the larger bound applies.
    assert cage_note(moutai, "buy", D("2.10"), D("2.00"), date(2024, 1, 2)) is None
    assert cage_note(moutai, "buy", D("2.11"), D("2.00"), date(2024, 1, 2)) is not None
    assert cage_note(moutai, "sell", D("1.90"), D("2.00"), date(2024, 1, 2)) is None
    sell = cage_note(moutai, "sell", D("1.89"), D("2.00"), date(2024, 1, 2))
    assert sell is not None and sell.fix == "sell at 1.90 or higher to be matchable now"


def test_check_order_collects_every_problem() -> None:
    result = check_order(parse_symbol("000001.SZ"), "buy", 150, D("15.695"), date(2020, 7, 6), ref=D("14.25"))
    assert [p.code for p in result.problems] == ["lot_multiple", "price_off_tick", "above_limit_up"]
    assert result.problems[1].fix == "use 15.69 or 15.70"
    assert result.problems[2].fix == "buy at 15.68 or lower"
    assert not result.valid
    ok = check_order(parse_symbol("000001.SZ"), "buy", 200, D("15.68"), date(2020, 7, 6), ref=D("14.25"))
    assert ok.valid and ok.problems == ()


ref_prices = st.decimals(min_value=D("0.10"), max_value=D("3000"), places=2)


@given(
    symbol=st.sampled_from(["600519", "300750", "688981", "832278", "600078"]),
    ref=ref_prices,
    day=st.dates(min_value=date(2020, 7, 27), max_value=date(2026, 12, 31)),
    st_flag=st.booleans(),
)
def test_limit_prices_are_valid_ticks(symbol: str, ref: Decimal, day: date, st_flag: bool) -> None:
    instrument = parse_symbol(symbol)
    limits = price_limits(instrument, ref, day, st=st_flag)
    assert limits.up is not None and limits.down is not None
    assert is_valid_tick(instrument, limits.up, day)
    assert limits.down == 0 or is_valid_tick(instrument, limits.down, day)
    assert limits.down <= ref <= limits.up


def test_unreformed_shares_keep_five_percent_even_without_st() -> None:
    found = limit_pct(parse_symbol("600182"), date(2023, 6, 1), unreformed=True)
    assert found is not None and found[0] == D("0.05")
    limits = price_limits(parse_symbol("600182"), D("10.00"), date(2023, 6, 1), st=True, unreformed=True)
    assert (limits.up, limits.down) == (D("10.50"), D("9.50"))


def test_first_session_events_have_no_limit() -> None:
    found = price_limits(parse_symbol("601975"), D("3.00"), date(2019, 1, 8), first_session_event="relisting")
    assert found.up is None and "relisting" in found.reason
    with pytest.raises(InvalidInput, match="not a first-session event"):
        price_limits(parse_symbol("601975"), D("3.00"), date(2019, 1, 8), first_session_event="delisting_period")


def test_listing_rules_are_those_of_the_listing_date() -> None:
    # Listed on 2023-03-31 under the old main-board rules: its session 3 after 2023-04-10 is still limited.
    limited = price_limits(
        parse_symbol("603000"), D("10"), date(2023, 4, 12), listing_session=3, listed=date(2023, 3, 31)
    )
    assert limited.limited
    free = price_limits(parse_symbol("603000"), D("10"), date(2023, 4, 12), listing_session=3, listed=date(2023, 4, 10))
    assert not free.limited
