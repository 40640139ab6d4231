"""The position state machine: the move table, the ledger and zone conditions with their explanations, the
reconciliation with the ledger, suggestions, and the service on a real ledger and real zones (realdata)."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

import pytest

from stockbench.analytics.position_states import (
    MOVES,
    STATES,
    PositionFacts,
    check_move,
    legal_moves,
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


@pytest.mark.realdata
def test_service_checks_moves_against_the_ledger_and_zones(tmp_path: Path) -> None:
    home = real_workspace(tmp_path, shared_folder(), ["sh600519"])
    at = datetime(2021, 6, 30, 10, tzinfo=MARKET_TZ["CN"])
    with Workbench.open(home, clock=ReplayClock.as_of(date(2021, 6, 30))) as bench:
        bench.ledger.add_account("main", "CNY")
        bench.ledger.cash("main", "deposit", Decimal("1000000"), at=datetime(2021, 6, 1, 10, tzinfo=MARKET_TZ["CN"]))
        zone = bench.analytics.zones("600519.SH").position
        assert zone == "in_sell"  # the 2021-06-30 close sits in the sell zone (see test_zones)
        assert [p.code for p in bench.analytics.check_move("main", "600519", "watching", "building").problems] == [
            "buying_into_sell_zone"
        ]
        bench.ledger.record_fill(FillDraft("main", "600519.SH", "buy", 100, Decimal("2000.00"), at))
        facts = bench.analytics.position_facts("main", "600519.SH")
        assert (facts.qty, facts.zone) == (100, "in_sell")
        assert bench.analytics.check_move("main", "600519.SH", "building", "holding").legal
        assert not bench.analytics.check_move("main", "600519.SH", "holding", "exited").legal
    during = ReplayClock(datetime(2021, 6, 30, 14, tzinfo=MARKET_TZ["CN"]))
    with Workbench.open(home, clock=during) as bench:
        move = bench.analytics.check_move("main", "600519.SH", "holding", "reducing")
        assert [p.code for p in move.problems] == ["nothing_sellable"]
