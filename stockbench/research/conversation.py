"""Conversations with the model: shared material first (handbook, then facts), appended, never rewritten.

The system message carries the locked handbook and the reference table of contents; program facts follow
as user messages holding one fenced JSON block each, tagged with a FACTS marker; stage instructions follow
with a STAGE marker. A conversation only ever grows, so each request's prefix is the previous request, and
provider prompt caches hit. BULL and BEAR fork from the shared prefix and never see each other.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

FACTS_MARKER = "【程序事实 FACTS:{name}】"
STAGE_MARKER = "【阶段 STAGE:{name}】"
_BLOCK = re.compile(r"【程序事实 FACTS:(?P<name>[a-z_]+)】\n```json\n(?P<body>.*?)\n```", re.DOTALL)
_STAGE = re.compile(r"【阶段 STAGE:(?P<name>[a-z_]+)】\n```json\n(?P<body>.*?)\n```", re.DOTALL)


def facts_message(name: str, facts: dict[str, Any], preface: str = "") -> dict[str, Any]:
    body = json.dumps(facts, ensure_ascii=False, sort_keys=True, indent=1)
    text = f"{preface}\n\n" if preface else ""
    return {"role": "user", "content": f"{text}{FACTS_MARKER.format(name=name)}\n```json\n{body}\n```"}


def stage_message(name: str, spec: dict[str, Any], instructions: str) -> dict[str, Any]:
    body = json.dumps(spec, ensure_ascii=False, sort_keys=True)
    return {"role": "user", "content": f"{STAGE_MARKER.format(name=name)}\n```json\n{body}\n```\n{instructions}"}


def read_facts(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """Every FACTS block in the conversation, by name (later blocks of the same name win)."""
    found: dict[str, Any] = {}
    for message in messages:
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, str):
            for match in _BLOCK.finditer(content):
                found[match["name"]] = json.loads(match["body"])
    return found


def current_stage(messages: list[dict[str, Any]]) -> tuple[str, dict[str, Any]] | None:
    """The latest stage instruction in the conversation."""
    for message in reversed(messages):
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, str):
            match = _STAGE.search(content)
            if match:
                return match["name"], json.loads(match["body"])
    return None


def tool_results(messages: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """(tool name, parsed result) of every tool result in the conversation, in order."""
    names = {}
    found = []
    for message in messages:
        for call in message.get("tool_calls") or []:
            names[call["id"]] = call["function"]["name"]
        if message.get("role") == "tool":
            try:
                parsed = json.loads(message.get("content") or "{}")
            except json.JSONDecodeError:
                parsed = {}
            found.append((names.get(message.get("tool_call_id", ""), ""), parsed))
    return found


@dataclass
class Conversation:
    messages: list[dict[str, Any]] = field(default_factory=list)

    def add(self, message: dict[str, Any]) -> None:
        self.messages.append(message)

    def fork(self) -> Conversation:
        return Conversation([dict(m) for m in self.messages])
