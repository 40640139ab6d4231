"""The watchlist screen: groups of symbols with price, change, zone position, holding, P&L and the latest report;
add by code or name, remove, reorder (drag or buttons), groups; a right-click menu whose entries are requests
to other screens (signals the main window connects), never calls into them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from PySide6.QtCore import QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QMenu,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from stockbench.events import Event, LedgerChanged
from stockbench.research.events import ReportPublished
from stockbench.watchlist import DEFAULT_GROUP, WatchlistChanged
from stockbench.workbench import Workbench
from ui.charts.palette import candle_scheme, chart_colors
from ui.context import AppContext
from ui.screens.watchlist import watchlist_actions as actions
from ui.screens.watchlist.symbol_search import SymbolSearch
from ui.screens.watchlist.watchlist_actions import RowFound, RowPrice, WatchlistView
from ui.screens.watchlist.watchlist_model import COLUMN_KEYS, OPTIONAL_COLUMNS, WatchlistModel, WatchRow
from ui.widgets.column_fit import ColumnFit

RELOAD_MS = 300
FILL_MS = 200  # prices and zones found in the background reach the table at most this often


def _price_columns(price: RowPrice) -> dict[str, Any]:
    return {"last": price.last, "change_pct": price.change_pct, "price_label": price.label,
            "price_note": price.note, "pnl": price.pnl}  # fmt: skip


class WatchlistPanel(QWidget):
    """The user's watchlist, one group at a time."""

    screen_name = "watchlist"
    analyze_requested = Signal(str)  # symbol
    question_requested = Signal(str, str)  # symbol, question
    quick_review_requested = Signal(str)  # symbol
    check_plan_requested = Signal(str)  # symbol
    chart_requested = Signal(str)  # symbol
    report_requested = Signal(str)  # report id of the symbol's latest report
    fill_requested = Signal(str)  # symbol
    symbol_selected = Signal(str)  # symbol
    refreshed = Signal()  # the rows of the shown group are on screen (prices and zones follow in the background)
    prices_refreshed = Signal()  # and their prices
    zones_refreshed = Signal()  # and their prices and zone positions

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("WatchlistPanel")
        self.model = WatchlistModel(self)
        self.model.move_requested.connect(self.move_symbol)
        self.groups: tuple[str, ...] = ()
        self.group: str | None = None
        self.question_dialog: QInputDialog | None = None
        self._zones: dict[str, tuple[str | None, str]] = {}
        self._prices: dict[str, RowPrice] = {}  # the last read, shown again until a reload reads it anew
        self._generation = 0
        self._found_values: dict[str, dict[str, Any]] = {}  # found in the background, not shown yet
        self._fill = QTimer(self)
        self._fill.setSingleShot(True)
        self._fill.setInterval(FILL_MS)
        self._fill.timeout.connect(self._show_found)
        self._build()
        self._reload = QTimer(self)
        self._reload.setSingleShot(True)
        self._reload.setInterval(RELOAD_MS)
        self._reload.timeout.connect(lambda: self.refresh(full=False))
        ctx.bridge.batch.connect(self._on_events)
        self.refresh()

    # ---- layout -----------------------------------------------------------------------------------------------
    def _build(self) -> None:
        self.group_box = QComboBox(self)
        self.group_box.activated.connect(self._group_chosen)
        self.search = SymbolSearch(self.ctx, self)
        self.search.chosen.connect(self.add_symbol)
        self.view = QTableView(self)
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.view.setDragEnabled(True)
        self.view.setAcceptDrops(True)
        self.view.setDropIndicatorShown(True)
        self.view.verticalHeader().hide()
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.view.horizontalHeader().setStretchLastSection(True)
        # the columns that fit the dock, no horizontal scroll bar
        self.columns = ColumnFit(self.view, COLUMN_KEYS, OPTIONAL_COLUMNS)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._show_menu)
        self.view.doubleClicked.connect(lambda index: self.chart_requested.emit(self.model.rows[index.row()].symbol))
        self.view.selectionModel().currentRowChanged.connect(self._current_changed)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Delete), self.view, self._remove_selected)
        QShortcut(QKeySequence("Ctrl+Up"), self.view, lambda: self.move_selected(-1))
        QShortcut(QKeySequence("Ctrl+Down"), self.view, lambda: self.move_selected(1))
        self.status = QLabel(self)
        layout = QVBoxLayout(self)
        # the group box above its buttons, the list's buttons above the status: the panel fits a narrow dock
        layout.addWidget(self.group_box)
        top = QHBoxLayout()
        self.group_buttons = [self._button(self.ask_new_group), self._button(self.ask_rename_group),
                              self._button(self.ask_delete_group)]  # fmt: skip
        for button in self.group_buttons:
            top.addWidget(button)
        top.addStretch(1)
        layout.addLayout(top)
        layout.addWidget(self.search)
        layout.addWidget(self.view, 1)
        bottom = QHBoxLayout()
        self.up_button = self._button(lambda: self.move_selected(-1))
        self.down_button = self._button(lambda: self.move_selected(1))
        self.list_buttons = [self.up_button, self.down_button, self._button(self._remove_selected),
                             self._button(self.refresh)]  # fmt: skip
        for widget in self.list_buttons:
            bottom.addWidget(widget)
        bottom.addStretch(1)
        layout.addLayout(bottom)
        self.status.setWordWrap(True)
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout.addWidget(self.status)
        self.retranslate()

    def retranslate(self) -> None:
        """Set the panel's texts in the current language in place (group, rows, selection and widths stay)."""
        texts = ((self.tr("New group…"), self.tr("Create a group")),
                 (self.tr("Rename…"), self.tr("Rename this group")),
                 (self.tr("Delete group"), self.tr("Delete this group")),
                 (self.tr("Up"), self.tr("Move the symbol up")), (self.tr("Down"), self.tr("Move it down")),
                 (self.tr("Remove"), self.tr("Remove from this group")),
                 (self.tr("Refresh"), self.tr("Reload prices, zones and reports")))  # fmt: skip
        for button, (text, tip) in zip((*self.group_buttons, *self.list_buttons), texts, strict=True):
            button.setText(text)
            button.setToolTip(tip)
        for widget in self.list_buttons:
            widget.setMinimumWidth(widget.fontMetrics().horizontalAdvance(widget.text()) + 20)
            widget.setMaximumWidth(widget.minimumWidth())  # the text's width, not the style's 80 px: four fit a dock
        self.search.retranslate()
        for index, name in enumerate(self.groups or (DEFAULT_GROUP,)):
            self.group_box.setItemText(index, self.group_title(name))
        if self.group is not None:
            self.status.setText(self.tr("%n symbol(s)", "", self.model.rowCount()))
        self.model.retranslate()

    def _button(self, slot: Callable[[], object]) -> QPushButton:
        button = QPushButton(self)
        button.clicked.connect(lambda _checked=False: slot())
        return button

    def _group_chosen(self, index: int) -> None:
        if 0 <= index < len(self.groups):
            self.show_group(self.groups[index])

    def group_title(self, name: str) -> str:
        return self.tr("Default") if name == DEFAULT_GROUP else name

    # ---- reading ----------------------------------------------------------------------------------------------
    def refresh(self, full: bool = True) -> None:
        """Reload the shown group; `full` also recomputes every zone position (else only new symbols')."""
        if full:
            self._zones.clear()
            self._prices.clear()
        colors = chart_colors(candle_scheme(self.ctx.settings))
        self.model.set_colors(colors.up, colors.down)
        self._generation += 1
        generation, group = self._generation, self.group
        self.ctx.op(lambda bench: actions.load_view(bench, group), partial(self._shown, generation), urgent=True,
                    parent=self)  # fmt: skip

    def show_group(self, name: str) -> None:
        if name != self.group:
            self.group = name
            self.refresh(full=False)

    def _shown(self, generation: int, view: WatchlistView) -> None:
        if generation != self._generation:
            return
        selected = self.selected_symbol()
        self.groups, self.group = view.groups, view.group
        self.group_box.clear()
        self.group_box.addItems([self.group_title(g) for g in view.groups] or [self.group_title(DEFAULT_GROUP)])
        self.group_box.setCurrentIndex(view.groups.index(view.group) if view.group in view.groups else 0)
        rows = [self._with_known(r) for r in view.rows]
        self.model.set_rows(rows)
        self.status.setText(self.tr("%n symbol(s)", "", len(rows)))
        if selected in self.model.symbols():
            self.select(selected)
        self.refreshed.emit()
        symbols = [r.symbol for r in rows]
        if not symbols:
            self.prices_refreshed.emit()
            self.zones_refreshed.emit()
            return
        self.ctx.op(lambda bench, report: actions.fill_prices(bench, symbols, report),
                    lambda _count: self._prices_done(generation), progress=self._found, urgent=True,
                    parent=self)  # fmt: skip

    def _prices_done(self, generation: int) -> None:
        """Prices are shown: the zones follow (not urgent: tens of milliseconds a symbol, the window is usable; but
        `soon`, ahead of the other screens' first loads, which had kept them queued for seconds on a reopen)."""
        self._show_found()
        if generation != self._generation:
            return
        self.prices_refreshed.emit()
        missing = [s for s in self.model.symbols() if s not in self._zones]
        if not missing:
            self.zones_refreshed.emit()
            return
        self.ctx.op(lambda bench, report: actions.fill_zones(bench, missing, report),
                    lambda _count: self._zones_done(generation), progress=self._found, soon=True,
                    parent=self)  # fmt: skip

    def _with_known(self, row: WatchRow) -> WatchRow:
        zone, price = self._zones.get(row.symbol), self._prices.get(row.symbol)
        if zone is not None:
            row = replace(row, zone_position=zone[0], zone_note=zone[1])
        return row if price is None else replace(row, **_price_columns(price))

    def _found(self, found: RowFound) -> None:
        if isinstance(found, RowPrice):
            self._prices[found.symbol] = found
            symbol, values = found.symbol, _price_columns(found)
        else:
            symbol, position, note = found
            self._zones[symbol] = (position, note)
            values = {"zone_position": position, "zone_note": note}
        self._found_values.setdefault(symbol, {}).update(values)
        if not self._fill.isActive():
            self._fill.start()

    def _show_found(self) -> None:
        self._fill.stop()
        found, self._found_values = self._found_values, {}
        self.model.fill(found)

    def _zones_done(self, generation: int) -> None:
        self._show_found()
        if generation == self._generation:
            self.zones_refreshed.emit()

    def _on_events(self, events: list[Event]) -> None:
        if any(isinstance(e, WatchlistChanged | LedgerChanged | ReportPublished) for e in events):
            self._reload.start()

    # ---- selection --------------------------------------------------------------------------------------------
    def selected_symbol(self) -> str | None:
        """The symbol of the selected row (the main window asks for it)."""
        index = self.view.currentIndex()
        return self.model.rows[index.row()].symbol if index.isValid() and index.row() < len(self.model.rows) else None

    def select(self, symbol: str) -> None:
        row = self.model.row_of(symbol)
        if row >= 0:
            self.view.selectRow(row)
            self.view.setCurrentIndex(self.model.index(row, 0))

    def _current_changed(self, current: object, _previous: object) -> None:
        symbol = self.selected_symbol()
        if symbol:
            self.symbol_selected.emit(symbol)

    # ---- writes -----------------------------------------------------------------------------------------------
    def _write(self, fn: Callable[[Workbench], object], then: Callable[[object], None] | None = None) -> None:
        def done(result: object) -> None:
            if then is not None:
                then(result)
            self.refresh(full=False)

        self.ctx.op(fn, done, failure=self._failed, parent=self)

    def _failed(self, error: BaseException) -> None:
        self.ctx.presenter.present(error)
        self.refresh(full=False)  # undo any optimistic change

    def add_symbol(self, symbol: str) -> None:
        """Add `symbol` (any accepted form) to the shown group."""
        self._write(actions.add(symbol, self.group), lambda item: self._select_later(getattr(item, "symbol", "")))

    def _select_later(self, symbol: str) -> None:
        self.refreshed.connect(lambda: self.select(symbol), Qt.ConnectionType.SingleShotConnection)

    def remove_symbol(self, symbol: str) -> None:
        """Remove `symbol` from the shown group."""
        self._write(actions.remove(symbol, self.group))

    def _remove_selected(self) -> None:
        symbol = self.selected_symbol()
        if symbol:
            self.remove_symbol(symbol)

    def move_symbol(self, symbol: str, position: int) -> None:
        """Move `symbol` to 0-based `position` in the shown group (the row moves at once, then the engine)."""
        source = self.model.row_of(symbol)
        if source < 0 or not self.model.move_row(source, position):
            return
        self.select(symbol)
        self._write(actions.move(symbol, position, self.group))

    def move_selected(self, step: int) -> None:
        symbol = self.selected_symbol()
        if symbol:
            row = self.model.row_of(symbol)
            self.move_symbol(symbol, max(0, min(row + step, len(self.model.rows) - 1)))

    def move_to_group(self, symbol: str, target: str) -> None:
        self._write(actions.move_to_group(symbol, self.group, target))

    def new_group(self, name: str) -> None:
        self._write(actions.add_group(name), lambda _g: self.show_group(name.strip()))

    def rename_group(self, new_name: str) -> None:
        if self.group is not None:
            old = self.group
            self.group = new_name.strip()
            self._write(actions.rename_group(old, new_name))

    def delete_group(self, name: str) -> None:
        self._write(actions.remove_group(name))

    # ---- dialogs (never blocking) -----------------------------------------------------------------------------
    def _ask(self, title: str, label: str, text: str, then: Callable[[str], None]) -> QInputDialog:
        dialog = QInputDialog(self)
        dialog.setWindowTitle(title)
        dialog.setLabelText(label)
        dialog.setTextValue(text)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def chosen(value: str) -> None:
            if value.strip():
                then(value.strip())

        dialog.textValueSelected.connect(chosen)
        dialog.open()
        return dialog

    def ask_new_group(self) -> None:
        self._ask(self.tr("New group"), self.tr("Name of the new group:"), "", self.new_group)

    def ask_rename_group(self) -> None:
        if self.group is not None:
            self._ask(self.tr("Rename group"), self.tr("New name:"), self.group_title(self.group), self.rename_group)

    def ask_delete_group(self) -> None:
        if self.group is None:
            return
        name = self.group
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Delete group"),
                          self.tr("Delete the group '%1' and the symbols on it?").replace("%1", self.group_title(name)),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self)  # fmt: skip
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.accepted.connect(lambda: self.delete_group(name))
        box.open()

    def ask_question(self, symbol: str) -> QInputDialog:
        """A small dialog for a question about `symbol`; OK emits `question_requested(symbol, question)`."""
        self.question_dialog = self._ask(
            self.tr("Ask a question"),
            self.tr("Your question about %1:").replace("%1", symbol),
            "",
            lambda question: self.question_requested.emit(symbol, question),
        )
        return self.question_dialog

    # ---- context menu -----------------------------------------------------------------------------------------
    def context_menu(self, symbol: str) -> QMenu:
        """The right-click menu of `symbol`'s row; each entry emits a request signal."""
        row = self.model.rows[self.model.row_of(symbol)] if self.model.row_of(symbol) >= 0 else None
        menu = QMenu(self)
        self._entry(menu, "analyze", self.tr("Analyze"), lambda: self.analyze_requested.emit(symbol))
        self._entry(menu, "ask", self.tr("Ask a question…"), lambda: self.ask_question(symbol))
        self._entry(menu, "quick_review", self.tr("Quick review"), lambda: self.quick_review_requested.emit(symbol))
        self._entry(menu, "check_plan", self.tr("Check plan"), lambda: self.check_plan_requested.emit(symbol))
        menu.addSeparator()
        self._entry(menu, "chart", self.tr("Open chart"), lambda: self.chart_requested.emit(symbol))
        report_id = row.report_id if row is not None else None
        report = self._entry(menu, "report", self.tr("Open latest report"),
                             lambda: self.report_requested.emit(report_id or ""))  # fmt: skip
        if report_id is None:
            report.setEnabled(False)
            report.setToolTip(self.tr("No report on this symbol yet"))
        self._entry(menu, "fill", self.tr("Record fill…"), lambda: self.fill_requested.emit(symbol))
        menu.addSeparator()
        move = menu.addMenu(self.tr("Move to group"))
        move.setObjectName("move_to_group")
        for name in self.groups:
            if name != self.group:
                self._entry(move, f"group:{name}", self.group_title(name), partial(self.move_to_group, symbol, name))
        move.setEnabled(bool(move.actions()))
        self._entry(menu, "remove", self.tr("Remove"), lambda: self.remove_symbol(symbol))
        return menu

    def _entry(self, menu: QMenu, name: str, text: str, slot: Callable[[], object]) -> QAction:
        action = menu.addAction(text)
        action.setObjectName(name)
        action.triggered.connect(lambda _checked=False: slot())
        menu.setToolTipsVisible(True)
        return action

    def _show_menu(self, position: QPoint) -> None:
        index = self.view.indexAt(position)
        if not index.isValid():
            return
        symbol = self.model.rows[index.row()].symbol
        self.select(symbol)
        menu = self.context_menu(symbol)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.view.viewport().mapToGlobal(position))


SCREENSHOT_SYMBOLS = ("605903.SH", "003901.SZ", "688901.SH", "02979.HK", "301901.SZ")


def _fill_empty_watchlist(bench: Workbench) -> int:
    if bench.watchlist.symbols():
        return 0
    for symbol in SCREENSHOT_SYMBOLS:
        bench.watchlist.add(symbol)
    return len(SCREENSHOT_SYMBOLS)


def screenshot_setup(panel: WatchlistPanel) -> None:
    """For screenshots: a few demo stocks on an empty list (added in the background; wait for `zones_refreshed`)."""
    panel.ctx.op(_fill_empty_watchlist, lambda _n: panel.refresh(), parent=panel)
