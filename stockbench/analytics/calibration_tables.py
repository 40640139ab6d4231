"""The stored scenario tables and their data ranges: which one research as of a date may use.

Point in time holds for tables too: research as of a date uses the newest table whose data ends before that
date. When every stored table ends on or after it, the one that ends first is used and the choice says
`look_ahead`, so the report and its JSON can disclose it. Tables live beside the rule table's
`calibration_file` (resources/calibration/), named after it (`scenario_table.json`, `scenario_table_2019.json`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from stockbench.analytics.rule_tables import RuleBook, load_rule_tables
from stockbench.config import resources_dir
from stockbench.errors import InternalError


@dataclass(frozen=True, slots=True)
class TableRange:
    """One stored table: its file and the first and last day of the data it was built from."""

    path: Path
    data_from: date
    data_to: date


@dataclass(frozen=True, slots=True)
class ChosenTable:
    """The table research as of a date uses; `look_ahead` when its data reaches the as-of date or past it."""

    path: Path
    data_from: date
    data_to: date
    look_ahead: bool

    def as_dict(self) -> dict[str, Any]:
        """The JSON of the choice (the facts block's and the report summary's `calibration`)."""
        return {
            "file": self.path.name,
            "data_from": self.data_from.isoformat(),
            "data_to": self.data_to.isoformat(),
            "look_ahead": self.look_ahead,
        }


def table_range(table: Mapping[str, Any]) -> tuple[date, date]:
    """A table's data range: its data_from/data_to, or its provenance's first/last day (tables of format 1)."""
    provenance = table.get("provenance") or {}
    first = table.get("data_from") or provenance.get("first_day")
    last = table.get("data_to") or provenance.get("last_day")
    if not first or not last:
        raise InternalError("a calibrated scenario table carries no data range: re-run `stockbench calibrate`")
    return date.fromisoformat(str(first)), date.fromisoformat(str(last))


@functools.cache
def _range_of(path: Path, stamp: float) -> TableRange:
    try:
        table = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise InternalError(f"cannot read the calibrated scenario table {path}: {error}") from error
    return TableRange(path, *table_range(table))


def stored_tables(book: RuleBook | None = None, folder: Path | None = None) -> tuple[TableRange, ...]:
    """Every stored scenario table (named after the rule table's calibration_file), oldest data_to first."""
    main = resources_dir() / str((book or load_rule_tables()).scenarios["calibration_file"])
    where = folder or main.parent
    paths = sorted(where.glob(f"{main.stem}*.json"))
    found = [_range_of(p, p.stat().st_mtime) for p in paths]
    return tuple(sorted(found, key=lambda r: (r.data_to, r.data_from, r.path.name)))


def choose_table(tables: Sequence[TableRange], as_of: date | None) -> ChosenTable:
    """The newest table whose data ends before `as_of`; else the earliest-ending one, as look-ahead. Without an
    as-of date (live research), the newest table."""
    if not tables:
        raise InternalError("no calibrated scenario table is stored: run `stockbench calibrate`")
    ordered = sorted(tables, key=lambda r: (r.data_to, r.data_from, r.path.name))
    if as_of is None:
        newest = ordered[-1]
        return ChosenTable(newest.path, newest.data_from, newest.data_to, look_ahead=False)
    before = [r for r in ordered if r.data_to < as_of]
    if before:
        return ChosenTable(before[-1].path, before[-1].data_from, before[-1].data_to, look_ahead=False)
    first = ordered[0]
    return ChosenTable(first.path, first.data_from, first.data_to, look_ahead=True)


def table_for(as_of: date | None, book: RuleBook | None = None, folder: Path | None = None) -> ChosenTable:
    """The stored table research as of `as_of` uses (see `choose_table`)."""
    return choose_table(stored_tables(book, folder), as_of)
