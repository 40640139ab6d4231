"""The model layer: chat requests and responses, configured models, API keys, capabilities, prices, the client.

    messages.py      ChatRequest (canonical bytes for the journal), ChatResponse, ToolCall, Usage
    models.py        ModelConfig and ModelRegistry (workspace setting "models")
    keys.py          API keys in the OS keyring only, and redaction of secrets from error text
    capabilities.py  what each provider/model supports (tool_choice, reasoning echo, context, streaming)
    prices.py        prices per million tokens (cached and uncached input, output); unknown is None, never zero
    attempts.py      RetryPolicy, the Attempt record the journal keeps, and one attempt's litellm arguments
    failures.py      Failure: an attempt's exception classified as network-class (retryable) or not
    streams.py       one litellm call on a worker thread, and its streamed or plain answer assembled
    client.py        LlmClient: our attempt loop over litellm (imported lazily, offline cost map)
    records.py       ProviderPreset, ModelConfig, ModelPreset and what the models service answers with
    service.py       Models (`Workbench.models`): configured models, keys, presets, default, connection test

Errors raised here (all `UserError`s, safe to show):

    ModelUnavailable    no answer from the model; `network_class` says whether waiting and retrying may help
    +-- ConnectionFailed  a connection test got no answer; `kind` sorts the cause (auth, connection, timeout ...)
    KeyringUnavailable  the OS keyring cannot be used on this machine
"""

from __future__ import annotations

from stockbench.errors import UserError


class ModelUnavailable(UserError):
    """A model call failed for good. `network_class` is True when the cause was the network or the provider's
    load (connection, timeout, 429, 5xx, a broken or stalled stream), so a later retry may succeed; False for
    causes that retrying cannot fix (no key, rejected key, a bad request, a content policy refusal)."""

    code = "model_unavailable"

    def __init__(
        self,
        reason: str,
        *,
        network_class: bool,
        hint: str = "",
        key: str = "",
        params: tuple[tuple[str, str], ...] = (),
    ) -> None:
        super().__init__(reason, hint, key=key, params=params)
        self.network_class = network_class
        self.reason = reason


class KeyringUnavailable(UserError):
    """No usable OS keyring: keys cannot be stored or read."""

    code = "keyring_unavailable"


class KeyFileLocked(KeyringUnavailable):
    """The encrypted key file cannot be opened: no passphrase was given, or it is not the file's."""

    code = "keystore_locked"


class ConnectionFailed(ModelUnavailable):
    """A connection test (`Models.probe`) got no answer. `kind` is the failure kind of the last attempt (auth,
    not_found, connection, timeout, rate_limited ...), or "not_called" when no request was sent."""

    def __init__(self, reason: str, kind: str, *, network_class: bool, hint: str = "") -> None:
        super().__init__(reason, network_class=network_class, hint=hint)
        self.kind = kind
