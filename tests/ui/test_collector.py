"""Garbage collection on the GUI thread only (ui/collector.py): found in CI, an engine thread's automatic collection
freed a Qt wrapper, took Qt's signal mutex and waited for the GIL, while the GUI thread held the GIL and waited for
that mutex to build the Settings dialog: the suite hung for good."""

from __future__ import annotations

import gc
import threading
import time
from typing import ClassVar

import pytest
from PySide6.QtWidgets import QApplication

from ui.app import create_app
from ui.collector import FULL_WAITS_S, GuiThreadCollector, collect_on_gui_thread


class Cycle:
    """Cyclic garbage that says which thread freed it."""

    freed: ClassVar[list[str]] = []

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        Cycle.freed.append(threading.current_thread().name)


def test_garbage_made_in_an_engine_thread_is_collected_on_the_gui_thread(qapp: QApplication) -> None:
    collector = collect_on_gui_thread(qapp)
    assert not gc.isenabled()
    gc.collect()
    Cycle.freed.clear()
    made = collector.thresholds[0] * 3  # three times what starts an automatic collection

    def engine() -> None:
        for _ in range(made):
            Cycle()

    worker = threading.Thread(target=engine, name="engine")
    worker.start()
    worker.join()
    assert Cycle.freed == []  # the engine thread never collected
    assert collector.looking()  # the GUI thread's timer looks at the counts (with no event let through meanwhile,
    collector.collect_due()  # nothing else can freeze the objects made: what its next look does, done here)
    assert len(Cycle.freed) == made and set(Cycle.freed) == {threading.main_thread().name}


def test_the_application_installs_one_collector(qapp: QApplication) -> None:
    assert create_app() is qapp and create_app() is qapp
    assert len(qapp.findChildren(GuiThreadCollector)) == 1


def test_a_full_collection_waits_for_a_quiet_moment(qapp: QApplication, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full collection walks every object not frozen (65 ms in the middle of an analysis, a stall): while young
    objects keep coming it collects the middle generation instead, until a quiet moment or FULL_WAITS_S."""
    collector = collect_on_gui_thread(qapp)
    t0, _, t2 = collector.thresholds
    asked: list[int] = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: asked.append(generation) or 0)
    monkeypatch.setattr(collector, "_last_full", time.monotonic())
    for counts in ((t0 + 1, 0, t2 + 1), (t0 // 2, 0, t2 + 1), (t0 + 1, 0, 0), (0, 0, 0)):
        monkeypatch.setattr(gc, "get_count", lambda counts=counts: counts)
        collector.collect_due()
    assert asked == [1, 2, 0]  # busy: the middle one; quiet: the full one; only the young one due: it; none due
    monkeypatch.setattr(collector, "_last_full", time.monotonic() - FULL_WAITS_S - 1)
    monkeypatch.setattr(gc, "get_count", lambda: (t0 + 1, 0, t2 + 1))
    collector.collect_due()
    assert asked[-1] == 2  # busy for longer than FULL_WAITS_S: the full one after all
