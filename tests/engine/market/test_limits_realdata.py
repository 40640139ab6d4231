"""Every bar of the real 2017-2022 A-share data set against the exchanges' daily price limits (needs ../shared/data).

Of the 4,495,920 rows of ashare_daily_2017_2022.parquet, 4,494,056 (99.9585%) lie within the ordinary limit:
prev_close x (1 +/- the board's percentage, or the ST or S-share percentage read from that day's name), rounded
half-up to the tick, on that date. Each of the other 1,864 rows is explained by a named rule of
resources/market_rules.toml, or is a listed data error:

    first_day_band    983  first session of a main-board or (before 2020-08-24) ChiNext listing: +44% / -36%
                           of the offer price instead of +/-10% (979 of them carry the "N" prefix that day)
    new_listing       868  first five sessions of a STAR or registration-system ChiNext listing, or the first
                           session of a Beijing listing: no limit
    resumed_listing     8  first session after a suspension of listing ends (恢复上市): no limit; three show
                           it in the name (NST...), five are Shenzhen stocks named in LISTING_EVENTS
    relisting           3  first session of a relisting after delisting (重新上市): no limit
    reform_completed    1  first session after the split-share reform, when the name loses its "S": no limit
    data error          1  KNOWN_BAD: the name still carries *ST on the day its *ST was removed

How "new listing" is decided: a symbol whose first bar comes after the data set's first day (2017-01-03), or
whose first bar's name carries a listing prefix (N中原 listed on 2017-01-03 itself). That also counts as new
symbols whose first bar lacks a listing prefix: 211 on Shanghai and Shenzhen, mostly stocks halted on
2017-01-03, and the 68 Beijing stocks transferred from the NEEQ select layer on 2021-11-15. Only six of those
first bars need the listing rule, and all six are real listings whose name lacks the "N" that day: IPOs
605138.SH, 688280.SH, 002989.SZ and 300965.SZ (whose listing day is missing from the data), and the
merger listings 601868.SH and 001965.SZ. The others lie within their ordinary limits, so the wider rule
hides nothing here; it does make the rule totals below overstate real listings.

Ex-date rows (XD/XR/DR names, 6,039) need no class: prev_close is already the exchange's ex-rights reference.
"""

from __future__ import annotations

import dataclasses
import functools
from datetime import date
from pathlib import Path

import polars as pl
import pytest

from stockbench.market.bar_rules import check_bars, scan_community_daily
from stockbench.market.tables import load_tables

pytestmark = pytest.mark.realdata

DATA_FILE = "ashare_daily_2017_2022.parquet"
ROWS = 4_495_920

# First sessions that the names in the data do not mark (Shenzhen shows no "N"; relisted names carry no
# prefix). Each is the first bar after a long gap (or the symbol's first bar) with a move far outside the
# ordinary limit. Confirmed by the companies' notices where marked; the others by the bars and the name change.
LISTING_EVENTS = [
    ("000155.SZ", date(2017, 12, 18), "resumed_listing"),  # 川化股份 (formerly *ST川化): first bar, low -28.9%
    ("000629.SZ", date(2018, 8, 24), "resumed_listing"),  # *ST钒钛 -> 攀钢钒钛 after 16 months: high +43.6%
    ("000950.SZ", date(2018, 8, 28), "resumed_listing"),  # *ST建峰 -> 重药控股; notice: 恢复上市公告书 2018-08-20
    ("000995.SZ", date(2020, 12, 16), "resumed_listing"),  # *ST皇台 -> 皇台酒业; notice: suspended 2019-05-13
    ("000792.SZ", date(2021, 8, 10), "resumed_listing"),  # *ST盐湖 -> 盐湖股份 after 15 months: high +396.6%
    ("601975.SH", date(2019, 1, 8), "relisting"),  # 长航油运, delisted 2014, relisted as ST长油 (招商南油)
    ("601399.SH", date(2020, 6, 8), "relisting"),  # 二重重装, delisted 2015, relisted as 国机重装 (ST国重装)
    ("001267.SZ", date(2021, 11, 17), "relisting"),  # 华信股份, delisted 2005, relisted as 汇绿生态; notice
]

# Rows no exchange rule explains: data errors, listed one by one.
# 华东科技's *ST was removed from 2021-04-02 (suspended 2021-04-01 for the change, as Shenzhen does; the limit
# becomes 10% that day), but the data set still names the stock *ST东科 on 2021-04-02 and 华东科技 only from
# 2021-04-06. The bar (open 3.15 = +6.4%) lies within the 10% limit (3.26 / 2.66).
KNOWN_BAD = [
    ("000727.SZ", date(2021, 4, 2), "*ST东科", 3.15, 3.15, 2.98, 3.03, 2.96, "above_limit_up"),
]

