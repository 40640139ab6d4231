"""Three scenarios (up, sideways, down) for a symbol: probabilities looked up in the calibrated scenario table for
its states, and price paths tied to the zone levels the zones algorithm computed.

A cell with too few samples falls back to coarser cells and finally to the base rate, and says so. The price
levels of the paths are the zone levels passed in (valid ticks already); no new price is invented here.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from stockbench.analytics.calibration import OUTCOMES, Outcome
from stockbench.analytics.rule_tables import UNKNOWN, RuleBook, load_rule_tables
from stockbench.config import resources_dir
from stockbench.errors import InternalError, InvalidInput


@dataclass(frozen=True, slots=True)
class ZoneLevels:
    """The zone levels a scenario path runs through (from stockbench.analytics.zones)."""

    buy_low: Decimal
    buy_high: Decimal
    sell_low: Decimal
    sell_high: Decimal
    stop: Decimal

    def __post_init__(self) -> None:
        if not (self.stop < self.buy_low <= self.buy_high < self.sell_low <= self.sell_high):
            raise InvalidInput(
                f"zone levels out of order: stop {self.stop}, buy {self.buy_low}-{self.buy_high}, "
                f"sell {self.sell_low}-{self.sell_high}",
                "need stop < buy low <= buy high < sell low <= sell high",
            )


@dataclass(frozen=True, slots=True)
class PathStep:
    """One leg of a price path: a price range (from the zones) and what reaching it means."""

    label: str
    low: Decimal
    high: Decimal
    note: str


@dataclass(frozen=True, slots=True)
class Scenario:
    name: Outcome
    probability: float
    count: int
    description: str
    path: tuple[PathStep, ...]


@dataclass(frozen=True, slots=True)
class ScenarioSet:
    """The three scenarios, the cell their probabilities came from, and why that cell."""

    scenarios: tuple[Scenario, ...]
    cell: Mapping[str, str]  # the states of the cell used ({} = the base rate)
    n: int
    note: str
    horizon: int
    band_pct: float | None  # the move that counts as up or down, as a fraction of the price
    table: str  # the scenarios rule table's citation
    calibration: Mapping[str, Any]  # the calibration file's provenance

    def probability(self, name: Outcome) -> float:
        return next(s.probability for s in self.scenarios if s.name == name)


@functools.cache
def load_calibration(path: Path | None = None) -> dict[str, Any]:
    """The calibrated scenario table (resources/calibration/scenario_table.json by default)."""
    path = path or resources_dir() / str(load_rule_tables().scenarios["calibration_file"])
    try:
        found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise InternalError(f"cannot read the calibrated scenario table {path}: {error}") from error
    return found


def _plain(states: Mapping[str, Any]) -> dict[str, str]:
    """State names from either {table: state} or the output of states.states_on ({table: {"state": ...}})."""
    plain = {}
    for key, value in states.items():
        if isinstance(value, Mapping) and "state" in value:
            plain[key] = str(value["state"])
        elif isinstance(value, str):
            plain[key] = value
    return plain


def _describe(cell: Mapping[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in cell.items()) or "the base rate"


def lookup(states: Mapping[str, Any], table: Mapping[str, Any], book: RuleBook) -> tuple[dict[str, Any], str]:
    """The finest calibrated cell for `states` with enough samples, and a note saying which cell and why."""
    plain = _plain(states)
    minimum = book.scenarios.integer("min_cell_count")
    skipped: list[str] = []
    for level in table["levels"]:
        keys = list(level["keys"])
        if any(plain.get(k, UNKNOWN) == UNKNOWN for k in keys):
            skipped.append(f"{', '.join(k for k in keys if plain.get(k, UNKNOWN) == UNKNOWN)} unknown")
            continue
        wanted = {k: plain[k] for k in keys}
        cell = next((c for c in level["cells"] if c["states"] == wanted), None)
        if cell is None or cell["n"] < minimum:
            skipped.append(f"{_describe(wanted)} has {0 if cell is None else cell['n']} samples (< {minimum})")
            continue
        why = f"; finer cells skipped: {'; '.join(skipped)}" if skipped else ""
        return cell, f"probabilities from {_describe(wanted)} ({cell['n']} samples){why}"
    raise InternalError("the calibrated scenario table has no base-rate level")


def _version_note(table: Mapping[str, Any], book: RuleBook) -> str:
    used = table["provenance"]["rule_tables"]
    now = book.versions()
    changed = [f"{k} v{v} (now v{now.get(k)})" for k, v in used.items() if now.get(k) != v]
    if not changed:
        return ""
    return f"; calibrated with {', '.join(changed)}: re-run `stockbench calibrate`"


def _paths(zones: ZoneLevels, move: str, horizon: int) -> dict[Outcome, tuple[str, tuple[PathStep, ...]]]:
    sell = PathStep("sell_zone", zones.sell_low, zones.sell_high, "take profits in the sell zone")
    buy = PathStep("buy_zone", zones.buy_low, zones.buy_high, "the buy zone: where the plan adds")
    stop = PathStep("stop", zones.stop, zones.stop, "a close below the stop ends the plan")
    between = PathStep("between_zones", zones.buy_high, zones.sell_low, "no action between the zones")
    within = f"within {horizon} sessions"
    return {
        "up": (f"rises {move} or more {within}, toward the sell zone {zones.sell_low}-{zones.sell_high}", (sell,)),
        "sideways": (
            f"moves less than {move} either way {within}, between {zones.buy_high} and {zones.sell_low}",
            (between,),
        ),
        "down": (
            f"falls {move} or more {within}, into the buy zone {zones.buy_low}-{zones.buy_high}; "
            f"the stop is {zones.stop}",
            (buy, stop),
        ),
    }


def scenarios_for(
    states: Mapping[str, Any],
    zones: ZoneLevels,
    *,
    atr_pct: float | None = None,
    book: RuleBook | None = None,
    table: Mapping[str, Any] | None = None,
) -> ScenarioSet:
    """Up, sideways and down over the scenario horizon for a symbol in `states` (trend, volatility,
    relative_strength; plain names or the output of states_on), with paths through `zones`. `atr_pct` (atr14 /
    close) states the size of the move that counts as up or down."""
    book = book or load_rule_tables()
    table = table if table is not None else load_calibration()
    cell, note = lookup(states, table, book)
    horizon = book.scenarios.integer("horizon")
    multiple = book.scenarios.number("band_atr_multiple")
    band_pct = multiple * atr_pct * horizon**0.5 if atr_pct is not None and atr_pct > 0 else None
    move = f"{band_pct:.1%}" if band_pct else f"{multiple:g} x ATR% x sqrt({horizon})"
    paths = _paths(zones, move, horizon)
    found = tuple(Scenario(o, float(cell["p"][o]), int(cell["counts"][o]), *paths[o]) for o in OUTCOMES)
    return ScenarioSet(
        found,
        dict(cell["states"]),
        int(cell["n"]),
        note + _version_note(table, book),
        horizon,
        band_pct,
        book.scenarios.cite(),
        dict(table["provenance"]),
    )
