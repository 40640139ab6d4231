"""`stockbench doctor`: check a workspace (schema, report seals, every block read back, and the owners' checks)."""

from __future__ import annotations

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.cli.output import emit
from stockbench.messages import ERRORS, NOTES, Language
from stockbench.store.checks import Check

EXIT_PROBLEMS = 1


def check_words(check: Check, language: Language) -> str:
    """One check's line in `language`: its catalogue words, the damage it names said in that language too."""
    params = dict(check.params)
    if params.get("key") in ERRORS:  # a damage: its own message and hint, in the language asked for
        message, hint = ERRORS[params["key"]]
        params["message"] = params["reason"] = message.text(language).format(**params)
        params["hint"] = hint.text(language).format(**params)
    words = NOTES.get(check.key)
    try:
        return words.text(language).format(**params) if words is not None else check.detail
    except (KeyError, IndexError):  # a field the words need and the check lacks: its English detail is still right
        return check.detail


@click.command()
@pass_cli
def doctor(cli: CliContext) -> int:
    """Check the workspace: schema, report seals, every block read back (and backups, ledger replay, journal).

    Exit 0 when no check failed, 1 when one did. A damaged file is reported (with the newest backup), not raised.
    """
    from stockbench.doctor import examine

    found = examine(cli.home)
    language = cli.language

    def human(_: object) -> str:
        lines = [NOTES["doctor.title"].text(language).format(home=found.home)]
        for check in found.checks:
            status = NOTES[f"doctor.status.{check.status}"].text(language)
            lines.append(f"  [{status}] {check_words(check, language)}")
        ending = NOTES["doctor.ok"] if found.ok else NOTES["doctor.failed"]
        lines.append(ending.text(language).format(failed=found.failed))
        return "\n".join(lines)

    emit(cli.as_json, found, human)
    return 0 if found.ok else EXIT_PROBLEMS
