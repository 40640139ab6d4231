"""`stockbench reports evidence REPORT`: where a report's number, quote or cited evidence comes from.

The evidence is re-read with the publication gates' rules (the number reader, the quote check), as the desktop
report browser shows it when a link is clicked.
"""

from __future__ import annotations

from typing import Any

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.clock import instant_of

PASSAGE_LINES = 12


def _marked(passage: str, highlight: str) -> str:
    """`passage` with the first occurrence of `highlight` between » and «."""
    at = passage.find(highlight) if highlight else -1
    return passage if at < 0 else f"{passage[:at]}»{highlight}«{passage[at + len(highlight) :]}"


def _detail_human(cli: CliContext, detail: dict[str, Any], asked: bool) -> list[str]:
    if detail["missing"]:
        return [cli.say("cli.evidence.missing", evidence_id=detail["evidence_id"])]
    state = ""
    if asked:
        if detail["quote_check"] == "drops_negation":
            state = cli.say("cli.evidence.drops_negation", dropped=detail["dropped"])
        elif detail["quote_check"] == "mismatch":
            state = cli.say("cli.evidence.mismatch")
        else:
            state = cli.say("cli.evidence.found" if detail["found"] else "cli.evidence.not_found")
    fetched = instant_of(detail["fetched_at"])
    lines = [
        cli.say("cli.evidence.item", evidence_id=detail["evidence_id"], kind=cli.word("evidence_kind", detail["kind"]),
                source=detail["source"]),
        cli.say("cli.evidence.sha", sha256=detail["sha256"]) + ("" if detail["intact"] else cli.say(
            "cli.evidence.altered")),
        cli.say("cli.evidence.fetched", at=cli.moment(fetched) if fetched is not None else detail["fetched_at"]),
        *([cli.say("cli.evidence.where", where=detail["where"])] if detail["where"] else []),
        *([state] if state else []),
    ]  # fmt: skip
    passage = _marked(detail["passage"], detail["highlight"]).splitlines()[:PASSAGE_LINES]
    return lines + [f"    {line}" for line in passage]


def _human(cli: CliContext, data: dict[str, Any]) -> str:
    request = data["request"]
    asked = request["number"] is not None or request["quote"] is not None
    if request["number"] is not None:
        head = cli.say("cli.evidence.head_number", report_id=data["report_id"], number=request["number"])
    elif request["quote"] is not None:
        head = cli.say("cli.evidence.head_quote", report_id=data["report_id"])
    else:
        head = cli.say("cli.evidence.head", report_id=data["report_id"])
    lines = [head]
    for detail in data["details"]:
        lines += ["", *_detail_human(cli, detail, asked)]
    return "\n".join(lines)


@click.command("evidence")
@click.argument("report_id")
@click.option("--number", metavar="TEXT", help="A number as written in one of the report's claims, e.g. 27.51.")
@click.option("--quote", metavar="TEXT", help="One of the report's quotations, as written.")
@click.option("--evidence", "evidence_id", metavar="ID", help="An evidence id the report cites (ev-...).")
@pass_cli
def evidence(cli: CliContext, report_id: str, number: str | None, quote: str | None, evidence_id: str | None) -> None:
    """Where a number or quote of report REPORT_ID comes from: each evidence it cites, with the passage holding it.

    Give exactly one of --number, --quote and --evidence."""
    if sum(v is not None for v in (number, quote, evidence_id)) != 1:
        raise click.UsageError(cli.say("cli.evidence_one_of"))
    bench = cli.bench()
    report = bench.research.report(report_id)
    citations = bench.evidence.citations(report.draft, report.markdown)
    answer = bench.evidence.in_report(report_id, citations, number=number, quote=quote, evidence_id=evidence_id)
    cli.emit(answer, lambda d: _human(cli, d))
