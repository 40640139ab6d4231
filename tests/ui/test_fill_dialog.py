"""The fill dialog on the demo workspace: each kind of invalid fill is refused with the ledger's own message and
writes nothing; a valid fill enables OK and is recorded only then (with computed or broker fees, or an order)."""

from __future__ import annotations

import itertools
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any

import pytest
from PySide6.QtCore import QDate, QTime
from PySide6.QtGui import QTextDocumentFragment
from pytestqt.qtbot import QtBot

from stockbench.clock import MARKET_TZ
from stockbench.ledger.entries import Order
from stockbench.ledger.store import LEDGER_TABLES
from stockbench.ledger.validation import FillDraft
from stockbench.workbench import Workbench
from ui.context import AppContext
from ui.dialogs.fill_dialog import FillDialog, reference_price

BANK, CHIP = "003901.SZ", "003902.SZ"  # CHIP closed limit-up on the demo's last session
LAST = date(2026, 11, 27)
TIMEOUT = 10_000


def cn(day: date, clock: str) -> datetime:
    return datetime.combine(day, time.fromisoformat(clock), tzinfo=MARKET_TZ["CN"])


@pytest.fixture
def books(ctx: AppContext) -> Workbench:
    """Account "main": 100,000 CNY and 1,000 BANK bought on the day before the demo's last session."""
    ledger = ctx.bench.ledger
    ledger.add_account("main", "CNY")
    ledger.cash("main", "deposit", Decimal("100000"), at=cn(date(2026, 11, 2), "09:00"))
    ledger.record_fill(FillDraft("main", BANK, "buy", 1000, Decimal("10.50"), cn(date(2026, 11, 26), "10:00")))
    return ctx.bench


def snapshot(bench: Workbench) -> dict[str, list[str]]:
    return {t: sorted(map(repr, bench.workspace.db.fetchall(f"SELECT * FROM {t}"))) for t in LEDGER_TABLES}


@pytest.fixture
def dialog(qtbot: QtBot, ctx: AppContext, books: Workbench) -> FillDialog:
    made = FillDialog(ctx, account="main")
    qtbot.addWidget(made)
    made.show()
    qtbot.waitUntil(lambda: made.account_combo.count() == 1, timeout=TIMEOUT)
    return made


def enter(qtbot: QtBot, dialog: FillDialog, *, symbol: str = BANK, side: str = "buy", qty: int | str = 100,
          price: str = "10.43", day: date = LAST, clock: str = "10:00:00", fee: str | None = None) -> None:  # fmt: skip
    """Type a fill into the dialog and wait for the ledger's verdict on exactly that."""
    dialog.symbol_edit.setText(symbol)
    dialog.side_combo.setCurrentIndex(dialog.side_combo.findData(side))
    dialog.qty_edit.setText(str(qty))
    dialog.price_edit.setText(price)
    dialog.date_edit.setDate(QDate(day.year, day.month, day.day))
    hour, minute, second = map(int, clock.split(":"))
    dialog.time_edit.setTime(QTime(hour, minute, second))
    if fee is not None:
        dialog.fee_edit.clear()
        qtbot.keyClicks(dialog.fee_edit, fee)
    qtbot.waitUntil(lambda: dialog.current is not None and not dialog.pending(), timeout=TIMEOUT)


def refused(qtbot: QtBot, dialog: FillDialog, bench: Workbench, **fields: Any) -> list[tuple[str, str]]:
    """Enter an invalid fill: OK stays disabled, pressing it writes nothing; returns (code, message) shown."""
    before = snapshot(bench)
    enter(qtbot, dialog, **fields)
    assert dialog.current is not None
    shown = [(p.code, p.message) for p in dialog.current.problems]
    assert shown and not dialog.ok_button.isEnabled()
    on_screen = QTextDocumentFragment.fromHtml(dialog.problems_label.text()).toPlainText()
    assert all(message in on_screen for _, message in shown)
    dialog.ok_button.click()
    dialog._record()  # even a direct call refuses an invalid fill
    qtbot.wait(50)
    assert snapshot(bench) == before, "a refused fill writes nothing"
    return shown


def test_lot(qtbot: QtBot, dialog: FillDialog, books: Workbench) -> None:
    assert refused(qtbot, dialog, books, qty=150) == [
        ("lot_multiple", f"a buy of {BANK} must be a multiple of 100 shares, not 150")
    ]


