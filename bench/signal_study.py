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

Then a candidate rule that does not read the score, a quiet, healthy uptrend: the close between `lo` and `hi`
percent above its 250-session average, at most `near` percent above its 20-session average (and not below it),
a 20-session return between 0 and `run` percent, and a volatility state low or normal (or only not extreme).
Its grid (lo 0/10 x hi 20/30/50 x near 5/10 x run 10/20 x volatility) is chosen by the in-sample mean only,
among cells with at least GRID_MIN_SESSIONS in-sample sessions; the pick and the grid's spread out of sample
are printed. (The family was found by looking at the excess by distance to the averages and by run-up, per
year, 2018-2021: the out-of-sample year was seen then, so its figures are a check of the pick, not a clean test.)
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
HEALTH_LOW = (0, 10)
HEALTH_HIGH = (20, 30, 50)
HEALTH_NEAR = (5, 10)
HEALTH_RUN = (10, 20)
HEALTH_VOLATILITY = {"low or normal": ("low", "normal"), "not extreme": ("low", "normal", "high")}
GRID_MIN_SESSIONS = 10_000


def scored_sessions(path: Path = DATA):  # type: ignore[no-untyped-def]  # polars is imported late
    """One row per scored session: symbol, day, score, fire, the volatility state, the distances above ma250 and
    ma20, the 20-session return up to the session and the turnover in percent, and the 20-session excess over the
    market after it (a fraction; null past the data's end)."""
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
            near=(pl.col("close") / pl.col("ma20") - 1) * 100,
            run=(pl.col("close") / pl.col("close").shift(HORIZON).over("symbol") - 1) * 100,
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
            "near",
            "run",
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
    lines += _health(sessions, cut, line)
    return lines


def _health(sessions, cut: date, line) -> list[str]:  # type: ignore[no-untyped-def]  # polars is imported late
    """The quiet-uptrend rule's grid, chosen by the in-sample mean (see the module's docstring)."""
    import itertools

    import polars as pl

    def rule(lo: int, hi: int, near: int, run: int, quiet: tuple[str, ...]) -> pl.Expr:
        return (pl.col("distance").is_between(lo, hi) & pl.col("near").is_between(0, near)
                & pl.col("run").is_between(0, run) & pl.col("volatility").is_in(quiet))  # fmt: skip

    cells = itertools.product(HEALTH_LOW, HEALTH_HIGH, HEALTH_NEAR, HEALTH_RUN, HEALTH_VOLATILITY)
    grid = {c: _figures(sessions.filter(rule(*c[:4], HEALTH_VOLATILITY[c[4]])), cut) for c in cells}
    eligible = [c for c in grid if "in" in grid[c] and grid[c]["in"][0] >= GRID_MIN_SESSIONS]
    if not eligible:
        return ["the quiet-uptrend grid: no cell has enough in-sample sessions"]
    best = max(eligible, key=lambda c: grid[c]["in"][1])
    outside = sorted(grid[c]["out"][1] for c in grid if "out" in grid[c])
    lo, hi, near, run, volatility = best
    label = f"{lo}-{hi}% over ma250, 0-{near}% over ma20, run 0-{run}%, volatility {volatility}"
    lines = ["the quiet-uptrend rule (no score), its grid chosen by the in-sample mean:",
             line(label + " <- best in sample", grid[best])]  # fmt: skip
    if outside:
        lines.append(f"  the grid's {len(outside)} cells out of sample: mean excess from {outside[0]:+.2f}% to "
                     f"{outside[-1]:+.2f}% (median cell {outside[len(outside) // 2]:+.2f}%)")  # fmt: skip
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
