"""The workspace cannot be opened because its file is damaged, or its folder cannot be written, or the disk is full:
the reason in one line, the newest backup with its time, and what can be done (open another workspace, copy the
restore command, quit)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPushButton, QVBoxLayout, QWidget

from stockbench.errors import WorkspaceDamaged
from stockbench.messages import error_words
from ui.i18n.language import engine_language


def restore_command(backup: str) -> str:
    """What a person types to put `backup` back (the engine's `stockbench restore`)."""
    return f"stockbench restore {backup}"


class DamagedWorkspaceDialog(QDialog):
    """Says why `error`'s workspace cannot be used; `open_another` or `quit_requested` say what the user chose."""

    open_another = Signal()
    quit_requested = Signal()
    restore_requested = Signal(str)  # the backup's file name

    def __init__(self, parent: QWidget | None, error: WorkspaceDamaged, *, while_open: bool = False) -> None:
        """`while_open`: the damage was found in a workspace already open (a block that does not read back)."""
        super().__init__(parent)
        self.setObjectName("DamagedWorkspaceDialog")
        self.error = error
        self.setWindowTitle(self.tr("The workspace file is damaged") if while_open
                            else self.tr("The workspace cannot be opened"))  # fmt: skip
        message, hint = error_words(error, engine_language())
        self.reason_label = QLabel(message, self)
        self.hint_label = QLabel(hint, self)
        for label in (self.reason_label, self.hint_label):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reason_label.setStyleSheet("font-weight: bold")
        buttons = QDialogButtonBox(self)
        self.open_button = buttons.addButton(self.tr("Open another workspace…"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.copy_button: QPushButton | None = None
        if error.backup is not None:
            self.copy_button = buttons.addButton(self.tr("Copy the restore command"),
                                                 QDialogButtonBox.ButtonRole.ActionRole)  # fmt: skip
            self.copy_button.clicked.connect(self.copy_restore_command)
        self.restore_button = self._restore_button(buttons)
        self.quit_button = buttons.addButton(self.tr("Quit"), QDialogButtonBox.ButtonRole.RejectRole)
        self.open_button.clicked.connect(self._open_another)
        self.quit_button.clicked.connect(self._quit)
        layout = QVBoxLayout(self)
        layout.addWidget(self.reason_label)
        layout.addWidget(self.hint_label)
        layout.addWidget(buttons)

    def _restore_button(self, buttons: QDialogButtonBox) -> QPushButton | None:
        """ "Restore this backup", for a named backup: the window puts it back in the background (the damaged file
        kept aside, never deleted) and opens the workspace again."""
        if self.error.backup is None:
            return None
        button = buttons.addButton(self.tr("Restore this backup"), QDialogButtonBox.ButtonRole.ActionRole)
        button.setToolTip(self.tr("The damaged file is kept beside it, renamed; nothing is deleted."))
        button.clicked.connect(self._restore)
        return button

    def _restore(self) -> None:
        if self.error.backup is None:
            return
        self.accept()
        self.restore_requested.emit(self.error.backup)

    def copy_restore_command(self) -> None:
        """Put `stockbench restore <newest backup>` on the clipboard, and say so on the button."""
        if self.error.backup is None or self.copy_button is None:
            return
        QGuiApplication.clipboard().setText(restore_command(self.error.backup))
        self.copy_button.setText(self.tr("Copied"))

    def _open_another(self) -> None:
        self.accept()
        self.open_another.emit()

    def _quit(self) -> None:
        self.reject()
        self.quit_requested.emit()
