"""The technical factor score and its buy signal, over history, from the `factor_score` rule table.

The score of session t uses only data up to t's close (states and indicators look backwards only), so replaying
it over history is free of look-ahead; `score_on` quotes one session's score with its parts.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import polars as pl

from stockbench.analytics.rule_tables import RuleBook, load_rule_tables
from stockbench.analytics.states import BENCH_CLOSE, MAIN_NET, add_states, state_column, with_benchmark, with_money_flow
from stockbench.errors import InvalidInput, NotFound
from stockbench.messages import user_error

SCORE = "score"
FIRE = "fire"


def part_column(name: str) -> str:
    return f"score_{name}"


def _state_points(table: str, points: dict[str, float]) -> pl.Expr:
    return pl.col(state_column(table)).replace_strict(points, default=0.0, return_dtype=pl.Float64)


def add_score(frame: pl.DataFrame, book: RuleBook | None = None) -> pl.DataFrame:
    """`frame` (output of states.add_states) with `score` and its parts `score_<table or rule>`.

    The score is null while a state in `requires_known` is unknown (warm-up)."""
    book = book or load_rule_tables()
    table = book.factor_score
    parts = {part_column(k): _state_points(k, dict(v)) for k, v in table.state_points.items()}
    for rule in table.indicator_points:
        parts[part_column(rule.name)] = pl.when(rule.expr()).then(pl.lit(rule.points)).otherwise(0.0)
    known = pl.all_horizontal(*(pl.col(state_column(k)) != "unknown" for k in table.requires_known))
    total = pl.sum_horizontal(*(pl.col(name) for name in parts)).clip(table.lower, table.upper)
    return frame.with_columns(**parts).with_columns(pl.when(known).then(total).alias(SCORE))


def add_fires(frame: pl.DataFrame, book: RuleBook | None = None) -> pl.DataFrame:
    """`frame` with `fire`: the session's score crossed the threshold from below (the previous session's score
    was below it, this one is at or above), and no cross happened in the previous `cooldown` sessions."""
    book = book or load_rule_tables()
    table = book.factor_score
    previous = pl.col(SCORE).shift(1).over("symbol")
    cross = ((pl.col(SCORE) >= table.fire_threshold) & (previous < table.fire_threshold)).fill_null(False)
    out = frame.with_columns(cross.alias("_cross"))
    recent = pl.col("_cross").cast(pl.Int32).shift(1).rolling_sum(table.cooldown, min_samples=1).over("symbol")
    fire = pl.col("_cross") & (recent.fill_null(0) == 0)
    return out.with_columns(fire.alias(FIRE)).drop("_cross")


def score_on(frame: pl.DataFrame, day: date, symbol: str | None = None, book: RuleBook | None = None) -> dict[str, Any]:
    """The score of `symbol` on its last session on or before `day`: value, parts, whether the signal fired,
    and the table it came from."""
    book = book or load_rule_tables()
    if symbol is None:
        if frame["symbol"].n_unique() != 1:
            raise user_error(InvalidInput, "frame_several_symbols")
        symbol = str(frame["symbol"][0])
    rows = frame.filter((pl.col("symbol") == symbol) & (pl.col("day") <= day)).tail(1)
    if rows.is_empty():
        raise user_error(NotFound, "no_session_by", symbol=symbol, day=day)
    row = rows.row(0, named=True)
    names = [*book.factor_score.state_points, *(r.name for r in book.factor_score.indicator_points)]
    return {
        "symbol": symbol,
        "day": row["day"],
        "score": row[SCORE],
        "parts": {name: row[part_column(name)] for name in names},
        "fired": bool(row.get(FIRE)),
        "threshold": book.factor_score.fire_threshold,
        "table": book.factor_score.name,
        "version": book.factor_score.version,
    }


def score_frame(
    frame: pl.DataFrame,
    *,
    benchmark: pl.DataFrame | None = None,
    money_flow: pl.DataFrame | None = None,
    book: RuleBook | None = None,
) -> pl.DataFrame:
    """States, score and fires over `frame` (bars with indicator columns, sorted by symbol and day), with the
    benchmark close (columns day, close) and money flow (columns [symbol,] day, main_net) joined when given."""
    book = book or load_rule_tables()
    if benchmark is not None or BENCH_CLOSE not in frame.columns:
        frame = with_benchmark(frame, benchmark)
    if money_flow is not None or MAIN_NET not in frame.columns:
        frame = with_money_flow(frame, money_flow)
    return add_fires(add_score(add_states(frame, book), book), book)
