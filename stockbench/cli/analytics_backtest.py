"""`stockbench backtest SYMBOL` (the factor-score signal replayed over the stored history) and `stockbench calibrate`
(the calibrated scenario table, from the community A-share file)."""

from __future__ import annotations

import time
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

    bars = bars_from_cache(bench.data.cache, [symbol], adjust="forward")
    if bars.is_empty():
        raise DataUnavailable(
            f"no daily bars of {symbol} are stored (as of the clock)",
            f"fetch them (stockbench data fetch {symbol} --what bars) or import a file (stockbench data import)",
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
                "win_rate": h["win_rate"],
                "ev": h["ev"],
                "in_sample": f"{ins['trades']} / {ins['win_rate']} / {ins['ev']}",
                "out_of_sample": f"{outs['trades']} / {outs['win_rate']} / {outs['ev']}",
            }
        )
    return rows


def _backtest_human(d: dict[str, Any]) -> str:
    head = f"{d['symbol']}: {d['sessions']} scored sessions {d['first_day']}..{d['last_day']}, {d['fires']} signals"
    notes = [f"  {k}: {h['sample_note']}" for k, h in d["horizons"].items()]
    columns = ["horizon", "fires", "trades", "win_rate", "ev", "in_sample", "out_of_sample"]
    split = f"walk-forward split at {d['split_day']} (in/out of sample: trades / win rate / EV)"
    return "\n".join([head, table(_horizon_rows(d), columns), split, *notes, f"costs: {d['costs']}"])


@click.command()
@click.argument("symbol")
@click.option("--benchmark", metavar="SYMBOL", help="Index for relative strength (e.g. the sector index).")
@pass_cli
def backtest(cli: CliContext, symbol: str, benchmark: str | None) -> None:
    """Replay the factor-score buy signal over SYMBOL's stored history: per horizon (5, 20, 60 sessions) the
    signals, win rate and expected value after costs, with the sample size, in- and out-of-sample."""
    from stockbench.analytics.backtest import FeeCosts, run_backtest
    from stockbench.analytics.indicators import add_indicators
    from stockbench.analytics.rule_tables import load_rule_tables
    from stockbench.analytics.signals import score_frame, score_on

    bench = cli.bench()
    book = load_rule_tables()
    found = _symbol(bench, symbol)
    index = _symbol(bench, benchmark) if benchmark else None
    bars = _series(bench, found)
    reference = _series(bench, index).select("day", "close") if index else None
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


def _command(data: Path | None, out: Path | None) -> str:
    parts = ["stockbench calibrate"]
    parts += [f"--data {data}"] if data else []
    parts += [f"--out {out}"] if out else []
    return " ".join(parts)


def _calibrate_human(d: dict[str, Any]) -> str:
    base = d["base"]
    p = base["p"]
    return (
        f"wrote {d['out']} ({d['cells']} cells, {base['n']:,} samples, {d['runtime_seconds']} s)\n"
        f"base rate: up {p['up']:.1%}, sideways {p['sideways']:.1%}, down {p['down']:.1%}"
    )


@click.command()
@click.option("--data", type=click.Path(path_type=Path), help="Community A-share parquet (default: ../shared/data).")
@click.option("--out", type=click.Path(path_type=Path), help="Where to write (default: resources/calibration/).")
@pass_cli
def calibrate(cli: CliContext, data: Path | None, out: Path | None) -> None:
    """Build the calibrated scenario table (probabilities of up, sideways and down over 20 sessions per state
    combination) from the community A-share parquet, with its provenance."""
    from stockbench.analytics.calibration import Source, write_table
    from stockbench.analytics.calibration import calibrate as build
    from stockbench.analytics.rule_tables import load_rule_tables
    from stockbench.config import resources_dir
    from stockbench.errors import InvalidInput

    book = load_rule_tables()
    path = data or _default_data()
    if not path.is_file():
        raise InvalidInput(f"{path} does not exist", "give the community A-share parquet with --data PATH")
    target = out or resources_dir() / str(book.scenarios["calibration_file"])
    started = time.perf_counter()
    message(f"calibrating from {path} ...")
    built = build(Source(path, _command(data, out)), book)
    write_table(built, target)
    cells = len(built["levels"][0]["cells"])
    summary = {
        "out": target,
        "cells": cells,
        "base": built["base"],
        "provenance": built["provenance"],
        "runtime_seconds": round(time.perf_counter() - started, 1),
    }
    cli.emit(summary, _calibrate_human)
