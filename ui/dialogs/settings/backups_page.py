"""The backups page: where backups go, the backups taken so far, a backup now, and putting one back.

The app backs up on its own (before a migration and an import, when it closes, once a day while it runs); this page
shows those copies, takes one by hand, moves later ones to another folder (e.g. a synced one), and restores one: the
window closes the workspace, puts the backup in place (the current file kept aside, never deleted) and reopens it.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from stockbench.clock import MARKET_TZ
from ui.context import AppContext
from ui.dialogs.settings import settings_actions as actions
from ui.dialogs.settings.settings_actions import BackupRow, BackupsView
from ui.errors import error_text


def beijing(moment: datetime) -> str:
    """A backup's time in Beijing time (the column's header names the zone), to the second."""
    return f"{moment.astimezone(MARKET_TZ['CN']):%Y-%m-%d %H:%M:%S}"


class BackupsPage(QWidget):
    """The backup folder, the complete backups newest first, "Back up now" and "Restore…"."""

    restore_requested = Signal(str)  # the backup's file name, after the person confirmed

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.view: BackupsView | None = None
        self.folder_label = QLabel(self)
        self.folder = QLabel(self)
        self.folder.setWordWrap(True)
        self.folder.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.choose_button, self.default_button = QPushButton(self), QPushButton(self)
        self.choose_button.clicked.connect(self.choose_folder)
        self.default_button.clicked.connect(lambda: self._set_folder(None))
        self.table = QTableWidget(0, 4, self)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.backup_button, self.restore_button = QPushButton(self), QPushButton(self)
        self.backup_button.clicked.connect(self.back_up_now)
        self.restore_button.clicked.connect(self.ask_restore)
        self.restore_button.setEnabled(False)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder, 1)
        folder_row.addWidget(self.choose_button)
        folder_row.addWidget(self.default_button)
        buttons = QHBoxLayout()
        buttons.addWidget(self.backup_button)
        buttons.addWidget(self.restore_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.folder_label)
        layout.addLayout(folder_row)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        self.retranslate()
        self.reload()

    def retranslate(self) -> None:
        self.folder_label.setText(self.tr("Backups go to this folder:"))
        self.choose_button.setText(self.tr("Choose folder…"))
        self.default_button.setText(self.tr("Use the workspace's own folder"))
        self.default_button.setToolTip(self.tr("Later backups go to backups/ in the workspace folder again."))
        self.backup_button.setText(self.tr("Back up now"))
        self.restore_button.setText(self.tr("Restore selected…"))
        self.table.setHorizontalHeaderLabels([self.tr("Taken (Beijing time)"), self.tr("Why"), self.tr("Size"),
                                              self.tr("File")])  # fmt: skip
        if self.view is not None:
            self._show(self.view)

    # ---- reading ---------------------------------------------------------------------------------------------------
    def reload(self) -> None:
        actions.load_backups(self.ctx, self, self._show)

    def _show(self, view: BackupsView) -> None:
        self.view = view
        self.folder.setText(str(view.folder) + ("" if view.chosen else " " + self.tr("(the workspace's own)")))
        self.default_button.setEnabled(view.chosen)
        self.table.setRowCount(len(view.backups))
        for row, backup in enumerate(view.backups):
            cells = (beijing(backup.taken_at), self.reason_words(backup), self.size_words(backup.bytes),
                     backup.name)  # fmt: skip
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if column == 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                item.setData(Qt.ItemDataRole.UserRole, backup.name)
                self.table.setItem(row, column, item)
        if not view.backups:
            self.status.setText(self.tr("No backups in this folder yet."))
        self._selection_changed()

    def reason_words(self, backup: BackupRow) -> str:
        words = {"close": self.tr("closed"), "daily": self.tr("daily"), "migration": self.tr("before an upgrade"),
                 "import": self.tr("before an import"), "manual": self.tr("by hand"),
                 "restore": self.tr("before a restore")}  # fmt: skip
        return words.get(backup.reason, backup.reason)

    def size_words(self, size: int) -> str:
        return self.tr("%1 MB").replace("%1", f"{size / 1e6:,.1f}")

    def selected(self) -> str | None:
        """The file name of the chosen backup, if a row is chosen."""
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        item = self.table.item(rows[0].row(), 0)
        return None if item is None else str(item.data(Qt.ItemDataRole.UserRole))

    def _selection_changed(self) -> None:
        self.restore_button.setEnabled(self.selected() is not None)

    # ---- changing ------------------------------------------------------------------------------------------------
    def back_up_now(self) -> None:
        self.backup_button.setEnabled(False)
        self.status.setText(self.tr("Backing up…"))
        actions.take_backup(self.ctx, self, self._backed_up, self._failed)

    def _backed_up(self, taken: BackupRow) -> None:
        self.backup_button.setEnabled(True)
        self.status.setText(self.tr("Backed up: %1 (%2).").replace("%1", taken.name)
                            .replace("%2", self.size_words(taken.bytes)))  # fmt: skip
        self.reload()

    def _failed(self, error: BaseException) -> None:
        self.backup_button.setEnabled(True)
        self.status.setText(error_text(error))

    def choose_folder(self) -> None:
        start = str(self.view.folder) if self.view is not None else ""
        chosen = QFileDialog.getExistingDirectory(self, self.tr("Choose the folder for backups"), start)
        if chosen:
            self._set_folder(Path(chosen))

    def _set_folder(self, folder: Path | None) -> None:
        actions.choose_backup_folder(self.ctx, self, folder, self._folder_set, self._failed)

    def _folder_set(self, view: BackupsView) -> None:
        self._show(view)
        self.status.setText(self.tr("Later backups go to %1; those taken before stay where they are.")
                            .replace("%1", str(view.folder)))  # fmt: skip

    def ask_restore(self) -> None:
        name = self.selected()
        if name is None or self.view is None:
            return
        backup = next(b for b in self.view.backups if b.name == name)
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Restore this backup?"),
                          self.tr("Put back the workspace as it was at %1?").replace("%1",
                                                                              beijing(backup.taken_at)),
                          QMessageBox.StandardButton.Cancel, self)  # fmt: skip
        box.setInformativeText(self.tr("The workspace closes and reopens from the backup. The current file is kept "
                                       "beside it as workspace.before-restore-….duckdb, never deleted."))  # fmt: skip
        restore = box.addButton(self.tr("Restore"), QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.finished.connect(lambda _r: self.restore_requested.emit(name) if box.clickedButton() is restore else None)
        self.confirm = box
        box.open()
