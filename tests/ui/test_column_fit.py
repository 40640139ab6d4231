"""The column fit (ui.widgets.column_fit) on a plain table: the optional columns given up in their order while the
others do not fit, the last one shown filling the room left exactly, and the owner's exclusions kept while the view
is not shown."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QHeaderView, QTableView
from pytestqt.qtbot import QtBot

from ui.widgets.column_fit import ColumnFit

KEYS = ("symbol", "name", "price", "note", "extra")
OPTIONAL = ("extra", "note")


def _table(qtbot: QtBot, width: int, text: str = "some words") -> tuple[QTableView, QStandardItemModel, ColumnFit]:
    model = QStandardItemModel(3, len(KEYS))
    model.setHorizontalHeaderLabels(list(KEYS))
    for row in range(3):
        for column in range(len(KEYS)):
            model.setItem(row, column, QStandardItem(f"{text} {row}{column}"))
    view = QTableView()
    view.setModel(model)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    view.horizontalHeader().setStretchLastSection(True)
    fit = ColumnFit(view, KEYS, OPTIONAL)
    qtbot.addWidget(view)
    view.resize(width, 200)
    view.show()
    qtbot.waitExposed(view)
    return view, model, fit


def _needed(view: QTableView, fit: ColumnFit, keys: tuple[str, ...]) -> int:
    return sum(fit.wanted(KEYS.index(key)) for key in keys)


def test_the_optional_columns_give_way_in_their_order_and_the_last_fills_the_room(qtbot: QtBot) -> None:
    view, model, fit = _table(qtbot, 2000)
    header = view.horizontalHeader()
    qtbot.waitUntil(lambda: header.length() == view.viewport().width(), timeout=5_000)
    assert fit.hidden() == []
    room = _needed(view, fit, ("symbol", "name", "price", "note")) + 10  # the extra column does not fit
    view.resize(room + 2 * view.frameWidth() + view.verticalScrollBar().sizeHint().width(), 200)
    qtbot.waitUntil(lambda: fit.hidden() == ["extra"], timeout=5_000)
    qtbot.waitUntil(lambda: header.length() == view.viewport().width(), timeout=5_000)  # no sideways scrolling
    view.resize(view.width() - 40, 200)
    qtbot.waitUntil(lambda: fit.hidden() == ["note", "extra"], timeout=5_000)
    assert header.length() == view.viewport().width()
    for row in range(3):  # words twice as long (another language): still nothing past the edge
        model.item(row, 1).setText(model.item(row, 1).text() * 2)
    qtbot.waitUntil(lambda: header.length() == view.viewport().width(), timeout=5_000)
    for row in range(3):
        model.item(row, 1).setText(model.item(row, 1).text()[: len(model.item(row, 1).text()) // 2])
    view.resize(2000, 200)
    qtbot.waitUntil(lambda: fit.hidden() == [], timeout=5_000)
    # the column last before (its saved 100 px came back with Qt's own stretch) and the last one fill the room
    qtbot.waitUntil(lambda: header.length() == view.viewport().width(), timeout=5_000)
    assert header.sectionResizeMode(KEYS.index("extra")) == QHeaderView.ResizeMode.Stretch
    # the others sized by the fit to what they need (Qt's own resizing to contents measured every row on each change)
    assert header.sectionResizeMode(KEYS.index("note")) == QHeaderView.ResizeMode.Fixed
    assert [header.sectionSize(i) for i in range(len(KEYS) - 1)] == [fit.wanted(i) for i in range(len(KEYS) - 1)]


def test_exclusions_hold_while_the_view_is_not_shown_and_what_was_given_up_stays_so(qtbot: QtBot) -> None:
    view, _model, fit = _table(qtbot, 300)
    qtbot.waitUntil(lambda: fit.hidden() == ["note", "extra"], timeout=5_000)
    view.hide()
    fit.exclude(["symbol"])
    assert view.isColumnHidden(0) and fit.hidden() == ["note", "extra"]  # not fitted without a width to go by
    fit.exclude([])
    assert not view.isColumnHidden(0) and fit.hidden() == ["note", "extra"]
    view.resize(2000, 200)
    view.show()
    qtbot.waitUntil(lambda: fit.hidden() == [], timeout=5_000)  # fitted when shown


def test_the_tip_of_what_was_given_up_is_in_the_users_language(qtbot: QtBot) -> None:
    from ui.i18n.language import Translations
    from ui.widgets.column_fit import given_up_tip

    assert given_up_tip([("Cost", "35,175.04"), ("Sellable", "100"), ("Run", "")]) == "Cost: 35,175.04\nSellable: 100"
    assert given_up_tip([("Run", "")]) is None
    translations = Translations()
    assert translations.install("zh_CN")
    try:
        assert given_up_tip([("成本", "35,175.04"), ("可卖", "100")]) == "成本：35,175.04\n可卖：100"
    finally:
        translations.install("en")
        translations.uninstall()


def test_a_changed_cell_is_measured_alone_and_the_rows_changing_measure_again(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The research runs' elapsed cells change every second while a run executes: measuring every column over every
    row each time took 400 ms a second with 650 runs of history."""
    from ui.widgets import column_fit

    view, model, fit = _table(qtbot, 2000)
    header = view.horizontalHeader()
    qtbot.waitUntil(lambda: header.length() == view.viewport().width(), timeout=5_000)
    measured: list[int] = []
    whole = column_fit.column_width
    monkeypatch.setattr(column_fit, "column_width", lambda v, c: measured.append(c) or whole(v, c))
    before = fit.wanted(1)
    model.item(0, 1).setText("a much longer text than any of the others in this column")
    qtbot.wait(100)  # the fit after the change
    assert measured == [] and fit.wanted(1) > before  # no column measured whole, the cell's grew
    assert fit.wanted(1) == whole(view, 1)  # grown to the one cell, as a whole measure finds it
    assert header.sectionSize(1) == fit.wanted(1)  # and the column with it, shown whole
    model.item(0, 1).setText("short")  # the widest cell narrows (a run's status once it is published)
    qtbot.wait(100)
    assert measured == [1]  # that column alone
    assert fit.wanted(1) == before and header.sectionSize(1) == before  # measured again whole: back to its width
    measured.clear()
    model.item(1, 1).setText("x")  # a cell narrower than the widest narrows: nothing measured whole
    qtbot.wait(100)
    assert measured == [] and fit.wanted(1) == before
    narrower = fit.wanted(2)
    model.insertRow(0, [QStandardItem("a new row, the widest of its column") for _ in KEYS])  # a run started
    qtbot.wait(100)
    assert measured == [] and fit.wanted(2) == whole(view, 2) > narrower  # its cells alone measured, grown to them
    model.removeRow(0)
    qtbot.wait(100)
    assert sorted(set(measured)) == list(range(len(KEYS)))  # the rows changed: every column measured again
    measured.clear()
    model.beginResetModel()  # a burst of rows at once (a history read): every column measured again, once
    model.endResetModel()
    qtbot.wait(100)
    assert sorted(measured) == list(range(len(KEYS)))


def test_many_rows_inserted_at_once_are_measured_whole(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.widgets import column_fit

    view, model, _fit = _table(qtbot, 2000)
    qtbot.waitUntil(lambda: view.horizontalHeader().length() == view.viewport().width(), timeout=5_000)
    measured: list[int] = []
    whole = column_fit.column_width
    monkeypatch.setattr(column_fit, "column_width", lambda v, c: measured.append(c) or whole(v, c))
    model.insertRows(3, column_fit.FEW_CELLS + 1)
    qtbot.wait(100)
    assert sorted(measured) == list(range(len(KEYS)))  # more rows than are measured cell by cell: whole, once
