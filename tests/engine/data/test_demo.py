"""The embedded demo market: coverage, determinism, and every bar, figure and text checked against the rules."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from time import perf_counter

import polars as pl
import pytest

from stockbench.cli.main import run
from stockbench.clock import MARKET_TZ
from stockbench.config import default_home
from stockbench.data.demo import DEMO_FOLDER, PIN_SETTING, demo_home, ensure_demo
from stockbench.market.bar_rules import check_bars
from stockbench.market.calendars import Calendars
from stockbench.market.instruments import Board, identify
from stockbench.market.limits import price_limits
from stockbench.market.registry import is_st_name
from stockbench.market.tables import load_tables
from stockbench.market.ticks import is_valid_tick, spread_table
from stockbench.store.database import Database
from stockbench.store.workspace import Workspace
from stockbench.workbench import Workbench

LAST = date(2026, 11, 27)
ST_LIMIT_CHANGE = date(2026, 7, 6)
DIGESTED = {
    "bars": "bars",
    "money_flow": "money_flow",
    "valuation": "valuation",
    "financials": "financials",
    "announcements": "announcements",
    "quotes": "quotes",
    "instrument_names": "instrument_names",
    "instruments": "(SELECT * EXCLUDE (updated_at) FROM instruments)",
}


@dataclass(frozen=True)
class Snapshot:
    """The demo workspace's contents, read once for the module (the workspace itself is closed)."""

    home: Path
    seconds: float
    bars: pl.DataFrame
    instruments: pl.DataFrame
    names: pl.DataFrame
    valuation: pl.DataFrame
    flows: pl.DataFrame
    financials: pl.DataFrame
    announcements: pl.DataFrame
    quotes: pl.DataFrame
    digests: dict[str, str]
    pinned: object


def _frame(db: Database, sql: str) -> pl.DataFrame:
    cursor = db.cursor()
    cursor.complete()  # a pending DB-API result (from a scalar read) blocks relation work on the cursor
    frame = pl.from_arrow(cursor.sql(sql).to_arrow_table())
    assert isinstance(frame, pl.DataFrame)
    return frame


def _digests(db: Database) -> dict[str, str]:
    sql = "SELECT md5(string_agg(CAST(t AS VARCHAR), chr(10) ORDER BY CAST(t AS VARCHAR))) FROM {} t"
    return {name: str(db.scalar(sql.format(source))) for name, source in DIGESTED.items()}


def _snapshot(home: Path) -> Snapshot:
    start = perf_counter()
    with Workspace.open(home, kind="demo") as workspace:
        summary = ensure_demo(workspace)
        seconds = perf_counter() - start
        assert summary.built
        db = workspace.db
        bars = _frame(
            db,
            "SELECT b.symbol, b.day AS date, b.open, b.high, b.low, b.close, b.prev_close, b.volume, b.amount,"
            " n.name, i.list_date, i.security_type FROM bars b JOIN instruments i USING (symbol)"
            " ASOF LEFT JOIN instrument_names n ON b.symbol = n.symbol AND b.day >= n.valid_from"
            " ORDER BY b.symbol, b.day",
        )
        return Snapshot(
            home=home,
            seconds=seconds,
            bars=bars,
            instruments=_frame(db, "SELECT * FROM instruments ORDER BY symbol"),
            names=_frame(db, "SELECT * FROM instrument_names ORDER BY symbol, valid_from"),
            valuation=_frame(db, "SELECT * FROM valuation"),
            flows=_frame(db, "SELECT * FROM money_flow"),
            financials=_frame(db, "SELECT * FROM financials"),
            announcements=_frame(db, "SELECT * FROM announcements ORDER BY symbol, published_at"),
            quotes=_frame(db, "SELECT * FROM quotes"),
            digests=_digests(db),
            pinned=workspace.settings.get(PIN_SETTING),
        )


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return _snapshot(tmp_path_factory.mktemp("demo") / "market")


@pytest.fixture(scope="module")
def checked(demo: Snapshot) -> pl.DataFrame:
    """Every demo bar through the market rules module's own vectorised checker."""
    return check_bars(demo.bars.drop("security_type", "volume", "amount"))


def _stocks(demo: Snapshot) -> pl.DataFrame:
    return demo.instruments.filter(pl.col("security_type") == "stock")


