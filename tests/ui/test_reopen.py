"""A reopened window fills its screens in the background: the watchlist's rows show at once with placeholders for
their prices and zones, then the values; the report list shows before each report's text and seal check; the first
loads of what shows first run ahead of the others; and the UI thread keeps turning and reads nothing meanwhile."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from pytestqt.qtbot import QtBot

from stockbench.errors import UserError
from stockbench.workbench import Workbench
from ui.context import AppContext
from ui.screens.reports.reports_panel import ReportsPanel
from ui.screens.watchlist.watchlist_model import COLUMN_KEYS, PENDING, ZONE_TITLES
from ui.screens.watchlist.watchlist_panel import FILL_MS, WatchlistPanel

WAIT_MS = 60_000  # generous: only a failing test waits this long (first engine calls import slowly)
SYMBOLS = ("605903.SH", "003901.SZ", "301901.SZ", "688901.SH", "920901.BJ", "02971.HK")


class Heartbeat:
    """The longest gap between ticks of a 10 ms timer on the UI thread (a blocked thread stops it ticking)."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self.last = time.perf_counter()
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._beat)
        self.timer.start()

    def _beat(self) -> None:
        now = time.perf_counter()
        self.gaps.append(now - self.last)
        self.last = now

    def stop(self) -> float:
        self.timer.stop()
        return max(self.gaps, default=0.0)


def _spy(bench: Workbench, service: str, name: str, threads: list[threading.Thread]) -> None:
    """Record the thread of every call to `bench.<service>.<name>` (the call itself is the engine's own)."""
    target = getattr(bench, service)
    real: Callable[..., Any] = getattr(target, name)

    def recorded(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread())
        return real(*args, **kwargs)

    setattr(target, name, recorded)


def _zone_title(bench: Workbench, symbol: str) -> str:
    try:
        position = bench.analytics.zones(symbol).position
    except UserError:
        return "—"
    return ZONE_TITLES[position]


def _column(panel: WatchlistPanel, key: str) -> list[str]:
    return [str(panel.model.data(panel.model.index(r, COLUMN_KEYS.index(key)))) for r in range(panel.model.rowCount())]


def test_the_watchlist_shows_its_rows_with_placeholders_then_the_prices_and_zones(
    ctx: AppContext, qtbot: QtBot
) -> None:
    bench = ctx.bench
    with qtbot.waitSignal(ctx.bridge.batch, timeout=WAIT_MS):  # delivered before the panel exists: no reload
        for symbol in SYMBOLS:
            bench.watchlist.add(symbol)
    threads: list[threading.Thread] = []
    _spy(bench, "data", "stored_quotes", threads)  # the prices of the list, read together
    _spy(bench, "analytics", "zones_many", threads)  # the zones of the list, computed together
    one_by_one: list[threading.Thread] = []
    _spy(bench, "analytics", "zones", one_by_one)
    _spy(bench, "data", "quote", one_by_one)
    panel = WatchlistPanel(ctx)
    qtbot.addWidget(panel)
    seen: dict[str, list[str]] = {}
    panel.refreshed.connect(lambda: seen.update(last=_column(panel, "last"), zone=_column(panel, "zone")))
    changes: list[float] = []
    heartbeat = Heartbeat()
    with qtbot.waitSignal(panel.refreshed, timeout=WAIT_MS):
        pass
    panel.model.dataChanged.connect(lambda *_: changes.append(time.perf_counter()))
    started = time.perf_counter()
    assert seen == {"last": [PENDING] * len(SYMBOLS), "zone": [PENDING] * len(SYMBOLS)}  # the rows came first
    assert panel.model.symbols() == list(SYMBOLS)
    with qtbot.waitSignal(panel.prices_refreshed, timeout=WAIT_MS):
        pass
    prices = _column(panel, "last")
    with qtbot.waitSignal(panel.zones_refreshed, timeout=WAIT_MS):
        pass
    elapsed = time.perf_counter() - started
    longest = heartbeat.stop()
    zones = _column(panel, "zone")
    read_by_the_panel, zones_one_by_one = list(threads), list(one_by_one)
    assert prices == [f"{bench.data.quote(s, fetch=False).price:,.2f}" for s in SYMBOLS]
    assert zones == [_zone_title(bench, s) for s in SYMBOLS] and PENDING not in zones
    assert len(read_by_the_panel) == 2 and threading.main_thread() not in read_by_the_panel
    # one read of the quotes and one pass of the zone algorithm for the list, not one a symbol (18 and 50 ms each)
    assert not zones_one_by_one
    # what arrives in the background reaches the table in batches, not a change (and a header re-layout) per value
    assert len(changes) <= elapsed * 1000 / FILL_MS + 2 < 2 * len(SYMBOLS)
    assert len(heartbeat.gaps) > 0 and longest < 1.0, f"the UI thread stood still for {longest:.2f} s"


def test_the_report_list_shows_before_the_reports_are_read(
    qtbot: QtBot, reports_ctx: AppContext, reports_bench: Workbench
) -> None:
    threads: list[threading.Thread] = []
    _spy(reports_bench, "reports", "seal_problems", threads)
    panel = ReportsPanel(reports_ctx)
    qtbot.addWidget(panel)
    panel.show()
    listed: list[list[bool]] = []
    panel.model.modelReset.connect(lambda: listed.append([r.seal_checked for r in panel.model.rows()]))
    heartbeat = Heartbeat()
    with qtbot.waitSignal(panel.model.modelReset, timeout=WAIT_MS):
        pass
    assert listed == [[False, False, False]]  # listed from one query; text and seals follow
    first = panel.model.rows()[0]
    panel.table.selectRow(0)
    assert "as it was published…" in panel.view.toPlainText()  # the placeholder, until the report is read
    assert not panel.compare_button.isEnabled()
    with qtbot.waitSignal(panel.report_shown, timeout=WAIT_MS) as shown:
        pass
    assert shown.args == [first.report_id]
    assert all(r.seal_checked and r.markdown and not r.tampered for r in panel.model.rows())
    assert first.title in panel.view.toPlainText() and "as it was published…" not in panel.view.toPlainText()
    assert len(threads) == 3 and threading.main_thread() not in threads
    assert heartbeat.stop() < 1.0


