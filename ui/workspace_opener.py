"""Opening a workspace off the GUI thread: `WorkspaceOpener.start(folder, kind)` delivers `opened(Workbench)` or
`failed(error)` on the GUI thread. A demo workspace gets its market built first (seconds, the first time)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

if TYPE_CHECKING:  # the engine (DuckDB and friends) loads on the worker thread that opens the workspace
    from stockbench.workbench import Workbench

OpenKind = Literal["user", "demo"]
DESKTOP_COMMAND = "stockbench (desktop)"
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RestoreDone:
    """A backup put back before the workspace opened: its file name, the name the replaced file was kept under (None:
    there was none), and whether the ledger journal holds entries newer than the backup (the books can then be
    rebuilt from it)."""

    backup: str
    aside: str | None
    journal_ahead: bool


def open_workbench(home: Path, kind: OpenKind = "user") -> Workbench:
    """Open (creating if needed) the workspace at `home`; a demo workspace gets its market built first.

    Runs on a worker thread: building the demo market takes seconds the first time.
    """
    from stockbench.workbench import Workbench

    Workbench.prepare(home, kind=kind, command=DESKTOP_COMMAND)  # also pins the demo's replay clock
    return Workbench.open(home, command=DESKTOP_COMMAND)


class _Relay(QObject):
    opened = Signal(object)
    failed = Signal(object)
    restored = Signal(object)
    keys = Signal(object)


class _OpenTask(QRunnable):
    def __init__(
        self, relay: _Relay, home: Path, kind: OpenKind, restore: str | None = None, *, keys: bool = False
    ) -> None:
        super().__init__()
        self.relay, self.home, self.kind, self.restore, self.keys = relay, home, kind, restore, keys

    def run(self) -> None:
        from ui.screens import preload_screens

        try:
            restored = None
            if self.restore is not None:  # a backup put back first (the file it replaces kept aside)
                from stockbench.workbench import Workbench

                restored = Workbench.restore(self.home, self.restore)
            bench = open_workbench(self.home, self.kind)
            if restored is not None:
                aside = None if restored.aside is None else restored.aside.name
                self.relay.restored.emit(RestoreDone(restored.backup.path.name, aside, bench.journal_ahead()))
        except BaseException as error:  # delivered to the GUI thread
            self.relay.failed.emit(error)
            return
        try:
            preload_screens()
        except Exception:  # the window shows the broken screen's error when it builds it
            log.exception("a screen module failed to import")
        if self.keys:
            self._tell_keys(bench)
        self.relay.opened.emit(bench)

    def _tell_keys(self, bench: Workbench) -> None:
        """Where the workspace keeps API keys (a KeyStoreView), for a dialog that words it before asking for one."""
        try:
            self.relay.keys.emit(bench.models.keystore())
        except Exception:  # the words are a courtesy: the workspace opens all the same
            log.exception("the key store could not be read")


class WorkspaceOpener(QObject):
    """Opens a workspace on a worker thread; `opened(Workbench)` or `failed(error)` arrive on the GUI thread, after
    `restored(RestoreDone)` when a backup was put back first."""

    opened = Signal(object)
    failed = Signal(object)
    restored = Signal(object)
    keys = Signal(object)  # KeyStoreView, before `opened`, when `start` was asked for it

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self.busy = False
        self._relay = _Relay()
        self._relay.opened.connect(self._opened)
        self._relay.failed.connect(self._failed)
        self._relay.restored.connect(self.restored)
        self._relay.keys.connect(self.keys)

    def start(self, home: Path, kind: OpenKind = "user", *, restore: str | None = None, keys: bool = False) -> None:
        """Open `home` (first putting the backup `restore` back in place, when given); with `keys`, also say where it
        keeps API keys (`keys`)."""
        self.busy = True
        self.pool.start(_OpenTask(self._relay, home, kind, restore, keys=keys))

    def _opened(self, bench: Workbench) -> None:
        self.busy = False
        self.opened.emit(bench)

    def _failed(self, error: BaseException) -> None:
        self.busy = False
        self.failed.emit(error)
