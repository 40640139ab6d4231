"""The models service (`Workbench.models`): configured models, their keys, the connection presets, research's
default model and cost ceiling, and a connection test.

Configurations live in the workspace setting `models`. A key is read from STOCKBENCH_KEY_<NAME> first, else from
the workspace's key store: the OS keyring, or on request an encrypted file behind a passphrase (never the workspace
database, never a log, never an error text). Every answer is a record of `stockbench.llm.records`.
"""

from __future__ import annotations

import time
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

from stockbench.errors import InvalidInput, UserError, redact
from stockbench.llm import ConnectionFailed, KeyringUnavailable, ModelUnavailable
from stockbench.llm.key_file import FILE_NAME, FileKeys
from stockbench.llm.keys import UNREADABLE, Keys, KeySource, KeyStore, OsKeyring, env_name
from stockbench.llm.models import OFFLINE, ModelRegistry
from stockbench.llm.records import (
    KeyStoreView,
    ModelConfig,
    ModelPreset,
    ModelsOverview,
    ModelView,
    PriceView,
    ProbeResult,
    ProviderPreset,
    Removal,
    SpentCost,
)
from stockbench.messages import Note, error_words, note, user_error
from stockbench.store.settings import DEFAULT_MAX_COST, DEFAULT_MODEL, KEY_STORE, Settings

TEST_PROMPT = "Reply with the single word: ok"
TEST_MAX_TOKENS = 32
TEST_DEADLINE_S, TEST_STALL_S = 60.0, 30.0
KEY_STORES = ("os", "file")


