"""`stockbench models ...`: configure models (provider, model id, endpoint, fallback), store keys, test a model.

Every call goes through `Workbench.models`. Keys go to the workspace's key store (the OS keyring, or the encrypted
file chosen with `models keystore file`); they are read from standard input and never echoed or printed. A key in
STOCKBENCH_KEY_<NAME> is used before a stored one and never stored.

`models add` exits 5 when the model was added but cannot be used yet because no key can be stored or read here
(no OS keyring, a locked key file); its output says what to do.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.cli.output import message

if TYPE_CHECKING:
    from stockbench.llm.records import KeyStoreView, ModelConfig
    from stockbench.llm.service import Models
    from stockbench.messages import Note


@dataclass(frozen=True)
class PresetRow:
    """A connection preset as `models presets` lists it."""

    preset: str
    label: str
    provider: str
    model: str
    models: tuple[str, ...]
    api_base: str | None
    requires_key: bool
    console: str


@dataclass(frozen=True)
class ProviderRow:
    """A provider as `models providers` lists it."""

    provider: str
    label: str
    litellm_prefix: str
    api_base: str | None
    key_required: bool


EXIT_NOT_USABLE = 5


@dataclass(frozen=True)
class KeyStored:
    name: str
    stored: bool = True


@dataclass(frozen=True)
class KeyDeleted:
    name: str
    deleted: bool


def _models(cli: CliContext) -> Models:
    return cli.bench().models


def _or_unknown(value: object) -> str:
    return "unknown" if value is None else str(value)


def _describe_human(cli: CliContext, d: dict[str, Any], step: Note | None) -> str:
    from stockbench.llm.keys import UNREADABLE

    key = cli.word("key_source", d["key_source"])
    price = d["price"]
    unknown = cli.say("cli.models.unknown")
    lines = [
        f"{d['name']}: {d['provider']} {d['model']} ({d['litellm_model']})",
        cli.say("cli.models.endpoint", value=d["api_base"]),
        cli.say("cli.models.fallback", value=d["fallback"] or "-"),
        cli.say("cli.models.key", value=key if d["key_required"] else cli.say("cli.models.not_required")),
        cli.say("cli.models.context", tokens=d["context_tokens"] or unknown,
                tool_choice=cli.word("tool_choice", d["tool_choice"]),
                reasoning=cli.word("reasoning", d["reasoning"])),
        cli.say("cli.models.price_unknown")
        if price is None
        else cli.say("cli.models.price", uncached=price["input_uncached"],
                     cached=unknown if price["input_cached"] is None else price["input_cached"],
                     output=price["output"], currency=price["currency"]),
    ]  # fmt: skip
    if step is not None:
        said = step.text(cli.language)
        lines.append(cli.say("cli.models.not_usable", step=said) if d["key_source"] in UNREADABLE else said)
    return "\n".join(lines)


@click.group()
def models() -> None:
    """Language models: add, store keys (OS keyring or encrypted file), test, list, remove."""


def _config(
    service: Models,
    name: str,
    preset: str | None,
    provider: str | None,
    model_id: str | None,
    api_base: str | None,
    fallback: str | None,
) -> ModelConfig:
    """The configuration the options describe: from a preset, or from a provider and a model id."""
    from dataclasses import replace

    from stockbench.errors import InvalidInput
    from stockbench.llm.records import ModelConfig
    from stockbench.messages import user_error

    if preset is not None:
        chosen = service.preset(preset)
        if provider is not None and provider != chosen.provider.name:
            raise user_error(InvalidInput, "preset_other_provider", preset=preset, uses=chosen.provider.name,
                             provider=provider, command="stockbench models presets")  # fmt: skip
        return replace(chosen.config(name, model_id, api_base), fallback=fallback)
    if provider is None or model_id is None:
        raise user_error(InvalidInput, "model_needs_provider", provider="--provider", model="--model",
                         preset="--preset", command="stockbench models presets")  # fmt: skip
    return ModelConfig(name, provider, model_id, api_base, fallback)


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
) -> int:
    """Configure model NAME: with --provider and --model, or from a --preset.

    Exits 5 when the model was added but cannot be used yet: its key can be neither stored nor read here."""
    from stockbench.llm.keys import UNREADABLE

    service = _models(cli)
    config = _config(service, name, preset, provider, model_id, api_base, fallback)
    unlock_if_asked(cli)
    added = service.add(config, replace=replace)
    cli.emit(added, lambda d: _describe_human(cli, d, added.next_step_note))
    return EXIT_NOT_USABLE if added.key_source in UNREADABLE and added.key_required else 0


@models.command("presets")
@pass_cli
def presets(cli: CliContext) -> None:
    """The connection presets (the desktop app's "Connect your model"): provider, default model, endpoints."""
    rows = [
        PresetRow(p.key, p.label, p.provider.name, p.model, p.models, p.api_base, p.requires_key, p.console)
        for p in _models(cli).presets()
    ]
    cli.emit(rows, lambda d: cli.table(d, ["preset", "provider", "model", "api_base", "requires_key"]))


def _read_key() -> str:
    """The key from standard input: prompted without echo on a terminal, else the first line of the input."""
    from stockbench.errors import InvalidInput
    from stockbench.messages import user_error

    tty = sys.stdin.isatty()
    text = click.prompt("API key (not shown)", hide_input=True, err=True) if tty else sys.stdin.read()
    key = str(text).strip()
    if not key:
        raise user_error(InvalidInput, "api_key_missing", command="stockbench models key NAME < key.txt")
    if any(ch.isspace() for ch in key):
        raise user_error(InvalidInput, "api_key_spaces")
    return key


@models.command("key")
@click.argument("name")
@click.option("--delete", is_flag=True, help="Remove the stored key instead.")
@pass_cli
def key(cli: CliContext, name: str, delete: bool) -> None:
    """Store the API key of model NAME in the key store (read from standard input, never echoed)."""
    service = _models(cli)
    config = service.config(name)
    unlock_if_asked(cli)
    if delete:
        deleted = service.delete_key(config.name)
        said = cli.say("cli.models.key_deleted" if deleted else "cli.models.key_not_stored", name=name)
        cli.emit(KeyDeleted(config.name, deleted), said)
        return
    service.store_key(config.name, _read_key())
    where = "file" if service.keystore().store == "file" else "os"
    cli.emit(KeyStored(config.name), cli.say(f"cli.models.key_stored_{where}", name=name))


def unlock_if_asked(cli: CliContext) -> None:
    """On a terminal, ask for the key file's passphrase when the file store is chosen and none is given."""
    from stockbench.llm.key_file import PASSPHRASE_ENV

    service = _models(cli)
    if not sys.stdin.isatty() or os.environ.get(PASSPHRASE_ENV):
        return
    view = service.keystore()
    if view.store == "file" and not view.available:
        service.unlock(str(click.prompt("key file passphrase (not shown)", hide_input=True, err=True)))


def _read_passphrase(new: bool) -> str | None:
    """The key file's passphrase: STOCKBENCH_KEYSTORE_PASSPHRASE, else asked without echo on a terminal (twice for
    a new file), else the first line of standard input."""
    from stockbench.llm.key_file import PASSPHRASE_ENV

    if os.environ.get(PASSPHRASE_ENV):
        return None  # the service reads it at use
    if sys.stdin.isatty():
        return str(click.prompt("key file passphrase (not shown)", hide_input=True, confirmation_prompt=new, err=True))
    return sys.stdin.readline().rstrip("\r\n") or None


def _unusable_words(cli: CliContext, view: KeyStoreView) -> tuple[str, str]:
    """Why the key store cannot be used now, and what to do, in the invocation's language."""
    from stockbench.errors import UserError
    from stockbench.messages import error_words

    error = UserError(view.reason or "", view.hint or "", key=view.reason_key, params=view.reason_params)
    return error_words(error, cli.language)


def _keystore_human(cli: CliContext, d: dict[str, Any], view: KeyStoreView) -> str:
    where = (
        cli.say("cli.models.keys_in_os") if d["store"] == "os" else cli.say("cli.models.keys_in_file", path=d["path"])
    )
    lines = [where + ("" if d["available"] else cli.say("cli.models.not_usable_now"))]
    if not d["available"]:
        reason, hint = _unusable_words(cli, view)
        lines += [f"  {reason}", f"  {hint}"]
    lines.append(cli.say("cli.models.environment", env=d["environment"]))
    return "\n".join(lines)


@models.command("keystore")
@click.argument("store", required=False, type=click.Choice(["os", "file"]))
@pass_cli
def keystore(cli: CliContext, store: str | None) -> None:
    """Where API keys are kept: show it, or choose STORE: os (the OS keyring) or file (an encrypted file in the
    workspace folder; its passphrase comes from STOCKBENCH_KEYSTORE_PASSPHRASE, else is asked without echo, else
    is the first line of standard input, and is never stored). Keys already stored are not moved."""
    service = _models(cli)
    if store is None:
        view = service.keystore()
        cli.emit(view, lambda d: _keystore_human(cli, d, view))
        return
    passphrase = None
    if store == "file":
        from stockbench.llm.key_file import FILE_NAME

        passphrase = _read_passphrase(new=not (cli.bench().home / FILE_NAME).exists())
    chosen = service.use_keystore(store, passphrase)
    cli.emit(chosen, lambda d: _keystore_human(cli, d, chosen))


def _test_human(cli: CliContext, d: dict[str, Any]) -> str:
    usage = d["usage"]
    tokens = cli.say("cli.models.usage_unknown") if usage is None else cli.say(
        "cli.models.test_usage", prompt=usage["prompt_tokens"], cached=usage["cached_tokens"] or 0,
        completion=usage["completion_tokens"])  # fmt: skip
    cost = d["cost"]
    how = cli.say("cli.models.streamed" if d["streamed"] else "cli.models.plain")
    return "\n".join(
        [
            cli.say("cli.models.test_ok", name=d["name"], ms=d["latency_ms"], how=how),
            cli.say("cli.models.test_model", model=d["model"], route=d["litellm_model"]),
            cli.say("cli.models.test_reply", content=repr(d["content"]), finish=d["finish_reason"]),
            cli.say("cli.models.test_tokens", tokens=tokens),
            cli.say("cli.models.test_cost", cost=cli.say("cli.models.unknown") if cost is None
                    else f"{cost['amount']} {cost['currency']}"),
        ]
    )  # fmt: skip


@models.command("test")
@click.argument("name")
@pass_cli
def test(cli: CliContext, name: str) -> None:
    """Send model NAME one tiny request (no fallback) and report latency, model and usage."""
    unlock_if_asked(cli)
    cli.emit(_models(cli).probe(name), lambda d: _test_human(cli, d))


@models.command("list")
@pass_cli
def list_models(cli: CliContext) -> None:
    """The configured models, with their endpoints and where each key comes from (`key_source`: environment,
    keyring, file, missing, keyring_unavailable or file_locked)."""
    unlock_if_asked(cli)
    rows = _models(cli).list()
    if any(r.has_key is None for r in rows):
        view = _models(cli).keystore()
        reason, hint = _unusable_words(cli, view)
        cli.note_line(cli.say("cli.models.keys_unchecked", reason=reason))
        message(f"  {hint}")
    columns = ["name", "provider", "model", "api_base", "fallback", "key_source"]
    shown = {"key_source": "key_source"}
    cli.emit(rows, lambda data: cli.table([{k: "-" if v is None else v for k, v in r.items()} for r in data], columns,
                                          shown))  # fmt: skip


@models.command("remove")
@click.argument("name")
@click.option("--keep-key", is_flag=True, help="Leave the stored key in the key store.")
@pass_cli
def remove(cli: CliContext, name: str, keep_key: bool) -> None:
    """Remove model NAME (and its stored key)."""
    cli.emit(_models(cli).remove(name, keep_key=keep_key), cli.say("cli.models.removed", name=name))


@models.command("providers")
@pass_cli
def providers(cli: CliContext) -> None:
    """The provider presets: litellm route, default endpoint, whether a key is needed."""
    rows = [
        ProviderRow(p.name, p.label, p.litellm_prefix, p.api_base, p.requires_key) for p in _models(cli).providers()
    ]
    cli.emit(rows, lambda data: cli.table(data, ["provider", "label", "api_base", "key_required"]))
