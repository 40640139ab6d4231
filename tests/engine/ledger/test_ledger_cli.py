"""`stockbench ledger ...` end to end, with the contract's JSON keys."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stockbench.cli.main import run
from stockbench.workbench import Workbench
from tests.engine.ledger.conftest import snapshot


@pytest.fixture
def call(home: Path, capsys: pytest.CaptureFixture[str]) -> Any:
    def invoke(*args: str, code: int = 0) -> Any:
        result = run(["--json", "--as-of", "2024-12-31", *args])
        captured = capsys.readouterr()
        assert result == code, captured.err
        return json.loads(captured.out) if captured.out.strip() else None

    return invoke


def test_ledger_round_trip(call: Any, tmp_path: Path) -> None:
    assert call("ledger", "account", "add", "main", "--currency", "CNY", "--commission-rate", "0.0002",
                "--commission-min", "5")["account"] == "main"  # fmt: skip
    call("ledger", "cash", "main", "deposit", "200000", "--at", "2024-01-02T09:00:00+08:00")
    made = call("ledger", "fill", "main", "600519", "--side", "buy", "--qty", "100", "--price", "1650",
                "--at", "2024-01-02T10:00:00+08:00")  # fmt: skip
    assert made["fill_id"].startswith("F20240102-")
    rejected = call("ledger", "fill", "main", "600519", "--side", "sell", "--qty", "100", "--price", "1660",
                    "--at", "2024-01-02T14:00", code=1)  # fmt: skip
    assert [p["code"] for p in rejected["problems"]] == ["exceeds_sellable"]
    assert set(rejected["problems"][0]) >= {"code", "message", "fix"}
    positions = call("ledger", "positions", "main", "--price", "600519=1700")
    assert positions == [
        {
            # fees at 0.02%: commission 33.00 + transfer 1.65 + handling 5.63 + regulatory 3.30 = 43.58
            "symbol": "600519.SH", "qty": "100", "sellable": "100", "avg_cost": "1650.4358",
            "diluted_cost": "1650.4358", "realized_pnl": "0.00", "unrealized_pnl": "4956.42",
            "market_value": "170000.00", "price": "1700", "cost": "165043.58", "currency": "CNY",
            "fees": "43.58", "dividends": "0.00", "dividend_tax": "0.00",
        }
    ]  # fmt: skip
    at_fill = call("ledger", "positions", "main", "--at", "2024-01-02T10:30")
    assert at_fill[0]["sellable"] == "0"
    assert call("ledger", "balance", "main") == {"CNY": "34956.42"}
    call("ledger", "void", made["fill_id"], "--reason", "test")
    assert call("ledger", "balance", "main") == {"CNY": "200000.00"}
    kinds = [(h["kind"], h["voided"]) for h in call("ledger", "history", "main")]
    assert kinds == [("deposit", False), ("fill:buy", True)]


def test_orders_actions_import_and_export(call: Any, tmp_path: Path) -> None:
    call("ledger", "account", "add", "main", "--currency", "CNY")
    call("ledger", "cash", "main", "deposit", "500000", "--at", "2024-01-02T09:00")
    order = call("ledger", "order", "add", "main", "600519", "--side", "buy", "--qty", "200", "--price", "1650",
                 "--at", "2024-01-02T09:20")  # fmt: skip
    assert order["status"] == "open"
    assert [o["order_id"] for o in call("ledger", "order", "list", "main")] == [order["order_id"]]
    csv_file = tmp_path / "fills.csv"
    csv_file.write_text(
        "executed_at,symbol,side,qty,price,fee,order_id,note\n"
        f"2024-01-02 10:00,600519,buy,200,1650,,{order['order_id']},\n"
        "2024-01-03 10:00,sh600519,sell,100,1700,10.00,,half\n",
        encoding="utf-8",
    )
    dry = call("ledger", "import", str(csv_file), "main", "--dry-run")
    assert dry["valid"] is True and dry["written"] is False and len(dry["fills"]) == 2
    assert call("ledger", "positions", "main") == []
    assert call("ledger", "import", str(csv_file), "main")["written"] is True
    assert call("ledger", "order", "list", "main", "--status", "filled")[0]["filled"] == 200
    dividend = call(
        "ledger", "action", "dividend", "main", "600519", "--ex-date", "2024-06-19", "--per-share", "30.876"
    )
    assert dividend["amount"] == "3087.60"
    bonus = call("ledger", "action", "bonus", "main", "600519", "--ex-date", "2024-06-20", "--ratio", "0.5")
    assert bonus["qty"] == 50
    target = tmp_path / "main.beancount"
    assert call("ledger", "export", "main", "--format", "beancount", "--to", str(target))["entries"] == 5
    assert 'option "booking_method" "FIFO"' in target.read_text(encoding="utf-8")


def test_import_is_all_or_nothing(call: Any, tmp_path: Path) -> None:
    call("ledger", "account", "add", "main", "--currency", "CNY")
    call("ledger", "cash", "main", "deposit", "500000", "--at", "2024-01-02T09:00")
    csv_file = tmp_path / "bad.csv"
    csv_file.write_text(
        "executed_at,symbol,side,qty,price\n"
        "2024-01-02 10:00,600519,buy,100,1650\n"
        "2024-01-02 12:00,600519,buy,150,1650.001\n"
        "2024-01-02 10:00,600519,short,100,1650\n",
        encoding="utf-8",
    )
    result = call("ledger", "import", str(csv_file), "main", code=1)
    assert {(p["location"], p["code"]) for p in result["problems"]} == {
        ("row 3", "outside_session"), ("row 3", "lot_multiple"), ("row 3", "price_off_tick"), ("row 4", "bad_row"),
    }  # fmt: skip
    assert result["error"]["message"] == "4 problem(s) in bad.csv; nothing was written"
    assert call("ledger", "history", "main")[-1]["kind"] == "deposit"


def test_a_bad_lot_is_refused_in_the_language_asked_for_with_the_same_codes(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 19: `--lang zh` words the refusal and every problem in Chinese, `--lang en` in English; both exit 1 and
    the JSON carries the same stable codes."""
    base = ["--as-of", "2024-12-31"]
    assert run([*base, "ledger", "account", "add", "main", "--currency", "CNY"]) == 0
    assert run([*base, "ledger", "cash", "main", "deposit", "900000", "--at", "2024-01-02T09:00:00+08:00"]) == 0
    capsys.readouterr()
    fill = ["ledger", "fill", "main", "600519", "--side", "buy", "--qty", "150", "--price", "1650.001",
            "--at", "2024-01-02T10:00:00+08:00"]  # fmt: skip
    assert run(["--lang", "zh", *base, *fill]) == 1
    zh = capsys.readouterr().err.splitlines()
    assert zh[0] == "错误：成交未记录：600519.SH 买入数量须为 100 股的整数倍，而不是 150 股"
    assert zh[1] == "提示：买入 100 股或 200 股"
    assert zh[2] == (
        "  - 1650.001 不符合 600519.SH 的最小价格变动单位：有 3 位小数，而其价格最多 2 位（请用 1650.00 或 1650.01）"
    )
    assert run(["--lang", "en", *base, *fill]) == 1
    en = capsys.readouterr().err.splitlines()
    assert en[0] == "error: the fill was not recorded: a buy of 600519.SH must be a multiple of 100 shares, not 150"
    assert en[1] == "hint: buy 100 or 200"
    codes = {}
    for language in ("zh", "en"):
        assert run(["--json", "--lang", language, *base, *fill]) == 1
        found = json.loads(capsys.readouterr().out)
        codes[language] = (found["error"]["code"], [p["code"] for p in found["problems"]])
        assert found["error"]["message"].startswith("成交未记录" if language == "zh" else "the fill was not recorded")
    assert codes["zh"] == codes["en"] == ("rule_violation", ["lot_multiple", "price_off_tick"])


