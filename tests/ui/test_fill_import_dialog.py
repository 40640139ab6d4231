"""Importing a broker CSV in the desktop: a valid file is checked, previewed and imported (the ledger views follow),
a file with a bad row lists that row's problem and cannot be imported, and nothing is ever half written."""

from __future__ import annotations

from datetime import date, datetime, time
from decimal import Decimal
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from stockbench.clock import MARKET_TZ
from stockbench.workbench import Workbench
from ui.context import AppContext
from ui.dialogs.fill_import_dialog import FillImportDialog, ImportCheck
from ui.screens.ledger.ledger_panel import LedgerPanel

TIMEOUT = 10_000
HEADER = "executed_at,symbol,side,qty,price,fee,order_id,note\n"
GOOD = HEADER + "2026-11-16 10:00,003901.SZ,buy,1000,10.50,,,\n2026-11-18 10:00,003901,buy,500,10.60,5.00,,broker fee\n"
BAD = (
    HEADER + "2026-11-16 10:00,003901.SZ,buy,1000,10.50,,,\n"
    "2026-11-18 10:00,003901.SZ,buy,150,10.60,,,\n"
    "2026-11-19 10:00,003901.SZ,short,100,10.60,,,\n"
)


@pytest.fixture
def books(ctx: AppContext) -> Workbench:
    """Account "main" with a deposit, and no fills yet."""
    ctx.bench.ledger.add_account("main", "CNY")
    at = datetime.combine(date(2026, 11, 2), time(9), tzinfo=MARKET_TZ["CN"])
    ctx.bench.ledger.cash("main", "deposit", Decimal("100000"), at=at)
    return ctx.bench


def write(tmp_path: Path, text: str, name: str = "broker.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def open_on(ctx: AppContext, qtbot: QtBot, path: Path) -> tuple[FillImportDialog, ImportCheck]:
    dialog = FillImportDialog(ctx, account="main")
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.account() == "main", timeout=TIMEOUT)
    with qtbot.waitSignal(dialog.checked, timeout=TIMEOUT) as checked:
        dialog.set_file(path)
    return dialog, checked.args[0]


def column(table: object, col: int) -> list[str]:
    return [table.item(r, col).text() for r in range(table.rowCount())]  # type: ignore[attr-defined]


def test_a_valid_file_is_previewed_then_imported_and_the_ledger_follows(
    ctx: AppContext, qtbot: QtBot, books: Workbench, tmp_path: Path
) -> None:
    panel = LedgerPanel(ctx)
    qtbot.addWidget(panel)
    qtbot.waitUntil(lambda: panel.book is not None, timeout=TIMEOUT)
    assert panel.models["positions"].column_values("qty") == []
    dialog = panel.open_import_dialog()
    qtbot.waitUntil(lambda: dialog.account() == "main", timeout=TIMEOUT)
    with qtbot.waitSignal(dialog.checked, timeout=TIMEOUT) as checked:
        dialog.set_file(write(tmp_path, GOOD))
    preview = checked.args[0]
    assert (preview.rows, len(preview.fills), preview.problems, preview.written) == (2, 2, (), False)
    assert dialog.import_button.isEnabled() and dialog.problems_table.isHidden()
    assert column(dialog.fills_table, 3) == ["1,000", "500"] and column(dialog.fills_table, 7) == ["Computed", "Broker"]
    assert dialog.summary_label.text() == "2 fill(s) ready to import into main."
    assert books.ledger.positions("main") == []  # the check wrote nothing
    with qtbot.waitSignal(dialog.imported, timeout=TIMEOUT) as imported:
        dialog.import_button.click()
    assert imported.args == ["main", 2]
    qtbot.waitUntil(lambda: panel.models["positions"].column_values("qty") == ["1,500"], timeout=TIMEOUT)
    assert panel.models["fills"].column_values("side") == ["Buy", "Buy"]


