"""Words of Qt's own dialogs that Qt's Chinese catalogue lacks: Qt 6 renamed a few of QFileDialog's labels (they
gained a mnemonic) and `qtbase_zh_CN.qm` still carries only the old ones, so the Chinese file dialog said "Look in"
and "Files of type". Declared here in Qt's own context, they are extracted into our catalogue, translated there,
and found by Qt's `tr()` once Qt's catalogue has no translation for them.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

QT_DIALOG_WORDS: tuple[tuple[str, str], ...] = (
    ("QFileDialog", str(QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"))),
    ("QFileDialog", str(QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"))),
)
