"""Python's garbage collection on the GUI thread only.

The automatic collector runs in whichever thread allocates when a generation's count passes its threshold, engine
threads included. A collection there that frees a Qt wrapper disconnects its signals from that thread: it takes Qt's
signal mutex and then waits for the GIL, while the GUI thread, holding the GIL, waits for the same mutex to connect
a new widget's signals. Found in CI: the suite hung for good building the Settings dialog while an engine thread's
collection freed a previous dialog's objects. The same pattern is the usual cure in Qt applications written in
Python: automatic collection off, and the GUI thread collects on a timer, each generation when its count passes the
threshold the automatic collector would have used.
"""

from __future__ import annotations

import gc
import time

from PySide6.QtCore import QObject, QTimer

# How often the GUI thread looks at the counts (a look is a few microseconds): often while garbage comes fast (a
# collection's pause grows with the objects made since the last: 60,000 in half a second of an analysis took 20 ms,
# a stall), seldom while the window is idle.
FASTEST_MS, SLOWEST_MS = 25, 1_000
# A full collection walks every object not frozen (65 ms in the middle of an analysis): it waits for a quiet moment
# (fewer new objects than a young collection's threshold), or at most this long while garbage keeps coming.
FULL_WAITS_S = 30.0


class GuiThreadCollector(QObject):
    """Turns the automatic collector off while it lives and collects on the GUI thread instead (created on it)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.thresholds = gc.get_threshold()
        self.collections = 0  # collections made, for tests and diagnostics
        self._last_full = time.monotonic()
        self._timer = QTimer(self)
        self._timer.setInterval(FASTEST_MS)
        self._timer.timeout.connect(self._look)
        gc.disable()
        self._timer.start()

    def _look(self) -> None:
        """Collect what is due; look again soon while garbage comes fast, later and later while none is due."""
        made = self.collect_due() is not None
        interval = self._timer.interval()
        self._timer.setInterval(FASTEST_MS if made else min(interval * 2, SLOWEST_MS))

    def collect_due(self) -> int | None:
        """Collect the oldest generation whose count has passed its threshold, as the automatic collector would, a
        full collection at a quiet moment (None when none is due)."""
        counts = gc.get_count()
        due = [g for g in range(3) if self.thresholds[g] and counts[g] > self.thresholds[g]]
        if not due:
            return None
        generation = due[-1]
        busy = counts[0] > self.thresholds[0]
        if generation == 2 and busy and time.monotonic() - self._last_full < FULL_WAITS_S:
            generation = 1  # the full collection waits for a quiet moment
        if generation == 2:
            self._last_full = time.monotonic()
        self.collections += 1
        return gc.collect(generation)

    def looking(self) -> bool:
        """Whether the GUI thread's timer is looking at the counts."""
        return self._timer.isActive()

    def stop(self) -> None:
        """Automatic collection back on (the collector is not needed once no engine thread runs)."""
        self._timer.stop()
        gc.enable()


def collect_on_gui_thread(parent: QObject) -> GuiThreadCollector:
    """Install the collector, owned by `parent` (the application)."""
    found = parent.findChild(GuiThreadCollector)
    return found if isinstance(found, GuiThreadCollector) else GuiThreadCollector(parent)
