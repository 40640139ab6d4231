"""The buy rule's edge on the whole stored universe: 20-session excess over the market, in and out of sample.

`python -m bench.signal_study [--cut 2021-01-01]` (not a timed benchmark; about 30 s): every Shanghai and
Shenzhen stock of the 2017-2022 community parquet, forward-adjusted, scored with the rule tables (states, the
factor score and its fires, as research computes them; the file has no money flow, so the capital state is
unknown and scores 0). For each scored session after the first 250 of its stock: the return from the next
session's open to the close 20 sessions later, less the equal-weighted market index over the same sessions
(the calibration's index). Printed per rule, before the cut (in sample) and from it (out of sample): sessions,
mean and median excess in percent, and the share that beat the market.

The rules: every session (the base rate); the decision baseline's score condition alone (score >=
buy_min_score); the same with the overheating vetoes of decision_baseline (volatility state not in
block_buy_volatility, close at most buy_max_ma250_distance_pct above ma250, turnover at most
buy_max_turnover_pct); the fires with the vetoes; and the grid the two limits were chosen from (ma250 distance
20/30/50% x turnover 3/4/5/8%), chosen by the in-sample mean only. The backtest, valuation and plan checks of
the baseline are per symbol and per plan, and are left out here: this measures the score and the vetoes.
"""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "ashare_daily_2017_2022.parquet"
HORIZON = 20
WARM_UP = 250
GRID_DISTANCE = (20, 30, 50)
GRID_TURNOVER = (3.0, 4.0, 5.0, 8.0)


def scored_sessions(path: Path = DATA):  # type: ignore[no-untyped-def]  # polars is imported late
    """One row per scored session: symbol, day, score, fire, the volatility state, the ma250 distance and turnover
    in percent, and the 20-session excess over the market (a fraction; null past the data's end)."""
    import polars as pl

    from stockbench.analytics.calibration import market_benchmark
    from stockbench.analytics.frames import bars_from_community_parquet
    from stockbench.analytics.indicators import add_indicators
    from stockbench.analytics.rule_tables import load_rule_tables
    from stockbench.analytics.signals import add_fires, add_score
    from stockbench.analytics.states import BENCH_CLOSE, add_states, state_column, with_benchmark

    book = load_rule_tables()
    bars = bars_from_community_parquet(path)
    bars = bars.filter(pl.col("symbol").str.ends_with(".SH") | pl.col("symbol").str.ends_with(".SZ"))
    index = market_benchmark(bars, book.scenarios.integer("benchmark_skip_first"))
    frame = add_fires(add_score(add_states(with_benchmark(add_indicators(bars), index), book), book), book)
    later = pl.col("close").shift(-HORIZON).over("symbol")
    entry = pl.col("open").shift(-1).over("symbol")
    market = pl.col(BENCH_CLOSE).shift(-HORIZON).over("symbol") / pl.col(BENCH_CLOSE) - 1
    return (
        frame.with_columns(
            excess=later / entry - 1 - market,
            distance=(pl.col("close") / pl.col("ma250") - 1) * 100,
            n=pl.int_range(pl.len()).over("symbol"),
        )
        .filter(pl.col("score").is_not_null() & pl.col("excess").is_not_null() & (pl.col("n") >= WARM_UP))
        .select(
            "symbol",
            "day",
            "score",
            "fire",
            pl.col(state_column("volatility")).alias("volatility"),
            "distance",
            "turnover_pct",
            "excess",
        )
    )


def _figures(frame, cut: date) -> dict[str, tuple[int, float, float, float]]:  # type: ignore[no-untyped-def]
    import polars as pl

    found: dict[str, tuple[int, float, float, float]] = {}
    for label, part in (("in", frame.filter(pl.col("day") < cut)), ("out", frame.filter(pl.col("day") >= cut))):
        if part.height:
            e = part["excess"]
            found[label] = (part.height, float(e.mean()) * 100, float(e.median()) * 100, float((e > 0).mean()))
    return found


def study(cut: date, path: Path = DATA) -> list[str]:
    """The printed lines (see the module's docstring)."""
    import polars as pl

    from stockbench.analytics.rule_tables import load_rule_tables

    t = load_rule_tables().decision_baseline
    sessions = scored_sessions(path)
    strong = pl.col("score") >= t.number("buy_min_score")
    calm = ~pl.col("volatility").is_in([str(v) for v in t["block_buy_volatility"]])

    def vetoes(distance: float, turnover: float) -> pl.Expr:
        return calm & (pl.col("distance") <= distance) & (pl.col("turnover_pct") <= turnover)

    chosen = vetoes(t.number("buy_max_ma250_distance_pct"), t.number("buy_max_turnover_pct"))
    rules = {
        "every session (base rate)": pl.lit(True),
        "score >= buy_min_score": strong,
        "score >= buy_min_score, with the vetoes": strong & chosen,
        "fires, with the vetoes": pl.col("fire") & chosen,
    }
    lines = [f"{sessions.height} scored sessions; in sample before {cut}, out of sample from it; "
             "excess = 20-session return from the next open less the equal-weighted market"]  # fmt: skip

    def line(label: str, figures: dict[str, tuple[int, float, float, float]]) -> str:
        parts = [f"{k} n={n} mean {mean:+.2f}% median {median:+.2f}% beat {beat:.3f}"
                 for k, (n, mean, median, beat) in figures.items()]  # fmt: skip
        return f"  {label:48} " + " | ".join(parts)

    for label, rule in rules.items():
        lines.append(line(label, _figures(sessions.filter(rule), cut)))
    lines.append("the grid (score >= buy_min_score, volatility not blocked), chosen by the in-sample mean:")
    grid = {(d, x): _figures(sessions.filter(strong & vetoes(d, x)), cut) for d in GRID_DISTANCE for x in GRID_TURNOVER}
    best = max(grid, key=lambda k: grid[k]["in"][1] if "in" in grid[k] else float("-inf"))
    for (d, x), figures in grid.items():
        mark = " <- best in sample" if (d, x) == best else ""
        lines.append(line(f"ma250 distance <= {d}%, turnover <= {x:g}%{mark}", figures))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.signal_study", description=__doc__.splitlines()[0])
    parser.add_argument("--cut", default="2021-01-01", help="the date that splits in sample from out of sample")
    parser.add_argument("--data", type=Path, default=DATA, help="the community A-share parquet")
    args = parser.parse_args(argv)
    if not args.data.is_file():
        print(f"no data file at {args.data}: the study needs the shared 2017-2022 parquet", file=sys.stderr)
        return 2
    print("\n".join(study(date.fromisoformat(args.cut), args.data)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
