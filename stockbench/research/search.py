"""Search: a pluggable provider (a SearXNG instance's JSON API, or the Brave Search API with its key). Results are
candidates only.

A result becomes evidence only when its full document is fetched (SSRF-guarded) and stored. Without a
configured provider the tool says it is unavailable, and the plan and report disclose it. The Brave key travels
only in the request's X-Subscription-Token header: never in a result, an evidence body or an error text.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from stockbench.clock import Clock
from stockbench.errors import UserError, redact
from stockbench.messages import error_words, problem, user_error, value_word
from stockbench.research.records import EvidenceItem
from stockbench.research.results import ToolResult, rejected

MAX_RESULTS = 8
TIMEOUT_S = 15
BRAVE_API = "https://api.search.brave.com"
BRAVE_PATH = "/res/v1/web/search"
BRAVE_MAX_COUNT = 20  # the most results one Brave request may ask for
SEARXNG_NAME, BRAVE_NAME = "SearXNG", "Brave Search API"
JSON_SETTING = "settings.yml: search: formats: [html, json]"
Provider = Literal["searxng", "brave"]
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SearchTarget:
    """Where research searches: `provider` at `url` (a SearXNG root, or the Brave API's base URL), with the Brave
    `key` read from the key store for this use (never shown: it is left out of the record's repr)."""

    provider: Provider
    url: str
    key: str | None = field(default=None, repr=False)


@dataclass(frozen=True)
class SearchHit:
    """One result as research sees it: a candidate to fetch and read, never evidence by itself."""

    title: str
    url: str
    snippet: str


class SearchFailed(UserError):
    """The search provider gave no usable answer; the message says why. `kind` sorts the cause: timeout,
    unreachable, forbidden (SearXNG's JSON format is off), refused (Brave refused the key: HTTP 401 or 403),
    rate_limited (HTTP 429), no_key (Brave with no key stored), status (another HTTP status, in `status`),
    not_json, no_results (JSON without a results list)."""

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


def _failed(key: str, kind: str, code: int | None = None, *, provider: str, **params: object) -> SearchFailed:
    """SearchFailed worded by the catalogue's ERRORS[key] (`kind` and `status` sort the cause)."""
    found = user_error(UserError, key, provider=provider, **params)
    return SearchFailed(found.message, found.hint, kind, code, key=found.key, params=found.params)


def query(target: SearchTarget, text: str, *, count: int = MAX_RESULTS, timeout: float = TIMEOUT_S) -> list[SearchHit]:
    """The results `target` answers for `text` (SearchFailed says why there are none)."""
    if target.provider == "brave":
        return query_brave(target.url, target.key or "", text, count=count, timeout=timeout)
    found = query_searxng(target.url, text, timeout=timeout)
    return [SearchHit(str(r.get("title", "")), str(r.get("url", "")), str(r.get("content", ""))) for r in found]


def query_searxng(url: str, query: str, *, timeout: float = TIMEOUT_S) -> list[dict[str, Any]]:
    """The result objects a SearXNG instance at `url` answers for `query` (its `/search?format=json`).
    SearchFailed says why there is no answer."""
    address, named = f"{url.rstrip('/')}/search", SEARXNG_NAME
    response = _get(url, address, {"q": query, "format": "json"}, {}, timeout=timeout, provider=named)
    status = response.status_code
    if status == 403:
        raise _failed("search_forbidden", "forbidden", status, provider=named, url=url, setting=JSON_SETTING)
    if status != 200:
        raise _failed("search_status", "status", status, provider=named, url=url, status=status)
    payload = _json(url, response, "search_not_json", named)
    found = payload.get("results") if isinstance(payload, dict) else None
    if not isinstance(found, list):
        raise _failed("search_no_results", "no_results", status, provider=named, url=url)
    return [r for r in found if isinstance(r, dict)]


def query_brave(
    url: str, key: str, query: str, *, count: int = MAX_RESULTS, timeout: float = TIMEOUT_S
) -> list[SearchHit]:
    """The web results the Brave Search API at `url` answers for `query` (GET /res/v1/web/search?q=&count=, the
    key in X-Subscription-Token; results in `web.results[]` with title, url, description). SearchFailed says why
    there is no answer: the key refused (401/403), rate limited (429), another status, not a Brave answer."""
    named, command = BRAVE_NAME, "stockbench search set --brave"
    if not key:
        raise _failed("search_no_key", "no_key", provider=named, command=command, env="STOCKBENCH_KEY_SEARCH_BRAVE")
    headers = {"Accept": "application/json", "X-Subscription-Token": key}
    params = {"q": query, "count": str(max(1, min(count, BRAVE_MAX_COUNT)))}
    response = _get(url, url.rstrip("/") + BRAVE_PATH, params, headers, timeout=timeout, secret=key, provider=named)
    status = response.status_code
    if status in (401, 403):
        raise _failed("search_key_refused", "refused", status, provider=named, status=status, command=command)
    if status == 429:
        raise _failed("search_rate_limited", "rate_limited", status, provider=named, status=status)
    if status != 200:
        raise _failed("search_api_status", "status", status, provider=named, url=url, status=status)
    return _brave_hits(url, _json(url, response, "search_api_not_json", named), status)


def _brave_hits(url: str, payload: Any, status: int) -> list[SearchHit]:
    web = payload.get("web") if isinstance(payload, dict) else None
    if web is None and isinstance(payload, dict) and payload.get("type") == "search":
        return []  # Brave leaves `web` out when nothing was found
    found = web.get("results") if isinstance(web, dict) else None
    if not isinstance(found, list):
        raise _failed("search_api_no_results", "no_results", status, provider=BRAVE_NAME, url=url)
    return [SearchHit(str(r.get("title", "")), str(r.get("url", "")), str(r.get("description", "")))
            for r in found if isinstance(r, dict)]  # fmt: skip


def _get(
    url: str,
    address: str,
    params: Mapping[str, str],
    headers: Mapping[str, str],
    *,
    timeout: float,
    provider: str,
    secret: str = "",
) -> Any:
    """The answer of GET `address` (the provider at `url`); SearchFailed when it cannot be had."""
    import httpx

    try:
        with httpx.Client(timeout=timeout, trust_env=False) as client:
            return client.get(address, params=params, headers=headers)
    except httpx.TimeoutException:
        raise _failed("search_timeout", "timeout", provider=provider, url=url, timeout=f"{timeout:g}") from None
    except httpx.HTTPError as error:
        log.info("no answer from %s: %s", url, redact(str(error), [secret]) or type(error).__name__)
        cause = _cause(error)  # the library's own words stay in the log
        raise _failed("search_unreachable", "unreachable", provider=provider, url=url,
                      reason=value_word("search_cause", cause, "en"),
                      reason_zh=value_word("search_cause", cause, "zh")) from None  # fmt: skip


def _cause(error: Exception) -> str:
    """Why a connection failed, as a word of the catalogue (VALUES "search_cause.<cause>")."""
    text = str(error).lower()
    if "refused" in text:
        return "refused"
    if any(part in text for part in ("name or service", "name resolution", "nodename", "getaddrinfo")):
        return "name"
    return "tls" if "ssl" in text or "certificate" in text else "other"


def _json(url: str, response: Any, key: str, provider: str) -> Any:
    try:
        return response.json()
    except ValueError:
        raise _failed(key, "not_json", response.status_code, provider=provider, url=url) from None


def search(target: SearchTarget | None, terms: Sequence[str], clock: Clock) -> ToolResult:
    """Query the configured provider; results are stored as `search_result` evidence (candidates only).
    The provider is the user's own choice, so a loopback address (a SearXNG on this machine) is allowed."""
    if target is None:
        return rejected([problem("search_unavailable", command="stockbench search set")])
    text = " ".join(t.strip() for t in terms if t.strip())
    if not text:
        return rejected([problem("search_empty")])
    try:
        hits = query(target, text)
    except SearchFailed as error:
        return rejected([problem("search_failed", reason=error.message, reason_zh=error_words(error, "zh")[0])])
    results = [{"title": h.title, "url": h.url, "snippet": h.snippet} for h in hits[:MAX_RESULTS]]
    item = EvidenceItem("search_result", target.url, {"query": text, "results": results}, f"search: {text}")
    return ToolResult(
        {
            "accepted": True,
            "query": text,
            "results": results,
            "note": "snippets are candidates: read a document in full before quoting it",
        },
        [item],
    )
