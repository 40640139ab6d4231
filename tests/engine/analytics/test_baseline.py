"""The decision baseline: examples for each direction and the invariants (a negative EV is never a buy)."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stockbench.analytics.backtest import BacktestReport, HorizonStats
from stockbench.analytics.baseline import decide, decide_from
from stockbench.analytics.rule_tables import load_rule_tables

STRONG = {"win_rate": 0.65, "ev": 0.03, "trades": 40}


def test_a_strong_case_is_a_buy_with_full_confidence_allowed() -> None:
    found = decide(70, **STRONG, capital="inflow", valuation_pct=0.4)
    assert found.direction == "buy" and found.label == "buy/add" and found.buy_candidate
    assert all(c.passed for c in found.checks) and found.confidence_cap == 1.0
    assert found.confidence == pytest.approx(0.5 * 70 / 80 + 0.5 * 0.15 / 0.2, abs=1e-3)
    assert found.table == "decision_baseline v1.0"


def test_each_buy_condition_can_block() -> None:
    blocked = {
        "score": decide(40, **STRONG),
        "win_rate": decide(70, win_rate=0.5, ev=0.03, trades=40),
        "ev": decide(70, win_rate=0.65, ev=0.004, trades=40),
        "trades": decide(70, win_rate=0.65, ev=0.03, trades=9),
        "capital": decide(70, **STRONG, capital="outflow"),
        "valuation": decide(70, **STRONG, valuation_pct=0.95),
    }
    for name, found in blocked.items():
        assert found.direction == "hold" and not found.buy_candidate
        assert [c.name for c in found.checks if not c.passed] == [name]
        assert name in found.reasons[0]


def test_weak_cases_reduce_when_holding_and_avoid_otherwise() -> None:
    assert decide(-40, **STRONG, holding=True).direction == "reduce"
    assert decide(-40, **STRONG).direction == "avoid"
    assert decide(-10, win_rate=0.4, ev=-0.01, trades=40).direction == "avoid"
    assert decide(10, win_rate=0.4, ev=-0.01, trades=40, holding=True).direction == "hold"
    assert decide(None).direction == "hold" and decide(None).confidence == 0.3


def test_without_a_backtest_confidence_is_capped_and_no_buy() -> None:
    found = decide(90)
    assert found.direction == "hold" and found.confidence_cap == 0.3 and found.confidence <= 0.3


def test_decide_from_uses_the_table_horizon() -> None:
    def stats(h: int, ev: float) -> HorizonStats:
        return HorizonStats(h, 40, 40, 30, 0.75, ev, ev, 0.0017, 0, 0, 1.0, "", 0)

    horizons = (stats(5, -0.02), stats(20, 0.04), stats(60, -0.05))
    report = BacktestReport(
        ("X",), date(2020, 1, 1), date(2021, 1, 1), 250, (), horizons, None, horizons, horizons, {}, ""
    )
    assert load_rule_tables().decision_baseline.integer("horizon") == 20
    assert decide_from(report, 70).direction == "buy"
    assert decide_from(None, 70).direction == "hold"


scores = st.one_of(st.none(), st.floats(-150, 150), st.just(float("nan")))
rates = st.one_of(st.none(), st.floats(0, 1))
evs = st.one_of(st.none(), st.floats(-1, 1), st.just(float("nan")), st.just(float("inf")))
percentiles = st.one_of(st.none(), st.floats(0, 1))
capitals = st.sampled_from(["inflow", "neutral", "outflow", "unknown"])


@given(
    score=scores,
    win_rate=rates,
    ev=evs,
    trades=st.integers(-5, 500),
    capital=capitals,
    pct=percentiles,
    holding=st.booleans(),
)
def test_invariants(
    *,
    score: float | None,
    win_rate: float | None,
    ev: float | None,
    trades: int,
    capital: str,
    pct: float | None,
    holding: bool,
) -> None:
    book = load_rule_tables()
    inputs = {"win_rate": win_rate, "ev": ev, "trades": trades, "capital": capital, "valuation_pct": pct}
    found = decide(score, **inputs, holding=holding)
    if ev is None or not ev > 0 or ev == float("inf"):
        assert found.direction != "buy" and not found.buy_candidate, "a non-positive EV is never a buy"
    if trades < book.decision_baseline.integer("buy_min_trades"):
        assert found.direction != "buy"
    assert 0 <= found.confidence <= found.confidence_cap == book.sample_cap(max(trades, 0)) <= 1
    assert (found.direction == "buy") == found.buy_candidate == all(c.passed for c in found.checks)
    if found.direction == "reduce":
        assert holding
    if found.direction == "avoid":
        assert not holding
    assert found == decide(score, **inputs, holding=holding)
