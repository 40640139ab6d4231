"""What a backtest is worth: the signal's edge over the base rate, the count of its independent trades, and the
grade of that evidence (table `sample_confidence`).

The base rate of a horizon is the same trade (enter at the next open, exit at the close h sessions later, the
same costs) taken on every scored session of the same history, whether the signal fired or not: what holding
any window would have earned. A signal is worth citing only by how much it beats that. Trades of one symbol
overlap when a trade enters before the previous one exited; the independent trades are the non-overlapping
ones counted greedily from the first, and they, not the raw count, are the sample.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Literal

import polars as pl

from stockbench.analytics.rule_tables import RuleBook
from stockbench.messages import Note, value_word
from stockbench.messages import note as catalogue_note

# The closed set of grades, weakest first (the report's words for each come from the research catalogue).
Evidence = Literal["never_fired", "no_trades", "no_edge", "thin_edge", "small_sample", "edge"]
EVIDENCE: tuple[Evidence, ...] = ("never_fired", "no_trades", "no_edge", "thin_edge", "small_sample", "edge")


def independent_count(pairs: Iterable[tuple[date, date]]) -> int:
    """Non-overlapping trades of one symbol: (entry_day, exit_day) pairs taken greedily by entry, each next one
    entering after the last one counted exited."""
    count, free_after = 0, None
    for entry, exit_day in sorted(pairs):
        if free_after is None or entry > free_after:
            count, free_after = count + 1, exit_day
    return count


def independent(rows: pl.DataFrame) -> int:
    """Non-overlapping rows (columns symbol, entry_day, exit_day), counted per symbol and summed."""
    if rows.is_empty():
        return 0
    return sum(
        independent_count(zip(part["entry_day"], part["exit_day"], strict=True))
        for part in rows.partition_by("symbol", maintain_order=True)
    )


@dataclass(frozen=True, slots=True)
class Edge:
    """The signal against the base rate over one horizon (fractions; None when either side has no trade)."""

    horizon: int
    fires: int
    trades: int
    independent: int
    win_rate: float | None
    ev: float | None
    base_win_rate: float | None
    base_ev: float | None

    @property
    def ev_edge(self) -> float | None:
        return None if self.ev is None or self.base_ev is None else self.ev - self.base_ev

    @property
    def win_rate_edge(self) -> float | None:
        if self.win_rate is None or self.base_win_rate is None:
            return None
        return self.win_rate - self.base_win_rate


def min_ev_edge(horizon: int, book: RuleBook) -> float:
    """The EV margin over the base rate that counts as an edge at `horizon` (it grows with the horizon)."""
    return horizon * book.sample_confidence.number("min_edge_ev_per_session")


def grade(edge: Edge, book: RuleBook) -> Evidence:
    """The evidence grade: no edge over the base rate caps it whatever the sample; an edge needs enough
    independent trades to count in full."""
    table = book.sample_confidence
    if edge.fires == 0:
        return "never_fired"
    ev_edge, win_edge = edge.ev_edge, edge.win_rate_edge
    if edge.trades == 0 or ev_edge is None or win_edge is None:
        return "no_trades"
    if ev_edge <= 0 or win_edge <= 0:
        return "no_edge"
    if ev_edge < min_ev_edge(edge.horizon, book) or win_edge < table.number("min_edge_win_rate"):
        return "thin_edge"
    if edge.independent < table.integer("full_confidence"):
        return "small_sample"
    return "edge"


def confidence_cap(evidence: Evidence, independent_trades: int, book: RuleBook) -> float:
    """The cap on any confidence resting on the backtest: the sample's cap (independent trades), and at most
    no_edge_cap when the signal shows no clear edge over the base rate."""
    cap = book.sample_cap(independent_trades)
    if evidence in ("small_sample", "edge"):
        return cap
    return min(cap, book.sample_confidence.number("no_edge_cap"))


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2%}"


def note_parts(edge: Edge, evidence: Evidence, cap: float, book: RuleBook) -> tuple[Note, ...]:
    """The evidence in the catalogue's words (stockbench.messages NOTES backtest.*): the signal against the base rate,
    then the verdict with the table it follows; `note` joins them in English."""
    table = book.sample_confidence
    if evidence in ("never_fired", "no_trades"):
        return (catalogue_note(f"backtest.note.{evidence}"),)
    versus = catalogue_note(
        "backtest.note.versus",
        ev=_pct(edge.ev),
        win=_pct(edge.win_rate),
        base_ev=_pct(edge.base_ev),
        base_win=_pct(edge.base_win_rate),
        horizon=edge.horizon,
    )
    verdict = catalogue_note(
        f"backtest.note.{evidence}",
        cap=cap,
        independent=edge.independent,
        table=table.name,
        table_zh=value_word("rule_table", table.name, "zh"),
        version=table.version,
        ev_min=_pct(min_ev_edge(edge.horizon, book)),
        win_min=_pct(table.number("min_edge_win_rate")),
        full=table.integer("full_confidence"),
    )
    return versus, verdict


def note(edge: Edge, evidence: Evidence, cap: float, book: RuleBook) -> str:
    """One English line on the evidence (the CLI's and the JSON's; reports word it from the catalogue)."""
    return "; ".join(part.text("en") for part in note_parts(edge, evidence, cap, book))
