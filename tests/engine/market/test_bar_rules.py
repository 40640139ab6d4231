"""The vectorised bar checker on small hand-made bars: every limit rule, every status, the half-up boundary."""

from __future__ import annotations

import dataclasses
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stockbench.errors import InvalidInput
from stockbench.market.bar_rules import check_bars, first_session_rules, scan_community_daily
from stockbench.market.instruments import parse_symbol
from stockbench.market.limits import price_limits
from stockbench.market.tables import load_tables

D = Decimal
ANCHOR_DAY = date(2017, 1, 3)


def bar(
    symbol: str,
    day: date,
    ref: float,
    close: float,
    *,
    name: str | None = None,
    high: float | None = None,
    low: float | None = None,
) -> dict[str, Any]:
    """One bar; open is the close, high and low default to the close."""
    return {
        "symbol": symbol,
        "date": day,
        "name": name,
        "open": close,
        "high": close if high is None else high,
        "low": close if low is None else low,
        "close": close,
        "prev_close": ref,
    }


def anchor() -> dict[str, Any]:
    """A bar on an early day, so that symbols first seen later count as new listings."""
    return bar("600000.SH", ANCHOR_DAY, 10.0, 10.0, name="浦发银行")


def check(*bars: dict[str, Any], events: pl.DataFrame | None = None) -> list[dict[str, Any]]:
    return check_bars(pl.DataFrame(list(bars)), events=events).to_dicts()


def summary(row: dict[str, Any]) -> tuple[Any, ...]:
    return row["limit_rule"], row["limit_up"], row["limit_down"], row["status"]


def test_half_up_boundary_on_the_main_board() -> None:
    day = date(2020, 7, 6)
    rows = check(
        bar("000001.SZ", day, 14.25, 15.68, name="平安银行", low=12.83),  # 15.675 rounds half-up to 15.68
        bar("000002.SZ", day, 14.25, 15.69),
        bar("000004.SZ", day, 14.25, 13.0, low=12.82),
        bar("600004.SH", day, 1.15, 1.27),  # 1.265: binary floats make it 1.2649999..., ticks do not
    )
    assert summary(rows[0]) == ("normal", D("15.68"), D("12.83"), "ok")
    assert rows[1]["status"] == "above_limit_up"
    assert rows[2]["status"] == "below_limit_down"
    assert summary(rows[3]) == ("normal", D("1.27"), D("1.04"), "ok")


def test_st_names_including_ex_date_prefixes_take_the_st_limit() -> None:
    day = date(2021, 3, 1)
    rows = check(
        bar("600078.SH", day, 3.33, 3.50, name="*ST 澄星"),  # 3.4965 -> 3.50; 3.1635 -> 3.16
        bar("600209.SH", day, 4.30, 4.52, name="XDST罗顿"),  # ex-date prefix before ST: still 5%, 4.515 -> 4.52
        bar("600225.SH", day, 4.30, 4.53, name="XR*ST康"),
    )
    assert summary(rows[0]) == ("st", D("3.50"), D("3.16"), "ok")
    assert summary(rows[1]) == ("st", D("4.52"), D("4.09"), "ok")
    assert rows[2]["limit_rule"] == "st" and rows[2]["status"] == "above_limit_up"
    later = check(bar("600226.SH", date(2026, 7, 6), 4.30, 4.73, name="ST长油"))  # 10% from 2026-07-06
    assert summary(later[0]) == ("st", D("4.73"), D("3.87"), "ok")


def test_unreformed_s_shares_keep_five_percent() -> None:
    day = date(2021, 3, 1)
    rows = check(
        bar("600182.SH", day, 10.0, 10.5, name="S佳通"),
        bar("600183.SH", day, 10.0, 10.5, name="SST佳通"),
        bar("600185.SH", day, 10.0, 10.5, name="ST地矿"),  # starts with S, but only ST
    )
    assert [summary(r) for r in rows] == [
        ("unreformed", D("10.50"), D("9.50"), "ok"),
        ("unreformed", D("10.50"), D("9.50"), "ok"),
        ("st", D("10.50"), D("9.50"), "ok"),
    ]
    later = check(
        bar("600184.SH", date(2026, 7, 6), 10.0, 10.51, name="S*ST前锋"),  # S keeps 5% when ST moves to 10%
        bar("600186.SH", date(2026, 7, 6), 10.0, 10.51, name="*ST前锋"),
    )
    assert [(r["limit_rule"], r["status"]) for r in later] == [("unreformed", "above_limit_up"), ("st", "ok")]


