"""Honest signals in a report: the backtest is cited only when its signal fires on the as-of session, beside the
base rate of the same horizon and its independent trades, for the side its edge supports; the scenario table's
data range reaches the report summary (issue 18, items 5 and 7)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stockbench.cli.main import run
from stockbench.evidence.numbers import ground_numbers, index_evidence
from stockbench.research.backtest_argument import backtest_argument, calibration_line
from stockbench.research.blocks import BacktestFact, CalibrationFact, parse
from stockbench.workbench import Workbench
from tests.engine.research.conftest import DEMO_SYMBOL

FIRED_SYMBOL, FIRED_ON = "003901.SZ", "2026-10-08"  # the demo's signal fires on this session


def block(*, fired: bool, evidence: str, ev: str = "5.37", base_ev: str = "3.09") -> dict[str, Any]:
    """A backtest facts block as stockbench.research.program writes it (600519.SH as of 2021-02-18's figures)."""
    horizon = {"horizon": 20, "fires": 74, "trades": 73, "independent": 49, "win_rate": "0.6849", "ev_pct": ev,
               "base_windows": 4495, "base_independent": 225, "base_win_rate": "0.5935", "base_ev_pct": base_ev,
               "evidence": evidence, "confidence_cap": "1.00"}  # fmt: skip
    return {"horizons": {"20": horizon}, "signal": {"day": "2021-02-18", "fired": fired, "score": "50.00"},
            "evidence_id": "ev-backtest"}  # fmt: skip


def fact(data: dict[str, Any]) -> BacktestFact:
    return parse(BacktestFact, data)


def test_not_cited_when_the_signal_does_not_fire() -> None:
    """Issue 18: "回测：20个交易日期望收益 5.70%" was a bull argument under avoid with no signal on the day."""
    for evidence in ("edge", "no_edge", "small_sample"):
        quiet = fact(block(fired=False, evidence=evidence))
        assert backtest_argument(quiet, "bull", "zh") is None and backtest_argument(quiet, "bear", "zh") is None
    assert backtest_argument(None, "bull", "zh") is None


def test_cited_beside_the_base_rate_and_the_independent_trades() -> None:
    data = block(fired=True, evidence="edge")
    text = backtest_argument(fact(data), "bull", "zh")
    assert text == (
        "回测：买入信号于 2021-02-18 触发；历史上信号后持有 20 个交易日平均收益 5.37%、胜率 68.5%"
        "（73 笔，互不重叠 49 笔），同一历史中任意 20 日窗口平均 3.09%、胜率 59.4%；跑赢基准，且独立样本充足"
    )
    assert backtest_argument(fact(data), "bear", "zh") is None, "an edge argues for the bull only"
    english = backtest_argument(fact(data), "bull", "en")
    assert english is not None and "against 3.09% and 59.4% wins for any 20-session window" in english
    index = index_evidence([("ev-backtest", "application/json", json.dumps(data))])
    for cited in (text, english):
        assert ground_numbers(cited, index, "debate") == [], "every figure traces to the backtest block"


def test_a_signal_without_an_edge_is_the_bears_argument() -> None:
    data = block(fired=True, evidence="no_edge", ev="0.19", base_ev="0.20")
    assert backtest_argument(fact(data), "bull", "zh") is None
    text = backtest_argument(fact(data), "bear", "en")
    assert text is not None and text.endswith("it does not beat the base rate: the signal adds nothing and is no "
                                              "reason to buy")  # fmt: skip
    assert backtest_argument(fact(block(fired=True, evidence="never_fired")), "bull", "zh") is None


def test_the_calibration_line_discloses_look_ahead() -> None:
    ahead = CalibrationFact("2017-01-03", "2022-01-14", look_ahead=True)
    assert calibration_line(ahead, "zh") == (
        "前视披露：情景概率来自校准表（数据 2017-01-03 至 2022-01-14），其数据晚于研究日期，含未来信息"
    )
    assert calibration_line(ahead, "en") is not None and "Look-ahead" in str(calibration_line(ahead, "en"))
    in_time = calibration_line(CalibrationFact("2017-01-03", "2020-12-31", look_ahead=False), "en")
    assert in_time is not None and "before the research date" in in_time
    assert calibration_line(None, "zh") is None


def _run(bench: Workbench, run_id: str) -> tuple[dict[str, Any], list[str]]:
    journal = bench.research.journal
    facts = json.loads(journal.stored(run_id, "preprocess/facts", "result") or "{}")
    texts = []
    for side in ("bull", "bear"):
        found = json.loads(journal.stored(run_id, f"analyze/{side}/tool/1/call_2", "result") or "{}")
        texts += [f"{side}: {a['text']}" for a in found["value"]["arguments"]]
    return facts, texts


def analyzed(
    demo_home: Path, capsys: pytest.CaptureFixture[str], symbol: str, as_of: str | None = None
) -> tuple[str, str]:
    clock = ["--as-of", as_of] if as_of else []
    assert run(["--home", str(demo_home), *clock, "--json", "analyze", symbol]) == 0
    found: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert found["status"] == "published", found["reason"]
    return str(found["run_id"]), str(found["report_id"])


def test_the_offline_model_cites_the_backtest_only_on_a_firing_session(
    demo_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (quiet, _), (fired, report_id) = (analyzed(demo_home, capsys, DEMO_SYMBOL),
                                      analyzed(demo_home, capsys, FIRED_SYMBOL, FIRED_ON))  # fmt: skip
    with Workbench.open(demo_home) as bench:
        facts, texts = _run(bench, quiet)
        assert facts["backtest"]["signal"]["fired"] is False, "premise: no signal on the demo's last session"
        assert facts["backtest"]["horizons"]["20"]["trades"] > 0, "premise: the backtest has trades to cite"
        assert not [t for t in texts if "回测" in t], texts
        facts, texts = _run(bench, fired)
        signal, h20 = facts["backtest"]["signal"], facts["backtest"]["horizons"]["20"]
        assert (signal["fired"], signal["day"]) == (True, FIRED_ON), "premise: the signal fires on this session"
        [cited] = [t for t in texts if "回测" in t]
        side = "bull" if h20["evidence"] in {"edge", "small_sample", "thin_edge"} else "bear"
        assert cited.startswith(f"{side}: 回测：买入信号于 {FIRED_ON} 触发")
        assert f"平均 {h20['base_ev_pct']}%" in cited and f"互不重叠 {h20['independent']} 笔" in cited
        summary = bench.research.report(report_id).as_dict()["summary"]
        calibration = facts["scenarios"]["calibration"]
        assert summary["calibration"] == {k: calibration[k] for k in ("data_from", "data_to", "look_ahead")}
        assert calibration["look_ahead"] is False and calibration["data_to"] < FIRED_ON


def test_the_backtest_command_counts_what_the_report_counts(
    demo_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`stockbench backtest SYMBOL` measures relative strength against the index a research run reads (the scene's
    default sector index) unless told another, so its fires, trades and independent trades are the report's (they
    were 27 and 18 against the report's 33 and 23 when the command measured against nothing)."""
    run_id, _ = analyzed(demo_home, capsys, DEMO_SYMBOL)
    assert run(["--home", str(demo_home), "--json", "backtest", DEMO_SYMBOL]) == 0
    command = json.loads(capsys.readouterr().out)
    with Workbench.open(demo_home) as bench:
        facts, _ = _run(bench, run_id)
        scene = json.loads(bench.research.journal.stored(run_id, "scene/tool/1/call_1", "result") or "{}")
    report = facts["backtest"]["horizons"]
    assert command["benchmark"] == scene["value"]["sector_index"] == "000692.SH"
    for horizon, h in report.items():
        mine = command["horizons"][horizon]
        assert (mine["fires"], mine["trades"], mine["independent"]) == (h["fires"], h["trades"], h["independent"])
    assert run(["--home", str(demo_home), "--json", "backtest", DEMO_SYMBOL, "--benchmark", "000690.SH"]) == 0
    assert json.loads(capsys.readouterr().out)["benchmark"] == "000690.SH"  # one given is read instead


@pytest.mark.realdata
def test_600519_as_of_2021_02_18_uses_a_table_from_before_it_and_cites_no_backtest(
    shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 18: the report as of 2021-02-18 read a table calibrated on data to 2022-01-14 and cited the backtest
    with no signal on the day."""
    home = tmp_path / "real"
    assert (
        run(["--home", str(home), "--json", "data", "import", str(shared_data / "ashare_full" / "sh600519.csv")]) == 0
    )
    capsys.readouterr()
    run_id, report_id = analyzed(home, capsys, "600519.SH", "2021-02-18")
    with Workbench.open(home) as bench:
        facts, texts = _run(bench, run_id)
        assert facts["backtest"]["signal"] == {"day": "2021-02-18", "fired": False, "score": "50.00"}
        assert not [t for t in texts if "回测" in t], texts
        h20 = facts["backtest"]["horizons"]["20"]
        assert (h20["base_win_rate"], h20["base_ev_pct"]) == ("0.5935", "3.09")
        calibration = facts["scenarios"]["calibration"]
        assert calibration == {"file": "scenario_table_2020.json", "data_from": "2017-01-03",
                               "data_to": "2020-12-31", "look_ahead": False}  # fmt: skip
        summary = bench.research.report(report_id).as_dict()["summary"]
        assert summary["calibration"] == {"data_from": "2017-01-03", "data_to": "2020-12-31", "look_ahead": False}
