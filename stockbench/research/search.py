"""Search: a pluggable provider (a SearXNG instance's JSON API). Results are candidates only.

A result becomes evidence only when its full document is fetched (SSRF-guarded) and stored. Without a
configured provider the tool says it is unavailable, and the plan and report disclose it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stockbench.clock import Clock
from stockbench.errors import Problem, UserError, redact
from stockbench.research.records import EvidenceItem
from stockbench.research.results import ToolResult, rejected

MAX_RESULTS = 8
TIMEOUT_S = 15


class SearchFailed(UserError):
    """The search provider gave no usable answer; the message says why. `kind` sorts the cause: timeout,
    unreachable, forbidden (SearXNG's JSON format is off), status (another HTTP status, in `status`), not_json,
    no_results (JSON without a results list)."""

    code = "search_failed"

    def __init__(self, message: str, hint: str, kind: str, status: int | None = None) -> None:
        super().__init__(message, hint)
        self.kind, self.status = kind, status


def query_searxng(url: str, query: str, *, timeout: float = TIMEOUT_S) -> list[dict[str, Any]]:
    """The result objects a SearXNG instance at `url` answers for `query` (its `/search?format=json`).
    SearchFailed says why there is no answer."""
    import httpx

    try:
        with httpx.Client(timeout=timeout, trust_env=False) as client:
            response = client.get(f"{url.rstrip('/')}/search", params={"q": query, "format": "json"})
    except httpx.TimeoutException:
        raise SearchFailed(f"no answer from {url} within {timeout:g} s", "check the address, or try later",
                           "timeout") from None  # fmt: skip
    except httpx.HTTPError as error:
        reason = redact(str(error)) or type(error).__name__
        raise SearchFailed(f"could not reach {url}: {reason}", "check the address and that the server runs",
                           "unreachable") from None  # fmt: skip
    status = response.status_code
    if status == 403:
        fix = "enable it in SearXNG's settings.yml: search: formats: [html, json]"
        raise SearchFailed(f"{url} refused the JSON format (HTTP 403)", fix, "forbidden", status)
    if status != 200:
        raise SearchFailed(f"{url} answered HTTP {status}", "check the address (the SearXNG root)", "status", status)
    not_searxng = "give the address of a SearXNG instance"
    try:
        payload = response.json()
    except ValueError:
        raise SearchFailed(f"the answer of {url} is not JSON", not_searxng, "not_json", status) from None
    found = payload.get("results") if isinstance(payload, dict) else None
    if not isinstance(found, list):
        raise SearchFailed(f"the answer of {url} has no results list", not_searxng, "no_results", status)
    return [r for r in found if isinstance(r, dict)]


def search(url: Any, terms: Sequence[str], clock: Clock) -> ToolResult:
    """Query the configured SearXNG instance; results are stored as `search_result` evidence (candidates only).
    The instance is the user's own choice, so a loopback address (a SearXNG on this machine) is allowed."""
    if not url:
        return rejected(
            [
                Problem(
                    "search_unavailable",
                    "no search provider is configured",
                    "disclose that no search was run; the user can set one in Settings (stockbench search set)",
                )
            ]
        )
    query = " ".join(t.strip() for t in terms if t.strip())
    if not query:
        return rejected([Problem("search_empty", "no search terms were given", "give one or more terms")])
    try:
        payload = query_searxng(str(url), query)
    except SearchFailed as error:
        return rejected([Problem("search_failed", f"the search failed: {error.message}",
                                 "disclose the failed search as a gap")])  # fmt: skip
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
