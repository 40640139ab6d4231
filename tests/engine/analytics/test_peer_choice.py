"""Peers by rule: the stored stocks of the subject's group nearest in size, special-treatment names left out."""

from __future__ import annotations

import math
from datetime import date
from decimal import Decimal
from pathlib import Path

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
    assert found.table == "peers v1.2"


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


def _returns(days: int, seed: int = 7) -> pl.DataFrame:
    """Daily returns of STOCKS' symbols: a market factor in all of them; 600519 and 000858 (baijiu) share an industry
    factor, 600036 and 601398 (banks) another; 601318 follows the market alone, with the largest market beta."""
    import numpy as np

    rng = np.random.default_rng(seed)
    market, baijiu, banks = (rng.normal(0, s, days) for s in (0.015, 0.012, 0.012))
    moves = {
        "600519.SH": market + baijiu, "000858.SZ": market + baijiu,
        "600036.SH": market + banks, "601398.SH": market + banks,
        "601318.SH": 2.0 * market, "600078.SH": market + baijiu, "300750.SZ": market + baijiu,
    }  # fmt: skip
    rows = [(symbol, date.fromordinal(DAY.toordinal() - days + i), float(move[i] + rng.normal(0, 0.008)))
            for symbol, move in moves.items() for i in range(days)]  # fmt: skip
    return pl.DataFrame(rows, schema=["symbol", "day", "ret"], orient="row")


def test_on_the_board_alone_the_peers_are_those_whose_returns_move_most_like_the_subjects() -> None:
    """A board holds banks beside brokers and chemicals: by size alone the property developer 000002 had a bank, a
    lithium chemicals maker and a broker for peers (the real file as of 2021-06-30). Less the day's mean, the
    returns that move together are the industry's, not the market's: 601318, twice the market, is no peer."""
    from stockbench.analytics.peers import return_correlations

    returns = _returns(150)
    found = return_correlations(returns, "600519.SH")
    assert set(found.get_column("symbol")) == {"000858.SZ", "600036.SH", "601398.SH", "601318.SH", "600078.SH",
                                               "300750.SZ"}  # fmt: skip
    assert set(found.get_column("sessions")) == {120}  # the subject's last 120 sessions
    by_symbol = dict(zip(found.get_column("symbol"), found.get_column("correlation"), strict=True))
    assert by_symbol["000858.SZ"] > max(by_symbol[s] for s in ("601318.SH", "600036.SH", "601398.SH")) + 0.3
    choice = choose_peers(STOCKS, "600519.SH", table(count=1), found)
    # 600078 (special treatment) is left out as before; 300750 is on another board
    assert (choice.basis, choice.symbols(), choice.candidates) == ("correlation", ["000858.SZ"], 4)
    assert choice.peers[0].correlation == pytest.approx(by_symbol["000858.SZ"]) and choice.peers[0].sessions == 120
    ranked = choose_peers(STOCKS, "600519.SH", table(count=4), found)
    assert [p.correlation for p in ranked.peers] == sorted((p.correlation for p in ranked.peers), reverse=True)


def test_too_few_sessions_fall_back_to_the_nearest_size() -> None:
    from stockbench.analytics.peers import return_correlations

    short = return_correlations(_returns(59), "600519.SH")  # under choose_corr_min_sessions (60)
    assert short.is_empty()
    assert choose_peers(STOCKS, "600519.SH", table(), short).symbols() == ["000858.SZ", "600036.SH", "601398.SH"]
    unrelated = pl.DataFrame(
        {"symbol": ["300750.SZ"], "correlation": [0.9], "sessions": [120]}, schema_overrides={"sessions": pl.UInt32}
    )  # only a stock of another board qualifies
    assert choose_peers(STOCKS, "600519.SH", table(), unrelated).basis == "float_mcap"


@pytest.mark.realdata
def test_on_the_real_main_board_the_peers_are_the_industrys(shared_data: Path) -> None:
    """Every main-board stock of the community file, 120 sessions to 2021-06-30: the developer 000002 moves with
    developers, the insurer 601318 with insurers, 600519 with baijiu; by size they had a bank, a chemicals maker and
    a broker."""
    from stockbench.analytics.peers import return_correlations

    suffix = pl.when(pl.col("code").str.starts_with("sh")).then(pl.lit(".SH")).otherwise(pl.lit(".SZ"))
    frame = (
        pl.scan_parquet(shared_data / "ashare_daily_2017_2022.parquet")
        .filter(pl.col("date").is_between(date(2020, 11, 1), date(2021, 6, 30)))
        .filter(pl.col("code").str.slice(2, 3).is_in(["600", "601", "603", "605", "000", "001", "002", "003"]))
        .select(
            symbol=pl.col("code").str.slice(2) + suffix,
            day=pl.col("date").cast(pl.Date),
            ret=pl.col("close") / pl.col("prev_close") - 1,
        )
        .collect()
    )
    top = {subject: return_correlations(frame, subject).sort("correlation", descending=True).head(3)
           .get_column("symbol").to_list() for subject in ("000002.SZ", "601318.SH", "600519.SH")}  # fmt: skip
    assert {"600048.SH", "001979.SZ"} <= set(top["000002.SZ"]), top  # 保利发展, 招商蛇口
    assert {"601336.SH", "601601.SH"} <= set(top["601318.SH"]), top  # 新华保险, 中国太保
    assert "000858.SZ" in top["600519.SH"], top  # 五粮液
