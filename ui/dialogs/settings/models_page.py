"""The models page: the configured models (endpoint, fallback, whether a key is stored), adding one (guided or by
hand), storing a key, a connection test, and research's default model and cost ceiling.

Configurations are workspace settings; API keys go to the OS keyring, or on request to an encrypted key file behind
a passphrase that is asked for here (never the workspace, never a log).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from stockbench.errors import UserError, redact
from stockbench.llm.records import KeyStoreView, ModelsOverview, ModelView, ProbeResult
from stockbench.messages import error_words
from ui.context import AppContext
from ui.dialogs.model_wizard_dialog import ModelWizardDialog
from ui.dialogs.settings import settings_actions as actions
from ui.dialogs.settings.add_model_dialog import ModelDialog
from ui.dialogs.settings.amounts import parse_amount, refusal_text, typed_notes
from ui.dialogs.settings.passphrase_dialog import PassphraseDialog
from ui.errors import error_text
from ui.i18n.language import engine_language

OFFLINE = "offline"


@dataclass(frozen=True)
class Column:
    """One table column: the row field it shows and its (translatable) title."""

    key: str
    title: str


MODEL_COLUMNS = (
    Column("name", str(QT_TRANSLATE_NOOP("ModelsPage", "Name"))),
    Column("provider", str(QT_TRANSLATE_NOOP("ModelsPage", "Provider"))),
    Column("model", str(QT_TRANSLATE_NOOP("ModelsPage", "Model"))),
    Column("api_base", str(QT_TRANSLATE_NOOP("ModelsPage", "Endpoint"))),
    Column("fallback", str(QT_TRANSLATE_NOOP("ModelsPage", "Fallback"))),
    Column("key", str(QT_TRANSLATE_NOOP("ModelsPage", "API key"))),
)


class ModelsPage(QWidget):
    """Configured models, the default model for research and the default cost ceiling."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.view: ModelsOverview | None = None
        self.keystore: KeyStoreView | None = None
        self.keystore_state = QLabel(self)
        self.keystore_state.setObjectName("keystore_state")
        self.keystore_state.setWordWrap(True)
        self.store_buttons = {name: QPushButton(self) for name in ("os", "file", "unlock")}
        self.store_buttons["os"].clicked.connect(lambda: self._use_store("os"))
        self.store_buttons["file"].clicked.connect(lambda: self._use_store("file"))
        self.store_buttons["unlock"].clicked.connect(self.ask_passphrase)
        for button in self.store_buttons.values():
            button.hide()
        self.table = QTableWidget(0, len(MODEL_COLUMNS), self)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().hide()
        self.buttons = {name: QPushButton(self) for name in ("connect", "add", "key", "test", "remove")}
        self.buttons["connect"].clicked.connect(self.open_wizard)
        self.buttons["add"].clicked.connect(self.open_add)
        self.buttons["key"].clicked.connect(self._ask_key)
        self.buttons["test"].clicked.connect(self.test_selected)
        self.buttons["remove"].clicked.connect(self._remove_selected)
        self.result = QLabel(self)
        self.result.setObjectName("test_result")
        self.result.setWordWrap(True)
        self.default_model, self.max_cost = QComboBox(self), QLineEdit(self)
        self.default_model.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.default_model.activated.connect(lambda _i: self._save_defaults())
        self.max_cost.editingFinished.connect(self._save_defaults)
        self._layout()
        self.retranslate()
        self.reload()

    def retranslate(self) -> None:
        """The page's texts in the current language."""
        self.table.setHorizontalHeaderLabels([self.tr(c.title) for c in MODEL_COLUMNS])
        texts = {"connect": self.tr("Connect your model…"), "add": self.tr("Add…"), "key": self.tr("Store key…"),
                 "test": self.tr("Test connection"), "remove": self.tr("Remove")}  # fmt: skip
        for name, text in texts.items():
            self.buttons[name].setText(text)
        self.buttons["add"].setToolTip(self.tr("Any provider or OpenAI-compatible endpoint, with a fallback model"))
        self.max_cost.setPlaceholderText(self.tr("no ceiling"))
        self.form_labels[0].setText(self.tr("Default model for research"))
        self.form_labels[1].setText(self.tr("Default cost ceiling per analysis (model price currency)"))
        self.note.setText(self.tr("The offline rules model needs no key and is always available. "
                                  "A model's fallback is tried when it keeps failing."))  # fmt: skip
        store_texts = {"os": self.tr("Use the OS keyring"), "file": self.tr("Use an encrypted key file…"),
                       "unlock": self.tr("Unlock the key file…")}  # fmt: skip
        for name, text in store_texts.items():
            self.store_buttons[name].setText(text)
        if self.keystore is not None:
            self._show_keystore(self.keystore)
        if self.view is not None:  # the key column's words; the entries being edited stay as they are
            column = next(i for i, c in enumerate(MODEL_COLUMNS) if c.key == "key")
            for r, row in enumerate(self.view.models):
                self.table.setItem(r, column, QTableWidgetItem(self._cell(row, "key")))
            self.default_model.setItemText(0, self.tr("Offline rules model"))

    def _layout(self) -> None:
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        row = QHBoxLayout()
        for button in self.buttons.values():
            row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addWidget(self.result)
        stores = QHBoxLayout()
        stores.addWidget(self.keystore_state, 1)
        for button in self.store_buttons.values():
            stores.addWidget(button)
        layout.addLayout(stores)
        form = QFormLayout()
        self.form_labels = [QLabel(self), QLabel(self)]
        form.addRow(self.form_labels[0], self.default_model)
        form.addRow(self.form_labels[1], self.max_cost)
        layout.addLayout(form)
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        layout.addWidget(self.note)

    def reload(self) -> None:
        actions.load_models(self.ctx, self, self._show)
        actions.load_keystore(self.ctx, self, self._show_keystore)

    # ---- where keys are kept --------------------------------------------------------------------------------------
    def _show_keystore(self, view: KeyStoreView) -> None:
        self.keystore = view
        if view.store == "file":
            path = view.path or ""
            if view.available:
                text = self.tr("API keys are kept in the encrypted key file %1, unlocked for this session.")
            elif view.reason_key == "keyfile_locked":
                text = self.tr("API keys are kept in the encrypted key file %1, which is locked: unlock it with "
                               "its passphrase to use the models whose keys are there.")  # fmt: skip
            else:
                text = self.tr("The encrypted key file %1 cannot be used: %2").replace("%2", self._reason(view))
            self.keystore_state.setText(text.replace("%1", path))
        elif view.available:
            self.keystore_state.setText(self.tr("API keys are kept in the OS keyring."))
        else:  # its words say the OS keyring is not available, what is missing and how to get it: two sentences
            self.keystore_state.setText("\n".join(line[:1].upper() + line[1:] for line in self._words(view)))
        self.store_buttons["os"].setVisible(view.store == "file")
        self.store_buttons["file"].setVisible(view.store == "os")
        self.store_buttons["unlock"].setVisible(view.store == "file" and not view.available)

    def _reason(self, view: KeyStoreView) -> str:
        return self._words(view)[0]

    def _words(self, view: KeyStoreView) -> tuple[str, str]:
        """Why the key store cannot be used, and what to do, in the interface's language."""
        error = UserError(view.reason or "", view.hint or "", key=view.reason_key, params=view.reason_params)
        message, hint = error_words(error, engine_language())
        return redact(message), redact(hint)

    def _use_store(self, store: str) -> None:
        if store == "file":
            self.ask_passphrase()
            return
        actions.use_keystore(self.ctx, self, "os", None, success=self._store_changed, failure=self._store_failed)

    def ask_passphrase(self) -> PassphraseDialog | None:
        """Ask for the key file's passphrase: to unlock it, or to create it when switching to it (returned so a test
        can type it). Nothing is asked before the page knows where keys are kept."""
        view = self.keystore
        if view is None:
            return None
        path = view.path or self.tr("the workspace folder")
        dialog = PassphraseDialog(path, new=not view.file_exists, parent=self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.given.connect(lambda passphrase: self._give_passphrase(dialog, passphrase))
        dialog.open()
        return dialog

    def _give_passphrase(self, dialog: PassphraseDialog, passphrase: str) -> None:
        def done(view: KeyStoreView) -> None:
            dialog.accept()
            self._store_changed(view)

        def refused(error: BaseException) -> None:
            dialog.show_error(error_text(error))

        if self.keystore is not None and self.keystore.store == "file":
            actions.unlock_keys(self.ctx, self, passphrase, done, refused)
        else:
            actions.use_keystore(self.ctx, self, "file", passphrase, success=done, failure=refused)

    def _store_changed(self, view: KeyStoreView) -> None:
        self._show_keystore(view)
        actions.load_models(self.ctx, self, self._show)

    def _store_failed(self, error: BaseException) -> None:
        self.result.setText(error_text(error))

    def _show(self, view: ModelsOverview) -> None:
        self.view = view
        self.table.setRowCount(len(view.models))
        for r, row in enumerate(view.models):
            for c, column in enumerate(MODEL_COLUMNS):
                self.table.setItem(r, c, QTableWidgetItem(self._cell(row, column.key)))
        self.table.resizeColumnsToContents()
        self.default_model.clear()
        self.default_model.addItem(self.tr("Offline rules model"), OFFLINE)
        for row in view.models:
            self.default_model.addItem(row.name, row.name)
        self.default_model.setCurrentIndex(max(0, self.default_model.findData(view.default_model)))
        self.max_cost.setText("" if view.max_cost is None else str(view.max_cost))

    def _cell(self, row: ModelView, key: str) -> str:
        if key == "key":
            if not row.key_required and not row.has_key:
                return self.tr("not required")
            words = {"environment": self.tr("from the environment"), "keyring": self.tr("stored"),
                     "file": self.tr("in the key file"), "missing": self.tr("missing"),
                     "keyring_unavailable": self.tr("keyring unavailable"),
                     "file_locked": self.tr("key file locked")}  # fmt: skip
            return words.get(row.key_source, row.key_source)
        value = getattr(row, key)
        return "—" if value is None or value == "" else str(value)

    def selected_name(self) -> str | None:
        items = self.table.selectedItems()
        if not items:
            return None
        item = self.table.item(items[0].row(), 0)
        return item.text() if item is not None else None

    def open_wizard(self) -> ModelWizardDialog:
        """Open the guided "Connect your model" dialog (returned so a test can fill it in)."""
        dialog = ModelWizardDialog(self.ctx, self)
        dialog.model_saved.connect(lambda _name: self.reload())
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def open_add(self) -> ModelDialog | None:
        """Open the add-model dialog (returned so a test can fill it in)."""
        if self.view is None:
            return None
        dialog = ModelDialog(self.view, self)
        dialog.buttons.accepted.connect(lambda: self._add(dialog))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def _add(self, dialog: ModelDialog) -> None:
        try:
            config = dialog.config()
        except UserError as error:
            dialog.show_error(error_text(error))
            return
        key = dialog.key.text().strip()
        dialog.buttons.setEnabled(False)
        actions.add_model(self.ctx, dialog, config, lambda _view: self._added(dialog),
                          lambda error: dialog.show_error(error_text(error)), key=key)  # fmt: skip

    def _added(self, dialog: ModelDialog) -> None:
        dialog.accept()
        self.reload()

    def _ask_key(self) -> None:
        name = self.selected_name()
        if name is None:
            return
        from PySide6.QtWidgets import QInputDialog

        key, ok = QInputDialog.getText(self, self.tr("Store API key"), self.tr("API key for %1:").replace("%1", name),
                                       QLineEdit.EchoMode.Password)  # fmt: skip
        if ok and key.strip():
            actions.store_key(self.ctx, self, name, key.strip(), lambda _r: self.reload())

    def test_selected(self) -> None:
        """Send the selected model one tiny request and show latency and reply (or the reason it failed)."""
        name = self.selected_name()
        if name is None:
            self.result.setText(self.tr("Select a model first."))
            return
        self.result.setText(self.tr("Testing %1…").replace("%1", name))
        self.buttons["test"].setEnabled(False)
        actions.probe_model(self.ctx, self, name, self._tested, self._test_failed)

    def _tested(self, found: ProbeResult) -> None:
        self.buttons["test"].setEnabled(True)
        self.result.setText(self.tr("%1 answered in %2 ms: “%3” (model %4)").replace("%1", found.name)
                            .replace("%2", str(found.latency_ms)).replace("%3", (found.content or "").strip()[:80])
                            .replace("%4", found.model))  # fmt: skip

    def _test_failed(self, error: BaseException) -> None:
        self.buttons["test"].setEnabled(True)
        self.result.setText(self.tr("Connection failed: %1").replace("%1", error_text(error)))

    def _remove_selected(self) -> None:
        name = self.selected_name()
        if name is not None:
            actions.remove_model(self.ctx, self, name, lambda _r: self.reload())

    def _save_defaults(self) -> None:
        try:
            ceiling = parse_amount(self.max_cost.text(), "cost_ceiling")
        except UserError as error:
            self.result.setText(refusal_text(error))
            return
        self.result.setText(typed_notes(((self.max_cost.text(), "cost_ceiling", False),)))
        model = str(self.default_model.currentData() or OFFLINE)
        actions.save_defaults(self.ctx, self, model, ceiling)
