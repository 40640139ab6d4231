"""`stockbench indicators SYMBOL`: the technical indicators of a symbol's latest session as the clock sees it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.cli.output import message, table

if TYPE_CHECKING:
    import polars as pl

    from stockbench.workbench import Workbench

DECIMALS = 6


def _symbol(bench: Workbench, text: str) -> str:
    found = bench.market.registry.resolve(text)
    if found.note:
        message(f"note: {found.note}")
    return found.instrument.symbol


def _bars(bench: Workbench, symbol: str) -> pl.DataFrame:
    from stockbench.analytics.frames import bars_from_cache
    from stockbench.errors import NotFound
    from stockbench.messages import user_error

    frame = bars_from_cache(bench.data.cache, [symbol])
    if frame.is_empty():
        seen = bench.data.cache.cutoff(symbol).today
        raise user_error(
            NotFound,
            "bars_none_by",
            symbol=symbol,
            day=seen,
            import_command="stockbench data import FILE",
            fetch_command=f"stockbench data fetch {symbol} --what bars",
        )
    return frame


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, DECIMALS)


def _human(data: dict[str, Any]) -> str:
    head = f"{data['symbol']} on {data['date']} ({data['sessions']} sessions, prices forward-adjusted)"
    skip = {"symbol", "date", "sessions", "adjust"}
    rows = [{"name": k, "value": "-" if v is None else v} for k, v in data.items() if k not in skip]
    return head + "\n" + table(rows, ["name", "value"])


@click.command()
@click.argument("symbol")
@click.option("--benchmark", metavar="SYMBOL", help="Also the relative strength against this index or stock.")
@pass_cli
def indicators(cli: CliContext, symbol: str, benchmark: str | None) -> None:
    """Indicators of SYMBOL on its latest session on or before the clock's date (--as-of D to look back).

    Null values are still warming up (too few sessions) or undefined on that day.
    """
    from stockbench.analytics.indicators import add_indicators, indicator_snapshot
    from stockbench.errors import InternalError

    bench = cli.bench()
    found = _symbol(bench, symbol)
    frame = _bars(bench, found)
    benchmarks = {}
    if benchmark:
        other = _symbol(bench, benchmark)
        benchmarks[other] = _bars(bench, other)
    snapshot = indicator_snapshot(add_indicators(frame, benchmarks))
    if snapshot is None:
        raise InternalError(f"bars of {found} were read but no session was found")
    values = {name: _rounded(value) for name, value in snapshot.values.items()}
    head = {"symbol": snapshot.symbol, "date": snapshot.day, "sessions": frame.height, "adjust": "forward"}
    cli.emit({**head, **values}, _human)
