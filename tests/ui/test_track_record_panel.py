"""The track record screen on the demo market with offline analyses replayed on past sessions (matured by the
demo's clock) and one current report (pending): its rows and figures are the engine's `TrackRecords` output, it
filters by symbol, an earlier clock sees only what had matured by then, and the missing benchmark is noted."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from PySide6.QtWidgets import QTableView
from pytestqt.qtbot import QtBot

from stockbench.clock import MARKET_TZ, ReplayClock
from stockbench.research.replay import Replayer
from stockbench.research.track_summary import TrackRecord
from stockbench.workbench import Workbench
from ui.context import AppContext
from ui.screens.track_record.track_record_actions import RecordView
from ui.screens.track_record.track_record_panel import TrackRecordPanel

HOLD, BUY = "605903.SH", "301903.SZ"  # the demo's baseline hold and buy
REPLAY = (date(2026, 8, 3), date(2026, 9, 30), 30)  # as of 2026-08-03 and 2026-09-14: matured by 2026-11-27
TIMEOUT = 20_000


@pytest.fixture(scope="session")
def record_master(demo_master: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four replayed offline reports (two per symbol) and one current report on the demo's last session."""
    folder = tmp_path_factory.getbasetemp() / "track-record-master"
    shutil.copytree(demo_master, folder, ignore=shutil.ignore_patterns("*.lock", "*.wal"))
    with Workbench.open(folder, kind="demo") as bench:
        start, end, every = REPLAY
        found = Replayer(bench.workspace.db, bench.market).run([HOLD, BUY], start, end, clock=bench.clock, every=every)
        assert found.counts() == {"published": 4, "reused": 0}
        assert bench.research.analyze(HOLD).status == "published"
    return folder


@pytest.fixture
def home(record_master: Path, tmp_path: Path) -> Path:
    target = tmp_path / "record"
    shutil.copytree(record_master, target, ignore=shutil.ignore_patterns("*.lock", "*.wal"))
    return target


@pytest.fixture
def opened(home: Path) -> Iterator[Callable[..., Workbench]]:
    """Open the copy (on the demo's pinned clock unless another is given); closed at teardown."""
    benches: list[Workbench] = []

    def open_(**options: object) -> Workbench:
        benches.append(Workbench.open(home, kind="demo", **options))  # type: ignore[arg-type]
        return benches[-1]

    yield open_
    for bench in benches:
        bench.close()


def shown(qtbot: QtBot, ctx: AppContext) -> tuple[TrackRecordPanel, RecordView]:
    panel = TrackRecordPanel(ctx)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitUntil(lambda: panel.view is not None, timeout=TIMEOUT)
    assert panel.view is not None
    return panel, panel.view


def pct(value: Decimal | None) -> str:
    return "—" if value is None else f"{value:+.2f}%"


def assert_rows_match(panel: TrackRecordPanel, record: TrackRecord) -> None:
    """The matured-calls table shows the engine's matured calls, cell for cell."""
    expected = [s.as_dict() for s in record.matured()]
    assert [r.report_id for r in panel.calls.rows] == [c["report_id"] for c in expected]
    for at, call in enumerate(expected):
        cells = {k: panel.calls.text(at, k) for k in ("symbol", "day", "horizon", "return", "benchmark", "excess")}
        assert cells == {"symbol": call["symbol"], "day": call["entry_day"].isoformat(),
                         "horizon": str(call["horizon"]), "return": pct(call["return_pct"]),
                         "benchmark": pct(call["benchmark_pct"]), "excess": pct(call["excess_pct"])}  # fmt: skip
        assert panel.calls.text(at, "hit") == {True: "Hit", False: "Miss", None: "—"}[call["hit"]]


