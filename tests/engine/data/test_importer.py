"""Importing local files: the generic and community formats, row validation with grouped reasons, name history."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest

from stockbench.clock import ReplayClock
from stockbench.data.cache import MarketDataCache
from stockbench.data.importer import detect_format, import_path
from stockbench.errors import InvalidInput
from stockbench.market.registry import InstrumentRegistry
from stockbench.store.database import Database
from tests.engine.data.test_cache import new_db

GENERIC = """\
# exported from my spreadsheet
# prices unadjusted
symbol,date,open,high,low,close,prev_close,volume,amount,name
600519,2024-01-02,10.00,10.50,9.90,10.20,10.00,1000,10200.5,贵州茅台
sh600519,2024-01-03,10.20,10.60,10.10,10.40,10.20,2000,,ST茅台
600519.SH,2024-01-04,10.40,10.40,10.00,10.10,10.40,1500,15150,ST茅台
600519,2024-01-05,10.10,10.20,10.00,10.15,,1200,,贵州茅台
999999,2024-01-08,1,1,1,1,1,1,,x
600519,2024-13-01,1,1,1,1,1,1,,x
600519,2024-01-09,abc,1,1,1,1,1,,x
600519,2024-01-10,1,1,1,1,zz,1,,x
600519,2024-01-11,0,1,0,1,1,1,,x
600519,2024-01-12,1.00,0.90,0.80,0.95,1,1,,x
600519,2024-01-15,1.00,1.20,1.05,1.10,1,1,,x
600519,2024-01-16,1,1,1,1,1,-5,,x
600519,2024-01-17,1,1,1,1,1,1.5,,x
600519,2024-01-18,1,1,1,1,1,1,-3,x
600519,2024-01-02,10.00,10.50,9.90,10.20,10.00,1000,,again
"""
COMMUNITY = """\
数据由邢不行整理
股票代码,股票名称,交易日期,开盘价,最高价,最低价,收盘价,前收盘价,成交量,成交额,流通市值,总市值
sz000001,平安银行,2024-01-02,9.39,9.42,9.21,9.21,9.39,115825300.0,1075000000.0,1.0,2.0
sz000001,平安银行,2024-01-03,9.19,9.22,9.02,9.20,9.21,-1.0,1.0,1.0,2.0
bj832278,鹿得医疗,2024-01-02,12.0,12.04,10.3,10.99,11.65,2446867.0,27526928.0,1.0,2.0
"""


@pytest.fixture
def db() -> Iterator[Database]:
    database = new_db()
    yield database
    database.close()


@pytest.fixture
def cache(db: Database) -> MarketDataCache:
    return MarketDataCache(db, ReplayClock.as_of(date(2024, 2, 1)))


def write(folder: Path, name: str, text: str, encoding: str = "utf-8") -> Path:
    path = folder / name
    path.write_text(text, encoding=encoding)
    return path


def test_generic_csv_rows_are_validated_with_reasons_grouped(
    tmp_path: Path, cache: MarketDataCache, db: Database
) -> None:
    report = import_path(cache, db, write(tmp_path, "mine.csv", GENERIC))
    assert (report.read, report.stored, report.rejected) == (15, 4, 11)
    assert report.rejected_reasons == {
        "bad_price": 2,
        "bad_volume": 1,
        "bad_symbol": 1,
        "bad_date": 1,
        "non_positive_price": 1,
        "high_below_open_or_close": 1,
        "low_above_open_or_close": 1,
        "negative_volume": 1,
        "bad_amount": 1,
        "duplicate_row": 1,
    }
    assert [(s.line, s.reason) for s in report.rejected_samples[:3]] == [
        (8, "bad_symbol"),
        (9, "bad_date"),
        (10, "bad_price"),
    ]
    assert (report.format, report.source, report.symbols, report.first, report.last) == (
        "generic",
        "user_csv",
        1,
        date(2024, 1, 2),
        date(2024, 1, 5),
    )
    bars = cache.bars("600519.SH")
    assert bars["prev_close"].to_list()[-1] is None and bars["amount"].to_list()[:2] == [Decimal("10200.5"), None]
    assert bars["volume"].to_list() == [1000, 2000, 1500, 1200]


def test_names_give_st_status_on_each_date(tmp_path: Path, cache: MarketDataCache, db: Database) -> None:
    report = import_path(cache, db, write(tmp_path, "mine.csv", GENERIC))
    assert report.names == 3  # 贵州茅台 -> ST茅台 -> 贵州茅台
    registry = InstrumentRegistry(db)
    assert [registry.st_on("600519.SH", date(2024, 1, d)) for d in (2, 3, 4, 5)] == [False, True, True, False]
    assert registry.instrument("600519").name == "贵州茅台"


def test_community_csv_with_comment_line(tmp_path: Path, cache: MarketDataCache, db: Database) -> None:
    path = write(tmp_path, "sz000001.csv", COMMUNITY)
    assert detect_format(path) == "community"
    report = import_path(cache, db, path)
    assert (report.read, report.stored, report.rejected, report.rejected_reasons) == (3, 2, 1, {"negative_volume": 1})
    assert report.rejected_samples[0].line == 4
    assert cache.bars("000001.SZ")["close"].to_list() == [Decimal("9.21")]
    assert InstrumentRegistry(db).instrument("832278.BJ").name == "鹿得医疗"


def test_reimport_is_idempotent_and_keeps_a_known_name(tmp_path: Path, cache: MarketDataCache, db: Database) -> None:
    path = write(tmp_path, "sz000001.csv", COMMUNITY)
    db.execute(
        "INSERT INTO instruments (symbol, name, security_type, board, board_lot, list_date, delist_date, fund_kind, "
        "source, updated_at) VALUES (?, ?, 'stock', 'main', 100, NULL, NULL, NULL, 'x', now())",
        ["000001.SZ", "平安银行(新)"],
    )
    first, second = import_path(cache, db, path), import_path(cache, db, path)
    assert first.stored == second.stored == 2
    assert db.scalar("SELECT count(*) FROM bars") == 2
    assert InstrumentRegistry(db).instrument("000001.SZ").name == "平安银行(新)"


def test_a_folder_imports_every_file_and_a_byte_order_mark_is_fine(
    tmp_path: Path, cache: MarketDataCache, db: Database
) -> None:
    write(tmp_path, "a.csv", COMMUNITY)
    write(
        tmp_path,
        "b.csv",
        "\ufeffsymbol,date,open,high,low,close,prev_close,volume\n00700.HK,2024-01-02,300,310,299,305,300,100\n",
    )
    write(tmp_path, "notes.txt", "ignored")
    report = import_path(cache, db, tmp_path)
    assert (report.read, report.stored, report.format, len(report.files)) == (4, 3, "mixed", 2)
    assert cache.bars("00700.HK")["close"].to_list() == [Decimal(305)]


def test_generic_parquet(tmp_path: Path, cache: MarketDataCache, db: Database) -> None:
    path = tmp_path / "bars.parquet"
    pl.DataFrame(
        {
            "symbol": ["300750.SZ"],
            "date": [date(2024, 1, 2)],
            **{k: [1.5] for k in ("open", "high", "low", "close", "prev_close")},
            "volume": [100.0],
        }
    ).write_parquet(path)
    report = import_path(cache, db, path)
    assert (report.format, report.stored) == ("generic", 1)
    assert cache.bars("300750.SZ")["close"].to_list() == [Decimal("1.5")]


@pytest.mark.parametrize(
    "case",
    [
        ("code;date;price\n1;2;3\n", "utf-8", "neither the community"),
        (
            "symbol,date,open,close\n600519,2024-01-02,1,1\n",
            "utf-8",
            r"lacks the column\(s\) high, low, prev_close, volume",
        ),
        ("symbol,date,open,high,low,close,prev_close,volume\n600519,2024-01-02,1,1,1,1,1,1,名\n", "gbk", "not UTF-8"),
    ],
)
def test_unreadable_files_are_clear_errors(
    tmp_path: Path, cache: MarketDataCache, db: Database, case: tuple[str, str, str]
) -> None:
    text, encoding, message = case
    with pytest.raises(InvalidInput, match=message):
        import_path(cache, db, write(tmp_path, "bad.csv", text, encoding))


def test_missing_path_and_empty_folder(tmp_path: Path, cache: MarketDataCache, db: Database) -> None:
    with pytest.raises(InvalidInput, match="does not exist"):
        import_path(cache, db, tmp_path / "nope.csv")
    with pytest.raises(InvalidInput, match=r"no \.csv or \.parquet"):
        import_path(cache, db, tmp_path)


def test_market_caps_are_kept_and_checked(tmp_path: Path, cache: MarketDataCache, db: Database) -> None:
    """float_mcap and total_mcap are optional columns: kept exact, a non-number rejects the row, zero is unknown."""
    text = """\
