"""Catalogue entries of the report's plan wording (keys are stable engine codes; see wording/__init__.py): the zones,
the plan's reward-to-risk and tradeability with their reason codes (stockbench.analytics.zones.PLAN_REASONS), and
the scenarios, each written from its move, its landing price and where it lands (stockbench.analytics.scenarios).
"""

from __future__ import annotations

from stockbench.research.wording.entry import Entry, Language

WORDS: dict[str, Entry] = {
    # ---- the plan's lines ----
    "plan.buy_zone": Entry(
        "买入区间：{low}-{high}（基准 {basis}；上沿距现价 {distance}%）",
        "Buy zone: {low}-{high} (built on {basis}; top {distance}% from the price)",
    ),
    "plan.sell_zone": Entry(
        "卖出区间：{low}-{high}（基准 {basis}；下沿距现价 {distance}%）",
        "Sell zone: {low}-{high} (built on {basis}; bottom {distance}% from the price)",
    ),
    "plan.stop": Entry("止损：{price}（距现价 {distance}%）", "Stop: {price} ({distance}% from the price)"),
    "plan.reward_risk": Entry(
        "盈亏比：{ratio}（按区间中点计，最低要求 {minimum}）",
        "Reward-to-risk: {ratio} (zone middles to the stop; minimum {minimum})",
    ),
    "plan.tradeable": Entry("计划可交易", "The plan is tradeable"),
    "plan.not_tradeable": Entry(
        "计划不可交易（不作为买入计划）：{reasons}", "The plan is not tradeable (no buy): {reasons}"
    ),
    "plan.reason.halted": Entry(
        "最新行情显示该股停牌或已退市，恢复交易前不能下单",
        "the latest quote says it is suspended or delisted: no order can trade until it trades again",
    ),
    "plan.reason.reward_risk_below_min": Entry(
        "盈亏比 {ratio} 低于最低要求 {minimum}", "reward-to-risk {ratio} is below the minimum {minimum}"
    ),
    "plan.reason.buy_out_of_reach": Entry(
        "买入区上沿在现价下方 {distance}%，超出可及范围",
        "the buy zone's top lies {distance}% under the price, out of reach",
    ),
    "plan.reason.stop_hit": Entry("价格已在止损位 {stop} 或其下方", "the price is at or below the stop {stop}"),
    "plan.reason.not_assessed": Entry("计划未经评估", "the plan was not assessed"),
    "plan.reason_join": Entry("；", "; "),
    "plan.path.not_tradeable": Entry(
        "本计划不可交易，不按此区间买入；重新研究后再定",
        "The plan is not tradeable: no buying here; research it again first",
    ),
    # ---- the scenarios ----
    "scenario.name.up": Entry("上涨", "up"),
    "scenario.name.sideways": Entry("横盘", "sideways"),
    "scenario.name.down": Entry("下跌", "down"),
    "scenario.view": Entry("判断：{narrative}", "View: {narrative}"),
    "scenario.text.up": Entry(
        "{horizon}个交易日内上涨{move}%或更多，至{price}附近，{where}",
        "rises {move}% or more within {horizon} sessions, to about {price}, {where}",
    ),
    "scenario.text.sideways": Entry(
        "{horizon}个交易日内涨跌均不足{move}%（{low}至{high}之间），在{price}附近，{where}",
        "moves less than {move}% either way within {horizon} sessions (between {low} and {high}), "
        "near {price}, {where}",
    ),
    "scenario.text.down": Entry(
        "{horizon}个交易日内下跌{move}%或更多，至{price}附近，{where}",
        "falls {move}% or more within {horizon} sessions, to about {price}, {where}",
    ),
    "scenario.text.unsized": Entry(
        "{horizon}个交易日内（缺少波动幅度，未计算落点）", "over {horizon} sessions (no volatility: no landing price)"
    ),
    "scenario.lands.above_sell": Entry(
        "高于卖出区{sell_low}-{sell_high}", "above the sell zone {sell_low}-{sell_high}"
    ),
    "scenario.lands.in_sell": Entry("位于卖出区{sell_low}-{sell_high}内", "in the sell zone {sell_low}-{sell_high}"),
    "scenario.lands.between": Entry(
        "处于买入区上沿{buy_high}与卖出区下沿{sell_low}之间",
        "between the buy zone's top {buy_high} and the sell zone's bottom {sell_low}",
    ),
    "scenario.lands.in_buy": Entry("位于买入区{buy_low}-{buy_high}内", "in the buy zone {buy_low}-{buy_high}"),
    "scenario.lands.below_buy": Entry(
        "低于买入区{buy_low}-{buy_high}，仍高于止损{stop}",
        "below the buy zone {buy_low}-{buy_high}, above the stop {stop}",
    ),
    "scenario.lands.below_stop": Entry("低于止损{stop}", "below the stop {stop}"),
}


def scenario_words(language: Language, name: str, lands: str | None, /, **values: object) -> str:
    """A scenario's text from its values: `move` (unsigned percent), `horizon`, `price` (where it lands), `low` and
    `high` (the sideways range), and the zone levels buy_low, buy_high, sell_low, sell_high, stop that `lands`
    (stockbench.analytics.scenarios.LANDS; None without a landing price) names."""
    if lands is None:
        return WORDS["scenario.text.unsized"].text(language).format(**values)
    where = WORDS[f"scenario.lands.{lands}"].text(language).format(**values)
    return WORDS[f"scenario.text.{name}"].text(language).format(where=where, **values)
