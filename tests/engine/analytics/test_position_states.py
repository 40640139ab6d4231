"""The position state machine: the move table, the ledger and zone conditions with their explanations, the
reconciliation with the ledger, suggestions, and the service on a real ledger and real zones (realdata)."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

import pytest

from stockbench.analytics.position_states import (
    ACTION_STATES,
    ACTIONS,
    MOVES,
    STATES,
    PositionFacts,
    action_problems,
    check_move,
    legal_actions,
    legal_moves,
    parse_action,
    parse_state,
    reconcile,
    suggest,
)
from stockbench.clock import MARKET_TZ, ReplayClock
from stockbench.errors import InvalidInput
from stockbench.ledger.validation import FillDraft
from stockbench.workbench import Workbench
from tests.engine.analytics.test_zones import real_workspace, shared_folder

FLAT = PositionFacts(0, 0, "between")
HELD = PositionFacts(500, 500, "between")
BOUGHT_TODAY = PositionFacts(500, 0, "between")


def codes(current: str, target: str, facts: PositionFacts) -> list[str]:
    return [p.code for p in check_move(parse_state(current), parse_state(target), facts).problems]


def test_the_move_table() -> None:
    assert set(MOVES) == set(STATES)
    assert legal_moves("no_position", FLAT) == ["no_position", "watching", "building"]
    assert legal_moves("holding", HELD) == ["building", "holding", "reducing"]
    assert legal_moves("reducing", PositionFacts(0, 0, "between")) == ["reducing", "exited"]
    assert legal_moves("exited", FLAT) == ["no_position", "watching", "building", "exited"]
    assert codes("watching", "holding", HELD) == ["illegal_move"]
    assert codes("reducing", "building", HELD) == ["illegal_move"]
    assert check_move("holding", "holding", BOUGHT_TODAY).legal  # staying put is always legal


def test_ledger_conditions_are_explained() -> None:
    assert codes("building", "holding", FLAT) == ["no_shares"]
    assert codes("holding", "reducing", BOUGHT_TODAY) == ["nothing_sellable"]
    assert codes("holding", "exited", HELD) == ["not_sold_out"]
    assert codes("exited", "watching", HELD) == ["still_holding"]
    problem = check_move("holding", "reducing", BOUGHT_TODAY).problems[0]
    assert "T+1" in problem.message and problem.fix


def test_zone_conditions() -> None:
    assert codes("watching", "building", PositionFacts(0, 0, "in_buy")) == []
    assert codes("watching", "building", PositionFacts(0, 0, "in_sell")) == ["buying_into_sell_zone"]
    assert codes("holding", "building", PositionFacts(500, 500, "above_sell")) == ["buying_into_sell_zone"]
    assert codes("holding", "building", PositionFacts(500, 500, "stop_hit")) == ["stop_hit"]
    assert codes("no_position", "watching", PositionFacts(0, 0, None)) == ["no_zones"]
    assert codes("holding", "reducing", PositionFacts(500, 500, "stop_hit")) == []
    assert codes("watching", "holding", PositionFacts(0, 0, "in_sell")) == ["illegal_move", "no_shares"]


def test_reconcile_with_the_ledger() -> None:
    assert reconcile("watching", HELD) == "building"
    assert reconcile("holding", FLAT) == "exited"
    assert reconcile("reducing", FLAT) == "exited"
    assert reconcile("holding", HELD) == "holding"
    assert reconcile("no_position", FLAT) == "no_position"


def test_suggestions_follow_the_zones() -> None:
    assert suggest("watching", PositionFacts(0, 0, "in_buy")) == ("building", "the price is in the buy zone")
    assert suggest("holding", PositionFacts(500, 500, "in_sell")) == ("reducing", "the price reached the sell zone")
    assert suggest("holding", PositionFacts(500, 500, "stop_hit"))[0] == "reducing"  # type: ignore[index]
    assert suggest("holding", PositionFacts(500, 0, "stop_hit")) is None  # T+1: nothing can be sold yet
    assert suggest("reducing", FLAT) == ("exited", "the position is sold out")
    assert suggest("holding", HELD) is None


def test_unknown_state_name() -> None:
    with pytest.raises(InvalidInput, match="not a position state"):
        parse_state("long")
    with pytest.raises(InvalidInput, match="not an action"):
        parse_action("watch")


def action_codes(action: str, current: str, facts: PositionFacts) -> list[str]:
    return [p.code for p in action_problems(parse_action(action), parse_state(current), facts)]


def test_the_actions_are_a_closed_set_tied_to_the_states() -> None:
    assert ACTIONS == ("buy", "add", "hold", "reduce", "sell", "wait", "avoid")
    assert set(ACTION_STATES) == set(ACTIONS)
    assert {s for states in ACTION_STATES.values() for s in states} <= set(STATES)
    assert ACTION_STATES["hold"] == ("holding",) and set(ACTION_STATES["wait"]) == {"no_position", "watching"}


def test_the_legal_action_table() -> None:
    """Nothing held: buy, wait and avoid, never hold, reduce or sell; held: add, hold, reduce, sell."""
    assert legal_actions("no_position", FLAT) == {
        "buy": ("building",), "wait": ("no_position", "watching"), "avoid": ("no_position", "watching"),
    }  # fmt: skip
    assert legal_actions("holding", HELD) == {
        "add": ("building",), "hold": ("holding",), "reduce": ("reducing",), "sell": ("reducing",),
    }  # fmt: skip
    assert list(legal_actions("holding", BOUGHT_TODAY)) == ["add", "hold"]  # T+1: nothing sellable today
    assert list(legal_actions("no_position", PositionFacts(0, 0, None))) == ["wait", "avoid"]  # no zones: no buy
    assert legal_actions("no_position", PositionFacts(0, 0, None))["wait"] == ("no_position",)  # watching needs zones
    assert list(legal_actions("exited", FLAT)) == ["buy", "wait", "avoid"]


def test_illegal_actions_are_refused_with_every_reason() -> None:
    for action in ("hold", "reduce", "sell", "add"):
        assert action_codes(action, "no_position", FLAT) == ["action_needs_position"]
    problem = action_problems("hold", "no_position", FLAT)[0]
    assert "wait" in problem.fix
    for action in ("buy", "wait", "avoid"):
        assert action_codes(action, "holding", HELD) == ["action_needs_no_position"]
    assert "add" in action_problems("buy", "holding", HELD)[0].fix
    # the state table's moves: a buy needs no_position -> building, refused in the sell zone or at the stop
    assert action_codes("buy", "no_position", PositionFacts(0, 0, "in_sell")) == ["action_move_illegal"]
    refused = action_problems("buy", "no_position", PositionFacts(0, 0, "above_sell"))[0]
    assert "from no position to building" in refused.message and "sell zone" in refused.message and refused.fix
    assert action_codes("buy", "watching", PositionFacts(0, 0, "stop_hit")) == ["action_move_illegal"]
    assert action_codes("reduce", "holding", BOUGHT_TODAY) == ["action_move_illegal"]  # nothing sellable (T+1)
    assert action_codes("add", "reducing", HELD) == ["action_move_illegal"]  # reducing cannot go back to building
    assert action_codes("buy", "no_position", PositionFacts(0, 0, "in_buy")) == []


def test_an_action_goes_with_its_states() -> None:
    """The states each action may go with now (the judgment gate reads them: tests/engine/evidence/
    test_action_gate.py); with no zone position known, watching is not a state to move to."""
    assert legal_actions("no_position", FLAT) == {
        "buy": ("building",),
        "wait": ("no_position", "watching"),
        "avoid": ("no_position", "watching"),
    }
    assert legal_actions("no_position", PositionFacts(0, 0, None)) == {
        "wait": ("no_position",),
        "avoid": ("no_position",),
    }


@pytest.mark.realdata
def test_service_checks_moves_against_the_ledger_and_zones(tmp_path: Path) -> None:
    home = real_workspace(tmp_path, shared_folder(), ["sh600519"])
    at = datetime(2021, 11, 24, 10, tzinfo=MARKET_TZ["CN"])
    with Workbench.open(home, clock=ReplayClock.as_of(date(2021, 11, 24))) as bench:
        bench.ledger.add_account("main", "CNY")
        bench.ledger.cash("main", "deposit", Decimal("1000000"), at=datetime(2021, 11, 1, 10, tzinfo=MARKET_TZ["CN"]))
        zone = bench.analytics.zones("600519.SH").position
        assert zone == "in_sell"  # the 2021-11-24 close 1941.00 sits in the sell zone (zones v1.1)
        assert [p.code for p in bench.analytics.check_move("main", "600519", "watching", "building").problems] == [
            "buying_into_sell_zone"
        ]
        bench.ledger.record_fill(FillDraft("main", "600519.SH", "buy", 100, Decimal("1941.00"), at))
        facts = bench.analytics.position_facts("main", "600519.SH")
        assert (facts.qty, facts.zone) == (100, "in_sell")
        assert bench.analytics.check_move("main", "600519.SH", "building", "holding").legal
        assert not bench.analytics.check_move("main", "600519.SH", "holding", "exited").legal
    during = ReplayClock(datetime(2021, 11, 24, 14, tzinfo=MARKET_TZ["CN"]))
    with Workbench.open(home, clock=during) as bench:
        move = bench.analytics.check_move("main", "600519.SH", "holding", "reducing")
        assert [p.code for p in move.problems] == ["nothing_sellable"]