symbol,date,open,high,low,close,prev_close,volume,float_mcap,total_mcap
600519,2024-01-02,10.00,10.50,9.90,10.20,10.00,1000,3104064763800.00,3104064763800
600519,2024-01-03,10.20,10.60,10.10,10.40,10.20,2000,,
600519,2024-01-04,10.40,10.40,10.00,10.10,10.40,1500,0,27108000000
600519,2024-01-05,10.10,10.20,10.00,10.15,10.10,1200,n/a,1
"""
    report = import_path(cache, db, write(tmp_path, "caps.csv", text))
    assert (report.stored, report.rejected_reasons) == (3, {"bad_mcap": 1})
    bars = cache.bars("600519.SH")
    assert bars["float_mcap"].to_list() == [Decimal("3104064763800.00"), None, None]
    assert bars["total_mcap"].to_list() == [Decimal("3104064763800.00"), None, Decimal("27108000000.00")]


def test_the_community_format_keeps_its_caps(tmp_path: Path, cache: MarketDataCache, db: Database) -> None:
    import_path(cache, db, write(tmp_path, "sz000001.csv", COMMUNITY))
    row = cache.bars("000001.SZ").row(0, named=True)
    assert (row["float_mcap"], row["total_mcap"]) == (Decimal("1.00"), Decimal("2.00"))
