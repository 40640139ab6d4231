"""Announcement levels from the handbook's table: which category an announcement is, how urgently it must be
answered (note, watch, act, full_analysis), and whether it is thesis-level (never adjudicated on the spot).

The table lives in the handbook (`tables/announcement_levels.toml`), so it is part of the version a run locks.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any

from stockbench.research.handbook import Handbook

TABLE = "tables/announcement_levels.toml"
LEVELS = ("note", "watch", "act", "full_analysis")


@dataclass(frozen=True, slots=True)
class Level:
    category: str
    level: str
    thesis_level: bool


@cache
def _rows(text: str) -> tuple[tuple[str, str, bool, tuple[re.Pattern[str], ...], frozenset[str]], ...]:
    data: dict[str, Any] = tomllib.loads(text)
    return tuple(
        (
            r["key"],
            r["level"],
            bool(r.get("thesis_level", False)),
            tuple(re.compile(p, re.IGNORECASE) for p in r.get("title_patterns", [])),
            frozenset(r.get("aliases", [])) | {r["key"]},
        )
        for r in data.get("category", [])
    )


def classify(handbook: Handbook, title: str, category: str = "") -> Level:
    """The level of an announcement: by title pattern first, then by its source category."""
    rows = _rows(handbook.files.get(TABLE, ""))
    for key, level, thesis, patterns, _ in rows:
        if key != "other" and any(p.search(title) for p in patterns):
            return Level(key, level, thesis)
    for key, level, thesis, _, aliases in rows:
        if category and category in aliases:
            return Level(key, level, thesis)
    other = next((r for r in rows if r[0] == "other"), None)
    return Level("other", other[1] if other else "note", bool(other and other[2]))


def sector_indices(handbook: Handbook) -> tuple[list[str], dict[str, str]]:
    """Every sector index symbol of the handbook's map, and the broad default per board."""
    data: dict[str, Any] = tomllib.loads(handbook.files.get("tables/sector_indices.toml", ""))
    symbols = sorted({s for row in data.get("industry", []) for s in row.get("indices", [])})
    return symbols, dict(data.get("broad", {}))
