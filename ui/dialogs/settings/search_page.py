"""The search page: the SearXNG instance research may query, saved, cleared or tested in the background.

The test sends the address in the box one query (saved or not) and shows ok with the number of results, or why
it failed in the interface's words (the engine's reason follows for the details).
"""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from stockbench.errors import UserError
from stockbench.research.search_records import SearchConfig, SearchProbe
from ui.context import AppContext
from ui.dialogs.settings import settings_actions as actions
from ui.errors import error_text


class SearchPage(QWidget):
    """The web search research may use: a SearXNG address with Save, Test and Clear."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.config: SearchConfig | None = None
        self.url = QLineEdit(self)
        self.url.setPlaceholderText("https://searx.example.org")
        self.save_button, self.test_button, self.clear_button = QPushButton(self), QPushButton(self), QPushButton(self)
        self.save_button.clicked.connect(self.save)
        self.test_button.clicked.connect(self.test)
        self.clear_button.clicked.connect(self.clear)
        self.result = QLabel(self)
        self.result.setWordWrap(True)
        self.note, self.address_label = QLabel(self), QLabel(self)
        self.note.setWordWrap(True)
        layout, row = QVBoxLayout(self), QHBoxLayout()
        layout.addWidget(self.address_label)
        layout.addWidget(self.url)
        for button in (self.save_button, self.test_button, self.clear_button):
            row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addWidget(self.result)
        layout.addWidget(self.note)
        layout.addStretch(1)
        self.retranslate()
        actions.load_search(ctx, self, self._loaded)

    def _loaded(self, config: SearchConfig) -> None:
        """The saved address, unless the user has typed one while it loaded."""
        self.config = config
        if not self.url.isModified():
            self.url.setText(config.url or "")

    def retranslate(self) -> None:
        """The page's words in the current language (the address and the last result stay)."""
        for button, text in zip((self.save_button, self.test_button, self.clear_button),
                                (self.tr("Save"), self.tr("Test"), self.tr("Clear")), strict=True):  # fmt: skip
            button.setText(text)
        self.address_label.setText(self.tr("SearXNG address"))
        self.note.setText(self.tr("Research may search the web through a SearXNG instance (its JSON format enabled). "
                                  "Results are only candidates: research reads a page in full before quoting it. "
                                  "Without one, reports say that no search was run."))  # fmt: skip

    def _show(self, config: SearchConfig) -> None:
        self.config = config
        self.url.setText(config.url or "")

    def save(self) -> None:
        """Let research query the address in the box."""
        actions.save_search(self.ctx, self, self.url.text(), self._saved, self._refused)

    def _saved(self, config: SearchConfig) -> None:
        self._show(config)
        self.result.setText(self.tr("Saved: research searches through %1.").replace("%1", config.url or ""))

    def clear(self) -> None:
        """Use no search provider."""
        actions.clear_search(self.ctx, self, self._cleared)

    def _cleared(self, config: SearchConfig) -> None:
        self._show(config)
        self.result.setText(self.tr("Cleared: research runs no web search."))

    def test(self) -> None:
        """Send the address in the box one query in the background and show the outcome."""
        self.test_button.setEnabled(False)
        self.result.setText(self.tr("Testing…"))
        actions.test_search(self.ctx, self, self.url.text(), self._tested, self._refused)

    def _tested(self, found: SearchProbe) -> None:
        self.test_button.setEnabled(True)
        if found.ok:
            self.result.setText(self.tr("OK: %1 answered %2 results in %3 ms.").replace("%1", found.url)
                                .replace("%2", str(found.results)).replace("%3", str(found.latency_ms)))  # fmt: skip
            return
        self.result.setText(self.tr("Failed: %1 (%2)").replace("%1", self._failure(found))
                            .replace("%2", found.reason or ""))  # fmt: skip

    def _failure(self, found: SearchProbe) -> str:
        words = {
            "timeout": self.tr("no answer in time; check the address, or try later"),
            "unreachable": self.tr("the server cannot be reached; check the address and that it runs"),
            "forbidden": self.tr("the server refuses the JSON format; enable it in SearXNG's settings.yml "
                                 "(search: formats: [html, json])"),
            "status": self.tr("the server answered HTTP %1; check the address (the SearXNG root)")
            .replace("%1", str(found.status)),
            "not_json": self.tr("the answer is not JSON; give the address of a SearXNG instance"),
            "no_results": self.tr("the answer has no results; give the address of a SearXNG instance"),
        }  # fmt: skip
        return words.get(found.failure or "", found.hint or "")

    def _refused(self, error: BaseException) -> None:
        self.test_button.setEnabled(True)
        shown = error.message if isinstance(error, UserError) else error_text(error)
        self.result.setText(self.tr("Not accepted: %1").replace("%1", shown))
