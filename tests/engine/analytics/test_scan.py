"""The opportunity scan on real bars (realdata): the as-of snapshot agrees with the indicators module, the zone
position agrees with the one zone algorithm, data quality keeps stale and short series out of the ranking, and the
shortlist is ranked deterministically with reasons and carries no prices or quantities."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import polars as pl
import pytest

from stockbench.analytics.frames import bars_from_community_csv
from stockbench.analytics.indicators import add_indicators
from stockbench.analytics.rule_tables import load_rule_tables
from stockbench.analytics.scan import as_of_window, load_zone_tables, run_scan, screen, snapshot
from stockbench.analytics.zones import compute_levels, position_expr

CODES = ("sh600519", "sz000001", "sh688981", "sz300750", "sh600078", "sh601318", "sz000002")
DATES = (date(2019, 12, 31), date(2020, 9, 30), date(2021, 6, 30))

pytestmark = pytest.mark.realdata


@pytest.fixture(scope="module")
def bars() -> pl.DataFrame:
    from tests.engine.analytics.test_zones import shared_folder

    folder = shared_folder()
    frames = [bars_from_community_csv(folder / "ashare_full" / f"{c}.csv") for c in CODES]
    return pl.concat(frames).filter(pl.col("day") >= date(2017, 1, 1))


@pytest.mark.parametrize("as_of", DATES)
def test_snapshot_agrees_with_the_indicators(bars: pl.DataFrame, as_of: date) -> None:
    scan = load_zone_tables()["scan"]
    snap = snapshot(as_of_window(bars, as_of, scan.integer("window_sessions"), scan.integer("calendar_days")), scan)
    full = add_indicators(bars.filter(pl.col("day") <= as_of)).group_by("symbol").last()
    joined = snap.join(full, on="symbol", suffix="_full")
    assert joined.height == snap.height == full.height
    for column in ("close", "ma5", "ma20", "ma60", "ma120", "ma250", "high_52w", "low_52w"):
        a, b = joined.get_column(column), joined.get_column(f"{column}_full")
        assert a.is_null().to_list() == b.is_null().to_list(), column
        assert ((a - b).abs() <= 1e-9 * b.abs()).all(), column
    ready = joined.filter(pl.col("bars") >= 200)  # ATR14 is seeded at the window's start: it converges
    assert ((ready["atr14"] - ready["atr14_full"]).abs() <= 1e-6 * ready["atr14_full"]).all()


@pytest.mark.parametrize("as_of", DATES)
def test_zone_position_is_the_zone_algorithms(bars: pl.DataFrame, as_of: date) -> None:
    table = screen(bars, as_of)
    single, _ = compute_levels(add_indicators(bars.filter(pl.col("day") <= as_of)))
    single = single.with_columns(single_zone=position_expr(pl.col("close"))).select("symbol", "single_zone")
    joined = table.join(single, on="symbol", how="left")
    assert joined.get_column("zone").to_list() == joined.get_column("single_zone").to_list()


def test_quality_keeps_stale_and_short_series_out(bars: pl.DataFrame) -> None:
    as_of = date(2020, 9, 30)
    stale = bars.filter(~((pl.col("symbol") == "000002.SZ") & (pl.col("day") == as_of)))
    table = screen(stale, as_of)
    rows = {r["symbol"]: r for r in table.iter_rows(named=True)}
    assert rows["000002.SZ"]["quality"] == "stale" and rows["000002.SZ"]["score"] is None
    assert rows["688981.SH"]["quality"] == "short"  # listed 2020-07-16: 53 sessions
    assert rows["600519.SH"]["quality"] == "ok" and rows["600519.SH"]["score"] is not None
    suspended = screen(bars, date(2019, 6, 21))  # 600078.SH was suspended from 2019-06-10 to 2019-06-21
    assert suspended.filter(pl.col("symbol") == "600078.SH")["quality"].to_list() == ["stale"]


def test_shortlist_is_ranked_with_reasons_and_no_prices(bars: pl.DataFrame) -> None:
    result = run_scan(bars, date(2021, 6, 30), top=3)
    again = run_scan(bars, date(2021, 6, 30), top=3)
    assert result.shortlist == again.shortlist and result.scanned == len(CODES)
    scores = [p.score for p in result.shortlist]
    assert scores == sorted(scores, reverse=True) and len(result.shortlist) <= 3
    floor = load_zone_tables()["scan"].number("min_score")
    assert all(p.score >= floor and p.reasons for p in result.shortlist)
    keys = ["score", *load_zone_tables()["scan"]["tie_break"], "symbol"]
    best = result.screen.filter(pl.col("score") >= floor).sort(keys, descending=[True] * (len(keys) - 1) + [False])
    assert [p.symbol for p in result.shortlist] == best.get_column("symbol").head(3).to_list()
    for pick in result.as_dict()["shortlist"]:  # type: ignore[attr-defined]
        assert set(pick) == {"symbol", "name", "st", "score", "reasons", "setup"}
    parts = result.screen.select(pl.sum_horizontal("p_trend", "p_rs", "p_surge", "p_valuation", "p_zone"))
    assert result.screen.filter(pl.col("quality") == "ok")["score"].to_list() == [
        s for s, q in zip(parts.to_series().to_list(), result.screen["quality"], strict=True) if q == "ok"
    ]
    book = load_rule_tables()
    assert result.tables == ("scan v1.1", book.trend.cite(), book.zones.cite())


def test_relative_strength_rank_and_valuation_points(bars: pl.DataFrame, tmp_path: Path) -> None:
    valuation = pl.DataFrame({"symbol": ["600519.SH"], "valuation_pct": [0.1], "valuation_metric": ["PE TTM"]})
    table = screen(bars, date(2021, 6, 30), valuation=valuation)
    ok = table.filter(pl.col("quality") == "ok").sort("ret")
    assert ok.get_column("rs_rank").to_list() == pytest.approx([(i + 1) / ok.height for i in range(ok.height)])
    moutai = table.filter(pl.col("symbol") == "600519.SH").row(0, named=True)
    assert moutai["p_valuation"] == load_zone_tables()["scan"].number("valuation_low_points")


def test_a_pick_s_setup_is_said_first_when_it_holds_and_named_in_words_when_unknown() -> None:
    """Pick.with_setup: a setup that holds is the first reason (after an ST flag); one the data cannot judge names
    what is missing in the reader's words, each input once; a failed one adds no reason (the JSON has it)."""
    from stockbench.analytics.baseline import Heat, setup_of
    from stockbench.analytics.scan import Pick
    from stockbench.messages import note

    pick = Pick("600519.SH", 20.0, (note("scan.trend_only", trend="up", trend_zh="上升"),), "贵州茅台")
    held = pick.with_setup(setup_of("600519.SH", "2021-06-30", Heat("normal", 20.0, 1.0, 2.0, 5.0)))
    assert held.notes[0].key == "scan.setup" and held.setup is not None and held.setup.holds is True
    assert "10-50%" in held.notes[0].text("zh") and "0-5%" in held.notes[0].text("en")
    young = pick.with_setup(setup_of("600519.SH", "2021-06-30", Heat("normal", None, 1.0, 2.0, 5.0)))
    assert young.setup is not None and young.setup.holds is None and young.setup.unknown == ("uptrend", "extension")
    assert young.notes[0].text("zh") == "买入形态无法判断：数据说不出收盘价高于250日均线的幅度"
    assert (
        young.notes[0].text("en")
        == "buy setup not judged: the data cannot say the close's distance above the 250-day MA"
    )
    hot = pick.with_setup(setup_of("600519.SH", "2021-06-30", Heat("high", 20.0, 1.0, 2.0, 5.0)))
    assert hot.setup is not None and hot.setup.failed == ("volatility",) and hot.notes == pick.notes
    flagged = replace(pick, st="ST", notes=(note("scan.st"), *pick.notes)).with_setup(held.setup)
    assert [n.key for n in flagged.notes[:2]] == ["scan.st", "scan.setup"]
