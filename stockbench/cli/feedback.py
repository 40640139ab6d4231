"""`stockbench feedback`, `stockbench track-record`, `stockbench replay`: reviews of reports, how calls turned out,
and research replayed on history."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.cli.output import message, table
from stockbench.cli.params import DATE

if TYPE_CHECKING:
    from stockbench.research.replay import ReplayRun


class _AddByDefault(click.Group):
    """`feedback RUN ...` means `feedback add RUN ...`; `feedback list` and the others stay subcommands."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            args = ["add", *args]
        return super().parse_args(ctx, args)


@click.group(cls=_AddByDefault)
def feedback() -> None:
    """Review published reports: `feedback RUN --verdict ... --reason ...`; list, lineage, codes.

    Reviews are append-only. The next run on the symbol reads only their aggregates (verdict counts, the most
    frequent reason codes, mean scores); comments are for people and never reach a model.
    """


@feedback.command("add")
@click.argument("run")
@click.option("--verdict", type=click.Choice(["accept", "revise", "reject"]), required=True)
@click.option(
    "--reason", "reasons", multiple=True, metavar="CODE", help="A reason code (repeat); see `feedback codes`."
)
@click.option("--score", "scores", multiple=True, metavar="NAME=VALUE", help="A score (repeat), e.g. usefulness=4.")
@click.option("--comment", default="", help="Free text for people (never shown to a model).")
@click.option("--revised-by", metavar="RUN", help="The run that revises this report (revise only).")
@pass_cli
def feedback_add(
    cli: CliContext,
    run: str,
    verdict: str,
    reasons: tuple[str, ...],
    scores: tuple[str, ...],
    comment: str,
    revised_by: str | None,
) -> None:
    """Record a review of the report RUN (a run or report id) published."""
    from stockbench.research.reviews import parse_scores

    parsed = parse_scores(scores)
    review = cli.bench().reviews.add(
        run, verdict, reasons=reasons, scores=parsed, comment=comment, revised_by=revised_by
    )
    cli.emit(review.as_dict(), lambda d: f"review {d['review_id']} of {d['report_id']}: {d['verdict']}")


@feedback.command("list")
@click.option("--symbol")
@click.option("--run", "run_id", help="Reviews of one run.")
@pass_cli
def feedback_list(cli: CliContext, symbol: str | None, run_id: str | None) -> None:
    """Reviews in the order they were recorded."""
    rows = [r.as_dict() for r in cli.bench().reviews.find(symbol=symbol, run_id=run_id)]
    columns = ["review_id", "report_id", "symbol", "verdict", "reasons", "reviewed_at"]
    cli.emit(rows, lambda d: table([r | {"reasons": " ".join(r["reasons"])} for r in d], columns))


@feedback.command("lineage")
@click.argument("report")
@pass_cli
def feedback_lineage(cli: CliContext, report: str) -> None:
    """The chain of revisions around REPORT (a report or run id), oldest first, from the stored reviews."""
    steps = [s.as_dict() for s in cli.bench().reviews.lineage(report)]

    def human(rows: list[dict[str, Any]]) -> str:
        lines = []
        for s in rows:
            verdicts = ", ".join(f"{r['verdict']} ({' '.join(r['reasons'])})" for r in s["reviews"]) or "no review"
            lines.append(f"{'  ' * s['depth']}{s['report_id'] or s['run_id']} {s['action'] or ''}: {verdicts}")
        return "\n".join(lines)

    cli.emit({"report": report, "steps": steps}, lambda d: human(d["steps"]))


@feedback.command("codes")
@pass_cli
def feedback_codes(cli: CliContext) -> None:
    """The reason codes and scores a review may use."""
    from stockbench.research.review_records import REASONS, SCORES

    data = {
        "reasons": REASONS,
        "scores": {n: {"low": s.low, "high": s.high, "meaning": s.meaning} for n, s in SCORES.items()},
    }
    cli.emit(data, lambda d: "\n".join([*(f"{k}: {v}" for k, v in d["reasons"].items()), "", *(
        f"{n} {s['low']}-{s['high']}: {s['meaning']}" for n, s in d["scores"].items())]))  # fmt: skip


