"""`stockbench zones`, `size` and `scan`: the JSON keys of the contract (prices as exact strings), refusals with
their problems and exit code 1, and the human output, on a workspace of real bars (realdata)."""

from __future__ import annotations

import json
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from stockbench.cli.main import run
from stockbench.clock import MARKET_TZ, ReplayClock
from stockbench.workbench import Workbench
from tests.engine.analytics.test_zones import real_workspace, shared_folder

pytestmark = pytest.mark.realdata
AS_OF = "2021-06-30"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    found = real_workspace(tmp_path_factory.mktemp("cli"), shared_folder(), ["sh600519", "sh688981"])
    with Workbench.open(found, clock=ReplayClock.as_of(date(2021, 6, 30))) as bench:
        bench.ledger.add_account("main", "CNY")
        bench.ledger.cash("main", "deposit", Decimal("1000000"), at=datetime(2021, 6, 1, 10, tzinfo=MARKET_TZ["CN"]))
    return found


def cli_json(capsys: pytest.CaptureFixture[str], home: Path, *args: str, code: int = 0) -> Any:
    assert run(["--home", str(home), "--json", "--as-of", AS_OF, *args]) == code
    return json.loads(capsys.readouterr().out)


def is_price(value: object) -> bool:
    return isinstance(value, str) and Decimal(value) > 0


