"""`stockbench review-quick` and `stockbench check-plan`: re-checking the latest report during the session."""

from __future__ import annotations

from typing import Any

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.clock import instant_of


def _review_human(cli: CliContext, data: dict[str, Any], symbol: str) -> str:
    from stockbench.research.wording import say

    base = data["baseline_report"]
    published = instant_of(base["published_at"])
    when = cli.moment(published, symbol=symbol) if published is not None else base["published_at"]
    reason = cli.say("cli.run.reason", reason=data["reason"]) if data.get("reason") else ""
    lines = [
        cli.say("cli.quick.line", run_id=data["run_id"], status=cli.word("run_status", data["status"]), reason=reason),
        cli.say("cli.quick.baseline", report_id=base["report_id"], published_at=when,
                age=base["age_sessions"], action=cli.word("action", base["action"])),
    ]  # fmt: skip
    answers = {a["change"]: a for a in data["answers"]}
    written = data.get("language") or cli.language  # the review's words: its levels and actions beside its details
    for change in data["changes"] or []:
        level = say(f"quick.level.{change['level']}", written)
        lines.append(f"  {change['id']} [{level}] {change['detail']}")
        if change["id"] in answers:
            answer = answers[change["id"]]
            action = say(f"quick.action.{answer['action']}", written)
            chosen = say(f"quick.level.{answer['level']}", written)
            lines.append(f"      -> {action} ({chosen}): {answer['response']}")
    if not data["changes"]:
        lines.append(cli.say("cli.quick.no_change"))
    if data["full_analysis_required"]:
        lines.append(cli.say("cli.quick.full_required"))
    return "\n".join(lines)


def _check_human(cli: CliContext, data: dict[str, Any]) -> str:
    price = data["price"]
    lines = [
        cli.say("cli.check.head", report_id=data["report_id"], action=cli.word("action", data["action"]),
                price=price["price"], label=cli.word("quote_label", price["label"]), day=price["day"])
    ]  # fmt: skip
    lines += [f"  {cli.word('check_status', c['status']):<9} {c['rule']}: {c['detail']}" for c in data["checks"]]
    if data["recommend_full_analysis"]:
        lines.append(cli.say("cli.check.recommend"))
    return "\n".join(lines)


@click.command("review-quick")
@click.argument("symbol")
@click.option("--model", help="A configured model name, or 'offline' (default: the workspace's default).")
@click.option(
    "--account",
    help="The ledger account whose position and open orders the answers consider (default: the report's).",
)
@click.option(
    "--language",
    type=click.Choice(["zh", "en"]),
    help="The review's language (default: --lang when given, else the workspace's report_language setting, else the "
    "system locale's).",
)
@pass_cli
def review_quick(cli: CliContext, symbol: str, model: str | None, account: str | None, language: str | None) -> None:
    """Re-check SYMBOL against its latest full report: the changes since, each answered by the model."""
    outcome = cli.bench().quick_reviews.review(
        symbol, model=model, account=account, language=cli.report_language(language)
    )
    cli.emit(outcome, lambda d: _review_human(cli, d, symbol))


@click.command("check-plan")
@click.argument("symbol")
@click.option("--account", help="The ledger account whose orders and holding are checked (default: the report's).")
@pass_cli
def check_plan(cli: CliContext, symbol: str, account: str | None) -> None:
    """Check the latest report's plan on SYMBOL against current data, by rule alone (no model)."""
    cli.emit(cli.bench().plan_checks.check(symbol, account), lambda d: _check_human(cli, d))
