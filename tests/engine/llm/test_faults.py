"""Every fault the scripted server can produce, each ending as designed: retried, fallen back to a plain request,
fallen back to the fallback model, or raised with the right `network_class` (and never with the key in it)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from stockbench.clock import ReplayClock
from stockbench.llm import ModelUnavailable
from stockbench.llm.client import LlmClient
from stockbench.llm.messages import ChatRequest, user
from stockbench.llm.models import ModelConfig, ModelRegistry
from tests.engine.llm.conftest import FAST, TEST_KEY, Recorder
from tests.llm_server.server import LlmServer, Reply, SeenRequest, openai_usage

ANSWER = Reply.text("最新价 1650.00 元。", usage=openai_usage(40, 8))
LONG = "涨跌停价按前收盘价计算，" * 4


def ask(model: str = "main") -> ChatRequest:
    return ChatRequest(model, (user("报价？"),))


def fails(client: LlmClient, recorder: Recorder, request: ChatRequest | None = None) -> ModelUnavailable:
    with pytest.raises(ModelUnavailable) as caught:
        client.complete(request or ask(), on_attempt=recorder.attempt)
    return caught.value


def test_a_502_is_retried_after_a_jittered_backoff(
    client: LlmClient, add_model: Callable[..., ModelConfig], llm_server: LlmServer, recorder: Recorder
) -> None:
    add_model()
    llm_server.script(Reply.failing(502), ANSWER)
    assert client.complete(ask(), on_attempt=recorder.attempt).content == ANSWER.content
    assert recorder.steps() == [("main", True, "server_error", "retry"), ("main", True, "ok", "done")]
    first = recorder.attempts[0]
    assert (first.outcome, first.status_code, first.error_class) == ("network_error", 502, "BadGatewayError")
    [wait] = recorder.sleeps
    assert FAST.backoff_base_s / 2 <= wait <= FAST.backoff_base_s == 0.5
    assert wait == first.wait_s
    assert len(llm_server.chats) == 2  # nothing retried underneath us (the SDK's own retries are off)


def test_backoff_doubles_and_is_capped() -> None:
    rng = random.Random(1)
    waits = [FAST.backoff(n, rng, None) for n in range(1, 7)]
    caps = [0.5, 1.0, 2.0, 4.0, 4.0, 4.0]
    assert all(cap / 2 <= wait <= cap for wait, cap in zip(waits, caps, strict=True))
    assert FAST.backoff(1, rng, retry_after=3.0) == 3.0


def test_a_429_waits_as_long_as_retry_after_says(
    client: LlmClient, add_model: Callable[..., ModelConfig], llm_server: LlmServer, recorder: Recorder
) -> None:
    add_model()
    llm_server.script(Reply.failing(429, "rate limited", retry_after="3"), ANSWER)
    client.complete(ask(), on_attempt=recorder.attempt)
    assert recorder.steps()[0] == ("main", True, "rate_limited", "retry")
    assert recorder.sleeps == [3.0]


def test_retry_after_as_an_http_date(
    registry: ModelRegistry, add_model: Callable[..., ModelConfig], llm_server: LlmServer, recorder: Recorder
) -> None:
    now = datetime(2026, 3, 2, 1, 30, tzinfo=UTC)
    client = LlmClient(registry, policy=FAST, sleep=recorder.sleep, clock=ReplayClock(now))
    add_model()
    llm_server.script(Reply.failing(429, retry_after=format_datetime(now + timedelta(seconds=7), usegmt=True)), ANSWER)
    client.complete(ask(), on_attempt=recorder.attempt)
    assert recorder.sleeps == [7.0]


def test_a_retry_after_beyond_the_limit_moves_to_the_fallback_model(
    client: LlmClient, add_model: Callable[..., ModelConfig], llm_server: LlmServer, recorder: Recorder
) -> None:
    add_model("backup")
    add_model("main", fallback="backup")
    llm_server.script(Reply.failing(429, retry_after="3600"), ANSWER)
    response = client.complete(ask(), on_attempt=recorder.attempt)
    assert response.served_by == "backup"
    assert recorder.steps() == [("main", True, "rate_limited", "fallback_model"), ("backup", True, "ok", "done")]
    assert recorder.sleeps == []


def test_a_timeout_is_retried(
    registry: ModelRegistry, add_model: Callable[..., ModelConfig], llm_server: LlmServer, recorder: Recorder
) -> None:
    client = LlmClient(registry, policy=replace(FAST, attempt_deadline_s=0.3), sleep=recorder.sleep)
    add_model()
    llm_server.script(replace(ANSWER, delay=5.0), ANSWER)
    started = time.monotonic()
    assert client.complete(ask(), on_attempt=recorder.attempt).content == ANSWER.content
    assert time.monotonic() - started < 4.0  # not the 5 s the server would have made it wait
    assert recorder.steps() == [("main", True, "timeout", "retry"), ("main", True, "ok", "done")]
    assert recorder.attempts[0].error_class == "AttemptDeadline"


@pytest.mark.parametrize(
    "broken",
    [Reply.text(LONG, cut_after=3), Reply.text(LONG, end_after=3)],
    ids=["connection-dropped", "ended-without-finishing"],
)
def test_a_stream_broken_mid_way_falls_back_to_a_plain_request(
    client: LlmClient, add_model: Callable[..., ModelConfig], llm_server: LlmServer, recorder: Recorder, broken: Reply
) -> None:
    add_model()
    llm_server.script(broken, Reply.text(LONG))
    response = client.complete(ask(), on_attempt=recorder.attempt)
    assert response.content == LONG
    assert recorder.steps() == [("main", True, "stream_broken", "retry_without_stream"), ("main", False, "ok", "done")]
    assert [r.stream for r in llm_server.chats] == [True, False]
    assert response.raw.get("streamed") is None


def test_a_truncated_plain_answer_is_retried(
    registry: ModelRegistry, add_model: Callable[..., ModelConfig], llm_server: LlmServer, recorder: Recorder
) -> None:
    client = LlmClient(registry, policy=replace(FAST, stream=False), sleep=recorder.sleep)
    add_model()
    llm_server.script(Reply.text(LONG, cut_after=1), Reply.text(LONG))
    assert client.complete(ask(), on_attempt=recorder.attempt).content == LONG
    assert recorder.steps() == [("main", False, "connection", "retry"), ("main", False, "ok", "done")]


@pytest.mark.parametrize("keepalive", [0.0, 0.05], ids=["silent", "keep-alive-comments"])
def test_the_watchdog_aborts_a_stalled_stream(
    client: LlmClient,
    add_model: Callable[..., ModelConfig],
    *,
    llm_server: LlmServer,
    recorder: Recorder,
    keepalive: float,
) -> None:
    """A stream that stops sending chunks is abandoned after `stall_s`, even when bytes still trickle in."""
    add_model()
    llm_server.script(Reply.text(LONG, stall_after=3, stall=5.0, keepalive=keepalive), Reply.text(LONG))
    started = time.monotonic()
    assert client.complete(ask(), on_attempt=recorder.attempt).content == LONG
    assert time.monotonic() - started < 4.0  # the stall lasts 5 s: it was not waited out
    assert recorder.steps() == [("main", True, "stalled", "retry_without_stream"), ("main", False, "ok", "done")]
    assert recorder.attempts[0].error_message == "the stream stalled: no chunk for 0.3 s" or keepalive == 0.0


def by_model(replies: dict[str, Reply]) -> Callable[[SeenRequest], Reply]:
    return lambda seen: replies[seen.json["model"]]


def test_a_failing_model_hands_over_to_its_fallback(
    client: LlmClient, add_model: Callable[..., ModelConfig], llm_server: LlmServer, recorder: Recorder
) -> None:
    add_model("backup", model="backup-model")
    add_model("main", model="main-model", fallback="backup")
    llm_server.responder = by_model({"main-model": Reply.failing(503), "backup-model": ANSWER})
    response = client.complete(ask(), on_attempt=recorder.attempt)
    assert response.served_by == "backup"
    assert recorder.steps() == [
        ("main", True, "server_error", "retry"),
        ("main", True, "server_error", "retry"),
        ("main", True, "server_error", "fallback_model"),
        ("backup", True, "ok", "done"),
    ]
    assert [a.number for a in recorder.attempts] == [1, 2, 3, 4]
    assert len(recorder.sleeps) == 2


def test_when_every_model_fails_the_error_is_network_class(
    client: LlmClient, add_model: Callable[..., ModelConfig], llm_server: LlmServer, recorder: Recorder
) -> None:
    add_model("backup", model="backup-model")
    add_model("main", model="main-model", fallback="backup")
    llm_server.responder = lambda seen: Reply.failing(502)
    error = fails(client, recorder)
    assert error.network_class is True
    assert "model 'backup' failed (server_error)" in error.message and "[6 attempts on backup, main]" in error.message
    assert recorder.attempts[-1].next == "give_up"
    assert "try again later" in error.hint


def test_an_unreachable_endpoint_is_network_class(
    client: LlmClient, add_model: Callable[..., ModelConfig], recorder: Recorder
) -> None:
    add_model(api_base="http://127.0.0.1:9/v1")  # the discard port: nothing listens
    error = fails(client, recorder)
    assert error.network_class is True
    assert {a.error_kind for a in recorder.attempts} == {"connection"}
    assert len(recorder.attempts) == FAST.attempts_per_model


def test_a_rejected_key_is_not_retried_and_never_shown(
    client: LlmClient, add_model: Callable[..., ModelConfig], llm_server: LlmServer, recorder: Recorder
) -> None:
    add_model("backup")
    add_model("main", fallback="backup")
    llm_server.script(Reply.failing(401, f"Incorrect API key provided: {TEST_KEY}", kind="authentication_error"))
    error = fails(client, recorder)
    assert error.network_class is False
    assert recorder.steps() == [("main", True, "auth", "give_up")]
    assert len(llm_server.chats) == 1  # neither retried nor handed to the fallback
    assert TEST_KEY not in error.message and TEST_KEY not in str(recorder.attempts[0].as_dict())
    assert "***" in error.message
    assert "stockbench models key main" in error.hint


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (Reply.failing(400, "max_tokens is too large", kind="invalid_request_error"), "bad_request"),
        (Reply.failing(400, "Your request was rejected as a result of the safety system."), "content_policy"),
        (Reply.failing(403, "region not supported", kind="permission_error"), "auth"),
        (Reply.failing(404, "The model does not exist", kind="not_found_error"), "not_found"),
    ],
    ids=["bad-request", "content-policy", "forbidden", "unknown-model"],
)
def test_requests_the_provider_refuses_raise_at_once(
    client: LlmClient,
    add_model: Callable[..., ModelConfig],
    *,
    llm_server: LlmServer,
    recorder: Recorder,
    reply: Reply,
    kind: str,
) -> None:
    add_model()
    llm_server.script(reply)
    error = fails(client, recorder)
    assert error.network_class is False
    assert recorder.steps() == [("main", True, kind, "give_up")]


def test_the_call_deadline_bounds_all_attempts(
    registry: ModelRegistry, add_model: Callable[..., ModelConfig], llm_server: LlmServer, recorder: Recorder
) -> None:
    client = LlmClient(registry, policy=replace(FAST, attempt_deadline_s=0.3), sleep=recorder.sleep)
    add_model()
    llm_server.responder = lambda seen: replace(ANSWER, delay=5.0)
    started = time.monotonic()
    error = fails(client, recorder, ask())
    assert error.network_class is True
    assert time.monotonic() - started < 4.0  # three attempts of 0.3 s, not three of 5 s
    with pytest.raises(ModelUnavailable):
        client.complete(ask(), deadline_s=0.1, on_attempt=recorder.attempt)
    assert recorder.attempts[-1].error_kind == "timeout"


def test_a_fallback_without_a_key_is_skipped_and_said_so(
    client: LlmClient, add_model: Callable[..., ModelConfig], llm_server: LlmServer, recorder: Recorder
) -> None:
    add_model("backup", key=None)
    add_model("main", fallback="backup")
    llm_server.responder = lambda seen: Reply.failing(500)
    error = fails(client, recorder)
    assert error.network_class is True
    assert "fallback model 'backup' skipped: no API key stored" in error.message
    assert {a.model for a in recorder.attempts} == {"main"}
