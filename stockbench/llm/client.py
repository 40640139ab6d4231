"""`LlmClient`: one chat completion through litellm, with our own attempt loop around it.

Each attempt runs on a worker thread (`streams.Exchange`) while the caller watches a per-attempt deadline and,
for streams, a stall watchdog (no chunk for `stall_s`). Network-class failures (connection, timeout, 429, 5xx,
a broken or stalled stream; sorted by `failures.classify`) are retried with jittered backoff; a stream that
breaks mid-way makes the next attempts plain requests; when a model's attempts are spent the configured
fallback model is tried; then `ModelUnavailable` is raised with `network_class=True`. Other failures (401/403,
400, content policy, no key) raise at once with `network_class=False`. Every attempt is reported to
`on_attempt` as an `Attempt` (never with the key in it).

litellm is imported on first use only (it takes seconds, and would fetch its price map over the network unless
told otherwise): `import_litellm()` sets the offline switches first, and the desktop shell may call it on a
background thread at start-up. This is the only module that imports litellm; the others are handed it.
"""

from __future__ import annotations

import os
import queue
import random
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from types import ModuleType
from typing import Any

from stockbench.clock import Clock, SystemClock
from stockbench.llm import KeyringUnavailable, ModelUnavailable
from stockbench.llm.attempts import NO_KEY, Attempt, NextStep, Outcome, RetryPolicy, call_arguments
from stockbench.llm.capabilities import Capability, adapt
from stockbench.llm.failures import Failure, broken_stream, classify, hint, timeout_failure
from stockbench.llm.keys import Keys, KeyStore, OsKeyring, env_name
from stockbench.llm.messages import ChatRequest, ChatResponse, Usage
from stockbench.llm.models import Endpoint, ModelRegistry
from stockbench.llm.streams import Exchange, StreamAssembly, assembled, close_quietly
from stockbench.messages import ERRORS

__all__ = ["Attempt", "LlmClient", "RetryPolicy", "close_clients", "import_litellm"]

# Set before litellm is imported: no price-map fetch, no other catalogue downloads, quiet logs.
OFFLINE_ENV = {
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "LITELLM_OFFLINE_MODE": "true",
    "LITELLM_LOCAL_ANTHROPIC_BETA_HEADERS": "true",
    "LITELLM_LOCAL_BLOG_POSTS": "true",
    "LITELLM_LOCAL_AUTOROUTER_PRESETS": "true",
    "LITELLM_LOCAL_POLICY_TEMPLATES": "true",
}

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
        self.keys: KeyStore = keys or Keys(lambda: (OsKeyring(), "keyring"))
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
            words = {"name": name, "command": f"stockbench models key {name}", "env": env_name(name)}
            message, hint = (w.en.format(**words) for w in ERRORS["model_no_key"])
            raise ModelUnavailable(message, network_class=False, hint=hint, key="model_no_key",
                                   params=tuple(sorted(words.items())))  # fmt: skip
        return found

    def _stored_key(self, name: str, *, required: bool) -> str | None:
        try:
            return self.keys.get(name)
        except KeyringUnavailable as error:
            if not required:
                return None
            raise ModelUnavailable(error.message, network_class=False, hint=error.hint, key=error.key,
                                   params=error.params) from None  # fmt: skip

    def _attempt(self, endpoint: Endpoint, key: str, kwargs: dict[str, Any], deadline_at: float) -> ChatResponse:
        """One attempt: run the call on a worker thread and watch it. Raises Failure."""
        litellm = import_litellm()
        stream = bool(kwargs.get("stream"))
        exchange = Exchange(kwargs).start(litellm)
        assembly = StreamAssembly()
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
                raise timeout_failure(watching_stall, opened, self.policy.stall_s) from None
            if kind == "error":
                raise classify(value, litellm, mid_stream=opened, secrets=(key,), clock=self._clock)
            if kind == "opened":
                opened = True
            elif kind == "chunk":
                assembly.add(value)
            elif kind == "end" and not value.finished:
                raise broken_stream()
            else:
                return assembled(value if kind == "response" else assembly.ended(value), endpoint.config.name)


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
            kwargs = call_arguments(self.request, endpoint, key=key, adapted=adapted, capability=capability,
                                    stream=stream, policy=policy)  # fmt: skip
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
        return ModelUnavailable(reason, network_class=network, hint=hint(last, name))


def close_clients() -> None:
    """Close the HTTP clients litellm keeps for reuse (at shutdown; tests call it when a server stops)."""
    if "litellm" not in _loaded:
        return
    cache = _loaded["litellm"].in_memory_llm_clients_cache
    for key, client in list(getattr(cache, "cache_dict", {}).items()):
        close = getattr(client, "close", None)
        if not callable(close) or getattr(client, "is_async", False) or "Async" in type(client).__name__:
            continue
        close_quietly(client)
        cache.cache_dict.pop(key, None)
        getattr(cache, "ttl_dict", {}).pop(key, None)
