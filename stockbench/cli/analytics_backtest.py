"""`stockbench backtest SYMBOL` (the factor-score signal replayed over the stored history) and `stockbench calibrate`
(the calibrated scenario table, from the community A-share file)."""

from __future__ import annotations

import time
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.cli.output import merged, message, table

if TYPE_CHECKING:
    import polars as pl

    from stockbench.workbench import Workbench

DEFAULT_DATA = Path("shared") / "data" / "ashare_daily_2017_2022.parquet"


def _symbol(bench: Workbench, text: str) -> str:
    found = bench.market.registry.resolve(text)
    if found.note:
        message(f"note: {found.note}")
    return found.instrument.symbol


def _series(bench: Workbench, symbol: str) -> pl.DataFrame:
    from stockbench.analytics.frames import bars_from_cache
    from stockbench.errors import DataUnavailable
    from stockbench.messages import user_error

    bars = bars_from_cache(bench.data.cache, [symbol], adjust="forward")
    if bars.is_empty():
        raise user_error(
            DataUnavailable,
            "bars_none_stored",
            symbol=symbol,
            fetch_command=f"stockbench data fetch {symbol} --what bars",
            import_command="stockbench data import",
        )
    return bars


def _flow(bench: Workbench, symbol: str) -> pl.DataFrame | None:
    import polars as pl

    flow = bench.data.cache.money_flow(symbol)
    return flow.select("day", pl.col("main_net").cast(pl.Float64)) if flow.height else None


