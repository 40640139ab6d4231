"""The client through the real litellm, openai and httpx code against the scripted server: plain answers, tool
calls streamed and not, reasoning echo, usage with cached tokens, capability handling, and what goes on the wire."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stockbench.errors import InvalidInput
from stockbench.llm import ModelUnavailable
from stockbench.llm.client import LlmClient, RetryPolicy, import_litellm
from stockbench.llm.messages import ChatRequest, ChatResponse, ToolCall, Usage, system, tool_result, user
from stockbench.llm.models import ModelConfig
from tests.engine.llm.conftest import FAST, TEST_KEY, Recorder
from tests.llm_server.server import (
    LlmServer,
    Reply,
    ToolCallSpec,
    deepseek_usage,
    moonshot_usage,
    openai_usage,
)

QUOTE_TOOL = {
    "type": "function",
    "function": {
        "name": "get_quote",
        "description": "The latest quote of an instrument.",
        "parameters": {"type": "object", "properties": {"symbol": {"type": "string"}}, "required": ["symbol"]},
    },
}
SUBMIT_TOOL = {
    "type": "function",
    "function": {"name": "submit", "parameters": {"type": "object", "properties": {"claims": {"type": "array"}}}},
}


def ask(text: str = "贵州茅台的最新价是多少？", model: str = "main", **kwargs: Any) -> ChatRequest:
    return ChatRequest(model, (system("You are a careful analyst."), user(text)), **kwargs)


@pytest.fixture(params=[True, False], ids=["stream", "plain"])
def streaming(request: pytest.FixtureRequest, registry: Any, recorder: Recorder) -> LlmClient:
    """The same client, once streaming and once not."""
    policy = RetryPolicy(**{**FAST.__dict__, "stream": request.param})
    return LlmClient(registry, policy=policy, sleep=recorder.sleep)


def test_a_plain_answer_with_reasoning_and_usage(
    streaming: LlmClient, add_model: Callable[..., ModelConfig], llm_server: LlmServer, recorder: Recorder
) -> None:
    add_model()
    text = "最新价 1,650.00 元，较昨收上涨 1.2%。"
    llm_server.script(
        Reply(content=text, reasoning_content="先看报价，再比较。", usage=openai_usage(120, 30, cached=96))
    )
    response = streaming.complete(ask(), on_attempt=recorder.attempt)
    assert response.content == text
    assert response.reasoning_content == "先看报价，再比较。"
    assert response.tool_calls == ()
    assert response.finish_reason == "stop"
    assert response.served_by == "main"
    assert response.usage is not None
    assert (response.usage.prompt_tokens, response.usage.completion_tokens, response.usage.cached_tokens) == (
        120,
        30,
        96,
    )
    assert response.usage.raw["prompt_tokens_details"]["cached_tokens"] == 96
    [attempt] = recorder.attempts
    assert (attempt.outcome, attempt.next, attempt.stream) == ("ok", "done", streaming.policy.stream)
    assert attempt.usage == response.usage
    assert ChatResponse.from_json(response.to_json()) == response


def test_the_wire_carries_the_key_only_in_the_authorization_header(
    client: LlmClient, add_model: Callable[..., ModelConfig], llm_server: LlmServer, recorder: Recorder
) -> None:
    add_model()
    llm_server.script(Reply.text("ok", usage=openai_usage(10, 1)))
    client.complete(ask(), on_attempt=recorder.attempt)
    [seen] = llm_server.chats
    assert seen.path == "/v1/chat/completions"
    assert seen.authorization_is(f"Bearer {TEST_KEY}")
    assert TEST_KEY.encode() not in seen.body
    assert TEST_KEY not in repr(seen) and TEST_KEY not in repr(recorder.attempts)
    body = seen.json
    assert body["model"] == "test-model"
    assert body["messages"] == [{"content": "You are a careful analyst.", "role": "system"},
                                {"content": "贵州茅台的最新价是多少？", "role": "user"}]  # fmt: skip
    assert body["temperature"] == 0.0
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}


@pytest.mark.parametrize(
    ("usage", "cached"),
    [
        (openai_usage(500, 20, cached=448), 448),
        (deepseek_usage(500, 20, cached=384), 384),
        (moonshot_usage(500, 20, cached=256), 256),
        (openai_usage(500, 20), 0),
    ],
    ids=["openai", "deepseek", "moonshot", "none-cached"],
)
def test_cached_tokens_are_read_from_every_provider_shape(
    streaming: LlmClient,
    add_model: Callable[..., ModelConfig],
    llm_server: LlmServer,
    usage: dict[str, Any],
    cached: int,
) -> None:
    add_model()
    llm_server.script(Reply.text("ok", usage=usage))
    found = streaming.complete(ask()).usage
    assert found is not None
    assert (found.prompt_tokens, found.cached_tokens, found.uncached_tokens) == (500, cached, 500 - cached)
    for field, value in usage.items():
        if not isinstance(value, dict):
            assert found.raw[field] == value


def test_no_reported_usage_stays_unknown(
    streaming: LlmClient, add_model: Callable[..., ModelConfig], llm_server: LlmServer
) -> None:
    add_model()
    llm_server.script(Reply.text("ok"))
    assert streaming.complete(ask()).usage is None


def test_tool_calls_are_assembled_with_ids_names_and_argument_fragments(
    streaming: LlmClient, add_model: Callable[..., ModelConfig], llm_server: LlmServer
) -> None:
    add_model()
    calls = (
        ToolCallSpec("get_quote", {"symbol": "600519.SH"}, id="call_a"),
        ToolCallSpec("get_quote", {"symbol": "00700.HK", "note": "港股通"}, id="call_b"),
    )
    llm_server.script(Reply.calls(*calls, piece=3, usage=openai_usage(50, 12)))
    response = streaming.complete(ask(tools=(QUOTE_TOOL,), tool_choice="auto"))
    assert [(c.id, c.name, c.arguments) for c in response.tool_calls] == [
        ("call_a", "get_quote", {"symbol": "600519.SH"}),
        ("call_b", "get_quote", {"symbol": "00700.HK", "note": "港股通"}),
    ]
    assert [c.arguments_text for c in response.tool_calls] == [c.arguments_text() for c in calls]
    assert response.finish_reason == "tool_calls"
    assert response.content is None


def test_malformed_tool_arguments_are_kept_as_text_with_the_error(
    streaming: LlmClient, add_model: Callable[..., ModelConfig], llm_server: LlmServer
) -> None:
    add_model()
    broken = '{"symbol": "600519.SH", "price": 16５0,'
    llm_server.script(Reply.calls(ToolCallSpec("get_quote", broken), ToolCallSpec("get_quote", "[1, 2]")))
    first, second = streaming.complete(ask(tools=(QUOTE_TOOL,))).tool_calls
    assert (first.arguments, first.arguments_text) == (None, broken)
    assert first.parse_error is not None and "not valid JSON" in first.parse_error
    assert (second.arguments, second.parse_error) == (None, "arguments are JSON list, not an object")


def test_invented_numbers_and_unknown_evidence_ids_come_back_verbatim(
    client: LlmClient, add_model: Callable[..., ModelConfig], llm_server: LlmServer
) -> None:
    """The layer passes model text through untouched; catching invented facts is the gates' job."""
    add_model()
    text = "营收同比增长 87.3%（见证据 ev:ffffffffffff），目标价 9999.99 元。"
    call = ToolCallSpec("submit", {"claims": [{"text": "净利润 12.34 亿", "evidence": ["ev:doesnotexist"]}]})
    llm_server.script(Reply(content=text, tool_calls=(call,)))
    response = client.complete(ask(tools=(SUBMIT_TOOL,)))
    assert response.content == text
    assert response.tool_calls[0].arguments == {
        "claims": [{"text": "净利润 12.34 亿", "evidence": ["ev:doesnotexist"]}]
    }


