"""`stockbench indicators SYMBOL`: the technical indicators of a symbol's latest session as the clock sees it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import click

from stockbench.cli.context import CliContext, pass_cli

if TYPE_CHECKING:
    import polars as pl

    from stockbench.messages import Language
    from stockbench.workbench import Workbench

DECIMALS = 6


_SESSIONS = re.compile(r"(ma|ema|rsi|atr)(\d+)")
_RS = re.compile(r"rs_(?P<benchmark>[0-9a-z_]+?)(?:_chg(?P<sessions>\d+))?")


def _symbol(cli: CliContext, text: str) -> str:
    found = cli.bench().market.registry.resolve(text)
    cli.identified_note(found)
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


def indicator_name(name: str, language: Language, benchmarks: Mapping[str, str]) -> str:
    """An indicator as people read it: its engine name in English (the JSON's key), its words in Chinese (ma20 ->
    20日均线; rs_000300_sh -> 相对 000300.SH 的强度, `benchmarks` mapping rs_column's part to the symbol)."""
    from stockbench.messages import note, value_word

    if language == "en":
        return name
    if found := _SESSIONS.fullmatch(name):
        return note(f"indicator.{found[1]}_n", sessions=found[2]).text(language)
    if (found := _RS.fullmatch(name)) and found["benchmark"] in benchmarks:
        symbol = benchmarks[found["benchmark"]]
        key = "indicator.rs_change" if found["sessions"] else "indicator.rs"
        return note(key, benchmark=found["benchmark"], benchmark_zh=symbol, sessions=found["sessions"]).text(language)
    return value_word("indicator", name, language)


def _human(cli: CliContext, data: dict[str, Any], benchmarks: Mapping[str, str]) -> str:
    head = cli.say("cli.indicators.head", symbol=data["symbol"], day=data["date"], sessions=data["sessions"])
    skip = {"symbol", "date", "sessions", "adjust"}
    rows = [{"name": indicator_name(k, cli.language, benchmarks), "value": "-" if v is None else v}
            for k, v in data.items() if k not in skip]  # fmt: skip
    columns = ["name", "value"] if cli.language == "en" else ["indicator", "value"]
    return head + "\n" + cli.table([{"indicator": r["name"], **r} for r in rows], columns)


@click.command()
@click.argument("symbol")
@click.option("--benchmark", metavar="SYMBOL", help="Also the relative strength against this index or stock.")
@pass_cli
def indicators(cli: CliContext, symbol: str, benchmark: str | None) -> None:
    """Indicators of SYMBOL on its latest session on or before the clock's date (--as-of D to look back).

    Null values are still warming up (too few sessions) or undefined on that day.
    """
    from stockbench.analytics.indicators import add_indicators, indicator_snapshot, rs_column
    from stockbench.errors import InternalError

    bench = cli.bench()
    found = _symbol(cli, symbol)
    frame = _bars(bench, found)
    benchmarks = {}
    if benchmark:
        other = _symbol(cli, benchmark)
        benchmarks[other] = _bars(bench, other)
    snapshot = indicator_snapshot(add_indicators(frame, benchmarks))
    if snapshot is None:
        raise InternalError(f"bars of {found} were read but no session was found")
    values = {name: _rounded(value) for name, value in snapshot.values.items()}
    head = {"symbol": snapshot.symbol, "date": snapshot.day, "sessions": frame.height, "adjust": "forward"}
    named = {rs_column(other).removeprefix("rs_"): other for other in benchmarks}
    cli.emit({**head, **values}, lambda d: _human(cli, d, named))
