"""Search: a pluggable provider (a SearXNG instance's JSON API). Results are candidates only.

A result becomes evidence only when its full document is fetched (SSRF-guarded) and stored. Without a
configured provider the tool says it is unavailable, and the plan and report disclose it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stockbench.clock import Clock
from stockbench.errors import UserError, redact
from stockbench.messages import error_words, problem, user_error
from stockbench.research.records import EvidenceItem
from stockbench.research.results import ToolResult, rejected

MAX_RESULTS = 8
PROVIDER_NAME = "SearXNG"
JSON_SETTING = "settings.yml: search: formats: [html, json]"
TIMEOUT_S = 15


class SearchFailed(UserError):
    """The search provider gave no usable answer; the message says why. `kind` sorts the cause: timeout,
    unreachable, forbidden (SearXNG's JSON format is off), status (another HTTP status, in `status`), not_json,
    no_results (JSON without a results list)."""

    code = "search_failed"

    def __init__(
        self,
        message: str,
        hint: str,
        kind: str,
        status: int | None = None,
        *,
        key: str = "",
        params: tuple[tuple[str, str], ...] = (),
    ) -> None:
        super().__init__(message, hint, key=key, params=params)
        self.kind, self.status = kind, status


def _failed(key: str, kind: str, code: int | None = None, **params: object) -> SearchFailed:
    """SearchFailed worded by the catalogue's ERRORS[key] (`kind` and `status` sort the cause)."""
    found = user_error(UserError, key, provider=PROVIDER_NAME, **params)
    return SearchFailed(found.message, found.hint, kind, code, key=found.key, params=found.params)


def query_searxng(url: str, query: str, *, timeout: float = TIMEOUT_S) -> list[dict[str, Any]]:
    """The result objects a SearXNG instance at `url` answers for `query` (its `/search?format=json`).
    SearchFailed says why there is no answer."""
    import httpx

    try:
        with httpx.Client(timeout=timeout, trust_env=False) as client:
            response = client.get(f"{url.rstrip('/')}/search", params={"q": query, "format": "json"})
    except httpx.TimeoutException:
        raise _failed("search_timeout", "timeout", url=url, timeout=f"{timeout:g}") from None
    except httpx.HTTPError as error:
        reason = redact(str(error)) or type(error).__name__
        raise _failed("search_unreachable", "unreachable", url=url, reason=reason) from None
    status = response.status_code
    if status == 403:
        raise _failed("search_forbidden", "forbidden", status, url=url, setting=JSON_SETTING)
    if status != 200:
        raise _failed("search_status", "status", status, url=url, status=status)
    try:
        payload = response.json()
    except ValueError:
        raise _failed("search_not_json", "not_json", status, url=url) from None
    found = payload.get("results") if isinstance(payload, dict) else None
    if not isinstance(found, list):
        raise _failed("search_no_results", "no_results", status, url=url)
    return [r for r in found if isinstance(r, dict)]


def search(url: Any, terms: Sequence[str], clock: Clock) -> ToolResult:
    """Query the configured SearXNG instance; results are stored as `search_result` evidence (candidates only).
    The instance is the user's own choice, so a loopback address (a SearXNG on this machine) is allowed."""
    if not url:
        return rejected([problem("search_unavailable", command="stockbench search set")])
    query = " ".join(t.strip() for t in terms if t.strip())
    if not query:
        return rejected([problem("search_empty")])
    try:
        payload = query_searxng(str(url), query)
    except SearchFailed as error:
        return rejected([problem("search_failed", reason=error.message, reason_zh=error_words(error, "zh")[0])])
    results = [
        {"title": str(r.get("title", "")), "url": str(r.get("url", "")), "snippet": str(r.get("content", ""))}
        for r in payload[:MAX_RESULTS]
    ]
    item = EvidenceItem("search_result", str(url), {"query": query, "results": results}, f"search: {query}")
    return ToolResult(
        {
            "accepted": True,
            "query": query,
            "results": results,
            "note": "snippets are candidates: read a document in full before quoting it",
        },
        [item],
    )
