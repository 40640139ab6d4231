"""The screens, in docking order, and how each is found: `ui/screens/<package>/<package>_panel.py` holds a QWidget
subclass whose `screen_name` is the screen's name. A screen whose module does not exist yet is simply absent."""

from __future__ import annotations

import importlib

from PySide6.QtWidgets import QWidget

# (screen_name, package under ui/screens, area). "main" screens share the centre as tabs.
SCREENS: tuple[tuple[str, str, str], ...] = (
    ("watchlist", "watchlist", "left"),
    ("chart", "chart", "main"),
    ("dashboard", "dashboard", "main"),
    ("report", "reports", "main"),
    ("ledger", "ledger", "main"),
    ("scan", "scan", "main"),
    ("track_record", "track_record", "main"),
    ("research", "research", "right"),
)


def load_screen(name: str) -> type[QWidget] | None:
    """The panel class of screen `name`, or None while that screen does not exist yet."""
    package = next((p for n, p, _a in SCREENS if n == name), name)
    module_name = f"ui.screens.{package}.{package}_panel"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name and module_name.startswith(error.name):
            return None
        raise
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, QWidget) and getattr(value, "screen_name", None) == name:
            return value
    return None


def preload_screens() -> None:
    """Import every screen module (pyqtgraph takes a second or two): called off the GUI thread, so it never waits."""
    for name, _package, _area in SCREENS:
        load_screen(name)
