"""The main window's actions (found by name), its menus and its toolbar, built once; the window sets their texts in
the current language (`MainWindow.retranslate`), so switching language never rebuilds them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QIcon, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QToolBar

from stockbench.config import resources_dir

Shortcut = QKeySequence.StandardKey | str | None
# The menus, each a list of action names (None: a separator; "@panels", "@theme", "@language": a submenu).
MENUS: dict[str, tuple[str | None, ...]] = {
    "file": ("open_workspace", "new_workspace", "demo_workspace", None, "import_fills", "export_ledger",
             "connect_model", "settings", None, "quit"),
    "view": ("@panels", "reset_layout", None, "@theme", "@language", None, "refresh"),
    "research": ("analyze", "runs"),
    "ledger": ("new_account", "cash", None, "record_fill", "import_fills"),
    "help": ("about",),
}  # fmt: skip
TOOLBAR: tuple[str | None, ...] = ("open_workspace", "demo_workspace", None, "analyze", "record_fill", "refresh",
                                   None, "settings")  # fmt: skip


def icon(name: str) -> QIcon:
    return QIcon(str(resources_dir() / "icons" / f"{name}.svg"))


class MainMenus:
    """`actions` by name (a choice's actions as `theme_light`, `language_en` ...), `menus` by name, the
    `panels`, `theme` and `language` submenus, and the `toolbar` of `window`."""

    def __init__(
        self,
        window: QMainWindow,
        actions: Mapping[str, tuple[Callable[[], object], Shortcut, str | None]],
        choices: Mapping[str, tuple[tuple[str, ...], Callable[[Any], None]]],
    ) -> None:
        self.window = window
        self.actions: dict[str, QAction] = {}
        for name, (slot, shortcut, icon_name) in actions.items():
            self._action(name, slot, shortcut, icon_name)
        self.groups = {prefix: self._choice_group(prefix, values, apply) for prefix, (values, apply) in choices.items()}
        bar = window.menuBar()
        self.menus: dict[str, QMenu] = {name: bar.addMenu("") for name in MENUS}
        self.submenus: dict[str, QMenu] = {}
        for name, entries in MENUS.items():
            self._fill(self.menus[name], entries)
        self.toolbar = QToolBar(window)
        self.toolbar.setObjectName("main_toolbar")
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        for entry in TOOLBAR:
            if entry is None:
                self.toolbar.addSeparator()
            else:
                self.toolbar.addAction(self.actions[entry])
        window.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.toolbar)

    def _action(self, name: str, slot: Callable[[], object], shortcut: Shortcut, icon_name: str | None) -> QAction:
        action = QAction(self.window)
        action.setObjectName(name)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if icon_name:
            action.setIcon(icon(icon_name))
        action.triggered.connect(lambda _checked=False: slot())
        self.actions[name] = action
        return action

    def _choice_group(self, prefix: str, values: tuple[str, ...], apply: Callable[[Any], None]) -> QActionGroup:
        group = QActionGroup(self.window)
        for value in values:
            action = QAction(self.window, checkable=True)
            action.setObjectName(f"{prefix}_{value}")
            action.setData(value)
            action.triggered.connect(lambda _checked=False, v=value: apply(v))
            group.addAction(action)
            self.actions[action.objectName()] = action
        return group

    def _fill(self, menu: QMenu, entries: tuple[str | None, ...]) -> None:
        for entry in entries:
            if entry is None:
                menu.addSeparator()
            elif entry.startswith("@"):
                submenu = self.submenus[entry[1:]] = menu.addMenu("")
                if entry[1:] in self.groups:
                    submenu.addActions(self.groups[entry[1:]].actions())
            else:
                menu.addAction(self.actions[entry])
