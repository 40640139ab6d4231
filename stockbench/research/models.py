"""The model port the engine talks to: an LLM through the provider layer, or the offline rules model.

Requests and responses cross the journal as canonical JSON text, so a resumed run re-sends exactly the
stored request and rebuilds the conversation from exactly the stored response.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Protocol

from stockbench.errors import UserError


class CostCeilingReached(UserError):
    code = "cost_ceiling"


@dataclass(frozen=True, slots=True)
class Call:
    id: str
    name: str
    arguments_text: str
    arguments: dict[str, Any] | None
    parse_error: str | None


@dataclass(frozen=True)
class Reply:
    """A model response in the journal's normalised form."""

    content: str
    tool_calls: tuple[Call, ...]
    reasoning_content: str | None = None
    usage: dict[str, Any] = field(default_factory=dict)
    model: str = ""

    def assistant_message(self) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": self.content or ""}
        if self.tool_calls:
            message["tool_calls"] = [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments_text}}
                for c in self.tool_calls
            ]
        if self.reasoning_content:
            message["reasoning_content"] = self.reasoning_content
        return message

    def to_json(self) -> str:
        data = {
            "content": self.content,
            "tool_calls": [{"id": c.id, "name": c.name, "arguments": c.arguments_text} for c in self.tool_calls],
            "reasoning_content": self.reasoning_content,
            "usage": self.usage,
            "model": self.model,
        }
        return json.dumps(data, ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Reply:
        data = json.loads(text)
        return cls(
            data.get("content") or "",
            tuple(parse_call(c["id"], c["name"], c["arguments"]) for c in data.get("tool_calls", [])),
            data.get("reasoning_content"),
            data.get("usage", {}),
            data.get("model", ""),
        )


def parse_call(call_id: str, name: str, text: str) -> Call:
    """A tool call with its arguments parsed, or the parse error kept (never guessed)."""
    try:
        parsed = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as error:
        return Call(call_id, name, text, None, str(error))
    if not isinstance(parsed, dict):
        return Call(call_id, name, text, None, "the arguments are not a JSON object")
    return Call(call_id, name, text, parsed, None)


def canonical_request(model: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> str:
    data = {"model": model, "messages": messages, "tools": tools, "tool_choice": "auto", "temperature": 0}
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


class ModelPort(Protocol):
    name: str
    offline: bool

    def request(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> str: ...

    def parse(self, payload: str) -> Reply: ...

    def complete(self, request: str, *, ceiling_left: Decimal | None) -> tuple[str, Decimal | None]:
        """The response payload for a stored request, and its cost (None when unknown)."""
        ...


class BasePort:
    name = "base"
    offline = False

    def request(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> str:
        return canonical_request(self.name, messages, tools)

    def parse(self, payload: str) -> Reply:
        return Reply.from_json(payload)
