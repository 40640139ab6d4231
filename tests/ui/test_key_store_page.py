"""Settings → Models → where API keys are kept: a user with no terminal switches to the encrypted key file and
unlocks it in the window, with the passphrase typed into a dialog (never stored, checked in the background)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from stockbench.llm.key_file import FILE_NAME, PASSPHRASE_ENV, FileKeys
from stockbench.store.settings import KEY_STORE
from ui.context import AppContext
from ui.dialogs.settings.passphrase_dialog import PassphraseDialog
from ui.dialogs.settings.settings_dialog import SettingsDialog

TIMEOUT = 20_000
PASSPHRASE = "correct horse battery"


@pytest.fixture
def dialog(ctx: AppContext, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> SettingsDialog:
    monkeypatch.delenv(PASSPHRASE_ENV, raising=False)
    made = SettingsDialog(ctx)
    qtbot.addWidget(made)
    made.tabs.setCurrentWidget(made.models)
    made.show()
    qtbot.waitUntil(lambda: made.models.keystore is not None, timeout=TIMEOUT)
    return made


def ok_button(asked: PassphraseDialog) -> bool:
    return asked.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()


def test_switching_to_a_new_key_file_asks_the_passphrase_twice(
    dialog: SettingsDialog, ctx: AppContext, qtbot: QtBot
) -> None:
    page = dialog.models
    assert page.keystore_state.text() == "API keys are kept in the OS keyring."
    assert page.store_buttons["file"].isVisible() and not page.store_buttons["unlock"].isVisible()
    page.store_buttons["file"].click()
    asked = page.findChild(PassphraseDialog)
    assert asked is not None and asked.new
    asked.first.setText("short")
    assert asked.problem.text() == "At least 8 characters." and not ok_button(asked)
    asked.first.setText(PASSPHRASE)
    asked.again.setText(PASSPHRASE + "x")
    assert asked.problem.text() == "The two passphrases differ." and not ok_button(asked)
    asked.again.setText(PASSPHRASE)
    assert ok_button(asked)
    asked.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: "unlocked for this session" in page.keystore_state.text(), timeout=TIMEOUT)
    home = ctx.bench.workspace.home
    assert (home / FILE_NAME).is_file() and ctx.bench.workspace.settings.get(KEY_STORE) == "file"
    assert page.store_buttons["os"].isVisible() and not page.store_buttons["file"].isVisible()
    assert PASSPHRASE.encode() not in (home / FILE_NAME).read_bytes()


def test_a_locked_key_file_is_unlocked_in_the_window_and_a_wrong_passphrase_is_said(
    ctx: AppContext, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(PASSPHRASE_ENV, raising=False)
    FileKeys(ctx.bench.workspace.home / FILE_NAME).unlock(PASSPHRASE)  # made in an earlier session
    ctx.bench.workspace.settings.set(KEY_STORE, "file")
    made = SettingsDialog(ctx)
    qtbot.addWidget(made)
    made.tabs.setCurrentWidget(made.models)
    made.show()
    page = made.models
    qtbot.waitUntil(lambda: "which is locked" in page.keystore_state.text(), timeout=TIMEOUT)
    assert page.store_buttons["unlock"].isVisible()
    page.store_buttons["unlock"].click()
    asked = page.findChild(PassphraseDialog)
    assert asked is not None and not asked.new and not asked.again.isVisible()
    asked.first.setText("not the passphrase")
    asked.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: "does not open" in asked.problem.text(), timeout=TIMEOUT)
    assert asked.isVisible() and asked.buttons.isEnabled()
    asked.first.setText(PASSPHRASE)
    asked.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: "unlocked for this session" in page.keystore_state.text(), timeout=TIMEOUT)
    assert not page.store_buttons["unlock"].isVisible()


DEBIAN = {"ID": "debian", "PRETTY_NAME": "Debian GNU/Linux 13 (trixie)"}
LIBRARY_WORDS = ("No recommended backend", "keyrings.alt", "pypi.org/project/keyring")  # the keyring library's own


def test_without_an_os_keyring_the_page_says_what_is_missing_and_how_to_get_it_in_chinese(
    ctx: AppContext, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found on main (docs/screenshots/settings-zh.png): Settings > Models in Chinese showed the keyring library's
    English sentence ("No recommended backend was available...") and not how to get a keyring."""
    import sys

    import keyring
    import keyring.backends.fail

    from stockbench.llm.records import ModelConfig
    from ui.i18n.language import Translations

    keyring.set_keyring(keyring.backends.fail.Keyring())
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr("stockbench.llm.keys._os_release", lambda: DEBIAN)
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    ctx.bench.models.add(ModelConfig("deepseek", "deepseek", "deepseek-v4-flash", None, None))
    translations = Translations()
    try:
        assert translations.install("zh_CN")
        made = SettingsDialog(ctx)
        qtbot.addWidget(made)
        page = made.models
        qtbot.waitUntil(lambda: page.keystore is not None and page.view is not None, timeout=TIMEOUT)
        said = page.keystore_state.text()
        assert said.startswith("操作系统钥匙串不可用：无法连接 Secret Service 钥匙串（GNOME Keyring / KWallet）")
        assert "在 Debian GNU/Linux 13 (trixie) 上：`sudo apt install gnome-keyring libsecret-tools`" in said
        assert "或在环境变量 STOCKBENCH_KEY_<NAME> 中给出密钥" in said
        assert not [w for w in LIBRARY_WORDS if w in said], said
        assert page.table.item(0, 5).text() == "钥匙串不可用"
    finally:
        translations.install("en")
        translations.uninstall()


def test_a_locked_key_file_is_not_called_an_unavailable_keyring(
    ctx: AppContext, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    from stockbench.llm.records import ModelConfig

    monkeypatch.delenv(PASSPHRASE_ENV, raising=False)
    FileKeys(ctx.bench.workspace.home / FILE_NAME).unlock(PASSPHRASE)  # made in an earlier session
    ctx.bench.workspace.settings.set(KEY_STORE, "file")
    ctx.bench.models.add(ModelConfig("deepseek", "deepseek", "deepseek-v4-flash", None, None))
    made = SettingsDialog(ctx)
    qtbot.addWidget(made)
    page = made.models
    qtbot.waitUntil(lambda: page.view is not None, timeout=TIMEOUT)
    assert page.view.models[0].key_source == "file_locked"
    assert page.table.item(0, 5).text() == "key file locked"
