"""Chat requests and responses as plain, serialisable records: what the journal stores and a resumed run re-sends.

A request's `canonical_bytes()` is deterministic JSON (sorted keys, compact, UTF-8); `ChatRequest.from_canonical`
reads those bytes back into an equal request, so the conversation is rebuilt from exactly what was sent.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from stockbench.errors import InvalidInput

ToolChoice = str | dict[str, Any] | None
# Parameters the client sets itself: `extra` may not override them.
RESERVED_EXTRA = frozenset(
    {"model", "messages", "tools", "tool_choice", "temperature", "max_tokens", "stream", "stream_options",
     "api_key", "api_base", "base_url", "timeout", "max_retries", "num_retries", "fallbacks", "metadata"}
)  # fmt: skip


def canonical_json(value: Any) -> bytes:
    """Deterministic JSON bytes: sorted keys, no spaces, UTF-8 (non-ASCII kept as is), no NaN."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()


def _plain(value: Any, what: str) -> Any:
    """A deep copy of `value` through JSON, so a caller's later edits cannot change a frozen record."""
    try:
        return json.loads(canonical_json(value))
    except (TypeError, ValueError) as error:
        raise InvalidInput(f"{what} is not plain JSON: {error}") from error


@dataclass(frozen=True)
class ChatRequest:
    """One chat completion request, by model alias (a configured model name), in OpenAI chat format."""

    model: str
    messages: tuple[dict[str, Any], ...]
    tools: tuple[dict[str, Any], ...] = ()
    tool_choice: ToolChoice = None
    temperature: float | None = 0.0
    max_tokens: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.messages:
            raise InvalidInput("a chat request needs at least one message")
        object.__setattr__(self, "messages", tuple(_plain(m, "a message") for m in self.messages))
        object.__setattr__(self, "tools", tuple(_plain(t, "a tool") for t in self.tools))
        object.__setattr__(self, "tool_choice", _plain(self.tool_choice, "tool_choice"))
        object.__setattr__(self, "extra", _plain(dict(self.extra), "extra"))
        clash = sorted(RESERVED_EXTRA.intersection(self.extra))
        if clash:
            raise InvalidInput(f"extra request parameters may not set {', '.join(clash)}", "use the request's fields")
        if self.temperature is not None:
            object.__setattr__(self, "temperature", float(self.temperature))

    def as_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "messages": list(self.messages),
            "tools": list(self.tools),
            "tool_choice": self.tool_choice,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "extra": dict(self.extra),
        }

    def canonical_bytes(self) -> bytes:
        """The bytes the journal stores; `from_canonical` of them gives back an equal request."""
        return canonical_json(self.as_dict())

    def digest(self) -> str:
        """SHA-256 (hex) of the canonical bytes: the request's identity."""
        return hashlib.sha256(self.canonical_bytes()).hexdigest()

    @classmethod
    def from_canonical(cls, data: bytes | str) -> ChatRequest:
        """The request whose `canonical_bytes()` these are."""
        raw = json.loads(data)
        return cls(
            model=raw["model"],
            messages=tuple(raw["messages"]),
            tools=tuple(raw.get("tools") or ()),
            tool_choice=raw.get("tool_choice"),
            temperature=raw.get("temperature"),
            max_tokens=raw.get("max_tokens"),
            extra=raw.get("extra") or {},
        )

    def with_messages(self, *more: Mapping[str, Any]) -> ChatRequest:
        """The same request with messages appended (the shared prefix stays byte-identical)."""
        return ChatRequest(self.model, (*self.messages, *(dict(m) for m in more)), self.tools, self.tool_choice,
                           self.temperature, self.max_tokens, self.extra)  # fmt: skip


@dataclass(frozen=True)
class ToolCall:
    """A tool call the model made. Malformed arguments are kept as text with the parse error, never guessed."""

    id: str
    name: str
    arguments_text: str
    arguments: dict[str, Any] | None
    parse_error: str | None

    @classmethod
    def parse(cls, id: str, name: str, arguments_text: str) -> ToolCall:
        """Parse `arguments_text` as a JSON object; keep the error when it is not one."""
        try:
            value = json.loads(arguments_text) if arguments_text.strip() else {}
        except ValueError as error:
            return cls(id, name, arguments_text, None, f"arguments are not valid JSON: {error}")
        if not isinstance(value, dict):
            return cls(id, name, arguments_text, None, f"arguments are JSON {type(value).__name__}, not an object")
        return cls(id, name, arguments_text, value, None)

    def as_message_part(self) -> dict[str, Any]:
        """The call as it appears in an assistant message (arguments exactly as the model wrote them)."""
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": self.arguments_text}}


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _first_int(*values: Any) -> int | None:
    return next((v for v in map(_int, values) if v is not None), None)


