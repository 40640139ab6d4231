"""The program's built indices on a universe small enough to compute by hand: weights, skipped first sessions,
carried float shares, equal weights without caps, storage through the cache, and point in time."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest

from stockbench.clock import ReplayClock
from stockbench.data.cache import MarketDataCache
from stockbench.data.importer import import_path
from stockbench.data.indices import IndexMethod, index_levels, load_method, member_sums, rebuild
from stockbench.market.registry import InstrumentRegistry
from tests.engine.data.test_cache import new_db

D1, D2, D3, D4 = date(2024, 1, 2), date(2024, 1, 3), date(2024, 1, 4), date(2024, 1, 5)
HEADER = "symbol,date,open,high,low,close,prev_close,volume,amount,float_mcap,total_mcap"
# A (main): 10 float shares, no cap on D3 (carried); B (main): 20 float shares; C (ChiNext): never a cap.
ROWS = {
    D1: ["600000.SH,{d},10,10,10,10,10,100,1000,100,200", "600004.SH,{d},20,20,20,20,20,100,2000,400,800",
         "300001.SZ,{d},5,5,5,5,5,100,500,,"],
    D2: ["600000.SH,{d},10.5,11,10,11,10,100,1100,110,220", "600004.SH,{d},20,20,19,19,20,100,1900,380,760",
         "300001.SZ,{d},5,5.5,5,5.5,5,100,550,,"],
    D3: ["600000.SH,{d},11,11.5,10.5,11,11,100,1100,,220", "600004.SH,{d},19,19,19,19,19,100,1900,380,760",
         "300001.SZ,{d},5.5,5.5,5.5,5.5,5.5,100,550,,"],
    D4: ["600000.SH,{d},11,12.1,11,12.1,11,100,1210,121,242", "600004.SH,{d},19,19.95,19,19.95,19,100,1995,399,798",
         "300001.SZ,{d},5.5,6.05,5.5,6.05,5.5,100,605,,"],
}  # fmt: skip


def method(skip_first: int = 1) -> IndexMethod:
    return replace(load_method(), skip_first=skip_first)


def universe() -> pl.DataFrame:
    boards = {"600000.SH": "main", "600004.SH": "main", "300001.SZ": "chinext"}
    columns = HEADER.split(",")
    rows = [line.format(d=day).split(",") for day, lines in ROWS.items() for line in lines]
    frame = pl.DataFrame(rows, schema=columns, orient="row")
    numbers = [pl.when(pl.col(c) != "").then(pl.col(c)).cast(pl.Float64).alias(c) for c in columns[2:]]
    return frame.select(
        pl.col("symbol"), pl.col("symbol").replace_strict(boards).alias("board"),
        pl.col("date").str.to_date().alias("day"), *numbers,
    )  # fmt: skip


def levels(boards: list[str], skip_first: int = 1) -> pl.DataFrame:
    return index_levels(member_sums(universe().lazy(), skip_first), boards, 1000.0)


def test_float_cap_weights_at_the_open_with_carried_shares() -> None:
    found = levels(["main"])
    assert found["day"].to_list() == [D2, D3, D4], "each stock's first session is left out"
    # D2: weights at the open A 10 x 10 = 100, B 20 x 20 = 400; returns +10% and -5%: (10 - 20) / 500 = -2%
    # D3: A has no cap: its 10 shares carry (weight 10 x 11); both flat. D4: (10 x 1.1 + 20 x 0.95) / 490 = +6.12%
    assert found["close"].to_list() == pytest.approx([980.0, 980.0, 1040.0])
    assert found["prev_close"].to_list() == pytest.approx([1000.0, 980.0, 980.0])
    first = found.row(0, named=True)
    assert (first["open"], first["high"], first["low"]) == pytest.approx((1010.0, 1020.0, 960.0))
    assert found["weighting"].to_list() == ["float_cap"] * 3
    assert found["members"].to_list() == [2, 2, 2]
    assert found["float_mcap"].to_list() == pytest.approx([490.0, 380.0, 520.0]), "the members' given caps"


def test_equal_weights_on_a_session_where_a_member_has_no_cap() -> None:
    every = levels(["main", "chinext"])
    assert every["weighting"].to_list() == ["equal"] * 3  # C never has a float cap
    # D2: (10% - 5% + 10%) / 3 = 5%; D3 flat; D4: (10% + 5% + 10%) / 3
    assert every["close"].to_list() == pytest.approx([1050.0, 1050.0, 1050 * (1 + 0.25 / 3)])
    assert levels(["chinext"])["close"].to_list() == pytest.approx([1100.0, 1100.0, 1210.0])
    assert levels(["main"], skip_first=0)["day"].to_list() == [D1, D2, D3, D4]


def write(folder: Path, days: list[date]) -> Path:
    path = folder / f"upto-{days[-1]}.csv"
    lines = [HEADER, *(line.format(d=day) for day in days for line in ROWS[day])]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_built_indices_are_stored_labelled_and_point_in_time(tmp_path: Path) -> None:
    db = new_db()
    cache = MarketDataCache(db, ReplayClock.as_of(D4 + timedelta(days=10)))
    import_path(cache, db, write(tmp_path, [D1, D2, D3]))
    rebuild(db, cache, method())
    before = cache.bars("000291.SH")
    import_path(cache, db, write(tmp_path, [D4]))  # a later session arrives
    report = rebuild(db, cache, method())
    after = cache.bars("000291.SH")
    assert after.head(2).drop("fetched_at").equals(before.drop("fetched_at")), "D2 and D3 keep their values"
    assert after["close"].to_list() == [Decimal("980.0000"), Decimal("980.0000"), Decimal("1040.0000")]
    assert set(after["source"].to_list()) == {"built"}
    main = InstrumentRegistry(db).instrument("000291.SH")
    assert (main.security_type.value, main.name) == ("index", "沪深主板指数（程序构建）")
    assert {b.key: b.members_last for b in report.built} == {"all": 3, "main": 2, "chinext": 1}
    assert [s for s, _ in report.skipped] == ["000293.SH", "000294.SH"]  # no STAR or Beijing stock stored
    day = cache.built_index_day("000291.SH")
    assert day is not None and (day.day, day.members, day.weighting, day.key) == (D4, 2, "float_cap", "main")
    then = MarketDataCache(db, ReplayClock.as_of(D3))
    assert then.bars("000291.SH")["day"].to_list() == [D2, D3], "the clock hides later sessions"
    found = then.built_index_day("000290.SH")
    assert found is not None and (found.day, found.weighting) == (D3, "equal")
    db.close()


def test_a_symbol_held_by_a_real_instrument_is_left_alone(tmp_path: Path) -> None:
    db = new_db()
    cache = MarketDataCache(db, ReplayClock.as_of(D4 + timedelta(days=10)))
    db.execute("INSERT INTO instruments (symbol, name, security_type, board, board_lot, list_date, delist_date, "
               "fund_kind, source, updated_at) VALUES ('000290.SH', '真指数', 'index', 'main', NULL, NULL, NULL, NULL,"
               " 'tencent', now())")  # fmt: skip
    import_path(cache, db, write(tmp_path, [D1, D2, D3, D4]))
    report = rebuild(db, cache, method())
    skipped = [(symbol, why.text("en")) for symbol, why in report.skipped]
    assert ("000290.SH", "000290.SH is a stored instrument of source tencent") in skipped
    assert ("000290.SH", "000290.SH 是数据源 tencent 中已存储的证券") in [(s, w.text("zh")) for s, w in report.skipped]
    assert cache.bars("000290.SH").is_empty() and InstrumentRegistry(db).instrument("000290.SH").name == "真指数"
    db.close()


def long_file(days: int = 12) -> pl.DataFrame:
    """Three stocks over `days` sessions in the community parquet's columns (the third lists on the fourth day)."""
    rows = []
    for code, shares, step, first in (("sh600000", 10, 0.01, 0), ("sh600004", 20, -0.02, 0), ("sz000002", 5, 0.03, 3)):
        close = 10.0
        for i in range(first, days):
            previous, close = close, round(close * (1 + step * (1 if i % 3 else -1)), 2)
            rows.append((code, "x", D1 + timedelta(days=i), previous, max(previous, close), min(previous, close), close,
                         previous, 100.0, close * 100, close * shares, close * shares * 2))  # fmt: skip
    columns = ["code", "name", "date", "open", "high", "low", "close", "prev_close", "volume", "amount", "float_mcap",
               "total_mcap"]  # fmt: skip
    return pl.DataFrame(rows, schema=columns, orient="row")


