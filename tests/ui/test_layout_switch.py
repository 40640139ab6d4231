"""The dock layout across a language or theme switch, a reset and a restart."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QByteArray, QSettings, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QDockWidget,
    QGroupBox,
    QHeaderView,
    QLabel,
    QTableView,
    QTabWidget,
    QTreeView,
    QWidget,
)
from pytestqt.qtbot import QtBot

from stockbench.workbench import Workbench
from ui.main_window import MainWindow

Layout = dict[str, object]


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[MainWindow]:
    made = open_window(qtbot)
    yield made
    made.shutdown()


def open_window(qtbot: QtBot) -> MainWindow:
    made = MainWindow(settings=QSettings())
    made.presenter.interactive = False
    qtbot.addWidget(made)
    made.resize(1366, 768)
    made.show()
    qtbot.waitExposed(made)
    return made


def attach(window: MainWindow, qtbot: QtBot, home: Path) -> None:
    bench = Workbench.open(home, command="tests")
    with qtbot.waitSignal(window.workspace_attached, timeout=10_000):
        window.attach_bench(bench)
    # the dashboard's scan arrives after its reload timer, and with it a tab with rows comes to the front (taken as
    # the layout "before" a switch when it came late, the layout after it differed by that tab)
    dashboard = window.panels["dashboard"]
    qtbot.waitUntil(lambda: dashboard._watch is not None, timeout=20_000)  # type: ignore[attr-defined]
    settle(window, qtbot)  # the columns are sized once the docks are laid out


def settle(window: MainWindow, qtbot: QtBot) -> None:
    """Wait until the docks stop moving (the default layout sizes its columns once they are laid out)."""
    seen: list[object] = []

    def still() -> bool:
        qtbot.wait(60)
        seen.append(layout(window))
        return len(seen) > 1 and seen[-1] == seen[-2]

    qtbot.waitUntil(still, timeout=5_000)


def column_header(view: QAbstractItemView) -> QHeaderView | None:
    if isinstance(view, QTableView):
        return view.horizontalHeader()
    return view.header() if isinstance(view, QTreeView) else None


def headers(window: MainWindow) -> dict[str, list[int]]:
    """Every item view's column widths, by screen and view."""
    found: dict[str, list[int]] = {}
    for name, panel in window.panels.items():
        for number, view in enumerate(panel.findChildren(QAbstractItemView)):
            header = column_header(view)
            if header is not None and header.count():  # by name where it has one: the tab brought to the front
                # comes last among its parent's children
                found[f"{name}/{view.objectName() or number}"] = [header.sectionSize(i) for i in range(header.count())]
    return found


def in_front(dock: QDockWidget) -> bool:
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


def layout(window: MainWindow) -> Layout:
    """Where each dock is, how big, which are tabbed with which (in order), which is in front, the columns."""
    docks = window.docks
    return {
        "areas": {name: window.dockWidgetArea(dock) for name, dock in docks.items()},
        "geometry": {name: dock.geometry().getRect() for name, dock in docks.items() if in_front(dock)},
        "tabs": {name: [d.objectName() for d in window.tabifiedDockWidgets(dock)] for name, dock in docks.items()},
        "front": sorted(name for name, dock in docks.items() if in_front(dock)),
        "columns": headers(window),
    }


def horizontal(found: Layout) -> dict[str, tuple[int, int]]:
    geometry: dict[str, tuple[int, int, int, int]] = found["geometry"]  # type: ignore[assignment]
    return {name: (x, width) for name, (x, _y, width, _height) in geometry.items()}


def docked(window: MainWindow) -> Layout:
    """The docks' part of the layout (column widths also follow the width a view was given)."""
    return {key: value for key, value in layout(window).items() if key != "columns"}


def move_things(window: MainWindow, qtbot: QtBot) -> None:
    """A user's own layout: the ledger brought to the front. (No column is the user's to widen: every table's columns
    follow their contents, sized by Qt or by the column fit; a column widened here by code came back to its contents'
    width at the next fit, as it should.)"""
    window.show_screen("ledger")
    settle(window, qtbot)  # the ledger's columns fitted to its books, read once it is in front


def test_a_language_switch_keeps_the_layout(window: MainWindow, qtbot: QtBot, demo_home: Path) -> None:
    window.set_language("zh_CN")
    attach(window, qtbot, demo_home)
    move_things(window, qtbot)
    before = layout(window)
    assert before["columns"], "no table columns were found to compare"
    in_place = {name: window.panels[name] for name in ("watchlist", "chart", "research")}
    symbol = window.panels["chart"].symbol  # type: ignore[attr-defined]
    window.set_language("en")
    qtbot.wait(50)
    assert window.docks["chart"].windowTitle() == "Chart"
    in_english = layout(window)
    # the columns fit their contents, so English titles may widen them; everything else stays
    assert {k: v for k, v in in_english.items() if k not in ("columns", "geometry")} == {
        k: v for k, v in before.items() if k not in ("columns", "geometry")
    }
    # the toolbar's height follows the font of its words: the docks keep their columns and widths
    assert horizontal(in_english) == horizontal(before)
    assert in_english["columns"].keys() == before["columns"].keys()  # type: ignore[attr-defined]
    window.set_language("zh_CN")
    assert window.docks["chart"].windowTitle() == "图表"
    qtbot.waitUntil(lambda: layout(window) == before, timeout=5_000)
    # the watchlist, the chart and research are translated in place: same widgets, same symbol, same rows
    assert all(window.panels[name] is panel for name, panel in in_place.items())
    assert window.panels["chart"].symbol == symbol  # type: ignore[attr-defined]
    assert window.panels["chart"].analyze_button.text() == "分析"  # type: ignore[attr-defined]
    assert window.panels["watchlist"].list_buttons[3].text() not in ("", "Refresh")  # type: ignore[attr-defined]