def test_chinext_limit_widens_on_2020_08_24() -> None:
    rows = check(
        bar("300750.SZ", date(2020, 8, 21), 100.0, 110.0, high=110.01),
        bar("300750.SZ", date(2020, 8, 24), 110.0, 132.0),
    )
    assert summary(rows[0]) == ("normal", D("110.00"), D("90.00"), "above_limit_up")
    assert summary(rows[1]) == ("normal", D("132.00"), D("88.00"), "ok")


def test_registration_listings_trade_without_limit_for_five_sessions() -> None:
    days = [date(2021, 6, 28), date(2021, 6, 29), date(2021, 6, 30), date(2021, 7, 1), date(2021, 7, 2)]
    first_five = [
        bar("688601.SH", day, 10.0, 30.0, name="N力芯微" if i == 0 else "力芯微") for i, day in enumerate(days)
    ]
    rows = check(anchor(), *first_five, bar("688601.SH", date(2021, 7, 5), 10.0, 12.01))
    assert [r["listing_session"] for r in rows] == [None, 1, 2, 3, 4, 5, 6]
    assert {summary(r) for r in rows[1:6]} == {("new_listing", None, None, "ok")}
    assert summary(rows[6]) == ("normal", D("12.00"), D("8.00"), "above_limit_up")


def test_pre_registration_first_session_band() -> None:
    rows = check(
        anchor(),
        bar("603259.SH", date(2018, 5, 8), 21.60, 31.10, name="N药明"),  # 21.60 x 1.44 = 31.104; x 0.64 = 13.824
        bar("603259.SH", date(2018, 5, 9), 31.10, 34.21, name="药明康德"),
    )
    assert rows[1]["listing_session"] == 1
    assert summary(rows[1]) == ("first_day_band", D("31.10"), D("13.82"), "ok")
    assert summary(rows[2]) == ("normal", D("34.21"), D("27.99"), "ok")


def test_a_listing_prefix_marks_a_listing_on_the_first_day_of_the_data() -> None:
    rows = check(
        bar("601375.SH", ANCHOR_DAY, 4.00, 5.76, name="N中原"),
        bar("603186.SH", ANCHOR_DAY, 4.00, 5.76, name="华正新材"),  # present on the first day: not new
    )
    assert summary(rows[0]) == ("first_day_band", D("5.76"), D("2.56"), "ok")
    assert summary(rows[1]) == ("normal", D("4.40"), D("3.60"), "above_limit_up")


def test_further_issue_first_session_has_no_limit() -> None:
    rows = check(
        bar("601899.SH", date(2019, 11, 28), 3.60, 3.64, name="紫金矿业"),
        bar("601899.SH", date(2019, 11, 29), 3.64, 4.50, name="N紫金"),
        bar("601899.SH", date(2019, 12, 2), 4.50, 4.96, name="紫金矿业"),
    )
    assert [summary(r) for r in rows] == [
        ("normal", D("3.96"), D("3.24"), "ok"),
        ("further_issue", None, None, "ok"),
        ("normal", D("4.95"), D("4.05"), "above_limit_up"),
    ]


def test_resumed_listing_from_the_name_or_an_event() -> None:
    resumed = [
        bar("600610.SH", date(2019, 4, 29), 3.10, 3.26, name="*ST毅达"),
        bar("600610.SH", date(2020, 8, 17), 3.26, 4.89, name="NST毅达", high=7.04),
        bar("000792.SZ", date(2019, 4, 29), 9.04, 8.84, name="*ST盐湖"),
        bar("000792.SZ", date(2021, 8, 10), 8.84, 35.90, name="盐湖股份", high=43.90, low=32.41),
    ]
    assert [r["status"] for r in check(*resumed)] == ["ok", "ok", "ok", "above_limit_up"]
    event = pl.DataFrame({"symbol": ["000792.SZ"], "date": [date(2021, 8, 10)], "event": ["resumed_listing"]})
    rows = check(*resumed, events=event)
    assert summary(rows[1]) == ("resumed_listing", None, None, "ok")
    assert summary(rows[3]) == ("resumed_listing", None, None, "ok")


