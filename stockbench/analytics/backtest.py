"""Backtest of the factor-score buy signal: fires, win rate and expected value after costs per horizon, beside
the base rate of the same horizon (the same trade on every scored session), with the independent (non-
overlapping) trade count, the grade of the evidence and its confidence cap (stockbench.analytics.edge), and a
walk-forward split (in-sample vs out-of-sample).

Rules (table `backtest`): a signal on session t enters at the open of t+1 and exits at the close of t+h. An entry
bar that traded at one price above the previous close (locked limit-up) could not be bought: that trade is
counted as unfilled and left out. Costs are the round-trip fee rate of a reference order from the dated fee
rows of resources/market_rules.toml (stockbench.market.fees), buy side on the entry day and sell side (stamp
duty included) on the exit day.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

import polars as pl

from stockbench.analytics.edge import Edge, Evidence, confidence_cap, grade, independent, note_parts
from stockbench.analytics.rule_tables import RuleBook, load_rule_tables
from stockbench.analytics.signals import FIRE, SCORE
from stockbench.errors import InvalidInput
from stockbench.market.fees import Side, order_fees
from stockbench.market.instruments import Instrument
from stockbench.market.tables import RuleTables, load_tables
from stockbench.messages import Note, note, user_error

_REFERENCE_QTY = 1000
_DIGITS = 6


class FeeCosts:
    """Round-trip cost rates (fraction of the traded amount) of a reference order, from the dated fee rows."""

    def __init__(self, instrument: Instrument, notional: Decimal, tables: RuleTables | None = None) -> None:
        if notional <= 0:
            raise user_error(InvalidInput, "backtest_notional", notional=notional)
        self.instrument = instrument
        self.notional = notional
        self._tables = tables
        self._rates: dict[tuple[Side, date], float] = {}

    def rate(self, side: Side, day: date) -> float:
        """Fees of one side on `day` as a fraction of the reference notional."""
        key = (side, day)
        if key not in self._rates:
            price = self.notional / _REFERENCE_QTY
            fees = order_fees(self.instrument, side, _REFERENCE_QTY, price, day, tables=self._tables)
            self._rates[key] = float(fees.total / self.notional)
        return self._rates[key]

    def round_trip(self, entry_day: date, exit_day: date) -> float:
        return self.rate("buy", entry_day) + self.rate("sell", exit_day)

    def covered_from(self) -> date:
        """The first day from which every fee item of the market has a row (before it, costs are understated)."""
        rows = [r for r in (self._tables or load_tables()).fees if r.market == self.instrument.market]
        firsts = {r.item: min(x.since for x in rows if x.item == r.item) for r in rows}
        return max(firsts.values())

    def notes(self, entry_days: Sequence[date]) -> tuple[Note, ...]:
        """How the costs were computed, and how many trades fall before the fee rows' coverage."""
        start = self.covered_from()
        early = sum(1 for d in entry_days if d < start)
        said = (note("backtest.costs", notional=self.notional),)
        return said + ((note("backtest.costs.early", early=early, start=start),) if early else ())

    def note(self, entry_days: Sequence[date]) -> str:
        """The costs in English (the JSON's words; `notes` says them in either language)."""
        return english(self.notes(entry_days))


@dataclass(frozen=True, slots=True)
class HorizonStats:
    """The outcome of the signal's trades over one horizon (returns are fractions: 0.01 = 1%)."""

    horizon: int
    fires: int  # signals in the period
    trades: int  # completed, filled trades: the sample
    wins: int
    win_rate: float | None
    ev: float | None  # mean net return after costs
    median: float | None
    avg_cost: float | None
    pending: int  # signals whose exit lies past the data's end
    unfilled: int  # signals whose entry bar was locked limit-up
    confidence_cap: float  # from the independent trades and the edge over the base rate (see edge.py)
    sample_note: str
    overlapping: int = 0  # trades entered before the previous trade exited
    independent: int = 0  # non-overlapping completed trades: the sample that counts
    base_windows: int = 0  # completed windows of the horizon from every scored session: the base rate's sample
    base_independent: int = 0  # non-overlapping windows among them
    base_win_rate: float | None = None  # share of windows with a net return above 0
    base_ev: float | None = None  # mean net return of the windows, after the same costs
    evidence: Evidence = "never_fired"  # the grade: sample and edge over the base rate
    sample_notes: tuple[Note, ...] = ()  # sample_note in the catalogue's words, for either language

    @property
    def edge(self) -> Edge:
        return Edge(self.horizon, self.fires, self.trades, self.independent, self.win_rate, self.ev,
                    self.base_win_rate, self.base_ev)  # fmt: skip

    @property
    def ev_edge(self) -> float | None:
        """EV over the base rate's EV (a fraction; None without trades)."""
        return self.edge.ev_edge

    @property
    def win_rate_edge(self) -> float | None:
        """Win rate over the base rate's win rate (None without trades)."""
        return self.edge.win_rate_edge

    def as_dict(self) -> dict[str, Any]:
        def r(v: float | None) -> float | None:
            return None if v is None else round(v, _DIGITS)

        return {
            "horizon": self.horizon,
            "fires": self.fires,
            "trades": self.trades,
            "wins": self.wins,
            "win_rate": r(self.win_rate),
            "ev": r(self.ev),
            "median": r(self.median),
            "avg_cost": r(self.avg_cost),
            "pending": self.pending,
            "unfilled": self.unfilled,
            "overlapping": self.overlapping,
            "independent": self.independent,
            "base_windows": self.base_windows,
            "base_independent": self.base_independent,
            "base_win_rate": r(self.base_win_rate),
            "base_ev": r(self.base_ev),
            "ev_edge": r(self.ev_edge),
            "win_rate_edge": r(self.win_rate_edge),
            "evidence": self.evidence,
            "confidence_cap": self.confidence_cap,
            "sample_note": self.sample_note,
        }


