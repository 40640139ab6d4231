"""The width a table's column needs to be read whole (the watchlist's column fit, the dashboard's tables)."""

from __future__ import annotations

from PySide6.QtWidgets import QTableView


def column_width(view: QTableView, column: int) -> int:
    """The width column `column` of `view` needs to show its title and every row whole (a hidden column is measured
    as shown: Qt measures a hidden section as empty)."""
    header = view.horizontalHeader()
    hidden = header.isSectionHidden(column)
    if hidden:
        header.setSectionHidden(column, False)
    try:
        return max(header.sectionSizeHint(column), view.sizeHintForColumn(column))
    finally:
        if hidden:
            header.setSectionHidden(column, True)
