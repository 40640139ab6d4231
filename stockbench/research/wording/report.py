"""Catalogue entries of the report's frame: headings, labels, the names of states, positions and actions, the data
gates' reasons and the one table of gap words (keys are stable engine codes; see wording/__init__.py).

Terms follow the handbook's glossary (handbook/references/glossary-zh-en.md). A gap reads the same in every
report: its words come from `gap.<gate>` alone, whatever the gate's reason; the reason (`gate.<gate>.<code>` or
the shared `gate.<code>`) says why, with the gate's own figures, never an exception's text.
"""

from __future__ import annotations

from stockbench.messages import TIMES, VALUES
from stockbench.research.wording.entry import Entry

_FRAME: dict[str, Entry] = {
    # the heading block
    "report.title": Entry("{name}（{code}）：{action} — {reason}", "{name} ({code}): {action} — {reason}"),
    "report.title.bare": Entry("{name}（{code}）：{action}", "{name} ({code}): {action}"),
    "report.header.symbol": Entry("标的：{symbol}", "Symbol: {symbol}"),
    "report.header.run": Entry("运行：{run_id}", "Run: {run_id}"),
    "report.header.published": Entry("发布时间：{at}", "Published: {at}"),
    "report.header.as_of": Entry("研究时点：{at}", "Research as of: {at}"),
    # an instant as people read it, the zone named: the one catalogue's (stockbench.messages.TIMES)
    **{key: Entry(words.zh, words.en) for key, words in TIMES.items()},
    "report.header.model": Entry("模型：{model}", "Model: {model}"),
    "report.model.offline": Entry(
        "离线规则模型（未使用大语言模型）", "the offline rules model (no language model used)"
    ),
    # section headings
    "report.section.conclusion": Entry("结论", "Conclusion"),
    "report.section.scene": Entry("背景", "Context"),
    "report.section.data": Entry("数据与缺口", "Data and gaps"),
    "report.section.diagnosis": Entry("诊断", "Diagnosis"),
    "report.section.debate": Entry("多空辩论", "Bull and bear debate"),
    "report.section.plan": Entry("计划", "Plan"),
    "report.section.scenarios": Entry("情景", "Scenarios"),
    "report.section.risks": Entry("风险", "Risks"),
    "report.section.continuity": Entry("连续性", "Continuity"),
    "report.section.method": Entry("方法", "Method"),
    "report.section.disclaimer": Entry("声明", "Disclaimer"),
    # conclusion
    "report.conclusion.what_to_do_now": Entry("现在怎么做：{text}", "What to do now: {text}"),
    "report.conclusion.what_would_change_my_mind": Entry("什么会改变判断：{text}", "What would change my mind: {text}"),
    "report.conclusion.what_to_watch": Entry("需要盯住什么：{text}", "What to watch: {text}"),
    # scene
    "report.scene.sector": Entry("板块指数：{sector}", "Sector index: {sector}"),
    "report.scene.overseas": Entry("出海相关：{answer}", "Overseas-bound: {answer}"),
    "report.scene.peers": Entry("同业：{peers}", "Peers: {peers}"),
    "report.scene.anchors": Entry("海外锚点：{anchors}", "International anchors: {anchors}"),
    "report.none": Entry("无", "none"),
    "report.yes": Entry("是", "yes"),
    "report.no": Entry("否", "no"),
    "report.list_separator": Entry("、", ", "),
    # data and gaps
    "report.data.gate": Entry("{gate}：{status} — {reason}", "{gate}: {status} — {reason}"),
    "report.data.gap": Entry("缺口披露：{words}（{reason}）", "Gap disclosed: {words} ({reason})"),
    "report.data.handling": Entry("处理：{text}", "Handling: {text}"),
    "report.data.exception": Entry("按例外记录：所有来源都未能取得", "recorded as an exception: every source failed"),
    "report.data.all_passed": Entry("数据闸门全部通过", "Every data gate passed"),
    "report.data.no_search": Entry(
        "搜索：未配置搜索服务，本次未进行搜索", "Search: no search provider is configured; no search was run"
    ),
    "report.status.pass": Entry("通过", "passed"),
    "report.status.gap": Entry("缺口", "gap"),
    # diagnosis and debate
    "report.debate.bull": Entry("看多：", "Bull case:"),
    "report.debate.bear": Entry("看空：", "Bear case:"),
    "report.debate.verdict": Entry("裁决：", "Verdict:"),
    "report.verdict.strongest_case_for_selling": Entry("卖出的最强理由：{text}", "Strongest case for selling: {text}"),
    "report.verdict.most_likely_wrong": Entry("我最可能错在哪里：{text}", "Where I am most likely wrong: {text}"),
    "report.verdict.conflicting_evidence": Entry("互相冲突的证据：{text}", "Conflicting evidence: {text}"),
    "report.verdict.explanation": Entry(
        "反方是否足以推翻结论：{answer}。{text}", "Does the opposition overturn the call: {answer}. {text}"
    ),
    # plan
    "report.plan.action": Entry("操作：{action}（{baseline}）— {why}", "Action: {action} ({baseline}) — {why}"),
    "report.plan.baseline": Entry(
        "程序基线：{direction}，置信度 {confidence}", "program baseline: {direction}, confidence {confidence}"
    ),
    "report.plan.baseline_unknown": Entry(
        "程序基线：{direction}，置信度未知", "program baseline: {direction}, confidence unknown"
    ),
    "report.plan.no_baseline": Entry("无程序基线", "no program baseline"),
    "report.plan.baseline_reasons": Entry("程序基线的依据：{reasons}", "The baseline's grounds: {reasons}"),
    "report.plan.baseline_join": Entry("；", "; "),
    "report.plan.position_state": Entry("持仓状态：{state}", "Position state: {state}"),
    "report.plan.account": Entry("读取账户：{account}", "Account read: {account}"),
    "report.quotes.heading": Entry("引文及其出处", "Quotes and their sources"),
    "report.quotes.source": Entry("出处：证据 {evidence}", "Source: evidence {evidence}"),
    "report.plan.no_account": Entry(
        "未读取账户：本报告不知道你的持仓、现金与挂单",
        "No account read: this report does not know your holdings, cash or orders",
    ),
    "report.plan.price": Entry("价格位置：{position}", "Price position: {position}"),
    "report.plan.buy_zone": Entry("买入区：{low}-{high}", "Buy zone: {low}-{high}"),
    "report.plan.sell_zone": Entry("卖出区：{low}-{high}", "Sell zone: {low}-{high}"),
    "report.plan.stop": Entry("止损：{price}", "Stop: {price}"),
    "report.plan.no_zones": Entry("区间：无（程序未能计算区间）", "Zones: none (the program could not compute them)"),
    "report.plan.order": Entry("订单：{side} {qty} 股，限价 {price}", "Order: {side} {qty} shares at {price}"),
    "report.plan.path": Entry("路径：{trigger} → {action}", "Path: {trigger} → {action}"),
    "report.plan.open_order": Entry(
        "未成交订单 {order_id}：{decision}（{reason}）", "Open order {order_id}: {decision} ({reason})"
    ),
    "report.side.buy": Entry("买入", "buy"),
    "report.side.sell": Entry("卖出", "sell"),
    "report.order.KEEP": Entry("保留", "keep"),
    "report.order.MODIFY": Entry("修改", "modify"),
    "report.order.CANCEL": Entry("撤销", "cancel"),
    # scenarios
    "report.scenario": Entry("{name}（概率 {probability}）：{text}", "{name} (probability {probability}): {text}"),
    "report.scenario.bare": Entry("{name}（概率 {probability}）", "{name} (probability {probability})"),
    # continuity
    "report.continuity.old_plan": Entry("旧计划：{text}", "Old plan: {text}"),
    "report.continuity.what_happened": Entry("发生了什么：{text}", "What happened: {text}"),
    "report.continuity.what_changed": Entry("什么变了：{text}", "What changed: {text}"),
    "report.continuity.what_to_do": Entry("怎么做：{text}", "What to do: {text}"),
    # method and disclaimer
    "report.method": Entry("方法手册版本 hb-{version}", "Handbook version hb-{version}"),
    "report.disclaimer": Entry(
        "本报告为研究记录，不构成投资建议；程序不会下单，持仓只随你确认的成交而变化。",
        "Research, not investment advice. Nothing is traded; holdings change only through fills you confirm.",
    ),
}

