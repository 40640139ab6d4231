"""Opening an account and moving cash, in the window: the same ledger calls the CLI makes (`ledger account add`,
`ledger cash`, `ledger transfer`), so the same checks refuse the same input, and a refusal is shown in the dialog,
which stays open with what was typed. Nothing is written until the ledger accepts it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QDate, QDateTime, QTime, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateTimeEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from stockbench.clock import MARKET_TZ, Market, zone_words
from stockbench.errors import InvalidInput, UserError
from stockbench.ledger.entries import Account, CashEntry, CashKind
from stockbench.market.numbers import read_decimal, read_money
from stockbench.messages import error_words, user_error
from stockbench.workbench import Workbench
from ui.context import AppContext
from ui.dialogs.settings.amounts import parse_amount, watch_notes
from ui.i18n.language import engine_language

CURRENCY_MARKET: dict[str, Market] = {"CNY": "CN", "HKD": "HK"}
# what a person records by hand; dividends come with their corporate action, transfers have their own choice
CASH_KINDS: dict[str, str] = {
    "deposit": str(QT_TRANSLATE_NOOP("CashDialog", "Deposit")),
    "withdrawal": str(QT_TRANSLATE_NOOP("CashDialog", "Withdrawal")),
    "interest": str(QT_TRANSLATE_NOOP("CashDialog", "Interest")),
    "fee": str(QT_TRANSLATE_NOOP("CashDialog", "Fee")),
    "tax": str(QT_TRANSLATE_NOOP("CashDialog", "Tax")),
    "transfer": str(QT_TRANSLATE_NOOP("CashDialog", "Transfer to another account")),
}


def _decimal(text: str, what: str, *, money: bool = False) -> Decimal:
    """`text` as the amount `what` (a key of the catalogue's "number.*" words); an empty box is refused in the
    catalogue's words (number_empty), like any other amount that cannot be read."""
    found = parse_amount(text, what, money=money)
    return found if found is not None else (read_money if money else read_decimal)(text, what).value


def _error_text(error: BaseException) -> str:
    if isinstance(error, UserError):
        message, hint = error_words(error, engine_language())
        return f"{message}\n{hint}" if hint else message
    return QCoreApplication.translate("AccountDialogs", "An unexpected error occurred. The details are in the log.")


@dataclass(frozen=True)
class AccountForm:
    name: str
    currency: str
    commission_rate: str
    commission_min: str
    bundled: bool
    note: str

    def open(self, bench: Workbench) -> Account:
        """Open the account with these terms (the ledger validates the name and currency)."""
        return bench.ledger.add_account(
            self.name, self.currency, commission_rate=_decimal(self.commission_rate, "commission_rate"),
            commission_min=_decimal(self.commission_min, "commission_min", money=True),
            bundled_exchange_fees=self.bundled, note=self.note,
        )  # fmt: skip


@dataclass(frozen=True)
class DefaultTerms:
    rate: Decimal
    minimum: Decimal
    bundled: bool


def fee_defaults(bench: Workbench) -> dict[str, DefaultTerms]:
    """The rule tables' default broker terms per base currency (shown in the form, as the CLI's defaults)."""
    found = {ccy: bench.ledger.default_fees(market) for ccy, market in CURRENCY_MARKET.items()}
    return {ccy: DefaultTerms(f.commission_rate, f.commission_min, f.bundled_exchange_fees) for ccy, f in found.items()}


class _LedgerDialog(QDialog):
    """A form whose OK hands one ledger call to the engine: while it runs OK is off; a refusal is shown under the
    form in the interface language and the dialog stays open with what was typed; success closes it."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx

    def _finish(self, layout: QVBoxLayout, ok_text: str) -> None:
        """The line saying how a typed number is read, the refusal line and OK/Cancel under the form."""
        self.notes_label = QLabel(self)
        self.notes_label.setObjectName("dialogNotes")
        self.notes_label.setWordWrap(True)
        layout.addWidget(self.notes_label)
        self.error_label = QLabel(self)
        self.error_label.setObjectName("dialogError")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #c62828;")
        layout.addWidget(self.error_label)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(ok_text)
        buttons.accepted.connect(self._submit)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _ready(self) -> bool:
        """Whether OK may be pressed (the ledger still checks everything)."""
        raise NotImplementedError

    def _validate(self) -> None:
        self.ok_button.setEnabled(self._ready())

    def _call(self) -> Callable[[Workbench], Any]:
        """The ledger call OK makes, built from the form as it is now."""
        raise NotImplementedError

    def _done(self, result: Any) -> None:
        self.accept()

    def _submit(self) -> None:
        call = self._call()
        self.ok_button.setEnabled(False)
        self.error_label.clear()
        self.ctx.op(call, self._done, failure=self._on_refused, parent=self)

    def _on_refused(self, error: BaseException) -> None:
        if not isinstance(error, UserError):
            self.ctx.presenter.present(error)
        self.error_label.setText(_error_text(error))
        self._validate()


class NewAccountDialog(_LedgerDialog):
    """Name, base currency and the broker's commission terms, prefilled with the rule tables' defaults."""

    opened = Signal(str)  # the new account's name

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.setObjectName("NewAccountDialog")
        self.setWindowTitle(self.tr("New account"))
        self.defaults: dict[str, DefaultTerms] = {}
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.name_edit = QLineEdit(self)
        self.name_edit.setPlaceholderText(self.tr("e.g. main"))
        self.currency_combo = QComboBox(self)
        self.currency_combo.addItem(self.tr("CNY (A-shares)"), "CNY")
        self.currency_combo.addItem(self.tr("HKD (Hong Kong)"), "HKD")
        self.rate_edit = QLineEdit(self)
        self.rate_edit.setToolTip(self.tr("Commission as a fraction of the amount, e.g. 0.00025 for 0.025%"))
        self.min_edit = QLineEdit(self)
        self.bundled_check = QCheckBox(self.tr("Exchange fees are included in the commission"), self)
        self.note_edit = QLineEdit(self)
        self.note_edit.setPlaceholderText(self.tr("Broker, branch... (optional)"))
        rows = ((self.tr("Name"), self.name_edit), (self.tr("Base currency"), self.currency_combo),
                (self.tr("Commission rate"), self.rate_edit), (self.tr("Minimum commission"), self.min_edit),
                ("", self.bundled_check), (self.tr("Note"), self.note_edit))  # fmt: skip
        for label, widget in rows:
            form.addRow(label, widget)
        layout.addLayout(form)
        self.defaults_label = QLabel(self)
        self.defaults_label.setWordWrap(True)
        layout.addWidget(self.defaults_label)
        self._finish(layout, self.tr("Open account"))
        watch_notes(self.notes_label, ((self.rate_edit, "commission_rate", False),
                                       (self.min_edit, "commission_min", True)))  # fmt: skip
        self.name_edit.textChanged.connect(self._validate)
        self.currency_combo.currentIndexChanged.connect(lambda _: self._show_defaults())
        self._validate()
        ctx.op(fee_defaults, self._on_defaults, parent=self)

    def _on_defaults(self, defaults: dict[str, DefaultTerms]) -> None:
        self.defaults = defaults
        self._show_defaults()

    def _show_defaults(self) -> None:
        found = self.defaults.get(str(self.currency_combo.currentData()))
        if found is None:
            return
        self.rate_edit.setText(f"{found.rate.normalize():f}")
        self.min_edit.setText(f"{found.minimum:.2f}")
        self.bundled_check.setChecked(found.bundled)
        self.defaults_label.setText(self.tr("Prefilled with the rule tables' defaults; change them to your broker's "
                                            "terms. They can be changed later in Settings > Fees."))  # fmt: skip

    def form(self) -> AccountForm:
        return AccountForm(self.name_edit.text().strip(), str(self.currency_combo.currentData()),
                           self.rate_edit.text(), self.min_edit.text(), self.bundled_check.isChecked(),
                           self.note_edit.text().strip())  # fmt: skip

    def _ready(self) -> bool:
        return bool(self.name_edit.text().strip())

    def _call(self) -> Callable[[Workbench], Account]:
        return self.form().open

    def _done(self, result: Any) -> None:
        self.opened.emit(result.name)
        self.accept()


@dataclass(frozen=True)
class CashForm:
    account: str
    kind: str
    amount: str
    at: datetime
    target: str | None
    note: str

    def record(self, bench: Workbench) -> tuple[CashEntry, ...]:
        """The cash entry (or both legs of a transfer) as the ledger records it."""
        amount = _decimal(self.amount, "amount", money=True)
        if self.kind == "transfer":
            if not self.target:
                raise user_error(InvalidInput, "transfer_needs_target")
            return bench.ledger.transfer(self.account, self.target, amount, at=self.at, note=self.note)
        kind: CashKind = self.kind  # type: ignore[assignment] # one of CASH_KINDS' cash kinds
        return (bench.ledger.cash(self.account, kind, amount, at=self.at, note=self.note),)


def cash_kind_name(kind: str) -> str:
    return QCoreApplication.translate("CashDialog", CASH_KINDS[kind]) if kind in CASH_KINDS else kind


class CashDialog(_LedgerDialog):
    """A deposit, withdrawal, interest, fee or tax of one account, or a transfer to another; stamped at the start of
    the day by default (exchange time), so the same day's fills can use a deposit."""

    recorded = Signal(str)  # the account

    def __init__(self, ctx: AppContext, account: str, accounts: tuple[str, ...], now: datetime,
                 parent: QWidget | None = None, *, kind: str = "deposit") -> None:  # fmt: skip
        super().__init__(ctx, parent)
        self.account = account
        self.setObjectName("CashDialog")
        self.setWindowTitle(self.tr("Cash: {0}").format(account))
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.kind_combo = QComboBox(self)
        for key in CASH_KINDS:
            if key != "transfer" or len(accounts) > 1:
                self.kind_combo.addItem(cash_kind_name(key), key)
        self.kind_combo.setCurrentIndex(max(self.kind_combo.findData(kind), 0))
        self.amount_edit = QLineEdit(self)
        self.amount_edit.setPlaceholderText(self.tr("e.g. 100000"))
        self.target_combo = QComboBox(self)
        for name in accounts:
            if name != account:
                self.target_combo.addItem(name, name)
        local = now.astimezone(MARKET_TZ["CN"])
        self.at_edit = QDateTimeEdit(QDateTime(QDate(local.year, local.month, local.day), QTime(0, 0)), self)
        self.at_edit.setDisplayFormat("yyyy-MM-dd HH:mm")
        self.at_edit.setMaximumDateTime(QDateTime(QDate(local.year, local.month, local.day),
                                                  QTime(local.hour, local.minute)))  # fmt: skip
        self.at_edit.setToolTip(self.tr("Exchange time (Beijing). The start of the day by default, so fills of the "
                                        "same day can use this cash."))  # fmt: skip
        when = QHBoxLayout()  # the zone is named beside the time, as in the fill dialog
        when.addWidget(self.at_edit, 1)
        when.addWidget(QLabel(zone_words("CN", engine_language()), self))
        self.note_edit = QLineEdit(self)
        self.target_label = QLabel(self.tr("To account"), self)
        for label, widget in ((self.tr("Kind"), self.kind_combo), (self.tr("Amount"), self.amount_edit),
                              (self.target_label, self.target_combo), (self.tr("When"), when),
                              (self.tr("Note"), self.note_edit)):  # fmt: skip
            form.addRow(label, widget)
        layout.addLayout(form)
        self._finish(layout, self.tr("Record"))
        watch_notes(self.notes_label, ((self.amount_edit, "amount", True),))
        self.kind_combo.currentIndexChanged.connect(lambda _: self._kind_changed())
        self.amount_edit.textChanged.connect(self._validate)
        self._kind_changed()

    def _kind_changed(self) -> None:
        transfer = self.kind_combo.currentData() == "transfer"
        self.target_combo.setVisible(transfer)
        self.target_label.setVisible(transfer)
        self._validate()

    def form(self) -> CashForm:
        at = self.at_edit.dateTime()
        local = datetime.combine(at.date().toPython(), at.time().toPython(), tzinfo=MARKET_TZ["CN"])  # type: ignore[arg-type]
        target = self.target_combo.currentData() if self.kind_combo.currentData() == "transfer" else None
        return CashForm(self.account, str(self.kind_combo.currentData()), self.amount_edit.text(), local,
                        str(target) if target else None, self.note_edit.text().strip())  # fmt: skip

    def _ready(self) -> bool:
        return bool(self.amount_edit.text().strip())

    def _call(self) -> Callable[[Workbench], tuple[CashEntry, ...]]:
        return self.form().record

    def _done(self, result: Any) -> None:
        self.recorded.emit(self.account)
        self.accept()
