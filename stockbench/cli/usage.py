"""Click's own words (usage errors, `--help` headings) in the user's language, and a usage error as JSON.

Click asks gettext for each of its texts when it needs it (`_("Missing argument")`); `install` points click's
modules at `words`, which answers from the catalogue (stockbench/messages.py USAGE) in the language of the running
invocation (`speaking`) and leaves every other text to gettext, as click would. Help lines that click stores when a
command is built (the help option's) are said again when help is written (`WordedContext`). The placeholders for a
value (click's metavars: TEXT, INTEGER, PATH, our SYMBOL, the usage line's [OPTIONS]) are said from the catalogue's
METAVARS wherever click writes one (`placeholder_words`); values to type ([zh|en]) stay. Our commands' own help (a
command's description, its short line in its group's list, each option's help) is said from the catalogue's
COMMAND_HELP, by the key `name_help` gives each command ("data.fetch"; an option's "data.fetch.--record"), and a
Chinese text is wrapped and lined up by the columns it takes on a terminal. A usage error keeps click's exit code 2;
with `--json` it is also printed as `{"error": {"code": "usage.<kind>", ...}}`.
"""

from __future__ import annotations

import copy
import gettext
import importlib
import re
import unicodedata
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

import click
import click._compat
import click.formatting

from stockbench.messages import COMMAND_HELP, HELP, METAVARS, USAGE, Language, Words

T = TypeVar("T", bound="click.Command | click.Parameter")

# click's modules that word something a person reads
_CLICK_MODULES = ("core", "exceptions", "types", "parser", "formatting", "decorators", "termui")
_SPOKEN: ContextVar[Language] = ContextVar("stockbench_cli_language", default="en")
_CHINESE: dict[str, str] = {w.en: w.zh for w in (*USAGE.values(), *HELP.values())}
_ENGLISH: dict[str, str] = {w.zh: w.en for w in (*USAGE.values(), *HELP.values())}
_PLACEHOLDERS: dict[str, str] = {w.en: w.zh for w in METAVARS.values()}
_WRAP_TEXT = click.formatting.wrap_text
# a placeholder's words within a metavar ("[SYMBOL=P]...", "INTEGER RANGE"): capitals, never a value's lower case
# nor a date format's field ("%M")
_PLACEHOLDER = re.compile(r"(?<!%)\b(?:INTEGER RANGE|FLOAT RANGE|[A-Z][A-Z_]*)\b")
_PARAMETER_METAVAR = click.core.Parameter.make_metavar  # click's own, said again by `placeholder_words`
_ARGUMENT_METAVAR = click.core.Argument.make_metavar
_HELP_TEXT = click.core.Command.format_help_text  # click's own, said again from COMMAND_HELP
_SHORT_HELP = click.core.Command.get_short_help_str
_OPTION_HELP = click.core.Option.get_help_record
_ARGUMENT_HELP = click.core.Argument.get_help_record
_HELP_KEY = "_stockbench_help_key"
ROOT_KEY = "stockbench"  # the catalogue key of the `stockbench` command's own help
# a character a terminal gives two columns (Chinese, full-width punctuation); a line may break before or after one
_WIDE = "\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6"
_PIECES = re.compile(rf"\[[^\]\s]{{1,30}}\]|\s+|[^\s{_WIDE}]+|[{_WIDE}]")  # a short "[默认：20]" is one piece
_CLOSING = tuple("，。、；：？！）》」』】”’…])")  # never starts a line
_OPENING = tuple("（《「『【“‘[(")  # never ends one


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


def name_help(command: click.Command, key: str) -> click.Command:
    """Let `command` (and each subcommand of a group, under `subcommand_key`) say its help from COMMAND_HELP[key]."""
    setattr(command, _HELP_KEY, key)
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            name_help(sub, subcommand_key(command, name))
    return command


def subcommand_key(group: click.Group, name: str) -> str:
    """The catalogue key of `group`'s subcommand `name`: its path below the `stockbench` command ("data.fetch")."""
    key = help_key(group)
    return name if key in (None, ROOT_KEY) else f"{key}.{name}"


def help_key(command: click.Command, param: click.Parameter | None = None) -> str | None:
    """The catalogue key of `command`'s help ("data.fetch"), or of its option's ("data.fetch.--record"); None for a
    command `name_help` never named."""
    key: str | None = getattr(command, _HELP_KEY, None)
    if key is None or param is None:
        return key
    return f"{key}.{max(param.opts, key=len) if param.opts else param.name}"


def _said(thing: T, found: Words | None) -> T:
    """`thing` (a command or a parameter) with its help the catalogue's words in the invocation's language."""
    if found is None:
        return thing
    worded = copy.copy(thing)
    worded.help = found.text(_SPOKEN.get())
    return worded


def _help_text(command: click.Command, ctx: click.Context, formatter: click.HelpFormatter) -> None:
    _HELP_TEXT(_said(command, COMMAND_HELP.get(help_key(command) or "")), ctx, formatter)


def _short_help(command: click.Command, limit: int = 45) -> str:
    found = COMMAND_HELP.get(help_key(command) or "")
    if found is None or _SPOKEN.get() != "zh":
        return _SHORT_HELP(_said(command, found), limit)
    shortened = copy.copy(command)
    shortened.short_help = short_chinese(found.zh, limit)
    return _SHORT_HELP(shortened, limit)


