"""The decision baseline: examples for each direction and the invariants (a backtest of enough trades that loses is
never a buy; an unknown input is never a pass and caps the direction at wait, saying which input)."""

from __future__ import annotations

import math
from datetime import date
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stockbench.analytics.backtest import BacktestReport, HorizonStats
from stockbench.analytics.baseline import Heat, PlanFacts, decide, decide_from
from stockbench.analytics.rule_tables import load_rule_tables

# a quiet, healthy uptrend: normal volatility, 20% over ma250, turnover 1.5%, 2% over ma20, up 8% in 20 sessions
SETUP = Heat("normal", 20.0, 1.5, 2.0, 8.0)
STRONG: dict[str, Any] = {"win_rate": 0.65, "ev": 0.03, "trades": 40, "capital": "inflow", "valuation_pct": 0.4,
                          "heat": SETUP}  # fmt: skip
SETUP_CHECKS = ["volatility", "uptrend", "extension", "over_ma20", "near_ma20", "run", "run_up", "turnover"]


def codes(found: Any) -> list[str]:
    return [r.code for r in found.reasons]


def test_a_strong_case_is_a_buy_with_full_confidence_allowed() -> None:
    found = decide(70, **STRONG)
    assert found.direction == "buy" and found.buy_candidate and not found.capped
    assert all(c.passed for c in found.checks) and found.confidence_cap == 1.0
    # v1.4: the setup's measured edge (0.455 - 0.431 of sessions beating the market, over 0.2) and the win-rate edge
    assert found.confidence == pytest.approx(0.5 * (0.455 - 0.431) / 0.2 + 0.5 * 0.15 / 0.2, abs=1e-3)
    assert found.table == "decision_baseline v1.5"
    assert codes(found) == ["buy_conditions_met", "confidence_cap"]
    assert [c.name for c in found.checks] == [*SETUP_CHECKS, "ev", "capital", "valuation"]


def test_the_score_is_no_buy_condition_since_v1_3() -> None:
    """The quiet-uptrend setup decides a buy, not the score: score >= 50 trailed the market from 2021 on the
    2017-2022 file (bench/signal_study.py). A weak score still makes the weak cases."""
    assert decide(10, **STRONG).direction == "buy"
    assert decide(10, **STRONG, holding=True).direction == "add"
    assert decide(70, **{**STRONG, "heat": Heat("normal", 60.0, 1.5, 2.0, 8.0)}).direction == "wait"
    assert decide(-40, **{**STRONG, "heat": Heat("normal", 5.0, 1.5, -2.0, -8.0)}).direction == "avoid"


def test_a_buy_s_confidence_reads_the_setup_s_measured_edge_not_the_score() -> None:
    """v1.4: the score decides no buy, so a buy's confidence does not rise with it; it reads the setup's record (its
    out-of-sample share of sessions beating the market against every session's), and the buy's reason cites that
    record with its period."""
    t = load_rule_tables().decision_baseline
    weak, strong = decide(10, **STRONG), decide(79, **STRONG)
    assert weak.direction == strong.direction == "buy" and weak.confidence == strong.confidence
    assert decide(79, **STRONG, holding=True).confidence == strong.confidence  # an add reads the same
    edge = (t.number("setup_beat_rate") - t.number("base_beat_rate")) / (t.number("win_rate_full") - 0.5)
    no_backtest_edge = decide(79, **{**STRONG, "win_rate": 0.45})  # a win rate on the wrong side counts 0
    assert no_backtest_edge.confidence == pytest.approx(t.number("setup_weight") * edge, abs=1e-3)
    reason = strong.reasons[0]
    assert reason.code == "buy_conditions_met"
    assert reason.values == {"setup_beat_rate": 0.455, "base_beat_rate": 0.431, "setup_excess_pct": 0.79,
                             "base_excess_pct": 0.29, "measured_from": "2021-01-01"}  # fmt: skip
    # the weak side still reads the score's strength
    off = {**STRONG, "heat": Heat("normal", 5.0, 1.5, -2.0, -8.0), "win_rate": 0.4}
    assert decide(-40, **off).confidence < decide(-80, **off).confidence


def test_a_holder_s_buy_is_an_add_and_a_holder_s_neutral_is_a_hold() -> None:
    assert decide(70, **STRONG, holding=True).direction == "add"
    off = {**STRONG, "heat": Heat("normal", 5.0, 1.5, 2.0, 8.0)}
    assert decide(40, **off, holding=True).direction == "hold"
    assert decide(40, **off).direction == "wait"  # nothing held and nothing to do


