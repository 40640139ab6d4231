"""The research commands' contract: `analyze` (stage titles on stderr, the JSON keys), `runs list|show|resume|stop`,
`reports list|show|export|verify`, `--account`, `--question` and research of the past with `--as-of`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stockbench.cli.main import run
from stockbench.workbench import Workbench
from tests.engine.research.conftest import BUY_SYMBOL, DEMO_SYMBOL, SELL_SYMBOL, Lab, holding_account

OUTCOME_KEYS = {"run_id", "report_id", "status", "action", "zones", "orders"}


def cli(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 0) -> tuple[Any, str]:
    exit_code = run(["--json", *argv])
    captured = capsys.readouterr()
    assert exit_code == code, captured.err
    return (json.loads(captured.out) if captured.out.strip() else None), captured.err


def test_analyze_prints_stage_titles_and_the_outcome_keys(demo_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outcome, err = cli(capsys, "analyze", DEMO_SYMBOL)
    assert set(outcome) >= OUTCOME_KEYS and outcome["status"] == "published"
    stages = [line[3:] for line in err.splitlines() if line.startswith("== ")]
    assert stages == ["prepare", "scene", "collect", "preprocess", "analyze", "decide", "report", "publish"]
    assert "BULL sub-study" in err and "BEAR sub-study" in err and "Publication gates" in err
    assert "诊断" not in err and "submit_" not in err  # titles only, never drafts

    runs, _ = cli(capsys, "runs", "list")
    assert [{k: r[k] for k in ("run_id", "symbol", "status", "stage")} for r in runs] == [
        {"run_id": outcome["run_id"], "symbol": DEMO_SYMBOL, "status": "published", "stage": "publish"}]  # fmt: skip
    assert {"run_id", "symbol", "status", "stage", "started"} <= set(runs[0])
    assert (runs[0]["report_id"], runs[0]["action"]) == (outcome["report_id"], outcome["action"])  # what it wrote
    shown, _ = cli(capsys, "runs", "show", outcome["run_id"])
    assert shown["report_id"] == outcome["report_id"] and shown["plan"]["kind"] == "full"
    resumed, _ = cli(capsys, "runs", "resume", outcome["run_id"])  # a published run: the same outcome, nothing run
    assert {k: resumed[k] for k in OUTCOME_KEYS} == {k: outcome[k] for k in OUTCOME_KEYS}


def test_reports_list_show_export_and_verify(
    demo_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outcome, _ = cli(capsys, "analyze", DEMO_SYMBOL)
    report_id = outcome["report_id"]
    listed, _ = cli(capsys, "reports", "list")
    assert [r["report_id"] for r in listed] == [report_id] and listed[0]["offline"] is True
    assert cli(capsys, "reports", "list", "--symbol", BUY_SYMBOL)[0] == []
    shown, _ = cli(capsys, "reports", "show", report_id, "--format", "json")
    assert shown["report_id"] == report_id and shown["draft"]["run_id"] == outcome["run_id"]
    assert run(["reports", "show", report_id]) == 0
    markdown = capsys.readouterr().out
    assert markdown.startswith("# ") and "## 结论" in markdown
    for suffix in ("md", "json"):
        target = tmp_path / f"report.{suffix}"
        exported, _ = cli(capsys, "reports", "export", report_id, "--to", str(target))
        assert Path(exported["path"]) == target and target.stat().st_size > 0
    exported_text = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert exported_text.startswith(markdown.rstrip("\n"))  # the report, then its quoted passages (issue 19.6)
    assert exported_text.rstrip("\n") == markdown.rstrip("\n") or "### 引文及其出处" in exported_text
    assert json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["report_id"] == report_id
    verified, _ = cli(capsys, "reports", "verify", report_id)
    assert verified == {"report_id": report_id, "ok": True, "problems": []}


def test_a_tampered_report_fails_verification(demo_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outcome, _ = cli(capsys, "analyze", DEMO_SYMBOL)
    with Workbench.open(demo_home) as bench:
        draft = bench.research.report(outcome["report_id"]).draft
        risk = draft["risks"][0]
        risk["text"] = risk["text"] + "，目标价 999.99 元"
        bench.workspace.db.execute("UPDATE reports SET draft = ? WHERE report_id = ?",
                                   [json.dumps(draft, ensure_ascii=False), outcome["report_id"]])  # fmt: skip
    verified, _ = cli(capsys, "reports", "verify", outcome["report_id"], code=1)  # problems: exit 1
    codes = {p["code"] for p in verified["problems"]}
    assert verified["ok"] is False and {"number_ungrounded", "report_tampered"} <= codes
    assert f"{outcome['report_id']}.draft" in {p.get("location") for p in verified["problems"]}


def test_analyze_with_an_account_sizes_orders_and_a_question_routes_the_plan(
    bench: Workbench, capsys: pytest.CaptureFixture[str]
) -> None:
    holding_account(bench, SELL_SYMBOL, qty=10000)  # a holder's reduce: a sell is sized
    bench.close()
    outcome, _ = cli(capsys, "analyze", SELL_SYMBOL, "--account", "main")
    assert outcome["status"] == "published" and outcome["orders"]
    assert {"account", "symbol", "side", "qty", "price"} <= set(outcome["orders"][0])
    asked, _ = cli(capsys, "analyze", DEMO_SYMBOL, "--question", "MACD 和均线怎么看？")
    shown, _ = cli(capsys, "runs", "show", asked["run_id"])
    assert shown["plan"]["kind"] == "question" and shown["plan"]["routes"] == ["technical"]
    refused, _ = cli(capsys, "analyze", DEMO_SYMBOL, "--account", "nobody", code=1)
    assert refused["error"]["code"] == "not_found" and "nobody" in refused["error"]["message"]


def test_analyze_reads_the_account_holding_the_symbol_unless_told_to_read_none(
    bench: Workbench, capsys: pytest.CaptureFixture[str]
) -> None:
    """The window's research reads the account holding the symbol by default; `stockbench analyze` read none unless
    --account named one, so a holder asking the command line was told "Wait: no position" of what they hold."""
    holding_account(bench, SELL_SYMBOL, qty=10000)
    bench.ledger.add_account("other", "CNY")  # two accounts: the one holding the symbol is chosen
    bench.close()
    outcome, _ = cli(capsys, "analyze", SELL_SYMBOL)
    assert outcome["orders"] and {o["account"] for o in outcome["orders"]} == {"main"}
    shown, _ = cli(capsys, "reports", "show", outcome["report_id"], "--format", "json")
    assert shown["position_state"] == "reducing" and "main" in shown["markdown"]  # its open sell order
    alone, _ = cli(capsys, "analyze", SELL_SYMBOL, "--no-account")
    assert alone["orders"] == []
    shown, _ = cli(capsys, "reports", "show", alone["report_id"], "--format", "json")
    assert shown["position_state"] == "watching"
    both, _ = cli(capsys, "analyze", SELL_SYMBOL, "--account", "main", "--no-account", code=2)
    assert "--no-account" in both["error"]["message"]


def test_research_of_the_past_with_as_of(demo_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    later, _ = cli(capsys, "analyze", DEMO_SYMBOL)
    past, _ = cli(capsys, "--as-of", "2026-06-30", "analyze", DEMO_SYMBOL)
    assert past["status"] == "published" and past["zones"] != later["zones"]
    report, _ = cli(capsys, "reports", "show", past["report_id"], "--format", "json")
    assert report["as_of"].startswith("2026-06-30")
    with Workbench.open(demo_home) as bench:
        prepare = json.loads(bench.research.journal.stored(past["run_id"], "prepare/facts", "result") or "{}")
    assert prepare["previous_report"] is None  # a report published later is not visible in the past
    assert prepare["quote"]["day"] == "2026-06-30" and prepare["clock"]["now_local"].startswith("2026-06-30")


def test_stop_ends_a_paused_run_for_good(lab: Lab, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.engine.research.scripted import fault
    from tests.llm_server.server import Reply

    lab.add_model()
    lab.model.on("decide", fault(Reply.failing(401, "refused", kind="authentication_error")))
    paused = lab.research().analyze(DEMO_SYMBOL, model="scripted")
    assert paused.status == "paused"
    lab.bench.close()
    stopped, _ = cli(capsys, "runs", "stop", paused.run_id)
    assert stopped["status"] == "stopped"
    refused, _ = cli(capsys, "runs", "resume", paused.run_id, code=1)
    assert "was stopped" in refused["error"]["message"]
    missing, _ = cli(capsys, "runs", "stop", "RUN-NOPE", code=1)
    assert "there is no run" in missing["error"]["message"]


def test_research_of_the_past_continues_only_on_its_own_clock(
    demo_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from datetime import date

    from stockbench.clock import ReplayClock
    from stockbench.errors import InvalidInput

    with Workbench.open(demo_home, clock=ReplayClock.as_of(date(2026, 6, 30))) as bench:
        run_id = bench.research.start(DEMO_SYMBOL).run_id  # interrupted before its first action
    with Workbench.open(demo_home) as bench, pytest.raises(InvalidInput) as refused:
        bench.research.resume(run_id)  # on the demo's own clock, months later
    assert "as of 2026-06-30" in refused.value.message and "--as-of" in (refused.value.hint or "")
    resumed, _ = cli(capsys, "runs", "resume", run_id)  # the command line reopens on the run's clock
    assert resumed["status"] == "published"
    report, _ = cli(capsys, "reports", "show", resumed["report_id"], "--format", "json")
    assert report["as_of"].startswith("2026-06-30") and report["published_at"].startswith("2026-06-30")
    with Workbench.open(demo_home) as bench:
        prepare = json.loads(bench.research.journal.stored(run_id, "prepare/facts", "result") or "{}")
    assert prepare["quote"]["day"] == "2026-06-30"
