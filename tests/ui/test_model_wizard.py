"""The "Connect your model" dialog: presets fill the form, a test talks to a real local OpenAI-compatible server (and
says specifically why it failed), and Save puts the key in the keyring and nowhere else."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from stockbench.llm.client import close_clients, import_litellm
from stockbench.llm.models import ModelConfig, ModelRegistry
from tests.conftest import MemoryKeyring
from tests.llm_server.server import LlmServer, Reply
from ui.context import AppContext
from ui.dialogs.model_wizard_dialog import ModelWizardDialog

KEY = "sk-wizard-0123456789abcdef"
TIMEOUT = 30_000


@pytest.fixture(scope="module", autouse=True)
def litellm_loaded() -> None:
    """litellm takes seconds to import the first time: pay that before any test's clock starts."""
    import_litellm()


@pytest.fixture
def llm_server() -> Iterator[LlmServer]:
    server = LlmServer().start()
    yield server
    close_clients()
    server.stop()


@pytest.fixture
def wizard(ctx: AppContext, qtbot: QtBot) -> ModelWizardDialog:
    made = ModelWizardDialog(ctx)
    qtbot.addWidget(made)
    qtbot.waitUntil(lambda: made.preset() is not None, timeout=5000)
    return made


def fill_in(wizard: ModelWizardDialog, api_base: str, key: str = KEY) -> None:
    """The OpenAI preset pointed at the local server (which speaks OpenAI's chat completions)."""
    wizard.choose_preset("openai")
    wizard.model_combo.setEditText("test-model")
    wizard.api_base_combo.setEditText(api_base)
    wizard.key_edit.setText(key)


def closed_port_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"  # nothing listens there any more


def test_presets_fill_the_fields(wizard: ModelWizardDialog) -> None:
    assert [wizard.preset_combo.itemData(i) for i in range(wizard.preset_combo.count())] == [
        "deepseek", "openai", "kimi", "qwen", "minimax", "ollama",
    ]  # fmt: skip
    assert (wizard.name_edit.text(), wizard.model_combo.currentText(), wizard.api_base_combo.currentText()) == (
        "deepseek", "deepseek-v4-flash", "https://api.deepseek.com",
    )  # fmt: skip
    assert wizard.key_edit.isEnabled() and wizard.key_edit.echoMode() == QLineEdit.EchoMode.Password
    assert "platform.deepseek.com" in wizard.where_label.text()
    wizard.choose_preset("kimi")
    assert wizard.model_combo.currentText() == "kimi-k2.6"
    bases = [wizard.api_base_combo.itemText(i) for i in range(wizard.api_base_combo.count())]
    assert bases == ["https://api.moonshot.cn/v1", "https://api.moonshot.ai/v1"]
    wizard.choose_preset("ollama")
    assert (wizard.name_edit.text(), wizard.model_combo.currentText(), wizard.api_base_combo.currentText()) == (
        "ollama", "qwen3:8b", "http://127.0.0.1:11434/v1",
    )  # fmt: skip
    assert not wizard.key_edit.isEnabled() and "ollama pull qwen3:8b" in wizard.where_label.text()
    config = wizard.config()
    assert (config.provider, config.model, config.api_base) == ("ollama", "qwen3:8b", None)


def test_a_taken_name_is_not_suggested(ctx: AppContext, qtbot: QtBot) -> None:
    ModelRegistry(ctx.bench.workspace.settings).add(ModelConfig("qwen", "qwen", "qwen-plus"))
    wizard = ModelWizardDialog(ctx, preset="qwen")
    qtbot.addWidget(wizard)
    qtbot.waitUntil(lambda: wizard.preset() is not None, timeout=5000)
    assert wizard.name_edit.text() == "qwen-2"


def test_test_connection_reaches_the_local_server_and_shows_the_latency(
    wizard: ModelWizardDialog, ctx: AppContext, qtbot: QtBot, llm_server: LlmServer, memory_keyring: MemoryKeyring
) -> None:
    llm_server.script(Reply.text("ok"))
    fill_in(wizard, llm_server.base_url)
    wizard.test_button.click()
    qtbot.waitUntil(lambda: wizard.result_label.text().startswith("Connected in "), timeout=TIMEOUT)
    assert "“ok”" in wizard.result_label.text() and " ms" in wizard.result_label.text()
    assert llm_server.chats[-1].authorization_is(f"Bearer {KEY}")
    assert wizard.test_button.isEnabled()
    assert memory_keyring.entries == {} and not ctx.bench.workspace.settings.get("models")  # a test saves nothing


