from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from stockbench.llm.client import close_clients, import_litellm
from tests.conftest import MemoryKeyring
from tests.llm_server.server import LlmServer, Reply
from ui.context import AppContext
from ui.dialogs.settings.add_model_dialog import ModelDialog
from ui.dialogs.settings.settings_dialog import SettingsDialog

KEY = "sk-settings-0123456789abcdef"


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
def dialog(ctx: AppContext, qtbot: QtBot) -> SettingsDialog:
    made = SettingsDialog(ctx)
    qtbot.addWidget(made)
    qtbot.waitUntil(lambda: made.models.view is not None, timeout=5000)
    return made


def add_through_the_form(dialog: SettingsDialog, qtbot: QtBot, name: str, api_base: str, key: str) -> ModelDialog:
    form = dialog.models.open_add()
    assert form is not None
    form.name.setText(name)
    form.provider.setCurrentIndex(form.provider.findData("openai_compatible"))
    form.model.setText("test-model")
    form.api_base.setText(api_base)
    form.key.setText(key)
    return form


def test_adding_a_model_stores_its_key_in_the_keyring_only(
    dialog: SettingsDialog, ctx: AppContext, qtbot: QtBot, llm_server: LlmServer, memory_keyring: MemoryKeyring
) -> None:
    form = add_through_the_form(dialog, qtbot, "local", llm_server.base_url, KEY)
    form.buttons.button(form.buttons.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: dialog.models.table.rowCount() == 1, timeout=5000)
    table = dialog.models.table
    assert [table.item(0, c).text() for c in (0, 1, 2, 5)] == ["local", "openai_compatible", "test-model", "stored"]
    assert memory_keyring.entries[("stockbench", "local")] == KEY
    stored = json.dumps(ctx.bench.workspace.settings.all())
    assert "local" in stored and KEY not in stored
    assert dialog.models.default_model.findData("local") >= 0


def test_test_connection_talks_to_the_configured_endpoint(
    dialog: SettingsDialog, qtbot: QtBot, llm_server: LlmServer
) -> None:
    llm_server.script(Reply.text("ok"))
    form = add_through_the_form(dialog, qtbot, "local", llm_server.base_url, KEY)
    form.buttons.button(form.buttons.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: dialog.models.table.rowCount() == 1, timeout=5000)
    dialog.models.table.selectRow(0)
    dialog.models.test_selected()
    qtbot.waitUntil(lambda: "answered" in dialog.models.result.text(), timeout=30_000)
    assert dialog.models.result.text().startswith("local answered in ")
    assert "“ok”" in dialog.models.result.text()
    assert llm_server.chats[-1].authorization_is(f"Bearer {KEY}")


def test_a_failing_connection_says_why_without_the_key(
    dialog: SettingsDialog, qtbot: QtBot, llm_server: LlmServer
) -> None:
    llm_server.script(Reply.failing(401, "invalid api key"))
    form = add_through_the_form(dialog, qtbot, "local", llm_server.base_url, KEY)
    form.buttons.button(form.buttons.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: dialog.models.table.rowCount() == 1, timeout=5000)
    dialog.models.table.selectRow(0)
    dialog.models.test_selected()
    qtbot.waitUntil(lambda: dialog.models.result.text().startswith("Connection failed"), timeout=30_000)
    assert KEY not in dialog.models.result.text()


def test_an_invalid_model_is_refused_in_the_form(
    dialog: SettingsDialog, ctx: AppContext, qtbot: QtBot, memory_keyring: MemoryKeyring
) -> None:
    form = add_through_the_form(dialog, qtbot, "Bad Name", "http://127.0.0.1:9/v1", KEY)
    form.buttons.button(form.buttons.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: "cannot name a model" in form.error.text(), timeout=5000)
    assert form.isVisible() and memory_keyring.entries == {}
    assert not ctx.bench.workspace.settings.get("models")


def test_removing_a_model_deletes_its_key(
    dialog: SettingsDialog, qtbot: QtBot, llm_server: LlmServer, memory_keyring: MemoryKeyring
) -> None:
    form = add_through_the_form(dialog, qtbot, "local", llm_server.base_url, KEY)
    form.buttons.button(form.buttons.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: dialog.models.table.rowCount() == 1, timeout=5000)
    dialog.models.table.selectRow(0)
    dialog.models.buttons["remove"].click()
    qtbot.waitUntil(lambda: dialog.models.table.rowCount() == 0, timeout=5000)
    assert memory_keyring.entries == {}


