"""The track record's arithmetic on hand-made calls and bars: returns on adjusted closes against the benchmark,
hit rules by action, Brier scores against the base rate, cost per report, maturity, and the benchmark fallback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from stockbench.cli.main import run
from stockbench.clock import ReplayClock
from stockbench.research.track_record import (
    FALLBACK_SETTING,
    Call,
    Scored,
    TrackRecords,
    base_rate,
    brier,
    by_action,
    calibration,
    close_on,
    costs,
    judge,
    scenario_outcome,
    score,
)
from stockbench.store.database import Database
from stockbench.workbench import Workbench

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
    assert found["n"] == 2
    assert found["brier"] == Decimal("0.68")  # (0.38 + 0.98) / 2
    assert found["base_rate_brier"] == Decimal("1.04")  # (0.8^2+0.6^2+0.2^2 = 1.04) twice
    assert found["skill"] == Decimal("0.3462")  # 1 - 0.68 / 1.04
    assert found["sample_rate_brier"] == Decimal("0.5")  # forecasting the sample's own 0.5 / 0 / 0.5 every time
    assert found["observed"] == {"up": Decimal("0.5"), "sideways": Decimal(0), "down": Decimal("0.5")}
    up = [r for r in found["reliability"] if r["outcome"] == "up"]
    assert up == [{"outcome": "up", "bin": "0.5-0.6", "n": 2, "mean_forecast": Decimal("0.5"),
                   "observed": Decimal("0.5")}]  # fmt: skip


def test_hit_rates_and_cost_per_report() -> None:
    scored = [
        score(call("buy"), D[5], D[8], STOCK, BENCH),  # hit
        score(call("buy"), D[5], D[8], STOCK, series("100", "110", "120", "120", "120", "120")),  # miss: +10 vs +20
        score(call("avoid"), D[5], D[8], STOCK, BENCH),  # miss
        Scored(call("buy"), "pending"),
    ]
    actions = by_action(scored)
    assert {k: actions["buy"][k] for k in ("calls", "judged", "hits", "hit_rate")} == {
        "calls": 2, "judged": 2, "hits": 1, "hit_rate": Decimal("0.5")}  # fmt: skip
    assert (actions["buy"]["mean_return_pct"], actions["buy"]["mean_excess_pct"]) == (
        Decimal("10.00"),
        Decimal("-2.50"),
    )
    assert actions["avoid"]["hit_rate"] == 0 and actions["hold"]["hit_rate"] is None
    spent = costs([call(cost=Decimal("0.012")), call(cost=Decimal("0.008"), cost_unknown=1),
                   call(model="m2", cost=Decimal("0.5"))])  # fmt: skip
    assert (spent["reports"], spent["total"], spent["per_report"], spent["calls_of_unknown_cost"]) == (
        3, Decimal("0.520"), Decimal("0.173333"), 1)  # fmt: skip
    assert spent["by_model"]["offline"]["per_report"] == Decimal("0.01")


# ---- a workspace with hand-made bars and reports ---------------------------------------------------------------
def write_bars(path: Path, symbol: str, rows: list[tuple[date, str, str]]) -> Path:
    """A generic CSV of (day, close, reference price) bars for `symbol`."""
    lines = ["symbol,date,open,high,low,close,prev_close,volume"]
    lines += [f"{symbol},{d},{c},{c},{c},{c},{ref},1000" for d, c, ref in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def add_call(db: Database, run_id: str, action: str, published: datetime, *, horizon: int = 5,
             costs_: tuple[str | None, ...] = ()) -> None:  # fmt: skip
    """A published report with the facts a run records (as-of session, ATR, horizon) and its model calls' costs."""
    facts = {"zones": {"as_of": str(D[0]), "atr14": "0.2", "last": "10"}, "scenarios": {"horizon": horizon},
             "states": {"day": str(D[0])}}  # fmt: skip
    summary = {"scenarios": [{"name": k, "probability": str(v)} for k, v in P.items()]}
    with db.transaction() as cur:
        cur.execute("INSERT INTO runs VALUES (?, '600519.SH', 'full', NULL, 'offline', NULL, ?, 'hb', '{}', NULL, "
                    "false, ?)", [run_id, published, published])  # fmt: skip
        cur.execute("INSERT INTO reports (report_id, run_id, symbol, published_at, as_of, title, action, model, "
                    "offline, handbook_version, markdown, draft, frozen, summary) "
                    "VALUES (?, ?, '600519.SH', ?, ?, 't', ?, 'offline', true, 'hb', '', '{}', '{}', ?)",
                    [f"R-{run_id}", run_id, published, published, action, json.dumps(summary)])  # fmt: skip
        events = [("preprocess/facts", "program", json.dumps(facts), None)]
        events += [(f"decide/model/{i}", "model_call", "{}", c) for i, c in enumerate(costs_, 1)]
        for seq, (key, kind, payload, cost) in enumerate(events, 1):
            cur.execute("INSERT INTO run_events (run_id, key, phase, kind, seq, payload, outcome, cost, logged_at) "
                        "VALUES (?, ?, 'result', ?, ?, ?, 'ok', ?, ?)",
                        [run_id, key, kind, seq, payload, cost, published])  # fmt: skip


