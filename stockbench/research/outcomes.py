"""What research hands to front ends, as records: a run's outcome and details, the lists of runs and reports, a
stored report. The CLI turns them into JSON (stockbench/cli/output.py); the shell shows them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any, Literal

from stockbench.evidence.documents import ReportDraft
from stockbench.evidence.frozen import draft_from_json
from stockbench.research.changes import Change, PriceNow
from stockbench.research.plan import Plan
from stockbench.research.summary import ReportPlan, ReportSummary, SummaryZones
from stockbench.research.wording.entry import Language
from stockbench.store.seals import SEALED_FIELDS

NOT_STARTED = "planned"  # the status of a run with no status row yet: planned, not started


@dataclass(frozen=True)
class RunOutcome:
    """Where a run ended up: its status and stage (with why, when it paused or stopped), and its report if any."""

    run_id: str
    status: str
    stage: str
    reason: str
    report_id: str | None = None
    action: str | None = None
    summary: ReportSummary | None = None  # the published report's summary

    @property
    def zones(self) -> SummaryZones | None:
        return self.summary.zones if self.summary else None

    @property
    def orders(self) -> tuple[Any, ...]:
        """The sized orders the report shows (fees, break-even...), as its summary stores them."""
        return self.summary.orders if self.summary else ()

    def as_dict(self) -> dict[str, Any]:
        summary = self.summary.as_json() if self.summary else {}
        return {
            "run_id": self.run_id,
            "report_id": self.report_id,
            "status": self.status,
            "stage": self.stage,
            "reason": self.reason,
            "action": self.action,
            "zones": summary.get("zones"),
            "orders": summary.get("orders", []),
        }


@dataclass(frozen=True)
class RunListing:
    """A run as the run list shows it."""

    run_id: str
    symbol: str
    status: str
    stage: str
    started: datetime
    model: str
    reason: str
    report_id: str = ""  # the report a published run wrote, and its action (empty before it publishes)
    action: str = ""


@dataclass(frozen=True)
class RunAction:
    """One row of a run's journal: an action's intent or result."""

    key: str
    kind: str
    phase: str
    outcome: str
    at: datetime


@dataclass(frozen=True)
class RunDetails:
    """A run's outcome with its subject, plan, model calls, cost and journal."""

    outcome: RunOutcome
    symbol: str
    model: str
    plan: Plan
    model_calls: int
    cost: Decimal
    actions: tuple[RunAction, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.outcome.as_dict(),
            "symbol": self.symbol,
            "model": self.model,
            "plan": json.loads(self.plan.to_json()),
            "model_calls": self.model_calls,
            "cost": self.cost,
            "actions": [
                {"key": a.key, "kind": a.kind, "phase": a.phase, "outcome": a.outcome, "at": a.at} for a in self.actions
            ],
        }


@dataclass(frozen=True)
class ReportListing:
    """A published report as a list shows it."""

    report_id: str
    run_id: str
    symbol: str
    published_at: datetime
    title: str
    action: str
    model: str
    offline: bool


@dataclass(frozen=True)
class ReportRecord:
    """What a published report stores (the archive adds its order, field hashes and seal)."""

    report_id: str
    run_id: str
    symbol: str
    published_at: datetime
    as_of: datetime | None
    title: str
    action: str
    model: str
    offline: bool
    handbook_version: str
    markdown: str
    draft: dict[str, Any]
    frozen: dict[str, Any]
    summary: dict[str, Any]

    def stored(self) -> dict[str, Any]:
        """The row as the database holds it (JSON columns as text)."""
        row = {name: getattr(self, name) for name in SEALED_FIELDS}
        for name in ("draft", "frozen", "summary"):
            row[name] = json.dumps(row[name], ensure_ascii=False, default=str)
        return row

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> ReportRecord:
        """The record of a stored row (JSON columns as text)."""
        data = {name: row[name] for name in SEALED_FIELDS}
        for name in ("draft", "frozen", "summary"):
            data[name] = json.loads(data[name])
        data["offline"] = bool(data["offline"])
        return cls(**data)

    def report_summary(self) -> ReportSummary:
        """The summary, typed."""
        return ReportSummary.from_json(self.summary)

    def report_draft(self) -> ReportDraft:
        """The sealed draft, typed."""
        return draft_from_json(self.draft)

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in SEALED_FIELDS}

    def document(self) -> dict[str, Any]:
        """The report as `reports show --format json` and a .json export give it: the stored record, its instants
        in the exchange's time zone (a report never shows UTC), and lifted from its summary its language, action,
        position state, scenarios ({name, probability, move_pct, price, lands}) and calibration."""
        from stockbench.research.wording.phrases import exchange_instant

        summary = self.report_summary()
        lifted = summary.as_json()
        times = {k: exchange_instant(self.symbol, v) for k in ("published_at", "as_of") if (v := getattr(self, k))}
        return {
            **self.as_dict(),
            **times,
            "language": summary.language,
            "action": self.action,
            "position_state": summary.position_state,
            "scenarios": [{k: s.get(k) for k in SCENARIO_FIELDS} for s in lifted["scenarios"]],
            "calibration": lifted.get("calibration"),
        }


