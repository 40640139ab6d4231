"""The replay batch's split by date (bench/replay_track.py `--summarize`): matured calls before and from the cut,
and by year, with hit rates by action and each Brier score beside the point-in-time base rate."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from bench.replay_track import split
from stockbench.analytics.calibration_tables import table_for
from stockbench.research.track_record import base_rate
from stockbench.research.track_scoring import brier

PROBABILITIES = {"up": "0.5", "sideways": "0.3", "down": "0.2"}


def _call(
    day: str, action: str, hit: bool | None, excess: str, outcome: str, *, status: str = "matured"
) -> dict[str, Any]:
    return {"entry_day": day, "action": action, "hit": hit, "excess_pct": excess, "outcome": outcome,
            "status": status, "probabilities": PROBABILITIES}  # fmt: skip


def test_the_split_counts_each_side_and_judges_brier_against_the_table_of_each_calls_day() -> None:
    calls = [_call("2020-06-01", "buy", True, "4.00", "up"), _call("2020-09-01", "wait", False, "-2.00", "down"),
             _call("2021-03-01", "buy", False, "-1.00", "down"),
             _call("2021-05-01", "buy", None, "0", "up", status="pending")]  # fmt: skip
    text = split({"track_record": {"calls": calls}}, date(2021, 1, 1))
    lines = text.splitlines()
    assert lines[0] == "before 2021-01-01: 2 matured calls"
    assert "from 2021-01-01 (out of sample by date): 1 matured calls" in lines
    assert "    buy    calls    1 hit rate 1.000 mean excess 4.00%" in lines
    assert "    buy    calls    1 hit rate 0.000 mean excess -1.00%" in lines
    own = {k: Decimal(v) for k, v in PROBABILITIES.items()}
    late = brier(base_rate(table_for(date(2021, 3, 1)).path)[0], "down")
    assert f"    Brier {brier(own, 'down'):.4f} vs point-in-time base rate {late:.4f} " in text
    assert lines.count("2020: 2 matured calls") == 1 and "2021: 1 matured calls" in lines


def test_buy_candidates_are_counted_apart_whatever_the_action() -> None:
    """A wait that only an unknown input held back is a buy candidate: its excess is measured as a buy's would be."""
    calls = [_call("2020-06-01", "wait", True, "3.00", "up") | {"candidate": True},
             _call("2020-07-01", "wait", False, "-1.00", "down") | {"candidate": True},
             _call("2020-08-01", "avoid", True, "-5.00", "down") | {"candidate": False},
             _call("2020-09-01", "wait", True, "2.00", "up")]  # fmt: skip
    lines = split({"track_record": {"calls": calls}}, date(2021, 1, 1)).splitlines()
    assert "    buy candidates 2: beat the benchmark 0.500, mean excess 1.00%" in lines
    assert lines.count("    buy candidates 2: beat the benchmark 0.500, mean excess 1.00%") == 2  # before the cut, 2020
