"""The records a research run is made of, shared by the run store, the engine and the front ends: what a run
is, the evidence an action produced, what an action returns, and a run's status."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any, Literal

import duckdb

from stockbench.evidence.store import Evidence
from stockbench.research.plan import Plan

ActionKind = Literal["model_call", "tool_call", "gate_check", "stage", "program"]
RunStatus = Literal["running", "paused", "published", "stopped", "failed"]


@dataclass(frozen=True)
class RunRecord:
    """What a run is: its subject, kind, question, model, account, locked handbook, plan and clock."""

    run_id: str
    symbol: str
    kind: str
    question: str | None
    model: str
    account: str | None
    handbook_version: str
    plan: Plan
    cost_ceiling: Decimal | None
    as_of: datetime | None = None  # the replay instant of research of the past; None: the live market


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


class Acted(str):
    """An action's result payload (a str), and whether the action ran now (`live`) or was replayed."""

    live: bool

    def __new__(cls, payload: str, *, live: bool) -> Acted:
        found = super().__new__(cls, payload)
        found.live = live
        return found
