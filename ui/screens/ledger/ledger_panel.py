"""The ledger views of one account: positions, cash entries, fills (with void and its reason), orders (with
cancel) and corporate actions. They re-read the books whenever the engine reports a ledger change."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSizePolicy,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from stockbench.clock import market_words
from stockbench.events import Event, LedgerChanged
from stockbench.ledger.entries import OrderStatus
from ui.context import AppContext
from ui.dialogs.account_dialogs import CashDialog, NewAccountDialog
from ui.dialogs.fill_dialog import FillDialog
from ui.dialogs.fill_import_dialog import FillImportDialog
from ui.i18n.language import engine_language
from ui.screens.ledger import ledger_actions as actions
from ui.screens.ledger.ledger_model import (
    ACTION_COLUMNS,
    ACTION_OPTIONAL,
    CASH_COLUMNS,
    CASH_OPTIONAL,
    FILL_COLUMNS,
    FILL_OPTIONAL,
    ORDER_COLUMNS,
    ORDER_OPTIONAL,
    POSITION_COLUMNS,
    POSITION_OPTIONAL,
    Column,
    ColumnTableModel,
    Entry,
    money,
)
from ui.screens.ledger.reason_dialog import ReasonDialog
from ui.widgets.column_fit import ColumnFit, given_up_tip

VOIDABLE = ("cash", "fills", "actions")
OPEN_ORDER = frozenset({"open", "partially_filled"})


@dataclass(frozen=True)
class Tab:
    key: str
    title: str  # marked with QT_TRANSLATE_NOOP("LedgerPanel", ...), translated when shown
    columns: Sequence[Column[Any]]
    optional: Sequence[str]  # the columns given up, in this order, while the rest do not fit


TABS: tuple[Tab, ...] = (
    Tab("positions", str(QT_TRANSLATE_NOOP("LedgerPanel", "Positions")), POSITION_COLUMNS, POSITION_OPTIONAL),
    Tab("cash", str(QT_TRANSLATE_NOOP("LedgerPanel", "Cash")), CASH_COLUMNS, CASH_OPTIONAL),
    Tab("fills", str(QT_TRANSLATE_NOOP("LedgerPanel", "Fills")), FILL_COLUMNS, FILL_OPTIONAL),
    Tab("orders", str(QT_TRANSLATE_NOOP("LedgerPanel", "Orders")), ORDER_COLUMNS, ORDER_OPTIONAL),
    Tab("actions", str(QT_TRANSLATE_NOOP("LedgerPanel", "Corporate actions")), ACTION_COLUMNS, ACTION_OPTIONAL),
)


class LedgerPanel(QWidget):
    """One account's books in five tabs."""

    screen_name = "ledger"
    refreshed = Signal()  # the books were (re-)read and shown

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("LedgerPanel")
        self.models: dict[str, ColumnTableModel[Any]] = {}
        self.tables: dict[str, QTableView] = {}
        self.fits: dict[str, ColumnFit] = {}  # every column that fits, no horizontal scroll bar
        self.book: actions.Book | None = None
        self.reason_dialog: ReasonDialog | None = None
        self.fill_dialog: FillDialog | None = None
        self.import_dialog: FillImportDialog | None = None
        self.account_dialog: NewAccountDialog | None = None
        self.cash_dialog: CashDialog | None = None
        self._seq = 0
        self._read_once = False  # whether a read of the books has been shown (before it, no "no account" yet)
        self._build()
        ctx.bridge.batch.connect(self._on_events)
        self.refresh()

    # ---- layout ------------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        self.account_combo = QComboBox(self)
        self.account_combo.currentIndexChanged.connect(lambda _: self.refresh())
        self.balance_label = QLabel(self)
        self.balance_label.setObjectName("cashBalance")
        self.new_account_button = QPushButton(self)
        self.new_account_button.clicked.connect(self.open_new_account_dialog)
        self.cash_button = QPushButton(self)
        self.cash_button.clicked.connect(self._cash_clicked)
        self.fill_button = QPushButton(self)
        self.fill_button.clicked.connect(self._fill_clicked)
        self.import_button = QPushButton(self)
        self.import_button.clicked.connect(self.open_import_dialog)
        self.account_label = QLabel(self)
        top.addWidget(self.account_label)
        top.addWidget(self.account_combo)
        self.balance_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        top.addWidget(self.balance_label, 1)
        layout.addLayout(top)
        actions_row = QHBoxLayout()  # under the account: the row fits the dock in either language
        for button in (self.new_account_button, self.cash_button, self.fill_button, self.import_button):
            actions_row.addWidget(button)
        actions_row.addStretch(1)
        layout.addLayout(actions_row)
        self.tabs = QTabWidget(self)
        self.tab_buttons: dict[str, QPushButton] = {}  # each tab's Void… or Cancel order… button
        for tab in TABS:
            self.tabs.addTab(self._build_tab(tab), "")
        layout.addWidget(self.tabs, 1)
        self.retranslate()

    def retranslate(self) -> None:
        """Set every text in the current language in place (the tables keep their rows, columns and selection)."""
        self.new_account_button.setText(self.tr("New account…"))
        self.new_account_button.setToolTip(self.tr("Open an account: name, currency and your broker's fee terms"))
        self.cash_button.setText(self.tr("Cash…"))
        self.cash_button.setToolTip(self.tr("Deposit, withdraw or transfer cash"))
        self.fill_button.setText(self.tr("Record fill…"))
        self.import_button.setText(self.tr("Import CSV…"))
        self.import_button.setToolTip(self.tr("Import fills from your broker's CSV export"))
        self.account_label.setText(self.tr("Account"))
        for number, tab in enumerate(TABS):
            self.tabs.setTabText(number, self.tr(tab.title))
        for key, button in self.tab_buttons.items():
            button.setText(self.tr("Cancel order…") if key == "orders" else self.tr("Void…"))
        for model in self.models.values():
            model.retranslate()
        self._show_balance()
        self._show_sellable_note()

    def _build_tab(self, tab: Tab) -> QWidget:
        page = QWidget(self)
        layout = QVBoxLayout(page)
        model: ColumnTableModel[Any] = ColumnTableModel(tab.columns, self)
        table = QTableView(page)
        table.setObjectName(f"ledger_{tab.key}")
        table.setModel(model)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.verticalHeader().setVisible(False)
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        table.horizontalHeader().setStretchLastSection(True)
        self.models[tab.key], self.tables[tab.key] = model, table
        self.fits[tab.key] = ColumnFit(table, [c.key for c in tab.columns], tab.optional)
        model.tooltip = lambda row: self._row_tip(tab, row)
        if tab.key == "positions":  # which instant "sellable" is for (T+1: after the close, the next session)
            self.sellable_note = QLabel(page)
            self.sellable_note.setObjectName("sellableNote")
            self.sellable_note.setWordWrap(True)
            layout.addWidget(self.sellable_note)
        layout.addWidget(table, 1)
        if tab.key in VOIDABLE:
            layout.addLayout(self._button_row(page, tab.key, lambda: self.void_selected(tab.key)))
        elif tab.key == "orders":
            layout.addLayout(self._button_row(page, tab.key, self.cancel_selected))
        return page

    def _row_tip(self, tab: Tab, row: Any) -> str | None:
        """The values of a row's columns given up for want of room, each after its title."""
        given_up = set(self.fits[tab.key].hidden())
        translate = QCoreApplication.translate
        return given_up_tip((translate("LedgerModel", c.title), c.value(row)) for c in tab.columns if c.key in given_up)

    def _button_row(self, page: QWidget, key: str, slot: Any) -> QHBoxLayout:
        row = QHBoxLayout()
        button = self.tab_buttons[key] = QPushButton(page)
        button.clicked.connect(slot)
        row.addStretch(1)
        row.addWidget(button)
        return row

    # ---- reading ---------------------------------------------------------------------------------------
    def account(self) -> str | None:
        data = self.account_combo.currentData()
        return str(data) if data else None

    def refresh(self) -> None:
        """Re-read the selected account's books."""
        self._seq += 1
        seq = self._seq
        actions.load_book(self.ctx, self, self.account(), lambda book: self._on_book(seq, book))

    def _on_book(self, seq: int, book: actions.Book | None) -> None:
        if seq != self._seq:
            return  # a newer read is on its way
        self.book, self._read_once = book, True
        self._set_accounts(book.accounts if book else (), book.account if book else None)
        self.models["positions"].set_rows(book.positions if book else ())
        self.models["cash"].set_rows(book.cash if book else ())
        self.models["fills"].set_rows(book.fills if book else ())
        self.models["orders"].set_rows(book.orders if book else ())
        self.models["actions"].set_rows(book.actions if book else ())
        self._show_balance()
        self._show_sellable_note()
        for button in (self.cash_button, self.fill_button, self.import_button):
            button.setEnabled(book is not None)
        self.refreshed.emit()

    def _show_sellable_note(self) -> None:
        """As of which instant the sellable column is counted: the clock when the books were read, and what the T+1
        rule makes of it (after the close, today's buys count for the next session; a fill dialog's time during
        the session counts them as not sellable yet)."""
        book = self.book
        if book is None:
            self.sellable_note.clear()
            return
        at = market_words("CN", book.now, engine_language())
        if book.after_close:
            text = self.tr("Sellable as of %1: after the close, shares bought today count as sellable at the next "
                           "session (T+1).")  # fmt: skip
        else:
            text = self.tr("Sellable as of %1: A-shares bought today can be sold from the next session (T+1).")
        self.sellable_note.setText(text.replace("%1", at))

    def _show_balance(self) -> None:
        book = self.book
        if book is None:
            said = self.tr("No account yet: open one with New account…") if self._read_once else ""
            self.balance_label.setText(said)
            return
        balance = "  ".join(f"{ccy} {money(amount)}" for ccy, amount in book.balance.items()) or "0.00"
        self.balance_label.setText(self.tr("Cash: {0}").format(balance))

    def _set_accounts(self, names: Sequence[str], current: str | None) -> None:
        self.account_combo.blockSignals(True)
        self.account_combo.clear()
        for name in names:
            self.account_combo.addItem(name, name)
        self.account_combo.setCurrentIndex(max(self.account_combo.findData(current), 0))
        self.account_combo.blockSignals(False)

    @Slot(list)
    def _on_events(self, events: list[Event]) -> None:
        if any(isinstance(e, LedgerChanged) for e in events):
            self.refresh()

    # ---- writing -----------------------------------------------------------------------------------------
    def selected(self, key: str) -> Any:
        rows = self.tables[key].selectionModel().selectedRows()
        return self.models[key].row_at(rows[0].row()) if rows else None

    def void_selected(self, key: str) -> None:
        """Ask for a reason, then void the selected entry (the ledger refuses if later history needs it)."""
        item = self.selected(key)
        if not isinstance(item, Entry) or item.voided:
            return
        entry_id = getattr(item.entry, "fill_id", None) or getattr(item.entry, "entry_id", None) or item.entry.action_id
        dialog = ReasonDialog(self.tr("Void {0}").format(entry_id),
                              self.tr("Void {0}? It stays in the history, excluded from every figure. Why?")
                              .format(entry_id), self)  # fmt: skip
        dialog.accepted.connect(lambda: actions.void_entry(self.ctx, self, entry_id, dialog.reason(), self._done))
        self._open(dialog)

    def cancel_selected(self) -> None:
        """Record that the selected open order was cancelled."""
        status = self.selected("orders")
        if not isinstance(status, OrderStatus) or status.status not in OPEN_ORDER:
            return
        order_id = status.order.order_id
        dialog = ReasonDialog(self.tr("Cancel {0}").format(order_id),
                              self.tr("Record that order {0} was cancelled at the broker. Reason (optional):")
                              .format(order_id), self, required=False)  # fmt: skip
        dialog.accepted.connect(lambda: actions.cancel_order(self.ctx, self, order_id, dialog.reason(), self._done))
        self._open(dialog)

    def _open(self, dialog: ReasonDialog) -> None:
        dialog.finished.connect(dialog.deleteLater)
        self.reason_dialog = dialog
        dialog.open()

    def _done(self, _: object) -> None:
        self.refresh()  # the LedgerChanged event refreshes too; this covers a bus without the bridge

    def _fill_clicked(self) -> None:
        self.open_fill_dialog()

    def open_fill_dialog(self, symbol: str = "") -> FillDialog:
        """Open the fill dialog for the selected account."""
        dialog = FillDialog(self.ctx, self, symbol=symbol, account=self.account())
        dialog.finished.connect(dialog.deleteLater)
        self.fill_dialog = dialog
        dialog.open()
        return dialog

    def open_new_account_dialog(self) -> NewAccountDialog:
        """Open an account; the books then show it."""
        dialog = NewAccountDialog(self.ctx, self)
        dialog.opened.connect(self._show_account)
        dialog.finished.connect(dialog.deleteLater)
        self.account_dialog = dialog
        dialog.open()
        return dialog

    def _show_account(self, name: str) -> None:
        self.account_combo.blockSignals(True)
        self.account_combo.addItem(name, name)
        self.account_combo.setCurrentIndex(self.account_combo.findData(name))
        self.account_combo.blockSignals(False)
        self.refresh()

    def _cash_clicked(self) -> None:
        self.open_cash_dialog()

    def open_cash_dialog(self, kind: str = "deposit") -> CashDialog | None:
        """Record cash of the selected account; with no account yet, open one first (and return None)."""
        account = self.account()
        if account is None or self.book is None:
            self.open_new_account_dialog()
            return None
        dialog = CashDialog(self.ctx, account, self.book.accounts, self.book.now, self, kind=kind)
        dialog.recorded.connect(lambda _account: self.refresh())
        dialog.finished.connect(dialog.deleteLater)
        self.cash_dialog = dialog
        dialog.open()
        return dialog

    def open_import_dialog(self) -> FillImportDialog:
        """Open the CSV import for the selected account; the books are re-read after an import."""
        dialog = FillImportDialog(self.ctx, self, account=self.account())
        dialog.imported.connect(lambda _account, _count: self.refresh())
        dialog.finished.connect(dialog.deleteLater)
        self.import_dialog = dialog
        dialog.open()
        return dialog


def screenshot_setup(panel: LedgerPanel) -> None:
    """For screenshots: nothing to select; the first account is shown."""
