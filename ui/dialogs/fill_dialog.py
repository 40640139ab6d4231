"""The fill dialog: record an execution the user confirms, checked as they type by the ledger's own rules.

Every edit schedules a debounced `Ledger.preview_fill` in the background (it writes nothing); its specific
problems (lot, tick, price limit, T+1 sellable, cash, session ...) are shown at once and OK is enabled only
when the latest preview of exactly what is on screen is valid. Only OK writes, through `Ledger.record_fill`.
"""

from __future__ import annotations

import contextlib
import html
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QDate, Qt, QTime, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTimeEdit,
    QVBoxLayout,
    QWidget,
)

from stockbench.clock import MARKET_TZ, Market, zone_words
from stockbench.errors import CalendarUnknown, InvalidInput, Problem, RuleViolation, UserError
from stockbench.ledger.entries import Fill, FillDraft, Side
from stockbench.market.instruments import Instrument, parse_symbol
from stockbench.market.numbers import Typed, price_text, read_decimal, read_money, read_quantity
from stockbench.messages import Note, said
from stockbench.workbench import Workbench
from ui.context import AppContext
from ui.dialogs.account_dialogs import NewAccountDialog
from ui.i18n.language import engine_language

DEBOUNCE_MS = 250
NUMBER_LENGTH = 24  # the edits take any text: the engine's number reader says what is wrong with it, or notes it
REFERENCE_LOOKBACK = timedelta(days=31)
MIN_WIDTH = 520
# The rule tables' fee item names (stable keys), as the user reads them.
FEE_NAMES: dict[str, str] = {
    "commission": str(QT_TRANSLATE_NOOP("FillDialog", "commission")),
    "stamp_duty": str(QT_TRANSLATE_NOOP("FillDialog", "stamp duty")),
    "transfer_fee": str(QT_TRANSLATE_NOOP("FillDialog", "transfer fee")),
    "handling_fee": str(QT_TRANSLATE_NOOP("FillDialog", "handling fee")),
    "regulatory_fee": str(QT_TRANSLATE_NOOP("FillDialog", "regulatory fee")),
    "trading_fee": str(QT_TRANSLATE_NOOP("FillDialog", "trading fee")),
    "settlement_fee": str(QT_TRANSLATE_NOOP("FillDialog", "settlement fee")),
    "sfc_levy": str(QT_TRANSLATE_NOOP("FillDialog", "SFC levy")),
    "afrc_levy": str(QT_TRANSLATE_NOOP("FillDialog", "AFRC levy")),
    "broker_total": str(QT_TRANSLATE_NOOP("FillDialog", "broker's total")),
}
# Which field a ledger problem is about, so the field can be marked as well as the message listed.
FIELD_CODES: dict[str, frozenset[str]] = {
    "account": frozenset({"unknown_account", "market_not_in_account"}),
    "symbol": frozenset({"invalid_symbol", "not_tradable", "market_not_in_account"}),
    "qty": frozenset(
        {
            "lot_multiple",
            "lot_minimum",
            "lot_unknown",
            "hk_odd_lot",
            "odd_lot_sell",
            "exceeds_holding",
            "exceeds_sellable",
            "not_positive",
            "insufficient_cash",
            "order_overfilled",
        }
    ),
    "price": frozenset(
        {"price_off_tick", "above_limit_up", "below_limit_down", "price_cage", "limit_unknown", "not_positive"}
    ),
    "qty_typed": frozenset({"invalid_qty"}),
    "price_typed": frozenset({"invalid_price"}),
    "fee_typed": frozenset({"invalid_fee"}),
    "time": frozenset({"outside_session", "future_time", "calendar_unknown", "naive_time"}),
    "fee": frozenset({"negative_fee"}),
    "order": frozenset({"unknown_order", "order_mismatch", "order_closed", "order_overfilled"}),
}


@dataclass(frozen=True)
class FillForm:
    """What is on screen, as entered."""

    account: str
    symbol: str
    side: Side
    qty: str
    price: str
    day: date
    at: time
    fee: str  # "" for the computed fees
    order_id: str | None
    note: str = ""

    def missing(self) -> list[str]:
        return [name for name in ("account", "symbol", "qty", "price") if not str(getattr(self, name)).strip()]


