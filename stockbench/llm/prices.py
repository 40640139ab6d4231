"""Model prices per million tokens, from `resources/llm_prices.toml`: uncached input, cached input and output.

`estimate` gives the worst case of a request before it is sent (for the cost reservation), `actual` the cost
of the usage a provider reported. A model without a known price gives None, never zero.
"""

from __future__ import annotations

import fnmatch
import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stockbench.config import resources_dir
from stockbench.errors import InternalError, InvalidInput
from stockbench.llm.messages import ChatRequest, Usage

if TYPE_CHECKING:
    from stockbench.llm.models import ModelRegistry

PRICES_FILE = "llm_prices.toml"
MILLION = Decimal(1_000_000)
# Chat templates add a few tokens per message and per tool beyond the JSON text; this covers them.
TEMPLATE_ALLOWANCE = 32


@dataclass(frozen=True)
class Cost:
    """An amount of money. `upper_bound` when part of it was priced at a higher rate than may apply."""

    amount: Decimal
    currency: str
    upper_bound: bool = False

    def __add__(self, other: Cost) -> Cost:
        if other.currency != self.currency:
            raise InvalidInput(f"cannot add {other.currency} to {self.currency}")
        return Cost(self.amount + other.amount, self.currency, self.upper_bound or other.upper_bound)


@dataclass(frozen=True)
class Rates:
    """Prices per million tokens; `input_cached` None when the provider's cache price is not known."""

    input_uncached: Decimal
    input_cached: Decimal | None
    output: Decimal


@dataclass(frozen=True)
class ModelPrice:
    """The price of one provider/model pattern, with an optional dearer tier for long prompts."""

    provider: str
    match: str
    currency: str
    rates: Rates
    long_above: int | None = None
    long_rates: Rates | None = None
    source: str = ""

    def rates_for(self, prompt_tokens: int) -> Rates:
        if self.long_rates is not None and self.long_above is not None and prompt_tokens > self.long_above:
            return self.long_rates
        return self.rates

    def cost(self, prompt_tokens: int, cached_tokens: int, completion_tokens: int) -> Cost:
        """The cost of these token counts; cached tokens at the uncached rate (an upper bound) when unknown."""
        rates = self.rates_for(prompt_tokens)
        cached = min(max(cached_tokens, 0), prompt_tokens)
        cached_rate = rates.input_cached if rates.input_cached is not None else rates.input_uncached
        amount = (prompt_tokens - cached) * rates.input_uncached + cached * cached_rate
        amount += completion_tokens * rates.output
        return Cost(amount / MILLION, self.currency, upper_bound=cached > 0 and rates.input_cached is None)

    def estimate(self, request: ChatRequest, max_output: int) -> Cost:
        """The worst case: every prompt token uncached, `max_output` tokens of output."""
        return self.cost(worst_case_input_tokens(request), 0, max_output)

    def actual(self, usage: Usage) -> Cost | None:
        """The cost of reported usage; None when the usage lacks the token counts."""
        if usage.prompt_tokens is None or usage.completion_tokens is None:
            return None
        return self.cost(usage.prompt_tokens, usage.cached_tokens or 0, usage.completion_tokens)


def worst_case_input_tokens(request: ChatRequest) -> int:
    """An upper bound of the prompt's tokens: its UTF-8 byte count plus a template allowance.

    Byte-level BPE tokenizers (GPT, DeepSeek, Qwen, Kimi, MiniMax) never make more tokens than bytes.
    """
    return len(request.canonical_bytes()) + TEMPLATE_ALLOWANCE * (len(request.messages) + len(request.tools) + 1)


