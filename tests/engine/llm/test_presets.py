"""The "connect your model" presets: every preset parses into a configuration the registry accepts, names and keys
are unique, every preset's provider exists in the capability table, and a broken table is refused at load."""

from __future__ import annotations

from pathlib import Path

import pytest

from stockbench.errors import InternalError, InvalidInput
from stockbench.llm.capabilities import default_table
from stockbench.llm.models import ModelRegistry
from stockbench.llm.presets import PresetTable, default_presets, draft_registry

WANTED = ["deepseek", "openai", "kimi", "qwen", "minimax", "ollama"]


def test_the_shipped_presets_parse_in_order_with_unique_keys_and_names() -> None:
    presets = default_presets().presets()
    assert [p.key for p in presets] == WANTED
    assert len({p.name for p in presets}) == len(presets)
    assert len({p.label for p in presets}) == len(presets)


@pytest.mark.parametrize("key", WANTED)
def test_every_preset_makes_a_model_the_registry_accepts(key: str, registry: ModelRegistry) -> None:
    preset = default_presets().get(key)
    assert preset.provider is default_table().provider(preset.provider.name)
    assert preset.api_base == preset.provider.api_base and preset.api_base is not None
    added = registry.add(preset.config())
    endpoint = registry.endpoint(added)
    assert (added.name, added.model, added.api_base) == (preset.name, preset.model, None)
    assert endpoint.litellm_model == preset.litellm_model() and endpoint.api_base == preset.api_base
    assert len(set(preset.models)) == len(preset.models) and len(set(preset.api_bases)) == len(preset.api_bases)


@pytest.mark.parametrize(
    ("key", "litellm_model", "requires_key"),
    [
        ("deepseek", "deepseek/deepseek-v4-flash", True),
        ("openai", "openai/gpt-5.4-mini", True),
        ("kimi", "moonshot/kimi-k2.6", True),
        ("qwen", "dashscope/qwen-plus", True),
        ("minimax", "minimax/MiniMax-M3", True),
        ("ollama", "openai/qwen3:8b", False),
    ],
)
def test_presets_route_through_the_providers_litellm_prefix(key: str, litellm_model: str, requires_key: bool) -> None:
    preset = default_presets().get(key)
    assert (preset.litellm_model(), preset.requires_key) == (litellm_model, requires_key)


def test_a_chosen_endpoint_is_kept_and_the_default_one_follows_the_provider() -> None:
    kimi = default_presets().get("kimi")
    assert kimi.config(api_base="https://api.moonshot.ai/v1").api_base == "https://api.moonshot.ai/v1"
    assert kimi.config(api_base=kimi.provider.api_base + "/").api_base is None  # type: ignore[operator]
    mine = kimi.config(name=" mine ", model=" kimi-k3 ")
    assert (mine.name, mine.model, mine.provider) == ("mine", "kimi-k3", "moonshot")


def test_an_unknown_preset_names_the_choices() -> None:
    with pytest.raises(InvalidInput, match="unknown model preset 'grok'") as caught:
        default_presets().get("grok")
    assert "deepseek" in caught.value.hint


def test_a_draft_is_checked_like_a_saved_model_and_stored_nowhere(registry: ModelRegistry) -> None:
    draft = draft_registry(default_presets().get("ollama").config(name="local"))
    assert [c.name for c in draft.list()] == ["local"] and registry.list() == ()
    with pytest.raises(InvalidInput, match="cannot name a model"):
        draft_registry(default_presets().get("ollama").config(name="Not Valid"))


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ('provider = "grok"\nmodels = ["m"]', "is malformed: unknown provider 'grok'"),
        ('provider = "deepseek"\nmodels = []', "suggests no model"),
        ('provider = "deepseek"\nmodels = [" spaced "]', "is empty or has surrounding spaces"),
        ('provider = "deepseek"\nmodels = ["m"]\napi_bases = ["ftp://x"]', "is not an http(s) URL"),
        ('provider = "deepseek"', "is malformed"),
    ],
)
def test_a_broken_table_is_refused(tmp_path: Path, body: str, error: str) -> None:
    path = tmp_path / "presets.toml"
    path.write_text(f'[[presets]]\nkey = "x"\nlabel = "X"\nname = "x"\n{body}\n', encoding="utf-8")
    with pytest.raises(InternalError, match=error.replace("(", r"\(").replace(")", r"\)")):
        PresetTable.load(path)


def test_duplicate_keys_are_refused(tmp_path: Path) -> None:
    one = '[[presets]]\nkey = "x"\nlabel = "X"\nname = "x"\nprovider = "deepseek"\nmodels = ["m"]\n'
    path = tmp_path / "presets.toml"
    path.write_text(one + one, encoding="utf-8")
    with pytest.raises(InternalError, match="unique"):
        PresetTable.load(path)