def test_the_panel_shows_the_engines_record(
    qtbot: QtBot, opened: Callable[..., Workbench], make_context: Callable[[Workbench], AppContext]
) -> None:
    bench = opened()
    panel, view = shown(qtbot, make_context(bench))
    record = bench.track_records.compute()
    summary = record.summary()
    assert summary.counts.as_dict() == {"reports": 5, "matured": 4, "pending": 1, "unscored": 0, "replayed": 5}
    assert view.summary == summary
    assert_rows_match(panel, record)
    assert {r.symbol for r in panel.calls.rows} == {HOLD, BUY} and all(r.hit is not None for r in panel.calls.rows)

    by_action = {a: d for a, d in summary.by_action.items() if d.calls}
    assert [r.action for r in panel.by_action.rows] == list(by_action)
    for at, (action, found) in enumerate(by_action.items()):
        assert [panel.by_action.text(at, k) for k in ("calls", "judged", "hits", "mean_excess")] == [
            str(found.calls), str(found.judged), str(found.hits), pct(found.mean_excess_pct)]  # fmt: skip
        assert found.hit_rate is not None, action
        assert panel.by_action.text(at, "hit_rate") == f"{found.hit_rate * 100:.1f}%", action

    figures = {k: label.text() for k, label in panel.figures.items()}
    assert figures["counts"] == "5 reports: 4 matured, 1 pending, 0 unscored"
    hits = sum(d.hits for d in by_action.values())
    assert summary.hit_rate is not None
    assert figures["hit_rate"] == f"{summary.hit_rate * 100:.1f}% ({hits} hits of 4 judged calls)"
    calib = summary.calibration
    assert calib.n == 4 and calib.brier is not None
    assert figures["calibration"] == (f"Brier score {calib.brier} against {calib.base_rate_brier} for the base "
                                      f"rate (skill {calib.skill}; 4 calls)")  # fmt: skip
    assert summary.cost.per_report == 0 and figures["cost"] == "0 per report (0 in all over 5 reports)"
    assert figures["as_of"] == f"{bench.clock.now().astimezone(MARKET_TZ['CN']):%Y-%m-%d %H:%M} Beijing time"
    assert figures["as_of"].startswith("2026-11-27")

    note = panel.benchmark_note.text()
    assert summary.benchmarks["CN"].symbol == "000690.SH" and not summary.benchmarks["CN"].official
    assert note.startswith("⚠ ") and "000690.SH" in note and "stand-in" in note and "000300.SH" in note
    assert panel.status_label.text() == ""

    table = panel.findChild(QTableView, "maturedCalls")
    assert isinstance(table, QTableView) and table.model() is panel.calls
    with qtbot.waitSignal(panel.report_requested, timeout=TIMEOUT) as requested:
        table.doubleClicked.emit(panel.calls.index(0, 0))
    assert requested.args == [panel.calls.rows[0].report_id]


def test_the_record_filters_by_symbol(
    qtbot: QtBot, opened: Callable[..., Workbench], make_context: Callable[[Workbench], AppContext]
) -> None:
    bench = opened()
    ctx = make_context(bench)
    panel, _view = shown(qtbot, ctx)
    with qtbot.waitSignal(panel.refreshed, timeout=TIMEOUT) as refreshed:
        panel.show_symbol("301903")
    record = bench.track_records.compute(symbol="301903")  # as typed
    assert refreshed.args[0].summary == record.summary()
    assert_rows_match(panel, record)
    assert {r.symbol for r in panel.calls.rows} == {BUY} and len(panel.calls.rows) == 2
    assert panel.figures["counts"].text() == "2 reports: 2 matured, 0 pending, 0 unscored"

    panel.symbol_edit.setText("not a symbol")
    panel.show_button.click()
    qtbot.waitUntil(lambda: "not a symbol" in panel.status_label.text(), timeout=TIMEOUT)
    assert ctx.presenter.presented == [], "a mistyped symbol is the user's to fix, not an application error"
    assert len(panel.calls.rows) == 2, "the last record stays until a new one is computed"
    with qtbot.waitSignal(panel.refreshed, timeout=TIMEOUT):
        panel.all_button.click()
    assert len(panel.calls.rows) == 4 and panel.symbol_edit.text() == ""


def test_an_earlier_clock_sees_only_what_had_matured(
    qtbot: QtBot, opened: Callable[..., Workbench], make_context: Callable[[Workbench], AppContext]
) -> None:
    bench = opened(clock=ReplayClock.as_of(date(2026, 9, 10)))  # after the first calls' 20 sessions, before the rest
    panel, view = shown(qtbot, make_context(bench))
    record = bench.track_records.compute()
    assert view.summary == record.summary()
    assert panel.figures["counts"].text() == "2 reports: 2 matured, 0 pending, 0 unscored"
    assert_rows_match(panel, record)
    assert {r.day for r in panel.calls.rows} == {date(2026, 8, 3)}
