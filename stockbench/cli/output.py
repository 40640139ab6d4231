"""How commands talk: data as JSON on stdout with `--json`, human text otherwise; messages on stderr."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, is_dataclass
from datetime import date, datetime
from decimal import Decimal
from enum import Enum
from pathlib import Path
from typing import Any

import click


def to_jsonable(value: Any) -> Any:
    """Convert engine values to JSON: Decimals as exact strings, dates as ISO text."""
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if is_dataclass(value) and not isinstance(value, type):
        return to_jsonable(asdict(value))
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [to_jsonable(v) for v in value]
    return value


def dumps(data: Any) -> str:
    return json.dumps(to_jsonable(data), ensure_ascii=False, indent=2)


def message(text: str) -> None:
    """A human message (progress, notes): always stderr, so stdout stays machine-readable."""
    click.echo(text, err=True)


def emit(as_json: bool, data: Any, human: str | Callable[[Any], str] | None = None) -> None:
    """Print a command's result: JSON on stdout, or the human rendering."""
    if as_json:
        click.echo(dumps(data))
        return
    text = human(data) if callable(human) else human
    click.echo(text if text is not None else dumps(data))


def table(rows: list[dict[str, Any]], columns: list[str]) -> str:
    """A plain aligned text table of `rows` (wide characters counted as two columns)."""
    if not rows:
        return "(none)"
    cells = [[str(to_jsonable(r.get(c, ""))) for c in columns] for r in rows]

    def width(text: str) -> int:
        return sum(2 if ord(ch) > 0x2E80 else 1 for ch in text)

    widths = [max(width(c) for c in [col, *(row[i] for row in cells)]) for i, col in enumerate(columns)]

    def line(values: list[str]) -> str:
        return "  ".join(v + " " * (w - width(v)) for v, w in zip(values, widths, strict=True)).rstrip()

    return "\n".join([line(columns), line(["-" * w for w in widths]), *(line(r) for r in cells)])
