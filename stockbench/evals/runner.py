"""Running the golden cases: each in a fresh copy of the demo market, with its setup and fault, one research
run through the same engine as `stockbench analyze`, then its checks and every invariant on what it recorded.

A case that crashes fails (with the error as its failure) rather than stopping the eval.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from stockbench.errors import InternalError
from stockbench.evals.cases import Case, load_cases
from stockbench.evals.checks import binding_problems, run_checks
from stockbench.evals.faults import FaultPort, drop_data
from stockbench.evals.invariants import check_invariants
from stockbench.evals.observation import Observation, ledger_snapshot, observe
from stockbench.evals.results import CaseResult, EvalResult
from stockbench.evals.workspaces import copy_workspace, open_account
from stockbench.llm.models import SETTING as MODELS_SETTING
from stockbench.research.handbook import Handbook
from stockbench.research.models import ModelPort
from stockbench.research.service import Research
from stockbench.workbench import Workbench

log = logging.getLogger(__name__)
Progress = Callable[[CaseResult], None]


class CaseResearch(Research):
    """Research in a case's workspace whose model ports carry the case's fault."""

    def __init__(self, bench: Workbench, case: Case) -> None:
        super().__init__(bench.workspace.db, bench.clock, bench.events, bench.research.facts, _llm(bench))
        self.case = case
        self.ports: dict[str, FaultPort] = {}

    def model(self, name: str) -> ModelPort:
        if name not in self.ports:
            self.ports[name] = FaultPort(super().model(name), self.case.fault)
        return self.ports[name]

    def struck(self) -> bool:
        return any(port.injected for port in self.ports.values())


def _llm(bench: Workbench) -> Any:
    if not bench.workspace.settings.get(MODELS_SETTING):
        return None
    from stockbench.research.llm_port import port_factory

    return port_factory(bench.workspace.settings, bench.models.keys)


def _setup(case: Case, bench: Workbench, models: Mapping[str, Any] | None) -> list[str]:
    """Prepare the case's workspace; the failures of the setup itself (an earlier report that did not publish)."""
    if models:
        bench.workspace.settings.set(MODELS_SETTING, dict(models))
    if case.account is not None:
        open_account(bench, case.symbol, case.account)
    if case.fault is not None and case.fault.kind == "drop_data":
        drop_data(bench.workspace.db, bench.market.registry.instrument(case.symbol).symbol, case.fault)
    if case.previous:
        account = case.account.name if case.account else None
        earlier = bench.research.analyze(case.symbol, model="offline", account=account)
        if earlier.status != "published":
            return [f"setup: the earlier report did not publish ({earlier.status}: {earlier.reason})"]
    return []


def _run(case: Case, bench: Workbench, model: str) -> tuple[Observation, list[str]]:
    """The case's run, observed; plus a failure when its model fault never struck."""
    research = CaseResearch(bench, case)
    before = ledger_snapshot(bench.workspace.db)
    account = case.account.name if case.account else None
    run = research.start(case.symbol, question=case.question, model=model, account=account)
    outcome = research.execute(run.run_id)
    if case.resume and outcome.status == "paused":
        research.resume(run.run_id)
    observation = observe(research, run.run_id, before, ledger_snapshot(bench.workspace.db))
    fault = case.fault
    if fault is None or fault.kind == "drop_data" or research.struck():
        return observation, []
    return observation, [f"setup: the {fault.kind} fault in stage {fault.stage} never struck"]


def run_case(
    case: Case, template: Path, model: str, scratch: Path, models: Mapping[str, Any] | None = None
) -> CaseResult:
    """One case in a fresh copy of `template` (a built demo market) under `scratch`, with `model`."""
    started = time.perf_counter()
    home = copy_workspace(template, scratch / case.id)
    try:
        with Workbench.open(home, command=f"stockbench eval {case.id}") as bench:
            failures = _setup(case, bench, models)
            observation, missed = _run(case, bench, model)
    except Exception as error:  # a crashing case is a failed case: the eval goes on and says why
        log.exception("eval case %s crashed", case.id)
        failure = f"the case raised {type(error).__name__}: {error}"
        return CaseResult(case, "error", None, None, (failure,), {}, time.perf_counter() - started)
    finally:
        shutil.rmtree(home, ignore_errors=True)  # a copy of the demo market is tens of megabytes
    failures += missed + run_checks(case, observation)
    violations = {name: tuple(found) for name, found in check_invariants(observation).items()}
    report_id = None if observation.report is None else observation.report.report_id
    return CaseResult(
        case,
        observation.status,
        observation.run_id,
        report_id,
        tuple(failures),
        violations,
        time.perf_counter() - started,
        observation,
    )


def run_evals(
    template: Path,
    model: str = "offline",
    *,
    cases: Sequence[Case] | None = None,
    models: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
) -> EvalResult:
    """Run `cases` (default: every golden case) with `model` against copies of the demo market at `template`.

    `models` is the configured-models setting of the user's workspace, copied into each case's workspace so a
    configured model (and its fallback) can be used there; its key stays in the OS keyring.
    """
    chosen = list(cases) if cases is not None else load_cases()
    problems = [p for case in chosen for p in binding_problems(case)]
    if problems:
        raise InternalError("; ".join(problems))
    started_at, started = datetime.now(UTC), time.perf_counter()
    results = []
    with tempfile.TemporaryDirectory(prefix="stockbench-eval-") as scratch:
        for case in chosen:
            result = run_case(case, template, model, Path(scratch), models)
            results.append(result)
            if progress is not None:
                progress(result)
    return EvalResult(
        eval_id=f"EVAL{started_at:%Y%m%d}-{uuid.uuid4().hex[:8]}",
        model=model,
        handbook_version=Handbook.load().version,
        started_at=started_at,
        seconds=time.perf_counter() - started,
        cases=tuple(results),
    )
