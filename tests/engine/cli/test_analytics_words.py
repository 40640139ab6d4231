"""The analytics commands speak the `--lang` language: under `--lang zh`, `backtest`, `indicators`, `rules show`,
`zones` and `scan` print none of the engine's English words (codes, symbols and dates stay as they are) and Chinese
punctuation between Chinese clauses; a zone's anchor is shown at the zone's tick decimals, as a report shows it, in
either language; under `--lang en` the output is what it was where it was right, and the JSON is unchanged."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from stockbench.cli.main import run
from tests.engine.cli.test_cli_words import _english_words
from tests.engine.research.test_report_language import english_in

SYMBOL = "605903.SH"  # the demo's Shanghai main board stock: a backtest that fires, zones, an ex-rights note
INDEX = "000692.SH"  # its sector index in the demo market
# the glossary's letters a Chinese reader reads as they are: TTM (市盈率TTM)
ALLOWED = {"TTM"}
RAW = re.compile(r"(?<![\d.])\d+\.\d{4}(?!\d)")  # an anchor at the facts' four places (356.7558)
COMMANDS = {
    "backtest": ("backtest", SYMBOL),
    "indicators": ("indicators", SYMBOL, "--benchmark", INDEX),
    "rules show": ("rules", "show", SYMBOL),
    "rules show star": ("rules", "show", "688901.SH"),
    "rules show index": ("rules", "show", INDEX),
    "rules show ambiguous": ("rules", "show", "000001"),
    "zones": ("zones", SYMBOL),
    "scan": ("scan", "--top", "8"),
}


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("analytics-words") / "market"
    assert run(["--home", str(home), "--json", "demo"]) == 0
    return home


def _said(home: Path, language: str, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    code = run(["--home", str(home), "--lang", language, *args])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out + captured.err


@pytest.mark.parametrize("name", COMMANDS)
def test_the_analytics_commands_speak_chinese_under_lang_zh(
    demo: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    said = _said(demo, "zh", capsys, *COMMANDS[name])
    assert re.search(r"[\u4e00-\u9fff]", said), said
    left = [w for w in _english_words(said) if w not in ALLOWED]
    assert left == [] and english_in(said) == [], said
    assert ", " not in said and "; " not in said and " (" not in said, said  # Chinese punctuation in Chinese text


def test_a_zones_anchor_is_shown_at_the_zones_decimals_in_either_language(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    zh, en = (_said(demo, language, capsys, "zones", SYMBOL) for language in ("zh", "en"))
    assert RAW.findall(zh) == [] and RAW.findall(en.split("\nnote:")[0]) == []
    assert "：价格 358.53 位于买入区间 351.56-359.35（依据 成交密集区 356.76，低于价格 0.49%）" in zh
    assert "is in the buy zone 351.56-359.35 (built on volume_node 356.76, 0.49% below the price)" in en
    assert run(["--home", str(demo), "--json", "zones", SYMBOL]) == 0
    data = json.loads(capsys.readouterr().out)
    assert next(a["value"] for a in data["buy"]["anchors"] if a["role"] == "basis") == "356.7558"  # JSON unchanged


def _backtest_json(demo: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert run(["--home", str(demo), "--json", "backtest", SYMBOL]) == 0
    found: dict[str, Any] = json.loads(capsys.readouterr().out)
    return found


def test_the_english_output_is_unchanged(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _backtest_json(demo, capsys)
    five = data["horizons"]["5"]
    backtest = _said(demo, "en", capsys, "backtest", SYMBOL).splitlines()
    assert backtest[0] == (
        f"{SYMBOL}: {data['sessions']} scored sessions {data['first_day']}..{data['last_day']}, {data['fires']} signals"
    )
    assert backtest[1].split() == ["horizon", "fires", "trades", "independent", "win_rate", "ev", "base", "evidence",
                                   "in_sample", "out_of_sample"]  # fmt: skip
    assert backtest[3].split()[:6] == ["5", *(str(five[k]) for k in ("fires", "trades", "independent", "win_rate",
                                                                    "ev"))]  # fmt: skip
    assert backtest[-4] == f"  5: {five['sample_note']}" and five["sample_note"].endswith("(sample_confidence v2.0)")
    assert backtest[-1] == f"costs: {data['costs']}"
    assert data["costs"] == "round-trip fees of a 100000 order from resources/market_rules.toml, default commission"
    rules = _said(demo, "en", capsys, "rules", "show", "688901.SH").splitlines()
    assert rules[1:3] == ["  SH star stock, CNY", "  tick 0.01; lot 200 then steps of 1; daily limit 20.00%; T+1"]
    indicators = _said(demo, "en", capsys, "indicators", SYMBOL).splitlines()
    assert indicators[0] == f"{SYMBOL} on 2026-11-27 (1670 sessions, prices forward-adjusted)"
    assert indicators[3].split() == ["ma5", "357.43"]
    scan = _said(demo, "en", capsys, "scan", "--top", "1")
    assert "ranks 92% of 53 symbols (+20); close in the buy zone (buy zone based on volume node) (+15)" in scan


def test_the_backtest_in_chinese_says_the_figures_in_percent(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _backtest_json(demo, capsys)
    five = data["horizons"]["5"]
    zh = _said(demo, "zh", capsys, "backtest", SYMBOL).splitlines()
    period = f"{data['first_day']}..{data['last_day']}"
    assert zh[0] == f"{SYMBOL}：{period} 共 {data['sessions']} 个有评分的交易日，信号 {data['fires']} 次"
    assert zh[3].split()[4:7] == [f"{five['win_rate']:.2%}", f"{five['ev']:.2%}", f"{five['base_win_rate']:.2%}"]
    assert "没有跑赢基准：置信度上限 0.3（样本置信上限表 v2.0）" in zh[-2]
