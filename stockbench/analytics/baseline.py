"""The decision baseline: a deterministic direction (buy, add, hold, wait, reduce, avoid) and confidence from the
session's setup (a quiet, healthy uptrend), the backtest's expected value, money flow, valuation and whether the zones
make a tradeable plan (table `decision_baseline`).

The research model may argue for another action, but this baseline is always computed and shown beside it. A
backtest of at least the table's minimum of trades whose expected value is not positive is never a buy candidate. An
input that is unknown never counts as a pass: it caps the direction at wait (hold for a holder), and the reasons say
which input and why. Reasons are codes with their values; the report's words for them come from the wording
catalogue.

Since v1.3 the technical score is not a buy condition: on the 2017-2022 A-share file the sessions scoring at least 50
trailed the market from 2021 (-0.40% over 20 sessions), while the quiet-uptrend setup beat it in every year 2018-2021
(bench/signal_study.py). The score still marks the weak cases (reduce, avoid) and sets their confidence's strength
and that of hold and wait; since v1.4 a buy's (or add's) confidence reads the setup's measured edge instead (its
out-of-sample share of sessions beating the market against every session's), and the buy's reason cites it.
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
    """The as-of session's facts the buy's setup reads: the volatility state, the close's distance above its 250-
    and 20-session averages (percent), the 20-session return (percent) and the session's turnover (percent of the
    float). None: the data cannot say (an unknown input, never a pass)."""

    volatility: str | None = None
    ma250_distance_pct: float | None = None
    turnover_pct: float | None = None
    ma20_distance_pct: float | None = None
    run_pct: float | None = None

    @classmethod
    def of(cls, volatility: str | None, prices: Mapping[str, object] | None) -> Heat:
        """The session's facts from its volatility state and its price facts (analytics.price_facts, as a record's
        `as_dict` or the research block that stores it); a missing or empty figure is unknown."""

        def number(key: str) -> float | None:
            value = (prices or {}).get(key)
            return None if value in (None, "") else float(str(value))

        return cls(volatility, number("ma250_distance_pct"), number("turnover_pct"), number("ma20_distance_pct"),
                   number("change_20_pct"))  # fmt: skip


@dataclass(frozen=True, slots=True)
class Baseline:
    direction: Direction
    confidence: float
    confidence_cap: float
    buy_candidate: bool
    checks: tuple[Check, ...]
    reasons: tuple[Reason, ...]
    table: str
    capped: bool = False  # every known condition passed, the plan included: only an unknown input kept it back

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
    ev: float | None,
    trades: int,
    capital: str,
    valuation_pct: float | None,
    plan: PlanFacts | None,
    heat: Heat | None = None,
    fired: bool | None = True,
) -> tuple[Check, ...]:
    min_trades, max_val = t.integer("buy_min_trades"), t.number("buy_max_valuation_pct")
    blocked = [str(c) for c in t["block_buy_capital"]]
    pct = valuation_pct
    checks = [*setup_checks(t, heat or Heat()), _ev_check(ev, trades, min_trades, fired)]
    checks += [
        _check("capital", capital, None if capital in ("", UNKNOWN) else capital not in blocked, "not",
               " or ".join(blocked)),
        _check("valuation", pct, None if pct is None else pct <= max_val, "<=", max_val),
    ]  # fmt: skip
    if plan is not None:  # None: no zones say (no such check)
        minimum = plan.min_reward_risk if plan.min_reward_risk is not None else "the zones table's minimum"
        checks.append(_check("plan", plan.reward_risk, plan.tradeable, "tradeable: reward-to-risk >=", minimum))
    return tuple(checks)


def _ev_check(ev: float | None, trades: int, min_trades: int, fired: bool | None) -> Check:
    """The backtest's veto (v1.5): when the score's signal fires on the session, a backtest of at least `min_trades`
    trades whose EV after costs is not positive is no buy. Fewer trades cannot veto (the report shows the EV with its
    count). A signal that does not fire makes the backtest say nothing of the session: no veto (on the 2017-2022 file
    the setups it vetoed while not firing beat the market as the setup as a whole did, +0.75% against +0.79% from
    2021, while those it vetoed while firing trailed it, -1.82%). No backtest at all (`fired` None), or a firing
    signal without an EV, is unknown. As a condition (win rate >= 0.55, EV > 0.005, 10 trades: v1.2) the per-symbol
    backtest lowered the setup's excess from 2021."""
    note = f" (after costs, vetoes from {min_trades} trades when the signal fires)"
    if fired is False:
        return _check("ev", ev, True, ">", 0.0, note, "fraction")
    passed = None if ev is None or fired is None else trades < min_trades or ev > 0
    return _check("ev", ev, passed, ">", 0.0, note, "fraction")


