"""`stockbench models ...`: configure models (provider, model id, endpoint, fallback), store keys, test a model.

Keys go to the OS keyring only; they are read from standard input and never echoed or printed.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Any

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.cli.output import message, table

if TYPE_CHECKING:
    from stockbench.llm.models import ModelConfig, ModelRegistry

TEST_PROMPT = "Reply with the single word: ok"
TEST_MAX_TOKENS = 32


def _registry(cli: CliContext) -> ModelRegistry:
    from stockbench.llm.models import ModelRegistry

    return ModelRegistry(cli.bench().workspace.settings)


def _has_key(name: str) -> bool | None:
    """Whether a key is stored for `name`; None when the keyring cannot be read."""
    from stockbench.llm import KeyringUnavailable
    from stockbench.llm.keys import OsKeyring

    try:
        return OsKeyring().get(name) is not None
    except KeyringUnavailable:
        return None


def _describe(registry: ModelRegistry, config: ModelConfig) -> dict[str, Any]:
    from stockbench.llm.prices import default_prices

    endpoint = registry.endpoint(config)
    capability = registry.capabilities.for_model(config.provider, config.model)
    price = default_prices().price_of(config.provider, config.model)
    return {
        "name": config.name,
        "provider": config.provider,
        "model": config.model,
        "api_base": endpoint.api_base,
        "fallback": config.fallback,
        "litellm_model": endpoint.litellm_model,
        "key_required": endpoint.preset.requires_key,
        "has_key": _has_key(config.name),
        "context_tokens": capability.context_tokens,
        "tool_choice": capability.tool_choice,
        "reasoning": capability.reasoning,
        "price": None
        if price is None
        else {
            "currency": price.currency,
            "input_uncached": price.rates.input_uncached,
            "input_cached": price.rates.input_cached,
            "output": price.rates.output,
            "per": "million tokens",
        },
    }


def _or_unknown(value: object) -> str:
    return "unknown" if value is None else str(value)


def _describe_human(d: dict[str, Any]) -> str:
    key = {True: "stored", False: "missing", None: "keyring unavailable"}[d["has_key"]]
    price = d["price"]
    lines = [
        f"{d['name']}: {d['provider']} {d['model']} ({d['litellm_model']})",
        f"  endpoint   {d['api_base']}",
        f"  fallback   {d['fallback'] or '-'}",
        f"  key        {key if d['key_required'] else 'not required'}",
        f"  context    {d['context_tokens'] or 'unknown'} tokens; tool_choice {d['tool_choice']}; "
        f"reasoning {d['reasoning']}",
        "  price      unknown"
        if price is None
        else f"  price      {price['input_uncached']} / {_or_unknown(price['input_cached'])} cached / "
        f"{price['output']} out {price['currency']} per million tokens",
    ]
    if d["key_required"] and d["has_key"] is False:
        lines.append(f"store its key with: stockbench models key {d['name']}")
    return "\n".join(lines)


@click.group()
def models() -> None:
    """Language models: add, store keys (in the OS keyring), test, list, remove."""


@models.command("add")
@click.argument("name")
@click.option("--preset", help="Fill provider, model and endpoint from a preset (see `models presets`), e.g. deepseek.")
@click.option("--provider", help="deepseek, openai, moonshot, qwen, minimax, ollama, openai_compatible.")
@click.option("--model", "model_id", help="The provider's model id, e.g. deepseek-v4-flash (a preset's default).")
@click.option("--api-base", help="Endpoint URL (default: the provider's; required for openai_compatible).")
@click.option("--fallback", help="A configured model to use when this one keeps failing.")
@click.option("--replace", is_flag=True, help="Replace an existing model of this name.")
@pass_cli
def add(
    cli: CliContext,
    name: str,
    preset: str | None,
    provider: str | None,
    model_id: str | None,
    api_base: str | None,
    fallback: str | None,
    replace: bool,
) -> None:
    """Configure model NAME: with --provider and --model, or from a --preset."""
    from dataclasses import replace as replaced

    from stockbench.errors import InvalidInput
    from stockbench.llm.models import ModelConfig

    if preset is not None:
        from stockbench.llm.presets import default_presets

        chosen = default_presets().get(preset)
        if provider is not None and provider != chosen.provider.name:
            raise InvalidInput(f"the preset '{preset}' uses the provider {chosen.provider.name}, not {provider}")
        config = replaced(chosen.config(name, model_id, api_base), fallback=fallback)
    elif provider is None or model_id is None:
        raise InvalidInput(
            "a model needs --provider and --model, or a --preset", "list them: stockbench models presets"
        )
    else:
        config = ModelConfig(name, provider, model_id, api_base, fallback)
    registry = _registry(cli)
    config = registry.add(config, replace=replace)
    cli.emit(_describe(registry, config), _describe_human)


@models.command("presets")
@pass_cli
def presets(cli: CliContext) -> None:
    """The connection presets (the desktop app's "Connect your model"): provider, default model, endpoints."""
    from stockbench.llm.presets import default_presets

    rows = [
        {
            "preset": p.key,
            "label": p.label,
            "provider": p.provider.name,
            "model": p.model,
            "models": list(p.models),
            "api_base": p.api_base,
            "requires_key": p.requires_key,
            "console": p.console,
        }
        for p in default_presets().presets()
    ]
    cli.emit(rows, lambda d: table(d, ["preset", "provider", "model", "api_base", "requires_key"]))


def _read_key() -> str:
    """The key from standard input: prompted without echo on a terminal, else the first line of the input."""
    from stockbench.errors import InvalidInput

    tty = sys.stdin.isatty()
    text = click.prompt("API key (not shown)", hide_input=True, err=True) if tty else sys.stdin.read()
    key = str(text).strip()
    if not key:
        raise InvalidInput("no API key on standard input", "pipe it in, e.g.: stockbench models key NAME < key.txt")
    if any(ch.isspace() for ch in key):
        raise InvalidInput("the API key contains spaces or several lines", "give the key alone")
    return key


@models.command("key")
@click.argument("name")
@click.option("--delete", is_flag=True, help="Remove the stored key instead.")
@pass_cli
def key(cli: CliContext, name: str, delete: bool) -> None:
    """Store the API key of model NAME in the OS keyring (read from standard input, never echoed)."""
    from stockbench.llm.keys import OsKeyring

    config = _registry(cli).get(name)
    if delete:
        deleted = OsKeyring().delete(config.name)
        cli.emit(
            {"name": config.name, "deleted": deleted}, f"key of {name} {'deleted' if deleted else 'was not stored'}"
        )
        return
    OsKeyring().set(config.name, _read_key())
    cli.emit({"name": config.name, "stored": True}, f"key of {name} stored in the OS keyring")


def _test_human(d: dict[str, Any]) -> str:
    usage = d["usage"]
    tokens = "usage not reported" if usage is None else (
        f"{usage['prompt_tokens']} prompt ({usage['cached_tokens'] or 0} cached) + {usage['completion_tokens']} output"
    )  # fmt: skip
    cost = d["cost"]
    return "\n".join(
        [
            f"{d['name']}: ok in {d['latency_ms']} ms ({'streamed' if d['streamed'] else 'plain'})",
            f"  model    {d['model']} via {d['litellm_model']}",
            f"  reply    {d['content']!r} (finish: {d['finish_reason']})",
            f"  tokens   {tokens}",
            f"  cost     {'unknown' if cost is None else str(cost['amount']) + ' ' + cost['currency']}",
        ]
    )


@models.command("test")
@click.argument("name")
@pass_cli
def test(cli: CliContext, name: str) -> None:
    """Send model NAME one tiny request (no fallback) and report latency, model and usage."""
    from stockbench.llm.client import Attempt, LlmClient, RetryPolicy
    from stockbench.llm.messages import ChatRequest, user
    from stockbench.llm.prices import Prices

    registry = _registry(cli)
    registry.get(name)
    attempts: list[Attempt] = []
    client = LlmClient(registry, policy=RetryPolicy(attempts_per_model=1, attempt_deadline_s=60.0, stall_s=30.0))
    started = time.monotonic()
    response = client.complete(ChatRequest(name, (user(TEST_PROMPT),), max_tokens=TEST_MAX_TOKENS),
                               on_attempt=attempts.append, fallback=False)  # fmt: skip
    latency_ms = round((time.monotonic() - started) * 1000)
    cost = Prices(registry).actual(name, response.usage)
    cli.emit(
        {
            "name": name,
            "litellm_model": registry.endpoint(registry.get(name)).litellm_model,
            "model": response.model,
            "latency_ms": latency_ms,
            "streamed": attempts[-1].stream if attempts else None,
            "content": response.content,
            "finish_reason": response.finish_reason,
            "usage": None if response.usage is None else response.usage.as_dict(),
            "cost": None if cost is None else {"amount": cost.amount, "currency": cost.currency},
            "notes": list(response.notes),
        },
        _test_human,
    )


@models.command("list")
@pass_cli
def list_models(cli: CliContext) -> None:
    """The configured models, with their endpoints and whether a key is stored."""
    registry = _registry(cli)
    rows = [_describe(registry, c) for c in registry.list()]
    if any(r["has_key"] is None for r in rows):
        message("note: the OS keyring is not available, so stored keys cannot be checked")
    columns = ["name", "provider", "model", "api_base", "fallback", "has_key"]
    cli.emit(rows, lambda data: table([{k: "-" if v is None else v for k, v in r.items()} for r in data], columns))


@models.command("remove")
@click.argument("name")
@click.option("--keep-key", is_flag=True, help="Leave the stored key in the keyring.")
@pass_cli
def remove(cli: CliContext, name: str, keep_key: bool) -> None:
    """Remove model NAME (and its stored key)."""
    from stockbench.llm import KeyringUnavailable
    from stockbench.llm.keys import OsKeyring

    config = _registry(cli).remove(name)
    key_deleted: bool | None = False
    if not keep_key:
        try:
            key_deleted = OsKeyring().delete(config.name)
        except KeyringUnavailable:
            key_deleted = None
    cli.emit({"name": name, "removed": True, "key_deleted": key_deleted}, f"model {name} removed")


@models.command("providers")
@pass_cli
def providers(cli: CliContext) -> None:
    """The provider presets: litellm route, default endpoint, whether a key is needed."""
    from stockbench.llm.capabilities import default_table

    rows = [
        {"provider": p.name, "label": p.label, "litellm_prefix": p.litellm_prefix, "api_base": p.api_base,
         "key_required": p.requires_key}
        for p in default_table().providers()
    ]  # fmt: skip
    cli.emit(rows, lambda data: table(data, ["provider", "label", "api_base", "key_required"]))
