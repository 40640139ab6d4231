"""Prompt caching of a full analysis through the loopback LLM server and the real litellm path: model calls, input
tokens, and the share of each call's input that sits in a prefix identical to the previous call's request.

Setup: the demo market in a temporary folder; the scripted model (tests/engine/research/scripted.py: the offline
rules model answering on the wire) behind the OpenAI-compatible test server on 127.0.0.1, configured as a model
of the workspace; one analysis of the demo symbol through `Research.analyze`. Measured on the request bodies the
server recorded, exactly as litellm sent them: each request rendered as the model reads it (tool definitions,
then every message: role, content, tool calls) and tokenised with cl100k_base (the tiktoken file litellm ships,
so nothing is downloaded); a call's cached prefix is the run of leading tokens identical to the previous call's.
Result: the uncached input tokens of every call after the first, against all their input tokens (target: at most
10% uncached, i.e. at least 90% of the input after the first call sits in the shared prefix).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from bench.harness import Result, benchmark
from bench.research_offline import SYMBOL, build_demo
from stockbench.llm.client import close_clients, import_litellm
from stockbench.llm.models import ModelConfig, ModelRegistry
from stockbench.workbench import Workbench
from tests.engine.research.scripted import ScriptedModel, stage_of
from tests.llm_server.server import LlmServer, SeenRequest

TARGET = 0.10


def encoder() -> Any:
    """cl100k_base from the tokenizer files litellm bundles (offline)."""
    litellm = import_litellm()
    bundled = Path(litellm.__file__).parent / "litellm_core_utils" / "tokenizers"
    os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(bundled))
    import tiktoken

    return tiktoken.get_encoding("cl100k_base")


def rendered(seen: SeenRequest) -> str:
    """The request as the model reads it: tool definitions first, then each message in order."""
    body = seen.json
    parts = [json.dumps(body.get("tools", []), ensure_ascii=False, sort_keys=True)]
    for message in body["messages"]:
        calls = json.dumps(message.get("tool_calls") or [], ensure_ascii=False, sort_keys=True)
        parts.append(f"<|{message['role']}|>{message.get('content') or ''}{calls}{message.get('tool_call_id') or ''}")
    return "\n".join(parts)


def shared_prefix(previous: list[int], current: list[int]) -> int:
    count = 0
    for before, now in zip(previous, current, strict=False):
        if before != now:
            break
        count += 1
    return count


def analysed(home: Path, server: LlmServer) -> None:
    with Workbench.open(home) as bench:
        ModelRegistry(bench.workspace.settings).add(ModelConfig("scripted", "openai_compatible", "scripted",
                                                                server.base_url))  # fmt: skip
        outcome = bench.research.analyze(SYMBOL, model="scripted")
        assert outcome.status == "published", outcome


@benchmark("research_cache")
def research_cache() -> Result:
    encode = encoder().encode
    model = ScriptedModel()
    server = LlmServer(model).start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            analysed(build_demo(Path(folder)), server)
    finally:
        close_clients()
        server.stop()
    tokens = [encode(rendered(seen), disallowed_special=()) for seen in server.chats]
    stages = [stage_of(seen.messages) for seen in server.chats]
    shares, later_input, later_uncached = [], 0, 0
    for index, current in enumerate(tokens):
        shared = shared_prefix(tokens[index - 1], current) if index else 0
        shares.append(f"{stages[index]} {shared / len(current):.1%}")
        if index:
            later_input += len(current)
            later_uncached += len(current) - shared
    notes = {
        "model calls": str(len(tokens)),
        "input tokens": f"{sum(map(len, tokens)):,} (first call {len(tokens[0]):,})",
        "cached prefix per call": ", ".join(shares),
        "cached after the first call": f"{1 - later_uncached / later_input:.1%}",
    }
    return Result("research_cache", later_uncached, later_input, "tokens", TARGET, notes)
