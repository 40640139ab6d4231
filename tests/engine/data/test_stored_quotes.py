"""The stored quotes of many symbols at once (`DataService.stored_quotes`, what the watchlist's price column reads):
each symbol's answer, a quote view or an error, equals its `quote(symbol, fetch=False)` alone, field for field, at
a clock after the close, during a session and before a listing: random-walk bars for A-shares and a Hong Kong
share, a stored live quote, a suspended one, a symbol listed later, one without bars, an index, a name and a text
that is no symbol."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest

from bench.ui_start import synthetic_bars
from stockbench.clock import MARKET_TZ, Clock, ReplayClock
from stockbench.data.records import Quote
from stockbench.errors import UserError
from stockbench.market.calendars import Calendars
from stockbench.market.registry import InstrumentData
from stockbench.market.tables import load_tables
from stockbench.workbench import Workbench

LAST = date(2026, 11, 27)
WALKS = ["600100.SH", "600101.SH", "000001.SZ", "00700.HK"]
LIVE, SUSPENDED, UNLISTED = "600100.SH", "000001.SZ", "600101.SH"
ASKED = (*WALKS, "600199.SH", "000300.SH", "茅台", "not a symbol", "600100")


def at(day: date, clock: str, market: str = "CN") -> datetime:
    return datetime.fromisoformat(f"{day.isoformat()}T{clock}").replace(tzinfo=MARKET_TZ[market])  # type: ignore[index]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("stored_quotes")
    sessions = Calendars(None, load_tables()).calendar("CN").sessions(date(2025, 11, 1), LAST)
    walks = pl.read_parquet(synthetic_bars(folder, WALKS, sessions))
    path = folder / "bars.parquet"
    walks.write_parquet(path)
    home = folder / "workspace"
    with Workbench.open(home, clock=ReplayClock.as_of(LAST)) as bench:
        assert bench.data.import_file(path).rejected == 0
        close = Decimal(str(walks.filter(pl.col("symbol") == LIVE)["close"][-1]))
        quotes = [Quote(LIVE, at(LAST, "10:30:00"), close + 1, close, None, None, None, 0, None, "tencent"),
                  Quote(SUSPENDED, at(LAST, "15:00:00"), close, close, None, None, None, 0, None, "tencent",
                        status="suspended")]  # fmt: skip
        bench.data.cache.store_quotes(quotes)
        bench.market.registry.save(InstrumentData(UNLISTED, list_date=date(2026, 11, 20)))
    return home


def said(found: object) -> object:
    return (found.as_dict(), found.key, found.params) if isinstance(found, UserError) else found


def alone(bench: Workbench, symbol: str) -> object:
    try:
        return said(bench.data.quote(symbol, fetch=False))
    except UserError as error:
        return said(error)


@pytest.mark.parametrize(
    "clock",
    [ReplayClock(at(LAST, "18:00:00")), ReplayClock(at(LAST, "10:45:00")), ReplayClock(at(LAST, "10:20:00", "HK")),
     ReplayClock(at(date(2026, 11, 18), "18:00:00"))],
    ids=["after the close", "in the session", "before the live quote", "before the listing"],
)  # fmt: skip
def test_each_stored_quote_equals_the_symbols_quote_alone(home: Path, clock: Clock) -> None:
    with Workbench.open(home, clock=clock) as bench:
        together = bench.data.stored_quotes(ASKED)
        assert list(together) == list(ASKED)
        for symbol in ASKED:
            assert said(together[symbol]) == alone(bench, symbol), symbol
        labels = {s: getattr(together[s], "label", None) for s in ASKED}
        assert labels["茅台"] is None and labels["not a symbol"] is None  # errors, as `quote` raises them