def test_the_demo_is_a_demo_workspace_pinned_at_its_last_session(demo: Snapshot) -> None:
    assert demo.pinned == LAST.isoformat()
    with Workbench.open(demo.home) as bench:
        assert bench.workspace.kind == "demo"
        assert bench.clock.is_replay
        assert bench.clock.now() == datetime(2026, 11, 27, 18, tzinfo=MARKET_TZ["CN"])


def test_coverage_of_boards_st_names_listings_lots_and_indices(demo: Snapshot) -> None:
    stocks = _stocks(demo)
    boards = dict.fromkeys(Board, 0)
    for symbol in stocks["symbol"]:
        boards[identify(symbol).instrument.board] += 1
    a_shares = stocks.filter(~pl.col("symbol").str.ends_with(".HK"))
    assert a_shares.height >= 40
    assert boards[Board.CHINEXT] >= 5 and boards[Board.STAR] >= 5 and boards[Board.BSE] >= 5
    prefixes = {s[:3] for s in a_shares["symbol"]}
    assert {"605", "003", "301", "688", "920"} <= prefixes  # SH and SZ main, ChiNext, STAR, Beijing
    st = demo.names.filter(pl.col("name").map_elements(is_st_name, return_dtype=pl.Boolean))
    assert st["symbol"].n_unique() == 2
    assert any(n.startswith("*ST") for n in st["name"]) and any(n.startswith("ST") for n in st["name"])
    young = a_shares.filter(pl.col("list_date") > LAST - timedelta(days=365))
    assert young.height >= 1
    hong_kong = stocks.filter(pl.col("symbol").str.ends_with(".HK"))
    assert hong_kong.height == 10
    assert hong_kong["board_lot"].null_count() == 0 and hong_kong["board_lot"].n_unique() >= 5
    indices = demo.instruments.filter(pl.col("security_type") == "index")
    assert indices.height >= 5 and any("综合" in n for n in indices["name"])
    first, last = demo.bars["date"].min(), demo.bars["date"].max()
    assert isinstance(first, date) and last == LAST and first <= LAST.replace(year=LAST.year - 6)


def test_every_name_says_it_is_a_demo(demo: Snapshot) -> None:
    for name in [*demo.names["name"], *demo.instruments["name"]]:
        assert "示例" in name or "DEMO" in name, name
    for text in demo.announcements["text"]:
        assert "虚构示例" in text


def test_every_a_share_bar_passes_the_market_rules_checks(checked: pl.DataFrame) -> None:
    statuses = checked.group_by("status").len()
    assert set(statuses["status"]) <= {"ok", "unchecked"}, checked.filter(~pl.col("status").is_in(["ok", "unchecked"]))
    a_shares = checked.filter(~pl.col("symbol").str.ends_with(".HK") & (pl.col("limit_rule") != "none"))
    assert a_shares.height > 60_000
    assert {"normal", "st", "new_listing"} <= set(a_shares["limit_rule"])


def test_the_young_listing_trades_five_sessions_without_a_limit(checked: pl.DataFrame) -> None:
    young = checked.filter(pl.col("symbol") == "003910.SZ").sort("date")
    assert young["date"][0] > LAST - timedelta(days=365)
    assert young["limit_rule"].head(6).to_list() == ["new_listing"] * 5 + ["normal"]
    first = young.row(0, named=True)
    assert first["close"] > first["prev_close"] * Decimal("1.2")  # beyond any ordinary main-board limit


def test_st_limits_are_five_percent_before_2026_07_06_and_ten_from_then(checked: pl.DataFrame) -> None:
    st = checked.filter(pl.col("limit_rule") == "st").with_columns(
        ratio=(pl.col("limit_up").cast(pl.Float64) / pl.col("prev_close").cast(pl.Float64))
    )
    before, after = st.filter(pl.col("date") < ST_LIMIT_CHANGE), st.filter(pl.col("date") >= ST_LIMIT_CHANGE)
    assert before.height > 100 and after.height > 50
    assert before["ratio"].max() < 1.06 and after["ratio"].min() > 1.09  # type: ignore[operator]


def test_limit_up_and_limit_down_days_on_every_board(checked: pl.DataFrame) -> None:
    limited = checked.filter(pl.col("limit_up").is_not_null())
    for prefix in ("605", "003", "301", "688", "920"):
        board = limited.filter(pl.col("symbol").str.starts_with(prefix))
        assert board.filter(pl.col("close") == pl.col("limit_up")).height > 0, prefix
        assert board.filter(pl.col("close") == pl.col("limit_down")).height > 0, prefix