def words(widget: QWidget) -> list[str]:
    """Every word a screen shows in its chrome: buttons, labels, group titles, tab titles and column titles."""
    found = [b.text() for b in widget.findChildren(QAbstractButton) if b.text()]
    found += [label.text() for label in widget.findChildren(QLabel) if label.text()]
    found += [box.title() for box in widget.findChildren(QGroupBox)]
    for tabs in widget.findChildren(QTabWidget):
        found += [tabs.tabText(i) for i in range(tabs.count())]
    for view in widget.findChildren(QAbstractItemView):
        header = column_header(view)
        if header is not None and view.model() is not None:
            found += [str(view.model().headerData(i, Qt.Orientation.Horizontal)) for i in range(header.count())]
    return found


def window_words(window: MainWindow) -> dict[str, list[str]]:
    """The words of every screen, of the docks' titles and of the menus."""
    found = {name: words(panel) for name, panel in window.panels.items()}
    found["docks"] = [dock.windowTitle() for dock in window.docks.values()]
    found["menus"] = [menu.title() for menu in window.menus.values()]
    return found


def steady_words(window: MainWindow, qtbot: QtBot) -> dict[str, list[str]]:
    """The window's words once the screens' first loads have arrived (they stop changing)."""
    seen: list[dict[str, list[str]]] = []

    def still() -> bool:
        qtbot.wait(150)
        seen.append(window_words(window))
        return len(seen) > 2 and seen[-1] == seen[-2] == seen[-3]

    qtbot.waitUntil(still, timeout=20_000)
    return seen[-1]


def state(window: MainWindow) -> tuple[QByteArray, QByteArray]:
    return window.saveState(window.screens.version), window.saveGeometry()


def test_every_screen_is_translated_in_place_and_the_layout_bytes_stay(
    window: MainWindow, qtbot: QtBot, demo_home: Path
) -> None:
    """zh -> en -> zh with every screen open: each screen, dock title, menu, tab and column title changes language,
    no panel is rebuilt (the dashboard, reports, ledger and track record screens were, resetting their columns), and
    the window's saved state and geometry and every table's column widths come back byte for byte."""
    window.set_language("zh_CN")
    attach(window, qtbot, demo_home)
    move_things(window, qtbot)
    settings = window.open_settings()
    assert settings is not None
    chinese = steady_words(window, qtbot)
    before, columns = state(window), headers(window)
    panels = dict(window.panels)
    assert set(panels) >= {"watchlist", "chart", "dashboard", "report", "ledger", "track_record", "research"}
    window.set_language("en")
    qtbot.waitUntil(lambda: settings.windowTitle() == "Settings", timeout=2_000)  # the open dialog too
    english = window_words(window)
    for part, texts in chinese.items():
        assert english[part] != texts, f"{part} kept its Chinese words"
    assert window.menus["view"].title() == "&View"
    assert window.panels["ledger"].tabs.tabText(0) == "Positions"  # type: ignore[attr-defined]
    window.set_language("zh_CN")
    qtbot.waitUntil(lambda: settings.windowTitle() == "设置", timeout=2_000)
    assert window.panels == panels and all(window.panels[n] is p for n, p in panels.items())
    assert window_words(window) == chinese
    qtbot.waitUntil(lambda: headers(window) == columns, timeout=5_000)
    # the docks' heights follow the status bar's and tab bars' after a relayout of their own: wait for it to settle
    qtbot.waitUntil(lambda: state(window) == before, timeout=10_000)
    settings.close()


def test_a_theme_switch_keeps_the_layout(window: MainWindow, qtbot: QtBot, demo_home: Path) -> None:
    attach(window, qtbot, demo_home)
    move_things(window, qtbot)
    before, saved = layout(window), state(window)
    chart = window.panels["chart"].chart  # type: ignore[attr-defined]
    light = chart.graphics.backgroundBrush().color()
    window.set_theme("dark")
    assert chart.graphics.backgroundBrush().color() != light  # the chart follows at once
    assert chart.graphics.backgroundBrush().color().lightness() < 80
    qtbot.wait(50)
    assert layout(window) == before
    assert state(window) == saved
    window.set_theme("light")
    assert chart.graphics.backgroundBrush().color() == light


def test_reset_layout_survives_a_restart(window: MainWindow, qtbot: QtBot, demo_home: Path) -> None:
    attach(window, qtbot, demo_home)
    docked_default = docked(window)
    research = window.docks["research"]
    window.splitDockWidget(research, window.docks["watchlist"], Qt.Orientation.Horizontal)
    window.tabifyDockWidget(research, window.docks["ledger"])
    window.docks["dashboard"].hide()
    window.set_language("zh_CN")  # (before the fix this also rebuilt every dock)
    window.set_language("en")
    qtbot.wait(20)
    assert docked(window) != docked_default
    window.reset_layout()
    settle(window, qtbot)
    assert docked(window) == docked_default
    window.shutdown()  # saves the layout
    again = open_window(qtbot)
    attach(again, qtbot, demo_home)
    after = docked(again)
    again.shutdown()
    assert after == docked_default


def test_a_layout_saved_by_an_older_version_is_not_restored(window: MainWindow, qtbot: QtBot, demo_home: Path) -> None:
    from ui import screen_docks

    attach(window, qtbot, demo_home)
    default = docked(window)
    window.tabifyDockWidget(window.docks["research"], window.docks["watchlist"])
    scrambled = window.saveState(1)  # what the first release saved, after a language switch scrambled it
    window.detach()
    window.settings.setValue(screen_docks.STATE_SETTING, scrambled)
    attach(window, qtbot, demo_home)
    assert docked(window) == default
