"""The scenario probabilities' skill on the whole stored universe, point in time, year by year.

`python -m bench.scenario_skill` (not a timed benchmark; about a minute): every stock of the 2017-2022 community
parquet, forward-adjusted, with the scenario outcome of each session (up, sideways, down over the scenarios rule
table's horizon, as `stockbench calibrate` defines it) and the states of its cells. For each test year, the cell
probabilities are counted from the sessions before the year (less the horizon's sessions, so every outcome counted
was known by the year's first day), with the rule table's fallback to coarser cells and its minimum count, and the
year's sessions are scored by the multi-class Brier score beside the base rate counted the same way. Skill is
1 - Brier / base-rate Brier (above 0: better than the base rate).

Printed per year: the table's cells as research uses them, and the same cells with one more key each, the
candidate reversal and extension terms (distance above the 250-session average, distance above the 20-session
average, the 20-session run), to show whether such a term would carry skill out of sample.
"""

from __future__ import annotations

import argparse
import sys
from datetime import date, timedelta
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "ashare_daily_2017_2022.parquet"
YEARS = (2019, 2020, 2021)
GAP_DAYS = 36  # calendar days that cover the 20-session horizon before a test year's first day
EXTRA = {
    "ma250 distance": ("distance", (-30.0, -10.0, 10.0, 30.0, 60.0)),
    "ma20 distance": ("near", (-8.0, -3.0, 3.0, 8.0)),
    "20-session run": ("run", (-15.0, -5.0, 5.0, 15.0)),
}


def sessions(path: Path = DATA):  # type: ignore[no-untyped-def]  # polars is imported late
    """One row per session with known cell states and an outcome: day, the cell states, the extra terms' bins."""
    import polars as pl

    from stockbench.analytics.calibration import market_benchmark, outcome_expr
    from stockbench.analytics.frames import bars_from_community_parquet
    from stockbench.analytics.indicators import add_indicators
    from stockbench.analytics.rule_tables import UNKNOWN, load_rule_tables
    from stockbench.analytics.states import add_states, state_column, with_benchmark

    book = load_rule_tables()
    bars = bars_from_community_parquet(path)
    index = market_benchmark(bars, book.scenarios.integer("benchmark_skip_first"))
    frame = add_states(with_benchmark(add_indicators(bars), index), book).with_columns(outcome=outcome_expr(book))
    keys = [state_column(k) for k in book.scenarios["cell_keys"]]
    known = pl.all_horizontal(*(pl.col(k) != UNKNOWN for k in keys)) & pl.col("outcome").is_not_null()
    terms = {
        "distance": (pl.col("close") / pl.col("ma250") - 1) * 100,
        "near": (pl.col("close") / pl.col("ma20") - 1) * 100,
        "run": (pl.col("close") / pl.col("close").shift(book.scenarios.integer("horizon")).over("symbol") - 1) * 100,
    }
    frame = frame.with_columns(**terms).filter(known)
    return frame.select("day", *keys, "outcome", *(_binned(column, edges) for column, edges in EXTRA.values()))


def _binned(column: str, edges: tuple[float, ...]):  # type: ignore[no-untyped-def]
    import polars as pl

    value = pl.col(column)
    expr: Any = pl.when(value.is_null()).then(pl.lit("unknown"))
    for edge in edges:
        expr = expr.when(value < edge).then(pl.lit(f"<{edge:g}"))
    return expr.otherwise(pl.lit(f">={edges[-1]:g}")).alias(f"bin_{column}")


def brier(train, test, levels: list[list[str]], minimum: int) -> float:  # type: ignore[no-untyped-def]
    """The mean Brier score over `test` of probabilities counted in `train`: the first level of `levels` whose
    cell holds at least `minimum` sessions, the last level ([]) being the base rate."""
    import polars as pl

    from stockbench.analytics.calibration import OUTCOMES

    rows = test.with_row_index("i")
    found = None
    for keys in levels:
        share = [(pl.col("outcome") == o).mean().alias(f"p_{o}") for o in OUTCOMES]
        if keys:
            cells = train.group_by(keys).agg(*share, n=pl.len()).filter(pl.col("n") >= minimum).drop("n")
            hit = rows.join(cells, on=keys, how="inner").select("i", *(f"p_{o}" for o in OUTCOMES))
        else:
            hit = rows.select("i").join(train.select(share), how="cross")
        found = hit if found is None else pl.concat([found, hit.join(found.select("i"), on="i", how="anti")])
    assert found is not None
    scored = rows.join(found, on="i")
    score = pl.sum_horizontal(*((pl.col(f"p_{o}") - (pl.col("outcome") == o).cast(pl.Float64)) ** 2 for o in OUTCOMES))
    return float(scored.select(score.mean()).item())


def study(path: Path = DATA, years: tuple[int, ...] = YEARS) -> list[str]:
    """The printed lines (see the module's docstring)."""
    import polars as pl

    from stockbench.analytics.rule_tables import load_rule_tables
    from stockbench.analytics.states import state_column

    table = load_rule_tables().scenarios
    minimum = table.integer("min_cell_count")
    levels = [[state_column(k) for k in level] for level in table["fallback"]]
    frame = sessions(path)
    lines = [f"{frame.height} sessions with known cells; cells counted before each year, scored on the year "
             f"(min_cell_count {minimum}); skill = 1 - Brier / base-rate Brier"]  # fmt: skip
    for year in years:
        first = date(year, 1, 1)
        train = frame.filter(pl.col("day") < first - timedelta(days=GAP_DAYS))
        test = frame.filter(pl.col("day").dt.year() == year)
        if train.is_empty() or test.is_empty():
            continue
        base = brier(train, test, [[]], minimum)
        lines.append(f"{year}: {test.height} sessions, base-rate Brier {base:.4f}")
        candidates = {"the table's cells": levels}
        for label, (column, _) in EXTRA.items():
            finest = [*levels[0], f"bin_{column}"]
            candidates[f"+ {label}"] = [finest, *levels]
        for label, chosen in candidates.items():
            score = brier(train, test, chosen, minimum)
            lines.append(f"  {label:20} Brier {score:.4f} skill {1 - score / base:+.4f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.scenario_skill", description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the community A-share parquet")
    args = parser.parse_args(argv)
    if not args.data.is_file():
        print(f"no data file at {args.data}: the study needs the shared 2017-2022 parquet", file=sys.stderr)
        return 2
    print("\n".join(study(args.data)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
