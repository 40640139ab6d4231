"""An engine op's worker never drops the last reference to the op: found in a full run of the suite, a panel whose
last reference was an op's callback was destroyed on the worker thread once the GUI thread had delivered first
("QObject::killTimer: Timers cannot be stopped from another thread", then a segmentation fault)."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from ui.background import EngineOp, OpRunner
from ui.context import AppContext


class Receiver:
    """Stands for a panel: its method is the op's callback, and it says which thread freed it."""

    def __init__(self) -> None:
        self.got: list[object] = []

    def show(self, result: object) -> None:
        self.got.append(result)


@pytest.fixture
def late_hand_back(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The worker hands its op back only once the test says so: a worker descheduled after its result was emitted,
    while the GUI thread delivers it."""
    go = threading.Event()
    hand_back = EngineOp.hand_back

    def late(op: EngineOp) -> None:
        assert go.wait(10)
        hand_back(op)

    monkeypatch.setattr(EngineOp, "hand_back", staticmethod(late))
    yield go
    go.set()


def test_an_op_delivered_before_its_worker_is_done_is_freed_on_the_gui_thread(
    qtbot: QtBot, ctx: AppContext, late_hand_back: threading.Event
) -> None:
    runner: OpRunner = ctx.runner
    freed: list[str] = []
    receiver = Receiver()
    weakref.finalize(receiver, lambda: freed.append(threading.current_thread().name))
    got = receiver.got
    EngineOp(runner, lambda _bench: 42, success=receiver.show).run()
    del receiver  # the op's callback holds the only reference now
    qtbot.waitUntil(lambda: got == [42])  # delivered on the GUI thread: the op has left `live`
    late_hand_back.set()  # the worker now finishes with it
    assert runner.wait()
    assert freed == []  # handed back, not dropped on the worker thread
    EngineOp(runner, lambda _bench: None, success=lambda _result: None).run()  # the next delivery releases it
    qtbot.waitUntil(lambda: bool(freed))
    assert freed == [threading.main_thread().name], freed
