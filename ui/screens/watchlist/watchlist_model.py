"""The watchlist table: one row per symbol of the shown group, columns declared as data, rows reordered by drag and
drop (the model asks for the move through `move_requested`; the panel writes it through the engine)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QByteArray,
    QCoreApplication,
    QMimeData,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor

from ui.i18n.action_words import action_word
from ui.models import reword

MIME = "application/x-stockbench-symbol"
CONTEXT = "WatchlistModel"
Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class WatchRow:
    """What one watchlist row shows. Its price is "pending" and `zone_position` None until computed (a zone stays None
    when none can be had)."""

    symbol: str
    name: str | None = None
    currency: str = ""
    last: Decimal | None = None
    change_pct: Decimal | None = None
    price_label: str = "none"  # live | delayed | stale | last_close | none | pending (not read yet)
    price_note: str = ""
    zone_position: str | None = None
    zone_note: str = ""
    holding: int = 0
    pnl: Decimal | None = None
    report_date: date | None = None
    report_action: str | None = None
    report_id: str | None = None


ZONE_TITLES: dict[str, str] = {
    "stop_hit": str(QT_TRANSLATE_NOOP("WatchlistModel", "Stop hit")),
    "below_buy": str(QT_TRANSLATE_NOOP("WatchlistModel", "Below buy")),
    "in_buy": str(QT_TRANSLATE_NOOP("WatchlistModel", "In buy zone")),
    "between": str(QT_TRANSLATE_NOOP("WatchlistModel", "Between")),
    "in_sell": str(QT_TRANSLATE_NOOP("WatchlistModel", "In sell zone")),
    "above_sell": str(QT_TRANSLATE_NOOP("WatchlistModel", "Above sell")),
}

PRICE_LABELS: dict[str, str] = {
    "live": str(QT_TRANSLATE_NOOP("WatchlistModel", "Live quote")),
    "delayed": str(QT_TRANSLATE_NOOP("WatchlistModel", "Delayed quote")),
    "stale": str(QT_TRANSLATE_NOOP("WatchlistModel", "Stale quote: no source gave a fresh one")),
    "last_close": str(QT_TRANSLATE_NOOP("WatchlistModel", "Last close")),
}


def translate(text: str) -> str:
    return QCoreApplication.translate(CONTEXT, text)


def _money(value: Decimal | None) -> str:
    return "" if value is None else f"{value:,.2f}"


def _signed(value: Decimal | None, suffix: str = "") -> str:
    return "" if value is None else f"{value:+,.2f}{suffix}"


PENDING = "…"  # shown while a value is read in the background


def _last(row: WatchRow) -> str:
    return PENDING if row.price_label == "pending" else _money(row.last)


def _zone(row: WatchRow) -> str:
    if row.zone_position is None:
        return PENDING if not row.zone_note else "—"
    return translate(ZONE_TITLES.get(row.zone_position, row.zone_position))


@dataclass(frozen=True)
class Column:
    """One table column: its key, title (translated at display), alignment and how a row renders in it."""

    key: str
    title: str
    align: Qt.AlignmentFlag
    text: Callable[[WatchRow], str]
    signed: Callable[[WatchRow], Decimal | None] | None = None  # coloured up/down by this value


LEFT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
CENTER = Qt.AlignmentFlag.AlignCenter


def _report_day(row: WatchRow) -> str:
    return row.report_date.isoformat() if row.report_date else ""


def _action(row: WatchRow) -> str:
    return action_word(row.report_action) if row.report_action else ""


def _holding(row: WatchRow) -> str:
    return f"{row.holding:,}" if row.holding else ""


COLUMNS: tuple[Column, ...] = (
    Column("symbol", str(QT_TRANSLATE_NOOP("WatchlistModel", "Symbol")), LEFT, lambda r: r.symbol),
    Column("name", str(QT_TRANSLATE_NOOP("WatchlistModel", "Name")), LEFT, lambda r: r.name or ""),
    Column("last", str(QT_TRANSLATE_NOOP("WatchlistModel", "Last")), RIGHT, _last),
    Column("change_pct", str(QT_TRANSLATE_NOOP("WatchlistModel", "Change %")), RIGHT,
           lambda r: _signed(r.change_pct, "%"), lambda r: r.change_pct),
    Column("zone", str(QT_TRANSLATE_NOOP("WatchlistModel", "Zone")), CENTER, _zone),
    Column("holding", str(QT_TRANSLATE_NOOP("WatchlistModel", "Holding")), RIGHT, _holding),
    Column("pnl", str(QT_TRANSLATE_NOOP("WatchlistModel", "P&L")), RIGHT, lambda r: _signed(r.pnl), lambda r: r.pnl),
    Column("report_date", str(QT_TRANSLATE_NOOP("WatchlistModel", "Report")), CENTER, _report_day),
    Column("report_action", str(QT_TRANSLATE_NOOP("WatchlistModel", "Action")), CENTER, _action),
)  # fmt: skip
COLUMN_KEYS = tuple(c.key for c in COLUMNS)
# Given up first when the dock is narrow, in this order (ui.widgets.column_fit): what a row is and where its price
# stands (symbol, name, last, change, zone) always; the holding, its P&L and the latest report while they fit too (at
# 1366x768 the zone column hid behind a horizontal scroll bar).
OPTIONAL_COLUMNS = ("report_action", "report_date", "pnl", "holding")


class WatchlistModel(QAbstractTableModel):
    """The rows of one group in the user's order."""

    move_requested = Signal(str, int)  # symbol, new 0-based position (from a drag and drop)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rows: list[WatchRow] = []
        self.up_color, self.down_color = QColor(230, 57, 70), QColor(38, 166, 91)

    # ---- content ----------------------------------------------------------------------------------------------
    def retranslate(self) -> None:
        """Ask the views to read the titles and cells again, in the current language."""
        reword(self)

    def set_rows(self, rows: Sequence[WatchRow]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def set_colors(self, up: QColor, down: QColor) -> None:
        self.up_color, self.down_color = QColor(up), QColor(down)
        if self.rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.rows) - 1, len(COLUMNS) - 1))

    def set_zone(self, symbol: str, position: str | None, note: str = "") -> None:
        """Fill the zone column of `symbol` (computed after the rest of the row)."""
        self.fill({symbol: {"zone_position": position, "zone_note": note}})

    def fill(self, values: Mapping[str, Mapping[str, Any]]) -> None:
        """Fill columns read after the rows (symbol -> WatchRow field -> value) with one change signal: the header
        sizes its columns to their contents by reading every row again on each change, 40 ms for 60 rows, and a
        signal per symbol and column had kept the window busy for seconds after a reopen."""
        changed = []
        for number, row in enumerate(self.rows):
            if row.symbol in values:
                self.rows[number] = replace(row, **values[row.symbol])
                changed.append(number)
        if changed:
            self.dataChanged.emit(self.index(min(changed), 0), self.index(max(changed), len(COLUMNS) - 1))

    def row_of(self, symbol: str) -> int:
        return next((i for i, r in enumerate(self.rows) if r.symbol == symbol), -1)

    def symbols(self) -> list[str]:
        return [r.symbol for r in self.rows]

    def move_row(self, source: int, target: int) -> bool:
        """Move row `source` so that it ends at `target` (both 0-based)."""
        if source == target or not (0 <= source < len(self.rows) and 0 <= target < len(self.rows)):
            return False
        self.beginMoveRows(QModelIndex(), source, source, QModelIndex(), target + 1 if target > source else target)
        self.rows.insert(target, self.rows.pop(source))
        self.endMoveRows()
        return True

    # ---- Qt model ---------------------------------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802 - Qt's signature
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return translate(COLUMNS[section].title)
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, column = self.rows[index.row()], COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return column.text(row)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(column.align.value)
        if role == Qt.ItemDataRole.ForegroundRole and column.signed is not None:
            value = column.signed(row)
            return None if not value else (self.up_color if value > 0 else self.down_color)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(row, column.key)
        if role == Qt.ItemDataRole.UserRole:
            return row.symbol
        return None

    def _tooltip(self, row: WatchRow, key: str) -> str | None:
        if key == "zone" and row.zone_note:
            return row.zone_note
        if key == "last":
            label = translate(PRICE_LABELS[row.price_label]) if row.price_label in PRICE_LABELS else ""
            return "\n".join(t for t in (label, row.price_note) if t) or None
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.ItemIsDropEnabled
        return (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemIsDragEnabled
            | Qt.ItemFlag.ItemIsDropEnabled
        )

    def supportedDropActions(self) -> Qt.DropAction:  # noqa: N802
        return Qt.DropAction.MoveAction

    def mimeTypes(self) -> list[str]:  # noqa: N802
        return [MIME]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:  # noqa: N802
        data = QMimeData()
        rows = sorted({i.row() for i in indexes if i.isValid()})
        if rows:
            data.setData(MIME, QByteArray(self.rows[rows[0]].symbol.encode()))
        return data

    def dropMimeData(  # noqa: N802
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: Index
    ) -> bool:
        """Ask for the move; return False so the view never removes rows itself (the panel moves them)."""
        if action != Qt.DropAction.MoveAction or not data.hasFormat(MIME):
            return False
        symbol = bytes(data.data(MIME).data()).decode()
        source = self.row_of(symbol)
        if row >= 0:  # between rows: before `row`
            target = row - 1 if row > source else row
        else:  # onto a row: take its place; onto empty space: the end
            target = parent.row() if parent.isValid() else len(self.rows) - 1
        target = max(0, min(target, len(self.rows) - 1))
        if source >= 0 and target != source:
            self.move_requested.emit(symbol, target)
        return False
