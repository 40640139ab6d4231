"""The watchlist's columns in the room its dock gives: what a row is and where its price stands (symbol, name, last,
change, zone) always, the holding, its P&L and the latest report while they fit too, so that no column hides behind
a horizontal scroll bar (at 1366x768 the zone column did). Widening the dock brings the others back."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QTableView

from ui.screens.watchlist.watchlist_model import COLUMN_KEYS
from ui.widgets.column_width import column_width

# Given up first when the dock is narrow, in this order.
OPTIONAL = ("report_action", "report_date", "pnl", "holding")
FIT_MS = 30  # a burst of changes (rows, values, a resize) is fitted once


class ColumnFit(QObject):
    """Keeps the columns of `view` (a watchlist table) to the width of its viewport."""

    def __init__(self, view: QTableView) -> None:
        super().__init__(view)
        self.view = view
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(FIT_MS)
        self._timer.timeout.connect(self.fit)
        view.viewport().installEventFilter(self)
        model = view.model()
        for signal in (model.modelReset, model.dataChanged, model.rowsInserted, model.rowsRemoved,
                       model.headerDataChanged, model.layoutChanged):  # fmt: skip
            signal.connect(self._timer.start)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Resize:
            self._timer.start()
        return False

    def wanted(self, column: int) -> int:
        """The width column `column` needs to show its title and every row whole, shown or not."""
        return column_width(self.view, column)

    def fit(self) -> None:
        """Show every column that fits, giving up the optional ones in their order."""
        header, room = self.view.horizontalHeader(), self.view.viewport().width()
        needed = {key: self.wanted(index) for index, key in enumerate(COLUMN_KEYS)}
        shown = set(COLUMN_KEYS)
        for key in OPTIONAL:
            if sum(needed[k] for k in shown) <= room:
                break
            shown.discard(key)
        for index, key in enumerate(COLUMN_KEYS):
            if header.isSectionHidden(index) == (key in shown):
                header.setSectionHidden(index, key not in shown)

    def hidden(self) -> list[str]:
        """The keys of the columns given up now."""
        header = self.view.horizontalHeader()
        return [key for index, key in enumerate(COLUMN_KEYS) if header.isSectionHidden(index)]
