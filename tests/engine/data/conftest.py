"""Fixtures for the data-provider tests: a loopback replay server and HTTP clients that talk only to it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from stockbench.data.http import HostPolicy, HttpClient
from tests.engine.data.replay_server import ReplayServer

# No pacing, one quick retry: the tests exercise the retry path without waiting for it.
FAST = HostPolicy(min_interval=0.0, jitter=0.0, timeout=2.0, retries=1, backoff=0.001, max_backoff=0.01)
IMPATIENT = HostPolicy(min_interval=0.0, jitter=0.0, timeout=0.15, retries=0, backoff=0.001, max_backoff=0.01)


@pytest.fixture
def replay() -> Iterator[ReplayServer]:
    """A replay server on 127.0.0.1, stopped after the test."""
    server = ReplayServer().start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def http() -> Iterator[HttpClient]:
    """A client for the replay server: loopback documents allowed explicitly, proxies from the environment ignored.
    Shared by the session (creating a client costs a TLS context); with no pacing it carries no state between tests."""
    client = HttpClient(policies={}, default_policy=FAST, allow_loopback=True, trust_env=False)
    yield client
    client.close()


@pytest.fixture(scope="session")
def impatient_http() -> Iterator[HttpClient]:
    """Like `http`, with a 0.15 s timeout and no retry, for the timeout faults."""
    client = HttpClient(policies={}, default_policy=IMPATIENT, allow_loopback=True, trust_env=False)
    yield client
    client.close()
