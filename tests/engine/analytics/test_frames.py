"""Bar frames for the analytics: the cache loader (point-in-time, adjusted), the community files, forward adjustment."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from stockbench.analytics.frames import (
    BAR_COLUMNS,
    BAR_SCHEMA,
    bars_from_cache,
    bars_from_community_csv,
    bars_from_community_parquet,
    empty_bars,
    forward_adjust,
)
from stockbench.clock import ReplayClock
from stockbench.data.adjust import adjusted
from stockbench.data.cache import MarketDataCache
from stockbench.data.records import Bar
from stockbench.errors import InvalidInput
from stockbench.store.database import Database
from stockbench.store.migrations import migrate

WALL = datetime(2026, 11, 1, tzinfo=UTC)  # when the test bars were "fetched": after every replay date
PARQUET = "ashare_daily_2017_2022.parquet"


@pytest.fixture
def db() -> Iterator[Database]:
    database = Database(":memory:")
    migrate(database)
    yield database
    database.close()


def bar(symbol: str, day: date, close: str, prev: str | None, volume: int = 1000) -> Bar:
    price = Decimal(close)
    reference = Decimal(prev) if prev else None
    return Bar(symbol, day, price, price, price, price, reference, volume, price * volume, "tencent", Decimal("1.5"))


def frame(rows: list[tuple[str, date, float, float | None]]) -> pl.DataFrame:
    """A bar frame with open = high = low = close."""
    data = [(s, d, c, c, c, c, p, 100.0, c * 100, None) for s, d, c, p in rows]
    return pl.DataFrame(data, schema=BAR_SCHEMA, orient="row")


def test_empty_bars_has_the_contract_columns() -> None:
    empty = empty_bars()
    assert empty.is_empty()
    assert tuple(empty.columns) == BAR_COLUMNS
    assert empty.schema["close"] == pl.Float64 and empty.schema["day"] == pl.Date


def test_forward_adjust_divides_earlier_prices_by_each_later_factor() -> None:
    # A: a 1.00 cash dividend before day 3 (reference 9.00 after a 10.00 close): factor 10/9, so days 1-2
    # become 10 x 9/10 = 9.00. B has no ex-date and is untouched; the latest bar of A keeps its price.
    d1, d2, d3 = date(2024, 1, 2), date(2024, 1, 3), date(2024, 1, 4)
    raw = frame(
        [
            ("A", d1, 10.0, None),
            ("A", d2, 10.0, 10.0),
            ("A", d3, 9.5, 9.0),
            ("B", d1, 5.0, None),
            ("B", d2, 5.5, 5.0),
        ]
    )
    got = forward_adjust(raw)
    assert got.filter(pl.col("symbol") == "A")["close"].to_list() == pytest.approx([9.0, 9.0, 9.5], rel=1e-15)
    assert got.filter(pl.col("symbol") == "A")["prev_close"].to_list()[1:] == pytest.approx([9.0, 9.0], rel=1e-15)
    assert got.filter(pl.col("symbol") == "B")["close"].to_list() == [5.0, 5.5]
    assert got["volume"].to_list() == raw["volume"].to_list()


def test_forward_adjust_compounds_two_ex_dates() -> None:
    # Factors 2 (a 10-for-10 bonus issue: reference 5 after 10) and 1.25 (reference 4 after 5):
    # day 1 is divided by 2 x 1.25 = 2.5, day 2 by 1.25, day 3 keeps its price.
    days = [date(2024, 1, d) for d in (2, 3, 4)]
    raw = frame([("A", days[0], 10.0, None), ("A", days[1], 5.0, 5.0), ("A", days[2], 4.0, 4.0)])
    assert forward_adjust(raw)["close"].to_list() == pytest.approx([4.0, 4.0, 4.0], rel=1e-15)


def test_bars_from_cache_reads_floats_forward_adjusted_at_the_clock(db: Database) -> None:
    writer = MarketDataCache(db, ReplayClock.as_of(date(2026, 1, 1)))
    days = [date(2024, 1, 2) + timedelta(d) for d in range(4)]
    writer.store_bars(
        [
            bar("600519.SH", days[0], "10.00", None),
            bar("600519.SH", days[1], "10.00", "10.00"),
            bar("600519.SH", days[2], "9.50", "9.00"),  # ex-date: factor 10/9
            bar("600519.SH", days[3], "9.60", "9.50"),
            bar("000001.SZ", days[0], "11.00", None),
        ],
        fetched_at=WALL,
    )
    before_ex = MarketDataCache(db, ReplayClock.as_of(days[1]))
    got = bars_from_cache(before_ex, ["600519", "000001.SZ", "300750.SZ"])
    assert got.schema == pl.Schema(BAR_SCHEMA)
    assert got.select("symbol", "day").rows() == [
        ("000001.SZ", days[0]),
        ("600519.SH", days[0]),
        ("600519.SH", days[1]),
    ]
    assert got.filter(pl.col("symbol") == "600519.SH")["close"].to_list() == [10.0, 10.0]  # no dividend seen yet
    after = bars_from_cache(MarketDataCache(db, ReplayClock.as_of(days[3])), ["600519.SH"], start=days[1])
    assert after["close"].to_list() == pytest.approx([9.0, 9.5, 9.6], abs=1e-4)  # cache rounds to 4 places
    assert after["turnover_pct"].to_list() == [1.5, 1.5, 1.5]
    assert bars_from_cache(before_ex, ["688981.SH"]).is_empty()


@pytest.mark.realdata
def test_community_parquet_selects_symbols_and_period_and_derives_turnover(shared_data: Path) -> None:
    path = shared_data / PARQUET
    raw = bars_from_community_parquet(path, ["600519.SH", "sz000001"], date(2021, 1, 4), date(2021, 1, 8), "none")
    assert raw["symbol"].unique().sort().to_list() == ["000001.SZ", "600519.SH"]
    assert raw.height == 10 and raw["day"].min() == date(2021, 1, 4)
    moutai = raw.filter(pl.col("symbol") == "600519.SH").row(0, named=True)
    source = pl.scan_parquet(path).filter((pl.col("code") == "sh600519") & (pl.col("date") == date(2021, 1, 4)))
    source = source.collect()
    assert moutai["close"] == source["close"].item()
    shares = source["float_mcap"].item() / source["close"].item()
    assert moutai["turnover_pct"] == pytest.approx(source["volume"].item() / shares * 100, rel=1e-12)


@pytest.mark.realdata
def test_forward_adjust_agrees_with_the_cache_adjustment_on_real_ex_dates(shared_data: Path) -> None:
    raw = bars_from_community_parquet(shared_data / PARQUET, ["600519.SH", "000002.SZ"], adjust="none")
    ours = forward_adjust(raw)
    for symbol in ("600519.SH", "000002.SZ"):
        exact = raw.filter(pl.col("symbol") == symbol).select(
            "day", *(pl.col(c).round(4).cast(pl.Decimal(18, 4)) for c in ("open", "high", "low", "close", "prev_close"))
        )
        reference = adjusted(exact, "forward").select("day", pl.col("close").cast(pl.Float64))
        mine = ours.filter(pl.col("symbol") == symbol).select("day", "close")
        assert mine["close"].to_list() != raw.filter(pl.col("symbol") == symbol)["close"].to_list()  # has ex-dates
        assert_frame_equal(mine, reference, check_exact=False, abs_tol=6e-5)  # the cache rounds to 4 places


@pytest.mark.realdata
def test_community_csv_reads_the_full_history(shared_data: Path) -> None:
    bars = bars_from_community_csv(shared_data / "ashare_full" / "sh600519.csv", adjust="none")
    first = bars.row(0, named=True)
    assert (first["symbol"], first["day"], first["close"], first["prev_close"]) == (
        "600519.SH",
        date(2001, 8, 27),
        35.55,
        31.39,
    )
    assert bars.height == 4874 and bars["day"].is_sorted()


def test_missing_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="does not exist"):
        bars_from_community_parquet(tmp_path / "none.parquet")
    with pytest.raises(InvalidInput, match="does not exist"):
        bars_from_community_csv(tmp_path / "none.csv")