def test_limit_days_agree_with_price_limits_itself(checked: pl.DataFrame) -> None:
    tables = load_tables()
    hits = checked.filter((pl.col("close") == pl.col("limit_up")) | (pl.col("close") == pl.col("limit_down")))
    for row in hits.head(200).iter_rows(named=True):
        instrument = identify(row["symbol"]).instrument
        limits = price_limits(instrument, row["prev_close"], row["date"], st=is_st_name(row["name"]), tables=tables)
        assert row["close"] in (limits.up, limits.down), row


def test_hong_kong_prices_sit_on_the_spread_table_tick_of_their_date(demo: Snapshot) -> None:
    tables = load_tables()
    hk = demo.bars.filter(pl.col("symbol").str.ends_with(".HK"))
    assert hk.height > 15_000
    for row in hk.iter_rows(named=True):
        bands = spread_table(identify(row["symbol"]).instrument, row["date"], tables).bands
        for price in (row["open"], row["high"], row["low"], row["close"]):
            band = next(
                b for b in bands if (b.lower <= price if b is bands[0] else b.lower < price) and price <= b.upper
            )
            assert price % band.tick == 0, (row["symbol"], row["date"], price)
    for row in hk.sample(300, seed=1).iter_rows(named=True):
        instrument = identify(row["symbol"]).instrument
        assert all(is_valid_tick(instrument, row[c], row["date"], tables) for c in ("open", "high", "low", "close"))


def test_ex_dates_carry_the_exchange_reference_price_their_notices_announce(demo: Snapshot) -> None:
    bars = demo.bars.filter(pl.col("security_type") == "stock", ~pl.col("symbol").str.ends_with(".HK"))
    jumps = bars.with_columns(before=pl.col("close").shift(1).over("symbol")).filter(
        pl.col("before").is_not_null() & (pl.col("prev_close") != pl.col("before"))
    )
    notices = demo.announcements.filter((pl.col("category") == "dividend") & ~pl.col("symbol").str.ends_with(".HK"))
    found = {}
    for symbol, text in notices.select("symbol", "text").iter_rows():
        ex = re.search(r"除权（息）日(\d{4})年(\d+)月(\d+)日", text)
        cash = re.search(r"每股现金红利([\d.]+)元", text)
        ratio = re.search(r"流通股份变动比例为([\d.]+)", text)
        assert ex and cash and ratio, text
        found[(symbol, date(*map(int, ex.groups())))] = (Decimal(cash[1]), Decimal(ratio[1]))
    assert jumps.height == len(found) > 200
    bonus = 0
    for row in jumps.iter_rows(named=True):
        cash, ratio = found[(row["symbol"], row["date"])]
        reference = ((row["before"] - cash) / (1 + ratio)).quantize(Decimal("0.01"), ROUND_HALF_UP)
        assert row["prev_close"] == reference, row
        bonus += ratio > 0
    assert bonus >= 3


def test_suspensions_leave_sessions_without_bars(demo: Snapshot) -> None:
    sessions = Calendars(None, load_tables()).calendar("CN").sessions(date(2020, 1, 2), LAST)
    stocks = demo.bars.filter(pl.col("security_type") == "stock", ~pl.col("symbol").str.ends_with(".HK"))
    missing = 0
    for (symbol,), frame in stocks.group_by("symbol"):
        first = frame["date"].min()
        expected = [d for d in sessions if isinstance(first, date) and d >= first]
        missing += int(len(expected) > frame.height)
        assert set(frame["date"]) <= set(expected), symbol
    assert missing >= 8
    st_halt = stocks.filter((pl.col("symbol") == "605905.SH") & (pl.col("date") == date(2023, 5, 4)))
    assert st_halt.is_empty()  # the session before its ST name took effect
    assert demo.announcements.filter(pl.col("category") == "suspension").height >= 5


def test_volumes_and_amounts_agree_with_prices(demo: Snapshot) -> None:
    stocks = demo.bars.filter(pl.col("security_type") == "stock")
    cent = Decimal("0.01")
    outside = stocks.filter(
        (pl.col("amount") < pl.col("low") * pl.col("volume") - cent)
        | (pl.col("amount") > pl.col("high") * pl.col("volume") + cent)
        | (pl.col("volume") <= 0)
    )
    assert outside.is_empty()


