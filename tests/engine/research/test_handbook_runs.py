"""The offline rules model follows the handbook's stages and satisfies its gates on real data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stockbench.cli.main import run


@pytest.mark.realdata
def test_offline_model_on_600519_as_of_2021_12_31(
    shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = str(tmp_path / "real")
    assert run(["--home", home, "--json", "data", "import", str(shared_data / "ashare_full" / "sh600519.csv")]) == 0
    capsys.readouterr()
    assert run(["--home", home, "--as-of", "2021-12-31", "--json", "analyze", "600519.SH"]) == 0
    outcome = json.loads(capsys.readouterr().out)
    assert outcome["status"] == "published", outcome["reason"]
    assert outcome["orders"] == []  # no account, and the shared data has gaps: no executable orders
    assert run(["--home", home, "--as-of", "2021-12-31", "--json", "reports", "show", outcome["report_id"]]) == 0
    report = json.loads(capsys.readouterr().out)
    stages = [s["step"] for s in report["draft"]["method"]]
    assert stages == ["prepare", "scene", "collect", "preprocess", "analyze", "decide", "report", "publish"]
    assert {"financials", "valuation_history"} <= {g["name"] for g in report["draft"]["gaps"]}
    assert run(["--home", home, "--as-of", "2021-12-31", "--json", "reports", "verify", outcome["report_id"]]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


def test_offline_model_on_the_demo_market(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = str(tmp_path / "demo")
    assert run(["--home", home, "--json", "demo"]) == 0
    capsys.readouterr()
    for symbol in ("605903.SH", "688901.SH"):
        assert run(["--home", home, "--json", "analyze", symbol]) == 0
        outcome = json.loads(capsys.readouterr().out)
        assert outcome["status"] == "published", outcome["reason"]
        assert run(["--home", home, "--json", "reports", "verify", outcome["report_id"]]) == 0
        assert json.loads(capsys.readouterr().out)["ok"] is True
