"""One litellm call on a worker thread, and its answer put back together as a `ChatResponse`.

`Exchange` runs the call and hands its events ("response", "opened", "chunk", "end", "error") to the watching
attempt loop; `StreamAssembly` joins streamed chunks (content, reasoning, tool calls by index); `from_response`
reads a plain answer. litellm is passed in, never imported here: only stockbench.llm.client imports it.
"""

from __future__ import annotations

import contextlib
import json
import queue
import threading
from dataclasses import dataclass, field
from typing import Any

from stockbench.llm.failures import malformed
from stockbench.llm.messages import ChatResponse, ToolCall, Usage


@dataclass
class Exchange:
    """One litellm call on a worker thread; its events arrive on `events` and the caller may abandon it."""

    kwargs: dict[str, Any]
    events: queue.Queue[tuple[str, Any]] = field(default_factory=queue.Queue)
    abandoned: threading.Event = field(default_factory=threading.Event)

    def start(self, litellm: Any) -> Exchange:
        threading.Thread(target=self._run, args=(litellm,), name="llm-attempt", daemon=True).start()
        return self

    def _run(self, litellm: Any) -> None:
        try:
            result = litellm.completion(**self.kwargs)
            if not self.kwargs.get("stream"):
                self.events.put(("response", result))
                return
            self.events.put(("opened", None))
            try:
                for chunk in result:
                    if self.abandoned.is_set():
                        return
                    self.events.put(("chunk", chunk))
            finally:
                close_quietly(result)
            self.events.put(("end", stream_end(result)))
        except BaseException as error:  # handed to the caller, who classifies it
            self.events.put(("error", error))


@dataclass(frozen=True)
class StreamEnd:
    """What only litellm's stream wrapper knows at the end: did the provider finish, and what usage it sent.

    litellm makes up a final "stop" and counts tokens itself when the provider sends neither; those are not
    the provider's word, so they are not used.
    """

    finished: bool
    usage: Any


def stream_end(stream: Any) -> StreamEnd:
    """The end of litellm's stream wrapper, read from its flags and the chunks it kept."""
    flags = ("received_finish_reason", "intermittent_finish_reason", "received_any_finish_reason")
    reported = [c.usage for c in getattr(stream, "chunks", ()) if getattr(c, "usage", None) is not None]
    return StreamEnd(any(getattr(stream, f, None) for f in flags), reported[-1] if reported else None)


def close_quietly(closable: Any) -> None:
    """Close a stream or an HTTP client if it can be closed; the attempt has ended either way."""
    close = getattr(closable, "close", None)
    if callable(close):
        with contextlib.suppress(Exception):  # the connection is dropped whatever close() says
            close()


def assembled(source: Any, served_by: str) -> ChatResponse:
    """The response of a finished attempt; a malformed answer is a (retryable) failure."""
    try:
        if isinstance(source, StreamAssembly):
            return source.response(served_by)
        return from_response(source, served_by)
    except (AttributeError, IndexError, KeyError, TypeError, ValueError) as error:
        raise malformed(error) from None


def _get(obj: Any, name: str) -> Any:
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)


def _dump(obj: Any) -> dict[str, Any]:
    """A litellm/pydantic object as plain JSON data (unknown leaves as text)."""
    data = obj.model_dump(exclude_none=True) if hasattr(obj, "model_dump") else dict(obj)
    plain: dict[str, Any] = json.loads(json.dumps(data, default=str))
    return plain


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value != "" else None


def from_response(result: Any, served_by: str) -> ChatResponse:
    """A plain (non-streamed) litellm response as a ChatResponse."""
    choice = result.choices[0]
    message = choice.message
    calls = tuple(
        ToolCall.parse(str(_get(c, "id") or ""), str(_get(_get(c, "function"), "name") or ""),
                       str(_get(_get(c, "function"), "arguments") or ""))
        for c in (_get(message, "tool_calls") or ())
    )  # fmt: skip
    usage = _get(result, "usage")
    return ChatResponse(
        content=_text(_get(message, "content")),
        tool_calls=calls,
        reasoning_content=_text(_get(message, "reasoning_content")),
        usage=Usage.from_raw(_dump(usage)) if usage is not None and _usage_present(usage) else None,
        model=str(_get(result, "model") or ""),
        finish_reason=_get(choice, "finish_reason"),
        raw=_dump(result),
        served_by=served_by,
    )


def _usage_present(usage: Any) -> bool:
    """litellm fills an absent usage with zeros; a real report has a positive prompt count."""
    prompt = _get(usage, "prompt_tokens")
    return isinstance(prompt, int) and prompt > 0


@dataclass
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


class StreamAssembly:
    """Streamed chunks put back together: content, reasoning, tool calls by index (ids, names, argument pieces)."""

    def __init__(self) -> None:
        self.content: list[str] = []
        self.reasoning: list[str] = []
        self.calls: dict[int, _PartialCall] = {}
        self.finish_reason: str | None = None
        self.usage: dict[str, Any] | None = None
        self.model = ""
        self.id = ""
        self.chunks = 0

    def add(self, chunk: Any) -> None:
        self.chunks += 1
        self.model = self.model or str(_get(chunk, "model") or "")
        self.id = self.id or str(_get(chunk, "id") or "")
        for choice in _get(chunk, "choices") or ():
            self._add_choice(choice)

    def _add_choice(self, choice: Any) -> None:
        if _get(choice, "index") not in (0, None):
            return
        self.finish_reason = _get(choice, "finish_reason") or self.finish_reason
        delta = _get(choice, "delta")
        if delta is None:
            return
        if isinstance(piece := _get(delta, "content"), str):
            self.content.append(piece)
        if isinstance(piece := _get(delta, "reasoning_content"), str):
            self.reasoning.append(piece)
        for call in _get(delta, "tool_calls") or ():
            self._add_call(call)

    def _add_call(self, delta: Any) -> None:
        index = _get(delta, "index")
        call_id = str(_get(delta, "id") or "")
        if not isinstance(index, int):
            known = [i for i, c in self.calls.items() if call_id and c.id == call_id]
            index = known[0] if known else (max(self.calls) + 1 if call_id or not self.calls else max(self.calls))
        partial = self.calls.setdefault(index, _PartialCall())
        partial.id = partial.id or call_id
        function = _get(delta, "function")
        partial.name = partial.name or str(_get(function, "name") or "")
        if isinstance(fragment := _get(function, "arguments"), str):
            partial.arguments.append(fragment)

    def ended(self, end: StreamEnd) -> StreamAssembly:
        self.usage = None if end.usage is None else _dump(end.usage)
        return self

    def response(self, served_by: str) -> ChatResponse:
        calls = tuple(ToolCall.parse(c.id, c.name, "".join(c.arguments)) for _, c in sorted(self.calls.items()))
        usage = Usage.from_raw(self.usage) if self.usage is not None else None
        raw = {"id": self.id, "model": self.model, "chunks": self.chunks, "finish_reason": self.finish_reason,
               "usage": self.usage, "streamed": True}  # fmt: skip
        return ChatResponse(
            content=_text("".join(self.content)),
            tool_calls=calls,
            reasoning_content=_text("".join(self.reasoning)),
            usage=usage,
            model=self.model,
            finish_reason=self.finish_reason,
            raw=raw,
            served_by=served_by,
        )
