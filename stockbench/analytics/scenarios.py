"""Three scenarios (up, sideways, down) for a symbol: probabilities looked up in the calibrated scenario table for
its states, and for each the move that defines it, the price it lands at and where that price lies against the
zones the zones algorithm computed.

A cell with too few samples falls back to coarser cells and finally to the base rate, and says so. The move is
the scenario band (band_atr_multiple x ATR% x sqrt(horizon), in percent to one place, as reports show it): up
+band, sideways 0, down -band; the landing price is the last price x (1 + move), rounded to the nearest tick by
the caller's rounding; `lands` places it (LANDS). The path lists the zone levels crossed on the way, in order.
Records carry codes and numbers only: the report's words come from the catalogue (stockbench.research.wording).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any, Literal, get_args

from stockbench.analytics.calibration import OUTCOMES, Outcome
from stockbench.analytics.rule_tables import UNKNOWN, RuleBook, load_rule_tables
from stockbench.config import resources_dir
from stockbench.errors import InternalError, InvalidInput
from stockbench.messages import user_error

Lands = Literal["above_sell", "in_sell", "between", "in_buy", "below_buy", "below_stop"]
LANDS: tuple[Lands, ...] = get_args(Lands)
_DIRECTION: dict[Outcome, int] = {"up": 1, "sideways": 0, "down": -1}


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
            raise user_error(InvalidInput, "zone_levels_order", stop=self.stop, buy_low=self.buy_low,
                             buy_high=self.buy_high, sell_low=self.sell_low, sell_high=self.sell_high)  # fmt: skip

    def lands(self, price: Decimal) -> Lands:
        """Where `price` lies: at or below the stop, below the buy zone, in it, between the zones, in the sell zone
        or above it (the bounds as stockbench.analytics.zones.Zones.position_of draws them)."""
        if price <= self.stop:
            return "below_stop"
        if price < self.buy_low:
            return "below_buy"
        if price <= self.buy_high:
            return "in_buy"
        if price < self.sell_low:
            return "between"
        return "in_sell" if price <= self.sell_high else "above_sell"

    def steps(self) -> tuple[PathStep, ...]:
        """The zone levels, lowest first."""
        return (
            PathStep("stop", self.stop, self.stop),
            PathStep("buy_zone", self.buy_low, self.buy_high),
            PathStep("sell_zone", self.sell_low, self.sell_high),
        )


@dataclass(frozen=True, slots=True)
class PathStep:
    """A zone level a price path reaches: the stop, the buy zone or the sell zone (its range)."""

    label: Literal["stop", "buy_zone", "sell_zone"]
    low: Decimal
    high: Decimal


@dataclass(frozen=True, slots=True)
class Scenario:
    """One scenario: its calibrated probability and count, its move (signed percent, None without an ATR), the
    price it lands at and where (None without a move), and the zone levels it reaches on the way."""

    name: Outcome
    probability: float
    count: int
    move_pct: Decimal | None = None
    price: Decimal | None = None
    lands: Lands | None = None
    path: tuple[PathStep, ...] = ()


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


def _reached(zones: ZoneLevels, last: Decimal, price: Decimal) -> tuple[PathStep, ...]:
    """The zone levels a move from `last` to `price` reaches, in the order it reaches them."""
    low, high = min(last, price), max(last, price)
    found = [s for s in zones.steps() if s.low <= high and s.high >= low and not (s.low <= last <= s.high)]
    return tuple(found if price >= last else reversed(found))


def _scenario(
    name: Outcome,
    cell: Mapping[str, Any],
    zones: ZoneLevels,
    *,
    band: Decimal | None,
    last: Decimal | None,
    to_tick: Callable[[Decimal], Decimal],
) -> Scenario:
    probability, count = float(cell["p"][name]), int(cell["counts"][name])
    if band is None or last is None:
        return Scenario(name, probability, count)
    move = band * _DIRECTION[name]
    price = to_tick(last * (1 + move / 100))
    return Scenario(name, probability, count, move, price, zones.lands(price), _reached(zones, last, price))


def _unrounded(price: Decimal) -> Decimal:
    return price


def move_pct(band_pct: float | None) -> Decimal | None:
    """The scenario band in percent, to one place (as reports show it), or None without one."""
    return None if band_pct is None else (Decimal(repr(band_pct)) * 100).quantize(Decimal("0.1"), ROUND_HALF_UP)


def scenarios_for(
    states: Mapping[str, Any],
    zones: ZoneLevels,
    *,
    atr_pct: float | None = None,
    last: Decimal | None = None,
    to_tick: Callable[[Decimal], Decimal] | None = None,
    book: RuleBook | None = None,
    table: Mapping[str, Any] | None = None,
) -> ScenarioSet:
    """Up, sideways and down over the scenario horizon for a symbol in `states` (trend, volatility,
    relative_strength; plain names or the output of states_on). `atr_pct` (atr14 / close) sizes the move that
    counts as up or down; with `last` (the price the moves start from) and `to_tick` (rounding to the nearest
    valid tick), each scenario lands at last x (1 + move) and says where against `zones`."""
    book = book or load_rule_tables()
    table = table if table is not None else load_calibration()
    cell, note = lookup(states, table, book)
    horizon = book.scenarios.integer("horizon")
    multiple = book.scenarios.number("band_atr_multiple")
    band_pct = multiple * atr_pct * horizon**0.5 if atr_pct is not None and atr_pct > 0 else None
    band, rounding = move_pct(band_pct), to_tick or _unrounded
    return ScenarioSet(
        tuple(_scenario(name, cell, zones, band=band, last=last, to_tick=rounding) for name in OUTCOMES),
        dict(cell["states"]),
        int(cell["n"]),
        note + _version_note(table, book),
        horizon,
        band_pct,
        book.scenarios.cite(),
        dict(table["provenance"]),
    )
