"""Configured models: a name the user chose, a provider preset, the provider's model id, an optional API base and
an optional fallback model. Stored in the workspace setting "models"; keys are not (they live in the keyring).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar
from urllib.parse import urlsplit

from stockbench.errors import InvalidInput, NotFound
from stockbench.llm.capabilities import CapabilityTable, ProviderPreset, default_table
from stockbench.llm.records import ModelConfig
from stockbench.messages import user_error
from stockbench.store.settings import MODELS, Setting

__all__ = ["OFFLINE", "SETTING", "Endpoint", "ModelConfig", "ModelRegistry", "SettingsStore"]

T = TypeVar("T")
SETTING = MODELS  # the workspace setting that holds the configured models
OFFLINE = "offline"  # the offline rules model's name: never a configured model
_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]{0,39}$")


class SettingsStore(Protocol):
    """The part of the workspace settings the registry uses (stockbench.store.settings.Settings)."""

    def get(self, key: Setting[T]) -> T: ...

    def set(self, key: Setting[T], value: T) -> None: ...


@dataclass(frozen=True)
class Endpoint:
    """Where and how a configured model is called."""

    config: ModelConfig
    preset: ProviderPreset
    litellm_model: str
    api_base: str | None


class ModelRegistry:
    """Add, read, list and remove configured models in the workspace settings."""

    def __init__(self, settings: SettingsStore, capabilities: CapabilityTable | None = None) -> None:
        self._settings = settings
        self.capabilities = capabilities or default_table()

    def _all(self) -> dict[str, ModelConfig]:
        stored: dict[str, Any] = self._settings.get(MODELS) or {}
        return {name: ModelConfig.from_dict(body) for name, body in sorted(stored.items())}

    def _save(self, configs: Mapping[str, ModelConfig]) -> None:
        self._settings.set(MODELS, {name: c.as_dict() for name, c in sorted(configs.items())})

    def list(self) -> tuple[ModelConfig, ...]:
        return tuple(self._all().values())

    def get(self, name: str) -> ModelConfig:
        """The model named `name`; NotFound (with the configured names) otherwise."""
        found = self._all().get(name)
        if found is None:
            known, command = ", ".join(self._all()), f"stockbench models add {name} --provider P --model M"
            if not known:
                raise user_error(NotFound, "model_unknown.none", name=name, command=command)
            raise user_error(NotFound, "model_unknown", name=name, known=known, command=command)
        return found

    def add(self, config: ModelConfig, *, replace: bool = False) -> ModelConfig:
        """Validate and store `config`. An existing name needs `replace`; the fallback must exist already."""
        configs = self._all()
        self._validate(config, configs)
        if config.name in configs and not replace:
            raise user_error(InvalidInput, "model_exists", name=config.name, option="--replace")
        configs[config.name] = config
        self._check_no_cycle(config.name, configs)
        self._save(configs)
        return config

    def remove(self, name: str) -> ModelConfig:
        """Remove the model named `name`; refused while another model falls back to it."""
        configs = self._all()
        found = self.get(name)
        users = [c.name for c in configs.values() if c.fallback == name]
        if users:
            raise user_error(InvalidInput, "model_is_fallback", name=name, users=", ".join(users))
        del configs[name]
        self._save(configs)
        return found

    def chain(self, name: str) -> tuple[ModelConfig, ...]:
        """`name` and then its fallbacks in order (each model at most once)."""
        chain = [self.get(name)]
        while chain[-1].fallback and all(c.name != chain[-1].fallback for c in chain):
            chain.append(self.get(chain[-1].fallback))
        return tuple(chain)

    def endpoint(self, config: ModelConfig) -> Endpoint:
        """The litellm model string and API base for `config`."""
        preset = self.capabilities.provider(config.provider)
        return Endpoint(config, preset, preset.litellm_model(config.model), config.api_base or preset.api_base)

    def _validate(self, config: ModelConfig, configs: Mapping[str, ModelConfig]) -> None:
        if not _NAME.match(config.name) or config.name == OFFLINE:
            raise user_error(InvalidInput, "model_name_unusable", name=config.name, offline=OFFLINE)
        preset = self.capabilities.provider(config.provider)
        if not config.model.strip() or config.model != config.model.strip():
            raise user_error(InvalidInput, "model_id_unusable", model=config.model)
        if config.api_base is not None:
            _check_url(config.api_base)
        elif preset.api_base is None:
            raise user_error(InvalidInput, "model_no_endpoint", provider=config.provider, option="--api-base URL")
        if config.fallback is not None:
            if config.fallback == config.name:
                raise user_error(InvalidInput, "model_own_fallback", name=config.name)
            if config.fallback not in configs:
                raise user_error(InvalidInput, "model_fallback_unknown", fallback=config.fallback)

    def _check_no_cycle(self, start: str, configs: Mapping[str, ModelConfig]) -> None:
        seen, name = [start], configs[start].fallback
        while name is not None:
            if name in seen:
                raise user_error(InvalidInput, "model_fallback_loop", loop=" -> ".join([*seen, name]))
            seen.append(name)
            name = configs[name].fallback


def _check_url(url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise user_error(InvalidInput, "model_api_base_scheme", url=url, example="https://api.example.com/v1")
    if parts.username or parts.password or parts.query:
        raise user_error(InvalidInput, "model_api_base_credentials", url=url, command="stockbench models key NAME")
