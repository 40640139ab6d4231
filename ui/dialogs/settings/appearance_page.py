"""The appearance page: language, theme and candle colours (stored in the user's Qt settings, applied at once)."""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QWidget

from ui.charts.palette import candle_scheme
from ui.i18n.language import stored_choice
from ui.theme import theme_mode


class AppearancePage(QWidget):
    """Language, theme and candle colours (stored in the user's Qt settings, applied at once)."""

    def __init__(self, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language, self.theme, self.candles = QComboBox(self), QComboBox(self), QComboBox(self)
        for combo, values in ((self.language, ("system", "zh_CN", "en")), (self.theme, ("system", "light", "dark")),
                              (self.candles, ("red_up", "green_up"))):  # fmt: skip
            for value in values:
                combo.addItem("", value)
        for combo, value in ((self.language, stored_choice(settings)), (self.theme, theme_mode(settings)),
                             (self.candles, candle_scheme(settings))):  # fmt: skip
            combo.setCurrentIndex(max(0, combo.findData(value)))
        self.labels = [QLabel(self) for _combo in range(3)]
        form = QFormLayout(self)
        for label, combo in zip(self.labels, (self.language, self.theme, self.candles), strict=True):
            form.addRow(label, combo)
        self.retranslate()

    def retranslate(self) -> None:
        """The page's texts in the current language (each language's own name is written in that language)."""
        texts = {self.language: (self.tr("Follow the system"), "简体中文", "English"),
                 self.theme: (self.tr("Follow the system"), self.tr("Light"), self.tr("Dark")),
                 self.candles: (self.tr("Red up, green down (China)"), self.tr("Green up, red down"))}  # fmt: skip
        for combo, items in texts.items():
            for index, text in enumerate(items):
                combo.setItemText(index, text)
        for label, text in zip(self.labels, (self.tr("Language"), self.tr("Theme"), self.tr("Candle colours")),
                               strict=True):  # fmt: skip
            label.setText(text)
