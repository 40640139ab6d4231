"""Stored eval results (tables eval_runs and eval_cases), per handbook version and model, and the comparison of
a new run with what was stored before for the same model: which cases regressed and which were fixed."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import stockbench
from stockbench.evals.results import Comparison, EvalResult, Regression
from stockbench.store.database import Database

if TYPE_CHECKING:
    from stockbench.workbench import Workbench


class EvalHistory:
    """Eval results stored in one workspace."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @classmethod
    def of(cls, bench: Workbench) -> EvalHistory:
        """The eval results of `bench`'s workspace."""
        return cls(bench.workspace.db)

    def previous(self, model: str) -> dict[str, Any] | None:
        """The latest stored run of `model`: eval_id, handbook_version, started_at, ok."""
        row = self.db.fetchone(
            "SELECT eval_id, handbook_version, started_at, ok FROM eval_runs WHERE model = ? "
            "ORDER BY started_at DESC, eval_id DESC LIMIT 1",
            [model],
        )
        if row is None:
            return None
        return {"eval_id": row[0], "handbook_version": row[1], "started_at": row[2], "ok": bool(row[3])}

    def last_outcomes(self, model: str) -> dict[str, bool]:
        """Each case's latest stored outcome with `model` (a run of some cases leaves the others' as they were)."""
        rows = self.db.fetchall(
            """
            SELECT case_id, arg_max(c.passed, r.started_at) FROM eval_cases c JOIN eval_runs r USING (eval_id)
            WHERE r.model = ? GROUP BY case_id
            """,
            [model],
        )
        return {str(case): bool(passed) for case, passed in rows}

    def compare(self, result: EvalResult) -> Comparison:
        """`result` against each case's latest stored outcome with the same model."""
        previous = self.previous(result.model)
        if previous is None:
            return Comparison(None)
        before = self.last_outcomes(result.model)
        regressions = tuple(
            Regression(c.case.id, c.case.category, (*c.failures, *(v for vs in c.invariants.values() for v in vs)))
            for c in result.cases
            if before.get(c.case.id) is True and not c.passed
        )
        fixed = tuple(c.case.id for c in result.cases if before.get(c.case.id) is False and c.passed)
        return Comparison(previous, regressions, fixed)

    def save(self, result: EvalResult) -> None:
        """Store `result` and every case outcome in one transaction."""
        with self.db.transaction() as cur:
            cur.execute(
                "INSERT INTO eval_runs (eval_id, model, handbook_version, app_version, started_at, seconds, ok, "
                "invariants) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    result.eval_id,
                    result.model,
                    result.handbook_version,
                    stockbench.__version__,
                    result.started_at,
                    result.seconds,
                    result.ok,
                    json.dumps(result.invariants()),
                ],
            )
            for case in result.cases:
                cur.execute(
                    "INSERT INTO eval_cases (eval_id, case_id, category, passed, status, run_id, seconds, failures, "
                    "invariants) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        result.eval_id,
                        case.case.id,
                        case.case.category,
                        case.passed,
                        case.status,
                        case.run_id,
                        case.seconds,
                        json.dumps(list(case.failures), ensure_ascii=False),
                        json.dumps({k: list(v) for k, v in case.invariants.items()}, ensure_ascii=False),
                    ],
                )

    def record(self, result: EvalResult) -> EvalResult:
        """Compare `result` with the previous run of its model, store it, and return it with the comparison."""
        comparison = self.compare(result)
        self.save(result)
        return replace(result, comparison=comparison)
