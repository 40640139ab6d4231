"""What one case's run recorded, read back from the workspace: the plan, statuses, tool calls, accepted
judgments, program facts, evidence, the stored report and the ledger before and after.

Checks and invariants are pure functions of an `Observation`, so a test can alter one (an order in a report
with gaps, a number with no evidence) and see the right check fail.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from stockbench.errors import Problem
from stockbench.evidence.documents import ReportDraft
from stockbench.evidence.store import Evidence
from stockbench.ledger.store import LEDGER_TABLES
from stockbench.research.outcomes import ReportRecord
from stockbench.research.plan import Plan
from stockbench.research.records import StatusRow
from stockbench.research.service import Research
from stockbench.store.database import Database

Snapshot = Mapping[str, tuple[str, ...]]
FACT_KEYS = {
    "prepare": "prepare/facts",
    "collect": "collect/facts",
    "analytics": "preprocess/facts",
    "orders": "decide/orders",
}


@dataclass(frozen=True)
class ToolCall:
    """One tool call the model made, as the journal recorded its request and result."""

    key: str
    name: str
    arguments: str
    result: Mapping[str, Any]

    @property
    def stage(self) -> str:
        return self.key.split("/tool/")[0]

    @property
    def refused(self) -> bool:
        return self.result.get("accepted") is False


@dataclass(frozen=True)
class Observation:
    run_id: str
    plan: Plan
    statuses: tuple[StatusRow, ...]
    tool_calls: tuple[ToolCall, ...]
    accepted: Mapping[str, Any]  # judgment kind -> value (arguments as arguments_bull / arguments_bear)
    facts: Mapping[str, Any]  # prepare, collect, analytics, orders: the program's facts blocks
    evidence: Mapping[str, Evidence]  # the run's evidence, by id
    report: ReportRecord | None  # the stored report
    verified: tuple[Problem, ...]  # every problem `reports verify` finds in the stored report
    ledger_before: Snapshot
    ledger_after: Snapshot

    @property
    def status(self) -> str:
        return self.statuses[-1].status if self.statuses else "planned"

    def draft(self) -> ReportDraft | None:
        return None if self.report is None else self.report.report_draft()

    def fact(self, block: str, *path: str) -> Any:
        """A value inside a facts block (None when any part is absent)."""
        found: Any = self.facts.get(block)
        for name in path:
            found = found.get(name) if isinstance(found, Mapping) else None
        return found


def ledger_snapshot(db: Database) -> dict[str, tuple[str, ...]]:
    """Every row of every ledger table, in a stable order, as text: for byte-for-byte comparison."""
    return {t: tuple(repr(row) for row in db.fetchall(f"SELECT * FROM {t} ORDER BY ALL")) for t in LEDGER_TABLES}


def _tool_calls(db: Database, run_id: str) -> tuple[ToolCall, ...]:
    rows = db.fetchall(
        "SELECT i.key, i.payload, r.payload FROM run_events i LEFT JOIN run_events r "
        "ON r.run_id = i.run_id AND r.key = i.key AND r.phase = 'result' "
        "WHERE i.run_id = ? AND i.kind = 'tool_call' AND i.phase = 'intent' ORDER BY i.seq",
        [run_id],
    )
    calls = []
    for key, intent, result in rows:
        request = json.loads(intent)
        calls.append(ToolCall(str(key), str(request["name"]), str(request["arguments"]), json.loads(result or "{}")))
    return tuple(calls)


def accepted_judgments(calls: tuple[ToolCall, ...]) -> dict[str, Any]:
    """The judgments the engine accepted, in the order it absorbed them (a later one replaces an earlier)."""
    accepted: dict[str, Any] = {}
    for call in calls:
        result = call.result
        if result.get("accepted") is not True or "judgment" not in result:
            continue
        if result["judgment"] == "judgments":
            accepted.update(result["value"])
        else:
            accepted[str(result["judgment"])] = result["value"]
    return accepted


def observe(research: Research, run_id: str, ledger_before: Snapshot, ledger_after: Snapshot) -> Observation:
    """Read back everything `run_id` recorded in `research`'s workspace."""
    db = research.db
    record = research.record(run_id)
    statuses = db.fetchall(
        "SELECT status, stage, reason, resume_at, changed_at FROM run_status WHERE run_id = ? ORDER BY seq", [run_id]
    )
    calls = _tool_calls(db, run_id)
    facts = {}
    for name, key in FACT_KEYS.items():
        stored = research.journal.stored(run_id, key, "result")
        if stored is not None:
            facts[name] = json.loads(stored)
    report_id = research.outcome(run_id).report_id
    report = None if report_id is None else research.report(report_id)
    return Observation(
        run_id=run_id,
        plan=record.plan,
        statuses=tuple(StatusRow(*row) for row in statuses),
        tool_calls=calls,
        accepted=accepted_judgments(calls),
        facts=facts,
        evidence={e.evidence_id: e for e in research.store.for_run(run_id)},
        report=report,
        verified=tuple(research.verify(report.report_id)) if report is not None else (),
        ledger_before=ledger_before,
        ledger_after=ledger_after,
    )
