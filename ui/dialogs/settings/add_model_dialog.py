"""Add one model: name, provider, model id, endpoint, fallback and its API key (which goes to the keyring only)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QWidget

from stockbench.llm.records import ModelConfig, ModelsOverview


class ModelDialog(QDialog):
    """Add one model: name, provider, model id, endpoint, fallback and its API key (to the keyring)."""

    def __init__(self, view: ModelsOverview, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Add a model"))
        self.name, self.model, self.api_base, self.key = (
            QLineEdit(self),
            QLineEdit(self),
            QLineEdit(self),
            QLineEdit(self),
        )
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.key.setPlaceholderText(self.tr("Kept in the key store, never in the workspace"))
        self.provider, self.fallback = QComboBox(self), QComboBox(self)
        self.presets = {p.name: p for p in view.providers}
        for preset in view.providers:
            self.provider.addItem(preset.label, preset.name)
        self.fallback.addItem(self.tr("(none)"), "")
        for row in view.models:
            self.fallback.addItem(row.name, row.name)
        self.provider.currentIndexChanged.connect(self._provider_changed)
        self.error = QLabel(self)
        self.error.setWordWrap(True)
        self.error.setObjectName("error")
        form = QFormLayout(self)
        for label, field in ((self.tr("Name"), self.name), (self.tr("Provider"), self.provider),
                             (self.tr("Model id"), self.model), (self.tr("Endpoint"), self.api_base),
                             (self.tr("Fallback model"), self.fallback), (self.tr("API key"), self.key)):  # fmt: skip
            form.addRow(label, field)
        form.addRow(self.error)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self._provider_changed()

    def _provider_changed(self) -> None:
        preset = self.presets.get(str(self.provider.currentData()))
        self.api_base.setPlaceholderText(preset.api_base or self.tr("required") if preset else "")
        self.key.setEnabled(True)

    def config(self) -> ModelConfig:
        return ModelConfig(self.name.text().strip(), str(self.provider.currentData()), self.model.text().strip(),
                           self.api_base.text().strip() or None, str(self.fallback.currentData()) or None)  # fmt: skip

    def show_error(self, message: str) -> None:
        self.error.setText(message)
        self.buttons.setEnabled(True)
