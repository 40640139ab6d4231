"""Search: a pluggable provider (a SearXNG instance's JSON API). Results are candidates only.

A result becomes evidence only when its full document is fetched (SSRF-guarded) and stored. Without a
configured provider the tool says it is unavailable, and the plan and report disclose it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stockbench.clock import Clock
from stockbench.errors import Problem
from stockbench.research.records import EvidenceItem
from stockbench.research.results import ToolResult, rejected

MAX_RESULTS = 8


def search(url: Any, terms: Sequence[str], clock: Clock, *, allow_loopback: bool = False) -> ToolResult:
    """Query the configured SearXNG instance; results are stored as `search_result` evidence (candidates only)."""
    if not url:
        return rejected(
            [
                Problem(
                    "search_unavailable",
                    "no search provider is configured",
                    "disclose that no search was run; the user can configure one in Settings",
                )
            ]
        )
    import httpx

    query = " ".join(t.strip() for t in terms if t.strip())
    if not query:
        return rejected([Problem("search_empty", "no search terms were given", "give one or more terms")])
    try:
        with httpx.Client(timeout=15, trust_env=False) as client:
            response = client.get(f"{str(url).rstrip('/')}/search", params={"q": query, "format": "json"})
            response.raise_for_status()
            payload = response.json()
    except (httpx.HTTPError, ValueError) as error:
        return rejected(
            [
                Problem(
                    "search_failed", f"the search failed: {type(error).__name__}", "disclose the failed search as a gap"
                )
            ]
        )
    results = [
        {"title": str(r.get("title", "")), "url": str(r.get("url", "")), "snippet": str(r.get("content", ""))}
        for r in payload.get("results", [])[:MAX_RESULTS]
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