def test_zones_json(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = cli_json(capsys, home, "zones", "600519")
    for side in ("buy", "sell"):
        assert {"low", "high", "anchors"} <= set(data[side])
        assert is_price(data[side]["low"]) and is_price(data[side]["high"])
        assert all({"kind", "name", "value", "day", "role"} <= set(a) for a in data[side]["anchors"])
    # zones v1.1: the sell zone skips the resistances within 1 ATR of the buy zone, so 2056.70 lies between them
    assert is_price(data["stop"]) and data["position"] == "between" and data["price"] == "2056.70"
    assert Decimal(data["buy"]["high"]) <= Decimal(data["sell"]["low"])


def test_zones_json_carries_the_plan(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = cli_json(capsys, home, "zones", "600519")
    kept = {"symbol", "as_of", "price", "buy", "sell", "stop", "stop_anchors", "position", "atr14", "scale",
            "trade_day", "flags", "table"}  # fmt: skip
    assert kept | {"reward_risk", "distance_pct", "tradeable", "reasons"} <= set(data)
    assert set(data["distance_pct"]) == {"buy_high", "sell_low", "stop"}
    price = Decimal(data["price"])
    for key, level in (("buy_high", data["buy"]["high"]), ("sell_low", data["sell"]["low"]), ("stop", data["stop"])):
        assert Decimal(data["distance_pct"][key]) == ((Decimal(level) / price - 1) * 100).quantize(Decimal("0.01"))
    buy, sell = data["buy"], data["sell"]
    entry, target = (Decimal(buy["low"]) + Decimal(buy["high"])) / 2, (Decimal(sell["low"]) + Decimal(sell["high"])) / 2
    ratio = (target - entry) / (entry - Decimal(data["stop"]))
    assert Decimal(data["reward_risk"]) == ratio.quantize(Decimal("0.01"))
    assert data["reward_risk"] == "1.46" and data["tradeable"] is False and data["reasons"] == ["reward_risk_below_min"]
    assert isinstance(data["tradeable"], bool) and data["table"] == "zones v1.1"


def test_zones_human(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--home", str(home), "--as-of", AS_OF, "zones", "600519.SH"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("600519.SH as of 2021-06-30: price 2056.70 is between the zones: the buy zone")
    assert "built on volume_node 2008.99, 2.32% below the price" in out and "2.84% above the price" in out
    assert "plan  reward-to-risk 1.46 (minimum 1.5): not tradeable (reward_risk_below_min)" in out


def test_size_json(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = (
        "size",
        "main",
        "600519",
        "--side",
        "buy",
        "--entry",
        "2023.03",
        "--stop",
        "1924.74",
        "--risk-pct",
        "2%",
        "--max-weight",
        "50",
    )
    data = cli_json(capsys, home, *args)
    assert {"qty", "price", "fees", "break_even", "cash_after", "weight_after", "loss_at_stop"} <= set(data)
    assert data["qty"] == 100 and data["price"] == "2023.03"
    assert is_price(data["break_even"]) and is_price(data["cash_after"]) and is_price(data["loss_at_stop"])
    assert set(data["fees"]) >= {"items", "total"} and is_price(data["fees"]["total"])


def test_size_refusals_exit_1_with_problems(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    above = ("size", "main", "600519", "--side", "buy", "--entry", "2000", "--stop", "2100")
    data = cli_json(capsys, home, *above, code=1)
    assert [p["code"] for p in data["problems"]] == ["stop_not_below_entry"]
    poor = ("size", "main", "600519", "--side", "buy", "--entry", "2000", "--stop", "1990", "--max-weight", "10")
    assert [p["code"] for p in cli_json(capsys, home, *poor, code=1)["problems"]] == ["weight_cap_below_one_lot"]
    assert run(["--home", str(home), "size", "main", "600519", "--side", "buy", "--entry", "2000", "--stop", "1900",
                "--risk-pct", "lots"]) == 1  # fmt: skip
    assert "error: --risk-pct 'lots' is not a number" in capsys.readouterr().err  # a typed number: a user error


def test_scan_json(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = cli_json(capsys, home, "scan", "--top", "5")
    assert data["scanned"] == 2 and isinstance(data["shortlist"], list)
    for pick in data["shortlist"]:
        assert set(pick) == {"symbol", "name", "st", "score", "reasons", "setup"} and pick["reasons"]
    one = cli_json(capsys, home, "scan", "--symbol", "600519")
    assert one["scanned"] == 1
    assert run(["--home", str(home), "--json", "watchlist", "add", "600519"]) == 0
    capsys.readouterr()
    watched = cli_json(capsys, home, "scan", "--universe", "watchlist")
    assert watched["scanned"] == 1


def test_scan_during_a_session_ranks_on_the_last_completed_one(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # At 14:00 on 2021-06-30 that day's bars are not visible yet: 2021-06-29 is the session the data must reach.
    assert run(["--home", str(home), "--json", "--as-of", "2021-06-30T14:00", "scan", "--symbol", "600519"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scanned"] == 1 and data["ranked"] == 1
    assert run(["--home", str(home), "--json", "--as-of", "2021-06-30T14:00", "zones", "600519"]) == 0
    zones = json.loads(capsys.readouterr().out)
    assert zones["as_of"] == "2021-06-29" and zones["trade_day"]["day"] == "2021-06-30"
    assert not [f for f in zones["flags"] if f.startswith("no_bar")]  # not a suspension: the day is not over


SIZE = ("size", "main", "600519", "--side", "buy", "--entry", "2000", "--stop", "1980", "--max-weight", "50")


def test_size_reads_a_bare_number_as_percent(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    default = cli_json(capsys, home, *SIZE)
    one = cli_json(capsys, home, *SIZE, "--risk-pct", "1")
    assert one == cli_json(capsys, home, *SIZE, "--risk-pct", "1%") == default  # the table's 1%: one and the same
    equity = Decimal(one["equity"])
    assert Decimal(one["risk_budget"]) == (equity / 100).quantize(Decimal("0.01"))
    half = cli_json(capsys, home, *SIZE, "--risk-pct", "0.5")
    assert Decimal(half["risk_budget"]) == (equity * Decimal("0.005")).quantize(Decimal("0.01"))
    assert Decimal(one["weight_after"]) <= Decimal("0.5")  # --max-weight 50 is 50%
    capped = cli_json(capsys, home, *SIZE[:-2], "--max-weight", "10", code=1)  # 10% of 1,000,000: under one lot
    assert [p["code"] for p in capped["problems"]] == ["weight_cap_below_one_lot"]
    assert "maximum weight 10%" in capped["problems"][0]["message"]


def test_a_risk_above_the_ceiling_needs_confirmation(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = cli_json(capsys, home, *SIZE, "--risk-pct", "5", code=1)
    assert [p["code"] for p in data["problems"]] == ["risk_above_ceiling"]
    assert run(["--home", str(home), "--as-of", AS_OF, *SIZE, "--risk-pct", "5"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "error: the plan was refused: a risk of 5% of equity is above the sizing table's ceiling of 2%",
        "hint: lower --risk-pct to 2% or less, or confirm it with --confirm-risk",
    ]
    confirmed = cli_json(capsys, home, *SIZE, "--risk-pct", "5", "--confirm-risk")
    assert Decimal(confirmed["risk_budget"]) == (Decimal(confirmed["equity"]) / 20).quantize(Decimal("0.01"))
    assert cli_json(capsys, home, *SIZE, "--risk-pct", "2")["qty"] > 0  # at the ceiling: no confirmation needed
    too_much = cli_json(capsys, home, *SIZE, "--risk-pct", "150", "--confirm-risk", code=1)
    assert [p["code"] for p in too_much["problems"]] == ["bad_risk_pct"]
