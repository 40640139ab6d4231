"""`stockbench info`: where the workspace is, its schema version and its sizes."""

from __future__ import annotations

from typing import Any

import click

from stockbench.cli.context import CliContext, pass_cli


def _human(cli: CliContext, data: dict[str, Any]) -> str:
    sizes = data["sizes"]
    from stockbench.clock import instant_of, local_words

    replayed = instant_of(data["clock"]) if data["clock"] != "system" else None
    clock = cli.moment(replayed) if replayed is not None else cli.say("cli.info.system_clock")
    created = instant_of(data["created_at"])
    lines = [
        cli.say("cli.info.workspace", home=data["home"], kind=cli.word("workspace_kind", data["kind"])),
        cli.say("cli.info.database", database=data["database"]),
        cli.say("cli.info.schema", version=data["schema_version"], latest=data["latest_schema_version"]),
        cli.say("cli.info.size", database=f"{sizes['database']:,}", exports=f"{sizes['exports']:,}"),
        cli.say("cli.info.created", created=local_words(created) if created is not None else data["created_at"]),
        cli.say("cli.info.clock", clock=clock),
    ]
    return "\n".join(lines)


@click.command()
@pass_cli
def info(cli: CliContext) -> None:
    """Show the workspace path, schema version and sizes."""
    bench = cli.bench()
    found = bench.info()
    cli.emit(
        {
            "home": found.home,
            "database": found.database,
            "kind": found.kind,
            "workspace_id": found.workspace_id,
            "created_at": found.created_at,
            "schema_version": found.schema_version,
            "latest_schema_version": found.latest_schema_version,
            "sizes": {
                "database": found.database_bytes,
                "exports": found.exports_bytes,
                "total": found.database_bytes + found.exports_bytes,
            },
            "tables": found.tables,
            "clock": bench.clock.now().isoformat() if bench.clock.is_replay else "system",
            "version": __import__("stockbench").__version__,
        },
        lambda d: _human(cli, d),
    )
