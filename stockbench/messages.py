"""The engine's words to people, in Simplified Chinese and English: one catalogue of problems and refusals, keyed by
stable codes, each with its parameters.

A `Problem` made here (`problem(key, **params)`) carries its English message and fix (the CLI's and the log's
words, and what `--json` has always shown) together with the key and the parameters, so `said(problem, "zh")`
words the same problem in Chinese. A problem made elsewhere, with only English text, is said in English in both
languages until it moves here. JSON keeps the stable `code` beside the message in the language asked for.

`language_of_locale` is the default language of a front end: Chinese on a Chinese locale, else English.
"""

from __future__ import annotations

import locale
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

from stockbench.errors import Problem, RuleViolation, UserError

E = TypeVar("E", bound=UserError)

Language = Literal["zh", "en"]
LANGUAGES: tuple[Language, ...] = ("zh", "en")


@dataclass(frozen=True, slots=True)
class Words:
    """One text in both languages (`str.format` fields, the same in both)."""

    en: str
    zh: str

    def text(self, language: Language) -> str:
        return self.zh if language == "zh" else self.en


def _w(en: str, zh: str) -> Words:
    return Words(en, zh)


# key: (message, fix). A key is a problem code, or code.variant where one code has differently worded cases.
PROBLEMS: dict[str, tuple[Words, Words]] = {
    # quantities (market/lots.py)
    "not_tradable": (_w("{symbol} is an index and cannot be traded", "{symbol} 是指数，不能交易"),
                     _w("choose a stock or fund", "请选择股票或基金")),
    "qty_not_positive": (_w("quantity {qty} is not positive", "数量 {qty} 不是正数"),
                         _w("enter a quantity above zero", "请输入大于零的数量")),
    "lot_unknown": (_w("the board lot of {symbol} is not known", "{symbol} 的每手股数未知"),
                    _w("fetch its instrument data (stockbench data fetch) or give the lot with --lot N",
                       "请获取其证券资料（stockbench data fetch），或用 --lot N 给出每手股数")),
    "exceeds_holding": (_w("selling {qty} exceeds the sellable holding of {holding}",
                           "卖出 {qty} 股，超过可卖持仓 {holding} 股"),
                        _w("sell at most {holding}", "最多卖出 {holding} 股")),
    "lot_minimum": (_w("a buy of {symbol} must be at least {minimum} shares, not {qty}",
                       "{symbol} 买入至少 {minimum} 股，而不是 {qty} 股"),
                    _w("buy {minimum} or more", "买入 {minimum} 股或以上")),
    "lot_minimum.sell": (_w("a sell of {symbol} below {minimum} shares must sell the whole holding",
                            "{symbol} 卖出不足 {minimum} 股时，须一次卖出全部持仓"),
                         _w("sell at least {minimum}", "至少卖出 {minimum} 股")),
    "lot_minimum.sell_holding": (_w("a sell of {symbol} below {minimum} shares must sell the whole holding",
                                    "{symbol} 卖出不足 {minimum} 股时，须一次卖出全部持仓"),
                                 _w("sell at least {minimum}, or the whole holding of {holding}",
                                    "至少卖出 {minimum} 股，或卖出全部持仓 {holding} 股")),
    "lot_multiple": (_w("a buy of {symbol} must be a multiple of {step} shares, not {qty}",
                        "{symbol} 买入数量须为 {step} 股的整数倍，而不是 {qty} 股"),
                     _w("buy {lower} or {upper}", "买入 {lower} 股或 {upper} 股")),
    "odd_lot_sell": (_w("selling {qty} is not a multiple of {step}; it is valid only if it includes the whole odd "
                        "remainder of the holding",
                        "卖出 {qty} 股不是 {step} 股的整数倍；只有包含持仓的全部零股时才有效"),
                     _w("give the holding (--holding N) to check it, or sell a multiple of {step}",
                        "请给出持仓（--holding N）以便检查，或卖出 {step} 股的整数倍")),
    "odd_lot_sell.holding": (_w("selling {qty} of a holding of {holding} leaves an invalid odd lot",
                                "持仓 {holding} 股卖出 {qty} 股，会留下不合规的零股"),
                             _w("sell a multiple of {step}", "卖出 {step} 股的整数倍")),
    "odd_lot_sell.odd": (_w("selling {qty} of a holding of {holding} leaves an invalid odd lot",
                            "持仓 {holding} 股卖出 {qty} 股，会留下不合规的零股"),
                         _w("sell a multiple of {step}, or include the whole odd remainder of {odd} (e.g. {odd})",
                            "卖出 {step} 股的整数倍，或一并卖出全部 {odd} 股零股（例如 {odd} 股）")),
    "hk_odd_lot": (_w("{qty} is not a multiple of the board lot of {symbol} ({lot}); odd lots trade only on the "
                      "odd-lot market", "{qty} 股不是 {symbol} 每手股数（{lot}）的整数倍；碎股只能在碎股市场交易"),
                   _w("{side} {whole} (whole lots), or place the odd {odd} on the odd-lot market",
                      "{side_zh} {whole} 股（整手），或把 {odd} 股碎股挂到碎股市场")),
    # prices (market/order_rules.py, market/limits.py)
    "price_not_positive": (_w("price {price} is not positive", "价格 {price} 不是正数"),
                           _w("enter a price above zero", "请输入大于零的价格")),
    "price_off_tick": (_w("{price} is not a valid price step for {symbol}",
                          "{price} 不符合 {symbol} 的最小价格变动单位"),
                       _w("use {down} or {up}", "请用 {down} 或 {up}")),
    "price_off_tick.places": (_w("{price} is not a valid price step for {symbol}: {count} decimals, where its prices "
                                 "have at most {allowed}",
                                 "{price} 不符合 {symbol} 的最小价格变动单位：有 {count} 位小数，"
                                 "而其价格最多 {allowed} 位"),
                              _w("use {down} or {up}", "请用 {down} 或 {up}")),
    "above_limit_up": (_w("{price} is above the day's limit-up price {up}", "{price} 高于当日涨停价 {up}"),
                       _w("{side} at {up} or lower", "{side_zh}价不高于 {up}")),
    "below_limit_down": (_w("{price} is below the day's limit-down price {down}", "{price} 低于当日跌停价 {down}"),
                         _w("{side} at {down} or higher", "{side_zh}价不低于 {down}")),
    # times, accounts and orders (ledger/validation.py, ledger/book.py)
    "outside_session": (_w("{local} is not a trading day for {symbol}", "{local} 不是 {symbol} 的交易日"),
                        _w("check the date of the fill", "请检查成交日期")),
    "outside_session.phase": (_w("{local} is outside trading for {symbol} (phase: {phase})",
                                 "{local} 不在 {symbol} 的交易时段内（{phase_zh}）"),
                              _w("give the execution time from the broker's confirmation, e.g. 10:31:05",
                                 "请按券商成交回报填写成交时间，例如 10:31:05")),
    "future_time": (_w("the fill time {at} is in the future", "成交时间 {at} 在未来"),
                    _w("check the time", "请检查时间")),
    "naive_time": (_w("the fill time has no time zone", "成交时间没有时区"),
                   _w("give it as an ISO instant", "请以带时区的 ISO 时间给出")),
    "not_positive": (_w("quantity and price must be positive", "数量和价格必须为正数"),
                     _w("check the numbers", "请检查数字")),
    "negative_fee": (_w("fees of {fee} are negative", "费用 {fee} 为负数"),
                     _w("enter the broker's total fees", "请填写券商收取的费用合计")),
    "market_not_in_account": (_w("account '{account}' does not trade the {market} market",
                                 "账户“{account}”不交易 {market} 市场"),
                              _w("record it in an account for {market}, or add the market to this account",
                                 "请记入可交易 {market} 的账户，或为此账户添加该市场")),
    "unknown_account": (_w("there is no account named '{account}'", "没有名为“{account}”的账户"),
                        _w("list them with: stockbench ledger account list",
                           "查看账户：stockbench ledger account list")),
    "unknown_order": (_w("there is no order '{order}'", "没有委托“{order}”"),
                      _w("check the order id (ledger order list)", "请检查委托编号（ledger order list）")),
    "order_mismatch": (_w("order {order} is a {side} of {symbol} in '{account}'",
                          "委托 {order} 是账户“{account}”中 {symbol} 的{side_zh}委托"),
                       _w("link the fill to the order it executed", "请把成交关联到它所成交的委托")),
    "order_closed": (_w("order {order} was cancelled", "委托 {order} 已撤销"),
                     _w("link it to an open order", "请关联到未成交的委托")),
    "order_overfilled": (_w("order {order} is for {qty}; {filled} already filled, so {more} more overfills it",
                            "委托 {order} 共 {qty} 股，已成交 {filled} 股，再成交 {more} 股就超出了委托数量"),
                         _w("record at most {left} against this order", "此委托最多再记录 {left} 股")),
    # the books (ledger/replay.py)
    "insufficient_cash": (_w("{what} needs {amount} {currency} but the cash balance is {balance} {currency}",
                             "{what_zh}需要 {amount} {currency}，但现金余额只有 {balance} {currency}"),
                          _w("deposit at least {short} {currency} first, or reduce the quantity",
                             "请先存入至少 {short} {currency}，或减少数量")),
    "exceeds_sellable": (_w("selling {qty} {symbol} exceeds the sellable quantity of {sellable}{detail}",
                            "卖出 {qty} 股 {symbol}，超过可卖数量 {sellable} 股{detail_zh}"),
                         _w("sell at most {sellable}", "最多卖出 {sellable} 股")),
    "exceeds_sellable.none": (_w("selling {qty} {symbol} exceeds the sellable quantity of {sellable}{detail}",
                                 "卖出 {qty} 股 {symbol}，超过可卖数量 {sellable} 股{detail_zh}"),
                              _w("there is nothing to sell at that time", "那时没有可卖的股份")),
    # the price cage (market/limits.py)
    "price_cage.buy": (_w("a buy at {price} is above the price cage ({bound} from reference {ref}){caveat}: "
                          "it waits instead of matching",
                          "买入价 {price} 高于价格笼子上限（以参考价 {ref} 计为 {bound}）{caveat_zh}："
                          "委托将等待，不能立即成交"),
                       _w("buy at {matchable} or lower to be matchable now",
                          "买入价不高于 {matchable} 才能立即成交")),
    "price_cage.sell": (_w("a sell at {price} is below the price cage ({bound} from reference {ref}){caveat}: "
                           "it waits instead of matching",
                           "卖出价 {price} 低于价格笼子下限（以参考价 {ref} 计为 {bound}）{caveat_zh}："
                           "委托将等待，不能立即成交"),
                        _w("sell at {matchable} or higher to be matchable now",
                           "卖出价不低于 {matchable} 才能立即成交")),
    # the research plan (research/plan.py)
    "unknown_tool.plan": (_w("the plan names the unknown tool '{tool}'", "计划中有未知的工具“{tool}”"),
                     _w("remove it from the plan", "请把它从计划中去掉")),
    "unknown_stage": (_w("the plan names the unknown stage '{stage}'", "计划中有未知的阶段“{stage}”"),
                      _w("remove it", "请去掉它")),
    "price_unknown": (_w("the price of model '{model}' is unknown, so the plan cannot be held to a ceiling of "
                         "{ceiling}", "模型“{model}”的价格未知，无法把计划控制在费用上限 {ceiling} 之内"),
                      _w("add the model's prices, or run without {option}",
                         "请补充该模型的价格，或不带 {option} 运行")),
    "over_ceiling": (_w("the plan's estimated cost {cost} exceeds the ceiling {ceiling}",
                        "计划的预估费用 {cost} 超过了费用上限 {ceiling}"),
                     _w("raise {option} or approve the plan with {approve}",
                        "请提高 {option}，或用 {approve} 批准该计划")),
    # the publication gates (evidence/gates.py)
    "section_missing": (_w("the report has no '{section}' section", "报告缺少“{section}”部分"),
                        _w("write the {section} section", "请写出“{section}”部分")),
    "judgment_missing": (_w("no '{kind}' judgment was submitted", "未提交“{kind}”判断"),
                         _w("submit the {kind} judgment", "请提交“{kind}”判断")),
    "evidence_missing": (_w("{what} {n} cites no evidence", "第 {n} 条{what_zh}未引用任何证据"),
                         _w("cite the evidence ids it rests on", "请引用它所依据的证据编号")),
    "evidence_unknown": (_w("{what} {n} cites {evidence}, which is not evidence of run {run}",
                            "第 {n} 条{what_zh}引用的 {evidence} 不是研究 {run} 的证据"),
                         _w("cite only evidence ids returned by this run's tools",
                            "只引用本次研究的工具返回的证据编号")),
    "quote_unregistered": (_w("the quotation «{span}» in {where} is not a submitted quote",
                              "{where} 中的引文«{span}»不是已提交的引文"),
                           _w("submit it as a quote citing the document it comes from, or say it without quotation "
                              "marks", "请把它作为引文提交并注明出处文件，或不加引号地表述")),
    "risks_missing": (_w("the report states no risks", "报告没有列出风险"),
                      _w("state the main risks with evidence", "请列出主要风险并附上证据")),
    "step_missing": (_w("method step '{step}' was neither done nor skipped", "方法步骤“{step}”既未完成也未跳过"),
                     _w("do {step}", "请完成 {step}")),
    "skip_unexplained": (_w("method step '{step}' was skipped without a reason",
                            "方法步骤“{step}”被跳过，但未说明原因"),
                         _w("give the reason", "请说明原因")),
    "step_status": (_w("method step '{step}' has status '{status}'", "方法步骤“{step}”的状态为“{status}”"),
                    _w("{done} or {skipped}", "应为 {done} 或 {skipped}")),
    "zone_inverted": (_w("the {name} zone's low {low} is above its high {high}",
                         "{name_zh}的下沿 {low} 高于上沿 {high}"),
                      _w("swap the bounds", "请交换上下沿")),
    "zones_overlap": (_w("the buy zone reaches above the sell zone", "买入区间高过了卖出区间"),
                      _w("use the program's zones", "请使用程序计算的区间")),
    "zone_unanchored": (_w("the {name} zone names no anchors", "{name_zh}没有给出锚点"),
                        _w("cite the program's anchors", "请引用程序给出的锚点")),
    "zone_unanchored.widths": (_w("the {name} zone cites only widths, no level", "{name_zh}只引用了宽度，没有价位"),
                               _w("cite a level anchor", "请引用一个价位锚点")),
    "zone_anchor_unknown": (_w("the {name} zone cites anchor '{anchor}', which the program did not compute",
                               "{name_zh}引用的锚点“{anchor}”不是程序计算的"),
                            _w("use one of: {anchors}", "请使用以下之一：{anchors_zh}")),
    "zone_off_anchor": (_w("the {name} levels {levels} are not the program's ({shown})",
                           "{name_zh}的价位 {levels} 不是程序给出的（{shown}）"),
                        _w("take the bounds from the program's zones", "请采用程序计算的区间上下沿")),
    "zone_off_anchor.level": (_w("the {name} level {level} is not at its anchors ({low}..{high})",
                                 "{name_zh}的价位 {level} 不在其锚点范围内（{low}..{high}）"),
                              _w("take the bounds from the program's zones", "请采用程序计算的区间上下沿")),
    "probabilities_sum": (_w("scenario probabilities sum to {total}, not 1", "情景概率之和为 {total}，不是 1"),
                          _w("make them sum to 1", "请使概率之和为 1")),
    "scenario_duplicate": (_w("scenario '{name}' is given {count} times", "情景“{name}”出现了 {count} 次"),
                           _w("give each scenario once", "每个情景只给一次")),
    "scenario_missing": (_w("the calibrated scenario '{name}' is missing", "缺少校准表中的情景“{name}”"),
                         _w("give every scenario of the table", "请给出校准表中的每个情景")),
    "probability_range": (_w("scenario '{name}' has probability {probability}", "情景“{name}”的概率为 {probability}"),
                          _w("use a value between 0 and 1", "请使用 0 到 1 之间的值")),
    "scenario_unknown": (_w("scenario '{name}' is not in the calibrated table", "情景“{name}”不在校准表中"),
                         _w("use the table's scenarios: {names}", "请使用校准表中的情景：{names}")),
    "probability_off_table": (_w("scenario '{name}' has probability {probability}; the calibrated table gives "
                                 "{calibrated} (tolerance {tolerance})",
                                 "情景“{name}”的概率为 {probability}；校准表给出 {calibrated}（容差 {tolerance}）"),
                              _w("stay within the tolerance of the calibrated value; argue any difference in the text",
                                 "请保持在校准值的容差之内；如有差异，请在正文中论证")),
    "avoid_with_buy_path": (_w("the action is avoid, but the path {where} buys: {text}",
                               "操作为回避，但路径 {where} 会买入：{text}"),
                            _w("under avoid a path watches or re-examines, never buys; or choose wait, which may plan "
                               "a buy", "回避时路径只能观察或复查，不能买入；或改选观望，观望可以计划买入")),
    "action_unknown": (_w("'{action}' is not an action", "“{action}”不是一个操作"),
                       _w("one of: {allowed}", "请使用以下之一：{allowed}")),
    "action_state_mismatch": (_w("{action} goes with the position state {states}, not {state}",
                                 "{action_zh}对应的持仓状态为 {states_zh}，而不是 {state}"),
                              _w("submit position_state {first} with {action}",
                                 "请随{action_zh}提交 position_state {first}")),
    "action_state_mismatch.none": (_w("{action} goes with the position state {states}, not {state}",
                                      "{action_zh}对应的持仓状态为 {states_zh}，而不是 {state}"),
                                   _w("one of: {allowed}", "请使用以下之一：{allowed}")),
    "order_action_unknown": (_w("order {n} has action '{action}'", "第 {n} 笔委托的操作为“{action}”"),
                             _w("{choices}", "请使用 {choices_zh}")),
    "orders_with_gaps": (_w("the report discloses data gaps ({names}) but carries executable orders",
                            "报告披露了数据缺口（{names}），却带有可执行委托"),
                         _w("drop the orders, or close the gaps and run again",
                            "请去掉这些委托，或补齐缺口后重新运行")),
    "orders_unchecked": (_w("the report carries executable orders but no order check against the rules and the "
                            "ledger was given", "报告带有可执行委托，但没有按规则和账本检查这些委托"),
                         _w("check the orders against the ledger snapshot", "请按账本快照检查这些委托")),
}  # fmt: skip

