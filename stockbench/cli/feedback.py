"""`stockbench feedback`, `stockbench track-record`, `stockbench replay`: reviews of reports, how calls turned out,
and research replayed on history."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.cli.output import message
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
@click.option(
    "--verdict",
    type=click.Choice(["accept", "revise", "reject"]),
    required=True,
    help="Your verdict on the report: accept, revise or reject.",
)
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
    cli.emit(review.as_dict(), lambda d: cli.say("cli.review.added", review_id=d["review_id"], report_id=d["report_id"],
                                                 verdict=cli.word("verdict", d["verdict"])))  # fmt: skip


@feedback.command("list")
@click.option("--symbol", help="Only the feedback on this symbol.")
@click.option("--run", "run_id", help="Reviews of one run.")
@pass_cli
def feedback_list(cli: CliContext, symbol: str | None, run_id: str | None) -> None:
    """Reviews in the order they were recorded."""
    rows = [r.as_dict() for r in cli.bench().reviews.find(symbol=symbol, run_id=run_id)]
    columns = ["review_id", "report_id", "symbol", "verdict", "reasons", "reviewed_at"]
    cli.emit(rows, lambda d: cli.table([_review_row(cli, r) for r in d], columns, {"verdict": "verdict"}))


def _review_row(cli: CliContext, row: dict[str, Any]) -> dict[str, Any]:
    """A review as people read it: its reason codes as typed, its time in the exchange's zone, named."""
    at = row.get("reviewed_at")
    if isinstance(at, str):
        at = datetime.fromisoformat(at)
    shown = cli.moment(at, symbol=row.get("symbol")) if isinstance(at, datetime) else at
    return row | {"reasons": " ".join(row["reasons"]), "reviewed_at": shown}


@feedback.command("lineage")
@click.argument("report")
@pass_cli
def feedback_lineage(cli: CliContext, report: str) -> None:
    """The chain of revisions around REPORT (a report or run id), oldest first, from the stored reviews."""
    steps = [s.as_dict() for s in cli.bench().reviews.lineage(report)]

    def human(rows: list[dict[str, Any]]) -> str:
        lines = []
        for s in rows:
            verdicts = [cli.say("cli.review.verdict", verdict=cli.word("verdict", r["verdict"]),
                                reasons=" ".join(r["reasons"])) for r in s["reviews"]]  # fmt: skip
            said = ("，" if cli.language == "zh" else ", ").join(verdicts) or cli.say("cli.review.none")
            action = cli.word("action", s["action"]) if s["action"] else ""
            step = cli.say("cli.review.step", report=s["report_id"] or s["run_id"], action=action, verdicts=said)
            lines.append("  " * s["depth"] + step)
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

    def meaning(kind: str, code: str, english: str) -> str:  # the record's English; the catalogue's Chinese
        word = cli.word(kind, code)
        return english if word == code else word

    cli.emit(data, lambda d: "\n".join([
        *(cli.say("cli.review.code", code=k, meaning=meaning("review_reason", k, v)) for k, v in d["reasons"].items()),
        "", *(cli.say("cli.review.score", name=n, low=s["low"], high=s["high"],
                      meaning=meaning("review_score", n, s["meaning"])) for n, s in d["scores"].items())]))  # fmt: skip


def _record_human(cli: CliContext, data: dict[str, Any]) -> str:
    counts = data["counts"]
    as_of = data["as_of"]
    lines = [cli.say("cli.track.head", as_of=cli.moment(as_of) if isinstance(as_of, datetime) else as_of,
                     reports=counts["reports"], matured=counts["matured"], pending=counts["pending"],
                     unscored=counts["unscored"])]  # fmt: skip
    lines += [_benchmark_line(cli, market, found) for market, found in data["benchmarks"].items()]
    rows = [{"action": a, **v} for a, v in data["by_action"].items() if v["calls"]]
    columns = ["action", "calls", "judged", "hits", "hit_rate", "mean_return_pct", "mean_excess_pct"]
    lines += ["", cli.table(rows, columns, {"action": "action"})]
    c = data["calibration"]
    brier = cli.say("cli.track.brier", **{k: c[k] for k in ("brier", "base_rate_brier", "skill", "n")})
    lines.append("\n" + (brier if c["n"] else cli.say("cli.track.no_brier")))
    per_report = data["cost"]["per_report"]
    lines.append(cli.say("cli.track.cost", per_report="—" if per_report is None else per_report,
                         reports=data["cost"]["reports"]))  # fmt: skip
    return "\n".join(lines)