def test_a_tool_loop_echoes_reasoning_for_thinking_providers(
    client: LlmClient, add_model: Callable[..., ModelConfig], llm_server: LlmServer
) -> None:
    """DeepSeek keeps reasoning_content on the assistant turn sent back; OpenAI gets it removed."""
    add_model("ds", provider="deepseek", model="deepseek-v4-flash")
    add_model("oa", provider="openai", model="gpt-4o")
    llm_server.script(
        Reply.calls(ToolCallSpec("get_quote", {"symbol": "600519.SH"}, id="c1"), reasoning_content="需要报价。"),
        Reply.text("最新价 1650 元。"),
        Reply.text("最新价 1650 元。"),
    )
    first = client.complete(ask(model="ds", tools=(QUOTE_TOOL,)))
    history = ask(model="ds", tools=(QUOTE_TOOL,)).with_messages(
        first.assistant_message(), tool_result("c1", '{"last": "1650.00"}')
    )
    client.complete(history)
    client.complete(ChatRequest("oa", history.messages, history.tools))
    deepseek_turn, openai_turn = (r.messages[2] for r in llm_server.chats[1:])
    assert deepseek_turn["reasoning_content"] == "需要报价。"
    assert deepseek_turn["tool_calls"][0]["id"] == "c1"
    assert "reasoning_content" not in openai_turn
    assert openai_turn["tool_calls"] == deepseek_turn["tool_calls"]


