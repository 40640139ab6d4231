"""`LlmClient`: one chat completion through litellm, with our own attempt loop around it.

Each attempt runs on a worker thread while the caller watches a per-attempt deadline and, for streams, a stall
watchdog (no chunk for `stall_s`). Network-class failures (connection, timeout, 429, 5xx, a broken or stalled
stream) are retried with jittered backoff; a stream that breaks mid-way makes the next attempts plain requests;
when a model's attempts are spent the configured fallback model is tried; then `ModelUnavailable` is raised with
`network_class=True`. Other failures (401/403, 400, content policy, no key) raise at once with
`network_class=False`. Every attempt is reported to `on_attempt` as an `Attempt` (never with the key in it).

litellm is imported on first use only (it takes seconds, and would fetch its price map over the network unless
told otherwise): `import_litellm()` sets the offline switches first, and the desktop shell may call it on a
background thread at start-up.
"""

from __future__ import annotations

import contextlib
import email.utils
import os
import queue
import random
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from types import ModuleType
from typing import Any, Literal

from stockbench.clock import Clock, SystemClock
from stockbench.errors import UserError
from stockbench.llm import KeyringUnavailable, ModelUnavailable
from stockbench.llm.capabilities import Adapted, Capability, adapt
from stockbench.llm.keys import KeyStore, OsKeyring, redact
from stockbench.llm.messages import ChatRequest, ChatResponse, ToolCall, Usage, canonical_json
from stockbench.llm.models import Endpoint, ModelRegistry

# Set before litellm is imported: no price-map fetch, no other catalogue downloads, quiet logs.
OFFLINE_ENV = {
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "LITELLM_OFFLINE_MODE": "true",
    "LITELLM_LOCAL_ANTHROPIC_BETA_HEADERS": "true",
    "LITELLM_LOCAL_BLOG_POSTS": "true",
    "LITELLM_LOCAL_AUTOROUTER_PRESETS": "true",
    "LITELLM_LOCAL_POLICY_TEMPLATES": "true",
}
NO_KEY = "no-key"  # sent to keyless endpoints so the SDK never falls back to a key from the environment
MAX_ERROR_TEXT = 600

Outcome = Literal["ok", "network_error", "error"]
NextStep = Literal["done", "retry", "retry_without_stream", "fallback_model", "give_up"]

_loaded: dict[str, ModuleType] = {}  # "litellm" once imported and configured
_import_lock = threading.Lock()


def import_litellm() -> ModuleType:
    """Import and configure litellm once (offline cost map, no callbacks, no retries of its own)."""
    with _import_lock:
        if "litellm" not in _loaded:
            os.environ.update(OFFLINE_ENV)
            os.environ.setdefault("LITELLM_LOG", "ERROR")
            with warnings.catch_warnings():
                # litellm's modules (some loaded on the first call) trip pydantic warnings that are not ours
                warnings.simplefilter("ignore")
                import litellm

                _configure(litellm)
                _warm_up(litellm)
            _loaded["litellm"] = litellm
    return _loaded["litellm"]


def _warm_up(litellm: Any) -> None:
    """Run litellm's offline mock path once per mode so the modules it loads lazily load now, not mid-call."""
    for stream in (False, True):
        result = litellm.completion(model="openai/warm-up", messages=[{"role": "user", "content": "-"}],
                                    mock_response="-", api_key=NO_KEY, stream=stream)  # fmt: skip
        if stream:
            for _ in result:
                pass


def _configure(litellm: Any) -> None:
    litellm.suppress_debug_info = True
    litellm.turn_off_message_logging = True
    litellm.disable_streaming_logging = True
    litellm.disable_hf_tokenizer_download = True
    litellm.drop_params = False
    litellm.cache = None
    for name in ("callbacks", "success_callback", "failure_callback", "input_callback", "service_callback"):
        if isinstance(getattr(litellm, name, None), list):
            setattr(litellm, name, [])


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


