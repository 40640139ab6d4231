"""Failures classified without a server: by HTTP status and by cause, Retry-After in seconds or as a date, and
the key redacted from the text (litellm's exception classes stand in as plain classes: only their names count)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from types import SimpleNamespace

import httpx
import pytest

from stockbench.clock import ReplayClock
from stockbench.llm.failures import classify, hint, retry_after_seconds, timeout_failure, transport

CLOCK = ReplayClock(datetime(2026, 3, 2, 9, 30, tzinfo=UTC))
NAMES = ("ContentPolicyViolationError", "AuthenticationError", "PermissionDeniedError", "RateLimitError", "Timeout",
         "MidStreamFallbackError", "APIConnectionError", "ServiceUnavailableError", "InternalServerError",
         "BadGatewayError", "ContextWindowExceededError", "NotFoundError", "BadRequestError")  # fmt: skip
LITELLM = SimpleNamespace(exceptions=SimpleNamespace(**{n: type(n, (Exception,), {}) for n in NAMES}))


class StatusError(Exception):
    def __init__(self, status: int, text: str = "refused", headers: dict[str, str] | None = None) -> None:
        super().__init__(text)
        self.status_code = status
        self.response = SimpleNamespace(headers=headers or {})


@pytest.mark.parametrize(
    ("status", "mid_stream", "kind", "network"),
    [(401, False, "auth", False), (403, False, "auth", False), (429, False, "rate_limited", True),
     (408, False, "timeout", True), (408, True, "stalled", True), (502, False, "server_error", True),
     (503, True, "stream_broken", True), (404, False, "not_found", False), (400, False, "bad_request", False),
     (422, False, "bad_request", False), (418, False, "unexpected", False)],
)  # fmt: skip
def test_an_http_status_decides_the_kind(status: int, mid_stream: bool, kind: str, network: bool) -> None:
    found = classify(StatusError(status), LITELLM, mid_stream=mid_stream, clock=CLOCK)
    assert (found.kind, found.network_class, found.status_code, found.mid_stream) == (kind, network, status,
                                                                                      mid_stream)  # fmt: skip


def test_a_broken_connection_is_found_down_the_cause_chain() -> None:
    error = StatusError(500, "Connection error.")  # how litellm reports some refused connections
    error.__cause__ = httpx.ConnectError("refused")
    assert transport(error) and classify(error, LITELLM, clock=CLOCK).kind == "connection"
    assert not transport(StatusError(500))


def test_retry_after_in_seconds_or_as_an_http_date() -> None:
    assert retry_after_seconds(StatusError(429, headers={"retry-after": "7"}), CLOCK) == 7.0
    later = format_datetime(CLOCK.now() + timedelta(seconds=20), usegmt=True)
    assert retry_after_seconds(StatusError(429, headers={"retry-after": later}), CLOCK) == 20.0
    assert retry_after_seconds(StatusError(429, headers={"retry-after": "soon"}), CLOCK) is None
    assert retry_after_seconds(StatusError(429), CLOCK) is None
    assert classify(StatusError(429, headers={"retry-after": "3"}), LITELLM, clock=CLOCK).retry_after == 3.0


def test_the_key_never_reaches_the_message_and_hints_say_what_to_do() -> None:
    found = classify(StatusError(401, "bad key sk-secret-123"), LITELLM, secrets=("sk-secret-123",), clock=CLOCK)
    assert "sk-secret-123" not in found.message and "stockbench models key main" in hint(found, "main")
    assert timeout_failure(True, True, 0.3).kind == "stalled" and timeout_failure(False, False, 0.3).kind == "timeout"
