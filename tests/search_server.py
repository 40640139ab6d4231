"""A SearXNG-like `/search?q=...&format=json` endpoint on 127.0.0.1 that records the queries it gets; `status`
makes it answer an error instead (403 is what SearXNG answers when its JSON format is not enabled), `delay` makes
it wait first."""

from __future__ import annotations

import json
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.loopback import LoopbackServer


class SearchServer:
    """Answers `results` for every query on /search (404 elsewhere), or `status` with no results when set."""

    def __init__(self, results: Sequence[dict[str, str]]) -> None:
        self.queries: list[dict[str, list[str]]] = []
        self.results = list(results)
        self.status: int | None = None
        self.delay = 0.0  # seconds before answering
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                outer.loopback.stopping.wait(outer.delay)
                outer.queries.append(parse_qs(parts.query))
                found = parts.path == "/search"
                status = outer.status or (200 if found else 404)
                body = json.dumps({"query": outer.queries[-1].get("q", [""])[0],
                                   "results": outer.results if status == 200 else []},
                                  ensure_ascii=False).encode()  # fmt: skip
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                """Silent."""

        self.loopback = LoopbackServer(Handler, "search-server")

    @property
    def url(self) -> str:
        return self.loopback.origin

    def start(self) -> SearchServer:
        self.loopback.start()
        return self

    def stop(self) -> None:
        self.loopback.stop()
