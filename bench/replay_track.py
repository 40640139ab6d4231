"""Research replayed on history: the speed of a batch of as-of analyses, and the offline model's track record.

Setup (not timed): a fresh workspace holding the chosen real A-shares from the 2017-2022 community parquet and
the file's equal-weighted market index, stored as 000695.SH under a name saying it is a stand-in built by the
program (the file has no index, so CSI 300 is not available); it is remembered as the workspace's benchmark.

`python -m bench replay_track` (registered): 5 symbols as of every 40th session of 2019, analysed by 2-4 threads
(one per core; ours) against one thread (the reference), both in the same workspace, every analysis fresh.

`python -m bench.replay_track --symbols 50 --workers 1 --out FILE` (the acceptance batch, about 45 minutes):
50 Shanghai and Shenzhen stocks sampled with a fixed seed among those trading from 2017 to 2022, as of every
20th session from 2019-01-02 to 2021-12-31; prints the counts, hit rates by action and calibration, and writes
the whole result (every call) as JSON. `--summarize FILE` prints the figures of such a file again, with the
calls split by date at `--cut` (in sample before it, out of sample from it) and by year, each Brier score beside
the point-in-time base rate, and the buy candidates' excess over the benchmark (calls whose decision baseline
passed every known buy condition, a tradeable plan included: a buy, or a wait only an unknown input held back; the
population bench/signal_study.py measures on every stock).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from datetime import date
from pathlib import Path
from typing import Any

from bench.harness import Result, benchmark

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "ashare_daily_2017_2022.parquet"
INDEX = "000695.SH"
INDEX_NAME = (
    "社区数据等权指数（程序构建，非沪深300） Equal-weighted community-file index (built by the program; not CSI 300)"
)
SEED = 20190102


def population() -> list[str]:
    """The Shanghai and Shenzhen stocks trading through the whole file (listed by 2017-06-30, still trading on
    2022-01-14), in code order: what the replay batch samples from."""
    import polars as pl

    spans = (
        pl.scan_parquet(DATA)
        .filter(pl.col("code").str.starts_with("sh") | pl.col("code").str.starts_with("sz"))
        .group_by("code")
        .agg(first=pl.col("date").min(), last=pl.col("date").max())
        .filter((pl.col("first") <= date(2017, 6, 30)) & (pl.col("last") >= date(2022, 1, 14)))
        .sort("code")
        .collect()
    )
    return [f"{c[2:]}.{c[:2].upper()}" for c in spans["code"].to_list()]


def sample_symbols(count: int, seed: int = SEED) -> list[str]:
    """`count` Shanghai and Shenzhen stocks trading through the whole file, sampled with `seed`."""
    import polars as pl

    chosen = pl.Series("symbol", population()).sample(count, seed=seed)
    return sorted(chosen.to_list(), key=lambda s: (s[-2:] != "SH", s))


def prepare(home: Path, symbols: list[str]) -> None:
    """Import `symbols` and the equal-weighted index into the workspace at `home`, and remember the index."""
    import polars as pl

    from stockbench.research.replay import equal_weighted_index
    from stockbench.research.track_record import TrackRecords
    from stockbench.workbench import Workbench

    codes = [f"{s[-2:].lower()}{s[:6]}" for s in symbols]
    with tempfile.TemporaryDirectory() as scratch, Workbench.open(home) as bench:
        part = Path(scratch) / "sample.parquet"
        pl.scan_parquet(DATA).filter(pl.col("code").is_in(codes)).collect().write_parquet(part)
        bench.data.import_file(part)
        bench.data.import_file(equal_weighted_index(DATA, INDEX, INDEX_NAME, Path(scratch) / "index.csv"))
        TrackRecords(bench.workspace.db, bench.clock, bench.market, bench.data).remember(INDEX)


def replay(
    home: Path, symbols: list[str], start: date, end: date, *, every: int, workers: int, fresh: bool = True
) -> dict[str, Any]:
    from stockbench.research.replay import Replayer
    from stockbench.workbench import Workbench

    def progress(done: int, total: int, run: Any) -> None:
        if done % 50 == 0 or done == total:
            print(f"  {done}/{total} {run.symbol} {run.day} {run.status}", file=sys.stderr, flush=True)

    with Workbench.open(home) as bench:
        found = Replayer(bench.workspace.db, bench.market).run(
            symbols, start, end, clock=bench.clock, every=every, workers=workers, fresh=fresh, progress=progress
        )
        result: dict[str, Any] = found.as_dict(calls=True)
    return result


@benchmark("replay_track")
def bench_replay() -> Result:
    symbols = sample_symbols(5)
    threads = max(2, min(4, os.cpu_count() or 1))
    with tempfile.TemporaryDirectory() as scratch:
        home = Path(scratch) / "ws"
        prepare(home, symbols)
        one = replay(home, symbols, date(2019, 1, 2), date(2019, 12, 31), every=40, workers=1)["replay"]
        four = replay(home, symbols, date(2019, 1, 2), date(2019, 12, 31), every=40, workers=threads)["replay"]
    return Result(
        f"replay 5 symbols x 7 sessions, {threads} threads vs 1",
        four["seconds"],
        one["seconds"],
        "s",
        1.0,
        {"analyses": str(four["analyses"]), "s/analysis (1 thread)": str(one["seconds_per_analysis"])},
    )


def summary(data: dict[str, Any]) -> str:
    """The figures worth reading from a replay's JSON."""
    r, t = data["replay"], data["track_record"]
    lines = [
        f"{r['analyses']} analyses of {len(r['symbols'])} symbols, {r['from']}..{r['to']} every {r['every']}, "
        f"{r['workers']} threads: {r['seconds']} s ({r['analyses_per_minute']}/min), {r['counts']}",
        f"benchmark: {json.dumps(t['benchmarks'], ensure_ascii=False)}",
        f"counts: {t['counts']}; overall hit rate {t['hit_rate']}",
    ]
    for action, v in t["by_action"].items():
        if v["calls"]:
            lines.append(
                f"  {action:6} calls {v['calls']:4} judged {v['judged']:4} hits {v['hits']:4} rate {v['hit_rate']} "
                f"return {v['mean_return_pct']}% bench {v['mean_benchmark_pct']}% excess {v['mean_excess_pct']}%"
            )
    c = t["calibration"]
    lines.append(
        f"calibration n={c['n']}: Brier {c['brier']} vs base rate {c['base_rate_brier']} (skill {c['skill']}); "
        f"observed {c['observed']}, mean forecast {c['mean_forecast']}"
    )
    lines.append(f"cost per report {t['cost']['per_report']} over {t['cost']['reports']} reports")
    return "\n".join(lines)


