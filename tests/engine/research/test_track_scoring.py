"""The track record's arithmetic on hand-made calls and bars, no database: returns against the benchmark, hit
rules by action, suspension and maturity, Brier scores against the base rate, reliability bins, cost per report."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from stockbench.research.track_scoring import Call, Scored, brier, close_on, judge, scenario_outcome, score
from stockbench.research.track_summary import ReliabilityBin, by_action, calibration, costs

D = [date(2024, 1, d) for d in (2, 3, 4, 5, 8, 9, 10, 11, 12, 15, 16, 17)]  # XSHG sessions of January 2024
P = {"up": Decimal("0.5"), "sideways": Decimal("0.3"), "down": Decimal("0.2")}


def call(action: str = "buy", band: str | None = "0.03", entry: date = D[0], **extra: Any) -> Call:
    fields: dict[str, Any] = {"report_id": "R1", "run_id": "RUN1", "symbol": "600519.SH", "market": "CN",
                              "model": "offline", "action": action, "published_at": datetime(2024, 1, 2, tzinfo=UTC),
                              "replay": True, "entry_day": entry, "horizon": 5,
                              "band": None if band is None else Decimal(band), "probabilities": P,
                              "cost": Decimal(0)}  # fmt: skip
    return Call(**(fields | extra))


def series(*values: str, days: list[date] = D) -> list[tuple[date, Decimal]]:
    return list(zip(days, (Decimal(v) for v in values), strict=False))


STOCK = series("10", "10.2", "10.4", "10.6", "10.8", "11")  # +10% from D[0] to D[5]
BENCH = series("100", "101", "102", "103", "104", "105")  # +5%


def test_hits_by_action_follow_the_rules() -> None:
    assert [judge(a, Decimal("0.05"), Decimal("0.03")) for a in ("buy", "add", "reduce", "sell", "avoid", "hold")] == [
        True, True, False, False, False, False]  # fmt: skip
    assert [judge(a, Decimal("-0.01"), Decimal("0.03")) for a in ("buy", "sell", "hold")] == [False, True, True]
    assert judge("sell", Decimal(0), None) is True  # not beating the benchmark, exactly
    assert judge("hold", Decimal("0.01"), None) is None and judge("buy", None, Decimal("0.03")) is None
    # wait: right unless the stock beat the benchmark by the band or more (the rise it missed)
    assert [judge("wait", Decimal(e), Decimal("0.03")) for e in ("0.05", "0.03", "0.01", "-0.2")] == [
        False, False, True, True]  # fmt: skip
    assert judge("wait", Decimal("0.01"), None) is None


def test_a_matured_call_scores_its_return_excess_outcome_and_hit() -> None:
    found = score(call("buy"), D[5], D[8], STOCK, BENCH)
    assert (found.status, found.stock_return, found.benchmark_return, found.excess) == (
        "matured", Decimal("0.1"), Decimal("0.05"), Decimal("0.05"))  # fmt: skip
    assert (found.outcome, found.hit, found.suspended) == ("up", True, False)
    assert score(call("hold", band="0.06"), D[5], D[8], STOCK, BENCH).hit is True
    assert score(call("hold", band="0.05"), D[5], D[8], STOCK, BENCH).hit is False  # |excess| must stay below it
    assert score(call("sell", band=None), D[5], D[8], STOCK, BENCH).outcome is None
    assert scenario_outcome(Decimal("-0.03"), Decimal("0.03")) == "down"
    assert scenario_outcome(Decimal("0.029"), Decimal("0.03")) == "sideways"


def test_suspension_pending_and_unscored_calls() -> None:
    halted = [bar for bar in STOCK if bar[0] not in {D[4], D[5]}]  # no bars on the last two days
    found = score(call(), D[5], D[8], halted, BENCH)
    assert (found.status, found.stock_return, found.suspended) == ("matured", Decimal("0.06"), True)
    assert score(call(), D[5], D[4], STOCK, BENCH).status == "pending"  # the horizon ends after today
    short = score(call(), D[5], D[8], STOCK[:5], BENCH[:5])
    assert (short.status, short.reason) == ("pending", f"the bars end on {D[4]}, before the horizon ends on {D[5]}")
    assert score(call(entry=date(2024, 1, 1)), D[5], D[8], STOCK, BENCH).status == "unscored"
    no_bench = score(call(), D[5], D[8], STOCK, None)
    assert (no_bench.stock_return, no_bench.excess, no_bench.hit, no_bench.outcome) == (Decimal("0.1"), None, None,
                                                                                          "up")  # fmt: skip
    assert close_on(STOCK, date(2024, 1, 7)) == (D[3], Decimal("10.6")) and close_on(STOCK, date(2023, 12, 29)) is None


def test_brier_scores_calibration_and_reliability() -> None:
    assert brier(P, "up") == Decimal("0.38")  # 0.5^2 + 0.3^2 + 0.2^2
    assert brier(P, "down") == Decimal("0.98")  # 0.5^2 + 0.3^2 + 0.8^2
    base = {"up": Decimal("0.2"), "sideways": Decimal("0.6"), "down": Decimal("0.2")}
    scored = [Scored(call(), "matured", outcome="up"), Scored(call(), "matured", outcome="down"),
              Scored(call(), "pending"), Scored(call(probabilities={}), "matured", outcome="up")]  # fmt: skip
    found = calibration(scored, base)
    assert found.n == 2
    assert found.brier == Decimal("0.68")  # (0.38 + 0.98) / 2
    assert found.base_rate_brier == Decimal("1.04")  # (0.8^2+0.6^2+0.2^2 = 1.04) twice
    assert found.skill == Decimal("0.3462")  # 1 - 0.68 / 1.04
    assert found.sample_rate_brier == Decimal("0.5")  # forecasting the sample's own 0.5 / 0 / 0.5 every time
    assert found.observed == {"up": Decimal("0.5"), "sideways": Decimal(0), "down": Decimal("0.5")}
    up = [r for r in found.reliability if r.outcome == "up"]
    assert up == [ReliabilityBin(outcome="up", bin="0.5-0.6", n=2, mean_forecast=Decimal("0.5"),
                                 observed=Decimal("0.5"))]  # fmt: skip
    assert [r for r in found.as_dict()["reliability"] if r["outcome"] == "up"] == [
        {"outcome": "up", "bin": "0.5-0.6", "n": 2, "mean_forecast": Decimal("0.5"), "observed": Decimal("0.5")}
    ]


def test_hit_rates_and_cost_per_report() -> None:
    scored = [
        score(call("buy"), D[5], D[8], STOCK, BENCH),  # hit
        score(call("buy"), D[5], D[8], STOCK, series("100", "110", "120", "120", "120", "120")),  # miss: +10 vs +20
        score(call("avoid"), D[5], D[8], STOCK, BENCH),  # miss
        Scored(call("buy"), "pending"),
    ]
    actions = by_action(scored)
    buy = actions["buy"]
    assert (buy.calls, buy.judged, buy.hits, buy.hit_rate) == (2, 2, 1, Decimal("0.5"))
    assert (buy.mean_return_pct, buy.mean_excess_pct) == (Decimal("10.00"), Decimal("-2.50"))
    assert actions["avoid"].hit_rate == 0 and actions["hold"].hit_rate is None
    assert list(actions) == ["buy", "add", "hold", "reduce", "sell", "wait", "avoid"]
    spent = costs([call(cost=Decimal("0.012")), call(cost=Decimal("0.008"), cost_unknown=1),
                   call(model="m2", cost=Decimal("0.5"))])  # fmt: skip
    assert (spent.reports, spent.total, spent.per_report, spent.calls_of_unknown_cost) == (
        3, Decimal("0.520"), Decimal("0.173333"), 1)  # fmt: skip
    assert spent.by_model["offline"].per_report == Decimal("0.01")
    assert spent.as_dict()["by_model"]["m2"] == {"reports": 1, "total": Decimal("0.5"), "per_report": Decimal("0.5"),
                                                 "calls_of_unknown_cost": 0}  # fmt: skip
