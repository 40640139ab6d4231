"""Issue 19.1: accounts and cash in the window. On the demo workspace (no account), the ledger screen opens an
account with the rule tables' fee terms shown, deposits, withdraws and transfers cash through the ledger's own
checks (a refusal is shown in the dialog, which stays open, and writes nothing), and the fill dialog of a
workspace without an account offers to open one."""

from __future__ import annotations

from decimal import Decimal

import pytest
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from stockbench.ledger.store import LEDGER_TABLES
from stockbench.workbench import Workbench
from ui.context import AppContext
from ui.dialogs.account_dialogs import CashDialog, NewAccountDialog
from ui.dialogs.fill_dialog import FillDialog
from ui.screens.ledger.ledger_panel import LedgerPanel

TIMEOUT = 15_000


def snapshot(bench: Workbench) -> dict[str, list[str]]:
    return {t: sorted(map(repr, bench.workspace.db.fetchall(f"SELECT * FROM {t}"))) for t in LEDGER_TABLES}


def panel_for(qtbot: QtBot, ctx: AppContext) -> LedgerPanel:
    panel = LedgerPanel(ctx)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitUntil(lambda: panel.balance_label.text() != "", timeout=TIMEOUT)
    return panel


def open_account(qtbot: QtBot, panel: LedgerPanel, name: str) -> NewAccountDialog:
    dialog = panel.open_new_account_dialog()
    qtbot.waitUntil(lambda: dialog.rate_edit.text() != "", timeout=TIMEOUT)
    dialog.name_edit.setText(name)
    return dialog


def test_a_new_account_from_the_ledger_screen_with_the_default_terms_shown(qtbot: QtBot, ctx: AppContext) -> None:
    panel = panel_for(qtbot, ctx)
    assert ctx.bench.ledger.accounts() == []
    assert not panel.fill_button.isEnabled() and not panel.cash_button.isEnabled()
    assert "New account" in panel.balance_label.text()
    dialog = open_account(qtbot, panel, "main")
    default = ctx.bench.ledger.default_fees("CN")
    assert Decimal(dialog.rate_edit.text()) == default.commission_rate
    assert Decimal(dialog.min_edit.text()) == default.commission_min
    dialog.min_edit.setText("0")  # a broker without a minimum
    with qtbot.waitSignal(dialog.opened, timeout=TIMEOUT):
        dialog.ok_button.click()
    qtbot.waitUntil(lambda: panel.account() == "main" and panel.cash_button.isEnabled(), timeout=TIMEOUT)
    account = ctx.bench.ledger.account("main")
    assert (account.base_currency, account.markets) == ("CNY", ("CN",))
    terms = ctx.bench.ledger.fee_settings("main", "CN", ctx.bench.clock.now())
    assert (terms.commission_rate, terms.commission_min) == (default.commission_rate, Decimal(0))


def test_a_refused_account_is_explained_in_the_dialog_and_writes_nothing(qtbot: QtBot, ctx: AppContext) -> None:
    ctx.bench.ledger.add_account("main", "CNY")
    panel = panel_for(qtbot, ctx)
    before = snapshot(ctx.bench)
    dialog = open_account(qtbot, panel, "main")
    dialog.ok_button.click()
    qtbot.waitUntil(lambda: dialog.error_label.text() != "", timeout=TIMEOUT)
    assert "an account named 'main' already exists" in dialog.error_label.text()
    assert dialog.isVisible() and dialog.name_edit.text() == "main"
    dialog.name_edit.setText("second")
    dialog.rate_edit.setText("abc")
    dialog.ok_button.click()
    qtbot.waitUntil(lambda: "not a number" in dialog.error_label.text(), timeout=TIMEOUT)
    assert snapshot(ctx.bench) == before


def test_deposit_withdraw_and_transfer_through_the_ledgers_checks(qtbot: QtBot, ctx: AppContext) -> None:
    ledger = ctx.bench.ledger
    ledger.add_account("main", "CNY")
    ledger.add_account("spare", "CNY")
    panel = panel_for(qtbot, ctx)
    qtbot.waitUntil(lambda: panel.account() == "main", timeout=TIMEOUT)
    dialog = panel.open_cash_dialog()
    assert isinstance(dialog, CashDialog)
    stamped = dialog.form().at
    assert (stamped.date(), stamped.hour, stamped.minute) == (ctx.bench.clock.now().date(), 0, 0)  # the day's start
    assert "Beijing time" in [label.text() for label in dialog.findChildren(QLabel)]  # the zone is named
    dialog.amount_edit.setText("100000.005")  # more than two decimals: refused as it is read
    before = snapshot(ctx.bench)
    dialog.ok_button.click()
    qtbot.waitUntil(lambda: dialog.error_label.text() != "", timeout=TIMEOUT)
    assert "has 3 decimals; at most 2 are allowed" in dialog.error_label.text() and snapshot(ctx.bench) == before
    dialog.amount_edit.setText("100000")
    with qtbot.waitSignal(dialog.recorded, timeout=TIMEOUT):
        dialog.ok_button.click()
    qtbot.waitUntil(lambda: "100,000.00" in panel.balance_label.text(), timeout=TIMEOUT)
    withdraw = panel.open_cash_dialog("withdrawal")
    assert withdraw is not None and withdraw.kind_combo.currentData() == "withdrawal"
    withdraw.amount_edit.setText("2500.50")
    with qtbot.waitSignal(withdraw.recorded, timeout=TIMEOUT):
        withdraw.ok_button.click()
    transfer = panel.open_cash_dialog("transfer")
    assert transfer is not None and transfer.target_combo.isVisibleTo(transfer)
    transfer.amount_edit.setText("10000")
    with qtbot.waitSignal(transfer.recorded, timeout=TIMEOUT):
        transfer.ok_button.click()
    assert ledger.balance("main") == {"CNY": Decimal("87499.50")}
    assert ledger.balance("spare") == {"CNY": Decimal("10000.00")}


