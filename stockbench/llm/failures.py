"""Why a model call's attempt failed: exceptions from litellm (or httpx below it) sorted into `Failure`s.

A network-class failure (connection, timeout, 429, 5xx, a broken or stalled stream, a malformed answer) may
succeed when retried; any other (401/403, 400, 404, content policy, context window) will not. litellm is
passed in, never imported here: only stockbench.llm.client imports it.
"""

from __future__ import annotations

import email.utils
from dataclasses import dataclass
from datetime import UTC
from typing import Any

from stockbench.clock import Clock
from stockbench.errors import UserError, redact

MAX_ERROR_TEXT = 600


@dataclass(eq=False)
class Failure(Exception):
    """Why an attempt failed, classified. `mid_stream`: the stream had opened before it failed."""

    kind: str
    network_class: bool
    message: str
    error_class: str
    status_code: int | None = None
    retry_after: float | None = None
    mid_stream: bool = False

    def __str__(self) -> str:
        return self.message


def classify(
    error: BaseException, litellm: Any, *, mid_stream: bool = False, secrets: tuple[str, ...] = (), clock: Clock
) -> Failure:
    """Sort an exception from litellm (or httpx below it) into a network-class failure or not."""
    import httpx

    exc = litellm.exceptions
    status = _status(error)
    text = redact(str(error), secrets)[:MAX_ERROR_TEXT] or type(error).__name__

    def failure(kind: str, network: bool, *, retry_after: float | None = None) -> Failure:
        return Failure(kind, network, text, type(error).__name__, status, retry_after, mid_stream)

    if isinstance(error, exc.ContentPolicyViolationError):
        return failure("content_policy", False)
    if isinstance(error, exc.AuthenticationError | exc.PermissionDeniedError) or status in (401, 403):
        return failure("auth", False)
    if isinstance(error, exc.RateLimitError) or status == 429:
        return failure("rate_limited", True, retry_after=retry_after_seconds(error, clock))
    if isinstance(error, exc.Timeout | httpx.TimeoutException) or status == 408:
        return failure("stalled" if mid_stream else "timeout", True)
    if isinstance(error, exc.MidStreamFallbackError) or (mid_stream and (status is None or transport(error))):
        return failure("stream_broken", True)
    if isinstance(error, exc.APIConnectionError | httpx.TransportError) or transport(error):
        return failure("connection", True)
    if isinstance(error, exc.ServiceUnavailableError | exc.InternalServerError | exc.BadGatewayError) or (
        status is not None and status >= 500
    ):
        wait = retry_after_seconds(error, clock)
        return failure("stream_broken" if mid_stream else "server_error", True, retry_after=wait)
    if isinstance(error, exc.ContextWindowExceededError):
        return failure("context_window", False)
    if isinstance(error, exc.NotFoundError) or status == 404:
        return failure("not_found", False)
    if isinstance(error, exc.BadRequestError) or status in (400, 422):
        return failure("bad_request", False)
    if isinstance(error, UserError):
        return failure("rejected", False)
    return failure("unexpected", False)


def timeout_failure(stalled: bool, opened: bool, stall_s: float) -> Failure:
    """Our own watchdog's verdict: the stream stalled, or the attempt's deadline passed."""
    if stalled:
        return Failure("stalled", True, f"the stream stalled: no chunk for {stall_s:g} s", "StreamStalled",
                       mid_stream=True)  # fmt: skip
    return Failure("timeout", True, "the attempt's deadline passed", "AttemptDeadline", mid_stream=opened)


def broken_stream() -> Failure:
    """A stream that ended without the provider saying it had finished."""
    return Failure("stream_broken", True, "the stream ended before the model finished", "StreamIncomplete",
                   mid_stream=True)  # fmt: skip


def malformed(error: Exception) -> Failure:
    """An answer that arrived but could not be read (retryable: the next answer may be whole)."""
    return Failure("malformed_response", True, f"the provider's answer could not be read: {error}",
                   type(error).__name__)  # fmt: skip


def hint(failure: Failure, name: str) -> str:
    """What the user can do about the last failure on model `name`."""
    if failure.network_class:
        return "the provider or the network is failing; try again later, or configure a fallback model"
    if failure.kind == "auth":
        return f"the provider refused the key: store a valid one with `stockbench models key {name}`"
    if failure.kind == "not_found":
        return f"check the model id and API base: `stockbench models add {name} ... --replace`"
    return "the provider rejected the request; the reason above says why"


def _status(error: BaseException) -> int | None:
    status = getattr(error, "status_code", None)
    return status if isinstance(status, int) else None


def retry_after_seconds(error: BaseException, clock: Clock) -> float | None:
    """Seconds to wait from a Retry-After header (seconds or an HTTP date), if the error carries one."""
    response = getattr(error, "response", None)
    headers = getattr(response, "headers", None) or getattr(error, "litellm_response_headers", None) or {}
    value = headers.get("retry-after") if hasattr(headers, "get") else None
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(str(value))
    except (TypeError, ValueError):
        return None
    return max(0.0, (when.astimezone(UTC) - clock.now()).total_seconds())


def transport(error: BaseException) -> bool:
    """Whether the cause was the connection itself (refused, reset, cut short), not an HTTP status.

    litellm reports some of these as a 500 "Connection error."; the cause chain still says what happened.
    """
    import httpx

    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, httpx.TransportError) or type(cause).__name__ == "APIConnectionError":
            return True
        cause = cause.__cause__ or cause.__context__
    return False