@pytest.fixture
def lab_home(home: Path, tmp_path: Path) -> Iterator[Workbench]:
    """Bars of 600519.SH (a 0.50 dividend on its third session) and of CSI 300, and four calls, seen on D[8]."""
    stock = [(D[0], "10.00", "9.90"), (D[1], "10.50", "10.00"), (D[2], "10.00", "10.00")]  # D[2]: ex-dividend 0.50
    stock += [(d, "10.00", "10.00") for d in D[3:]]
    index = [(d, str(3000 + 6 * i), str(3000 + 6 * (i - 1))) for i, d in enumerate(D)]  # D[5]: 3030, +1%
    with Workbench.open(home, clock=ReplayClock.as_of(D[8])) as bench:
        bench.data.import_file(write_bars(tmp_path / "stock.csv", "600519.SH", stock))
        bench.data.import_file(write_bars(tmp_path / "index.csv", "000300.SH", index))
        db = bench.workspace.db
        at = ReplayClock.as_of(D[0]).now()
        add_call(db, "RUN-BUY", "buy", at, costs_=("0.012", "0.008"))
        add_call(db, "RUN-HOLD", "hold", at, costs_=(None,))
        add_call(db, "RUN-SELL", "sell", at, horizon=40)  # matures in March: pending
        add_call(db, "RUN-LATER", "buy", ReplayClock.as_of(D[9]).now())  # published after the clock: unseen
        yield bench


def records(bench: Workbench) -> TrackRecords:
    return TrackRecords(bench.workspace.db, bench.clock, bench.market, bench.data)


def test_the_record_of_a_workspace_uses_adjusted_closes_and_the_official_benchmark(lab_home: Workbench) -> None:
    found = records(lab_home).compute()
    summary = found.summary()
    assert summary["benchmarks"]["CN"]["symbol"] == "000300.SH" and summary["benchmarks"]["CN"]["official"]
    assert summary["counts"] == {"reports": 3, "matured": 2, "pending": 1, "unscored": 0, "replayed": 3}
    calls = {c["run_id"]: c for c in found.as_dict()["calls"]}
    # 10.00 -> 10.00 unadjusted, but the 0.50 dividend makes it +5% on adjusted closes; CSI 300 +1%.
    assert (calls["RUN-BUY"]["return_pct"], calls["RUN-BUY"]["benchmark_pct"], calls["RUN-BUY"]["excess_pct"]) == (
        Decimal("5.00"), Decimal("1.00"), Decimal("4.00"))  # fmt: skip
    assert calls["RUN-BUY"]["exit_day"] == D[5] and calls["RUN-BUY"]["hit"] is True
    band = Decimal("0.5") * Decimal("0.2") / 10 * Decimal(5).sqrt()  # 2.24%: the hold missed by 4%
    assert calls["RUN-HOLD"]["band_pct"] == (band * 100).quantize(Decimal("0.01")) and calls["RUN-HOLD"]["hit"] is False
    assert calls["RUN-HOLD"]["outcome"] == "up" and calls["RUN-SELL"]["status"] == "pending"
    assert summary["hit_rate"] == Decimal("0.5")
    rate, _ = base_rate()
    calib = summary["calibration"]
    assert (calib["n"], calib["brier"]) == (2, Decimal("0.38"))
    assert calib["base_rate_brier"] == brier(rate, "up").quantize(Decimal("0.0001"))
    assert (summary["cost"]["total"], summary["cost"]["per_report"], summary["cost"]["calls_of_unknown_cost"]) == (
        Decimal("0.02"), Decimal("0.006667"), 1)  # fmt: skip
    earlier = TrackRecords(lab_home.workspace.db, ReplayClock.as_of(D[3]), lab_home.market, lab_home.data)
    assert {s.status for s in earlier.compute().scored} == {"pending"}  # point in time


def test_without_the_official_index_a_labelled_stand_in_or_nothing(lab_home: Workbench) -> None:
    db = lab_home.workspace.db
    with db.transaction() as cur:
        cur.execute("UPDATE bars SET symbol = '000001.SH' WHERE symbol = '000300.SH'")  # the SSE Composite instead
    none = records(lab_home).benchmark("CN")
    assert none.symbol is None and "000300.SH has no bars" in none.note and "not computed" in none.note
    found = records(lab_home).compute()
    assert found.summary()["hit_rate"] is None and found.summary()["calibration"]["n"] == 2
    lab_home.workspace.settings.set(FALLBACK_SETTING, {"CN": "000001.SH"})
    stand_in = records(lab_home).benchmark("CN")
    assert (stand_in.symbol, stand_in.official) == ("000001.SH", False) and "instead" in stand_in.note
    assert records(lab_home).compute().summary()["hit_rate"] == Decimal("0.5")


def test_the_cli_and_the_facts_block(lab_home: Workbench, capsys: pytest.CaptureFixture[str]) -> None:
    facts = records(lab_home).facts("600519.SH")
    assert facts["counts"]["matured"] == 2 and facts["by_action"]["buy"]["hit_rate"] == "1.0000"
    assert facts["calibration"]["brier"] == "0.3800" and [r["action"] for r in facts["recent"]] == ["buy", "hold"]
    json.dumps(facts)  # plain JSON: it becomes evidence
    home = lab_home.home
    lab_home.close()
    assert run(["--home", str(home), "--as-of", str(D[8]), "--json", "track-record", "--symbol", "600519"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"as_of", "benchmarks", "counts", "hit_rate", "by_action", "calibration", "cost", "calls"}
    assert data["counts"]["matured"] == 2 and data["by_action"]["buy"]["hit_rate"] == "1.0000"
