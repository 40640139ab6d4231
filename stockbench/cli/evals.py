"""`stockbench eval`: the research exam, the golden cases run on copies of the demo market, stored per handbook
version and model, compared with the previous run of the same model. Exits with 1 when anything fails."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.cli.output import message

if TYPE_CHECKING:
    from stockbench.evals.results import CaseResult

EXIT_FAILED = 1


def _progress(cli: CliContext) -> Callable[[CaseResult], None]:
    def show(result: CaseResult) -> None:
        state = cli.word("eval_state", "passed" if result.passed else "failed")
        message(cli.say("cli.eval.progress", case=f"{result.case.category}/{result.case.id}", state=state,
                        seconds=f"{result.seconds:.1f}"))  # fmt: skip

    return show


def _failures(cli: CliContext, case: dict[str, Any]) -> list[str]:
    lines = [f"    - {f}" for f in case["failures"]]
    return lines + [cli.say("cli.eval.invariant_failure", name=name, failure=v)
                    for name, found in case["invariants"].items() for v in found]  # fmt: skip


def _human(cli: CliContext, data: dict[str, Any]) -> str:
    state = cli.word("eval_state", "ok" if data["ok"] else "failed")
    lines = [cli.say("cli.eval.head", eval_id=data["eval_id"], state=state, model=data["model"],
                     handbook_version=data["handbook_version"], seconds=data["seconds"])]  # fmt: skip
    for name, found in data["categories"].items():
        lines.append(cli.say("cli.eval.category", name=name, passed=found["passed"], failed=found["failed"]))
        for case in found["cases"]:
            if not case["passed"]:
                lines += [
                    cli.say("cli.eval.case_failed", case=case["id"], status=case["status"]),
                    *_failures(cli, case),
                ]
    states = [cli.say("cli.eval.invariant", name=k, state=cli.word("eval_state", "ok" if v else "violated"))
              for k, v in data["invariants"].items()]  # fmt: skip
    lines.append(cli.say("cli.eval.invariants", states=("、" if cli.language == "zh" else ", ").join(states)))
    comparison = data["comparison"]
    previous = comparison["previous"]
    if previous is None:
        lines.append(cli.say("cli.eval.no_previous"))
    else:
        lines.append(cli.say("cli.eval.compared", eval_id=previous["eval_id"],
                             handbook_version=previous["handbook_version"],
                             regressions=len(comparison["regressions"]), fixed=len(comparison["fixed"])))  # fmt: skip
        lines += [cli.say("cli.eval.regressed", case=f"{r['category']}/{r['id']}") for r in comparison["regressions"]]
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
        cli.emit(rows, lambda d: cli.table(d, ["category", "id", "symbol", "title"]))
        return 0
    bench = cli.bench()
    models = None
    if model != "offline":
        bench.models.config(model)  # an unknown name stops here, with the configured ones
        models = {c.name: c.as_dict() for c in bench.models.configs()}
    if not (bench.home / TEMPLATE_FOLDER).exists():
        message(cli.say("cli.eval.building"))
    template = demo_template(bench.home)
    result = run_evals(template, model, cases=cases, models=models, progress=_progress(cli))
    result = EvalHistory.of(bench).record(result)
    cli.emit(result.as_dict(), lambda d: _human(cli, d))
    return 0 if result.ok else EXIT_FAILED
