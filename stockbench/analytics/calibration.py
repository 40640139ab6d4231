"""The calibrated scenario table: empirical probabilities of up, sideways and down over the scenario horizon for
each combination of states, built reproducibly from the community A-share file and stored with its provenance.

Definitions live in the `scenarios` rule table; `stockbench calibrate` runs `calibrate` and writes the JSON that
stockbench/analytics/scenarios.py reads.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import polars as pl

import stockbench
from stockbench.analytics.rule_tables import UNKNOWN, RuleBook, load_rule_tables
from stockbench.analytics.states import BENCH_CLOSE, add_states, state_column, with_benchmark
from stockbench.errors import InvalidInput

Outcome = Literal["up", "sideways", "down"]
OUTCOMES: tuple[Outcome, ...] = ("up", "sideways", "down")
TABLE_NAME = "scenario_table"
TABLE_FORMAT = "1"
_DIGITS = 6
_CODE = ("frames.py", "indicators.py", "rule_tables.py", "states.py", "calibration.py")
_VOLATILE = ("generated_at", "runtime_seconds")


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file's bytes, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def code_sha256() -> str:
    """One SHA-256 over the analytics modules the table depends on (the working tree's code, committed or not)."""
    digest = hashlib.sha256()
    folder = Path(__file__).resolve().parent
    for name in _CODE:
        digest.update(name.encode() + b"\0" + (folder / name).read_bytes())
    return digest.hexdigest()


def market_benchmark(bars: pl.DataFrame, skip_first: int) -> pl.DataFrame:
    """An equal-weighted market index (columns day, close; 1.0 before the first session): per session the mean
    of close / prev_close - 1 over every stock, leaving out each stock's first `skip_first` sessions."""
    ret = pl.col("close") / pl.col("prev_close") - 1
    index = pl.int_range(pl.len()).over("symbol")
    daily = (
        bars.lazy()
        .filter(pl.col("prev_close") > 0)
        .filter(index >= skip_first)
        .group_by("day")
        .agg(ret.mean().alias("ret"))
        .sort("day")
        .select("day", close=(1 + pl.col("ret")).cum_prod())
    )
    return daily.collect()


def outcome_expr(book: RuleBook) -> pl.Expr:
    """The scenario outcome of each session: up, down or sideways over the horizon (null past the data's end)."""
    table = book.scenarios
    horizon = table.integer("horizon")
    ret = pl.col("close").shift(-horizon).over("symbol") / pl.col("close") - 1
    band = table.number("band_atr_multiple") * pl.col("atr14") / pl.col("close") * math.sqrt(horizon)
    label = (
        pl.when(ret >= band).then(pl.lit("up")).when(ret <= -band).then(pl.lit("down")).otherwise(pl.lit("sideways"))
    )
    return pl.when(ret.is_not_null() & band.is_not_null() & band.is_finite()).then(label)


def _cells(samples: pl.DataFrame, keys: Sequence[str]) -> list[dict[str, Any]]:
    columns = [state_column(k) for k in keys]
    counts = samples.group_by(*columns, "outcome").len() if keys else samples.group_by("outcome").len()
    wide = counts.pivot(on="outcome", index=columns or None, values="len") if keys else counts
    rows: list[dict[str, Any]] = []
    if not keys:
        found = dict(zip(wide["outcome"].to_list(), wide["len"].to_list(), strict=True))
        return [_cell({}, found)]
    for row in wide.sort(columns).iter_rows(named=True):
        states = {k: row[state_column(k)] for k in keys}
        rows.append(_cell(states, {o: row.get(o) or 0 for o in OUTCOMES}))
    return rows


def probabilities(counts: dict[str, int]) -> dict[str, float]:
    """Counts -> probabilities rounded to 6 places that sum to exactly 1 (largest remainder)."""
    n = sum(counts.values())
    scale = 10**_DIGITS
    raw = {o: counts.get(o, 0) * scale / n for o in OUTCOMES}
    units = {o: math.floor(v) for o, v in raw.items()}
    short = scale - sum(units.values())
    for o in sorted(OUTCOMES, key=lambda o: (units[o] - raw[o], OUTCOMES.index(o)))[:short]:
        units[o] += 1
    return {o: units[o] / scale for o in OUTCOMES}


def _cell(states: dict[str, str], counts: dict[str, int]) -> dict[str, Any]:
    counts = {o: int(counts.get(o, 0)) for o in OUTCOMES}
    return {"states": states, "n": sum(counts.values()), "counts": counts, "p": probabilities(counts)}


def samples_of(bars: pl.DataFrame, book: RuleBook) -> pl.DataFrame:
    """One row per session with known cell states and a defined outcome: symbol, day, the states, outcome."""
    from stockbench.analytics.indicators import add_indicators

    skip = book.scenarios.integer("benchmark_skip_first")
    frame = with_benchmark(add_indicators(bars), market_benchmark(bars, skip))
    keys = [state_column(k) for k in book.scenarios["cell_keys"]]
    states = add_states(frame, book).with_columns(outcome_expr(book).alias("outcome"))
    known = pl.all_horizontal(*(pl.col(k) != UNKNOWN for k in keys)) & pl.col("outcome").is_not_null()
    return states.filter(known).select("symbol", "day", *keys, "outcome")


@dataclass(frozen=True, slots=True)
class Source:
    """Where the calibration data came from."""

    path: Path
    command: str


def _provenance(source: Source, bars: pl.DataFrame, samples: pl.DataFrame, book: RuleBook) -> dict[str, Any]:
    used = ("trend", "relative_strength", "volatility", "scenarios")
    return {
        "data_file": source.path.name,
        "data_sha256": sha256_of(source.path),
        "data_bytes": source.path.stat().st_size,
        "rows": bars.height,
        "symbols": bars["symbol"].n_unique(),
        "first_day": str(bars["day"].min()),
        "last_day": str(bars["day"].max()),
        "samples": samples.height,
        "command": source.command,
        "code_version": stockbench.__version__,
        "code_sha256": code_sha256(),
        "polars_version": pl.__version__,
        "rule_tables": {name: book.versions()[name] for name in used},
        "benchmark": "equal-weighted market index from the same file (see the scenarios rule table)",
    }


def calibrate(source: Source, book: RuleBook | None = None, *, bars: pl.DataFrame | None = None) -> dict[str, Any]:
    """Build the scenario table from the community parquet at `source.path` (forward-adjusted per symbol)."""
    from stockbench.analytics.frames import bars_from_community_parquet

    started = time.perf_counter()
    book = book or load_rule_tables()
    bars = bars if bars is not None else bars_from_community_parquet(source.path)
    if bars.is_empty():
        raise InvalidInput(f"{source.path} holds no bars", "give the community A-share parquet")
    samples = samples_of(bars.drop(BENCH_CLOSE, strict=False), book)
    if samples.is_empty():
        raise InvalidInput(f"{source.path} has too little history for any state", "give a longer history")
    table = book.scenarios
    levels = [{"keys": list(keys), "cells": _cells(samples, keys)} for keys in table["fallback"]]
    return {
        "name": TABLE_NAME,
        "format": TABLE_FORMAT,
        "definition": {
            "table": table.cite(),
            "horizon": table.integer("horizon"),
            "band_atr_multiple": table.number("band_atr_multiple"),
            "outcomes": list(OUTCOMES),
            "text": table.description,
        },
        "base": levels[-1]["cells"][0],
        "levels": levels,
        "provenance": _provenance(source, bars, samples, book)
        | {
            "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "runtime_seconds": round(time.perf_counter() - started, 1),
        },
    }


def stable_part(table: dict[str, Any]) -> dict[str, Any]:
    """The table without its generation time and runtime: equal for equal inputs."""
    provenance = {k: v for k, v in table["provenance"].items() if k not in _VOLATILE}
    return table | {"provenance": provenance}


def write_table(table: dict[str, Any], out: Path) -> None:
    """Write the table as sorted, indented JSON (stable diffs)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(table, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
