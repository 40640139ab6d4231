"""A dock's screen at the dock's size (ui/screen_docks.py `ScreenHolder`), scrolled only below its least size."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QLabel, QTableView, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from ui.screen_docks import ScreenHolder


class _Tables(QTableView):
    """Tables that would like 700 px of height and can do with 200, as the dashboard's do."""

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(400, 700)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(300, 200)


def _screen() -> QWidget:
    """A screen with a word-wrapped note in its own layout: the layout then has a height-for-width, and Qt's
    resizable scroll area sized such a screen to its preferred height, not the room it had."""
    screen = QWidget()
    layout = QVBoxLayout(screen)
    note = QLabel("A note long enough to wrap onto a second line in a narrow dock, as screens' notes do. " * 3)
    note.setWordWrap(True)
    layout.addWidget(note)
    layout.addWidget(_Tables(screen), 1)
    assert layout.hasHeightForWidth()
    return screen


def test_a_screen_fills_the_room_it_has_and_scrolls_only_below_its_least_size(qtbot: QtBot) -> None:
    holder = ScreenHolder()
    qtbot.addWidget(holder)
    screen = _screen()
    holder.setWidget(screen)
    holder.resize(600, 500)
    holder.show()
    qtbot.waitExposed(holder)
    assert screen.sizeHint().height() > 500 > screen.minimumSizeHint().height()  # room for it, less than it would like
    qtbot.waitUntil(lambda: screen.size() == holder.viewport().size(), timeout=5_000)
    assert holder.verticalScrollBar().maximum() == 0 and holder.horizontalScrollBar().maximum() == 0
    holder.resize(900, 800)  # more room: the screen grows with it
    qtbot.waitUntil(lambda: screen.size() == holder.viewport().size(), timeout=5_000)
    least = screen.minimumSizeHint()
    holder.resize(least.width() - 100, least.height() - 100)  # less than its least size: scroll bars, never squeezed
    qtbot.waitUntil(lambda: holder.verticalScrollBar().maximum() > 0, timeout=5_000)
    assert holder.horizontalScrollBar().maximum() > 0
    assert screen.width() >= least.width() and screen.height() >= least.height()