_LOCKED_HINT = _w(
    "Close that window or command first, or choose another workspace (File ▸ Open Workspace, or --home DIR).",
    "请先关闭那个窗口或命令，或选择其他工作区（“文件 ▸ 打开工作区”，或命令行的 --home 目录）。",
)

# User errors (UserError.key): (message, hint). A command or option a person types is a parameter, as it is.
ERRORS: dict[str, tuple[Words, Words]] = {
    # the workspace (store/lock.py)
    "workspace_locked": (_w("The workspace {home} is in use by Stock Workbench process {pid} on {host} ({command}, "
                            "since {since}).",
                            "工作区 {home} 正被股票研究工作台进程 {pid} 使用（{host}，{command}，自 {since} 起）。"),
                         _LOCKED_HINT),
    "workspace_locked.unknown": (_w("The workspace {home} is in use by another Stock Workbench process.",
                                    "工作区 {home} 正被另一个股票研究工作台进程使用。"), _LOCKED_HINT),
    # the importers (data/importer.py)
    "import_not_utf8": (_w("{file} is not UTF-8 text", "{file} 不是 UTF-8 文本"),
                        _w("save the file as UTF-8 (CSV UTF-8)", "请把文件另存为 UTF-8 编码（CSV UTF-8）")),
    "import_unknown_layout": (_w("{file} is neither the community A-share format nor the generic CSV",
                                 "{file} 既不是社区 A 股格式，也不是通用 CSV 格式"),
                              _w("the generic CSV needs a header: {columns}", "通用 CSV 需要表头：{columns}")),
    "import_unreadable": (_w("cannot read {file}: {error}", "无法读取 {file}：{error}"),
                          _w("give a UTF-8, comma-separated file", "请提供 UTF-8 编码、逗号分隔的文件")),
    "import_missing_columns": (_w("{file} lacks the column(s) {missing}", "{file} 缺少列：{missing}"),
                               _w("the generic CSV needs: {columns}", "通用 CSV 需要这些列：{columns}")),
    "import_no_files": (_w("{path} holds no .csv or .parquet files", "{path} 中没有 .csv 或 .parquet 文件"),
                        _w("give a file, or a folder of them", "请给出一个文件，或存放这些文件的文件夹")),
    "import_missing_path": (_w("{path} does not exist", "{path} 不存在"),
                            _w("give the path of a .csv or .parquet file", "请给出 .csv 或 .parquet 文件的路径")),
    "import_unknown_format": (_w("unknown import format '{format}'", "未知的导入格式“{format}”"),
                              _w("use one of {choices}", "请使用以下之一：{choices}")),
    # market data (data/service.py, data/cache.py, data/gates.py, data/demo)
    "fetch_needs_period": (_w("a {what} fetch needs a period", "获取 {what} 数据需要给出时间段"),
                           _w("give a start and an end date", "请给出开始日期和结束日期")),
    "unknown_data_kinds": (_w("unknown data kind(s): {kinds}", "未知的数据种类：{kinds}"),
                           _w("use {choices}", "请使用：{choices}")),
    "period_reversed": (_w("the period {start}..{end} ends before it starts", "时间段 {start}..{end} 的结束早于开始"),
                        _w("give the earlier date first", "请先给出较早的日期")),
    "unknown_adjustment": (_w("unknown adjustment '{adjust}'", "未知的复权方式“{adjust}”"),
                           _w("use {choices}", "请使用：{choices}")),
    "unknown_data_gates": (_w("unknown data gate(s): {gates}", "未知的数据关卡：{gates}"),
                           _w("use {choices}", "请使用：{choices}")),
    "demo_needs_demo_workspace": (_w("{home} is a user workspace, not the demo market's",
                                     "{home} 是用户工作区，不是演示市场的工作区"),
                                  _w("give the demo a folder of its own: {command}",
                                     "请为演示市场另用一个文件夹：{command}")),
    # research runs and reports (research/service.py, research/archive.py)
    "model_not_configured": (_w("model '{name}' is not configured", "模型“{name}”尚未配置"),
                             _w("add it with: {command}", "请先添加：{command}")),
    "report_language_unknown": (_w("'{language}' is not a report language: use {choices}",
                                   "“{language}”不是报告语言：请使用 {choices}"),
                                _w("use {option} zh or {option} en", "请使用 {option} zh 或 {option} en")),
    "run_stopped": (_w("run {run} was stopped", "研究 {run} 已停止"),
                    _w("start a new analysis", "请开始新的分析")),
    "run_ended": (_w("run {run} has already ended ({status})", "研究 {run} 已结束（{status_zh}）"),
                  _w("start a new analysis if you want another", "如需再次研究，请开始新的分析")),
    "run_live_clock": (_w("run {run} researches the live market, but this workspace is open as of {now}",
                          "研究 {run} 针对实时行情，但此工作区以 {now} 的时点打开"),
                       _w("resume it without {option}", "请不带 {option} 继续它")),
    "run_past_clock": (_w("run {run} researches the market as of {as_of}: it continues only on that clock",
                          "研究 {run} 针对 {as_of} 时点的行情，只能在该时点继续"),
                       _w("{command}", "{command}")),
    "no_report": (_w("there is no report '{report}'", "没有报告“{report}”"),
                  _w("list them with: {command}", "查看报告：{command}")),
    "report_tampered": (_w("report {report} is not as it was published: {problem}",
                           "报告 {report} 已不是发布时的样子：{problem}"),
                        _w("see every problem with: {command}", "查看全部问题：{command}")),
    "report_tampered.plan": (_w("report {report} is not as it was published: {problem}",
                                "报告 {report} 已不是发布时的样子：{problem}"),
                             _w("its plan is not used; restore the workspace from a backup, or run a new analysis",
                                "不采用它的计划；请从备份恢复工作区，或重新分析")),
    # ---- typed numbers (market/numbers.py): every money, price and quantity a person types ----
    "number_empty": (_w("{what} is empty", "{what_zh}为空"),
                     _w("enter a number, e.g. 12.5", "请输入数字，例如 12.5")),
    "number_not_finite": (_w("{what} '{typed}' is not a finite number", "{what_zh}“{typed}”不是有限的数"),
                          _w("write an amount in plain digits, e.g. 12.5", "请用普通数字书写金额，例如 12.5")),
    "number_exponent": (_w("{what} '{typed}' is written with an exponent", "{what_zh}“{typed}”用了科学计数法"),
                        _w("write {plain}", "请写成 {plain}")),
    "number_exponent.long": (_w("{what} '{typed}' is written with an exponent", "{what_zh}“{typed}”用了科学计数法"),
                             _w("write it in plain digits, e.g. 1000", "请用普通数字书写，例如 1000")),
    "number_decimal_comma": (_w("{what} '{typed}': a comma only separates thousands (1,234.5)",
                                "{what_zh}“{typed}”：逗号只能用作千位分隔符（1,234.5）"),
                             _w("write {fixed} for a decimal point", "如果是小数点，请写成 {fixed}")),
    "number_malformed": (_w("{what} '{typed}' is not a number", "{what_zh}“{typed}”不是数字"),
                         _w("write plain digits with '.' for decimals, e.g. 12.5",
                            "请用普通数字书写，小数点用“.”，例如 12.5")),
    "number_negative": (_w("{what} {value} is negative", "{what_zh} {value} 为负数"),
                        _w("enter zero or more", "请输入零或正数")),
    "number_not_whole": (_w("{what} '{typed}' is not a whole number", "{what_zh}“{typed}”不是整数"),
                         _w("enter whole shares, e.g. 100", "请输入整数股，例如 100")),
    "number_places": (_w("{what} {value} has {count} decimals; at most {allowed} are allowed",
                         "{what_zh} {value} 有 {count} 位小数；最多允许 {allowed} 位"),
                      _w("write at most {allowed} decimals, e.g. {example}",
                         "最多写 {allowed} 位小数，例如 {example}")),
    # ---- end of typed numbers ----
}  # fmt: skip

