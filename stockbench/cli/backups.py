"""`stockbench backup`, `stockbench backups list|folder` and `stockbench restore`: rolling copies of the workspace.

The app backs up on its own (before a migration and a ledger import, when it closes, and once a day while it runs,
kept by the retention rule of stockbench.store.backups); these commands take one by hand, list them, choose where
they go, and put one back. A restore never overwrites the current file: it is kept aside first.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.messages import Language, Note


def _said(key: str, language: Language, **params: object) -> str:
    return Note(key, tuple((name, str(value)) for name, value in params.items())).text(language)


def _mb(size: int) -> str:
    return f"{size / 1e6:,.1f}"


@click.command()
@click.option("--to", "to", type=click.Path(file_okay=False, path_type=Path),
              help="Write the backup to this folder instead of the backup folder (not pruned there).")  # fmt: skip
@pass_cli
def backup(cli: CliContext, to: Path | None) -> None:
    """Take a backup of the workspace now (a consistent copy, with a manifest holding its sha256)."""
    found = cli.bench().backup("manual", to=to)
    human = _said("backup.taken", cli.language, name=found.path.name, mb=_mb(found.bytes), folder=found.path.parent)
    cli.emit(found, human)


@click.group()
def backups() -> None:
    """The workspace's backups: list them, or choose the folder they go to."""


@backups.command("list")
@pass_cli
def list_command(cli: CliContext) -> None:
    """Every complete backup, newest first (times in Beijing time)."""
    from stockbench.config import WorkspacePaths, resolve_home
    from stockbench.store.backups import backup_folder, list_backups
    from stockbench.store.damage import shanghai_time

    paths = WorkspacePaths(resolve_home(cli.home))  # read without opening: works when the database is damaged
    folder = backup_folder(paths)
    found = list_backups(folder)

    def human(_: object) -> str:
        if not found:
            return _said("backup.none", cli.language, folder=folder)
        rows = [f"{b.path.name}  {shanghai_time(b.taken_at)}  {b.reason:<9} {_mb(b.bytes):>9} MB" for b in found]
        return "\n".join([_said("backup.folder", cli.language, folder=folder), *rows])

    cli.emit(found, human)


@backups.command("folder")
@click.argument("folder", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--default", "default", is_flag=True, help="Go back to the workspace's own backups/ folder.")
@pass_cli
def folder_command(cli: CliContext, folder: Path | None, default: bool) -> None:
    """Show the backup folder, or set it (e.g. a synced folder); kept in backups.toml in the workspace folder."""
    from stockbench.config import WorkspacePaths, resolve_home
    from stockbench.store.backups import backup_folder, choose_folder

    paths = WorkspacePaths(resolve_home(cli.home))
    if folder is not None and default:
        raise click.UsageError(cli.say("cli.folder_or_default"))
    if folder is not None or default:
        choose_folder(paths, None if default else folder)
    chosen = backup_folder(paths)
    cli.emit({"folder": str(chosen)}, _said("backup.folder", cli.language, folder=chosen))


@click.command()
@click.argument("name")
@click.option("--yes", is_flag=True, help="Restore without asking (the current file is kept aside either way).")
@pass_cli
def restore(cli: CliContext, name: str, yes: bool) -> None:
    """Put the backup NAME (a file name from `backups list`, or a path) in place of the workspace's database.

    The current file is renamed to workspace.before-restore-<time>.duckdb first, never overwritten or deleted; the
    backup is checked (sha256, DuckDB opens it, its schema) before anything changes.
    """
    from stockbench.config import WorkspacePaths, resolve_home
    from stockbench.errors import InvalidInput
    from stockbench.messages import user_error
    from stockbench.store.backups import find_backup, restore_backup

    paths = WorkspacePaths(resolve_home(cli.home))
    if not yes:
        find_backup(paths, name)  # an unknown name is said before anything is asked
        if not sys.stdin.isatty():
            raise user_error(InvalidInput, "restore_confirm", flag="--yes")
        click.confirm(f"restore {name} into {paths.home}?", abort=True, err=True)
    done = restore_backup(paths, name)
    lines = [_said("backup.restored", cli.language, name=done.backup.path.name, aside=done.aside or "—")]
    ahead = cli.bench().journal_ahead()  # the workspace is opened here: it migrates
    data = {**done.as_dict(), "journal_ahead": ahead}
    if ahead:
        lines.append(_said("backup.journal_ahead", cli.language, command="stockbench ledger rebuild --from-journal"))
    cli.emit(data, "\n".join(lines))
