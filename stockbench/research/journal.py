"""The run journal: every action written twice, an intent before and a result after, so runs resume.

An action has a deterministic idempotency key (stage/step/n). `act` returns a stored result without
running the action again; an intent without a result is retried with the identical stored request; a new
action writes its intent, runs, then writes its result together with the evidence it produced in one
transaction. The engine is deterministic given its actions' results, so re-running it after a crash replays
the journal and rebuilds every conversation from the exact stored bytes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any, Literal

import duckdb

from stockbench.clock import Clock
from stockbench.evidence.store import Evidence, EvidenceStore
from stockbench.store.database import Database

ActionKind = Literal["model_call", "tool_call", "gate_check", "stage", "program"]
RunStatus = Literal["running", "paused", "published", "stopped", "failed"]


@dataclass(frozen=True, slots=True)
class EvidenceItem:
    """Evidence an action produced, stored with the action's result."""

    kind: str
    source: str
    body: str | Any
    label: str = ""


@dataclass
class Outcome:
    """What an action returns to the journal."""

    payload: str
    evidence: Sequence[EvidenceItem] = ()
    cost: Decimal | None = None
    outcome: Literal["ok", "error"] = "ok"
    write: Callable[[duckdb.DuckDBPyConnection], None] | None = None  # more rows, in the result's transaction
    after: Callable[[], None] | None = None  # runs once the result is committed (e.g. an event)
    stored: list[Evidence] = field(default_factory=list)  # filled in by the journal


@dataclass(frozen=True, slots=True)
class StatusRow:
    status: RunStatus
    stage: str
    reason: str
    resume_at: datetime | None
    at: datetime


class ActionFailed(Exception):
    """An action raised; nothing was recorded as its result (the intent stays, so it is retried)."""


class Journal:
    """Reads and writes `run_events` and `run_status` for research runs."""

    def __init__(self, db: Database, evidence: EvidenceStore, clock: Clock) -> None:
        self.db, self.evidence, self.clock = db, evidence, clock
        self.executed: list[str] = []  # keys actually executed (not replayed) by this process, for tests

    def _next_seq(self, run_id: str) -> int:
        return int(self.db.scalar("SELECT coalesce(max(seq), 0) + 1 FROM run_events WHERE run_id = ?", [run_id]))

    def stored(self, run_id: str, key: str, phase: str) -> str | None:
        value = self.db.scalar(
            "SELECT payload FROM run_events WHERE run_id = ? AND key = ? AND phase = ?", [run_id, key, phase]
        )
        return None if value is None else str(value)

    def act(self, run_id: str, key: str, kind: ActionKind, request: str, execute: Callable[[str], Outcome]) -> str:
        """The action's result payload: stored, or produced now by `execute(request)` and recorded."""
        done = self.stored(run_id, key, "result")
        if done is not None:
            return done
        pending = self.stored(run_id, key, "intent")
        if pending is None:
            with self.db.transaction() as cur:
                cur.execute(
                    "INSERT INTO run_events (run_id, key, phase, kind, seq, payload, outcome, cost, logged_at) "
                    "VALUES (?, ?, 'intent', ?, ?, ?, 'ok', NULL, ?)",
                    [run_id, key, kind, self._next_seq(run_id), request, self.clock.now()],
                )
            pending = request
        self.executed.append(key)
        outcome = execute(pending)  # retried with the identical stored request
        with self.db.transaction() as cur:
            for item in outcome.evidence:
                outcome.stored.append(
                    self.evidence.put(
                        run_id,
                        item.kind,
                        item.source,
                        item.body,
                        fetched_at=self.clock.now(),
                        label=item.label,
                        cursor=cur,
                    )
                )
            if outcome.write is not None:
                outcome.write(cur)
            cur.execute(
                "INSERT INTO run_events (run_id, key, phase, kind, seq, payload, outcome, cost, logged_at, evidence) "
                "VALUES (?, ?, 'result', ?, ?, ?, ?, ?, ?, ?)",
                [
                    run_id,
                    key,
                    kind,
                    self._next_seq(run_id),
                    outcome.payload,
                    outcome.outcome,
                    outcome.cost,
                    self.clock.now(),
                    json.dumps([e.evidence_id for e in outcome.stored]),
                ],
            )
        if outcome.after is not None:
            outcome.after()
        return outcome.payload

    def produced(self, run_id: str) -> set[str] | None:
        """The evidence ids the run's journaled actions produced; None for a run journaled before this was kept."""
        rows = self.db.fetchall(
            "SELECT evidence FROM run_events WHERE run_id = ? AND phase = 'result' AND evidence IS NOT NULL", [run_id]
        )
        if not rows:
            return None
        return {str(e) for (found,) in rows for e in json.loads(found)}

    def results(self, run_id: str, prefix: str = "") -> list[tuple[str, str, str]]:
        """(key, kind, payload) of every recorded result, in recording order."""
        rows = self.db.fetchall(
            "SELECT key, kind, payload FROM run_events WHERE run_id = ? AND phase = 'result' AND key LIKE ? "
            "ORDER BY seq",
            [run_id, prefix + "%"],
        )
        return [(str(k), str(kind), str(p)) for k, kind, p in rows]

    def spent(self, run_id: str) -> Decimal:
        value = self.db.scalar(
            "SELECT coalesce(sum(cost), 0) FROM run_events WHERE run_id = ? AND phase = 'result'", [run_id]
        )
        return Decimal(value)

    # ---- status ----------------------------------------------------------------------------------
    def set_status(
        self, run_id: str, status: RunStatus, stage: str, reason: str = "", resume_at: datetime | None = None
    ) -> None:
        with self.db.transaction() as cur:
            seq = cur.execute("SELECT coalesce(max(seq), 0) + 1 FROM run_status WHERE run_id = ?", [run_id]).fetchone()[
                0
            ]  # type: ignore[index]
            cur.execute(
                "INSERT INTO run_status VALUES (?, ?, ?, ?, ?, ?, ?)",
                [run_id, seq, status, stage, reason, resume_at, self.clock.now()],
            )

    def status(self, run_id: str) -> StatusRow | None:
        row = self.db.fetchone(
            "SELECT status, stage, reason, resume_at, changed_at FROM run_status WHERE run_id = ? "
            "ORDER BY seq DESC LIMIT 1",
            [run_id],
        )
        return None if row is None else StatusRow(*row)

    def pauses(self, run_id: str, reason_prefix: str) -> int:
        """How many times the run was paused with a reason starting with `reason_prefix`."""
        return int(
            self.db.scalar(
                "SELECT count(*) FROM run_status WHERE run_id = ? AND status = 'paused' AND reason LIKE ?",
                [run_id, reason_prefix + "%"],
            )
        )