def test_tool_choice_is_dropped_where_unsupported_and_the_drop_is_reported(
    client: LlmClient, add_model: Callable[..., ModelConfig], llm_server: LlmServer, recorder: Recorder
) -> None:
    add_model("kimi", provider="moonshot", model="kimi-k2.6")
    add_model("oa", provider="openai", model="gpt-4o")
    llm_server.script(Reply.text("ok"), Reply.text("ok"), Reply.text("ok"))
    kimi = client.complete(ask(model="kimi", tools=(QUOTE_TOOL,), tool_choice="required"), on_attempt=recorder.attempt)
    kept = client.complete(ask(model="kimi", tools=(QUOTE_TOOL,), tool_choice="auto"))
    openai = client.complete(ask(model="oa", tools=(QUOTE_TOOL,), tool_choice="required"))
    sent = [r.json for r in llm_server.chats]
    assert "tool_choice" not in sent[0]
    assert sent[0]["messages"] == sent[1]["messages"]  # no message was added in its place
    assert sent[1]["tool_choice"] == "auto" and sent[2]["tool_choice"] == "required"
    assert len(kimi.notes) == 1 and "tool_choice 'required' dropped" in kimi.notes[0]
    assert recorder.attempts[0].dropped == kimi.notes
    assert kept.notes == () and openai.notes == ()


def test_every_preset_reaches_an_openai_compatible_endpoint(
    client: LlmClient, add_model: Callable[..., ModelConfig], llm_server: LlmServer
) -> None:
    presets = {"deepseek": "deepseek-chat", "openai": "gpt-4o-mini", "moonshot": "kimi-k2.6",
               "qwen": "qwen3.8-flash", "minimax": "MiniMax-M2", "ollama": "qwen3:8b",
               "openai_compatible": "local-model"}  # fmt: skip
    for provider, model in presets.items():
        add_model(provider.replace("_", "-"), provider=provider, model=model,
                  key=None if provider in ("ollama", "openai_compatible") else TEST_KEY)  # fmt: skip
        llm_server.script(Reply.text(f"hello from {provider}", usage=openai_usage(9, 3)))
        response = client.complete(ask(model=provider.replace("_", "-")))
        assert response.content == f"hello from {provider}"
        seen = llm_server.chats[-1]
        assert seen.path.endswith("/chat/completions") and seen.json["model"] == model
        keyless = provider in ("ollama", "openai_compatible")
        assert seen.authorization_is("Bearer no-key" if keyless else f"Bearer {TEST_KEY}")


def test_a_resumed_call_sends_the_same_bytes(
    client: LlmClient, add_model: Callable[..., ModelConfig], llm_server: LlmServer
) -> None:
    add_model()
    llm_server.script(Reply.text("ok"), Reply.text("ok"))
    request = ask(tools=(QUOTE_TOOL,), tool_choice="auto", max_tokens=256, extra={"seed": 7})
    client.complete(request)
    client.complete(ChatRequest.from_canonical(request.canonical_bytes()))
    first, again = llm_server.chats
    assert first.body == again.body
    assert json.loads(first.body)["seed"] == 7


def test_a_missing_key_is_a_clear_non_network_error(client: LlmClient, add_model: Callable[..., ModelConfig]) -> None:
    add_model(key=None)
    with pytest.raises(ModelUnavailable) as caught:
        client.complete(ask())
    assert caught.value.network_class is False
    assert "no API key is stored for model 'main'" in caught.value.message
    assert "stockbench models key main" in caught.value.hint


# ---- the records the journal stores ----------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=12,
)
messages = st.lists(
    st.fixed_dictionaries({"role": st.sampled_from(["system", "user", "assistant", "tool"]),
                           "content": st.text(max_size=60)}, optional={"name": st.text(max_size=8)}),
    min_size=1, max_size=5,
)  # fmt: skip


@given(messages=messages, extra=st.dictionaries(st.sampled_from(["seed", "top_p", "thinking"]), json_values),
       temperature=st.none() | st.floats(0, 2), max_tokens=st.none() | st.integers(1, 10**6))  # fmt: skip
