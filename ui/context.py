"""What every screen is given (the workbench, reached only through EngineOps, the event bridge, settings), and how
that context is built around an open workbench and shut down in order."""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QWidget

from ui.background import EngineOp, OpRunner
from ui.engine_bridge import EngineBridge
from ui.errors import ErrorPresenter

if TYPE_CHECKING:
    from stockbench.workbench import Workbench

log = logging.getLogger(__name__)


@dataclass
class AppContext:
    """The shell's shared services. Screens never call `bench` on the GUI thread: they use `op()`."""

    bench: Workbench
    runner: OpRunner
    bridge: EngineBridge
    presenter: ErrorPresenter
    settings: QSettings

    def op(
        self,
        fn: Callable[..., Any],
        success: Callable[[Any], None] | None = None,
        *,
        failure: Callable[[BaseException], None] | None = None,
        progress: Callable[[Any], None] | None = None,
        research: bool = False,
        urgent: bool = False,
        soon: bool = False,
        after_soon: bool = False,
        parent: QWidget | None = None,
    ) -> EngineOp:
        """Run `fn(bench)` in the background; `success(result)` on the GUI thread (errors to the presenter).
        `urgent`: what the user sees first, started ahead of the others; `soon`: ahead of the others that are not
        urgent; `after_soon`: once no soon op is left (see `ui.background`)."""
        return EngineOp(
            self.runner, fn, success=success, failure=failure or self.presenter.present, progress=progress,
            research=research, urgent=urgent, soon=soon, after_soon=after_soon,
            parent=parent,
        ).run()  # fmt: skip


def settle_heap() -> None:
    """Collect once, then freeze what survives: the engine's modules and caches (hundreds of thousands of objects)
    never again lengthen a garbage-collection pause on the GUI thread (a full collection over them took over
    100 ms and showed as a stalled frame)."""
    gc.collect()
    gc.freeze()


def _freeze_after_run(event: object) -> None:
    from stockbench.research.events import RunEnded

    if isinstance(event, RunEnded):
        gc.collect(1)  # the young garbage first (collected on this thread's timer, ui/collector.py): never frozen
        gc.freeze()  # a finished run's long-lived objects leave the collector's generations


def build_context(bench: Workbench, presenter: ErrorPresenter, settings: QSettings | None = None) -> AppContext:
    """The shell's services around an open workbench: pools, the event bridge, the presenter, settings."""
    runner = OpRunner(bench)
    runner.on_error = presenter.present
    bridge = EngineBridge(bench.events)
    bridge.engine_event.connect(_freeze_after_run)
    return AppContext(bench, runner, bridge, presenter, settings or QSettings())


def stop_runs(bench: Workbench, run_ids: Iterable[str]) -> None:
    """Ask running research to stop at its next step (each run records "stopped by the user")."""
    from stockbench.errors import UserError

    for run_id in run_ids:
        try:
            bench.research.stop(run_id)
        except UserError:  # it ended meanwhile
            continue


def close_context(
    ctx: AppContext, *, running: Iterable[str] = (), close_bench: bool = True, wait_ms: int = 30_000,
    backup: bool = True,
) -> bool:  # fmt: skip
    """Shut down in order: stop running research, wait for both pools, close the bridge, close the workspace last
    (after its backup on close, unless `backup` is False: a file found damaged is not copied over good backups).

    Returns False when a pool did not finish within `wait_ms` (the workspace is then left open for the
    process exit to release, rather than closed under a running thread).
    """
    stop_runs(ctx.bench, running)
    ctx.runner.close()  # from here on no op starts: a late timer or event must not read a closing workspace
    drained = ctx.runner.wait(wait_ms)
    ctx.bridge.close()
    if close_bench and drained:
        if backup:
            ctx.bench.backup_on_close()  # the window is already down: the copy holds nothing a person waits on
        ctx.bench.close()
    elif not drained:
        log.warning("background work did not finish within %d ms; the workspace stays open until exit", wait_ms)
    return drained