# Notes: the engine's words about a finding, neither a problem nor an error (the scan's reasons).
NOTES: dict[str, Words] = {
    "scan.trend": _w("trend {trend} ({slope} 20-day line slope)", "趋势{trend_zh}（20 日均线斜率 {slope}）"),
    "scan.trend_only": _w("trend {trend}", "趋势{trend_zh}"),
    "scan.rs": _w("relative strength: {ret} return, ranks {rank} of {n} symbols",
                  "相对强度：收益 {ret}，在 {n} 只证券中排在 {rank} 分位"),
    "scan.surge": _w("volume surge: recent volume {surge}x the longer average",
                     "放量：近期成交量为较长期均量的 {surge} 倍"),
    "scan.valuation": _w("valuation: {metric} at the {pct} percentile of its history",
                         "估值：{metric_zh}处于历史 {pct} 分位"),
    "scan.zone": _w("close {zone} (buy zone based on {basis})", "收盘价{zone_zh}（买入区间依据 {basis}）"),
    "scan.st": _w("flagged ST: special treatment (risk warning)", "ST：特别处理（风险警示）"),
    "scan.star_st": _w("flagged *ST: delisting risk warning", "*ST：退市风险警示"),
    # ---- typed numbers (market/numbers.py) ----
    "number.normalised": _w("{what} '{typed}' was read as {value} ({how})",
                            "{what_zh}“{typed}”已按 {value} 读取（{how_zh}）"),
    # ---- end of typed numbers ----
}  # fmt: skip

