"""The run journal: an intent before and a result after every action, results stored with their evidence in one
transaction, completed actions never repeated, intents retried with the stored request, resumes that replay, and
a run whose handbook version is gone refusing to resume with that reason."""

from __future__ import annotations

import json
from typing import Any

import pytest

from stockbench.cli.main import run
from stockbench.evidence.store import evidence_id_for
from stockbench.research.handbook import HandbookUnavailable
from stockbench.research.records import EvidenceItem, Outcome
from stockbench.workbench import Workbench
from tests.engine.research.conftest import DEMO_SYMBOL, Lab
from tests.engine.research.scripted import fault
from tests.llm_server.server import Reply

KINDS = {"model_call", "tool_call", "stage", "program", "gate_check"}


def events(bench: Workbench, run_id: str) -> list[tuple[str, str, str, int]]:
    rows = bench.workspace.db.fetchall(
        "SELECT key, phase, kind, seq FROM run_events WHERE run_id = ? ORDER BY seq", [run_id]
    )
    return [(str(k), str(p), str(kind), int(s)) for k, p, kind, s in rows]


def test_every_action_has_one_intent_then_one_result_under_a_deterministic_key(bench: Workbench) -> None:
    first = bench.research.analyze(DEMO_SYMBOL)
    rows = events(bench, first.run_id)
    assert {kind for _, _, kind, _ in rows} == KINDS
    by_key: dict[str, list[tuple[str, int]]] = {}
    for key, phase, _, seq in rows:
        by_key.setdefault(key, []).append((phase, seq))
    for key, phases in by_key.items():
        assert [p for p, _ in phases] == ["intent", "result"], key
        assert phases[0][1] < phases[1][1], key
    assert [s for *_, s in rows] == list(range(1, len(rows) + 1))
    second = bench.research.analyze(DEMO_SYMBOL)  # the same method on the same facts: the same keys
    assert [(k, p) for k, p, _, _ in events(bench, second.run_id)] == [(k, p) for k, p, _, _ in rows]


def test_a_result_is_recorded_once_and_never_run_again(bench: Workbench) -> None:
    journal = bench.research.journal
    calls: list[str] = []

    def execute(request: str) -> Outcome:
        calls.append(request)
        return Outcome("done", [EvidenceItem("computation", "test", {"value": "1.5"})])

    assert journal.act("RUN-T1", "stage/step/1", "program", "request", execute) == "done"
    assert journal.act("RUN-T1", "stage/step/1", "program", "a different request", execute) == "done"
    assert calls == ["request"]
    assert [e.evidence_id for e in bench.research.store.for_run("RUN-T1")] == [
        evidence_id_for('{"value":"1.5"}')]  # fmt: skip


def test_a_result_and_its_evidence_commit_together_and_an_intent_is_retried_with_its_stored_request(
    bench: Workbench,
) -> None:
    journal = bench.research.journal
    body = {"fetched": "a document the failed action had produced"}

    def broken_write(cur: Any) -> None:
        raise RuntimeError("the disk filled up half-way through the result")

    half = Outcome("half", [EvidenceItem("computation", "test", body)], write=broken_write)
    with pytest.raises(RuntimeError):
        journal.act("RUN-T2", "collect/facts", "program", "the original request", lambda _: half)
    assert journal.stored("RUN-T2", "collect/facts", "intent") == "the original request"
    assert journal.stored("RUN-T2", "collect/facts", "result") is None
    assert bench.research.store.for_run("RUN-T2") == []  # the evidence rolled back with the result
    seen: list[str] = []
    result = journal.act("RUN-T2", "collect/facts", "program", "a request built differently after a restart",
                         lambda request: (seen.append(request), Outcome("whole"))[1])  # fmt: skip
    assert (result, seen) == ("whole", ["the original request"])


def test_resume_after_a_pause_repeats_nothing_that_completed(lab: Lab) -> None:
    lab.add_model()
    lab.model.on("decide", fault(Reply.failing(401, "the key was refused", kind="authentication_error")))
    research = lab.research()
    paused = research.analyze(DEMO_SYMBOL, model="scripted")
    assert (paused.status, paused.stage) == ("paused", "decide")
    assert "the key was refused" in paused.reason and lab.status_rows(paused.run_id)[-1].resume_at is None
    sent_before = len(lab.server.chats)
    completed = {k for k, _ in lab.results(paused.run_id)}
    resumed_by = lab.research()  # a new process, as far as the journal knows
    done = resumed_by.resume(paused.run_id)
    assert done.status == "published"
    assert not completed & set(resumed_by.journal.executed)
    assert resumed_by.journal.executed[0] == "decide/model/1"  # the intent without a result, retried
    assert lab.model.stages[sent_before - 1 :] == ["decide", "decide", "report"]  # refused, retried, onwards
    refused, retried = lab.server.chats[sent_before - 1 : sent_before + 1]
    assert retried.messages == refused.messages and retried.json["tools"] == refused.json["tools"]
    again = lab.research()
    assert again.resume(paused.run_id).report_id == done.report_id and again.journal.executed == []


def test_a_run_whose_handbook_version_is_gone_refuses_to_resume(
    bench: Workbench, capsys: pytest.CaptureFixture[str]
) -> None:
    record = bench.research.start(DEMO_SYMBOL)
    status = bench.research.journal.status(record.run_id)
    bench.workspace.db.execute("DELETE FROM handbook_versions WHERE version = ?", [record.handbook_version])
    with pytest.raises(HandbookUnavailable, match=f"handbook version {record.handbook_version} is no longer"):
        bench.research.resume(record.run_id)
    assert bench.research.journal.status(record.run_id) == status  # nothing ran
    assert bench.research.journal.results(record.run_id) == []
    bench.close()
    assert run(["--json", "runs", "resume", record.run_id]) == 1
    err = capsys.readouterr().err
    assert "no longer available" in err and "start a new analysis" in err


def test_runs_list_and_show_read_the_journal(bench: Workbench, capsys: pytest.CaptureFixture[str]) -> None:
    outcome = bench.research.analyze(DEMO_SYMBOL)
    bench.close()
    assert run(["--json", "runs", "show", outcome.run_id]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["status"] == "published" and shown["report_id"] == outcome.report_id
    assert shown["model_calls"] == sum(1 for a in shown["actions"] if a["kind"] == "model_call" and a["phase"] ==
                                       "result") > 0  # fmt: skip


def test_runs_created_at_one_instant_are_listed_newest_first(bench: Workbench) -> None:
    """Under the demo's or a replay's clock every run is created at one instant, and the history listed them in any
    order (a run just made could come anywhere in the research panel's list after a restart)."""
    made = [bench.research.analyze(DEMO_SYMBOL).run_id for _ in range(4)]
    created = bench.workspace.db.fetchall("SELECT DISTINCT created_at FROM runs")
    assert len(created) == 1, "the test's clock stands still: one instant for every run"
    assert [r.run_id for r in bench.research.runs()] == made[::-1]
