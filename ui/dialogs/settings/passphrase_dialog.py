"""Asking for the encrypted key file's passphrase: once to unlock an existing file, twice (typed the same) to create
one. The passphrase goes to the engine for this session only; it is never stored, logged or shown."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

MIN_PASSPHRASE = 8  # the engine refuses a shorter one for a new file (stockbench.llm.key_file)


class PassphraseDialog(QDialog):
    """The passphrase of the key file at `path`; `new` asks for it twice and at least MIN_PASSPHRASE characters.

    OK emits `given` and keeps the dialog open: the page closes it when the engine took the passphrase, or shows
    why not (`show_error`)."""

    given = Signal(str)

    def __init__(self, path: str, *, new: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.new = new
        self.setWindowTitle(self.tr("Create the encrypted key file") if new else self.tr("Unlock the key file"))
        self.first, self.again = QLineEdit(self), QLineEdit(self)
        for box in (self.first, self.again):
            box.setEchoMode(QLineEdit.EchoMode.Password)
            box.textChanged.connect(self._check)
        self.explain = QLabel(self)
        self.explain.setWordWrap(True)
        if new:
            self.explain.setText(self.tr("API keys will be kept in %1, encrypted with this passphrase. It is never "
                                         "stored: you give it again each time the app starts. Without it the keys "
                                         "cannot be read.").replace("%1", path))  # fmt: skip
        else:
            self.explain.setText(self.tr("The API keys in %1 are encrypted. Give the passphrase to use them in this "
                                         "session.").replace("%1", path))  # fmt: skip
        self.problem = QLabel(self)
        self.problem.setObjectName("passphrase_problem")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self._give)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow(self.tr("Passphrase"), self.first)
        if new:
            form.addRow(self.tr("Again"), self.again)
        else:
            self.again.hide()
        # the title unclipped, and room for the explanation and the file's path on a few lines (it ran to five)
        metrics = self.fontMetrics()
        self.setMinimumWidth(max(metrics.horizontalAdvance(self.windowTitle()) + 160, metrics.averageCharWidth() * 64))
        layout = QVBoxLayout(self)
        layout.addWidget(self.explain)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self._check()

    def passphrase(self) -> str:
        return self.first.text()

    def _give(self) -> None:
        self.buttons.setEnabled(False)
        self.given.emit(self.first.text())

    def _check(self) -> None:
        text, problem = self.first.text(), ""
        if self.new and text and len(text) < MIN_PASSPHRASE:
            problem = self.tr("At least %1 characters.").replace("%1", str(MIN_PASSPHRASE))
        elif self.new and self.again.text() and self.again.text() != text:
            problem = self.tr("The two passphrases differ.")
        ready = bool(text) and not problem and (not self.new or self.again.text() == text)
        self.problem.setText(problem)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(ready)

    def show_error(self, text: str) -> None:
        """The engine refused the passphrase: say why and let the user try again."""
        self.problem.setText(text)
        self.buttons.setEnabled(True)
        self.first.selectAll()
        self.first.setFocus()
