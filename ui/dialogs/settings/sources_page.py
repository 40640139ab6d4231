"""The data sources page: the order in which reads prefer sources (one source per series, never mixed)."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QLabel, QListWidget, QPushButton, QVBoxLayout, QWidget

from ui.context import AppContext
from ui.dialogs.settings import settings_actions as actions


class SourcesPage(QWidget):
    """The order in which reads prefer data sources (one source per series, never mixed)."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.list = QListWidget(self)
        self.list.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.buttons = up, down, save = QPushButton(self), QPushButton(self), QPushButton(self)
        up.clicked.connect(lambda: self._move(-1))
        down.clicked.connect(lambda: self._move(1))
        save.clicked.connect(self.save)
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        layout, row = QVBoxLayout(self), QHBoxLayout()
        layout.addWidget(self.list)
        for button in (up, down, save):
            row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addWidget(self.note)
        self.retranslate()
        actions.load_sources(ctx, self, self._show)

    def retranslate(self) -> None:
        for button, text in zip(self.buttons, (self.tr("Move up"), self.tr("Move down"), self.tr("Save order")),
                                strict=True):  # fmt: skip
            button.setText(text)
        self.note.setText(self.tr("Where several sources hold a series, reads take the first source in this order. "
                                  "A new order applies the next time the workspace opens."))  # fmt: skip

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
        actions.save_sources(self.ctx, self, self.order(), lambda _r: self.note.setText(self.tr("Saved.")))
