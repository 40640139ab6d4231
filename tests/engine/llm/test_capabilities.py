"""The capability table: presets for every provider, the most specific row wins, and `adapt` drops (and reports)
what a provider cannot take."""

from __future__ import annotations

from pathlib import Path

import pytest

from stockbench.errors import InternalError, InvalidInput
from stockbench.llm.capabilities import CapabilityTable, adapt, default_table
from stockbench.llm.messages import ChatRequest, user

TOOL = {"type": "function", "function": {"name": "get_quote", "parameters": {"type": "object", "properties": {}}}}
NAMED = {"type": "function", "function": {"name": "get_quote"}}


def request(tool_choice: object = None, *, tools: bool = True) -> ChatRequest:
    thinking = {"role": "assistant", "content": "看报价。", "reasoning_content": "先查价格。"}
    return ChatRequest("m", (user("价格？"), thinking, user("再看一次")), (TOOL,) if tools else (), tool_choice)


def test_every_preset_has_a_route_and_a_default_row() -> None:
    table = default_table()
    names = [p.name for p in table.providers()]
    assert names == ["deepseek", "openai", "moonshot", "qwen", "minimax", "ollama", "openai_compatible"]
    assert table.provider("qwen").litellm_model("qwen3.8-max") == "dashscope/qwen3.8-max"
    assert table.provider("ollama").litellm_model("qwen3:8b") == "openai/qwen3:8b"
    assert not table.provider("ollama").requires_key and table.provider("openai_compatible").api_base is None
    for name in names:
        assert table.for_model(name, "some-future-model").match == "*"


@pytest.mark.parametrize(
    ("provider", "model", "match", "tool_choice", "reasoning", "context"),
    [
        ("deepseek", "deepseek-chat", "deepseek-chat", "any", "echo", 131072),
        ("deepseek", "deepseek-reasoner", "deepseek-reasoner", "never", "echo", 131072),
        ("deepseek", "deepseek-v4-pro", "deepseek-v4-*", "any", "echo", 1000000),
        ("openai", "gpt-4o-mini", "gpt-4o*", "any", "strip", 128000),
        ("openai", "gpt-5.4", "gpt-5.[45]", "any", "strip", 1050000),
        ("openai", "gpt-5.4-mini", "gpt-5*", "any", "strip", 272000),
        ("moonshot", "kimi-k2.6", "kimi-k2*", "auto_none", "echo", 262144),
        ("moonshot", "kimi-thinking-preview", "kimi-thinking-preview", "never", "echo", None),
        ("qwen", "qwen3.8-max", "qwen3.8-*", "auto_none", "strip", 991808),
        ("minimax", "MiniMax-M2", "MiniMax-M2", "any", "echo", 200000),
        ("minimax", "MiniMax-M2.5", "MiniMax-M[23].*", "any", "echo", 1000000),
        ("ollama", "llama3.3", "*", "never", "strip", None),
    ],
)
def test_the_most_specific_row_applies(
    provider: str, model: str, *, match: str, tool_choice: str, reasoning: str, context: int | None
) -> None:
    found = default_table().for_model(provider, model)
    assert (found.match, found.tool_choice, found.reasoning, found.context_tokens) == (
        match, tool_choice, reasoning, context
    )  # fmt: skip


def test_an_unknown_provider_names_the_choices() -> None:
    with pytest.raises(InvalidInput) as caught:
        default_table().for_model("anthropic", "claude")
    assert "openai_compatible" in caught.value.hint


def test_adapt_keeps_what_the_provider_takes() -> None:
    table = default_table()
    full = adapt(request(NAMED), table.for_model("openai", "gpt-4o"))
    note = "reasoning_content removed from 1 assistant message(s): openai model pattern 'gpt-4o*' does not take it"
    assert (full.tool_choice, full.dropped) == (NAMED, (note,))
    assert "reasoning_content" not in full.messages[1]
    echo = adapt(request("required"), table.for_model("deepseek", "deepseek-chat"))
    assert (echo.tool_choice, echo.dropped, echo.messages) == ("required", (), request().messages)


@pytest.mark.parametrize(
    ("provider", "model", "choice", "kept"),
    [
        ("moonshot", "kimi-k2.6", "required", False),
        ("moonshot", "kimi-k2.6", NAMED, False),
        ("moonshot", "kimi-k2.6", "auto", True),
        ("moonshot", "kimi-k2.6", "none", True),
        ("deepseek", "deepseek-reasoner", "auto", False),
        ("ollama", "llama3.3", "auto", False),
        ("openai_compatible", "x", "required", False),
        ("openai", "gpt-4o", "required", True),
    ],
)
def test_tool_choice_is_dropped_where_unsupported(provider: str, model: str, choice: object, kept: bool) -> None:
    adapted = adapt(request(choice), default_table().for_model(provider, model))
    assert adapted.tool_choice == (choice if kept else None)
    notes = [n for n in adapted.dropped if n.startswith("tool_choice")]
    assert len(notes) == (0 if kept else 1)
    if not kept:
        assert f"{provider} model pattern" in notes[0]


def test_tool_choice_without_tools_is_dropped() -> None:
    adapted = adapt(request("auto", tools=False), default_table().for_model("openai", "gpt-4o"))
    assert adapted.tool_choice is None
    assert adapted.dropped[0] == "tool_choice 'auto' dropped: the request has no tools"


def test_a_table_without_a_default_row_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "caps.toml"
    path.write_text('[providers.x]\nlitellm_prefix = "openai"\napi_base = "http://h/v1"\n\n'
                    '[[models]]\nprovider = "x"\nmatch = "m"\ntool_choice = "any"\nreasoning = "echo"\n')  # fmt: skip
    with pytest.raises(InternalError, match="no default"):
        CapabilityTable.load(path)
    path.write_text(path.read_text().replace('match = "m"', 'match = "*"').replace('"any"', '"sometimes"'))
    with pytest.raises(InternalError, match="tool_choice must be one of"):
        CapabilityTable.load(path)
