"""Settings: models and providers, data sources, account fees, and appearance (language, theme, candle colours).

Model configurations and preferences are workspace settings; API keys go to the OS keyring only (never the
workspace, never a log). Every read and write runs in the background through `ctx.op`; each page applies its
change at once and says so.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QSettings, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from stockbench.clock import Market
from stockbench.errors import InvalidInput, UserError
from stockbench.llm.capabilities import ProviderPreset
from stockbench.llm.models import ModelConfig
from stockbench.workbench import Workbench
from ui.charts.palette import candle_scheme
from ui.context import AppContext
from ui.i18n.language import stored_choice
from ui.theme import theme_mode

if TYPE_CHECKING:
    from ui.dialogs.model_wizard_dialog import ModelWizardDialog

DEFAULT_MODEL_SETTING = "research.default_model"
MAX_COST_SETTING = "research.default_max_cost"  # a Decimal as text, in the model's price currency; absent: none
SOURCES_SETTING = "data.source_preference"
OFFLINE = "offline"
TEST_PROMPT = "Reply with the single word: ok"
FEE_MARKETS: tuple[Market, ...] = ("CN", "HK")


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


@dataclass(frozen=True)
class ModelRow:
    name: str
    provider: str
    model: str
    api_base: str
    fallback: str
    key_required: bool
    has_key: bool | None  # None: the keyring cannot be read


@dataclass(frozen=True)
class ModelsView:
    rows: tuple[ModelRow, ...]
    providers: tuple[ProviderPreset, ...]
    default_model: str
    max_cost: str


@dataclass(frozen=True)
class ConnectionTest:
    name: str
    latency_ms: int
    content: str
    served_by: str


# ---- engine calls (run in the background) -------------------------------------------------------------------------
def read_models(bench: Workbench) -> ModelsView:
    """The configured models (with whether a key is stored), the provider presets and the research defaults."""
    from stockbench.llm import KeyringUnavailable
    from stockbench.llm.keys import OsKeyring
    from stockbench.llm.models import ModelRegistry

    registry, keys, settings = ModelRegistry(bench.workspace.settings), OsKeyring(), bench.workspace.settings
    rows = []
    for config in registry.list():
        endpoint = registry.endpoint(config)
        try:
            has_key: bool | None = keys.get(config.name) is not None
        except KeyringUnavailable:
            has_key = None
        rows.append(ModelRow(config.name, config.provider, config.model, endpoint.api_base or "",
                             config.fallback or "", endpoint.preset.requires_key, has_key))  # fmt: skip
    default_model = str(settings.get(DEFAULT_MODEL_SETTING, OFFLINE))
    return ModelsView(tuple(rows), registry.capabilities.providers(), default_model,
                      str(settings.get(MAX_COST_SETTING, "") or ""))  # fmt: skip


def add_model(bench: Workbench, config: ModelConfig, key: str, *, make_default: bool = False) -> ModelConfig:
    """Store `config` in the workspace and `key` (if any) in the OS keyring; optionally make it research's default.
    When the keyring refuses the key, the model is not added either."""
    from stockbench.llm.keys import OsKeyring
    from stockbench.llm.models import ModelRegistry

    registry = ModelRegistry(bench.workspace.settings)
    added = registry.add(config)
    if key:
        try:
            OsKeyring().set(added.name, key)
        except UserError:
            registry.remove(added.name)
            raise
    if make_default:
        bench.workspace.settings.set(DEFAULT_MODEL_SETTING, added.name)
    return added


def remove_model(bench: Workbench, name: str) -> None:
    from stockbench.llm import KeyringUnavailable
    from stockbench.llm.keys import OsKeyring
    from stockbench.llm.models import ModelRegistry

    ModelRegistry(bench.workspace.settings).remove(name)
    try:
        OsKeyring().delete(name)
    except KeyringUnavailable:
        return


def store_key(bench: Workbench, name: str, key: str) -> None:
    from stockbench.llm.keys import OsKeyring
    from stockbench.llm.models import ModelRegistry

    OsKeyring().set(ModelRegistry(bench.workspace.settings).get(name).name, key)


class ConnectionFailed(UserError):
    """A connection test failed; `kind` is the client's failure kind (auth, not_found, connection, timeout ...)."""

    code = "connection_failed"

    def __init__(self, message: str, kind: str, hint: str = "") -> None:
        super().__init__(message, hint)
        self.kind = kind


