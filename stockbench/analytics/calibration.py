"""The calibrated scenario table: empirical probabilities of up, sideways and down over the scenario horizon for
each combination of states, built reproducibly from the community A-share file and stored with its provenance
and its data range (`data_from`, `data_to`: every price the table rests on lies within them).

Definitions live in the `scenarios` rule table; `stockbench calibrate` runs `calibrate` and writes the JSON that
stockbench/analytics/scenarios.py reads (`--until DATE` builds a table from the data up to a date, `--per-year`
one per year-end beside the full one). Point in time: research as of a date uses the newest table whose data
ends before that date (`choose_table`); when none does, the earliest-ending one, flagged as look-ahead.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, Literal

import polars as pl

import stockbench
from stockbench.analytics.rule_tables import UNKNOWN, RuleBook, load_rule_tables
from stockbench.analytics.states import BENCH_CLOSE, add_states, state_column, with_benchmark
from stockbench.errors import InvalidInput
from stockbench.messages import user_error

Outcome = Literal["up", "sideways", "down"]
OUTCOMES: tuple[Outcome, ...] = ("up", "sideways", "down")
TABLE_NAME = "scenario_table"
TABLE_FORMAT = "2"  # 2: the table carries data_from and data_to
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


def calibrate(
    source: Source, book: RuleBook | None = None, *, raw: pl.DataFrame | None = None, until: date | None = None
) -> dict[str, Any]:
    """Build the scenario table from the community parquet at `source.path` (forward-adjusted per symbol), from
    its bars up to `until` when given. `raw` is the file's unadjusted bars when already read (per-year builds
    read the file once); they are cut at `until` before they are adjusted, so nothing later reaches the table."""
    from stockbench.analytics.frames import bars_from_community_parquet, forward_adjust

    started = time.perf_counter()
    book = book or load_rule_tables()
    if raw is None:
        bars = bars_from_community_parquet(source.path, end=until)
    else:
        bars = forward_adjust(raw.filter(pl.col("day") <= until) if until else raw)
    if bars.is_empty():
        if until is None:
            raise user_error(InvalidInput, "calibration_empty", path=source.path)
        raise user_error(InvalidInput, "calibration_no_bars", path=source.path, until=until)
    samples = samples_of(bars.drop(BENCH_CLOSE, strict=False), book)
    if samples.is_empty():
        raise user_error(InvalidInput, "calibration_short_history", path=source.path)
    table = book.scenarios
    levels = [{"keys": list(keys), "cells": _cells(samples, keys)} for keys in table["fallback"]]
    return {
        "name": TABLE_NAME,
        "format": TABLE_FORMAT,
        "data_from": str(bars["day"].min()),
        "data_to": str(bars["day"].max()),
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
            "until": None if until is None else str(until),
            "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "runtime_seconds": round(time.perf_counter() - started, 1),
        },
    }


def year_ends(days: pl.Series) -> list[date]:
    """The last session of every year of `days` that the data runs past (a complete year): the per-year cuts."""
    last = pl.DataFrame({"day": days}).group_by(pl.col("day").dt.year().alias("year")).agg(pl.col("day").max())
    end = days.max()
    return sorted(d for d in last["day"].to_list() if d < end)


@dataclass(frozen=True, slots=True)
class YearTables:
    """A per-year build: the full table, one table per year-end (by its cut) and the cuts skipped, with why."""

    full: dict[str, Any]
    tables: Mapping[date, dict[str, Any]]
    skipped: Mapping[date, str]


def calibrate_by_year(source: Source, book: RuleBook | None = None) -> YearTables:
    """The full table and one per complete year of the file, each from the data up to that year's last session
    (the file is read once). A year with too little history for any state is skipped, with the reason."""
    from stockbench.analytics.frames import bars_from_community_parquet

    book = book or load_rule_tables()
    raw = bars_from_community_parquet(source.path, adjust="none")
    tables: dict[date, dict[str, Any]] = {}
    skipped: dict[date, str] = {}
    for cut in year_ends(raw["day"]):
        try:
            tables[cut] = calibrate(source, book, raw=raw, until=cut)
        except InvalidInput as error:
            skipped[cut] = error.message
    return YearTables(calibrate(source, book, raw=raw), tables, skipped)


def stable_part(table: dict[str, Any]) -> dict[str, Any]:
    """The table without its generation time and runtime: equal for equal inputs."""
    provenance = {k: v for k, v in table["provenance"].items() if k not in _VOLATILE}
    return table | {"provenance": provenance}


def write_table(table: dict[str, Any], out: Path) -> None:
    """Write the table as sorted, indented JSON (stable diffs)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(table, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
