"""Scenarios: probabilities from the calibrated table with fallbacks that say so; each scenario's move, landing price
(on a tick) and where it lands against the zones (every LANDS value), and the zone levels it reaches on the way."""

from __future__ import annotations

import itertools
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest

from stockbench.analytics.calibration import probabilities
from stockbench.analytics.rule_tables import load_rule_tables
from stockbench.analytics.scenarios import LANDS, ZoneLevels, load_calibration, lookup, move_pct, scenarios_for
from stockbench.errors import InvalidInput

ZONES = ZoneLevels(Decimal("9.50"), Decimal("10.00"), Decimal("12.00"), Decimal("12.60"), Decimal("9.10"))


BOOK = load_rule_tables()


def cents(price: Decimal) -> Decimal:
    """Rounding to the nearest 0.01 (an A-share tick), half up, as round_to_tick does."""
    return price.quantize(Decimal("0.01"), ROUND_HALF_UP)


def cell(states: dict[str, str], up: int, sideways: int, down: int) -> dict[str, Any]:
    counts = {"up": up, "sideways": sideways, "down": down}
    return {"states": states, "n": up + sideways + down, "counts": counts, "p": probabilities(counts)}


def table(trend_tables: str | None = None) -> dict[str, Any]:
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
            "rule_tables": {name: BOOK.versions()[name] for name in ("volatility", "relative_strength", "scenarios")}
            | {"trend": trend_tables or BOOK.trend.version},
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
    now = BOOK.trend.version
    assert found.note.endswith(f"calibrated with trend v0.9 (now v{now}): re-run `stockbench calibrate`")


def test_each_scenario_lands_at_its_move_from_the_last_price() -> None:
    # band = 0.5 x 3% x sqrt(20) = 6.7%: up lands at 10.80 x 1.067 = 11.5236 -> 11.52, down at 10.80 x 0.933 =
    # 10.0764 -> 10.08; sideways stays at 10.80.
    found = scenarios_for({"trend": "up"}, ZONES, atr_pct=0.03, last=Decimal("10.80"), to_tick=cents, table=table())
    up, sideways, down = found.scenarios
    assert (up.name, sideways.name, down.name) == ("up", "sideways", "down")
    assert [(s.move_pct, s.price, s.lands) for s in found.scenarios] == [
        (Decimal("6.7"), Decimal("11.52"), "between"),
        (Decimal("0.0"), Decimal("10.80"), "between"),
        (Decimal("-6.7"), Decimal("10.08"), "between"),
    ]
    assert up.path == () and sideways.path == () and down.path == ()


def test_the_path_names_the_zone_levels_reached_in_order() -> None:
    # From 12.20 (in the sell zone) a 30% fall to 8.54 crosses the buy zone, then the stop; a 30% rise leaves the
    # sell zone it starts in and reaches nothing.
    found = scenarios_for({"trend": "up"}, ZONES, atr_pct=0.1342, last=Decimal("12.20"), to_tick=cents, table=table())
    up, _, down = found.scenarios
    assert down.move_pct == Decimal("-30.0") and down.price == Decimal("8.54") and down.lands == "below_stop"
    assert [(s.label, s.low, s.high) for s in down.path] == [
        ("buy_zone", Decimal("9.50"), Decimal("10.00")),
        ("stop", Decimal("9.10"), Decimal("9.10")),
    ]
    assert up.lands == "above_sell" and up.path == ()


@pytest.mark.parametrize(
    ("price", "lands"),
    [
        ("12.61", "above_sell"),
        ("12.60", "in_sell"),
        ("12.00", "in_sell"),
        ("11.99", "between"),
        ("10.01", "between"),
        ("10.00", "in_buy"),
        ("9.50", "in_buy"),
        ("9.49", "below_buy"),
        ("9.11", "below_buy"),
        ("9.10", "below_stop"),
        ("8.00", "below_stop"),
    ],
)
def test_every_landing_place(price: str, lands: str) -> None:
    assert ZONES.lands(Decimal(price)) == lands
    assert lands in LANDS


@pytest.mark.parametrize(
    ("last", "atr_pct", "name", "lands"),
    [
        ("12.00", 0.03, "up", "above_sell"),  # band 0.5 x 3% x sqrt(20) = 6.7%: 12.80
        ("11.50", 0.03, "up", "in_sell"),  # 12.27
        ("10.80", 0.03, "down", "between"),  # 10.08
        ("10.20", 0.03, "down", "in_buy"),  # 9.52
        ("10.00", 0.03, "down", "below_buy"),  # 9.33
        ("10.00", 0.12, "down", "below_stop"),  # band 26.8%: 7.32
    ],
)
def test_scenarios_land_in_every_place(last: str, atr_pct: float, name: str, lands: str) -> None:
    found = scenarios_for({"trend": "up"}, ZONES, atr_pct=atr_pct, last=Decimal(last), to_tick=cents, table=table())
    scenario = next(s for s in found.scenarios if s.name == name)
    assert scenario.price is not None and scenario.lands == lands == ZONES.lands(scenario.price)


def test_without_a_last_price_or_a_volatility_there_is_no_landing() -> None:
    for found in (
        scenarios_for({"trend": "up"}, ZONES, atr_pct=0.03, table=table()),
        scenarios_for({"trend": "up"}, ZONES, last=Decimal("10.80"), table=table()),
    ):
        assert all((s.move_pct, s.price, s.lands, s.path) == (None, None, None, ()) for s in found.scenarios)
    assert move_pct(None) is None and move_pct(0.06708) == Decimal("6.7")


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