_NAMES: dict[str, Entry] = {  # the actions' words are `action.<code>` (actions.py), the scenarios' `scenario.name.*`
    # position states (handbook 7.1): the one catalogue's (stockbench.messages VALUES), which refusals say too
    **{key: Entry(words.zh, words.en) for key, words in VALUES.items() if key.startswith("position_state.")},
    # price positions against the zones (handbook 6.2)
    "position.stop_hit": Entry("触及止损", "at or below the stop"),
    "position.below_buy": Entry("低于买入区", "below the buy zone"),
    "position.in_buy": Entry("在买入区内", "in the buy zone"),
    "position.between": Entry("在买入区与卖出区之间", "between the buy and sell zones"),
    "position.in_sell": Entry("在卖出区内", "in the sell zone"),
    "position.above_sell": Entry("高于卖出区", "above the sell zone"),
    # states of the rule tables (handbook 4)
    "state.trend": Entry("趋势状态", "trend"),
    "state.capital": Entry("资金状态", "capital flow"),
    "state.relative_strength": Entry("相对强弱", "relative strength"),
    "state.volatility": Entry("波动状态", "volatility"),
    "state.trend.strong_up": Entry("强势上升", "strong uptrend"),
    "state.trend.up": Entry("上升", "up"),
    "state.trend.range": Entry("震荡", "range-bound"),
    "state.trend.down": Entry("下降", "down"),
    "state.trend.strong_down": Entry("强势下降", "strong downtrend"),
    "state.capital.inflow": Entry("净流入", "net inflow"),
    "state.capital.neutral": Entry("中性", "neutral"),
    "state.capital.outflow": Entry("净流出", "net outflow"),
    "state.relative_strength.leading": Entry("领先", "leading"),
    "state.relative_strength.inline": Entry("同步", "in line"),
    "state.relative_strength.lagging": Entry("落后", "lagging"),
    "state.volatility.low": Entry("低", "low"),
    "state.volatility.normal": Entry("正常", "normal"),
    "state.volatility.high": Entry("高", "high"),
    "state.volatility.extreme": Entry("极端", "extreme"),
    "state.unknown": Entry("未知", "unknown"),
}

_GATES: dict[str, Entry] = {
    # the data gates' names
    "gate.fresh_quote": Entry("最新行情", "fresh quote"),
    "gate.daily_bars": Entry("日线", "daily bars"),
    "gate.financials": Entry("财务报表", "financial statements"),
    "gate.announcements": Entry("公告", "announcements"),
    "gate.money_flow": Entry("资金流向", "money flow"),
    "gate.valuation_history": Entry("估值历史", "valuation history"),
    # what a series gate counted
    "gate.count.daily_bars": Entry("{rows} 根日线", "{rows} daily bars"),
    "gate.count.money_flow": Entry("{rows} 个交易日的资金流向", "{rows} days of money flow"),
    "gate.count.valuation_history": Entry("{rows} 个交易日的估值历史", "{rows} days of valuation history"),
    "gate.count.financials": Entry("{rows} 个报告期", "{rows} reporting periods"),
    # why, by reason code (`gate.<name>.<code>` where a gate words it its own way, else `gate.<code>`)
    "gate.none": Entry("工作区没有存储这类数据", "none is stored in the workspace"),
    "gate.current": Entry("{count}，来自{source}（{first} 至 {last}）", "{count} from {source} ({first} to {last})"),
    "gate.too_few": Entry(
        "{count}，来自{source}（{first} 至 {last}），至少需要 {minimum}",
        "{count} from {source} ({first} to {last}); at least {minimum} are needed",
    ),
    "gate.too_few.young": Entry(
        "{count}，来自{source}（{first} 至 {last}），至少需要 {minimum}；{listed} 上市，尚无更多数据",
        "{count} from {source} ({first} to {last}); at least {minimum} are needed; listed on {listed}, no more exist",
    ),
    "gate.currency_unknown": Entry(
        "{count}，来自{source}（{first} 至 {last}）；交易日历未知，无法判断是否最新",
        "{count} from {source} ({first} to {last}); the trading calendar is unknown, so currency cannot be checked",
    ),
    "gate.stale": Entry(
        "{count}，来自{source}（{first} 至 {last}）；"
        "最新一条落后最近交易日 {session} 共 {lag} 个交易日（至多允许 {allowed} 个）",
        "{count} from {source} ({first} to {last}); the latest is {lag} sessions behind the last session {session} "
        "(at most {allowed} allowed)",
    ),
    "gate.session_unknown": Entry("交易时段未知（交易日历缺失）", "the session is unknown (no trading calendar)"),
    "gate.no_close": Entry(
        "休市；没有存储截至 {session} 的收盘价", "market closed; no close up to {session} is stored"
    ),
    "gate.close_stale": Entry(
        "休市；存储的最新收盘价为 {day} 的 {price}，但最近交易日是 {session}",
        "market closed; the last close stored is {price} of {day}, but the last session was {session}",
    ),
    "gate.last_close": Entry(
        "休市；最新收盘价 {price}（{day}，来源：{source}）", "market closed; last close {price} on {day} from {source}"
    ),
    "gate.no_quote": Entry("交易时段内，没有存储报价", "the market is open and no quote is stored"),
    "gate.quote_stale": Entry(
        "最新价 {price}（{at}，来源：{source}），已过 {age} 分钟（至多允许 {limit} 分钟）",
        "last {price} at {at} from {source}, {age} minutes old (at most {limit} allowed)",
    ),
    "gate.quote_stale.delayed": Entry(
        "最新价 {price}（{at}，来源：{source}，该来源行情延时 {delay} 分钟），"
        "扣除延时后已过 {late} 分钟（至多允许 {limit} 分钟）",
        "last {price} at {at} from {source} (its quotes are {delay} minutes late), {late} minutes old beyond that "
        "delay (at most {limit} allowed)",
    ),
    "trading_status.trading": Entry("正常交易", "trading"),
    "trading_status.suspended": Entry("停牌", "suspended"),
    "trading_status.delisted": Entry("已退市", "delisted"),
    "trading_status.not_listed": Entry("尚未上市", "not listed"),
    "gate.not_listed": Entry(
        "截至 {day} 尚未上市（{listed} 上市）：没有可据以交易的价格",
        "not listed yet on {day} (it lists on {listed}): there is no price to act on",
    ),
    "gate.halted": Entry(
        "最新报价 {price}（{at}，来源：{source}）显示该证券{state}：没有可据以交易的价格",
        "last {price} at {at} from {source}: the quote says it is {state}, so there is no price to act on",
    ),
    "gate.conflicting": Entry(
        "最新价 {price}（{at}，来源：{source}）：两个数据源的{field_words}不一致"
        "（{source_a} {value_a}，{source_b} {value_b}），未取平均，也未择一采用",
        "last {price} at {at} from {source}: the services disagree on the {field_words} ({source_a} {value_a}, "
        "{source_b} {value_b}); neither is averaged nor chosen",
    ),
    "gate.volume_conflicting": Entry(
        "最新价 {price}（{at}，来源：{source}）：两个数据源的成交量不一致"
        "（{source_a} {value_a} 股，{source_b} {value_b} 股），未取平均，也未择一采用",
        "last {price} at {at} from {source}: the services disagree on the volume ({source_a} {value_a} shares, "
        "{source_b} {value_b} shares); neither is averaged nor chosen",
    ),
    "quote_field.last": Entry("最新价", "last price"),
    "quote_field.prev_close": Entry("昨收价", "previous close"),
    "gate.live": Entry(
        "最新价 {price}（{at}，来源：{source}），{age} 分钟前", "last {price} at {at} from {source}, {age} minutes old"
    ),
    "gate.delayed": Entry(
        "延时行情：最新价 {price}（{at}，来源：{source}，该来源行情延时 {delay} 分钟），{age} 分钟前",
        "a delayed quote: last {price} at {at} from {source} (its quotes are {delay} minutes late), {age} minutes old",
    ),
    "gate.fetched": Entry(
        "{start} 至 {end} 的公告已从{source}取得，期间共 {count} 条",
        "the announcements of {start} to {end} were fetched from {source}: {count} in the period",
    ),
    "gate.stored": Entry(
        "已存储 {start} 至 {end} 的公告 {count} 条，取得于期末之后",
        "{count} announcements of {start} to {end} are stored, fetched after the period ended",
    ),
    "gate.fetch_failed": Entry(
        "{start} 至 {end} 的公告未能取得（{failures}）",
        "the announcements of {start} to {end} could not be fetched ({failures})",
    ),
    "gate.not_fetched": Entry(
        "{start} 至 {end} 的公告尚未取得", "the announcements of {start} to {end} have not been fetched"
    ),
    "gate.unworded": Entry("原因未分类", "reason not classified"),
    # the data sources a gate names (stockbench.data: providers, the importer's formats, the demo market)
    "source.community": Entry("社区数据文件", "the community data file"),
    "source.user_csv": Entry("用户导入的表格文件", "your imported CSV file"),
    "source.demo": Entry("演示数据", "the demo market"),
    "source.tencent": Entry("腾讯财经", "Tencent Finance"),
    "source.sina": Entry("新浪财经", "Sina Finance"),
    "source.eastmoney": Entry("东方财富", "Eastmoney"),
    "source.cninfo": Entry("巨潮资讯网", "CNINFO"),
    "gate.failure": Entry("{source}：{failure}", "{source}: {failure}"),
    # why a fetch failed (stockbench.data.http.FailureKind)
    "failure.network": Entry("网络连接失败", "the network connection failed"),
    "failure.http_status": Entry("服务返回错误状态", "the service answered with an error status"),
    "failure.blocked": Entry("被数据源拒绝", "the source refused the request"),
    "failure.unparseable": Entry("返回内容无法解析", "the response could not be read"),
    "failure.empty": Entry("返回为空", "the response was empty"),
    "failure.unknown_symbol": Entry("数据源不认识该代码", "the source does not know the symbol"),
    "failure.unsupported": Entry("数据源不提供这类数据", "the source does not offer this data"),
    "failure.not_recorded": Entry("回放的录制中没有这次请求的应答", "the replayed recording holds no answer to it"),
    "failure.unknown": Entry("原因不明", "for an unknown reason"),
}