def test_relisting_event_on_a_first_bar_is_not_a_new_listing() -> None:
    relisted = bar("601975.SH", date(2019, 1, 8), 4.31, 3.31, name="ST长油", high=3.38, low=2.66)
    assert summary(check(anchor(), relisted)[1]) == ("first_day_band", D("6.21"), D("2.76"), "below_limit_down")
    event = pl.DataFrame({"symbol": ["601975.SH"], "date": [date(2019, 1, 8)], "event": ["relisting"]})
    row = check(anchor(), relisted, events=event)[1]
    assert row["listing_session"] is None
    assert summary(row) == ("relisting", None, None, "ok")


def test_delisting_period_first_session_only_under_the_2020_rules() -> None:
    events = pl.DataFrame(
        {
            "symbol": ["000613.SZ", "000511.SZ"],
            "date": [date(2022, 6, 8), date(2018, 6, 5)],
            "event": ["delisting_period", "delisting_period"],
        }
    )
    rows = check(
        bar("000613.SZ", date(2022, 6, 8), 1.00, 0.50, name="东海A退"),
        bar("000511.SZ", date(2018, 6, 5), 1.00, 0.50, name="烯碳退"),
        events=events,
    )
    assert summary(rows[0]) == ("delisting_period", None, None, "ok")
    assert summary(rows[1]) == ("normal", D("1.10"), D("0.90"), "below_limit_down")


def test_the_session_after_a_split_share_reform_has_no_limit() -> None:
    rows = check(
        bar("600733.SH", date(2018, 2, 1), 50.18, 52.69, name="S*ST前锋"),
        bar("600733.SH", date(2018, 9, 27), 15.05, 9.50, name="北汽蓝谷", high=14.66),  # the name lost its S
        bar("600733.SH", date(2018, 9, 28), 9.50, 10.45, name="北汽蓝谷", low=9.01),
        bar("600182.SH", date(2018, 2, 1), 10.0, 10.5, name="S佳通"),
        bar("600182.SH", date(2018, 9, 27), 10.5, 10.4, name="XDS佳通"),  # an ex-date prefix is no reform
    )
    assert [(r["limit_rule"], r["status"]) for r in rows] == [
        ("unreformed", "ok"),
        ("reform_completed", "ok"),
        ("normal", "ok"),
        ("unreformed", "ok"),
        ("unreformed", "ok"),
    ]


def test_price_statuses() -> None:
    day = date(2021, 3, 1)
    nothing = bar("000005.SZ", day, 10.0, 10.0)
    rows = check(
        {**nothing, "close": None},
        bar("000006.SZ", day, 10.0, 0.0),
        bar("000007.SZ", day, 10.0, 10.5, high=10.4),
        bar("000008.SZ", day, 10.0, 10.005),
        bar("510300.SH", day, 4.567, 5.024, low=4.110),  # funds move in 0.001: 5.0237 -> 5.024; 4.1103 -> 4.110
        bar("510500.SH", day, 4.567, 5.025),
    )
    assert [r["status"] for r in rows] == [
        "bad_price",
        "bad_price",
        "ohlc_inconsistent",
        "off_tick",
        "ok",
        "above_limit_up",
    ]
    assert (rows[4]["limit_up"], rows[4]["limit_down"]) == (D("5.024"), D("4.110"))


def test_instruments_without_a_rule() -> None:
    rows = check(
        bar("00700.HK", date(2021, 3, 1), 600.0, 900.0),
        bar("000300.SH", date(2021, 3, 1), 5000.0, 6000.0),
        bar("688001.SH", date(2019, 7, 1), 10.0, 20.0),  # before the STAR rules (2019-07-22)
    )
    assert [summary(r) for r in rows] == [
        ("none", None, None, "unchecked"),
        ("none", None, None, "unchecked"),
        ("no_rule", None, None, "no_rule"),
    ]


def test_a_list_date_decides_a_new_listing_for_a_single_symbol() -> None:
    listed = pl.DataFrame([bar("688981.SH", date(2020, 7, 16), 27.46, 58.0)])
    assert check_bars(listed)["status"].to_list() == ["above_limit_up"]
    rows = check_bars(listed.with_columns(list_date=pl.lit(date(2020, 7, 16)))).to_dicts()
    assert summary(rows[0]) == ("new_listing", None, None, "ok")
    assert rows[0]["listing_session"] == 1


