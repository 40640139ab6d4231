"""`stockbench search set|show|test|clear` against a SearXNG-like and a Brave-API-like server on loopback: the
address is checked and stored, Brave's key goes to the key store (never the workspace), the test reports ok with
the result count or the failure's reason, and research reads the same settings."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest

from stockbench.cli.main import run
from stockbench.store.settings import SEARCH_URL
from stockbench.workbench import Workbench
from tests.brave_server import BraveServer
from tests.search_server import SearchServer

RESULTS = [{"title": "示例", "url": "https://news.example.cn/a/1", "content": "片段"}]
NONE = {"provider": None, "url": None, "base_url": None, "key_source": None, "configured": False}


@pytest.fixture
def searxng() -> Iterator[SearchServer]:
    server = SearchServer(RESULTS).start()
    yield server
    server.stop()


@pytest.fixture
def call(home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    def invoke(*args: str, code: int = 0, stdin: str | None = None) -> Any:
        if stdin is not None:
            monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        result = run([*args, "--json"])
        captured = capsys.readouterr()
        assert result == code, captured.err
        return json.loads(captured.out)

    return invoke


def test_set_show_test_clear(call: Any, searxng: SearchServer, home: Path) -> None:
    assert call("search", "show") == NONE
    assert call("search", "set", "--searxng", f"{searxng.url}/search/") == {
        "provider": "searxng", "url": searxng.url, "base_url": searxng.url, "key_source": None,
        "configured": True}  # fmt: skip
    assert call("search", "show")["url"] == searxng.url
    tested = call("search", "test")
    assert (tested["ok"], tested["results"], tested["reason"], tested["url"]) == (True, 1, None, searxng.url)
    assert isinstance(tested["latency_ms"], int)
    assert searxng.queries[-1]["format"] == ["json"] and searxng.queries[-1]["q"] == [tested["query"]]
    with Workbench.open(home) as bench:  # research reads the same setting
        assert bench.workspace.settings.get(SEARCH_URL) == searxng.url
    assert call("search", "clear") == NONE
    refused = call("search", "test", code=1)["error"]
    assert refused["message"] == "no search provider is configured"
    assert refused["hint"] == "set one: stockbench search set --searxng URL"


def test_a_failed_test_says_why(call: Any, searxng: SearchServer) -> None:
    call("search", "set", "--searxng", searxng.url)
    searxng.status = 403
    forbidden = call("search", "test", code=1)
    assert (forbidden["ok"], forbidden["reason"]) == (False, f"{searxng.url} refused the JSON format (HTTP 403)")
    assert (forbidden["failure"], forbidden["status"]) == ("forbidden", 403)
    assert forbidden["hint"] == "enable it in SearXNG's settings.yml: search: formats: [html, json]"
    searxng.status = 502
    assert call("search", "test", code=1)["reason"] == f"{searxng.url} answered HTTP 502"
    searxng.stop()
    gone = call("search", "test", code=1)
    assert gone["reason"].startswith(f"could not reach {searxng.url}: ") and gone["failure"] == "unreachable"


def test_an_address_is_checked_before_it_is_stored(call: Any) -> None:
    for bad, message in (
        ("ftp://searx.example.org", "'ftp://searx.example.org' is not an http or https address"),
        ("searx.example.org", "'searx.example.org' is not an http or https address"),
        ("https://me:pw@searx.example.org", "the search address carries credentials"),
        ("https://searx.example.org/?q=x", "the search address has a query or a fragment"),
    ):
        assert call("search", "set", "--searxng", bad, code=1)["error"]["message"] == message
    assert call("search", "show")["configured"] is False


# ---- the Brave Search API --------------------------------------------------------------------------------------
BRAVE_KEY = "BSAloopbackTestKey0123456789"
BRAVE_RESULTS = [{"title": "贵州茅台公告", "url": "https://www.example.cn/n/1", "description": "年度报告摘要"},
                 {"title": "白酒行业", "url": "https://www.example.cn/n/2", "description": "行业动态"}]  # fmt: skip


@pytest.fixture
def brave() -> Iterator[BraveServer]:
    server = BraveServer(BRAVE_KEY, BRAVE_RESULTS).start()
    yield server
    server.stop()


def test_brave_set_show_test_clear(call: Any, brave: BraveServer, home: Path) -> None:
    shown = call("search", "set", "--brave", "--base-url", f"{brave.url}/res/v1/web/search", stdin=f"{BRAVE_KEY}\n")
    assert shown == {"provider": "brave", "url": brave.url, "base_url": brave.url, "key_source": "keyring",
                     "configured": True}  # fmt: skip
    assert keyring.get_password("stockbench", "search-brave") == BRAVE_KEY
    assert call("search", "show") == shown
    tested = call("search", "test")
    assert (tested["ok"], tested["provider"], tested["results"], tested["url"]) == (True, "brave", 2, brave.url)
    headers, query = brave.headers[-1], brave.queries[-1]
    assert headers["x-subscription-token"] == BRAVE_KEY and headers["accept"] == "application/json"
    assert query["q"] == [tested["query"]] and query["count"] == ["8"]
    with Workbench.open(home) as bench:  # research searches through Brave, with the stored key
        target = bench.search.target()
        assert target is not None and (target.provider, target.url, target.key) == ("brave", brave.url, BRAVE_KEY)
        assert BRAVE_KEY not in repr(target)
    assert call("search", "clear") == NONE
    assert keyring.get_password("stockbench", "search-brave") is None


def test_brave_refused_key_and_rate_limit_say_why(call: Any, brave: BraveServer) -> None:
    call("search", "set", "--brave", "--base-url", brave.url, stdin="BSAwrongKey0000\n")
    refused = call("search", "test", code=1)
    assert (refused["ok"], refused["reason"], refused["failure"], refused["status"]) == (
        False, "the key was refused (HTTP 401)", "refused", 401)  # fmt: skip
    assert refused["hint"].startswith("check the key in the Brave Search API dashboard")
    call("search", "set", "--brave", "--base-url", brave.url, stdin=BRAVE_KEY)
    brave.rate_limited = True
    limited = call("search", "test", code=1)
    assert (limited["reason"], limited["failure"], limited["status"]) == (
        "rate limited (HTTP 429)",
        "rate_limited",
        429,
    )


def test_brave_key_from_the_environment(call: Any, brave: BraveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STOCKBENCH_KEY_SEARCH_BRAVE", BRAVE_KEY)
    shown = call("search", "set", "--brave", "--base-url", brave.url, stdin="")
    assert shown["key_source"] == "environment" and keyring.get_password("stockbench", "search-brave") is None
    assert call("search", "test")["ok"] is True and brave.headers[-1]["x-subscription-token"] == BRAVE_KEY


def test_brave_needs_a_key_and_a_safe_address(call: Any) -> None:
    assert call("search", "set", "--brave", stdin="", code=1)["error"]["message"] == "no API key on standard input"
    unencrypted = call("search", "set", "--brave", "--base-url", "http://proxy.example.org", stdin=BRAVE_KEY, code=1)
    assert unencrypted["error"]["message"] == "the Brave key would travel unencrypted"
    assert keyring.get_password("stockbench", "search-brave") is None  # nothing stored when refused
    both = call("search", "set", "--brave", "--searxng", "https://searx.example.org", stdin=BRAVE_KEY, code=1)
    assert both["error"]["message"] == "give one provider"
    assert call("search", "set", code=1)["error"]["message"] == "give one provider"
    assert call("search", "show") == NONE
    default = call("search", "set", "--brave", stdin=BRAVE_KEY)  # no --base-url: Brave's own address
    assert default["base_url"] == "https://api.search.brave.com"


def test_the_brave_key_never_lands_in_the_workspace(call: Any, brave: BraveServer, home: Path) -> None:
    call("search", "set", "--brave", "--base-url", brave.url, stdin=BRAVE_KEY)
    call("search", "test")
    brave.key = "BSAanotherKey9999"
    call("search", "test", code=1)  # a refused key's failure is stored nowhere either
    with Workbench.open(home) as bench:
        rows = bench.workspace.db.fetchall("SELECT key, value FROM settings")
        assert rows and all(BRAVE_KEY not in f"{k} {v}" for k, v in rows)
    files = [p for p in home.rglob("*") if p.is_file()]
    assert any(p.suffix == ".duckdb" for p in files)
    for path in files:
        assert BRAVE_KEY.encode() not in path.read_bytes(), path


def _answer_on_a_terminal(argv: list[str], answers: list[tuple[bytes, bytes]], env: dict[str, str]) -> tuple[int, str]:
    """Run `stockbench argv` on a pseudo-terminal, typing each answer when its prompt appears; (exit code, screen)."""
    import os
    import pty
    import select
    import sys
    import time

    pid, fd = pty.fork()
    if pid == 0:  # the child: the CLI, with the pty as its terminal
        os.execve(sys.executable, [sys.executable, "-m", "stockbench", *argv], env)
    screen, pending, deadline = b"", list(answers), time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            screen += chunk
        if pending and pending[0][0] in screen:
            os.write(fd, pending.pop(0)[1] + b"\n")
            screen += b"\n"
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), screen.decode("utf-8", "replace")


def test_brave_on_a_terminal_asks_the_key_file_passphrase_when_keys_go_to_the_file(
    home: Path, brave: BraveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from stockbench.llm.key_file import FILE_NAME, PASSPHRASE_ENV, FileKeys
    from stockbench.store.settings import KEY_STORE

    with Workbench.open(home) as bench:
        bench.workspace.settings.set(KEY_STORE, "file")
    FileKeys(home / FILE_NAME).unlock("correct horse battery")  # the file made earlier, locked for a new process
    env = {k: v for k, v in __import__("os").environ.items() if k != PASSPHRASE_ENV}
    code, screen = _answer_on_a_terminal(
        ["search", "set", "--brave", "--base-url", brave.url, "--home", str(home)],
        [(b"Brave Search API key (not shown)", b"brave-key-0123456789"),
         (b"key file passphrase (not shown)", b"correct horse battery")],
        env,
    )  # fmt: skip
    assert code == 0, screen
    assert "brave-key-0123456789" not in screen and "correct horse battery" not in screen  # never echoed
    stored = FileKeys(home / FILE_NAME)
    stored.unlock("correct horse battery")
    assert stored.get("search-brave") == "brave-key-0123456789"
