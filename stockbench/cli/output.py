"""How commands talk: data as JSON on stdout with `--json`, human text otherwise; messages on stderr.

Commands hand `emit` the engine's records as they are; this module alone turns them into plain data: a record
becomes its `as_dict()` where it has one, else a dict of its fields. That plain form is both what `--json`
prints (Decimals as exact strings, dates as ISO text) and what a command's human rendering is given.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, is_dataclass
from datetime import date, datetime
from decimal import Decimal
from enum import Enum
from pathlib import Path
from typing import Any

import click

from stockbench.messages import Language, note, value_word


def plain(value: Any) -> Any:
    """`value` with every record in it (at any depth) made a dict: its `as_dict()`, else its fields."""
    if isinstance(value, type):
        return value
    as_dict = getattr(value, "as_dict", None)
    if callable(as_dict):
        return plain(as_dict())
    if is_dataclass(value):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    return value


@dataclass(frozen=True)
class Merged:
    """Several parts printed as one object: the plain form of each part (a record or a dict), merged in order."""

    parts: tuple[Any, ...]

    def as_dict(self) -> dict[str, Any]:
        merged: dict[str, Any] = {}
        for part in self.parts:
            merged |= plain(part)
        return merged


def merged(*parts: Any) -> Merged:
    """One result made of `parts` (records or dicts; a later key wins), e.g. a command's context and a record."""
    return Merged(parts)


def to_jsonable(value: Any) -> Any:
    """Convert engine values to JSON: records as dicts (see `plain`), Decimals as exact strings, dates as ISO text."""
    return _json(plain(value))


def _json(value: Any) -> Any:
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k): _json(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_json(v) for v in value]
    return value


def dumps(data: Any) -> str:
    return json.dumps(to_jsonable(data), ensure_ascii=False, indent=2)


def message(text: str) -> None:
    """A human message (progress, notes): always stderr, so stdout stays machine-readable."""
    click.echo(text, err=True)


def emit(as_json: bool, data: Any, human: str | Callable[[Any], str] | None = None) -> None:
    """Print a command's result (records, or plain data holding them): JSON on stdout, or `human` of its plain form."""
    data = plain(data)
    if as_json:
        click.echo(dumps(data))
        return
    text = human(data) if callable(human) else human
    click.echo(text if text is not None else dumps(data))


def table(
    rows: list[dict[str, Any]],
    columns: list[str],
    language: Language = "en",
    kinds: Mapping[str, str] | None = None,
) -> str:
    """A plain aligned text table of `rows` (wide characters counted as two columns). In Chinese the headers are the
    catalogue's column words, and a column named in `kinds` shows its values' words (VALUES "<kind>.<value>")."""
    if not rows:
        return note("cli.none").text(language)
    cells = [[_cell(r.get(c, ""), (kinds or {}).get(c), language) for c in columns] for r in rows]
    header = [value_word("column", c, language) if language == "zh" else c for c in columns]

    def width(text: str) -> int:
        return sum(2 if ord(ch) > 0x2E80 else 1 for ch in text)

    widths = [max(width(c) for c in [col, *(row[i] for row in cells)]) for i, col in enumerate(header)]

    def line(values: list[str]) -> str:
        return "  ".join(v + " " * (w - width(v)) for v, w in zip(values, widths, strict=True)).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths]), *(line(r) for r in cells)])


def _cell(value: Any, kind: str | None, language: Language) -> str:
    """One cell as people read it: in Chinese a value of a known kind in its word, a missing value as a dash and a
    yes or no in words; in English as the JSON gives it."""
    if language == "zh":
        if value is None:
            return "-"
        if isinstance(value, bool):
            return value_word("bool", str(value).lower(), language)
        if kind is not None:
            return value_word(kind, str(value), language)
    return str(to_jsonable(value))
