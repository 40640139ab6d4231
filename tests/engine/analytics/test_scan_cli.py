"""`stockbench scan` on real names (realdata): special treatment as of the session is flagged and kept off the
shortlist unless --include-st, equal scores are ordered by their components rather than by code, and the names
are printed. The universe is a slice of the community file around 2020-03-20, when 000897.SZ traded as *ST津滨
(a code-order tie-break ranked it first)."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from stockbench.analytics.scan import load_zone_tables
from stockbench.cli.main import run
from stockbench.clock import ReplayClock
from stockbench.workbench import Workbench
from tests.engine.analytics.test_zones import shared_folder

pytestmark = pytest.mark.realdata
AS_OF = "2020-03-20"
CODES = ["sz000897", "sz000063", "sz002093", "sz002310", "sz002331", "sh600519", "sz000001", "sz300750", "sh601318"]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("scan-st")
    parquet = shared_folder() / "ashare_daily_2017_2022.parquet"
    rows = pl.scan_parquet(parquet).filter(
        pl.col("code").is_in(CODES) & pl.col("date").is_between(date(2018, 6, 1), date(2020, 6, 30))
    )
    rows.collect().write_parquet(folder / "slice.parquet")
    with Workbench.open(folder / "workspace", clock=ReplayClock.as_of(date(2022, 1, 14))) as bench:
        report = bench.data.import_file(folder / "slice.parquet")
        assert report.rejected == 0 and report.symbols == len(CODES)
    return folder / "workspace"


def scan(capsys: pytest.CaptureFixture[str], home: Path, *args: str) -> Any:
    assert run(["--home", str(home), "--json", "--as-of", AS_OF, "scan", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_st_names_are_left_off_the_shortlist_and_said_so(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = scan(capsys, home)
    assert "000897.SZ" not in [p["symbol"] for p in data["shortlist"]]
    assert data["st_left_out"] == ["000897.SZ"]
    assert all(p["st"] is None and p["name"] for p in data["shortlist"])
    assert run(["--home", str(home), "--as-of", AS_OF, "scan"]) == 0
    out = capsys.readouterr().out
    assert "国脉科技" in out and "贵州茅台" in out and "*ST津滨" not in out  # names printed
    assert "left out as ST/*ST though they scored enough: 000897.SZ (--include-st to rank them)" in out


def test_include_st_flags_them_and_ties_go_by_components(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = scan(capsys, home, "--include-st")
    picks = data["shortlist"]
    st = next(p for p in picks if p["symbol"] == "000897.SZ")
    assert st["name"] == "*ST津滨" and st["st"] == "*ST"
    assert st["reasons"][0] == "flagged *ST: delisting risk warning"
    assert data["st_left_out"] == []
    # 002093.SZ and 000897.SZ tie on 45 points; by code *ST津滨 came first, by components (its relative strength
    # ranks lower) it comes second
    assert [(p["symbol"], p["score"]) for p in picks[:2]] == [("002093.SZ", 45.0), ("000897.SZ", 45.0)]
    with Workbench.open(home, clock=ReplayClock.as_of(date(2020, 3, 20))) as bench:
        screen = bench.analytics.scan("all", include_st=True).screen
    keys = load_zone_tables()["scan"]["tie_break"]
    rows = {r["symbol"]: r for r in screen.iter_rows(named=True)}
    order = [(p["score"], *(rows[p["symbol"]][k] for k in keys)) for p in picks]
    assert order == sorted(order, reverse=True)  # within equal scores, the components decide
    assert run(["--home", str(home), "--as-of", AS_OF, "scan", "--include-st"]) == 0
    assert "*ST津滨" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("name", "flag"),
    [
        ("*ST津滨", "*ST"),
        ("ST澄星", "ST"),
        ("S*ST前锋", "*ST"),
        ("SST华新", "ST"),
        ("XDST罗顿", "ST"),
        ("津滨发展", None),
    ],
)
def test_special_treatment_of_a_name(name: str, flag: str | None) -> None:
    from stockbench.market.registry import special_treatment

    assert special_treatment(name) == flag


def test_a_zone_reason_names_its_basis_in_the_reader_s_words(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The zone reason names the level the buy zone rests on as people read it (20日均线, 波段低点; 20-day MA, swing
    low), never the engine's anchor code (ma20, pivot_low)."""
    codes = re.compile(r"\b(ma\d+|pivot_(low|high)|volume_node|high_52w|atr_projection|(low|high)_\d+)\b")
    said = {}
    for language in ("zh", "en"):
        assert run(["--home", str(home), "--as-of", AS_OF, "--lang", language, "scan", "--include-st"]) == 0
        said[language] = capsys.readouterr().out
        assert not codes.search(said[language]), said[language]
    assert re.search(r"买入区间依据 (\d+日均线|波段低点|成交密集区|52周高点)", said["zh"]), said["zh"]
    assert re.search(r"buy zone based on (\d+-day MA|swing low|volume node|52-week high)", said["en"]), said["en"]
