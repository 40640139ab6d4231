"""The `stockbench` command: global options, lazily loaded subcommands, and exit codes.

Exit codes: 0 success; 1 a user error (one line with the reason, one with a hint); 2 a usage error;
3 an internal error (details in the workspace log). Subcommand modules load only when used, and none
of them imports polars, litellm or Qt at module level, so `stockbench --help` starts fast.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

import stockbench
from stockbench.cli.context import CliContext
from stockbench.cli.output import dumps, message
from stockbench.cli.usage import (
    ROOT_KEY,
    WordedContext,
    finish_sentences,
    name_help,
    speaking,
    subcommand_key,
    usage_payload,
)
from stockbench.errors import Cancelled, StockbenchError, UserError
from stockbench.messages import LANGUAGES, Language, error_words, language_of_locale, note, said

EXIT_OK, EXIT_USER, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3

# name -> "module:attribute"; each module is imported only when its command runs or help lists it.
COMMANDS: dict[str, str] = {
    "info": "stockbench.cli.info:info",
    "backup": "stockbench.cli.backups:backup",
    "backups": "stockbench.cli.backups:backups",
    "restore": "stockbench.cli.backups:restore",
    "data": "stockbench.cli.data:data",
    "demo": "stockbench.cli.demo:demo",
    "rules": "stockbench.cli.rules:rules",
    "ledger": "stockbench.cli.ledger:ledger",
    "analyze": "stockbench.cli.research:analyze",
    "runs": "stockbench.cli.research:runs",
    "reports": "stockbench.cli.research:reports",
    "models": "stockbench.cli.models:models",
    "search": "stockbench.cli.search:search",
    "indicators": "stockbench.cli.analytics_indicators:indicators",
    "backtest": "stockbench.cli.analytics_backtest:backtest",
    "calibrate": "stockbench.cli.analytics_backtest:calibrate",
    "zones": "stockbench.cli.analytics_zones:zones",
    "size": "stockbench.cli.analytics_zones:size",
    "scan": "stockbench.cli.analytics_zones:scan",
    "handbook": "stockbench.cli.handbook:handbook",
    "watchlist": "stockbench.cli.watchlist:watchlist",
    "feedback": "stockbench.cli.feedback:feedback",
    "track-record": "stockbench.cli.feedback:track_record",
    "replay": "stockbench.cli.feedback:replay",
    "eval": "stockbench.cli.evals:evaluate",
    "review-quick": "stockbench.cli.quick:review_quick",
    "check-plan": "stockbench.cli.quick:check_plan",
    "doctor": "stockbench.cli.doctor:doctor",
}
# With no subcommand, `stockbench` opens the desktop shell. It is loaded by name, only then: the engine never
# imports the shell (Qt stays out of every other command and of `--help`).
DESKTOP = "ui.app:run_desktop"


def _set_global(ctx: click.Context, param: click.Parameter, value: object) -> None:
    """Let a global option also follow the subcommand (`stockbench info --home DIR --json`)."""
    if value is None or value is False or not isinstance(ctx.obj, CliContext):
        return
    setattr(ctx.obj, param.name or "", value)


def _global_params() -> list[click.Parameter]:
    return [
        click.Option(
            ["--home"],
            type=click.Path(path_type=Path),
            expose_value=False,
            callback=_set_global,
            help="Workspace folder (same as the global option).",
        ),
        click.Option(
            ["--json", "as_json"],
            is_flag=True,
            expose_value=False,
            callback=_set_global,
            help="Machine-readable output on stdout.",
        ),
        click.Option(
            ["--as-of", "as_of"],
            metavar="DATE",
            expose_value=False,
            callback=_set_global,
            help="Research the past (same as the global option).",
        ),
    ]


def attach_global_options(command: click.Command) -> click.Command:
    """Give `command` (and every subcommand of a group) the global options too."""
    if not getattr(command, "_stockbench_globals", False):
        command.params.extend(_global_params())
        command.context_class = WordedContext  # its help's stored lines in the user's language too
        command._stockbench_globals = True  # type: ignore[attr-defined]
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            attach_global_options(sub)
    return command


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on demand from `COMMANDS`; click's own words (usage errors,
    help headings) are in the language `--lang` names, else the system locale's."""

    context_class = WordedContext

    def __init__(self, *args: object, lazy: dict[str, str], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy = lazy

    def main(self, args: Sequence[str] | None = None, *rest: Any, **kwargs: Any) -> Any:
        # the language is read from the arguments first: click words a usage error before any option is processed
        with speaking(_language(sys.argv[1:] if args is None else args)):
            return super().main(args, *rest, **kwargs)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy:  # its help, and its subcommands', said from the catalogue by its name
            return name_help(attach_global_options(_load(self.lazy[cmd_name])), subcommand_key(self, cmd_name))
        return super().get_command(ctx, cmd_name)


def _load(target: str) -> click.Command:
    """The command at "module:attribute" (the module is imported now)."""
    module, attribute = target.split(":")
    command: click.Command = getattr(importlib.import_module(module), attribute)
    return command


@click.group(
    cls=LazyGroup,
    lazy=COMMANDS,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(stockbench.__version__, "-V", "--version", prog_name="stockbench")
@click.option(
    "--home",
    type=click.Path(path_type=Path),
    help="Workspace folder (default: $STOCKBENCH_HOME, else the user data folder).",
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output on stdout.")
@click.option("--as-of", metavar="DATE", help="Research the past: see the market as it stood on DATE.")
@click.option(
    "--lang",
    "language",
    type=click.Choice(["zh", "en"]),
    help="The language of messages and refusals, and of reports when a command names none (default: the system "
    "locale's; Chinese on a Chinese locale, else English).",
)
@click.pass_context
def cli(ctx: click.Context, home: Path | None, as_json: bool, as_of: str | None, language: str | None) -> None:
    """Stock Workbench: research A-share and Hong Kong stocks against your own ledger.

    With no command, opens the desktop window.
    """
    chosen: Language = ("zh" if language == "zh" else "en") if language else language_of_locale()
    ctx.obj = CliContext(home=home, as_json=as_json, as_of=as_of, language=chosen, language_named=bool(language))
    if ctx.invoked_subcommand is None:
        if as_json:
            click.echo(ctx.get_help())
            return
        ctx.exit(open_desktop(home, chosen if language else None))


name_help(cli, ROOT_KEY)


def open_desktop(home: Path | None, language: Language | None = None) -> int:
    """Run the desktop window on `home` (else the usual workspace, else the demo market) until it closes; `language`
    (an explicit `--lang`) is the window's language for this session, the stored setting left as it is."""
    module, attribute = DESKTOP.split(":")
    run_desktop = getattr(importlib.import_module(module), attribute)
    argv = [sys.argv[0] if sys.argv else "stockbench"]
    return int(run_desktop(argv, home) if language is None else run_desktop(argv, home, language=language))


def _report_user_error(error: UserError, as_json: bool, language: Language = "en") -> None:
    """The error on stderr (and as JSON on stdout) in `language`: its words from the message catalogue where it
    has them; `code` stays the stable engine code in both languages."""
    if isinstance(error, Cancelled):
        message(note("cli.cancelled").text(language))
        return
    text, hint = error_words(error, language)
    chinese = ("错误：", "提示：", "（{0}）")
    error_label, hint_label, fix = chinese if language == "zh" else ("error: ", "hint: ", " ({0})")
    message(f"{error_label}{text}")
    if hint:
        message(f"{hint_label}{hint}")
    problems = tuple(getattr(error, "problems", None) or ())
    for found in problems[1:]:  # the first is in the error line; every other one is listed too
        words = said(found, language)
        message(f"  - {words[0]}" + (fix.format(words[1]) if words[1] else ""))
    if as_json:
        payload: dict[str, object] = {"error": error.as_dict() | {"message": text, "hint": hint}}
        if problems:
            payload["problems"] = [p.as_dict() | dict(zip(("message", "fix"), said(p, language), strict=True))
                                   for p in problems]  # fmt: skip
        click.echo(dumps(payload))


def _language(args: Sequence[str]) -> Language:
    """The language `--lang` names (before any `--`), else the system locale's."""
    args = list(args[: list(args).index("--")] if "--" in args else args)
    for at, arg in enumerate(args):
        if arg.startswith("--lang="):
            chosen = arg.split("=", 1)[1]
        elif arg == "--lang" and at + 1 < len(args):
            chosen = args[at + 1]
        else:
            continue
        if chosen in LANGUAGES:
            return "zh" if chosen == "zh" else "en"
    return language_of_locale()


def _option(args: Sequence[str], name: str) -> str | None:
    """The value of option `name` (`--name V` or `--name=V`, before any `--`), else None."""
    args = list(args[: list(args).index("--")] if "--" in args else args)
    for at, arg in enumerate(args):
        if arg.startswith(f"{name}="):
            return arg.split("=", 1)[1]
        if arg == name and at + 1 < len(args):
            return args[at + 1]
    return None


def _damage(error: BaseException, args: Sequence[str]) -> UserError | None:
    """`error` (DuckDB's or the OS's, raised while a command used the workspace) as the workspace's damage, naming
    its newest backup; None when it is no damage."""
    from stockbench.config import WorkspacePaths, resolve_home
    from stockbench.store.damage import damage_reason, damaged

    reason = damage_reason(error)
    return damaged(WorkspacePaths(resolve_home(_option(args, "--home"))), reason) if reason is not None else None


def run(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return its exit code (tests call this in-process)."""
    args = list(sys.argv[1:] if argv is None else argv)
    with speaking(language := _language(args)):
        return _run(args, language)


def _run(args: list[str], language: Language) -> int:
    as_json = "--json" in args[: args.index("--")] if "--" in args else "--json" in args
    try:
        result = cli.main(args=args, prog_name="stockbench", standalone_mode=False)
    except click.exceptions.UsageError as error:
        finish_sentences(error).show()
        if as_json:
            click.echo(dumps(usage_payload(error)))
        return EXIT_USAGE
    except click.exceptions.Abort:
        message(note("cli.aborted").text(language))
        return EXIT_USER
    except click.exceptions.ClickException as error:
        error.show()
        return error.exit_code
    except UserError as error:
        _report_user_error(error, as_json, language)
        return EXIT_USER
    except (StockbenchError, Exception) as error:
        import logging

        if (damage := _damage(error, args)) is not None:  # the disk filled or a block broke during the command
            logging.getLogger(__name__).info("the workspace cannot be used: %s", error, exc_info=error)
            _report_user_error(damage, as_json, language)
            return EXIT_USER

        logging.getLogger(__name__).exception("internal error")
        message(note("cli.internal_error", error=f"{type(error).__name__}: {error}").text(language))
        message(note("cli.internal_hint", log="logs/stockbench.log").text(language))
        return EXIT_INTERNAL
    return result if isinstance(result, int) else EXIT_OK


def main() -> None:
    sys.exit(run())
