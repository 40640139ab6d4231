"""A loopback-only OpenAI-compatible chat server for tests: scripted replies, tool calls and faults.

It speaks `/v1/chat/completions` (plain JSON, or server-sent events when the request says `stream`) and
`/v1/models`, so the real litellm, openai and httpx code paths run against it. A test scripts a queue of
`Reply` values, or gives a function of the request that returns one. Faults: any status (502, 429 with
Retry-After, 401), a delay past the client's deadline, a stream cut mid-way (the connection drops inside a
chunked body), a stream that ends cleanly without finishing, a stream that stalls after some chunks. Content
with invented numbers, unknown evidence ids or malformed tool arguments is just scripted text.

Every request is recorded exactly as received (headers in order, body bytes). The Authorization header is
never logged, and `SeenRequest` hides its value in reprs so a failing assertion does not print it.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.loopback import LoopbackServer

CREATED = 1_700_000_000
REDACTED = "<redacted>"


@dataclass(frozen=True)
class ToolCallSpec:
    """A tool call the scripted model makes; `arguments` is sent verbatim when it is text (malformed is fine)."""

    name: str
    arguments: str | Mapping[str, Any]
    id: str = ""

    def arguments_text(self) -> str:
        if isinstance(self.arguments, str):
            return self.arguments
        return json.dumps(self.arguments, ensure_ascii=False, separators=(",", ":"))


def openai_usage(prompt: int, completion: int, cached: int = 0, reasoning: int = 0) -> dict[str, Any]:
    """Usage as OpenAI (and Qwen's compatible mode) report it."""
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
        "prompt_tokens_details": {"cached_tokens": cached},
        "completion_tokens_details": {"reasoning_tokens": reasoning},
    }


def deepseek_usage(prompt: int, completion: int, cached: int = 0) -> dict[str, Any]:
    """Usage as DeepSeek reports it: cache hits and misses as their own fields."""
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
        "prompt_cache_hit_tokens": cached,
        "prompt_cache_miss_tokens": prompt - cached,
    }


def moonshot_usage(prompt: int, completion: int, cached: int = 0) -> dict[str, Any]:
    """Usage as Moonshot (Kimi) reports it: `cached_tokens` at the top level."""
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion,
            "cached_tokens": cached}  # fmt: skip


@dataclass(frozen=True)
class Reply:
    """One scripted answer. Streams split text into `piece`-character chunks."""

    content: str | None = None
    tool_calls: Sequence[ToolCallSpec] = ()
    reasoning_content: str | None = None
    usage: Mapping[str, Any] | None = None
    finish_reason: str | None = None  # default: "tool_calls" with tool calls, else "stop"
    model: str = ""  # default: the model the request named
    piece: int = 8
    # faults
    status: int = 200
    error: Mapping[str, Any] | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before answering at all
    cut_after: int | None = None  # stream: drop the connection after this many chunks; plain: half a body
    end_after: int | None = None  # stream: end cleanly after this many chunks, with no finish and no [DONE]
    stall_after: int | None = None  # stream: stop sending after this many chunks...
    stall: float = 0.0  # ...for this many seconds (or until the server stops), then carry on
    keepalive: float = 0.0  # while stalled, send an SSE comment this often (bytes flow, no chunk arrives)

    @classmethod
    def text(cls, content: str, **kwargs: Any) -> Reply:
        return cls(content=content, **kwargs)

    @classmethod
    def calls(cls, *calls: ToolCallSpec, **kwargs: Any) -> Reply:
        return cls(tool_calls=calls, **kwargs)

    @classmethod
    def failing(cls, status: int, message: str = "", *, retry_after: str = "", kind: str = "") -> Reply:
        headers = {"Retry-After": retry_after} if retry_after else {}
        text = message or f"scripted failure {status}"
        return cls(status=status, error={"message": text, "type": kind or "server_error", "code": status},
                   headers=headers)  # fmt: skip

    def finish(self) -> str:
        return self.finish_reason or ("tool_calls" if self.tool_calls else "stop")