def test_a_wrong_api_base_says_it_could_not_be_reached(wizard: ModelWizardDialog, qtbot: QtBot) -> None:
    fill_in(wizard, closed_port_url())
    wizard.test_button.click()
    qtbot.waitUntil(lambda: wizard.result_label.text().startswith("Connection failed"), timeout=TIMEOUT)
    text = wizard.result_label.text()
    assert "failed (connection)" in text and "The API base could not be reached" in text
    assert KEY not in text


def test_a_refused_key_says_so(wizard: ModelWizardDialog, qtbot: QtBot, llm_server: LlmServer) -> None:
    llm_server.script(Reply.failing(401, "invalid api key", kind="invalid_request_error"))
    fill_in(wizard, llm_server.base_url)
    wizard.test_button.click()
    qtbot.waitUntil(lambda: wizard.result_label.text().startswith("Connection failed"), timeout=TIMEOUT)
    assert (
        "failed (auth)" in wizard.result_label.text() and "The provider refused the key" in wizard.result_label.text()
    )
    assert KEY not in wizard.result_label.text()


def test_a_missing_key_is_asked_for_before_any_request(
    wizard: ModelWizardDialog, llm_server: LlmServer, memory_keyring: MemoryKeyring
) -> None:
    fill_in(wizard, llm_server.base_url, key="")
    wizard.test_button.click()
    wizard.save_button.click()
    assert wizard.result_label.text() == "Paste the API key first."
    assert llm_server.requests == [] and memory_keyring.entries == {}


def test_save_stores_the_key_in_the_keyring_and_in_no_file(
    wizard: ModelWizardDialog,
    qtbot: QtBot,
    llm_server: LlmServer,
    memory_keyring: MemoryKeyring,
    tmp_path: Path,
) -> None:
    fill_in(wizard, llm_server.base_url)
    wizard.name_edit.setText("mine")
    with qtbot.waitSignal(wizard.model_saved, timeout=TIMEOUT) as saved:
        wizard.save_button.click()
    assert saved.args == ["mine"] and wizard.result() == ModelWizardDialog.DialogCode.Accepted
    assert memory_keyring.entries == {("stockbench", "mine"): KEY}
    settings = wizard.ctx.bench.workspace.settings
    assert settings.get("models")["mine"] == {"name": "mine", "provider": "openai", "model": "test-model",
                                              "api_base": llm_server.base_url, "fallback": None}  # fmt: skip
    assert settings.get("research.default_model") == "mine"
    assert KEY not in json.dumps(settings.all())
    files = [p for p in tmp_path.rglob("*") if p.is_file()]  # the workspace, its logs and the Qt settings
    assert any(p.suffix == ".duckdb" for p in files)
    assert [p for p in files if KEY.encode() in p.read_bytes()] == []


def test_a_refused_save_keeps_the_dialog_open(wizard: ModelWizardDialog, qtbot: QtBot, llm_server: LlmServer) -> None:
    fill_in(wizard, llm_server.base_url)
    wizard.name_edit.setText("Not Valid")
    wizard.save_button.click()
    qtbot.waitUntil(lambda: wizard.result_label.text().startswith("Not saved"), timeout=TIMEOUT)
    assert "cannot name a model" in wizard.result_label.text() and wizard.save_button.isEnabled()


def test_the_settings_models_page_opens_the_wizard(ctx: AppContext, qtbot: QtBot) -> None:
    from ui.dialogs.settings.settings_dialog import SettingsDialog

    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    wizard = dialog.models.open_wizard()
    qtbot.waitUntil(lambda: wizard.preset() is not None, timeout=5000)
    wizard.choose_preset("ollama")
    wizard.name_edit.setText("local")
    wizard.save_button.click()
    qtbot.waitUntil(lambda: dialog.models.table.rowCount() == 1, timeout=TIMEOUT)
    assert dialog.models.table.item(0, 0).text() == "local"
    assert dialog.models.default_model.currentData() == "local"


