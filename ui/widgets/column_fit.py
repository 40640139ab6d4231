"""A table's columns in the room its viewport gives: every column that fits shown, the optional ones given up in
their order while the rest do not fit, so that no column hides behind a horizontal scroll bar. Widening the view
brings them back. The watchlist (its zone column was cut at 1366x768) and the dashboard's positions (ten columns in
a dashboard about 600 px wide) keep their columns with it.

A table whose columns follow their contents (Qt's ResizeToContents) has them sized here, from widths measured once
and kept until the rows change: Qt measures every such column over every row on each change of any cell, and the
research runs' table (its elapsed cell changes every second while a run executes) held the GUI thread 120 ms a
second with 650 runs of history."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtCore import QCoreApplication, QEvent, QModelIndex, QObject, QTimer
from PySide6.QtWidgets import QHeaderView, QTableView

from ui.widgets.column_width import column_width

FIT_MS = 30  # a burst of changes (rows, values, a resize) is fitted once
FEW_CELLS = 20  # rows of one change measured cell by cell; more, the column is measured again whole


class ColumnFit(QObject):
    """Keeps the columns of `view` (keyed `keys`, in the model's order) to the width of its viewport, giving up the
    `optional` ones in their order; the `excluded` ones (the owner's choice, e.g. an account column with one account)
    stay hidden and take no room."""

    def __init__(self, view: QTableView, keys: Sequence[str], optional: Sequence[str]) -> None:
        super().__init__(view)
        unknown = [key for key in optional if key not in keys]
        if unknown:
            raise ValueError(f"optional columns not in the table: {unknown}")
        self.view = view
        self.keys, self.optional = tuple(keys), tuple(optional)
        self.excluded: frozenset[str] = frozenset()
        # The last column shown fills the room left, by its own resize mode: Qt's "stretch last section" gives the
        # section that was last before a change back the size it had saved (its default 100 px), and the research
        # table came out 15 px wider than its dock.
        header = view.horizontalHeader()
        self._stretch, self._mode = header.stretchLastSection(), header.sectionResizeMode(0)
        header.setStretchLastSection(False)
        # columns that follow their contents are sized by the fit (fixed: the user could not drag them either)
        self._sized = self._mode == QHeaderView.ResizeMode.ResizeToContents
        if self._sized:
            self._mode = QHeaderView.ResizeMode.Fixed
            header.setSectionResizeMode(self._mode)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(FIT_MS)
        self._timer.timeout.connect(self.fit)
        view.viewport().installEventFilter(self)
        # Each column's width measured over every row, kept until the rows change: measured on every change, the
        # research runs' table (its elapsed cells change every second while a run executes) spent 400 ms a second
        # on 650 runs of history.
        self._measured: dict[int, int] = {}
        self._cells: dict[tuple[int, int], int] = {}  # (row, column): the width of a changed cell when it changed
        model = view.model()
        for signal in (model.modelReset, model.rowsRemoved, model.headerDataChanged, model.layoutChanged):
            signal.connect(self._rows_changed)
        model.rowsInserted.connect(self._rows_inserted)
        model.dataChanged.connect(self._cells_changed)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        kind = event.type()
        if kind in (QEvent.Type.FontChange, QEvent.Type.StyleChange):  # the measured widths are the old font's
            self._measured.clear()
            self._cells.clear()
        if kind == QEvent.Type.Show:
            self.fit()  # sized before the first paint, not 30 ms after it
        elif kind in (QEvent.Type.Resize, QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._timer.start()
        return False

    def _rows_changed(self) -> None:
        self._measured.clear()
        self._cells.clear()
        self._timer.start()

    def _rows_inserted(self, parent: QModelIndex, first: int, last: int) -> None:
        """A few rows added (a run started): the columns they widen grow to them; many, every column measured again
        (the whole measure took 180 ms with 650 runs of history)."""
        self._cells.clear()  # the rows below moved
        if last - first + 1 > FEW_CELLS:
            self._rows_changed()
            return
        model = self.view.model()
        self._cells_changed(model.index(first, 0), model.index(last, model.columnCount() - 1))
        self._cells.clear()  # a new row's width is no change from a width it had

    def _cells_changed(self, top: QModelIndex, bottom: QModelIndex) -> None:
        """A few cells changed: a column they widen grows to them (measuring those cells alone), and a column whose
        widest cell they narrow (a run's status from "Running · Analysis" to "Published") is measured again whole;
        many, measured again whole."""
        rows = range(top.row(), bottom.row() + 1)
        grid = 1 if self.view.showGrid() else 0  # as QTableView measures a column
        model = self.view.model()
        for column in range(top.column(), bottom.column() + 1):
            if column not in self._measured:
                continue
            if len(rows) > FEW_CELLS:
                del self._measured[column]
                continue
            widest, narrowed = self._measured[column], False
            for row in rows:
                width = self.view.sizeHintForIndex(model.index(row, column)).width() + grid
                before = self._cells.get((row, column))
                self._cells[(row, column)] = width
                narrowed |= before == self._measured[column] and width < before
                widest = max(widest, width)
            if narrowed:
                del self._measured[column]
            else:
                self._measured[column] = widest
        self._timer.start()

    def wanted(self, column: int) -> int:
        """The width column `column` needs to show its title and every row whole, shown or not."""
        if column not in self._measured:
            self._measured[column] = column_width(self.view, column)
        return self._measured[column]

    def exclude(self, keys: Iterable[str]) -> None:
        """Hide `keys` whatever the room (the others fitted again at once)."""
        excluded = frozenset(keys)
        if excluded != self.excluded:
            self.excluded = excluded
            self.fit()

    def fit(self) -> None:
        """Show every column that fits, giving up the optional ones in their order."""
        header, room = self.view.horizontalHeader(), self.view.viewport().width()
        shown = [key for key in self.keys if key not in self.excluded]
        if not self.view.isVisible():  # no width to go by (a dock behind another): fitted when shown, until then
            given_up = set(self.hidden()).intersection(self.optional)  # the exclusions alone change
            shown = [key for key in shown if key not in given_up]
        else:
            needed = {key: self.wanted(index) for index, key in enumerate(self.keys) if key in shown}
            for key in self.optional:
                if sum(needed[k] for k in shown) <= room:
                    break
                if key in shown:
                    shown.remove(key)
        last = shown[-1] if shown and self._stretch else None
        for index, key in enumerate(self.keys):
            if header.isSectionHidden(index) == (key in shown):
                header.setSectionHidden(index, key not in shown)
            mode = QHeaderView.ResizeMode.Stretch if key == last else self._mode
            if header.sectionResizeMode(index) != mode:
                header.setSectionResizeMode(index, mode)
            if self._sized and key != last and key in shown and self.view.isVisible():
                width = self.wanted(index)
                if header.sectionSize(index) != width:
                    header.resizeSection(index, width)

    def hidden(self) -> list[str]:
        """The keys of the columns given up now for want of room (not the excluded ones)."""
        header = self.view.horizontalHeader()
        return [key for index, key in enumerate(self.keys)
                if header.isSectionHidden(index) and key not in self.excluded]  # fmt: skip


def given_up_tip(titled: Iterable[tuple[str, str]]) -> str | None:
    """A row's tip for the columns given up for want of room: each value after its column's title ("Cost: 35,175.04",
    "成本：35,175.04"), one a line; None when there is none to say."""
    said = QCoreApplication.translate("ColumnFit", "%1: %2", "a column's title and a row's value in it")
    lines = [said.replace("%1", title).replace("%2", value) for title, value in titled if value]
    return "\n".join(lines) or None