def test_each_buy_condition_can_block() -> None:
    blocked = {
        "ev": decide(70, **{**STRONG, "ev": -0.004}),
        "capital": decide(70, **{**STRONG, "capital": "outflow"}),
        "valuation": decide(70, **{**STRONG, "valuation_pct": 0.95}),
    }
    for name, found in blocked.items():
        assert found.direction == "wait" and not found.buy_candidate and not found.capped
        assert [c.name for c in found.checks if not c.passed] == [name]
        assert found.reasons[0].code == "check_failed" and found.reasons[0].values["check"] == name


def test_the_backtest_vetoes_only_with_enough_trades() -> None:
    """A backtest of 10 trades or more that does not make money after costs vetoes; fewer trades cannot (as a
    condition the per-symbol backtest lowered the setup's excess from 2021); no backtest at all is unknown."""
    from stockbench.research.wording.actions import baseline_reason

    vetoed = decide(70, **{**STRONG, "ev": 0.0, "trades": 10})
    assert vetoed.direction == "wait" and [c.name for c in vetoed.checks if not c.passed] == ["ev"]
    reason = vetoed.reasons[0].as_dict()
    assert reason == {"code": "check_failed", "check": "ev", "value": 0.0, "op": ">", "limit": 0.0, "unit": "fraction",
                      "trades": 10}  # fmt: skip
    assert baseline_reason(reason, "zh") == "回测 10 笔交易扣费后的期望收益为 0%，不为正：规则表不买入"
    assert "over 10 trades is 0%, not positive" in baseline_reason(reason, "en")
    assert decide(70, **{**STRONG, "ev": -0.02, "trades": 9}).direction == "buy"  # 9 trades cannot veto
    unknown = decide(70, **{**STRONG, "ev": None, "trades": 0})
    assert unknown.direction == "wait" and unknown.capped and unknown.unknown == ("ev",)


def test_the_backtest_vetoes_only_while_its_signal_fires_and_says_so_beside_the_base_rate() -> None:
    """v1.5: the backtest is the score's signal's record, so it says nothing of a session the signal does not fire
    on (the setups the 1.3 veto removed while not firing beat the market like the rest, +0.75% from 2021; those it
    removed while firing trailed it, -1.82%: bench/signal_study.py). A veto is said with the signal firing, the
    independent trades and the base rate of the same horizon; no backtest at all is still unknown."""
    from stockbench.research.wording.actions import baseline_reason

    losing = {**STRONG, "ev": -0.0078, "trades": 33, "independent": 23, "base_ev": 0.0107}
    assert decide(70, **losing, fired=False).direction == "buy"  # not firing: the backtest says nothing of today
    vetoed = decide(70, **losing, fired=True)
    assert vetoed.direction == "wait" and [c.name for c in vetoed.checks if not c.passed] == ["ev"]
    reason = vetoed.reasons[0].as_dict()
    assert reason["independent"] == 23 and reason["base_ev"] == 0.0107 and reason["trades"] == 33
    assert baseline_reason(reason, "zh") == (
        "今日因子信号触发，其回测 33 笔交易（独立 23 笔）扣费后的期望收益为 -0.78%，不为正（同一期限任意窗口 1.07%）"
        "：规则表不买入"
    )
    assert "fires today" in (said := baseline_reason(reason, "en")) and "(23 independent)" in said
    assert "any window of the same horizon: 1.07%" in said
    assert decide(70, **{**losing, "ev": None, "trades": 0}, fired=None).unknown == ("ev",)  # no backtest


def test_decide_from_reads_whether_the_signal_fires() -> None:
    stats = HorizonStats(20, 40, 33, 15, 0.45, -0.0078, -0.01, 0.0017, 0, 0, 1.0, "", 0, independent=23,
                         base_ev=0.0107)  # fmt: skip
    report = BacktestReport(("X",), date(2020, 1, 1), date(2021, 1, 1), 250, (), (stats,), None, (stats,), (stats,),
                            {}, "")  # fmt: skip
    firm = {"capital": "inflow", "valuation_pct": 0.4, "heat": SETUP}
    assert decide_from(report, 70, **firm, fired=False).direction == "buy"
    vetoed = decide_from(report, 70, **firm, fired=True)
    assert vetoed.direction == "wait" and vetoed.reasons[0].values["base_ev"] == 0.0107
    assert decide_from(None, 70, **firm, fired=True).unknown == ("ev",)


