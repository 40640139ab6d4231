"""`stockbench analyze`, `stockbench runs ...`, `stockbench reports ...`: research runs and their reports."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.cli.evidence import evidence
from stockbench.cli.output import merged, message
from stockbench.cli.params import DECIMAL

if TYPE_CHECKING:
    from stockbench.research.outcomes import RunOutcome
    from stockbench.research.service import Research


def _research(cli: CliContext) -> Research:
    bench = cli.bench()

    def show(event: Any) -> None:
        from stockbench.research.events import RunPaused, StageStarted, SubtaskTitle

        if isinstance(event, StageStarted):
            message(cli.say("cli.run.stage", stage=cli.word("stage", event.stage)))
        elif isinstance(event, SubtaskTitle):
            message(f"   {event.title}")
        elif isinstance(event, RunPaused):
            message(cli.say("cli.run.paused", reason=event.reason))

    from stockbench.events import Event

    bench.events.subscribe(Event, show)
    return bench.research


def _outcome_human(cli: CliContext, data: dict[str, Any]) -> str:
    reason = cli.say("cli.run.reason", reason=data["reason"]) if data.get("reason") else ""
    lines = [
        cli.say("cli.run.line", run_id=data["run_id"], status=cli.word("run_status", data["status"]), reason=reason)
    ]
    if data.get("report_id"):
        lines.append(cli.say("cli.run.report", report_id=data["report_id"], action=cli.word("action", data["action"])))
    zones = data.get("zones") or {}
    for name in ("buy", "sell"):
        if zones.get(name):
            lines.append(cli.say(f"cli.run.{name}_zone", low=zones[name]["low"], high=zones[name]["high"]))
    if zones.get("stop"):
        lines.append(cli.say("cli.run.stop", stop=zones["stop"]))
    for order in data.get("orders") or []:
        lines.append(cli.say("cli.run.order", side=cli.word("side", order["side"]), qty=order["qty"],
                             price=order["price"]))  # fmt: skip
    return "\n".join(lines)


EXIT_PROBLEMS = 1  # `reports verify` found problems
EXIT_PAUSED = 4  # the run paused (the reason is in the output); `runs resume` continues it


def _emit(cli: CliContext, outcome: RunOutcome) -> int:
    """Print the outcome; the exit code says whether the run paused (4) or not (0)."""
    cli.emit(outcome, lambda d: _outcome_human(cli, d))
    return EXIT_PAUSED if outcome.status == "paused" else 0


@click.command()
@click.argument("symbol")
@click.option("--question", help="Your own question: the plan holds only what it needs.")
@click.option("--model", help="A configured model name, or 'offline' (default: the workspace's default).")
@click.option(
    "--account",
    help="The ledger account the advice is sized for (default: the account holding SYMBOL, else the only account, "
    "else the one the last run read, as the window's Automatic account).",
)
@click.option("--no-account", is_flag=True, help="Read no account: the advice knows no holding, cash or order.")
@click.option("--max-cost", type=DECIMAL, help="A cost ceiling for the model calls (the plan must fit or be approved).")
@click.option("--approve-plan", is_flag=True, help="Approve a plan whose estimate exceeds --max-cost.")
@click.option(
    "--language",
    type=click.Choice(["zh", "en"]),
    help="The report's language (default: --lang when given, else the workspace's report_language setting, else the "
    "system locale's).",
)
@pass_cli
def analyze(
    cli: CliContext,
    symbol: str,
    question: str | None,
    model: str | None,
    account: str | None,
    no_account: bool,
    max_cost: Decimal | None,
    approve_plan: bool,
    language: str | None,
) -> int:
    """Run a full analysis of SYMBOL (stage titles on stderr); ends in a published report or a pause."""
    if account is not None and no_account:
        raise click.UsageError(cli.say("cli.account_or_none"))
    research = _research(cli)
    if account is None and not no_account:  # what the user holds, as the window reads it (the report names it)
        account = research.default_account(symbol)
    outcome = research.analyze(
        symbol, question=question, model=model, account=account, max_cost=max_cost, approve_plan=approve_plan,
        language=cli.report_language(language),
    )  # fmt: skip
    return _emit(cli, outcome)


@click.group()
def runs() -> None:
    """Research runs: list, show, resume, stop."""


@runs.command("list")
@pass_cli
def runs_list(cli: CliContext) -> None:
    """Every run with its status and stage."""
    rows = cli.bench().research.runs()
    kinds = {"status": "run_status", "stage": "stage", "action": "action"}
    columns = ["run_id", "symbol", "status", "stage", "action", "started"]
    cli.emit(rows, lambda d: cli.table([_started_row(cli, r) for r in d], columns, kinds))


def _started_row(cli: CliContext, row: dict[str, Any]) -> dict[str, Any]:
    """A run of the list as people read it: started in the exchange's time, the zone named (the JSON keeps UTC)."""
    started = row.get("started")
    return {**row, "started": cli.moment(started, symbol=row["symbol"]) if isinstance(started, datetime) else started}


