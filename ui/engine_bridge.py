"""Engine events as Qt signals: one handler re-emits every engine event, Qt delivers it on the GUI thread.

Bursts (sub-task titles, progress) are coalesced by a short timer so a busy run never floods the event loop.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from stockbench.events import Event, EventBus, Subscription

COALESCE_MS = 50


class EngineBridge(QObject):
    """Re-emits engine events as `engine_event(object)` on the GUI thread; `batch(list)` after coalescing."""

    engine_event = Signal(object)
    batch = Signal(list)
    _incoming = Signal(object)

    def __init__(self, bus: EventBus) -> None:
        super().__init__()
        self._pending: list[Event] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(COALESCE_MS)
        self._timer.timeout.connect(self._flush)
        self._incoming.connect(self._receive)
        self._subscription: Subscription | None = bus.subscribe(Event, self._incoming.emit)

    @Slot(object)
    def _receive(self, event: Event) -> None:
        self.engine_event.emit(event)
        self._pending.append(event)
        if not self._timer.isActive():
            self._timer.start()

    @Slot()
    def _flush(self) -> None:
        pending, self._pending = self._pending, []
        if pending:
            self.batch.emit(pending)

    def close(self) -> None:
        if self._subscription is not None:
            self._subscription.cancel()
            self._subscription = None
