"""Actions on the demo, a closed set tied to the position: with nothing held the offline model never says hold
(nothing held and nothing to do is wait), a holder's run says a holder's action, and a model that submits an
action the position does not allow (through the loopback server and the real litellm path) is sent back with the
code and a fix, then publishes a legal one."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from stockbench.analytics.position_states import ACTION_STATES, ACTIONS
from stockbench.clock import ReplayClock
from stockbench.market.lots import board_lot
from stockbench.research.summary import ReportSummary
from stockbench.research.wording import say
from stockbench.research.wording.actions import action_word, baseline_reason
from stockbench.workbench import Workbench
from tests.engine.analytics.test_zones import real_workspace
from tests.engine.research.conftest import BUY_SYMBOL, DEMO_SYMBOL, SELL_SYMBOL, Lab, holding_account
from tests.engine.research.test_cheating_model import edit, facts_of, published, refused_once
from tests.llm_server.server import SeenRequest

IN_SELL = BUY_SYMBOL  # flat, its last close in the sell zone: a buy there is refused by the state table


def _summary(bench: Workbench, report_id: str) -> ReportSummary:
    return ReportSummary.from_json(bench.research.report(report_id).as_dict()["summary"])


def _position_block(bench: Workbench, run_id: str) -> dict[str, Any]:
    payload = bench.research.journal.stored(run_id, "preprocess/facts", "result")
    assert payload is not None
    found: dict[str, Any] = json.loads(payload)["position_state"]
    return found


@pytest.mark.parametrize("symbol", [DEMO_SYMBOL, "003901.SZ", "003903.SZ", IN_SELL, "688901.SH", "02971.HK"])
def test_a_run_without_a_position_never_says_hold(bench: Workbench, symbol: str) -> None:
    outcome = bench.research.analyze(symbol).as_dict()
    assert outcome["status"] == "published", outcome
    assert outcome["action"] in {"buy", "wait", "avoid"}  # never hold, add, reduce or sell with nothing held
    summary = _summary(bench, outcome["report_id"])
    assert summary.action == outcome["action"] and summary.position_state in ACTION_STATES[outcome["action"]]
    assert summary.baseline.direction in {"buy", "wait", "avoid"} and summary.baseline.confidence is not None
    block = _position_block(bench, outcome["run_id"])
    assert set(block["actions"]) <= {"buy", "wait", "avoid"} and "hold" in block["refused"]
    assert [p["code"] for p in block["refused"]["hold"]] == ["action_needs_position"]


def test_a_holder_s_run_says_a_holder_s_action(bench: Workbench) -> None:
    holding_account(bench, BUY_SYMBOL, qty=1000, order_offset="1.00")
    outcome = bench.research.analyze(BUY_SYMBOL, account="main").as_dict()
    assert outcome["status"] == "published", outcome
    assert outcome["action"] in {"add", "hold", "reduce", "sell"}
    summary = _summary(bench, outcome["report_id"])
    assert summary.position_state in ACTION_STATES[outcome["action"]]  # type: ignore[index]
    assert set(_position_block(bench, outcome["run_id"])["actions"]) <= {"add", "hold", "reduce", "sell"}


def test_a_holder_s_reduce_is_sized_as_a_sell_at_the_sell_zone(bench: Workbench) -> None:
    holding_account(bench, SELL_SYMBOL, qty=10000)
    outcome = bench.research.analyze(SELL_SYMBOL, account="main").as_dict()
    assert outcome["status"] == "published" and outcome["action"] == "reduce", outcome
    [sized] = outcome["orders"]
    lot = board_lot(bench.market.registry.instrument(SELL_SYMBOL), bench.market.tables)[0]
    assert sized["side"] == "sell" and sized["qty"] % lot == 0 and sized["price"] == outcome["zones"]["sell"]["low"]
    assert bench.research.report(outcome["report_id"]).as_dict()["draft"]["orders"][0]["qty"] == sized["qty"]
    assert _summary(bench, outcome["report_id"]).position_state == "reducing"


def _act(action: str, why: str, **more: Any) -> Any:
    def change(seen: SeenRequest, args: dict[str, Any]) -> dict[str, Any]:
        baseline = facts_of(seen)["analytics"]["baseline"]
        return {
            **args,
            **more,
            "action": {"action": action, "why": {"text": why, "evidence": [baseline["evidence_id"]]}},
        }

    return edit(change)


def test_hold_with_nothing_held_is_sent_back(lab: Lab) -> None:
    lab.add_model()
    lab.model.on("decide", _act("hold", "持有，等待趋势明朗"))
    run_id = published(lab)
    problem = refused_once(lab, run_id, "decide/tool/", "action_needs_position")
    assert problem["location"] == "action" and "wait" in problem["fix"]
    assert lab.research().outcome(run_id).action == "wait"


def test_a_buy_path_under_avoid_is_sent_back(lab: Lab) -> None:
    lab.add_model()
    avoid = _act("avoid", "回避：趋势未确认")

    def with_buy_path(seen: SeenRequest, reply: Any) -> Any:  # the buy zone's path buys in steps
        def buy(_: SeenRequest, args: dict[str, Any]) -> dict[str, Any]:
            first, *rest = args["paths"]
            return {**args, "paths": [{**first, "action": say("path.buy_in_steps", "zh")}, *rest]}

        return edit(buy)(seen, avoid(seen, reply))

    lab.model.on("decide", with_buy_path)
    run_id = published(lab)
    problem = refused_once(lab, run_id, "decide/tool/", "avoid_with_buy_path")
    assert problem["location"].startswith("paths[") and "按计划分批买入" in problem["message"]


def test_a_buy_the_state_table_forbids_is_sent_back_with_every_reason(lab: Lab) -> None:
    lab.add_model()
    lab.model.on("decide", _act("buy", "买入：技术分较高", position_state="building"))
    run_id = published(lab, IN_SELL)
    problem = refused_once(lab, run_id, "decide/tool/", "action_move_illegal")
    assert "from no position to building" in problem["message"] and problem["fix"]
    refused_once(lab, run_id, "decide/tool/", "position_state_illegal")  # in the same answer
    assert lab.research().outcome(run_id).action in {"wait", "avoid"}


def test_a_buy_with_a_state_it_does_not_go_with_is_sent_back(lab: Lab) -> None:
    lab.add_model()
    lab.model.on("decide", _act("buy", "买入：价格在买入区间", position_state="no_position"))
    run_id = published(lab)
    problem = refused_once(lab, run_id, "decide/tool/", "action_state_mismatch")
    assert problem["location"] == "position_state" and "building" in problem["fix"]


def test_the_words_of_the_actions_and_of_the_baseline_s_reasons() -> None:
    assert [action_word(a, "zh") for a in ACTIONS] == ["买入", "加仓", "持有", "减仓", "卖出", "观望", "回避"]
    assert [action_word(a, "en") for a in ACTIONS] == ["Buy", "Add", "Hold", "Reduce", "Sell", "Wait", "Avoid"]
    assert action_word("watch", "zh") == "watch"  # an old report's action outside the set, as stored
    unknown = {"code": "input_unknown", "check": "valuation", "value": None, "cap": "wait"}
    assert baseline_reason(unknown, "zh") == "估值分位未知：未知不算通过，基线最多为观望"
    assert baseline_reason(unknown, "en").startswith("the valuation percentile is unknown: unknown is not a pass")
    no_trade = {"code": "no_trade", "plan_reason": "reward_risk_below_min", "reward_risk": "0.47", "minimum": "1.5"}
    assert baseline_reason(no_trade, "zh") == "不交易：盈亏比 0.47 低于最低要求 1.5"
    # the words are the plan's own (plan.reason.*, as the zone lines say them), after "no trade:"
    assert baseline_reason(no_trade, "en") == say("baseline.no_trade", "en", reason=say(
        "plan.reason.reward_risk_below_min", "en", ratio="0.47", minimum="1.5"))  # fmt: skip
    reach = {"code": "no_trade", "plan_reason": "buy_out_of_reach", "distance": "8.20"}
    assert baseline_reason(reach, "zh") == "不交易：买入区上沿在现价下方 8.20%，超出可及范围"
    assert baseline_reason({"code": "no_trade", "plan_reason": "stop_hit", "stop": "49.17"}, "en") == (
        "no trade: the price is at or below the stop 49.17")  # fmt: skip
    assert baseline_reason({**no_trade, "reward_risk": None}, "en") == "no trade: the plan was not assessed"
    failed = {"code": "check_failed", "check": "score", "value": "10", "op": ">=", "limit": "50"}
    assert baseline_reason(failed, "zh") == "技术分为 10，买入要求 ≥ 50"
    # a buy cites the setup's measured record (v1.4); an older report's bare code keeps its short words
    record = {"code": "buy_conditions_met", "setup_beat_rate": 0.455, "base_beat_rate": 0.431,
              "setup_excess_pct": 0.79, "base_excess_pct": 0.29, "measured_from": "2021-01-01"}  # fmt: skip
    assert baseline_reason(record, "zh") == (
        "全部买入条件通过；这一形态的记录（2021-01-01 起，样本外）：20个交易日跑赢市场的占 45.5%（全部交易日 43.1%），"
        "平均超额 +0.79%（全部交易日 +0.29%）：优势小，单次结果多半取决于运气")  # fmt: skip
    assert baseline_reason(record, "en") == (
        "every buy condition passed; the setup's record (out of sample from 2021-01-01): 45.5% of its sessions beat"
        " the market over 20 sessions (every session: 43.1%), mean excess +0.79% (every session: +0.29%): a small"
        " edge, so any one outcome is mostly luck")  # fmt: skip
    assert baseline_reason({"code": "buy_conditions_met"}, "en") == "every buy condition passed"


@pytest.mark.realdata
def test_600519_on_its_2021_02_18_high_with_valuation_a_gap_is_no_buy(shared_data: Path, tmp_path: Path) -> None:
    """The known bad case: a "buy" at 2471.00 on its all-time-high reversal day, with valuation history a gap. Now
    the unknowns cap the baseline at wait, the reasons say which (codes and values), and the run waits."""
    home = real_workspace(tmp_path, shared_data, ["sh600519"], since="2019-01-01")
    with Workbench.open(home, clock=ReplayClock.as_of(date(2021, 2, 18))) as bench:
        outcome = bench.research.analyze("600519.SH", language="zh").as_dict()
        assert outcome["status"] == "published", outcome
        facts = json.loads(bench.research.journal.stored(outcome["run_id"], "preprocess/facts", "result") or "{}")
        summary = _summary(bench, outcome["report_id"])
    baseline = facts["baseline"]
    assert baseline["direction"] == "wait" and outcome["action"] == "wait"
    assert "valuation" in baseline["unknown"] and not baseline["buy_candidate"]
    assert {"code": "input_unknown", "check": "valuation", "value": None, "cap": "wait"} in baseline["reasons"]
    assert "估值分位未知：未知不算通过，基线最多为观望" in baseline["reason_text"]
    assert (summary.baseline.direction, summary.position_state) == ("wait", "watching")
    assert "valuation" in summary.baseline.unknown and summary.baseline.confidence is not None


@pytest.mark.parametrize(
    ("action", "on_buy"),
    [
        ("buy", "path.buy_in_steps"),
        ("wait", "path.reassess"),
        ("avoid", "path.recheck"),
        ("hold", "path.hold_no_add"),
        ("add", "path.add_in_steps"),
    ],
)
def test_what_the_buy_zone_path_does_follows_the_action(action: str, on_buy: str) -> None:
    """Under wait the baseline gave no buy, so the price entering the buy zone is a reason to assess again, not to
    buy in steps (which "现在怎么做" would contradict); a buy buys in steps, avoid researches again first. Under hold
    the baseline gave no add: the path said "按计划分批加仓" while the price already stood in the zone."""
    from stockbench.research.blocks import BandFact, StopFact, ZonesFact
    from stockbench.research.offline import OfflineModel

    zones = ZonesFact(BandFact(Decimal("10.00"), Decimal("10.20")), BandFact(Decimal("11.50"), Decimal("11.80")),
                      StopFact(Decimal("9.60")), tradeable=True, reasons=())  # fmt: skip
    for language in ("zh", "en"):
        paths = OfflineModel._paths(zones, action, language)
        assert paths[0]["action"] == say(on_buy, language)
    wait = OfflineModel._paths(zones, "wait", "zh")[0]["action"]
    assert "分批买入" not in wait and "不建仓" in wait
    hold = OfflineModel._paths(zones, "hold", "zh")[0]["action"]
    assert "分批加仓" not in hold and "不加仓" in hold


def test_a_buy_while_an_input_is_unknown_is_sent_back_and_the_run_publishes_the_cap(lab: Lab) -> None:
    """Unknown never passes, for the model too: with the money flow missing the capital state is unknown, so a buy
    is refused with the input named and the cap (at most wait) as the fix."""
    lab.db.execute("DELETE FROM money_flow WHERE symbol = ?", [DEMO_SYMBOL])
    lab.add_model()
    lab.model.on("decide", _act("buy", "买入：价格在买入区间", position_state="building"))
    run_id = published(lab)
    problem = refused_once(lab, run_id, "decide/tool/", "buy_with_unknown_input")
    assert problem["location"] == "action" and "the capital state" in problem["message"]
    assert "at most wait" in problem["message"] and problem["fix"].startswith("choose wait")
    assert lab.research().outcome(run_id).action == "wait"


def test_a_buy_or_add_on_a_plan_that_is_no_trade_is_refused_in_both_languages() -> None:
    from stockbench.messages import said
    from stockbench.research.decisions import capped_buy

    out_of_reach = {"code": "no_trade", "plan_reason": "buy_out_of_reach", "distance": "10.29", "reward_risk": 3.98,
                    "minimum": 1.5}  # fmt: skip
    [found] = capped_buy([out_of_reach], "add")
    assert found.code == "buy_without_a_tradeable_plan" and found.location == "action"
    assert "(the buy zone's top lies 10.29% under the price, out of reach)" in found.message
    assert found.fix.startswith("choose hold")
    assert said(found, "zh") == (
        "区间构不成可交易的计划（买入区上沿在现价下方 10.29%，超出可及范围）：不交易，因此不能加仓",
        "请选择持有；计划的原因说明了怎样才能形成计划",
    )
    unknown = {"code": "input_unknown", "check": "valuation", "cap": "wait"}
    assert [p.code for p in capped_buy([unknown, out_of_reach], "buy")] == [
        "buy_with_unknown_input", "buy_without_a_tradeable_plan"]  # fmt: skip
    assert capped_buy([{"code": "check_failed", "check": "run"}], "buy") == []  # a failed setup is the model's call