def _range(name_low: str, name_high: str, value: float | None, low: float, high: float) -> list[Check]:
    """Two checks holding `value` (a percent) between `low` and `high`; both unknown when `value` is."""
    return [
        _check(name_low, value, None if value is None else value >= low, ">=", low, unit="pct"),
        _check(name_high, value, None if value is None else value <= high, "<=", high, unit="pct"),
    ]


def setup_checks(t: Table, heat: Heat) -> list[Check]:
    """The setup a buy needs (v1.3): a quiet, healthy uptrend. The close 10-50% above its 250-session average (a
    long uptrend, not an overheated one: 600519 stood 56% above it on 2021-02-18), 0-5% above its 20-session
    average (not stretched, not broken), a 20-session return of 0-20%, volatility low or normal and turnover at most
    3% of the float. On the 2017-2022 A-share file these sessions beat the market over the next 20 sessions in each
    year 2018-2021 (bench/signal_study.py)."""
    blocked = [str(c) for c in t["block_buy_volatility"]]
    state = heat.volatility if heat.volatility not in (None, "", UNKNOWN) else None
    above, near, run = _finite(heat.ma250_distance_pct), _finite(heat.ma20_distance_pct), _finite(heat.run_pct)
    turnover, most_turnover = _finite(heat.turnover_pct), t.number("buy_max_turnover_pct")
    return [
        _check("volatility", state, None if state is None else state not in blocked, "not", " or ".join(blocked)),
        *_range("uptrend", "extension", above, t.number("buy_min_ma250_distance_pct"),
                t.number("buy_max_ma250_distance_pct")),
        *_range("over_ma20", "near_ma20", near, t.number("buy_min_ma20_distance_pct"),
                t.number("buy_max_ma20_distance_pct")),
        *_range("run", "run_up", run, t.number("buy_min_run_pct"), t.number("buy_max_run_pct")),
        _check("turnover", turnover, None if turnover is None else turnover <= most_turnover, "<=", most_turnover,
               unit="pct"),
    ]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Setup:
    """The buy's setup on one session alone (the scan's flag): its checks, whether it holds (None while an input is
    unknown and none failed: unknown is never a pass), and the names of the checks that failed or are unknown."""

    symbol: str
    day: str
    checks: tuple[Check, ...]

    @property
    def failed(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.checks if c.status == "fail")

    @property
    def unknown(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.checks if c.status == "unknown")

    @property
    def holds(self) -> bool | None:
        if self.failed:
            return False
        return None if self.unknown else True

    def as_dict(self) -> dict[str, object]:
        checks = [{"name": c.name, "status": c.status, "value": c.value, "op": c.op, "limit": c.limit}
                  for c in self.checks]  # fmt: skip
        return {"day": self.day, "holds": self.holds, "failed": list(self.failed), "unknown": list(self.unknown),
                "checks": checks}  # fmt: skip


def setup_of(symbol: str, day: str, heat: Heat, book: RuleBook | None = None) -> Setup:
    """The setup's checks of `symbol` on `day` from the session's `heat` (decision_baseline's bounds)."""
    t = (book or load_rule_tables()).decision_baseline
    return Setup(symbol, day, tuple(setup_checks(t, heat)))


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


def setup_edge(t: Table) -> float:
    """The setup's measured edge on the confidence's scale: its out-of-sample share of sessions that beat the market
    less the share of every session, over the win-rate edge that counts in full (win_rate_full - 0.5), within 0..1."""
    edge = (t.number("setup_beat_rate") - t.number("base_beat_rate")) / (t.number("win_rate_full") - 0.5)
    return min(1.0, max(0.0, edge))


def _confidence(direction: Direction, score: float | None, win_rate: float | None, cap: float, t: Table) -> float:
    strength = min(1.0, abs(score) / t.number("score_full")) if score is not None else 0.0
    if direction in ("hold", "wait"):
        return round(cap * (1 - strength), 3)
    bullish = direction in ("buy", "add")
    edge = 0.0
    if win_rate is not None and (win_rate > 0.5) == bullish and win_rate != 0.5:
        edge = min(1.0, abs(win_rate - 0.5) / (t.number("win_rate_full") - 0.5))
    if bullish:  # the score decides no buy (v1.3), so its strength is no evidence for one: the setup's measured edge is
        return round(cap * (t.number("setup_weight") * setup_edge(t) + t.number("evidence_weight") * edge), 3)
    return round(cap * (t.number("score_weight") * strength + t.number("evidence_weight") * edge), 3)


