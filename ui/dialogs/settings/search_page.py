"""The search page: the provider research may query (a SearXNG instance, or the Brave Search API with its key),
saved, cleared or tested in the background.

The test sends what the boxes hold one query (saved or not) and shows ok with the number of results, or why it
failed and what to do, in the words of the engine's one catalogue (stockbench.messages), in the interface's
language. A Brave key typed here goes to the key store in the background when saved and is cleared from its box at
once; a test uses it for that one request.
"""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from stockbench.errors import UserError, redact
from stockbench.messages import error_words
from stockbench.research.search_records import SearchConfig, SearchProbe
from ui.context import AppContext
from ui.dialogs.settings import settings_actions as actions
from ui.errors import error_text
from ui.i18n.language import engine_language

SEARXNG, BRAVE = "searxng", "brave"
BRAVE_API = "https://api.search.brave.com"
KEY_STORED = ("environment", "keyring", "file")


class SearchPage(QWidget):
    """The web search research may use: SearXNG (its address) or Brave (its key), with Save, Test and Clear."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.config: SearchConfig | None = None
        self.provider = QComboBox(self)
        self.provider.addItem("SearXNG", SEARXNG)
        self.provider.addItem("Brave Search API", BRAVE)
        self.provider.activated.connect(self._chosen)
        self.url, self.key = QLineEdit(self), QLineEdit(self)
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.save_button, self.test_button, self.clear_button = QPushButton(self), QPushButton(self), QPushButton(self)
        self.save_button.clicked.connect(self.save)
        self.test_button.clicked.connect(self.test)
        self.clear_button.clicked.connect(self.clear)
        self.result = QLabel(self)
        self.result.setWordWrap(True)
        self.note, self.provider_label, self.address_label, self.key_label = (QLabel(self) for _ in range(4))
        self.note.setWordWrap(True)
        layout, row = QVBoxLayout(self), QHBoxLayout()
        for widget in (self.provider_label, self.provider, self.address_label, self.url, self.key_label, self.key):
            layout.addWidget(widget)
        for button in (self.save_button, self.test_button, self.clear_button):
            row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addWidget(self.result)
        layout.addWidget(self.note)
        layout.addStretch(1)
        self._user_chose = False
        self.retranslate()
        actions.load_search(ctx, self, self._loaded)

    @property
    def choice(self) -> str:
        """The provider chosen in the box: searxng or brave."""
        return str(self.provider.currentData())

    def _chosen(self) -> None:
        self._user_chose = True
        self.url.clear()
        self._arrange()

    def _loaded(self, config: SearchConfig) -> None:
        """The saved provider and address, unless the user has chosen or typed others while they loaded."""
        self.config = config
        if not self._user_chose and config.provider is not None:
            self.provider.setCurrentIndex(self.provider.findData(config.provider))
        if not self.url.isModified() and not self._user_chose:
            self.url.setText(self._shown_address(config))
        self._arrange()

    def _shown_address(self, config: SearchConfig) -> str:
        if config.provider == BRAVE and config.url == BRAVE_API:
            return ""  # blank means Brave's own address
        return config.url or ""

    def _arrange(self) -> None:
        """Show the boxes the chosen provider takes, in the current language."""
        brave = self.choice == BRAVE
        self.key.setVisible(brave)
        self.key_label.setVisible(brave)
        if brave:
            self.address_label.setText(self.tr("Brave Search API address (blank: Brave's own)"))
            self.url.setPlaceholderText(BRAVE_API)
            stored = self.config is not None and self.config.provider == BRAVE and self.config.key_source in KEY_STORED
            self.key.setPlaceholderText(self.tr("stored: leave blank to keep it") if stored else self.tr("API key"))
        else:
            self.address_label.setText(self.tr("SearXNG address"))
            self.url.setPlaceholderText("https://searx.example.org")

    def retranslate(self) -> None:
        """The page's words in the current language (the choice, the address and the last result stay)."""
        for button, text in zip((self.save_button, self.test_button, self.clear_button),
                                (self.tr("Save"), self.tr("Test"), self.tr("Clear")), strict=True):  # fmt: skip
            button.setText(text)
        self.provider_label.setText(self.tr("Search provider"))
        self.key_label.setText(self.tr("Brave Search API key (kept in the key store, never in the workspace)"))
        self.note.setText(self.tr("Research may search the web through a SearXNG instance (its JSON format enabled) "
                                  "or the Brave Search API (with its key). Results are only candidates: research "
                                  "reads a page in full before quoting it. Without one, reports say that no search "
                                  "was run."))  # fmt: skip
        self._arrange()

    def _show(self, config: SearchConfig) -> None:
        self.config = config
        if config.provider is not None:
            self.provider.setCurrentIndex(self.provider.findData(config.provider))
        self.url.setText(self._shown_address(config))
        self._arrange()

    def save(self) -> None:
        """Let research query the chosen provider; a typed Brave key leaves its box at once (the key store keeps
        it)."""
        if self.choice == BRAVE:
            key = self.key.text().strip()
            self.key.clear()
            actions.save_brave(self.ctx, self, key, self.url.text().strip(), self._saved, failure=self._refused)
            return
        actions.save_search(self.ctx, self, self.url.text(), self._saved, self._refused)

    def _saved(self, config: SearchConfig) -> None:
        self._show(config)
        self.result.setText(self.tr("Saved: research searches through %1.").replace("%1", config.url or ""))

    def clear(self) -> None:
        """Use no search provider (a stored Brave key is deleted)."""
        self.key.clear()
        actions.clear_search(self.ctx, self, self._cleared)

    def _cleared(self, config: SearchConfig) -> None:
        self._show(config)
        self.result.setText(self.tr("Cleared: research runs no web search."))

    def test(self) -> None:
        """Send the chosen provider one query in the background and show the outcome."""
        self.test_button.setEnabled(False)
        self.result.setText(self.tr("Testing…"))
        if self.choice == BRAVE:
            actions.test_brave(self.ctx, self, self.key.text().strip(), self.url.text().strip(), self._tested,
                               failure=self._refused)  # fmt: skip
            return
        actions.test_search(self.ctx, self, self.url.text(), self._tested, self._refused)

    def _tested(self, found: SearchProbe) -> None:
        self.test_button.setEnabled(True)
        if found.ok:
            self.result.setText(self.tr("OK: %1 answered %2 results in %3 ms.").replace("%1", found.url)
                                .replace("%2", str(found.results)).replace("%3", str(found.latency_ms)))  # fmt: skip
            return
        reason, hint = error_words(UserError(found.reason or "", found.hint or "", key=found.reason_key,
                                             params=found.reason_params), engine_language())  # fmt: skip
        self.result.setText(self.tr("Failed: %1").replace("%1", redact(reason)) + "\n" + redact(hint))

    def _refused(self, error: BaseException) -> None:
        self.test_button.setEnabled(True)
        shown = error_text(error)
        self.result.setText(self.tr("Not accepted: %1").replace("%1", shown))