@dataclass
class _Exchange:
    """One litellm call on a worker thread; its events arrive on `events` and the caller may abandon it."""

    kwargs: dict[str, Any]
    events: queue.Queue[tuple[str, Any]] = field(default_factory=queue.Queue)
    abandoned: threading.Event = field(default_factory=threading.Event)

    def start(self, litellm: Any) -> _Exchange:
        threading.Thread(target=self._run, args=(litellm,), name="llm-attempt", daemon=True).start()
        return self

    def _run(self, litellm: Any) -> None:
        try:
            result = litellm.completion(**self.kwargs)
            if not self.kwargs.get("stream"):
                self.events.put(("response", result))
                return
            self.events.put(("opened", None))
            try:
                for chunk in result:
                    if self.abandoned.is_set():
                        return
                    self.events.put(("chunk", chunk))
            finally:
                _close_quietly(result)
            self.events.put(("end", _stream_end(result)))
        except BaseException as error:  # handed to the caller, who classifies it
            self.events.put(("error", error))


@dataclass(frozen=True)
class _StreamEnd:
    """What only litellm's stream wrapper knows at the end: did the provider finish, and what usage it sent.

    litellm makes up a final "stop" and counts tokens itself when the provider sends neither; those are not
    the provider's word, so they are not used.
    """

    finished: bool
    usage: Any


def _stream_end(stream: Any) -> _StreamEnd:
    flags = ("received_finish_reason", "intermittent_finish_reason", "received_any_finish_reason")
    reported = [c.usage for c in getattr(stream, "chunks", ()) if getattr(c, "usage", None) is not None]
    return _StreamEnd(any(getattr(stream, f, None) for f in flags), reported[-1] if reported else None)


def _assembled(source: Any, served_by: str) -> ChatResponse:
    """The response of a finished attempt; a malformed answer is a (retryable) failure."""
    try:
        if isinstance(source, _StreamAssembly):
            return source.response(served_by)
        return _from_response(source, served_by)
    except (AttributeError, IndexError, KeyError, TypeError, ValueError) as error:
        raise Failure("malformed_response", True, f"the provider's answer could not be read: {error}",
                      type(error).__name__) from None  # fmt: skip


def _close_quietly(stream: Any) -> None:
    close = getattr(stream, "close", None)
    if callable(close):
        with contextlib.suppress(Exception):  # the attempt has ended either way; the connection is dropped
            close()


class LlmClient:
    """Chat completions for configured models, with retries, stream fallback and model fallback."""

    def __init__(
        self,
        models: ModelRegistry,
        *,
        keys: KeyStore | None = None,
        policy: RetryPolicy | None = None,
        clock: Clock | None = None,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
    ) -> None:
        self.models = models
        self.keys: KeyStore = keys or OsKeyring()
        self.policy = policy or RetryPolicy()
        self._clock = clock or SystemClock()
        self._sleep = sleep
        self._rng = rng or random.Random()

    def capability(self, name: str) -> Capability:
        """What the configured model `name` supports (context size, tool_choice, streaming)."""
        config = self.models.get(name)
        return self.models.capabilities.for_model(config.provider, config.model)

    def complete(
        self,
        request: ChatRequest,
        *,
        on_attempt: Callable[[Attempt], None] | None = None,
        deadline_s: float | None = None,
        fallback: bool = True,
    ) -> ChatResponse:
        """Answer `request`, trying its model and then its fallbacks; `deadline_s` bounds the whole call.

        Raises ModelUnavailable: `network_class` True when only network-class failures occurred.
        """
        import_litellm()  # before any deadline starts: the first import takes seconds
        run = _Run(self, request, on_attempt, None if deadline_s is None else time.monotonic() + deadline_s)
        chain = self.models.chain(request.model) if fallback else (self.models.get(request.model),)
        endpoints = [self.models.endpoint(c) for c in chain]
        for position, endpoint in enumerate(endpoints):
            key = self._key(endpoint, required=position == 0)
            if key is None:
                run.note(f"fallback model '{endpoint.config.name}' skipped: no API key stored")
                continue
            response = run.on_model(endpoint, key, last=position == len(endpoints) - 1)
            if response is not None:
                return response
        raise run.unavailable()

    def _key(self, endpoint: Endpoint, *, required: bool) -> str | None:
        """The key for `endpoint` ("" when the provider needs none); None or an error when missing."""
        if not endpoint.preset.requires_key:
            return self._stored_key(endpoint.config.name, required=False) or ""
        found = self._stored_key(endpoint.config.name, required=required)
        if found is None and required:
            name = endpoint.config.name
            raise ModelUnavailable(f"no API key is stored for model '{name}'", network_class=False,
                                   hint=f"store one with: stockbench models key {name}")  # fmt: skip
        return found

    def _stored_key(self, name: str, *, required: bool) -> str | None:
        try:
            return self.keys.get(name)
        except KeyringUnavailable as error:
            if not required:
                return None
            raise ModelUnavailable(error.message, network_class=False, hint=error.hint) from None

    def _attempt(self, endpoint: Endpoint, key: str, kwargs: dict[str, Any], deadline_at: float) -> ChatResponse:
        """One attempt: run the call on a worker thread and watch it. Raises Failure."""
        litellm = import_litellm()
        stream = bool(kwargs.get("stream"))
        exchange = _Exchange(kwargs).start(litellm)
        assembly = _StreamAssembly()
        opened = False
        while True:
            remaining = deadline_at - time.monotonic()
            watching_stall = stream and opened and self.policy.stall_s < remaining
            try:
                kind, value = exchange.events.get(
                    timeout=max(0.0, self.policy.stall_s if watching_stall else remaining)
                )
            except queue.Empty:
                exchange.abandoned.set()
                raise _timeout_failure(watching_stall, opened, self.policy.stall_s) from None
            if kind == "error":
                raise classify(value, litellm, mid_stream=opened, secrets=(key,), clock=self._clock)
            if kind == "opened":
                opened = True
            elif kind == "chunk":
                assembly.add(value)
            elif kind == "end" and not value.finished:
                raise Failure("stream_broken", True, "the stream ended before the model finished", "StreamIncomplete",
                              mid_stream=True)  # fmt: skip
            else:
                return _assembled(value if kind == "response" else assembly.ended(value), endpoint.config.name)