# Refusals that wrap the first problem (RuleViolation.key); {problem} is that problem's message.
REFUSALS: dict[str, Words] = {
    "fill_not_recorded": _w("the fill was not recorded: {problem}", "成交未记录：{problem}"),
    "fill_rejected": _w("the fill would be rejected: {problem}", "这笔成交会被拒绝：{problem}"),
    "order_not_recorded": _w("the order was not recorded: {problem}", "委托未记录：{problem}"),
    "entry_not_recorded": _w("{entry} was not recorded: {problem}", "{entry} 未记录：{problem}"),
}

# Words of values that appear inside messages (sides, session phases, the cash a need is for).
VALUES: dict[str, Words] = {
    "side.buy": _w("buy", "买入"), "side.sell": _w("sell", "卖出"),
    "phase.closed": _w("closed", "休市"),
    "phase.preopen_cancellable": _w("preopen cancellable", "开盘集合竞价（可撤单）"),
    "phase.preopen_noncancellable": _w("preopen noncancellable", "开盘集合竞价（不可撤单）"),
    "phase.preopen_wait": _w("preopen wait", "集合竞价后等待开盘"), "phase.continuous": _w("continuous", "连续竞价"),
    "phase.lunch_break": _w("lunch break", "午间休市"), "phase.closing_auction": _w("closing auction", "收盘集合竞价"),
    "phase.after_hours_fixed_price": _w("after hours fixed price", "盘后固定价格交易"),
    "status.published": _w("published", "已发布"), "status.failed": _w("failed", "已失败"),
    "status.stopped": _w("stopped", "已停止"),
    "trend.strong_up": _w("strong_up", "强势上行"), "trend.up": _w("up", "上行"), "trend.range": _w("range", "震荡"),
    "trend.down": _w("down", "下行"), "trend.strong_down": _w("strong_down", "强势下行"),
    "trend.unknown": _w("unknown", "未知"),
    "zone.stop_hit": _w("at or under the stop", "触及或跌破止损位"),
    "zone.below_buy": _w("below the buy zone", "低于买入区间"),
    "zone.in_buy": _w("in the buy zone", "位于买入区间"),
    "zone.between": _w("between the buy and sell zones", "位于买卖区间之间"),
    "zone.in_sell": _w("in the sell zone", "位于卖出区间"),
    "zone.above_sell": _w("above the sell zone", "高于卖出区间"),
    "metric.PE TTM": _w("PE TTM", "滚动市盈率"), "metric.PB": _w("PB", "市净率"),
    "metric.PS TTM": _w("PS TTM", "滚动市销率"),
    "zone_name.buy": _w("buy", "买入区间"), "zone_name.sell": _w("sell", "卖出区间"),
    "zone_name.stop": _w("stop", "止损位"),
    "cited.claim": _w("claim", "论断"), "cited.risk": _w("risk", "风险"),
    "action.buy": _w("buy", "买入"), "action.add": _w("add", "加仓"), "action.hold": _w("hold", "持有"),
    "action.reduce": _w("reduce", "减仓"), "action.sell": _w("sell", "卖出"), "action.wait": _w("wait", "观望"),
    "action.avoid": _w("avoid", "回避"),
    "caveat.unconfirmed": _w(" (cage rule unconfirmed)", "（价格笼子规则尚未确认）"),
    # ---- typed numbers (market/numbers.py): what a number is, and how it was normalised ----
    "number.price": _w("price", "价格"), "number.quantity": _w("quantity", "数量"), "number.fee": _w("fee", "费用"),
    "number.amount": _w("amount", "金额"), "number.commission_rate": _w("commission rate", "佣金费率"),
    "number.commission_min": _w("minimum commission", "最低佣金"),
    "number.cost_ceiling": _w("cost ceiling", "费用上限"), "number.fx_rate": _w("FX rate", "汇率"),
    "normalised.full_width": _w("full-width characters made plain", "全角字符已转为半角"),
    "normalised.grouping": _w("thousands separators removed", "千位分隔符已去掉"),
    # ---- end of typed numbers ----
}  # fmt: skip