@dataclass(frozen=True, slots=True)
class BacktestReport:
    """A symbol's (or a pooled universe's) backtest: per horizon all, in-sample and out-of-sample stats."""

    symbols: tuple[str, ...]
    first_day: date | None
    last_day: date | None
    sessions: int  # scored sessions
    fire_days: tuple[date, ...]
    horizons: tuple[HorizonStats, ...]
    split_day: date | None
    in_sample: tuple[HorizonStats, ...]
    out_of_sample: tuple[HorizonStats, ...]
    tables: Mapping[str, str]
    rules: str
    costs: str = "no costs"
    costs_notes: tuple[Note, ...] = (note("backtest.costs.none"),)  # costs in the catalogue's words

    def horizon(self, h: int) -> HorizonStats:
        return next(s for s in self.horizons if s.horizon == h)

    def as_dict(self) -> dict[str, Any]:
        per: dict[str, Any] = {}
        for whole, ins, outs in zip(self.horizons, self.in_sample, self.out_of_sample, strict=True):
            per[str(whole.horizon)] = whole.as_dict() | {"in_sample": ins.as_dict(), "out_of_sample": outs.as_dict()}
        return {
            "symbols": list(self.symbols),
            "first_day": self.first_day,
            "last_day": self.last_day,
            "sessions": self.sessions,
            "fires": len(self.fire_days),
            "horizons": per,
            "split_day": self.split_day,
            "tables": dict(self.tables),
            "rules": self.rules,
            "costs": self.costs,
        }


def trades(
    frame: pl.DataFrame, horizons: Sequence[int], costs: FeeCosts | None, *, every_session: bool = False
) -> pl.DataFrame:
    """One row per fire and horizon: day, horizon, entry_day, entry, exit_day, exit, filled, gross, cost, net.
    Rows whose exit lies past the data (pending) have a null exit. `frame` is the output of signals.add_fires.
    With `every_session`, one row per scored session and horizon instead: the base rate's windows."""
    ahead = {
        "entry_day": pl.col("day").shift(-1),
        "entry": pl.col("open").shift(-1),
        "locked": (pl.col("high") == pl.col("low")) & (pl.col("open") > pl.col("close").shift(1)),
    }
    columns = {k: (v.shift(-1) if k == "locked" else v).over("symbol") for k, v in ahead.items()}
    for h in horizons:
        columns[f"exit_day_{h}"] = pl.col("day").shift(-h).over("symbol")
        columns[f"exit_{h}"] = pl.col("close").shift(-h).over("symbol")
    chosen = pl.col(SCORE).is_not_null() if every_session else pl.col(FIRE)
    fired = frame.with_columns(**columns).filter(chosen)
    parts = [
        fired.select(
            "symbol",
            "day",
            pl.lit(h, pl.Int32).alias("horizon"),
            "entry_day",
            "entry",
            pl.col(f"exit_day_{h}").alias("exit_day"),
            pl.col(f"exit_{h}").alias("exit"),
            (~pl.col("locked").fill_null(False)).alias("filled"),
        )
        for h in horizons
    ]
    out = pl.concat(parts)
    if out.is_empty():
        return out.with_columns(
            gross=pl.lit(None, pl.Float64), cost=pl.lit(None, pl.Float64), net=pl.lit(None, pl.Float64)
        )
    cost = [
        costs.round_trip(e, x) if costs is not None and e is not None and x is not None else 0.0
        for e, x in zip(out["entry_day"], out["exit_day"], strict=True)
    ]
    out = out.with_columns(gross=pl.col("exit") / pl.col("entry") - 1, cost=pl.Series(cost, dtype=pl.Float64))
    return out.with_columns(net=pl.col("gross") - pl.col("cost"))


def _completed(rows: pl.DataFrame, horizon: int) -> pl.DataFrame:
    return rows.filter((pl.col("horizon") == horizon) & pl.col("net").is_not_null() & pl.col("filled"))


def english(notes: Sequence[Note]) -> str:
    """Notes joined as the JSON has always said them (English, "; " between)."""
    return "; ".join(n.text("en") for n in notes)


