"""Issue 19.4: nothing clips at 1366x768, in either language. The main window on the demo workspace, every dock
in its default place: each visible button's text fits the button, and each visible button of the visible panel
lies inside the window (a panel wider than its dock pushed the research panel's Analyze button out of sight)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, QSettings, QSize
from PySide6.QtWidgets import QAbstractButton, QAbstractScrollArea, QDockWidget, QPushButton
from pytestqt.qtbot import QtBot

from stockbench.workbench import Workbench
from ui.i18n.language import Translations
from ui.main_window import MainWindow, default_size

SIZE = (1366, 768)
FIRST = default_size(QSize(*SIZE))  # the first window on a 1366x768 screen: room left for the window manager's frame


@pytest.fixture(params=["zh_CN", "en"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    translations = Translations()
    assert translations.install(request.param)
    yield str(request.param)
    translations.install("en")
    translations.uninstall()


def _shown(button: QAbstractButton) -> bool:
    """False for a button of a dock that is tabbed behind another (not painted at all)."""
    parent = button.parentWidget()
    while parent is not None and not isinstance(parent, QDockWidget):
        parent = parent.parentWidget()
    return parent is None or not parent.visibleRegion().isEmpty()


def _visible_area(button: QAbstractButton, window: MainWindow) -> QRect:
    """The part of the window where `button` can be seen: the window, cut by every scroll area's viewport around it
    (a dock's panel scrolls: a button past its viewport's edge is out of sight)."""
    area = QRect(QPoint(0, 0), window.size())
    parent = button.parentWidget()
    while parent is not None and parent is not window:
        if isinstance(parent, QAbstractScrollArea):
            viewport = parent.viewport()
            area = area.intersected(QRect(viewport.mapTo(window, QPoint(0, 0)), viewport.size()))
        parent = parent.parentWidget()
    return area


@pytest.mark.parametrize("size", [SIZE, (FIRST.width(), FIRST.height())], ids=["1366x768", "first-size"])
def test_buttons_fit_their_text_and_the_window_at_1366x768(
    qtbot: QtBot, demo_home: Path, language: str, size: tuple[int, int]
) -> None:
    window = MainWindow(settings=QSettings())
    window.presenter.interactive = False
    qtbot.addWidget(window)
    window.retranslate()
    window.resize(*size)
    window.show()
    bench = Workbench.open(demo_home, command="tests")
    with qtbot.waitSignal(window.workspace_attached, timeout=20_000):
        window.attach_bench(bench)
    cut: list[str] = []
    outside: list[str] = []
    for screen in ("ledger", "report", "dashboard", "track_record", "chart", "research"):  # each tab in front once
        window.show_screen(screen)
        qtbot.wait(300)
        _check(window, cut, outside)
    window.shutdown()
    assert cut == [], f"{language}: button text cut: {sorted(set(cut))}"
    assert outside == [], f"{language}: buttons outside the window: {sorted(set(outside))}"


def _check(window: MainWindow, cut: list[str], outside: list[str]) -> None:
    for button in window.findChildren(QPushButton):
        if not button.isVisible() or not button.text() or not _shown(button):
            continue
        text = button.text().replace("&", "")
        if button.fontMetrics().horizontalAdvance(text) > button.contentsRect().width():
            cut.append(f"{text!r} ({button.width()} px)")
        where = QRect(button.mapTo(window, QPoint(0, 0)), button.size())
        if not _visible_area(button, window).contains(where):
            outside.append(f"{text!r} at {where.getRect()}")
    print(
        "SIZE",
        window.size(),
        [
            (b.text(), QRect(b.mapTo(window, QPoint(0, 0)), b.size()).getRect(), b.isVisibleTo(window))
            for b in window.findChildren(QPushButton)
            if b.text() in ("Analyze", "分析")
        ],
    )