# The one table of gap words: what is missing, and what that means for the report (whatever the reason, except where
# a reason code has words of its own: `gap.<gate>.<code>`, filled from the gate's figures).
_GAPS: dict[str, Entry] = {
    "gap.fresh_quote": Entry(
        "缺少当前价格，区间位置以最近收盘价为准且未经核实",
        "no current price: zone positions rest on an unverified last close",
    ),
    "gap.fresh_quote.not_listed": Entry(
        "尚未上市（{listed} 上市）：此前没有任何价格，区间位置与下单规模均无从谈起",
        "not listed yet (it lists on {listed}): there is no price before then, so no zone position or order size",
    ),
    "gap.fresh_quote.volume_conflicting": Entry(
        "两个数据源的成交量不一致：量比、放量等量能读数未经核实",
        "the services disagree on the volume: volume readings (volume ratio, heavy volume) are unverified",
    ),
    "gap.daily_bars": Entry(
        "日线缺失或不足，指标、状态与区间的可靠性降低",
        "daily bars missing or too few: indicators, states and zones are less reliable",
    ),
    "gap.financials": Entry(
        "财务报表缺失或不足，盈利质量与估值无法完整判断",
        "financial statements missing or too few: earnings quality and valuation cannot be judged in full",
    ),
    "gap.announcements": Entry(
        "公告未取得，可能遗漏论点级事件", "announcements missing: a thesis-level event may be missed"
    ),
    "gap.money_flow": Entry("资金流向缺失，资金状态未知", "money flow missing: the capital state is unknown"),
    "gap.valuation_history": Entry(
        "估值历史缺失，估值分位未知，无法确认买点",
        "valuation history missing: the valuation percentile is unknown, so no buy point can be confirmed",
    ),
    "gap.other": Entry("数据缺失", "data missing"),
}

WORDS: dict[str, Entry] = {**_FRAME, **_NAMES, **_GATES, **_GAPS}

