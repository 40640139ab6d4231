"""Connect your model: pick a provider preset, paste the key, test the connection, save.

The presets, the connection test and saving are `bench.models`' (run in the background by the settings'
EngineOp factories). The key goes to the OS keyring only when the model is saved; a test holds it in memory for
one request. It is never written to the workspace, a setting or a log.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from stockbench.errors import UserError
from stockbench.llm import ConnectionFailed
from stockbench.llm.records import ModelConfig, ModelPreset, ModelView, ProbeResult
from ui.context import AppContext
from ui.dialogs.key_store_words import after, where_keys_stay
from ui.dialogs.settings import settings_actions as actions
from ui.dialogs.settings.settings_actions import WizardChoices
from ui.errors import error_text

MIN_WIDTH = 560
_TROUBLE = str(QT_TRANSLATE_NOOP("ModelWizardDialog", "The provider is having trouble: try again later."))
_SLOW = str(QT_TRANSLATE_NOOP("ModelWizardDialog", "The provider did not answer in time: try again later."))
# What to check next, by the client's failure kind (the engine's message says what happened).
ADVICE: dict[str, str] = {
    "auth": str(
        QT_TRANSLATE_NOOP(
            "ModelWizardDialog",
            "The provider refused the key: check that you pasted all of it and that it belongs to this provider.",
        )
    ),
    "not_found": str(
        QT_TRANSLATE_NOOP(
            "ModelWizardDialog", "Nothing answers at that address for this model: check the API base and the model id."
        )
    ),
    "connection": str(
        QT_TRANSLATE_NOOP(
            "ModelWizardDialog",
            "The API base could not be reached: check the address and your network (for Ollama: is it running?).",
        )
    ),
    "rate_limited": str(
        QT_TRANSLATE_NOOP(
            "ModelWizardDialog",
            "The provider is limiting requests, or the account "
            "has no balance left: check your account, or try again later.",
        )
    ),
    "bad_request": str(
        QT_TRANSLATE_NOOP("ModelWizardDialog", "The provider rejected the request: check the model id.")
    ),
    "timeout": _SLOW,
    "stalled": _SLOW,
    "server_error": _TROUBLE,
    "stream_broken": _TROUBLE,
}


def free_name(wanted: str, taken: frozenset[str]) -> str:
    """`wanted`, or `wanted-2`, `wanted-3` ... when a model of that name exists."""
    number, name = 1, wanted
    while name in taken:
        number += 1
        name = f"{wanted}-{number}"
    return name


class ModelWizardDialog(QDialog):
    """Connect a model in four steps: provider, model and endpoint, key, test; then save."""

    model_saved = Signal(str)  # the saved model's name

    def __init__(self, ctx: AppContext, parent: QWidget | None = None, *, preset: str | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("ModelWizardDialog")
        self.setWindowTitle(self.tr("Connect your model"))
        self.setMinimumWidth(MIN_WIDTH)
        self.presets: dict[str, ModelPreset] = {}
        self.taken: frozenset[str] = frozenset()
        self._wanted = preset
        self._testing = False
        self._build()
        self._set_enabled(False)
        actions.load_choices(ctx, self, self._on_choices, self._failed)

    # ---- layout ------------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        self.intro = QLabel(self.tr("Choose your provider, paste your API key, test the connection, then save."), self)
        self.intro.setWordWrap(True)
        layout.addWidget(self.intro)
        layout.addLayout(self._build_form())
        layout.addLayout(self._build_test_row())
        self.result_label = QLabel(self)
        self.result_label.setObjectName("test_result")
        self.result_label.setWordWrap(True)
        self.result_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.result_label)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

    def _build_form(self) -> QFormLayout:
        self.preset_combo = QComboBox(self)
        self.preset_combo.currentIndexChanged.connect(lambda _i: self._preset_changed())
        self.where_label = QLabel(self)
        self.where_label.setObjectName("key_source")
        self.where_label.setWordWrap(True)
        self.where_label.setOpenExternalLinks(True)
        self.name_edit = QLineEdit(self)
        self.name_edit.setPlaceholderText(self.tr("lower-case letters, digits, '.', '_' or '-'"))
        self.model_combo, self.api_base_combo = self._editable_combo(), self._editable_combo()
        self.key_edit = QLineEdit(self)
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.default_check = QCheckBox(self.tr("Use this model for research by default"), self)
        self.default_check.setChecked(True)
        form = QFormLayout()
        for label, field in ((self.tr("Provider"), self.preset_combo), ("", self.where_label),
                             (self.tr("Model"), self.model_combo), (self.tr("API base"), self.api_base_combo),
                             (self.tr("API key"), self.key_edit), (self.tr("Name in Stock Workbench"), self.name_edit),
                             ("", self.default_check)):  # fmt: skip
            form.addRow(label, field)
        return form

    def _editable_combo(self) -> QComboBox:
        combo = QComboBox(self)
        combo.setEditable(True)
        combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        return combo

    def _build_test_row(self) -> QHBoxLayout:
        self.test_button = QPushButton(self.tr("Test connection"), self)
        self.test_button.clicked.connect(self.test_connection)
        row = QHBoxLayout()
        row.addWidget(self.test_button)
        row.addStretch(1)
        return row

    def _set_enabled(self, enabled: bool) -> None:
        for widget in (self.preset_combo, self.name_edit, self.model_combo, self.api_base_combo, self.default_check,
                       self.save_button):  # fmt: skip
            widget.setEnabled(enabled)
        self.test_button.setEnabled(enabled and not self._testing)
        self.key_edit.setEnabled(enabled and self.preset() is not None and self._needs_key())

    # ---- presets -----------------------------------------------------------------------------------
    def _on_choices(self, choices: WizardChoices) -> None:
        self.presets = {p.key: p for p in choices.presets}
        self.taken = choices.taken
        where = where_keys_stay(choices.keys)  # the key store as it is: the OS keyring, the key file, or neither
        self.intro.setText(after(self.tr("Choose your provider, paste your API key, test the connection, then save."),
                                 where))  # fmt: skip
        self.preset_combo.blockSignals(True)
        for preset in choices.presets:
            self.preset_combo.addItem(preset.label, preset.key)
        self.preset_combo.blockSignals(False)
        self._set_enabled(True)
        self.choose_preset(self._wanted or (choices.presets[0].key if choices.presets else ""))

    def choose_preset(self, key: str) -> None:
        """Select preset `key` and fill the fields from it."""
        index = self.preset_combo.findData(key)
        if index >= 0 and index != self.preset_combo.currentIndex():
            self.preset_combo.setCurrentIndex(index)  # fills the fields through _preset_changed
        else:
            self._preset_changed()

    def preset(self) -> ModelPreset | None:
        return self.presets.get(str(self.preset_combo.currentData()))

    def _needs_key(self) -> bool:
        preset = self.preset()
        return preset is not None and preset.requires_key

    def _preset_changed(self) -> None:
        preset = self.preset()
        if preset is None:
            return
        self.name_edit.setText(free_name(preset.name, self.taken))
        for combo, values in ((self.model_combo, preset.models), (self.api_base_combo, preset.api_bases)):
            combo.clear()
            combo.addItems(list(values))
            combo.setCurrentIndex(0)
        self.key_edit.clear()
        self.key_edit.setEnabled(preset.requires_key)
        self.key_edit.setPlaceholderText(self.tr("Paste the key from your provider") if preset.requires_key
                                         else self.tr("Not needed for this provider"))  # fmt: skip
        self.where_label.setText(self._where(preset))
        self.result_label.clear()

    def _where(self, preset: ModelPreset) -> str:
        link = f'<a href="{html.escape(preset.console)}">{html.escape(preset.console)}</a>' if preset.console else ""
        if not preset.requires_key:
            text = self.tr("Runs on this computer, no key needed. Install it from %1 and download the model first, "
                           "for example: ollama pull %2")  # fmt: skip
            return text.replace("%1", link).replace("%2", html.escape(preset.model))
        return self.tr("Get an API key at %1").replace("%1", link) if link else ""

    # ---- the configuration on screen -------------------------------------------------------------------
    def config(self) -> ModelConfig:
        """The model as configured on screen (checked by the engine when tested or saved)."""
        preset = self.preset()
        if preset is None:
            raise UserError(self.tr("Choose a provider first."))
        return preset.config(self.name_edit.text(), self.model_combo.currentText(), self.api_base_combo.currentText())

    def _config(self) -> ModelConfig | None:
        try:
            return self.config()
        except UserError as error:
            self._show(error_text(error), error=True)
            return None

    def _key(self) -> str | None:
        """The typed key ("" when the provider needs none); None (with the reason shown) when one is missing."""
        if not self._needs_key():
            return ""
        key = self.key_edit.text().strip()
        if not key:
            self._show(self.tr("Paste the API key first."), error=True)
            return None
        return key

    # ---- test -----------------------------------------------------------------------------------------
    def test_connection(self) -> None:
        """Send the model on screen one tiny request and show the latency, or the specific reason it failed."""
        key = self._key()
        config = self._config()
        if key is None or config is None:
            return
        self._testing = True
        self.test_button.setEnabled(False)
        self._show(self.tr("Testing %1…").replace("%1", config.model))
        actions.probe_draft(self.ctx, self, config, self._tested, self._test_failed, key=key)

    def _tested(self, found: ProbeResult) -> None:
        self._testing = False
        self.test_button.setEnabled(True)
        self._show(self.tr("Connected in %1 ms: the model answered “%2” (served by %3).")
                   .replace("%1", str(found.latency_ms)).replace("%2", (found.content or "").strip()[:80])
                   .replace("%3", found.model))  # fmt: skip

    def _test_failed(self, error: BaseException) -> None:
        self._testing = False
        self.test_button.setEnabled(True)
        text = self.tr("Connection failed: %1").replace("%1", self._message(error))
        advice = ADVICE.get(error.kind, "") if isinstance(error, ConnectionFailed) else ""
        self._show(f"{text}\n{self.tr(advice)}" if advice else text, error=True)

    # ---- save -------------------------------------------------------------------------------------------
    def save(self) -> None:
        """Add the model to the workspace, its key to the keyring, and (if ticked) make it research's default."""
        key = self._key()
        config = self._config()
        if key is None or config is None:
            return
        make_default = self.default_check.isChecked()
        self.save_button.setEnabled(False)
        actions.add_model(self.ctx, self, config, self._saved, self._save_failed, key=key, make_default=make_default)

    def _saved(self, config: ModelView) -> None:
        self.key_edit.clear()
        self.model_saved.emit(config.name)
        self.accept()

    def _save_failed(self, error: BaseException) -> None:
        self.save_button.setEnabled(True)
        self._show(self.tr("Not saved: %1").replace("%1", self._message(error)), error=True)

    # ---- messages ---------------------------------------------------------------------------------------
    def _show(self, text: str, *, error: bool = False) -> None:
        self.result_label.setProperty("error", error)
        self.result_label.setText(text)

    def _message(self, error: BaseException) -> str:
        return error_text(error, [self.key_edit.text()])

    def _failed(self, error: BaseException) -> None:
        self._show(self._message(error), error=True)
