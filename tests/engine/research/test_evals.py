"""The eval harness: the offline model passes every golden case with every invariant holding, results are stored
per handbook version and model and compared, and planted regressions fail it where they should: an order in a
report with data gaps fails failure recovery, a number without evidence fails number groundedness, and each
invariant fails on an observation that breaks it."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from stockbench.cli.main import run
from stockbench.errors import InternalError
from stockbench.evals.cases import CATEGORIES, Case, CheckSpec, Fault, load_cases, parse_cases, select
from stockbench.evals.cheats import CHEATS
from stockbench.evals.checks import binding_problems
from stockbench.evals.faults import INVENTED, spoil_payload
from stockbench.evals.history import EvalHistory
from stockbench.evals.invariants import INVARIANTS, citation, negative_ev, permission
from stockbench.evals.observation import Observation, ToolCall
from stockbench.evals.results import CaseResult, EvalResult
from stockbench.evals.runner import run_evals
from stockbench.evals.workspaces import TEMPLATE_FOLDER
from stockbench.evidence import frozen
from stockbench.llm.keys import OsKeyring
from stockbench.llm.models import ModelConfig, ModelRegistry
from stockbench.research import compose, program
from stockbench.research.blocks import RunFacts
from stockbench.research.models import Call, Reply
from stockbench.store.workspace import Workspace
from tests.engine.research.conftest import TEST_KEY
from tests.engine.research.scripted import ScriptedModel
from tests.llm_server.server import LlmServer

GAP_CASE = "gap_without_orders"
NUMBER_CASE = "beijing_report"


def cases(*wanted: str) -> list[Case]:
    return select(load_cases(), wanted)


def failed(result: EvalResult) -> dict[str, list[str]]:
    """Failures of every case that did not pass, by case id (checks and invariant violations together)."""
    return {
        c.case.id: [*c.failures, *(v for vs in c.invariants.values() for v in vs)] for c in result.cases if not c.passed
    }


@pytest.fixture(scope="module")
def offline_eval(demo_template: Path) -> EvalResult:
    """Every golden case with the offline model, once for this module (about half a minute)."""
    return run_evals(demo_template, "offline")


@pytest.fixture(scope="module")
def observations(offline_eval: EvalResult) -> dict[str, Observation]:
    found = {c.case.id: c.observation for c in offline_eval.cases}
    return {k: v for k, v in found.items() if v is not None}


# ---- the cases -----------------------------------------------------------------------------------------
def test_every_category_has_golden_cases_whose_checks_bind() -> None:
    found = load_cases()
    assert {c.category for c in found} == set(CATEGORIES)
    assert [p for c in found for p in binding_problems(c)] == []
    assert len({c.id for c in found}) == len(found)
    assert select(found, ("failure_recovery",)) == [c for c in found if c.category == "failure_recovery"]


def test_a_case_naming_an_unknown_check_or_parameter_is_refused() -> None:
    text = """category = "usefulness"
