"""The main window of the desktop shell."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QMainWindow, QWidget

from stockbench.config import APP_DISPLAY_NAME


class MainWindow(QMainWindow):
    """The application's main window: menus, toolbar, docks and screens attach here."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("MainWindow")
        self.setWindowTitle(APP_DISPLAY_NAME)
        self.resize(1280, 800)
        self.setCentralWidget(QLabel(self.tr("Stock Workbench"), self))
        self.statusBar().showMessage(self.tr("Ready"))