@dataclass(frozen=True)
class FillPreview:
    """The ledger's verdict on a form: the fill as it would be recorded, and every problem with it."""

    form: FillForm
    draft: FillDraft | None
    fill: Fill | None
    problems: tuple[Problem, ...]
    reference: Decimal | None  # the day's reference price the limits were checked against
    notes: tuple[Note, ...] = ()  # how a typed number was read (full-width digits, thousands separators)
    shown_price: str = ""  # the fill's price and the reference price in their tick's decimals (worked out off the
    shown_reference: str = ""  # UI thread: the tick tables are read from the package)

    @property
    def valid(self) -> bool:
        return self.draft is not None and self.fill is not None and not self.problems


@dataclass(frozen=True)
class OrderChoice:
    """An open order a fill may be linked to, with what is left of it."""

    order_id: str
    account: str
    symbol: str
    side: Side
    remaining: int
    price: Decimal
    shown: str = ""  # the price in its tick's decimals

    def label(self) -> str:
        return f"{self.order_id} · {self.account} · {self.side} {self.remaining} {self.symbol} @ {self.shown}"


@dataclass(frozen=True)
class FillChoices:
    accounts: tuple[str, ...]
    orders: tuple[OrderChoice, ...]  # open orders
    now: datetime  # the time the form starts from: the last trading minute of the symbol's market at the clock
    market: Market = "CN"  # the market `now` is the last trading minute of


def shown_price(symbol: str, value: Decimal, day: date) -> str:
    """A price in its tick's decimals (10.4000 -> 10.40 for an A-share, 2.345 stays 2.345)."""
    try:
        instrument: Instrument = parse_symbol(symbol)
    except InvalidInput:
        return f"{value.normalize():f}"
    return price_text(instrument, value, day)


def _numbers(form: FillForm) -> tuple[dict[str, Typed], list[Problem]]:
    """The form's quantity, price and fee as typed numbers, and a problem for each one refused (all at once)."""
    readers: dict[str, tuple[Callable[[str, str], Typed], str]] = {
        "qty": (read_quantity, "quantity"), "price": (read_decimal, "price"), "fee": (read_money, "fee"),
    }  # fmt: skip
    found: dict[str, Typed] = {}
    problems: list[Problem] = []
    for name, (reader, what) in readers.items():
        text = getattr(form, name)
        if name == "fee" and not text.strip():
            continue
        try:
            found[name] = reader(text, what)
        except InvalidInput as error:
            problems.append(Problem(f"invalid_{name}", error.message, error.hint, name, error.key, error.params))
    return found, problems


def _fee_name(key: str) -> str:
    return QCoreApplication.translate("FillDialog", FEE_NAMES[key]) if key in FEE_NAMES else key


def reference_price(bench: Workbench, symbol: str, day: date) -> Decimal | None:
    """The day's reference price from stored bars: that day's previous close, or the last close before it."""
    try:
        bars = bench.data.bars(symbol, day - REFERENCE_LOOKBACK, day)
    except Exception:  # no bars, no reference: limits are then left unchecked (and the dialog says so)
        return None
    if bars.is_empty():
        return None
    last = bars.row(-1, named=True)
    value = last["prev_close"] if last["day"] == day else last["close"]
    return Decimal(value) if value is not None else None


def preview(bench: Workbench, form: FillForm) -> FillPreview:
    """Check `form` with `Ledger.preview_fill` (nothing is written)."""
    try:
        instrument = parse_symbol(form.symbol)
        executed = datetime.combine(form.day, form.at, tzinfo=MARKET_TZ[instrument.market])
    except (InvalidInput, ValueError) as error:
        message = getattr(error, "message", str(error))
        return FillPreview(form, None, None, (Problem("invalid_symbol", message, getattr(error, "hint", "")),), None)
    numbers, refused = _numbers(form)
    notes = tuple(found for typed in numbers.values() for found in typed.notes)
    if refused:
        return FillPreview(form, None, None, tuple(refused), None, notes)
    fee = numbers["fee"].value if "fee" in numbers else None
    reference = reference_price(bench, instrument.symbol, form.day)
    draft = FillDraft(form.account, instrument.symbol, form.side, numbers["qty"].whole, numbers["price"].value,
                      executed, fee, form.order_id, None, reference, form.note)  # fmt: skip
    try:
        fill, problems = bench.ledger.preview_fill(draft)
    except UserError as error:  # a check that raised rather than listed its problem: show it the same way
        return FillPreview(form, None, None, (Problem(error.code, error.message, error.hint),), reference, notes)
    shown = "" if fill is None else shown_price(fill.symbol, fill.price, fill.trade_date)
    shown_reference = "" if reference is None else shown_price(instrument.symbol, reference, form.day)
    return FillPreview(form, draft, fill, tuple(problems), reference, notes, shown, shown_reference)


