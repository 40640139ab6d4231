"""`stockbench demo`: create (or open) the embedded demo market in a workspace of its own.

The folder is `--home`, else $STOCKBENCH_HOME, else "Stock Workbench Demo" beside the default workspace.
Running it again opens the same market (rebuilt only when the seed or the rules changed).
"""

from __future__ import annotations

from typing import Any

import click

from stockbench.cli.context import CliContext, pass_cli


def _human(data: dict[str, Any]) -> str:
    state = "built" if data["built"] else "already built"
    lines = [
        f"demo market   {data['home']} ({state})",
        f"clock         pinned at {data['pinned_as_of']} (replay)",
        f"instruments   {data['instruments']}",
        f"bars          {data['bars']:,} from {data['first']} to {data['last']}",
        f"symbols       {' '.join(data['symbols'])}",
        "Every name and figure in it is fictional (示例 / DEMO). Open it with --home to explore.",
    ]
    return "\n".join(lines)


@click.command()
@pass_cli
def demo(cli: CliContext) -> None:
    """Create or open the demo market (fictional, offline) and list what it holds."""
    from stockbench.workbench import Workbench

    home = Workbench.demo_home(cli.home)
    summary = Workbench.prepare(home, kind="demo", command="stockbench demo", demo_only=True)
    cli.emit(summary, _human)
