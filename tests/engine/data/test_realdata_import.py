"""Importing the real community A-share files (needs ../shared/data): every row accepted, names and counts exact."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import polars as pl
import pytest

from stockbench.clock import ReplayClock
from stockbench.data.cache import MarketDataCache
from stockbench.data.importer import import_path
from stockbench.market.registry import InstrumentRegistry
from tests.engine.data.test_cache import new_db

pytestmark = pytest.mark.realdata

ROWS = {
    "bj832278.csv": 44,
    "sh600078.csv": 5820,
    "sh600519.csv": 4874,
    "sh601318.csv": 3556,
    "sh688981.csv": 367,
    "sz000001.csv": 7353,
    "sz000002.csv": 7319,
    "sz300750.csv": 877,
}


def test_the_eight_community_csv_files(shared_data: Path) -> None:
    db = new_db()
    cache = MarketDataCache(db, ReplayClock.as_of(date(2022, 1, 14)))
    report = import_path(cache, db, shared_data / "ashare_full")
    assert (report.read, report.stored, report.rejected) == (sum(ROWS.values()), sum(ROWS.values()), 0)
    assert (report.symbols, report.first, report.last) == (8, date(1991, 1, 3), date(2022, 1, 14))
    assert cache.bars("600519.SH").height == ROWS["sh600519.csv"]
    moutai = cache.bars("600519.SH", date(2021, 6, 25), date(2021, 6, 25)).row(0, named=True)
    assert (str(moutai["close"]), str(moutai["prev_close"]), moutai["volume"]) == ("2092.0000", "2048.7600", 3587543)
    registry = InstrumentRegistry(db)
    assert registry.st_on("600078.SH", date(2021, 5, 5)) is False
    assert registry.st_on("600078.SH", date(2021, 5, 6)) is True  # *ST澄星 from that day
    assert registry.name_on("600519.SH", date(2021, 6, 25)) == "XD贵州茅"  # the ex-date name of the day
    assert registry.instrument("600519.SH").name == "贵州茅台"
    assert registry.instrument("688981.SH").board.value == "star"
    db.close()


def test_the_community_csv_files_keep_their_market_caps(shared_data: Path) -> None:
    """流通市值 and 总市值 of the eight CSV files are stored on every bar, exact to the cent."""
    db = new_db()
    cache = MarketDataCache(db, ReplayClock.as_of(date(2022, 1, 14)))
    import_path(cache, db, shared_data / "ashare_full")
    caps = db.fetchone("SELECT count(*), count(float_mcap), count(total_mcap) FROM bars WHERE source = 'community'")
    assert caps == (sum(ROWS.values()),) * 3
    moutai = cache.bars("600519.SH", date(2021, 2, 18), date(2021, 2, 18)).row(0, named=True)
    assert (str(moutai["float_mcap"]), str(moutai["total_mcap"])) == ("3104064763800.00", "3104064763800.00")
    ping_an = cache.bars("601318.SH", date(2021, 12, 31), date(2021, 12, 31)).row(0, named=True)
    assert ping_an["float_mcap"] < ping_an["total_mcap"]  # H shares are not A-share float
    db.close()


def _sample(shared_data: Path, folder: Path, symbols: int) -> tuple[Path, pl.DataFrame]:
    data = pl.scan_parquet(shared_data / "ashare_daily_2017_2022.parquet")
    codes = data.select(pl.col("code").unique().sort()).collect().get_column("code")
    sample = data.filter(pl.col("code").is_in(codes.gather_every(len(codes) // symbols).implode())).collect()
    path = folder / "sample.parquet"
    sample.write_parquet(path)
    return path, sample


def test_a_sample_of_the_parquet_keeps_every_row_and_name_change(shared_data: Path, tmp_path: Path) -> None:
    path, sample = _sample(shared_data, tmp_path, 40)
    db = new_db()
    report = import_path(MarketDataCache(db, ReplayClock.as_of(date(2022, 1, 14))), db, path)
    assert (report.read, report.stored, report.rejected) == (sample.height, sample.height, 0)
    changes = sample.sort("code", "date").filter(
        ((pl.col("name") != pl.col("name").shift(1)) | (pl.col("code") != pl.col("code").shift(1))).fill_null(True)
    )
    assert report.names == changes.height == db.scalar("SELECT count(*) FROM instrument_names")
    stocks = db.scalar("SELECT count(*) FROM instruments WHERE security_type = 'stock'")
    assert report.symbols == sample["code"].n_unique() == stocks  # besides the program's built indices
    db.close()


@pytest.mark.slow
def test_the_whole_parquet(shared_data: Path) -> None:
    db = new_db()
    report = import_path(
        MarketDataCache(db, ReplayClock.as_of(date(2022, 1, 14))), db, shared_data / "ashare_daily_2017_2022.parquet"
    )
    assert (report.read, report.stored, report.rejected, report.symbols) == (4_495_920, 4_495_920, 0, 4_752)
    assert db.scalar("SELECT count(*) FROM bars WHERE source = 'community'") == 4_495_920
    # the caps are kept (3 CDR sessions of 689009 carry a float cap of 0: stored as unknown)
    caps = db.fetchone("SELECT count(float_mcap), count(total_mcap) FROM bars WHERE source = 'community'")
    assert caps == (4_495_917, 4_495_920)
    assert report.indices is not None and [b.members_last for b in report.indices.built] == [4675, 3128, 1089, 378, 80]
    db.close()
