from __future__ import annotations

import logging
import threading

import pytest

from stockbench.events import Event, EventBus, Progress, WorkspaceOpened


def test_handlers_receive_their_kind_and_subclasses() -> None:
    bus = EventBus()
    everything: list[Event] = []
    progress: list[Progress] = []
    bus.subscribe(Event, everything.append)
    bus.subscribe(Progress, progress.append)
    bus.publish(Progress(operation="fetch", title="Fetching bars"))
    bus.publish(WorkspaceOpened(home="/w", schema_version=1))
    assert [type(e).__name__ for e in everything] == ["Progress", "WorkspaceOpened"]
    assert [p.title for p in progress] == ["Fetching bars"]


def test_cancel_stops_delivery() -> None:
    bus = EventBus()
    seen: list[Event] = []
    with bus.subscribe(Event, seen.append):
        bus.publish(Event())
    bus.publish(Event())
    assert len(seen) == 1


def test_a_failing_handler_does_not_break_the_others(caplog: pytest.LogCaptureFixture) -> None:
    bus = EventBus()
    seen: list[Event] = []

    def broken(event: Event) -> None:
        raise RuntimeError("handler bug")

    bus.subscribe(Event, broken)
    bus.subscribe(Event, seen.append)
    with caplog.at_level(logging.ERROR):
        bus.publish(Event())
    assert len(seen) == 1
    assert "handler bug" in caplog.text


def test_publish_from_many_threads() -> None:
    bus = EventBus()
    seen: list[Event] = []
    lock = threading.Lock()

    def record(event: Event) -> None:
        with lock:
            seen.append(event)

    bus.subscribe(Event, record)
    threads = [threading.Thread(target=lambda: [bus.publish(Event()) for _ in range(200)]) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) == 800
