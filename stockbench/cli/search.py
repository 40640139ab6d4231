"""`stockbench search ...`: the web search research may use (a SearXNG instance): set, show, test, clear.

Only SearXNG is supported: its JSON API needs no key, and research treats every result as a candidate that it
must fetch and read before quoting. `search test` exits 1 when the provider gives no usable answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from stockbench.cli.context import CliContext, pass_cli

if TYPE_CHECKING:
    from stockbench.research.search_provider import SearchSettings
    from stockbench.research.search_records import SearchConfig

EXIT_FAILED = 1


def _search(cli: CliContext) -> SearchSettings:
    return cli.bench().search


def _emit_config(cli: CliContext, config: SearchConfig) -> None:
    cli.emit({"provider": config.provider, "url": config.url, "configured": config.configured}, _config_human)


def _config_human(d: dict[str, Any]) -> str:
    if d["url"] is None:
        return "no search provider: research discloses that no search was run (set one: stockbench search set)"
    return f"search provider: SearXNG at {d['url']}"


def _probe_human(d: dict[str, Any]) -> str:
    if d["ok"]:
        return f"ok: SearXNG at {d['url']} answered {d['results']} results in {d['latency_ms']} ms"
    return f"failed: {d['reason']}\n  {d['hint']}"


@click.group()
def search() -> None:
    """The web search research may use: a SearXNG instance (its JSON API)."""


@search.command("set")
@click.option("--searxng", "url", required=True, metavar="URL",
              help="The SearXNG instance's address, e.g. https://searx.example.org (JSON format enabled).")  # fmt: skip
@pass_cli
def set_provider(cli: CliContext, url: str) -> None:
    """Let research query the SearXNG instance at URL (test it with: stockbench search test)."""
    _emit_config(cli, _search(cli).set_searxng(url))


@search.command("show")
@pass_cli
def show(cli: CliContext) -> None:
    """The configured search provider (`provider` null when none)."""
    _emit_config(cli, _search(cli).show())


@search.command("test")
@pass_cli
def test(cli: CliContext) -> int:
    """Send the configured provider one query and report ok (results, latency) or the reason it failed."""
    found = _search(cli).test()
    cli.emit(found, _probe_human)
    return 0 if found.ok else EXIT_FAILED


@search.command("clear")
@pass_cli
def clear(cli: CliContext) -> None:
    """Use no search provider."""
    _emit_config(cli, _search(cli).clear())
