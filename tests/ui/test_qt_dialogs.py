"""Issue 19.2: Qt's own dialogs speak the interface language. A file dialog (Qt's, not the system's) and a message
box in Chinese show no English word, also after switching to English and back; Qt's catalogue lacks Qt 6's
"&Look in:" and "Files of &type:", ours supplies them."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QCoreApplication, QLibraryInfo, Qt
from PySide6.QtWidgets import QAbstractButton, QApplication, QFileDialog, QLabel, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from ui.app import create_app
from ui.i18n.language import Translations
from ui.i18n.qt_words import QT_DIALOG_WORDS

ENGLISH = re.compile(r"[A-Za-z]{3,}")


@pytest.fixture
def translations() -> Iterator[Translations]:
    found = Translations()
    yield found
    found.install("en")
    found.uninstall()


def _texts(widget: QWidget) -> list[str]:
    labels = [label.text() for label in widget.findChildren(QLabel) if label.isVisible()]
    buttons = [b.text() or b.toolTip() for b in widget.findChildren(QAbstractButton) if b.isVisible()]
    return [text.replace("&", "") for text in labels + buttons if text]


def _file_dialog(qtbot: QtBot) -> QFileDialog:
    dialog = QFileDialog(None, "x", "", "CSV (*.csv)")
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_the_app_uses_qts_own_file_dialogs(qapp: QApplication) -> None:
    assert create_app() is qapp
    assert QCoreApplication.testAttribute(Qt.ApplicationAttribute.AA_DontUseNativeDialogs)


def test_qts_dialogs_are_chinese_in_the_chinese_ui_also_after_a_switch(
    qtbot: QtBot, translations: Translations
) -> None:
    for language in ("zh_CN", "en", "zh_CN"):
        translations.install(language)  # type: ignore[arg-type]
        dialog = _file_dialog(qtbot)
        box = QMessageBox(QMessageBox.Icon.Warning, "x", "x", QMessageBox.StandardButton.Ok
                          | QMessageBox.StandardButton.Cancel)  # fmt: skip
        qtbot.addWidget(box)
        box.show()
        texts = _texts(dialog) + _texts(box)
        english = [t for t in texts if ENGLISH.search(t)]
        if language == "zh_CN":
            assert "查找范围(L)：" in texts and "文件类型(T)：" in texts and "确定" in texts
            assert english == [], english
        else:
            assert {"Look in:", "Files of type:", "OK", "Cancel"} <= set(texts)
        dialog.close()
        box.close()


def test_qts_catalogue_is_loaded_and_ours_fills_only_what_it_lacks(translations: Translations) -> None:
    from PySide6.QtCore import QTranslator

    qt = QTranslator()
    assert qt.load("qtbase_zh_CN", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))
    assert translations.install("zh_CN")
    for context, source in QT_DIALOG_WORDS:
        assert qt.translate(context, source) == ""  # Qt's own lacks it, else this entry is not needed
        assert QCoreApplication.translate(context, source) != source