class Models:
    """The models one workspace can use: the offline rules model (always) and the configured ones."""

    def __init__(self, settings: Settings, keys: KeyStore | None = None, *, home: Path | None = None) -> None:
        """`keys` replaces the workspace's key stores (tests); `home` is the workspace folder (the key file's)."""
        self._settings = settings
        self.registry = ModelRegistry(settings)
        self._os = keys or OsKeyring()
        self._file = FileKeys(home / FILE_NAME) if keys is None and home is not None else None
        self.keys = Keys(self._store)

    def _store(self) -> tuple[KeyStore, KeySource]:
        if self._file is not None and self._settings.get(KEY_STORE) == "file":
            return self._file, "file"
        return self._os, "keyring"

    # ---- reading ------------------------------------------------------------------------------------------------
    def configs(self) -> tuple[ModelConfig, ...]:
        """The configured models, by name."""
        return self.registry.list()

    def config(self, name: str) -> ModelConfig:
        """The configured model `name`; NotFound (naming the configured ones) otherwise."""
        return self.registry.get(name)

    def choices(self) -> tuple[str, ...]:
        """The names a run may use: the offline rules model, then every configured model."""
        return tuple(dict.fromkeys([OFFLINE, *(c.name for c in self.configs())]))

    def describe(self, name: str) -> ModelView:
        """The configured model `name` as the user sees it."""
        return self._view(self.config(name))

    def list(self) -> tuple[ModelView, ...]:
        """Every configured model as the user sees it."""
        return tuple(self._view(c) for c in self.configs())

    def overview(self) -> ModelsOverview:
        """The configured models, the providers, and research's default model and cost ceiling."""
        return ModelsOverview(self.list(), self.providers(), self.default_model(), self.max_cost())

    def providers(self) -> tuple[ProviderPreset, ...]:
        """How each provider is reached (litellm route, default endpoint, whether it needs a key)."""
        return self.registry.capabilities.providers()

    def presets(self) -> tuple[ModelPreset, ...]:
        """The connection presets ("Connect your model"), in their file's order."""
        from stockbench.llm.presets import default_presets

        return default_presets().presets()

    def preset(self, key: str) -> ModelPreset:
        """The preset `key`; InvalidInput naming the choices when unknown."""
        from stockbench.llm.presets import default_presets

        return default_presets().get(key)

    def has_key(self, name: str) -> bool | None:
        """Whether a key can be had for `name` (its environment variable, or stored); None when the key store
        cannot be read."""
        return _HAS_KEY[self.keys.source(name)]

    def key_source(self, name: str) -> KeySource:
        """Where the key of `name` comes from: environment, keyring, file, missing, keyring_unavailable (no OS
        keyring answers) or file_locked (the encrypted key file is not unlocked)."""
        return self.keys.source(name)

    def _view(self, config: ModelConfig) -> ModelView:
        from stockbench.llm.prices import default_prices

        endpoint = self.registry.endpoint(config)
        capability = self.registry.capabilities.for_model(config.provider, config.model)
        price = default_prices().price_of(config.provider, config.model)
        shown = None if price is None else PriceView(price.currency, price.rates.input_uncached,
                                                     price.rates.input_cached, price.rates.output)  # fmt: skip
        source = self.keys.source(config.name)
        required = endpoint.preset.requires_key
        step = self._next_step(config.name, source) if required else None
        return ModelView(config.name, config.provider, config.model, endpoint.api_base, config.fallback,
                         endpoint.litellm_model, required, _HAS_KEY[source], source, capability.context_tokens,
                         capability.tool_choice, capability.reasoning, shown, step is None,
                         None if step is None else step.text("en"), step)  # fmt: skip

    def _next_step(self, name: str, source: KeySource) -> Note | None:
        """What to do before model `name` can be used (in either language), or None when its key can be had."""
        if source == "missing":
            return note("models.step.missing", command=f"stockbench models key {name}", env=env_name(name))
        if source not in UNREADABLE:
            return None
        try:
            self._store()[0].get(name)
        except KeyringUnavailable as error:
            (reason_zh, hint_zh), key = error_words(error, "zh"), note_key(source)
            return note(key, reason=error.message, reason_zh=reason_zh, hint=error.hint, hint_zh=hint_zh,
                        env=env_name(name))  # fmt: skip
        return None

    # ---- research's defaults ------------------------------------------------------------------------------------
    def default_model(self) -> str:
        """The model research uses when none is named ("offline" unless the user chose another)."""
        return self._settings.get(DEFAULT_MODEL)

    def max_cost(self) -> Decimal | None:
        """The cost ceiling offered for an analysis (None: none)."""
        return self._settings.get(DEFAULT_MAX_COST)

    def set_defaults(self, model: str, max_cost: Decimal | None) -> None:
        """Make `model` research's default and `max_cost` the ceiling offered (None: no ceiling)."""
        self._settings.set(DEFAULT_MODEL, model)
        if max_cost is None:
            self._settings.delete(DEFAULT_MAX_COST)
        else:
            self._settings.set(DEFAULT_MAX_COST, max_cost)

    # ---- changes ------------------------------------------------------------------------------------------------
    def add(
        self, config: ModelConfig, *, key: str = "", replace: bool = False, make_default: bool = False
    ) -> ModelView:
        """Store `config` (an existing name needs `replace`), then `key` (if any) in the OS keyring, and optionally
        make it research's default. When the keyring refuses the key, the model is not added either."""
        added = self.registry.add(config, replace=replace)
        if key:
            try:
                self.keys.set(added.name, key)
            except UserError:
                self.registry.remove(added.name)
                raise
        if make_default:
            self._settings.set(DEFAULT_MODEL, added.name)
        return self._view(added)

    def set_fallback(self, name: str, fallback: str | None) -> ModelView:
        """Make `fallback` (a configured model, or None) the model tried when `name` keeps failing."""
        return self._view(self.registry.add(replace(self.config(name), fallback=fallback), replace=True))

    def remove(self, name: str, *, keep_key: bool = False) -> Removal:
        """Remove model `name` (refused while another falls back to it) and, unless `keep_key`, its stored key."""
        removed = self.registry.remove(name)
        deleted: bool | None = False
        if not keep_key:
            try:
                deleted = self.keys.delete(removed.name)
            except KeyringUnavailable:
                deleted = None
        return Removal(removed.name, True, deleted)

    def store_key(self, name: str, key: str) -> None:
        """Store the API key of model `name` in the workspace's key store (replacing an earlier one)."""
        self.keys.set(self.config(name).name, key)

    def delete_key(self, name: str) -> bool:
        """Remove the stored key of model `name`; False when none was stored."""
        return self.keys.delete(self.config(name).name)

    # ---- the key store ------------------------------------------------------------------------------------------
    def keystore(self) -> KeyStoreView:
        """Where keys are kept now, and whether that store can be used."""
        store, _ = self._store()
        kind = "file" if store is self._file else "os"
        path = None if self._file is None or kind == "os" else str(self._file.path)
        exists = self._file is not None and self._file.path.exists()
        try:
            store.get("--probe--")
        except KeyringUnavailable as error:
            return KeyStoreView(kind, path, False, error.message, error.hint, file_exists=exists,
                                reason_key=error.key, reason_params=error.params)  # fmt: skip
        return KeyStoreView(kind, path, True, None, None, file_exists=exists)

    def unlock(self, passphrase: str) -> None:
        """Open the encrypted key file with `passphrase` and hold it in memory for this process (never stored)."""
        if self._file is None:
            raise user_error(InvalidInput, "keystore_no_folder", option="--home DIR")
        self._file.unlock(passphrase)

    def use_keystore(self, store: str, passphrase: str | None = None) -> KeyStoreView:
        """Keep keys in `store`: "os" (the OS keyring) or "file" (the encrypted file in the workspace folder, opened
        or created with `passphrase`, else STOCKBENCH_KEYSTORE_PASSPHRASE's). Keys already stored stay where they
        are."""
        if store not in KEY_STORES:
            raise user_error(InvalidInput, "keystore_unknown", store=store, choices="os, file")
        if store == "file":
            if self._file is None:
                raise user_error(InvalidInput, "keystore_no_folder", option="--home DIR")
            given = passphrase or self._file.passphrase()
            if not given:
                raise user_error(InvalidInput, "keystore_needs_passphrase", env="STOCKBENCH_KEYSTORE_PASSPHRASE")
            self._file.unlock(given)
        self._settings.set(KEY_STORE, store)
        return self.keystore()

    # ---- the connection test ------------------------------------------------------------------------------------
    def probe(self, name: str) -> ProbeResult:
        """Send the configured model `name` one tiny request (one attempt, no fallback): latency, reply, usage and
        cost. ConnectionFailed says why it got no answer (its `kind` sorts the cause)."""
        self.config(name)
        return _probe(self.registry, self.keys, name, "")

    def probe_draft(self, config: ModelConfig, key: str = "") -> ProbeResult:
        """The same test of a model not saved yet, with the `key` typed for it: held in memory for this request,
        never stored. InvalidInput when the configuration is not acceptable."""
        from stockbench.llm.presets import draft_registry

        return _probe(draft_registry(config), _DraftKey(config.name, key), config.name, key)


