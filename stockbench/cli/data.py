"""`stockbench data ...`: import files, read bars and quotes as of the clock, fetch, and the data gates."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.cli.output import message
from stockbench.cli.params import DATE
from stockbench.messages import Language, rejection_words

if TYPE_CHECKING:
    from stockbench.clock import Clock
    from stockbench.data.indices import RebuildReport
    from stockbench.data.records import Adjust, DataKind
    from stockbench.events import Progress
    from stockbench.workbench import Workbench

FORMAT_CHOICES = ("auto", "community", "generic")
ADJUST_CHOICES = ("none", "forward", "backward")
KIND_CHOICES = ("quote", "bars", "money_flow", "valuation", "financials", "announcements")
_CENT = Decimal("0.01")


def price_text(value: Decimal | None) -> str | None:
    """An exact price as text with at least two decimals: 2092.00, 3.456, 0.105 (None stays None)."""
    if value is None:
        return None
    normal = value.normalize()
    exponent = normal.as_tuple().exponent
    if not isinstance(exponent, int) or exponent > -2:
        normal = value.quantize(_CENT)
    return format(normal, "f")


def _symbol(cli: CliContext, text: str) -> str:
    found = cli.bench().market.registry.resolve(text)
    cli.identified_note(found)
    return found.instrument.symbol


def _as_of(bench: Workbench) -> str | None:
    return bench.clock.now().isoformat() if bench.clock.is_replay else None


def _progress(event: Progress) -> None:
    message(f"[{event.done}/{event.total}] {event.title}" if event.total else event.title)


@click.group()
def data() -> None:
    """Market data: import files, read bars and quotes as of the clock, fetch, and the data gates."""


def _import_human(cli: CliContext, d: dict[str, Any], indices: RebuildReport | None) -> str:
    lines = [cli.say("cli.import.counts", read=f"{d['read']:,}", stored=f"{d['stored']:,}",
                     rejected=f"{d['rejected']:,}", seconds=d["seconds"])]  # fmt: skip
    lines.append(cli.say("cli.import.span", symbols=f"{d['symbols']:,}", names=f"{d['names']:,}",
                         first=d["first"] or "-", last=d["last"] or "-"))  # fmt: skip
    lines += [cli.say("cli.import.rejected", count=f"{count:,}", reason=reason,
                      words=rejection_words(reason, cli.language))
              for reason, count in d["rejected_reasons"].items()]  # fmt: skip
    lines += [cli.say("cli.import.sample", file=s["file"], line=s["line"], reason=s["reason"],
                      words=rejection_words(s["reason"], cli.language))
              for s in d["rejected_samples"][:3]]  # fmt: skip
    if indices is not None:
        lines.append(_indices_human(cli, indices.as_dict(), indices))
    return "\n".join(lines)


def _indices_human(cli: CliContext, d: dict[str, Any], report: RebuildReport) -> str:
    lines = [cli.say("cli.indices.built", rows=f"{d['rows']:,}", seconds=d["seconds"])]
    lines += [cli.say("cli.indices.index", symbol=b["symbol"], name=b["name"], sessions=f"{b['sessions']:,}",
                      first=b["first"], last=b["last"], members=f"{b['members_last']:,}")
              for b in d["built"]]  # fmt: skip
    lines += [cli.say("cli.indices.not_built", symbol=symbol, reason=why.text(cli.language))
              for symbol, why in report.skipped]  # fmt: skip
    return "\n".join(lines)


@data.command("import")
@click.argument("path", type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMAT_CHOICES),
    default="auto",
    show_default=True,
    help="The file's format (auto: told from its name and columns).",
)
@pass_cli
def import_command(cli: CliContext, path: Path, fmt: str) -> None:
    """Import daily bars from FILE (community CSV or parquet, or the generic CSV; a folder imports every file)."""
    from stockbench.data.importer import ImportFormat

    chosen: ImportFormat = "community" if fmt == "community" else "generic" if fmt == "generic" else "auto"
    report = cli.bench().data.import_file(path, chosen)
    cli.emit(
        {
            "read": report.read,
            "stored": report.stored,
            "rejected": report.rejected,
            "rejected_reasons": report.rejected_reasons,
            "rejected_samples": report.rejected_samples,
            "files": report.files,
            "format": report.format,
            "source": report.source,
            "symbols": report.symbols,
            "names": report.names,
            "first": report.first,
            "last": report.last,
            "seconds": report.seconds,
            "indices": report.indices.as_dict() if report.indices else None,
        },
        lambda d: _import_human(cli, d, report.indices),
    )


@data.command("indices")
@pass_cli
def indices_command(cli: CliContext) -> None:
    """Rebuild the program's own indices (a benchmark and one per board) from every stored stock."""
    report = cli.bench().data.rebuild_indices()
    cli.emit(report.as_dict(), lambda d: _indices_human(cli, d, report))


