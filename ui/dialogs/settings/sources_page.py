"""The data sources page: each service's endpoints with their state, last good answer and last error, a base URL,
on/off and the place each endpoint is asked in (what `stockbench data sources set` changes), and the order in which
reads prefer sources."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ui.context import AppContext
from ui.dialogs.settings import settings_actions as actions
from ui.errors import error_text

STATE_TEXT: dict[str, str] = {
    "ok": str(QT_TRANSLATE_NOOP("SourcesPage", "ok")),
    "resting": str(QT_TRANSLATE_NOOP("SourcesPage", "resting")),
    "failing": str(QT_TRANSLATE_NOOP("SourcesPage", "failing")),
    "disabled": str(QT_TRANSLATE_NOOP("SourcesPage", "disabled")),
}
COLUMNS = (
    str(QT_TRANSLATE_NOOP("SourcesPage", "Endpoint")),
    str(QT_TRANSLATE_NOOP("SourcesPage", "State")),
    str(QT_TRANSLATE_NOOP("SourcesPage", "Failures")),
    str(QT_TRANSLATE_NOOP("SourcesPage", "Last good answer")),
    str(QT_TRANSLATE_NOOP("SourcesPage", "Last error")),
    str(QT_TRANSLATE_NOOP("SourcesPage", "Base URL")),
)


class SourcesPage(QWidget):
    """The endpoints and their health, their base URL and on/off, and the order reads prefer sources in."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.rows: list[actions.SourceRow] = []
        self.heading = QLabel(self)
        self.endpoints = QTableWidget(0, len(COLUMNS), self)
        self.endpoints.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.endpoints.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.endpoints.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.endpoints.itemSelectionChanged.connect(self._picked)
        self.base_url = QLineEdit(self)
        self.enabled = QCheckBox(self)
        self.apply = QPushButton(self)
        self.apply.clicked.connect(self.apply_change)
        self.earlier, self.later = QPushButton(self), QPushButton(self)
        self.earlier.clicked.connect(lambda: self.move_chosen(-1))
        self.later.clicked.connect(lambda: self.move_chosen(1))
        self.result = QLabel(self)
        self.result.setWordWrap(True)
        self.preference = QLabel(self)
        self.list = QListWidget(self)
        self.list.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.buttons = up, down, save = QPushButton(self), QPushButton(self), QPushButton(self)
        up.clicked.connect(lambda: self._move(-1))
        down.clicked.connect(lambda: self._move(1))
        save.clicked.connect(self.save)
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        self._lay_out()
        self.retranslate()
        actions.load_endpoints(ctx, self, self._show_endpoints)
        actions.load_sources(ctx, self, self._show)

    def _lay_out(self) -> None:
        layout, edit, row = QVBoxLayout(self), QHBoxLayout(), QHBoxLayout()
        layout.addWidget(self.heading)
        layout.addWidget(self.endpoints, 2)
        edit.addWidget(self.base_url, 1)
        edit.addWidget(self.enabled)
        edit.addWidget(self.apply)
        edit.addWidget(self.earlier)
        edit.addWidget(self.later)
        layout.addLayout(edit)
        layout.addWidget(self.result)
        layout.addWidget(self.preference)
        layout.addWidget(self.list, 1)
        for button in self.buttons:
            row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addWidget(self.note)

    def retranslate(self) -> None:
        for button, text in zip(self.buttons, (self.tr("Move up"), self.tr("Move down"), self.tr("Save order")),
                                strict=True):  # fmt: skip
            button.setText(text)
        self.note.setText(self.tr("Where several sources hold a series, reads take the first source in this order. "
                                  "A new order applies the next time the workspace opens."))  # fmt: skip
        self.heading.setText(self.tr("Each service asks its endpoints in turn; after failures in a row a host rests "
                                     "for a while. Times are exchange time."))  # fmt: skip
        self.endpoints.setHorizontalHeaderLabels([self.tr(c) for c in COLUMNS])
        self.base_url.setPlaceholderText(self.tr("Base URL (empty: the service's own)"))
        self.enabled.setText(self.tr("Enabled"))
        self.apply.setText(self.tr("Apply"))
        self.earlier.setText(self.tr("Ask earlier"))
        self.later.setText(self.tr("Ask later"))
        self.preference.setText(self.tr("Which source reads prefer:"))
        self._fill()

    def _show_endpoints(self, rows: list[actions.SourceRow]) -> None:
        self.rows = rows
        self._fill()

    def _fill(self) -> None:
        chosen = self.endpoints.currentRow()
        self.endpoints.setRowCount(len(self.rows))
        for index, row in enumerate(self.rows):
            state = self.tr(STATE_TEXT.get(row.state, row.state))
            cells = (row.name, state, str(row.failures), row.last_ok, row.last_error, row.base_url)
            for column, text in enumerate(cells):
                self.endpoints.setItem(index, column, QTableWidgetItem(text))
        self.endpoints.resizeColumnsToContents()
        if 0 <= chosen < len(self.rows):
            self.endpoints.selectRow(chosen)

    def _picked(self) -> None:
        index = self.endpoints.currentRow()
        if 0 <= index < len(self.rows):
            self.base_url.setText(self.rows[index].base_url)
            self.enabled.setChecked(self.rows[index].enabled)

    def state_of(self, name: str) -> str:
        """The state shown for endpoint `name` (tests read it)."""
        for index, row in enumerate(self.rows):
            if row.name == name:
                item = self.endpoints.item(index, 1)
                return item.text() if item is not None else ""
        return ""

    def choose(self, name: str) -> None:
        names = [row.name for row in self.rows]
        if name in names:
            self.endpoints.selectRow(names.index(name))

    def apply_change(self) -> None:
        """Store the chosen endpoint's base URL and on/off (in the background), then show the rows again."""
        index = self.endpoints.currentRow()
        if not 0 <= index < len(self.rows):
            self.result.setText(self.tr("Choose an endpoint first."))
            return
        row, typed = self.rows[index], self.base_url.text().strip()
        base_url = None if typed.rstrip("/") == row.base_url.rstrip("/") else typed
        actions.change_endpoint(self.ctx, self, row.name, base_url=base_url, enabled=self.enabled.isChecked(),
                                success=self._changed, failure=self._refused)  # fmt: skip

    def move_chosen(self, step: int) -> None:
        """Ask the chosen endpoint one place earlier (-1) or later (+1) in its service (in the background)."""
        index = self.endpoints.currentRow()
        if not 0 <= index < len(self.rows):
            self.result.setText(self.tr("Choose an endpoint first."))
            return
        row = self.rows[index]
        places = sum(1 for other in self.rows if other.service == row.service)
        if not 1 <= row.order + step <= places:
            return
        actions.change_endpoint(self.ctx, self, row.name, order=row.order + step,
                                success=lambda rows: self._changed(rows, row.name), failure=self._refused)  # fmt: skip

    def _changed(self, rows: list[actions.SourceRow], chosen: str | None = None) -> None:
        self._show_endpoints(rows)
        if chosen is not None:
            self.choose(chosen)
        self.result.setText(self.tr("Saved."))

    def _refused(self, error: BaseException) -> None:
        self.result.setText(self.tr("Not accepted: %1").replace("%1", error_text(error)))

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