def value_word(kind: str, value: str, language: Language) -> str:
    found = VALUES.get(f"{kind}.{value}")
    return found.text(language) if found is not None else value


def problem(key: str, /, *, location: str = "", **params: object) -> Problem:
    """The problem `key` (its code is the part before any dot) with its English words filled from `params`."""
    message, fix = PROBLEMS[key]
    values = {name: str(value) for name, value in params.items()}
    code = key.split(".", maxsplit=1)[0]
    return Problem(code, message.en.format(**values), fix.en.format(**values), location, key=key,
                   params=tuple(sorted(values.items())))  # fmt: skip


def said(found: Problem, language: Language) -> tuple[str, str]:
    """(message, fix) of a problem in `language`; a problem outside the catalogue keeps its English words. A problem
    made from a user error (its key in ERRORS, e.g. a typed number refused) is said in that error's words."""
    entry = (PROBLEMS.get(found.key) or ERRORS.get(found.key)) if found.key else None
    if entry is None or language == "en":
        return found.message, found.fix
    values = dict(found.params)
    try:
        return entry[0].zh.format(**values), entry[1].zh.format(**values)
    except (KeyError, IndexError):  # a field the Chinese needs and the problem lacks: the English is still right
        return found.message, found.fix


@dataclass(frozen=True, slots=True)
class Note:
    """A note of the catalogue (NOTES[key]) with the values its words are filled from; `text` says it."""

    key: str
    params: tuple[tuple[str, str], ...] = ()
    suffix: str = ""  # appended as it is in both languages (a score's points, say)

    def text(self, language: Language) -> str:
        words = NOTES[self.key]
        try:
            return words.text(language).format(**dict(self.params)) + self.suffix
        except (KeyError, IndexError):  # a field the Chinese needs and the note lacks: the English is still right
            return words.en.format(**dict(self.params)) + self.suffix