@dataclass
class _Run:
    """The state of one `complete` call across its attempts and models."""

    client: LlmClient
    request: ChatRequest
    on_attempt: Callable[[Attempt], None] | None
    deadline_at: float | None
    notes: list[str] = field(default_factory=list)
    number: int = 0
    failures: list[tuple[str, Failure]] = field(default_factory=list)

    def on_model(self, endpoint: Endpoint, key: str, *, last: bool) -> ChatResponse | None:
        """Attempts on one model; the response, or None when this model is spent (network-class failures)."""
        policy = self.client.policy
        capability = self.client.models.capabilities.for_model(endpoint.config.provider, endpoint.config.model)
        adapted = adapt(self.request, capability)
        stream = policy.stream and capability.stream
        for attempt in range(1, policy.attempts_per_model + 1):
            deadline_at = time.monotonic() + policy.attempt_deadline_s
            if self.deadline_at is not None:
                deadline_at = min(deadline_at, self.deadline_at)
            if deadline_at <= time.monotonic():
                self.note("the call's deadline passed")
                return None
            self.number += 1
            started = self.client._clock.now()
            kwargs = _kwargs(self.request, endpoint, key=key, adapted=adapted, capability=capability, stream=stream,
                             policy=policy)  # fmt: skip
            try:
                response = self.client._attempt(endpoint, key, kwargs, deadline_at)
            except Failure as failure:
                step, wait = self._next_step(failure, attempt, stream, last)
                self._report(endpoint, stream, started, adapted.dropped, failure=failure, step=step, wait=wait)
                self.failures.append((endpoint.config.name, failure))
                if not failure.network_class:
                    raise self.unavailable() from None
                if step in ("fallback_model", "give_up"):
                    return None
                stream = stream and step != "retry_without_stream"
                self.client._sleep(wait)
                continue
            self._report(endpoint, stream, started, adapted.dropped, usage=response.usage)
            return replace(response, notes=(*adapted.dropped, *self.notes))
        return None

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def _next_step(self, failure: Failure, attempt: int, stream: bool, last: bool) -> tuple[NextStep, float]:
        policy = self.client.policy
        spent = attempt >= policy.attempts_per_model or (failure.retry_after or 0) > policy.retry_after_max_s
        if not failure.network_class or (spent and last):
            return "give_up", 0.0
        if spent:
            return "fallback_model", 0.0
        wait = policy.backoff(attempt, self.client._rng, failure.retry_after)
        if self.deadline_at is not None and time.monotonic() + wait >= self.deadline_at:
            return ("give_up" if last else "fallback_model"), 0.0
        return ("retry_without_stream" if stream and failure.mid_stream else "retry"), wait

    def _report(self, endpoint: Endpoint, stream: bool, started: datetime, dropped: tuple[str, ...], *,
                failure: Failure | None = None, usage: Usage | None = None, step: NextStep = "done",
                wait: float = 0.0) -> None:  # fmt: skip
        if self.on_attempt is None:
            return
        outcome: Outcome = "ok" if failure is None else "network_error" if failure.network_class else "error"
        error: dict[str, Any] = {}
        if failure is not None:
            error = {"error_class": failure.error_class, "error_kind": failure.kind,
                     "error_message": failure.message, "status_code": failure.status_code}  # fmt: skip
        self.on_attempt(
            Attempt(
                number=self.number, model=endpoint.config.name, litellm_model=endpoint.litellm_model, stream=stream,
                started=started, ended=self.client._clock.now(), outcome=outcome, usage=usage, dropped=dropped,
                next=step, wait_s=wait, **error,
            )
        )  # fmt: skip

    def unavailable(self) -> ModelUnavailable:
        """The error ending the call, from the last failure (and every note on the way)."""
        if not self.failures:
            reason = "; ".join(self.notes) or "no model could be tried"
            return ModelUnavailable(f"model '{self.request.model}' was not called: {reason}", network_class=True)
        name, last = self.failures[-1]
        network = all(f.network_class for _, f in self.failures)
        tried = sorted({n for n, _ in self.failures})
        reason = f"model '{name}' failed ({last.kind}): {last.message}"
        if len(self.failures) > 1:
            reason += f" [{len(self.failures)} attempts on {', '.join(tried)}]"
        if self.notes:
            reason += f"; {'; '.join(self.notes)}"
        return ModelUnavailable(reason, network_class=network, hint=_hint(last, name))