@runs.command("show")
@click.argument("run_id")
@pass_cli
def runs_show(cli: CliContext, run_id: str) -> None:
    """A run's plan, status, model calls, cost and journal."""
    data = cli.bench().research.run_details(run_id)
    cli.emit(data, lambda d: _outcome_human(cli, d))


@runs.command("resume")
@click.argument("run_id")
@pass_cli
def runs_resume(cli: CliContext, run_id: str) -> int:
    """Continue a paused or interrupted run from its journal (research of the past continues on its own clock)."""
    research = cli.bench().research
    run = research.record(run_id)
    if run.as_of is not None and cli.as_of is None and not research.on_its_clock(run):
        cli.close()  # reopen as of the run's instant: the run sees the market exactly as it started to
        cli.as_of = run.as_of.isoformat()
    return _emit(cli, _research(cli).resume(run_id))


@runs.command("stop")
@click.argument("run_id")
@pass_cli
def runs_stop(cli: CliContext, run_id: str) -> None:
    """Stop a run (it cannot be resumed afterwards)."""
    cli.emit(cli.bench().research.stop(run_id), lambda d: _outcome_human(cli, d))


@click.group()
def reports() -> None:
    """Published reports: list, show, export, verify."""


def _in_exchange_time(symbol: str, data: dict[str, Any], *names: str) -> dict[str, Any]:
    """`data` with its instants `names` in the exchange's time zone (a report never shows UTC)."""
    from stockbench.research.wording.phrases import exchange_instant

    return {k: exchange_instant(symbol, v) if k in names and v is not None else v for k, v in data.items()}


@reports.command("list")
@click.option("--symbol", help="Only the reports on this symbol.")
@pass_cli
def reports_list(cli: CliContext, symbol: str | None) -> None:
    """Published reports, newest first (published in the exchange's time)."""
    rows = [_in_exchange_time(r.symbol, asdict(r), "published_at") for r in cli.bench().research.reports(symbol)]
    columns = ["report_id", "symbol", "published_at", "action", "title"]
    cli.emit(rows, lambda d: cli.table([_published_row(cli, r) for r in d], columns, {"action": "action"}))


def _published_row(cli: CliContext, row: dict[str, Any]) -> dict[str, Any]:
    """A report of the list as people read it: published in the exchange's time, the zone named."""
    return {**row, "published_at": cli.moment(row["published_at"], symbol=row["symbol"])}


@reports.command("show")
@click.argument("report_id")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["md", "json"]),
    default="md",
    show_default=True,
    help="md: the report as Markdown; json: as JSON.",
)
@pass_cli
def reports_show(cli: CliContext, report_id: str, fmt: str) -> None:
    """A report as Markdown or as its structured JSON (a report that is not as published is shown with a warning)."""
    research = cli.bench().research
    found = research.report(report_id)
    tampered = research.seal_problems(report_id)
    if tampered:
        from stockbench.messages import said

        message(cli.say("cli.report.tampered", report_id=report_id, problem=said(tampered[0], cli.language)[0]))
        message(cli.say("cli.report.tampered_hint", command="stockbench reports verify"))
    if fmt == "md" and not cli.as_json:
        click.echo(found.markdown)
        return
    cli.emit(merged(found.document(), {"seal": {"ok": not tampered, "problems": tampered}}))


@reports.command("export")
@click.argument("report_id")
@click.option(
    "--to", "target", type=click.Path(dir_okay=False, path_type=Path), required=True, help="A .md or .json path."
)
@pass_cli
def reports_export(cli: CliContext, report_id: str, target: Path) -> None:
    """Write a report to a file (.md or .json)."""
    path = cli.bench().research.export(report_id, target)
    cli.emit({"path": path}, lambda d: cli.say("cli.wrote", path=d["path"]))


@reports.command("verify")
@click.argument("report_id")
@pass_cli
def reports_verify(cli: CliContext, report_id: str) -> int:
    """Re-check a published report from its frozen evidence alone (nothing is fetched); exit 1 on any problem."""
    problems = cli.bench().research.verify(report_id)
    data = {"report_id": report_id, "ok": not problems, "problems": problems}
    from stockbench.messages import said

    lines = [f"{p.code}: {said(p, cli.language)[0]}" for p in problems]
    cli.emit(data, lambda d: cli.say("cli.ok") if d["ok"] else "\n".join(lines))
    return EXIT_PROBLEMS if problems else 0


reports.add_command(evidence, "evidence")
