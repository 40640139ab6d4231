"""The decision baseline: a deterministic direction (buy/add, hold, reduce/sell, avoid) and confidence from the
technical score, the backtest's win rate and expected value, money flow and valuation (table `decision_baseline`).

The research model may argue for another action, but this baseline is always computed and shown beside it. A
negative (or zero) expected value is never a buy candidate, whatever the table says.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from stockbench.analytics.backtest import BacktestReport
from stockbench.analytics.rule_tables import RuleBook, Table, load_rule_tables

Direction = Literal["buy", "hold", "reduce", "avoid"]
DIRECTION_LABELS: dict[Direction, str] = {"buy": "buy/add", "hold": "hold", "reduce": "reduce/sell", "avoid": "avoid"}


@dataclass(frozen=True, slots=True)
class Check:
    """One buy-candidate condition: passed or not, the value seen and the threshold it was held to."""

    name: str
    passed: bool
    value: float | str | None
    threshold: str


@dataclass(frozen=True, slots=True)
class Baseline:
    direction: Direction
    confidence: float
    confidence_cap: float
    buy_candidate: bool
    checks: tuple[Check, ...]
    reasons: tuple[str, ...]
    table: str

    @property
    def label(self) -> str:
        return DIRECTION_LABELS[self.direction]


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def _checks(
    t: Table,
    *,
    score: float | None,
    win_rate: float | None,
    ev: float | None,
    trades: int,
    capital: str,
    valuation_pct: float | None,
) -> tuple[Check, ...]:
    min_ev = max(t.number("buy_min_ev"), 0.0)
    blocked = [str(c) for c in t["block_buy_capital"]]
    max_val = t.number("buy_max_valuation_pct")
    return (
        Check(
            "score",
            score is not None and score >= t.number("buy_min_score"),
            score,
            f">= {t.number('buy_min_score'):g}",
        ),
        Check(
            "win_rate",
            win_rate is not None and win_rate >= t.number("buy_min_win_rate"),
            win_rate,
            f">= {t.number('buy_min_win_rate'):g}",
        ),
        Check("ev", ev is not None and ev > min_ev, ev, f"> {min_ev:g} (after costs)"),
        Check("trades", trades >= t.integer("buy_min_trades"), trades, f">= {t.integer('buy_min_trades')}"),
        Check("capital", capital not in blocked, capital, f"not {' or '.join(blocked)}"),
        Check(
            "valuation", valuation_pct is None or valuation_pct <= max_val, valuation_pct, f"<= {max_val:g} or unknown"
        ),
    )


def _negative(score: float | None, ev: float | None, t: Table) -> bool:
    if score is None:
        return False
    return score <= t.number("sell_max_score") or (ev is not None and ev < 0 and score < 0)


def _confidence(direction: Direction, score: float | None, win_rate: float | None, cap: float, t: Table) -> float:
    strength = min(1.0, abs(score) / t.number("score_full")) if score is not None else 0.0
    if direction == "hold":
        return round(cap * (1 - strength), 3)
    edge = 0.0
    if win_rate is not None and (win_rate > 0.5) == (direction == "buy") and win_rate != 0.5:
        edge = min(1.0, abs(win_rate - 0.5) / (t.number("win_rate_full") - 0.5))
    return round(cap * (t.number("score_weight") * strength + t.number("evidence_weight") * edge), 3)


def decide(
    score: float | None,
    *,
    win_rate: float | None = None,
    ev: float | None = None,
    trades: int = 0,
    capital: str = "unknown",
    valuation_pct: float | None = None,
    holding: bool = False,
    book: RuleBook | None = None,
) -> Baseline:
    """The baseline direction and confidence. `win_rate`, `ev` (mean net return, a fraction) and `trades` are the
    backtest's figures at the table's horizon; `capital` the capital state; `valuation_pct` the valuation
    percentile (0..1) when known; `holding` whether the account holds the symbol."""
    book = book or load_rule_tables()
    t = book.decision_baseline
    score, win_rate, ev, valuation_pct = _finite(score), _finite(win_rate), _finite(ev), _finite(valuation_pct)
    trades = max(0, int(trades))
    checks = _checks(
        t, score=score, win_rate=win_rate, ev=ev, trades=trades, capital=capital, valuation_pct=valuation_pct
    )
    candidate = all(c.passed for c in checks) and ev is not None and ev > 0
    direction: Direction = "buy" if candidate else "hold"
    if not candidate and _negative(score, ev, t):
        direction = "reduce" if holding else "avoid"
    cap = book.sample_cap(trades)
    failed = [f"{c.name} {c.value} not {c.threshold}" for c in checks if not c.passed]
    reasons = ["every buy condition passed"] if candidate else [f"not a buy candidate: {'; '.join(failed)}"]
    if direction in ("reduce", "avoid"):
        reasons.append(f"score {score} <= {t.number('sell_max_score'):g}, or a negative EV with a negative score")
    reasons.append(f"confidence capped at {cap} by {trades} backtest trades ({book.sample_confidence.cite()})")
    confidence = _confidence(direction, score, win_rate, cap, t)
    return Baseline(direction, confidence, cap, candidate, checks, tuple(reasons), t.cite())


def decide_from(
    report: BacktestReport | None,
    score: float | None,
    *,
    capital: str = "unknown",
    valuation_pct: float | None = None,
    holding: bool = False,
    book: RuleBook | None = None,
) -> Baseline:
    """`decide` with the backtest figures taken from `report` at the decision_baseline table's horizon."""
    book = book or load_rule_tables()
    horizon = book.decision_baseline.integer("horizon")
    stats = next((s for s in report.horizons if s.horizon == horizon), None) if report else None
    if stats is None:
        return decide(score, capital=capital, valuation_pct=valuation_pct, holding=holding, book=book)
    return decide(
        score,
        win_rate=stats.win_rate,
        ev=stats.ev,
        trades=stats.trades,
        capital=capital,
        valuation_pct=valuation_pct,
        holding=holding,
        book=book,
    )
