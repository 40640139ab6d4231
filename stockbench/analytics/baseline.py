"""The decision baseline: a deterministic direction (buy, add, hold, wait, reduce, avoid) and confidence from the
technical score, the backtest's win rate and expected value, money flow, valuation and whether the zones make a
tradeable plan (table `decision_baseline`).

The research model may argue for another action, but this baseline is always computed and shown beside it. A
negative (or zero) expected value is never a buy candidate, whatever the table says. An input that is unknown
never counts as a pass: it caps the direction at wait (hold for a holder), and the reasons say which input and
why. Reasons are codes with their values; the report's words for them come from the wording catalogue.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from stockbench.analytics.backtest import BacktestReport
from stockbench.analytics.rule_tables import UNKNOWN, RuleBook, Table, load_rule_tables

Direction = Literal["buy", "add", "hold", "wait", "reduce", "avoid"]
CheckStatus = Literal["pass", "fail", "unknown"]
ReasonCode = Literal["buy_conditions_met", "check_failed", "input_unknown", "no_trade", "weak", "confidence_cap"]
Value = float | int | str | None


@dataclass(frozen=True, slots=True)
class Check:
    """One buy-candidate condition: passed, failed or unknown (an unknown input is never a pass), the value seen
    and the threshold it was held to."""

    name: str
    status: CheckStatus
    value: Value
    threshold: str
    limit: Value = None  # the threshold's number (or the blocked state)
    op: str = ""  # how the value is held to it: >=, >, <= or not
    unit: str = ""  # the unit of value and limit where the words need one ("pct": a percent, "fraction": 0.35 for 35%)

    @property
    def passed(self) -> bool:
        return self.status == "pass"


@dataclass(frozen=True, slots=True)
class Reason:
    """Why the baseline is what it is: a stable code and the values it names (words come from the catalogue)."""

    code: ReasonCode
    values: Mapping[str, Value] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Value]:
        return {"code": self.code, **self.values}


@dataclass(frozen=True, slots=True)
class PlanFacts:
    """What the zones say of the plan they make (stockbench.analytics.zones.Zones): tradeable or not, its
    reward-to-risk against the minimum, and the reason codes when it is not (PLAN_REASONS)."""

    tradeable: bool
    reward_risk: float | None = None
    min_reward_risk: float | None = None
    reasons: tuple[str, ...] = ()
    buy_distance_pct: str | None = None  # how far the buy zone's top lies under the price, in percent (exact)
    stop: str | None = None  # the stop's price (exact)


@dataclass(frozen=True, slots=True)
class Heat:
    """How overheated the session is, for the buy vetoes: the volatility state, the close's distance above the
    250-session average (percent) and the session's turnover (percent of the float). None: the data cannot say
    (an unknown input, never a pass)."""

    volatility: str | None = None
    ma250_distance_pct: float | None = None
    turnover_pct: float | None = None


@dataclass(frozen=True, slots=True)
class Baseline:
    direction: Direction
    confidence: float
    confidence_cap: float
    buy_candidate: bool
    checks: tuple[Check, ...]
    reasons: tuple[Reason, ...]
    table: str
    capped: bool = False  # every known condition passed: only an unknown input or an untradeable plan kept it back

    @property
    def unknown(self) -> tuple[str, ...]:
        """The checks whose input is unknown (each caps the direction at wait)."""
        return tuple(c.name for c in self.checks if c.status == "unknown")


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def _check(  # noqa: PLR0917
    name: str, value: Value, passed: bool | None, op: str, limit: Value, note: str = "", unit: str = ""
) -> Check:
    """A check whose `passed` is None when its input is unknown."""
    status: CheckStatus = "unknown" if passed is None else "pass" if passed else "fail"
    shown = f"{limit:g}" if isinstance(limit, float) else str(limit)
    return Check(name, status, value, f"{op} {shown}{note}", limit, op, unit)


def _checks(
    t: Table,
    *,
    score: float | None,
    win_rate: float | None,
    ev: float | None,
    trades: int,
    capital: str,
    valuation_pct: float | None,
    plan: PlanFacts | None,
    heat: Heat | None = None,
) -> tuple[Check, ...]:
    min_ev, min_score, min_win = (
        max(t.number("buy_min_ev"), 0.0),
        t.number("buy_min_score"),
        t.number("buy_min_win_rate"),
    )
    min_trades, max_val = t.integer("buy_min_trades"), t.number("buy_max_valuation_pct")
    blocked = [str(c) for c in t["block_buy_capital"]]
    pct = valuation_pct
    checks = [
        _check("score", score, None if score is None else score >= min_score, ">=", min_score),
        _check("win_rate", win_rate, None if win_rate is None else win_rate >= min_win, ">=", min_win, unit="fraction"),
        _check("ev", ev, None if ev is None else ev > min_ev, ">", min_ev, " (after costs)", unit="fraction"),
        _check("trades", trades, trades >= min_trades, ">=", min_trades),
        _check("capital", capital, None if capital in ("", UNKNOWN) else capital not in blocked, "not",
               " or ".join(blocked)),
        _check("valuation", pct, None if pct is None else pct <= max_val, "<=", max_val),
    ]  # fmt: skip
    if heat is not None:  # None: the caller has no session facts (no such checks)
        checks += _heat_checks(t, heat)
    if plan is not None:  # None: no zones say (no such check)
        minimum = plan.min_reward_risk if plan.min_reward_risk is not None else "the zones table's minimum"
        checks.append(_check("plan", plan.reward_risk, plan.tradeable, "tradeable: reward-to-risk >=", minimum))
    return tuple(checks)


def _heat_checks(t: Table, heat: Heat) -> list[Check]:
    """The vetoes of an overheated session: a volatility state the table blocks, a close too far above its
    250-session average, a turnover above the table's ceiling. On the 2017-2022 A-share file each of them marks
    sessions whose next 20 sessions trailed the market, before 2021 and from it (bench/signal_study.py)."""
    blocked = [str(c) for c in t["block_buy_volatility"]]
    state = heat.volatility if heat.volatility not in (None, "", UNKNOWN) else None
    most_above, most_turnover = t.number("buy_max_ma250_distance_pct"), t.number("buy_max_turnover_pct")
    above, turnover = _finite(heat.ma250_distance_pct), _finite(heat.turnover_pct)
    return [
        _check("volatility", state, None if state is None else state not in blocked, "not", " or ".join(blocked)),
        _check("extension", above, None if above is None else above <= most_above, "<=", most_above, unit="pct"),
        _check(
            "turnover",
            turnover,
            None if turnover is None else turnover <= most_turnover,
            "<=",
            most_turnover,
            unit="pct",
        ),
    ]


def _negative(score: float | None, ev: float | None, t: Table) -> bool:
    if score is None:
        return False
    return score <= t.number("sell_max_score") or (ev is not None and ev < 0 and score < 0)


def _direction(candidate: bool, negative: bool, holding: bool) -> Direction:
    if candidate:
        return "add" if holding else "buy"
    if negative:
        return "reduce" if holding else "avoid"
    return "hold" if holding else "wait"


def _confidence(direction: Direction, score: float | None, win_rate: float | None, cap: float, t: Table) -> float:
    strength = min(1.0, abs(score) / t.number("score_full")) if score is not None else 0.0
    if direction in ("hold", "wait"):
        return round(cap * (1 - strength), 3)
    bullish = direction in ("buy", "add")
    edge = 0.0
    if win_rate is not None and (win_rate > 0.5) == bullish and win_rate != 0.5:
        edge = min(1.0, abs(win_rate - 0.5) / (t.number("win_rate_full") - 0.5))
    return round(cap * (t.number("score_weight") * strength + t.number("evidence_weight") * edge), 3)


def _capped(checks: tuple[Check, ...], candidate: bool) -> bool:
    held_back = [c for c in checks if c.status == "unknown" or (c.name == "plan" and not c.passed)]
    return not candidate and bool(held_back) and all(c.passed for c in checks if c not in held_back)


def _no_trade(plan: PlanFacts) -> list[Reason]:
    figures: dict[str, Value] = {"reward_risk": plan.reward_risk, "minimum": plan.min_reward_risk}
    figures.update({k: v for k, v in (("distance", plan.buy_distance_pct), ("stop", plan.stop)) if v is not None})
    return [Reason("no_trade", {"plan_reason": code, **figures}) for code in plan.reasons or ("reward_risk_below_min",)]


def _reasons(
    checks: tuple[Check, ...], candidate: bool, direction: Direction, plan: PlanFacts | None, t: Table
) -> list[Reason]:
    if candidate:
        return [Reason("buy_conditions_met")]
    cap = "hold" if direction in ("hold", "reduce") else "wait"
    reasons = []
    for c in checks:
        if c.status == "unknown":
            reasons.append(Reason("input_unknown", {"check": c.name, "value": c.value, "cap": cap}))
        elif c.status == "fail" and c.name == "plan" and plan is not None:
            reasons += _no_trade(plan)
        elif c.status == "fail":
            failed: dict[str, Value] = {"check": c.name, "value": c.value, "op": c.op, "limit": c.limit}
            if c.unit:  # the grounding gate reads value and limit in it
                failed["unit"] = c.unit
            reasons.append(Reason("check_failed", failed))
    if direction in ("reduce", "avoid"):
        reasons.append(Reason("weak", {"threshold": t.number("sell_max_score")}))
    return reasons


def decide(
    score: float | None,
    *,
    win_rate: float | None = None,
    ev: float | None = None,
    trades: int = 0,
    capital: str = UNKNOWN,
    valuation_pct: float | None = None,
    holding: bool = False,
    plan: PlanFacts | None = None,
    book: RuleBook | None = None,
    backtest_cap: float | None = None,
    independent: int | None = None,
    heat: Heat | None = None,
) -> Baseline:
    """The baseline direction and confidence. `win_rate`, `ev` (mean net return, a fraction) and `trades` are the
    backtest's figures at the table's horizon; `capital` the capital state; `valuation_pct` the valuation
    percentile (0..1), None when unknown; `holding` whether the account holds the symbol; `plan` what the zones
    say of the plan (None when there are none: then the position state machine refuses a buy). An unknown input
    is never a pass: it caps the direction at wait (hold for a holder); an untradeable plan is "no trade".
    `backtest_cap` is the backtest's own cap (from its independent trades and its edge over the base rate, see
    analytics/edge.py) and `independent` its count of independent trades; without them the cap is the sample
    table's for `trades`. `heat` holds the session's facts for the overheating vetoes (None: no such checks)."""
    book = book or load_rule_tables()
    t = book.decision_baseline
    score, win_rate, ev, valuation_pct = _finite(score), _finite(win_rate), _finite(ev), _finite(valuation_pct)
    trades = max(0, int(trades))
    checks = _checks(
        t, score=score, win_rate=win_rate, ev=ev, trades=trades, capital=capital, valuation_pct=valuation_pct,
        plan=plan, heat=heat,
    )  # fmt: skip
    candidate = all(c.passed for c in checks) and ev is not None and ev > 0
    direction = _direction(candidate, not candidate and _negative(score, ev, t), holding)
    counted = trades if independent is None else max(0, int(independent))
    cap = book.sample_cap(counted) if backtest_cap is None else min(book.sample_cap(counted), backtest_cap)
    reasons = _reasons(checks, candidate, direction, plan, t)
    reasons.append(Reason("confidence_cap", {"cap": cap, "trades": counted, "table": book.sample_confidence.cite()}))
    confidence = _confidence(direction, score, win_rate, cap, t)
    return Baseline(direction, confidence, cap, candidate, checks, tuple(reasons), t.cite(), _capped(checks, candidate))


def decide_from(
    report: BacktestReport | None,
    score: float | None,
    *,
    capital: str = UNKNOWN,
    valuation_pct: float | None = None,
    holding: bool = False,
    plan: PlanFacts | None = None,
    book: RuleBook | None = None,
    heat: Heat | None = None,
) -> Baseline:
    """`decide` with the backtest figures taken from `report` at the decision_baseline table's horizon."""
    book = book or load_rule_tables()
    horizon = book.decision_baseline.integer("horizon")
    stats = next((s for s in report.horizons if s.horizon == horizon), None) if report else None
    win_rate, ev, trades = (stats.win_rate, stats.ev, stats.trades) if stats is not None else (None, None, 0)
    return decide(
        score, win_rate=win_rate, ev=ev, trades=trades, capital=capital, valuation_pct=valuation_pct,
        holding=holding, plan=plan, book=book, backtest_cap=stats.confidence_cap if stats is not None else None,
        independent=stats.independent if stats is not None else None, heat=heat,
    )  # fmt: skip
