"""What the search settings answer with: the configured provider, and one test of it. Plain frozen data."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SearchConfig:
    """The web search research may use: `provider` "searxng" at `url`, or None for none."""

    provider: str | None
    url: str | None

    @property
    def configured(self) -> bool:
        return self.url is not None


@dataclass(frozen=True)
class SearchProbe:
    """One test query to the provider: `ok` with how many results came back and how fast, or the `reason` it gave
    no usable answer, what to do (`hint`), and the cause's kind (`failure`: timeout, unreachable, forbidden,
    status, not_json, no_results) with the HTTP `status` when there was one."""

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