def note(key: str, /, *, suffix: str = "", **params: object) -> Note:
    """The note `key` with its values (each said in English and, as name_zh, in Chinese where VALUES knows it)."""
    return Note(key, tuple(sorted((name, str(value)) for name, value in params.items())), suffix)


def user_error(kind: type[E], key: str, /, **params: object) -> E:
    """A user error of class `kind` worded by ERRORS[key] in English, carrying the key and parameters so that
    `error_words` says it in Chinese too."""
    message, hint = ERRORS[key]
    values = {name: str(value) for name, value in params.items()}
    return kind(message.en.format(**values), hint.en.format(**values), key=key, params=tuple(sorted(values.items())))


def refusal(key: str, problems: Sequence[Problem], **params: object) -> RuleViolation:
    """A RuleViolation whose message is REFUSALS[key] around the first problem's message (said again per language
    by `error_words`)."""
    values = {name: str(value) for name, value in params.items()}
    first = problems[0].message if problems else ""
    return RuleViolation(REFUSALS[key].en.format(problem=first, **values), problems, key=key,
                         params=tuple(sorted(values.items())))  # fmt: skip


def error_words(error: UserError, language: Language) -> tuple[str, str]:
    """(message, hint) of a user error in `language`: a refusal or an error of the catalogue in its words, the rest
    as raised (English) until it moves here."""
    if language == "en":
        return error.message, error.hint
    values = dict(error.params)
    if error.key in ERRORS:
        message, hint = ERRORS[error.key]
        try:
            return message.zh.format(**values), hint.zh.format(**values)
        except (KeyError, IndexError):  # a field the Chinese needs and the error lacks: the English is still right
            return error.message, error.hint
    if not isinstance(error, RuleViolation) or error.key not in REFUSALS or not error.problems:
        return error.message, error.hint
    first, fix = said(error.problems[0], language)
    return REFUSALS[error.key].zh.format(problem=first, **values), fix


def language_of_locale(environ: Mapping[str, str] | None = None) -> Language:
    """zh when the user's locale is Chinese (LC_ALL, LC_MESSAGES, LANG, then the C library's), else en."""
    environ = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    found = locale.getlocale()[0] or ""
    return "zh" if found.lower().startswith("zh") else "en"
