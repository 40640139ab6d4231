"""Click's own words (usage errors, `--help` headings) in the user's language, and a usage error as JSON.

Click asks gettext for each of its texts when it needs it (`_("Missing argument")`); `install` points click's
modules at `words`, which answers from the catalogue (stockbench/messages.py USAGE) in the language of the running
invocation (`speaking`) and leaves every other text to gettext, as click would. Help lines that click stores when a
command is built (the help option's) are said again when help is written (`WordedContext`). The placeholders for a
value (click's metavars: TEXT, INTEGER, PATH, our SYMBOL, the usage line's [OPTIONS]) are said from the catalogue's
METAVARS wherever click writes one (`placeholder_words`); values to type ([zh|en]) stay. A usage error keeps
click's exit code 2; with `--json` it is also printed as `{"error": {"code": "usage.<kind>", ...}}`.
"""

from __future__ import annotations

import gettext
import importlib
import re
import unicodedata
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import click
import click._compat
import click.formatting

from stockbench.messages import HELP, METAVARS, USAGE, Language

# click's modules that word something a person reads
_CLICK_MODULES = ("core", "exceptions", "types", "parser", "formatting", "decorators", "termui")
_SPOKEN: ContextVar[Language] = ContextVar("stockbench_cli_language", default="en")
_CHINESE: dict[str, str] = {w.en: w.zh for w in (*USAGE.values(), *HELP.values())}
_ENGLISH: dict[str, str] = {w.zh: w.en for w in (*USAGE.values(), *HELP.values())}
_PLACEHOLDERS: dict[str, str] = {w.en: w.zh for w in METAVARS.values()}
# a placeholder's words within a metavar ("[SYMBOL=P]...", "INTEGER RANGE"): capitals, never a value's lower case
# nor a date format's field ("%M")
_PLACEHOLDER = re.compile(r"(?<!%)\b(?:INTEGER RANGE|FLOAT RANGE|[A-Z][A-Z_]*)\b")
_PARAMETER_METAVAR = click.core.Parameter.make_metavar  # click's own, said again by `placeholder_words`
_ARGUMENT_METAVAR = click.core.Argument.make_metavar


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


def placeholder_words(metavar: str) -> str:
    """`metavar` in the invocation's language: each placeholder the catalogue knows said in Chinese under zh (the
    brackets, "=" and "..." kept); unchanged in English, and a value to type (lower case: [zh|en]) never changed."""
    if _SPOKEN.get() != "zh":
        return metavar
    return _PLACEHOLDER.sub(lambda found: _PLACEHOLDERS.get(found.group(0), found.group(0)), metavar)


def _choices(param: click.Parameter) -> bool:
    """Whether click shows `param`'s values to type ([CNY|HKD]) as its metavar: those are never reworded."""
    return param.metavar is None and isinstance(param.type, click.Choice)


def _parameter_metavar(param: click.Parameter, ctx: click.Context) -> str:
    shown = _PARAMETER_METAVAR(param, ctx)
    return shown if _choices(param) else placeholder_words(shown)


def _argument_metavar(param: click.Argument, ctx: click.Context) -> str:
    shown = _ARGUMENT_METAVAR(param, ctx)
    return shown if _choices(param) else placeholder_words(shown)


def install() -> None:
    """Let click ask `words` instead of gettext, and say its placeholders by `placeholder_words` (once; English stays
    gettext's answer and click's own placeholders)."""
    for name in _CLICK_MODULES:
        namespace = vars(importlib.import_module(f"click.{name}"))
        if "_" in namespace:
            namespace["_"] = words
        if "ngettext" in namespace:
            namespace["ngettext"] = plural_words
    setattr(click.core.Parameter, "make_metavar", _parameter_metavar)  # noqa: B010 - click's method, said again
    setattr(click.core.Argument, "make_metavar", _argument_metavar)  # noqa: B010


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


def _display_width(text: str) -> int:
    """The columns `text` takes on a terminal (a wide character, such as Chinese, takes two)."""
    plain = click._compat.strip_ansi(text)
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in plain)


class WordedFormatter(click.HelpFormatter):
    """Help whose stored lines (the help option's, our global options') are said in the invocation's language: click
    builds a command's help option once, in the language of the first invocation that asks for it. The usage line's
    own placeholders ("[OPTIONS]", "[COMMAND] [ARGS]...") are said too (the parameters' are said by their metavar)."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, placeholder_words(args), prefix)

    def write_dl(self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        said = _CHINESE if _SPOKEN.get() == "zh" else _ENGLISH
        worded = [(term, said.get(text, text)) for term, text in rows]
        if _SPOKEN.get() != "zh":
            super().write_dl(worded, col_max, col_spacing)
            return
        formatting = vars(click.formatting)  # click lines the column up by characters; a Chinese one takes two
        counted = formatting["term_len"]
        formatting["term_len"] = _display_width
        try:
            super().write_dl(worded, col_max, col_spacing)
        finally:
            formatting["term_len"] = counted

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
