"""The market rules', the importer's, the action rules', the keyring's and the search's words from the message
catalogue (stockbench/messages.py): each typical refusal is said in Chinese, and the English stays as it was."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest

from stockbench.errors import CalendarUnknown, InvalidInput, UserError
from stockbench.evidence.documents import ActionChoice, ActionRule
from stockbench.evidence.gates import choice_problems
from stockbench.market.calendars import Calendars
from stockbench.market.fees import order_fees
from stockbench.market.instruments import identify, parse_symbol
from stockbench.market.order_rules import tick_problem
from stockbench.market.sessions import venue
from stockbench.market.tables import load_tables
from stockbench.messages import error_words, problem, rejection_words, said
from tests.engine.test_messages import ENGLISH_WORD


def _chinese(error: UserError) -> tuple[str, str]:
    message, hint = error_words(error, "zh")
    assert (message, hint) != (error.message, error.hint), f"{error.message} is not in the catalogue"
    return message, hint


def test_a_symbol_the_program_does_not_understand_is_refused_in_chinese() -> None:
    with pytest.raises(InvalidInput) as raised:
        identify("12345")
    assert raised.value.message == "'12345' is not a valid A-share code: 6 digits expected"
    assert raised.value.hint == "for a Hong Kong code write 12345.HK; A-share codes have 6 digits, e.g. 600519"
    assert _chinese(raised.value) == ("“12345”不是有效的 A 股代码：应为 6 位数字",
                                      "港股代码请写作 12345.HK；A 股代码为 6 位数字，例如 600519")  # fmt: skip
    with pytest.raises(InvalidInput) as raised:
        identify("APPLEINC")
    assert raised.value.hint.endswith("US: AAPL.US") and _chinese(raised.value)[1].endswith("美股：AAPL.US")


def test_a_day_past_the_known_calendar_is_refused_in_chinese() -> None:
    calendar = Calendars(None, load_tables()).calendar("CN")
    with pytest.raises(CalendarUnknown) as raised:
        calendar.is_session(date(2099, 1, 5))
    assert raised.value.message.startswith("the CN trading calendar is known only through ")
    assert "`stockbench rules holiday add CN DATE [--half-day | --open]`" in raised.value.hint
    message, hint = _chinese(raised.value)
    assert message.startswith("CN 交易日历只知道到 ") and message.endswith("2099-01-05 已超出")
    assert hint.startswith("请先用 `stockbench rules holiday add CN DATE [--half-day | --open]` 补记该时期的节假日")


def test_an_unknown_board_of_the_session_tables_is_refused_in_chinese() -> None:
    with pytest.raises(InvalidInput) as raised:
        venue("CN", "SH", "nowhere")
    assert raised.value.message == "exchange SH lists no board 'nowhere'"
    assert _chinese(raised.value)[0] == "交易所 SH 没有板块 'nowhere'"


def test_a_fee_question_with_a_wrong_side_is_refused_in_chinese() -> None:
    instrument = parse_symbol("600519.SH")
    with pytest.raises(InvalidInput) as raised:
        order_fees(instrument, "hold", 100, Decimal("10.00"), date(2024, 1, 2))  # type: ignore[arg-type]
    assert (raised.value.message, raised.value.hint) == ("side 'hold' is not buy or sell", "use buy or sell")
    assert _chinese(raised.value) == ("买卖方向“hold”不是 buy 或 sell", "请使用 buy 或 sell")


def test_a_price_outside_the_hong_kong_spread_table_is_a_problem_said_in_chinese() -> None:
    found = tick_problem(parse_symbol("00700.HK"), Decimal("100000"), date(2024, 1, 2), load_tables())
    assert found is not None and found.code == "price_out_of_range"
    assert found.message.startswith("100000 HKD is outside the Hong Kong spread table")
    assert said(found, "zh")[0].startswith("100000 港元超出港股价位表的范围")


def test_every_rejected_row_reason_of_the_importer_has_words_in_both_languages() -> None:
    from stockbench.data.importer import _reason

    codes = set(re.findall(r'\.then\("([a-z_]+)"\)', str(_reason())))
    assert {"bad_symbol", "duplicate_row", "high_below_open_or_close"} <= codes
    for code in codes:
        assert rejection_words(code, "en") != code and rejection_words(code, "zh") != code
        assert not ENGLISH_WORD.findall(rejection_words(code, "zh"))
    assert rejection_words("bad_date", "zh") == "日期缺失或格式不对"


def test_the_import_command_says_why_rows_were_rejected_in_chinese(tmp_path: Path) -> None:
    home, bars = tmp_path / "home", tmp_path / "bars.csv"
    bars.write_text(
        "symbol,date,open,high,low,close,prev_close,volume\n600519.SH,2024-01-02,10,9,8,9.5,9.8,100\n", encoding="utf-8"
    )
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "stockbench", "--home", str(home), "--lang", "zh", "data", "import",
                           str(bars)], check=False, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "拒收 1 行：最高价低于开盘价或收盘价（high_below_open_or_close）" in done.stdout
    assert "None" not in done.stdout  # no stored row: no span of days to name


def test_the_actions_allowed_now_are_named_in_chinese() -> None:
    refused = problem("not_tradable", symbol="000300.SH")
    rules = {"buy": ActionRule((), (refused,)), "wait": ActionRule(("flat",)), "avoid": ActionRule(("flat",))}
    [found] = choice_problems(ActionChoice("buy", ""), rules, ())
    assert found.fix == "choose a stock or fund (allowed now: wait, avoid)"
    assert said(found, "zh") == ("000300.SH 是指数，不能交易", "请选择股票或基金（当前允许：观望、回避）")


def test_the_keyring_s_platform_help_is_said_in_chinese() -> None:
    from stockbench.llm.keys import keyring_help, keyring_notes

    english = keyring_help("linux", {"ID": "ubuntu", "PRETTY_NAME": "Ubuntu 24.04"}, {})
    missing, how = keyring_notes("linux", {"ID": "ubuntu", "PRETTY_NAME": "Ubuntu 24.04"}, {})
    assert (missing.text("en"), how.text("en")) == english
    assert "there is no D-Bus session (DBUS_SESSION_BUS_ADDRESS is unset)" in english[0]
    assert missing.text("zh").startswith("无法连接 Secret Service 钥匙串（GNOME Keyring / KWallet）：没有 D-Bus 会话")
    assert how.text("zh").startswith(
        "在 Ubuntu 24.04 上：`sudo apt install gnome-keyring libsecret-tools`，然后登录桌面"
    )


def test_an_unavailable_keyring_is_refused_in_chinese(monkeypatch: pytest.MonkeyPatch) -> None:
    import keyring.errors

    from stockbench.llm import KeyringUnavailable
    from stockbench.llm import keys as module

    class Absent:
        def get_password(self, *args: Any) -> str:
            raise keyring.errors.NoKeyringError("no backend")

    monkeypatch.setattr(module, "os_backend", Absent)  # the OS keyring is the edge of the machine
    monkeypatch.setattr(module.sys, "platform", "win32")
    with pytest.raises(KeyringUnavailable) as raised:
        module.OsKeyring().get("ds")
    assert raised.value.message.startswith("the OS keyring is not available: Windows Credential Manager did not")
    assert raised.value.hint.endswith("or keep keys in an encrypted file: stockbench models keystore file")
    message, hint = error_words(raised.value, "zh")
    assert message == "操作系统钥匙串不可用：Windows Credential Manager没有应答（它总是存在）"  # no library words
    assert hint.startswith("请在你本人登录的 Windows 会话") and "STOCKBENCH_KEY_<NAME>" in hint


class _Failing(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(502)
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def failing_search() -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), _Failing)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_failed_search_is_said_in_chinese(failing_search: str) -> None:
    from stockbench.research.search import SearchFailed, query_searxng

    with pytest.raises(SearchFailed) as raised:
        query_searxng(failing_search, "白酒")
    error = raised.value
    assert (error.message, error.hint, error.kind, error.status) == (
        f"{failing_search} answered HTTP 502", "check the address (the SearXNG root)", "status", 502)  # fmt: skip
    assert error_words(error, "zh") == (f"{failing_search} 返回了 HTTP 502", "请检查地址（应为 SearXNG 的根地址）")


def test_a_search_address_with_credentials_is_refused_in_chinese() -> None:
    from stockbench.research.search_provider import searxng_root

    with pytest.raises(InvalidInput) as raised:
        searxng_root("https://me:secret@searx.example.org")
    assert _chinese(raised.value) == ("搜索地址中带有用户名和密码", "请给出不含 user:password@ 的地址")


def test_the_analytics_refusals_people_see_are_said_in_chinese() -> None:
    """The chart, the watchlist's zone column and the scan show these (they were English in the Chinese window)."""
    import polars as pl

    from stockbench.analytics.price_facts import price_facts
    from stockbench.analytics.scan import shortlist

    with pytest.raises(UserError) as raised:
        price_facts(parse_symbol("600519"), pl.DataFrame())
    assert raised.value.message == "no daily bars of 600519.SH"
    assert _chinese(raised.value) == ("没有 600519.SH 的日线", "请导入或获取它的日线")
    with pytest.raises(InvalidInput) as bad:
        shortlist(pl.DataFrame(), 0)
    assert bad.value.message == "top 0 is not a positive number of picks" and bad.value.hint == "e.g. --top 20"
    assert _chinese(bad.value) == ("入选数 0 不是正数", "例如 --top 20")