def test_statements_valuation_and_money_flow_cover_the_data_gates(demo: Snapshot) -> None:
    assert (demo.financials["published"] > demo.financials["period_end"]).all()
    periods = (
        demo.financials.filter(pl.col("published") <= LAST).group_by("symbol").agg(pl.col("period_end").n_unique())
    )
    valuation = demo.valuation.group_by("symbol").len()
    established = _stocks(demo).filter(pl.col("list_date") < date(2022, 6, 1))["symbol"]
    assert established.len() >= 48
    for symbol in established:
        assert periods.filter(pl.col("symbol") == symbol)["period_end"].item() >= 8, symbol
        assert valuation.filter(pl.col("symbol") == symbol)["len"].item() >= 1000, symbol
    flows = demo.flows
    assert (flows["main_net"] == flows["large_net"] + flows["super_large_net"]).all()
    total = flows["small_net"] + flows["medium_net"] + flows["large_net"] + flows["super_large_net"]
    assert (total == 0).all()
    assert demo.quotes.height == _stocks(demo).height and demo.quotes["board_lot"].null_count() == 0


def test_announcements_are_real_texts_with_preannouncements_and_reductions(demo: Snapshot) -> None:
    notices = demo.announcements
    assert (notices["text"].str.len_chars() > 300).all()
    categories = set(notices["category"])
    assert {"earnings_preannouncement", "shareholder_reduction", "annual_report", "dividend"} <= categories
    assert any("减持均价" in t for t in notices["text"])
    assert any("业绩预告" in t for t in notices["title"])
    per_year = notices.with_columns(year=pl.col("published_at").dt.year()).group_by("symbol", "year").len()
    assert per_year.filter(pl.col("year") == 2025)["len"].min() >= 3  # type: ignore[operator]
    recent = notices.filter(pl.col("published_at").dt.date() >= LAST - timedelta(days=90))
    assert set(recent["symbol"]) == set(_stocks(demo)["symbol"])  # something to read in the last 90 days


@pytest.mark.slow
def test_a_second_build_is_identical(demo: Snapshot, tmp_path: Path) -> None:
    again = _snapshot(tmp_path / "again")
    assert again.digests == demo.digests


def test_the_demo_command_opens_the_built_market_and_prints_its_keys(
    demo: Snapshot, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["--json", "demo", "--home", str(demo.home)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"instruments", "bars", "first", "last", "symbols"} <= set(data)
    assert data["built"] is False  # opened, not rebuilt
    assert data["instruments"] == demo.instruments.height == len(data["symbols"])
    assert data["bars"] == demo.bars.height
    assert (data["first"], data["last"]) == ("2020-01-02", LAST.isoformat())
    assert "600519.SH" not in data["symbols"] and "00700.HK" not in data["symbols"]


def test_the_demo_command_refuses_a_user_workspace(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Workspace.open(home).close()
    assert run(["demo"]) == 1
    assert "not the demo market's" in capsys.readouterr().err


def test_the_default_demo_folder_sits_beside_the_default_workspace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("STOCKBENCH_HOME", raising=False)
    assert demo_home() == default_home().parent / DEMO_FOLDER
    assert demo_home("/tmp/elsewhere") == Path("/tmp/elsewhere").resolve()


def test_a_new_demo_starts_a_watchlist_of_one_stock_per_board_and_keeps_the_users_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from stockbench.data.demo import STARTER_WATCHLIST
    from stockbench.workbench import Workbench

    home = tmp_path / "fresh-demo"
    assert run(["--json", "demo", "--home", str(home)]) == 0
    assert json.loads(capsys.readouterr().out)["built"] is True
    with Workbench.open(home) as bench:
        assert bench.watchlist.symbols() == list(STARTER_WATCHLIST)
        bench.watchlist.remove(STARTER_WATCHLIST[0])
        assert bench.watchlist.seed(STARTER_WATCHLIST) == []  # a watchlist in use is left alone
    assert run(["--json", "demo", "--home", str(home)]) == 0  # opened again, not rebuilt: nothing re-added
    with Workbench.open(home) as bench:
        assert bench.watchlist.symbols() == list(STARTER_WATCHLIST[1:])
