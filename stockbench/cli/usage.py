"""Click's own words (usage errors, `--help` headings) in the user's language, and a usage error as JSON.

Click asks gettext for each of its texts when it needs it (`_("Missing argument")`); `install` points click's
modules at `words`, which answers from the catalogue (stockbench/messages.py USAGE) in the language of the running
invocation (`speaking`) and leaves every other text to gettext, as click would. Help lines that click stores when a
command is built (the help option's) are said again when help is written (`WordedContext`). A usage error keeps
click's exit code 2; with `--json` it is also printed as `{"error": {"code": "usage.<kind>", ...}}`.
"""

from __future__ import annotations

import gettext
import importlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import click

from stockbench.messages import HELP, USAGE, Language

# click's modules that word something a person reads
_CLICK_MODULES = ("core", "exceptions", "types", "parser", "formatting", "decorators", "termui")
_SPOKEN: ContextVar[Language] = ContextVar("stockbench_cli_language", default="en")
_CHINESE: dict[str, str] = {w.en: w.zh for w in (*USAGE.values(), *HELP.values())}
_ENGLISH: dict[str, str] = {w.zh: w.en for w in (*USAGE.values(), *HELP.values())}


def words(text: str) -> str:
    """Click's `text` in the invocation's language (gettext's answer where the catalogue does not know it)."""
    if _SPOKEN.get() == "zh" and text in _CHINESE:
        return _CHINESE[text]
    return gettext.gettext(text)


def plural_words(singular: str, plural: str, count: int) -> str:
    """Click's singular or plural text, by `count`, in the invocation's language."""
    chosen = singular if count == 1 else plural
    if _SPOKEN.get() == "zh" and chosen in _CHINESE:
        return _CHINESE[chosen]
    return gettext.ngettext(singular, plural, count)


def install() -> None:
    """Let click ask `words` instead of gettext (once; English stays gettext's answer, as click's own)."""
    for name in _CLICK_MODULES:
        namespace = vars(importlib.import_module(f"click.{name}"))
        if "_" in namespace:
            namespace["_"] = words
        if "ngettext" in namespace:
            namespace["ngettext"] = plural_words


def current_language() -> Language:
    """The language of the running invocation."""
    return _SPOKEN.get()


@contextmanager
def speaking(language: Language) -> Iterator[None]:
    """Click speaks `language` inside the block."""
    install()
    token = _SPOKEN.set(language)
    try:
        yield
    finally:
        _SPOKEN.reset(token)


class WordedFormatter(click.HelpFormatter):
    """Help whose stored lines (the help option's, our global options') are said in the invocation's language: click
    builds a command's help option once, in the language of the first invocation that asks for it."""

    def write_dl(self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        said = _CHINESE if _SPOKEN.get() == "zh" else _ENGLISH
        super().write_dl([(term, said.get(text, text)) for term, text in rows], col_max, col_spacing)

    def write_heading(self, heading: str) -> None:
        if _SPOKEN.get() != "zh":
            super().write_heading(heading)
            return
        self.write(f"{'':>{self.current_indent}}{heading}：\n")  # a Chinese heading takes a full-width colon


class WordedContext(click.Context):
    formatter_class = WordedFormatter


def usage_code(error: click.UsageError) -> str:
    """The stable code of a usage error, the same in every language."""
    if isinstance(error, click.MissingParameter):
        kind = error.param_type or (error.param.param_type_name if error.param is not None else "parameter")
        return f"usage.missing_{kind if kind in ('argument', 'option') else 'parameter'}"
    if isinstance(error, click.BadParameter):
        return "usage.bad_choice" if isinstance(getattr(error.param, "type", None), click.Choice) else "usage.bad_value"
    kinds: tuple[tuple[type[click.UsageError], str], ...] = (
        (click.NoSuchOption, "usage.no_such_option"),
        (click.exceptions.NoSuchCommand, "usage.no_such_command"),
        (click.BadOptionUsage, "usage.bad_option"),
        (click.BadArgumentUsage, "usage.bad_argument"),
    )
    return next((code for kind, code in kinds if isinstance(error, kind)), "usage.error")


def usage_payload(error: click.UsageError) -> dict[str, Any]:
    """A usage error as the JSON error object: its stable code beside the message and hint in the invocation's
    language (and the usage line where click knows the command)."""
    hint = ""
    found: dict[str, Any] = {}
    ctx = error.ctx
    if ctx is not None and ctx.command.get_help_option(ctx) is not None:
        option = max(ctx.command.get_help_option_names(ctx), key=len)
        hint = words("Try '{command} {option}' for help.").format(command=ctx.command_path, option=option)
    if ctx is not None:
        found["usage"] = ctx.get_usage()
    return {"error": {"code": usage_code(error), "message": error.format_message(), "hint": hint, **found}}


def finish_sentences(error: click.UsageError) -> click.UsageError:
    """`error` with its message ending as a sentence of the invocation's language: click joins a missing
    parameter's sentence with an ASCII full stop in code ("缺少参数 'NAME'."), which reads as 。 in Chinese."""
    if _SPOKEN.get() == "zh":
        said = error.format_message

        def finished() -> str:
            text = said()
            return text[:-1] + "。" if text.endswith(".") else text

        error.format_message = finished  # type: ignore[method-assign]
    return error
