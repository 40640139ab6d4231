"""Context from what is stored, on a real sample of the 2017-2022 universe (realdata): with no index stored, the
program's built indices give every report a known relative strength; peers are chosen by rule; the price facts are
shown and carried in the report's JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from stockbench.cli.main import run
from tests.engine.analytics.test_zones import shared_folder

pytestmark = [pytest.mark.realdata, pytest.mark.slow]
SUBJECTS = {"sh600519": "600519.SH", "sz300750": "300750.SZ", "sh601318": "601318.SH"}


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every 40th code of the universe and the subjects, imported with `stockbench data import`."""
    folder = tmp_path_factory.mktemp("context")
    data = pl.scan_parquet(shared_folder() / "ashare_daily_2017_2022.parquet")
    codes = data.select(pl.col("code").unique().sort()).collect().get_column("code")
    chosen = sorted({*codes.gather_every(40).to_list(), *SUBJECTS})
    data.filter(pl.col("code").is_in(chosen)).collect().write_parquet(folder / "sample.parquet")
    assert run(["--home", str(folder / "ws"), "--json", "data", "import", str(folder / "sample.parquet")]) == 0
    return folder / "ws"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    capsys.readouterr()
    assert run(list(args)) == 0
    return json.loads(capsys.readouterr().out)


# ChiNext holds too few sampled stocks for its built index: 300750.SZ is measured against the built benchmark.
CASES = [("600519.SH", "2021-02-18", "built_sector"), ("601318.SH", "2021-12-31", "built_sector"),
         ("300750.SZ", "2020-03-20", "built_benchmark")]  # fmt: skip


@pytest.mark.parametrize(("symbol", "as_of", "basis"), CASES)
def test_relative_strength_is_known_against_a_built_index(
    home: Path, capsys: pytest.CaptureFixture[str], symbol: str, as_of: str, basis: str
) -> None:
    argv = ["--home", str(home), "--as-of", as_of, "--json", "analyze", symbol, "--model", "offline"]
    outcome = cli(capsys, *argv, "--language", "zh")
    assert outcome["status"] == "published", outcome["reason"]
    report = cli(capsys, "--home", str(home), "--json", "reports", "show", outcome["report_id"], "--format", "json")
    context = report["summary"]["context"]
    assert context["sector_basis"] == basis and context["relative_strength"] in {"leading", "inline", "lagging"}
    assert context["sector"] == {"built_sector": "000291.SH", "built_benchmark": "000290.SH"}[basis]
    assert context["peer_basis"] == "rule" and len(context["peers"]) == 3 and symbol not in context["peers"]
    assert context["price"]["day"] == as_of and context["price"]["close"] in report["markdown"]
    scene = report["markdown"].split("## 背景")[1].split("##")[0]
    assert "程序构建" in scene and "同业（按规则" in scene and "52周区间" in scene
    # no sector mapping: the peers come from the stock's board, and the line says so (not "the same sector index")
    board = {"300750.SZ": "创业板"}.get(symbol, "主板")
    assert f"同业（按规则从{board}的 " in scene and "同一行业指数" not in scene, scene
    # a board holds every industry: the peers are the stocks whose daily returns move most like this one's (peers
    # v1.2), each with its correlation, not the nearest in size
    assert "个交易日日收益与其相关性最高者）" in scene and scene.count("（相关系数 0.") == 3, scene
    # the scene's rationale says the index was built, and how (not "taken from the instrument data and the map")
    name = {"600519.SH": "贵州茅台", "601318.SH": "中国平安", "300750.SZ": "宁德时代"}[symbol]
    built = {
        "built_sector": f"未存储官方板块指数，{name}的板块指数为 000291.SH 沪深主板指数（程序构建），"
        "由其所在板块已存储的股票构建",
        "built_benchmark": f"所在板块已存储的股票也不足以构建，{name}的板块指数取 000290.SH 全A指数（程序构建），"
        "由全部已存储股票构建",
    }[basis]
    rationale = scene.strip().splitlines()[-1]
    assert rationale.startswith("按规则默认：") and rationale.endswith("；同业按规则从已存储的股票中选取"), rationale
    assert built in rationale, rationale


def test_moutai_price_facts_in_the_report(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--home", str(home), "--as-of", "2021-02-18", "--json"]
    outcome = cli(capsys, *args, "analyze", "600519.SH", "--model", "offline", "--language", "zh")
    report = cli(capsys, *args, "reports", "show", outcome["report_id"], "--format", "json")
    price = report["summary"]["context"]["price"]
    assert (price["close"], price["ma250_distance_pct"], price["drawdown_pct"]) == ("2471.00", "56.27", "-5.97")
    assert "距250日均线 +56.27%" in report["markdown"] and "总市值 31040.65亿元" in report["markdown"]