def _record_human(data: dict[str, Any]) -> str:
    counts = data["counts"]
    lines = [
        f"as of {data['as_of']}: {counts['reports']} reports, {counts['matured']} matured, "
        f"{counts['pending']} pending, {counts['unscored']} unscored",
    ]
    lines += [f"benchmark {m}: {b['symbol'] or 'none'} {b['name']} {b['note']}".rstrip() for m, b in
              data["benchmarks"].items()]  # fmt: skip
    rows = [{"action": a, **v} for a, v in data["by_action"].items() if v["calls"]]
    lines += ["", table(rows, ["action", "calls", "judged", "hits", "hit_rate", "mean_return_pct", "mean_excess_pct"])]
    c = data["calibration"]
    lines.append(f"\nBrier {c['brier']} vs base rate {c['base_rate_brier']} (skill {c['skill']}, n={c['n']})")
    lines.append(f"cost per report {data['cost']['per_report']} over {data['cost']['reports']} reports")
    return "\n".join(lines)


@click.command("track-record")
@click.option("--symbol")
@click.option("--model", help="Only reports by this model.")
@click.option("--since", type=DATE, help="Calls made on or after this session.")
@click.option("--until", type=DATE, help="Calls made on or before this session.")
@click.option("--benchmark", metavar="SYMBOL", help="Measure against this index instead of the official one.")
@click.option("--calls/--no-calls", default=True, show_default=True, help="List every call in --json output.")
@click.option("--remember", is_flag=True, help="Keep --benchmark as this workspace's stand-in (runs read it too).")
@pass_cli
def track_record(
    cli: CliContext,
    symbol: str | None,
    model: str | None,
    since: date | None,
    until: date | None,
    benchmark: str | None,
    calls: bool,
    remember: bool,
) -> None:
    """How published calls turned out once their horizon passed: hit rates, calibration, cost per report."""
    records = cli.bench().track_records
    if remember and benchmark:
        records.remember(benchmark)
    found = records.compute(symbol=symbol, model=model, since=since, until=until, benchmark=benchmark)
    cli.emit(found.as_dict(calls=calls), _record_human)


def _progress(done: int, total: int, run: ReplayRun) -> None:
    note = " (reused)" if run.reused else f" {run.seconds:.1f}s"
    message(f"[{done}/{total}] {run.symbol} {run.day} {run.status} {run.action or run.reason}{note}")


@click.command()
@click.option("--symbols", help="Comma-separated symbols.")
@click.option("--universe-file", type=click.Path(dir_okay=False, path_type=Path), help="A file of symbols.")
@click.option("--from", "start", type=DATE, required=True, help="First session to analyse as of.")
@click.option("--to", "end", type=DATE, required=True, help="Last session to analyse as of.")
@click.option("--every", type=int, default=20, show_default=True, help="Sessions between analyses.")
@click.option("--model", default="offline", show_default=True)
@click.option(
    "--workers", type=int, default=1, show_default=True, help="Threads, one symbol each (little gain: the GIL)."
)
@click.option("--fresh", is_flag=True, help="Analyse again even where the batch already published a report.")
@click.option("--benchmark", metavar="SYMBOL", help="Measure against this index instead of the official one.")
@click.option("--remember", is_flag=True, help="Keep --benchmark as this workspace's stand-in (runs read it too).")
@click.option("--calls", is_flag=True, help="List every call in --json output.")
@click.option("--runs", "show_runs", is_flag=True, help="List every analysis in --json output.")
@click.option("--language", type=click.Choice(["zh", "en"]), help="The reports' language (default: report_language).")
@pass_cli
def replay(
    cli: CliContext,
    symbols: str | None,
    universe_file: Path | None,
    start: date,
    end: date,
    every: int,
    model: str,
    workers: int,
    fresh: bool,
    benchmark: str | None,
    remember: bool,
    calls: bool,
    show_runs: bool,
    language: str | None,
) -> None:
    """Analyse symbols as of past sessions (offline model by default) and report the track record they earn."""
    from stockbench.research.replay import read_universe

    chosen = [s for s in (symbols or "").split(",") if s.strip()]
    if universe_file is not None:
        chosen += read_universe(universe_file)
    bench = cli.bench()
    if remember and benchmark:
        bench.track_records.remember(benchmark)
    found = bench.replays.run(
        chosen, start, end, clock=bench.clock, every=every, model=model, workers=workers, fresh=fresh,
        benchmark=benchmark, progress=_progress, language=language,
    )  # fmt: skip
    data = found.as_dict(calls=calls, runs=show_runs)

    def human(d: dict[str, Any]) -> str:
        r = d["replay"]
        head = f"{r['analyses']} analyses in {r['seconds']} s ({r['seconds_per_analysis']} s each): {r['counts']}"
        return head + "\n" + _record_human(d["track_record"])

    cli.emit(data, human)