def _hint(failure: Failure, name: str) -> str:
    if failure.network_class:
        return "the provider or the network is failing; try again later, or configure a fallback model"
    if failure.kind == "auth":
        return f"the provider refused the key: store a valid one with `stockbench models key {name}`"
    if failure.kind == "not_found":
        return f"check the model id and API base: `stockbench models add {name} ... --replace`"
    return "the provider rejected the request; the reason above says why"


def _kwargs(
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


def close_clients() -> None:
    """Close the HTTP clients litellm keeps for reuse (at shutdown; tests call it when a server stops)."""
    if "litellm" not in _loaded:
        return
    cache = _loaded["litellm"].in_memory_llm_clients_cache
    for key, client in list(getattr(cache, "cache_dict", {}).items()):
        close = getattr(client, "close", None)
        if not callable(close) or getattr(client, "is_async", False) or "Async" in type(client).__name__:
            continue
        _close_quietly(client)
        cache.cache_dict.pop(key, None)
        getattr(cache, "ttl_dict", {}).pop(key, None)


def _copy(value: Any) -> Any:
    import json

    return json.loads(canonical_json(value))


def _timeout_failure(stalled: bool, opened: bool, stall_s: float) -> Failure:
    if stalled:
        return Failure("stalled", True, f"the stream stalled: no chunk for {stall_s:g} s", "StreamStalled",
                       mid_stream=True)  # fmt: skip
    return Failure("timeout", True, "the attempt's deadline passed", "AttemptDeadline", mid_stream=opened)


def _status(error: BaseException) -> int | None:
    status = getattr(error, "status_code", None)
    return status if isinstance(status, int) else None


def _retry_after(error: BaseException, clock: Clock) -> float | None:
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
        return failure("rate_limited", True, retry_after=_retry_after(error, clock))
    if isinstance(error, exc.Timeout | httpx.TimeoutException) or status == 408:
        return failure("stalled" if mid_stream else "timeout", True)
    if isinstance(error, exc.MidStreamFallbackError) or (mid_stream and (status is None or _transport(error))):
        return failure("stream_broken", True)
    if isinstance(error, exc.APIConnectionError | httpx.TransportError) or _transport(error):
        return failure("connection", True)
    if isinstance(error, exc.ServiceUnavailableError | exc.InternalServerError | exc.BadGatewayError) or (
        status is not None and status >= 500
    ):
        return failure("stream_broken" if mid_stream else "server_error", True, retry_after=_retry_after(error, clock))
    if isinstance(error, exc.ContextWindowExceededError):
        return failure("context_window", False)
    if isinstance(error, exc.NotFoundError) or status == 404:
        return failure("not_found", False)
    if isinstance(error, exc.BadRequestError) or status in (400, 422):
        return failure("bad_request", False)
    if isinstance(error, UserError):
        return failure("rejected", False)
    return failure("unexpected", False)


def _transport(error: BaseException) -> bool:
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


def _get(obj: Any, name: str) -> Any:
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)


