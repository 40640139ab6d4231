"""A Brave-Search-API-like `GET /res/v1/web/search?q=...&count=N` on 127.0.0.1: it answers the documented JSON
(`{"type": "search", "query": {...}, "web": {"type": "search", "results": [{title, url, description}]}}`) to the
right `X-Subscription-Token`, 401 with an error object to any other, and 429 while `rate_limited` is set. It
records each request's query and headers."""

from __future__ import annotations

import json
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.loopback import LoopbackServer

PATH = "/res/v1/web/search"


class BraveServer:
    """Answers `results` (at most `count` of them) to requests carrying `key`."""

    def __init__(self, key: str, results: Sequence[dict[str, str]]) -> None:
        self.key = key
        self.results = list(results)
        self.rate_limited = False
        self.queries: list[dict[str, list[str]]] = []
        self.headers: list[dict[str, str]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                query = parse_qs(parts.query)
                outer.queries.append(query)
                outer.headers.append({k.lower(): v for k, v in self.headers.items()})
                status, body = outer.answer(parts.path, query, self.headers.get("X-Subscription-Token"))
                data = json.dumps(body, ensure_ascii=False).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                """Silent."""

        self.loopback = LoopbackServer(Handler, "brave-server")

    def answer(self, path: str, query: dict[str, list[str]], token: str | None) -> tuple[int, dict[str, Any]]:
        if path != PATH:
            return 404, {"type": "ErrorResponse", "error": {"status": 404, "code": "NOT_FOUND"}}
        if token != self.key:
            detail = "The provided subscription token is invalid."
            return 401, {"type": "ErrorResponse",
                         "error": {"status": 401, "code": "SUBSCRIPTION_TOKEN_INVALID", "detail": detail}}  # fmt: skip
        if self.rate_limited:
            return 429, {"type": "ErrorResponse", "error": {"status": 429, "code": "RATE_LIMITED"}}
        count = int(query.get("count", ["20"])[0])
        text = query.get("q", [""])[0]
        return 200, {"type": "search", "query": {"original": text, "more_results_available": False},
                     "web": {"type": "search", "results": [{**r, "type": "search_result"}
                                                           for r in self.results[:count]]}}  # fmt: skip

    @property
    def url(self) -> str:
        return self.loopback.origin

    def start(self) -> BraveServer:
        self.loopback.start()
        return self

    def stop(self) -> None:
        self.loopback.stop()
