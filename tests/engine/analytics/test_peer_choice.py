"""Peers by rule: the stored stocks of the subject's group nearest in size, special-treatment names left out."""

from __future__ import annotations

import math
from datetime import date
from decimal import Decimal

import polars as pl
import pytest

from stockbench.analytics.peers import choose_peers
from stockbench.analytics.rule_tables import Table
from stockbench.analytics.scan import load_zone_tables

DAY = date(2021, 2, 18)


def universe(rows: list[tuple[str, str, float | None, float | None, float, str]]) -> pl.DataFrame:
    """(symbol, board, float cap, total cap, amount, name) per stock, as MarketDataCache.universe reads them."""
    money = pl.Decimal(24, 2)
    frame = pl.DataFrame(rows, schema=["symbol", "board", "float_mcap", "total_mcap", "amount", "name"], orient="row")
    return frame.with_columns(pl.lit(DAY).alias("day"), *(pl.col(c).cast(money) for c in
                              ("float_mcap", "total_mcap", "amount")))  # fmt: skip


def table(count: int = 3, exclude_st: bool = True) -> Table:
    base = load_zone_tables()["peers"]
    return Table(base.name, base.version, base.description,
                 {**base.values, "choose_count": count, "choose_exclude_st": exclude_st})  # fmt: skip


STOCKS = universe([
    ("600519.SH", "main", 3000.0, 3000.0, 160.0, "贵州茅台"),
    ("601398.SH", "main", 1500.0, 1900.0, 20.0, "工商银行"),  # half the size: |ln 0.5| = 0.69
    ("600036.SH", "main", 6000.0, 7000.0, 50.0, "招商银行"),  # twice: the same distance, a later code
    ("000858.SZ", "main", 2500.0, 2600.0, 90.0, "五粮液"),  # nearest
    ("600078.SH", "main", 2900.0, 2900.0, 1.0, "*ST澄星"),  # nearer still, but special treatment
    ("300750.SZ", "chinext", 3000.0, 3000.0, 100.0, "宁德时代"),  # the same size on another board
    ("601318.SH", "main", 100.0, 200.0, 10.0, "中国平安"),
])  # fmt: skip


def test_nearest_size_in_the_same_board_ties_by_code() -> None:
    found = choose_peers(STOCKS, "600519.SH", table())
    assert found.symbols() == ["000858.SZ", "600036.SH", "601398.SH"]
    assert (found.group, found.basis, found.subject_size, found.candidates) == ("main", "float_mcap", Decimal(3000), 4)
    assert found.peers[0].distance == pytest.approx(abs(math.log(2500 / 3000)))
    assert found.table == "peers v1.1"


def test_special_treatment_is_kept_when_the_table_says_so() -> None:
    assert choose_peers(STOCKS, "600519.SH", table(count=1, exclude_st=False)).symbols() == ["600078.SH"]


def test_a_group_column_overrides_the_board_and_the_size_falls_back() -> None:
    grouped = STOCKS.with_columns(group=pl.when(pl.col("symbol").is_in(["600519.SH", "300750.SZ"]))
                                  .then(pl.lit("baijiu")).otherwise(pl.lit("other")))  # fmt: skip
    assert choose_peers(grouped, "600519.SH", table()).symbols() == ["300750.SZ"]
    no_float = STOCKS.with_columns(float_mcap=pl.lit(None, pl.Decimal(24, 2)))
    found = choose_peers(no_float, "600519.SH", table(count=1))
    assert (found.basis, found.symbols()) == ("total_mcap", ["000858.SZ"])


def test_no_peers_for_an_unknown_subject_or_one_without_size() -> None:
    assert choose_peers(STOCKS, "000001.SZ", table()).peers == ()
    sizeless = STOCKS.with_columns(*(pl.lit(None, pl.Decimal(24, 2)).alias(c) for c in ("float_mcap", "total_mcap",
                                                                                        "amount")))  # fmt: skip
    assert choose_peers(sizeless, "600519.SH", table()).basis is None
