"""Which workspace the window shows: opening one in the background, switching to another folder, the demo market,
and the first-run welcome. The window answers the controller's signals (it takes its screens down when a workspace
starts opening, and attaches the opened workbench); a workspace another process holds arrives as `failed`."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QSettings, Qt, Signal
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox, QWidget

from stockbench.config import WorkspacePaths
from ui.workspace_opener import OpenKind, WorkspaceOpener

LAST_HOME_SETTING = "workspace/last_home"
WELCOME_SETTING = "welcome/shown"


class WorkspaceController(QObject):
    """Opens workspaces for `window`: `opening(folder)` when one starts to open, then `opened(Workbench)` or
    `failed(error)`; `connect_model_requested()` when the welcome's last step asks for a model."""

    opening = Signal(object)  # the folder (a Path)
    opened = Signal(object)  # the Workbench, now owned by whoever attaches it
    failed = Signal(object)  # the error
    restored = Signal(object)  # a RestoreDone, before `opened`
    connect_model_requested = Signal()

    def __init__(self, window: QWidget, settings: QSettings) -> None:
        super().__init__(window)
        self.window, self.settings = window, settings
        self.opener = WorkspaceOpener(self)
        self.opener.opened.connect(self.opened)
        self.opener.failed.connect(self.failed)
        self.opener.restored.connect(self.restored)

    def open(self, folder: Path, kind: OpenKind = "user", *, welcome: bool = False) -> None:
        """Open the workspace in `folder` in the background (first run: offer the welcome dialog first)."""
        if welcome and not self.settings.value(WELCOME_SETTING, False, type=bool):
            self.show_welcome(folder)
            return
        if self.opener.busy:
            return
        self.opening.emit(folder)
        self.opener.start(folder, kind)

    def restore(self, folder: Path, backup: str, kind: OpenKind = "user") -> None:
        """Put the backup `backup` back in the workspace `folder` and open it, in the background (the window takes
        the open workspace down first, on `opening`)."""
        if self.opener.busy:
            return
        self.opening.emit(folder)
        self.opener.start(folder, kind, restore=backup)

    def remember(self, home: Path) -> None:
        """`home` is the workspace to reopen next time."""
        self.settings.setValue(LAST_HOME_SETTING, str(home))

    def show_welcome(self, demo_folder: Path | None = None) -> QDialog:
        """The first-run welcome (once per user): the demo market, a new workspace or an existing one."""
        from ui.dialogs.welcome_dialog import WelcomeDialog

        self.settings.setValue(WELCOME_SETTING, True)
        dialog = WelcomeDialog(self.window, demo_folder=demo_folder)
        dialog.workspace_opened.connect(self.opened)
        dialog.connect_model_requested.connect(self.connect_model_requested)
        dialog.rejected.connect(lambda: self.open(demo_folder, "demo") if demo_folder else None)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def open_demo(self) -> None:
        """Open (building it the first time) the fictional demo market."""
        from stockbench.workbench import Workbench

        self.open(Workbench.demo_home(), "demo")

    def choose_workspace(self) -> None:
        """Ask for a folder holding a workspace, and open it."""
        chosen = QFileDialog.getExistingDirectory(self.window, self.tr("Open a workspace folder"))
        if not chosen:
            return
        if not WorkspacePaths(Path(chosen)).database.exists():
            QMessageBox.information(self.window, self.tr("Not a workspace"),
                                    self.tr("%1 holds no workspace.").replace("%1", chosen))  # fmt: skip
            return
        self.open(Path(chosen))

    def choose_new_workspace(self) -> None:
        """Ask for an empty folder, and create a workspace in it."""
        chosen = QFileDialog.getExistingDirectory(self.window, self.tr("Choose an empty folder for the new workspace"))
        if chosen and Path(chosen).is_dir() and any(Path(chosen).iterdir()):
            QMessageBox.information(self.window, self.tr("Folder not empty"), self.tr("Choose an empty folder."))
        elif chosen:
            self.open(Path(chosen))