def test_tick(qtbot: QtBot, dialog: FillDialog, books: Workbench) -> None:
    assert refused(qtbot, dialog, books, price="10.435") == [
        ("price_off_tick", f"10.435 is not a valid price step for {BANK}: 3 decimals, where its prices have at most 2")
    ]


def test_price_limit_against_the_stored_reference_price(qtbot: QtBot, dialog: FillDialog, books: Workbench) -> None:
    assert reference_price(books, CHIP, LAST) == Decimal("213.12")
    shown = refused(qtbot, dialog, books, symbol=CHIP, price="234.44")
    assert [code for code, _ in shown] == ["above_limit_up"]
    assert "234.43" in shown[0][1]
    assert dialog.current is not None and dialog.current.reference == Decimal("213.12")
    assert "213.12" in dialog.summary_label.text()


def test_t_plus_1_sellable(qtbot: QtBot, dialog: FillDialog, books: Workbench) -> None:
    shown = refused(
        qtbot, dialog, books, side="sell", qty=1000, price="10.60", day=date(2026, 11, 26), clock="14:00:00"
    )
    assert shown == [
        ("exceeds_sellable", f"selling 1000 {BANK} exceeds the sellable quantity of 0 "
                             "(1000 bought that day are not sellable until the next session)"),
    ]  # fmt: skip


def test_cash(qtbot: QtBot, dialog: FillDialog, books: Workbench) -> None:
    shown = refused(qtbot, dialog, books, qty=10000)
    assert [code for code, _ in shown] == ["insufficient_cash"]
    assert "the cash balance is 89" in shown[0][1]


def test_session(qtbot: QtBot, dialog: FillDialog, books: Workbench) -> None:
    assert refused(qtbot, dialog, books, clock="12:00:00") == [
        ("outside_session", f"2026-11-27 12:00:00 is outside trading for {BANK} (phase: lunch break)")
    ]
    assert refused(qtbot, dialog, books, day=date(2026, 11, 21)) == [
        ("outside_session", f"2026-11-21 10:00:00 is not a trading day for {BANK}")
    ]


def test_an_index_or_another_market_is_refused(qtbot: QtBot, dialog: FillDialog, books: Workbench) -> None:
    assert refused(qtbot, dialog, books, symbol="000690.SH") == [
        ("not_tradable", "000690.SH is an index and cannot be traded")
    ]
    shown = refused(qtbot, dialog, books, symbol="02971.HK", qty=500, price="9.98")
    assert shown[0] == ("market_not_in_account", "account 'main' does not trade the HK market")


def test_a_valid_fill_enables_ok_and_is_recorded_only_on_ok(qtbot: QtBot, dialog: FillDialog, books: Workbench) -> None:
    before = snapshot(books)
    enter(qtbot, dialog)
    assert dialog.current is not None and dialog.current.valid
    assert dialog.ok_button.isEnabled() and dialog.problems_label.text() == ""
    fill = dialog.current.fill
    assert fill is not None and dialog.fee_edit.text() == f"{fill.fees:.2f}" and fill.fees_source == "computed"
    assert "commission" in dialog.fee_label.text()
    assert snapshot(books) == before, "checking as you type writes nothing"
    dialog.qty_edit.setText("200")  # an edit not yet checked disables OK at once
    assert not dialog.ok_button.isEnabled()
    qtbot.waitUntil(dialog.ok_button.isEnabled, timeout=TIMEOUT)
    with qtbot.waitSignal(dialog.fill_recorded, timeout=TIMEOUT) as recorded:
        dialog.ok_button.click()
    assert recorded.args[0].qty == 200
    assert [(f.qty, f.price) for f, _ in books.ledger.history("main") if hasattr(f, "fill_id")][-1] == (
        200, Decimal("10.43"))  # fmt: skip
    assert dialog.result() == dialog.DialogCode.Accepted


def test_the_brokers_fee_replaces_the_computed_one(qtbot: QtBot, dialog: FillDialog, books: Workbench) -> None:
    enter(qtbot, dialog)
    enter(qtbot, dialog, fee="4.99")
    assert dialog.current is not None and dialog.current.fill is not None
    assert (dialog.current.fill.fees, dialog.current.fill.fees_source) == (Decimal("4.99"), "broker")
    assert "broker" in dialog.fee_label.text() and dialog.fee_reset.isEnabled()
    with qtbot.waitSignal(dialog.fill_recorded, timeout=TIMEOUT) as recorded:
        qtbot.waitUntil(dialog.ok_button.isEnabled, timeout=TIMEOUT)
        dialog.ok_button.click()
    assert recorded.args[0].fees == Decimal("4.99")


