"""A scripted model for the loopback LLM server: it answers like a model, so a real litellm round trip drives a run.

`ScriptedModel` is a responder for `tests.llm_server.server.LlmServer`: it runs the offline rules model on the
request's own messages (as litellm put them on the wire) and returns its tool calls in OpenAI format, with usage
as a prompt-caching provider would report it (prompt tokens from the body size; cached tokens for the part of
the conversation identical to the previous request's). Tests steer it per stage: `on(stage, change)` queues a
change applied to the next answer in that stage (a fault, a bad submission, a repeated call), and `before`
runs on every request first (the crash test kills the analysing process from there).
"""

from __future__ import annotations

import json
import threading
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from stockbench.research.conversation import current_stage
from stockbench.research.offline import OfflineModel
from tests.llm_server.server import Reply, SeenRequest, ToolCallSpec, openai_usage

BYTES_PER_TOKEN = 4  # a rough tokenizer: enough for usage figures and the cost contract
Change = Callable[[SeenRequest, Reply], Reply]


def stage_of(messages: list[dict[str, Any]]) -> str:
    """The stage a request belongs to: the latest STAGE instruction in its messages ("" before any)."""
    found = current_stage(messages)
    return "" if found is None else found[0]


def message_texts(messages: list[dict[str, Any]]) -> list[str]:
    """Each message as canonical text (role, content, tool calls, tool call id): for prefix comparisons."""
    texts = []
    for m in messages:
        calls = [(c.get("id"), c["function"]["name"], c["function"]["arguments"]) for c in m.get("tool_calls") or []]
        part = {"role": m.get("role"), "content": m.get("content") or "", "calls": calls, "id": m.get("tool_call_id")}
        texts.append(json.dumps(part, ensure_ascii=False, sort_keys=True))
    return texts


def shared_prefix_chars(previous: list[str], current: list[str]) -> int:
    """Characters of `current` that sit in whole messages identical to the start of `previous`."""
    shared = 0
    for before, now in zip(previous, current, strict=False):
        if before != now:
            break
        shared += len(now)
    return shared


def offline_reply(messages: list[dict[str, Any]]) -> Reply:
    """What the offline rules model answers to `messages`, as a server reply (call ids kept)."""
    answer = OfflineModel().answer(messages)
    calls = tuple(ToolCallSpec(c.name, c.arguments_text, c.id) for c in answer.tool_calls)
    return Reply(content=answer.content or None, tool_calls=calls)


class ScriptedModel:
    """A responder that answers like a model from the request's messages, with per-stage changes."""

    def __init__(self) -> None:
        self.changes: dict[str, deque[Change]] = defaultdict(deque)
        self.before: Callable[[SeenRequest, int], None] | None = None
        self.stages: list[str] = []  # the stage of every request answered, in order
        self._previous: list[str] = []
        self._lock = threading.Lock()
        self._clean: dict[str, Change] = {}  # the change each cleanly answered request got, by its messages

    def on(self, stage: str, *changes: Change) -> None:
        """Apply `changes` to the next answers in `stage` (one change per request, in order)."""
        self.changes[stage].extend(changes)

    def __call__(self, seen: SeenRequest) -> Reply:
        with self._lock:
            number = len(self.stages) + 1
            messages = seen.messages
            stage = stage_of(messages)
            self.stages.append(stage)
            if self.before is not None:
                self.before(seen, number)
            reply = offline_reply(messages)
            texts = message_texts(messages)
            cached = shared_prefix_chars(self._previous, texts) // BYTES_PER_TOKEN
            self._previous = texts
            prompt = max(1, len(seen.body) // BYTES_PER_TOKEN)
            completion = max(1, sum(len(c.arguments_text()) for c in reply.tool_calls) // BYTES_PER_TOKEN)
            reply = replace(reply, usage=openai_usage(prompt, completion, min(cached, prompt)))
            key = json.dumps(messages, sort_keys=True, ensure_ascii=False)
            if key in self._clean:  # a retry of a request already answered cleanly (the client gave up on it,
                return self._clean[key](seen, reply)  # e.g. a read timeout on a loaded machine): the same answer
            if self.changes[stage]:
                change = self.changes[stage].popleft()
                reply = change(seen, reply)
                if _clean(reply):
                    self._clean[key] = change
            return reply


def _clean(reply: Reply) -> bool:
    """An answer the client takes as it is (no fault status, delay, cut, early end or stall): a byte-identical
    request after it can only be the client's retry of an answer it never read, never a next turn."""
    return (reply.status == 200 and not reply.delay and reply.cut_after is None and reply.end_after is None
            and reply.stall_after is None)  # fmt: skip


# ---- changes ---------------------------------------------------------------------------------------------
def fault(fault_reply: Reply) -> Change:
    """Answer with `fault_reply` (a status, a delay, a cut stream) instead."""
    return lambda seen, reply: fault_reply


def with_arguments(edit: Callable[[dict[str, Any]], dict[str, Any] | str]) -> Change:
    """Edit the arguments of the answer's first tool call (a str result is sent verbatim, malformed or not)."""

    def change(seen: SeenRequest, reply: Reply) -> Reply:
        first, *rest = reply.tool_calls
        assert isinstance(first.arguments, str)
        edited = edit(json.loads(first.arguments))
        return replace(reply, tool_calls=(replace(first, arguments=edited if isinstance(edited, str) else
                                                  json.dumps(edited, ensure_ascii=False)), *rest))  # fmt: skip

    return change


def text_only(content: str) -> Change:
    """Answer with text and no tool call (a turn that adds nothing)."""
    return lambda seen, reply: replace(reply, content=content, tool_calls=())


def calls(*specs: ToolCallSpec) -> Change:
    """Answer with these tool calls instead."""
    return lambda seen, reply: replace(reply, tool_calls=specs)
