"""Model presets for connecting a model in a few steps, from `resources/model_presets.toml`.

A preset names a provider of the capability table (which says how litellm reaches it, its default endpoint and
whether it needs a key), a suggested model name, the model ids to offer and other endpoints of the same
provider. `ModelPreset.config` turns the user's choices into the `ModelConfig` the registry stores.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from stockbench.config import resources_dir
from stockbench.errors import InternalError, InvalidInput, UserError
from stockbench.llm.capabilities import CapabilityTable, default_table
from stockbench.llm.models import ModelConfig, ModelRegistry
from stockbench.llm.records import ModelPreset
from stockbench.messages import user_error
from stockbench.store.settings import Setting

__all__ = ["PRESETS_FILE", "ModelPreset", "PresetTable", "default_presets", "draft_registry"]

T = TypeVar("T")

PRESETS_FILE = "model_presets.toml"


class PresetTable:
    """The presets in file order."""

    def __init__(self, presets: tuple[ModelPreset, ...]) -> None:
        self._presets = {p.key: p for p in presets}
        if len(self._presets) != len(presets):
            raise InternalError(f"{PRESETS_FILE}: preset keys must be unique")

    @classmethod
    def load(cls, path: Path | None = None, capabilities: CapabilityTable | None = None) -> PresetTable:
        """Read and check the table (default: the shipped resources file and capability table)."""
        table = capabilities or default_table()
        raw = tomllib.loads((path or resources_dir() / PRESETS_FILE).read_text(encoding="utf-8"))
        presets = tuple(_preset(body, table) for body in raw.get("presets", []))
        for preset in presets:
            _check(preset, table)
        return cls(presets)

    def presets(self) -> tuple[ModelPreset, ...]:
        return tuple(self._presets.values())

    def get(self, key: str) -> ModelPreset:
        """The preset `key`; InvalidInput naming the choices when unknown."""
        found = self._presets.get(key)
        if found is None:
            raise user_error(InvalidInput, "preset_unknown", name=key, choices=", ".join(self._presets))
        return found


@functools.cache
def default_presets() -> PresetTable:
    """The shipped presets, read once."""
    return PresetTable.load()


def _preset(body: Mapping[str, Any], table: CapabilityTable) -> ModelPreset:
    where = f"{PRESETS_FILE}: preset {body.get('key', '?')!r}"
    try:
        provider = table.provider(str(body["provider"]))
        models = tuple(str(m) for m in body["models"])
        extra = tuple(str(b) for b in body.get("api_bases", []))
        preset = ModelPreset(str(body["key"]), str(body["label"]), provider, str(body["name"]), models,
                             tuple(dict.fromkeys([*([provider.api_base] if provider.api_base else []), *extra])),
                             str(body.get("console", "")), str(body.get("source", "")))  # fmt: skip
    except (KeyError, TypeError, UserError) as error:
        raise InternalError(f"{where} is malformed: {error}") from None
    if not models:
        raise InternalError(f"{where} suggests no model")
    return preset


def _check(preset: ModelPreset, table: CapabilityTable) -> None:
    """Every model id and endpoint the preset offers must make a configuration the registry accepts."""
    for model in preset.models:
        for base in preset.api_bases or (None,):
            try:
                draft_registry(replace(preset.config(api_base=base), model=model), table)  # the id as written
            except UserError as error:
                raise InternalError(f"{PRESETS_FILE}: preset {preset.key!r}: {error.message}") from None


def draft_registry(config: ModelConfig, capabilities: CapabilityTable | None = None) -> ModelRegistry:
    """A registry holding only `config` (without its fallback), in memory and checked as the workspace's would
    be: for trying a model before it is saved. InvalidInput when the configuration is not acceptable."""
    registry = ModelRegistry(_MemorySettings(), capabilities)
    registry.add(replace(config, fallback=None))
    return registry


class _MemorySettings:
    """Settings that live in a dict and are never written anywhere."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}

    def get(self, key: Setting[T]) -> T:
        return key.decode(self.values.get(key.key))

    def set(self, key: Setting[T], value: T) -> None:
        self.values[key.key] = key.encode(value)
