"""What the search settings answer with: the configured provider, and one test of it. Plain frozen data."""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class SearchConfig:
    """The web search research may use: `provider` "searxng" or "brave" at `url`, or None for none. For Brave,
    `key_source` says where its key comes from (environment, keyring, file, missing, keyring_unavailable or
    file_locked);
    None for SearXNG, which needs no key. The key itself is never here."""

    provider: str | None
    url: str | None
    key_source: str | None = None

    @property
    def configured(self) -> bool:
        return self.url is not None

    @property
    def base_url(self) -> str | None:
        """The address requests go to (the SearXNG root, or the Brave Search API's base URL)."""
        return self.url


@dataclass(frozen=True)
class SearchProbe:
    """One test query to the provider: `ok` with how many results came back and how fast, or the `reason` it gave
    no usable answer, what to do (`hint`), and the cause's kind (`failure`: timeout, unreachable, forbidden,
    refused, rate_limited, no_key, status, not_json, no_results) with the HTTP `status` when there was one.
    `reason_key` and `reason_params` are the reason's entry in stockbench.messages, so a front end says the reason
    and the hint in the user's language (they are not printed in the JSON)."""

    provider: str
    url: str
    query: str
    ok: bool
    latency_ms: int
    results: int
    reason: str | None
    hint: str | None
    failure: str | None
    status: int | None
    reason_key: str = ""
    reason_params: tuple[tuple[str, str], ...] = ()

    def as_dict(self) -> dict[str, object]:
        """What `search test --json` prints."""
        return {f.name: getattr(self, f.name) for f in fields(self) if not f.name.startswith("reason_")}
