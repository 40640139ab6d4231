"""`stockbench eval`: the research exam, the golden cases run on copies of the demo market, stored per handbook
version and model, compared with the previous run of the same model. Exits with 1 when anything fails."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.cli.output import message, table

if TYPE_CHECKING:
    from stockbench.evals.results import CaseResult

EXIT_FAILED = 1


def _progress(result: CaseResult) -> None:
    state = "passed" if result.passed else "FAILED"
    message(f"   {result.case.category}/{result.case.id}: {state} ({result.seconds:.1f} s)")


def _failures(case: dict[str, Any]) -> list[str]:
    lines = [f"    - {f}" for f in case["failures"]]
    return lines + [f"    - invariant {name}: {v}" for name, found in case["invariants"].items() for v in found]


def _human(data: dict[str, Any]) -> str:
    head = "ok" if data["ok"] else "FAILED"
    lines = [
        f"eval {data['eval_id']}: {head} (model {data['model']}, handbook {data['handbook_version']}, "
        f"{data['seconds']} s)"
    ]
    for name, found in data["categories"].items():
        lines.append(f"  {name}: {found['passed']} passed, {found['failed']} failed")
        for case in found["cases"]:
            if not case["passed"]:
                lines += [f"    FAIL {case['id']} ({case['status']})", *_failures(case)]
    lines.append(
        "  invariants: " + ", ".join(f"{k} {'ok' if v else 'VIOLATED'}" for k, v in data["invariants"].items())
    )
    comparison = data["comparison"]
    previous = comparison["previous"]
    if previous is None:
        lines.append("  no earlier run of this model to compare with")
    else:
        lines.append(
            f"  compared with {previous['eval_id']} (handbook {previous['handbook_version']}): "
            f"{len(comparison['regressions'])} regression(s), {len(comparison['fixed'])} fixed"
        )
        lines += [f"    REGRESSED {r['category']}/{r['id']}" for r in comparison["regressions"]]
    return "\n".join(lines)


@click.command("eval")
@click.option("--model", default="offline", show_default=True, help="'offline' or a configured model name.")
@click.option("--case", "wanted", multiple=True, metavar="ID|CATEGORY", help="Run only these cases or categories.")
@click.option("--list", "list_only", is_flag=True, help="List the golden cases and exit.")
@pass_cli
def evaluate(cli: CliContext, model: str, wanted: tuple[str, ...], list_only: bool) -> int:
    """Run the golden research cases (tool routing, citations, numbers, failure recovery, usefulness).

    Each case runs in a fresh copy of the demo market; the citation, permission and negative-expected-value
    invariants must hold on every case. Results are stored and compared with the previous run of the same
    model. Exits with 1 when a case or an invariant fails."""
    from stockbench.evals.cases import load_cases, select
    from stockbench.evals.history import EvalHistory
    from stockbench.evals.runner import run_evals
    from stockbench.evals.workspaces import TEMPLATE_FOLDER, demo_template

    cases = select(load_cases(), wanted)
    if list_only:
        rows = [{"id": c.id, "category": c.category, "symbol": c.symbol, "title": c.title} for c in cases]
        cli.emit(rows, lambda d: table(d, ["category", "id", "symbol", "title"]))
        return 0
    bench = cli.bench()
    models = None
    if model != "offline":
        bench.models.config(model)  # an unknown name stops here, with the configured ones
        models = {c.name: c.as_dict() for c in bench.models.configs()}
    if not (bench.home / TEMPLATE_FOLDER).exists():
        message("building the demo market the cases run on (once; about fifteen seconds)")
    template = demo_template(bench.home)
    result = run_evals(template, model, cases=cases, models=models, progress=_progress)
    result = EvalHistory.of(bench).record(result)
    cli.emit(result.as_dict(), _human)
    return 0 if result.ok else EXIT_FAILED
