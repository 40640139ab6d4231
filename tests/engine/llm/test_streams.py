"""Answers put back together without a server: streamed chunks joined by choice and tool-call index, a plain
answer read from litellm's objects, and an unreadable answer turned into a retryable failure."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from stockbench.llm.failures import Failure
from stockbench.llm.streams import StreamAssembly, StreamEnd, assembled, from_response


def chunk(delta: dict[str, Any] | None = None, *, index: int = 0, finish: str | None = None) -> dict[str, Any]:
    return {"id": "c-1", "model": "m", "choices": [{"index": index, "delta": delta, "finish_reason": finish}]}


def test_chunks_join_into_content_reasoning_and_tool_calls() -> None:
    assembly = StreamAssembly()
    for part in (
        chunk({"reasoning_content": "想"}),
        chunk({"content": "价"}),
        chunk({"content": "格"}),
        chunk({"content": "ignored"}, index=1),  # only the first choice counts
        chunk({"tool_calls": [{"index": 0, "id": "t1", "function": {"name": "quote", "arguments": '{"sym'}}]}),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": 'bol": "600519.SH"}'}}]}),
        chunk({"tool_calls": [{"id": "t2", "function": {"name": "calc", "arguments": "{}"}}]}),  # no index: a new call
        chunk(None, finish="tool_calls"),
    ):
        assembly.add(part)
    response = assembly.ended(StreamEnd(True, {"prompt_tokens": 9, "completion_tokens": 2})).response("main")
    assert (response.content, response.reasoning_content, response.finish_reason) == ("价格", "想", "tool_calls")
    assert [(c.id, c.name, c.arguments) for c in response.tool_calls] == [
        ("t1", "quote", {"symbol": "600519.SH"}), ("t2", "calc", {})]  # fmt: skip
    assert response.usage is not None and response.usage.prompt_tokens == 9
    assert response.raw["chunks"] == 8 and response.raw["streamed"] and response.served_by == "main"


def test_a_stream_without_reported_usage_keeps_it_unknown() -> None:
    assembly = StreamAssembly()
    assembly.add(chunk({"content": "ok"}, finish="stop"))
    assert assembly.ended(StreamEnd(True, None)).response("main").usage is None


class Result(SimpleNamespace):
    """litellm's response object: attributes, and `model_dump` for the raw copy."""

    def model_dump(self, exclude_none: bool = False) -> dict[str, Any]:
        return {"model": self.model}


def test_a_plain_answer_is_read_and_zero_usage_is_no_usage() -> None:
    message = SimpleNamespace(content="答", reasoning_content="", tool_calls=None)
    result = Result(choices=[SimpleNamespace(message=message, finish_reason="stop")], model="m",
                    usage={"prompt_tokens": 0, "completion_tokens": 0})  # fmt: skip
    response = from_response(result, "main")
    assert (response.content, response.reasoning_content, response.usage, response.finish_reason) == (
        "答", None, None, "stop")  # fmt: skip
    assert (response.model, response.raw, response.served_by) == ("m", {"model": "m"}, "main")


def test_an_unreadable_answer_is_a_retryable_failure() -> None:
    with pytest.raises(Failure) as caught:
        assembled(SimpleNamespace(choices=[]), "main")
    assert (caught.value.kind, caught.value.network_class, caught.value.error_class) == (
        "malformed_response", True, "IndexError")  # fmt: skip