def _benchmark_line(cli: CliContext, market: str, found: dict[str, Any]) -> str:
    """What `market`'s calls are measured against, as the desktop's track record says it."""
    from stockbench.research.track_summary import OFFICIAL_BENCHMARKS

    words = {"market": cli.word("market", market), "official": OFFICIAL_BENCHMARKS.get(market, "-")}
    if found["symbol"] is None:
        return cli.say("cli.track.no_benchmark", **words)
    key = "cli.track.benchmark" if found["official"] else "cli.track.stand_in"
    return cli.say(key, symbol=found["symbol"], name=found["name"], **words)


@click.command("track-record")
@click.option("--symbol", help="Only the calls on this symbol.")
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
    cli.emit(found.as_dict(calls=calls), lambda d: _record_human(cli, d))


def _progress(cli: CliContext) -> Callable[[int, int, ReplayRun], None]:
    def show(done: int, total: int, run: ReplayRun) -> None:
        how = (
            cli.say("cli.replay.reused") if run.reused else cli.say("cli.replay.seconds", seconds=f"{run.seconds:.1f}")
        )
        outcome = cli.word("action", run.action) if run.action else run.reason_in(cli.language)
        message(cli.say("cli.replay.progress", done=done, total=total, symbol=run.symbol, day=run.day,
                        status=cli.word("run_status", run.status), outcome=outcome, how=how))  # fmt: skip

    return show


@click.command()
@click.option("--symbols", help="Comma-separated symbols.")
@click.option("--universe-file", type=click.Path(dir_okay=False, path_type=Path), help="A file of symbols.")
@click.option("--from", "start", type=DATE, required=True, help="First session to analyse as of.")
@click.option("--to", "end", type=DATE, required=True, help="Last session to analyse as of.")
@click.option("--every", type=int, default=20, show_default=True, help="Sessions between analyses.")
@click.option(
    "--model",
    default="offline",
    show_default=True,
    help="The model that analyses each session (a configured name, or offline).",
)
@click.option(
    "--workers", type=int, default=1, show_default=True, help="Threads, one symbol each (little gain: the GIL)."
)
@click.option("--fresh", is_flag=True, help="Analyse again even where the batch already published a report.")
@click.option("--benchmark", metavar="SYMBOL", help="Measure against this index instead of the official one.")
@click.option("--remember", is_flag=True, help="Keep --benchmark as this workspace's stand-in (runs read it too).")
@click.option("--calls", is_flag=True, help="List every call in --json output.")
@click.option("--runs", "show_runs", is_flag=True, help="List every analysis in --json output.")
@click.option(
    "--language",
    type=click.Choice(["zh", "en"]),
    help="The reports' language (default: --lang when given, else the workspace's report_language setting, else the "
    "system locale's).",
)
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
        benchmark=benchmark, progress=_progress(cli), language=cli.report_language(language),
    )  # fmt: skip
    data = found.as_dict(calls=calls, runs=show_runs)

    def human(d: dict[str, Any]) -> str:
        r = d["replay"]
        counts = ("，" if cli.language == "zh" else ", ").join(
            f"{cli.word('run_status', k)} {v}" for k, v in r["counts"].items()
        )
        head = cli.say("cli.replay.head", analyses=r["analyses"], seconds=r["seconds"],
                       each="—" if r["seconds_per_analysis"] is None else r["seconds_per_analysis"],
                       counts=counts)  # fmt: skip
        return head + "\n" + _record_human(cli, d["track_record"])

    cli.emit(data, human)
