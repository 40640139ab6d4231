"""The settings window: models and providers, web search, data sources, account fees, backups and appearance, one tab
each.

Every read and write runs in the background through `ctx.op`; each page applies its change at once and says so.
Appearance choices are emitted for the main window to apply; a language switch re-translates the open window in
place (Qt sends it a LanguageChange when the catalogues change).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTabWidget, QVBoxLayout, QWidget

from ui.context import AppContext
from ui.dialogs.settings.appearance_page import AppearancePage
from ui.dialogs.settings.backups_page import BackupsPage
from ui.dialogs.settings.fees_page import FeesPage
from ui.dialogs.settings.models_page import ModelsPage
from ui.dialogs.settings.search_page import SearchPage
from ui.dialogs.settings.sources_page import SourcesPage


class SettingsDialog(QDialog):
    """The settings window. Appearance choices are emitted for the main window to apply."""

    language_chosen = Signal(str)
    theme_chosen = Signal(str)
    candles_chosen = Signal(str)
    restore_requested = Signal(str)  # a backup's file name: the window closes the workspace and puts it back

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("SettingsDialog")
        self.resize(760, 520)
        self.tabs = QTabWidget(self)
        self.models = ModelsPage(ctx, self)
        self.search = SearchPage(ctx, self)
        self.sources = SourcesPage(ctx, self)
        self.fees = FeesPage(ctx, self)
        self.backups = BackupsPage(ctx, self)
        self.backups.restore_requested.connect(self.restore_requested)
        self.appearance = AppearancePage(ctx.settings, self)
        for page in self.pages:
            self.tabs.addTab(page, "")
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
        self.retranslate()

    @property
    def pages(self) -> tuple[ModelsPage | SearchPage | SourcesPage | FeesPage | BackupsPage | AppearancePage, ...]:
        return self.models, self.search, self.sources, self.fees, self.backups, self.appearance

    def retranslate(self) -> None:
        """Every text of the window and its pages in the current language (choices and entries stay)."""
        self.setWindowTitle(self.tr("Settings"))
        titles = (self.tr("Models"), self.tr("Search"), self.tr("Data sources"), self.tr("Fees"), self.tr("Backups"),
                  self.tr("Appearance"))  # fmt: skip
        for index, title in enumerate(titles):
            self.tabs.setTabText(index, title)
        for page in self.pages:
            page.retranslate()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
