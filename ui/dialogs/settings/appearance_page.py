"""The appearance page: language, theme and candle colours (stored in the user's Qt settings, applied at once)."""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QComboBox, QFormLayout, QWidget

from ui.charts.palette import candle_scheme
from ui.i18n.language import stored_choice
from ui.theme import theme_mode


class AppearancePage(QWidget):
    """Language, theme and candle colours (stored in the user's Qt settings, applied at once)."""

    def __init__(self, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language, self.theme, self.candles = QComboBox(self), QComboBox(self), QComboBox(self)
        for text, value in ((self.tr("Follow the system"), "system"), ("简体中文", "zh_CN"), ("English", "en")):
            self.language.addItem(text, value)
        for text, value in (
            (self.tr("Follow the system"), "system"),
            (self.tr("Light"), "light"),
            (self.tr("Dark"), "dark"),
        ):
            self.theme.addItem(text, value)
        self.candles.addItem(self.tr("Red up, green down (China)"), "red_up")
        self.candles.addItem(self.tr("Green up, red down"), "green_up")
        for combo, value in ((self.language, stored_choice(settings)), (self.theme, theme_mode(settings)),
                             (self.candles, candle_scheme(settings))):  # fmt: skip
            combo.setCurrentIndex(max(0, combo.findData(value)))
        form = QFormLayout(self)
        form.addRow(self.tr("Language"), self.language)
        form.addRow(self.tr("Theme"), self.theme)
        form.addRow(self.tr("Candle colours"), self.candles)
