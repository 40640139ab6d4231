"""Asks why an entry is voided or an order cancelled: a void is refused without a reason, so OK needs one."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout, QWidget


class ReasonDialog(QDialog):
    """A short question and a reason field; OK is enabled only when a reason is given (if required)."""

    def __init__(self, title: str, question: str, parent: QWidget | None = None, *, required: bool = True) -> None:
        super().__init__(parent)
        self.setObjectName("ReasonDialog")
        self.setWindowTitle(title)
        self.required = required
        layout = QVBoxLayout(self)
        label = QLabel(question, self)
        label.setWordWrap(True)
        layout.addWidget(label)
        self.reason_edit = QLineEdit(self)
        self.reason_edit.setPlaceholderText(self.tr("e.g. entered twice"))
        layout.addWidget(self.reason_edit)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.reason_edit.textChanged.connect(self._validate)
        self._validate()

    def reason(self) -> str:
        return self.reason_edit.text().strip()

    def _validate(self) -> None:
        self.ok_button.setEnabled(bool(self.reason()) or not self.required)
