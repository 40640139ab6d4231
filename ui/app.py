"""The QApplication factory and the desktop entry point."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication

from stockbench import __version__
from stockbench.config import APP_DISPLAY_NAME


def create_app(argv: Sequence[str] | None = None) -> QApplication:
    """The process's QApplication (created once) with the app's identity set."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    QCoreApplication.setOrganizationName("StockWorkbench")
    QCoreApplication.setApplicationName(APP_DISPLAY_NAME)
    QCoreApplication.setApplicationVersion(__version__)
    return QApplication(list(argv if argv is not None else sys.argv))


def run_desktop(argv: Sequence[str] | None = None) -> int:
    """Open the main window and run the event loop until it closes."""
    from ui.errors import ErrorPresenter
    from ui.main_window import MainWindow

    app = create_app(argv)
    window = MainWindow()
    presenter = ErrorPresenter(window)
    presenter.install()
    window.show()
    return app.exec()