# ---- the offline rules model's prose (stockbench/research/offline_prose.py): keys "offline.*" ----------------
# Every figure is a field copied from a facts block; a sentence never states a number of its own.
_OFFLINE: dict[str, Entry] = {
    "offline.label": Entry("离线规则模型（未使用大语言模型）", "offline rules model (no language model used)"),
    "offline.term.anchor.ma": Entry("{sessions}日均线", "the {sessions}-day MA"),
    "offline.rel.above": Entry("高于", "above"),
    "offline.rel.below": Entry("低于", "below"),
    "offline.rel.at": Entry("等于", "at"),
    "offline.list": Entry("当时{items}", "its {items}"),
    "offline.comma": Entry("，", ", "),
    "offline.then": Entry("{first}；{second}", "{first}; {second}"),
    "offline.based_on": Entry("（卖出区以{anchor} {price} 为基准）", " (the sell zone is built on {anchor} {price})"),
    "offline.term.anchor.swing_low": Entry("波段低点", "the swing low"),
    "offline.term.anchor.swing_high": Entry("波段高点", "the swing high"),
    "offline.term.anchor.high_52w": Entry("一年内最高价", "the one-year high"),
    "offline.term.anchor.volume_node": Entry("成交密集区", "the volume node"),
    "offline.term.anchor.valuation_band": Entry("估值带", "the valuation band"),
    "offline.term.anchor.atr_band": Entry("平均真实波幅投影", "the ATR projection"),
    # the facts each side argues from (finding.*) and their short names (label.*)
    "offline.finding.trend": Entry(
        "趋势{trend}：收盘 {close} {rel_close} 60日均线 {ma60}，20日均线 {ma20} {rel_ma20} 60日均线",
        "Trend state {trend}: the close {close} is {rel_close} the 60-day MA {ma60}, and the 20-day MA {ma20} is "
        "{rel_ma20} the 60-day MA",
    ),
    "offline.label.trend": Entry("趋势{trend}", "the trend state ({trend})"),
    "offline.finding.stop_hit": Entry(
        "收盘 {close} 已在止损 {stop} 或以下，按计划应离场",
        "The close {close} is at or below the stop {stop}: the plan says exit",
    ),
    "offline.label.stop_hit": Entry("价格已触及止损", "a price already at the stop"),
    "offline.finding.above_sell": Entry(
        "收盘 {close} 已高于卖出区间上沿 {high}{based}", "The close {close} is above the sell zone's top {high}{based}"
    ),
    "offline.label.above_sell": Entry("价格高于卖出区", "a price above the sell zone"),
    "offline.finding.in_sell": Entry(
        "收盘 {close} 位于卖出区间 {low}-{high} 内{based}",
        "The close {close} is inside the sell zone {low}-{high}{based}",
    ),
    "offline.label.in_sell": Entry("价格已在卖出区内", "a price already in the sell zone"),
    "offline.finding.in_buy": Entry(
        "收盘 {close} 位于买入区间 {low}-{high} 内", "The close {close} is inside the buy zone {low}-{high}"
    ),
    "offline.label.in_buy": Entry("价格在买入区内", "a price in the buy zone"),
    "offline.finding.below_buy": Entry(
        "收盘 {close} 低于买入区间下沿 {low}", "The close {close} is under the buy zone's bottom {low}"
    ),
    "offline.label.below_buy": Entry("价格低于买入区", "a price under the buy zone"),
    "offline.finding.ma250_bear_pct": Entry(
        "收盘 {close} 低于 250日均线 {ma250} 达 {distance}%，长期均线仍在上方压制",
        "The close {close} is {distance}% below the 250-day MA {ma250}: the long average still caps it",
    ),
    "offline.label.ma250_bear_pct": Entry("收盘在250日均线之下", "a close under the 250-day MA"),
    "offline.finding.ma250_bear": Entry(
        "收盘 {close} 低于 250日均线 {ma250}，长期均线仍在上方压制",
        "The close {close} is below the 250-day MA {ma250}: the long average still caps it",
    ),
    "offline.label.ma250_bear": Entry("收盘在250日均线之下", "a close under the 250-day MA"),
    "offline.finding.ma250_bull_pct": Entry(
        "收盘 {close} 高于 250日均线 {ma250} 达 {distance}%，长期趋势向上",
        "The close {close} is {distance}% above the 250-day MA {ma250}: the long trend points up",
    ),
    "offline.label.ma250_bull_pct": Entry("收盘在250日均线之上", "a close over the 250-day MA"),
    "offline.finding.ma250_bull": Entry(
        "收盘 {close} 高于 250日均线 {ma250}，长期趋势向上",
        "The close {close} is above the 250-day MA {ma250}: the long trend points up",
    ),
    "offline.label.ma250_bull": Entry("收盘在250日均线之上", "a close over the 250-day MA"),
    "offline.finding.ma250_extended": Entry(
        "收盘 {close} 高于 250日均线 {ma250} 达 {distance}%，超过决策基线的过热上限 {limit}%："
        "回到长期均线需要更大的跌幅",
        "The close {close} stands {distance}% above the 250-day MA {ma250}, beyond the decision baseline's "
        "overheating limit of {limit}%: a return to the long average would take a larger fall",
    ),
    "offline.label.ma250_extended": Entry("偏离250日均线过远", "the stretch above the 250-day MA"),
    "offline.finding.special_delisting": Entry(
        "{flag}（退市风险警示）：公司面临终止上市的风险；日涨跌幅限制 {limit}%",
        "{flag} (a delisting risk warning): the company faces delisting; its daily price limit is {limit}%",
    ),
    "offline.label.special_delisting": Entry("退市风险警示（{flag}）", "the delisting risk warning ({flag})"),
    "offline.finding.special_other": Entry(
        "{flag}（其他风险警示）：交易所认定公司财务或经营存在异常；日涨跌幅限制 {limit}%",
        "{flag} (other risk warning): the exchange flags abnormal finances or operations; its daily price limit"
        " is {limit}%",
    ),
    "offline.label.special_other": Entry("其他风险警示（{flag}）", "the {flag} risk warning"),
    "offline.finding.drawdown_pct": Entry(
        "收盘较一年内最高价 {high} 已回撤 {drawdown}%", "The close is {drawdown}% below the one-year high {high}"
    ),
    "offline.label.drawdown_pct": Entry("距一年内高点的回撤", "the drawdown from the one-year high"),
    "offline.finding.below_high": Entry(
        "收盘 {close} 低于一年内最高价 {high}（前复权）",
        "The close {close} is under the one-year high {high} (forward-adjusted)",
    ),
    "offline.label.below_high": Entry("价格低于一年内高点", "a price under the one-year high"),
    "offline.finding.volatility": Entry(
        "波动{state}：14日平均真实波幅 {atr}，平均真实波幅占收盘价的比例在过去一年中处于 {rank} 分位",
        "Volatility state {state}: 14-day ATR {atr}; the ATR as a share of the close ranks {rank} within its past year",
    ),
    "offline.label.volatility": Entry("波动{state}", "volatility ({state})"),
    "offline.finding.capital_outflow": Entry(
        "资金状态为净流出：主力净额占成交额 5日 {short}%、20日 {long}%",
        "Capital flow is a net outflow: main net flow over turnover {short}% over 5 sessions and {long}% over 20 "
        "sessions",
    ),
    "offline.label.capital_outflow": Entry("主力资金净流出", "the main-force outflow"),
    "offline.finding.capital_inflow": Entry(
        "资金状态为净流入：主力净额占成交额 5日 {short}%、20日 {long}%",
        "Capital flow is a net inflow: main net flow over turnover {short}% over 5 sessions and {long}% over 20 "
        "sessions",
    ),
    "offline.label.capital_inflow": Entry("主力资金净流入", "the main-force inflow"),
    "offline.finding.relative_lagging": Entry(
        "相对 {sector} 的强弱为落后：20日超额 {short}%，60日超额 {long}%",
        "Relative strength against {sector} is lagging: excess {short}% over 20 sessions and {long}% over 60 sessions",
    ),
    "offline.label.relative_lagging": Entry("相对强弱落后", "lagging relative strength"),
    "offline.finding.relative_leading": Entry(
        "相对 {sector} 的强弱为领先：20日超额 {short}%，60日超额 {long}%",
        "Relative strength against {sector} is leading: excess {short}% over 20 sessions and {long}% over 60 sessions",
    ),
    "offline.label.relative_leading": Entry("相对强弱领先", "leading relative strength"),
    "offline.finding.valuation_bear": Entry(
        "市盈率TTM {pe} 倍，处于自身历史 {percentile} 分位，估值偏高",
        "P/E TTM {pe}x, at the {percentile} percentile of its own history: a high valuation",
    ),
    "offline.label.valuation_bear": Entry("估值分位偏高", "a high valuation percentile"),
    "offline.finding.valuation_bull": Entry(
        "市盈率TTM {pe} 倍，处于自身历史 {percentile} 分位，估值偏低",
        "P/E TTM {pe}x, at the {percentile} percentile of its own history: a low valuation",
    ),
    "offline.label.valuation_bull": Entry("估值分位偏低", "a low valuation percentile"),
    "offline.finding.none_bull": Entry(
        "规则表没有看多的状态：趋势{trend}、资金{capital}，收盘 {close} {position}",
        "No rule-table state argues for buying: trend {trend}, capital {capital}, the close {close} {position}",
    ),
    "offline.finding.none_bear": Entry(
        "规则表没有看空的状态：趋势{trend}、资金{capital}，收盘 {close} {position}",
        "No rule-table state argues for selling: trend {trend}, capital {capital}, the close {close} {position}",
    ),
    "offline.label.none_bear": Entry("没有看空的状态", "no bearish state"),
    "offline.finding.stop": Entry(
        "止损 {stop}：收盘跌破即按计划离场（收盘 {close}，14日平均真实波幅 {atr}）",
        "The stop {stop}: a close below it exits the plan (close {close}, 14-day ATR {atr})",
    ),
    "offline.label.stop": Entry("止损被触及的风险", "the risk of the stop being hit"),
    "offline.finding.gap": Entry("数据缺口（{gate}）：{words}", "Data gap ({gate}): {words}"),
    "offline.label.gap": Entry("数据缺口（{gate}）", "the {gate} data gap"),
    # each finding's figure: its label with its key number (the verdict's explanation names the strongest so)
    "offline.figure.trend": Entry(
        "趋势{trend}，收盘 {close} {rel_close} 60日均线 {ma60}",
        "trend state {trend}, close {close} {rel_close} the 60-day MA {ma60}",
    ),
    "offline.figure.stop_hit": Entry(
        "收盘 {close} 已在止损 {stop} 或以下", "the close {close} at or below the stop {stop}"
    ),
    "offline.figure.above_sell": Entry(
        "收盘 {close} 高于卖出区上沿 {high}", "the close {close} over the sell zone's top {high}"
    ),
    "offline.figure.in_sell": Entry(
        "收盘 {close} 在卖出区间 {low}-{high} 内", "the close {close} inside the sell zone {low}-{high}"
    ),
    "offline.figure.ma250_bear_pct": Entry(
        "收盘低于 250日均线 {distance}%", "a close {distance}% under the 250-day MA"
    ),
    "offline.figure.ma250_bear": Entry(
        "收盘 {close} 低于 250日均线 {ma250}", "the close {close} under the 250-day MA {ma250}"
    ),
    "offline.figure.ma250_extended": Entry(
        "收盘高于 250日均线 {distance}%", "a close {distance}% above the 250-day MA"
    ),
    "offline.figure.drawdown_pct": Entry(
        "距一年内高点回撤 {drawdown}%", "a {drawdown}% drawdown from the one-year high"
    ),
    "offline.figure.below_high": Entry(
        "收盘 {close} 低于一年内最高价 {high}", "the close {close} under the one-year high {high}"
    ),
    "offline.figure.volatility": Entry("波动{state}，14日平均真实波幅 {atr}", "volatility {state}, 14-day ATR {atr}"),
    "offline.figure.capital_outflow": Entry(
        "主力净额占成交额 20日 {long}%", "main net flow over turnover {long}% over 20 sessions"
    ),
    "offline.figure.relative_lagging": Entry(
        "相对 {sector} 60日超额 {long}%", "excess {long}% against {sector} over 60 sessions"
    ),
    "offline.figure.valuation_bear": Entry("市盈率TTM {pe} 倍", "P/E TTM {pe}x"),
    "offline.figure.none_bear": Entry("没有看空的状态，收盘 {close}", "no bearish state, close {close}"),
    "offline.figure.stop": Entry("止损 {stop}", "the stop {stop}"),
    # where the call is most likely wrong
    "offline.finding.wrong.trend_long": Entry(
        "{action}依赖趋势{trend}：收盘 {close} 一旦跌回 60日均线 {ma60} 之下，这一判断即被推翻",
        "The call ({action}) leans on the trend state {trend}: a close back under the 60-day MA {ma60} (close now "
        "{close}) "
        "overturns it",
    ),
    "offline.finding.wrong.trend_flat_up": Entry(
        "{action}没有跟随趋势{trend}：收盘 {close} 在 60日均线 {ma60} 之上，若趋势延续，{action}会错过上涨",
        "The call ({action}) does not follow the trend state {trend}: the close {close} is over the 60-day MA {ma60}, "
        "and if "
        "the trend runs on, it misses the rise",
    ),
    "offline.finding.wrong.trend_flat_down": Entry(
        "{action}依赖趋势{trend}：若收盘重新站上 60日均线 {ma60}（现收盘 {close}），{action}的理由即不成立",
        "The call ({action}) leans on the trend state {trend}: a close back over the 60-day MA {ma60} (close now "
        "{close}) "
        "removes its reason",
    ),
    "offline.finding.wrong.against_trend": Entry(
        "{action}与趋势{trend}相反：收盘 {close} 在 60日均线 {ma60} 之下，下降若延续，买入区的支撑可能失效",
        "The call ({action}) runs against the trend state {trend}: the close {close} is under the 60-day MA {ma60}, "
        "and if "
        "the fall runs on, the buy zone may not hold",
    ),
    "offline.finding.wrong.support": Entry(
        "{action}依赖买入区间 {low}-{high} 的支撑：收盘跌破止损 {stop} 即证明判断错误",
        "The call ({action}) leans on the buy zone {low}-{high} holding: a close below the stop {stop} proves it wrong",
    ),
    "offline.finding.wrong.breakout": Entry(
        "{action}依赖价格不会突破：若升破卖出区间上沿 {high}（趋势{trend}），{action}会错过上涨",
        "The call ({action}) leans on no breakout: a rise over the sell zone's top {high} (trend state {trend}) "
        "would miss the move",
    ),
    "offline.finding.wrong.no_zones": Entry(
        "{action}依赖趋势{trend}，而程序未能计算区间，没有价位可以检验它",
        "The call ({action}) leans on the trend state {trend}, and with no zones computed no level can test it",
    ),
    # conflicting evidence, and how the call weighs it
    "offline.weigh.long": Entry(
        "以趋势与区间为主，止损 {stop} 限定了判断错误的代价",
        "the trend and the zones weigh more, and the stop {stop} caps the cost of being wrong",
    ),
    "offline.weigh.flat": Entry(
        "以风险为主，等价格回到买入区间 {low}-{high} 再看", "the risk weighs more: wait for the buy zone {low}-{high}"
    ),
    "offline.weigh.avoid": Entry(  # an avoid never waits for its buy zone (issue 18: no buy path under avoid)
        "以风险为主：不建仓，即便价格进入买入区间 {low}-{high} 也先重新分析",
        "the risk weighs more: no position, and even in the buy zone {low}-{high}, analyse again first",
    ),
    "offline.weigh.flat_in_buy": Entry(
        "以风险为主：价格已在买入区间 {low}-{high} 内，价位本身不是建仓的理由",
        "the risk weighs more: the price is already in the buy zone {low}-{high}, and the level alone is no reason "
        "to open a position",
    ),
    "offline.finding.conflict.under_ma250": Entry(
        "趋势{trend}，但收盘 {close} 仍低于 250日均线 {ma250}：短期上行发生在长期均线之下；{weigh}",
        "The trend state is {trend}, yet the close {close} is still below the 250-day MA {ma250}: a short rise under "
        "the long "
        "average; {weigh}",
    ),
    "offline.finding.conflict.up_in_sell": Entry(
        "趋势{trend}，但收盘 {close} 已在卖出区间 {low}-{high} 内：趋势支持持有，区间提示减仓；{weigh}",
        "The trend state is {trend}, yet the close {close} is already in the sell zone {low}-{high}: the trend says "
        "hold, the zone says trim; {weigh}",
    ),
    "offline.finding.conflict.down_in_buy": Entry(
        "收盘 {close} 位于买入区间 {low}-{high} 内，但趋势{trend}：区间支持买入，趋势不支持；{weigh}",
        "The close {close} is in the buy zone {low}-{high}, but the trend state is {trend}: the zone says buy, "
        "the trend does not; {weigh}",
    ),
    "offline.conflict.sides": Entry("看多：{bull}；看空：{bear}；{weigh}", "For: {bull}; against: {bear}; {weigh}"),
    "offline.conflict.none": Entry(
        "没有直接冲突的证据：{fact}；{weigh}", "No evidence conflicts directly: {fact}; {weigh}"
    ),
    # does the opposition overturn the call
    "offline.explain.long": Entry(
        "{name}的程序基线为{baseline}（置信度 {confidence}），本次{action}；看空方最强的论点是{strongest}，"
        "不足以推翻结论：其代价由止损 {stop} 限定",
        "{name}'s program baseline is {baseline} (confidence {confidence}) and the call is {action}; the bear side's "
        "strongest point, {strongest}, does not overturn it: the stop {stop} caps its cost",
    ),
    "offline.explain.flat": Entry(
        "{name}的程序基线为{baseline}（置信度 {confidence}），本次{action}；看空方最强的论点（{strongest}）"
        "支持这一结论，看多方的论点不足以推翻它",
        "{name}'s program baseline is {baseline} (confidence {confidence}) and the call is {action}; the bear side's "
        "strongest point, {strongest}, supports it, and the bull side's points do not overturn it",
    ),
    # continuity: the old plan, what happened, what changed, what to do
    "offline.continuity.none": Entry("没有以往报告", "no previous report"),
    "offline.continuity.refused": Entry(
        "以往报告 {reports} 未通过封存校验，已被程序拒用，不引用其内容",
        "earlier reports {reports} failed their seal check and were refused: their contents are not used",
    ),
    "offline.continuity.old_plan_bare": Entry(
        "上次报告 {report} 的操作为{action}", "The previous report {report} had the action {action}"
    ),
    "offline.continuity.first": Entry("首次分析", "first analysis"),
    "offline.continuity.no_path": Entry(
        "上次报告以来的价格路径无法计算（没有它那个交易日的日线）",
        "the price path since the previous report cannot be computed (no bar of its session)",
    ),
    "offline.continuity.first_state": Entry(
        "本次起点：趋势{trend}，收盘 {close}", "starting point: trend {trend}, close {close}"
    ),
    "offline.continuity.old_plan": Entry(
        "上次报告 {report} 基于 {day} 收盘 {close} 发布，操作为{action}",
        "The previous report {report} was published on the {day} close of {close}, with the action {action}",
    ),
    "offline.continuity.old_buy": Entry("买入区间 {low}-{high}", "buy zone {low}-{high}"),
    "offline.continuity.old_sell": Entry("卖出区间 {low}-{high}", "sell zone {low}-{high}"),
    "offline.continuity.old_stop": Entry("止损 {stop}", "stop {stop}"),
    "offline.continuity.same_session": Entry(
        "本次与上次报告基于同一交易日 {day}（收盘 {close}），还没有新的价格走势",
        "This report rests on the same session {day} as the previous one (close {close}): no new price path yet",
    ),
    "offline.continuity.rose": Entry("累计上涨 {pct}%", "up {pct}% in all"),
    "offline.continuity.fell": Entry("累计下跌 {pct}%", "down {pct}% in all"),
    "offline.continuity.path": Entry(
        "此后 {sessions} 个交易日至 {day}，收盘 {close}，{move}（复权）；期间最高 {high}（{high_day}）、"
        "最低 {low}（{low_day}），均按上次报告时的价格尺度",
        "{sessions} sessions to {day}: close {close}, {move} (adjusted); high {high} on {high_day}, low {low} on "
        "{low_day}, on the previous report's price scale",
    ),
    "offline.continuity.path_rescaled": Entry(
        "此后 {sessions} 个交易日至 {day}，收盘 {close}，{move}（复权）；按上次报告时的价格尺度，收盘 {scaled}，"
        "期间最高 {high}（{high_day}）、最低 {low}（{low_day}）",
        "{sessions} sessions to {day}: close {close}, {move} (adjusted); on the previous report's price scale, close "
        "{scaled}, high {high} on {high_day}, low {low} on {low_day}",
    ),
    "offline.continuity.buy_touched": Entry(
        "旧买入区间 {low}-{high} 于 {day} 首次触及", "the old buy zone {low}-{high} was first reached on {day}"
    ),
    "offline.continuity.buy_untouched": Entry(
        "旧买入区间 {low}-{high} 未被触及", "the old buy zone {low}-{high} was never reached"
    ),
    "offline.continuity.sell_touched": Entry(
        "旧卖出区间 {low}-{high} 于 {day} 首次触及", "the old sell zone {low}-{high} was first reached on {day}"
    ),
    "offline.continuity.sell_untouched": Entry(
        "旧卖出区间 {low}-{high} 未被触及", "the old sell zone {low}-{high} was never reached"
    ),
    "offline.continuity.stop_closed": Entry(
        "旧止损 {stop} 于 {day} 收盘跌破", "the old stop {stop} was closed below on {day}"
    ),
    "offline.continuity.stop_touched": Entry(
        "旧止损 {stop} 于 {day} 盘中触及，收盘未跌破",
        "the old stop {stop} was touched intraday on {day}, with no close below it",
    ),
    "offline.continuity.stop_untouched": Entry("旧止损 {stop} 未被触及", "the old stop {stop} was never touched"),
    "offline.continuity.rezoned": Entry(
        "本次按 {day} 的数据重算：买入区间 {low}-{high}，趋势{trend}",
        "recomputed on {day}: buy zone {low}-{high}, trend {trend}",
    ),
    # the old call, graded by which of its levels came first (stockbench.research.continuity)
    "offline.grade.long.stop_closed": Entry(
        "旧{action}判断错了：{day} 收盘跌破旧止损 {stop}，此前未到达旧卖出区间",
        "The old call ({action}) was wrong: the close went below the old stop {stop} on {day}, before the old "
        "sell zone was reached",
    ),
    "offline.grade.long.sell_zone": Entry(
        "旧{action}判断正确：{day} 到达旧卖出区间 {sell_low}-{sell_high}，此前没有收盘跌破止损",
        "The old call ({action}) was right: the old sell zone {sell_low}-{sell_high} was reached on {day}, with no "
        "close below the stop before it",
    ),
    "offline.grade.long.above_sell": Entry(
        "旧{action}判断正确：{day} 升破旧卖出区间上沿 {sell_high}，此前没有收盘跌破止损",
        "The old call ({action}) was right: the price rose over the old sell zone's top {sell_high} on {day}, with no "
        "close below the stop before it",
    ),
    "offline.grade.bearish.above_sell": Entry(
        "旧{action}判断错了：{day} 升破旧卖出区间上沿 {sell_high}，期间最多上涨 {high_pct}%，至今{move}，"
        "{action}错过了这段上涨",
        "The old call ({action}) was wrong: the price rose over the old sell zone's top {sell_high} on {day}, up as "
        "much as {high_pct}% and {move}; that call missed the rise",
    ),
    "offline.grade.bearish.buy_zone": Entry(
        "旧{action}判断正确：{day} 跌入旧买入区间 {buy_low}-{buy_high}，期间最多下跌 {low_pct}%",
        "The old call ({action}) was right: the price fell into the old buy zone {buy_low}-{buy_high} on {day}, down "
        "as much as {low_pct}%",
    ),
    "offline.grade.bearish.stop_closed": Entry(
        "旧{action}判断正确：{day} 收盘跌破旧止损 {stop}，期间最多下跌 {low_pct}%",
        "The old call ({action}) was right: the close went below the old stop {stop} on {day}, down as much as "
        "{low_pct}%",
    ),
    "offline.grade.wait.buy_zone": Entry(
        "旧{action}判断正确：{day} 价格回到旧买入区间 {buy_low}-{buy_high}，等到了计划的买点",
        "The old call ({action}) was right: the price came back to the old buy zone {buy_low}-{buy_high} on {day}, the "
        "entry the plan waited for",
    ),
    "offline.grade.wait.above_sell": Entry(
        "旧{action}判断错了：{day} 升破旧卖出区间上沿 {sell_high}，此前未回到买入区间，期间最多上涨 {high_pct}%，"
        "至今{move}，{action}错过了这段上涨",
        "The old call ({action}) was wrong: the price rose over the old sell zone's top {sell_high} on {day} without "
        "coming back to the buy zone, up as much as {high_pct}% and {move}; that call missed the rise",
    ),
    "offline.note.stopped_after_entry": Entry(
        "但 {day} 收盘跌破旧止损 {stop}：在旧买入区间 {buy_low}-{buy_high} 买入的仓位会止损离场",
        "but the close went below the old stop {stop} on {day}: a buy in the old buy zone {buy_low}-{buy_high} "
        "would have been stopped out",
    ),
    "offline.note.entry_missed": Entry(
        "价格没有回到旧买入区间 {buy_low}-{buy_high}：计划中的买单不会成交",
        "the price never came back to the old buy zone {buy_low}-{buy_high}: the plan's buy would not have filled",
    ),
    "offline.note.target_after_entry": Entry(
        "且在 {day} 收盘跌破旧止损 {stop} 之前已到达旧卖出区间 {sell_low}-{sell_high}："
        "在旧买入区间 {buy_low}-{buy_high} 买入的仓位会先按计划分批卖出",
        "and the old sell zone {sell_low}-{sell_high} came before the close under the old stop {stop} on {day}: a buy "
        "in the old buy zone {buy_low}-{buy_high} would have sold in steps first",
    ),
    "offline.note.reversed_later": Entry(
        "但此后价格于 {day} 升破旧卖出区间上沿 {sell_high}，至今{move}：该判断只在此前成立",
        "but the price later rose over the old sell zone's top {sell_high} on {day}, {move} since the report: the "
        "call held only until then",
    ),
    "offline.note.target_before_entry": Entry(
        "旧卖出区间 {sell_low}-{sell_high} 在买单成交前（{day}）已到达：方向正确，但计划的买单当时未成交",
        "the old sell zone {sell_low}-{sell_high} was reached on {day}, before the buy filled: the direction was "
        "right, the plan's buy had not filled",
    ),
    "offline.grade.right": Entry("旧{action}判断正确（{day}）", "The old call ({action}) was right ({day})"),
    "offline.grade.wrong": Entry("旧{action}判断错了（{day}）", "The old call ({action}) was wrong ({day})"),
    "offline.grade.open": Entry(
        "旧{action}判断尚无定论：决定它对错的价位都还未到达，至今{move}",
        "The old call ({action}) is not settled: neither level that decides it was reached; {move}",
    ),
    "offline.grade.too_early": Entry(
        "旧{action}判断尚无走势可评：本次与上次报告基于同一交易日 {day}",
        "The old call ({action}) cannot be graded yet: both reports rest on the session {day}",
    ),
    # what to do now (continuity and the report's answer)
    "offline.todo.buy": Entry(
        "本次操作为{action}：在买入区间 {buy_low}-{buy_high} 内分批买入，收盘跌破止损 {stop} 离场",
        "{action} now: buy in steps inside the buy zone {buy_low}-{buy_high}; a close below the stop {stop} exits",
    ),
    "offline.todo.add": Entry(
        "本次操作为{action}：在买入区间 {buy_low}-{buy_high} 内分批加仓，收盘跌破止损 {stop} 离场",
        "{action} now: add in steps inside the buy zone {buy_low}-{buy_high}; a close below the stop {stop} exits",
    ),
    "offline.todo.hold": Entry(
        "本次操作为{action}：持有至卖出区间 {sell_low}-{sell_high}，收盘跌破止损 {stop} 离场",
        "{action} now: hold toward the sell zone {sell_low}-{sell_high}; a close below the stop {stop} exits",
    ),
    "offline.todo.reduce": Entry(
        "本次操作为{action}：在卖出区间 {sell_low}-{sell_high} 内分批减仓，收盘跌破止损 {stop} 清仓",
        "{action} now: trim in steps inside the sell zone {sell_low}-{sell_high}; a close below the stop {stop} "
        "exits the rest",
    ),
    "offline.todo.sell": Entry(
        "本次操作为{action}：在卖出区间 {sell_low}-{sell_high} 内卖出，收盘跌破止损 {stop} 则全部离场",
        "{action} now: sell inside the sell zone {sell_low}-{sell_high}; a close below the stop {stop} exits all",
    ),
    "offline.todo.wait": Entry(
        "本次操作为{action}：不建仓，等待价格回到买入区间 {buy_low}-{buy_high} 再评估",
        "{action} now: no position; wait for the buy zone {buy_low}-{buy_high} and assess again",
    ),
    "offline.todo.wait_unknown": Entry(
        "本次操作为{action}：{unknown}未知，程序不把未知当作通过；即使价格在买入区间 {buy_low}-{buy_high} 内也不建仓，"
        "补齐数据后再评估",
        "{action} now: {unknown} unknown, and an unknown is never a pass; no position even inside the buy zone "
        "{buy_low}-{buy_high} until the data is there",
    ),
    "offline.todo.wait_in_buy": Entry(
        "本次操作为{action}：价格已在买入区间 {buy_low}-{buy_high} 内，但程序基线没有给出买入信号；"
        "不建仓，基线转为买入再评估",
        "{action} now: the price is inside the buy zone {buy_low}-{buy_high}, but the baseline gives no buy; no "
        "position until it does",
    ),
    "offline.todo.avoid": Entry(
        "本次操作为{action}：不建仓；价格即使回到买入区间 {buy_low}-{buy_high} 也要先重新分析",
        "{action} now: no position; even in the buy zone {buy_low}-{buy_high}, analyse again first",
    ),
    "offline.todo.avoid_in_buy": Entry(
        "本次操作为{action}：不建仓；价格已在买入区间 {buy_low}-{buy_high} 内，也要先重新分析",
        "{action} now: no position; the price is already in the buy zone {buy_low}-{buy_high}, and it needs a fresh "
        "analysis first",
    ),
    "offline.todo.other": Entry(
        "本次操作为{action}：以买入区间 {buy_low}-{buy_high}、卖出区间 {sell_low}-{sell_high} 与止损 {stop} 为准",
        "{action} now: against the buy zone {buy_low}-{buy_high}, the sell zone {sell_low}-{sell_high} and the "
        "stop {stop}",
    ),
    "offline.todo.no_zones": Entry(
        "本次操作为{action}：程序未能计算区间，不设价位", "{action} now: no zones could be computed, so no levels"
    ),
    # the diagnosis
    "offline.summary": Entry(
        "{name}收盘 {close}，趋势{trend}，资金{capital}，程序基线{baseline}。",
        "{name} closed at {close}; trend {trend}, capital {capital}, program baseline {baseline}.",
    ),
    "offline.finding.chain.trend": Entry(
        "收盘 {close}、20日均线 {ma20}、60日均线 {ma60} 的排列与斜率 → 趋势{trend}",
        "close {close}, the 20-day MA {ma20} and the 60-day MA {ma60}, their order and slope → trend {trend}",
    ),
    "offline.finding.chain.capital": Entry("主力资金的净额 → 资金{capital}", "main-force net flow → capital {capital}"),
    "offline.finding.chain.capital_unknown": Entry(
        "没有资金流向数据 → 资金{capital}", "no money-flow data → capital {capital}"
    ),
    "offline.finding.chain.baseline": Entry(
        "买入形态、回测、资金、估值与计划合成 → 程序基线{baseline}（置信度 {confidence}）",
        "the buy setup, backtest, capital, valuation and plan together → program baseline {baseline} (confidence"
        " {confidence})",
    ),
    # the report's title, conclusion and three answers
    "offline.title_reason": Entry("趋势{trend}，价格{position}", "trend {trend}, price {position}"),
    "offline.title": Entry("{name}（{symbol}）：{action} — {reason}", "{name} ({symbol}): {action} — {reason}"),
    "offline.conclusion": Entry(
        "{name}本次{action}（程序基线{baseline}，置信度 {confidence}）；主要风险是{risk}。所有价格与数量由程序计算。",
        "{name}: {action} (program baseline {baseline}, confidence {confidence}); the main risk is {risk}. Every "
        "price and quantity is the program's.",
    ),
    "offline.change.long": Entry(
        "趋势由{trend}转为下降，或收盘跌破止损 {stop}",
        "the trend state turning from {trend} to down, or a close below the stop {stop}",
    ),
    "offline.change.flat": Entry(
        "价格升破卖出区间上沿 {sell_high} 且趋势转强，或回到买入区间 {buy_low}-{buy_high}（现趋势{trend}）",
        "a rise over the sell zone's top {sell_high} with a stronger trend, or a return to the buy zone "
        "{buy_low}-{buy_high} (trend state now {trend})",
    ),
    "offline.change.flat_in_buy": Entry(
        "价格升破卖出区间上沿 {sell_high} 且趋势转强，或在买入区间 {buy_low}-{buy_high} 内企稳且趋势转强"
        "（现趋势{trend}）",
        "a rise over the sell zone's top {sell_high} with a stronger trend, or the price holding in the buy zone "
        "{buy_low}-{buy_high} while the trend strengthens (trend state now {trend})",
    ),
    "offline.change.avoid": Entry(  # an avoid is not changed by the price falling back into its buy zone
        "程序基线不再为回避：如趋势由{trend}转强，或价格升破卖出区间上沿 {sell_high}；仅跌回买入区间 "
        "{buy_low}-{buy_high} 不改变判断",
        "the program baseline leaving avoid: the trend state turning up from {trend}, or a rise over the sell zone's "
        "top {sell_high}; a fall into the buy zone {buy_low}-{buy_high} alone changes nothing",
    ),
    "offline.change.no_zones": Entry("趋势{trend}发生变化", "a change of the trend state ({trend})"),
    "offline.watch": Entry(
        "买入区间 {buy_low}-{buy_high}、卖出区间 {sell_low}-{sell_high} 与止损 {stop}；价格现{position}",
        "the buy zone {buy_low}-{buy_high}, the sell zone {sell_low}-{sell_high} and the stop {stop}; the price is "
        "now {position}",
    ),
    "offline.watch.no_zones": Entry(
        "区间能否计算；价格现{position}", "whether zones can be computed; the price is now {position}"
    ),
    # the offline model's other texts
    "offline.scene": Entry(  # a run whose prepare block predates the context block (how the choice was made)
        "按规则默认：{name}的板块指数取自标的资料与板块映射",
        "By the rule defaults: {name}'s sector index comes from its instrument data and the sector map",
    ),
    # the scene's rationale from the context block: how the sector index, then the peers, were chosen
    "offline.scene.chosen": Entry("按规则默认：{sector}；{peers}", "By the rule defaults: {sector}; {peers}"),
    "offline.scene.sector.mapping": Entry(
        "{name}的板块指数 {sector} 取自板块映射", "{name}'s sector index {sector} is the sector map's"
    ),
    "offline.scene.sector.board_default": Entry(
        "{name}的板块指数 {sector} 是手册为其所在板块设定的默认指数",
        "{name}'s sector index {sector} is the handbook's default for its board",
    ),
    "offline.scene.sector.built_sector": Entry(
        "未存储官方板块指数，{name}的板块指数为 {sector}，由其所在板块已存储的股票构建",
        "no official sector index is stored, so {name}'s sector index is {sector}, made from the stored stocks of "
        "its board",
    ),
    "offline.scene.sector.built_benchmark": Entry(
        "未存储官方板块指数，所在板块已存储的股票也不足以构建，{name}的板块指数取 {sector}，由全部已存储股票构建",
        "no official sector index is stored and too few stocks of its board are, so {name}'s sector index is "
        "{sector}, made from every stored stock",
    ),
    "offline.scene.sector.unavailable": Entry(
        "{name}的板块指数按手册默认为 {sector}，但其行情未存储，相对强弱无法计算",
        "{name}'s sector index is the handbook's default {sector}, whose bars are not stored: relative strength "
        "cannot be computed",
    ),
    "offline.scene.sector.none": Entry(
        "{name}没有可用的板块指数（未存储指数，也无法构建）",
        "{name} has no sector index (none is stored and none could be built)",
    ),
    "offline.scene.peers.declared": Entry("同业取自板块映射中的声明", "the peers are those the sector map declares"),
    "offline.scene.peers.rule": Entry(
        "同业按规则从已存储的股票中选取", "the peers are chosen by rule from the stored stocks"
    ),
    "offline.scene.peers.none": Entry("没有可选的同业", "no peers could be chosen"),
    "offline.gap_disclosure": Entry(  # shown under the gap's own line (`report.data.gap`): the handling only
        "相关结论置信度降低，报告不附可执行订单",
        "conclusions resting on it are less certain, and the report carries no executable order",
    ),
    "offline.zones_reason": Entry("区间由程序按锚点计算", "the zones are the program's, computed from their anchors"),
    "offline.order.KEEP": Entry("在新区间内", "inside the new zone"),
    "offline.order.CANCEL": Entry("不在新区间内", "outside the new zone"),
    "offline.order.no_buy": Entry(
        "本次操作为{action}，计划现在不买入", "the call is {action}: the plan buys nothing now"
    ),
    "offline.order.no_sell": Entry("本次操作为{action}，无持仓可卖", "the call is {action}: nothing is held to sell"),
    "offline.no_rule": Entry("{label}：阶段 {stage} 没有规则", "{label}: no rule for the stage {stage}"),
}
WORDS.update(_OFFLINE)