CASES = {  # the check that fails, and a session that fails it alone
    "volatility": Heat("high", 20.0, 1.5, 2.0, 8.0),
    "uptrend": Heat("normal", 8.0, 1.5, 2.0, 8.0),
    "extension": Heat("normal", 56.0, 1.5, 2.0, 8.0),
    "over_ma20": Heat("normal", 20.0, 1.5, -1.2, 8.0),
    "near_ma20": Heat("normal", 20.0, 1.5, 6.5, 8.0),
    "run": Heat("normal", 20.0, 1.5, 2.0, -3.0),
    "run_up": Heat("normal", 20.0, 1.5, 2.0, 24.0),
    "turnover": Heat("normal", 20.0, 7.2, 2.0, 8.0),
}
SAID = {"volatility": "high or extreme", "uptrend": "8.0% against the 250-day MA",
        "extension": "56.0% above", "over_ma20": "below the 20-day MA (-1.2%)", "near_ma20": "6.5% above the 20-day",
        "run": "-3.0%, below the 0.0% a buy needs", "run_up": "rose 24.0%", "turnover": "7.2%"}  # fmt: skip


@pytest.mark.parametrize("name", list(CASES))
def test_a_session_outside_the_setup_is_no_buy_and_says_why(name: str) -> None:
    """The setup (decision_baseline 1.3): volatility low or normal, the close 10-50% above its 250-session average
    (600519 stood 56% above it on 2021-02-18), 0-5% above its 20-session average, a 20-session return of 0-20%,
    turnover at most 3% of the float. Each bound fails alone and is said in the reader's words."""
    from stockbench.research.wording.actions import baseline_reason

    found = decide(70, **{**STRONG, "heat": CASES[name]})
    assert found.direction == "wait" and not found.buy_candidate and not found.capped
    assert [c.name for c in found.checks if not c.passed] == [name]
    reason = found.reasons[0].as_dict()
    assert reason["code"] == "check_failed" and reason["check"] == name
    zh, en = baseline_reason(reason, "zh"), baseline_reason(reason, "en")
    assert not any(ch.isascii() and ch.isalpha() for ch in zh), zh
    assert SAID[name] in en, en


def test_the_setup_s_limits_themselves_pass() -> None:
    assert decide(70, **{**STRONG, "heat": Heat("low", 10.0, 3.0, 0.0, 0.0)}).direction == "buy"
    assert decide(70, **{**STRONG, "heat": Heat("normal", 50.0, 3.0, 5.0, 20.0)}).direction == "buy"


@pytest.mark.parametrize("heat", [Heat(None, 20.0, 1.5, 2.0, 8.0), Heat("unknown", 20.0, 1.5, 2.0, 8.0),
                                  Heat("normal", None, 1.5, 2.0, 8.0), Heat("normal", 20.0, None, 2.0, 8.0),
                                  Heat("normal", 20.0, 1.5, 2.0, float("nan"))])  # fmt: skip
def test_an_unknown_session_input_caps_at_wait_as_any_unknown(heat: Heat) -> None:
    found = decide(70, **{**STRONG, "heat": heat})
    assert found.direction == "wait" and found.capped and len(found.unknown) in (1, 2)  # a distance is two bounds
    assert found.reasons[0].code == "input_unknown"


def test_without_session_facts_the_setup_is_unknown_and_caps() -> None:
    found = decide(70, **{**STRONG, "heat": None})
    assert found.direction == "wait" and found.capped and set(found.unknown) == set(SETUP_CHECKS)


@pytest.mark.parametrize(
    ("unknown", "change"),
    [
        ("valuation", {"valuation_pct": None}),
        ("capital", {"capital": "unknown"}),
        ("ev", {"ev": float("nan")}),
    ],
)
def test_an_unknown_input_is_never_a_pass_and_caps_the_baseline_at_wait(unknown: str, change: dict[str, Any]) -> None:
    found = decide(70, **{**STRONG, **change})
    assert found.direction == "wait" and not found.buy_candidate and found.capped
    (check,) = [c for c in found.checks if not c.passed]
    assert (check.name, check.status, check.passed) == (unknown, "unknown", False)
    assert found.unknown == (unknown,)
    reason = found.reasons[0].as_dict()
    assert reason == {"code": "input_unknown", "check": unknown, "value": check.value, "cap": "wait"}
    held = decide(70, **{**STRONG, **change}, holding=True)
    assert held.direction == "hold" and held.reasons[0].values["cap"] == "hold"  # no add either


