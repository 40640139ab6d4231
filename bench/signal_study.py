"""The buy rule's edge on the whole stored universe: 20-session excess over the market, in and out of sample.

`python -m bench.signal_study [--cut 2021-01-01]` (not a timed benchmark; about 30 s): every Shanghai and
Shenzhen stock of the 2017-2022 community parquet, forward-adjusted, scored with the rule tables (states, the
factor score and its fires, as research computes them; the file has no money flow, so the capital state is
unknown and scores 0). For each scored session after the first 250 of its stock: the return from the next
session's open to the close 20 sessions later, less the equal-weighted market index over the same sessions
(the calibration's index). Printed per rule, before the cut (in sample) and from it (out of sample): sessions,
mean and median excess in percent, and the share that beat the market.

The rules: every session (the base rate); the v1.2 baseline's score condition alone (score >= the factor score's
fire threshold, 50); the same with v1.2's overheating vetoes (volatility not extreme, close at most 50% above ma250,
turnover at most 3%); the fires with the vetoes; and the grid the v1.2 limits were chosen from (ma250 distance
20/30/50% x turnover 3/4/5/8%), chosen by the in-sample mean only. Then the v1.3 baseline's setup, read from the
decision_baseline table (a quiet uptrend with the turnover limit), alone, with v1.2's backtest conditions (win rate
>= 0.55, EV > 0.005, 10 trades), with v1.3's backtest veto (10 trades or more and EV <= 0) and with v1.5's (the
same, only on a session whose signal fires), with the sessions the two vetoes differ on, and each per year
beside the base rate. The backtest here is point in time: the score's fires of the same stock whose 20-session trade
had ended before the session, net of a flat round-trip cost of BACKTEST_COST (the research backtest prices the
dated fee rows). The valuation and money-flow checks are left out (the file has none of them).

Last, the baseline's buy candidates as far as the file can have them: the setup with the (v1.5) backtest veto and a
tradeable plan, the zones computed on each session's own window by the one zone algorithm (`plans`; unrounded, no
valuation band): the population the replay batch (bench/replay_track.py) samples its buy candidates from, so its
out-of-sample mean is the replay's target measured on every stock instead of 50. And how far 50 stocks can judge it:
the candidates' out-of-sample mean on the replay batch's own 50 symbols, beside its spread over 200 other samples of
50 from the same population.

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
SCORE_THRESHOLD = 50  # v1.2's buy_min_score, the factor score's fire threshold
BACKTEST_COST = 0.0016  # a round trip of a reference order: commission both ways and stamp duty (approximate)
V12_BACKTEST = (0.55, 0.005, 10)  # v1.2's buy_min_win_rate, buy_min_ev, buy_min_trades
REPLAY_SYMBOLS = 50  # the replay batch's sample (bench/replay_track.py)
SAMPLE_DRAWS = 200  # other samples of REPLAY_SYMBOLS drawn from the replay's population
SAMPLE_SEED = 1


def scored_sessions(path: Path = DATA):  # type: ignore[no-untyped-def]  # polars is imported late
    """One row per scored session: symbol, day, score, fire, the volatility state, the distances above ma250 and
    ma20, the 20-session return up to the session and the turnover in percent, and the 20-session excess over the
    market after it (a fraction; null past the data's end)."""
    return sessions_of(session_frame(path))


def session_frame(path: Path = DATA):  # type: ignore[no-untyped-def]  # polars is imported late
    """Every bar of the file's Shanghai and Shenzhen stocks with the indicators, states, score, fires, the session
    facts the setup reads, the excess after it and `n`, the session's index within its stock."""
    import polars as pl

    from stockbench.analytics.calibration import market_benchmark
    from stockbench.analytics.frames import bars_from_community_parquet
    from stockbench.analytics.indicators import add_indicators
    from stockbench.analytics.rule_tables import load_rule_tables
    from stockbench.analytics.signals import add_fires, add_score
    from stockbench.analytics.states import BENCH_CLOSE, add_states, with_benchmark

    book = load_rule_tables()
    bars = bars_from_community_parquet(path)
    bars = bars.filter(pl.col("symbol").str.ends_with(".SH") | pl.col("symbol").str.ends_with(".SZ"))
    index = market_benchmark(bars, book.scenarios.integer("benchmark_skip_first"))
    frame = add_fires(add_score(add_states(with_benchmark(add_indicators(bars), index), book), book), book)
    later = pl.col("close").shift(-HORIZON).over("symbol")
    entry = pl.col("open").shift(-1).over("symbol")
    market = pl.col(BENCH_CLOSE).shift(-HORIZON).over("symbol") / pl.col(BENCH_CLOSE) - 1
    frame = frame.with_columns(
        excess=later / entry - 1 - market,
        net=later / entry - 1 - BACKTEST_COST,
        distance=(pl.col("close") / pl.col("ma250") - 1) * 100,
        near=(pl.col("close") / pl.col("ma20") - 1) * 100,
        run=(pl.col("close") / pl.col("close").shift(HORIZON).over("symbol") - 1) * 100,
        n=pl.int_range(pl.len()).over("symbol"),
    )
    return _point_in_time_backtest(frame)


def sessions_of(frame):  # type: ignore[no-untyped-def]  # polars is imported late
    """The scored sessions of `session_frame`'s `frame` (see `scored_sessions`), with `n`."""
    import polars as pl

    from stockbench.analytics.states import state_column

    return frame.filter(
        pl.col("score").is_not_null() & pl.col("excess").is_not_null() & (pl.col("n") >= WARM_UP)
    ).select(
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
        "bt_trades",
        "bt_win_rate",
        "bt_ev",
        "n",
    )


def _point_in_time_backtest(frame):  # type: ignore[no-untyped-def]  # polars is imported late
    """`frame` with the stock's backtest as it stood on each session: the trades of its score fires (entry at the
    next open, exit at the close HORIZON sessions later) that had ended before the session: count, win rate, EV."""
    import polars as pl

    done = (
        frame.filter(pl.col("fire") & pl.col("net").is_not_null())
        .select("symbol", (pl.col("n") + HORIZON + 1).alias("n"), "net")
        .group_by("symbol", "n")
        .agg(k=pl.len(), w=(pl.col("net") > 0).sum(), s=pl.col("net").sum())
    )
    running = {c: pl.col(c).fill_null(0).cum_sum().over("symbol") for c in ("k", "w", "s")}
    return (
        frame.join(done, on=["symbol", "n"], how="left")
        .sort("symbol", "n")
        .with_columns(**running)
        .with_columns(bt_trades=pl.col("k"), bt_win_rate=pl.col("w") / pl.col("k"), bt_ev=pl.col("s") / pl.col("k"))
        .drop("k", "w", "s")
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

    book = load_rule_tables()
    t = book.decision_baseline
    frame = session_frame(path)
    sessions = sessions_of(frame)
    strong = pl.col("score") >= SCORE_THRESHOLD
    calm = pl.col("volatility") != "extreme"

    def vetoes(distance: float, turnover: float) -> pl.Expr:
        return calm & (pl.col("distance") <= distance) & (pl.col("turnover_pct") <= turnover)

    chosen = vetoes(50, 3.0)
    rules = {
        "every session (base rate)": pl.lit(True),
        "score >= 50 (v1.2's buy_min_score)": strong,
        "score >= 50, with v1.2's vetoes": strong & chosen,
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
    lines.append("the grid (score >= 50, volatility not extreme), chosen by the in-sample mean:")
    grid = {(d, x): _figures(sessions.filter(strong & vetoes(d, x)), cut) for d in GRID_DISTANCE for x in GRID_TURNOVER}
    best = max(grid, key=lambda k: grid[k]["in"][1] if "in" in grid[k] else float("-inf"))
    for (d, x), figures in grid.items():
        mark = " <- best in sample" if (d, x) == best else ""
        lines.append(line(f"ma250 distance <= {d}%, turnover <= {x:g}%{mark}", figures))
    lines += _health(sessions, cut, line)
    lines += _setup(sessions, cut, line, t)
    lines += _candidates(frame, sessions, cut, line, book)
    lines += _replay_samples(frame, sessions, cut, book)
    return lines


def plans(frame, chosen, book):  # type: ignore[no-untyped-def]  # polars is imported late
    """`chosen` (sessions with symbol, day and n) with the plan the zones make on each: `reward_risk` and
    `tradeable` (the zones table's min_reward_risk, the buy zone within max_buy_distance_atr ATR under the close,
    the close above the stop). The zones come from the one zone algorithm (candidate_levels, zone_levels) on the
    stock's last ZoneParams.window sessions up to the session, each session its own window; they are not rounded
    to the tick nor moved apart after rounding as research's are (a tick's difference), and the file has no
    valuation, so no valuation band is a level (as in the replay)."""
    import polars as pl

    from stockbench.analytics.zones import PlanRules, ZoneParams, candidate_levels, zone_levels

    params, rules = ZoneParams.from_table(book.zones), PlanRules.from_table(book.zones)
    keys = chosen.select("symbol", "day", "n").with_columns(key=pl.col("symbol") + "@" + pl.col("day").cast(pl.String))
    back = pl.DataFrame({"_k": list(range(params.window))}, schema={"_k": pl.Int64})
    rows = keys.select("key", "symbol", "n").join(back, how="cross").with_columns(n=pl.col("n") - pl.col("_k"))
    bars = frame.select("symbol", "n", "day", "high", "low", "close", "volume")
    window = (rows.join(bars, on=["symbol", "n"]).drop("symbol", "n").rename({"key": "symbol"})
              .sort("symbol", "day"))  # fmt: skip
    wanted = ["close", "atr14", "high_52w", *(m for m in params.mas if m in frame.columns)]
    last = (keys.join(frame.select("symbol", "n", *wanted), on=["symbol", "n"])
            .drop("symbol", "n").rename({"key": "symbol"}).sort("symbol"))  # fmt: skip
    zones = zone_levels(last, candidate_levels(window, last, params), params)
    middle_buy = (pl.col("buy_low") + pl.col("buy_high")) / 2
    ratio = (((pl.col("sell_low") + pl.col("sell_high")) / 2 - middle_buy) / (middle_buy - pl.col("stop"))).round(2)
    reach = pl.col("close") - pl.col("buy_high") <= float(rules.max_buy_distance_atr) * pl.col("atr")
    judged = zones.select("symbol", reward_risk=ratio).with_columns(
        tradeable=(pl.col("reward_risk") >= float(rules.min_reward_risk))
    )
    judged = judged.join(zones.select("symbol", reach=reach & (pl.col("close") > pl.col("stop"))), on="symbol")
    judged = judged.select("symbol", "reward_risk", tradeable=pl.col("tradeable") & pl.col("reach"))
    out = keys.join(judged.rename({"symbol": "key"}), on="key", how="left").drop("key", "n")
    return chosen.join(out, on=["symbol", "day"], how="left").with_columns(pl.col("tradeable").fill_null(False))


def _candidates(frame, sessions, cut: date, line, book) -> list[str]:  # type: ignore[no-untyped-def]
    """The baseline's buy candidates as the file can have them: the setup, the backtest veto and a tradeable plan
    (capital and valuation are unknown in the file, so the replay's calls are these capped at wait). In and out of
    sample and per year beside the base rate."""
    import polars as pl

    t = book.decision_baseline
    chosen = plans(frame, sessions.filter(setup_rule(t) & ~veto_rule(t)), book)
    rules = {
        "setup + veto, tradeable plan (the candidates)": pl.col("tradeable"),
        "setup + veto, plan not tradeable": ~pl.col("tradeable"),
    }
    lines = ["the buy candidates: the setup, the backtest veto and the zones' plan (min reward-to-risk, reach, stop):"]
    lines += [line(label, _figures(chosen.filter(rule), cut)) for label, rule in rules.items()]
    found = chosen.group_by(pl.col("day").dt.year().alias("y")).agg(
        n=pl.len(), m=pl.col("excess").filter(pl.col("tradeable")).mean() * 100, k=pl.col("tradeable").sum()
    )
    per_year = "  ".join(f"{y}: {m:+.2f}% (n={k} of {n})" for y, n, m, k in found.sort("y").iter_rows())
    lines.append(f"  {'candidates per year (of the setup + veto)':48} {per_year}")
    return lines


def veto_rule(t):  # type: ignore[no-untyped-def]  # polars is imported late
    """The v1.5 baseline's backtest veto from the decision_baseline table `t`: the score's signal fires on the session
    and its point-in-time backtest has at least buy_min_trades trades with an EV after costs that is not positive."""
    import polars as pl

    vetoes = (pl.col("bt_trades") >= t.integer("buy_min_trades")) & (pl.col("bt_ev") <= 0)
    return (pl.col("fire") & vetoes).fill_null(False)


def _replay_samples(frame, sessions, cut: date, book) -> list[str]:  # type: ignore[no-untyped-def]
    """How far a 50-symbol replay can judge the candidates: their mean out-of-sample excess (every session from
    `cut`) on the replay batch's own 50 symbols, beside its spread over SAMPLE_DRAWS other samples of 50 from the
    same population (bench/replay_track.population: the stocks trading through the whole file)."""
    import random

    import polars as pl

    from bench.replay_track import population, sample_symbols

    everyone, t = population(), book.decision_baseline
    chosen = plans(frame, sessions.filter(setup_rule(t) & ~veto_rule(t) & pl.col("symbol").is_in(everyone)), book)
    late = chosen.filter(pl.col("tradeable") & (pl.col("day") >= cut)).select("symbol", "excess")

    def mean(symbols: list[str]) -> tuple[float | None, int]:
        found = late.filter(pl.col("symbol").is_in(symbols))["excess"]
        return (float(found.mean()) * 100 if found.len() else None), found.len()  # type: ignore[arg-type]

    (own, n_own), rng = mean(sample_symbols(REPLAY_SYMBOLS)), random.Random(SAMPLE_SEED)
    drawn = (mean(rng.sample(everyone, REPLAY_SYMBOLS))[0] for _ in range(SAMPLE_DRAWS))
    means = sorted(m for m in drawn if m is not None)
    at = "  ".join(
        f"p{round(p * 100):02d} {means[int(p * (len(means) - 1))]:+.2f}%" for p in (0.05, 0.25, 0.5, 0.75, 0.95)
    )
    below = sum(1 for m in means if own is not None and m < own) / len(means)
    positive = sum(1 for m in means if m > 0) / len(means)
    return [f"the candidates from {cut} (every session) on samples of {REPLAY_SYMBOLS} of the replay's population "
            f"({len(everyone)} stocks; all of them {float(late['excess'].mean()) * 100:+.2f}%, n={late.height}):",
            f"  the replay batch's own {REPLAY_SYMBOLS}: {own if own is None else f'{own:+.2f}%'} (n={n_own}), above "
            f"{below:.0%} of {len(means)} other samples",
            f"  {len(means)} samples of {REPLAY_SYMBOLS}: {at}; positive in {positive:.0%}"]  # fmt: skip


def setup_rule(t):  # type: ignore[no-untyped-def]  # polars is imported late
    """The v1.3 baseline's setup from the decision_baseline table `t`, as a polars expression on the sessions."""
    import polars as pl

    def between(column: str, low: str, high: str) -> pl.Expr:
        return pl.col(column).is_between(t.number(low), t.number(high))

    return (between("distance", "buy_min_ma250_distance_pct", "buy_max_ma250_distance_pct")
            & between("near", "buy_min_ma20_distance_pct", "buy_max_ma20_distance_pct")
            & between("run", "buy_min_run_pct", "buy_max_run_pct")
            & ~pl.col("volatility").is_in([str(v) for v in t["block_buy_volatility"]])
            & (pl.col("turnover_pct") <= t.number("buy_max_turnover_pct")))  # fmt: skip


def _setup(sessions, cut: date, line, t) -> list[str]:  # type: ignore[no-untyped-def]
    """The v1.3 setup alone, with v1.2's backtest conditions and with v1.3's backtest veto, in and out of sample
    and per year beside the base rate."""
    import polars as pl

    win, ev, least = V12_BACKTEST
    setup = setup_rule(t)
    veto = (pl.col("bt_trades") >= t.integer("buy_min_trades")) & (pl.col("bt_ev") <= 0)
    rules = {
        "the v1.3 setup (decision_baseline)": setup,
        "  with v1.2's backtest conditions": setup
        & (pl.col("bt_trades") >= least)
        & (pl.col("bt_win_rate") >= win)
        & (pl.col("bt_ev") > ev),
        "  with v1.3's backtest veto": setup & ~veto.fill_null(False),
        "  with v1.5's veto (only while the signal fires)": setup & ~veto_rule(t),
        "  vetoed by 1.3, not by 1.5 (the signal not firing)": setup & veto.fill_null(False) & ~pl.col("fire"),
        "  vetoed by 1.5 (the signal firing)": setup & veto_rule(t),
    }
    lines = ["the baseline's setup (read from the rule table), point-in-time backtest of the score's fires:"]
    lines += [line(label, _figures(sessions.filter(rule), cut)) for label, rule in rules.items()]

    def years(part) -> str:  # type: ignore[no-untyped-def]
        found = part.group_by(pl.col("day").dt.year().alias("y")).agg(n=pl.len(), m=pl.col("excess").mean() * 100)
        return "  ".join(f"{y}: {m:+.2f}% (n={n})" for y, n, m in found.sort("y").iter_rows())

    lines.append("per year, mean 20-session excess:")
    lines.append(f"  {'every session (base rate)':48} {years(sessions)}")
    lines += [f"  {label:48} {years(sessions.filter(rule))}" for label, rule in rules.items()]
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
