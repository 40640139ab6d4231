"""Catalogue entries of the quick review's wording (keys are stable engine codes; see wording/__init__.py): each
change's detail and next check (stockbench.research.changes), the offline rules model's answers
(stockbench.research.quick_answers), the response levels and quick actions, and the announcement categories
(handbook tables/announcement_levels.toml, by key).

Figures are filled in as the change list writes them (`changes.show`), so an answer repeating a change's words
repeats its numbers, and the number gate finds them in the run's evidence in either language. The English
entries carry no figure of their own (a digit here would be a number no evidence holds).
"""

from __future__ import annotations

from stockbench.research.wording.entry import Entry

WORDS: dict[str, Entry] = {
    # ---- the response levels and the quick actions (resources/quick_review.toml) ----
    "quick.level.note": Entry("记录", "note"),
    "quick.level.watch": Entry("关注", "watch"),
    "quick.level.act": Entry("执行", "act"),
    "quick.level.full_analysis": Entry("完整分析", "full analysis"),
    "quick.action.keep_plan": Entry("计划不变", "keep the plan"),
    "quick.action.watch": Entry("观察", "watch"),
    "quick.action.follow_path": Entry("按路径执行", "follow the path"),
    "quick.action.protect": Entry("保护", "protect"),
    # ---- the facts the model reads ----
    "quick.facts.title": Entry(
        "快速复盘 {symbol}；基准报告 {report_id}", "Quick review of {symbol}; baseline {report_id}"
    ),
    "quick.plan.order": Entry("订单：{side} {qty} @ {price}", "Order: {side} {qty} @ {price}"),
    # ---- each change's detail and next check ----
    "quick.change.data_gap": Entry(
        "刷新失败：{reason}；沿用较早的数据（已标注）", "Refresh failed: {reason}; the older data stand (labelled)"
    ),
    "quick.next.data_gap": Entry("下一次刷新是否成功", "whether the next refresh succeeds"),
    "quick.change.no_price": Entry(
        "既没有现价也没有最近收盘价：无法对照计划",
        "Neither a current price nor a last close: the plan cannot be checked",
    ),
    "quick.change.stop_hit": Entry(
        "价格 {price} 跌至止损 {stop} 或以下", "The price {price} is at or below the stop {stop}"
    ),
    "quick.next.stop_hit": Entry("止损是否执行", "whether the stop is executed"),
    "quick.change.zone_transition": Entry(
        "价格 {price}：原先{old}，现在{new}（{note}）", "Price {price}: was {old}, now {new} ({note})"
    ),
    "quick.transition.in_buy": Entry(
        "进入买入区：报告的买入路径适用", "into the buy zone: the report's buy path applies"
    ),
    "quick.transition.in_sell": Entry(
        "进入卖出区：报告的卖出路径适用", "into the sell zone: the report's sell path applies"
    ),
    "quick.transition.below_buy": Entry("跌出买入区，未触及止损", "out of the buy zone downward, the stop not reached"),
    "quick.transition.above_sell": Entry(
        "越过卖出区：不追买，持仓者按卖出路径兑现",
        "past the sell zone: no chasing; a holder takes profit along the sell path",
    ),
    "quick.transition.between": Entry("回到两区之间", "back between the two zones"),
    "quick.change.stop_touched": Entry(
        "最低价 {low} 触及止损 {stop}，现价 {price} 已回到其上",
        "The low {low} reached the stop {stop}; the price {price} is back above it",
    ),
    "quick.next.stop_touched": Entry("收盘是否跌破止损", "whether the close falls below the stop"),
    "quick.next.stop": Entry("止损 {stop}", "the stop {stop}"),
    "quick.next.buy_bottom": Entry("买入区下沿", "the buy zone's bottom"),
    "quick.next.sell_top": Entry("卖出区上沿 {high}", "the sell zone's top {high}"),
    "quick.next.sell_zone": Entry("卖出区", "the sell zone"),
    "quick.next.above_sell": Entry("是否回落到卖出区内", "whether it falls back into the sell zone"),
    "quick.next.buy_zone": Entry("买入区 {low}-{high}", "the buy zone {low}-{high}"),
    "quick.limit.limit_up": Entry("涨停", "limit-up"),
    "quick.limit.limit_down": Entry("跌停", "limit-down"),
    "quick.change.limit_sealed": Entry(
        "现价 {price} 即{limit_word}价 {limit}（报告操作 {action}）",
        "The price {price} is the {limit_word} price {limit} (the report's action: {action})",
    ),
    "quick.next.limit_sealed": Entry("{limit_word}能否封住到收盘", "whether the {limit_word} holds to the close"),
    "quick.change.limit_touched": Entry(
        "盘中触及{limit_word}价 {limit}，现价 {price} 已离开",
        "The {limit_word} price {limit} was touched intraday; the price {price} has left it",
    ),
    "quick.next.limit_touched": Entry("是否再次触及", "whether it is touched again"),
    "quick.flow.inflow": Entry("流入", "inflow"),
    "quick.flow.outflow": Entry("流出", "outflow"),
    "quick.change.flow_reversal": Entry(
        "{day} 主力净{direction} {amount} 元，与报告的资金状态（{capital}）相反",
        "{day}: main net {direction} of {amount} yuan, against the report's capital state ({capital})",
    ),
    "quick.next.flow_reversal": Entry("下一交易日的主力净流向", "the main net flow of the next session"),
    "quick.change.volume_surge": Entry(
        "量比 {ratio}，达到放量阈值 {threshold}", "Volume ratio {ratio}, at or above the surge threshold {threshold}"
    ),
    "quick.next.volume_surge": Entry("放量的方向：收盘价落在哪个区间", "the surge's direction: where the close lands"),
    "quick.change.ex_rights": Entry(
        "{day} 除权除息：报告的区间仍在旧的价格尺度上",
        "{day} ex-rights / ex-dividend: the report's zones are still on the old price scale",
    ),
    "quick.next.ex_rights": Entry("完整分析按新尺度重算区间", "a full analysis recomputes the zones on the new scale"),
    "quick.news.thesis": Entry("论点级公告", "Thesis-level announcement"),
    "quick.news.new": Entry("新公告", "New announcement"),
    "quick.change.announcement": Entry(
        "{news}《{title}》（类别：{category}）", '{news} "{title}" (category: {category})'
    ),
    "quick.next.announcement": Entry(
        "公告全文（由完整分析读取）", "the announcement's full text (a full analysis reads it)"
    ),
    # ---- the offline rules model's answers, one per quick action ----
    "quick.answer.keep_plan": Entry(
        "{detail}。最低级别{level}：不影响计划，计划不变。",
        "{detail}. Minimum level {level}: the plan is unaffected and stands.",
    ),
    "quick.answer.watch": Entry("{detail}。下一个观察点：{next}。", "{detail}. Next to watch: {next}."),
    "quick.answer.watch_default": Entry("收盘价的区间位置", "where the close lands against the zones"),
    "quick.answer.follow_path": Entry(
        "{detail}。按报告的路径执行：{path}。", "{detail}. Following the report's path: {path}."
    ),
    "quick.answer.protect": Entry(
        "{detail}。先保护：暂停未成交的买单、不加仓，持仓按报告的止损{stop} 执行；随后需要完整分析。",
        "{detail}. Protect first: pause unfilled buy orders, add nothing, hold the position to the report's "
        "stop{stop}; then a full analysis is needed.",
    ),
    # ---- the announcement categories (handbook tables/announcement_levels.toml keys) ----
    "announcement.category.earnings_preannouncement": Entry("业绩预告、业绩快报、盈利预警", "earnings preannouncement"),
    "announcement.category.restructuring": Entry("重大资产重组", "major restructuring"),
    "announcement.category.control_change": Entry("控制权变更", "change of control"),
    "announcement.category.shareholder_reduction": Entry(
        "主要股东与董监高减持", "share reduction by major holders or insiders"
    ),
    "announcement.category.shareholder_increase": Entry(
        "主要股东与董监高增持", "share increase by major holders or insiders"
    ),
    "announcement.category.investigation_penalty": Entry("立案调查、行政处罚、纪律处分", "investigation or penalty"),
    "announcement.category.delisting_risk": Entry("退市风险警示", "delisting risk warning"),
    "announcement.category.audit_opinion": Entry("非标准审计意见、会计差错更正", "qualified audit opinion"),
    "announcement.category.major_litigation": Entry("重大诉讼与仲裁", "major litigation or arbitration"),
    "announcement.category.major_impairment": Entry("大额资产减值、商誉减值", "major impairment"),
    "announcement.category.major_contract": Entry("重大合同、中标", "major contract or tender won"),
    "announcement.category.buyback": Entry("回购", "buyback"),
    "announcement.category.equity_incentive": Entry("股权激励、员工持股", "equity incentive or employee shares"),
    "announcement.category.share_unlock": Entry("限售股解禁", "lock-up expiry"),
    "announcement.category.refinancing": Entry("定增、配股、可转债、公司债", "refinancing"),
    "announcement.category.regulatory_inquiry": Entry("问询函、关注函及回复", "regulatory inquiry"),
    "announcement.category.suspension": Entry("停牌", "trading suspension"),
    "announcement.category.resumption": Entry("复牌", "trading resumption"),
    "announcement.category.periodic_report": Entry("定期报告", "periodic report"),
    "announcement.category.dividend": Entry("利润分配、权益分派", "dividend or distribution"),
    "announcement.category.risk_warning": Entry("股票交易异常波动、风险提示", "unusual trading or risk notice"),
    "announcement.category.governance": Entry("公司治理事项", "governance"),
    "announcement.category.listing": Entry("首次公开发行与上市", "initial offering and listing"),
    "announcement.category.other": Entry("其他", "other"),
}