_HAS_KEY: dict[KeySource, bool | None] = {"environment": True, "keyring": True, "file": True, "missing": False,
                                          "keyring_unavailable": None, "file_locked": None}  # fmt: skip


def note_key(source: KeySource) -> str:
    """The catalogue's note of what to do while a stored key cannot be read (no OS keyring, a locked key file)."""
    return "models.step.file_locked" if source == "file_locked" else "models.step.unavailable"


class _DraftKey:
    """The key typed for a model not saved yet: held in memory for one test, never stored."""

    def __init__(self, name: str, key: str) -> None:
        self.name, self.key = name, key

    def get(self, name: str) -> str | None:
        return self.key if name == self.name and self.key else None

    def set(self, name: str, key: str) -> None:
        raise InvalidInput("a draft key cannot be stored")

    def delete(self, name: str) -> bool:
        return False


def _probe(registry: ModelRegistry, keys: KeyStore, name: str, secret: str) -> ProbeResult:
    from stockbench.llm.client import Attempt, LlmClient, RetryPolicy
    from stockbench.llm.messages import ChatRequest, user
    from stockbench.llm.prices import Prices

    policy = RetryPolicy(attempts_per_model=1, attempt_deadline_s=TEST_DEADLINE_S, stall_s=TEST_STALL_S)
    client = LlmClient(registry, keys=keys, policy=policy)
    attempts: list[Attempt] = []
    started = time.monotonic()
    try:
        response = client.complete(ChatRequest(name, (user(TEST_PROMPT),), max_tokens=TEST_MAX_TOKENS),
                                   on_attempt=attempts.append, fallback=False)  # fmt: skip
    except ModelUnavailable as error:
        kind = (attempts[-1].error_kind if attempts else None) or "not_called"
        raise ConnectionFailed(redact(error.message, [secret]), kind, network_class=error.network_class,
                               hint=error.hint) from None  # fmt: skip
    latency = round((time.monotonic() - started) * 1000)
    cost = Prices(registry).actual(name, response.usage)
    return ProbeResult(
        name, registry.endpoint(registry.get(name)).litellm_model, response.model, latency,
        attempts[-1].stream if attempts else None, response.content, response.finish_reason, response.usage,
        None if cost is None else SpentCost(cost.amount, cost.currency), response.notes,
    )  # fmt: skip