def test_an_index_of_a_community_file_reuses_the_method(tmp_path: Path) -> None:
    """research.replay's file index: equal weighted it is the calibration's benchmark, float-cap weighted it is the
    built index of the same rows."""
    from stockbench.analytics.calibration import market_benchmark
    from stockbench.research.replay import equal_weighted_index, file_index

    frame = long_file()
    frame.write_parquet(tmp_path / "file.parquet")
    equal = pl.read_csv(equal_weighted_index(tmp_path / "file.parquet", "000695.SH", "等权（程序构建）",
                                             tmp_path / "equal.csv"))  # fmt: skip
    bars = frame.rename({"code": "symbol", "date": "day"}).sort("symbol", "day")
    benchmark = market_benchmark(bars, load_method().skip_first)
    assert equal.height == benchmark.height == 7  # 12 sessions less the first 5 of the first two stocks
    assert equal["close"].to_list() == pytest.approx((benchmark["close"] * 1000).to_list(), abs=1e-4)
    capped = pl.read_csv(file_index(tmp_path / "file.parquet", "000695.SH", "x", tmp_path / "cap.csv"))
    built = index_levels(member_sums(bars.with_columns(board=pl.lit("main")).lazy(), 5), ["main"], 1000.0)
    assert capped["close"].to_list() == pytest.approx(built["close"].to_list(), abs=1e-4)
    assert capped["close"].to_list() != pytest.approx(equal["close"].to_list(), abs=1e-4)
    assert set(capped["name"].to_list()) == {"x"} and capped["float_mcap"].null_count() == 0


def test_the_universe_is_each_stock_latest_bar_as_the_clock_sees_it(tmp_path: Path) -> None:
    db = new_db()
    import_path(MarketDataCache(db, ReplayClock.as_of(D4)), db, write(tmp_path, [D1, D2, D3, D4]))
    seen = MarketDataCache(db, ReplayClock.as_of(D3)).universe("CN", 10)
    assert seen["symbol"].to_list() == ["300001.SZ", "600000.SH", "600004.SH"]  # no index: stocks only
    assert set(seen["day"].to_list()) == {D3} and seen["board"].to_list() == ["chinext", "main", "main"]
    assert seen.filter(pl.col("symbol") == "600004.SH")["float_mcap"].to_list() == [Decimal("380.00")]
    later = MarketDataCache(db, ReplayClock.as_of(D4 + timedelta(days=30))).universe("CN", 10)
    assert later.is_empty(), "no bar in the last 10 days"
    assert MarketDataCache(db, ReplayClock.as_of(D4)).universe("HK", 10).is_empty()
    db.close()