def test_a_bad_row_is_listed_with_its_row_and_nothing_can_be_imported(
    ctx: AppContext, qtbot: QtBot, books: Workbench, tmp_path: Path
) -> None:
    before = books.ledger.history("main")
    dialog, preview = open_on(ctx, qtbot, write(tmp_path, BAD))
    assert {(row, p.code) for row, p in preview.problems} == {(3, "lot_multiple"), (4, "bad_row")}
    assert not dialog.import_button.isEnabled() and not dialog.problems_table.isHidden()
    assert column(dialog.problems_table, 0) == ["3", "4"]
    problems = column(dialog.problems_table, 1)
    assert problems[1] == "side 'short' is not buy or sell" and not problems[0].startswith("row 3")
    assert dialog.summary_label.text().startswith("2 problem(s) in broker.csv: nothing can be imported")
    dialog.import_file()  # refused without a valid check
    qtbot.wait(200)
    assert books.ledger.history("main") == before and books.ledger.positions("main") == []


def test_a_file_without_the_columns_is_one_file_level_problem(
    ctx: AppContext, qtbot: QtBot, books: Workbench, tmp_path: Path
) -> None:
    dialog, preview = open_on(ctx, qtbot, write(tmp_path, "date,code,qty\n2026-11-16,003901,100\n"))
    assert [(row, p.code) for row, p in preview.problems] == [(None, "bad_file")]
    assert column(dialog.problems_table, 0) == [""]
    assert "lacks the column(s) executed_at, symbol, side, price" in column(dialog.problems_table, 1)[0]
    assert not dialog.import_button.isEnabled()


def test_a_file_changed_after_its_check_is_not_imported(
    ctx: AppContext, qtbot: QtBot, books: Workbench, tmp_path: Path
) -> None:
    path = write(tmp_path, GOOD)
    dialog, _preview = open_on(ctx, qtbot, path)
    assert dialog.import_button.isEnabled()
    path.write_text(BAD, encoding="utf-8")
    with qtbot.waitSignal(dialog.checked, timeout=TIMEOUT) as shown:
        dialog.import_button.click()
    assert [p.message for _row, p in shown.args[0].problems] == ["broker.csv changed after it was checked"]
    assert dialog.result() == FillImportDialog.DialogCode.Rejected  # still open, nothing imported
    assert not dialog.import_button.isEnabled() and books.ledger.positions("main") == []


def test_the_file_menu_opens_the_import(ctx: AppContext, qtbot: QtBot, books: Workbench, tmp_path: Path) -> None:
    from ui.main_window import MainWindow

    window = MainWindow(settings=QSettings())
    qtbot.addWidget(window)
    action = window.actions_by_name["import_fills"]
    assert action in window.menus["file"].actions() and action in window.menus["ledger"].actions()
    assert action.text() == "&Import Fills from CSV…"
    window.attach(ctx)
    try:
        action.trigger()
        dialog = window.findChild(FillImportDialog)
        assert isinstance(dialog, FillImportDialog) and dialog.isVisible()
        qtbot.waitUntil(lambda: dialog.account() == "main", timeout=TIMEOUT)
        with qtbot.waitSignal(dialog.checked, timeout=TIMEOUT):
            dialog.set_file(write(tmp_path, GOOD))
        with qtbot.waitSignal(dialog.imported, timeout=TIMEOUT):
            dialog.import_button.click()
        assert [p.qty for p in books.ledger.positions("main")] == [1500]
    finally:
        window.detach(close_workspace=False)


def test_the_rows_problems_and_prices_are_said_as_people_read_them_in_chinese(
    ctx: AppContext, qtbot: QtBot, books: Workbench, tmp_path: Path
) -> None:
    """Found by looking at the screenshots: in Chinese the problems table said "a buy of 003901.SZ must be a multiple
    of 100 shares, not 150" and "buy 100 or 200", an unreadable file was refused in English, and the prices read
    10.5000 where the stock's tick has two decimals."""
    from ui.i18n.language import Translations

    translations = Translations()
    try:
        assert translations.install("zh_CN")
        dialog, _preview = open_on(ctx, qtbot, write(tmp_path, BAD))
        assert column(dialog.problems_table, 1)[0] == "003901.SZ 买入数量须为 100 股的整数倍，而不是 150 股"
        assert column(dialog.problems_table, 2)[0] == "买入 100 股或 200 股"
        assert column(dialog.fills_table, 4) == ["10.50"]
        with qtbot.waitSignal(dialog.checked, timeout=TIMEOUT):
            dialog.set_file(tmp_path / "gone.csv")
        assert column(dialog.problems_table, 1) == ["无法读取 gone.csv：文件不存在"]
    finally:
        translations.install("en")
        translations.uninstall()