def test_reset_returns_to_the_computed_fee(qtbot: QtBot, dialog: FillDialog, books: Workbench) -> None:
    enter(qtbot, dialog, fee="4.99")
    dialog.fee_reset.click()
    qtbot.waitUntil(lambda: dialog.current is not None and not dialog.pending(), timeout=TIMEOUT)
    assert dialog.current is not None and dialog.current.fill is not None
    assert dialog.current.fill.fees_source == "computed"


def test_the_dialog_opens_without_a_symbol(qtbot: QtBot, ctx: AppContext, books: Workbench) -> None:
    dialog = FillDialog(ctx, None, symbol=None)  # as the main window opens it from the toolbar
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.account_combo.count() == 1, timeout=TIMEOUT)
    assert dialog.symbol_edit.text() == "" and not dialog.ok_button.isEnabled()
    assert dialog.date_edit.date() == QDate(2026, 11, 27), "the date defaults to the workbench clock's day"


def test_an_order_link_prefills_and_is_checked(qtbot: QtBot, ctx: AppContext, books: Workbench) -> None:
    order = books.ledger.add_order(Order("", "main", BANK, "buy", 300, Decimal("10.40"), cn(LAST, "09:31")))
    dialog = FillDialog(ctx, account="main", order_id=order.order_id)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.current is not None and not dialog.pending(), timeout=TIMEOUT)
    assert (dialog.symbol_edit.text(), dialog.qty_edit.text(), dialog.price_edit.text()) == (BANK, "300", "10.40")
    enter(qtbot, dialog, qty=400, price="10.40")
    assert dialog.current is not None
    assert [p.code for p in dialog.current.problems] == ["order_overfilled"]
    enter(qtbot, dialog, qty=300, price="10.40")
    with qtbot.waitSignal(dialog.fill_recorded, timeout=TIMEOUT):
        dialog.ok_button.click()
    assert [s.status for s in books.ledger.orders("main")] == ["filled"]


def test_a_new_fill_starts_at_the_last_trading_minute_not_after_the_close(
    qtbot: QtBot, ctx: AppContext, books: Workbench
) -> None:
    """Issue 19.5: the demo's clock is 18:00 on its last session; the time used to default to 18:00, so every new
    fill began with "outside trading". Now it starts at 14:59, the close's last minute, and checks clean."""
    assert ctx.bench.clock.now().astimezone(MARKET_TZ["CN"]).hour == 18
    dialog = FillDialog(ctx, account="main", symbol=BANK)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.account_combo.count() == 1, timeout=TIMEOUT)
    assert (dialog.date_edit.date(), dialog.time_edit.time()) == (QDate(2026, 11, 27), QTime(14, 59, 0))
    dialog.qty_edit.setText("100")
    dialog.price_edit.setText("10.43")
    qtbot.waitUntil(lambda: dialog.current is not None and not dialog.pending(), timeout=TIMEOUT)
    assert dialog.current is not None
    assert "outside_session" not in {p.code for p in dialog.current.problems}


def test_the_ledgers_checks_are_said_in_the_interface_language(
    qtbot: QtBot, dialog: FillDialog, books: Workbench
) -> None:
    """Issue 19.3: in the Chinese interface the fill dialog showed the ledger's checks in English ("must be a
    multiple of 100 shares", "outside trading"). They come from the engine's catalogue in the user's language."""
    from ui.i18n.language import Translations

    translations = Translations()
    try:
        assert translations.install("zh_CN")
        enter(qtbot, dialog, qty=150, clock="18:00:00")
        shown = QTextDocumentFragment.fromHtml(dialog.problems_label.text()).toPlainText()
        assert f"{BANK} 买入数量须为 100 股的整数倍，而不是 150 股" in shown and "买入 100 股或 200 股" in shown
        assert "不在 003901.SZ 的交易时段内（休市）" in shown
        assert "multiple" not in shown and "outside trading" not in shown
    finally:
        translations.install("en")
        translations.uninstall()


