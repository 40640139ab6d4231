"""`stockbench search ...`: the web search research may use: set, show, test, clear.

Two providers: a SearXNG instance (its JSON API needs no key), or the Brave Search API, whose key is read from
standard input (never echoed) into the key store the models use (the OS keyring or the encrypted key file), or
given in STOCKBENCH_KEY_SEARCH_BRAVE; it is never printed, stored in the workspace or logged. Research treats every
result as a candidate that it must fetch and read before quoting. `search test` exits 1 when the provider gives
no usable answer.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

import click

from stockbench.cli.context import CliContext, pass_cli

if TYPE_CHECKING:
    from stockbench.research.search_provider import SearchSettings
    from stockbench.research.search_records import SearchConfig, SearchProbe

EXIT_FAILED = 1


def _search(cli: CliContext) -> SearchSettings:
    return cli.bench().search


NAMES = {"searxng": "SearXNG", "brave": "Brave Search API"}


def _emit_config(cli: CliContext, config: SearchConfig) -> None:
    cli.emit({"provider": config.provider, "url": config.url, "base_url": config.base_url,
              "key_source": config.key_source, "configured": config.configured},
             lambda d: _config_human(cli, d))  # fmt: skip


def _key_words(cli: CliContext, source: str) -> str:
    if source not in ("environment", "keyring", "file", "missing", "keyring_unavailable", "file_locked"):
        return source
    return cli.say(f"cli.search.key.{source}", env="STOCKBENCH_KEY_SEARCH_BRAVE",
                   command="stockbench search set --brave")  # fmt: skip


def _config_human(cli: CliContext, d: dict[str, Any]) -> str:
    if d["url"] is None:
        return cli.say("cli.search.none", command="stockbench search set")
    shown = cli.say("cli.search.provider", name=NAMES.get(d["provider"], d["provider"]), url=d["base_url"])
    if d["key_source"] is not None:
        shown += "\n" + cli.say("cli.search.key", source=_key_words(cli, d["key_source"]))
    return shown


def _probe_human(cli: CliContext, d: dict[str, Any], found: SearchProbe) -> str:
    from stockbench.errors import UserError
    from stockbench.messages import error_words

    if d["ok"]:
        name = NAMES.get(d["provider"], d["provider"])
        return cli.say("cli.search.ok", name=name, url=d["url"], results=d["results"], ms=d["latency_ms"])
    reason, hint = error_words(UserError(found.reason or "", found.hint or "", key=found.reason_key,
                                         params=found.reason_params), cli.language)  # fmt: skip
    return cli.say("cli.search.failed", reason=reason) + f"\n  {hint}"


@click.group()
def search() -> None:
    """The web search research may use: a SearXNG instance (its JSON API) or the Brave Search API (with a key)."""


@search.command("set")
@click.option("--searxng", "url", metavar="URL",
              help="The SearXNG instance's address, e.g. https://searx.example.org (JSON format enabled).")  # fmt: skip
@click.option("--brave", is_flag=True,
              help="Use the Brave Search API; its key is read from standard input (asked without echo on a "
                   "terminal), unless STOCKBENCH_KEY_SEARCH_BRAVE gives it.")  # fmt: skip
@click.option("--base-url", metavar="URL",
              help="With --brave: another address of the API (a proxy, or a test server; http only to this "
                   "machine). Default https://api.search.brave.com.")  # fmt: skip
@pass_cli
def set_provider(cli: CliContext, url: str | None, brave: bool, base_url: str | None) -> None:
    """Let research query the SearXNG instance at URL, or the Brave Search API (test it with: stockbench search
    test)."""
    from stockbench.errors import InvalidInput
    from stockbench.messages import user_error

    if brave == (url is not None):
        raise user_error(InvalidInput, "search_one_provider", searxng="stockbench search set --searxng URL",
                         brave="stockbench search set --brave")  # fmt: skip
    if url is not None:
        if base_url is not None:
            raise user_error(InvalidInput, "search_base_url_brave", option="--base-url", brave="--brave",
                             searxng="--searxng")  # fmt: skip
        _emit_config(cli, _search(cli).set_searxng(url))
        return
    from stockbench.cli.models import unlock_if_asked

    key = _brave_key()
    unlock_if_asked(cli)  # a key file store: its passphrase, asked on a terminal
    _emit_config(cli, _search(cli).set_brave(key, base_url))


def _brave_key() -> str | None:
    """The Brave key from standard input (asked without echo on a terminal); None when the environment gives it
    and nothing is piped in."""
    from stockbench.errors import InvalidInput
    from stockbench.llm.keys import env_name
    from stockbench.messages import user_error
    from stockbench.research.search_provider import BRAVE_KEY

    tty = sys.stdin.isatty()
    if os.environ.get(env_name(BRAVE_KEY), "").strip() and tty:
        return None
    text = click.prompt("Brave Search API key (not shown)", hide_input=True, err=True) if tty else sys.stdin.read()
    key = str(text).strip()
    if not key and os.environ.get(env_name(BRAVE_KEY), "").strip():
        return None
    if not key:
        raise user_error(InvalidInput, "api_key_missing.search", command="stockbench search set --brave < key.txt",
                         env=env_name(BRAVE_KEY))  # fmt: skip
    if any(ch.isspace() for ch in key):
        raise user_error(InvalidInput, "api_key_spaces")
    return key


@search.command("show")
@pass_cli
def show(cli: CliContext) -> None:
    """The configured search provider (`provider` null when none)."""
    _emit_config(cli, _search(cli).show())


@search.command("test")
@pass_cli
def test(cli: CliContext) -> int:
    """Send the configured provider one query and report ok (results, latency) or the reason it failed."""
    from stockbench.cli.models import unlock_if_asked

    unlock_if_asked(cli)
    found = _search(cli).test()
    cli.emit(found, lambda d: _probe_human(cli, d, found))
    return 0 if found.ok else EXIT_FAILED


@search.command("clear")
@pass_cli
def clear(cli: CliContext) -> None:
    """Use no search provider (Brave's stored key is deleted too)."""
    _emit_config(cli, _search(cli).clear())
