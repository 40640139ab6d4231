"""`stockbench handbook check|show|versions`: the method handbook, its check against the code, and its versions."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from stockbench.cli.context import CliContext, pass_cli

if TYPE_CHECKING:
    from stockbench.errors import Problem
    from stockbench.research.handbook import Handbook

EXIT_PROBLEMS = 1


@click.group()
def handbook() -> None:
    """The method handbook the research follows: check it, show any version runs used."""


def _check_human(cli: CliContext, data: dict[str, Any], problems: list[Problem]) -> str:
    from stockbench.messages import said

    if data["ok"]:
        head = cli.say("cli.handbook.ok", version=data["version"])
    else:
        head = cli.say("cli.handbook.problems", version=data["version"], count=len(problems))
    lines = [cli.say("cli.handbook.problem", code=p.code, message=words[0], fix=words[1])
             for p in problems for words in [said(p, cli.language)]]  # fmt: skip
    return "\n".join([head, *lines])


@handbook.command()
@click.option("--folder", type=click.Path(path_type=Path, file_okay=False), help="Check another handbook folder.")
@pass_cli
def check(cli: CliContext, folder: Path | None) -> int:
    """Check the handbook against the code: names, stage markers, both editions, references, tables.

    Exits with 1 when there are problems."""
    from stockbench.research.handbook import Handbook
    from stockbench.research.handbook_check import check as run_check

    found = Handbook.load(folder)
    problems = run_check(found)
    data = {"ok": not problems, "version": found.version, "problems": problems}
    cli.emit(data, lambda d: _check_human(cli, d, problems))
    return EXIT_PROBLEMS if problems else 0


def _version(cli: CliContext, version: str | None) -> tuple[Handbook, str]:
    """The handbook on disk, or a version a run stored in the workspace."""
    from stockbench.research.handbook import Handbook

    current = Handbook.load()
    if version is None or version == current.version:
        return current, "disk"
    return cli.bench().handbook(version), "workspace"


def _show_human(data: dict[str, Any]) -> str:
    return str(data["text"])


@handbook.command()
@click.option("--version", "version", metavar="HASH", help="A version a run used (default: the current one).")
@click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True, help="Edition.")
@click.option("--reference", metavar="SLUG", help="Show one reference document instead of the main handbook.")
@pass_cli
def show(cli: CliContext, version: str | None, lang: str, reference: str | None) -> None:
    """Print the handbook (or one reference document) of the current version or of any stored version."""
    from stockbench.errors import NotFound
    from stockbench.messages import user_error

    found, source = _version(cli, version)
    title, text = "", found.main if lang == "zh" else found.main_en
    if reference is not None:
        refs = found.references()
        if reference not in refs:
            raise user_error(NotFound, "handbook_no_reference.version", reference=reference, version=found.version,
                             command="stockbench handbook show --json")  # fmt: skip
        ref = refs[reference]
        title, text = (ref.title if lang == "zh" else ref.title_en), ref.text
    data = {"version": found.version, "source": source, "lang": lang, "reference": reference, "title": title,
            "text": text, "references": sorted(found.references())}  # fmt: skip
    cli.emit(data, _show_human)


@handbook.command()
@pass_cli
def versions(cli: CliContext) -> None:
    """The handbook versions stored in the workspace (every version a run used), newest first."""
    from stockbench.research.handbook import Handbook

    current = Handbook.load().version
    cli.emit({"current": current, "versions": list(cli.bench().handbook_versions())}, lambda d: _versions_human(cli, d))


def _versions_human(cli: CliContext, data: dict[str, Any]) -> str:
    head = cli.say("cli.handbook.current", version=data["current"])
    return head + "\n" + cli.table(data["versions"], ["version", "stored_at", "runs", "current"])
