"""Light and dark themes (following the system unless the user picks one) and the candle colour choice.

The shell uses the Fusion style with an explicit palette in both themes, so every platform (and the offscreen
test platform) looks the same and dark mode never depends on what the native style supports. Candle colours
(red up and green down by default) are the chart's setting (`ui.charts.palette.CANDLE_SETTING`): the shell
stores the user's choice and emits `ThemeManager.candles_changed`, on which the main window refreshes the chart.
"""

from __future__ import annotations

from typing import Literal

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSettings, Qt, Signal, Slot
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from ui.charts.palette import CANDLE_SETTING, CandleScheme

ThemeMode = Literal["system", "light", "dark"]
THEME_MODES: tuple[ThemeMode, ...] = ("system", "light", "dark")
THEME_SETTING = "appearance/theme"
STYLE = "Fusion"

# (role, light, dark): a calm palette; links and highlights keep enough contrast in both themes.
_ROLES: tuple[tuple[QPalette.ColorRole, str, str], ...] = (
    (QPalette.ColorRole.Window, "#f5f6f8", "#202226"),
    (QPalette.ColorRole.WindowText, "#1d2025", "#e4e6eb"),
    (QPalette.ColorRole.Base, "#ffffff", "#17191c"),
    (QPalette.ColorRole.AlternateBase, "#f0f2f5", "#25282d"),
    (QPalette.ColorRole.ToolTipBase, "#ffffff", "#2b2e34"),
    (QPalette.ColorRole.ToolTipText, "#1d2025", "#e4e6eb"),
    (QPalette.ColorRole.PlaceholderText, "#8a9099", "#7c828c"),
    (QPalette.ColorRole.Text, "#1d2025", "#e4e6eb"),
    (QPalette.ColorRole.Button, "#eceef2", "#2b2e34"),
    (QPalette.ColorRole.ButtonText, "#1d2025", "#e4e6eb"),
    (QPalette.ColorRole.BrightText, "#ffffff", "#ffffff"),
    (QPalette.ColorRole.Light, "#ffffff", "#3a3e45"),
    (QPalette.ColorRole.Midlight, "#e3e6ea", "#32363c"),
    (QPalette.ColorRole.Mid, "#c5cad1", "#454a52"),
    (QPalette.ColorRole.Dark, "#9aa1ab", "#111214"),
    (QPalette.ColorRole.Shadow, "#6b7280", "#000000"),
    (QPalette.ColorRole.Highlight, "#2f6fde", "#3d7ef0"),
    (QPalette.ColorRole.HighlightedText, "#ffffff", "#ffffff"),
    (QPalette.ColorRole.Link, "#1f5fc8", "#78a6ff"),
    (QPalette.ColorRole.LinkVisited, "#6b3fc2", "#b08cff"),
)
_DISABLED_TEXT = ("#a0a6ae", "#676c75")


def theme_mode(settings: QSettings) -> ThemeMode:
    value = str(settings.value(THEME_SETTING, "system"))
    return value if value in THEME_MODES else "system"


def system_is_dark() -> bool:
    return QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark


def resolve_dark(mode: ThemeMode) -> bool:
    """Whether `mode` means dark right now ("system" asks the platform)."""
    return system_is_dark() if mode == "system" else mode == "dark"


def palette(dark: bool) -> QPalette:
    """The shell's palette for the light or the dark theme."""
    result = QPalette()
    for role, light_colour, dark_colour in _ROLES:
        result.setColor(role, QColor(dark_colour if dark else light_colour))
    disabled = QColor(_DISABLED_TEXT[dark])
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        result.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    return result


def apply_theme(app: QApplication, mode: ThemeMode) -> bool:
    """Apply `mode` to the whole application; returns whether the result is dark."""
    dark = resolve_dark(mode)
    if app.style().name().lower() != STYLE.lower():
        app.setStyle(STYLE)
    app.setPalette(palette(dark))
    app.setProperty("stockbench_dark", dark)
    # Qt posts the change to existing widgets; deliver it now so widgets made next inherit the new palette
    QCoreApplication.sendPostedEvents(None, QEvent.Type.ApplicationPaletteChange)
    return dark


class ThemeManager(QObject):
    """Keeps the application's theme in step with the setting and, in "system" mode, with the platform."""

    theme_changed = Signal(bool)  # dark
    candles_changed = Signal()

    def __init__(self, app: QApplication, settings: QSettings) -> None:
        super().__init__()
        self.app, self.settings = app, settings
        self.dark = False
        QGuiApplication.styleHints().colorSchemeChanged.connect(self._system_changed)

    @property
    def mode(self) -> ThemeMode:
        return theme_mode(self.settings)

    def apply(self) -> None:
        self.dark = apply_theme(self.app, self.mode)
        self.theme_changed.emit(self.dark)

    def set_mode(self, mode: ThemeMode) -> None:
        """Remember `mode` and apply it now."""
        self.settings.setValue(THEME_SETTING, mode)
        self.apply()

    def set_candles(self, scheme: CandleScheme) -> None:
        self.settings.setValue(CANDLE_SETTING, scheme)
        self.candles_changed.emit()

    @Slot(Qt.ColorScheme)
    def _system_changed(self, _scheme: Qt.ColorScheme) -> None:
        if self.mode == "system":
            self.apply()
