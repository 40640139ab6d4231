"""The track record of a workspace: hand-made bars and published reports read back as calls, scored on
adjusted closes against the official benchmark or a labelled stand-in, point in time; the CLI and facts block."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path

import pytest

from stockbench.analytics.calibration_tables import table_for
from stockbench.cli.main import run
from stockbench.clock import ReplayClock
from stockbench.research.track_record import TrackRecords, base_rate, point_in_time_rates
from stockbench.research.track_scoring import Call, brier
from stockbench.store.database import Database
from stockbench.store.settings import FALLBACK_BENCHMARK
from stockbench.workbench import Workbench
from tests.engine.research.test_track_scoring import D, P


# ---- a workspace with hand-made bars and reports ---------------------------------------------------------------
def write_bars(path: Path, symbol: str, rows: list[tuple[date, str, str]]) -> Path:
    """A generic CSV of (day, close, reference price) bars for `symbol`."""
    lines = ["symbol,date,open,high,low,close,prev_close,volume"]
    lines += [f"{symbol},{d},{c},{c},{c},{c},{ref},1000" for d, c, ref in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def add_call(db: Database, run_id: str, action: str, published: datetime, *, horizon: int = 5,
             costs_: tuple[str | None, ...] = (), baseline: dict[str, object] | None = None) -> None:  # fmt: skip
    """A published report with the facts a run records (as-of session, ATR, horizon) and its model calls' costs."""
    facts = {"zones": {"as_of": str(D[0]), "atr14": "0.2", "last": "10"}, "scenarios": {"horizon": horizon},
             "states": {"day": str(D[0])}}  # fmt: skip
    summary: dict[str, object] = {"scenarios": [{"name": k, "probability": str(v)} for k, v in P.items()]}
    if baseline is not None:
        summary["baseline"] = baseline
    with db.transaction() as cur:
        cur.execute("INSERT INTO runs (run_id, symbol, kind, question, model, account, as_of, handbook_version, "
                    "plan, cost_ceiling, approved, created_at) "
                    "VALUES (?, '600519.SH', 'full', NULL, 'offline', NULL, ?, 'hb', '{}', NULL, false, ?)",
                    [run_id, published, published])  # fmt: skip
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
        add_call(db, "RUN-HOLD", "hold", at, costs_=(None,),
                 baseline={"direction": "hold", "capped": True, "unknown": ["capital"]})  # fmt: skip
        add_call(db, "RUN-SELL", "sell", at, horizon=40)  # matures in March: pending
        add_call(db, "RUN-LATER", "buy", ReplayClock.as_of(D[9]).now())  # published after the clock: unseen
        yield bench


def records(bench: Workbench) -> TrackRecords:
    return TrackRecords(bench.workspace.db, bench.clock, bench.market, bench.data)


def test_the_record_of_a_workspace_uses_adjusted_closes_and_the_official_benchmark(lab_home: Workbench) -> None:
    found = records(lab_home).compute()
    summary = found.summary()
    assert summary.benchmarks["CN"].symbol == "000300.SH" and summary.benchmarks["CN"].official
    assert summary.counts.as_dict() == {"reports": 3, "matured": 2, "pending": 1, "unscored": 0, "replayed": 3}
    calls = {c["run_id"]: c for c in found.as_dict()["calls"]}
    # 10.00 -> 10.00 unadjusted, but the 0.50 dividend makes it +5% on adjusted closes; CSI 300 +1%.
    assert (calls["RUN-BUY"]["return_pct"], calls["RUN-BUY"]["benchmark_pct"], calls["RUN-BUY"]["excess_pct"]) == (
        Decimal("5.00"), Decimal("1.00"), Decimal("4.00"))  # fmt: skip
    assert calls["RUN-BUY"]["exit_day"] == D[5] and calls["RUN-BUY"]["hit"] is True
    band = Decimal("0.5") * Decimal("0.2") / 10 * Decimal(5).sqrt()  # 2.24%: the hold missed by 4%
    assert calls["RUN-HOLD"]["band_pct"] == (band * 100).quantize(Decimal("0.01")) and calls["RUN-HOLD"]["hit"] is False
    assert calls["RUN-HOLD"]["outcome"] == "up" and calls["RUN-SELL"]["status"] == "pending"
    # only an unknown input held the hold's baseline back: a buy candidate; a summary without a baseline is none
    assert (calls["RUN-HOLD"]["baseline"], calls["RUN-HOLD"]["candidate"]) == ("hold", True)
    assert (calls["RUN-BUY"]["baseline"], calls["RUN-BUY"]["candidate"]) == (None, False)
    assert summary.hit_rate == Decimal("0.5")
    rate, source = base_rate(table_for(D[0]).path)  # the table research as of the calls' day uses
    calib = summary.calibration
    assert (calib.n, calib.brier) == (2, Decimal("0.38"))
    assert calib.base_rate_source == f"point in time: {table_for(D[0]).path.name}: {source}, 3 call(s)"
    assert calib.base_rate_brier == brier(rate, "up").quantize(Decimal("0.0001"))
    assert (summary.cost.total, summary.cost.per_report, summary.cost.calls_of_unknown_cost) == (
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
    assert found.summary().hit_rate is None and found.summary().calibration.n == 2
    lab_home.workspace.settings.set(FALLBACK_BENCHMARK, {"CN": "000001.SH"})
    stand_in = records(lab_home).benchmark("CN")
    assert (stand_in.symbol, stand_in.official) == ("000001.SH", False) and "instead" in stand_in.note
    assert records(lab_home).compute().summary().hit_rate == Decimal("0.5")


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


def _call(report_id: str, entry_day: date | None) -> Call:
    return Call(report_id, f"RUN-{report_id}", "600519.SH", "CN", "offline", "buy",
                datetime(2026, 1, 1, tzinfo=UTC), True, entry_day, 20, None, {}, Decimal(0))  # fmt: skip


def test_each_calls_base_rate_comes_from_a_table_built_before_its_day() -> None:
    """A call as of 2020-06-01 is judged against the table ending 2019-12-31, one as of 2021-03-01 against the
    one ending 2020-12-31; a call before every table's end is disclosed as look-ahead; none reads the full file's
    table (to 2022-01-14), which the Brier base rate used for every call before."""
    calls = [_call("A", date(2020, 6, 1)), _call("B", date(2021, 3, 1)), _call("C", date(2017, 6, 1))]
    rates, source = point_in_time_rates(calls)
    tables = {c.report_id: table_for(c.entry_day) for c in calls}
    assert tables["A"].data_to == date(2019, 12, 31) and tables["B"].data_to == date(2020, 12, 31)
    assert not tables["A"].look_ahead and tables["C"].look_ahead
    assert rates["A"] == base_rate(tables["A"].path)[0] != rates["B"] == base_rate(tables["B"].path)[0]
    assert "scenario_table_2019.json" in source and "scenario_table_2020.json" in source
    assert "look-ahead" in source and "scenario_table.json" not in source
