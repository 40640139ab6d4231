"""The peer comparison table: valuation, growth, returns, volatility and relative strength of several symbols on
one session, side by side (table `peers` of resources/zone_tables.toml), vectorised across the symbols.

Returns and volatility use forward-adjusted closes; valuation comes from the valuation history (percentiles
behind the 1,000-day gate of stockbench.analytics.valuation); growth from financial statements where present
(A-share statements are cumulative within the year, so a period is compared with the same period end a year
earlier). Anything a symbol lacks is null, never estimated.

When no peers are declared, `choose_peers` picks them by rule from the stored universe (same sector index,
nearest size; the `peers` table says how), so a comparison exists for every stored stock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

import polars as pl

from stockbench.analytics.rule_tables import Table
from stockbench.analytics.scan import load_zone_tables
from stockbench.analytics.valuation import METRICS, percentile_frame
from stockbench.market.registry import is_st_name

_K = "_k"


def _returns(bars: pl.DataFrame, as_of: date, table: Table) -> pl.DataFrame:
    sessions = [int(n) for n in table["return_sessions"]]
    vol_n, per_year = table.integer("volatility_sessions"), table.number("sessions_per_year")
    keep = max([*sessions, vol_n, table.integer("rs_sessions")]) + 1
    rows = bars.filter(pl.col("day") <= as_of).sort("symbol", "day")
    first = (pl.col("symbol") != pl.col("symbol").shift(1)).fill_null(True)
    rows = rows.with_columns(_lr=pl.when(~first).then((pl.col("close") / pl.col("close").shift(1)).log()))
    rows = rows.group_by("symbol", maintain_order=True).tail(keep)
    close, n_rows = pl.col("close"), pl.col("_n")
    agg = rows.group_by("symbol").agg(
        day=pl.col("day").last(),
        close=close.last(),
        _n=pl.len(),
        _vol=pl.col("_lr").tail(vol_n).std(),
        _vol_n=pl.col("_lr").tail(vol_n).count(),
        **{f"_c{n}": close.slice(-(n + 1), 1).first() for n in {*sessions, table.integer("rs_sessions")}},
    )
    returns = {f"ret{n}": pl.when(n_rows > n).then(pl.col("close") / pl.col(f"_c{n}") - 1) for n in sessions}
    vol = pl.when(pl.col("_vol_n") >= vol_n).then(pl.col("_vol") * math.sqrt(per_year))
    rs_n = table.integer("rs_sessions")
    rs_ret = pl.when(n_rows > rs_n).then(pl.col("close") / pl.col(f"_c{rs_n}") - 1)
    return agg.select("symbol", "day", "close", **returns, volatility=vol, _rs_ret=rs_ret).sort("symbol")


def _benchmark_return(benchmark: pl.DataFrame | None, as_of: date, sessions: int) -> float | None:
    if benchmark is None or benchmark.is_empty():
        return None
    closes = benchmark.filter(pl.col("day") <= as_of).sort("day").get_column("close").cast(pl.Float64)
    if closes.len() <= sessions:
        return None
    return float(closes[-1] / closes[-(sessions + 1)] - 1)


def _relative(table: pl.DataFrame, bench: float | None) -> pl.DataFrame:
    basis = bench if bench is not None else table.get_column("_rs_ret").median()
    label = "benchmark" if bench is not None else "peer median"
    if not isinstance(basis, float):
        return table.with_columns(rs=pl.lit(None, pl.Float64), rs_basis=pl.lit(label)).drop("_rs_ret")
    rs = (1 + pl.col("_rs_ret")) / (1 + basis) - 1
    return table.with_columns(rs=rs, rs_basis=pl.lit(label)).drop("_rs_ret")


def _valuation(history: pl.DataFrame | None, as_of: date) -> pl.DataFrame | None:
    if history is None or history.is_empty():
        return None
    found = percentile_frame(history, as_of)
    values = found.pivot("metric", index="symbol", values="value")
    pcts = found.pivot("metric", index="symbol", values="percentile")
    pcts = pcts.rename({m: f"{m}_pct" for m in METRICS if m in pcts.columns})
    return values.join(pcts, on="symbol", how="full", coalesce=True)


def _growth(financials: pl.DataFrame | None, items: list[str]) -> pl.DataFrame | None:
    if financials is None or financials.is_empty():
        return None
    rows = financials.filter(pl.col("item").is_in(items)).select(
        "symbol", "item", "period_end", pl.col("value").cast(pl.Float64)
    )
    latest = rows.sort("period_end").group_by("symbol", "item").last()
    earlier = rows.with_columns(period_end=pl.col("period_end").dt.offset_by("1y")).rename({"value": "_before"})
    joined = latest.join(earlier, on=["symbol", "item", "period_end"], how="left")
    joined = joined.with_columns(yoy=pl.when(pl.col("_before") > 0).then(pl.col("value") / pl.col("_before") - 1))
    growth = joined.pivot("item", index="symbol", values="yoy")
    growth = growth.rename({i: f"{i}_yoy" for i in items if i in growth.columns})
    periods = latest.group_by("symbol").agg(growth_period=pl.col("period_end").max())
    return growth.join(periods, on="symbol", how="left")


def peer_table(
    bars: pl.DataFrame,
    as_of: date,
    *,
    valuation: pl.DataFrame | None = None,
    financials: pl.DataFrame | None = None,
    benchmark: pl.DataFrame | None = None,
    table: Table | None = None,
) -> pl.DataFrame:
    """One row per symbol of `bars` (forward-adjusted, many symbols) with a session on or before `as_of`.

    Columns: symbol, day, close, ret<n> per return_sessions, volatility, rs, rs_basis; with `valuation`
    (symbol, day, pe_ttm, pb_mrq, ps_ttm) the latest ratios and their percentiles (<metric>_pct); with
    `financials` (symbol, period_end, item, value) <item>_yoy per growth item and growth_period. `benchmark`
    (day, close) is what relative strength is measured against (else the peers' median return).
    """
    table = table or load_zone_tables()["peers"]
    found = _returns(bars, as_of, table)
    found = _relative(found, _benchmark_return(benchmark, as_of, table.integer("rs_sessions")))
    for extra in (_valuation(valuation, as_of), _growth(financials, list(table["growth_items"]))):
        if extra is not None:
            found = found.join(extra, on="symbol", how="left")
    return found.sort("symbol")


SIZE_BASES = ("float_mcap", "total_mcap", "amount")


@dataclass(frozen=True, slots=True)
class Peer:
    """A peer chosen by rule: its size on its latest bar and how far that is from the subject's (|ln ratio|); with
    the correlation rule, the correlation of its daily returns with the subject's and over how many sessions."""

    symbol: str
    day: date
    size: Decimal
    distance: float
    correlation: float | None = None
    sessions: int | None = None


@dataclass(frozen=True, slots=True)
class PeerChoice:
    """The rule's answer: the group it searched, what it ranked by (the size basis: float_mcap, total_mcap, amount;
    or `CORRELATION`), the subject's size, and the peers in order."""

    subject: str
    group: str
    basis: str | None
    subject_size: Decimal | None
    candidates: int
    peers: tuple[Peer, ...]
    table: str

    def symbols(self) -> list[str]:
        return [p.symbol for p in self.peers]


CORRELATION = "correlation"  # the basis of a choice ranked by the correlation of daily returns


def return_correlations(returns: pl.DataFrame, subject: str, table: Table | None = None) -> pl.DataFrame:
    """The correlation of each stock's daily returns with `subject`'s over the subject's last `choose_corr_sessions`
    sessions of `returns` (symbol, day, ret: close / the exchange's reference price - 1, so an ex-date is no fall),
    each return less the mean of every stock's in `returns` that day (the market's part), for the stocks with at
    least `choose_corr_min_sessions` of those sessions and some movement in them.

    Columns: symbol, correlation, sessions; empty when the subject has fewer than the minimum sessions."""
    table = table or load_zone_tables()["peers"]
    least = table.integer("choose_corr_min_sessions")
    usable = returns.with_columns(pl.col("ret").cast(pl.Float64)).filter(pl.col("ret").is_finite())
    # less the day's mean over every stock given: what is left moves with the industry, not with the market (every
    # stock of a board correlates 0.3-0.5 with every other through the market alone)
    usable = usable.with_columns(ret=pl.col("ret") - pl.col("ret").mean().over("day"))
    own = (usable.filter(pl.col("symbol") == subject).sort("day").tail(table.integer("choose_corr_sessions"))
           .select("day", own=pl.col("ret")))  # fmt: skip
    empty = pl.DataFrame(schema={"symbol": pl.String, "correlation": pl.Float64, "sessions": pl.UInt32})
    if own.height < least:
        return empty
    paired = usable.filter(pl.col("symbol") != subject).join(own, on="day")
    found = paired.group_by("symbol").agg(
        correlation=pl.corr(pl.col("ret").cast(pl.Float64), pl.col("own")), sessions=pl.len()
    )
    return found.filter((pl.col("sessions") >= least) & pl.col("correlation").is_finite()).sort("symbol")


def choose_peers(
    universe: pl.DataFrame, subject: str, table: Table | None = None, correlations: pl.DataFrame | None = None
) -> PeerChoice:
    """The peers of `subject` by rule (see the `peers` table): same group, nearest size, ties by code; with
    `correlations` (`return_correlations`: symbol, correlation, sessions), the group's stocks whose daily returns
    correlate most with the subject's instead (the size rule when none of the group has one).

    `universe`: one row per stock, its latest bar (symbol, board, day, amount, float_mcap, total_mcap, and a name
    column when special-treatment names are to be left out); `group` is the column "group" when present, else
    the board. A subject absent from `universe`, or without any size, gets no peers."""
    table = table or load_zone_tables()["peers"]
    frame = universe if "group" in universe.columns else universe.with_columns(group=pl.col("board"))
    own = frame.filter(pl.col("symbol") == subject)
    if own.is_empty():
        return PeerChoice(subject, "", None, None, 0, (), table.cite())
    row = own.row(0, named=True)
    basis = next((b for b in SIZE_BASES if row.get(b) is not None and row[b] > 0), None)
    if basis is None:
        return PeerChoice(subject, str(row["group"]), None, None, 0, (), table.cite())
    size = Decimal(row[basis])
    pool = frame.filter((pl.col("group") == row["group"]) & (pl.col("symbol") != subject) & (pl.col(basis) > 0))
    if bool(table["choose_exclude_st"]) and "name" in pool.columns:
        flagged = pl.Series([is_st_name(n) for n in pool.get_column("name").to_list()], dtype=pl.Boolean)
        pool = pool.filter(~flagged)
    sized = pool.with_columns(_distance=(pl.col(basis).cast(pl.Float64) / float(size)).log().abs())
    related = None if correlations is None else sized.join(correlations, on="symbol", how="inner")
    count = table.integer("choose_count")
    if related is not None and not related.is_empty():
        chosen = related.sort(["correlation", "symbol"], descending=[True, False]).head(count)
        peers = tuple(Peer(s, d, Decimal(v), float(x), float(c), int(n)) for s, d, v, x, c, n in chosen.select(
            "symbol", "day", basis, "_distance", "correlation", "sessions").iter_rows())  # fmt: skip
        return PeerChoice(subject, str(row["group"]), CORRELATION, size, pool.height, peers, table.cite())
    chosen = sized.sort("_distance", "symbol").head(count)
    peers = tuple(Peer(s, d, Decimal(v), float(x)) for s, d, v, x in chosen.select("symbol", "day", basis,
                                                                                 "_distance").iter_rows())  # fmt: skip
    return PeerChoice(subject, str(row["group"]), basis, size, pool.height, peers, table.cite())