[[cases]]
id = "x"
title = "x"
symbol = "605903.SH"
checks = [{ check = "published", strict = true }, { check = "no_such_check" }]
"""
    [case] = parse_cases(text, "inline.toml")
    problems = binding_problems(case)
    assert len(problems) == 2 and "no_such_check" in problems[1] and "strict" in problems[0]
    with pytest.raises(InternalError, match="no_such_check"):
        run_evals(Path("/nonexistent"), cases=[case])
    with pytest.raises(InternalError, match="category"):
        parse_cases(text.replace("usefulness", "style"), "inline.toml")


# ---- the offline model passes --------------------------------------------------------------------------
@pytest.mark.slow
def test_the_offline_model_passes_every_case_with_every_invariant(offline_eval: EvalResult) -> None:
    assert failed(offline_eval) == {}
    assert offline_eval.ok
    data = offline_eval.as_dict()
    assert set(data) >= {"ok", "categories", "invariants", "handbook_version", "model", "comparison"}
    assert data["invariants"] == dict.fromkeys(INVARIANTS, True)
    assert set(data["categories"]) == set(CATEGORIES)
    for found in data["categories"].values():
        assert found["failed"] == 0 and found["passed"] == len(found["cases"]) > 0
    pausing = {c.case.id for c in offline_eval.cases if any(s.name == "paused_for" for s in c.case.checks)}
    assert all(c.status == ("paused" if c.case.id in pausing else "published") for c in offline_eval.cases)
    assert offline_eval.seconds > 0  # its speed is the bundle smoke test's to print, not a limit here


def test_the_invariants_were_exercised_not_vacuous(observations: dict[str, Observation]) -> None:
    decided = [o for o in observations.values() if "action" in o.accepted]  # a cheating case may pause before it
    negative = [o for o in decided if Decimal(o.fact("analytics", "baseline", "ev")) < 0]
    assert negative, "no case had a negative expected value: the negative_ev invariant never bit"
    assert all(o.accepted["action"]["action"] not in {"buy", "add"} for o in negative)
    assert any(o.ledger_before["fills"] and o.ledger_before["orders"] for o in observations.values())
    technical = observations["technical_question"]
    assert "documents_read" not in technical.plan.tools and technical.tool_calls
    network = observations["network_pause"]
    assert [s.status for s in network.statuses].count("paused") == 1


# ---- planted regressions ---------------------------------------------------------------------------------
def _cli_eval(home: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = run(["--home", str(home), "--json", "eval", *argv])
    return code, json.loads(capsys.readouterr().out)


@pytest.fixture
def user_home(tmp_path: Path, demo_template: Path) -> Path:
    """A user workspace folder whose eval template is already built (a copy of the session's demo market)."""
    home = tmp_path / "user"
    (home / TEMPLATE_FOLDER).mkdir(parents=True)
    shutil.copyfile(demo_template / "workspace.duckdb", home / TEMPLATE_FOLDER / "workspace.duckdb")
    return home


def test_an_order_in_a_report_with_gaps_fails_failure_recovery_and_shows_as_a_regression(
    user_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, first = _cli_eval(user_home, capsys, "--case", GAP_CASE)
    assert code == 0 and first["ok"] is True
    assert first["comparison"] == {"previous": None, "regressions": [], "fixed": []}

    sized_orders = program.sized_orders

    def blind_to_gaps(analytics: Any, run_record: Any, accepted: Any, facts: RunFacts) -> Any:
        assert facts.prepare is not None
        return sized_orders(analytics, run_record, accepted, replace(facts, prepare=replace(facts.prepare, gaps=())))

    monkeypatch.setattr(program, "sized_orders", blind_to_gaps)  # the regression: sizing ignores data gaps
    code, second = _cli_eval(user_home, capsys, "--case", GAP_CASE)
    assert code == 1 and second["ok"] is False
    recovery = second["categories"]["failure_recovery"]
    assert (recovery["passed"], recovery["failed"]) == (0, 1)
    [case] = recovery["cases"]
    assert case["status"] == "paused"  # the publication gate refused the order; the harness says so
    assert any("orders_with_gaps" in f for f in case["failures"])
    assert any(f.startswith("no_executable_orders") for f in case["failures"])
    assert second["invariants"] == dict.fromkeys(INVARIANTS, True)
    assert second["comparison"]["previous"]["eval_id"] == first["eval_id"]
    assert [r["id"] for r in second["comparison"]["regressions"]] == [GAP_CASE]
    with Workspace.open(user_home) as workspace:
        rows = workspace.db.fetchall("SELECT model, handbook_version, ok FROM eval_runs ORDER BY started_at")
        assert rows == [("offline", first["handbook_version"], True), ("offline", first["handbook_version"], False)]


def _tampered_draft(edit: Any) -> Any:
    """`frozen.draft_to_json` as compose uses it, with `edit` applied to what is stored."""
    original = frozen.draft_to_json

    def tampered(draft: Any) -> dict[str, Any]:
        data: dict[str, Any] = original(draft)
        edit(data)
        return data

    return tampered


def test_a_stored_report_with_gaps_and_an_order_fails_the_recheck(
    demo_template: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    order = {"account": "main", "symbol": "301903.SZ", "side": "buy", "qty": 100, "price": "73.18", "action": "new"}

    def add_order(data: dict[str, Any]) -> None:
        if data["gaps"]:
            data["orders"].append(order)

    monkeypatch.setattr(compose, "draft_to_json", _tampered_draft(add_order))
    result = run_evals(demo_template, cases=cases(GAP_CASE))
    found = failed(result)[GAP_CASE]
    assert any(f.startswith("no_executable_orders: the report carries a new order") for f in found)
    assert any(f.startswith("report_verifies: [orders_with_gaps]") for f in found)
    assert result.as_dict()["categories"]["failure_recovery"]["failed"] == 1


def test_a_number_without_evidence_fails_number_groundedness(
    demo_template: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    markdown = compose.markdown

    def invented(draft: Any, title: str, state: Any, *rest: Any) -> str:
        return markdown(draft, title, state, *rest) + f"\n\n## 补充\n\n{INVENTED}\n"

    monkeypatch.setattr(compose, "markdown", invented)  # the regression: text added after the gates ran
    result = run_evals(demo_template, cases=cases(NUMBER_CASE))
    assert not result.ok
    [failures] = failed(result).values()
    assert failures and all(f.startswith("numbers_grounded: [number_ungrounded] '987.65") for f in failures)
    assert result.invariants() == dict.fromkeys(INVARIANTS, True)
    assert result.as_dict()["categories"]["number_groundedness"]["failed"] == 1


def test_a_number_tampered_into_the_stored_draft_fails_the_gate_rerun(
    demo_template: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def add_number(data: dict[str, Any]) -> None:
        data["sections"][0]["text"] += f"\n{INVENTED}"

    monkeypatch.setattr(compose, "draft_to_json", _tampered_draft(add_number))
    result = run_evals(demo_template, cases=cases(NUMBER_CASE))
    [failures] = failed(result).values()
    assert any(
        f.startswith("numbers_grounded: [number_ungrounded] '987.65 元' at section:conclusion") for f in failures
    )


def test_a_fault_that_never_strikes_fails_its_case(demo_template: Path) -> None:
    [base] = cases(NUMBER_CASE)
    case = replace(base, fault=Fault("invalid_submission", stage="no_such_stage"), checks=(CheckSpec("published"),))
    [result] = run_evals(demo_template, cases=[case]).cases
    assert result.failures == ("setup: the invalid_submission fault in stage no_such_stage never struck",)


def _configure_scripted(home: Path, server: LlmServer) -> None:
    """The user's workspace gets a model served by the loopback server (its key in the in-memory keyring)."""
    with Workspace.open(home) as workspace:
        ModelRegistry(workspace.settings).add(ModelConfig("scripted", "openai_compatible", "scripted", server.base_url))
    OsKeyring().set("scripted", TEST_KEY)


def test_a_configured_model_runs_the_same_cases(
    user_home: Path, capsys: pytest.CaptureFixture[str], llm_server: LlmServer, scripted: ScriptedModel
) -> None:
    _configure_scripted(user_home, llm_server)
    code, found = _cli_eval(user_home, capsys, "--model", "scripted", "--case", "rejected_submission_fixed")
    assert (code, found["ok"], found["model"]) == (0, True, "scripted")
    assert "decide" in scripted.stages  # the cases went over the wire to the configured model
    code, _ = _cli_eval(user_home, capsys, "--model", "unknown", "--case", "network_pause")
    assert code == 1


@pytest.mark.slow
def test_a_cheating_model_on_the_wire_is_blocked_in_every_class(
    user_home: Path, capsys: pytest.CaptureFixture[str], llm_server: LlmServer, scripted: ScriptedModel
) -> None:
    _configure_scripted(user_home, llm_server)
    code, found = _cli_eval(user_home, capsys, "--model", "scripted", "--case", "cheating_model")
    cheating = found["categories"]["cheating_model"]
    assert (code, found["ok"], cheating["failed"]) == (0, True, 0), found
    assert cheating["passed"] == len(cheating["cases"]) == len(CHEATS)  # one case per class of cheat
    assert {"scene", "analyze", "decide", "report"} <= set(scripted.stages)  # the cheats went over the wire


# ---- the invariants bite --------------------------------------------------------------------------------
def test_citation_fails_on_a_claim_citing_unknown_evidence(observations: dict[str, Observation]) -> None:
    obs = observations["claims_and_quotes"]
    assert citation(obs) == []
    assert obs.report is not None
    draft = json.loads(json.dumps(obs.report.draft))
    draft["claims"][0]["evidence"] = ["ev-ffffffffffffffffffffffff"]
    broken = replace(obs, report=replace(obs.report, draft=draft))
    assert citation(broken) == [
        f"the report's claim «{draft['claims'][0]['text']}» cites ev-ffffffffffffffffffffffff, unknown to the run"
    ]
    uncited = {**obs.accepted, "risks": [{"text": "x", "evidence": ["ev-eeeeeeeeeeeeeeeeeeeeeeee"]}]}
    assert "ev-eeeeeeeeeeeeeeeeeeeeeeee" in citation(replace(obs, accepted=uncited))[0]


def test_permission_fails_on_a_ledger_write_or_a_tool_outside_the_plan(observations: dict[str, Observation]) -> None:
    obs = observations["account_report"]
    assert permission(obs) == []
    written = {**obs.ledger_after, "fills": (*obs.ledger_after["fills"], "('a new fill',)")}
    assert permission(replace(obs, ledger_after=written)) == ["ledger table fills changed during the run"]
    technical = observations["technical_question"]
    search = ToolCall("analyze/main/tool/2/call_9", "documents_read", "{}", {"accepted": True})
    assert "tool documents_read ran at" in permission(replace(technical, tool_calls=(*technical.tool_calls, search)))[0]
    refused = replace(search, result={"accepted": False, "problems": [{"code": "tool_not_planned"}]})
    assert permission(replace(technical, tool_calls=(*technical.tool_calls, refused))) == []


def test_negative_ev_fails_on_a_buy(observations: dict[str, Observation]) -> None:
    obs = observations["technical_question"]
    ev = Decimal(obs.fact("analytics", "baseline", "ev"))
    assert ev < 0 and negative_ev(obs) == []  # the premise: this demo stock's baseline loses money
    assert obs.fact("analytics", "baseline", "fired") is False  # but its signal does not fire on the session
    buy = {**obs.accepted, "action": {"action": "buy"}}
    assert negative_ev(replace(obs, accepted=buy)) == []  # so the backtest says nothing of it (decision_baseline 1.5)
    analytics = json.loads(json.dumps(obs.facts["analytics"]))
    analytics["baseline"]["fired"] = True
    firing = replace(obs, facts={**obs.facts, "analytics": analytics})
    assert negative_ev(replace(firing, accepted=buy)) == [f"the expected value is {ev} but the final action is buy"]
    analytics["baseline"]["buy_candidate"] = True
    marked = replace(obs, facts={**obs.facts, "analytics": analytics})
    assert negative_ev(marked) == [f"the baseline's expected value is {ev} but it is marked a buy candidate"]


# ---- faults and history ------------------------------------------------------------------------------------
def test_a_spoiled_submission_cites_unknown_evidence_and_invents_a_number() -> None:
    arguments = {"risks": [{"text": "风险", "evidence": ["ev-1"]}], "action": {"action": "hold"}}
    reply = Reply("", (Call("c1", "submit_judgments", json.dumps(arguments), arguments, None),))
    spoiled = spoil_payload(reply.to_json())
    assert spoiled is not None
    [call] = Reply.from_json(spoiled).tool_calls
    assert call.arguments is not None
    assert call.arguments["risks"][0] == {"text": f"风险（{INVENTED}）", "evidence": ["ev-000000000000000000000000"]}
    reading = Reply("", (Call("c2", "evidence_read", "{}", {}, None),))
    assert spoil_payload(reading.to_json()) is None


def _result(model: str, passed: dict[str, bool], at: datetime) -> EvalResult:
    found = {c.id: c for c in load_cases()}
    results = tuple(
        CaseResult(found[cid], "published", None, None, () if ok else ("published: no",), {}, 1.0)
        for cid, ok in passed.items()
    )
    return EvalResult(f"E-{model}-{at:%H%M%S}", model, "hb1", at, 1.0, results)


@pytest.fixture
def history(home: Path) -> Iterator[EvalHistory]:
    with Workspace.open(home) as workspace:
        yield EvalHistory(workspace.db)


def test_history_compares_with_the_previous_run_of_the_same_model(history: EvalHistory) -> None:
    at = datetime(2026, 11, 27, 10, tzinfo=UTC)
    first = history.record(_result("offline", {"technical_question": True, "network_pause": False}, at))
    assert first.comparison is not None and first.comparison.previous is None
    history.record(_result("deepseek", {"technical_question": False}, at.replace(hour=11)))
    second = history.record(
        _result(
            "offline", {"technical_question": False, "network_pause": True, "news_question": False}, at.replace(hour=12)
        )
    )
    assert second.comparison is not None
    assert second.comparison.previous == {
        "eval_id": first.eval_id,
        "handbook_version": "hb1",
        "started_at": at,
        "ok": False,
    }
    assert [r.case_id for r in second.comparison.regressions] == ["technical_question"]
    assert second.comparison.fixed == ("network_pause",)
    partial = history.record(_result("offline", {"network_pause": False}, at.replace(hour=13)))
    assert partial.comparison is not None and partial.comparison.previous is not None
    assert partial.comparison.previous["eval_id"] == second.eval_id
    assert [r.case_id for r in partial.comparison.regressions] == ["network_pause"]
    later = history.record(_result("offline", {"technical_question": True}, at.replace(hour=14)))
    assert later.comparison is not None and later.comparison.fixed == ("technical_question",)
    stored = history.db.fetchall(
        "SELECT case_id, passed FROM eval_cases WHERE eval_id = ? ORDER BY case_id", [second.eval_id]
    )
    assert stored == [("network_pause", True), ("news_question", False), ("technical_question", False)]