def test_the_first_fill_on_a_workspace_without_an_account_offers_to_open_one(qtbot: QtBot, ctx: AppContext) -> None:
    dialog = FillDialog(ctx, None, symbol="003901.SZ")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(dialog.new_account_button.isVisible, timeout=TIMEOUT)
    assert "open one" in dialog.problems_label.text()
    opener = dialog.open_new_account_dialog()
    qtbot.waitUntil(lambda: opener.rate_edit.text() != "", timeout=TIMEOUT)
    opener.name_edit.setText("main")
    with qtbot.waitSignal(opener.opened, timeout=TIMEOUT):
        opener.ok_button.click()
    qtbot.waitUntil(lambda: dialog.account_combo.currentData() == "main", timeout=TIMEOUT)
    assert not dialog.new_account_button.isVisible()


def test_typed_amounts_in_the_cash_and_account_dialogs_are_read_exactly_or_refused(
    qtbot: QtBot, ctx: AppContext
) -> None:
    """Issue 21: full-width digits and thousands separators are read and the dialog says so in a line; an exponent
    is refused with the plain form; what is recorded is exactly the number read."""
    ledger = ctx.bench.ledger
    ledger.add_account("main", "CNY")
    panel = panel_for(qtbot, ctx)
    qtbot.waitUntil(lambda: panel.account() == "main", timeout=TIMEOUT)
    dialog = panel.open_cash_dialog()
    assert isinstance(dialog, CashDialog)
    before = snapshot(ctx.bench)
    dialog.amount_edit.setText("1e5")
    dialog.ok_button.click()
    qtbot.waitUntil(lambda: dialog.error_label.text() != "", timeout=TIMEOUT)
    assert dialog.error_label.text() == "amount '1e5' is written with an exponent\nwrite 100000"
    assert snapshot(ctx.bench) == before
    dialog.amount_edit.setText("１０，０００.５")
    assert dialog.notes_label.text() == (
        "amount '１０，０００.５' was read as 10000.5 (full-width characters made plain; thousands separators removed)"
    )
    with qtbot.waitSignal(dialog.recorded, timeout=TIMEOUT):
        dialog.ok_button.click()
    assert ledger.balance("main") == {"CNY": Decimal("10000.50")}
    account = open_account(qtbot, panel, "second")
    account.min_edit.setText("５")
    assert "minimum commission '５' was read as 5" in account.notes_label.text()
    account.rate_edit.setText("NaN")
    account.ok_button.click()
    qtbot.waitUntil(lambda: account.error_label.text() != "", timeout=TIMEOUT)
    assert account.error_label.text().startswith("commission rate 'NaN' is not a finite number")
    account.rate_edit.setText("０.０００２")
    with qtbot.waitSignal(account.opened, timeout=TIMEOUT):
        account.ok_button.click()
    terms = ledger.fee_settings("second", "CN", ctx.bench.clock.now())
    assert (terms.commission_rate, terms.commission_min) == (Decimal("0.0002"), Decimal(5))


def test_an_empty_amount_and_a_transfer_without_its_account_are_refused_in_chinese(ctx: AppContext) -> None:
    """Found on main: the cash dialog's own refusals were English only ("the amount is empty", "a transfer needs the
    account the cash goes to")."""
    from datetime import datetime

    from stockbench.clock import MARKET_TZ
    from stockbench.errors import InvalidInput
    from stockbench.messages import error_words
    from ui.dialogs.account_dialogs import CashForm

    ctx.bench.ledger.add_account("main", "CNY")
    at = datetime(2026, 11, 27, 9, 0, tzinfo=MARKET_TZ["CN"])
    for form, zh, en in (
        (CashForm("main", "deposit", " ", at, None, ""), ("金额为空", "请输入数字，例如 12.5"),
         ("amount is empty", "enter a number, e.g. 12.5")),
        (CashForm("main", "transfer", "100", at, None, ""), ("转账需要选择转入的账户", "请选择另一个账户"),
         ("a transfer needs the account the cash goes to", "choose the other account")),
    ):  # fmt: skip
        with pytest.raises(InvalidInput) as refused:
            form.record(ctx.bench)
        assert (error_words(refused.value, "zh"), error_words(refused.value, "en")) == (zh, en)
