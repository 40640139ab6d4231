"""One table model over rows of any record type, with the columns declared as data (key, title, alignment, how a
row renders, and the value whose sign colours the cell up or down)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar

from PySide6.QtCore import QAbstractTableModel, QCoreApplication, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from ui.models import reword

Index = QModelIndex | QPersistentModelIndex
LEFT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
CENTER = Qt.AlignmentFlag.AlignCenter
ROW_ROLE = Qt.ItemDataRole.UserRole + 1  # the row record itself


@dataclass(frozen=True)
class Column:
    """One table column: key, title (marked with QT_TRANSLATE_NOOP, translated at display), alignment, the text of a
    row, and optionally the value whose sign colours the cell."""

    key: str
    title: str
    align: Qt.AlignmentFlag
    text: Callable[[Any], str]
    signed: Callable[[Any], Decimal | None] | None = None


class RecordTable(QAbstractTableModel):
    """Rows of one record type under declared columns; colours signed cells up or down. Subclasses name the
    translation `context` their column titles were marked in."""

    context: ClassVar[str] = ""

    def __init__(self, columns: Sequence[Column], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.columns = tuple(columns)
        self.rows: list[Any] = []
        self.up_color, self.down_color = QColor(230, 57, 70), QColor(38, 166, 91)
        self.tooltip: Callable[[Any], str | None] = lambda _row: None

    def set_rows(self, rows: Sequence[Any]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def set_colors(self, up: QColor, down: QColor) -> None:
        self.up_color, self.down_color = QColor(up), QColor(down)

    def retranslate(self) -> None:
        """Ask the views to read the titles and cells again, in the current language (rows and widths stay)."""
        reword(self)

    def text(self, row: int, key: str) -> str:
        """The text shown in row `row`, column `key` (tests read the table through it)."""
        column = next(c for c in self.columns if c.key == key)
        return column.text(self.rows[row])

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802 - Qt's signature
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return QCoreApplication.translate(self.context, self.columns[section].title)
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, column = self.rows[index.row()], self.columns[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return column.text(row)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(column.align.value)
        if role == Qt.ItemDataRole.ForegroundRole and column.signed is not None:
            value = column.signed(row)
            return None if not value else (self.up_color if value > 0 else self.down_color)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tooltip(row)
        if role == ROW_ROLE:
            return row
        return None
