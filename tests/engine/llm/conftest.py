"""Fixtures for the model layer: the scripted OpenAI-compatible server, a registry and a client with tiny deadlines
and no real sleeping (the in-memory keyring every test gets is in tests/conftest.py)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from stockbench.llm.client import Attempt, LlmClient, RetryPolicy, close_clients, import_litellm
from stockbench.llm.keys import OsKeyring
from stockbench.llm.models import ModelConfig, ModelRegistry
from tests.llm_server.server import LlmServer

TEST_KEY = "sk-test-0123456789abcdef"
# litellm's stream handler reads every attribute of pydantic chunks, which pydantic 2.11+ flags as deprecated;
# with warnings as errors that would break streams inside litellm. (Lead: the same filter belongs in pyproject.)
LITELLM_WARNING_FILTER = r"ignore:Accessing the '\w+' attribute on the instance is deprecated:DeprecationWarning"
HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.filterwarnings(LITELLM_WARNING_FILTER))


# Tiny limits: a stalled stream is noticed in 0.3 s, an attempt may take 10 s (a loaded CI machine once
# took over 2 s to answer a plain call; the deadline tests set their own), backoff waits are recorded only.
FAST = RetryPolicy(attempts_per_model=3, backoff_base_s=0.5, backoff_max_s=4.0, retry_after_max_s=30.0,
                   attempt_deadline_s=10.0, stall_s=0.3, connect_s=1.0)  # fmt: skip


@pytest.fixture(scope="session", autouse=True)
def litellm_loaded() -> None:
    """Import litellm once, before the first test's clock starts (it takes seconds)."""
    import_litellm()


@pytest.fixture
def llm_server() -> Iterator[LlmServer]:
    server = LlmServer().start()
    yield server
    close_clients()
    server.stop()


class Settings:
    """The settings store in memory (the registry's only dependency on the workspace)."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    def set(self, key: str, value: Any) -> None:
        self.values[key] = value


@pytest.fixture
def registry() -> ModelRegistry:
    return ModelRegistry(Settings())


class Recorder:
    """Collects attempts and the backoff waits the client asked for (without waiting)."""

    def __init__(self) -> None:
        self.attempts: list[Attempt] = []
        self.sleeps: list[float] = []

    def attempt(self, attempt: Attempt) -> None:
        self.attempts.append(attempt)

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)

    def steps(self) -> list[tuple[str, bool, str, str]]:
        """(model, streamed, error kind or "ok", next step) per attempt."""
        return [(a.model, a.stream, a.error_kind or "ok", a.next) for a in self.attempts]


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def add_model(registry: ModelRegistry, llm_server: LlmServer) -> Callable[..., ModelConfig]:
    """Configure a model that talks to the test server, with the test key stored."""

    def add(name: str = "main", provider: str = "openai", model: str = "test-model", *, key: str | None = TEST_KEY,
            fallback: str | None = None, api_base: str | None = None) -> ModelConfig:  # fmt: skip
        config = registry.add(ModelConfig(name, provider, model, api_base or llm_server.base_url, fallback))
        if key is not None:
            OsKeyring().set(name, key)
        return config

    return add


@pytest.fixture
def client(registry: ModelRegistry, recorder: Recorder) -> LlmClient:
    return LlmClient(registry, policy=FAST, sleep=recorder.sleep, rng=random.Random(7))
