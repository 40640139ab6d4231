"""States per symbol and session from the rule tables: trend, capital (money flow), relative strength, volatility.

Vectorised over many symbols (every window is computed `over("symbol")` on rows sorted by symbol and day, and
looks only backwards). Each state comes with the rule that decided it and its inputs, so it can be quoted.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

import polars as pl

from stockbench.analytics.rule_tables import UNKNOWN, RuleBook, StateTable, load_rule_tables
from stockbench.errors import InvalidInput, NotFound
from stockbench.messages import user_error

BENCH_CLOSE = "bench_close"
MAIN_NET = "main_net"
LONG_MAS = ("ma250", "ma120")  # the long average of the trend's long check: ma250, ma120 while ma250 warms up


def state_column(table: str) -> str:
    return f"{table}_state"


def rule_column(table: str) -> str:
    """The index of the rule that decided the state: -1 unknown, 0.. a rule, len(rules) the default."""
    return f"{table}_rule"


def with_benchmark(frame: pl.DataFrame, benchmark: pl.DataFrame | None) -> pl.DataFrame:
    """`frame` with `bench_close` joined by day from `benchmark` (columns day, close); null where missing."""
    frame = frame.drop(BENCH_CLOSE, strict=False)
    if benchmark is None or benchmark.is_empty():
        return frame.with_columns(pl.lit(None, pl.Float64).alias(BENCH_CLOSE))
    bench = benchmark.select("day", pl.col("close").cast(pl.Float64).alias(BENCH_CLOSE)).unique("day", keep="last")
    return frame.join(bench, on="day", how="left", maintain_order="left")


def with_money_flow(frame: pl.DataFrame, flow: pl.DataFrame | None) -> pl.DataFrame:
    """`frame` with `main_net` joined by (symbol, day) from `flow` (columns symbol, day, main_net); null where
    missing. A flow frame without `symbol` applies to every symbol of `frame`."""
    frame = frame.drop(MAIN_NET, strict=False)
    if flow is None or flow.is_empty():
        return frame.with_columns(pl.lit(None, pl.Float64).alias(MAIN_NET))
    keys = ["symbol", "day"] if "symbol" in flow.columns else ["day"]
    rows = flow.select(*keys, pl.col(MAIN_NET).cast(pl.Float64)).unique(keys, keep="last")
    return frame.join(rows, on=keys, how="left", maintain_order="left")


def _lag(name: str, sessions: int) -> pl.Expr:
    return pl.col(name).shift(sessions).over("symbol")


def _window_sum(name: str, sessions: int) -> pl.Expr:
    return pl.col(name).rolling_sum(sessions).over("symbol")


def _own_percentile(name: str, window: int, minimum: int) -> pl.Expr:
    """Percentile (0..1) of today's value among the symbol's last `window` non-null values (ties: average)."""
    rank = pl.col(name).rolling_rank(window, method="average", min_samples=minimum).over("symbol")
    count = pl.col(name).is_not_null().cast(pl.Int32).rolling_sum(window, min_samples=1).over("symbol")
    return pl.when(pl.col(name).is_not_null() & (count > 1)).then((rank - 1) / (count - 1))


def input_exprs(book: RuleBook) -> dict[str, pl.Expr]:
    """The derived inputs of the state tables, by name, with their windows from the tables."""
    trend, capital = book.trend, book.capital
    rs = book.relative_strength
    short, long = capital.param("short"), capital.param("long")
    rs_short, rs_long = rs.param("short"), rs.param("long")

    def flow(n: int) -> pl.Expr:
        return _window_sum(MAIN_NET, n) / _window_sum("amount", n)

    def rel(n: int) -> pl.Expr:
        return (pl.col("close") / _lag("close", n)) / (pl.col(BENCH_CLOSE) / _lag(BENCH_CLOSE, n)) - 1

    return {
        "ma20_slope": pl.col("ma20") / _lag("ma20", trend.param("slope_sessions")) - 1,
        "ma60_gap_atr": (pl.col("close") - pl.col("ma60")) / pl.col("atr14"),
        "long_ma_gap": pl.col("close") / pl.coalesce(LONG_MAS) - 1,
        "flow_short": flow(short),
        "flow_long": flow(long),
        "rs_short": rel(rs_short),
        "rs_long": rel(rs_long),
        "atr_pct": pl.col("atr14") / pl.col("close"),
    }


def _classify(table: StateTable) -> tuple[pl.Expr, pl.Expr]:
    missing = pl.any_horizontal(*(pl.col(c).fill_nan(None).is_null() for c in table.requires))
    chosen: pl.Expr = pl.lit(len(table.rules))
    for i, rule in reversed(list(enumerate(table.rules))):
        chosen = pl.when(rule.expr()).then(pl.lit(i)).otherwise(chosen)
    chosen = pl.when(missing).then(pl.lit(-1)).otherwise(chosen).cast(pl.Int16)
    names = [UNKNOWN, *(r.state for r in table.rules), table.default]
    state = chosen.replace_strict(list(range(-1, len(table.rules) + 1)), names, return_dtype=pl.String)
    return chosen.alias(rule_column(table.name)), state.alias(state_column(table.name))


def add_states(frame: pl.DataFrame, book: RuleBook | None = None) -> pl.DataFrame:
    """`frame` (indicator columns, sorted by symbol and day) with the derived inputs and, per state table,
    `<table>_state` and `<table>_rule`. Missing `bench_close` or `main_net` columns mean unknown states."""
    book = book or load_rule_tables()
    if "symbol" not in frame.columns:
        raise user_error(InvalidInput, "frame_no_symbol", module="stockbench.analytics.frames")
    for name in (BENCH_CLOSE, MAIN_NET, *LONG_MAS):
        if name not in frame.columns:
            frame = frame.with_columns(pl.lit(None, pl.Float64).alias(name))
    vol = book.volatility
    out = frame.with_columns(**input_exprs(book))
    rank = _own_percentile("atr_pct", vol.param("rank_window"), vol.param("rank_min"))
    return classify(out.with_columns(rank.alias("atr_pct_rank")), book)


def classify(frame: pl.DataFrame, book: RuleBook | None = None) -> pl.DataFrame:
    """`frame` with `<table>_state` and `<table>_rule` for every state table, its inputs already present (a
    null or NaN input makes the state unknown). `add_states` derives the inputs first."""
    book = book or load_rule_tables()
    return frame.with_columns(*(e for table in book.state_tables() for e in _classify(table)))


def _row(frame: pl.DataFrame, day: date, symbol: str | None) -> dict[str, Any]:
    if symbol is None:
        symbols = frame["symbol"].unique()
        if len(symbols) != 1:
            raise user_error(InvalidInput, "frame_several_symbols")
        symbol = str(symbols[0])
    rows = frame.filter((pl.col("symbol") == symbol) & (pl.col("day") <= day)).tail(1)
    if rows.is_empty():
        raise user_error(NotFound, "no_session_by", symbol=symbol, day=day)
    return rows.row(0, named=True)


def _evidence(table: StateTable, row: Mapping[str, Any]) -> dict[str, Any]:
    index = int(row[rule_column(table.name)])
    inputs = {name: row.get(name) for name in table.inputs}
    if index < 0:
        missing = [n for n in table.requires if row.get(n) is None]
        rule = f"{UNKNOWN}: missing {', '.join(missing)}"
    elif index < len(table.rules):
        rule = table.rules[index].text()
    else:
        rule = f"{table.default}: no rule matched"
    return {
        "state": row[state_column(table.name)],
        "table": table.name,
        "version": table.version,
        "rule": rule,
        "inputs": inputs,
    }


def states_on(
    frame: pl.DataFrame, day: date, symbol: str | None = None, book: RuleBook | None = None
) -> dict[str, Any]:
    """The states of `symbol` on its last session on or before `day`, each with the table (name, version), the
    rule that decided it and the inputs it used (quotable evidence). `frame` is the output of `add_states`."""
    book = book or load_rule_tables()
    row = _row(frame, day, symbol)
    found: dict[str, Any] = {"symbol": row["symbol"], "day": row["day"]}
    for table in book.state_tables():
        found[table.name] = _evidence(table, row)
    return found


def relative_returns(
    frame: pl.DataFrame, day: date, symbol: str | None = None, book: RuleBook | None = None
) -> dict[str, tuple[int, float | None, float | None]]:
    """The returns relative strength compares, on `symbol`'s last session on or before `day`: per window of the
    relative_strength table (short, long), (sessions, the stock's return, the benchmark's return) as fractions, a
    return None when the window reaches before the data or the benchmark has no close. `frame` is the output of
    `add_states` (or any frame with close and bench_close)."""
    table = (book or load_rule_tables()).relative_strength
    row = _row(frame, day, symbol)
    rows = frame.filter((pl.col("symbol") == row["symbol"]) & (pl.col("day") <= row["day"])).sort("day")

    def change(name: str, sessions: int) -> float | None:
        if name not in rows.columns or rows.height <= sessions:
            return None
        now, then = rows[name][-1], rows[name][-1 - sessions]
        return None if now is None or not then else float(now) / float(then) - 1

    sessions = {window: table.param(window) for window in ("short", "long")}
    return {window: (n, change("close", n), change(BENCH_CLOSE, n)) for window, n in sessions.items()}