# ---- issue 18: a buy zone out of a plan's reach (the zones' reason buy_out_of_reach) is never waited for -------------
_OUT_OF_REACH: dict[str, Entry] = {
    "offline.todo.wait_out_of_reach": Entry(
        "本次操作为{action}：买入区间 {buy_low}-{buy_high} 的上沿在现价下方 {distance}%，超出计划可及的范围，不建仓，"
        "也不等价格跌回这里；回调或横盘筑底后形成新的区间，再据此制定计划",
        "{action} now: the buy zone {buy_low}-{buy_high} lies {distance}% under the price, out of reach of a plan; no "
        "position, and no waiting for it: a plan needs new zones, after a pullback or once a new base forms",
    ),
    "offline.todo.avoid_out_of_reach": Entry(
        "本次操作为{action}：不建仓；买入区间 {buy_low}-{buy_high} 的上沿在现价下方 {distance}%，超出计划可及的范围；"
        "回调或横盘筑底形成新的区间后，重新分析再定",
        "{action} now: no position; the buy zone {buy_low}-{buy_high} lies {distance}% under the price, out of reach "
        "of a plan; analyse again once a pullback or a new base gives new zones",
    ),
    "offline.weigh.flat_out_of_reach": Entry(
        "以风险为主：买入区间 {low}-{high} 在现价下方 {distance}%，超出计划可及的范围，需等回调或新的底部形成新的区间",
        "the risk weighs more: the buy zone {low}-{high} lies {distance}% under the price, out of a plan's reach "
        "until a pullback or a new base gives new zones",
    ),
    "offline.change.flat_out_of_reach": Entry(
        "价格升破卖出区间上沿 {sell_high} 且趋势转强，或回调、筑底后形成离价格足够近的新区间（现买入区间 "
        "{buy_low}-{buy_high} 在现价下方 {distance}%，现趋势{trend}）",
        "a rise over the sell zone's top {sell_high} with a stronger trend, or new zones near enough to the price "
        "after a pullback or a new base (the buy zone {buy_low}-{buy_high} lies {distance}% under the price; trend "
        "state now {trend})",
    ),
}
WORDS.update(_OUT_OF_REACH)