def short_chinese(text: str, limit: int) -> str:
    """A Chinese help's line in its group's list: its first sentence, without its asides in brackets when it would
    take more than `limit` columns, cut with "…" only when it is still too wide (after a clause where one ends in
    the line's last third)."""
    sentence = re.split(r"(?<=[。？])", text.partition("\n\n")[0], maxsplit=1)[0].strip()
    if _display_width(sentence) > limit:
        sentence = re.sub(r"（[^（）]*）", "", sentence)
    if _display_width(sentence) <= limit:
        return sentence
    cut = ""
    for ch in sentence:
        if _display_width(cut + ch + "…") > limit:
            break
        cut += ch
    clause = max(cut.rfind(mark) for mark in "，、；：")
    if _display_width(cut[:clause]) * 3 >= limit * 2:
        cut = cut[:clause]
    return cut.rstrip("，、；：（ ") + "…"


def _option_help(param: click.Option, ctx: click.Context) -> tuple[str, str] | None:
    return _OPTION_HELP(_said(param, COMMAND_HELP.get(help_key(ctx.command, param) or "")), ctx)


def _argument_help(param: click.Argument, ctx: click.Context) -> tuple[str, str]:
    return _ARGUMENT_HELP(_said(param, COMMAND_HELP.get(help_key(ctx.command, param) or "")), ctx)


def install() -> None:
    """Let click ask `words` instead of gettext, say its placeholders by `placeholder_words` and our commands' help
    from COMMAND_HELP (once; English stays gettext's answer and click's own placeholders)."""
    for name in _CLICK_MODULES:
        namespace = vars(importlib.import_module(f"click.{name}"))
        if "_" in namespace:
            namespace["_"] = words
        if "ngettext" in namespace:
            namespace["ngettext"] = plural_words
    setattr(click.core.Parameter, "make_metavar", _parameter_metavar)  # noqa: B010 - click's method, said again
    setattr(click.core.Argument, "make_metavar", _argument_metavar)  # noqa: B010
    setattr(click.core.Command, "format_help_text", _help_text)  # noqa: B010
    setattr(click.core.Command, "get_short_help_str", _short_help)  # noqa: B010
    setattr(click.core.Option, "get_help_record", _option_help)  # noqa: B010
    setattr(click.core.Argument, "get_help_record", _argument_help)  # noqa: B010


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


def wrap_wide(
    text: str, width: int = 78, initial_indent: str = "", subsequent_indent: str = "", preserve_paragraphs: bool = False
) -> str:
    """click's `wrap_text` for a text with Chinese in it: lines filled to `width` terminal columns, broken at a space
    or beside a Chinese character (never inside an English word, an option or a number, never before a closing
    or after an opening mark); paragraphs (a blank line apart) kept."""
    if not re.search(f"[{_WIDE}]", text):
        return _WRAP_TEXT(text, width, initial_indent, subsequent_indent, preserve_paragraphs)
    paragraphs = re.split(r"\n\s*\n", text) if preserve_paragraphs else [text]
    lines: list[str] = []
    for at, paragraph in enumerate(paragraphs):
        if at:
            lines.append("")
        lines += _filled(_units(paragraph), width, initial_indent if at == 0 else subsequent_indent,
                         subsequent_indent)  # fmt: skip
    return "\n".join(lines)


def _units(text: str) -> list[str]:
    """`text` as the pieces a line may not break inside (" " where it may break at a space)."""
    units: list[str] = []
    for piece in _PIECES.findall(text):
        if piece.isspace():
            units.append(" ")
        elif units and units[-1] != " " and (piece.startswith(_CLOSING) or units[-1].endswith(_OPENING)):
            units[-1] += piece
        else:
            units.append(piece)
    return units


def _filled(units: list[str], width: int, first: str, rest: str) -> list[str]:
    lines: list[str] = []
    line, spaced = first, False
    for unit in units:
        if unit == " ":
            spaced = line.strip() != ""
            continue
        piece = f" {unit}" if spaced else unit
        if line.strip() and _display_width(line + piece) > width:
            lines.append(line)
            line, piece = rest, unit
        line, spaced = line + piece, False
    return [*lines, line] if line.strip() else lines


@contextmanager
def _columns() -> Iterator[None]:
    """click counts a text's width in characters; under zh it counts terminal columns (a Chinese one takes two)."""
    if _SPOKEN.get() != "zh":
        yield
        return
    formatting = vars(click.formatting)
    counted, wrapped = formatting["term_len"], formatting["wrap_text"]
    formatting["term_len"], formatting["wrap_text"] = _display_width, wrap_wide
    try:
        yield
    finally:
        formatting["term_len"], formatting["wrap_text"] = counted, wrapped


class WordedFormatter(click.HelpFormatter):
    """Help whose stored lines (the help option's, our global options') are said in the invocation's language: click
    builds a command's help option once, in the language of the first invocation that asks for it. The usage line's
    own placeholders ("[OPTIONS]", "[COMMAND] [ARGS]...") are said too (the parameters' are said by their metavar)."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        with _columns():
            super().write_usage(prog, placeholder_words(args), prefix)

    def write_text(self, text: str) -> None:
        with _columns():
            super().write_text(text)

    def write_dl(self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        said = _CHINESE if _SPOKEN.get() == "zh" else _ENGLISH
        with _columns():
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
