"""The analytics rule tables: every table named, versioned and described; rows validated on load."""

from __future__ import annotations

import copy
import tomllib
from typing import Any

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stockbench.analytics.rule_tables import (
    UNKNOWN,
    Condition,
    load_rule_tables,
    parse_rule_tables,
)
from stockbench.errors import InternalError

ALL_TABLES = {
    "trend",
    "capital",
    "relative_strength",
    "volatility",
    "factor_score",
    "backtest",
    "sample_confidence",
    "decision_baseline",
    "scenarios",
    "sizing",
    "zones",
}


def raw_tables() -> dict[str, Any]:
    book = load_rule_tables()
    with book.path.open("rb") as handle:
        return tomllib.load(handle)


def test_every_table_is_named_versioned_and_described() -> None:
    book = load_rule_tables()
    assert set(book.versions()) == ALL_TABLES
    raw = raw_tables()
    for name in ALL_TABLES:
        assert raw[name]["name"] == name
        assert raw[name]["version"].strip() and len(raw[name]["description"]) > 40
    assert book.trend.cite() == f"trend v{book.trend.version}"


def test_state_tables_give_unknown_and_a_default() -> None:
    for table in load_rule_tables().state_tables():
        assert UNKNOWN in table.states and table.default in table.states
        assert set(table.requires) <= set(table.inputs)
        assert all(r.state in table.states for r in table.rules)
    assert load_rule_tables().trend.states == ("strong_up", "up", "range", "down", "strong_down", "unknown")


def test_rules_quote_as_text() -> None:
    rule = load_rule_tables().trend.rules[0]
    assert rule.text() == (
        "strong_up: close > ma20 and ma5 > ma20 and ma20 > ma60 and ma60 > ma120 and ma20_slope >= 0.03"
        " and ma60_gap_atr >= 0.5 and long_ma_gap > 0"
    )


def test_sizing_and_notional_are_exact_decimals() -> None:
    book = load_rule_tables()
    assert str(book.sizing.decimal("risk_pct")) == "0.01"
    assert str(book.sizing.decimal("max_weight")) == "0.20"
    assert str(book.backtest.decimal("reference_notional")) == "100000"


def test_sample_caps_rise_with_the_sample() -> None:
    book = load_rule_tables()
    caps = [book.sample_cap(n) for n in range(0, 60)]
    assert caps == sorted(caps) and caps[0] == 0.3 and caps[-1] == 1.0
    assert book.sample_cap(book.sample_confidence.integer("full_confidence")) == 1.0
    assert book.sample_cap(book.sample_confidence.integer("full_confidence") - 1) < 1.0


@pytest.mark.parametrize(
    ("path", "value", "match"),
    [
        (("trend", "description"), "", "no description"),
        (("trend", "rules", 0, "when", 0), "close >> ma20", "is not"),
        (("trend", "rules", 0, "when", 0), "close > ma999", "unknown inputs ma999"),
        (("capital", "rules", 0, "state"), "flood", "bad states"),
        (("factor_score", "indicator_points", 0, "when", 0), "secret > 1", "unknown inputs secret"),
        (("factor_score", "state_points", "trend"), {"up": 1}, "every trend state"),
        (("zones", "name"), "zone", "is named"),
    ],
)
def test_malformed_tables_are_refused(path: tuple[Any, ...], value: Any, match: str) -> None:
    raw = copy.deepcopy(raw_tables())
    node = raw
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(InternalError, match=match):
        parse_rule_tables(raw, load_rule_tables().path)


def test_a_missing_table_is_refused() -> None:
    raw = raw_tables()
    del raw["sizing"]
    with pytest.raises(InternalError, match="malformed"):
        parse_rule_tables(raw, load_rule_tables().path)


values = st.one_of(st.none(), st.floats(-5, 5, allow_nan=False))


@given(a=values, b=values, op=st.sampled_from([">", ">=", "<", "<="]))
def test_condition_on_frames_agrees_with_plain_values(a: float | None, b: float | None, op: str) -> None:
    condition = Condition.parse(f"a {op} b", "test")
    frame = pl.DataFrame({"a": [a], "b": [b]}, schema={"a": pl.Float64, "b": pl.Float64})
    on_frame = frame.select(condition.expr().fill_null(False)).item()
    assert on_frame == condition.holds({"a": a, "b": b})


def test_condition_with_a_number() -> None:
    condition = Condition.parse("rsi12 >= 80", "test")
    assert condition.right == 80.0 and condition.inputs == ("rsi12",)
    assert condition.text() == "rsi12 >= 80"
    assert condition.holds({"rsi12": 80.0}) and not condition.holds({"rsi12": None})