def test_the_welcome_offers_to_connect_a_model_after_the_demo_opens(qtbot: QtBot, demo_home: Path) -> None:
    from PySide6.QtCore import QSettings

    from ui.dialogs.welcome_dialog import WelcomeDialog
    from ui.main_window import MainWindow

    window = MainWindow(settings=QSettings())
    qtbot.addWidget(window)
    action = window.actions_by_name["connect_model"]
    assert action in window.menus["file"].actions() and action.text() == "&Connect Your Model…"
    window.open_workspace(demo_home, "demo", welcome=True)
    welcome = window.findChild(WelcomeDialog)
    assert isinstance(welcome, WelcomeDialog) and welcome.connect_button.isHidden()
    try:
        with qtbot.waitSignal(window.workspace_attached, timeout=30_000):
            welcome.choose_demo()
        assert welcome.isVisible() and welcome.connect_button.isVisible() and welcome.later_button.isVisible()
        assert welcome.result() == WelcomeDialog.DialogCode.Accepted  # the workspace is handed over already
        welcome.connect_button.click()
        wizard = window.findChild(ModelWizardDialog)
        assert isinstance(wizard, ModelWizardDialog) and wizard.isVisible() and not welcome.isVisible()
        qtbot.waitUntil(lambda: wizard.preset() is not None, timeout=5000)
        wizard.reject()
        action.trigger()  # the File menu opens it too
        assert any(d.isVisible() for d in window.findChildren(ModelWizardDialog))
    finally:
        window.shutdown()


def test_closing_the_last_welcome_step_keeps_the_workspace(qtbot: QtBot, tmp_path: Path) -> None:
    from ui.dialogs.welcome_dialog import WelcomeDialog

    welcome = WelcomeDialog()
    qtbot.addWidget(welcome)
    with qtbot.waitSignal(welcome.workspace_opened, timeout=10_000) as opened:
        welcome.choose_folder(tmp_path / "fresh", existing=False)
    try:
        assert not welcome.connect_button.isHidden()
        with qtbot.assertNotEmitted(welcome.rejected):
            welcome.reject()  # Esc on the last step only skips it
        assert welcome.result() == WelcomeDialog.DialogCode.Accepted
    finally:
        opened.args[0].close()


@pytest.fixture
def no_keyring() -> None:
    """A machine where no OS keyring answers (the keyring library's fail backend)."""
    import keyring
    import keyring.backends.fail

    keyring.set_keyring(keyring.backends.fail.Keyring())


NO_KEYRING = "This computer has no keyring that answers: keep keys in an encrypted key file behind a passphrase"
IN_KEYRING = "The key stays in this computer's keyring"


def test_the_welcome_says_where_the_key_stays_from_the_actual_key_store(
    qtbot: QtBot, tmp_path: Path, no_keyring: None
) -> None:
    """Found on main: the welcome's last step said "The key stays in this computer's keyring" on a machine that has
    no keyring at all."""
    from ui.dialogs.welcome_dialog import WelcomeDialog

    welcome = WelcomeDialog()
    qtbot.addWidget(welcome)
    with qtbot.waitSignal(welcome.workspace_opened, timeout=10_000) as opened:
        welcome.choose_folder(tmp_path / "fresh", existing=False)
    try:
        said = welcome.connect_button.description()
        assert NO_KEYRING in said and "STOCKBENCH_KEY_<NAME>" in said and IN_KEYRING not in said
    finally:
        opened.args[0].close()


def test_the_welcome_names_the_keyring_where_there_is_one(qtbot: QtBot, tmp_path: Path) -> None:
    from ui.dialogs.welcome_dialog import WelcomeDialog

    welcome = WelcomeDialog()
    qtbot.addWidget(welcome)
    with qtbot.waitSignal(welcome.workspace_opened, timeout=10_000) as opened:
        welcome.choose_folder(tmp_path / "fresh", existing=False)
    try:
        assert IN_KEYRING in welcome.connect_button.description()
    finally:
        opened.args[0].close()


def test_the_wizard_says_where_the_key_stays_without_a_keyring(ctx: AppContext, qtbot: QtBot, no_keyring: None) -> None:
    made = ModelWizardDialog(ctx)
    qtbot.addWidget(made)
    qtbot.waitUntil(lambda: made.preset() is not None, timeout=5000)
    assert NO_KEYRING in made.intro.text() and IN_KEYRING not in made.intro.text()
