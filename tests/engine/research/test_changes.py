"""The change list of the quick review, item by item and level by level, from a report's plan and a snapshot."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stockbench.analytics.zones import TradeDay, Zone, Zones
from stockbench.clock import MARKET_TZ
from stockbench.errors import InternalError
from stockbench.research.changes import (
    LEVELS,
    Change,
    FlowDay,
    NewAnnouncement,
    PriceNow,
    Snapshot,
    ZoneLevels,
    change_list,
    ex_rights_days,
    load_table,
    matching_path,
    rank,
    show,
)
from stockbench.research.plan_check import ReportPlan
from stockbench.research.wording import say

CN = MARKET_TZ["CN"]
TABLE = load_table()
ZONES = ZoneLevels(Decimal("351.56"), Decimal("359.35"), Decimal("361.08"), Decimal("371.47"), Decimal("341.17"))
PATHS = (
    ("价格进入买入区间 351.56-359.35", "按计划分批买入"),
    ("价格进入卖出区间 361.08-371.47", "分批卖出"),
    ("收盘跌破止损位 341.17", "止损离场"),
)
EVIDENCE = {
    "baseline": "ev-base",
    "quote": "ev-quote",
    "flow": "ev-flow",
    "announcements": "ev-ann",
    "announcement_titles": "ev-titles",
    "computed": "ev-comp",
    "failures": "ev-fail",
}
REPORT_DAY = date(2026, 11, 27)
NEXT_DAY = date(2026, 11, 30)


def make_plan(**changes: object) -> ReportPlan:
    base = ReportPlan(
        report_id="R1",
        run_id="RUN1",
        symbol="605903.SH",
        published_at=datetime(2026, 11, 27, 18, 0, tzinfo=CN),
        data_at=datetime(2026, 11, 27, 18, 0, tzinfo=CN),
        kind="full",
        account=None,
        action="hold",
        zones=ZONES,
        position="in_buy",
        day=REPORT_DAY,
        price=Decimal("358.53"),
        capital="outflow",
        paths=PATHS,
    )
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def price_now(last: str, *, day: date = NEXT_DAY, low: str | None = None, high: str | None = None) -> PriceNow:
    return PriceNow(
        Decimal(last),
        "live",
        day,
        datetime.combine(day, datetime.min.time(), tzinfo=CN).replace(hour=10, minute=25),
        Decimal("358.53"),
        Decimal(high) if high else Decimal(last),
        Decimal(low) if low else Decimal(last),
        12_000_000,
        None,
        "demo",
    )


def snapshot(price: PriceNow | None, **changes: object) -> Snapshot:
    return dataclasses.replace(Snapshot(price, evidence=EVIDENCE), **changes)  # type: ignore[arg-type]


def only(changes: Sequence[Change]) -> Change:
    assert len(changes) == 1, changes
    return changes[0]


# ---- the table ------------------------------------------------------------------------------------------------
def test_the_table_is_named_versioned_and_gives_every_level_its_actions() -> None:
    assert TABLE.label == "quick_review 1.0"
    assert [rank(level) for level in LEVELS] == [0, 1, 2, 3]
    assert set(TABLE.actions) == set(LEVELS)
    assert TABLE.actions["full_analysis"] == ("protect",)
    assert "follow_path" in TABLE.actions["act"]
    assert TABLE.max_age_sessions == 1


def test_a_table_with_an_unknown_level_is_refused(tmp_path: Path) -> None:
    text = (Path(__file__).parents[3] / "resources" / "quick_review.toml").read_text(encoding="utf-8")
    broken = tmp_path / "quick_review.toml"
    broken.write_text(text.replace('hit = "act"', 'hit = "panic"'), encoding="utf-8")
    with pytest.raises(InternalError, match="panic"):
        load_table(broken)


@given(st.decimals(min_value=300, max_value=400, places=2))
def test_positions_agree_with_the_zone_algorithm(price: Decimal) -> None:
    zones = Zones(
        "605903.SH",
        REPORT_DAY,
        price,
        Zone(ZONES.buy_low, ZONES.buy_high, (), None),
        Zone(ZONES.sell_low or Decimal(0), ZONES.sell_high or Decimal(0), (), None),
        ZONES.stop or Decimal(0),
        (),
        Decimal(10),
        Decimal(1),
        TradeDay(None, None, None),
    )
    assert ZONES.position(price) == zones.position


def test_a_report_path_is_found_by_its_prices_or_its_words() -> None:
    assert matching_path(PATHS, ZONES, "in_buy") == PATHS[0][0]
    assert matching_path(PATHS, ZONES, "in_sell") == PATHS[1][0]
    assert matching_path(PATHS, ZONES, "stop_hit") == PATHS[2][0]
    assert matching_path((("若收盘低于止损则离场", "离场"),), ZONES, "stop_hit") == "若收盘低于止损则离场"
    assert matching_path((("放量突破前高", "加仓"),), ZONES, "in_buy") is None


# ---- each change and its level ---------------------------------------------------------------------------------
def test_nothing_changed_gives_an_empty_list() -> None:
    same = price_now("358.53", day=REPORT_DAY)
    same = dataclasses.replace(same, label="last_close", at=None, low=Decimal("358.53"))
    assert change_list(make_plan(), snapshot(same), TABLE) == []


@pytest.mark.parametrize(
    ("last", "position", "level", "path"),
    [
        ("365", "in_sell", "act", PATHS[1][0]),
        ("360", "between", "note", None),
        ("350", "below_buy", "watch", None),
        ("380", "above_sell", "watch", None),
    ],
)
def test_zone_transitions_take_their_level_from_the_table(
    last: str, position: str, level: str, path: str | None
) -> None:
    change = only(change_list(make_plan(), snapshot(price_now(last, low=last)), TABLE))
    assert change.kind == "zone_transition"
    assert (change.level, change.path) == (level, path)
    assert say(f"position.{position}", "zh") in change.detail and show(Decimal(last)) in change.detail
    assert position not in change.detail  # the position in words, never its code
    assert change.evidence == ("ev-base", "ev-quote")
    assert change.id == "c1"


def test_entering_the_buy_zone_is_act_with_the_buy_path() -> None:
    change = only(change_list(make_plan(position="between"), snapshot(price_now("355", low="355")), TABLE))
    assert (change.kind, change.level, change.path) == ("zone_transition", "act", PATHS[0][0])


def test_a_stop_hit_is_act_and_names_the_stop_path() -> None:
    change = only(change_list(make_plan(), snapshot(price_now("340", low="339")), TABLE))
    assert (change.kind, change.level, change.rule) == ("stop_hit", "act", "stop.hit")
    assert change.path == PATHS[2][0] and "341.17" in change.detail


def test_a_stop_touched_intraday_is_watch() -> None:
    change = only(change_list(make_plan(), snapshot(price_now("352", low="341")), TABLE))
    assert (change.kind, change.level, change.rule) == ("stop_hit", "watch", "stop.touched")


def test_a_stop_already_hit_in_the_report_is_no_change() -> None:
    assert change_list(make_plan(position="stop_hit"), snapshot(price_now("340", low="339")), TABLE) == []


LIMITS = (Decimal("394.38"), Decimal("322.68"))


@pytest.mark.parametrize(
    ("action", "last", "kind", "level"),
    [
        ("hold", "394.38", "limit_up", "watch"),  # sealed, with the plan
        ("sell", "394.38", "limit_up", "act"),  # sealed against a sell
        ("buy", "322.68", "limit_down", "act"),  # sealed against a buy
        ("avoid", "322.68", "limit_down", "watch"),
    ],
)
def test_sealed_limits_are_watch_or_act_against_the_plan(action: str, last: str, kind: str, level: str) -> None:
    plan = make_plan(action=action, zones=None)
    change = only(change_list(plan, snapshot(price_now(last), limits=LIMITS), TABLE))
    assert (change.kind, change.level) == (kind, level)
    assert "ev-comp" in change.evidence


def test_a_limit_touched_and_left_is_a_note() -> None:
    price = price_now("380", high="394.38")
    change = only(change_list(make_plan(zones=None), snapshot(price, limits=LIMITS), TABLE))
    assert (change.kind, change.level, change.rule) == ("limit_up", "note", "limits.touched")


def test_limits_of_the_report_s_own_session_are_not_new() -> None:
    price = dataclasses.replace(price_now("394.38", day=REPORT_DAY), label="last_close", at=None)
    assert change_list(make_plan(zones=None), snapshot(price, limits=LIMITS), TABLE) == []


@pytest.mark.parametrize(
    ("capital", "main_net", "expected"),
    [
        ("outflow", "300000000", "watch"),
        ("inflow", "-300000000", "watch"),
        ("outflow", "-300000000", None),
        ("neutral", "300000000", None),
        ("inflow", "-1000000", None),
    ],
)
def test_money_flow_reversal_against_the_report_s_capital_state(
    capital: str, main_net: str, expected: str | None
) -> None:
    flow = FlowDay(NEXT_DAY, Decimal(main_net), Decimal("4300000000"))
    found = change_list(make_plan(capital=capital, zones=None), snapshot(price_now("358.53"), flow=flow), TABLE)
    if expected is None:
        assert found == []  # no reversal, nothing to reverse, or below 1% of the turnover
    else:
        change = only(found)
        assert (change.kind, change.level) == ("money_flow_reversal", expected)
        assert "300000000" in change.detail


def test_a_flow_of_the_report_s_own_session_is_not_a_reversal() -> None:
    flow = FlowDay(REPORT_DAY, Decimal("300000000"), None)
    assert change_list(make_plan(zones=None), snapshot(price_now("358.53"), flow=flow), TABLE) == []


@pytest.mark.parametrize(("ratio", "surge"), [("1.99", False), ("2.00", True), ("6.98", True)])
def test_a_volume_surge_at_the_table_s_threshold(ratio: str, surge: bool) -> None:
    found = change_list(make_plan(zones=None), snapshot(price_now("358.53"), volume_ratio=Decimal(ratio)), TABLE)
    assert [(c.kind, c.level) for c in found] == ([("volume_surge", "watch")] if surge else [])


def test_announcements_keep_their_category_level_and_thesis_level_news_is_full_analysis() -> None:
    at = datetime(2026, 11, 30, 9, 0, tzinfo=CN)
    news = (
        NewAnnouncement("A1", "示例：2026年度权益分派实施公告", "dividend", at, "note", False),
        NewAnnouncement(
            "A2", "示例：关于持股5%以上股东减持股份计划的预披露公告", "shareholder_reduction", at, "watch", True
        ),
    )  # a thesis-level category is full_analysis whatever level it carries
    found = change_list(make_plan(zones=None), snapshot(price_now("358.53"), announcements=news), TABLE)
    assert [(c.kind, c.level, c.thesis_level) for c in found] == [
        ("announcement", "note", False),
        ("announcement", "full_analysis", True),
    ]
    assert found[1].evidence == ("ev-ann", "ev-titles")


def test_ex_rights_since_the_report_is_full_analysis() -> None:
    found = change_list(make_plan(zones=None), snapshot(price_now("358.53"), ex_rights=(NEXT_DAY,)), TABLE)
    assert [(c.kind, c.level) for c in found] == [("ex_rights", "full_analysis")]


def test_data_gaps_are_watch_and_no_price_at_all_is_act() -> None:
    found = change_list(make_plan(), snapshot(None, failures=("money_flow: HTTP 503",)), TABLE)
    assert [(c.kind, c.level, c.rule) for c in found] == [
        ("data_gap", "watch", "data_gap.level"),
        ("data_gap", "act", "data_gap.no_price"),
    ]
    assert [c.id for c in found] == ["c1", "c2"]


def test_ex_rights_days_from_bars_and_a_live_reference() -> None:
    bars = [
        (date(2026, 11, 26), Decimal("10.00"), Decimal("9.90")),
        (date(2026, 11, 27), Decimal("10.20"), Decimal("10.00")),
        (date(2026, 11, 30), Decimal("9.80"), Decimal("9.70")),  # reference 9.70 after a close of 10.20
    ]
    assert ex_rights_days(bars, REPORT_DAY, None) == (date(2026, 11, 30),)
    assert ex_rights_days(bars[:2], REPORT_DAY, None) == ()
    live = dataclasses.replace(price_now("9.5", day=date(2026, 12, 1)), reference=Decimal("9.60"))
    assert ex_rights_days(bars[:2], REPORT_DAY, live) == (date(2026, 12, 1),)
    assert ex_rights_days(bars[:2], REPORT_DAY, dataclasses.replace(live, reference=Decimal("10.20"))) == ()
