"""The first-run welcome: explore the fictional demo market, create a new workspace, or open an existing one.

The chosen workspace is opened in the background (building the demo market takes seconds the first time) and
handed over with `workspace_opened(Workbench)`; the dialog never blocks the event loop. After the demo market or
a new workspace opens, a last step offers to connect the user's own model (`connect_model_requested`, which the
main window answers with the "Connect your model" dialog) or to start with the offline model.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCommandLinkButton,
    QDialog,
    QFileDialog,
    QLabel,
    QProgressBar,
    QVBoxLayout,
    QWidget,
)

from stockbench.config import WorkspacePaths
from ui.dialogs.key_store_words import after, where_keys_stay
from ui.errors import error_text
from ui.workspace_opener import OpenKind, WorkspaceOpener

if TYPE_CHECKING:
    from stockbench.llm.records import KeyStoreView


class WelcomeDialog(QDialog):
    """Offers the demo market or a workspace of the user's own."""

    workspace_opened = Signal(object)  # Workbench
    connect_model_requested = Signal()  # the user chose to connect a model next (the workspace is open)

    def __init__(self, parent: QWidget | None = None, *, demo_folder: Path | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("WelcomeDialog")
        self.setWindowTitle(self.tr("Welcome to Stock Workbench"))
        self.setMinimumWidth(520)
        self.demo_folder = demo_folder
        self.opener = WorkspaceOpener(self)
        self.opener.opened.connect(self._opened)
        self.opener.failed.connect(self._failed)
        self.opener.keys.connect(self._keys_known)
        self.error = ""
        self.opened = False
        self._offer_model = False
        layout = QVBoxLayout(self)
        layout.setSpacing(10)
        layout.addWidget(self._heading())
        intro = QLabel(self.tr(
            "Research A-share and Hong Kong stocks against your own ledger. Everything stays on this computer; "
            "the built-in offline model works without any API key."
        ))  # fmt: skip
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.demo_button = self._choice(
            self.tr("Explore the demo market"),
            self.tr("A fictional market with six years of prices, ready to research offline (示例 / DEMO)."),
        )
        self.new_button = self._choice(
            self.tr("Create a new workspace…"), self.tr("An empty workspace in a folder you choose, for your own data.")
        )
        self.open_button = self._choice(
            self.tr("Open an existing workspace…"), self.tr("A folder that already holds a Stock Workbench workspace.")
        )
        for button in (self.demo_button, self.new_button, self.open_button):
            layout.addWidget(button)
        self.demo_button.clicked.connect(self.choose_demo)
        self.new_button.clicked.connect(self._choose_new)
        self.open_button.clicked.connect(self._choose_existing)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 0)
        self.progress.hide()
        layout.addWidget(self.status)
        layout.addWidget(self.progress)
        self._build_next_step(layout)
        self.demo_button.setFocus()

    def _build_next_step(self, layout: QVBoxLayout) -> None:
        """The last step, shown once the workspace is open: connect a model now, or later."""
        self.connect_button = self._choice(self.tr("Connect your model…"), self._connect_words(None))
        self.later_button = self._choice(
            self.tr("Start with the offline model"),
            self.tr("Research right away without any key; connect a model later from File ▸ Connect Your Model."),
        )
        self.connect_button.clicked.connect(self._connect_model)
        self.later_button.clicked.connect(self.accept)
        for button in (self.connect_button, self.later_button):
            button.hide()
            layout.addWidget(button)

    def _connect_words(self, keys: KeyStoreView | None) -> str:
        """What connecting a model asks for, and where its key will stay (said once the workspace's key store is
        known: the OS keyring, the encrypted key file, or neither on a machine without a keyring)."""
        words = self.tr("DeepSeek, OpenAI, Kimi, Qwen, MiniMax or a local Ollama: choose the provider, paste your API "
                        "key and test the connection.")  # fmt: skip
        return after(words, where_keys_stay(keys))

    def _keys_known(self, keys: KeyStoreView) -> None:
        self.connect_button.setDescription(self._connect_words(keys))

    def _heading(self) -> QLabel:
        heading = QLabel(self.tr("Welcome to Stock Workbench"), self)
        font = heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.4)
        font.setBold(True)
        heading.setFont(font)
        return heading

    def _choice(self, title: str, description: str) -> QCommandLinkButton:
        return QCommandLinkButton(title, description, self)

    def choose_demo(self) -> None:
        """Open (building on first use) the demo market."""
        from stockbench.workbench import Workbench

        self._offer_model = True
        self._start(self.demo_folder or Workbench.demo_home(), "demo", self.tr("Preparing the demo market…"))

    def choose_folder(self, folder: Path, *, existing: bool) -> None:
        """Create a workspace in `folder`, or open the one it holds."""
        if existing and not WorkspacePaths(folder).database.exists():
            self.status.setText(self.tr("%1 holds no workspace. Choose another folder.").replace("%1", str(folder)))
            return
        if not existing and folder.exists() and any(folder.iterdir()):
            self.status.setText(self.tr("Choose an empty folder for a new workspace."))
            return
        self._offer_model = not existing  # an existing workspace may have its models already
        self._start(folder, "user", self.tr("Opening the workspace…"))

    def _choose_new(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, self.tr("Folder for the new workspace"))
        if chosen:
            self.choose_folder(Path(chosen), existing=False)

    def _choose_existing(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, self.tr("Workspace folder"))
        if chosen:
            self.choose_folder(Path(chosen), existing=True)

    def _start(self, folder: Path, kind: OpenKind, message: str) -> None:
        self._busy(True)
        self.status.setText(message)
        self.opener.start(folder, kind, keys=self._offer_model)

    def _busy(self, busy: bool) -> None:
        for button in (self.demo_button, self.new_button, self.open_button):
            button.setEnabled(not busy)
        self.progress.setVisible(busy)
        self.setCursor(Qt.CursorShape.BusyCursor if busy else Qt.CursorShape.ArrowCursor)

    def reject(self) -> None:
        if self.opened:  # the workspace is open and handed over: closing only skips the last step
            self.accept()
        elif not self.opener.busy:  # a workspace being opened must be handed over, never dropped
            super().reject()

    def _opened(self, bench: object) -> None:
        self._busy(False)
        self.opened = True
        self.setResult(QDialog.DialogCode.Accepted)
        self.workspace_opened.emit(bench)
        if not self._offer_model:
            self.accept()
            return
        for button in (self.demo_button, self.new_button, self.open_button):
            button.hide()
        self.status.setText(self.tr("Your workspace is ready. One more step, if you like:"))
        self.connect_button.show()
        self.later_button.show()
        self.connect_button.setFocus()

    def _connect_model(self) -> None:
        self.accept()
        self.connect_model_requested.emit()

    def _failed(self, error: BaseException) -> None:
        from stockbench.errors import UserError

        self._busy(False)
        self.error = (
            error_text(error) if isinstance(error, UserError) else self.tr("The workspace could not be opened.")
        )
        self.status.setText(self.error)
