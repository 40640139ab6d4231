"""`stockbench data ...`: the JSON keys are part of the contract."""

from __future__ import annotations

import json
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from stockbench.cli.main import run
from stockbench.clock import MARKET_TZ
from stockbench.data.records import Quote
from stockbench.workbench import Workbench
from tests.engine.data.test_gates import SYMBOL, FakeProvider, failing
from tests.engine.data.test_importer import COMMUNITY, GENERIC

BAR_KEYS = {"date", "open", "high", "low", "close", "prev_close", "volume", "amount"}
GATE_KEYS = {"name", "status", "reason", "evidence", "exception_allowed"}


def call(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    code = run(["--json", *args])
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip() else None


@pytest.fixture
def imported(home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "mine.csv"
    path.write_text(GENERIC, encoding="utf-8")
    code, _ = call(capsys, "data", "import", str(path))
    assert code == 0
    return path


def test_import_keys(home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sz000001.csv"
    path.write_text(COMMUNITY, encoding="utf-8")
    code, data = call(capsys, "data", "import", str(path), "--format", "community")
    assert code == 0
    assert (data["read"], data["stored"], data["rejected"]) == (3, 2, 1)
    assert data["rejected_reasons"] == {"negative_volume": 1}
    assert data["rejected_samples"] == [{"file": "sz000001.csv", "line": 4, "reason": "negative_volume"}]
    assert {"files", "format", "source", "symbols", "names", "first", "last", "seconds"} <= set(data)


def test_bars_keys_and_prices_as_strings(imported: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data = call(capsys, "data", "bars", "600519", "--from", "2024-01-03", "--to", "2024-01-04")
    assert code == 0
    assert {k: data[k] for k in ("symbol", "adjust", "source", "count")} == {
        "symbol": SYMBOL,
        "adjust": "none",
        "source": "user_csv",
        "count": 2,
    }
    assert [set(b) for b in data["bars"]] == [BAR_KEYS, BAR_KEYS]
    assert data["bars"][0] == {
        "date": "2024-01-03",
        "open": "10.20",
        "high": "10.60",
        "low": "10.10",
        "close": "10.40",
        "prev_close": "10.20",
        "volume": 2000,
        "amount": None,
    }


def test_bars_as_of_and_adjusted(imported: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, past = call(capsys, "data", "bars", "600519", "--as-of", "2024-01-03")
    assert [b["date"] for b in past["bars"]] == ["2024-01-02", "2024-01-03"] and past["as_of"]
    _, early = call(capsys, "data", "bars", "600519", "--as-of", "2024-01-03T12:00")
    assert [b["date"] for b in early["bars"]] == ["2024-01-02"]  # the day's bar exists only after the day
    _, forward = call(capsys, "data", "bars", "600519", "--adjust", "forward")
    assert forward["adjust"] == "forward" and forward["bars"][-1]["close"] == "10.15"


def test_quote_outside_the_window_is_the_labelled_last_close(
    imported: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, data = call(capsys, "data", "quote", "600519", "--no-fetch", "--as-of", "2024-01-04")
    assert code == 0
    assert {k: data[k] for k in ("symbol", "label", "price", "prev_close", "date", "source")} == {
        "symbol": SYMBOL,
        "label": "last_close",
        "price": "10.10",
        "prev_close": "10.40",
        "date": "2024-01-04",
        "source": "user_csv",
    }


def test_quote_shows_the_trading_status_of_the_session(imported: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, before = call(capsys, "data", "quote", "600519", "--no-fetch", "--as-of", "2024-01-04")
    assert before["status"] is None and before["delay_minutes"] == 0  # no quote of that session is stored
    with Workbench.open() as bench:
        at = datetime(2024, 1, 4, 15, 0, 5, tzinfo=MARKET_TZ["CN"])
        bench.data.cache.store_quotes([Quote(SYMBOL, at, Decimal("10.10"), Decimal("10.10"), None, None, None, 0,
                                             None, "tencent", status="suspended")])  # fmt: skip
    code, data = call(capsys, "data", "quote", "600519", "--no-fetch", "--as-of", "2024-01-04")
    assert code == 0 and data["status"] == "suspended" and data["label"] == "last_close"
    run(["data", "quote", "600519", "--no-fetch", "--as-of", "2024-01-04"])
    assert "suspended" in capsys.readouterr().out


def test_gates_keys(imported: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data = call(capsys, "data", "gates", "600519", "--no-fetch", "--as-of", "2024-01-05")
    assert code == 0
    assert data["symbol"] == SYMBOL and data["passed"] is False
    assert [g["name"] for g in data["gates"]][:2] == ["fresh_quote", "daily_bars"]
    assert all(set(g) >= GATE_KEYS and g["status"] in {"pass", "gap"} for g in data["gates"])
    assert data["gates"][0]["status"] == "pass" and data["gates"][0]["label"] == "last_close"
    assert data["gates"][1]["evidence"] == [f"bars:{SYMBOL}:2024-01-02..2024-01-05:user_csv"]


def test_fetch_reports_every_attempt_with_progress_on_stderr(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fakes = {
        "eastmoney": FakeProvider("eastmoney", {"money_flow": failing("eastmoney", "money_flow")}),
        "sina": FakeProvider("sina", {"money_flow": failing("sina", "money_flow")}),
    }
    monkeypatch.setattr("stockbench.data.providers.default_providers", lambda http: fakes)
    code = run(["--json", "data", "fetch", "600519", "--what", "money_flow", "--as-of", "2024-01-05"])
    captured = capsys.readouterr()
    assert code == 0
    data = json.loads(captured.out)
    assert [(f["source"], f["ok"], f["failure"]) for f in data["fetches"]] == [
        ("eastmoney", False, "network"),
        ("sina", False, "network"),
    ]
    assert set(data["fetches"][0]) == {
        "what",
        "source",
        "ok",
        "rows",
        "reason",
        "failure",
        "log",
        "skipped",
        "fetched_at",
    }
    assert "money_flow of 600519.SH: failed" in captured.err


def test_bad_input_is_a_clear_error(home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data = call(capsys, "data", "bars", "12345678")
    assert code == 1 and data["error"]["code"] == "invalid_input"
    code, data = call(capsys, "data", "import", str(tmp_path / "missing.csv"))
    assert code == 1 and "does not exist" in data["error"]["message"]
    assert run(["data", "fetch", "600519", "--what", "rumours"]) == 2


def test_indices_are_built_on_import_and_on_demand(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.engine.data.test_indices import long_file

    path = tmp_path / "three.parquet"
    long_file().write_parquet(path)
    code, data = call(capsys, "data", "import", str(path))
    built = {b["symbol"]: b for b in data["indices"]["built"]}
    assert code == 0 and set(built) == {"000290.SH", "000291.SH"} and data["indices"]["rows"] == 33
    assert {"key", "name", "sessions", "first", "last", "members_last", "float_cap_sessions",
            "equal_sessions"} <= set(built["000290.SH"])  # fmt: skip
    assert [s["symbol"] for s in data["indices"]["skipped"]] == ["000292.SH", "000293.SH", "000294.SH"]
    code, again = call(capsys, "data", "indices")
    assert code == 0 and again["built"] == data["indices"]["built"] and {"rows", "seconds"} <= set(again)
    code, bars = call(capsys, "data", "bars", "000291.SH")
    assert code == 0 and bars["source"] == "built" and bars["count"] == built["000291.SH"]["sessions"]


def test_the_gates_are_listed_in_chinese_with_lang_zh(imported: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = run(["--lang", "zh", "data", "gates", "600519", "--no-fetch", "--as-of", "2024-01-05"])
    out = capsys.readouterr().out
    assert code == 0
    assert "日线" in out and "缺口" in out and "至少需要" in out, out
    assert "at least" not in out and "daily_bars" not in out