def _bar_rows(frame: Any) -> list[dict[str, Any]]:
    return [
        {
            "date": row["day"],
            **{k: price_text(row[k]) for k in ("open", "high", "low", "close", "prev_close")},
            "volume": row["volume"],
            "amount": price_text(row["amount"]),
        }
        for row in frame.iter_rows(named=True)
    ]


@data.command()
@click.argument("symbol")
@click.option("--from", "start", type=DATE, help="First date (default: the first stored).")
@click.option("--to", "end", type=DATE, help="Last date (default: the clock's date).")
@click.option(
    "--adjust",
    type=click.Choice(ADJUST_CHOICES),
    default="none",
    show_default=True,
    help="Price adjustment: none (the prices traded), forward or backward.",
)
@click.option("--source", help="Read this source only (default: the preferred source with data).")
@pass_cli
def bars(cli: CliContext, symbol: str, start: date | None, end: date | None, adjust: str, source: str | None) -> None:
    """Daily bars of SYMBOL as visible at the clock (prices unadjusted unless --adjust)."""
    bench = cli.bench()
    found = _symbol(cli, symbol)
    how: Adjust = "forward" if adjust == "forward" else "backward" if adjust == "backward" else "none"
    frame = bench.data.bars(found, start, end, how, source)
    rows = _bar_rows(frame)
    chosen = str(frame["source"][0]) if frame.height else None
    result = {"symbol": found, "adjust": adjust, "source": chosen, "as_of": _as_of(bench), "count": len(rows)}
    cli.emit({**result, "bars": rows}, lambda d: _bars_human(cli, d))


def _bars_human(cli: CliContext, d: dict[str, Any]) -> str:
    head = cli.say("cli.bars.head", symbol=d["symbol"], count=d["count"], source=d["source"] or "-",
                   adjust=cli.word("adjust", d["adjust"]))  # fmt: skip
    shown = d["bars"][-20:]
    columns = ["date", "open", "high", "low", "close", "prev_close", "volume"]
    return head + ("\n" + cli.table(shown, columns) if shown else "")


def _recorded(folder: Path) -> datetime | None:
    """The instant the recording in `folder` was made (None: it cannot be read or holds no exchange)."""
    from stockbench.data.recording import BadRecording, recorded_at

    try:
        return recorded_at(folder)
    except (BadRecording, OSError):
        return None


def _recorded_clock(folder: Path) -> Clock | None:
    """A live clock at the instant the recording in `folder` was made (None: it cannot be read; the replay then says
    why, as a user error)."""
    from stockbench.clock import RecordedClock

    started = _recorded(folder)
    return RecordedClock(started) if started is not None else None


@data.command()
@click.argument("symbol")
@click.option("--no-fetch", is_flag=True, help="Use only what is stored.")
@pass_cli
def quote(cli: CliContext, symbol: str, no_fetch: bool) -> None:
    """The price of SYMBOL: a live quote inside its trading window, else the last close (labelled)."""
    bench = cli.bench()
    view = bench.data.quote(_symbol(cli, symbol), fetch=not no_fetch)
    result = {
        "symbol": view.symbol,
        "label": view.label,
        "price": price_text(view.price),
        "prev_close": price_text(view.prev_close),
        "at": view.at,
        "date": view.day,
        "source": view.source,
        "phase": view.phase,
        "status": view.status,
        "delay_minutes": view.delay_minutes,
        "note": view.note,
        "corroboration": {c.field: c.as_dict() for c in view.corroboration.checks} if view.corroboration else None,
        "as_of": _as_of(bench),
    }
    cli.emit(result, lambda d: _quote_human(cli, d))


