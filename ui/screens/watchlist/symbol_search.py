"""A search box for symbols by code or name: as the user types (debounced), the workspace's instruments are
searched in the background and offered in a popup; choosing one (or pressing Enter on a code) emits `chosen`."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QCompleter, QLineEdit, QWidget

from stockbench.watchlist import InstrumentHit
from ui.context import AppContext
from ui.screens.watchlist import watchlist_actions as actions

DEBOUNCE_MS = 200


class SymbolSearch(QLineEdit):
    """Type a code (6059, 00700) or part of a name (酒业); pick a hit to emit `chosen(symbol)`."""

    chosen = Signal(str)
    hits_shown = Signal(int)  # how many hits the popup offers (tests wait on it)

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.retranslate()
        self.setClearButtonEnabled(True)
        self.hits = QStandardItemModel(self)
        self.completer_ = QCompleter(self.hits, self)
        self.completer_.setWidget(self)
        self.completer_.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        self.completer_.activated.connect(self._activated)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._search)
        self._generation = 0
        self.textEdited.connect(lambda _text: self._timer.start())
        self.returnPressed.connect(self._submit)

    def retranslate(self) -> None:
        self.setPlaceholderText(self.tr("Add: code or name, e.g. 600519 or 茅台"))

    def _search(self) -> None:
        text = self.text().strip()
        self._generation += 1
        generation = self._generation
        if not text:
            self.hits.clear()
            return
        self.ctx.op(lambda bench: actions.search(bench, text), lambda hits: self._show(generation, hits), parent=self)

    def _show(self, generation: int, hits: list[InstrumentHit]) -> None:
        if generation != self._generation:
            return
        self.hits.clear()
        no_data = self.tr("(no data yet)")  # outside the f-string, where lupdate finds it
        for hit in hits:
            label = f"{hit.symbol}  {hit.name or no_data}"
            item = QStandardItem(label)
            item.setData(hit.symbol, Qt.ItemDataRole.UserRole)
            self.hits.appendRow(item)
        if hits and self.hasFocus():
            self.completer_.complete()
        self.hits_shown.emit(len(hits))

    def _activated(self, label: str) -> None:
        self.choose(label.split(maxsplit=1)[0])

    def _submit(self) -> None:
        popup = self.completer_.popup()
        if popup is not None and popup.isVisible() and popup.currentIndex().isValid():
            return  # the popup handles Enter itself (activated)
        text = self.text().strip()
        if text:
            self.choose(text)

    def choose(self, symbol: str) -> None:
        """Emit `chosen(symbol)` and clear the box."""
        self._timer.stop()
        self._generation += 1
        popup = self.completer_.popup()
        if popup is not None:
            popup.hide()
        self.clear()
        self.hits.clear()
        self.chosen.emit(symbol)
