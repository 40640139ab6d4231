"""Where an API key typed in the window will be kept, said from the workspace's actual key store (the OS keyring, or
the encrypted key file), for the dialogs that ask for a key: never "the keyring" on a machine that has none."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

if TYPE_CHECKING:
    from stockbench.llm.records import KeyStoreView

CONTEXT = "KeyStoreWords"
SENTENCES = {  # (store, available): where the key goes
    ("os", True): QT_TRANSLATE_NOOP(
        "KeyStoreWords",
        "The key stays in this computer's keyring (the system password store), never in the workspace or a log.",
    ),
    ("os", False): QT_TRANSLATE_NOOP(
        "KeyStoreWords",
        "This computer has no keyring that answers: keep keys in an encrypted key file behind a passphrase "
        "(Settings ▸ Models), or give a model its key in the environment variable %1.",
    ),
    ("file", True): QT_TRANSLATE_NOOP(
        "KeyStoreWords",
        "The key stays in this workspace's encrypted key file, behind your passphrase, never in the workspace or a "
        "log.",
    ),
    ("file", False): QT_TRANSLATE_NOOP(
        "KeyStoreWords",
        "Keys are kept in this workspace's encrypted key file, which is locked: unlock it in Settings ▸ Models to "
        "store a key.",
    ),
}


def where_keys_stay(view: KeyStoreView | None) -> str:
    """One sentence on where a key goes, in the interface's language; "" while the key store is not known yet."""
    if view is None:
        return ""
    sentence = SENTENCES[("file" if view.store == "file" else "os", view.available)]
    return QCoreApplication.translate(CONTEXT, str(sentence)).replace("%1", view.environment)


def after(sentence: str, where: str) -> str:
    """`sentence` followed by `where` (another sentence): a space between English sentences, none after a Chinese
    full stop."""
    if not where:
        return sentence
    return sentence + where if sentence.endswith(("。", "！", "？")) else f"{sentence} {where}"