def test_full_width_digits_are_read_and_said_so(qtbot: QtBot, dialog: FillDialog, books: Workbench) -> None:
    """Issue 21: full-width digits are read as the plain number, the dialog says so in a line, and the fill recorded
    is exactly that number; the summary shows the price in its tick's decimals."""
    enter(qtbot, dialog, qty="１００", price="１０.４")
    assert dialog.current is not None and dialog.current.valid
    notes = dialog.notes_label.text()
    assert "'１０.４' was read as 10.4" in notes and "'１００' was read as 100" in notes
    assert " at 10.40:" in dialog.summary_label.text()
    with qtbot.waitSignal(dialog.fill_recorded, timeout=TIMEOUT) as recorded:
        dialog.ok_button.click()
    assert recorded.args[0].price == Decimal("10.4") and recorded.args[0].qty == 100


@pytest.mark.parametrize(
    ("fields", "code", "words"),
    [
        ({"price": "1.043e1"}, "invalid_price", ("price '1.043e1' is written with an exponent", "write 10.43")),
        ({"price": "NaN"}, "invalid_price", ("price 'NaN' is not a finite number", "plain digits")),
        ({"qty": "1e2"}, "invalid_qty", ("quantity '1e2' is written with an exponent", "write 100")),
        ({"fee": "5.001"}, "invalid_fee", ("fee 5.001 has 3 decimals; at most 2 are allowed", "e.g. 5.00")),
        ({"fee": "-5"}, "invalid_fee", ("fee -5 is negative", "zero or more")),
    ],
)
def test_a_typed_number_refused_says_how_to_write_it(
    qtbot: QtBot, dialog: FillDialog, books: Workbench, *, fields: dict[str, str], code: str, words: tuple[str, str]
) -> None:
    shown = refused(qtbot, dialog, books, **fields)
    assert [c for c, _ in shown] == [code]
    on_screen = QTextDocumentFragment.fromHtml(dialog.problems_label.text()).toPlainText()
    assert all(part in on_screen for part in words)


def suspended_day(bench: Workbench) -> tuple[str, date, Decimal]:
    """A demo A-share and a session with its bars before and after it but none that day (suspended: the demo
    schedules suspensions as sessions with no bar), with the close before it (the latest such day)."""
    calendar = bench.market.calendars.calendar("CN")
    rows = bench.workspace.db.fetchall(
        "SELECT b.symbol, b.day, b.close FROM bars b JOIN instruments i USING (symbol) WHERE i.security_type = 'stock'"
        " AND (b.symbol LIKE '%.SZ' OR b.symbol LIKE '%.SH') ORDER BY b.symbol, b.day DESC"
    )
    for (symbol, after, _), (before_symbol, day, close) in itertools.pairwise(rows):  # newest first
        if symbol == before_symbol and calendar.next_session(day) < after:
            return symbol, calendar.next_session(day), Decimal(close)
    raise AssertionError("the demo market has no suspension")


def test_a_day_the_stored_bars_say_the_name_did_not_trade(qtbot: QtBot, dialog: FillDialog, books: Workbench) -> None:
    symbol, day, close = suspended_day(books)
    shown = refused(qtbot, dialog, books, symbol=symbol, qty=100, price=f"{close:.2f}", day=day)
    assert ("not_traded", f"{symbol} did not trade on {day} (suspended): a fill cannot be recorded") in shown


def test_a_hong_kong_symbol_starts_at_its_own_last_trading_minute(
    qtbot: QtBot, demo_home: Any, make_context: Any
) -> None:
    """Found on main: the time started from the A-share close and calendar whatever the symbol. On Good Friday 2026
    the A-shares trade and Hong Kong does not: at 18:00 a Hong Kong fill starts at Thursday's last minute, in Hong
    Kong time, and an A-share typed instead starts at Friday's 14:59, in Beijing time."""
    from stockbench.clock import ReplayClock

    bench = Workbench.open(demo_home, clock=ReplayClock(cn(date(2026, 4, 3), "18:00")), command="tests")
    try:
        dialog = FillDialog(make_context(bench), symbol="00700.HK")
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitUntil(lambda: dialog.date_edit.date() == QDate(2026, 4, 2), timeout=TIMEOUT)
        assert dialog.time_edit.time() == QTime(16, 9, 0) and dialog.zone_label.text() == "Hong Kong time"
        dialog.symbol_edit.setText(BANK)
        qtbot.waitUntil(lambda: dialog.date_edit.date() == QDate(2026, 4, 3), timeout=TIMEOUT)
        assert dialog.time_edit.time() == QTime(14, 59, 0) and dialog.zone_label.text() == "Beijing time"
        dialog.time_edit.setTime(QTime(10, 0, 0))  # set by hand: another symbol keeps it
        dialog.symbol_edit.setText("00700.HK")
        qtbot.wait(300)
        assert (dialog.date_edit.date(), dialog.time_edit.time()) == (QDate(2026, 4, 3), QTime(10, 0, 0))
    finally:
        bench.close()