def test_research_defaults_are_saved(dialog: SettingsDialog, ctx: AppContext, qtbot: QtBot) -> None:
    dialog.models.max_cost.setText("2.50")
    dialog.models.max_cost.editingFinished.emit()
    qtbot.waitUntil(lambda: ctx.bench.workspace.settings.get("research.default_max_cost") == "2.50", timeout=5000)
    dialog.models.max_cost.setText("lots")
    dialog.models.max_cost.editingFinished.emit()
    assert "is not a number" in dialog.models.result.text()
    assert ctx.bench.workspace.settings.get("research.default_model", "offline") == "offline"


def test_source_order_is_saved(dialog: SettingsDialog, ctx: AppContext, qtbot: QtBot) -> None:
    page = dialog.sources
    qtbot.waitUntil(lambda: page.list.count() > 2, timeout=5000)
    first, second = page.order()[:2]
    page.list.setCurrentRow(1)
    page._move(-1)
    page.save()
    expected = [second, first, *page.order()[2:]]
    qtbot.waitUntil(lambda: ctx.bench.workspace.settings.get("data.source_preference") == expected, timeout=5000)


def test_endpoints_show_their_state_and_a_base_url_and_on_off_are_stored_off_the_ui_thread(
    dialog: SettingsDialog, ctx: AppContext, qtbot: QtBot
) -> None:
    page = dialog.sources
    book = ctx.bench.data.sources
    for _ in range(book.rule.failures):
        book.failed(book.source("bars.tencent"), "http_status", "HTTP 501")
    dialog.sources = page = type(page)(ctx, dialog)
    qtbot.waitUntil(lambda: len(page.rows) == len(book.sources()), timeout=5000)
    assert page.state_of("bars.tencent") == "resting" and page.state_of("quote.sina") == "ok"
    assert "HTTP 501" in next(r.last_error for r in page.rows if r.name == "bars.tencent")
    page.choose("bars.eastmoney")
    assert page.base_url.text() == "https://push2his.eastmoney.com" and page.enabled.isChecked()
    page.base_url.setText("https://mirror.example.com/em")
    page.enabled.setChecked(False)
    page.apply_change()
    qtbot.waitUntil(lambda: page.result.text() == "Saved.", timeout=5000)
    changed = book.source("bars.eastmoney")
    assert (changed.base_url, changed.enabled, page.state_of("bars.eastmoney")) == (
        "https://mirror.example.com/em", False, "disabled")  # fmt: skip
    page.base_url.setText("ftp://mirror")
    page.apply_change()
    qtbot.waitUntil(lambda: page.result.text().startswith("Not accepted"), timeout=5000)
    assert "http/https" in page.result.text() and book.source("bars.eastmoney").base_url.startswith("https://mirror")


