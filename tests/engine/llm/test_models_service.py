"""`Workbench.models`: configured models as typed views, keys in the keyring only (a refused key adds nothing),
research's default model and ceiling, fallbacks, and the connection test of a saved or a draft model."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import keyring
import keyring.backends.fail
import pytest

from stockbench.errors import InvalidInput, NotFound
from stockbench.llm import ConnectionFailed, KeyringUnavailable
from stockbench.llm.records import ModelConfig, ModelView
from stockbench.workbench import Workbench
from tests.conftest import MemoryKeyring
from tests.engine.llm.conftest import TEST_KEY
from tests.llm_server.server import LlmServer, Reply


@pytest.fixture
def bench(home: Path) -> Iterator[Workbench]:
    with Workbench.open(home) as opened:
        yield opened


def test_a_model_is_added_with_its_key_in_the_keyring_and_described(
    bench: Workbench, memory_keyring: MemoryKeyring
) -> None:
    added = bench.models.add(ModelConfig("ds", "deepseek", "deepseek-chat"), key=TEST_KEY, make_default=True)
    assert isinstance(added, ModelView)
    assert (added.name, added.litellm_model, added.api_base, added.has_key) == (
        "ds", "deepseek/deepseek-chat", "https://api.deepseek.com", True,
    )  # fmt: skip
    assert added.price is not None and added.price.currency == "USD" and added.price.per == "million tokens"
    assert memory_keyring.entries == {("stockbench", "ds"): TEST_KEY}
    assert bench.models.default_model() == "ds" and bench.models.choices() == ("offline", "ds")
    assert [m.name for m in bench.models.list()] == ["ds"] and bench.models.describe("ds") == added
    assert TEST_KEY not in str(bench.workspace.settings.all())


def test_a_key_the_keyring_refuses_adds_no_model(bench: Workbench) -> None:
    keyring.set_keyring(keyring.backends.fail.Keyring())
    with pytest.raises(KeyringUnavailable):
        bench.models.add(ModelConfig("ds", "deepseek", "deepseek-chat"), key=TEST_KEY)
    assert bench.models.configs() == ()
    added = bench.models.add(ModelConfig("local", "ollama", "qwen3:8b"))  # no key needed: none stored
    assert (added.key_required, added.has_key) == (False, None)


def test_defaults_fallbacks_and_removal(bench: Workbench, memory_keyring: MemoryKeyring) -> None:
    assert (bench.models.default_model(), bench.models.max_cost()) == ("offline", None)
    bench.models.set_defaults("offline", Decimal("2.50"))
    assert bench.models.max_cost() == Decimal("2.50")
    bench.models.set_defaults("offline", None)
    assert bench.models.max_cost() is None
    bench.models.add(ModelConfig("backup", "deepseek", "deepseek-chat"), key=TEST_KEY)
    bench.models.add(ModelConfig("main", "openai", "gpt-4o"))
    assert bench.models.set_fallback("main", "backup").fallback == "backup"
    with pytest.raises(InvalidInput, match="is the fallback of main"):
        bench.models.remove("backup")
    removed = bench.models.remove("main")
    assert (removed.name, removed.removed, removed.key_deleted) == ("main", True, False)
    assert bench.models.remove("backup").key_deleted is True and memory_keyring.entries == {}
    with pytest.raises(NotFound):
        bench.models.config("backup")


def test_presets_and_providers_come_from_the_shipped_tables(bench: Workbench) -> None:
    assert [p.key for p in bench.models.presets()][:2] == ["deepseek", "openai"]
    assert bench.models.preset("kimi").provider.name == "moonshot"
    assert "openai_compatible" in [p.name for p in bench.models.providers()]
    with pytest.raises(InvalidInput, match="unknown model preset"):
        bench.models.preset("claude")


def test_a_draft_is_tested_with_its_typed_key_and_nothing_is_stored(
    bench: Workbench, llm_server: LlmServer, memory_keyring: MemoryKeyring
) -> None:
    llm_server.script(Reply.text("ok"))
    found = bench.models.probe_draft(ModelConfig("mine", "openai", "test-model", llm_server.base_url), TEST_KEY)
    assert (found.name, found.content, found.streamed) == ("mine", "ok", True) and found.latency_ms >= 0
    assert llm_server.chats[-1].authorization_is(f"Bearer {TEST_KEY}")
    assert memory_keyring.entries == {} and bench.models.configs() == ()


def test_a_failed_test_says_why_without_the_key(bench: Workbench, llm_server: LlmServer) -> None:
    llm_server.script(Reply.failing(401, f"invalid api key {TEST_KEY}"))
    bench.models.add(ModelConfig("mine", "openai", "test-model", llm_server.base_url), key=TEST_KEY)
    with pytest.raises(ConnectionFailed) as failed:
        bench.models.probe("mine")
    assert failed.value.kind == "auth" and failed.value.code == "model_unavailable"
    assert TEST_KEY not in failed.value.message and not failed.value.network_class
