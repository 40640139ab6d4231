"""EngineOp: run an engine call on a thread pool and deliver its result, failure or progress on the GUI thread.

    EngineOp(parent=self, op=lambda bench: bench.ledger.positions("main"), success=self.show).run()

The relay object that carries the result back is not parented to any widget and is kept alive until it has
delivered, so a closed window never loses a callback mid-flight or crashes on one; and the worker hands the op back
rather than dropping it, so the op (and a widget its callback holds) is always freed on the GUI thread. Research
runs go to their own pool so a long analysis never starves chart loads.

While a window fills its screens the runner can hold the other ops back (`hold_for_urgent`): an op marked `urgent`
(what the user sees first: the watchlist's rows and prices, the report list, the chart) runs at once and the others
start when no urgent op is left, those marked `soon` first (what the user waits on next: the watchlist's zones had
queued behind every other screen's first load and started five seconds late). Every op holds the GIL for most of its
run, so eight screens loading at once had made each of them several times slower, and the watchlist waited seconds
behind the dashboard's zone scan. An op marked `after_soon` (the dashboard's zone alerts and scan, which compute the
same zones again) starts only once no `soon` op is left; it must be a read, as one still waiting when the runner
closes is dropped (started then, it read a workspace being closed, perhaps one found damaged and being restored).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, ClassVar

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot
from PySide6.QtWidgets import QWidget

from stockbench.errors import Cancelled, UserError, WorkspaceDamaged
from stockbench.workbench import Workbench

log = logging.getLogger(__name__)


class _Relay(QObject):
    succeeded = Signal(object)
    failed = Signal(object)
    progressed = Signal(object)


class OpRunner:
    """The pools EngineOps run on, and the workbench they run against."""

    def __init__(self, bench: Workbench) -> None:
        self.bench = bench
        self.general = QThreadPool()
        self.general.setMaxThreadCount(4)
        self.research = QThreadPool()
        self.research.setMaxThreadCount(3)
        self.on_error: Callable[[BaseException], None] | None = None
        self.closed = False  # set when the window shuts down: no op starts afterwards, none reads a closed workspace
        self.holding = False
        self.held: list[EngineOp] = []  # held back until no urgent op is left (GUI thread only)
        self.urgent = 0  # urgent ops started and not delivered yet
        self.soon = 0  # soon ops started and not delivered yet
        self.after: list[EngineOp] = []  # `after_soon` ops waiting for them (GUI thread only)

    def hold_for_urgent(self) -> None:
        """From now on, start an op that is not urgent only once no urgent op is left (see the module docstring)."""
        self.holding = True

    def release(self) -> None:
        """Start every held op (those marked `soon` first), and hold none from now on."""
        self.holding = False
        held, self.held = self.held, []
        for op in sorted(held, key=lambda o: not o.soon):
            op.run()

    def urgent_done(self) -> None:
        """An urgent op was delivered (after its callback, so that the urgent ops it starts are counted first)."""
        self.urgent -= 1
        if self.urgent == 0 and self.holding:
            self.release()

    def soon_done(self) -> None:
        """A soon op was delivered: the ops waiting for the soon ones start once none is left."""
        self.soon = max(0, self.soon - 1)
        if self.soon == 0:
            self._start_after()

    def _start_after(self) -> None:
        waiting, self.after = self.after, []
        for op in waiting:
            op.run()

    def close(self) -> None:
        """Refuse new ops from now on (an op started by a late timer or event would read a closed workspace); held
        ops start first (one may be a write the user asked for), so that `wait` drains them too."""
        self.release()
        self.soon = 0
        self.after = []  # reads waiting for the soon ones: never started on a closing workspace (nothing to show)
        self.closed = True

    def wait(self, msecs: int = 30_000) -> bool:
        return bool(self.general.waitForDone(msecs)) and bool(self.research.waitForDone(msecs))


def _as_damage(bench: Workbench, error: BaseException) -> BaseException:
    """`error` as the workspace's damage when it is one (a block that does not read back, a full disk, a read-only
    folder: said with the newest backup, worked out here on the worker thread), else `error` itself."""
    if isinstance(error, Exception) and not isinstance(error, UserError):
        try:
            damage = bench.as_damage(error)
        except Exception:  # naming the damage must never hide the error itself
            log.exception("could not tell whether %r is a damage", error)
            return error
        if damage is not None:
            log.error("the workspace file is damaged: %s", error)
            damage.__cause__ = error
            return damage
    return error


class _Task(QRunnable):
    def __init__(self, op: EngineOp) -> None:
        super().__init__()
        self.op: EngineOp | None = op

    def run(self) -> None:
        op, self.op = self.op, None  # the pool deletes this task on the worker thread: it holds no op by then
        assert op is not None
        try:
            result = op.fn(op.runner.bench) if not op.progress else op.fn(op.runner.bench, op.relay.progressed.emit)
        except BaseException as error:  # delivered to the GUI thread, never lost
            op.relay.failed.emit(_as_damage(op.runner.bench, error))
        else:
            op.relay.succeeded.emit(result)
        finally:
            EngineOp.hand_back(op)


class EngineOp:
    """One engine call in the background. `success`, `failure` and `progress` run on the GUI thread."""

    live: ClassVar[set[EngineOp]] = set()
    # Ops whose worker has finished with them, released on the GUI thread (`release_returned`): an op holds its
    # callbacks and so their widgets, and a widget whose last reference went on a worker thread was destroyed there
    # (Qt: "Timers cannot be stopped from another thread", then a crash, when the GUI thread had delivered first).
    returned: ClassVar[list[EngineOp]] = []
    _lock: ClassVar[threading.Lock] = threading.Lock()

    @classmethod
    def hand_back(cls, op: EngineOp) -> None:
        """Called by the worker when it is done with `op`: the reference moves here, never dropped on the worker."""
        with cls._lock:
            cls.returned.append(op)

    @classmethod
    def release_returned(cls) -> None:
        """Drop, on the GUI thread, the ops their workers have handed back."""
        with cls._lock:
            done, cls.returned = cls.returned, []
        del done  # here, on the GUI thread

    def __init__(
        self,
        runner: OpRunner,
        op: Callable[..., Any],
        *,
        success: Callable[[Any], None] | None = None,
        failure: Callable[[BaseException], None] | None = None,
        progress: Callable[[Any], None] | None = None,
        research: bool = False,
        urgent: bool = False,
        soon: bool = False,
        after_soon: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        self.runner, self.fn, self.research, self.urgent, self.parent = runner, op, research, urgent, parent
        self.soon = soon  # not urgent, but ahead of the other ops that are not (in the hold and in the pool's queue)
        self.after_soon = after_soon  # started once no soon op is left
        self.success, self.failure, self.progress = success, failure, progress
        self.relay = _Relay()
        self.relay.succeeded.connect(self._succeeded)
        self.relay.failed.connect(self._failed)
        if progress is not None:
            self.relay.progressed.connect(progress)

    def run(self) -> EngineOp:
        runner = self.runner
        if runner.closed:
            return self  # the window is closing: nothing starts, nothing is delivered
        if runner.holding and not self.urgent:
            runner.held.append(self)
            return self
        if self.after_soon and runner.soon > 0:
            runner.after.append(self)
            return self
        with EngineOp._lock:
            EngineOp.live.add(self)
        runner.urgent += self.urgent
        runner.soon += self.soon
        pool = runner.research if self.research else runner.general
        pool.start(_Task(self), 2 if self.urgent else 1 if self.soon else 0)
        return self

    def _done(self) -> None:
        with EngineOp._lock:
            EngineOp.live.discard(self)
        EngineOp.release_returned()  # the ops delivered before (this one's worker may still be handing it back)

    @Slot(object)
    def _succeeded(self, result: Any) -> None:
        self._done()
        try:
            if self.success is not None and self._parent_alive():
                self.success(result)
        finally:
            if self.urgent:
                self.runner.urgent_done()
            if self.soon:
                self.runner.soon_done()

    @Slot(object)
    def _failed(self, error: BaseException) -> None:
        self._done()
        try:
            if isinstance(error, Cancelled):
                return
            damage = isinstance(error, WorkspaceDamaged)  # the window answers it whoever asked (naming a backup)
            if damage and self.runner.on_error is not None:
                self.runner.on_error(error)
            if self.failure is not None and self._parent_alive():
                self.failure(error)
            elif self.runner.on_error is not None and not damage:
                self.runner.on_error(error)
        finally:
            if self.urgent:
                self.runner.urgent_done()
            if self.soon:
                self.runner.soon_done()

    def _parent_alive(self) -> bool:
        if self.parent is None:
            return True
        try:
            self.parent.objectName()
        except RuntimeError:  # the widget was deleted while the op ran
            return False
        return True
