"""The screens of the main window as dock panels: placed in columns (watchlist on the left, the main screens as tabs
in the middle, research on the right), sized to the window, and their arrangement remembered in the user's settings.

A remembered arrangement carries a version composed of `LAYOUT_VERSION` and the screens' names: a layout saved by an
older release (version 1 could be scrambled by a language switch) or over other screens is not restored.
"""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Iterable

from PySide6.QtCore import QByteArray, QEvent, QObject, QSettings, Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QDockWidget, QFrame, QMainWindow, QScrollArea, QWidget

from ui.screens import SCREENS

STATE_SETTING, LAYOUT_VERSION = "window/state", 2
# watchlist (its symbol, name, price, change and zone seen whole at 1366x768), main screens, research (its form and
# run table need room)
COLUMN_SHARES = (0.28, 0.45, 0.27)


class ScreenHolder(QScrollArea):
    """A dock's screen at the dock's size, scrolled only where the dock is smaller than the screen's least size (so
    the window fits small displays). Qt's resizable scroll area sizes a screen whose layout has a height-for-width
    (any word-wrapped label in it) to the screen's preferred height instead: the dashboard scrolled by about 230 px
    and the track record by a little in docks that had room for them, at 1366x768."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.NoFrame)

    def setWidget(self, widget: QWidget) -> None:  # noqa: N802 - Qt's name
        super().setWidget(widget)  # which filters the screen's events through `eventFilter`
        self.fit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.fit()  # the screen's least size may have changed
        return super().eventFilter(watched, event)  # the scroll area's own: its scroll bars follow the screen's size

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.fit()

    def fit(self) -> None:
        """Size the screen to the room the dock gives it, never below its least size."""
        screen = self.widget()
        if screen is None:
            return
        least = screen.minimumSizeHint().expandedTo(screen.minimumSize())
        room = self.maximumViewportSize()
        width, height = max(room.width(), least.width()), max(room.height(), least.height())
        if width > room.width():  # a scroll bar along the bottom takes its height from the room
            height = max(room.height() - self.horizontalScrollBar().sizeHint().height(), least.height())
        if height > room.height():  # and one along the side its width
            width = max(room.width() - self.verticalScrollBar().sizeHint().width(), least.width())
        if (screen.width(), screen.height()) != (width, height):
            screen.resize(width, height)


def layout_version(names: Iterable[str]) -> int:
    """The version a layout over the screens `names` is saved with: `LAYOUT_VERSION` in the high bits, a checksum of
    the names (in docking order) in the low 20."""
    return (LAYOUT_VERSION << 20) | (zlib.crc32(",".join(names).encode()) & 0xFFFFF)


class ScreenDocks:
    """The docked screens of `window`: their panels and docks by screen name."""

    def __init__(self, window: QMainWindow, settings: QSettings) -> None:
        self.window, self.settings = window, settings
        self.panels: dict[str, QWidget] = {}
        self.docks: dict[str, QDockWidget] = {}

    def add(self, name: str, title: str, panel: QWidget) -> QDockWidget:
        """Dock `panel` as screen `name` (not placed yet: `arrange` places every dock)."""
        dock = QDockWidget(title, self.window)
        dock.setObjectName(f"dock_{name}")
        # A scroll area lets a dock shrink below its screen's minimum width, so the window fits small displays.
        holder = ScreenHolder(dock)
        holder.setWidget(panel)
        dock.setWidget(holder)
        self.panels[name], self.docks[name] = panel, dock
        return dock

    @property
    def version(self) -> int:
        return layout_version(self.docks)

    def clear(self) -> None:
        """Take every screen down."""
        for dock in self.docks.values():
            self.window.removeDockWidget(dock)
            dock.setObjectName("")  # until deleted it must not be found by a restoreState for its successor
            dock.deleteLater()
        self.panels.clear()
        self.docks.clear()

    def arrange(self) -> None:
        """The default layout, then the remembered one where there is one."""
        self.default_layout()
        state = self.settings.value(STATE_SETTING)
        if isinstance(state, QByteArray) and not self.window.restoreState(state, self.version):
            self.settings.remove(STATE_SETTING)  # an older release's layout, or one over other screens

    def default_layout(self) -> None:
        """Watchlist on the left, chart and the other screens as tabs in the middle, research on the right."""
        areas = {name: area for name, _package, area in SCREENS}
        left = [d for n, d in self.docks.items() if areas.get(n) == "left"]
        main = [d for n, d in self.docks.items() if areas.get(n, "main") == "main"]
        right = [d for n, d in self.docks.items() if areas.get(n) == "right"]
        columns = [c for c in (left, main, right) if c]
        if not columns:
            return
        self.window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, columns[0][0])
        for before, column in itertools.pairwise(columns):
            self.window.splitDockWidget(before[0], column[0], Qt.Orientation.Horizontal)
        for column in columns:
            for dock in column[1:]:
                self.window.tabifyDockWidget(column[0], dock)
            for dock in column:
                dock.show()
            column[0].raise_()
        shares = [share for c, share in zip((left, main, right), COLUMN_SHARES, strict=True) if c]
        firsts = [c[0] for c in columns]
        QTimer.singleShot(0, lambda: self._size_columns(firsts, shares))  # once the docks are laid out

    def _size_columns(self, docks: list[QDockWidget], shares: list[float]) -> None:
        if all(dock in self.docks.values() for dock in docks):
            total = self.window.width()
            self.window.resizeDocks(docks, [int(total * share) for share in shares], Qt.Orientation.Horizontal)

    def reset(self) -> None:
        """Forget the remembered layout: every screen docked again where the default layout puts it."""
        self.settings.remove(STATE_SETTING)
        for dock in self.docks.values():  # taken out first: docking them again re-tabs them in the default order
            dock.setFloating(False)
            self.window.removeDockWidget(dock)
        self.default_layout()
        self.settings.sync()  # a restart after a crash must not bring the old layout back either

    def save(self) -> None:
        """Remember the current layout (when there are screens to remember)."""
        if self.docks:
            self.settings.setValue(STATE_SETTING, self.window.saveState(self.version))

    def show(self, name: str) -> QWidget | None:
        """Bring screen `name` to the front; its panel, or None when it is not available."""
        dock = self.docks.get(name)
        if dock is None:
            return None
        dock.show()
        dock.raise_()
        return self.panels[name]

    def refresh(self, name: str | None = None) -> None:
        """Ask screen `name` (None: every screen) to read its data again, where it can."""
        for screen, panel in self.panels.items():
            refresh = getattr(panel, "refresh", None)
            if (name is None or screen == name) and callable(refresh):
                refresh()