def _counts(stats: dict[str, int]) -> tuple[Note, ...]:
    head = note("backtest.counts", trades=stats["trades"], independent=stats["independent"], fires=stats["fires"])
    extra = tuple(note(f"backtest.counts.{k}", **{k: str(stats[k])}) for k in ("pending", "unfilled", "overlapping")
                  if stats[k])  # fmt: skip
    return (head, *extra)


def summarise(rows: pl.DataFrame, horizon: int, book: RuleBook, windows: pl.DataFrame | None = None) -> HorizonStats:
    """Stats of one horizon's trade rows (see `trades`), beside the base rate of `windows` (the rows of
    `trades(..., every_session=True)` over the same sessions; no base rate without them)."""
    mine = rows.filter(pl.col("horizon") == horizon)
    done = _completed(rows, horizon)
    n = done.height
    pending = mine.filter(pl.col("exit").is_null() & pl.col("filled")).height
    unfilled = mine.filter(~pl.col("filled")).height
    wins = done.filter(pl.col("net") > 0).height
    overlap = pl.col("entry_day") <= pl.col("exit_day").shift(1).over("symbol", order_by="day")
    overlapping = done.filter(overlap.fill_null(False)).height
    alone = independent(done)
    base = _completed(windows, horizon) if windows is not None else done.clear()

    def stat(frame: pl.DataFrame, expr: pl.Expr) -> float | None:
        return float(frame.select(expr).item()) if frame.height else None

    win_rate, ev = wins / n if n else None, stat(done, pl.col("net").mean())
    base_win = stat(base, (pl.col("net") > 0).mean())
    base_ev = stat(base, pl.col("net").mean())
    edge = Edge(horizon, mine.height, n, alone, win_rate, ev, base_win, base_ev)
    evidence = grade(edge, book)
    cap = confidence_cap(evidence, alone, book)
    counts = {"trades": n, "independent": alone, "fires": mine.height, "pending": pending, "unfilled": unfilled,
              "overlapping": overlapping}  # fmt: skip
    said = (*(_counts(counts) if mine.height else ()), *note_parts(edge, evidence, cap, book))
    return HorizonStats(
        horizon,
        mine.height,
        n,
        wins,
        win_rate,
        ev,
        stat(done, pl.col("net").median()),
        stat(done, pl.col("cost").mean()),
        pending,
        unfilled,
        cap,
        english(said),
        overlapping,
        alone,
        base.height,
        independent(base),
        base_win,
        base_ev,
        evidence,
        said,
    )


def split_day(frame: pl.DataFrame, fraction: float) -> date | None:
    """The first out-of-sample session: the scored sessions (by date) split at `fraction`."""
    days = frame.filter(pl.col(SCORE).is_not_null())["day"].unique().sort()
    if days.is_empty():
        return None
    found: date = days[min(int(len(days) * fraction), len(days) - 1)]
    return found


def run_backtest(frame: pl.DataFrame, costs: FeeCosts | None, book: RuleBook | None = None) -> BacktestReport:
    """Backtest the buy signal over `frame` (the output of signals.add_fires, one or many symbols)."""
    book = book or load_rule_tables()
    horizons = [int(h) for h in book.backtest["horizons"]]
    if not horizons or min(horizons) < 1:
        raise user_error(InvalidInput, "backtest_horizons", horizons=horizons)
    rows = trades(frame, horizons, costs)
    windows = trades(frame, horizons, costs, every_session=True)
    split = split_day(frame, book.backtest.number("in_sample_fraction"))

    def before(found: pl.DataFrame) -> pl.DataFrame:
        return found.filter(pl.col("exit_day") < split) if split else found.clear()

    def after(found: pl.DataFrame) -> pl.DataFrame:
        return found.filter(pl.col("day") >= split) if split else found.clear()

    scored = frame.filter(pl.col(SCORE).is_not_null())["day"]
    entries = rows.filter(pl.col("horizon") == horizons[0])["entry_day"].drop_nulls().to_list()
    cost_notes = costs.notes(entries) if costs else (note("backtest.costs.none"),)
    versions = book.versions()
    used = ("trend", "capital", "relative_strength", "volatility", "factor_score", "backtest", "sample_confidence")
    return BacktestReport(
        tuple(frame["symbol"].unique(maintain_order=True).to_list()),
        scored.min() if len(scored) else None,  # type: ignore[arg-type]
        scored.max() if len(scored) else None,  # type: ignore[arg-type]
        len(scored),
        tuple(frame.filter(pl.col(FIRE))["day"].to_list()),
        tuple(summarise(rows, h, book, windows) for h in horizons),
        split,
        tuple(summarise(before(rows), h, book, before(windows)) for h in horizons),
        tuple(summarise(after(rows), h, book, after(windows)) for h in horizons),
        {name: versions[name] for name in used},
        book.backtest.description,
        english(cost_notes),
        cost_notes,
    )