def _dump(obj: Any) -> dict[str, Any]:
    """A litellm/pydantic object as plain JSON data (unknown leaves as text)."""
    import json

    data = obj.model_dump(exclude_none=True) if hasattr(obj, "model_dump") else dict(obj)
    plain: dict[str, Any] = json.loads(json.dumps(data, default=str))
    return plain


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value != "" else None


def _from_response(result: Any, served_by: str) -> ChatResponse:
    """A plain (non-streamed) litellm response as a ChatResponse."""
    choice = result.choices[0]
    message = choice.message
    calls = tuple(
        ToolCall.parse(str(_get(c, "id") or ""), str(_get(_get(c, "function"), "name") or ""),
                       str(_get(_get(c, "function"), "arguments") or ""))
        for c in (_get(message, "tool_calls") or ())
    )  # fmt: skip
    usage = _get(result, "usage")
    return ChatResponse(
        content=_text(_get(message, "content")),
        tool_calls=calls,
        reasoning_content=_text(_get(message, "reasoning_content")),
        usage=Usage.from_raw(_dump(usage)) if usage is not None and _usage_present(usage) else None,
        model=str(_get(result, "model") or ""),
        finish_reason=_get(choice, "finish_reason"),
        raw=_dump(result),
        served_by=served_by,
    )


def _usage_present(usage: Any) -> bool:
    """litellm fills an absent usage with zeros; a real report has a positive prompt count."""
    prompt = _get(usage, "prompt_tokens")
    return isinstance(prompt, int) and prompt > 0


@dataclass
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


class _StreamAssembly:
    """Streamed chunks put back together: content, reasoning, tool calls by index (ids, names, argument pieces)."""

    def __init__(self) -> None:
        self.content: list[str] = []
        self.reasoning: list[str] = []
        self.calls: dict[int, _PartialCall] = {}
        self.finish_reason: str | None = None
        self.usage: dict[str, Any] | None = None
        self.model = ""
        self.id = ""
        self.chunks = 0

    def add(self, chunk: Any) -> None:
        self.chunks += 1
        self.model = self.model or str(_get(chunk, "model") or "")
        self.id = self.id or str(_get(chunk, "id") or "")
        for choice in _get(chunk, "choices") or ():
            self._add_choice(choice)

    def _add_choice(self, choice: Any) -> None:
        if _get(choice, "index") not in (0, None):
            return
        self.finish_reason = _get(choice, "finish_reason") or self.finish_reason
        delta = _get(choice, "delta")
        if delta is None:
            return
        if isinstance(piece := _get(delta, "content"), str):
            self.content.append(piece)
        if isinstance(piece := _get(delta, "reasoning_content"), str):
            self.reasoning.append(piece)
        for call in _get(delta, "tool_calls") or ():
            self._add_call(call)

    def _add_call(self, delta: Any) -> None:
        index = _get(delta, "index")
        call_id = str(_get(delta, "id") or "")
        if not isinstance(index, int):
            known = [i for i, c in self.calls.items() if call_id and c.id == call_id]
            index = known[0] if known else (max(self.calls) + 1 if call_id or not self.calls else max(self.calls))
        partial = self.calls.setdefault(index, _PartialCall())
        partial.id = partial.id or call_id
        function = _get(delta, "function")
        partial.name = partial.name or str(_get(function, "name") or "")
        if isinstance(fragment := _get(function, "arguments"), str):
            partial.arguments.append(fragment)

    def ended(self, end: _StreamEnd) -> _StreamAssembly:
        self.usage = None if end.usage is None else _dump(end.usage)
        return self

    def response(self, served_by: str) -> ChatResponse:
        calls = tuple(ToolCall.parse(c.id, c.name, "".join(c.arguments)) for _, c in sorted(self.calls.items()))
        usage = Usage.from_raw(self.usage) if self.usage is not None else None
        raw = {"id": self.id, "model": self.model, "chunks": self.chunks, "finish_reason": self.finish_reason,
               "usage": self.usage, "streamed": True}  # fmt: skip
        return ChatResponse(
            content=_text("".join(self.content)),
            tool_calls=calls,
            reasoning_content=_text("".join(self.reasoning)),
            usage=usage,
            model=self.model,
            finish_reason=self.finish_reason,
            raw=raw,
            served_by=served_by,
        )