def test_an_endpoint_is_asked_earlier_or_later_by_the_cli_s_engine_call_off_the_ui_thread(
    dialog: SettingsDialog, ctx: AppContext, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "Ask earlier" gives the chosen endpoint the place before its own in its service, through the one call
    `stockbench data sources set NAME --order N` makes (SourceBook.change), on a worker thread; the chain the fetches
    follow changes with it, and the endpoint stays chosen."""
    page = dialog.sources
    book = ctx.bench.data.sources
    qtbot.waitUntil(lambda: len(page.rows) == len(book.sources()), timeout=5000)
    calls: list[tuple[threading.Thread, str, dict[str, object]]] = []
    change = book.change

    def recorded(name: str, **given: Any) -> Any:
        calls.append((threading.current_thread(), name, given))
        return change(name, **given)

    monkeypatch.setattr(book, "change", recorded)
    assert [s.name for s in book.chain("bars", "CN")] == ["bars.tencent", "bars.eastmoney", "bars.eastmoney_delay"]
    page.choose("bars.eastmoney_delay")
    page.earlier.click()
    qtbot.waitUntil(lambda: page.result.text() == "Saved.", timeout=5000)
    assert [s.name for s in book.chain("bars", "CN")] == ["bars.tencent", "bars.eastmoney_delay", "bars.eastmoney"]
    [(thread, name, given)] = calls
    assert (name, given) == ("bars.eastmoney_delay", {"base_url": None, "enabled": None, "order": 3})
    assert thread is not threading.main_thread()
    assert page.rows[page.endpoints.currentRow()].name == "bars.eastmoney_delay"
    assert ctx.bench.workspace.settings.get("data.source_preference") is None  # the read preference is not touched
    page.result.clear()
    page.later.click()
    qtbot.waitUntil(lambda: page.result.text() == "Saved.", timeout=5000)
    assert [s.name for s in book.chain("bars", "CN")] == ["bars.tencent", "bars.eastmoney", "bars.eastmoney_delay"]


def test_fee_terms_apply_from_now(ctx: AppContext, qtbot: QtBot) -> None:
    ctx.bench.ledger.add_account("main", "CNY")
    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    page = dialog.fees
    qtbot.waitUntil(lambda: page.choice.count() == 1, timeout=5000)
    assert page.choice.itemText(0) == "main · CN"
    page.rate.setText("0.0001")
    page.minimum.setText("0")
    page.apply()
    qtbot.waitUntil(lambda: page.status.text() == "Saved.", timeout=5000)
    terms = ctx.bench.ledger.fee_settings("main", "CN", ctx.bench.clock.now())
    assert (terms.commission_rate, terms.commission_min) == (Decimal("0.0001"), Decimal(0))
    page.rate.setText("-1")
    page.apply()
    assert page.status.text() == "commission rate -1 is negative\nenter zero or more"
    page.rate.setText("０.０００２")
    assert page.notes.text() == "commission rate '０.０００２' was read as 0.0002 (full-width characters made plain)"
    page.minimum.setText("1e1")
    page.apply()
    assert page.status.text() == "minimum commission '1e1' is written with an exponent\nwrite 10"


def test_appearance_choices_are_emitted(dialog: SettingsDialog, qtbot: QtBot) -> None:
    page = dialog.appearance
    assert page.candles.currentData() == "red_up"  # China's convention by default
    with qtbot.waitSignal(dialog.candles_chosen) as signal:
        page.candles.setCurrentIndex(page.candles.findData("green_up"))
        page.candles.activated.emit(page.candles.currentIndex())
    assert signal.args == ["green_up"]
    with qtbot.waitSignal(dialog.language_chosen) as signal:
        page.language.activated.emit(page.language.findData("zh_CN"))
    assert QSettings().value("ui/language") == "en"  # the dialog only asks; the window applies and stores


def test_the_window_applies_candle_colours(ctx: AppContext, qtbot: QtBot) -> None:
    from ui.main_window import MainWindow

    window = MainWindow(settings=QSettings())
    qtbot.addWidget(window)
    window._set_candles("green_up")
    assert QSettings().value("chart/candle_colors") == "green_up"


def test_the_open_dialog_is_retranslated_when_the_language_changes(ctx: AppContext, qtbot: QtBot) -> None:
    from ui.main_window import MainWindow

    window = MainWindow(settings=QSettings())
    window.presenter.interactive = False
    qtbot.addWidget(window)
    window.set_language("en")
    made = SettingsDialog(ctx, window)
    qtbot.addWidget(made)
    qtbot.waitUntil(lambda: made.models.view is not None, timeout=5000)
    made.appearance.theme.setCurrentIndex(2)
    assert (made.windowTitle(), made.tabs.tabText(made.tabs.indexOf(made.appearance))) == ("Settings", "Appearance")
    window.set_language("zh_CN")
    try:
        qtbot.waitUntil(lambda: made.windowTitle() == "设置", timeout=2000)  # Qt posts the LanguageChange
        assert made.tabs.tabText(made.tabs.indexOf(made.appearance)) == "外观"
        assert made.appearance.theme.currentText() == "深色"  # the choice made stays, in the new words
        assert made.appearance.labels[0].text() == "语言"
        assert made.models.buttons["test"].text() != "Test connection"
        assert made.models.default_model.itemText(0) != "Offline rules model"
        assert made.fees.apply_button.text() != "Apply from now"
        assert made.sources.buttons[0].text() != "Move up"
        assert (made.sources.earlier.text(), made.sources.later.text()) == ("提前询问", "推后询问")
        assert (made.tabs.tabText(1), made.search.test_button.text()) == ("搜索", "测试")
    finally:
        window.set_language("en")
        window.shutdown()
    qtbot.waitUntil(lambda: made.windowTitle() == "Settings", timeout=2000)


def test_a_key_from_the_environment_is_shown_as_such(
    dialog: SettingsDialog, qtbot: QtBot, llm_server: LlmServer, memory_keyring: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("STOCKBENCH_KEY_LOCAL", KEY)
    form = add_through_the_form(dialog, qtbot, "local", llm_server.base_url, "")
    form.buttons.button(form.buttons.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: dialog.models.table.rowCount() == 1, timeout=5000)
    assert dialog.models.table.item(0, 5).text() == "from the environment"
    assert memory_keyring.entries == {}