def test_rebuild_from_the_journal_json_and_chinese(call: Any, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    call("ledger", "account", "add", "main", "--currency", "CNY")
    call("ledger", "cash", "main", "deposit", "1000", "--at", "2024-01-02T09:00")
    call("ledger", "rebuild", "--from-journal", code=1)  # the ledger has rows: --yes is needed
    (home / "workspace.duckdb").unlink()
    assert call("ledger", "rebuild", "--from-journal") == {
        "lines": 3, "accounts": 1, "entries": 1, "orders": 0, "rebuilt": True
    }  # fmt: skip
    assert call("ledger", "balance", "main") == {"CNY": "1000.00"}
    assert run(["--lang", "zh", "ledger", "rebuild", "--from-journal", "--yes"]) == 0
    assert "已按 3 行账本日志重建账本" in capsys.readouterr().out
    assert run(["ledger", "rebuild"]) == 2


def test_a_fill_on_a_day_the_stored_bars_say_it_did_not_trade_is_refused(call: Any, home: Path, tmp_path: Path) -> None:
    rows = ["symbol,date,open,high,low,close,prev_close,volume"]
    rows += [f"600519.SH,{d},1650.00,1660.00,1640.00,1650.00,1650.00,10000"
             for d in ("2024-01-02", "2024-01-03", "2024-01-05")]  # fmt: skip
    bars = tmp_path / "bars.csv"
    bars.write_text("\n".join(rows) + "\n", encoding="utf-8")
    call("data", "import", str(bars))
    call("ledger", "account", "add", "main", "--currency", "CNY")
    call("ledger", "cash", "main", "deposit", "500000", "--at", "2024-01-02T09:00")
    before = call("ledger", "history", "main")
    with Workbench.open(home) as bench:
        tables = snapshot(bench.ledger)
    args = ("ledger", "fill", "main", "600519", "--side", "buy", "--qty", "100", "--price", "1650")
    for extra in ((), ("--dry-run",)):
        refused = call(*args, "--at", "2024-01-04T10:00", *extra, code=1)
        assert [(p["code"], p["message"]) for p in refused["problems"]] == [
            ("not_traded", "600519.SH did not trade on 2024-01-04 (suspended): a fill cannot be recorded")
        ]
    assert call("ledger", "history", "main") == before
    with Workbench.open(home) as bench:
        assert snapshot(bench.ledger) == tables, "a refused fill must leave the ledger exactly as it was"
    assert call(*args, "--at", "2024-01-05T10:00")["trade_date"] == "2024-01-05"  # a day with a bar
    assert (
        call(
            "ledger",
            "fill",
            "main",
            "000001",
            "--side",
            "buy",
            "--qty",
            "100",
            "--price",
            "9",
            "--at",
            "2024-01-04T10:00",
        )["trade_date"]
        == "2024-01-04"
    )  # no bars of 000001.SZ stored: accepted


@pytest.fixture
def say(home: Path, capsys: pytest.CaptureFixture[str]) -> Any:
    """A command's human output (stdout and stderr) in the language asked for."""

    def invoke(*args: str, lang: str = "en", code: int = 0) -> str:
        result = run(["--lang", lang, "--as-of", "2024-12-31", *args])
        captured = capsys.readouterr()
        assert result == code, captured.err
        return captured.out + captured.err

    return invoke


def test_money_is_shown_as_people_read_it(call: Any, say: Any) -> None:
    """Found on main: `ledger account list` printed the cash as a Python dict ({'CNY': '100000.00'}), `ledger history`
    amounts with four decimals (100000.0000), and a refusal ran a code into the Chinese ("600519.SH需要")."""
    call("ledger", "account", "add", "main", "--currency", "CNY")
    call("ledger", "cash", "main", "deposit", "100000", "--at", "2024-01-02T09:00:00+08:00")
    listed = say("ledger", "account", "list")
    assert listed.splitlines()[2].split() == ["main", "CNY", "CN", "100000.00", "CNY"] and "{" not in listed
    assert "100000.00 CNY" in say("ledger", "account", "list", lang="zh")
    for lang in ("en", "zh"):
        history = say("ledger", "history", "main", lang=lang)
        assert " 100000.00 " in history + " " and "100000.0000" not in history
    refused = say("ledger", "fill", "main", "600519", "--side", "buy", "--qty", "100", "--price", "1650", "--at",
                  "2024-01-02T10:00:00+08:00", lang="zh", code=1)  # fmt: skip
    assert "买入 100 股 600519.SH 需要 165051.83 CNY，但现金余额只有 100000.00 CNY" in refused
    assert call("ledger", "account", "list")["accounts"][0]["cash"] == {"CNY": "100000.00"}  # the JSON as it was