SCENARIO_FIELDS = ("name", "probability", "move_pct", "price", "lands")  # a scenario in a report's JSON


# ---- after the report: the plan check and the quick review ------------------------------------------------------
CheckStatus = Literal["ok", "triggered", "conflict"]


@dataclass(frozen=True, slots=True)
class Check:
    """One rule of the plan against current data."""

    rule: str
    status: CheckStatus
    detail: str
    checked: bool = True  # False: the rule could not be evaluated by the program (say so, never guess)

    def as_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "status": self.status, "detail": self.detail, "checked": self.checked}


@dataclass(frozen=True)
class PlanCheckResult:
    """The rules of a report's plan against current data (and an account's ledger), by the program alone."""

    report_id: str
    symbol: str
    action: str
    published_at: datetime
    price: PriceNow
    account: str | None
    checks: tuple[Check, ...]
    table: str  # the rule table's label

    @property
    def recommend_full_analysis(self) -> bool:
        """A rule conflicts with the report's action."""
        return any(c.status == "conflict" for c in self.checks)

    def as_dict(self) -> dict[str, Any]:
        return {
            "report_id": self.report_id,
            "symbol": self.symbol,
            "action": self.action,
            "published_at": self.published_at.isoformat(),
            "price": self.price.as_dict(),
            "account": self.account,
            "checks": [c.as_dict() for c in self.checks],
            "recommend_full_analysis": self.recommend_full_analysis,
            "table": self.table,
        }


@dataclass(frozen=True)
class Answer:
    """The model's accepted answer to one change of a quick review: its level, action and cited response."""

    change: str
    level: str
    action: str
    response: str
    evidence: tuple[str, ...]
    path: str | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Answer:
        return cls(
            str(data["change"]), str(data["level"]), str(data["action"]), str(data["response"]),
            tuple(data["evidence"]), data.get("path"),
        )  # fmt: skip

    def as_dict(self) -> dict[str, Any]:
        return {
            "change": self.change,
            "level": self.level,
            "action": self.action,
            "response": self.response,
            "evidence": list(self.evidence),
            "path": self.path,
        }


@dataclass(frozen=True)
class QuickOutcome:
    """A quick review: its baseline report, the changes since, the model's answer to each, and its status."""

    run_id: str
    baseline: ReportPlan
    age_sessions: int  # how old the baseline is, in sessions
    table: str  # the level table's label
    changes: tuple[Change, ...]
    answers: tuple[Answer, ...]
    status: str
    reason: str = ""
    language: Language = "zh"  # the language its texts are written in

    @property
    def full_analysis_required(self) -> bool:
        return any(c.level == "full_analysis" for c in self.changes) or any(
            a.level == "full_analysis" for a in self.answers
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "baseline_report": {**self.baseline.as_dict(), "age_sessions": self.age_sessions, "table": self.table},
            "changes": [c.as_dict() for c in self.changes],
            "answers": [a.as_dict() for a in self.answers],
            "full_analysis_required": self.full_analysis_required,
            "status": self.status,
            "reason": self.reason,
            "language": self.language,
        }
