"""The search settings (`Workbench.search`): which SearXNG instance research may query, and a test of it.

Only SearXNG's JSON API is supported: research reads results as candidates and fetches documents itself, so a
provider needs no key. The address is stored in the workspace setting `search.url` (never with credentials).
"""

from __future__ import annotations

import time
from urllib.parse import urlsplit

from stockbench.errors import InvalidInput
from stockbench.messages import user_error
from stockbench.research.search import SearchFailed, query_searxng
from stockbench.research.search_records import SearchConfig, SearchProbe
from stockbench.store.settings import SEARCH_URL, Settings

PROVIDER = "searxng"
TEST_QUERY = "贵州茅台 600519"


class SearchSettings:
    """The search provider of one workspace."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings

    def show(self) -> SearchConfig:
        """The configured provider, or none."""
        url = self._settings.get(SEARCH_URL)
        return SearchConfig(PROVIDER if url else None, url or None)

    def set_searxng(self, url: str) -> SearchConfig:
        """Use the SearXNG instance at `url` (its root; a trailing /search is dropped). InvalidInput when `url` is
        not an http(s) address or carries credentials, a query or a fragment."""
        self._settings.set(SEARCH_URL, searxng_root(url))
        return self.show()

    def clear(self) -> SearchConfig:
        """Use no search provider (research then discloses that no search was run)."""
        self._settings.delete(SEARCH_URL)
        return self.show()

    def test(self, query: str = TEST_QUERY) -> SearchProbe:
        """Send the configured provider one query: ok with the number of results, or the reason it failed."""
        url = self.show().url
        if url is None:
            raise user_error(InvalidInput, "search_not_configured", command="stockbench search set --searxng URL")
        return probe(url, query)

    def test_address(self, url: str, query: str = TEST_QUERY) -> SearchProbe:
        """The same test of an address not saved yet (InvalidInput when it is not acceptable)."""
        return probe(searxng_root(url), query)


def probe(url: str, query: str = TEST_QUERY) -> SearchProbe:
    """One test query to the SearXNG instance at `url` (configured or not)."""
    started = time.monotonic()
    try:
        found = query_searxng(url, query)
    except SearchFailed as error:
        return SearchProbe(PROVIDER, url, query, False, _ms(started), 0, error.message, error.hint, error.kind,
                           error.status)  # fmt: skip
    return SearchProbe(PROVIDER, url, query, True, _ms(started), len(found), None, None, None, 200)


def searxng_root(url: str) -> str:
    """`url` as the root of a SearXNG instance; InvalidInput saying what is wrong with it."""
    text = url.strip()
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise user_error(InvalidInput, "search_address_scheme", text=text, example="https://searx.example.org")
    if parts.username or parts.password:
        raise user_error(InvalidInput, "search_address_credentials", userinfo="user:password@")
    if parts.query or parts.fragment:
        raise user_error(InvalidInput, "search_address_query")
    path = parts.path.rstrip("/")
    path = path.removesuffix("/search")
    return f"{parts.scheme}://{parts.netloc}{path}"


def _ms(started: float) -> int:
    return round((time.monotonic() - started) * 1000)
