"""Research replayed on history: batches of as-of analyses (offline model) that see only their past, reuse of
finished sessions, the track record of the batch, and the same on real A-shares from the community file."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from stockbench.cli.main import run
from stockbench.errors import InvalidInput
from stockbench.research.replay import Replayer, equal_weighted_index, read_universe, replay_days
from stockbench.research.track_record import TrackRecords
from stockbench.workbench import Workbench
from tests.engine.research.conftest import BUY_SYMBOL, DEMO_SYMBOL

SESSIONS = [date(2026, 8, d) for d in (3, 4, 5, 6, 7, 10, 11)]


def test_sessions_and_universe_files(tmp_path: Path) -> None:
    assert replay_days(SESSIONS, 3) == [SESSIONS[0], SESSIONS[3], SESSIONS[6]]
    assert replay_days(SESSIONS, 1) == SESSIONS
    with pytest.raises(InvalidInput, match="not a number of sessions"):
        replay_days(SESSIONS, 0)
    universe = tmp_path / "universe.txt"
    universe.write_text("# my list\n600519.SH\n000001.SZ, 300750  # ChiNext\n\n", encoding="utf-8")
    assert read_universe(universe) == ["600519.SH", "000001.SZ", "300750"]
    with pytest.raises(InvalidInput, match="cannot read"):
        read_universe(tmp_path / "absent.txt")


def prepared(bench: Workbench, run_id: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(bench.research.journal.stored(run_id, "prepare/facts", "result") or "{}")
    return found


def test_a_replay_sees_only_its_past_and_scores_the_batch(bench: Workbench, capsys: pytest.CaptureFixture[str]) -> None:
    replayer = Replayer(bench.workspace.db, bench.market)
    symbols = [DEMO_SYMBOL, BUY_SYMBOL]
    found = replayer.run(symbols, date(2026, 8, 3), date(2026, 9, 30), clock=bench.clock, every=30, workers=2)
    runs = {(r.symbol, r.day): r for r in found.runs}
    assert found.counts() == {"published": 4, "reused": 0}
    first, second = runs[(DEMO_SYMBOL, date(2026, 8, 3))], runs[(DEMO_SYMBOL, date(2026, 9, 14))]
    as_of = bench.research.report(str(first.report_id)).as_of
    assert as_of is not None and as_of.date() == date(2026, 8, 3)
    later = prepared(bench, str(second.run_id))
    assert later["previous_report"]["report_id"] == first.report_id  # its own past report ...
    assert later["track_record"]["counts"]["matured"] == 1  # ... which had matured by then
    summary = found.record.summary()
    assert summary.counts.reports == summary.counts.matured == 4
    benchmark = summary.benchmarks["CN"]
    assert (benchmark.symbol, benchmark.official) == ("000690.SH", False)  # the demo composite, labelled
    assert "000300.SH has no bars" in benchmark.note
    assert summary.calibration.n == 4 and summary.cost.per_report == 0
    data = found.as_dict(runs=True)
    assert set(data) == {"replay", "track_record", "runs"} and data["replay"]["analyses"] == 4

    earlier = replayer.research_at(date(2026, 7, 1)).analyze(DEMO_SYMBOL)  # before every replayed report
    facts = prepared(bench, earlier.run_id)
    assert facts["previous_report"] is None and facts["track_record"]["counts"]["reports"] == 0

    before = bench.workspace.db.scalar("SELECT count(*) FROM runs")
    bench.close()  # the command opens the workspace itself
    code = run(["--home", str(bench.home), "--json", "replay", "--symbols", f"{DEMO_SYMBOL},{BUY_SYMBOL}",
                "--from", "2026-08-03", "--to", "2026-09-30", "--every", "30", "--runs"])  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["replay"]["counts"] == {"published": 4, "reused": 4}
    assert out["track_record"]["counts"]["matured"] == 4
    with Workbench.open(bench.home) as again:
        assert again.workspace.db.scalar("SELECT count(*) FROM runs") == before  # nothing was analysed again


def test_sessions_before_the_first_bar_are_skipped(bench: Workbench) -> None:
    replayer = Replayer(bench.workspace.db, bench.market)
    found = replayer.run([DEMO_SYMBOL], date(2019, 12, 2), date(2019, 12, 31), clock=bench.clock, every=100)
    [skipped] = found.runs
    assert skipped.status == "skipped" and "no bars of 605903.SH on or before 2019-12-02" in skipped.reason
    assert found.record.summary().counts.reports == 0


REAL = ["600519.SH", "000001.SZ", "601318.SH", "000002.SZ", "300750.SZ"]
INDEX = "000695.SH"


def chained_return(frame: pl.DataFrame, code: str, entry: date, exit_day: date) -> Decimal:
    """The return from `entry` to `exit_day` as the product of close / prev_close (the exchange's reference price
    carries dividends and bonus issues), straight from the community file."""
    rows = frame.filter((pl.col("code") == code) & (pl.col("date") > entry) & (pl.col("date") <= exit_day))
    ratio = Decimal(1)
    for close, reference in rows.select("close", "prev_close").iter_rows():
        ratio *= Decimal(str(close)) / Decimal(str(reference))
    return ratio - 1


@pytest.mark.realdata
@pytest.mark.slow
def test_a_replay_on_real_a_shares_earns_a_track_record(shared_data: Path, tmp_path: Path) -> None:
    source = shared_data / "ashare_daily_2017_2022.parquet"
    codes = [f"{s[-2:].lower()}{s[:6]}" for s in REAL]
    frame = pl.read_parquet(source).filter(pl.col("code").is_in(codes))
    frame.write_parquet(tmp_path / "five.parquet")
    name = "社区数据等权指数（程序构建，非沪深300）"
    with Workbench.open(tmp_path / "ws") as bench:
        bench.data.import_file(tmp_path / "five.parquet")
        bench.data.import_file(equal_weighted_index(source, INDEX, name, tmp_path / "index.csv"))
        TrackRecords(bench.workspace.db, bench.clock, bench.market, bench.data).remember(INDEX)
        found = Replayer(bench.workspace.db, bench.market).run(
            REAL, date(2019, 1, 2), date(2019, 10, 31), clock=bench.clock, every=80
        )
        assert found.counts() == {"published": 15, "reused": 0}
        record = found.record
        summary = record.summary()
        benchmark = summary.benchmarks["CN"]
        assert benchmark.as_dict() == {"symbol": INDEX, "name": name, "official": False, "note": benchmark.note}
        assert summary.counts.matured == 15
        calib = summary.calibration
        assert calib.brier is not None and calib.base_rate_brier is not None
        assert calib.n == 15 and 0 <= calib.brier <= 2 and 0 <= calib.base_rate_brier <= 2
        assert sum(a.judged for a in summary.by_action.values()) == 15
        calendar = bench.market.calendars.calendar("CN")
        for scored in record.scored:  # 601318.SH went ex-dividend inside two of its calls (05-23, 09-04)
            entry = scored.call.entry_day
            assert entry is not None and scored.exit_day == calendar.session_offset(entry, 20)
            code = f"{scored.call.symbol[-2:].lower()}{scored.call.symbol[:6]}"
            expected = chained_return(frame, code, entry, scored.exit_day)
            assert scored.stock_return is not None and abs(scored.stock_return - expected) < Decimal("1e-6")