def test_inputs_lazy_decimal_nameless_and_kept_in_order() -> None:
    frame = pl.DataFrame(
        [bar("600519.SH", date(2021, 3, 1), 10.0, 11.0), bar("000001.SZ", date(2021, 3, 1), 10.0, 11.01)]
    ).drop("name")
    decimals = frame.with_columns(pl.col("open", "high", "low", "close", "prev_close").cast(pl.Decimal(10, 2)))
    result = check_bars(decimals.lazy())
    assert result["symbol"].to_list() == ["600519.SH", "000001.SZ"]
    assert result["status"].to_list() == ["ok", "above_limit_up"]
    assert "name" not in result.columns


@pytest.mark.parametrize(
    ("frame", "message"),
    [
        (pl.DataFrame({"symbol": ["600519.SH"]}), "lack the column"),
        (pl.DataFrame([bar("sh600519", date(2021, 3, 1), 10.0, 10.0)]), "not canonical"),
        (pl.DataFrame([bar("60051.SH", date(2021, 3, 1), 10.0, 10.0)]), "6 digits expected"),
        (pl.DataFrame([bar("600519.SH", date(2021, 3, 1), 10.0, 10.0)] * 2), "share a symbol and date"),
    ],
)
def test_malformed_bars_are_refused(frame: pl.DataFrame, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        check_bars(frame)


def test_unknown_events_are_refused() -> None:
    events = pl.DataFrame({"symbol": ["600519.SH"], "date": [date(2021, 3, 1)], "event": ["ipo"]})
    with pytest.raises(InvalidInput, match="unknown listing event"):
        check(bar("600519.SH", date(2021, 3, 1), 10.0, 10.0), events=events)


def test_first_session_rules_come_from_the_rules_file() -> None:
    tables = load_tables()
    assert {r.event for r in first_session_rules(tables)} == {
        "further_issue",
        "resumed_listing",
        "relisting",
        "delisting_period",
        "reform_completed",
    }
    in_memory = dataclasses.replace(tables, first_session_no_limit=())
    assert first_session_rules(in_memory) == ()
    issue = pl.DataFrame(
        [
            bar("601899.SH", date(2019, 11, 28), 3.60, 3.64, name="紫金矿业"),
            bar("601899.SH", date(2019, 11, 29), 3.64, 4.50, name="N紫金"),
        ]
    )
    assert check_bars(issue)["limit_rule"].to_list() == ["normal", "further_issue"]
    assert check_bars(issue, in_memory)["limit_rule"].to_list() == ["normal", "normal"]


def test_scan_community_daily(tmp_path: Path) -> None:
    path = tmp_path / "daily.parquet"
    pl.DataFrame(
        {
            "code": ["sh600519", "sz000001", "bj430047"],
            "name": ["贵州茅台", "平安银行", "诺思兰德"],
            "date": [date(2021, 11, 15)] * 3,
            "open": [1.0] * 3,
            "high": [1.0] * 3,
            "low": [1.0] * 3,
            "close": [1.0] * 3,
            "prev_close": [1.0] * 3,
            "volume": [1.0] * 3,
        }
    ).write_parquet(path)
    bars = scan_community_daily(path).collect()
    assert bars.columns == ["symbol", "date", "name", "open", "high", "low", "close", "prev_close"]
    assert bars["symbol"].to_list() == ["600519.SH", "000001.SZ", "430047.BJ"]


SYMBOLS = ["600519.SH", "300750.SZ", "688981.SH", "832278.BJ", "600078.SH", "510300.SH"]
rows_strategy = st.lists(
    st.tuples(
        st.sampled_from(SYMBOLS),
        st.dates(min_value=date(2020, 7, 27), max_value=date(2026, 12, 31)),
        st.decimals(min_value=D("0.10"), max_value=D("3000"), places=2),
        st.booleans(),
    ),
    min_size=1,
    max_size=30,
    unique_by=lambda row: (row[0], row[1]),
)


@settings(max_examples=15, deadline=None)
@given(rows=rows_strategy)
def test_limits_agree_with_the_scalar_rules(rows: list[tuple[str, date, Decimal, bool]]) -> None:
    listed_long_ago = date(1990, 1, 1)  # so that no symbol counts as a new listing
    frame = pl.DataFrame(
        [
            {**bar(s, day, float(ref), float(ref), name="*ST测试" if flag else "测试"), "list_date": listed_long_ago}
            for s, day, ref, flag in rows
        ]
    )
    result = check_bars(frame)
    for (symbol, day, ref, flag), row in zip(rows, result.to_dicts(), strict=True):
        expected = price_limits(parse_symbol(symbol), ref, day, st=flag)
        assert (row["limit_up"], row["limit_down"]) == (expected.up, expected.down), (symbol, day, ref, flag)