EXPLAINED = {
    "first_day_band": 983,
    "new_listing": 868,
    "resumed_listing": 8,
    "relisting": 3,
    "reform_completed": 1,
}
RULE_TOTALS = {
    "normal": 4_344_095,
    "st": 146_157,
    "unreformed": 1_158,
    "first_day_band": 1_188,
    "new_listing": 3_307,
    "further_issue": 3,
    "resumed_listing": 8,
    "relisting": 3,
    "reform_completed": 1,
}
BAD_COLUMNS = ["symbol", "date", "name", "open", "high", "low", "close", "prev_close", "status"]


@dataclasses.dataclass(frozen=True)
class Checked:
    """What the tests need from the two passes over the data set, kept small."""

    rows: int
    failing: pl.DataFrame  # rows whose status is not "ok" under the full rules
    inconsistent: pl.DataFrame  # rows outside the ordinary limit, with their limit_rule under the full rules
    rule_totals: dict[str, int]
    ex_date_statuses: dict[str, int]


@functools.cache
def checked(path: Path) -> Checked:
    bars = scan_community_daily(path).collect()
    events = pl.DataFrame(LISTING_EVENTS, schema=["symbol", "date", "event"], orient="row")
    full = check_bars(bars, events=events)
    rows = full.height
    failing = full.filter(pl.col("status") != "ok").select(BAD_COLUMNS)
    rules = full.select("limit_rule")
    rule_totals = dict(rules.group_by("limit_rule").len().iter_rows())
    ex_dates = full.filter(pl.col("name").str.contains("^(?:XD|XR|DR)"))
    ex_date_statuses = dict(ex_dates.group_by("status").len().iter_rows())
    del full  # one full-size result at a time
    # The ordinary rule alone: no listing sessions, no first-session events (tables built in memory).
    ordinary = dataclasses.replace(
        load_tables(), listing_no_limit=(), listing_first_day_band=(), first_session_no_limit=()
    )
    outside = check_bars(bars, ordinary)["status"] != "ok"
    inconsistent = bars.select("symbol", "date").with_columns(rules).filter(outside)
    return Checked(rows, failing, inconsistent, rule_totals, ex_date_statuses)


def test_every_row_is_checked_and_only_the_known_bad_rows_fail(shared_data: Path) -> None:
    result = checked(shared_data / DATA_FILE)
    assert result.rows == ROWS
    assert sorted(result.failing.iter_rows()) == sorted(KNOWN_BAD)


def test_share_of_rows_within_the_ordinary_limit(shared_data: Path) -> None:
    result = checked(shared_data / DATA_FILE)
    consistent = result.rows - result.inconsistent.height
    assert consistent == 4_494_056
    assert f"{consistent / result.rows:.4%}" == "99.9585%"


def test_every_row_outside_the_ordinary_limit_is_explained(shared_data: Path) -> None:
    result = checked(shared_data / DATA_FILE)
    bad = pl.DataFrame([row[:2] for row in KNOWN_BAD], schema=["symbol", "date"], orient="row")
    assert result.inconsistent.join(bad, on=["symbol", "date"], how="semi").height == len(KNOWN_BAD)
    explained = result.inconsistent.join(bad, on=["symbol", "date"], how="anti")
    assert dict(explained.group_by("limit_rule").len().iter_rows()) == EXPLAINED


def test_rule_totals_over_every_row(shared_data: Path) -> None:
    result = checked(shared_data / DATA_FILE)
    assert result.rule_totals == RULE_TOTALS
    assert sum(result.rule_totals.values()) == ROWS


def test_every_listing_event_is_a_first_session_without_limit(shared_data: Path) -> None:
    result = checked(shared_data / DATA_FILE)
    outside = {(symbol, day): rule for symbol, day, rule in result.inconsistent.iter_rows()}
    assert {(symbol, day): outside.get((symbol, day)) for symbol, day, _ in LISTING_EVENTS} == {
        (symbol, day): event for symbol, day, event in LISTING_EVENTS
    }


def test_ex_date_rows_need_no_exception(shared_data: Path) -> None:
    assert checked(shared_data / DATA_FILE).ex_date_statuses == {"ok": 6_039}