def test_canonical_bytes_round_trip_exactly(
    messages: list[dict[str, Any]], extra: dict[str, Any], temperature: float | None, max_tokens: int | None
) -> None:
    request = ChatRequest("main", tuple(messages), (QUOTE_TOOL,), "auto", temperature, max_tokens, extra)
    data = request.canonical_bytes()
    again = ChatRequest.from_canonical(data)
    assert again == request
    assert again.canonical_bytes() == data and again.digest() == request.digest()
    assert data == json.dumps(json.loads(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def test_a_request_is_a_copy_the_caller_cannot_change() -> None:
    message = {"role": "user", "content": "价格？"}
    request = ChatRequest("main", (message,), temperature=0)
    before = request.canonical_bytes()
    message["content"] = "changed"
    assert request.canonical_bytes() == before
    assert request.temperature == 0.0 and b'"temperature":0.0' in before
    assert "价格" in before.decode("utf-8")  # UTF-8, not \\u escapes


def test_a_request_refuses_what_would_not_serialise_or_clash() -> None:
    with pytest.raises(InvalidInput, match="at least one message"):
        ChatRequest("main", ())
    with pytest.raises(InvalidInput, match="not plain JSON"):
        ChatRequest("main", ({"role": "user", "content": float("nan")},))
    with pytest.raises(InvalidInput, match="may not set api_key, stream"):
        ChatRequest("main", (user("x"),), extra={"stream": True, "api_key": "k", "seed": 1})


def test_tool_call_arguments_are_parsed_or_kept_with_the_error() -> None:
    assert ToolCall.parse("c", "f", "").arguments == {}
    assert ToolCall.parse("c", "f", '{"a": 1}').arguments == {"a": 1}
    broken = ToolCall.parse("c", "f", '{"a": ')
    assert (broken.arguments, broken.arguments_text) == (None, '{"a": ')
    assert broken.as_message_part() == {"id": "c", "type": "function", "function": {"name": "f", "arguments": '{"a": '}}


def test_a_response_round_trips_through_the_journal_json() -> None:
    response = ChatResponse(
        content="答", tool_calls=(ToolCall.parse("c1", "get_quote", '{"symbol": "600519.SH"'),),
        reasoning_content="想", usage=Usage.from_raw(deepseek_usage(10, 2, cached=4)), model="deepseek-chat",
        finish_reason="tool_calls", raw={"id": "x"}, served_by="ds", notes=("dropped",),
    )  # fmt: skip
    assert ChatResponse.from_json(response.to_json()) == response
    assert response.assistant_message() == {
        "role": "assistant", "content": "答", "reasoning_content": "想",
        "tool_calls": [{"id": "c1", "type": "function",
                        "function": {"name": "get_quote", "arguments": '{"symbol": "600519.SH"'}}],
    }  # fmt: skip


def test_litellm_is_not_imported_until_a_call() -> None:
    code = (
        "import sys, stockbench.llm.client, stockbench.llm.prices, stockbench.llm.models, stockbench.cli.models; "
        "print('litellm' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.strip() == "False"


def test_importing_litellm_sets_the_offline_switches() -> None:
    litellm = import_litellm()
    assert os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] == "True" and os.environ["LITELLM_OFFLINE_MODE"] == "true"
    assert litellm.callbacks == [] and litellm.success_callback == [] and litellm.failure_callback == []
    assert litellm.disable_hf_tokenizer_download is True and litellm.drop_params is False


@pytest.mark.slow
def test_importing_litellm_opens_no_connection() -> None:
    """In a fresh process, importing and warming up litellm resolves and connects to nothing."""
    code = """
import socket, sys
calls = []
real_connect, real_lookup = socket.socket.connect, socket.getaddrinfo
def connect(self, address):
    calls.append(("connect", address))
    return real_connect(self, address)
def lookup(host, *args, **kwargs):
    calls.append(("lookup", host))
    return real_lookup(host, *args, **kwargs)
socket.socket.connect, socket.getaddrinfo = connect, lookup
from stockbench.llm.client import import_litellm
import_litellm()
print(repr(calls))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stderr[-2000:]


def test_the_test_server_lists_models_and_records_requests_as_received(llm_server: LlmServer) -> None:
    body = b'{"model":"m","messages":[{"role":"user","content":"\xe4\xbb\xb7"}],"stream":false}'
    with httpx.Client(trust_env=False) as http:
        listed = http.get(f"{llm_server.base_url}/models").json()
        llm_server.script(Reply.text("ok"))
        answer = http.post(f"{llm_server.base_url}/chat/completions", content=body,
                           headers={"Authorization": "Bearer secret-value", "X-Trace": "1"}).json()  # fmt: skip
    assert [m["id"] for m in listed["data"]] == ["test-model"]
    assert answer["choices"][0]["message"]["content"] == "ok"
    seen = llm_server.chats[0]
    assert seen.body == body and ("X-Trace", "1") in seen.raw_headers
    assert seen.authorization_is("Bearer secret-value") and "secret-value" not in repr(seen)