class _DraftKey:
    """The key typed for a model not saved yet: held in memory for one test, never stored."""

    def __init__(self, name: str, key: str) -> None:
        self.name, self.key = name, key

    def get(self, name: str) -> str | None:
        return self.key if name == self.name and self.key else None

    def set(self, name: str, key: str) -> None:
        raise InvalidInput("a draft key cannot be stored")

    def delete(self, name: str) -> bool:
        return False


def probe_model(bench: Workbench, name: str, *, draft: ModelConfig | None = None, key: str = "") -> ConnectionTest:
    """One tiny request (no fallback, one attempt) to the configured model `name`, or to `draft` with `key` before
    either is saved. ConnectionFailed says why it failed (its `kind` sorts the cause)."""
    from stockbench.llm import ModelUnavailable
    from stockbench.llm.client import Attempt, LlmClient, RetryPolicy
    from stockbench.llm.keys import redact
    from stockbench.llm.messages import ChatRequest, user
    from stockbench.llm.models import ModelRegistry
    from stockbench.llm.presets import draft_registry

    registry = ModelRegistry(bench.workspace.settings) if draft is None else draft_registry(draft)
    keys = None if draft is None else _DraftKey(draft.name, key)
    client = LlmClient(registry, keys=keys, policy=RetryPolicy(attempts_per_model=1, attempt_deadline_s=60.0,
                                                                stall_s=30.0))  # fmt: skip
    attempts: list[Attempt] = []
    target = name if draft is None else draft.name
    started = time.monotonic()
    try:
        response = client.complete(ChatRequest(target, (user(TEST_PROMPT),), max_tokens=32),
                                   on_attempt=attempts.append, fallback=False)  # fmt: skip
    except ModelUnavailable as error:
        kind = (attempts[-1].error_kind if attempts else None) or "not_called"
        raise ConnectionFailed(redact(error.message, [key]), kind, error.hint) from None
    latency = round((time.monotonic() - started) * 1000)
    return ConnectionTest(target, latency, (response.content or "").strip(), response.model)


def save_research_defaults(bench: Workbench, model: str, max_cost: Decimal | None) -> None:
    settings = bench.workspace.settings
    settings.set(DEFAULT_MODEL_SETTING, model)
    if max_cost is None:
        settings.delete(MAX_COST_SETTING)
    else:
        settings.set(MAX_COST_SETTING, str(max_cost))


def read_sources(bench: Workbench) -> list[str]:
    """The data sources in the order reads prefer them."""
    return list(bench.data.cache.preference())


def save_sources(bench: Workbench, order: Sequence[str]) -> None:
    bench.workspace.settings.set(SOURCES_SETTING, list(order))


@dataclass(frozen=True)
class FeeView:
    account: str
    market: Market
    rate: Decimal
    minimum: Decimal
    bundled: bool


def read_fees(bench: Workbench) -> list[FeeView]:
    """The commission terms in force now, per account and market."""
    now = bench.clock.now()
    return [
        FeeView(a.name, m, s.commission_rate, s.commission_min, s.bundled_exchange_fees)
        for a in bench.ledger.accounts() for m in a.markets if m in FEE_MARKETS
        for s in [bench.ledger.fee_settings(a.name, m, now)]
    ]  # fmt: skip


def save_fees(bench: Workbench, view: FeeView) -> None:
    bench.ledger.set_fees(view.account, view.market, rate=view.rate, minimum=view.minimum, bundled=view.bundled)


def parse_amount(text: str, what: str) -> Decimal | None:
    """`text` as a non-negative Decimal (None when empty); InvalidInput naming `what` otherwise."""
    text = text.strip().replace(",", "")
    if not text:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise InvalidInput(f"{what} '{text}' is not a number", "for example 0.00025") from None
    if not value.is_finite() or value < 0:
        raise InvalidInput(f"{what} must be zero or more")
    return value


