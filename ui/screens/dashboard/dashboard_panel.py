"""The dashboard: cash and equity per account and currency, positions, open orders with the latest report's
KEEP/MODIFY/CANCEL, zone alerts and the scan shortlist. The books load first; the watch (zones for every
watched or held symbol, the scan) follows in a second background op. Ledger, watchlist and report events
reload what they change."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from PySide6.QtCore import QModelIndex, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHeaderView,
    QLabel,
    QMenu,
    QSplitter,
    QStackedWidget,
    QStyle,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from stockbench.events import Event, LedgerChanged
from stockbench.research.events import ReportPublished
from stockbench.watchlist import WatchlistChanged
from ui.charts.palette import candle_scheme, chart_colors
from ui.context import AppContext
from ui.screens.dashboard import dashboard_actions as actions
from ui.screens.dashboard.dashboard_actions import Books, Watch
from ui.screens.dashboard.dashboard_model import (
    ACCOUNT_COLUMNS,
    ALERT_COLUMNS,
    ORDER_COLUMNS,
    PICK_COLUMNS,
    POSITION_COLUMNS,
    POSITION_OPTIONAL,
    AccountRow,
    OrderRow,
    PositionRow,
    RecordModel,
    order_tip,
    translate,
)
from ui.widgets.column_fit import ColumnFit, given_up_tip
from ui.widgets.column_width import column_width

RELOAD_MS = 400
LOWER = ("orders", "alerts", "picks")  # side by side where their columns fit, else tabs


class DashboardPanel(QWidget):
    """The user's money, holdings, orders and what to look at today."""

    screen_name = "dashboard"
    chart_requested = Signal(str)  # symbol
    analyze_requested = Signal(str)  # symbol
    report_requested = Signal(str)  # report id
    books_refreshed = Signal()
    watch_refreshed = Signal()

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("DashboardPanel")
        self.accounts = RecordModel(ACCOUNT_COLUMNS, self)
        self.positions = RecordModel(POSITION_COLUMNS, self)
        self.orders = RecordModel(ORDER_COLUMNS, self)
        self.alerts = RecordModel(ALERT_COLUMNS, self)
        self.picks = RecordModel(PICK_COLUMNS, self)
        self.accounts.tooltip = self._account_tip
        self.orders.tooltip = order_tip
        self.picks.tooltip = lambda row: row.reasons
        self.positions.tooltip = self._position_tip
        self._generation = {"books": 0, "watch": 0}
        self._watch: Watch | None = None  # the watch shown (its note is worded again on a language switch)
        self._build()
        self._reload_books = self._timer(self.refresh_books)
        self._reload_watch = self._timer(self.refresh_watch)
        ctx.bridge.batch.connect(self._on_events)
        self.refresh()

    def _timer(self, slot: Callable[[], None]) -> QTimer:
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(RELOAD_MS)
        timer.timeout.connect(slot)
        return timer

    # ---- layout -----------------------------------------------------------------------------------------------
    def _build(self) -> None:
        self.views: dict[str, QTableView] = {}
        self.boxes: dict[str, QGroupBox] = {}
        self.watch_note = QLabel(self)
        self.watch_note.setWordWrap(True)
        self.lower_split = QSplitter(Qt.Orientation.Horizontal, self)
        for name, model in (("orders", self.orders), ("alerts", self.alerts), ("picks", self.picks)):
            self.lower_split.addWidget(self._section(name, model))
        self.lower_tabs = QTabWidget(self)
        self.lower_tabs.setDocumentMode(True)
        self._tab_chosen = False  # the user picked a tab: a reload no longer brings a filled one to the front
        self.lower_tabs.tabBarClicked.connect(self._tab_clicked)
        self.lower_stack = QStackedWidget(self)
        self.lower_stack.addWidget(self.lower_split)
        self.lower_stack.addWidget(self.lower_tabs)
        # one least size in either arrangement (the side-by-side one's): a switch never moves the window's docks
        self.lower_stack.setMinimumSize(self.lower_split.minimumSizeHint())
        self._lower_wanted: int | None = None  # their width side by side; measured again when rows or words change
        column = QSplitter(Qt.Orientation.Vertical, self)
        column.addWidget(self._section("accounts", self.accounts))
        column.addWidget(self._section("positions", self.positions))
        keys = [c.key for c in POSITION_COLUMNS]  # every column that fits, no horizontal scroll bar
        self.position_fit = ColumnFit(self.views["positions"], keys, POSITION_OPTIONAL)
        column.addWidget(self.lower_stack)
        column.setSizes([120, 260, 320])
        self._show_accounts_column(False)  # until the books say there is more than one
        layout = QVBoxLayout(self)
        layout.addWidget(column, 1)
        layout.addWidget(self.watch_note)
        self.retranslate()

    def retranslate(self) -> None:
        """Set every text in the current language in place (the tables keep their rows and column widths)."""
        titles = {"orders": self.tr("Open orders"),
                  "alerts": self.tr("Zone alerts"),
                  "picks": self.tr("Scan shortlist"), "accounts": self.tr("Cash and equity"),
                  "positions": self.tr("Positions")}  # fmt: skip
        self._titles = titles
        self._lower_wanted = None  # the column titles' widths changed
        self._title_sections()
        # the alerts' basis in their tip: in the title it made the box's least width ("Zone alerts (last close
        # against the close before)"), and the open orders and the scan beside it were cut to a column and a half
        self.boxes["alerts"].setToolTip(self.tr("Each alert compares the last close with the close before it"))
        for model in (self.accounts, self.positions, self.orders, self.alerts, self.picks):
            model.retranslate()
        if self._watch is not None:
            self._show_watch_note(self._watch)
        elif self.watch_note.text():
            self.watch_note.setText(self.tr("Checking zones and scanning…"))

    def _title_sections(self) -> None:
        """Each box its title; in tabs, the tab says the title and the rows behind it, and the box none."""
        tabbed = self.lower_stack.currentWidget() is self.lower_tabs
        for name, title in self._titles.items():
            inside = tabbed and name in LOWER
            self.boxes[name].setTitle("" if inside else title)
            self.boxes[name].setFlat(inside)
            if inside:
                rows = self.views[name].model().rowCount()
                label = self.tr("%1 (%2)", "a tab: a table's title and its row count")
                text = label.replace("%1", title).replace("%2", str(rows))
                at = self.lower_tabs.indexOf(self.boxes[name])
                if self.lower_tabs.tabText(at) != text:  # a resize comes here too: the tab bar is laid out on a change
                    self.lower_tabs.setTabText(at, text)

    def _fit_lower(self) -> None:
        """The open orders, zone alerts and scan side by side where their columns fit, else as tabs: at 1366x768
        with the side docks open the dashboard is about 600 px wide, and side by side each showed two or three
        columns over a scroll bar. Decided again as the panel's width or the tables' columns change."""
        if not self.isVisible():
            return  # a hidden panel has no width to go by: decided when shown
        if self._lower_wanted is None:  # not on every resize: the columns are measured over every row
            handle = self.lower_split.handleWidth()
            self._lower_wanted = sum(self._natural_width(name) for name in LOWER) + handle * (len(LOWER) - 1)
        tabbed = self.lower_stack.width() < self._lower_wanted
        if tabbed != (self.lower_stack.currentWidget() is self.lower_tabs):
            boxes = [self.boxes[name] for name in LOWER]
            if tabbed:
                for box in boxes:
                    self.lower_tabs.addTab(box, "")
                self.lower_stack.setCurrentWidget(self.lower_tabs)
            else:
                self.lower_tabs.clear()  # the pages stay: the splitter takes them back
                for box in boxes:
                    self.lower_split.addWidget(box)
                    box.show()
                share = self.lower_stack.width() // len(boxes)
                self.lower_split.setSizes([share] * len(boxes))
                self.lower_stack.setCurrentWidget(self.lower_split)
        self._title_sections()
        self._front_a_filled_tab()

    def _front_a_filled_tab(self) -> None:
        """In tabs, one with rows in front (not an empty open-orders tab before alerts and a shortlist), until the
        user picks a tab."""
        if self._tab_chosen or self.lower_stack.currentWidget() is not self.lower_tabs:
            return
        rows = [self.views[name].model().rowCount() for name in LOWER]
        if not rows[self.lower_tabs.currentIndex()]:
            self.lower_tabs.setCurrentIndex(next((i for i, n in enumerate(rows) if n), 0))

    def _tab_clicked(self, index: int) -> None:
        self._tab_chosen = index >= 0

    def _natural_width(self, name: str) -> int:
        """The width `name`'s box needs to show every column without scrolling sideways."""
        view, box = self.views[name], self.boxes[name]
        header = view.horizontalHeader()
        columns = sum(column_width(view, i) for i in range(header.count()) if not header.isSectionHidden(i))
        layout = box.layout()
        assert layout is not None  # every box is built with its layout (`_section`)
        margins = layout.contentsMargins()
        frame = box.style().pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth)
        scroll = view.verticalScrollBar().sizeHint().width()
        return columns + 2 * view.frameWidth() + scroll + margins.left() + margins.right() + 2 * frame

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit_lower()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        self._fit_lower()

    def _section(self, name: str, model: RecordModel) -> QGroupBox:
        box = QGroupBox(self)
        view = QTableView(box)
        view.setObjectName(name)
        view.setModel(model)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        view.verticalHeader().hide()
        view.setWordWrap(False)
        view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        view.horizontalHeader().setStretchLastSection(True)
        view.doubleClicked.connect(partial(self._activated, model))
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        view.customContextMenuRequested.connect(partial(self._show_menu, view, model))
        layout = QVBoxLayout(box)
        layout.addWidget(view)
        self.views[name], self.boxes[name] = view, box
        return box

    # ---- reading ----------------------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Reload the books and the watch."""
        colors = chart_colors(candle_scheme(self.ctx.settings))
        for model in (self.accounts, self.positions, self.orders, self.alerts, self.picks):
            model.set_colors(colors.up, colors.down)
        self.refresh_books()
        self.refresh_watch()

    def refresh_books(self) -> None:
        generation = self._next("books")
        self.ctx.op(actions.books, partial(self._books_shown, generation), parent=self)

    def refresh_watch(self) -> None:
        generation = self._next("watch")
        self._watch = None
        self.watch_note.setText(self.tr("Checking zones and scanning…"))
        # after the watchlist's zones, which are the same zones: computed side by side, each took twice as long
        self.ctx.op(actions.watch, partial(self._watch_shown, generation), after_soon=True, parent=self)

    def _next(self, part: str) -> int:
        self._generation[part] += 1
        return self._generation[part]

    def _books_shown(self, generation: int, found: Books) -> None:
        if generation != self._generation["books"]:
            return
        self.accounts.set_rows(found.accounts)
        self.positions.set_rows(found.positions)
        self.orders.set_rows(found.orders)
        self._show_accounts_column(len(found.accounts) > 1)
        self._lower_wanted = None
        self._fit_lower()
        self.books_refreshed.emit()

    def _show_accounts_column(self, shown: bool) -> None:
        """The positions' and orders' account column only when the books hold more than one account: with one, it
        said the same name on every row and took the open orders' room at 1366x768 (a dashboard about 600 px wide
        showed "Account" and half the symbol)."""
        self.position_fit.exclude(() if shown else ("account",))
        at = next(i for i, c in enumerate(self.orders.columns) if c.key == "account")
        if self.views["orders"].isColumnHidden(at) == shown:  # only a change: a view not in front is left alone
            self.views["orders"].setColumnHidden(at, not shown)

    def _watch_shown(self, generation: int, found: Watch) -> None:
        if generation != self._generation["watch"]:
            return
        self.alerts.set_rows(found.alerts)
        self.picks.set_rows(found.shortlist)
        self._watch = found
        self._show_watch_note(found)
        self._lower_wanted = None
        self._fit_lower()
        self.watch_refreshed.emit()

    def _show_watch_note(self, found: Watch) -> None:
        universe = self.tr("the watchlist") if found.universe == "watchlist" else self.tr("every instrument")
        note = self.tr("Scanned %1 symbols of %2 on %3.").replace("%1", str(found.scanned)).replace("%2", universe)
        note = note.replace("%3", found.as_of.isoformat() if found.as_of else "—")
        self.watch_note.setText("\n".join([note, *found.problems[:3]]))

    def _position_tip(self, row: PositionRow) -> str | None:
        """The values of the columns given up for want of room, each with its title."""
        given_up = set(self.position_fit.hidden())
        return given_up_tip((translate(c.title), c.text(row)) for c in POSITION_COLUMNS if c.key in given_up)

    def _account_tip(self, row: AccountRow) -> str | None:
        if not row.unpriced:
            return None
        return self.tr("%1 position(s) without a price are valued at cost").replace("%1", str(row.unpriced))

    def _on_events(self, events: Sequence[Event]) -> None:
        if any(isinstance(e, LedgerChanged | ReportPublished) for e in events):
            self._reload_books.start()
        if any(isinstance(e, WatchlistChanged | LedgerChanged) for e in events):
            self._reload_watch.start()

    # ---- requests ---------------------------------------------------------------------------------------------
    def _activated(self, model: RecordModel, index: QModelIndex) -> None:
        row = model.rows[index.row()]
        if isinstance(row, OrderRow) and row.report_id:
            self.report_requested.emit(row.report_id)
        elif hasattr(row, "symbol"):
            self.chart_requested.emit(row.symbol)

    def _show_menu(self, view: QTableView, model: RecordModel, position: QPoint) -> None:
        index = view.indexAt(position)
        if not index.isValid() or not hasattr(model.rows[index.row()], "symbol"):
            return
        row = model.rows[index.row()]
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.addAction(self.tr("Open chart"), lambda: self.chart_requested.emit(row.symbol))
        menu.addAction(self.tr("Analyze"), lambda: self.analyze_requested.emit(row.symbol))
        if isinstance(row, OrderRow) and row.report_id:
            report_id = row.report_id
            menu.addAction(self.tr("Open latest report"), lambda: self.report_requested.emit(report_id))
        menu.popup(view.viewport().mapToGlobal(position))

    def text(self, table: str, row: int, key: str) -> str:
        """The text shown in `table` (accounts, positions, orders, alerts, picks), row `row`, column `key`."""
        models = {"accounts": self.accounts, "positions": self.positions, "orders": self.orders,
                  "alerts": self.alerts, "picks": self.picks}  # fmt: skip
        return models[table].text(row, key)


def screenshot_setup(panel: DashboardPanel) -> None:
    """For screenshots of a demo workspace without accounts: fictional books (see `dashboard_actions.demo_books`),
    recorded in the background; the ledger's events then reload the panel (wait for `books_refreshed`)."""
    panel.ctx.op(actions.demo_books, lambda _n: panel.refresh(), parent=panel)
