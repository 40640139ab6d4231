"""Why an action is refused now is said in the reader's language, also after the block's round trip through JSON,
while the words the model reads stay the English ones."""

from __future__ import annotations

import json

import pytest

from stockbench.analytics.position_states import Action, PositionFacts, PositionState, action_problems
from stockbench.messages import said
from stockbench.research.blocks import AnalyticsFacts, PositionStateFact, parse
from stockbench.research.decisions import action_rules
from stockbench.research.program import _refusal
from stockbench.research.wording import say


def test_a_refused_buy_into_the_sell_zone_reads_in_chinese_after_the_block_round_trip() -> None:
    found = action_problems("buy", "no_position", PositionFacts(0, 0, "in_sell"))
    assert [p.code for p in found] == ["action_move_illegal"]
    assert found[0].message == (
        "buy needs the position to go from no position to building, which is not legal now: "
        "the price is in the sell zone: building there contradicts the plan"
    )
    stored = json.loads(json.dumps({"current": "no_position", "refused": {"buy": [_refusal(p) for p in found]}}))
    state = parse(PositionStateFact, stored)
    rule = action_rules(AnalyticsFacts(position_state=state))["buy"]
    assert rule.problems[0].message == found[0].message  # the model's words, unchanged
    assert said(rule.problems[0], "zh") == (
        "买入需要持仓状态从“未持仓”变为“建仓中”，但现在不可行：价格位于卖出区间：在此建仓与计划相矛盾",
        "请等待价格回到买入区间，或重新计算区间",
    )


def test_a_holder_asked_to_buy_anew_is_told_in_chinese_what_a_holder_does() -> None:
    found = action_problems("avoid", "holding", PositionFacts(1000, 1000, "between"))
    assert said(found[0], "zh") == ("账本中持有 1000 股：操作不能是回避", "持股时对应的操作是减仓或卖出")
    assert found[0].message == "the ledger holds 1000 shares: the action cannot be avoid"


def test_a_block_written_before_refusals_carried_their_key_still_reads() -> None:
    state = parse(PositionStateFact, {"refused": {"buy": [{"code": "stop_hit", "message": "m", "fix": "f"}]}})
    rule = action_rules(AnalyticsFacts(position_state=state))["buy"]
    assert said(rule.problems[0], "zh") == ("m", "f")


@pytest.mark.parametrize(
    ("action", "current", "facts"),
    [("add", "reducing", PositionFacts(1000, 1000, "in_buy")), ("buy", "no_position", PositionFacts(0, 0, "stop_hit")),
     ("hold", "exited", PositionFacts(1000, 1000, "between")), ("reduce", "holding", PositionFacts(500, 0, "in_sell")),
     ("wait", "holding", PositionFacts(0, 0, "between"))],
)  # fmt: skip
def test_a_refused_move_says_the_position_states_in_words_in_both_languages(
    action: Action, current: PositionState, facts: PositionFacts
) -> None:
    """The zh refusal of an illegal move showed the machine's codes ("从 no_position 变为 building"): the states
    are said in the report's words (“未持仓”, “建仓中” / no position, building), also inside the reasons it gives."""
    from tests.engine.research.test_report_language import english_in

    (found,) = action_problems(action, current, facts)
    message, fix = said(found, "zh")
    assert english_in(message + fix) == [], (message, fix)
    assert "_" not in found.message + found.fix, found  # no_position is a code; "no position" the words
    assert say(f"position_state.{current}", "zh") in message and say(f"position_state.{current}", "en") in found.message
