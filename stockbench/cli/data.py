"""`stockbench data ...`: import files, read bars and quotes as of the clock, fetch, and the data gates."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.cli.output import message, table
from stockbench.cli.params import DATE
from stockbench.messages import Language, language_of_locale, rejection_words

if TYPE_CHECKING:
    from stockbench.clock import Clock
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


def _symbol(bench: Workbench, text: str) -> str:
    found = bench.market.registry.resolve(text)
    if found.note:
        message(f"note: {found.note}")
    return found.instrument.symbol


def _as_of(bench: Workbench) -> str | None:
    return bench.clock.now().isoformat() if bench.clock.is_replay else None


def _progress(event: Progress) -> None:
    message(f"[{event.done}/{event.total}] {event.title}" if event.total else event.title)


@click.group()
def data() -> None:
    """Market data: import files, read bars and quotes as of the clock, fetch, and the data gates."""


def _language() -> Language:
    """The language `--lang` chose for this invocation, else the system locale's."""
    chosen = click.get_current_context().find_root().params.get("language")
    return "zh" if chosen == "zh" else "en" if chosen == "en" else language_of_locale()


def _import_human(d: dict[str, Any]) -> str:
    lines = [f"read {d['read']:,}, stored {d['stored']:,}, rejected {d['rejected']:,} ({d['seconds']} s)"]
    lines.append(f"{d['symbols']:,} instruments, {d['names']:,} name changes, {d['first']}..{d['last']}")
    language = _language()
    lines += [f"  rejected {count:,}: {reason} ({rejection_words(reason, language)})"
              for reason, count in d["rejected_reasons"].items()]  # fmt: skip
    lines += [f"  e.g. {s['file']} line {s['line']}: {s['reason']} ({rejection_words(s['reason'], language)})"
              for s in d["rejected_samples"][:3]]  # fmt: skip
    if d.get("indices"):
        lines.append(_indices_human(d["indices"]))
    return "\n".join(lines)


def _indices_human(d: dict[str, Any]) -> str:
    lines = [f"built indices from {d['rows']:,} stock bars ({d['seconds']} s):"]
    lines += [f"  {b['symbol']} {b['name']}: {b['sessions']:,} sessions {b['first']}..{b['last']}, "
              f"{b['members_last']:,} members on the last" for b in d["built"]]  # fmt: skip
    lines += [f"  not built {s['symbol']}: {s['reason']}" for s in d["skipped"]]
    return "\n".join(lines)


@data.command("import")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(FORMAT_CHOICES), default="auto", show_default=True)
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
        _import_human,
    )


@data.command("indices")
@pass_cli
def indices_command(cli: CliContext) -> None:
    """Rebuild the program's own indices (a benchmark and one per board) from every stored stock."""
    cli.emit(cli.bench().data.rebuild_indices().as_dict(), _indices_human)


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
@click.option("--adjust", type=click.Choice(ADJUST_CHOICES), default="none", show_default=True)
@click.option("--source", help="Read this source only (default: the preferred source with data).")
@pass_cli
def bars(cli: CliContext, symbol: str, start: date | None, end: date | None, adjust: str, source: str | None) -> None:
    """Daily bars of SYMBOL as visible at the clock (prices unadjusted unless --adjust)."""
    bench = cli.bench()
    found = _symbol(bench, symbol)
    how: Adjust = "forward" if adjust == "forward" else "backward" if adjust == "backward" else "none"
    frame = bench.data.bars(found, start, end, how, source)
    rows = _bar_rows(frame)
    chosen = str(frame["source"][0]) if frame.height else None
    result = {"symbol": found, "adjust": adjust, "source": chosen, "as_of": _as_of(bench), "count": len(rows)}
    cli.emit({**result, "bars": rows}, _bars_human)


def _bars_human(d: dict[str, Any]) -> str:
    head = f"{d['symbol']}: {d['count']} bars from {d['source'] or '-'} (adjust {d['adjust']})"
    shown = d["bars"][-20:]
    columns = ["date", "open", "high", "low", "close", "prev_close", "volume"]
    return head + ("\n" + table(shown, columns) if shown else "")


def _recorded_clock(folder: Path) -> Clock | None:
    """A live clock at the instant the recording in `folder` was made (None: it cannot be read; the replay then says
    why, as a user error)."""
    from stockbench.clock import RecordedClock
    from stockbench.data.recording import BadRecording, recorded_at

    try:
        started = recorded_at(folder)
    except (BadRecording, OSError):
        return None
    return RecordedClock(started) if started is not None else None


@data.command()
@click.argument("symbol")
@click.option("--no-fetch", is_flag=True, help="Use only what is stored.")
@pass_cli
def quote(cli: CliContext, symbol: str, no_fetch: bool) -> None:
    """The price of SYMBOL: a live quote inside its trading window, else the last close (labelled)."""
    bench = cli.bench()
    view = bench.data.quote(_symbol(bench, symbol), fetch=not no_fetch)
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
    cli.emit(result, _quote_human)


