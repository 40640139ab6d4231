"""What each provider and model supports, from `resources/llm_capabilities.toml`, and how a request is adapted.

A provider preset says how to reach it (litellm prefix, default API base, whether it needs a key). A model row
(provider plus a name pattern) says whether `tool_choice` is honoured, whether `reasoning_content` must be
echoed back in assistant messages, the context size, and streaming support. `adapt` applies a row to a request:
what cannot be sent is dropped and the drop is reported, never hidden.
"""

from __future__ import annotations

import fnmatch
import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

from stockbench.config import resources_dir
from stockbench.errors import InternalError, InvalidInput
from stockbench.llm.messages import ChatRequest
from stockbench.llm.records import ProviderPreset
from stockbench.messages import user_error

__all__ = ["Adapted", "Capability", "CapabilityTable", "ProviderPreset", "adapt", "default_table"]

CAPABILITIES_FILE = "llm_capabilities.toml"

ToolChoiceSupport = Literal["any", "auto_none", "never"]
ReasoningEcho = Literal["echo", "strip"]
TOOL_CHOICE_SUPPORT: tuple[ToolChoiceSupport, ...] = ("any", "auto_none", "never")
REASONING_ECHO: tuple[ReasoningEcho, ...] = ("echo", "strip")


@dataclass(frozen=True)
class Capability:
    """What one provider/model pattern supports.

    `tool_choice`: "any" (auto, none, required, a named function), "auto_none" (only those two), "never".
    `reasoning`: "echo" keeps `reasoning_content` on assistant messages (thinking models that require it back),
    "strip" removes it (providers that reject or ignore the field).
    """

    provider: str
    match: str
    tool_choice: ToolChoiceSupport
    reasoning: ReasoningEcho
    context_tokens: int | None
    stream: bool
    stream_usage: bool
    source: str = ""
    unconfirmed: bool = False


@dataclass(frozen=True)
class Adapted:
    """A request's messages and tool choice as they will be sent, and what was dropped (with why)."""

    messages: tuple[dict[str, Any], ...]
    tool_choice: Any
    dropped: tuple[str, ...]


class CapabilityTable:
    """Provider presets and model capability rows."""

    def __init__(self, providers: Mapping[str, ProviderPreset], rows: tuple[Capability, ...]) -> None:
        self._providers = dict(providers)
        self._rows = rows
        missing = [p for p in self._providers if not any(r.provider == p and r.match == "*" for r in rows)]
        if missing:
            raise InternalError(f"{CAPABILITIES_FILE}: no default ('*') model row for provider(s) {missing}")

    @classmethod
    def load(cls, path: Path | None = None) -> CapabilityTable:
        """Read the table (default: the shipped resources file)."""
        raw = tomllib.loads((path or resources_dir() / CAPABILITIES_FILE).read_text(encoding="utf-8"))
        providers = {name: _preset(name, body) for name, body in raw.get("providers", {}).items()}
        rows = tuple(_row(body, providers) for body in raw.get("models", []))
        return cls(providers, rows)

    def providers(self) -> tuple[ProviderPreset, ...]:
        return tuple(self._providers.values())

    def provider(self, name: str) -> ProviderPreset:
        """The preset named `name`; InvalidInput naming the choices when unknown."""
        found = self._providers.get(name)
        if found is None:
            choices = ", ".join(self._providers)
            raise user_error(InvalidInput, "provider_unknown", name=name, choices=choices)
        return found

    def for_model(self, provider: str, model: str) -> Capability:
        """The most specific row for `model`: an exact name beats a pattern, a longer pattern a shorter one."""
        self.provider(provider)
        rows = [r for r in self._rows if r.provider == provider and fnmatch.fnmatchcase(model, r.match)]
        return max(rows, key=lambda r: (not _is_pattern(r.match), len(r.match)))


@functools.cache
def default_table() -> CapabilityTable:
    """The shipped table, read once."""
    return CapabilityTable.load()


def _is_pattern(text: str) -> bool:
    return any(ch in text for ch in "*?[")


def _preset(name: str, body: Mapping[str, Any]) -> ProviderPreset:
    return ProviderPreset(
        name=name,
        label=str(body.get("label", name)),
        litellm_prefix=str(body["litellm_prefix"]),
        api_base=body.get("api_base"),
        requires_key=bool(body.get("requires_key", True)),
        source=str(body.get("source", "")),
    )


def _row(body: Mapping[str, Any], providers: Mapping[str, ProviderPreset]) -> Capability:
    where = f"{CAPABILITIES_FILE}: model row {dict(body)}"
    if body.get("provider") not in providers:
        raise InternalError(f"{where} names an unknown provider")
    if body.get("tool_choice") not in TOOL_CHOICE_SUPPORT or body.get("reasoning") not in REASONING_ECHO:
        raise InternalError(f"{where}: tool_choice must be one of {TOOL_CHOICE_SUPPORT}, reasoning of {REASONING_ECHO}")
    context = body.get("context_tokens")
    return Capability(
        provider=str(body["provider"]),
        match=str(body.get("match", "*")),
        tool_choice=cast(ToolChoiceSupport, body["tool_choice"]),
        reasoning=cast(ReasoningEcho, body["reasoning"]),
        context_tokens=int(context) if context is not None else None,
        stream=bool(body.get("stream", True)),
        stream_usage=bool(body.get("stream_usage", True)),
        source=str(body.get("source", "")),
        unconfirmed=bool(body.get("unconfirmed", False)),
    )


def _choice_text(choice: Any) -> str:
    if isinstance(choice, dict):
        return f"function {choice.get('function', {}).get('name', '?')}"
    return repr(choice)


def adapt(request: ChatRequest, capability: Capability) -> Adapted:
    """The messages and tool choice to send under `capability`, with a note for everything dropped."""
    dropped: list[str] = []
    choice = request.tool_choice
    where = f"{capability.provider} model pattern '{capability.match}'"
    if choice is not None and not request.tools:
        dropped.append(f"tool_choice {_choice_text(choice)} dropped: the request has no tools")
        choice = None
    elif choice is not None and capability.tool_choice == "never":
        dropped.append(f"tool_choice {_choice_text(choice)} dropped: {where} does not support tool_choice")
        choice = None
    elif choice is not None and capability.tool_choice == "auto_none" and choice not in ("auto", "none"):
        dropped.append(f"tool_choice {_choice_text(choice)} dropped: {where} supports only 'auto' and 'none'")
        choice = None
    messages = request.messages
    if capability.reasoning == "strip":
        stripped = tuple({k: v for k, v in m.items() if k != "reasoning_content"} for m in messages)
        count = sum(1 for m in messages if "reasoning_content" in m)
        if count:
            dropped.append(f"reasoning_content removed from {count} assistant message(s): {where} does not take it")
        messages = stripped
    return Adapted(messages, choice, tuple(dropped))
