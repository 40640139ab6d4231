"""The interface language: Simplified Chinese on a Chinese system, English otherwise, unless a setting says.

English is the source language of every string; `resources/translations/stockbench_zh_CN.qm` (built by
`scripts/translations.py`) and Qt's own `qtbase_zh_CN.qm` (standard buttons and dialogs) supply the Chinese.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Literal, cast

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QSettings, QTranslator

from stockbench.config import resources_dir
from stockbench.messages import Language as EngineLanguage

Language = Literal["zh_CN", "en"]
Choice = Literal["system", "zh_CN", "en"]
LANGUAGES: tuple[Language, ...] = ("zh_CN", "en")
SETTING = "ui/language"
APP_CATALOGUE = "stockbench"
QT_CATALOGUES = ("qtbase",)

log = logging.getLogger(__name__)


def translations_dir() -> Path:
    return resources_dir() / "translations"


def system_language(locale: QLocale | None = None) -> Language:
    """Chinese when the system locale is any Chinese one, else English."""
    found = (locale or QLocale.system()).language()
    return "zh_CN" if found == QLocale.Language.Chinese else "en"


def stored_choice(settings: QSettings) -> Choice:
    """The user's setting: "system" (the default), "zh_CN" or "en"."""
    value = str(settings.value(SETTING, "system"))
    return cast(Choice, value) if value in ("system", *LANGUAGES) else "system"


def chosen_language(settings: QSettings, locale: QLocale | None = None) -> Language:
    """The language to show: the setting when it names one, else the system's."""
    choice = stored_choice(settings)
    return system_language(locale) if choice == "system" else choice


class Translations:
    """The translators installed in the application; `install` swaps them for another language."""

    def __init__(self) -> None:
        self._installed: list[QTranslator] = []
        self.language: Language = "en"

    def install(self, language: Language) -> bool:
        """Show `language` from now on; False when its catalogue is missing (English is shown instead)."""
        self.uninstall()
        self.language = language
        QLocale.setDefault(QLocale(QLocale.Language.Chinese, QLocale.Country.China) if language == "zh_CN"
                           else QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))  # fmt: skip
        if language == "en":
            return True
        ours = self._load(APP_CATALOGUE, translations_dir(), language)
        qt_dir = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))
        for catalogue in QT_CATALOGUES:
            self._load(catalogue, qt_dir, language)
        return ours

    def uninstall(self) -> None:
        """Remove the translators this object installed."""
        for translator in self._installed:
            QCoreApplication.removeTranslator(translator)
        self._installed.clear()

    def _load(self, catalogue: str, folder: Path, language: Language) -> bool:
        translator = QTranslator()
        if not translator.load(f"{catalogue}_{language}", str(folder)):
            log.warning("no %s translation %s_%s.qm in %s", language, catalogue, language, folder)
            return False
        QCoreApplication.installTranslator(translator)
        self._installed.append(translator)
        return True


def engine_language() -> EngineLanguage:
    """The language the engine's messages are said in: the interface's (Translations.install sets the default
    locale with the catalogue), zh or en."""
    return "zh" if QLocale().language() == QLocale.Language.Chinese else "en"
