"""`stockbench demo`: create (or open) the embedded demo market in a workspace of its own.

The folder is `--home`, else $STOCKBENCH_HOME, else "Stock Workbench Demo" beside the default workspace.
Running it again opens the same market (rebuilt only when the seed or the rules changed).
"""

from __future__ import annotations

from typing import Any

import click

from stockbench.cli.context import CliContext, pass_cli


def _human(cli: CliContext, data: dict[str, Any]) -> str:
    state = cli.say("cli.demo.built" if data["built"] else "cli.demo.already_built")
    lines = [
        cli.say("cli.demo.home", home=data["home"], state=state),
        cli.say("cli.demo.clock", as_of=data["pinned_as_of"]),
        cli.say("cli.demo.instruments", count=data["instruments"]),
        cli.say("cli.demo.bars", count=f"{data['bars']:,}", first=data["first"], last=data["last"]),
        cli.say("cli.demo.symbols", symbols=" ".join(data["symbols"])),
        cli.say("cli.demo.fictional", marks="示例 / DEMO", option="--home"),
    ]
    return "\n".join(lines)


@click.command()
@pass_cli
def demo(cli: CliContext) -> None:
    """Create or open the demo market (fictional, offline) and list what it holds."""
    from stockbench.workbench import Workbench

    home = Workbench.demo_home(cli.home)
    summary = Workbench.prepare(home, kind="demo", command="stockbench demo", demo_only=True)
    cli.emit(summary, lambda d: _human(cli, d))