@dataclass(frozen=True)
class Usage:
    """Token usage of one call; `raw` is the provider's usage object as received."""

    prompt_tokens: int | None
    completion_tokens: int | None
    cached_tokens: int | None
    raw: dict[str, Any]

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> Usage:
        """Read usage from any provider's shape, cached prompt tokens included.

        OpenAI and Qwen: `prompt_tokens_details.cached_tokens`; DeepSeek: `prompt_cache_hit_tokens`;
        Moonshot (Kimi): top-level `cached_tokens`; Anthropic-style: `cache_read_input_tokens`.
        """
        details = raw.get("prompt_tokens_details") or {}
        cached = _first_int(
            details.get("cached_tokens") if isinstance(details, Mapping) else None,
            raw.get("prompt_cache_hit_tokens"),
            raw.get("cached_tokens"),
            raw.get("cache_read_input_tokens"),
        )
        return cls(
            _int(raw.get("prompt_tokens")), _int(raw.get("completion_tokens")), cached, _plain(dict(raw), "usage")
        )

    @property
    def uncached_tokens(self) -> int | None:
        if self.prompt_tokens is None:
            return None
        return self.prompt_tokens - (self.cached_tokens or 0)

    def as_dict(self) -> dict[str, Any]:
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cached_tokens": self.cached_tokens,
            "raw": self.raw,
        }


@dataclass(frozen=True)
class ChatResponse:
    """The model's answer, assembled; `served_by` names the configured model that answered (maybe a fallback)."""

    content: str | None
    tool_calls: tuple[ToolCall, ...]
    reasoning_content: str | None
    usage: Usage | None
    model: str
    finish_reason: str | None
    raw: dict[str, Any]
    served_by: str = ""
    notes: tuple[str, ...] = ()

    def assistant_message(self) -> dict[str, Any]:
        """The assistant turn to append to the conversation, reasoning included.

        The client removes `reasoning_content` again for providers that must not receive it, so the stored
        conversation is the same whichever model answers next.
        """
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.reasoning_content is not None:
            message["reasoning_content"] = self.reasoning_content
        if self.tool_calls:
            message["tool_calls"] = [call.as_message_part() for call in self.tool_calls]
        return message

    def to_json(self) -> bytes:
        """Canonical JSON for the journal."""
        return canonical_json(
            {
                "content": self.content,
                "tool_calls": [_tool_call_dict(c) for c in self.tool_calls],
                "reasoning_content": self.reasoning_content,
                "usage": None if self.usage is None else self.usage.as_dict(),
                "model": self.model,
                "finish_reason": self.finish_reason,
                "raw": self.raw,
                "served_by": self.served_by,
                "notes": list(self.notes),
            }
        )

    @classmethod
    def from_json(cls, data: bytes | str) -> ChatResponse:
        raw = json.loads(data)
        usage = raw.get("usage")
        return cls(
            content=raw.get("content"),
            tool_calls=tuple(ToolCall(**c) for c in raw.get("tool_calls") or ()),
            reasoning_content=raw.get("reasoning_content"),
            usage=None if usage is None else Usage(**usage),
            model=raw.get("model", ""),
            finish_reason=raw.get("finish_reason"),
            raw=raw.get("raw") or {},
            served_by=raw.get("served_by", ""),
            notes=tuple(raw.get("notes") or ()),
        )


def _tool_call_dict(call: ToolCall) -> dict[str, Any]:
    return {
        "id": call.id,
        "name": call.name,
        "arguments_text": call.arguments_text,
        "arguments": call.arguments,
        "parse_error": call.parse_error,
    }


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def system(text: str) -> dict[str, Any]:
    return {"role": "system", "content": text}


def tool_result(call_id: str, text: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": text}