def _quote_human(cli: CliContext, d: dict[str, Any]) -> str:
    status = cli.say("cli.quote.status", status=cli.word("trading_status", d["status"]))
    delay = cli.say("cli.quote.delay", minutes=d["delay_minutes"]) if d["delay_minutes"] else ""
    line = cli.say("cli.quote.line", symbol=d["symbol"], price=d["price"] or "-",
                   label=cli.word("quote_label", d["label"]),
                   status=status if d["status"] not in (None, "trading") else "", delay=delay, date=d["date"],
                   source=d["source"])  # fmt: skip
    tags = d.get("corroboration") or {}
    said = [cli.say("cli.quote.field", field=cli.word("quote_field", field), tag=cli.word("corroboration", t["tag"]),
                    sources=", ".join(f"{s} {v}" for s, v in zip(t["sources"], t["values"], strict=True)))
            for field, t in tags.items()]  # fmt: skip
    return "\n".join([line, *said])


def _kinds(cli: CliContext, text: str) -> list[DataKind]:
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in KIND_CHOICES]
    if unknown or not kinds:
        raise click.BadParameter(cli.say("cli.bad_kinds", kinds=", ".join(KIND_CHOICES)), param_hint="--what")
    return cast("list[DataKind]", kinds)


@data.command()
@click.argument("symbol")
@click.option("--what", default=",".join(KIND_CHOICES), show_default=True, help="Kinds to fetch, comma-separated.")
@click.option("--record", type=click.Path(path_type=Path), help="Write every request and answer into DIR.")
@click.option("--replay", type=click.Path(path_type=Path), help="Answer from the recording in DIR (no network).")
@pass_cli
def fetch(cli: CliContext, symbol: str, what: str, record: Path | None, replay: Path | None) -> None:
    """Fetch SYMBOL's data from the public services (live; progress on stderr). --record DIR keeps every
    exchange for a bug report; --replay DIR answers from such a recording instead of the network, on a clock standing
    at the time it was made (so a quote recorded in a session is asked again), unless --as-of is given (quotes the
    recording holds are answered from it then too)."""
    if record is not None and replay is not None:
        raise click.UsageError(cli.say("cli.record_or_replay"))
    kinds = _kinds(cli, what)
    if replay is not None and cli.as_of is None:
        cli.clock = _recorded_clock(replay)
    bench = cli.bench()
    if record is not None or replay is not None:
        bench.data.use_recording(record=record, replay=replay)
    found = _symbol(cli, symbol)
    outcomes = bench.data.fetch(found, kinds, progress=_progress)
    result: dict[str, Any] = {"symbol": found, "fetches": list(outcomes)}
    if replay is not None:  # what a replay answered is what was recorded then, never a live answer of now
        recorded = _recorded(replay)
        result["as_of"] = bench.clock.now().isoformat()
        result["replay"] = {"folder": str(replay), "recorded_at": recorded.isoformat() if recorded else None,
                            "live": False}  # fmt: skip
    cli.emit(result, lambda d: _fetch_human(cli, d))


def _fetch_human(cli: CliContext, d: dict[str, Any]) -> str:
    table = cli.table(d["fetches"], ["what", "source", "ok", "rows", "reason"], {"what": "data_kind"})
    replay = d.get("replay")
    if not replay:
        return table
    at = replay["recorded_at"]
    said = cli.say("cli.fetch.replayed", at=cli.moment(datetime.fromisoformat(at), symbol=d["symbol"])) if at else ""
    return "\n".join(line for line in (said or cli.say("cli.fetch.replayed_unknown"), table) if line)


@data.command()
@click.argument("symbol")
@click.option("--no-fetch", is_flag=True, help="Evaluate what is stored, without fetching the gaps.")
@pass_cli
def gates(cli: CliContext, symbol: str, no_fetch: bool) -> None:
    """The data gates of SYMBOL: pass or gap, the reason and the evidence (gaps are fetched first)."""
    bench = cli.bench()
    found = _symbol(cli, symbol)
    results = bench.data.gates(found, fetch=not no_fetch, progress=_progress)
    passed = all(r.status == "pass" for r in results)
    data_out = {"symbol": found, "as_of": _as_of(bench), "passed": passed, "gates": list(results)}
    cli.emit(data_out, lambda d: cli.table(_gate_rows(d["gates"], found, cli.language), ["name", "status", "reason"]))


