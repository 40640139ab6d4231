"""`stockbench reports evidence REPORT`: where a report's number, quote or cited evidence comes from.

The evidence is re-read with the publication gates' rules (the number reader, the quote check), as the desktop
report browser shows it when a link is clicked.
"""

from __future__ import annotations

from typing import Any

import click

from stockbench.cli.context import CliContext, pass_cli

PASSAGE_LINES = 12


def _marked(passage: str, highlight: str) -> str:
    """`passage` with the first occurrence of `highlight` between » and «."""
    at = passage.find(highlight) if highlight else -1
    return passage if at < 0 else f"{passage[:at]}»{highlight}«{passage[at + len(highlight) :]}"


def _detail_human(detail: dict[str, Any], asked: bool) -> list[str]:
    if detail["missing"]:
        return [f"{detail['evidence_id']}: not in this workspace"]
    state = ""
    if asked:
        state = {"drops_negation": f"  REFUSED: the quote leaves out “{detail['dropped']}” of its clause",
                 "mismatch": "  NOT FOUND: the closest passage is shown"}.get(detail["quote_check"], "")  # fmt: skip
        state = state or ("  found" if detail["found"] else "  NOT FOUND: its opening is shown")
    lines = [
        f"{detail['evidence_id']} ({detail['kind']}) from {detail['source']}",
        f"  sha256 {detail['sha256']}" + ("" if detail["intact"] else "  (body altered!)"),
        f"  fetched {detail['fetched_at']}",
        *([f"  at {detail['where']}"] if detail["where"] else []),
        *([state] if state else []),
    ]
    passage = _marked(detail["passage"], detail["highlight"]).splitlines()[:PASSAGE_LINES]
    return lines + [f"    {line}" for line in passage]


def _human(data: dict[str, Any]) -> str:
    request = data["request"]
    asked = request["number"] is not None or request["quote"] is not None
    head = (
        f"where {request['number']} comes from" if request["number"] is not None
        else "where the quote comes from" if request["quote"] is not None else "evidence"
    )  # fmt: skip
    lines = [f"{data['report_id']}: {head}"]
    for detail in data["details"]:
        lines += ["", *_detail_human(detail, asked)]
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
    cli.emit(answer, _human)
