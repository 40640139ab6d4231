"""`stockbench review-quick` and `stockbench check-plan`: re-checking the latest report during the session."""

from __future__ import annotations

from typing import Any

import click

from stockbench.cli.context import CliContext, pass_cli


def _review_human(data: dict[str, Any]) -> str:
    base = data["baseline_report"]
    lines = [
        f"quick review {data['run_id']}: {data['status']}" + (f" ({data['reason']})" if data.get("reason") else ""),
        f"baseline {base['report_id']} ({base['published_at']}, {base['age_sessions']} session(s) old): "
        f"{base['action']}",
    ]
    answers = {a["change"]: a for a in data["answers"]}
    for change in data["changes"] or []:
        lines.append(f"  {change['id']} [{change['level']}] {change['detail']}")
        if change["id"] in answers:
            answer = answers[change["id"]]
            lines.append(f"      -> {answer['action']} ({answer['level']}): {answer['response']}")
    if not data["changes"]:
        lines.append("  no change since the baseline")
    if data["full_analysis_required"]:
        lines.append("a full analysis is required")
    return "\n".join(lines)


def _check_human(data: dict[str, Any]) -> str:
    price = data["price"]
    lines = [
        f"plan of {data['report_id']} ({data['action']}) against {price['price']} ({price['label']}, {price['day']})"
    ]
    lines += [f"  {c['status']:<9} {c['rule']}: {c['detail']}" for c in data["checks"]]
    if data["recommend_full_analysis"]:
        lines.append("a rule conflicts with the report's action: a full analysis is recommended")
    return "\n".join(lines)


@click.command("review-quick")
@click.argument("symbol")
@click.option("--model", help="A configured model name, or 'offline' (default: the workspace's default).")
@click.option("--account", help="The ledger account whose position and open orders the answers consider.")
@pass_cli
def review_quick(cli: CliContext, symbol: str, model: str | None, account: str | None) -> None:
    """Re-check SYMBOL against its latest full report: the changes since, each answered by the model."""
    outcome = cli.bench().quick_reviews.review(symbol, model=model, account=account)
    cli.emit(outcome, _review_human)


@click.command("check-plan")
@click.argument("symbol")
@click.option("--account", help="The ledger account whose orders and holding are checked (default: the report's).")
@pass_cli
def check_plan(cli: CliContext, symbol: str, account: str | None) -> None:
    """Check the latest report's plan on SYMBOL against current data, by rule alone (no model)."""
    cli.emit(cli.bench().plan_checks.check(symbol, account), _check_human)