def _quote_human(d: dict[str, Any]) -> str:
    status = f", {d['status']}" if d["status"] not in (None, "trading") else ""
    delay = f", {d['delay_minutes']} min late" if d["delay_minutes"] else ""
    line = f"{d['symbol']} {d['price'] or '-'} ({d['label']}{status}{delay}, {d['date']}, {d['source']})"
    tags = d.get("corroboration") or {}
    said = [f"{field} {t['tag']} ({', '.join(f'{s} {v}' for s, v in zip(t['sources'], t['values'], strict=True))})"
            for field, t in tags.items()]  # fmt: skip
    return "\n".join([line, *said])


def _kinds(text: str) -> list[DataKind]:
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in KIND_CHOICES]
    if unknown or not kinds:
        raise click.BadParameter(f"use a comma-separated list of {', '.join(KIND_CHOICES)}", param_hint="--what")
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
    at the time it was made (so a quote recorded in a session is asked again), unless --as-of is given."""
    if record is not None and replay is not None:
        raise click.UsageError("use --record or --replay, not both")
    kinds = _kinds(what)
    if replay is not None and cli.as_of is None:
        cli.clock = _recorded_clock(replay)
    bench = cli.bench()
    if record is not None or replay is not None:
        bench.data.use_recording(record=record, replay=replay)
    found = _symbol(bench, symbol)
    outcomes = bench.data.fetch(found, kinds, progress=_progress)
    cli.emit(
        {"symbol": found, "fetches": list(outcomes)},
        lambda d: table(d["fetches"], ["what", "source", "ok", "rows", "reason"]),
    )


@data.command()
@click.argument("symbol")
@click.option("--no-fetch", is_flag=True, help="Evaluate what is stored, without fetching the gaps.")
@pass_cli
def gates(cli: CliContext, symbol: str, no_fetch: bool) -> None:
    """The data gates of SYMBOL: pass or gap, the reason and the evidence (gaps are fetched first)."""
    bench = cli.bench()
    found = _symbol(bench, symbol)
    results = bench.data.gates(found, fetch=not no_fetch, progress=_progress)
    passed = all(r.status == "pass" for r in results)
    data_out = {"symbol": found, "as_of": _as_of(bench), "passed": passed, "gates": list(results)}
    cli.emit(data_out, lambda d: table(_gate_rows(d["gates"], found, _language()), ["name", "status", "reason"]))


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
    found = bench.data.crosscheck(_symbol(bench, symbol))
    result = {
        "symbol": found.symbol,
        "points": [
            {"source": p.source, "at": p.at, "last": price_text(p.last), "prev_close": price_text(p.prev_close)}
            for p in found.points
        ],
        "disagreements": [d.detail() for d in found.disagreements],
        "fetches": list(found.outcomes),
    }
    cli.emit(result, lambda d: f"{len(d['points'])} sources compared, {len(d['disagreements'])} disagreements")


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


def _sources_human(d: dict[str, Any]) -> str:
    rows = [
        {**s, "last_ok": _source_time(s["last_ok"], d["markets"][s["name"]]), "last_error": s["last_error"] or "-"}
        for s in d["sources"]
    ]
    return table(rows, ["name", "state", "failures", "last_ok", "base_url", "last_error"])


def _emit_sources(cli: CliContext, sources: list[Any]) -> None:
    markets = {s.name: list(s.endpoint.markets) for s in sources}
    out = {"sources": [s.as_dict() for s in sources]}
    cli.emit(out, lambda d: _sources_human({**d, "markets": markets}))


@data.group(invoke_without_command=True)
@click.pass_context
def sources(ctx: click.Context) -> None:
    """The data sources per service and endpoint: base URL, state (ok, resting, failing, disabled), the last good
    answer, the last error and the failures in a row."""
    if ctx.invoked_subcommand is None:
        cli = ctx.find_object(CliContext)
        assert cli is not None
        _emit_sources(cli, cli.bench().data.sources.sources())


def _flag(value: str | None) -> bool | None:
    if value is None:
        return None
    if value.lower() in {"true", "yes", "1"}:
        return True
    if value.lower() in {"false", "no", "0"}:
        return False
    raise click.BadParameter("use true or false", param_hint="--enabled")


@sources.command("set")
@click.argument("name")
@click.option("--base-url", help="Ask this base URL instead (a mirror or proxy; the paths are kept; '' restores).")
@click.option("--enabled", "enabled_text", metavar="true|false", help="Ask this endpoint or leave it out.")
@click.option("--order", type=int, help="Its place in its service (1 = asked first).")
@pass_cli
def set_source(cli: CliContext, name: str, base_url: str | None, enabled_text: str | None, order: int | None) -> None:
    """Change the data source NAME (see `stockbench data sources`)."""
    changed = cli.bench().data.sources.change(name, base_url=base_url, enabled=_flag(enabled_text), order=order)
    _emit_sources(cli, [changed])
