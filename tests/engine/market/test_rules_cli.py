from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stockbench.cli.main import run


def call(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    code = run(["--json", *args])
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip() else None


def test_rules_show_keys(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data = call(capsys, "rules", "show", "sh600519", "--date", "2024-01-02")
    assert code == 0
    assert {k: data[k] for k in ("symbol", "exchange", "board", "security_type", "currency", "tick", "lot")} == {
        "symbol": "600519.SH",
        "exchange": "SH",
        "board": "main",
        "security_type": "stock",
        "currency": "CNY",
        "tick": "0.01",
        "lot": 100,
    }
    assert data["limit_pct"] == "0.10"
    assert data["settlement"] == "T+1"


def test_rules_show_star_hk_and_index(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, star = call(capsys, "rules", "show", "688981", "--date", "2024-01-02")
    assert (star["lot"], star["lot_step"], star["limit_pct"]) == (200, 1, "0.20")
    _, hk = call(capsys, "rules", "show", "700", "--date", "2025-09-01")
    assert hk["limit_pct"] is None and hk["lot"] is None and hk["settlement"] == "T+0"
    assert hk["tick"] is None and hk["tick_table"]["name"] == "2025-08-04"
    _, index = call(capsys, "rules", "show", "000300.SH")
    assert index["security_type"] == "index" and index["settlement"] is None


def test_rules_limits(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data = call(capsys, "rules", "limits", "000001.SZ", "--ref", "14.25", "--date", "2020-07-06")
    assert code == 0
    assert (data["up"], data["down"]) == ("15.68", "12.83")
    _, st = call(capsys, "rules", "limits", "600078", "--ref", "3.33", "--date", "2021-03-01", "--st")
    assert (st["up"], st["down"]) == ("3.50", "3.16")


def test_check_order_exit_0_either_way(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data = call(
        capsys, "rules", "check-order", "000001", "--side", "sell", "--qty", "120", "--price", "15.6",
        "--holding", "150", "--date", "2020-07-06", "--ref", "14.25",
    )  # fmt: skip
    assert code == 0
    assert data["valid"] is False
    assert [p["code"] for p in data["problems"]] == ["odd_lot_sell"]
    assert set(data["problems"][0]) >= {"code", "message", "fix"}
    code, data = call(
        capsys, "rules", "check-order", "000001", "--side", "sell", "--qty", "150", "--price", "15.6",
        "--holding", "150", "--date", "2020-07-06", "--ref", "14.25",
    )  # fmt: skip
    assert code == 0 and data["valid"] is True and data["problems"] == []


def test_check_order_hk_lot_is_a_problem_unless_given(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["rules", "check-order", "00005.HK", "--side", "buy", "--qty", "800", "--price", "95.05"]
    _, unknown = call(capsys, *args, "--date", "2025-09-01")
    assert [p["code"] for p in unknown["problems"]] == ["lot_unknown"]
    _, known = call(capsys, *args, "--date", "2025-09-01", "--lot", "400")
    assert known["valid"] is True
    _, odd = call(capsys, *args[:-4], "--qty", "500", "--price", "95.05", "--lot", "400", "--date", "2025-09-01")
    assert [p["code"] for p in odd["problems"]] == ["hk_odd_lot"]


def test_bad_symbol_and_bad_price(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["rules", "show", "60051"]) == 1
    assert "'60051' is not a valid A-share code: 6 digits expected" in capsys.readouterr().err
    assert run(["rules", "limits", "600519", "--ref", "abc"]) == 1
    assert "--ref 'abc' is not a number" in capsys.readouterr().err