def test_sellable_in_the_positions_and_the_fill_dialog_agree_at_one_clock(
    qtbot: QtBot, ctx: AppContext, books: Workbench
) -> None:
    """Found on main: at 18:00 after the close, the fill dialog said today's shares were not sellable while Ledger >
    Positions showed them sellable, neither saying for when. The positions now say they are counted as of the clock,
    after the close for the next session (the ledger's T+1 rule); the dialog, at its time in the session, lets the
    shares bought before today go and says the ones bought today wait for the next session."""
    from ui.screens.ledger.ledger_panel import LedgerPanel

    books.ledger.record_fill(FillDraft("main", BANK, "buy", 100, Decimal("10.43"), cn(LAST, "10:00")))
    panel = LedgerPanel(ctx)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitUntil(lambda: panel.models["positions"].rowCount() == 1, timeout=TIMEOUT)
    assert [(p.qty, p.sellable) for p in panel.models["positions"].rows()] == [(1100, 1100)]
    assert panel.sellable_note.text() == (
        "Sellable as of 2026-11-27 18:00:00 Beijing time (UTC+08:00): after the close, shares bought today count as "
        "sellable at the next session (T+1)."
    )  # fmt: skip
    dialog = FillDialog(ctx, account="main", symbol=BANK, side="sell")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.account_combo.count() == 1, timeout=TIMEOUT)
    assert (dialog.date_edit.date(), dialog.time_edit.time()) == (QDate(2026, 11, 27), QTime(14, 59, 0))
    for qty, problems in (
        (
            1100,
            [
                (
                    "exceeds_sellable",
                    f"selling 1100 {BANK} exceeds the sellable quantity of 1000 "
                    "(100 bought that day are not sellable until the next session)",
                )
            ],
        ),
        (1000, []),
    ):
        dialog.qty_edit.setText(str(qty))
        dialog.price_edit.setText("10.43")
        qtbot.waitUntil(lambda: dialog.current is not None and not dialog.pending(), timeout=TIMEOUT)
        assert dialog.current is not None
        assert [(p.code, p.message) for p in dialog.current.problems] == problems


def test_a_day_the_quote_says_the_name_is_suspended_is_refused_in_the_interface_language(
    qtbot: QtBot, dialog: FillDialog, books: Workbench
) -> None:
    """Today's bar is not in yet (the bank's bar and quotes of the last session are removed), and today's latest quote
    says the bank is suspended: the dialog refuses the fill with that reason, in English and in the Chinese
    interface."""
    from stockbench.data.records import Quote
    from ui.i18n.language import Translations

    books.workspace.db.execute("DELETE FROM bars WHERE symbol = ? AND day = ?", [BANK, LAST])
    books.workspace.db.execute("DELETE FROM quotes WHERE symbol = ?", [BANK])
    halted = Quote(BANK, cn(LAST, "09:31"), Decimal("10.40"), Decimal("10.40"), None, None, None, 0, None, "tencent",
                   status="suspended")  # fmt: skip
    books.data.cache.store_quotes([halted])
    assert refused(qtbot, dialog, books) == [
        ("suspended", f"{BANK} was suspended on {LAST} (its quote of that day says so): a fill cannot be recorded")
    ]
    translations = Translations()
    try:
        assert translations.install("zh_CN")
        enter(qtbot, dialog, qty=200)
        shown = QTextDocumentFragment.fromHtml(dialog.problems_label.text()).toPlainText()
        assert f"{BANK} 在 {LAST} 停牌（当日行情显示停牌），不能记录成交" in shown and "suspended" not in shown
    finally:
        translations.install("en")
        translations.uninstall()