def test_600519_on_its_2021_02_18_high_is_no_buy() -> None:
    """The known bad case: the all-time-high reversal day, 56% above ma250, valuation history a gap."""
    found = decide(62.5, win_rate=0.6667, ev=0.0505, trades=42, capital="neutral", valuation_pct=None,
                   heat=Heat("normal", 56.27, 0.4, 6.1, 17.0))  # fmt: skip
    assert found.direction == "wait" and not found.buy_candidate and found.unknown == ("valuation",)
    assert {c.name for c in found.checks if c.status == "fail"} == {"extension", "near_ma20"}


def test_an_untradeable_plan_is_no_trade_with_its_reasons() -> None:
    plan = PlanFacts(False, 0.47, 1.5, ("reward_risk_below_min",))
    found = decide(70, **STRONG, plan=plan)
    assert found.direction == "wait" and not found.buy_candidate and not found.capped  # no trade: a known fail
    assert found.reasons[0].as_dict() == {"code": "no_trade", "plan_reason": "reward_risk_below_min",
                                          "reward_risk": 0.47, "minimum": 1.5}  # fmt: skip
    far = PlanFacts(False, 2.0, 1.5, ("buy_out_of_reach", "stop_hit"), "8.20", "49.17")
    assert [r.as_dict() for r in decide(70, **STRONG, plan=far).reasons[:2]] == [
        {"code": "no_trade", "plan_reason": "buy_out_of_reach", "reward_risk": 2.0, "minimum": 1.5, "distance": "8.20",
         "stop": "49.17"},
        {"code": "no_trade", "plan_reason": "stop_hit", "reward_risk": 2.0, "minimum": 1.5, "distance": "8.20",
         "stop": "49.17"}]  # fmt: skip
    assert decide(70, **STRONG, plan=plan, holding=True).direction == "hold"
    assert decide(70, **STRONG, plan=PlanFacts(True, 2.1, 1.5)).direction == "buy"
    assert [c.name for c in decide(70, **STRONG).checks][-1] == "valuation"  # no zones said: no plan check


def test_capped_means_only_unknown_inputs_held_a_buy_back_with_a_tradeable_plan() -> None:
    """A buy candidate held back only by what the data cannot say is `capped` (the track record counts it a buy
    candidate); a plan the zones call not tradeable is no trade whatever the data could add, so an unknown input
    beside it does not make it one (decision_baseline 1.5; the signal study's candidates need a tradeable plan too)."""
    unknown = {**STRONG, "valuation_pct": None}
    assert decide(70, **unknown, plan=PlanFacts(True, 2.1, 1.5)).capped
    assert not decide(70, **unknown, plan=PlanFacts(False, 0.47, 1.5, ("reward_risk_below_min",))).capped
    assert decide(70, **unknown).capped  # no zones said: no plan check


def test_weak_cases_reduce_when_holding_and_avoid_otherwise() -> None:
    off = {**STRONG, "heat": Heat("normal", 5.0, 1.5, -2.0, -8.0)}
    assert decide(-40, **off, holding=True).direction == "reduce"
    assert decide(-40, **off).direction == "avoid"
    assert decide(-10, win_rate=0.4, ev=-0.01, trades=40).direction == "avoid"
    assert decide(10, win_rate=0.4, ev=-0.01, trades=40, holding=True).direction == "hold"
    assert decide(None).direction == "wait" and decide(None).confidence == 0.3
    assert decide(-40, **{**off, "valuation_pct": None}).direction == "avoid"  # an unknown does not stop a sell


def test_without_a_backtest_confidence_is_capped_and_no_buy() -> None:
    found = decide(90, capital="inflow", valuation_pct=0.4, heat=SETUP)
    assert found.direction == "wait" and found.confidence_cap == 0.3 and found.confidence <= 0.3
    assert set(found.unknown) == {"ev"} and found.capped


