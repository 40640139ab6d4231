"""EngineOp factories of the research screen: each runs one research call in the background.

Runs (execute and resume) go to the research pool, so a long analysis never starves other screens; stop and
the short reads go to the general pool, so a Stop is never queued behind the runs it should stop.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from PySide6.QtWidgets import QWidget

from stockbench.errors import Problem, RuleViolation
from stockbench.research.plan import Plan
from stockbench.research.records import RunRecord
from stockbench.workbench import Workbench
from ui.background import EngineOp
from ui.context import AppContext

Success = Callable[[Any], None]
Failure = Callable[[BaseException], None]


@dataclass(frozen=True)
class RunRequest:
    """What the user asked for: `Research.start`'s arguments."""

    symbol: str
    question: str | None = None
    model: str | None = None
    account: str | None = None
    max_cost: Decimal | None = None
    approve_plan: bool = False
    language: str | None = None  # the report's (zh or en): the interface language it was asked in
    automatic_account: bool = False  # choose the account: the holder of the symbol, else the only one, else the last


@dataclass(frozen=True)
class PlanRefusal:
    """A start refused because the plan's estimated cost exceeds the ceiling: approval may let it run."""

    request: RunRequest
    plan: Plan | None
    problems: tuple[Problem, ...]


@dataclass(frozen=True)
class ModelChoice:
    names: tuple[str, ...]
    default: str


def _start(bench: Workbench, request: RunRequest) -> RunRecord | PlanRefusal:
    research = bench.research
    before = {r.run_id for r in research.runs()}
    account = research.default_account(request.symbol) if request.automatic_account else request.account
    try:
        return research.start(
            request.symbol, question=request.question, model=request.model, account=account,
            max_cost=request.max_cost, approve_plan=request.approve_plan, language=request.language,
        )  # fmt: skip
    except RuleViolation as refused:
        if request.approve_plan or not any(p.code == "over_ceiling" for p in refused.problems):
            raise
        # The refused run is recorded with its plan; it is the one run that was not there before.
        new = [r.run_id for r in research.runs() if r.run_id not in before]
        plan = research.record(new[0]).plan if len(new) == 1 else None
        return PlanRefusal(request, plan, refused.problems)


def start_run(ctx: AppContext, parent: QWidget, request: RunRequest, success: Success, failure: Failure) -> EngineOp:
    """Plan and record a run: a `RunRecord`, or a `PlanRefusal` when the cost ceiling needs approval."""
    return ctx.op(lambda bench: _start(bench, request), success, failure=failure, parent=parent)


def execute_run(ctx: AppContext, parent: QWidget, run_id: str, success: Success, failure: Failure) -> EngineOp:
    """Run `run_id` until it publishes, pauses or stops (a `RunOutcome`)."""
    return ctx.op(lambda bench: bench.research.execute(run_id), success, failure=failure, research=True, parent=parent)


def resume_run(ctx: AppContext, parent: QWidget, run_id: str, success: Success, failure: Failure) -> EngineOp:
    """Continue a paused run from its journal (a `RunOutcome`)."""
    return ctx.op(lambda bench: bench.research.resume(run_id), success, failure=failure, research=True, parent=parent)


def stop_run(ctx: AppContext, parent: QWidget, run_id: str, success: Success) -> EngineOp:
    """Ask a run to stop at its next step (a `RunOutcome`)."""
    return ctx.op(lambda bench: bench.research.stop(run_id), success, parent=parent)


def load_outcome(ctx: AppContext, parent: QWidget, run_id: str, success: Success) -> EngineOp:
    """A run's current outcome from its journal (`Research.outcome`)."""
    return ctx.op(lambda bench: bench.research.outcome(run_id), success, parent=parent)


def load_runs(ctx: AppContext, parent: QWidget, success: Success) -> EngineOp:
    """The run history (`Research.runs()`)."""
    return ctx.op(lambda bench: bench.research.runs(), success, parent=parent)


def load_details(ctx: AppContext, parent: QWidget, run_id: str, success: Success, failure: Failure) -> EngineOp:
    """One run's details: outcome, model calls, cost and actions (`Research.run_details`)."""
    return ctx.op(lambda bench: bench.research.run_details(run_id), success, failure=failure, parent=parent)


def load_due(ctx: AppContext, parent: QWidget, success: Success) -> EngineOp:
    """Paused runs whose automatic resume time has come (`Research.due()`)."""
    return ctx.op(lambda bench: bench.research.due(), success, failure=lambda _: None, parent=parent)


def _models(bench: Workbench) -> ModelChoice:
    return ModelChoice(bench.models.choices(), bench.research.default_model())


def load_models(ctx: AppContext, parent: QWidget, success: Success) -> EngineOp:
    """The models a run may use: the offline rules model and every configured one, with the default."""
    return ctx.op(_models, success, failure=lambda _: None, parent=parent)
