"""Shared fixtures: each test gets its own workspace folder; Qt runs offscreen; no network."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import keyring
import keyring.backend
import keyring.errors
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
# The user's language defaults to the system locale's (messages.language_of_locale), for messages and reports alike:
# the tests expect what a C locale gives (English), whatever the machine's locale; a test that reads a Chinese report
# asks for one (--language zh, or the workspace's report_language setting).
os.environ["LC_ALL"] = "C.UTF-8"

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh workspace folder, also set as $STOCKBENCH_HOME so nothing touches the user's data."""
    folder = tmp_path / "workspace"
    monkeypatch.setenv("STOCKBENCH_HOME", str(folder))
    return folder


@pytest.fixture
def shared_data() -> Path:
    """The shared real-data folder; tests using it skip (with the reason) when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real data not available: {SHARED_DATA} is absent (it ships beside the repository in CI)")
    return SHARED_DATA


class MemoryKeyring(keyring.backend.KeyringBackend):
    """A keyring that lives in a dict: no test ever touches the machine's real keyring."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.entries.pop((service, username), None) is None:
            raise keyring.errors.PasswordDeleteError("no such password")


@pytest.fixture(autouse=True)
def no_keys_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No STOCKBENCH_KEY_<NAME> or key file passphrase from the machine reaches a test."""
    for name in list(os.environ):
        if name.startswith("STOCKBENCH_KEY_") or name == "STOCKBENCH_KEYSTORE_PASSPHRASE":
            monkeypatch.delenv(name)


@pytest.fixture(autouse=True)
def memory_keyring() -> Iterator[MemoryKeyring]:
    """Every test gets an empty in-memory keyring (the previous backend is restored afterwards)."""
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)