def split(data: dict[str, Any], cut: date) -> str:
    """The matured calls before `cut` and from it (in sample and out of sample by date), and by year: calls, hit
    rate and mean excess over the benchmark by action, and the Brier score of the scenario probabilities against
    each call's point-in-time base rate (the calibration table research as of its day uses, built before it)."""
    from decimal import Decimal

    from stockbench.analytics.calibration_tables import choose_table, stored_tables
    from stockbench.research.track_record import base_rate
    from stockbench.research.track_scoring import brier

    matured = [c for c in data["track_record"]["calls"] if c["status"] == "matured"]
    rates: dict[Path, dict[str, Decimal]] = {}
    tables = stored_tables()

    def rate_for(day: date) -> dict[str, Decimal]:
        path = choose_table(tables, day).path
        if path not in rates:
            rates[path] = base_rate(path)[0]
        return rates[path]

    def line(label: str, calls: list[dict[str, Any]]) -> list[str]:
        out = [f"{label}: {len(calls)} matured calls"]
        for action in sorted({c["action"] for c in calls}):
            mine = [c for c in calls if c["action"] == action]
            judged = [c for c in mine if c["hit"] is not None]
            excess = [Decimal(str(c["excess_pct"])) for c in mine if c["excess_pct"] is not None]
            hits = sum(1 for c in judged if c["hit"])
            out.append(f"    {action:6} calls {len(mine):4} hit rate "
                       f"{f'{hits / len(judged):.3f}' if judged else 'n/a':>5} mean excess "
                       f"{f'{sum(excess) / len(excess):.2f}%' if excess else 'n/a'}")  # fmt: skip
        candidates = [c for c in calls if c.get("candidate") and c["excess_pct"] is not None]
        if candidates:  # every known buy condition passed (a buy, or a wait held back only by an unknown input)
            excess = [Decimal(str(c["excess_pct"])) for c in candidates]
            beat = sum(1 for e in excess if e > 0)
            out.append(f"    buy candidates {len(candidates)}: beat the benchmark {beat / len(candidates):.3f}, "
                       f"mean excess {sum(excess) / len(excess):.2f}%")  # fmt: skip
        scored = [c for c in calls if c["outcome"] and len(c["probabilities"]) == 3]
        if scored:
            own = sum(brier({k: Decimal(v) for k, v in c["probabilities"].items()}, c["outcome"]) for c in scored)
            base = sum(brier(rate_for(date.fromisoformat(str(c["entry_day"]))), c["outcome"]) for c in scored)
            out.append(f"    Brier {own / len(scored):.4f} vs point-in-time base rate {base / len(scored):.4f} "
                       f"(skill {1 - own / base:.4f}, n={len(scored)})")  # fmt: skip
        return out

    early = [c for c in matured if date.fromisoformat(str(c["entry_day"])) < cut]
    late = [c for c in matured if date.fromisoformat(str(c["entry_day"])) >= cut]
    lines = line(f"before {cut}", early) + line(f"from {cut} (out of sample by date)", late)
    for year in sorted({str(c["entry_day"])[:4] for c in matured}):
        lines += line(year, [c for c in matured if str(c["entry_day"]).startswith(year)])
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.replay_track", description=__doc__.splitlines()[0])
    parser.add_argument("--symbols", type=int, default=50)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--every", type=int, default=20)
    parser.add_argument("--from", dest="start", default="2019-01-02")
    parser.add_argument("--to", dest="end", default="2021-12-31")
    parser.add_argument("--home", type=Path, help="workspace folder (default: a new temporary one)")
    parser.add_argument("--out", type=Path, help="write the whole result as JSON here")
    parser.add_argument("--summarize", type=Path, help="print the figures of a result written by --out, and stop")
    parser.add_argument("--cut", default="2021-01-01", help="the date that splits in sample from out of sample")
    args = parser.parse_args(argv)
    cut = date.fromisoformat(args.cut)
    if args.summarize:
        data = json.loads(args.summarize.read_text(encoding="utf-8"))
        print(summary(data))
        print(split(data, cut))
        return 0
    symbols = sample_symbols(args.symbols)
    home = args.home or Path(tempfile.mkdtemp(prefix="replay-track-")) / "ws"
    from stockbench.config import WorkspacePaths

    if not WorkspacePaths(home).database.exists():
        prepare(home, symbols)
    start, end = date.fromisoformat(args.start), date.fromisoformat(args.end)
    data = replay(
        home, symbols, start, end, every=args.every, workers=args.workers, fresh=False
    )  # an interrupted batch resumes
    if args.out:
        args.out.write_text(json.dumps(data, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    print(f"workspace {home}; symbols {', '.join(symbols)}")
    written = json.loads(json.dumps(data, default=str))
    print(summary(written))
    print(split(written, cut))
    return 0


if __name__ == "__main__":
    sys.exit(main())
