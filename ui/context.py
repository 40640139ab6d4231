"""What every screen is given: the workbench (reached only through EngineOps), the event bridge, settings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QWidget

from stockbench.workbench import Workbench
from ui.background import EngineOp, OpRunner
from ui.engine_bridge import EngineBridge
from ui.errors import ErrorPresenter


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
        parent: QWidget | None = None,
    ) -> EngineOp:
        """Run `fn(bench)` in the background; `success(result)` on the GUI thread (errors to the presenter)."""
        return EngineOp(
            self.runner, fn, success=success, failure=failure or self.presenter.present, progress=progress,
            research=research, parent=parent,
        ).run()  # fmt: skip
