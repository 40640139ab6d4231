"""The model layer's records: how a provider is reached, a configured model, a connection preset, and what the
models service answers with (a model as the user sees it, its price, a connection test).

Plain frozen data with no I/O: the front ends may hold them (the registry, keyring and client stay behind
`Workbench.models`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from decimal import Decimal
from typing import Any

from stockbench.llm.messages import Usage
from stockbench.messages import Note


@dataclass(frozen=True)
class ProviderPreset:
    """How to reach a provider through litellm."""

    name: str
    label: str
    litellm_prefix: str
    api_base: str | None
    requires_key: bool
    source: str = ""

    def litellm_model(self, model: str) -> str:
        """The model string litellm routes on, e.g. `deepseek/deepseek-chat`."""
        return f"{self.litellm_prefix}/{model}"


@dataclass(frozen=True)
class ModelConfig:
    """One configured model. `model` is the provider's id (e.g. deepseek-chat); `name` is ours."""

    name: str
    provider: str
    model: str
    api_base: str | None = None
    fallback: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ModelConfig:
        return cls(
            name=str(data["name"]),
            provider=str(data["provider"]),
            model=str(data["model"]),
            api_base=data.get("api_base") or None,
            fallback=data.get("fallback") or None,
        )


@dataclass(frozen=True)
class ModelPreset:
    """One way to connect a model: the provider's route and endpoint, and what to suggest to the user."""

    key: str
    label: str
    provider: ProviderPreset
    name: str
    models: tuple[str, ...]
    api_bases: tuple[str, ...]
    console: str = ""
    source: str = ""

    @property
    def model(self) -> str:
        """The default model id."""
        return self.models[0]

    @property
    def api_base(self) -> str | None:
        """The default endpoint (the provider's)."""
        return self.api_bases[0] if self.api_bases else None

    @property
    def requires_key(self) -> bool:
        return self.provider.requires_key

    def litellm_model(self, model: str | None = None) -> str:
        """The model string litellm routes on, e.g. `deepseek/deepseek-v4-flash`."""
        return self.provider.litellm_model(model or self.model)

    def config(self, name: str | None = None, model: str | None = None, api_base: str | None = None) -> ModelConfig:
        """The configuration for the user's choices. The provider's own endpoint is stored as None, so the model
        follows the provider's default if it ever moves; any other endpoint is stored as given."""
        base = (api_base or "").strip() or None
        if base is not None and base.rstrip("/") == (self.provider.api_base or "").rstrip("/"):
            base = None
        return ModelConfig((name or self.name).strip(), self.provider.name, (model or self.model).strip(), base)


@dataclass(frozen=True)
class PriceView:
    """A model's price per million tokens, in `currency` (`input_cached` None when the cache price is unknown)."""

    currency: str
    input_uncached: Decimal
    input_cached: Decimal | None
    output: Decimal
    per: str = "million tokens"


@dataclass(frozen=True)
class ModelView:
    """A configured model as the user sees it: where it is called, where its key comes from, what it can do and
    costs. `has_key` is None when the key store cannot be read; `key_source` says where the key comes from
    (environment, keyring, file, missing, keyring_unavailable, file_locked); `usable` is False while a required key
    cannot be had, and `next_step` then says what to do (in English; `next_step_note` says it in either language);
    `price` is None when no price is known."""

    name: str
    provider: str
    model: str
    api_base: str | None
    fallback: str | None
    litellm_model: str
    key_required: bool
    has_key: bool | None
    key_source: str
    context_tokens: int | None
    tool_choice: str
    reasoning: str
    price: PriceView | None
    usable: bool
    next_step: str | None
    next_step_note: Note | None = None

    def as_dict(self) -> dict[str, object]:
        """What `models list --json` prints (the note is for the words in the user's language)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "next_step_note"}


@dataclass(frozen=True)
class KeyStoreView:
    """Where this workspace keeps API keys: `store` os (the OS keyring) or file (the encrypted file at `path`);
    `available` False with the `reason` and `hint` when it cannot be used now."""

    store: str
    path: str | None
    available: bool
    reason: str | None
    hint: str | None
    environment: str = "STOCKBENCH_KEY_<NAME>"
    file_exists: bool = False  # the encrypted key file is there (a first use creates it, with a new passphrase)
    reason_key: str = ""  # the reason's entry in stockbench.messages, so a window says it in the user's language
    reason_params: tuple[tuple[str, str], ...] = ()

    def as_dict(self) -> dict[str, object]:
        """What `models keystore --json` prints (the reason's catalogue key is for the window's words)."""
        return {"store": self.store, "path": self.path, "available": self.available, "reason": self.reason,
                "hint": self.hint, "environment": self.environment, "file_exists": self.file_exists}  # fmt: skip


@dataclass(frozen=True)
class ModelsOverview:
    """Everything the model settings show: the configured models, the providers, and research's defaults."""

    models: tuple[ModelView, ...]
    providers: tuple[ProviderPreset, ...]
    default_model: str
    max_cost: Decimal | None


@dataclass(frozen=True)
class Removal:
    """A removed model, and whether its key went too (`key_deleted` None when the keyring could not be used)."""

    name: str
    removed: bool
    key_deleted: bool | None


@dataclass(frozen=True)
class SpentCost:
    """What one call cost."""

    amount: Decimal
    currency: str


@dataclass(frozen=True)
class ProbeResult:
    """One tiny request's answer: latency, the model that served it (`model`), its reply, usage and cost."""

    name: str
    litellm_model: str
    model: str
    latency_ms: int
    streamed: bool | None
    content: str | None
    finish_reason: str | None
    usage: Usage | None
    cost: SpentCost | None
    notes: tuple[str, ...]
