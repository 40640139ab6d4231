"""What happened to one published call: its return against the benchmark, hit or miss by its action's rule,
and its scenario outcome. Pure functions over typed records (no database); the rules are in track_record.py."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Literal

from stockbench.analytics import position_states
from stockbench.analytics.calibration import OUTCOMES
from stockbench.clock import Market

Status = Literal["matured", "pending", "unscored"]
ACTIONS: tuple[str, ...] = position_states.ACTIONS  # the closed set of actions, in display order
RULES: dict[str, str] = {
    "buy": "beats the benchmark",
    "add": "beats the benchmark",
    "hold": "stays within the call's band of the benchmark",
    "reduce": "does not beat the benchmark",
    "sell": "does not beat the benchmark",
    "wait": "does not beat the benchmark by the call's band or more (the missed rise)",
    "avoid": "does not beat the benchmark",
}
PCT = Decimal("0.01")
Closes = Sequence[tuple[date, Decimal]]


@dataclass(frozen=True)
class Call:
    """A published report as the track record reads it."""

    report_id: str
    run_id: str
    symbol: str
    market: Market
    model: str
    action: str
    published_at: datetime
    replay: bool
    entry_day: date | None
    horizon: int
    band: Decimal | None
    probabilities: Mapping[str, Decimal]
    cost: Decimal
    cost_unknown: int = 0
    baseline: str | None = None  # the program's decision baseline direction (None in older summaries)
    candidate: bool = False  # a buy candidate: every known buy condition passed, a tradeable plan included, and only
    # an unknown input held the baseline back (the summary's baseline `capped`), or the baseline is a buy


@dataclass(frozen=True)
class Scored:
    """A call with what happened to it."""

    call: Call
    status: Status
    reason: str = ""
    exit_day: date | None = None
    stock_return: Decimal | None = None
    benchmark_return: Decimal | None = None
    suspended: bool = False
    outcome: str | None = None
    hit: bool | None = None

    @property
    def excess(self) -> Decimal | None:
        if self.stock_return is None or self.benchmark_return is None:
            return None
        return self.stock_return - self.benchmark_return

    def as_dict(self) -> dict[str, Any]:
        c = self.call
        return {
            "report_id": c.report_id,
            "run_id": c.run_id,
            "symbol": c.symbol,
            "model": c.model,
            "action": c.action,
            "entry_day": c.entry_day,
            "exit_day": self.exit_day,
            "horizon": c.horizon,
            "status": self.status,
            "reason": self.reason,
            "return_pct": pct(self.stock_return),
            "benchmark_pct": pct(self.benchmark_return),
            "excess_pct": pct(self.excess),
            "band_pct": pct(c.band),
            "suspended_at_exit": self.suspended,
            "outcome": self.outcome,
            "probabilities": {k: str(v) for k, v in c.probabilities.items()},
            "hit": self.hit,
            "baseline": c.baseline,
            "candidate": c.candidate,
        }


def pct(value: Decimal | None) -> Decimal | None:
    """A fraction as a percentage to two places (None stays None)."""
    return None if value is None else (value * 100).quantize(PCT)


def close_on(closes: Closes, day: date) -> tuple[date, Decimal] | None:
    """The last (day, close) on or before `day` (`closes` in day order)."""
    found = None
    for bar_day, close in closes:
        if bar_day > day:
            break
        found = (bar_day, close)
    return found


def scenario_outcome(ret: Decimal, band: Decimal) -> str:
    """up, down or sideways by the scenarios rule table's definition."""
    return "up" if ret >= band else "down" if ret <= -band else "sideways"


def brier(probabilities: Mapping[str, Decimal], outcome: str) -> Decimal:
    """The multi-class Brier score: the sum over outcomes of (p - happened)^2 (0 is perfect, 2 the worst)."""
    return sum(((probabilities[o] - (1 if o == outcome else 0)) ** 2 for o in OUTCOMES), Decimal(0))


def judge(action: str, excess: Decimal | None, band: Decimal | None) -> bool | None:
    """Whether the action was right by the hit rules (None when it cannot be told)."""
    if excess is None:
        return None
    if action in {"buy", "add"}:
        return excess > 0
    if action in {"reduce", "sell", "avoid"}:
        return excess <= 0
    if action == "hold" and band is not None:
        return abs(excess) < band
    if action == "wait" and band is not None:
        return excess < band
    return None


def _relative(bench: Closes | None, entry: date, exit_day: date) -> tuple[Decimal | None, str]:
    if bench is None:
        return None, "no benchmark"
    start, end = close_on(bench, entry), close_on(bench, exit_day)
    if start is None or end is None or bench[-1][0] < exit_day:
        return None, "the benchmark's bars do not cover the call"
    return end[1] / start[1] - 1, ""


def score(call: Call, exit_day: date, today: date, stock: Closes, bench: Closes | None) -> Scored:
    """What happened to `call` by `today`, from the stock's and the benchmark's forward-adjusted closes."""
    assert call.entry_day is not None
    if exit_day > today:
        return Scored(call, "pending", f"the horizon ends on {exit_day}", exit_day)
    data_end = max([closes[-1][0] for closes in (stock, bench) if closes], default=None)
    if data_end is None or data_end < exit_day:
        return Scored(call, "pending", f"the bars end on {data_end}, before the horizon ends on {exit_day}", exit_day)
    start, end = close_on(stock, call.entry_day), close_on(stock, exit_day)
    if start is None or end is None or start[0] != call.entry_day:
        return Scored(call, "unscored", f"no close of {call.symbol} on its as-of session {call.entry_day}", exit_day)
    ret = end[1] / start[1] - 1
    bench_ret, note = _relative(bench, call.entry_day, exit_day)
    excess = None if bench_ret is None else ret - bench_ret
    return Scored(
        call,
        "matured",
        note,
        exit_day,
        ret,
        bench_ret,
        suspended=end[0] != exit_day,
        outcome=None if call.band is None else scenario_outcome(ret, call.band),
        hit=judge(call.action, excess, call.band),
    )
