"""Scenarios: probabilities from the calibrated table with fallbacks that say so, and paths through the zones."""

from __future__ import annotations

import itertools
from decimal import Decimal
from typing import Any

import pytest

from stockbench.analytics.calibration import probabilities
from stockbench.analytics.rule_tables import load_rule_tables
from stockbench.analytics.scenarios import ZoneLevels, load_calibration, lookup, scenarios_for
from stockbench.errors import InvalidInput

ZONES = ZoneLevels(Decimal("9.50"), Decimal("10.00"), Decimal("12.00"), Decimal("12.60"), Decimal("9.10"))


def cell(states: dict[str, str], up: int, sideways: int, down: int) -> dict[str, Any]:
    counts = {"up": up, "sideways": sideways, "down": down}
    return {"states": states, "n": up + sideways + down, "counts": counts, "p": probabilities(counts)}


def table(trend_tables: str = "1.0") -> dict[str, Any]:
    """A hand-made calibration: one rich fine cell, one sparse fine cell, their coarser cells and the base."""
    rich = {"trend": "up", "volatility": "normal", "relative_strength": "leading"}
    sparse = {"trend": "up", "volatility": "extreme", "relative_strength": "lagging"}
    return {
        "levels": [
            {
                "keys": ["trend", "volatility", "relative_strength"],
                "cells": [cell(rich, 200, 150, 100), cell(sparse, 10, 20, 30)],
            },
            {
                "keys": ["trend", "volatility"],
                "cells": [
                    cell({"trend": "up", "volatility": "normal"}, 400, 300, 300),
                    cell({"trend": "up", "volatility": "extreme"}, 100, 100, 200),
                ],
            },
            {"keys": ["trend"], "cells": [cell({"trend": "up"}, 600, 600, 600)]},
            {"keys": [], "cells": [cell({}, 1000, 3000, 1000)]},
        ],
        "provenance": {
            "rule_tables": {"trend": trend_tables, "volatility": "1.0", "relative_strength": "1.0", "scenarios": "1.0"},
            "data_sha256": "x",
        },
    }


def test_a_rich_cell_is_used_directly() -> None:
    states = {"trend": "up", "volatility": "normal", "relative_strength": "leading"}
    found = scenarios_for(states, ZONES, atr_pct=0.02, table=table())
    assert found.cell == states and found.n == 450
    assert [s.probability for s in found.scenarios] == pytest.approx([200 / 450, 150 / 450, 100 / 450], abs=1e-6)
    assert found.note == "probabilities from trend=up, volatility=normal, relative_strength=leading (450 samples)"
    assert found.band_pct == pytest.approx(0.5 * 0.02 * 20**0.5)


def test_a_sparse_cell_falls_back_and_says_so() -> None:
    states = {"trend": "up", "volatility": "extreme", "relative_strength": "lagging"}
    found = scenarios_for(states, ZONES, table=table())
    assert found.cell == {"trend": "up", "volatility": "extreme"} and found.n == 400
    assert "has 60 samples (< 300)" in found.note and found.probability("down") == 0.5


def test_unknown_states_fall_back_to_what_is_known() -> None:
    found = scenarios_for({"trend": "up", "volatility": "high", "relative_strength": "unknown"}, ZONES, table=table())
    assert found.cell == {"trend": "up"}
    assert "relative_strength unknown" in found.note and "trend=up, volatility=high has 0 samples" in found.note
    base = scenarios_for({"trend": "unknown"}, ZONES, table=table())
    assert base.cell == {} and base.note.startswith("probabilities from the base rate (5000 samples)")
    assert base.probability("sideways") == 0.6


def test_states_on_output_is_accepted() -> None:
    states = {
        "trend": {"state": "up", "rule": "..."},
        "volatility": {"state": "normal"},
        "relative_strength": {"state": "leading"},
        "symbol": "X",
    }
    assert scenarios_for(states, ZONES, table=table()).n == 450


def test_an_outdated_calibration_says_to_recalibrate() -> None:
    found = scenarios_for({"trend": "up"}, ZONES, table=table(trend_tables="0.9"))
    assert found.note.endswith("calibrated with trend v0.9 (now v1.0): re-run `stockbench calibrate`")


def test_paths_run_through_the_zone_levels_given() -> None:
    found = scenarios_for({"trend": "up"}, ZONES, atr_pct=0.03, table=table())
    up, sideways, down = found.scenarios
    assert (up.name, sideways.name, down.name) == ("up", "sideways", "down")
    assert [(s.label, s.low, s.high) for s in up.path] == [("sell_zone", Decimal("12.00"), Decimal("12.60"))]
    assert [(s.label, s.low, s.high) for s in sideways.path] == [("between_zones", Decimal("10.00"), Decimal("12.00"))]
    assert [(s.label, s.low, s.high) for s in down.path] == [
        ("buy_zone", Decimal("9.50"), Decimal("10.00")),
        ("stop", Decimal("9.10"), Decimal("9.10")),
    ]
    assert up.description.startswith("rises 6.7% or more within 20 sessions, toward the sell zone 12.00-12.60")
    assert "the stop is 9.10" in down.description
    without = scenarios_for({"trend": "up"}, ZONES, table=table())
    assert without.band_pct is None and "0.5 x ATR% x sqrt(20)" in without.scenarios[0].description


def test_zone_levels_must_be_in_order() -> None:
    with pytest.raises(InvalidInput, match="out of order"):
        ZoneLevels(Decimal("9.50"), Decimal("10.00"), Decimal("9.80"), Decimal("12.60"), Decimal("9.10"))
    with pytest.raises(InvalidInput, match="out of order"):
        ZoneLevels(Decimal("9.50"), Decimal("10.00"), Decimal("12.00"), Decimal("12.60"), Decimal("9.60"))


def test_every_state_combination_of_the_committed_table_sums_to_one() -> None:
    book = load_rule_tables()
    calibrated = load_calibration()
    tables = (book.trend, book.volatility, book.relative_strength)
    for combo in itertools.product(*(t.states for t in tables)):
        states = dict(zip(("trend", "volatility", "relative_strength"), combo, strict=True))
        found, note = lookup(states, calibrated, book)
        assert sum(found["p"].values()) == pytest.approx(1.0, abs=1e-12)
        assert found["n"] >= book.scenarios.integer("min_cell_count") and note.startswith("probabilities from")
