"""Valuation percentiles (PE TTM, PB, PS TTM within their own history) and valuation bands (the prices at
chosen percentiles), from the valuation history the data layer stores; vectorised across symbols.

- Gate: a percentile needs at least `min_days` trading days (resources/data_gates.toml, gate
  valuation_history: 1,000) of positive values of the ratio up to the as-of day. Below that it is a gap with
  the reason, never an estimate. Non-positive ratios (a loss, negative equity) are left out of the history,
  and when the latest ratio is not positive its percentile is a gap: a rank across a loss means nothing.
- Percentile (0..1) = the share of the history strictly below the latest value plus half the share equal
  to it (the mid-rank, so a constant history sits at 0.5).
- Band at percentile p: the ratio at p (linear quantile of the history) times the per-share earnings, book
  or sales the latest row implies (its close / its ratio), so price = close x ratio_p / ratio.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Literal

import polars as pl

from stockbench.analytics.zones import LEVEL_SCHEMA
from stockbench.data.cache import load_data_rules
from stockbench.market.instruments import Instrument
from stockbench.market.ticks import round_to_tick

Metric = Literal["pe_ttm", "pb_mrq", "ps_ttm"]
METRICS: tuple[Metric, ...] = ("pe_ttm", "pb_mrq", "ps_ttm")
LABELS: dict[str, str] = {"pe_ttm": "PE TTM", "pb_mrq": "PB", "ps_ttm": "PS TTM"}
Status = Literal["ok", "gap"]


def min_days() -> int:
    """The trading days of history a percentile needs (the valuation_history gate's min_days)."""
    return int(load_data_rules()["gates"]["valuation_history"]["min_days"])


@dataclass(frozen=True, slots=True)
class Percentile:
    """Where the latest value of one ratio sits within its own history (None when it is a gap)."""

    metric: str
    value: float | None
    percentile: float | None
    days: int
    first: date | None
    last: date | None
    status: Status
    reason: str = ""

    def as_dict(self) -> dict[str, object]:
        return {
            "metric": self.metric,
            "value": self.value,
            "percentile": self.percentile,
            "days": self.days,
            "first": self.first,
            "last": self.last,
            "status": self.status,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Band:
    """The price at which the ratio would sit at `percentile` of its history, on the latest row's scale."""

    metric: str
    percentile: float
    ratio: float
    price: Decimal
    day: date


def _long(history: pl.DataFrame, metrics: Sequence[str], as_of: date | None) -> pl.LazyFrame:
    rows = history.lazy()
    if "symbol" not in history.columns:
        rows = rows.with_columns(symbol=pl.lit(""))
    if as_of is not None:
        rows = rows.filter(pl.col("day") <= as_of)
    return rows.unpivot(index=["symbol", "day"], on=list(metrics), variable_name="metric").with_columns(
        pl.col("value").cast(pl.Float64)
    )


def percentile_frame(
    history: pl.DataFrame, as_of: date | None = None, metrics: Sequence[str] = METRICS, days_needed: int | None = None
) -> pl.DataFrame:
    """One row per (symbol, metric): value (latest), percentile, days, first, last, status, reason.

    `history`: columns symbol (optional), day and the metric columns, as from MarketDataCache.valuation.
    """
    needed = days_needed if days_needed is not None else min_days()
    rows = _long(history, metrics, as_of).filter(pl.col("value").is_not_null()).sort("symbol", "metric", "day")
    latest = pl.col("value").last()
    positive = pl.col("value").filter(pl.col("value") > 0)
    stats = rows.group_by("symbol", "metric").agg(
        value=latest,
        days=positive.len(),
        below=(positive < latest).sum(),
        equal=(positive == latest).sum(),
        first=pl.col("day").filter(pl.col("value") > 0).min(),
        last=pl.col("day").max(),
    )
    label = pl.col("metric").replace_strict(LABELS, default=pl.col("metric"))
    gap_reason = (
        pl.when(pl.col("value") <= 0)
        .then(pl.format("the latest {} is {} (not positive): no percentile", label, pl.col("value")))
        .when(pl.col("days") < needed)
        .then(pl.format("{} days of positive {} history; {} are needed", pl.col("days"), label, pl.lit(needed)))
    )
    return (
        stats.with_columns(reason=gap_reason)
        .with_columns(
            status=pl.when(pl.col("reason").is_null()).then(pl.lit("ok")).otherwise(pl.lit("gap")),
            percentile=pl.when(pl.col("reason").is_null()).then(
                (pl.col("below") + 0.5 * pl.col("equal")) / pl.col("days")
            ),
            reason=pl.col("reason").fill_null(""),
        )
        .select("symbol", "metric", "value", "percentile", "days", "first", "last", "status", "reason")
        .sort("symbol", "metric")
        .collect()
    )


def percentiles(
    history: pl.DataFrame, as_of: date | None = None, days_needed: int | None = None
) -> dict[str, Percentile]:
    """The percentile of each ratio of one symbol's history (a gap for a ratio without any history)."""
    found = {r["metric"]: r for r in percentile_frame(history, as_of, METRICS, days_needed).iter_rows(named=True)}
    result: dict[str, Percentile] = {}
    for metric in METRICS:
        row = found.get(metric)
        if row is None:
            result[metric] = Percentile(metric, None, None, 0, None, None, "gap", f"no {LABELS[metric]} history")
            continue
        result[metric] = Percentile(
            metric,
            row["value"],
            row["percentile"],
            row["days"],
            row["first"],
            row["last"],
            row["status"],
            row["reason"],
        )
    return result


def screen_percentile(history: pl.DataFrame, as_of: date | None = None) -> pl.DataFrame:
    """Per symbol the percentile the scan shows: PE TTM when it is known, else PB (columns symbol,
    valuation_pct, valuation_metric); symbols with neither are left out."""
    table = percentile_frame(history, as_of, ("pe_ttm", "pb_mrq")).filter(pl.col("status") == "ok")
    chosen = table.sort("symbol", "metric", descending=[False, True]).unique("symbol", keep="first")
    return chosen.select("symbol", valuation_pct="percentile", valuation_metric=pl.col("metric").replace_strict(LABELS))


def bands(
    history: pl.DataFrame,
    instrument: Instrument,
    as_of: date | None = None,
    at: Sequence[float] = (0.2, 0.5, 0.8),
    days_needed: int | None = None,
) -> list[Band]:
    """Price bands of one symbol for every ratio whose percentile passes the gate, rounded to the nearest tick."""
    if history.is_empty():  # no ratio has a percentile (the zones of a watchlist read many such histories)
        return []
    status = percentiles(history, as_of, days_needed)
    rows = history if as_of is None else history.filter(pl.col("day") <= as_of)
    rows = rows.sort("day")
    found: list[Band] = []
    for metric, known in status.items():
        if known.status != "ok" or known.value is None:
            continue
        last = rows.filter(pl.col(metric).is_not_null()).row(-1, named=True)
        if last.get("close") is None:
            continue
        values = rows.get_column(metric).cast(pl.Float64)
        values = values.filter(values > 0)
        for p in at:
            ratio = float(values.quantile(p, interpolation="linear") or 0.0)
            price = Decimal(str(last["close"])) * Decimal(repr(ratio)) / Decimal(repr(known.value))
            rounded = round_to_tick(instrument, price, last["day"], "nearest")
            found.append(Band(metric, p, ratio, rounded, last["day"]))
    return found


def band_levels(found: Sequence[Band], symbol: str, scale: Decimal = Decimal(1)) -> pl.DataFrame:
    """Valuation bands as zone candidate levels (stockbench.analytics.zones.LEVEL_SCHEMA), divided by `scale`
    (raw / adjusted close) onto an adjusted frame's scale: the lowest percentile is support, the highest
    resistance, the others either side."""
    if not found:
        return pl.DataFrame(schema=LEVEL_SCHEMA)
    low, high = min(b.percentile for b in found), max(b.percentile for b in found)
    rows = [
        {
            "symbol": symbol,
            "side": "support" if b.percentile == low else "resistance" if b.percentile == high else "either",
            "kind": "valuation_band",
            "name": f"{b.metric}_p{round(b.percentile * 100)}",
            "value": float(b.price / scale),
            "day": b.day,
            "note": f"{LABELS[b.metric]} at the {b.percentile:.0%} percentile of its history ({b.ratio:.2f})",
        }
        for b in found
    ]
    return pl.DataFrame(rows, schema=LEVEL_SCHEMA)