@dataclass(frozen=True)
class SeenRequest:
    """A request exactly as the server received it."""

    method: str
    path: str
    raw_headers: tuple[tuple[str, str], ...] = field(repr=False)
    body: bytes = field(repr=False)

    @property
    def headers(self) -> dict[str, str]:
        """Headers by lower-case name (the last one wins)."""
        return {name.lower(): value for name, value in self.raw_headers}

    @property
    def json(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.body) if self.body else {}
        return data

    @property
    def messages(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = self.json.get("messages", [])
        return found

    @property
    def stream(self) -> bool:
        return bool(self.json.get("stream"))

    def authorization_is(self, expected: str) -> bool:
        """Compare the Authorization header without ever printing it."""
        return self.headers.get("authorization") == expected

    def safe_headers(self) -> dict[str, str]:
        return {k: (REDACTED if k in ("authorization", "api-key", "x-api-key") else v) for k, v in self.headers.items()}

    def __repr__(self) -> str:
        return f"SeenRequest({self.method} {self.path}, headers={self.safe_headers()}, body={len(self.body)} bytes)"


Responder = Callable[[SeenRequest], Reply]


class LlmServer:
    """The scripted server on 127.0.0.1. Queued replies go first, then `responder`, else a 400 saying so."""

    def __init__(self, responder: Responder | None = None, *, models: Sequence[str] = ("test-model",)) -> None:
        self.requests: list[SeenRequest] = []
        self.responder = responder
        self.models = tuple(models)
        self._queue: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._loopback = LoopbackServer(self._handler_class(), "llm-test-server")
        self._stopping = self._loopback.stopping

    @property
    def base_url(self) -> str:
        """The API base to configure (`.../v1`)."""
        return f"{self._loopback.origin}/v1"

    def start(self) -> LlmServer:
        self._loopback.start()
        return self

    def stop(self) -> None:
        self._loopback.stop()

    def script(self, *replies: Reply) -> None:
        """Queue replies, answered in order to the next chat requests."""
        with self._lock:
            self._queue.extend(replies)

    @property
    def chats(self) -> list[SeenRequest]:
        """The chat-completion requests received, in order."""
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def _next_reply(self, seen: SeenRequest) -> Reply:
        with self._lock:
            self.requests.append(seen)
            if self._queue:
                return self._queue.popleft()
        if self.responder is not None:
            return self.responder(seen)
        return Reply.failing(400, "llm test server: the script is exhausted", kind="invalid_request_error")

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                if not self._loopback():
                    return
                seen = SeenRequest("GET", self.path, tuple(self.headers.items()), b"")
                with server._lock:
                    server.requests.append(seen)
                if self.path.rstrip("/").endswith("/models"):
                    data = [{"id": m, "object": "model", "created": CREATED, "owned_by": "test"} for m in server.models]
                    self._send_json(200, {"object": "list", "data": data})
                else:
                    self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

            def do_POST(self) -> None:
                if not self._loopback():
                    return
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                seen = SeenRequest("POST", self.path, tuple(self.headers.items()), body)
                if not self.path.endswith("/chat/completions"):
                    with server._lock:
                        server.requests.append(seen)
                    self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
                    return
                reply = server._next_reply(seen)
                if reply.delay and server._stopping.wait(reply.delay):
                    self._drop()
                    return
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self._answer(seen, reply)

            def _loopback(self) -> bool:
                if self.client_address[0] in ("127.0.0.1", "::1"):
                    return True
                self.close_connection = True
                return False

            def _answer(self, seen: SeenRequest, reply: Reply) -> None:
                if reply.status != 200:
                    self._send_json(reply.status, {"error": dict(reply.error or {})}, reply.headers)
                    return
                number = next(server._ids)
                model = reply.model or str(seen.json.get("model", ""))
                if seen.stream:
                    self._stream(reply, number, model, _include_usage(seen))
                elif reply.cut_after is not None:
                    self._send_truncated(completion(reply, number, model))
                else:
                    self._send_json(200, completion(reply, number, model), reply.headers)

            def _send_json(self, status: int, payload: Any, headers: Mapping[str, str] | None = None) -> None:
                data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

            def _send_truncated(self, payload: Any) -> None:
                data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data[: len(data) // 2])
                self.wfile.flush()
                self._drop()

            def _stream(self, reply: Reply, number: int, model: str, include_usage: bool) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Transfer-Encoding", "chunked")
                for key, value in reply.headers.items():
                    self.send_header(key, value)
                self.end_headers()
                for index, event in enumerate(stream_events(reply, number, model, include_usage)):
                    if reply.cut_after is not None and index >= reply.cut_after:
                        self._drop()
                        return
                    if reply.end_after is not None and index >= reply.end_after:
                        break
                    if reply.stall_after is not None and index == reply.stall_after and not self._stall(reply):
                        return
                    self._chunk(event)
                self._chunk_bytes(b"")

            def _stall(self, reply: Reply) -> bool:
                """Hold the stream (sending keep-alive comments if asked); False when the server stopped."""
                until = time.monotonic() + reply.stall
                while (left := until - time.monotonic()) > 0:
                    if server._stopping.wait(min(left, reply.keepalive or left)):
                        self._drop()
                        return False
                    if reply.keepalive:
                        self._chunk_bytes(b": keep-alive\n\n")
                return True

            def _chunk(self, event: str) -> None:
                self._chunk_bytes(f"data: {event}\n\n".encode())

            def _chunk_bytes(self, data: bytes) -> None:
                self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()

            def _drop(self) -> None:
                """Close the socket without finishing the body: the client sees a broken transfer."""
                self.close_connection = True
                with contextlib.suppress(OSError):
                    self.connection.shutdown(socket.SHUT_RDWR)

            def log_message(self, format: str, *args: Any) -> None:
                """Silent: request lines and headers (with the Authorization value) are never logged."""

        return Handler


def _include_usage(seen: SeenRequest) -> bool:
    options = seen.json.get("stream_options") or {}
    return bool(options.get("include_usage"))


def _call_id(call: ToolCallSpec, number: int, index: int) -> str:
    return call.id or f"call_{number}_{index}"


def completion(reply: Reply, number: int, model: str) -> dict[str, Any]:
    """The non-streamed answer body."""
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.reasoning_content is not None:
        message["reasoning_content"] = reply.reasoning_content
    if reply.tool_calls:
        message["tool_calls"] = [
            {"id": _call_id(c, number, i), "type": "function", "function": {"name": c.name,
             "arguments": c.arguments_text()}}
            for i, c in enumerate(reply.tool_calls)
        ]  # fmt: skip
    body: dict[str, Any] = {
        "id": f"chatcmpl-test-{number}",
        "object": "chat.completion",
        "created": CREATED,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": reply.finish()}],
    }
    if reply.usage is not None:
        body["usage"] = dict(reply.usage)
    return body


def _pieces(text: str, size: int) -> Iterator[str]:
    for start in range(0, len(text), max(size, 1)):
        yield text[start : start + size]


def _deltas(reply: Reply, number: int) -> Iterator[dict[str, Any]]:
    yield {"role": "assistant", "content": ""}
    for piece in _pieces(reply.reasoning_content or "", reply.piece):
        yield {"reasoning_content": piece}
    for piece in _pieces(reply.content or "", reply.piece):
        yield {"content": piece}
    for index, call in enumerate(reply.tool_calls):
        head = {"index": index, "id": _call_id(call, number, index), "type": "function"}
        yield {"tool_calls": [{**head, "function": {"name": call.name, "arguments": ""}}]}
        for piece in _pieces(call.arguments_text(), reply.piece):
            yield {"tool_calls": [{"index": index, "function": {"arguments": piece}}]}


def stream_events(reply: Reply, number: int, model: str, include_usage: bool) -> Iterator[str]:
    """The `data:` payloads of a streamed answer, ending with `[DONE]`."""

    def chunk(choices: list[dict[str, Any]], **extra: Any) -> str:
        body = {"id": f"chatcmpl-test-{number}", "object": "chat.completion.chunk", "created": CREATED,
                "model": model, "choices": choices, **extra}  # fmt: skip
        return json.dumps(body, ensure_ascii=False)

    for delta in _deltas(reply, number):
        yield chunk([{"index": 0, "delta": delta, "finish_reason": None}])
    yield chunk([{"index": 0, "delta": {}, "finish_reason": reply.finish()}])
    if include_usage and reply.usage is not None:
        yield chunk([], usage=dict(reply.usage))
    yield "[DONE]"
