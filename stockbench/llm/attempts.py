"""One attempt of a model call: the limits the attempt loop keeps (`RetryPolicy`), the record the journal keeps
of each attempt (`Attempt`, never with the key in it), and the litellm arguments an attempt sends."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from stockbench.llm.capabilities import Adapted, Capability
from stockbench.llm.messages import ChatRequest, Usage, canonical_json
from stockbench.llm.models import Endpoint

NO_KEY = "no-key"  # sent to keyless endpoints so the SDK never falls back to a key from the environment

Outcome = Literal["ok", "network_error", "error"]
NextStep = Literal["done", "retry", "retry_without_stream", "fallback_model", "give_up"]


@dataclass(frozen=True)
class RetryPolicy:
    """Limits of the attempt loop (seconds). Tests make them tiny; the defaults suit real providers."""

    attempts_per_model: int = 3
    backoff_base_s: float = 1.0
    backoff_max_s: float = 30.0
    retry_after_max_s: float = 60.0  # a longer Retry-After gives up on the model instead of waiting
    attempt_deadline_s: float = 300.0
    stall_s: float = 60.0
    connect_s: float = 15.0
    stream: bool = True

    def backoff(self, retry: int, rng: random.Random, retry_after: float | None) -> float:
        """Equal-jitter exponential backoff before retry number `retry` (1-based), at least Retry-After."""
        cap = min(self.backoff_max_s, self.backoff_base_s * 2 ** (retry - 1))
        wait: float = cap / 2 + rng.uniform(0, cap / 2)
        return max(wait, retry_after or 0.0)


@dataclass(frozen=True)
class Attempt:
    """One attempt, as the journal records it. `error_message` is redacted; the key never appears."""

    number: int
    model: str
    litellm_model: str
    stream: bool
    started: datetime
    ended: datetime
    outcome: Outcome
    error_class: str | None = None
    error_kind: str | None = None
    error_message: str | None = None
    status_code: int | None = None
    usage: Usage | None = None
    dropped: tuple[str, ...] = ()
    next: NextStep = "done"
    wait_s: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "model": self.model,
            "litellm_model": self.litellm_model,
            "stream": self.stream,
            "started": self.started.isoformat(),
            "ended": self.ended.isoformat(),
            "outcome": self.outcome,
            "error_class": self.error_class,
            "error_kind": self.error_kind,
            "error_message": self.error_message,
            "status_code": self.status_code,
            "usage": None if self.usage is None else self.usage.as_dict(),
            "dropped": list(self.dropped),
            "next": self.next,
            "wait_s": self.wait_s,
        }


def call_arguments(
    request: ChatRequest,
    endpoint: Endpoint,
    *,
    key: str,
    adapted: Adapted,
    capability: Capability,
    stream: bool,
    policy: RetryPolicy,
) -> dict[str, Any]:
    """The litellm arguments of one attempt (fresh copies: litellm may edit what it is given).

    The HTTP timeouts only back up our own watchdog (so an abandoned worker thread ends soon after); they stay
    the same from call to call because litellm keys its cached HTTP clients on them.
    """
    kwargs: dict[str, Any] = {
        "model": endpoint.litellm_model,
        "messages": list(_copy(adapted.messages)),
        "api_base": endpoint.api_base,
        "api_key": key or NO_KEY,
        "stream": stream,
        "max_retries": 0,
        "timeout": _http_timeout(policy, stream),
    }
    if request.temperature is not None:
        kwargs["temperature"] = request.temperature
    if request.max_tokens is not None:
        kwargs["max_tokens"] = request.max_tokens
    if request.tools:
        kwargs["tools"] = list(_copy(request.tools))
    if adapted.tool_choice is not None:
        kwargs["tool_choice"] = _copy(adapted.tool_choice)
    if stream and capability.stream_usage:
        kwargs["stream_options"] = {"include_usage": True}
    kwargs.update(_copy(dict(request.extra)))
    return kwargs


def _http_timeout(policy: RetryPolicy, stream: bool) -> Any:
    import httpx

    read = policy.stall_s if stream else policy.attempt_deadline_s
    return httpx.Timeout(read + min(max(read, 0.05), 5.0), connect=policy.connect_s)


def _copy(value: Any) -> Any:
    return json.loads(canonical_json(value))
