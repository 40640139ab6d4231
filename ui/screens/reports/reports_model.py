"""The stored reports as a Qt table, and the filter the report browser applies (symbol, dates, action,
review verdict, full-text search over titles and markdown)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

from stockbench.evidence.records import ReportCitations
from ui.i18n.action_words import action_word, in_order
from ui.models import reword

Index = QModelIndex | QPersistentModelIndex
ROW_ROLE = Qt.ItemDataRole.UserRole + 1


@dataclass(frozen=True)
class ReportRow:
    """One published report, with what the browser needs to show and search it offline."""

    report_id: str
    run_id: str
    symbol: str
    day: date  # the publication date in the symbol's exchange zone
    published_at: datetime
    title: str
    action: str
    model: str
    offline: bool
    markdown: str
    draft: dict[str, Any] = field(default_factory=dict, compare=False)
    verdict: str | None = None  # the latest human review's verdict (None: not reviewed)
    tampered: str = ""  # why the stored report is not as it was published ("" when its seal holds)
    citations: ReportCitations = field(default_factory=ReportCitations, compare=False)  # what its links point to
    seal_checked: bool = True  # False while its seal is checked in the background (the list shows first)

    def searchable(self) -> str:
        return f"{self.title}\n{self.markdown}".casefold()


@dataclass(frozen=True)
class Column:
    key: str
    title: str  # marked with QT_TRANSLATE_NOOP("ReportsModel", ...)
    value: Callable[[ReportRow], str]


VERDICT_TITLES: dict[str, str] = {
    "accept": str(QT_TRANSLATE_NOOP("ReportsModel", "Accepted")),
    "revise": str(QT_TRANSLATE_NOOP("ReportsModel", "To revise")),
    "reject": str(QT_TRANSLATE_NOOP("ReportsModel", "Rejected")),
}
UNREVIEWED = "unreviewed"  # the verdict filter's value for reports nobody has reviewed


def verdict_title(verdict: str | None) -> str:
    """The latest review's verdict in the current language (empty when the report was not reviewed)."""
    if not verdict:
        return ""
    return QCoreApplication.translate("ReportsModel", VERDICT_TITLES[verdict]) if verdict in VERDICT_TITLES else verdict


OFFLINE_MODEL = "offline"  # the rules model's name (stockbench.llm.models.OFFLINE)


def model_title(model: str) -> str:
    """The model a report was written with, the built-in rules model in the catalogue's words (as Settings and the
    research panel name it) in the current language."""
    if model == OFFLINE_MODEL:
        return QCoreApplication.translate("ReportsModel", "offline rules model")
    return model


COLUMNS: tuple[Column, ...] = (
    Column("day", str(QT_TRANSLATE_NOOP("ReportsModel", "Date")), lambda r: r.day.isoformat()),
    Column("symbol", str(QT_TRANSLATE_NOOP("ReportsModel", "Symbol")), lambda r: r.symbol),
    Column("action", str(QT_TRANSLATE_NOOP("ReportsModel", "Action")), lambda r: action_word(r.action)),
    Column("title", str(QT_TRANSLATE_NOOP("ReportsModel", "Title")), lambda r: r.title),
    Column("model", str(QT_TRANSLATE_NOOP("ReportsModel", "Model")), lambda r: model_title(r.model)),
    Column("verdict", str(QT_TRANSLATE_NOOP("ReportsModel", "Review")), lambda r: verdict_title(r.verdict)),
)
COLUMN_INDEX = {c.key: i for i, c in enumerate(COLUMNS)}


class ReportsModel(QAbstractTableModel):
    """Reports, newest first, as `Research.reports()` lists them."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[ReportRow] = []

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802 - Qt's signature
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[index.column()].value(row)
        if role == Qt.ItemDataRole.ToolTipRole:
            return row.title
        if role == Qt.ItemDataRole.UserRole:
            return row.report_id
        if role == ROW_ROLE:
            return row
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return QCoreApplication.translate("ReportsModel", COLUMNS[section].title)
        return None

    def set_rows(self, rows: Sequence[ReportRow]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def set_details(self, found: Mapping[str, Mapping[str, Any]]) -> None:
        """What listed reports lacked until read (report id -> ReportRow field -> value): their text, draft, links
        and seal check."""
        changed = []
        for number, row in enumerate(self._rows):
            if row.report_id in found:
                self._rows[number] = replace(row, **found[row.report_id], seal_checked=True)
                changed.append(number)
        if changed:  # one signal: the header re-reads every row to size its columns on each
            self.dataChanged.emit(self.index(min(changed), 0), self.index(max(changed), len(COLUMNS) - 1))

    def rows(self) -> list[ReportRow]:
        return list(self._rows)

    def retranslate(self) -> None:
        """Ask the views to read the titles and cells again, in the current language (rows and widths stay)."""
        reword(self)

    def find(self, report_id: str) -> ReportRow | None:
        return next((r for r in self._rows if r.report_id == report_id), None)

    def previous(self, row: ReportRow) -> ReportRow | None:
        """The report on the same symbol published before `row` (the list is newest first)."""
        at = self._rows.index(row)
        return next((r for r in self._rows[at + 1 :] if r.symbol == row.symbol), None)

    def later(self, row: ReportRow) -> list[ReportRow]:
        """The reports on the same symbol published after `row`, oldest first (those that may revise it)."""
        at = self._rows.index(row)
        return [r for r in reversed(self._rows[:at]) if r.symbol == row.symbol]

    def actions(self) -> list[str]:
        """The actions of the listed reports, in the engine's order (an old report's other action last)."""
        return in_order({r.action for r in self._rows if r.action})


@dataclass(frozen=True)
class ReportFilter:
    """What the browser's filter bar asks for; empty fields do not filter."""

    symbol: str = ""
    since: date | None = None
    until: date | None = None
    action: str = ""
    verdict: str = ""  # a verdict code, or UNREVIEWED
    search: str = ""

    def accepts(self, row: ReportRow) -> bool:
        if self.symbol and self.symbol.casefold() not in row.symbol.casefold():
            return False
        if (self.since and row.day < self.since) or (self.until and row.day > self.until):
            return False
        if self.action and row.action != self.action:
            return False
        if self.verdict and row.verdict != (None if self.verdict == UNREVIEWED else self.verdict):
            return False
        text = row.searchable()
        return all(term in text for term in self.search.casefold().split())


class ReportsProxy(QSortFilterProxyModel):
    """Applies a `ReportFilter` to a `ReportsModel`."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._filter = ReportFilter()

    def set_filter(self, wanted: ReportFilter) -> None:
        self.beginFilterChange()
        self._filter = wanted
        self.endFilterChange()

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:  # noqa: N802
        row = self.sourceModel().index(source_row, 0, source_parent).data(ROW_ROLE)
        return isinstance(row, ReportRow) and self._filter.accepts(row)
