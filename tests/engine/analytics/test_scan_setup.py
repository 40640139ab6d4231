"""The scan's buy-setup flag (realdata): each shortlisted symbol is judged by the decision baseline's setup checks on
the session, from the facts research reads, and the judgement agrees with the signal study's own restatement of the
setup (bench/signal_study.py `setup_rule`, computed over the whole file), symbol by symbol. A pick in the setup says
so first; the JSON carries the checks that failed or are unknown."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from bench.signal_study import session_frame, setup_rule
from stockbench.analytics.rule_tables import load_rule_tables
from stockbench.cli.main import run
from stockbench.clock import ReplayClock
from stockbench.workbench import Workbench
from tests.engine.analytics.test_zones import shared_folder

pytestmark = pytest.mark.realdata
DAYS = [date(2020, 9, 30), date(2021, 6, 30)]
SAMPLE = 120  # stocks trading through the file, every 30th by code


@pytest.fixture(scope="module")
def slice_and_home(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("scan-setup")
    parquet = shared_folder() / "ashare_daily_2017_2022.parquet"
    codes = (
        pl.scan_parquet(parquet)
        .filter(pl.col("code").str.starts_with("sh") | pl.col("code").str.starts_with("sz"))
        .group_by("code")
        .agg(first=pl.col("date").min())
        .filter(pl.col("first") <= date(2018, 1, 2))
        .sort("code")
        .collect()["code"]
        .gather_every(30)
        .head(SAMPLE)
        .to_list()
    )
    part = folder / "slice.parquet"
    pl.scan_parquet(parquet).filter(pl.col("code").is_in(codes) & (pl.col("date") <= DAYS[-1])).sink_parquet(part)
    home = folder / "workspace"
    with Workbench.open(home, clock=ReplayClock.as_of(date(2022, 1, 14))) as bench:
        assert bench.data.import_file(part).rejected == 0
    return part, home


def test_each_pick_s_setup_is_the_baseline_s_and_agrees_with_the_study(slice_and_home: tuple[Path, Path]) -> None:
    part, home = slice_and_home
    frame = session_frame(part).with_columns(pl.col("volatility_state").alias("volatility"))
    study = frame.with_columns(study=setup_rule(load_rule_tables().decision_baseline)).filter(pl.col("day").is_in(DAYS))
    expected = {
        (r["symbol"], r["day"]): r["study"] for r in study.select("symbol", "day", "study").iter_rows(named=True)
    }
    held, judged = 0, 0
    for day in DAYS:
        with Workbench.open(home, clock=ReplayClock.as_of(day)) as bench:
            found = bench.analytics.scan("all", day, top=SAMPLE)
        for pick in found.shortlist:
            assert pick.setup is not None and pick.setup.day == day.isoformat()
            truth = expected[(pick.symbol, day)]
            if truth is None or pick.setup.holds is None:  # an input unknown on either side: both say unknown
                assert truth is None and pick.setup.holds is None, (pick.symbol, day, pick.setup)
                continue
            assert pick.setup.holds == truth, (pick.symbol, day, pick.setup.as_dict())
            judged += 1
            if truth:
                held += 1
                first = pick.notes[1 if pick.st else 0]
                assert first.key == "scan.setup" and "250-day MA" in first.text("en")
                assert "买入形态" in first.text("zh") and "10-50%" in first.text("zh")
            else:
                assert "scan.setup" not in [n.key for n in pick.notes] and pick.setup.failed
    assert judged >= 40 and held >= 1, (judged, held)


def test_the_scan_json_carries_each_pick_s_setup(
    slice_and_home: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, home = slice_and_home
    assert run(["--home", str(home), "--as-of", DAYS[-1].isoformat(), "scan", "--top", "10", "--json"]) == 0
    picks: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["shortlist"]
    assert picks
    for pick in picks:
        setup = pick["setup"]
        assert set(setup) == {"day", "holds", "failed", "unknown", "checks"}
        names = [c["name"] for c in setup["checks"]]
        assert names == ["volatility", "uptrend", "extension", "over_ma20", "near_ma20", "run", "run_up", "turnover"]
        assert (setup["holds"] is False) == bool(setup["failed"])
