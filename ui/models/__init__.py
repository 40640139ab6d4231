"""Qt item models shared by several screens, and what every table model of the shell does alike."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, Qt


def reword(model: QAbstractItemModel) -> None:
    """Ask the views of `model` to read its titles and cells again, in the current language (after a language
    switch): the rows, the selection and the column widths stay."""
    columns, rows = model.columnCount(), model.rowCount()
    if columns:
        model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, columns - 1)
    if columns and rows:
        model.dataChanged.emit(model.index(0, 0), model.index(rows - 1, columns - 1))
