"""Settings → Search: the SearXNG address, or Brave with its key, is tested in the background against a loopback
SearXNG-like or Brave-like server (the window keeps answering meanwhile), saved (Brave's key into the key store,
never the workspace), cleared, and a failure is said in the interface's language."""

from __future__ import annotations

from collections.abc import Iterator

import keyring
import pytest
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from stockbench.store.settings import SEARCH_PROVIDER, SEARCH_URL
from tests.brave_server import BraveServer
from tests.search_server import SearchServer
from ui.context import AppContext
from ui.dialogs.settings.settings_dialog import SettingsDialog

RESULTS = [{"title": "示例", "url": "https://news.example.cn/a/1", "content": "片段"},
           {"title": "示例二", "url": "https://news.example.cn/a/2", "content": "片段二"}]  # fmt: skip
TIMEOUT = 10_000


@pytest.fixture
def searxng() -> Iterator[SearchServer]:
    server = SearchServer(RESULTS).start()
    yield server
    server.stop()


@pytest.fixture
def dialog(ctx: AppContext, qtbot: QtBot) -> SettingsDialog:
    made = SettingsDialog(ctx)
    qtbot.addWidget(made)
    qtbot.waitUntil(lambda: made.search.config is not None, timeout=TIMEOUT)
    made.tabs.setCurrentWidget(made.search)
    return made


def test_the_test_button_queries_the_typed_address_off_the_ui_thread(
    dialog: SettingsDialog, ctx: AppContext, qtbot: QtBot, searxng: SearchServer
) -> None:
    page = dialog.search
    assert dialog.tabs.tabText(dialog.tabs.indexOf(page)) == "Search" and page.url.text() == ""
    searxng.delay = 0.5
    page.url.setText(searxng.url)
    page.test_button.click()
    # the click returned before the server answered: the query runs in the background
    assert page.result.text() == "Testing…" and not page.test_button.isEnabled() and searxng.queries == []
    qtbot.waitUntil(lambda: page.result.text().startswith("OK:"), timeout=TIMEOUT)
    assert page.result.text().startswith(f"OK: {searxng.url} answered 2 results in ")
    assert page.test_button.isEnabled() and searxng.queries[-1]["format"] == ["json"]
    assert ctx.bench.workspace.settings.get(SEARCH_URL) is None  # a test saves nothing

    page.save_button.click()
    qtbot.waitUntil(lambda: page.result.text().startswith("Saved"), timeout=TIMEOUT)
    assert ctx.bench.workspace.settings.get(SEARCH_URL) == searxng.url
    page.clear_button.click()
    qtbot.waitUntil(lambda: page.result.text().startswith("Cleared"), timeout=TIMEOUT)
    assert ctx.bench.workspace.settings.get(SEARCH_URL) is None and page.url.text() == ""


def test_a_failure_and_a_bad_address_are_said(dialog: SettingsDialog, qtbot: QtBot, searxng: SearchServer) -> None:
    page = dialog.search
    searxng.status = 403
    page.url.setText(searxng.url)
    page.test_button.click()
    qtbot.waitUntil(lambda: page.result.text().startswith("Failed:"), timeout=TIMEOUT)
    assert page.result.text() == (f"Failed: {searxng.url} refused the JSON format (HTTP 403)\n"
                                  "enable it in SearXNG's settings.yml: search: formats: [html, json]")  # fmt: skip
    page.url.setText("https://me:pw@searx.example.org")
    page.save_button.click()
    qtbot.waitUntil(lambda: page.result.text().startswith("Not accepted"), timeout=TIMEOUT)
    assert page.result.text() == "Not accepted: the search address carries credentials"


def test_the_page_in_chinese(ctx: AppContext, qtbot: QtBot, searxng: SearchServer) -> None:
    from ui.i18n.language import Translations

    translations = Translations()
    try:
        assert translations.install("zh_CN")
        made = SettingsDialog(ctx)
        qtbot.addWidget(made)
        page = made.search
        qtbot.waitUntil(lambda: page.config is not None, timeout=TIMEOUT)
        assert made.tabs.tabText(made.tabs.indexOf(page)) == "搜索"
        assert page.test_button.text() == "测试"
        searxng.status = 403
        page.url.setText(searxng.url)
        page.test_button.click()
        qtbot.waitUntil(lambda: page.result.text().startswith("失败："), timeout=TIMEOUT)
        # the catalogue's words (stockbench.messages search_forbidden), and no English reason after them
        said = f"失败：{searxng.url} 拒绝了 JSON 格式（HTTP 403）\n请在 SearXNG 的 settings.yml: search: formats: "
        assert page.result.text() == said + "[html, json] 中启用它"
        searxng.status = None
        page.test_button.click()
        qtbot.waitUntil(lambda: page.result.text().startswith("正常："), timeout=TIMEOUT)
        assert "返回 2 条结果" in page.result.text()
        searxng.stop()  # nothing answers there now
        page.test_button.click()
        qtbot.waitUntil(lambda: "无法连接" in page.result.text(), timeout=TIMEOUT)
        assert page.result.text() == f"失败：无法连接 {searxng.url}：连接被拒绝\n请检查地址，并确认服务器正在运行"
    finally:
        translations.install("en")
        translations.uninstall()


