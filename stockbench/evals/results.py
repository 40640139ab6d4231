"""What an eval run found: each case's failures and invariant violations, rolled up by category and invariant,
and how it compares with what was stored before for the same model."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from stockbench.evals.cases import CATEGORIES, Case
from stockbench.evals.invariants import INVARIANTS
from stockbench.evals.observation import Observation


@dataclass(frozen=True)
class CaseResult:
    case: Case
    status: str  # the run's final status (published, paused, ...), or "error" when the case itself crashed
    run_id: str | None
    report_id: str | None
    failures: tuple[str, ...]
    invariants: Mapping[str, tuple[str, ...]]  # invariant name -> its violations in this case
    seconds: float
    observation: Observation | None = field(default=None, compare=False, repr=False)

    @property
    def passed(self) -> bool:
        return not self.failures and not any(self.invariants.values())

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.case.id,
            "title": self.case.title,
            "passed": self.passed,
            "status": self.status,
            "run_id": self.run_id,
            "report_id": self.report_id,
            "seconds": round(self.seconds, 2),
            "failures": list(self.failures),
            "invariants": {name: list(found) for name, found in self.invariants.items()},
        }


@dataclass(frozen=True)
class Regression:
    case_id: str
    category: str
    failures: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.case_id, "category": self.category, "failures": list(self.failures)}


@dataclass(frozen=True)
class Comparison:
    """This run against each case's latest stored outcome with the same model (on any handbook version)."""

    previous: Mapping[str, Any] | None  # the model's latest stored run: eval_id, handbook_version, started_at, ok
    regressions: tuple[Regression, ...] = ()  # passed last time, fail now
    fixed: tuple[str, ...] = ()  # failed last time, pass now

    def as_dict(self) -> dict[str, Any]:
        return {
            "previous": dict(self.previous) if self.previous else None,
            "regressions": [r.as_dict() for r in self.regressions],
            "fixed": list(self.fixed),
        }


@dataclass(frozen=True)
class EvalResult:
    eval_id: str
    model: str
    handbook_version: str
    started_at: datetime
    seconds: float
    cases: tuple[CaseResult, ...]
    comparison: Comparison | None = None

    @property
    def ok(self) -> bool:
        return all(c.passed for c in self.cases)

    def invariants(self) -> dict[str, bool]:
        """Each invariant: True when it held on every case."""
        return {name: not any(c.invariants.get(name) for c in self.cases) for name in INVARIANTS}

    def categories(self) -> dict[str, dict[str, Any]]:
        """Passed and failed counts and the case results of every category that had cases."""
        found: dict[str, dict[str, Any]] = {}
        for category in CATEGORIES:
            cases = [c for c in self.cases if c.case.category == category]
            if cases:
                passed = sum(1 for c in cases if c.passed)
                found[category] = {
                    "passed": passed,
                    "failed": len(cases) - passed,
                    "cases": [c.as_dict() for c in cases],
                }
        return found

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "eval_id": self.eval_id,
            "model": self.model,
            "handbook_version": self.handbook_version,
            "started_at": self.started_at,
            "seconds": round(self.seconds, 1),
            "categories": self.categories(),
            "invariants": self.invariants(),
            "comparison": self.comparison.as_dict()
            if self.comparison
            else {"previous": None, "regressions": [], "fixed": []},
        }
