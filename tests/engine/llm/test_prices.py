"""Prices: exact decimals per million tokens, cached input cheaper, a worst case that bounds the real cost, and an
unknown price that stays unknown (None), never zero."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stockbench.errors import InternalError, InvalidInput
from stockbench.llm.messages import ChatRequest, Usage, system, user
from stockbench.llm.models import ModelConfig, ModelRegistry
from stockbench.llm.prices import Cost, Prices, PriceTable, default_prices, worst_case_input_tokens


def usage(prompt: int | None, cached: int | None, completion: int | None) -> Usage:
    return Usage(prompt, completion, cached, {})


def test_actual_cost_prices_cached_tokens_at_the_cached_rate() -> None:
    price = default_prices().price_of("deepseek", "deepseek-chat")
    assert price is not None and price.currency == "USD"
    # 1,000,000 prompt tokens of which 900,000 cached, 100,000 output: 0.028 + 0.0252 + 0.042
    assert price.actual(usage(1_000_000, 900_000, 100_000)) == Cost(Decimal("0.0952"), "USD")
    assert price.actual(usage(1_000_000, 0, 0)) == Cost(Decimal("0.28"), "USD")
    assert price.actual(usage(None, None, 10)) is None


def test_a_missing_cached_rate_gives_an_upper_bound() -> None:
    price = default_prices().price_of("moonshot", "moonshot-v1-128k")
    assert price is not None and price.rates.input_cached is None
    cost = price.actual(usage(1_000_000, 500_000, 0))
    assert cost == Cost(Decimal("2"), "USD", upper_bound=True)
    assert price.actual(usage(1_000_000, 0, 0)) == Cost(Decimal("2"), "USD", upper_bound=False)


def test_a_long_prompt_tier_applies_above_its_threshold() -> None:
    price = default_prices().price_of("openai", "gpt-5.4")
    assert price is not None
    assert price.actual(usage(272_000, 0, 0)) == Cost(Decimal("0.68"), "USD")
    assert price.actual(usage(272_001, 0, 0)) == Cost(Decimal("1.360005"), "USD")


def test_unknown_prices_are_none_never_zero() -> None:
    table = default_prices()
    assert table.price_of("openai_compatible", "local-model") is None
    assert table.price_of("deepseek", "deepseek-v9") is None
    ollama = table.price_of("ollama", "qwen3:8b")
    assert ollama is not None and ollama.actual(usage(5000, 0, 500)) == Cost(Decimal(0), "USD")


class Settings(dict[str, object]):
    def set(self, key: str, value: object) -> None:
        self[key] = value


@pytest.fixture
def prices() -> Prices:
    registry = ModelRegistry(Settings())
    registry.add(ModelConfig("local", "openai_compatible", "m", "http://127.0.0.1:8000/v1"))
    registry.add(ModelConfig("ds", "deepseek", "deepseek-chat"))
    registry.add(ModelConfig("gpt", "openai", "gpt-4o", fallback="ds"))
    registry.add(ModelConfig("ds-with-local", "deepseek", "deepseek-chat", fallback="local"))
    return Prices(registry)


def question(model: str, text: str = "分析贵州茅台") -> ChatRequest:
    return ChatRequest(model, (system("你是分析师。"), user(text)))


def test_the_estimate_covers_the_dearest_model_of_the_chain(prices: Prices) -> None:
    request = question("gpt")
    estimate = prices.estimate(request, 1000)
    tokens = worst_case_input_tokens(request)
    assert estimate == Cost(Decimal(tokens) * Decimal("2.5") / 1_000_000 + Decimal("0.01"), "USD")
    alone = prices.estimate(question("ds"), 1000)
    assert alone is not None and estimate is not None and alone.amount < estimate.amount
    assert prices.estimate(question("local"), 1000) is None
    assert prices.estimate(question("ds-with-local"), 1000) is None  # its fallback's price is unknown
    assert prices.estimate(question("ds-with-local"), 1000, with_fallbacks=False) is not None
    assert prices.estimate_tokens("gpt", 1_000_000, 100_000) == Cost(Decimal("3.5"), "USD")
    assert prices.estimate_tokens("gpt", 1_000_000, 100_000, with_fallbacks=False) == Cost(Decimal("3.5"), "USD")
    assert prices.estimate_tokens("ds", 1_000_000, 100_000) == Cost(Decimal("0.322"), "USD")
    assert prices.estimate_tokens("ds-with-local", 1000, 100) is None
    assert prices.actual("local", usage(10, 0, 10)) is None
    assert prices.actual("ds", None) is None


@settings(max_examples=60, deadline=None)
@given(text=st.text(min_size=1, max_size=400), prompt_share=st.integers(min_value=1, max_value=4))
def test_the_worst_case_bounds_any_real_usage_of_the_request(text: str, prompt_share: int) -> None:
    """Real prompt tokens never exceed the UTF-8 bytes (byte-level BPE), so the estimate is never below the cost."""
    request = question("ds", text)
    price = default_prices().price_of("deepseek", "deepseek-chat")
    assert price is not None
    real_prompt = len(text.encode()) // prompt_share + 10
    assert real_prompt <= worst_case_input_tokens(request)
    actual = price.actual(usage(real_prompt, real_prompt // 2, 300))
    assert actual is not None and actual.amount <= price.estimate(request, 300).amount


def test_costs_add_only_in_one_currency() -> None:
    assert Cost(Decimal("1.5"), "USD") + Cost(Decimal("0.25"), "USD", True) == Cost(Decimal("1.75"), "USD", True)
    with pytest.raises(InvalidInput):
        Cost(Decimal(1), "USD") + Cost(Decimal(1), "CNY")


def test_prices_must_be_quoted_decimals(tmp_path: Path) -> None:
    path = tmp_path / "prices.toml"
    path.write_text('[[prices]]\nprovider = "x"\nmodel = "m"\ncurrency = "USD"\ninput_uncached = 0.1\noutput = "1"\n')
    with pytest.raises(InternalError, match="quoted decimal"):
        PriceTable.load(path)
    path.write_text('[[prices]]\nprovider = "x"\nmodel = "m"\ncurrency = "USD"\ninput_uncached = "0.1"\n')
    with pytest.raises(InternalError, match="required"):
        PriceTable.load(path)


def test_every_shipped_price_has_a_source() -> None:
    table = default_prices()
    rows = table._prices
    assert rows and all(p.source for p in rows)
    assert all(p.rates.input_cached is None or p.rates.input_cached <= p.rates.input_uncached for p in rows)