class PriceTable:
    """Prices by provider and model pattern (an exact name beats a pattern, a longer pattern a shorter one)."""

    def __init__(self, prices: tuple[ModelPrice, ...]) -> None:
        self._prices = prices

    @classmethod
    def load(cls, path: Path | None = None) -> PriceTable:
        raw = tomllib.loads((path or resources_dir() / PRICES_FILE).read_text(encoding="utf-8"))
        return cls(tuple(_price(body) for body in raw.get("prices", [])))

    def price_of(self, provider: str, model: str) -> ModelPrice | None:
        """The price of `model` at `provider`, or None when unknown."""
        rows = [p for p in self._prices if p.provider == provider and fnmatch.fnmatchcase(model, p.match)]
        if not rows:
            return None
        return max(rows, key=lambda p: (not any(ch in p.match for ch in "*?["), len(p.match)))


class Prices:
    """Prices of configured models, by name: what the cost contract reserves and settles."""

    def __init__(self, registry: ModelRegistry, table: PriceTable | None = None) -> None:
        self._registry = registry
        self._table = table or default_prices()

    def price_of(self, name: str) -> ModelPrice | None:
        config = self._registry.get(name)
        return self._table.price_of(config.provider, config.model)

    def estimate(self, request: ChatRequest, max_output: int, *, with_fallbacks: bool = True) -> Cost | None:
        """The worst case of `request` on its model, or on any of its fallbacks (the dearest).

        None when a price in the chain is unknown or the chain mixes currencies: unknown is never zero.
        """
        names = [c.name for c in self._registry.chain(request.model)] if with_fallbacks else [request.model]
        return _dearest([p.estimate(request, max_output) if p else None for p in map(self.price_of, names)])

    def estimate_tokens(
        self, name: str, input_tokens: int, max_output: int, *, with_fallbacks: bool = True
    ) -> Cost | None:
        """The worst case of `input_tokens` (all uncached) and `max_output` on model `name` (or its dearest fallback),
        for a plan made before the requests exist; None when a price in the chain is unknown."""
        names = [c.name for c in self._registry.chain(name)] if with_fallbacks else [name]
        costs = [p.cost(input_tokens, 0, max_output) if p else None for p in map(self.price_of, names)]
        return _dearest(costs)

    def actual(self, name: str, usage: Usage | None) -> Cost | None:
        """The cost of `usage` on the model named `name`; None when the price or the usage is unknown."""
        price = self.price_of(name)
        return None if price is None or usage is None else price.actual(usage)


def _dearest(costs: list[Cost | None]) -> Cost | None:
    """The highest cost; None when any is unknown or they are in different currencies."""
    known = [c for c in costs if c is not None]
    if not known or len(known) < len(costs) or len({c.currency for c in known}) != 1:
        return None
    return max(known, key=lambda c: c.amount)


@functools.cache
def default_prices() -> PriceTable:
    """The shipped price table, read once."""
    return PriceTable.load()


def _decimal(body: Mapping[str, Any], key: str, where: str) -> Decimal | None:
    value = body.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise InternalError(f"{where}: {key} must be a quoted decimal string, not {value!r}")
    try:
        found = Decimal(value)
    except InvalidOperation:
        raise InternalError(f"{where}: {key} = {value!r} is not a decimal") from None
    if found < 0:
        raise InternalError(f"{where}: {key} is negative")
    return found


def _rates(body: Mapping[str, Any], where: str) -> Rates:
    uncached, output = _decimal(body, "input_uncached", where), _decimal(body, "output", where)
    if uncached is None or output is None:
        raise InternalError(f"{where}: input_uncached and output are required")
    return Rates(uncached, _decimal(body, "input_cached", where), output)


def _price(body: Mapping[str, Any]) -> ModelPrice:
    where = f"{PRICES_FILE}: {body.get('provider')}/{body.get('model')}"
    long = body.get("long")
    return ModelPrice(
        provider=str(body["provider"]),
        match=str(body["model"]),
        currency=str(body["currency"]),
        rates=_rates(body, where),
        long_above=int(long["above_tokens"]) if long else None,
        long_rates=_rates(long, f"{where} (long)") if long else None,
        source=str(body.get("source", "")),
    )
