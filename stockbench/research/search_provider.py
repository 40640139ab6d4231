"""The search settings (`Workbench.search`): which provider research may query (a SearXNG instance, or the Brave
Search API with its key), and a test of it.

The address is stored in the workspace setting `search.url` and the provider in `search.provider` (never with
credentials). Brave's key goes through the models' key store under the name `search-brave`: read from
STOCKBENCH_KEY_SEARCH_BRAVE first, else the OS keyring or the encrypted key file; never the workspace database.
"""

from __future__ import annotations

import contextlib
import time
from ipaddress import ip_address
from typing import Final
from urllib.parse import urlsplit

from stockbench.errors import InvalidInput
from stockbench.llm import KeyringUnavailable
from stockbench.llm.keys import Keys, OsKeyring, env_name
from stockbench.messages import error_words, user_error
from stockbench.research.search import BRAVE_API, BRAVE_NAME, BRAVE_PATH, SearchFailed, SearchTarget, query
from stockbench.research.search_records import SearchConfig, SearchProbe
from stockbench.store.settings import SEARCH_PROVIDER, SEARCH_URL, Settings

PROVIDER: Final = "searxng"
BRAVE: Final = "brave"
BRAVE_KEY = "search-brave"  # its name in the key store; STOCKBENCH_KEY_SEARCH_BRAVE gives it from the environment
TEST_QUERY = "贵州茅台 600519"


class SearchSettings:
    """The search provider of one workspace."""

    def __init__(self, settings: Settings, keys: Keys | None = None) -> None:
        """`keys` is the workspace's key store (the models'); by default the OS keyring alone."""
        self._settings = settings
        self._keys = keys or Keys(lambda: (OsKeyring(), "keyring"))

    def show(self) -> SearchConfig:
        """The configured provider, or none (for Brave, where its key comes from; never the key)."""
        url = self._settings.get(SEARCH_URL) or None
        if url is None:
            return SearchConfig(None, None)
        if self._settings.get(SEARCH_PROVIDER) == BRAVE:
            return SearchConfig(BRAVE, url, self._keys.source(BRAVE_KEY))
        return SearchConfig(PROVIDER, url)

    def target(self) -> SearchTarget | None:
        """Where research searches now, with Brave's key read for this use (None: no provider)."""
        config = self.show()
        if config.url is None:
            return None
        if config.provider == BRAVE:
            return SearchTarget(BRAVE, config.url, self._brave_key())
        return SearchTarget(PROVIDER, config.url)

    def set_searxng(self, url: str) -> SearchConfig:
        """Use the SearXNG instance at `url` (its root; a trailing /search is dropped). InvalidInput when `url` is
        not an http(s) address or carries credentials, a query or a fragment."""
        self._settings.set(SEARCH_URL, searxng_root(url))
        self._settings.set(SEARCH_PROVIDER, PROVIDER)
        return self.show()

    def set_brave(self, key: str | None, base_url: str | None = None) -> SearchConfig:
        """Use the Brave Search API (at `base_url`, default its own address), storing `key` in the key store first.
        With no `key`, one must already be had (STOCKBENCH_KEY_SEARCH_BRAVE or stored). Nothing is saved when the
        address is not acceptable or the key store refuses the key."""
        root = brave_root(base_url)
        if key:
            self._keys.set(BRAVE_KEY, key)
        elif self._keys.source(BRAVE_KEY) not in ("environment", "keyring", "file"):
            raise user_error(InvalidInput, "search_key_not_given", provider=BRAVE_NAME, env=env_name(BRAVE_KEY))
        self._settings.set(SEARCH_URL, root)
        self._settings.set(SEARCH_PROVIDER, BRAVE)
        return self.show()

    def clear(self) -> SearchConfig:
        """Use no search provider (research then discloses that no search was run); Brave's stored key is deleted
        (one in the environment is the user's to unset)."""
        self._settings.delete(SEARCH_URL)
        self._settings.delete(SEARCH_PROVIDER)
        with contextlib.suppress(KeyringUnavailable):  # nothing can have been stored where nothing can be read
            self._keys.delete(BRAVE_KEY)
        return self.show()

    def test(self, query: str = TEST_QUERY) -> SearchProbe:
        """Send the configured provider one query: ok with the number of results, or the reason it failed."""
        target = self.target()
        if target is None:
            raise user_error(InvalidInput, "search_not_configured", command="stockbench search set --searxng URL")
        return probe(target, query)

    def test_address(self, url: str, query: str = TEST_QUERY) -> SearchProbe:
        """The same test of a SearXNG address not saved yet (InvalidInput when it is not acceptable)."""
        return probe(SearchTarget(PROVIDER, searxng_root(url)), query)

    def test_brave(self, key: str = "", base_url: str | None = None, query: str = TEST_QUERY) -> SearchProbe:
        """The same test of the Brave Search API with `key` as typed (held for this request, never stored), or the
        stored key when none is typed."""
        return probe(SearchTarget(BRAVE, brave_root(base_url), key.strip() or self._brave_key()), query)

    def _brave_key(self) -> str | None:
        try:
            return self._keys.get(BRAVE_KEY)
        except KeyringUnavailable as error:
            reason_zh, hint_zh = error_words(error, "zh")
            found = user_error(InvalidInput, "search_key_unreadable", provider=BRAVE_NAME, reason=error.message,
                               reason_zh=reason_zh, hint=error.hint, hint_zh=hint_zh)  # fmt: skip
            raise SearchFailed(found.message, found.hint, "no_key", key=found.key, params=found.params) from None


def probe(target: SearchTarget, text: str = TEST_QUERY) -> SearchProbe:
    """One test query to `target` (configured or not)."""
    started = time.monotonic()
    try:
        found = query(target, text)
    except SearchFailed as error:
        return SearchProbe(target.provider, target.url, text, False, _ms(started), 0, error.message, error.hint,
                           error.kind, error.status, error.key, error.params)  # fmt: skip
    return SearchProbe(target.provider, target.url, text, True, _ms(started), len(found), None, None, None, 200)


def searxng_root(url: str) -> str:
    """`url` as the root of a SearXNG instance; InvalidInput saying what is wrong with it."""
    scheme, netloc, path = _address(url, "https://searx.example.org")
    return f"{scheme}://{netloc}{path.removesuffix('/search')}"


def brave_root(url: str | None) -> str:
    """`url` (default Brave's own) as the Brave Search API's base URL; InvalidInput saying what is wrong with it.
    The key travels with every request, so plain http is accepted only to this machine (a test server or a local
    proxy, given explicitly)."""
    if url is None or not url.strip():
        return BRAVE_API
    scheme, netloc, path = _address(url, BRAVE_API)
    if scheme != "https" and not _loopback(urlsplit(url.strip()).hostname or ""):
        raise user_error(InvalidInput, "search_key_unencrypted", name="Brave", hosts="127.0.0.1 or localhost")
    return f"{scheme}://{netloc}{path.removesuffix(BRAVE_PATH)}"


def _address(url: str, example: str) -> tuple[str, str, str]:
    text = url.strip()
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise user_error(InvalidInput, "search_address_scheme", text=text, example=example)
    if parts.username or parts.password:
        raise user_error(InvalidInput, "search_address_credentials", userinfo="user:password@")
    if parts.query or parts.fragment:
        raise user_error(InvalidInput, "search_address_query")
    return parts.scheme, parts.netloc, parts.path.rstrip("/")


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ip_address(host).is_loopback
    except ValueError:
        return False


def _ms(started: float) -> int:
    return round((time.monotonic() - started) * 1000)
