"""The model port for configured LLMs: canonical requests through the provider layer, with the cost contract.

Before each call the worst-case cost is reserved against what is left of the run's ceiling (an unknown price
is never zero: with a ceiling it refuses the call); after it, the actual usage is settled. The journal stores
the exact request bytes and the normalised reply with every attempt the provider layer made.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from stockbench.llm.client import Attempt, LlmClient
from stockbench.llm.keys import KeyStore
from stockbench.llm.messages import ChatRequest, ChatResponse
from stockbench.llm.models import ModelRegistry, SettingsStore
from stockbench.llm.prices import Prices
from stockbench.messages import user_error
from stockbench.research.models import BasePort, CostCeilingReached, Reply, parse_call

MAX_OUTPUT_TOKENS = 4096


def _reply(response: ChatResponse, attempts: list[Attempt]) -> str:
    reply = Reply(
        response.content or "",
        tuple(parse_call(c.id, c.name, c.arguments_text) for c in response.tool_calls),
        response.reasoning_content,
        {}
        if response.usage is None
        else {
            "prompt_tokens": response.usage.prompt_tokens,
            "completion_tokens": response.usage.completion_tokens,
            "cached_tokens": response.usage.cached_tokens,
        },
        response.served_by or response.model or "",
    )
    data = json.loads(reply.to_json())
    data["attempts"] = [a.as_dict() for a in attempts]
    return json.dumps(data, ensure_ascii=False, sort_keys=True, default=str)


class LlmPort(BasePort):
    """A configured model, reached through `stockbench.llm`."""

    offline = False

    def __init__(self, name: str, client: LlmClient, prices: Prices) -> None:
        self.name, self.client, self.prices = name, client, prices

    def request(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> str:
        request = ChatRequest(
            self.name, tuple(messages), tuple(tools), tool_choice="auto", max_tokens=MAX_OUTPUT_TOKENS
        )
        return request.canonical_bytes().decode("utf-8")

    def estimate(self, input_tokens: int, output_tokens: int) -> Decimal | None:
        cost = self.prices.estimate_tokens(self.name, input_tokens, output_tokens)
        return None if cost is None else cost.amount

    def complete(self, request: str, *, ceiling_left: Decimal | None) -> tuple[str, Decimal | None]:
        chat = ChatRequest.from_canonical(request.encode("utf-8"))
        if ceiling_left is not None:
            worst = self.prices.estimate(chat, MAX_OUTPUT_TOKENS)
            if worst is None:
                raise user_error(CostCeilingReached, "cost_price_unknown", name=self.name, option="--max-cost")
            if worst.amount > ceiling_left:
                raise user_error(CostCeilingReached, "cost_over_ceiling", cost=worst.amount, currency=worst.currency,
                                 left=ceiling_left)  # fmt: skip
        attempts: list[Attempt] = []
        response = self.client.complete(chat, on_attempt=attempts.append)
        cost = self.prices.actual(response.served_by or self.name, response.usage)
        return _reply(response, attempts), None if cost is None else cost.amount


def port_factory(settings: SettingsStore, keys: KeyStore | None = None) -> Callable[[str], LlmPort]:
    """Model ports sharing one provider client for a workspace's configured models (keys from `keys`, else the
    OS keyring)."""
    registry = ModelRegistry(settings)
    client = LlmClient(registry, keys=keys)
    prices = Prices(registry)

    def make(name: str) -> LlmPort:
        registry.get(name)  # raises NotFound with a hint for an unknown model
        return LlmPort(name, client, prices)

    return make