@pytest.fixture
def gate() -> Iterator[threading.Event]:
    opened = threading.Event()
    yield opened
    opened.set()  # never leave a worker waiting


def test_held_ops_start_once_the_urgent_ones_are_delivered(
    ctx: AppContext, qtbot: QtBot, gate: threading.Event
) -> None:
    order: list[str] = []

    def urgent(_bench: Workbench) -> str:
        assert gate.wait(WAIT_MS / 1000)
        order.append("urgent ran")
        return "urgent"

    def other(_bench: Workbench) -> str:
        order.append("other ran")
        return "other"

    ctx.runner.hold_for_urgent()
    delivered: list[str] = []
    ctx.op(other, delivered.append)
    ctx.op(urgent, lambda found: (delivered.append(found), ctx.op(urgent, delivered.append, urgent=True)),
           urgent=True)  # fmt: skip
    assert ctx.runner.held and not ctx.runner.general.waitForDone(200)  # the other op waits; the urgent one runs
    assert order == []
    gate.set()
    qtbot.waitUntil(lambda: delivered == ["urgent", "urgent", "other"], timeout=WAIT_MS)
    # an urgent op started by an urgent op's callback still runs before the held ones
    assert order == ["urgent ran", "urgent ran", "other ran"]
    assert not ctx.runner.holding and not ctx.runner.held


def test_a_soon_op_starts_ahead_of_the_other_held_ops(ctx: AppContext, qtbot: QtBot, gate: threading.Event) -> None:
    """Found on a reopen of 60 watched symbols: the watchlist's zones queued behind every other screen's first load
    and started five seconds late. An op marked `soon` is held like the others but starts first (one thread here, so
    the order is the pool's queue)."""
    ctx.runner.general.setMaxThreadCount(1)
    order: list[str] = []

    def urgent(_bench: Workbench) -> str:
        assert gate.wait(WAIT_MS / 1000)
        order.append("urgent")
        return "urgent"

    def named(name: str) -> Callable[[Workbench], str]:
        def ran(_bench: Workbench) -> str:
            order.append(name)
            return name

        return ran

    ctx.runner.hold_for_urgent()
    delivered: list[str] = []
    ctx.op(urgent, delivered.append, urgent=True)
    ctx.op(named("dashboard"), delivered.append)
    ctx.op(named("track record"), delivered.append)
    ctx.op(named("zones"), delivered.append, soon=True)
    assert len(ctx.runner.held) == 3
    gate.set()
    qtbot.waitUntil(lambda: len(delivered) == 4, timeout=WAIT_MS)
    assert order == ["urgent", "zones", "dashboard", "track record"]


def test_an_after_soon_op_starts_once_the_soon_ones_are_delivered(
    ctx: AppContext, qtbot: QtBot, gate: threading.Event
) -> None:
    """The dashboard's zone alerts compute the watchlist's zones again: side by side, each took twice as long. They
    (`after_soon`) wait for the watchlist's zones (`soon`); an op that is neither does not."""
    order: list[str] = []

    def zones(_bench: Workbench) -> str:
        assert gate.wait(WAIT_MS / 1000)
        order.append("zones")
        return "zones"

    def named(name: str) -> Callable[[Workbench], str]:
        def ran(_bench: Workbench) -> str:
            order.append(name)
            return name

        return ran

    delivered: list[str] = []
    ctx.op(zones, delivered.append, soon=True)
    ctx.op(named("alerts"), delivered.append, after_soon=True)
    ctx.op(named("chart"), delivered.append)
    qtbot.waitUntil(lambda: delivered == ["chart"], timeout=WAIT_MS)
    assert ctx.runner.after and order == ["chart"]  # the alerts wait while the zones are computed
    gate.set()
    qtbot.waitUntil(lambda: len(delivered) == 3, timeout=WAIT_MS)
    assert order == ["chart", "zones", "alerts"] and not ctx.runner.after and ctx.runner.soon == 0
    ctx.op(named("alone"), delivered.append, after_soon=True)  # no soon op left: it starts at once
    qtbot.waitUntil(lambda: delivered[-1:] == ["alone"], timeout=WAIT_MS)


def test_an_after_soon_op_still_waiting_when_the_runner_closes_is_dropped(
    ctx: AppContext, qtbot: QtBot, gate: threading.Event
) -> None:
    """An `after_soon` op is a read for a screen; started while the runner closes it would read a workspace being
    detached (in CI it read one found damaged and being restored, and showed the damage again)."""
    ran: list[str] = []

    def zones(_bench: Workbench) -> str:
        assert gate.wait(WAIT_MS / 1000)
        return "zones"

    ctx.op(zones, ran.append, soon=True)
    ctx.op(lambda _bench: ran.append("alerts") or "alerts", ran.append, after_soon=True)
    assert ctx.runner.after
    ctx.runner.close()
    assert not ctx.runner.after and ctx.runner.soon == 0
    gate.set()
    assert ctx.runner.wait(WAIT_MS)
    qtbot.wait(50)  # any delivery queued on the GUI thread
    assert "alerts" not in ran