# ---- pages --------------------------------------------------------------------------------------------------------
class ModelDialog(QDialog):
    """Add one model: name, provider, model id, endpoint, fallback and its API key (to the keyring)."""

    def __init__(self, view: ModelsView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Add a model"))
        self.name, self.model, self.api_base, self.key = (
            QLineEdit(self),
            QLineEdit(self),
            QLineEdit(self),
            QLineEdit(self),
        )
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.key.setPlaceholderText(self.tr("Stored in the OS keyring, never in the workspace"))
        self.provider, self.fallback = QComboBox(self), QComboBox(self)
        self.presets = {p.name: p for p in view.providers}
        for preset in view.providers:
            self.provider.addItem(preset.label, preset.name)
        self.fallback.addItem(self.tr("(none)"), "")
        for row in view.rows:
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


class ModelsPage(QWidget):
    """Configured models, the default model for research and the default cost ceiling."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.view: ModelsView | None = None
        self.table = QTableWidget(0, len(MODEL_COLUMNS), self)
        self.table.setHorizontalHeaderLabels([self.tr(c.title) for c in MODEL_COLUMNS])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().hide()
        self.buttons = {name: QPushButton(text, self) for name, text in (
            ("connect", self.tr("Connect your model…")), ("add", self.tr("Add…")), ("key", self.tr("Store key…")),
            ("test", self.tr("Test connection")), ("remove", self.tr("Remove")))}  # fmt: skip
        self.buttons["add"].setToolTip(self.tr("Any provider or OpenAI-compatible endpoint, with a fallback model"))
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
        self.max_cost.setPlaceholderText(self.tr("no ceiling"))
        self.default_model.activated.connect(lambda _i: self._save_defaults())
        self.max_cost.editingFinished.connect(self._save_defaults)
        self._layout()
        self.reload()

    def _layout(self) -> None:
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        row = QHBoxLayout()
        for button in self.buttons.values():
            row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addWidget(self.result)
        form = QFormLayout()
        form.addRow(self.tr("Default model for research"), self.default_model)
        form.addRow(self.tr("Default cost ceiling per analysis (model price currency)"), self.max_cost)
        layout.addLayout(form)
        note = QLabel(self.tr("The offline rules model needs no key and is always available. "
                              "A model's fallback is tried when it keeps failing."), self)  # fmt: skip
        note.setWordWrap(True)
        layout.addWidget(note)

    def reload(self) -> None:
        self.ctx.op(read_models, self._show, parent=self)

    def _show(self, view: ModelsView) -> None:
        self.view = view
        self.table.setRowCount(len(view.rows))
        for r, row in enumerate(view.rows):
            for c, column in enumerate(MODEL_COLUMNS):
                self.table.setItem(r, c, QTableWidgetItem(self._cell(row, column.key)))
        self.table.resizeColumnsToContents()
        self.default_model.clear()
        self.default_model.addItem(self.tr("Offline rules model"), OFFLINE)
        for row in view.rows:
            self.default_model.addItem(row.name, row.name)
        self.default_model.setCurrentIndex(max(0, self.default_model.findData(view.default_model)))
        self.max_cost.setText(view.max_cost)

    def _cell(self, row: ModelRow, key: str) -> str:
        if key == "key":
            if not row.key_required and not row.has_key:
                return self.tr("not required")
            return {True: self.tr("stored"), False: self.tr("missing"), None: self.tr("keyring unavailable")}[
                row.has_key
            ]
        return str(getattr(row, key)) or "—"

    def selected_name(self) -> str | None:
        items = self.table.selectedItems()
        if not items:
            return None
        item = self.table.item(items[0].row(), 0)
        return item.text() if item is not None else None

    def open_wizard(self) -> ModelWizardDialog:
        """Open the guided "Connect your model" dialog (returned so a test can fill it in)."""
        from ui.dialogs.model_wizard_dialog import ModelWizardDialog

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
            dialog.show_error(error.message)
            return
        key = dialog.key.text().strip()
        dialog.buttons.setEnabled(False)
        self.ctx.op(lambda bench: add_model(bench, config, key), lambda _c: self._added(dialog),
                    failure=lambda e: dialog.show_error(_message(e)), parent=dialog)  # fmt: skip

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
            self.ctx.op(lambda bench: store_key(bench, name, key.strip()), lambda _r: self.reload(), parent=self)

    def test_selected(self) -> None:
        """Send the selected model one tiny request and show latency and reply (or the reason it failed)."""
        name = self.selected_name()
        if name is None:
            self.result.setText(self.tr("Select a model first."))
            return
        self.result.setText(self.tr("Testing %1…").replace("%1", name))
        self.buttons["test"].setEnabled(False)
        self.ctx.op(lambda bench: probe_model(bench, name), self._tested, failure=self._test_failed, parent=self)

    def _tested(self, found: ConnectionTest) -> None:
        self.buttons["test"].setEnabled(True)
        self.result.setText(self.tr("%1 answered in %2 ms: “%3” (model %4)").replace("%1", found.name)
                            .replace("%2", str(found.latency_ms)).replace("%3", found.content[:80])
                            .replace("%4", found.served_by))  # fmt: skip

    def _test_failed(self, error: BaseException) -> None:
        self.buttons["test"].setEnabled(True)
        self.result.setText(self.tr("Connection failed: %1").replace("%1", _message(error)))

    def _remove_selected(self) -> None:
        name = self.selected_name()
        if name is not None:
            self.ctx.op(lambda bench: remove_model(bench, name), lambda _r: self.reload(), parent=self)

    def _save_defaults(self) -> None:
        try:
            ceiling = parse_amount(self.max_cost.text(), "the cost ceiling")
        except UserError as error:
            self.result.setText(error.message)
            return
        model = str(self.default_model.currentData() or OFFLINE)
        self.ctx.op(lambda bench: save_research_defaults(bench, model, ceiling), parent=self)


class SourcesPage(QWidget):
    """The order in which reads prefer data sources (one source per series, never mixed)."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.list = QListWidget(self)
        self.list.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        up, down, save = (
            QPushButton(self.tr("Move up"), self),
            QPushButton(self.tr("Move down"), self),
            QPushButton(self.tr("Save order"), self),
        )
        up.clicked.connect(lambda: self._move(-1))
        down.clicked.connect(lambda: self._move(1))
        save.clicked.connect(self.save)
        self.note = QLabel(self.tr("Where several sources hold a series, reads take the first source in this order. "
                                   "A new order applies the next time the workspace opens."), self)  # fmt: skip
        self.note.setWordWrap(True)
        layout, row = QVBoxLayout(self), QHBoxLayout()
        layout.addWidget(self.list)
        for button in (up, down, save):
            row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addWidget(self.note)
        ctx.op(read_sources, self._show, parent=self)

    def _show(self, order: list[str]) -> None:
        self.list.clear()
        self.list.addItems(order)

    def order(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def _move(self, step: int) -> None:
        row = self.list.currentRow()
        target = row + step
        if row < 0 or not 0 <= target < self.list.count():
            return
        item = self.list.takeItem(row)
        self.list.insertItem(target, item)
        self.list.setCurrentRow(target)

    def save(self) -> None:
        order = self.order()
        self.ctx.op(
            lambda bench: save_sources(bench, order), lambda _r: self.note.setText(self.tr("Saved.")), parent=self
        )


class FeesPage(QWidget):
    """Commission terms per account and market; new terms apply from now, earlier fills keep theirs."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.views: list[FeeView] = []
        self.choice = QComboBox(self)
        self.rate, self.minimum = QLineEdit(self), QLineEdit(self)
        self.bundled = QCheckBox(self.tr("Exchange fees are included in the commission"), self)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        apply = QPushButton(self.tr("Apply from now"), self)
        apply.clicked.connect(self.apply)
        self.choice.currentIndexChanged.connect(self._fill)
        form = QFormLayout(self)
        form.addRow(self.tr("Account and market"), self.choice)
        form.addRow(self.tr("Commission rate (e.g. 0.00025)"), self.rate)
        form.addRow(self.tr("Minimum commission per order"), self.minimum)
        form.addRow(self.bundled)
        form.addRow(apply)
        form.addRow(self.status)
        ctx.op(read_fees, self._show, parent=self)

    def _show(self, views: list[FeeView]) -> None:
        self.views = views
        self.choice.clear()
        for view in views:
            self.choice.addItem(f"{view.account} · {view.market}")
        if not views:
            self.status.setText(self.tr("No accounts yet: add one in the ledger first."))

    def _fill(self, index: int) -> None:
        if 0 <= index < len(self.views):
            view = self.views[index]
            self.rate.setText(str(view.rate))
            self.minimum.setText(str(view.minimum))
            self.bundled.setChecked(view.bundled)

    def apply(self) -> None:
        index = self.choice.currentIndex()
        if not 0 <= index < len(self.views):
            return
        try:
            rate = parse_amount(self.rate.text(), "the commission rate") or Decimal(0)
            minimum = parse_amount(self.minimum.text(), "the minimum commission") or Decimal(0)
        except UserError as error:
            self.status.setText(error.message)
            return
        old = self.views[index]
        view = FeeView(old.account, old.market, rate, minimum, self.bundled.isChecked())
        self.ctx.op(lambda bench: save_fees(bench, view), lambda _r: self.status.setText(self.tr("Saved.")),
                    failure=lambda e: self.status.setText(_message(e)), parent=self)  # fmt: skip


class AppearancePage(QWidget):
    """Language, theme and candle colours (stored in the user's Qt settings, applied at once)."""

    def __init__(self, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language, self.theme, self.candles = QComboBox(self), QComboBox(self), QComboBox(self)
        for text, value in ((self.tr("Follow the system"), "system"), ("简体中文", "zh_CN"), ("English", "en")):
            self.language.addItem(text, value)
        for text, value in (
            (self.tr("Follow the system"), "system"),
            (self.tr("Light"), "light"),
            (self.tr("Dark"), "dark"),
        ):
            self.theme.addItem(text, value)
        self.candles.addItem(self.tr("Red up, green down (China)"), "red_up")
        self.candles.addItem(self.tr("Green up, red down"), "green_up")
        for combo, value in ((self.language, stored_choice(settings)), (self.theme, theme_mode(settings)),
                             (self.candles, candle_scheme(settings))):  # fmt: skip
            combo.setCurrentIndex(max(0, combo.findData(value)))
        form = QFormLayout(self)
        form.addRow(self.tr("Language"), self.language)
        form.addRow(self.tr("Theme"), self.theme)
        form.addRow(self.tr("Candle colours"), self.candles)


class SettingsDialog(QDialog):
    """The settings window. Appearance choices are emitted for the main window to apply."""

    language_chosen = Signal(str)
    theme_chosen = Signal(str)
    candles_chosen = Signal(str)

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("SettingsDialog")
        self.setWindowTitle(self.tr("Settings"))
        self.resize(760, 520)
        self.tabs = QTabWidget(self)
        self.models = ModelsPage(ctx, self)
        self.sources = SourcesPage(ctx, self)
        self.fees = FeesPage(ctx, self)
        self.appearance = AppearancePage(ctx.settings, self)
        for page, title in ((self.models, self.tr("Models")), (self.sources, self.tr("Data sources")),
                            (self.fees, self.tr("Fees")), (self.appearance, self.tr("Appearance"))):  # fmt: skip
            self.tabs.addTab(page, title)
        self.appearance.language.activated.connect(
            lambda i: self.language_chosen.emit(self.appearance.language.itemData(i))
        )
        self.appearance.theme.activated.connect(lambda i: self.theme_chosen.emit(self.appearance.theme.itemData(i)))
        self.appearance.candles.activated.connect(
            lambda i: self.candles_chosen.emit(self.appearance.candles.itemData(i))
        )
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(buttons)


def _message(error: BaseException) -> str:
    from stockbench.llm.keys import redact

    return redact(error.message if isinstance(error, UserError) else f"{type(error).__name__}: {error}")
