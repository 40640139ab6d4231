"""`stockbench search set|show|test|clear` against a SearXNG-like server on loopback: the address is checked and
stored, the test reports ok with the result count or the failure's reason, and research reads the same setting."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stockbench.cli.main import run
from stockbench.store.settings import SEARCH_URL
from stockbench.workbench import Workbench
from tests.search_server import SearchServer

RESULTS = [{"title": "示例", "url": "https://news.example.cn/a/1", "content": "片段"}]


@pytest.fixture
def searxng() -> Iterator[SearchServer]:
    server = SearchServer(RESULTS).start()
    yield server
    server.stop()


@pytest.fixture
def call(home: Path, capsys: pytest.CaptureFixture[str]) -> Any:
    def invoke(*args: str, code: int = 0) -> Any:
        result = run([*args, "--json"])
        captured = capsys.readouterr()
        assert result == code, captured.err
        return json.loads(captured.out)

    return invoke


def test_set_show_test_clear(call: Any, searxng: SearchServer, home: Path) -> None:
    assert call("search", "show") == {"provider": None, "url": None, "configured": False}
    assert call("search", "set", "--searxng", f"{searxng.url}/search/") == {
        "provider": "searxng", "url": searxng.url, "configured": True}  # fmt: skip
    assert call("search", "show")["url"] == searxng.url
    tested = call("search", "test")
    assert (tested["ok"], tested["results"], tested["reason"], tested["url"]) == (True, 1, None, searxng.url)
    assert isinstance(tested["latency_ms"], int)
    assert searxng.queries[-1]["format"] == ["json"] and searxng.queries[-1]["q"] == [tested["query"]]
    with Workbench.open(home) as bench:  # research reads the same setting
        assert bench.workspace.settings.get(SEARCH_URL) == searxng.url
    assert call("search", "clear") == {"provider": None, "url": None, "configured": False}
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
