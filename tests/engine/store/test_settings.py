"""Workspace settings declared once: typed reads with defaults, checked writes, Decimals and dates stored as text,
secrets refused at declaration; and no program code reads or writes a setting by a loose string key."""

from __future__ import annotations

import ast
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from stockbench.errors import InternalError
from stockbench.store.settings import (
    DECLARED,
    DEFAULT_MAX_COST,
    DEFAULT_MODEL,
    MODELS,
    PINNED_AS_OF,
    SOURCE_PREFERENCE,
    Setting,
    declare,
)
from stockbench.store.workspace import Workspace

ROOT = Path(__file__).resolve().parents[3]
# Research converts its own reads to the declarations (issue 17); until then its modules are not scanned.


def test_a_declared_setting_reads_its_default_until_set(home: Path) -> None:
    with Workspace.open(home) as ws:
        assert ws.settings.get(DEFAULT_MODEL) == "offline"
        assert ws.settings.get(DEFAULT_MAX_COST) is None and ws.settings.get(SOURCE_PREFERENCE) is None
        models = ws.settings.get(MODELS)
        models["x"] = {"name": "x"}
        assert ws.settings.get(MODELS) == {}, "the default is a fresh copy each time"
        ws.settings.set(DEFAULT_MODEL, "mine")
        assert ws.settings.get(DEFAULT_MODEL) == "mine"
        ws.settings.delete(DEFAULT_MODEL)
        assert ws.settings.get(DEFAULT_MODEL) == "offline"


def test_decimals_and_dates_are_stored_as_text_and_read_back_exactly(home: Path) -> None:
    with Workspace.open(home) as ws:
        ws.settings.set(DEFAULT_MAX_COST, Decimal("2.50"))
        ws.settings.set(PINNED_AS_OF, date(2026, 11, 27))
        assert ws.settings.get("research.default_max_cost") == "2.50"  # the stored JSON
        assert ws.settings.get("clock.pinned_as_of") == "2026-11-27"
        assert ws.settings.get(DEFAULT_MAX_COST) == Decimal("2.50")
        assert ws.settings.get(PINNED_AS_OF) == date(2026, 11, 27)


def test_a_value_of_the_wrong_type_is_refused_both_ways(home: Path) -> None:
    with Workspace.open(home) as ws:
        with pytest.raises(InternalError, match="takes a str"):
            ws.settings.set(DEFAULT_MODEL, 3)  # type: ignore[arg-type]
        with pytest.raises(InternalError, match="cannot be None"):
            ws.settings.set(DEFAULT_MODEL, None)  # type: ignore[arg-type]
        ws.settings.set("data.source_preference", "tencent")  # a raw write of the wrong shape
        with pytest.raises(InternalError, match="holds a str, not a list"):
            ws.settings.get(SOURCE_PREFERENCE)


def test_keys_are_declared_once_and_never_name_a_secret() -> None:
    with pytest.raises(InternalError, match="declared twice"):
        declare(Setting("research.default_model", str, "offline", "again"))
    with pytest.raises(InternalError, match="secret"):
        declare(Setting("models.deepseek.api_key", str, "", "a key"))
    assert all(s.doc and s.key == key for key, s in DECLARED.items())


def _loose_keys(path: Path) -> list[str]:
    """`settings.get("key")` / `.set("key", ...)` / `.delete("key")` calls with a string key in `path`."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        target: Any = node.func.value
        named = (isinstance(target, ast.Attribute) and target.attr == "settings") or (
            isinstance(target, ast.Call) and isinstance(target.func, ast.Name) and target.func.id == "Settings"
        )
        first = node.args[0] if node.args else None
        if named and node.func.attr in {"get", "set", "delete"} and isinstance(first, ast.Constant):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} {first.value!r}")
    return found


def test_program_code_reaches_settings_through_their_declarations() -> None:
    files = [p for package in ("stockbench", "ui") for p in sorted((ROOT / package).rglob("*.py"))]
    loose = [k for p in files for k in _loose_keys(p)]
    assert loose == [], "declare the setting in stockbench/store/settings.py and read it through the declaration"