def _horizon_rows(d: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for key, h in d["horizons"].items():
        ins, outs = h["in_sample"], h["out_of_sample"]
        rows.append(
            {
                "horizon": key,
                "fires": h["fires"],
                "trades": h["trades"],
                "independent": h["independent"],
                "win_rate": h["win_rate"],
                "ev": h["ev"],
                "base": f"{h['base_win_rate']} / {h['base_ev']}",
                "evidence": h["evidence"],
                "in_sample": f"{ins['trades']} / {ins['win_rate']} / {ins['ev']}",
                "out_of_sample": f"{outs['trades']} / {outs['win_rate']} / {outs['ev']}",
            }
        )
    return rows


def _backtest_human(d: dict[str, Any]) -> str:
    head = f"{d['symbol']}: {d['sessions']} scored sessions {d['first_day']}..{d['last_day']}, {d['fires']} signals"
    notes = [f"  {k}: {h['sample_note']}" for k, h in d["horizons"].items()]
    columns = ["horizon", "fires", "trades", "independent", "win_rate", "ev", "base", "evidence", "in_sample",
               "out_of_sample"]  # fmt: skip
    split = f"walk-forward split at {d['split_day']} (in/out of sample: trades / win rate / EV)"
    base = "base: win rate / EV of the same trade from every scored session (any window of the horizon)"
    return "\n".join([head, table(_horizon_rows(d), columns), split, base, *notes, f"costs: {d['costs']}"])


def _benchmark(bench: Workbench, symbol: str, given: str | None) -> tuple[str | None, pl.DataFrame | None]:
    """The index relative strength is measured against and its closes: the one given, else the one a research run on
    `symbol` reads (its scene's default sector index), so the signal's fires and counts are the report's. A default
    index without stored bars measures nothing, as in research."""
    from stockbench.errors import UserError

    if given:
        index = _symbol(bench, given)
        return index, _series(bench, index).select("day", "close")
    default = bench.research.facts.default_sector(symbol)
    try:
        return default, _series(bench, default).select("day", "close") if default else None
    except UserError:
        return None, None


@click.command()
@click.argument("symbol")
@click.option("--benchmark", metavar="SYMBOL", help="Index for relative strength (default: the one research reads).")
@pass_cli
def backtest(cli: CliContext, symbol: str, benchmark: str | None) -> None:
    """Replay the factor-score buy signal over SYMBOL's stored history: per horizon (5, 20, 60 sessions) the
    signals, win rate and expected value after costs beside the base rate (the same trade from every session),
    with the independent trade count, the evidence grade, in- and out-of-sample."""
    from stockbench.analytics.backtest import FeeCosts, run_backtest
    from stockbench.analytics.indicators import add_indicators
    from stockbench.analytics.rule_tables import load_rule_tables
    from stockbench.analytics.signals import score_frame, score_on

    bench = cli.bench()
    book = load_rule_tables()
    found = _symbol(bench, symbol)
    bars = _series(bench, found)
    index, reference = _benchmark(bench, found, benchmark)
    flow = _flow(bench, found)
    frame = score_frame(add_indicators(bars), benchmark=reference, money_flow=flow, book=book)
    costs = FeeCosts(bench.data.instrument(found), book.backtest.decimal("reference_notional"))
    report = run_backtest(frame, costs, book)
    latest = score_on(frame, frame["day"].max(), found, book)  # type: ignore[arg-type]
    as_of = bench.clock.now().isoformat() if bench.clock.is_replay else None
    result = {"symbol": found, "as_of": as_of, "benchmark": index, "money_flow": flow is not None}
    cli.emit(merged(result, report, {"latest_score": latest}), _backtest_human)


def _default_data() -> Path:
    from stockbench.config import app_root

    return app_root().parent / DEFAULT_DATA


def _command(data: Path | None, out: Path | None, until: date | None = None, per_year: bool = False) -> str:
    parts = ["stockbench calibrate"]
    parts += [f"--data {data}"] if data else []
    parts += [f"--out {out}"] if out else []
    parts += [f"--until {until}"] if until else []
    parts += ["--per-year"] if per_year else []
    return " ".join(parts)


def _calibrate_human(d: dict[str, Any]) -> str:
    base = d["base"]
    p = base["p"]
    lines = [
        f"wrote {d['out']} ({d['cells']} cells, {base['n']:,} samples, data {d['data_from']}..{d['data_to']}, "
        f"{d['runtime_seconds']} s)",
        f"base rate: up {p['up']:.1%}, sideways {p['sideways']:.1%}, down {p['down']:.1%}",
    ]
    lines += [f"wrote {t['out']} (data {t['data_from']}..{t['data_to']}, {t['samples']:,} samples)" for t in
              d.get("tables", [])]  # fmt: skip
    lines += [f"skipped the year ending {day}: {why}" for day, why in d.get("skipped", {}).items()]
    return "\n".join(lines)


def _written(table: dict[str, Any], target: Path) -> dict[str, Any]:
    from stockbench.analytics.calibration import write_table

    write_table(table, target)
    samples = table["provenance"]["samples"]
    return {"out": target, "data_from": table["data_from"], "data_to": table["data_to"], "samples": samples}


@click.command()
@click.option("--data", type=click.Path(path_type=Path), help="Community A-share parquet (default: ../shared/data).")
@click.option("--out", type=click.Path(path_type=Path), help="Where to write (default: resources/calibration/).")
@click.option("--until", type=click.DateTime(["%Y-%m-%d"]), help="Build from the data up to this date only.")
@click.option("--per-year", is_flag=True, help="Also one table per year-end, written beside the full one.")
@pass_cli
def calibrate(cli: CliContext, data: Path | None, out: Path | None, until: datetime | None, per_year: bool) -> None:
    """Build the calibrated scenario table (probabilities of up, sideways and down over 20 sessions per state
    combination) from the community A-share parquet, with its provenance and data range. Research as of a date
    uses the newest table whose data ends before it, so build per-year tables for research of the past."""
    from stockbench.analytics.calibration import Source, calibrate_by_year
    from stockbench.analytics.calibration import calibrate as build
    from stockbench.analytics.rule_tables import load_rule_tables
    from stockbench.config import resources_dir
    from stockbench.errors import InvalidInput
    from stockbench.messages import user_error

    book = load_rule_tables()
    path = data or _default_data()
    if not path.is_file():
        raise user_error(InvalidInput, "calibrate_data_missing", path=path, option="--data PATH")
    if until and per_year:
        raise user_error(InvalidInput, "calibrate_until_per_year", until="--until", per_year="--per-year")
    cut = until.date() if until else None
    main = resources_dir() / str(book.scenarios["calibration_file"])
    target = out or (main.with_name(f"{main.stem}_{cut}.json") if cut else main)
    started = time.perf_counter()
    message(f"calibrating from {path} ...")
    source = Source(path, _command(data, out, cut, per_year))
    summary: dict[str, Any] = {}
    if per_year:
        built = calibrate_by_year(source, book)
        full = built.full
        summary["tables"] = [_written(t, target.with_name(f"{target.stem}_{d.year}.json")) for d, t in
                             built.tables.items()]  # fmt: skip
        summary["skipped"] = {str(d): why for d, why in built.skipped.items()}
    else:
        full = build(source, book, until=cut)
    summary = _written(full, target) | {
        "cells": len(full["levels"][0]["cells"]),
        "base": full["base"],
        "provenance": full["provenance"],
        "runtime_seconds": round(time.perf_counter() - started, 1),
    } | summary  # fmt: skip
    cli.emit(summary, _calibrate_human)