def test_decide_from_uses_the_table_horizon() -> None:
    def stats(h: int, ev: float) -> HorizonStats:
        return HorizonStats(h, 40, 40, 30, 0.75, ev, ev, 0.0017, 0, 0, 1.0, "", 0)

    horizons = (stats(5, -0.02), stats(20, 0.04), stats(60, -0.05))
    report = BacktestReport(
        ("X",), date(2020, 1, 1), date(2021, 1, 1), 250, (), horizons, None, horizons, horizons, {}, ""
    )
    assert load_rule_tables().decision_baseline.integer("horizon") == 20
    assert decide_from(report, 70, capital="inflow", valuation_pct=0.4, heat=SETUP, fired=True).direction == "buy"
    assert decide_from(report, 70, heat=SETUP, fired=True).direction == "wait"  # capital and valuation unknown
    assert decide_from(None, 70, heat=SETUP, fired=True).direction == "wait"


def test_the_baseline_cap_is_the_backtests_own_from_independent_trades_and_edge() -> None:
    """40 trades, 6 of them independent, and no edge over the base rate: the cap is the backtest's (the sample
    table's for 6 trades, and at most no_edge_cap), never the one 40 raw trades would give."""
    book = load_rule_tables()
    stats = HorizonStats(20, 40, 40, 30, 0.75, 0.04, 0.04, 0.0017, 0, 0, 0.2, "", 0, independent=6)
    report = BacktestReport(
        ("X",), date(2020, 1, 1), date(2021, 1, 1), 250, (), (stats,), None, (stats,), (stats,), {}, ""
    )
    found = decide_from(report, 70, capital="inflow", valuation_pct=0.4, book=book, heat=SETUP, fired=True)
    assert found.confidence_cap == min(book.sample_cap(6), 0.2) < book.sample_cap(40)
    assert 0 <= found.confidence <= found.confidence_cap
    reason = next(r for r in found.reasons if r.code == "confidence_cap")
    assert reason.values["trades"] == 6


scores = st.one_of(st.none(), st.floats(-150, 150), st.just(float("nan")))
rates = st.one_of(st.none(), st.floats(0, 1))
evs = st.one_of(st.none(), st.floats(-1, 1), st.just(float("nan")), st.just(float("inf")))
percentiles = st.one_of(st.none(), st.floats(0, 1))
capitals = st.sampled_from(["inflow", "neutral", "outflow", "unknown"])
plans = st.one_of(st.none(), st.builds(PlanFacts, st.booleans(), st.floats(0, 5)))
pcts = st.one_of(st.none(), st.floats(-60, 120), st.just(float("nan")))
heats = st.one_of(
    st.none(),
    st.just(SETUP),
    st.builds(
        Heat,
        st.sampled_from([None, "low", "normal", "high", "extreme"]),
        pcts,
        st.one_of(st.none(), st.floats(0, 10)),
        pcts,
        pcts,
    ),
)


@given(
    score=scores,
    win_rate=rates,
    ev=evs,
    trades=st.integers(-5, 500),
    capital=capitals,
    pct=percentiles,
    holding=st.booleans(),
    plan=plans,
    heat=heats,
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
    plan: PlanFacts | None,
    heat: Heat | None,
) -> None:
    book = load_rule_tables()
    t = book.decision_baseline
    inputs = {"win_rate": win_rate, "ev": ev, "trades": trades, "capital": capital, "valuation_pct": pct, "heat": heat}
    found = decide(score, **inputs, holding=holding, plan=plan)
    bullish = found.direction in ("buy", "add")
    if ev is None or math.isnan(ev) or math.isinf(ev) or (ev <= 0 and trades >= t.integer("buy_min_trades")):
        assert not bullish and not found.buy_candidate, "no backtest, or one of enough trades that loses, is no buy"
    if (
        heat is None
        or heat.ma250_distance_pct is None
        or not (
            t.number("buy_min_ma250_distance_pct") <= heat.ma250_distance_pct <= t.number("buy_max_ma250_distance_pct")
        )
    ):
        assert not bullish, "no buy outside the setup"
    if found.unknown or (plan is not None and not plan.tradeable):
        assert not bullish, "an unknown input or an untradeable plan caps the baseline at wait"
        assert {r.values["check"] for r in found.reasons if r.code == "input_unknown"} == set(found.unknown)
    assert 0 <= found.confidence <= found.confidence_cap == book.sample_cap(max(trades, 0)) <= 1
    assert bullish == found.buy_candidate == all(c.passed for c in found.checks)
    known = [c for c in found.checks if c.status != "unknown"]
    assert found.capped == (bool(found.unknown) and all(c.passed for c in known)), "capped: only unknowns held it back"
    assert (found.direction in ("add", "hold", "reduce")) == holding
    assert found == decide(score, **inputs, holding=holding, plan=plan)