def _gate_rows(gates: list[dict[str, Any]], symbol: str, language: Language) -> list[dict[str, Any]]:
    """The gates as the table shows them: in English their reasons as the model reads them, in Chinese each
    reason worded from its code and figures (the report's words)."""
    if language == "en":
        return gates
    from stockbench.research.blocks import GateFact
    from stockbench.research.wording import say
    from stockbench.research.wording.phrases import gate_name, gate_reason

    rows: list[dict[str, Any]] = []
    for g in gates:
        fact = GateFact(g["name"], g["status"], g["reason"], g["exception_allowed"], g["code"], g["values"])
        rows.append({"name": gate_name(g["name"], language), "status": say(f"report.status.{g['status']}", language),
                     "reason": gate_reason(fact, symbol, language)})  # fmt: skip
    return rows


@data.command()
@click.argument("symbol")
@pass_cli
def crosscheck(cli: CliContext, symbol: str) -> None:
    """Compare SYMBOL's last price and previous close from two services; record disagreements."""
    bench = cli.bench()
    found = bench.data.crosscheck(_symbol(cli, symbol))
    result = {
        "symbol": found.symbol,
        "points": [
            {"source": p.source, "at": p.at, "last": price_text(p.last), "prev_close": price_text(p.prev_close)}
            for p in found.points
        ],
        "disagreements": [d.detail() for d in found.disagreements],
        "fetches": list(found.outcomes),
    }
    cli.emit(
        result, lambda d: cli.say("cli.crosscheck.done", points=len(d["points"]), disagreements=len(d["disagreements"]))
    )


def _source_time(at: Any, markets: list[str]) -> str:
    """An instant of a source in its (first) market's exchange time, the zone named."""
    from datetime import datetime

    from stockbench.clock import MARKET_TZ

    if isinstance(at, str) and at:
        at = datetime.fromisoformat(at)
    if not isinstance(at, datetime):
        return "-"
    zone = next((z for m, z in MARKET_TZ.items() if markets and m == markets[0]), MARKET_TZ["CN"])
    return f"{at.astimezone(zone):%Y-%m-%d %H:%M:%S} {zone.key}"


def _sources_human(cli: CliContext, d: dict[str, Any]) -> str:
    rows = [
        {**s, "last_ok": _source_time(s["last_ok"], d["markets"][s["name"]]), "last_error": s["last_error"] or "-"}
        for s in d["sources"]
    ]
    return cli.table(
        rows, ["name", "state", "failures", "last_ok", "base_url", "last_error"], {"state": "source_state"}
    )


def _emit_sources(cli: CliContext, sources: list[Any]) -> None:
    markets = {s.name: list(s.endpoint.markets) for s in sources}
    out = {"sources": [s.as_dict() for s in sources]}
    cli.emit(out, lambda d: _sources_human(cli, {**d, "markets": markets}))


@data.group(invoke_without_command=True)
@click.pass_context
def sources(ctx: click.Context) -> None:
    """The data sources per service and endpoint: base URL, state (ok, resting, failing, disabled), the last good
    answer, the last error and the failures in a row."""
    if ctx.invoked_subcommand is None:
        cli = ctx.find_object(CliContext)
        assert cli is not None
        _emit_sources(cli, cli.bench().data.sources.sources())


def _flag(cli: CliContext, value: str | None) -> bool | None:
    if value is None:
        return None
    if value.lower() in {"true", "yes", "1"}:
        return True
    if value.lower() in {"false", "no", "0"}:
        return False
    raise click.BadParameter(cli.say("cli.bad_flag"), param_hint="--enabled")


@sources.command("set")
@click.argument("name")
@click.option("--base-url", help="Ask this base URL instead (a mirror or proxy; the paths are kept; '' restores).")
@click.option("--enabled", "enabled_text", metavar="true|false", help="Ask this endpoint or leave it out.")
@click.option("--order", type=int, help="Its place in its service (1 = asked first).")
@pass_cli
def set_source(cli: CliContext, name: str, base_url: str | None, enabled_text: str | None, order: int | None) -> None:
    """Change the data source NAME (see `stockbench data sources`)."""
    changed = cli.bench().data.sources.change(name, base_url=base_url, enabled=_flag(cli, enabled_text), order=order)
    _emit_sources(cli, [changed])