def test_an_address_typed_while_the_saved_one_loads_is_kept(ctx: AppContext, qtbot: QtBot) -> None:
    ctx.bench.workspace.settings.set(SEARCH_URL, "http://127.0.0.1:9/saved")
    made = SettingsDialog(ctx)
    qtbot.addWidget(made)
    qtbot.keyClicks(made.search.url, "http://127.0.0.1:9/typed")  # before the saved address has arrived
    qtbot.waitUntil(lambda: made.search.config is not None, timeout=TIMEOUT)
    assert made.search.url.text() == "http://127.0.0.1:9/typed"
    untouched = SettingsDialog(ctx)
    qtbot.addWidget(untouched)
    qtbot.waitUntil(lambda: untouched.search.config is not None, timeout=TIMEOUT)
    assert untouched.search.url.text() == "http://127.0.0.1:9/saved"


BRAVE_KEY = "BSApageTestKey0123456789"
BRAVE_RESULTS = [{"title": "示例", "url": "https://news.example.cn/a/1", "description": "片段"}]


@pytest.fixture
def brave() -> Iterator[BraveServer]:
    server = BraveServer(BRAVE_KEY, BRAVE_RESULTS).start()
    yield server
    server.stop()


def test_brave_is_tested_saved_with_its_key_in_the_key_store_and_cleared(
    dialog: SettingsDialog, ctx: AppContext, qtbot: QtBot, brave: BraveServer
) -> None:
    page = dialog.search
    page.provider.setCurrentIndex(page.provider.findData("brave"))
    page.provider.activated.emit(page.provider.currentIndex())
    assert page.key.isVisibleTo(page) and page.key.echoMode() == QLineEdit.EchoMode.Password
    page.url.setText(brave.url)
    page.key.setText("BSAwrongKey000000")
    page.test_button.click()
    qtbot.waitUntil(lambda: page.result.text().startswith("Failed:"), timeout=TIMEOUT)
    assert page.result.text().startswith("Failed: the key was refused (HTTP 401)\ncheck the key in the Brave Search")
    brave.rate_limited = True
    page.key.setText(BRAVE_KEY)
    page.test_button.click()
    qtbot.waitUntil(lambda: "rate limited" in page.result.text(), timeout=TIMEOUT)
    brave.rate_limited = False
    page.test_button.click()
    qtbot.waitUntil(lambda: page.result.text().startswith("OK:"), timeout=TIMEOUT)
    assert page.result.text().startswith(f"OK: {brave.url} answered 1 results in ")
    assert brave.headers[-1]["x-subscription-token"] == BRAVE_KEY
    assert keyring.get_password("stockbench", "search-brave") is None  # a test stores nothing

    page.save_button.click()
    assert page.key.text() == ""  # the key left the widget as Save was pressed
    qtbot.waitUntil(lambda: page.result.text().startswith("Saved"), timeout=TIMEOUT)
    assert keyring.get_password("stockbench", "search-brave") == BRAVE_KEY
    settings = ctx.bench.workspace.settings
    assert (settings.get(SEARCH_URL), settings.get(SEARCH_PROVIDER)) == (brave.url, "brave")
    rows = ctx.bench.workspace.db.fetchall("SELECT key, value FROM settings")
    assert all(BRAVE_KEY not in f"{k} {v}" for k, v in rows)
    assert page.key.placeholderText() == "stored: leave blank to keep it"
    page.test_button.click()  # blank key: the stored one is used
    qtbot.waitUntil(lambda: page.result.text().startswith("OK:"), timeout=TIMEOUT)

    page.clear_button.click()
    qtbot.waitUntil(lambda: page.result.text().startswith("Cleared"), timeout=TIMEOUT)
    assert settings.get(SEARCH_URL) is None and keyring.get_password("stockbench", "search-brave") is None


def test_brave_in_chinese(ctx: AppContext, qtbot: QtBot, brave: BraveServer) -> None:
    from ui.i18n.language import Translations

    ctx.bench.search.set_brave("BSAwrongKey000000", brave.url)
    translations = Translations()
    try:
        assert translations.install("zh_CN")
        made = SettingsDialog(ctx)
        qtbot.addWidget(made)
        page = made.search
        qtbot.waitUntil(lambda: page.config is not None, timeout=TIMEOUT)
        assert page.choice == "brave" and page.url.text() == brave.url
        assert page.address_label.text() == "Brave Search API 地址（留空：Brave 官方地址）"
        page.test_button.click()
        qtbot.waitUntil(lambda: page.result.text().startswith("失败："), timeout=TIMEOUT)
        assert page.result.text().startswith("失败：密钥被拒绝（HTTP 401）\n请在 Brave Search API 控制台核对密钥")
        assert "refused" not in page.result.text()
    finally:
        translations.install("en")
        translations.uninstall()