def _setup_figures(t: Table) -> dict[str, Value]:
    """The setup's measured record beside every session's, as the table cites it (the buy's reason carries it)."""
    keys = ("setup_beat_rate", "base_beat_rate", "setup_excess_pct", "base_excess_pct")
    return {key: t.number(key) for key in keys} | {"measured_from": str(t["setup_measured_from"])}


def _capped(checks: tuple[Check, ...], candidate: bool) -> bool:
    """Whether only unknown inputs kept a buy back: every known check passed, a tradeable plan included (a plan the
    zones call not tradeable is no trade, whatever the data could add, so it is no buy candidate)."""
    unknown = [c for c in checks if c.status == "unknown"]
    return not candidate and bool(unknown) and all(c.passed for c in checks if c not in unknown)


def _no_trade(plan: PlanFacts) -> list[Reason]:
    figures: dict[str, Value] = {"reward_risk": plan.reward_risk, "minimum": plan.min_reward_risk}
    figures.update({k: v for k, v in (("distance", plan.buy_distance_pct), ("stop", plan.stop)) if v is not None})
    return [Reason("no_trade", {"plan_reason": code, **figures}) for code in plan.reasons or ("reward_risk_below_min",)]


def _reasons(  # noqa: PLR0917
    checks: tuple[Check, ...],
    candidate: bool,
    direction: Direction,
    plan: PlanFacts | None,
    t: Table,
    sample: Mapping[str, Value],
) -> list[Reason]:
    if candidate:
        return [Reason("buy_conditions_met", _setup_figures(t))]
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
            if c.name == "ev":  # the sample that lets the backtest veto, its independent part and the base rate
                failed.update({k: v for k, v in sample.items() if v is not None})
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
    fired: bool | None = True,
    base_ev: float | None = None,
) -> Baseline:
    """The baseline direction and confidence. `win_rate`, `ev` (mean net return, a fraction) and `trades` are the
    backtest's figures at the table's horizon; `capital` the capital state; `valuation_pct` the valuation
    percentile (0..1), None when unknown; `holding` whether the account holds the symbol; `plan` what the zones
    say of the plan (None when there are none: then the position state machine refuses a buy). An unknown input
    is never a pass: it caps the direction at wait (hold for a holder); an untradeable plan is "no trade".
    `backtest_cap` is the backtest's own cap (from its independent trades and its edge over the base rate, see
    analytics/edge.py) and `independent` its count of independent trades; without them the cap is the sample
    table's for `trades`. `heat` holds the session's facts the setup reads (None: none known, so the setup's checks
    are unknown and cap the direction). `fired` says whether the score's signal fires on the session (the backtest
    vetoes only then; None: no backtest, unknown) and `base_ev` is the base rate's EV at the same horizon (every
    session's window, after the same costs), which an EV veto is said beside."""
    book = book or load_rule_tables()
    t = book.decision_baseline
    score, win_rate, ev, valuation_pct = _finite(score), _finite(win_rate), _finite(ev), _finite(valuation_pct)
    trades = max(0, int(trades))
    checks = _checks(t, ev=ev, trades=trades, capital=capital, valuation_pct=valuation_pct, plan=plan, heat=heat,
                     fired=fired)  # fmt: skip
    candidate = all(c.passed for c in checks)
    direction = _direction(candidate, not candidate and _negative(score, ev, t), holding)
    counted = trades if independent is None else max(0, int(independent))
    cap = book.sample_cap(counted) if backtest_cap is None else min(book.sample_cap(counted), backtest_cap)
    sample: dict[str, Value] = {"trades": trades, "independent": independent, "base_ev": _finite(base_ev)}
    reasons = _reasons(checks, candidate, direction, plan, t, sample)
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
    fired: bool,
) -> Baseline:
    """`decide` with the backtest figures taken from `report` at the decision_baseline table's horizon; `fired` says
    whether the score's signal fires on the session (the backtest vetoes only then; no `report` is unknown)."""
    book = book or load_rule_tables()
    horizon = book.decision_baseline.integer("horizon")
    stats = next((s for s in report.horizons if s.horizon == horizon), None) if report else None
    win_rate, ev, trades = (stats.win_rate, stats.ev, stats.trades) if stats is not None else (None, None, 0)
    return decide(
        score, win_rate=win_rate, ev=ev, trades=trades, capital=capital, valuation_pct=valuation_pct,
        holding=holding, plan=plan, book=book, backtest_cap=stats.confidence_cap if stats is not None else None,
        independent=stats.independent if stats is not None else None, heat=heat,
        fired=None if report is None else fired, base_ev=stats.base_ev if stats is not None else None,
    )  # fmt: skip
