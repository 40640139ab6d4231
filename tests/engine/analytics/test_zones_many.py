"""Zones of many symbols at once (`Analytics.zones_many`, what the watchlist and the dashboard read) on a real
workspace: every symbol's result, zones or error, equals its `zones` alone, field for field, whatever the other
symbols beside it: ten years of random-walk bars for thirteen symbols (those of the reopen benchmark, one of them
with a price on the edge of a volume-profile bin), a suspended quote, a symbol whose bars start before its listing
date, one with too few sessions, one without bars, an index and a text that is no symbol."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest

from bench.ui_start import synthetic_bars
from stockbench.clock import MARKET_TZ, ReplayClock
from stockbench.data.records import Quote
from stockbench.errors import DataUnavailable, InvalidInput, NotFound, UserError
from stockbench.market.calendars import Calendars
from stockbench.market.registry import InstrumentData
from stockbench.market.tables import load_tables
from stockbench.messages import error_words
from stockbench.workbench import Workbench

LAST = date(2026, 12, 4)  # the reopen benchmark's bars, as it built them on this day (the walk depends on the count)
WALKS = [f"6001{n:02d}.SH" for n in range(13)]  # 600112.SH: a typical price on a bin edge, 120 sessions back
SUSPENDED, UNLISTED, SHORT = "600100.SH", "600101.SH", "600199.SH"
ASKED = (*WALKS, SHORT, "600036.SH", "000300.SH", "茅台", "600105")  # the last: 600105.SH without its suffix


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("zones_many")
    first = LAST.replace(year=LAST.year - 10)
    sessions = Calendars(None, load_tables()).calendar("CN").sessions(first, LAST)
    walks = pl.read_parquet(synthetic_bars(folder, WALKS, sessions))
    short = walks.filter(pl.col("symbol") == WALKS[3]).tail(12).with_columns(symbol=pl.lit(SHORT))
    path = folder / "bars.parquet"
    pl.concat([walks, short]).write_parquet(path)
    home = folder / "workspace"
    with Workbench.open(home, clock=ReplayClock.as_of(LAST)) as bench:
        assert bench.data.import_file(path).rejected == 0
        close = Decimal(str(walks.filter(pl.col("symbol") == SUSPENDED)["close"][-1]))
        at = datetime(LAST.year, LAST.month, LAST.day, 15, tzinfo=MARKET_TZ["CN"])
        bench.data.cache.store_quotes([Quote(SUSPENDED, at, close, close, None, None, None, 0, None, "tencent",
                                             status="suspended")])  # fmt: skip
        bench.market.registry.save(InstrumentData(UNLISTED, list_date=date(2026, 12, 10)))
    return home


def alone(bench: Workbench, symbol: str) -> object:
    try:
        return bench.analytics.zones(symbol)
    except UserError as error:
        return error


def words(error: UserError) -> tuple[object, ...]:
    return error.as_dict(), error.key, error.params, error_words(error, "zh")


def same(one: object, other: object) -> bool:
    if isinstance(one, UserError) and isinstance(other, UserError):
        return type(one) is type(other) and words(one) == words(other)
    return one == other


@pytest.mark.parametrize("day", [LAST, date(2026, 6, 30)])
def test_the_zones_of_many_symbols_equal_each_symbol_alone(home: Path, day: date) -> None:
    with Workbench.open(home, clock=ReplayClock.as_of(day)) as bench:
        many = bench.analytics.zones_many(ASKED)
        each = {symbol: alone(bench, symbol) for symbol in ASKED}
        pair = bench.analytics.zones_many(ASKED[:2])  # and beside one other only
    assert list(many) == list(ASKED)
    differ = [s for s in ASKED if not same(many[s], each[s])]
    assert not differ, f"zones_many differs from zones alone for {differ}"
    assert list(pair) == list(ASKED[:2]) and all(same(pair[s], each[s]) for s in pair)
    halted = many[SUSPENDED]
    if day == LAST:  # the suspended quote speaks of the last session only; the short series is of its last 12
        assert not isinstance(halted, UserError) and halted.trade_day.status == "suspended"
        assert halted.reasons[0] == "halted"
        assert isinstance(many[SHORT], DataUnavailable) and many[SHORT].key == "zones_too_few_sessions"
    # bars before the recorded listing date: zones, not "the period ends before it starts"; a plan never tradeable
    unlisted = many[UNLISTED]
    assert not isinstance(unlisted, UserError), unlisted
    assert unlisted.trade_day.status == "not_listed" and not unlisted.tradeable and "halted" in unlisted.reasons
    assert isinstance(many["600036.SH"], NotFound) and isinstance(many["茅台"], InvalidInput)
    assert isinstance(many["000300.SH"], NotFound)
    assert not isinstance(many["600105"], UserError) and many["600105"].symbol == "600105.SH"


def test_a_price_on_a_volume_bin_edge_falls_in_one_bin_alone_and_beside_others(home: Path) -> None:
    with Workbench.open(home, clock=ReplayClock.as_of(LAST)) as bench:
        by_itself = bench.analytics.zones("600112.SH")
        beside = bench.analytics.zones_many(WALKS)["600112.SH"]
    notes = [a.note for z in (by_itself, beside) if not isinstance(z, UserError) for a in z.buy.anchors]
    assert any(n.startswith("busiest of 40 price bins over 120 sessions (21.17-21.35)") for n in notes), notes
    assert beside == by_itself