def _choices(bench: Workbench, symbol: str = "") -> FillChoices:
    ledger = bench.ledger
    accounts = tuple(a.name for a in ledger.accounts())
    orders = tuple(
        OrderChoice(s.order.order_id, s.order.account, s.order.symbol, s.order.side, s.order.qty - s.filled,
                    s.order.price, shown_price(s.order.symbol, s.order.price, s.order.placed_at.date()))
        for s in ledger.orders() if s.status in {"open", "partially_filled"}
    )  # fmt: skip
    market = market_of(symbol)
    return FillChoices(accounts, orders, default_time(bench, market), market)


def market_of(symbol: str) -> Market:
    """The market of `symbol` as typed so far (an A-share until it says otherwise)."""
    try:
        return parse_symbol(symbol).market
    except InvalidInput:
        return "CN"


def default_time(bench: Workbench, market: Market) -> datetime:
    """When a new fill most likely executed: the last trading minute of `market` at the clock (its own close and
    holidays: 15:59 in Hong Kong, 14:59 for an A-share), else the clock when no session is known before it."""
    now = bench.clock.now()
    with contextlib.suppress(CalendarUnknown):
        now = bench.market.last_trading_minute(market, now)
    return now


class FillDialog(QDialog):
    """Record one fill. Nothing is written until OK, and OK is enabled only for a valid fill."""

    screen_name = "fill"
    fill_recorded = Signal(object)  # the recorded Fill
    previewed = Signal(object)  # each applied FillPreview (the status bar and tests listen)

    def __init__(self, ctx: AppContext, parent: QWidget | None = None, *, symbol: str | None = None,
                 account: str | None = None, side: Side = "buy", order_id: str | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("FillDialog")
        self.setWindowTitle(self.tr("Record a fill"))
        self.setMinimumWidth(MIN_WIDTH)
        self._seq = 0
        self._fee_by_user = False
        self._wanted = (account, order_id)
        self._orders: dict[str, OrderChoice] = {}
        self.current: FillPreview | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._preview)
        self._market: Market = market_of(symbol or "")  # the market whose zone and sessions the time box follows
        self._time_by_user = False  # the date or the time was changed by hand: a new symbol keeps them
        self._setting_time = False  # the dialog itself is setting them
        self._build(symbol or "", side)
        self._set_ok(False)
        ctx.op(lambda bench: _choices(bench, symbol or ""), self._on_choices, parent=self)

    # ---- layout ------------------------------------------------------------------------------------
    def _build(self, symbol: str, side: Side) -> None:
        layout = QVBoxLayout(self)
        layout.addLayout(self._build_form(symbol, side))
        layout.addWidget(self.fee_label)  # under the form: a form's row kept a wrapped breakdown to its first line
        self.summary_label = QLabel(self)
        self.summary_label.setObjectName("fillSummary")
        self.summary_label.setWordWrap(True)
        self.problems_label = QLabel(self)
        self.problems_label.setObjectName("fillProblems")
        self.problems_label.setWordWrap(True)
        self.problems_label.setTextFormat(Qt.TextFormat.RichText)
        self.notes_label = QLabel(self)
        self.notes_label.setObjectName("fillNotes")
        self.notes_label.setWordWrap(True)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.notes_label)
        layout.addWidget(self.problems_label)
        self.new_account_button = QPushButton(self.tr("New account…"), self)
        self.new_account_button.setObjectName("fillNewAccount")
        self.new_account_button.clicked.connect(self.open_new_account_dialog)
        self.new_account_button.hide()
        layout.addWidget(self.new_account_button)
        self.account_dialog: NewAccountDialog | None = None
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("Record fill"))
        self.buttons.accepted.connect(self._record)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.setStyleSheet('*[invalid="true"] { border: 1px solid #d9534f; }')
        self._connect_edits()

    def _build_form(self, symbol: str, side: Side) -> QFormLayout:
        self.account_combo = QComboBox(self)
        self.symbol_edit = QLineEdit(symbol, self)
        self.symbol_edit.setPlaceholderText(self.tr("e.g. 600519 or 00700.HK"))
        self.side_combo = QComboBox(self)
        self.side_combo.addItem(self.tr("Buy"), "buy")
        self.side_combo.addItem(self.tr("Sell"), "sell")
        self.side_combo.setCurrentIndex(max(self.side_combo.findData(side), 0))
        self.qty_edit = self._line(self.tr("shares"))
        self.price_edit = self._line(self.tr("price per share"))
        self.order_combo = QComboBox(self)
        self.order_combo.addItem(self.tr("(no order)"), None)
        self.note_edit = QLineEdit(self)
        form = QFormLayout()
        for label, field in ((self.tr("Account"), self.account_combo), (self.tr("Symbol"), self.symbol_edit),
                             (self.tr("Side"), self.side_combo), (self.tr("Quantity"), self.qty_edit),
                             (self.tr("Price"), self.price_edit), (self.tr("Time"), self._build_time()),
                             (self.tr("Fees"), self._build_fees()),
                             (self.tr("Order"), self.order_combo), (self.tr("Note"), self.note_edit)):  # fmt: skip
            form.addRow(label, field)
        return form

    def _build_time(self) -> QHBoxLayout:
        self.date_edit = QDateEdit(self)
        self.date_edit.setDisplayFormat("yyyy-MM-dd")
        self.date_edit.setCalendarPopup(True)
        self.time_edit = QTimeEdit(self)
        self.time_edit.setDisplayFormat("HH:mm:ss")
        self.zone_label = QLabel(zone_words(self._market, engine_language()), self)
        self.zone_label.setObjectName("fillZone")
        row = QHBoxLayout()
        row.addWidget(self.date_edit)
        row.addWidget(self.time_edit)
        row.addWidget(self.zone_label)
        return row

    def _build_fees(self) -> QHBoxLayout:
        self.fee_edit = self._line(self.tr("computed"))
        self.fee_reset = QPushButton(self.tr("Use computed fees"), self)
        self.fee_reset.clicked.connect(self._reset_fee)
        self.fee_label = QLabel(self)
        self.fee_label.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.fee_edit, 1)
        row.addWidget(self.fee_reset)
        return row

    def _line(self, placeholder: str) -> QLineEdit:
        edit = QLineEdit(self)
        edit.setMaxLength(NUMBER_LENGTH)
        edit.setPlaceholderText(placeholder)
        edit.setAlignment(Qt.AlignmentFlag.AlignRight)
        return edit

    def _connect_edits(self) -> None:
        for edit in (self.symbol_edit, self.qty_edit, self.price_edit, self.note_edit):
            edit.textChanged.connect(self._schedule)
        self.fee_edit.textEdited.connect(self._fee_edited)
        for combo in (self.account_combo, self.side_combo):
            combo.currentIndexChanged.connect(self._schedule)
        self.order_combo.currentIndexChanged.connect(self._order_chosen)
        self.date_edit.dateChanged.connect(self._schedule)
        self.time_edit.timeChanged.connect(self._schedule)
        self.date_edit.dateChanged.connect(self._time_edited)
        self.time_edit.timeChanged.connect(self._time_edited)
        self.symbol_edit.textChanged.connect(self._symbol_changed)

    def _time_edited(self) -> None:
        self._time_by_user = self._time_by_user or not self._setting_time

    def _symbol_changed(self, text: str) -> None:
        """A symbol of another market: the zone named is its own, and the time starts from its last trading minute
        (unless the user set the time)."""
        market = market_of(text.strip())
        if market == self._market:
            return
        self._market = market
        self.zone_label.setText(zone_words(market, engine_language()))
        if not self._time_by_user:
            self.ctx.op(lambda bench: default_time(bench, market), lambda at: self._set_time(at, market), parent=self)

    def _set_time(self, at: datetime, market: Market) -> None:
        if market != self._market or self._time_by_user:
            return  # the symbol changed again meanwhile, or the user set the time
        local = at.astimezone(MARKET_TZ[market])
        self._setting_time = True
        try:
            self.date_edit.setDate(QDate(local.year, local.month, local.day))
            self.time_edit.setTime(QTime(local.hour, local.minute, local.second))
        finally:
            self._setting_time = False

    def _fields(self) -> dict[str, QWidget]:
        return {
            "account": self.account_combo, "symbol": self.symbol_edit, "qty": self.qty_edit, "price": self.price_edit,
            "qty_typed": self.qty_edit, "price_typed": self.price_edit, "fee_typed": self.fee_edit,
            "time": self.time_edit, "fee": self.fee_edit, "order": self.order_combo,
        }  # fmt: skip

    # ---- choices -------------------------------------------------------------------------------------
    def _on_choices(self, choices: FillChoices) -> None:
        account, order_id = self._wanted
        self.account_combo.blockSignals(True)
        for name in choices.accounts:
            self.account_combo.addItem(name, name)
        self.account_combo.setCurrentIndex(max(self.account_combo.findData(account), 0))
        self.account_combo.blockSignals(False)
        self._orders = {order.order_id: order for order in choices.orders}
        for order in choices.orders:
            self.order_combo.addItem(order.label(), order.order_id)
        if not self._time_by_user:
            self._set_time(choices.now, choices.market)
        if order_id is not None:
            self.order_combo.setCurrentIndex(max(self.order_combo.findData(order_id), 0))
        self.new_account_button.setVisible(not choices.accounts)
        if not choices.accounts:
            self.problems_label.setText(html.escape(self.tr("There is no account yet: open one to record this fill.")))
        self._schedule()

    def open_new_account_dialog(self) -> NewAccountDialog:
        """Open the first account from here; the dialog then records the fill in it."""
        dialog = NewAccountDialog(self.ctx, self)
        dialog.opened.connect(self._account_opened)
        dialog.finished.connect(dialog.deleteLater)
        self.account_dialog = dialog
        dialog.open()
        return dialog

    def _account_opened(self, name: str) -> None:
        self._wanted = (name, self._wanted[1])
        self.account_combo.clear()
        self.order_combo.clear()
        self.order_combo.addItem(self.tr("(no order)"), None)
        self.problems_label.clear()
        symbol = self.symbol_edit.text().strip()
        self.ctx.op(lambda bench: _choices(bench, symbol), self._on_choices, parent=self)

    def _order_chosen(self) -> None:
        order = self._orders.get(str(self.order_combo.currentData()))
        if order is not None:  # pre-fill from the order; the ledger still checks that they match
            self.account_combo.setCurrentIndex(max(self.account_combo.findData(order.account), 0))
            self.side_combo.setCurrentIndex(max(self.side_combo.findData(order.side), 0))
            self.symbol_edit.setText(order.symbol)
            self.qty_edit.setText(str(order.remaining))
            self.price_edit.setText(order.shown)
        self._schedule()

    # ---- preview -----------------------------------------------------------------------------------
    def form(self) -> FillForm:
        """The form as it is on screen now."""
        return FillForm(
            account=str(self.account_combo.currentData() or ""), symbol=self.symbol_edit.text().strip(),
            side=self.side_combo.currentData(), qty=self.qty_edit.text().strip(), price=self.price_edit.text().strip(),
            day=self.date_edit.date().toPython(), at=self.time_edit.time().toPython(),  # type: ignore[arg-type]
            fee=self.fee_edit.text().strip() if self._fee_by_user else "", order_id=self.order_combo.currentData(),
            note=self.note_edit.text().strip(),
        )  # fmt: skip

    def _schedule(self) -> None:
        self._seq += 1  # any earlier preview no longer describes the screen
        self._set_ok(False)
        self._timer.start()

    def pending(self) -> bool:
        """True while an edit has not been checked yet."""
        return self._timer.isActive() or self.current is None or self.current.form != self.form()

    def _preview(self) -> None:
        form = self.form()
        missing = form.missing()
        if missing:
            self.current = None
            self.summary_label.setText(self.tr("Enter the account, symbol, quantity and price."))
            self.problems_label.clear()
            self.notes_label.clear()
            self._mark(set())
            return
        seq = self._seq
        self.ctx.op(lambda bench: preview(bench, form), lambda result: self._on_preview(seq, result),
                    failure=lambda error: self._on_preview_failed(seq, error), parent=self)  # fmt: skip

    def _on_preview(self, seq: int, result: FillPreview) -> None:
        if seq != self._seq:
            return  # the form changed meanwhile; a newer preview is on its way
        self.current = result
        self._show_fees(result)
        self._show_problems(list(result.problems))
        self.notes_label.setText("\n".join(found.text(engine_language()) for found in result.notes))
        self.summary_label.setText(self._summary(result))
        self._set_ok(result.valid and not self.pending())
        self.previewed.emit(result)

    def _on_preview_failed(self, seq: int, error: BaseException) -> None:
        if seq != self._seq:
            return
        message = getattr(error, "message", None) or self.tr("The fill could not be checked.")
        self.current = None
        self._show_problems([Problem("preview_failed", str(message))])
        self._set_ok(False)

    def _show_fees(self, result: FillPreview) -> None:
        fill = result.fill
        if fill is None:
            self.fee_label.clear()
            return
        if not self._fee_by_user:
            self.fee_edit.setText(f"{fill.fees:.2f}")
        chinese = engine_language() == "zh"  # Chinese punctuation between Chinese words
        items = ("，" if chinese else ", ").join(f"{_fee_name(name)} {amount:.2f}" for name, amount in fill.fee_items)
        source = self.tr("broker's figure") if self._fee_by_user else self.tr("computed")
        self.fee_label.setText(f"{source}{'：' if chinese else ': '}{items}" if items else source)
        self.fee_reset.setEnabled(self._fee_by_user)

    def _summary(self, result: FillPreview) -> str:
        fill = result.fill
        if fill is None:
            return ""
        total = fill.amount + fill.fees if fill.side == "buy" else fill.amount - fill.fees
        side = self.tr("Buy") if fill.side == "buy" else self.tr("Sell")
        pattern = self.tr(
            "{side} {qty} {symbol} at {price}: {amount:,.2f} {sign} fees {fees:,.2f} = {total:,.2f} {ccy}"
        )
        text = pattern.format(
            side=side, qty=fill.qty, symbol=fill.symbol, price=result.shown_price, amount=fill.amount,
            sign="+" if fill.side == "buy" else "−", fees=fill.fees, total=total, ccy=fill.currency,
        )  # fmt: skip
        if result.reference is None:
            return text + "\n" + self.tr("Price limits not checked: no reference price is stored for that day.")
        reference = result.shown_reference
        return text + "\n" + self.tr("Price limits checked against the reference price {0}.").format(reference)

    def _show_problems(self, problems: list[Problem]) -> None:
        language = engine_language()
        lines = [f"<li><b>{html.escape(message)}</b>" + (f" — {html.escape(fix)}" if fix else "") + "</li>"
                 for message, fix in (said(p, language) for p in problems)]  # fmt: skip
        self.problems_label.setText(f"<ul style='color:#c9302c'>{''.join(lines)}</ul>" if lines else "")
        self._mark({p.code for p in problems})

    def _mark(self, codes: set[str]) -> None:
        for name, widget in self._fields().items():
            bad = bool(codes & FIELD_CODES.get(name, frozenset()))
            if widget.property("invalid") != bad:
                widget.setProperty("invalid", bad)
                widget.style().unpolish(widget)
                widget.style().polish(widget)

    # ---- fees --------------------------------------------------------------------------------------
    def _fee_edited(self, text: str) -> None:
        self._fee_by_user = bool(text.strip())
        self._schedule()

    def _reset_fee(self) -> None:
        self._fee_by_user = False
        self.fee_edit.clear()
        self._schedule()

    # ---- recording ---------------------------------------------------------------------------------
    def _set_ok(self, enabled: bool) -> None:
        self.ok_button.setEnabled(enabled)

    def _record(self) -> None:
        result = self.current
        if result is None or not result.valid or self.pending() or result.draft is None:
            return
        draft = result.draft
        self._set_ok(False)
        self.ctx.op(lambda bench: bench.ledger.record_fill(draft), self._on_recorded, failure=self._on_record_failed,
                    parent=self)  # fmt: skip

    def _on_recorded(self, fill: Fill) -> None:
        self.fill_recorded.emit(fill)
        self.accept()

    def _on_record_failed(self, error: BaseException) -> None:
        if isinstance(error, RuleViolation):  # the books changed since the preview
            self._show_problems(list(error.problems))
            self._schedule()
            return
        self.ctx.presenter.present(error)
        self._schedule()

    def done(self, result: int) -> None:
        self._timer.stop()
        super().done(result)


def screenshot_setup(dialog: FillDialog) -> None:
    """For screenshots: a buy of a demo stock, checked against the ledger."""
    dialog.symbol_edit.setText("003901.SZ")
    dialog.qty_edit.setText("1000")
    dialog.price_edit.setText("10.43")
    dialog.time_edit.setTime(QTime(10, 31, 5))
