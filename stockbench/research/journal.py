"""The run store: the records of research runs, their status history and their journal, the one writer of
`runs`, `run_status` and `run_events`.

The journal writes every action twice, an intent before and a result after, so runs resume.

An action has a deterministic idempotency key (stage/step/n). `act` returns a stored result without
running the action again; an intent without a result is retried with the identical stored request; a new
action writes its intent, runs, then writes its result together with the evidence it produced in one
transaction. The engine is deterministic given its actions' results, so re-running it after a crash replays
the journal and rebuilds every conversation from the exact stored bytes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from stockbench.clock import Clock
from stockbench.errors import NotFound
from stockbench.evidence.store import EvidenceStore
from stockbench.messages import user_error
from stockbench.research.plan import Plan
from stockbench.research.records import Acted, ActionKind, Outcome, RunRecord, RunStatus, StatusRow
from stockbench.store.database import Database

RUN_COLUMNS = ("run_id", "symbol", "kind", "question", "model", "account", "as_of", "handbook_version", "plan",
               "cost_ceiling", "approved", "created_at")  # fmt: skip
EXECUTED_KEPT = 10_000


@dataclass(frozen=True, slots=True)
class RunRow:
    """A run as a list shows it."""

    run_id: str
    symbol: str
    model: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class EventRow:
    """One journal row: an action's intent or result."""

    key: str
    kind: str
    phase: str
    outcome: str
    cost: Decimal | None
    at: datetime


class Journal:
    """The run store: writes and reads `runs`, `run_status` and `run_events` (nothing else writes them)."""

    def __init__(self, db: Database, evidence: EvidenceStore, clock: Clock) -> None:
        self.db, self.evidence, self.clock = db, evidence, clock
        # keys actually executed (not replayed) by this process, newest last: for tests and logs only (bounded)
        self.executed: list[str] = []

    # ---- runs ------------------------------------------------------------------------------------------------
    def create_run(self, run: RunRecord, *, approved: bool) -> None:
        """Record a planned run."""
        values = [run.run_id, run.symbol, run.kind, run.question, run.model, run.account, run.as_of,
                  run.handbook_version, run.plan.to_json(), run.cost_ceiling, approved, self.clock.now()]  # fmt: skip
        with self.db.transaction() as cur:
            cur.execute(
                f"INSERT INTO runs ({', '.join(RUN_COLUMNS)}) VALUES ({', '.join('?' * len(RUN_COLUMNS))})", values
            )

    def record(self, run_id: str) -> RunRecord:
        """The record of run `run_id`."""
        row = self.db.fetchone(
            "SELECT run_id, symbol, kind, question, model, account, handbook_version, plan, cost_ceiling, as_of "
            "FROM runs WHERE run_id = ?",
            [run_id],
        )
        if row is None:
            raise user_error(NotFound, "run_unknown", run=run_id, command="stockbench runs list")
        rid, symbol, kind, question, model, account, version, plan, ceiling, as_of = row
        cost = None if ceiling is None else Decimal(ceiling)
        return RunRecord(rid, symbol, kind, question, model, account, version, Plan.from_json(plan), cost, as_of)

    def runs(self) -> list[RunRow]:
        """Every run, newest first (runs created at one instant, as under a replay's or the demo's clock, in the order
        they were created: the history listed them in any order)."""
        rows = self.db.fetchall(
            "SELECT run_id, symbol, model, created_at FROM runs ORDER BY created_at DESC, rowid DESC"
        )
        return [RunRow(str(a), str(b), str(c), d) for a, b, c, d in rows]

    def last_account(self) -> str | None:
        """The account of the newest run that read one."""
        found = self.db.scalar(
            "SELECT account FROM runs WHERE account IS NOT NULL ORDER BY created_at DESC, rowid DESC LIMIT 1"
        )
        return None if found is None else str(found)

    def events(self, run_id: str) -> list[EventRow]:
        """The run's journal, in recording order."""
        rows = self.db.fetchall(
            "SELECT key, kind, phase, outcome, cost, logged_at FROM run_events WHERE run_id = ? ORDER BY seq", [run_id]
        )
        return [EventRow(str(k), str(kind), str(ph), str(o), c, at) for k, kind, ph, o, c, at in rows]

    def model_calls(self, run_id: str) -> int:
        """How many model calls of the run have a result."""
        return int(
            self.db.scalar(
                "SELECT count(*) FROM run_events WHERE run_id = ? AND kind = 'model_call' AND phase = 'result'",
                [run_id],
            )
        )

    def due(self, now: datetime) -> list[str]:
        """Paused runs whose automatic resume time has come."""
        rows = self.db.fetchall(
            """
            SELECT run_id FROM run_status s
            WHERE seq = (SELECT max(seq) FROM run_status t WHERE t.run_id = s.run_id)
              AND status = 'paused' AND resume_at IS NOT NULL AND resume_at <= ?
            """,
            [now],
        )
        return [str(r[0]) for r in rows]

    def _next_seq(self, run_id: str) -> int:
        return int(self.db.scalar("SELECT coalesce(max(seq), 0) + 1 FROM run_events WHERE run_id = ?", [run_id]))

    def stored(self, run_id: str, key: str, phase: str) -> str | None:
        value = self.db.scalar(
            "SELECT payload FROM run_events WHERE run_id = ? AND key = ? AND phase = ?", [run_id, key, phase]
        )
        return None if value is None else str(value)

    def act(self, run_id: str, key: str, kind: ActionKind, request: str, execute: Callable[[str], Outcome]) -> Acted:
        """The action's result payload: stored (replayed), or produced now by `execute(request)` and recorded."""
        done = self.stored(run_id, key, "result")
        if done is not None:
            return Acted(done, live=False)
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
        del self.executed[:-EXECUTED_KEPT]
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
        return Acted(outcome.payload, live=True)

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
                "INSERT INTO run_status (run_id, seq, status, stage, reason, resume_at, changed_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
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
