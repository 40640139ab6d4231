"""The engine's words to people, in Simplified Chinese and English: one catalogue of problems and refusals, keyed by
stable codes, each with its parameters.

A `Problem` made here (`problem(key, **params)`) carries its English message and fix (the CLI's and the log's
words, and what `--json` has always shown) together with the key and the parameters, so `said(problem, "zh")`
words the same problem in Chinese. A problem made elsewhere, with only English text, is said in English in both
languages until it moves here. JSON keeps the stable `code` beside the message in the language asked for.

`language_of_locale` is the user's language when none is named (a front end's and a report's): Chinese on a Chinese
locale, else English.
"""

from __future__ import annotations

import locale
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
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
    "halted.suspended": (_w("{symbol} is suspended: no order can be sized", "{symbol} 停牌中，无法计算下单数量"),
                         _w("wait until it trades again, then fetch its quote (stockbench data fetch)",
                            "请等待复牌后重新获取行情（stockbench data fetch）")),
    "halted.delisted": (_w("{symbol} is delisted: no order can be sized", "{symbol} 已退市，无法计算下单数量"),
                        _w("choose a listed name", "请选择在市的证券")),
    "halted.not_listed": (_w("{symbol} is not listed yet: no order can be sized",
                             "{symbol} 尚未上市，无法计算下单数量"),
                          _w("wait for its listing day", "请等待其上市日")),
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
    "not_listed.fill": (_w("{symbol} was not listed yet on {day} (listed {listed}): a fill cannot be recorded",
                           "{symbol} 在 {day} 尚未上市（上市日 {listed}），不能记录成交"),
                        _w("check the fill's date in the broker's confirmation", "请按券商成交确认核对日期")),
    "not_traded": (_w("{symbol} did not trade on {day} (suspended): a fill cannot be recorded",
                      "{symbol} 在 {day} 停牌，没有成交，不能记录成交"),
                   _w("check the fill's date in the broker's confirmation; if the stored daily bars lack that day by "
                      "mistake, fetch them again (stockbench data fetch {symbol})",
                      "请按券商成交确认核对日期；如本地日线误缺这一天，请重新获取"
                      "（stockbench data fetch {symbol}）")),
    "suspended.fill": (_w("{symbol} was suspended on {day} (its quote of that day says so): a fill cannot be recorded",
                          "{symbol} 在 {day} 停牌（当日行情显示停牌），不能记录成交"),
                       _w("check the fill's date in the broker's confirmation; if the quote was wrong, fetch it again "
                          "(stockbench data fetch {symbol})",
                          "请按券商成交确认核对日期；如行情有误，请重新获取"
                          "（stockbench data fetch {symbol}）")),
    "delisted.fill": (_w("{symbol} was delisted on {day} (its quote of that day says so): a fill cannot be recorded",
                         "{symbol} 在 {day} 已退市（当日行情显示退市），不能记录成交"),
                      _w("check the symbol and the date in the broker's confirmation",
                         "请按券商成交确认核对代码和日期")),
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
    # ---- research judgments, tools and the evidence gates' number, level and quote checks (research/decisions.py,
    # validate.py, tools.py, quick_answers.py; evidence/quotes.py, numbers.py, levels.py, citations.py). The model
    # reads these in English; the CLI and the window say them in the user's language.
    "zones_program_only": (_w("zones are computed by the program and cannot be replaced", "区间由程序计算，不能替换"),
                           _w("accept the program's zones; argue differences in the text",
                              "请接受程序计算的区间；如有不同看法，请在正文中论证")),
    "position_state_illegal": (_w("'{state}' is not a legal state now", "“{state}”不是当前合法的持仓状态"),
                               _w("choose one of: {allowed}", "请选择以下之一：{allowed}")),
    "probability_format": (_w("'{probability}' is not a decimal", "“{probability}”不是小数"),
                           _w("e.g. 0.35", "例如 0.35")),
    "scenario_unknown.judgment": (_w("'{name}' is not a calibrated scenario", "“{name}”不是校准表中的情景"),
                                  _w("use: {names}", "请使用：{names}")),
    "probability_off_table.judgment": (_w("'{name}' {probability} is not within {tolerance} of the calibrated "
                                          "{calibrated}",
                                          "情景“{name}”的概率 {probability} 与校准值 {calibrated} 相差超过 "
                                          "{tolerance}"),
                                       _w("use the calibrated probability (argue in the narrative)",
                                          "请使用校准概率（如有不同，请在叙述中论证）")),
    "probabilities_sum.judgment": (_w("the probabilities sum to {total}", "概率之和为 {total}"),
                                   _w("make them sum to 1", "请使概率之和为 1")),
    "scenarios_incomplete": (_w("every calibrated scenario needs a judgment", "校准表中的每个情景都需要一个判断"),
                             _w("submit: {names}", "请提交：{names}")),
    "continuity_incomplete": (_w("{field} is empty", "{field} 为空"), _w("fill it in", "请填写")),
    "open_order_undecided": (_w("open order {order} needs {choices}",
                                "未成交委托 {order} 需要决定保留、修改或撤销（{choices}）"),
                             _w("decide every open order", "请对每笔未成交委托作出决定")),
    "open_order_unknown": (_w("{order} is not an open order of this account", "{order} 不是此账户的未成交委托"),
                           _w("decide only listed orders", "只对列出的委托作出决定")),
    "order_against_action": (_w("the {side} order at {price} stands while the action is {action}, which it does not "
                                "go with (a buy order goes only with buy or add; a sell order not where nothing is "
                                "held)",
                                "操作为{action_zh}，{side_zh}委托 {price} 却仍保留：买入委托只与买入或加仓相符，"
                                "无持仓时不应有卖出委托"),
                             _w("{cancel} the order, or choose an action it goes with",
                                "请撤销（{cancel}）该委托，或选择与它相符的操作")),
    "order_outside_zone": (_w("order {order} at {price} lies outside the new {side} zone {low}-{high}",
                              "委托 {order} 的价格 {price} 不在新的{side_zh}区间 {low}-{high} 内"),
                           _w("{modify} it into the zone or {cancel} it",
                              "请把它修改（{modify}）到区间内，或撤销（{cancel}）")),
    "modify_with_gaps": (_w("order {order} is modified, but the report has data gaps",
                            "委托 {order} 被修改，但报告有数据缺口"),
                         _w("a report with gaps carries no executable order: {keep} or {cancel} it",
                            "有缺口的报告不带可执行委托：请保留（{keep}）或撤销（{cancel}）")),
    "modify_price_format": (_w("'{price}' is not a price", "“{price}”不是价格"), _w("e.g. 1650.00", "例如 1650.00")),
    "modify_unchanged": (_w("{modify} of {order} changes nothing", "对 {order} 的修改（{modify}）没有改变任何内容"),
                         _w("{keep} it", "请保留（{keep}）")),
    "negative_ev_buy": (_w("the baseline's backtest loses after costs over enough trades to say so: no buy or add",
                           "基线的回测在足够多的交易中扣费后不赚钱：不能买入或加仓"),
                        _w("choose wait or avoid (hold, reduce or sell when held)",
                           "请选择观望或回避（已持有时可持有、减仓或卖出）")),
    "buy_with_unknown_input": (_w("{inputs} cannot be known from the data, and an unknown is never a pass: the "
                                  "decision is at most {cap}, not {action}",
                                  "数据说不出{inputs_zh}，而未知永远不算通过：决定最多为{cap_zh}，不能{action_zh}"),
                               _w("choose {cap} and name the unknown input as the reason; disclose the gap",
                                  "请选择{cap_zh}，把未知的输入写作理由，并披露该缺口")),
    "buy_without_a_tradeable_plan": (_w("the zones make no tradeable plan ({reasons}): no trade, so the action "
                                        "cannot be {action}",
                                        "区间构不成可交易的计划（{reasons_zh}）：不交易，因此不能{action_zh}"),
                                     _w("choose {cap}; the plan's reason says what would make a plan",
                                        "请选择{cap_zh}；计划的原因说明了怎样才能形成计划")),
    "gap_undisclosed": (_w("the data gap '{gap}' is not disclosed", "数据缺口“{gap}”未披露"),
                        _w("accept it with a disclosure", "请接受它并加以披露")),
    "action_reason_contradicts.baseline": (_w("the reason says the action follows the baseline ({baseline}), but the "
                                              "action is {action}",
                                              "理由说操作与基线（{baseline_zh}）一致，但操作是{action_zh}"),
                                           _w("say why the action differs from the baseline, or choose the baseline's "
                                              "action", "请说明操作为何不同于基线，或选择基线的操作")),
    "action_reason_contradicts": (_w("the reason names {named}, but the action is {action}",
                                     "理由提到了{named_zh}，但操作是{action_zh}"),
                                  _w("make the reason argue for the action chosen", "请让理由论证所选的操作")),
    "evidence_missing.statement": (_w("{where} cites no evidence", "{where} 未引用任何证据"),
                                   _w("cite evidence ids", "请引用证据编号")),
    "evidence_unknown.statement": (_w("{where} cites {evidence}, not evidence of this run",
                                      "{where} 引用的 {evidence} 不是本次研究的证据"),
                                   _w("cite only ids returned by this run's tools and facts",
                                      "只引用本次研究的工具和事实给出的编号")),
    "evidence_unknown.report": (_w("{where} cites {evidence}, not evidence of this run",
                                   "{where} 引用的 {evidence} 不是本次研究的证据"),
                                _w("cite this run's ids", "请引用本次研究的编号")),
    "evidence_unknown.read": (_w("{evidence} is not evidence of this run", "{evidence} 不是本次研究的证据"),
                              _w("use an id from the facts or a tool result", "请使用事实或工具结果中的编号")),
    "sector_unknown": (_w("sector index '{index}' is not among the candidates", "行业指数“{index}”不在候选之中"),
                       _w("choose one of: {known}", "请选择以下之一：{known}")),
    "name_not_a_name": (_w("{where} holds a sentence, not a name: «{text}»",
                           "{where} 写的是一句话，而不是名称：«{text}»"),
                        _w("give a short name (under {limit} characters); put claims in the rationale with evidence",
                           "请给出简短的名称（少于 {limit} 个字符）；论断请连同证据写在理由中")),
    "peer_unknown": (_w("peer «{peer}» is not a symbol of an instrument this workspace holds",
                        "同业«{peer}»不是此工作区已有证券的代码"),
                     _w("give listed symbols (e.g. 600519.SH), one per entry; argue in the rationale",
                        "请给出上市证券的代码（例如 600519.SH），每项一个；论证请写在理由中")),
    "peer_is_subject": (_w("{peer} is the subject itself", "{peer} 就是研究对象本身"),
                        _w("name other companies", "请列出其他公司")),
    "announcement_unknown": (_w("announcement «{announcement}» is not in this run's announcement list",
                                "公告«{announcement}»不在本次研究的公告列表中"),
                             _w("choose ids from the announcement list in the facts",
                                "请从事实中的公告列表里选择编号")),
    "chain_missing": (_w("the causal chain is empty", "因果链为空"),
                      _w("give at least one cause and effect", "请至少给出一组因果")),
    "wrong_side": (_w("this sub-study argues the {side} side, not {given}",
                      "本子研究论证的是{side_zh}一方，而不是{given_zh}一方"),
                   _w("submit {field}", "请提交 {field}")),
    "arguments_missing": (_w("no arguments were submitted", "未提交任何论据"),
                          _w("give every argument you found", "请给出你找到的每一条论据")),
    "unknown_tool.call": (_w("there is no tool '{tool}'", "没有工具“{tool}”"),
                          _w("use one of: {tools}", "请使用以下之一：{tools}")),
    "malformed_arguments": (_w("the arguments of {tool} are not valid JSON: {error}",
                               "{tool} 的参数不是有效的 JSON：{error}"),
                            _w("send the arguments as one JSON object matching the schema",
                               "请把参数作为一个符合参数模式的 JSON 对象发送")),
    "invalid_arguments": (_w("{field}: {error}", "{field}：{error}"),
                          _w("fix the field and call again", "请改正该字段后再次调用")),
    "tool_failed": (_w("the tool {tool} failed: {error}", "工具 {tool} 出错：{error}"),
                    _w("check the arguments, or go on without this tool and disclose it",
                       "请检查参数，或不用此工具继续并加以披露")),
    "answer_missing": (_w("change {change} ({kind}) has no answer", "变化 {change}（{kind}）没有回答"),
                       _w("answer every change once", "请对每项变化各回答一次")),
    "answer_duplicate": (_w("change {change} is answered {count} times", "变化 {change} 被回答了 {count} 次"),
                         _w("answer it once", "请只回答一次")),
    "change_unknown": (_w("{change} is not a change of this review", "{change} 不是本次快速复核的变化"),
                       _w("answer only: {changes}", "只回答：{changes}")),
    "level_lowered": (_w("{change} is answered at {level}, below its minimum {minimum}",
                         "{change} 的回答级别为 {level}，低于其最低级别 {minimum}"),
                      _w("answer at {minimum} or higher", "请按 {minimum} 或更高的级别回答")),
    "action_not_allowed": (_w("'{action}' is not an action of level {level}", "“{action}”不是 {level} 级别的操作"),
                           _w("use: {allowed}", "请使用：{allowed}")),
    "thesis_adjudicated": (_w("{change} is thesis-level news: it is never adjudicated on the spot",
                              "{change} 是论点级消息：从不当场裁决"),
                           _w("answer at {level} with the {action} action", "请按 {level} 级别、以 {action} 操作回答")),
    "path_unknown": (_w("'{path}' is not a path of the report", "“{path}”不是报告中的路径"),
                     _w("copy one trigger exactly: {triggers}", "请原样复制一个触发条件：{triggers}")),
    "path_unknown.none": (_w("'{path}' is not a path of the report", "“{path}”不是报告中的路径"),
                          _w("the report has no paths: {action}", "报告没有路径：请用 {action}")),
    "quote_source_missing": (_w("the quote at {where} cites {evidence}, which is not evidence of this run",
                                "{where} 处的引文引用的 {evidence} 不是本次研究的证据"),
                             _w("cite the evidence id of the document it comes from", "请引用其出处文件的证据编号")),
    "quote_not_full_text": (_w("the quote at {where} cites {evidence}, a {kind}, not a fetched full text",
                               "{where} 处的引文引用的 {evidence} 是{kind_zh}，不是已获取的全文"),
                            _w("fetch the full document (documents_read) and quote from it; snippets are candidates "
                               "only", "请获取完整文件（documents_read）并从中引用；摘要只是候选")),
    "quote_drops_negation": (_w("the quote at {where} leaves out «{dropped}», which {evidence} attaches to it in the "
                                "same clause: cut this way it says something the source does not",
                                "{where} 处的引文略去了«{dropped}»，而 {evidence} 在同一分句中把它与引文连在一起："
                                "这样截取，说出了原文没有说的意思"),
                             _w("quote the whole clause including «{dropped}», or do not quote it: «{passage}»",
                                "请引用包括«{dropped}»在内的整个分句，或不要引用：«{passage}»")),
    "quote_mismatch": (_w("the quote at {where} does not appear verbatim in {evidence}",
                          "{where} 处的引文并未原样出现在 {evidence} 中"),
                       _w("copy the passage exactly; the closest source passage is: «{passage}»",
                          "请一字不差地照抄原文；最接近的原文段落是：«{passage}»")),
    "number_unreadable": (_w("'{token}' at {where} looks like a number, but it cannot be read as one",
                             "{where} 处的“{token}”看似数字，但无法读作数字"),
                          _w("write the number in plain digits (with 万/亿/% as usual), or remove it",
                             "请用普通数字书写（照常使用 万/亿/%），或删去它")),
    "number_ungrounded": (_w("'{number}' at {where} matches no evidence of this run",
                             "{where} 处的“{number}”与本次研究的任何证据都不符"),
                          _w("cite the evidence it comes from, compute it with the calc tool, or remove it; nearest: "
                             "{nearest}", "请引用它的出处证据、用计算工具算出，或删去它；最接近的值：{nearest_zh}")),
    "number_ungrounded.cited": (_w("'{number}' at {where} matches no evidence of this run",
                                   "{where} 处的“{number}”与本次研究的任何证据都不符"),
                                _w("cite the evidence it comes from, compute it with the calc tool, or remove it; "
                                   "cited candidates: {nearest}",
                                   "请引用它的出处证据、用计算工具算出，或删去它；所引证据中的候选：{nearest_zh}")),
    "number_misattributed": (_w("'{number}' at {where} matches a value of the cited evidence, but {why}",
                                "{where} 处的“{number}”与所引证据的某个值相符，但{why}"),
                             _w("state the number of the company and metric the sentence names, or name whose number "
                                "it is", "请写出句中所指公司和指标的数字，或指明这是谁的数字")),
    "number_uncited": (_w("'{number}' at {where} is not a value of the evidence this statement cites ({cited}); it "
                          "appears in {holders}",
                          "{where} 处的“{number}”不是本句所引证据（{cited_zh}）中的值；它出现在 {holders} 中"),
                       _w("cite the evidence the number comes from (and check it says what you mean); cited "
                          "candidates: {nearest}",
                          "请引用该数字的出处证据（并核对它说的正是你的意思）；所引证据中的候选：{nearest_zh}")),
    "level_not_program.range": (_w("the range {low}-{high} at {where} is not one of the program's zones",
                                   "{where} 处的区间 {low}-{high} 不是程序计算的区间"),
                                _w("name the program's zones only ({shown}); zones are computed by the program",
                                   "只写程序计算的区间（{shown_zh}）；区间由程序计算")),
    "level_not_program.price": (_w("the price {price} at {where} describes a level, but it is not one of this run's "
                                   "levels", "{where} 处的价格 {price} 描述的是一个价位，但不是本次研究的价位"),
                                _w("use the program's levels ({shown}), or describe the condition without a price",
                                   "请使用程序给出的价位（{shown_zh}），或不写价格地描述该条件")),
    "order_in_text_with_gaps": (_w("'{text}' at {where} states an order, but the report has data gaps",
                                   "{where} 处的“{text}”写出了一笔委托，但报告有数据缺口"),
                                _w("a report with gaps carries no executable order: remove the quantities and prices",
                                   "有缺口的报告不带可执行委托：请删去数量和价格")),
    "order_in_text": (_w("'{text}' at {where} states an order that the program did not size",
                         "{where} 处的“{text}”写出了一笔程序没有计算仓位的委托"),
                      _w("quantities and prices come from the program's sizing (sized orders: {sized}); name those, "
                         "or say it without a quantity",
                         "数量和价格来自程序的仓位计算（已计算的委托：{sized_zh}）；请写这些委托，或不写数量地表述")),
    # ---- end of the research judgments' and evidence checks' block
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
                                 "{action_zh}对应的持仓状态为{states_zh}，而不是“{state_zh}”"),
                              _w("submit position_state {first} with {action}",
                                 "请随{action_zh}提交持仓状态“{first_zh}”（{first}）")),
    "action_state_mismatch.none": (_w("{action} goes with the position state {states}, not {state}",
                                      "{action_zh}对应的持仓状态为{states_zh}，而不是“{state_zh}”"),
                                   _w("one of: {allowed}", "请使用以下之一：{allowed}")),
    "order_action_unknown": (_w("order {n} has action '{action}'", "第 {n} 笔委托的操作为“{action}”"),
                             _w("{choices}", "请使用 {choices_zh}")),
    # data sources (data/sources.py)
    "source_unknown": (_w("there is no data source '{name}'", "没有数据源“{name}”"),
                       _w("use one of {names}", "请使用其中之一：{names}")),
    "source_no_change": (_w("nothing to change was given", "没有给出要更改的内容"),
                         _w("give {options}", "请给出 {options}")),
    "source_url_scheme": (_w("the base URL '{url}' is not {schemes}", "基础地址“{url}”不是 {schemes} 地址"),
                          _w("give an address such as {example}", "请给出类似 {example} 的地址")),
    "source_url_host": (_w("the base URL '{url}' has no host", "基础地址“{url}”没有主机名"),
                        _w("give an address such as {example}", "请给出类似 {example} 的地址")),
    "source_url_credentials": (_w("the base URL carries a user name or password",
                                  "基础地址中带有用户名或密码"),
                               _w("give the address without them: secrets are never stored in the workspace",
                                  "请去掉它们：工作区从不保存密钥")),
    "source_url_query": (_w("the base URL '{url}' has a query or fragment", "基础地址“{url}”带有查询参数或片段"),
                         _w("give only the scheme, host and an optional path prefix",
                            "只给出协议、主机名和可选的路径前缀")),
    "source_order": (_w("the place {order} is not 1 or more", "位置 {order} 不是 1 或更大的数"),
                     _w("give 1 for the first", "第一个请用 1")),
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
    # ---- the calc tool, human reviews and the replay (research/calc.py, reviews.py, replay.py)
    "calc_path_not_rooted": (_w("path '{path}' must start with $", "路径“{path}”必须以 $ 开头"),
                             _w("e.g. $.quote.last or $.bars[0].close", "例如 $.quote.last 或 $.bars[0].close")),
    "calc_path_missing": (_w("path '{path}' does not exist in the evidence", "证据中不存在路径“{path}”"),
                          _w("read the evidence first", "请先读取该证据")),
    "calc_unit_mismatch": (_w("cannot {verb} a {right} value and a {left} value",
                              "不能把{right_zh}与{left_zh}{verb_zh}"),
                           _w("combine values of the same unit (a percentage with a percentage, a price with a price)",
                              "请只组合同一单位的值（百分数与百分数、价格与价格）")),
    "calc_constant": (_w("the constant {value} is not allowed", "不允许使用常数 {value}"),
                      _w("name every number as an input from evidence; constants: {constants}",
                         "每个数都须作为取自证据的输入给出；可用的常数：{constants}")),
    "calc_not_an_input": (_w("'{name}' is not one of the inputs", "“{name}”不是输入之一"),
                          _w("name every number as an input from evidence", "每个数都须作为取自证据的输入给出")),
    "calc_divides_by_zero": (_w("the expression divides by zero", "表达式除以零"),
                             _w("check the inputs: a divisor is zero", "请检查输入：有除数为零")),
    "calc_operators": (_w("only + - * / and parentheses over named inputs are allowed",
                          "只允许对具名输入使用 + - * / 和括号"),
                       _w("e.g. (a - b) / b * 100", "例如 (a - b) / b * 100")),
    "calc_input_not_json": (_w("input '{name}' must cite JSON evidence of this run",
                               "输入“{name}”必须引用本次研究的 JSON 证据"),
                            _w("give evidence_id and path", "请给出证据编号（evidence_id）和路径")),
    "calc_input_search_result": (_w("input '{name}' cites a search result", "输入“{name}”引用的是搜索结果"),
                                 _w("search results are candidates, not evidence", "搜索结果只是候选，不是证据")),
    "calc_input_not_number": (_w("input '{name}' at {path} is not a number ({raw})",
                                 "输入“{name}”在 {path} 处不是数字（{raw}）"),
                              _w("point the path at a number", "请让路径指向一个数字")),
    "calc_unit_derived": (_w("the result is a {unit} value by its operands, not {requested}",
                             "按其运算数，结果是{unit_zh}，而不是{requested_zh}"),
                          _w("leave the unit out (it follows from the operands); 个百分点 (pp) only for a "
                             "difference of two percentages",
                             "请不给单位（单位由运算数决定）；只有两个百分数之差才用个百分点（pp）")),
    "calc_too_long": (_w("the expression is too long", "表达式太长"),
                      _w("keep it under {limit} characters", "请控制在 {limit} 个字符以内")),
    "calc_unit_unknown": (_w("unit '{unit}' is unknown", "单位“{unit}”未知"),
                          _w("one of {units} (or leave it out)", "请使用以下之一：{units}（或不给单位）")),
    "calc_no_inputs": (_w("a computation needs inputs from evidence", "计算需要取自证据的输入"),
                       _w("name each number as an input: evidence_id and path",
                          "请把每个数作为输入给出：证据编号（evidence_id）和路径")),
    "calc_not_expression": (_w("'{expression}' is not an arithmetic expression", "“{expression}”不是算术表达式"),
                            _w("e.g. (a - b) / b * 100", "例如 (a - b) / b * 100")),
    "calc_unused_inputs": (_w("inputs {names} are not used in the expression", "输入 {names} 未在表达式中使用"),
                           _w("use every input or drop it", "请使用每个输入，或去掉不用的输入")),
    "calc_out_of_range": (_w("the result is out of range", "结果超出范围"),
                          _w("compute with values of ordinary size", "请用常规大小的数值计算")),
    "calc_result_is_input": (_w("the result equals input '{name}' ({value}): this computes nothing",
                                "结果等于输入“{name}”（{value}）：这没有计算出任何东西"),
                             _w("cite the input's evidence directly; calc is for derived numbers",
                                "请直接引用该输入的证据；计算工具只用于派生的数字")),
    "review_not_a_score": (_w("'{item}' is not a score", "“{item}”不是评分"),
                           _w("write {form}, e.g. {example} ({scores})", "请写成 {form}，例如 {example}（{scores}）")),
    "review_verdict_unknown": (_w("'{verdict}' is not a verdict", "“{verdict}”不是复核结论"),
                               _w("use one of {verdicts}", "请使用以下之一：{verdicts}")),
    "review_reason_unknown": (_w("unknown reason code '{reason}'", "未知的原因代码“{reason}”"),
                              _w("use any of {reasons}", "可使用以下任意代码：{reasons}")),
    "review_needs_reason": (_w("a '{verdict}' verdict needs at least one {option}",
                               "“{verdict}”结论至少需要一个 {option}"),
                            _w("codes: {reasons}", "原因代码：{reasons}")),
    "review_score_unknown": (_w("unknown score '{name}'", "未知的评分项“{name}”"),
                             _w("scores: {scores}", "评分项：{scores}")),
    "review_score_range": (_w("score {name}={value} is out of range", "评分 {name}={value} 超出范围"),
                           _w("{name} runs {low}-{high}", "{name} 的范围是 {low}-{high}")),
    "review_comment_long": (_w("the comment has {length} characters", "评语有 {length} 个字符"),
                            _w("keep it to {limit}", "请控制在 {limit} 个字符以内")),
    "review_run_unpublished": (_w("run {run} has not published a report", "研究 {run} 尚未发布报告"),
                               _w("review a run that published a report ({command})",
                                  "请复核已发布报告的研究（{command}）")),
    "review_target_unknown": (_w("there is no run or report '{target}'", "没有研究或报告“{target}”"),
                              _w("review a run that published a report ({command})",
                                 "请复核已发布报告的研究（{command}）")),
    "review_reviser_unknown": (_w("there is no run '{run}'", "没有研究“{run}”"),
                               _w("name the run that revises the report ({command})",
                                  "请指明修订该报告的研究（{command}）")),
    "review_reviser_invalid": (_w("run {reviser} cannot revise run {run}", "研究 {reviser} 不能修订研究 {run}"),
                               _w("the revision is another run on the same symbol", "修订须是同一证券的另一次研究")),
    "review_revised_by_verdict": (_w("{option} goes with a '{verdict}' verdict only",
                                     "{option} 只能与“{verdict}”结论一起使用"),
                                  _w("drop it, or use {use}", "请去掉它，或使用 {use}")),
    "no_review": (_w("there is no review '{review}'", "没有复核“{review}”"),
                  _w("list them with: {command}", "查看复核：{command}")),
    "replay_every": (_w("{option} {every} is not a number of sessions", "{option} {every} 不是交易日数"),
                     _w("use 1 or more", "请使用 1 或更大的数")),
    "replay_universe_unreadable": (_w("cannot read {path}: {error}", "无法读取 {path}：{error}"),
                                   _w("give a text file of symbols", "请给出列有证券代码的文本文件")),
    "replay_no_symbols": (_w("no symbols to replay", "没有要回放的证券"),
                          _w("give {symbols} or {universe}", "请给出 {symbols} 或 {universe}")),
    "replay_not_index": (_w("{symbol} is not an index code", "{symbol} 不是指数代码"),
                         _w("use an index code, e.g. 000695.SH", "请使用指数代码，例如 000695.SH")),
    # ---- end of the calc, reviews and replay block
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
    "bad_recording": (_w("the recording cannot be used: {reason}", "录制无法使用：{reason}"),
                      _w("record into an empty folder, or replay a folder written by --record",
                         "请录制到空文件夹，或回放由 --record 写出的文件夹")),
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
                           "报告 {report} 已不是发布时的样子：{problem_zh}"),
                        _w("see every problem with: {command}", "查看全部问题：{command}")),
    "report_tampered.plan": (_w("report {report} is not as it was published: {problem}",
                                "报告 {report} 已不是发布时的样子：{problem_zh}"),
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
    # ---- the ledger's journal (ledger/journal.py, ledger/restore.py) ----
    "journal_broken": (_w("the ledger journal {path} is broken at line {line}: {why}",
                          "账本日志 {path} 第 {line} 行已损坏：{why}"),
                       _w("nothing was changed; restore the file from a backup, or rebuild from a good copy with "
                          "{option}",
                          "未做任何更改；请从备份恢复该文件，或用 {option} 从完好的副本重建")),
    "journal_out_of_step": (_w("the ledger journal {path} has {lines} line(s) but the database last committed with "
                               "line {head}: the two are out of step, so nothing was recorded",
                               "账本日志 {path} 有 {lines} 行，而数据库最后提交时对应第 {head} 行：两者不一致，"
                               "因此未记录任何内容"),
                            _w("if the database was deleted or restored, bring it up to the journal with: "
                               "{command}",
                               "如果数据库被删除或从备份恢复，请用以下命令按日志重建：{command}")),
    "journal_missing": (_w("there is no ledger journal at {path}", "{path} 处没有账本日志"),
                        _w("give the journal's file with {option}", "请用 {option} 给出日志文件")),
    "rebuild_needs_yes": (_w("the ledger already holds {rows} row(s); rebuilding replaces them with the journal's "
                             "{lines} line(s)",
                             "账本中已有 {rows} 行记录；重建会用日志中的 {lines} 行替换它们"),
                          _w("add --yes to replace them", "确认替换请加 --yes")),
    "journal_inconsistent": (_w("the journal's entries of '{account}' do not replay: {problem}",
                                "日志中账户“{account}”的记录无法重放：{problem}"),
                             _w("nothing was changed; check the journal with: {command}",
                                "未做任何更改；请用 {command} 检查日志")),
    # ---- end of the ledger's journal ----
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
    "scan.zone": _w("close {zone} (buy zone based on {basis})", "收盘价{zone_zh}（买入区间依据 {basis_zh}）"),
    "scan.st": _w("flagged ST: special treatment (risk warning)", "ST：特别处理（风险警示）"),
    "scan.star_st": _w("flagged *ST: delisting risk warning", "*ST：退市风险警示"),
    "scan.setup": _w("in the baseline's buy setup: a quiet, healthy uptrend (close {ma250}% over the 250-day MA, "
                     "{ma20}% over the 20-day MA, calm volatility and turnover)",
                     "处在程序基线的买入形态：安静、健康的上升趋势（收盘高于250日均线 {ma250}%、高于20日均线 {ma20}%，"
                     "波动与换手不高）"),
    "scan.setup_unknown": _w("buy setup not judged: the data cannot say {checks}",
                             "买入形态无法判断：数据说不出{checks_zh}"),
    # ---- typed numbers (market/numbers.py) ----
    # ---- the ledger's journal: the rebuild's result and the doctor's checks (ledger/restore.py, checks.py) ----
    "journal.rebuilt": _w("rebuilt the ledger from {lines} journal line(s): {accounts} account(s), {entries} "
                          "entr(y/ies), {orders} order(s)",
                          "已按 {lines} 行账本日志重建账本：{accounts} 个账户，{entries} 条记录，{orders} 笔委托"),
    "journal.kind_count": _w("  {kind}: {count}", "  {kind_zh}：{count}"),
    "check.journal.ok": _w("{lines} line(s), chain intact, equal to the ledger tables",
                           "{lines} 行，哈希链完整，与账本表一致"),
    "check.journal.empty": _w("no journal yet: the ledger is empty", "尚无日志：账本为空"),
    "check.journal.missing": _w("no journal at {path}, but the ledger holds {rows} row(s)",
                                "{path} 处没有日志，但账本中有 {rows} 行记录"),
    "check.journal.broken": _w("line {line} is broken: {why}", "第 {line} 行已损坏：{why}"),
    "check.journal.differs": _w("the journal differs from the tables: {difference}",
                                "日志与账本表不一致：{difference}"),
    "check.ledger_replay.ok": _w("replaying {accounts} account(s) equals the stored positions and cash",
                                 "重放 {accounts} 个账户的结果与存储的持仓和现金一致"),
    "check.ledger_replay.differs": _w("replaying '{account}' differs from the stored {table}: {difference}",
                                      "重放账户“{account}”的结果与存储的 {table} 不一致：{difference}"),
    "check.ledger_replay.fails": _w("the entries of '{account}' do not replay: {problem}",
                                    "账户“{account}”的记录无法重放：{problem}"),
    "number.normalised": _w("{what} '{typed}' was read as {value} ({how})",
                            "{what_zh}“{typed}”已按 {value} 读取（{how_zh}）"),
    # ---- end of typed numbers ----
}  # fmt: skip

# Refusals that wrap the first problem (RuleViolation.key); {problem} is that problem's message.
REFUSALS: dict[str, Words] = {
    "fill_not_recorded": _w("the fill was not recorded: {problem}", "成交未记录：{problem}"),
    "fill_rejected": _w("the fill would be rejected: {problem}", "这笔成交会被拒绝：{problem}"),
    "order_not_recorded": _w("the order was not recorded: {problem}", "委托未记录：{problem}"),
    "source_not_changed": _w("the data source {name} was not changed: {problem}", "数据源 {name} 未更改：{problem}"),
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
    # the calc tool's units, the debate's sides, an evidence kind, open-order decisions (research/calc.py, validate.py,
    # evidence/quotes.py)
    "unit.plain": _w("plain", "普通数值"), "unit.pct": _w("pct", "百分数"), "unit.fraction": _w("fraction", "小数比例"),
    "unit.pp": _w("pp", "百分点"), "unit.multiple": _w("multiple", "倍数"), "unit.const": _w("const", "常数"),
    "unit.fraction_diff": _w("fraction_diff", "小数比例之差"),
    "calc_op.add": _w("add", "相加"), "calc_op.subtract": _w("subtract", "相减"),
    "debate_side.bull": _w("bull", "看多"), "debate_side.bear": _w("bear", "看空"),
    "evidence_kind.search_result": _w("search result", "搜索结果"), "none.none": _w("none", "无"),
    "evidence_kind.computation": _w("computation", "计算"), "evidence_kind.quote": _w("quote", "行情报价"),
    "evidence_kind.bars": _w("daily bars", "日线"), "evidence_kind.money_flow": _w("money flow", "资金流向"),
    "evidence_kind.announcement_list": _w("announcement list", "公告列表"),
    "evidence_kind.announcement_text": _w("announcement text", "公告正文"),
    "evidence_kind.data_gates": _w("data gates", "数据关卡"),
    "evidence_kind.data_gates_text": _w("data gates (text)", "数据关卡（文字）"),
    "evidence_kind.report": _w("report", "报告"), "evidence_kind.report_text": _w("report text", "报告正文"),
    "evidence_kind.ledger": _w("ledger", "账本"), "evidence_kind.valuation": _w("valuation", "估值"),
    "evidence_kind.financials": _w("financial statements", "财务数据"),
    "evidence_kind.web_page": _w("web page", "网页"), "evidence_kind.document": _w("document", "文档"),
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


# ---- the market rules (market/calendars.py, sessions.py, instruments.py, fees.py, ticks.py, limits.py), the
# ---- importer's rejected rows, the action rules' "allowed now", the keyring, the search and the report seal
_HOLIDAYS_HINT = _w(
    "add that period's holidays with `{add}`, then vouch for them with `{extend}`",
    "请先用 `{add}` 补记该时期的节假日，再用 `{extend}` 确认其完整",
)
ERRORS |= {
    # calendars (market/calendars.py)
    "calendar_before_start": (
        _w(
            "the {market} trading calendar starts on {first}; {day} is before it",
            "{market} 交易日历从 {first} 开始；{day} 早于此日",
        ),
        _w("no session data exists for earlier dates", "更早的日期没有交易日数据"),
    ),
    "calendar_past_end": (
        _w(
            "the {market} trading calendar is known only through {last}; {day} is past it",
            "{market} 交易日历只知道到 {last}；{day} 已超出",
        ),
        _HOLIDAYS_HINT,
    ),
    "not_a_session": (
        _w("{day} is not a {market} session", "{day} 不是 {market} 的交易日"),
        _w("use a trading day, or n != 0", "请使用交易日，或令 n != 0"),
    ),
    "not_a_session.trade": (
        _w("{day} is not a {market} session", "{day} 不是 {market} 的交易日"),
        _w("use the day the trade was made", "请使用实际成交的日期"),
    ),
    "no_calendar": (
        _w("there is no trading calendar for market {market}", "没有 {market} 市场的交易日历"),
        _w("use one of {known}", "请使用以下之一：{known}"),
    ),
    "unknown_holiday_kind": (
        _w("unknown holiday kind {kind}", "未知的节假日类型 {kind}"),
        _w("use one of {kinds}", "请使用以下之一：{kinds}"),
    ),
    "no_half_days": (
        _w("the {market} market has no half-day sessions", "{market} 市场没有半日市"),
        _w("record the day as closed", "请把这一天记为休市"),
    ),
    "calendar_already_known": (
        _w(
            "the shipped {market} calendar is already known through {shipped}",
            "程序自带的 {market} 交易日历已知到 {shipped}",
        ),
        _w("extend to a date after {shipped}", "请延展到 {shipped} 之后的日期"),
    ),
    "index_not_tradable": (
        _w("{symbol} is an index; it cannot be traded", "{symbol} 是指数，不能交易"),
        _w("use a stock or fund", "请使用股票或基金"),
    ),
    "index_not_tradable.fees": (
        _w("{symbol} is an index; indices are not tradable", "{symbol} 是指数，指数不能交易"),
        _w("give a stock or fund symbol", "请给出股票或基金代码"),
    ),
    "index_not_tradable.tick": (
        _w(
            "{symbol} is an index: it has no price tick and cannot be traded",
            "{symbol} 是指数：没有最小价格变动单位，不能交易",
        ),
        _w("use a stock or fund", "请使用股票或基金"),
    ),
    "wrong_calendar": (
        _w("{symbol} does not trade on the {market} calendar", "{symbol} 不按 {market} 交易日历交易"),
        _w("use the {own} calendar", "请使用 {own} 交易日历"),
    ),
    # sessions (market/sessions.py)
    "no_timetables": (
        _w("there are no session timetables for market {market}", "没有 {market} 市场的交易时段表"),
        _w("use {choices}", "请使用：{choices}"),
    ),
    "no_board": (
        _w("{market} has no board {board}", "{market} 没有板块 {board}"),
        _w("use {listed}", "请使用：{listed}"),
    ),
    "no_exchange": (
        _w("{market} has no exchange {exchange}", "{market} 没有交易所 {exchange}"),
        _w("use {listed}", "请使用：{listed}"),
    ),
    "exchange_no_board": (
        _w("exchange {exchange} lists no board {board}", "交易所 {exchange} 没有板块 {board}"),
        _w("use {listed}", "请使用：{listed}"),
    ),
    "timetable_unknown": (
        _w("no session timetable is known for {market} on {day}", "{market} 在 {day} 的交易时段表未知"),
        _w("the rule tables describe these sessions from {since}", "规则表从 {since} 起才描述这些交易时段"),
    ),
    "timetable_unknown.half_day": (
        _w("no half-day session timetable is known for {market} on {day}", "{market} 在 {day} 的半日市交易时段表未知"),
        _w("the rule tables describe these sessions from {since}", "规则表从 {since} 起才描述这些交易时段"),
    ),
    "naive_instant": (
        _w("the instant {instant} has no time zone", "时刻 {instant} 没有时区"),
        _w("parse user input with {function}", "请用 {function} 解析用户输入"),
    ),
    "calendar_mismatch": (
        _w(
            "the {calendar} calendar cannot answer for market {market}",
            "{calendar} 交易日历不能回答 {market} 市场的问题",
        ),
        _w("use the {market} calendar", "请使用 {market} 交易日历"),
    ),
    "no_recent_session": (
        _w(
            "no {market} session is known in the {days} days before {day}",
            "{day} 之前 {days} 天内没有已知的 {market} 交易日",
        ),
        _HOLIDAYS_HINT,
    ),
    # instruments (market/instruments.py)
    "symbol_digits": (
        _w("'{raw}' is not a valid A-share code: 6 digits expected", "“{raw}”不是有效的 A 股代码：应为 6 位数字"),
        _w(
            "write the six-digit code, e.g. 600519, 600519.SH or sh600519",
            "请写 6 位代码，例如 600519、600519.SH 或 sh600519",
        ),
    ),
    "symbol_digits.hk": (
        _w("'{raw}' is not a valid A-share code: 6 digits expected", "“{raw}”不是有效的 A 股代码：应为 6 位数字"),
        _w(
            "for a Hong Kong code write {code}.HK; A-share codes have 6 digits, e.g. 600519",
            "港股代码请写作 {code}.HK；A 股代码为 6 位数字，例如 600519",
        ),
    ),
    "symbol_digits.short": (
        _w("'{raw}' is not a valid A-share code: 6 digits expected", "“{raw}”不是有效的 A 股代码：应为 6 位数字"),
        _w("A-share codes have 6 digits, e.g. 600519", "A 股代码为 6 位数字，例如 600519"),
    ),
    "symbol_b_share": (
        _w("'{raw}' is a B-share code; B shares are not supported", "“{raw}”是 B 股代码；不支持 B 股"),
        _w("use the A-share code", "请使用 A 股代码"),
    ),
    "symbol_prefix": (
        _w("'{raw}' is not a known A-share code prefix", "“{raw}”不是已知的 A 股代码开头"),
        _w(
            "Shanghai 600/601/603/605/688/689/5xx, Shenzhen 000-003/300/301/15/16/399, Beijing 920/43/83/87",
            "上海 600/601/603/605/688/689/5xx，深圳 000-003/300/301/15/16/399，北京 920/43/83/87",
        ),
    ),
    "symbol_not_shanghai": (
        _w("'{raw}' is not a Shanghai stock, fund or index code", "“{raw}”不是上海证券交易所的股票、基金或指数代码"),
        _w("check the code", "请检查代码"),
    ),
    "symbol_not_shenzhen": (
        _w("'{raw}' is not a Shenzhen stock, fund or index code", "“{raw}”不是深圳证券交易所的股票、基金或指数代码"),
        _w("check the code", "请检查代码"),
    ),
    "symbol_not_beijing": (
        _w("'{raw}' is not a Beijing Stock Exchange code", "“{raw}”不是北京证券交易所的代码"),
        _w("Beijing codes start 920 (or 43/83/87)", "北京证券交易所代码以 920（或 43/83/87）开头"),
    ),
    "symbol_hk_digits": (
        _w(
            "'{raw}' is not a valid Hong Kong code: 1 to 5 digits expected",
            "“{raw}”不是有效的港股代码：应为 1 至 5 位数字",
        ),
        _w("e.g. 700, 0700.HK or 00700.HK", "例如 700、0700.HK 或 00700.HK"),
    ),
    "symbol_us": (
        _w("'{raw}' is not a valid US ticker", "“{raw}”不是有效的美股代码"),
        _w("e.g. {ticker} or {ticker}.US", "例如 {ticker} 或 {ticker}.US"),
    ),
    "symbol_empty": (
        _w("an empty symbol was given", "给出的代码为空"),
        _w("e.g. 600519, 00700.HK or {ticker}.US", "例如 600519、00700.HK 或 {ticker}.US"),
    ),
    "symbol_unknown": (
        _w("'{raw}' is not a symbol this program understands", "“{raw}”不是本程序能识别的代码"),
        _w(
            "A-shares: 600519 / 600519.SH / sh600519; Hong Kong: 700 / 00700.HK / hk00700; US: {ticker}.US",
            "A 股：600519 / 600519.SH / sh600519；港股：700 / 00700.HK / hk00700；美股：{ticker}.US",
        ),
    ),
    # fees (market/fees.py)
    "commission_invalid": (
        _w("commission {label} '{value}' is not a valid amount", "佣金{label_zh}“{value}”不是有效的金额"),
        _w("give a number of zero or more", "请给出大于或等于零的数"),
    ),
    "no_default_commission": (
        _w("the rule tables hold no default commission for market {market}", "规则表中没有 {market} 市场的默认佣金"),
        _w("give the account's commission rate and minimum ({options})", "请给出账户的佣金费率和最低佣金（{options}）"),
    ),
    "fee_side": (
        _w("side '{side}' is not {buy} or {sell}", "买卖方向“{side}”不是 {buy} 或 {sell}"),
        _w("use {buy} or {sell}", "请使用 {buy} 或 {sell}"),
    ),
    "fee_qty": (
        _w("quantity '{qty}' is not a positive whole number of shares", "数量“{qty}”不是正整数股"),
        _w("e.g. 100", "例如 100"),
    ),
    "fee_price": (
        _w("price '{price}' is not a positive amount", "价格“{price}”不是正数金额"),
        _w("e.g. 12.34", "例如 12.34"),
    ),
    "fee_tick": (
        _w("tick '{tick}' is not a positive price step", "最小价格变动单位“{tick}”不是正数"),
        _w("e.g. 0.01", "例如 0.01"),
    ),
    # ticks and limits (market/ticks.py, market/limits.py)
    "no_spread_table": (
        _w("no Hong Kong spread table covers {symbol} on {day}", "{day} 没有适用于 {symbol} 的港股价位表"),
        _w("check the date", "请检查日期"),
    ),
    "outside_spread_table": (
        _w(
            "{price} HKD is outside the Hong Kong spread table ({lower} to {upper})",
            "{price} 港元超出港股价位表的范围（{lower} 至 {upper}）",
        ),
        _w("check the price", "请检查价格"),
    ),
    "tick_price_not_positive": (
        _w("price {price} is not positive", "价格 {price} 不是正数"),
        _w("prices must be greater than zero", "价格必须大于零"),
    ),
    "no_limit_rule": (
        _w(
            "no price-limit rule covers {symbol} ({board}, {status}) on {day}",
            "{day} 没有适用于 {symbol}（{board}，{status}）的涨跌幅规则",
        ),
        _w("check the date and the instrument", "请检查日期和证券"),
    ),
    "reference_not_positive": (
        _w("reference price {ref} is not positive", "参考价 {ref} 不是正数"),
        _w("give the previous close (or ex-rights reference)", "请给出前收盘价（或除权参考价）"),
    ),
    "unknown_first_session_event": (
        _w("'{event}' is not a first-session event in force on {day}", "“{event}”不是 {day} 有效的首日事件"),
        _w("one of: {events}", "请使用以下之一：{events}"),
    ),
}
_SEAL_FIX = _w(
    "restore the workspace from a backup; a published report is never edited",
    "请从备份恢复工作区；已发布的报告从不修改",
)
_KEY_ELSEWHERE = "或在环境变量 {env} 中给出密钥，或把密钥保存在加密文件中：{command}"
ERRORS |= {
    # the search (research/search.py, research/search_provider.py)
    "search_timeout": (
        _w("no answer from {url} within {timeout} s", "{url} 在 {timeout} 秒内没有应答"),
        _w("check the address, or try later", "请检查地址，或稍后再试"),
    ),
    "search_unreachable": (
        _w("could not reach {url}: {reason}", "无法连接 {url}：{reason_zh}"),
        _w("check the address and that the server runs", "请检查地址，并确认服务器正在运行"),
    ),
    "search_forbidden": (
        _w("{url} refused the JSON format (HTTP 403)", "{url} 拒绝了 JSON 格式（HTTP 403）"),
        _w("enable it in {provider}'s {setting}", "请在 {provider} 的 {setting} 中启用它"),
    ),
    "search_status": (
        _w("{url} answered HTTP {status}", "{url} 返回了 HTTP {status}"),
        _w("check the address (the {provider} root)", "请检查地址（应为 {provider} 的根地址）"),
    ),
    "search_not_json": (
        _w("the answer of {url} is not JSON", "{url} 的应答不是 JSON"),
        _w("give the address of a {provider} instance", "请给出一个 {provider} 实例的地址"),
    ),
    "search_no_results": (
        _w("the answer of {url} has no results list", "{url} 的应答中没有结果列表"),
        _w("give the address of a {provider} instance", "请给出一个 {provider} 实例的地址"),
    ),
    "search_not_configured": (
        _w("no search provider is configured", "尚未配置搜索服务"),
        _w("set one: {command}", "请先设置：{command}"),
    ),
    "search_address_scheme": (
        _w("'{text}' is not an http or https address", "“{text}”不是 http 或 https 地址"),
        _w("give e.g. {example}", "请给出例如 {example}"),
    ),
    "search_address_credentials": (
        _w("the search address carries credentials", "搜索地址中带有用户名和密码"),
        _w("give the address without {userinfo}", "请给出不含 {userinfo} 的地址"),
    ),
    "search_address_query": (
        _w("the search address has a query or a fragment", "搜索地址中带有查询参数或片段"),
        _w("give the instance's root address", "请给出该实例的根地址"),
    ),
    # analytics (analytics/service.py, price_facts.py, signals.py, scan.py): the chart, the watchlist, the scan
    "no_bars_stored": (
        _w("no daily bars of {symbol} are stored on or before {day}", "{day} 及之前没有存储 {symbol} 的日线"),
        _w("import them ({imports}) or fetch them ({fetch})", "请导入（{imports}）或获取（{fetch}）日线"),
    ),
    "no_bars": (
        _w("no daily bars of {symbol}", "没有 {symbol} 的日线"),
        _w("import or fetch its daily bars", "请导入或获取它的日线"),
    ),
    # the key store (llm/service.py): where API keys are kept
    "backup_failed": (
        _w("no backup could be written to {folder}: {why}", "无法在 {folder} 中写入备份：{why}"),
        _w(
            "free some space there, or choose another folder: {command}",
            "请在该处腾出空间，或选择其他文件夹：{command}",
        ),
    ),
    "backup_folder_unusable": (
        _w("{folder} cannot be the backup folder: {why}", "无法把 {folder} 用作备份文件夹：{why}"),
        _w("choose a folder you can write to; nothing was changed", "请选择一个可以写入的文件夹；设置未改变"),
    ),
    "backup_not_found": (
        _w("'{name}' is not a complete backup", "“{name}”不是完整的备份"),
        _w("list them: {command}", "请查看备份列表：{command}"),
    ),
    "backup_damaged": (
        _w("the backup {name} is damaged: {why}", "备份 {name} 已损坏：{why}"),
        _w("restore an older one (list them: {command})", "请恢复更早的备份（查看列表：{command}）"),
    ),
    "backup_too_new": (
        _w(
            "the backup {name} has schema version {version}, newer than this release knows ({latest})",
            "备份 {name} 的数据结构版本为 {version}，比本版本所知的（{latest}）更新",
        ),
        _w("restore it with a newer Stock Workbench", "请用更新版本的股票研究工作台恢复它"),
    ),
    "restore_confirm": (
        _w(
            "restoring replaces the workspace file (it is kept aside, never deleted)",
            "恢复会替换工作区文件（原文件会另存，不会删除）",
        ),
        _w("run it again with {flag}", "请加上 {flag} 再运行一次"),
    ),
    "fees_negative": (
        _w("commission rate and minimum must not be negative", "佣金费率和最低佣金不能为负数"),
        _w("give 0 or more", "请填写 0 或更大的数"),
    ),
    "keystore_no_folder": (
        _w("this workspace has no folder for a key file", "此工作区没有可存放密钥文件的文件夹"),
        _w("open a workspace folder with {option}", "请用 {option} 打开一个工作区文件夹"),
    ),
    "keyfile_locked": (
        _w("the encrypted key file {path} needs its passphrase", "加密密钥文件 {path} 需要口令才能打开"),
        _w(
            "set {env}, or run the command in a terminal to be asked for it, or unlock it in Settings > Models",
            "请设置 {env}，或在终端中运行命令以便输入口令，或在“设置 > 模型”中解锁",
        ),
    ),
    "keyfile_wrong_passphrase": (
        _w("the passphrase does not open the encrypted key file {path}", "该口令打不开加密密钥文件 {path}"),
        _w("give its passphrase (in {env} or when asked)", "请给出它的口令（通过 {env} 或在询问时输入）"),
    ),
    "keystore_unknown": (
        _w("unknown key store '{store}'", "未知的密钥存放方式“{store}”"),
        _w("choose one of: {choices}", "请选择：{choices}"),
    ),
    "keystore_needs_passphrase": (
        _w("the encrypted key file needs a passphrase", "加密密钥文件需要口令"),
        _w(
            "set {env}, or run in a terminal to be asked, or unlock it in Settings > Models",
            "请设置 {env}，或在终端中运行以便输入口令，或在“设置 > 模型”中解锁",
        ),
    ),
    "zones_too_few_sessions": (
        _w(
            "{symbol} has too few sessions for zones (ATR14 needs 15; there are {count})",
            "{symbol} 的交易日太少，无法计算区间（ATR14 需要 15 个，现有 {count} 个）",
        ),
        _w("import or fetch more daily bars", "请导入或获取更多日线"),
    ),
    "zones_no_movement": (
        _w(
            "{symbol} has not moved in 14 sessions (ATR14 is 0): zones are undefined",
            "{symbol} 近 14 个交易日价格没有变动（ATR14 为 0），无法确定区间",
        ),
        _w("wait for trading to resume, or look at a longer history", "请等待恢复交易，或查看更长的历史"),
    ),
    "zones_no_stop": (
        _w(
            "the buy zone of {symbol} reaches the lowest price ({low}): no stop fits under it",
            "{symbol} 的买入区间已到最低价位（{low}），下方放不下止损价",
        ),
        _w("size this position by hand, with a stop you choose", "请自行设定止损价并手工计算仓位"),
    ),
    "sizing_side": (
        _w("side '{side}' is not buy or sell", "方向“{side}”既不是买入也不是卖出"),
        _w("use {buy} or {sell}", "请使用 {buy}（买入）或 {sell}（卖出）"),
    ),
    "not_a_position_state": (
        _w("'{text}' is not a position state", "“{text}”不是持仓状态"),
        _w("one of: {choices}", "可选：{choices}"),
    ),
    "not_an_action": (
        _w("'{text}' is not an action", "“{text}”不是操作"),
        _w("one of: {choices}", "可选：{choices}"),
    ),
    "calibration_no_bars": (
        _w("{path} holds no bars up to {until}", "{path} 中没有截至 {until} 的日线"),
        _w("give a later date or file", "请给出更晚的日期或其他文件"),
    ),
    "calibration_empty": (
        _w("{path} holds no bars", "{path} 中没有日线"),
        _w("give another file", "请给出其他文件"),
    ),
    "calibration_short_history": (
        _w("{path} has too little history for any state", "{path} 的历史太短，无法得出任何状态"),
        _w("give a longer history", "请给出更长的历史"),
    ),
    "community_file_missing": (
        _w("{path} does not exist", "{path} 不存在"),
        _w("give the path of the community A-share {kind}", "请给出社区 A 股 {kind} 文件的路径"),
    ),
    "no_session_by": (
        _w("no session of {symbol} on or before {day}", "{day} 及之前没有 {symbol} 的交易日数据"),
        _w("import or fetch its daily bars", "请导入或获取它的日线"),
    ),
    "scan_no_watchlist": (
        _w("this workspace has no watchlist yet", "此工作区还没有自选股"),
        _w("scan given symbols: {options}", "请指定要扫描的代码：{options}"),
    ),
    "scan_unknown_universe": (
        _w("unknown universe '{universe}'", "未知的扫描范围“{universe}”"),
        _w("use {choices}, or give symbols", "请使用 {choices}，或给出代码"),
    ),
    "scan_top_not_positive": (
        _w("top {top} is not a positive number of picks", "入选数 {top} 不是正数"),
        _w("e.g. {example}", "例如 {example}"),
    ),
    # the Brave Search API (research/search.py)
    "search_key_not_given": (
        _w("no {provider} key is given or stored", "没有提供也没有保存 {provider} 的密钥"),
        _w("give it on standard input, or set {env}", "请从标准输入提供密钥，或设置环境变量 {env}"),
    ),
    "search_key_unreadable": (
        _w("the {provider} key cannot be read: {reason}", "无法读取 {provider} 的密钥：{reason_zh}"),
        _w("{hint}", "{hint_zh}"),
    ),
    "search_key_unencrypted": (
        _w("the {name} key would travel unencrypted", "{name} 密钥将以未加密方式传输"),
        _w(
            "give an https address (http only to this machine: {hosts})",
            "请给出 https 地址（仅本机可用 http：{hosts}）",
        ),
    ),
    "search_no_key": (
        _w("no {provider} key is stored", "尚未保存 {provider} 的密钥"),
        _w("store it: {command} (or set {env})", "请保存密钥：{command}（或设置环境变量 {env}）"),
    ),
    "search_key_refused": (
        _w("the key was refused (HTTP {status})", "密钥被拒绝（HTTP {status}）"),
        _w(
            "check the key in the {provider} dashboard, then store it again: {command}",
            "请在 {provider} 控制台核对密钥，然后重新保存：{command}",
        ),
    ),
    "search_rate_limited": (
        _w("rate limited (HTTP {status})", "请求过于频繁，已被限流（HTTP {status}）"),
        _w("wait a moment and try again, or raise the plan's limit", "请稍等后再试，或提高套餐的调用上限"),
    ),
    "search_api_status": (
        _w("{url} answered HTTP {status}", "{url} 返回了 HTTP {status}"),
        _w("check the address of the {provider}", "请检查 {provider} 的地址"),
    ),
    "search_api_not_json": (
        _w("the answer of {url} is not JSON", "{url} 的应答不是 JSON"),
        _w("give the address of the {provider}", "请给出 {provider} 的地址"),
    ),
    "search_api_no_results": (
        _w("the answer of {url} has no web results list", "{url} 的应答中没有网页结果列表"),
        _w("give the address of the {provider}", "请给出 {provider} 的地址"),
    ),
    # the API keys (llm/keys.py, llm/key_file.py)
    "key_empty": (
        _w("the API key is empty", "API 密钥为空"),
        _w("paste the key on standard input", "请在标准输入中粘贴密钥"),
    ),
    "passphrase_short": (
        _w("the passphrase is shorter than {minimum} characters", "口令短于 {minimum} 个字符"),
        _w("choose a longer passphrase", "请选择更长的口令"),
    ),
    "keyring_unavailable": (
        _w("the OS keyring is not available: {missing}", "操作系统钥匙串不可用：{missing_zh}"),
        _w(
            "{how}; or give the key in the environment variable {env}, or keep keys in an encrypted file: {command}",
            "{how_zh}；" + _KEY_ELSEWHERE,
        ),
    ),
    "keyring_refused": (
        _w("the OS keyring refused the request (it may be locked)", "操作系统钥匙串拒绝了请求（它可能已锁定）"),
        _w(
            "unlock the keyring and try again; or give the key in the environment variable {env}, or "
            "keep keys in an encrypted file: {command}",
            "请解锁钥匙串后重试；" + _KEY_ELSEWHERE,
        ),
    ),
}

PROBLEMS |= {
    # the position state machine (analytics/position_states.py): why a state or an action is refused now
    "still_holding": (
        _w(
            "the ledger holds {qty} shares: the state cannot be {target}",
            "账本中持有 {qty} 股：持仓状态不能是{target_zh}",
        ),
        _w("use {holding} or {reducing}", "请使用{holding_zh}或{reducing_zh}"),
    ),
    "not_sold_out": (
        _w(
            "the ledger holds {qty} shares: {exited} needs the position sold",
            "账本中持有 {qty} 股：{exited_zh}需要先卖出全部持仓",
        ),
        _w("record the sell fills first", "请先记录卖出成交"),
    ),
    "no_shares": (
        _w("the ledger holds no shares: the state cannot be {target}", "账本中没有持股：持仓状态不能是{target_zh}"),
        _w("record the buy fills first, or use {building}", "请先记录买入成交，或使用{building_zh}"),
    ),
    "nothing_sellable": (
        _w("none of the {qty} shares is sellable today (T+1)", "持有的 {qty} 股今天都不可卖出（T+1）"),
        _w("reduce from the next session", "请从下一个交易日起减仓"),
    ),
    "no_zones": (
        _w("{target} needs buy and sell zones", "{target_zh}需要先有买入和卖出区间"),
        _w("compute them: {command}", "请先计算区间：{command}"),
    ),
    "buying_into_sell_zone": (
        _w("the price is {zone}: building there contradicts the plan", "价格{zone_zh}：在此建仓与计划相矛盾"),
        _w("wait for the buy zone, or recompute the zones", "请等待价格回到买入区间，或重新计算区间"),
    ),
    "stop_hit": (
        _w("the price is at or under the stop: no building", "价格已触及或跌破止损位：不能建仓"),
        _w("wait for new zones", "请等待新的区间"),
    ),
    "illegal_move": (
        _w("the position cannot go from {current} to {target}", "持仓状态不能从{current_zh}变为{target_zh}"),
        _w("from {current} it can go to {allowed}", "从{current_zh}可以变为：{allowed_zh}"),
    ),
    "action_needs_position": (
        _w("the ledger holds no shares: the action cannot be {action}", "账本中没有持股：操作不能是{action_zh}"),
        _w(
            "nothing held and nothing to do is wait; to open a position, buy",
            "未持股且无需操作时请选观望；要建立仓位请选买入",
        ),
    ),
    "action_move_illegal": (
        _w(
            "{action} needs the position to go from {current} to {targets}, which is not legal now: {why}",
            "{action_zh}需要持仓状态从{current_zh}变为{targets_zh}，但现在不可行：{why_zh}",
        ),
        _w("{fixes}", "{fixes_zh}"),
    ),
    "action_needs_no_position": (
        _w(
            "the ledger holds {qty} shares: the action cannot be {action}", "账本中持有 {qty} 股：操作不能是{action_zh}"
        ),
        _w("a holder's action is {other}", "持股时对应的操作是{other_zh}"),
    ),
    # the search tool (research/search.py)
    "search_unavailable": (
        _w("no search provider is configured", "尚未配置搜索服务"),
        _w(
            "disclose that no search was run; the user can set one in Settings ({command})",
            "请披露未进行搜索；用户可在“设置”中配置搜索服务（{command}）",
        ),
    ),
    "search_empty": (
        _w("no search terms were given", "没有给出搜索词"),
        _w("give one or more terms", "请给出一个或多个搜索词"),
    ),
    "search_failed": (
        _w("the search failed: {reason}", "搜索失败：{reason_zh}"),
        _w("disclose the failed search as a gap", "请把失败的搜索作为数据缺口披露"),
    ),
    # the report seal (research/archive.py, research/service.py)
    "report_tampered.no_seal": (
        _w("report {report}: the report carries no seal ({field})", "报告 {report}：报告没有封印（{field}）"),
        _w("it was written outside the archive", "它是在报告库之外写入的"),
    ),
    "report_tampered.changed": (
        _w(
            "report {report}: the stored {what} changed after the report was sealed ({field})",
            "报告 {report}：存储的{what_zh}在报告封印后被改动（{field}）",
        ),
        _SEAL_FIX,
    ),
    "report_tampered.seal": (
        _w(
            "report {report}: the seal does not match the sealed field hashes ({field})",
            "报告 {report}：封印与封存字段的哈希不符（{field}）",
        ),
        _SEAL_FIX,
    ),
    "report_tampered.chain_missing": (
        _w(
            "report {report}: report number {before} before it is missing ({field})",
            "报告 {report}：它之前的第 {before} 号报告缺失（{field}）",
        ),
        _SEAL_FIX,
    ),
    "report_tampered.chain_broken": (
        _w(
            "report {report}: it no longer follows {before} in the chain ({field})",
            "报告 {report}：它在链中已不再接在 {before} 之后（{field}）",
        ),
        _SEAL_FIX,
    ),
    "report_tampered.chain_first": (
        _w(
            "report {report}: it claims a predecessor, but it is the first report ({field})",
            "报告 {report}：它声称有前一份报告，但它是第一份报告（{field}）",
        ),
        _SEAL_FIX,
    ),
    "report_tampered.chain_next": (
        _w(
            "report {report}: the next report {after} does not follow it ({field})",
            "报告 {report}：下一份报告 {after} 没有接在它之后（{field}）",
        ),
        _SEAL_FIX,
    ),
    "report_tampered.chain_twins": (
        _w(
            "report {report}: {twins} reports claim place {seq} in the chain ({field})",
            "报告 {report}：有 {twins} 份报告声称位于链中第 {seq} 位（{field}）",
        ),
        _SEAL_FIX,
    ),
    "report_tampered.log_other": (
        _w(
            "report {report}: the seal log holds another report or seal for place {seq} ({field})",
            "报告 {report}：封印日志中第 {seq} 位是另一份报告或封印（{field}）",
        ),
        _SEAL_FIX,
    ),
    "report_tampered.log_gone": (
        _w(
            "report {report}: reports in the seal log are gone from the workspace: {ids} ({field})",
            "报告 {report}：封印日志中的报告已从工作区消失：{ids}（{field}）",
        ),
        _SEAL_FIX,
    ),
    "report_tampered.markdown": (
        _w(
            "report {report}: the stored Markdown is not what its sealed content renders ({field})",
            "报告 {report}：存储的 Markdown 文本与其封存内容渲染出的不一致（{field}）",
        ),
        _SEAL_FIX,
    ),
}

NOTES |= {
    "choose_allowed_action": _w("choose an action the position allows", "请选择当前持仓允许的操作"),
    # the importer's rejected rows (data/importer.py: the reason codes)
    "import.bad_symbol": _w("the symbol is not a code this program understands", "代码无法识别"),
    "import.bad_date": _w("the date is missing or not a date", "日期缺失或格式不对"),
    "import.bad_price": _w("a price is missing or not a number", "价格缺失或不是数字"),
    "import.non_positive_price": _w("a price is zero or negative", "价格为零或负数"),
    "import.high_below_open_or_close": _w("the high is below the open or the close", "最高价低于开盘价或收盘价"),
    "import.low_above_open_or_close": _w("the low is above the open or the close", "最低价高于开盘价或收盘价"),
    "import.bad_volume": _w("the volume is missing or not a whole number", "成交量缺失或不是整数"),
    "import.negative_volume": _w("the volume is negative", "成交量为负数"),
    "import.bad_amount": _w("the amount is not a number or is negative", "成交额不是数字或为负数"),
    "import.bad_mcap": _w("a market capitalisation is not a number", "市值不是数字"),
    "import.duplicate_row": _w("another row has the same symbol and date", "另有一行的代码和日期相同"),
    # the action rules' suffix (evidence/gates.py)
    "allowed_now": _w(" (allowed now: {allowed_now})", "（当前允许：{allowed_now_zh}）"),
    # how to get an OS keyring (llm/keys.py), per platform
    "keyring.missing.darwin": _w(
        "the {keychain} did not answer (it is always present; the login keychain may be locked)",
        "{keychain}没有应答（它总是存在；登录钥匙串可能已锁定）",
    ),
    "keyring.how.darwin": _w(
        "unlock the login keychain in {app} (or `{command}`), then try again",
        "请在 {app} 中解锁登录钥匙串（或运行 `{command}`），然后重试",
    ),
    "keyring.missing.windows": _w("{manager} did not answer (it is always present)", "{manager}没有应答（它总是存在）"),
    "keyring.how.windows": _w(
        "run Stock Workbench in your own signed-in {system} session (not a service account), then try again",
        "请在你本人登录的 {system} 会话（而不是服务账户）中运行股票研究工作台，然后重试",
    ),
    "keyring.missing.other": _w("no keyring backend for this system", "此系统没有可用的钥匙串后端"),
    "keyring.how.other": _w(
        "install a keyring that the Python `{package}` package supports", "请安装 `{package}` 包支持的钥匙串"
    ),
    "keyring.missing.linux": _w(
        "no {service} keyring ({backends}) answers on the {bus} session bus",
        "会话总线（{bus}）上没有 {service} 钥匙串（{backends}）应答",
    ),
    "keyring.missing.linux_headless": _w(
        "no {service} keyring ({backends}) can be reached: there is no {bus} session "
        "({variable} is unset), as on a headless machine or over {ssh}",
        "无法连接 {service} 钥匙串（{backends}）：没有 {bus} 会话（{variable} 未设置），"
        "无图形界面的机器或通过 {ssh} 登录时就是这样",
    ),
    "keyring.how.linux_unknown": _w(
        "install {gnome} (with libsecret's `{tool}`) or {kwallet} with your distribution's "
        "package manager, then log in to a desktop session so that it is unlocked",
        "请用发行版的包管理器安装 {gnome}（连同 `{tool}`）或 {kwallet}，然后登录桌面会话使其解锁",
    ),
    "keyring.how.linux": _w(
        "on {name}: `{install}`, then log in to a desktop session so that the keyring is unlocked "
        "(`{check}` checks it answers); on {kde}: `{kwallet}`",
        "在 {name} 上：`{install}`，然后登录桌面会话使钥匙串解锁（`{check}` 可检查它是否应答）；"
        "在 {kde} 上：`{kwallet}`",
    ),
}

VALUES |= {
    "journal_kind.account": _w("accounts", "账户"),
    "journal_kind.fee_terms": _w("fee terms", "佣金条款"),
    "journal_kind.cash": _w("cash entries", "资金记录"),
    "journal_kind.fill": _w("fills", "成交"),
    "journal_kind.action": _w("corporate actions", "公司行动"),
    "journal_kind.order": _w("orders", "委托"),
    "journal_kind.order_event": _w("order events", "委托事件"),
    "journal_kind.void": _w("voids", "作废"),
    "sealed.markdown": _w("Markdown text", "Markdown 文本"),
    "sealed.draft": _w("draft", "草稿"),
    "sealed.frozen": _w("frozen gate context", "冻结的数据关卡上下文"),
    "sealed.evidence": _w("evidence of its run", "研究证据"),
    "fee_label.rate": _w("rate", "费率"),
    "fee_label.minimum": _w("minimum", "最低额"),
}


# ---- a damaged workspace (store/damage.py) and `stockbench doctor` (doctor.py) ----
_DAMAGE: dict[str, tuple[Words, Words]] = {  # reason: (what is wrong, what to do first)
    "not_a_database": (
        _w(
            "The workspace file {file} is not a usable DuckDB database (it is empty, cut short or another kind of "
            "file).",
            "工作区文件 {file} 不是可用的数据库（文件为空、被截断或是其他类型的文件）。",
        ),
        _w("Keep that file as it is", "请保留该文件原样"),
    ),
    "corrupt": (
        _w(
            "The workspace file {file} is damaged: part of it no longer reads back as it was written.",
            "工作区文件 {file} 已损坏：其中一部分读出的内容与写入时不符。",
        ),
        _w("Keep that file as it is", "请保留该文件原样"),
    ),
    "read_only": (
        _w(
            "The workspace folder {folder} cannot be written (the folder or its files are read-only).",
            "工作区文件夹 {folder} 无法写入（文件夹或其中的文件是只读的）。",
        ),
        _w(
            "Make the folder and its files writable and try again (nothing was changed)",
            "请让该文件夹及其文件可写后重试（未做任何改动）",
        ),
    ),
    "disk_full": (
        _w(
            "The disk holding {folder} is full (or the file may grow no larger): the change was not saved.",
            "存放 {folder} 的磁盘已满（或文件不能再增大）：这次改动没有保存。",
        ),
        _w(
            "Free some space and try again (what was saved before is intact)",
            "请腾出磁盘空间后重试（之前保存的内容完好）",
        ),
    ),
    "wal_missing_or_bad": (
        _w(
            "The workspace's write-ahead log {file}.wal is damaged, so its last saved changes cannot be read.",
            "工作区的预写日志 {file}.wal 已损坏，最近保存的改动无法读取。",
        ),
        _w("Keep both files as they are", "请保留这两个文件原样"),
    ),
}
_DAMAGE_BACKUP = _w(
    "{first}; newest backup: {backup}, taken {taken}: restore it with `{command}`.",
    "{first}；最新的备份：{backup}，备份于 {taken}：用 `{command}` 恢复。",
)
_DAMAGE_NO_BACKUP = _w(
    "{first}; there is no backup of this workspace: move {file} aside (do not delete it) and open a new workspace "
    "(--home DIR, or File ▸ New Workspace).",
    "{first}；此工作区没有备份：请把 {file} 移到别处（不要删除），"
    "然后打开一个新工作区（--home 目录，或“文件 ▸ 新建工作区”）。",
)
_NO_BACKUP_YET = _w("{first}; there is no backup of this workspace yet.", "{first}；此工作区还没有备份。")
ERRORS |= {  # the hint: what to do first (by reason), then the newest backup and how to restore it, or that none is
    f"workspace_damaged.{reason}.{which}": (
        message,
        _w(hint.en.replace("{first}", first.en), hint.zh.replace("{first}", first.zh)),
    )
    for reason, (message, first) in _DAMAGE.items()
    for which, hint in (
        ("backup", _DAMAGE_BACKUP),
        # a read-only folder or a full disk damaged nothing: the file stays where it is
        ("no_backup", _NO_BACKUP_YET if reason in ("read_only", "disk_full") else _DAMAGE_NO_BACKUP),
    )
}

NOTES |= {
    # `stockbench doctor`: one line per check (its name and status stay English in --json)
    "doctor.title": _w("Workspace {home}", "工作区 {home}"),
    "doctor.status.ok": _w("ok", "正常"),
    "doctor.status.warning": _w("warning", "注意"),
    "doctor.status.failed": _w("FAILED", "失败"),
    "doctor.ok": _w("Nothing is wrong with this workspace.", "此工作区没有发现问题。"),
    "doctor.failed": _w("{failed} check(s) failed.", "有 {failed} 项检查失败。"),
    "doctor.schema.ok": _w(
        "schema: {version} migrations applied, checksums match, {tables} tables present",
        "数据结构：已应用 {version} 个迁移，校验和一致，{tables} 张表齐全",
    ),
    "doctor.schema.pending": _w(
        "schema: version {version}; migrations {pending} are not applied yet",
        "数据结构：版本 {version}；迁移 {pending} 尚未应用",
    ),
    "doctor.schema.checksum": _w(
        "schema: migration(s) {versions} differ from what this release ships",
        "数据结构：迁移 {versions} 与本版本附带的不一致",
    ),
    "doctor.schema.unknown": _w(
        "schema: version(s) {versions} are unknown to this release", "数据结构：本版本不认识版本 {versions}"
    ),
    "doctor.schema.too_new": _w("schema: {message}", "数据结构：{message}"),
    "doctor.schema.tables": _w("schema: table(s) {tables} are missing", "数据结构：缺少表 {tables}"),
    "doctor.report_seals.ok": _w("report seals: all {count} reports verify", "报告封印：全部 {count} 份报告验证通过"),
    "doctor.report_seals.failed": _w(
        "report seals: {bad} of {count} reports do not verify ({reports}): {first}",
        "报告封印：{count} 份报告中有 {bad} 份验证不通过（{reports}）：{first}",
    ),
    "doctor.backups.none": _w(
        "no backup in {folder} yet (take one: {command})", "{folder} 中还没有备份（立即备份：{command}）"
    ),
    "doctor.backups.damaged": _w(
        "the newest backup {name} is damaged: {problem}", "最新的备份 {name} 已损坏：{problem}"
    ),
    "doctor.backups.old": _w(
        "the newest backup {name} is {age_days} days old", "最新的备份 {name} 已是 {age_days} 天前的"
    ),
    "doctor.backups.ok": _w(
        "{count} backup(s) in {folder}; the newest is {name}", "{folder} 中有 {count} 份备份；最新的是 {name}"
    ),
    "backup.taken": _w("backup {name} taken ({mb} MB) in {folder}", "已在 {folder} 中备份 {name}（{mb} MB）"),
    "backup.none": _w("no backups yet in {folder}", "{folder} 中还没有备份"),
    "backup.folder": _w("backups go to {folder}", "备份保存在 {folder}"),
    "backup.restored": _w(
        "restored {name}; the file it replaced is kept as {aside}", "已恢复 {name}；被替换的文件保留为 {aside}"
    ),
    "backup.journal_ahead": _w(
        "the ledger journal holds entries newer than this backup: bring them back with {command}",
        "账本日志中有比此备份更新的记录：可用 {command} 恢复它们",
    ),
    "doctor.integrity.ok": _w(
        "integrity: every block of {tables} tables reads back ({mb} MB in {seconds} s)",
        "完整性：{tables} 张表的每个数据块都能正确读出（{mb} MB，用时 {seconds} 秒）",
    ),
    "doctor.integrity.failed": _w(
        "integrity: table(s) {tables} do not read back: {reason}", "完整性：表 {tables} 无法正确读出：{reason}"
    ),
    "doctor.damaged": _w("integrity: {message} {hint}", "完整性：{message}{hint}"),
    "doctor.not_checked": _w(
        "{name}: not checked (the workspace cannot be opened)", "{name}：未检查（工作区无法打开）"
    ),
}


# ---- the command line's own lines (stockbench/cli/*.py): what a command did, its table headers, and the words of
# ---- the values in them; commands, options, codes and symbols are parameters
NOTES |= {
    "cli.none": _w("(none)", "（无）"),
    # ledger (cli/ledger.py)
    "cli.account.opened": _w("account '{account}' opened ({currency}, markets {markets})",
                             "账户“{account}”已开立（{currency}，市场 {markets}）"),
    "cli.cash.recorded": _w("{entry_id}: {kind} {amount} {currency} at {at}",
                            "{entry_id}：{at} {kind} {amount} {currency}"),
    "cli.transfer.done": _w("transferred {sent} {currency} -> {received} {to_currency}",
                            "已转账：转出 {sent} {currency}，转入 {received} {to_currency}"),
    "cli.fill.line": _w("{side} {qty} {symbol} @ {price} on {trade_date}, fees {fees}",
                        "{side} {qty} 股 {symbol}，价格 {price}，交易日 {trade_date}，费用 {fees}"),
    "cli.fill.valid": _w("valid: {fill}", "可以记录：{fill}"),
    "cli.fill.recorded": _w("recorded {fill_id}: {fill}", "已记录 {fill_id}：{fill}"),
    "cli.balance.none": _w("no cash", "没有现金"),
    "cli.void.done": _w("voided {voided}: {reason}", "已作废 {voided}：{reason}"),
    "cli.order.added": _w("order {order_id}: {side} {qty} {symbol} @ {price}",
                          "委托 {order_id}：{side} {qty} 股 {symbol}，价格 {price}"),
    "cli.order.status": _w("order {order_id} {status}", "委托 {order_id} {status}"),
    "cli.action.dividend": _w("{action_id}: dividend {amount} on {symbol}", "{action_id}：{symbol} 现金分红 {amount}"),
    "cli.action.shares": _w("{action_id}: {kind} {qty} shares of {symbol}", "{action_id}：{symbol} {kind} {qty} 股"),
    "cli.import.would_write": _w("would write {count} fill(s)", "将写入 {count} 笔成交"),
    "cli.import.wrote": _w("wrote {count} fill(s)", "已写入 {count} 笔成交"),
    "cli.import.row_note": _w("row {number}: {text}", "第 {number} 行：{text}"),
    "cli.export.wrote": _w("wrote {entries} entries to {path}", "已把 {entries} 条记录写入 {path}"),
    # data (cli/data.py; data/indices.py)
    "cli.import.counts": _w("read {read}, stored {stored}, rejected {rejected} ({seconds} s)",
                            "读取 {read} 行，存入 {stored} 行，拒收 {rejected} 行（{seconds} 秒）"),
    "cli.import.span": _w("{symbols} instruments, {names} name changes, {first}..{last}",
                          "{symbols} 只证券，{names} 次名称变更，{first}..{last}"),
    "cli.import.rejected": _w("  rejected {count}: {reason} ({words})", "  拒收 {count} 行：{words}（{reason}）"),
    "cli.import.sample": _w("  e.g. {file} line {line}: {reason} ({words})",
                            "  例如 {file} 第 {line} 行：{words}（{reason}）"),
    "cli.indices.built": _w("built indices from {rows} stock bars ({seconds} s):",
                            "已由 {rows} 条股票日线构建指数（{seconds} 秒）："),
    "cli.indices.index": _w("  {symbol} {name}: {sessions} sessions {first}..{last}, {members} members on the last",
                            "  {symbol} {name}：{sessions} 个交易日 {first}..{last}，最后一日 {members} 只成分股"),
    "cli.indices.not_built": _w("  not built {symbol}: {reason}", "  未构建 {symbol}：{reason}"),
    "index.owned": _w("{symbol} is a stored instrument of source {source}",
                      "{symbol} 是数据源 {source} 中已存储的证券"),
    "index.no_stock": _w("no stored stock of the boards {boards}", "没有存储{boards_zh}的股票"),
    "cli.bars.head": _w("{symbol}: {count} bars from {source} (adjust {adjust})",
                        "{symbol}：{count} 条日线，来自 {source}（复权：{adjust}）"),
    "cli.quote.line": _w("{symbol} {price} ({label}{status}{delay}, {date}, {source})",
                         "{symbol} {price}（{label}{status}{delay}，{date}，{source}）"),
    "cli.fetch.replayed": _w("Replayed: the answers recorded at {at}, not live now",
                             "回放：{at} 录制的应答，并非此刻的实时行情"),
    "cli.fetch.replayed_unknown": _w("Replayed: answers from a recording, not live now",
                                     "回放：录制的应答，并非此刻的实时行情"),
    "cli.quote.delay": _w(", {minutes} min late", "，延迟 {minutes} 分钟"),
    "cli.quote.status": _w(", {status}", "，{status}"),
    "cli.quote.field": _w("{field} {tag} ({sources})", "{field} {tag}（{sources}）"),
    # the zones' flags (analytics/service.py): the English starts with the flag's code, as the JSON has it
    "zone_flag.no_bar": _w("no_bar: no bar on {session} (suspended, or not fetched); levels as of {day}",
                           "{session} 没有日线（停牌或未获取）；价位按 {day} 计算"),
    "zone_flag.calendar_unknown": _w("calendar_unknown: {message}", "交易日历未知：{message_zh}"),
    "zone_flag.closed_limit_up": _w("closed_limit_up: {day} closed at the limit-up price {price}; buying at the next "
                                    "open may be impossible while the board stays sealed",
                                    "{day} 收于涨停价 {price}；封板期间下一交易日开盘可能无法买入"),
    "zone_flag.closed_limit_down": _w("closed_limit_down: {day} closed at the limit-down price {price}",
                                      "{day} 收于跌停价 {price}"),
    "zone_flag.ex_rights": _w("ex_rights: {ex_day} (factor {factor}); earlier bars adjusted onto the {day} scale",
                              "{ex_day} 除权除息（复权因子 {factor}）；之前的日线已按 {day} 的价格尺度复权"),
    # zones (cli/analytics_zones.py)
    "cli.zones.head": _w("{symbol} as of {as_of}: price {price} is {placed}",
                         "{symbol} 截至 {as_of}：价格 {price} {placed}"),
    "cli.zones.place.stop_hit": _w("at or below the stop {stop}", "处于或低于止损位 {stop}"),
    "cli.zones.place.below_buy": _w("under the buy zone {buy} (built on {buy_basis}), above the stop {stop}",
                                    "低于买入区间 {buy}（依据 {buy_basis}），高于止损位 {stop}"),
    "cli.zones.place.in_buy": _w("in the buy zone {buy} (built on {buy_basis})",
                                 "位于买入区间 {buy}（依据 {buy_basis}）"),
    "cli.zones.place.between": _w("between the zones: the buy zone {buy} is built on {buy_basis}; the sell zone "
                                  "{sell} on {sell_basis}",
                                  "位于两个区间之间：买入区间 {buy} 依据 {buy_basis}；"
                                  "卖出区间 {sell} 依据 {sell_basis}"),
    "cli.zones.place.in_sell": _w("in the sell zone {sell} (built on {sell_basis})",
                                  "位于卖出区间 {sell}（依据 {sell_basis}）"),
    "cli.zones.place.above_sell": _w("above the sell zone {sell} (built on {sell_basis})",
                                     "高于卖出区间 {sell}（依据 {sell_basis}）"),
    "cli.zones.no_basis": _w("no basis", "无依据"),
    "cli.zones.basis_at": _w("{name} {value}, at the price", "{name} {value}，与价格相同"),
    "cli.zones.basis_above": _w("{name} {value}, {pct}% above the price", "{name} {value}，高于价格 {pct}%"),
    "cli.zones.basis_below": _w("{name} {value}, {pct}% below the price", "{name} {value}，低于价格 {pct}%"),
    "cli.zones.anchor": _w("{name} {value} ({day})", "{name} {value}（{day}）"),
    "cli.zones.buy": _w("buy   {low} - {high}   (top {distance}% from the price)   on {anchors}",
                        "买入  {low} - {high}   （上沿距价格 {distance}%）   依据 {anchors}"),
    "cli.zones.sell": _w("sell  {low} - {high}   (bottom {distance}% from the price)   on {anchors}",
                         "卖出  {low} - {high}   （下沿距价格 {distance}%）   依据 {anchors}"),
    "cli.zones.stop": _w("stop  {stop}   ({distance}% from the price)", "止损  {stop}   （距价格 {distance}%）"),
    "cli.zones.plan": _w("plan  reward-to-risk {ratio} (minimum {minimum}): {verdict}",
                         "计划  盈亏比 {ratio}（下限 {minimum}）：{verdict}"),
    "cli.zones.tradeable": _w("tradeable", "可交易"),
    "cli.zones.not_tradeable": _w("not tradeable ({reasons})", "不可交易（{reasons}）"),
    "cli.zones.next": _w("next session {day}: limits {down} - {up}", "下一交易日 {day}：跌停价 {down}，涨停价 {up}"),
    # sizing and the scan (cli/analytics_zones.py)
    "cli.size.order": _w("{side} {qty} {symbol} at {price} (stop {stop}) on {day}",
                         "{day} {side} {qty} 股 {symbol}，价格 {price}（止损 {stop}）"),
    "cli.size.fees": _w("fees {total} ({items}); break-even {break_even}",
                        "费用 {total}（{items}）；保本价 {break_even}"),
    "cli.size.after": _w("cash after {cash}; weight after {weight}; loss at stop {loss} (budget {budget}); bound by "
                         "{bound}",
                         "交易后现金 {cash}；交易后仓位占比 {weight}；止损时亏损 {loss}（预算 {budget}）；"
                         "受限于{bound}"),
    "cli.scan.head": _w("scanned {scanned} symbols on {as_of}, {ranked} ranked",
                        "{as_of} 扫描了 {scanned} 只证券，{ranked} 只参与排名"),
    "cli.scan.st_left_out": _w("left out as ST/*ST though they scored enough: {left} ({option} to rank them)",
                               "得分足够但因 ST 或 *ST 未列入：{left}（加 {option} 可参与排名）"),
    # the watchlist (cli/watchlist.py)
    "cli.watchlist.empty": _w("the watchlist is empty: add a symbol with {command}",
                              "自选股为空：请用 {command} 添加代码"),
    "cli.watchlist.added": _w("added {symbol} to '{group}'", "已把 {symbol} 加入分组“{group}”"),
    "cli.watchlist.removed": _w("removed {symbol} from {count} group(s)", "已从 {count} 个分组中移除 {symbol}"),
    "cli.watchlist.moved": _w("moved {symbol} to '{group}' at {position}",
                              "已把 {symbol} 移到分组“{group}”的第 {position} 位"),
    "cli.watchlist.groups": _w("groups: {groups}", "分组：{groups}"),
    "cli.watchlist.group_created": _w("group '{name}' created", "已创建分组“{name}”"),
    "cli.watchlist.group_renamed": _w("group renamed to '{name}'", "分组已改名为“{name}”"),
    "cli.watchlist.group_removed": _w("group '{name}' removed", "已删除分组“{name}”"),
    # models (cli/models.py)
    "cli.models.endpoint": _w("  endpoint   {value}", "  接口地址   {value}"),
    "cli.models.fallback": _w("  fallback   {value}", "  备用模型   {value}"),
    "cli.models.key": _w("  key        {value}", "  密钥       {value}"),
    "cli.models.context": _w("  context    {tokens} tokens; tool_choice {tool_choice}; reasoning {reasoning}",
                             "  上下文     {tokens} 个词元；工具选择 {tool_choice}；推理内容 {reasoning}"),
    "cli.models.price": _w("  price      {uncached} / {cached} cached / {output} out {currency} per million tokens",
                           "  价格       每百万词元 {currency}：输入 {uncached}，缓存输入 {cached}，输出 {output}"),
    "cli.models.price_unknown": _w("  price      unknown", "  价格       未知"),
    "cli.models.not_usable": _w("not usable yet: {step}", "暂不可用：{step}"),
    "cli.models.unknown": _w("unknown", "未知"),
    "cli.models.not_required": _w("not required", "不需要"),
    "cli.models.key_deleted": _w("key of {name} deleted", "已删除 {name} 的密钥"),
    "cli.models.key_not_stored": _w("key of {name} was not stored", "{name} 没有保存过密钥"),
    "cli.models.key_stored_file": _w("key of {name} stored in the encrypted key file",
                                     "{name} 的密钥已存入加密密钥文件"),
    "cli.models.key_stored_os": _w("key of {name} stored in the OS keyring", "{name} 的密钥已存入操作系统钥匙串"),
    "cli.models.keys_in_os": _w("keys are kept in the OS keyring", "密钥保存在操作系统钥匙串中"),
    "cli.models.keys_in_file": _w("keys are kept in the encrypted file {path}", "密钥保存在加密文件 {path} 中"),
    "cli.models.not_usable_now": _w(" (not usable now)", "（现在不可用）"),
    "cli.models.environment": _w("a key in {env} is used before a stored one, and never stored",
                                 "环境变量 {env} 中的密钥优先于已保存的密钥使用，且从不保存"),
    "cli.models.test_ok": _w("{name}: ok in {ms} ms ({how})", "{name}：正常，用时 {ms} 毫秒（{how}）"),
    "cli.models.streamed": _w("streamed", "流式"), "cli.models.plain": _w("plain", "非流式"),
    "cli.models.test_model": _w("  model    {model} via {route}", "  模型     {model}，经由 {route}"),
    "cli.models.test_reply": _w("  reply    {content} (finish: {finish})",
                                "  回复     {content}（结束原因：{finish}）"),
    "cli.models.test_tokens": _w("  tokens   {tokens}", "  词元     {tokens}"),
    "cli.models.test_usage": _w("{prompt} prompt ({cached} cached) + {completion} output",
                                "输入 {prompt}（缓存 {cached}）+ 输出 {completion}"),
    "cli.models.usage_unknown": _w("usage not reported", "未报告用量"),
    "cli.models.test_cost": _w("  cost     {cost}", "  费用     {cost}"),
    "cli.models.keys_unchecked": _w("stored keys cannot be checked: {reason}", "无法检查已保存的密钥：{reason}"),
    "cli.models.removed": _w("model {name} removed", "已删除模型 {name}"),
    # research runs and reports (cli/research.py)
    "cli.run.line": _w("run {run_id}: {status}{reason}", "研究 {run_id}：{status}{reason}"),
    "cli.run.reason": _w(" ({reason})", "（{reason}）"),
    "cli.run.report": _w("report {report_id}: {action}", "报告 {report_id}：{action}"),
    "cli.run.buy_zone": _w("  buy zone {low} - {high}", "  买入区间 {low} - {high}"),
    "cli.run.sell_zone": _w("  sell zone {low} - {high}", "  卖出区间 {low} - {high}"),
    "cli.run.stop": _w("  stop {stop}", "  止损 {stop}"),
    "cli.run.order": _w("  order {side} {qty} @ {price}", "  委托 {side} {qty} 股，价格 {price}"),
    "cli.run.stage": _w("== {stage}", "== {stage}"),
    "cli.run.paused": _w("paused: {reason}", "已暂停：{reason}"),
    "cli.report.tampered": _w("warning: report {report_id} is not as it was published: {problem}",
                              "警告：报告 {report_id} 已不是发布时的样子：{problem}"),
    "cli.report.tampered_hint": _w("hint: run `{command}` for every problem; restore the workspace from a backup",
                                   "提示：运行 `{command}` 查看全部问题；请从备份恢复工作区"),
    "cli.wrote": _w("wrote {path}", "已写入 {path}"),
    "cli.ok": _w("ok", "通过"),
    # the demo market and the workspace (cli/demo.py, cli/info.py)
    "cli.demo.home": _w("demo market   {home} ({state})", "示例市场     {home}（{state}）"),
    "cli.demo.built": _w("built", "已建好"), "cli.demo.already_built": _w("already built", "早已建好"),
    "cli.demo.clock": _w("clock         pinned at {as_of} (replay)", "时钟         固定在 {as_of}（回放）"),
    "cli.demo.instruments": _w("instruments   {count}", "证券         {count}"),
    "cli.demo.bars": _w("bars          {count} from {first} to {last}", "日线         {count} 条，{first} 至 {last}"),
    "cli.demo.symbols": _w("symbols       {symbols}", "代码         {symbols}"),
    "cli.demo.fictional": _w("Every name and figure in it is fictional ({marks}). Open it with {option} to explore.",
                             "其中的名称和数字全是虚构的（{marks}）。用 {option} 打开即可浏览。"),
    "cli.info.workspace": _w("workspace      {home} ({kind})", "工作区         {home}（{kind}）"),
    "cli.info.database": _w("database       {database}", "数据库         {database}"),
    "cli.info.schema": _w("schema         version {version} (this release: {latest})",
                          "数据结构       版本 {version}（本版本：{latest}）"),
    "cli.info.size": _w("size           {database} bytes database, {exports} bytes exports",
                        "大小           数据库 {database} 字节，导出 {exports} 字节"),
    "cli.info.created": _w("created        {created}", "创建于         {created}"),
    "cli.info.clock": _w("clock          {clock}", "时钟           {clock}"),
    "cli.info.system_clock": _w("system", "系统时钟"),
    # the handbook, quick reviews and plan checks (cli/handbook.py, cli/quick.py)
    "cli.handbook.ok": _w("handbook {version}: ok", "方法手册 {version}：通过"),
    "cli.handbook.problems": _w("handbook {version}: {count} problem(s)", "方法手册 {version}：{count} 个问题"),
    "cli.handbook.problem": _w("- [{code}] {message} (fix: {fix})", "- [{code}] {message}（修正：{fix}）"),
    "cli.handbook.current": _w("current: {version}", "当前版本：{version}"),
    "cli.quick.line": _w("quick review {run_id}: {status}{reason}", "快速复核 {run_id}：{status}{reason}"),
    "cli.quick.baseline": _w("baseline {report_id} ({published_at}, {age} session(s) old): {action}",
                             "基准报告 {report_id}（{published_at}，{age} 个交易日前）：{action}"),
    "cli.quick.no_change": _w("  no change since the baseline", "  自基准报告以来没有变化"),
    "cli.quick.full_required": _w("a full analysis is required", "需要做一次完整分析"),
    "cli.check.head": _w("plan of {report_id} ({action}) against {price} ({label}, {day})",
                         "报告 {report_id} 的计划（{action}）对照价格 {price}（{label}，{day}）"),
    "cli.check.recommend": _w("a rule conflicts with the report's action: a full analysis is recommended",
                              "有规则与报告的操作相冲突：建议做一次完整分析"),
    # the market rules (cli/rules.py, cli/rules_calendar.py, cli/rules_fees.py)
    "cli.rules.valid": _w("{symbol}: valid (checked {checked})", "{symbol}：有效（已检查 {checked}）"),
    "cli.rules.not_valid": _w("{symbol}: NOT valid (checked {checked})", "{symbol}：无效（已检查 {checked}）"),
    "cli.rules.problem": _w("  problem {code}: {message}\n    fix: {fix}", "  问题 {code}：{message}\n    修正：{fix}"),
    "cli.rules.note": _w("  note {code}: {message}", "  注意 {code}：{message}"),
    "cli.rules.limits": _w("{symbol} on {date}: up {up}, down {down} ({reason})",
                           "{symbol} {date}：涨停价 {up}，跌停价 {down}（{reason}）"),
    "cli.session.line": _w("{market} {exchange} {board} at {time}: {phase} ({day})",
                           "{market} {exchange} {board} {time}：{phase}（{day}）"),
    "cli.session.trading_day": _w("trading day", "交易日"),
    "cli.session.half_day": _w("trading day, half day", "交易日，半日市"),
    "cli.session.no_session": _w("no session", "非交易日"),
    "cli.calendar.head": _w("{market} {first}..{last}: {count} sessions",
                            "{market} {first}..{last}：{count} 个交易日"),
    "cli.calendar.half_day": _w("{day}  half day", "{day}  半日市"),
    "cli.calendar.known": _w("(calendar known through {day})", "（交易日历已知到 {day}）"),
    "cli.fees.order": _w("{symbol} {side} {qty} @ {price} on {date}", "{date} {symbol} {side} {qty} 股，价格 {price}"),
    "cli.fees.amount": _w("traded amount  {amount} {currency}", "成交金额  {amount} {currency}"),
    "cli.fees.unconfirmed": _w("unconfirmed rates (see the rule tables): {items}",
                               "尚未确认的费率（见规则表）：{items}"),
    # the web search (cli/search.py)
    "cli.search.none": _w("no search provider: research discloses that no search was run (set one: {command})",
                          "没有搜索服务：研究会披露未进行搜索（设置：{command}）"),
    "cli.search.provider": _w("search provider: {name} at {url}", "搜索服务：{name}，地址 {url}"),
    "cli.search.key": _w("  key {source}", "  密钥{source}"),
    "cli.search.key.environment": _w("from {env}", "来自 {env}"),
    "cli.search.key.keyring": _w("stored in the OS keyring", "已存入操作系统钥匙串"),
    "cli.search.key.file": _w("stored in the encrypted key file", "已存入加密密钥文件"),
    "cli.search.key.missing": _w("missing (store it: {command})", "缺失（保存：{command}）"),
    "cli.search.key.keyring_unavailable": _w("cannot be read: the key store is unavailable",
                                             "无法读取：密钥存储不可用"),
    "cli.search.ok": _w("ok: {name} at {url} answered {results} results in {ms} ms",
                        "正常：{name}（{url}）在 {ms} 毫秒内返回了 {results} 条结果"),
    "cli.search.failed": _w("failed: {reason}", "失败：{reason}"),
    "cli.crosscheck.done": _w("{points} sources compared, {disagreements} disagreements",
                              "比较了 {points} 个数据源，{disagreements} 处不一致"),
}  # fmt: skip

VALUES |= {
    "bool.true": _w("True", "是"), "bool.false": _w("False", "否"),
    "cash_kind.deposit": _w("deposit", "存入"), "cash_kind.withdrawal": _w("withdrawal", "取出"),
    "cash_kind.dividend": _w("dividend", "分红"), "cash_kind.interest": _w("interest", "利息"),
    "cash_kind.fee": _w("fee", "费用"), "cash_kind.tax": _w("tax", "税费"),
    "cash_kind.transfer_in": _w("transfer_in", "转入"), "cash_kind.transfer_out": _w("transfer_out", "转出"),
    "action_kind.cash_dividend": _w("cash_dividend", "现金分红"), "action_kind.bonus": _w("bonus", "送股"),
    "action_kind.capitalization": _w("capitalization", "转增"), "action_kind.split": _w("split", "拆股"),
    "entry_kind.fill:buy": _w("fill:buy", "成交：买入"), "entry_kind.fill:sell": _w("fill:sell", "成交：卖出"),
    "order_status.open": _w("open", "未成交"), "order_status.partially_filled": _w("partially_filled", "部分成交"),
    "order_status.filled": _w("filled", "已成交"), "order_status.cancelled": _w("cancelled", "已撤销"),
    "order_status.expired": _w("expired", "已过期"),
    "board.main": _w("main", "主板"), "board.chinext": _w("chinext", "创业板"), "board.star": _w("star", "科创板"),
    "board.bse": _w("bse", "北交所"),
    "adjust.none": _w("none", "不复权"), "adjust.forward": _w("forward", "前复权"),
    "adjust.backward": _w("backward", "后复权"),
    "quote_label.live": _w("live", "实时"), "quote_label.delayed": _w("delayed", "延时"),
    "quote_label.last_close": _w("last_close", "最近收盘"), "quote_label.stale": _w("stale", "过时"),
    "quote_label.none": _w("none", "无"),
    "trading_status.suspended": _w("suspended", "停牌"), "trading_status.delisted": _w("delisted", "已退市"),
    "trading_status.not_listed": _w("not_listed", "尚未上市"),
    "corroboration.corroborated": _w("corroborated", "已互相印证"),
    "corroboration.single_source": _w("single_source", "仅一个来源"),
    "corroboration.conflicting": _w("conflicting", "来源不一致"),
    "quote_field.last": _w("last", "最新价"), "quote_field.prev_close": _w("prev_close", "前收盘价"),
    "quote_field.volume": _w("volume", "成交量"),
    "bound.risk": _w("risk", "风险预算"), "bound.cash": _w("cash", "现金"), "bound.weight": _w("weight", "仓位上限"),
    "bound.sellable": _w("sellable", "可卖数量"),
    "fee_item.commission": _w("commission", "佣金"), "fee_item.stamp_duty": _w("stamp_duty", "印花税"),
    "fee_item.transfer_fee": _w("transfer_fee", "过户费"), "fee_item.handling_fee": _w("handling_fee", "经手费"),
    "fee_item.regulatory_fee": _w("regulatory_fee", "证管费"), "fee_item.trading_fee": _w("trading_fee", "交易费"),
    "fee_item.sfc_levy": _w("sfc_levy", "证监会交易征费"), "fee_item.afrc_levy": _w("afrc_levy", "会财局交易征费"),
    "fee_item.settlement_fee": _w("settlement_fee", "交收费"),
    "security_type.stock": _w("stock", "股票"), "security_type.fund": _w("fund", "基金"),
    "security_type.index": _w("index", "指数"),
    "plan_reason.halted": _w("halted", "停牌或退市"),
    "plan_reason.reward_risk_below_min": _w("reward_risk_below_min", "盈亏比低于下限"),
    "plan_reason.buy_out_of_reach": _w("buy_out_of_reach", "买入区间离价格太远"),
    "plan_reason.stop_hit": _w("stop_hit", "已触及止损位"),
    "data_kind.quote": _w("quote", "行情"), "data_kind.bars": _w("bars", "日线"),
    "data_kind.money_flow": _w("money_flow", "资金流向"), "data_kind.valuation": _w("valuation", "估值"),
    "data_kind.financials": _w("financials", "财务数据"), "data_kind.announcements": _w("announcements", "公告"),
    "source_state.ok": _w("ok", "正常"), "source_state.resting": _w("resting", "暂停中"),
    "source_state.failing": _w("failing", "出错中"), "source_state.disabled": _w("disabled", "已停用"),
    # table headers
    "column.symbol": _w("symbol", "代码"), "column.name": _w("name", "名称"), "column.qty": _w("qty", "数量"),
    "column.sellable": _w("sellable", "可卖"), "column.avg_cost": _w("avg_cost", "平均成本"),
    "column.diluted_cost": _w("diluted_cost", "摊薄成本"), "column.realized_pnl": _w("realized_pnl", "已实现盈亏"),
    "column.unrealized_pnl": _w("unrealized_pnl", "未实现盈亏"), "column.account": _w("account", "账户"),
    "column.currency": _w("currency", "币种"), "column.markets": _w("markets", "市场"),
    "column.cash": _w("cash", "现金"), "column.id": _w("id", "编号"), "column.kind": _w("kind", "类别"),
    "column.at": _w("at", "时间"), "column.price": _w("price", "价格"), "column.amount": _w("amount", "金额"),
    "column.voided": _w("voided", "已作废"), "column.order_id": _w("order_id", "委托编号"),
    "column.side": _w("side", "方向"), "column.status": _w("status", "状态"), "column.filled": _w("filled", "已成交"),
    "column.trade_date": _w("trade_date", "交易日"), "column.fees": _w("fees", "费用"),
    "column.date": _w("date", "日期"), "column.open": _w("open", "开盘"), "column.high": _w("high", "最高"),
    "column.low": _w("low", "最低"), "column.close": _w("close", "收盘"), "column.prev_close": _w("prev_close", "前收"),
    "column.volume": _w("volume", "成交量"), "column.what": _w("what", "数据"), "column.source": _w("source", "来源"),
    "column.ok": _w("ok", "成功"), "column.rows": _w("rows", "行数"), "column.reason": _w("reason", "原因"),
    "column.state": _w("state", "状态"), "column.failures": _w("failures", "连续失败"),
    "column.last_ok": _w("last_ok", "最近成功"), "column.base_url": _w("base_url", "地址"),
    "column.last_error": _w("last_error", "最近错误"),
    "column.note": _w("note", "备注"), "column.position": _w("position", "位置"),
    "column.symbols": _w("symbols", "代码数"), "column.security_type": _w("security_type", "类型"),
    "column.known": _w("known", "已存储"),
    "column.provider": _w("provider", "服务商"), "column.model": _w("model", "模型"),
    "column.api_base": _w("api_base", "接口地址"), "column.fallback": _w("fallback", "备用模型"),
    "column.key_source": _w("key_source", "密钥来源"), "column.preset": _w("preset", "预设"),
    "column.requires_key": _w("requires_key", "需要密钥"), "column.key_required": _w("key_required", "需要密钥"),
    "column.label": _w("label", "显示名称"),
    "run_status.running": _w("running", "进行中"), "run_status.paused": _w("paused", "已暂停"),
    "run_status.published": _w("published", "已发布"), "run_status.stopped": _w("stopped", "已停止"),
    "run_status.failed": _w("failed", "已失败"),
    "stage.prepare": _w("prepare", "准备"), "stage.scene": _w("scene", "场景"), "stage.collect": _w("collect", "收集"),
    "stage.preprocess": _w("preprocess", "预处理"), "stage.analyze": _w("analyze", "分析"),
    "stage.decide": _w("decide", "决策"), "stage.report": _w("report", "报告"), "stage.publish": _w("publish", "发布"),
    "tool_choice.any": _w("any", "可指定任意工具"), "tool_choice.auto_none": _w("auto_none", "仅自动或不用"),
    "tool_choice.never": _w("never", "不支持"),
    "reasoning.echo": _w("echo", "需回传"), "reasoning.strip": _w("strip", "不回传"),
    "key_source.environment": _w("from the environment", "来自环境变量"),
    "key_source.keyring": _w("stored in the OS keyring", "已存入操作系统钥匙串"),
    "key_source.file": _w("stored in the encrypted key file", "已存入加密密钥文件"),
    "key_source.missing": _w("missing", "缺失"),
    "key_source.keyring_unavailable": _w("keyring unavailable", "钥匙串不可用"),
    "column.run_id": _w("run_id", "研究编号"), "column.stage": _w("stage", "阶段"),
    "column.started": _w("started", "开始时间"), "column.report_id": _w("report_id", "报告编号"),
    "column.published_at": _w("published_at", "发布时间"), "column.action": _w("action", "操作"),
    "column.title": _w("title", "标题"),
    "column.version": _w("version", "版本"), "column.stored_at": _w("stored_at", "保存时间"),
    "column.runs": _w("runs", "研究次数"), "column.current": _w("current", "当前"),
    "workspace_kind.demo": _w("demo", "示例"), "workspace_kind.user": _w("user", "用户"),
    "check_status.ok": _w("ok", "正常"), "check_status.triggered": _w("triggered", "已触发"),
    "check_status.conflict": _w("conflict", "冲突"),
    "column.item": _w("item", "项目"), "fee_item.total": _w("total", "合计"),
    "column.score": _w("score", "得分"), "column.why": _w("why", "理由"),
}  # fmt: skip


# ---- click's own words (usage errors, help headings): the English is click's text exactly, as click asks gettext
# ---- for it (stockbench/cli/usage.py says it in the language asked for); a field may be left out of the Chinese
# ---- where the English fills it with an English word (a number type's name)
USAGE: dict[str, Words] = {
    "usage.heading": _w("Usage:", "用法："),
    "usage.options": _w("Options", "选项"),
    "usage.commands": _w("Commands", "命令"),
    "usage.positional": _w("Positional arguments", "位置参数"),
    "usage.help_option": _w("Show this message and exit.", "显示此帮助并退出。"),
    "usage.version_option": _w("Show the version and exit.", "显示版本号并退出。"),
    "usage.default": _w("default: {default}", "默认：{default}"),
    "usage.env_var": _w("env var: {var}", "环境变量：{var}"),
    "usage.required": _w("required", "必填"),
    "usage.deprecated": _w("deprecated", "已弃用"),
    "usage.error": _w("Error: {message}", "错误：{message}"),
    "usage.try_help": _w("Try '{command} {option}' for help.", "运行“{command} {option}”查看帮助。"),
    "usage.aborted": _w("Aborted!", "已中止！"),
    "usage.missing_argument": _w("Missing argument", "缺少参数"),
    "usage.missing_option": _w("Missing option", "缺少选项"),
    "usage.missing_parameter": _w("Missing parameter", "缺少参数"),
    "usage.missing_parameter_named": _w("Missing parameter: {param_name}", "缺少参数：{param_name}"),
    "usage.missing_command": _w("Missing command.", "缺少命令。"),
    "usage.no_such_option": _w("No such option {name!r}.", "没有选项“{name}”。"),
    "usage.no_such_command": _w("No such command {name!r}.", "没有命令“{name}”。"),
    "usage.did_you_mean": _w("Did you mean {possibility}?", "是不是要用 {possibility}？"),
    "usage.did_you_mean_one_of": _w("(Did you mean one of: {possibilities}?)",
                                    "（是不是要用其中之一：{possibilities}？）"),
    "usage.invalid_value_for": _w("Invalid value for {param_hint}: {message}", "{param_hint} 的值无效：{message}"),
    "usage.invalid_value": _w("Invalid value: {message}", "值无效：{message}"),
    "usage.extra_argument": _w("Got unexpected extra argument ({args})", "多出了参数（{args}）"),
    "usage.extra_arguments": _w("Got unexpected extra arguments ({args})", "多出了参数（{args}）"),
    "usage.option_needs_value": _w("Option {name!r} requires an argument.", "选项“{name}”需要一个值。"),
    "usage.option_needs_values": _w("Option {name!r} requires {nargs} arguments.", "选项“{name}”需要 {nargs} 个值。"),
    "usage.option_takes_no_value": _w("Option {name!r} does not take a value.", "选项“{name}”不接受值。"),
    "usage.argument_takes_values": _w("Argument {name!r} takes {nargs} values.", "参数“{name}”需要 {nargs} 个值。"),
    "usage.not_the_choice": _w("{value!r} is not {choice}.", "“{value}”不是可选值 {choice}。"),
    "usage.not_a_choice": _w("{value!r} is not one of {choices}.", "“{value}”不在可选值 {choices} 之中。"),
    "usage.choose_from": _w("Choose from:\n\t{choices}", "可选：\n\t{choices}"),
    "usage.not_a_number": _w("{value!r} is not a valid {number_type}.", "“{value}”不是有效的数字。"),
    "usage.out_of_range": _w("{value} is not in the range {range}.", "{value} 不在范围 {range} 内。"),
    "usage.not_a_boolean": _w("{value!r} is not a valid boolean. Recognized values: {states}",
                              "“{value}”不是有效的是非值；可用：{states}"),
    "usage.not_a_uuid": _w("{value!r} is not a valid UUID.", "“{value}”不是有效的通用唯一标识符。"),
    "usage.path_missing": _w("{name} {filename!r} does not exist.", "“{filename}”不存在。"),
    "usage.path_is_file": _w("{name} {filename!r} is a file.", "“{filename}”是文件，不是目录。"),
    "usage.path_is_directory": _w("{name} {filename!r} is a directory.", "“{filename}”是目录，不是文件。"),
    "usage.path_not_readable": _w("{name} {filename!r} is not readable.", "“{filename}”无法读取。"),
    "usage.path_not_writable": _w("{name} {filename!r} is not writable.", "“{filename}”无法写入。"),
    "usage.file_not_opened": _w("Could not open file {filename!r}: {message}", "无法打开文件“{filename}”：{message}"),
    "usage.invalid_input": _w("Error: invalid input", "错误：输入无效"),
    "usage.repeat": _w("Repeat for confirmation", "请再输入一次以确认"),
    "usage.no_match": _w("Error: The two entered values do not match.", "错误：两次输入的值不一致。"),
}  # fmt: skip

# Our own options' help lines, said in `--help` (stockbench/cli/main.py); the English is the option's help exactly.
HELP: dict[str, Words] = {
    "help.home": _w("Workspace folder (default: $STOCKBENCH_HOME, else the user data folder).",
                    "工作区目录（默认：$STOCKBENCH_HOME，否则为用户数据目录）。"),
    "help.home_global": _w("Workspace folder (same as the global option).", "工作区目录（同全局选项）。"),
    "help.json": _w("Machine-readable output on stdout.", "在标准输出上给出机器可读的结果。"),
    "help.as_of": _w("Research the past: see the market as it stood on DATE.",
                     "研究过去：按所给日期当日收盘后的市场来看。"),
    "help.as_of_global": _w("Research the past (same as the global option).", "研究过去（同全局选项）。"),
    "help.lang": _w("The language of messages and refusals, and of reports when a command names none (default: the "
                    "system locale's; Chinese on a Chinese locale, else English).",
                    "消息和拒绝理由的语言，命令未指定时也是报告的语言（默认跟随系统区域设置：中文区域设置下为中文，否则为英文）。"),
}  # fmt: skip

# An instant as people read it: in an exchange's time zone with the zone named (stockbench.clock.market_words; the
# report's header, the CLI's times, the ledger's refusals).
TIMES: dict[str, Words] = {
    "report.time": _w("{at} {zone} (UTC{offset})", "{at} {zone}（UTC{offset}）"),
    "report.zone.CN": _w("Beijing time", "北京时间"),
    "report.zone.HK": _w("Hong Kong time", "香港时间"),
    "report.zone.US": _w("US Eastern time", "美国东部时间"),
}  # fmt: skip


# The decision baseline's checks (stockbench.analytics.baseline Check names), as a report's reasons and the scan's
# setup note name them.
CHECKS: dict[str, Words] = {
    "baseline.check.score": _w("the technical score", "技术分"),
    "baseline.check.win_rate": _w("the backtest win rate", "回测胜率"),
    "baseline.check.ev": _w("the expected value after costs", "扣除成本后的期望收益"),
    "baseline.check.trades": _w("the number of backtest trades", "回测笔数"),
    "baseline.check.capital": _w("the capital state", "资金状态"),
    "baseline.check.valuation": _w("the valuation percentile", "估值分位"),
    "baseline.check.plan": _w("the plan's reward-to-risk", "计划的盈亏比"),
    "baseline.check.volatility": _w("the volatility state", "波动状态"),
    "baseline.check.extension": _w("the close's distance above the 250-day MA", "收盘价高于250日均线的幅度"),
    "baseline.check.turnover": _w("the turnover", "换手率"),
    "baseline.check.uptrend": _w("the close's distance above the 250-day MA", "收盘价高于250日均线的幅度"),
    "baseline.check.over_ma20": _w("the close's distance above the 20-day MA", "收盘价高于20日均线的幅度"),
    "baseline.check.near_ma20": _w("the close's distance above the 20-day MA", "收盘价高于20日均线的幅度"),
    "baseline.check.run": _w("the 20-session return", "近20个交易日的涨跌幅"),
    "baseline.check.run_up": _w("the 20-session return", "近20个交易日的涨跌幅"),
}  # fmt: skip


def check_words(names: Sequence[str], language: Language) -> str:
    """The baseline checks `names` in words, each said once (uptrend and extension read the same distance)."""
    said = [CHECKS[f"baseline.check.{n}"].text(language) if f"baseline.check.{n}" in CHECKS else n for n in names]
    return ("、" if language == "zh" else ", ").join(dict.fromkeys(said))


# The levels a zone is built on (stockbench.analytics.zones anchor names; a moving average by its sessions): said by
# `anchor_words` wherever a person reads one (a report's zone line, the zones command, the scan's reasons).
ANCHORS: dict[str, Words] = {
    "anchor.ma_n": _w("{sessions}-day MA", "{sessions}日均线"),
    "anchor.metric.pe_ttm": _w("P/E TTM", "市盈率TTM"),
    "anchor.metric.pb_mrq": _w("P/B", "市净率"),
    "anchor.metric.ps_ttm": _w("P/S TTM", "市销率TTM"),
    "anchor.valuation_band.low": _w("the low end of the {metric} valuation band", "{metric}估值带下沿"),
    "anchor.valuation_band.middle": _w("the middle of the {metric} valuation band", "{metric}估值带中枢"),
    "anchor.valuation_band.high": _w("the high end of the {metric} valuation band", "{metric}估值带上沿"),
    "anchor.volume_node": _w("volume node", "成交密集区"),
    "anchor.high_52w": _w("52-week high", "52周高点"),
    "anchor.pivot_low": _w("swing low", "波段低点"),
    "anchor.pivot_high": _w("swing high", "波段高点"),
    "anchor.atr_projection": _w("ATR projection", "平均真实波幅推算位"),
    "anchor.low_n": _w("{sessions}-session low", "{sessions}日最低价"),
    "anchor.high_n": _w("{sessions}-session high", "{sessions}日最高价"),
}  # fmt: skip
_BAND = re.compile(r"(?P<metric>[a-z]+_[a-z]+)_p(?P<percentile>\d{1,2})")  # a valuation band's anchor (ps_ttm_p80)


def anchor_words(name: str, language: Language) -> str:
    """The words of a zone anchor's name (volume_node -> 成交密集区, low_60 -> 60日最低价, ma20 -> 20日均线); a name
    the catalogue does not know keeps its name."""
    if f"anchor.{name}" in ANCHORS:
        return ANCHORS[f"anchor.{name}"].text(language)
    if name.startswith("ma") and name[2:].isdigit():
        return ANCHORS["anchor.ma_n"].text(language).format(sessions=name[2:])
    band = _BAND.fullmatch(name)
    if band and f"anchor.metric.{band['metric']}" in ANCHORS:  # ps_ttm_p80: the band's upper edge
        percentile = int(band["percentile"])
        part = "low" if percentile < 50 else "middle" if percentile == 50 else "high"
        metric = ANCHORS[f"anchor.metric.{band['metric']}"].text(language)
        return ANCHORS[f"anchor.valuation_band.{part}"].text(language).format(metric=metric)
    side, _, sessions = name.partition("_")
    if side in {"low", "high"} and sessions.isdigit():
        return ANCHORS[f"anchor.{side}_n"].text(language).format(sessions=sessions)
    return name


# The placeholders `--help` and usage lines show for a value (click's metavars: a type's name, our own options'
# and arguments' names, the usage line's "[OPTIONS]"); the English is the placeholder exactly, as click writes it
# (stockbench/cli/usage.py says each one in the language asked for; values to type, like [zh|en], stay as they are).
METAVARS: dict[str, Words] = {
    "metavar.text": _w("TEXT", "文本"),
    "metavar.integer": _w("INTEGER", "整数"),
    "metavar.integer_range": _w("INTEGER RANGE", "整数"),
    "metavar.float": _w("FLOAT", "小数"),
    "metavar.float_range": _w("FLOAT RANGE", "小数"),
    "metavar.boolean": _w("BOOLEAN", "是否"),
    "metavar.uuid": _w("UUID", "通用唯一标识符"),
    "metavar.path": _w("PATH", "路径"),
    "metavar.file": _w("FILE", "文件"),
    "metavar.filename": _w("FILENAME", "文件名"),
    "metavar.directory": _w("DIRECTORY", "目录"),
    "metavar.dir": _w("DIR", "目录"),
    "metavar.folder": _w("FOLDER", "目录"),
    "metavar.date": _w("DATE", "日期"),
    "metavar.day": _w("DAY", "日期"),
    "metavar.decimal": _w("DECIMAL", "数值"),
    "metavar.amount": _w("AMOUNT", "金额"),
    "metavar.percent": _w("PERCENT", "百分比"),
    "metavar.instant": _w("ISO_INSTANT", "时刻"),
    "metavar.symbol": _w("SYMBOL", "代码"),
    "metavar.symbols": _w("SYMBOLS", "代码"),
    "metavar.name": _w("NAME", "名称"),
    "metavar.new_name": _w("NEW_NAME", "新名称"),
    "metavar.value": _w("VALUE", "值"),
    "metavar.market": _w("MARKET", "市场"),
    "metavar.kind": _w("KIND", "类别"),
    "metavar.category": _w("CATEGORY", "类别"),
    "metavar.source": _w("SOURCE", "转出账户"),
    "metavar.target": _w("TARGET", "转入账户"),
    "metavar.account": _w("ACCOUNT", "账户"),
    "metavar.position": _w("POSITION", "位置"),
    "metavar.store": _w("STORE", "存储"),
    "metavar.report": _w("REPORT", "报告编号"),
    "metavar.report_id": _w("REPORT_ID", "报告编号"),
    "metavar.run": _w("RUN", "任务编号"),
    "metavar.run_id": _w("RUN_ID", "任务编号"),
    "metavar.order_id": _w("ORDER_ID", "委托编号"),
    "metavar.entry_id": _w("ENTRY_ID", "记录编号"),
    "metavar.id": _w("ID", "编号"),
    "metavar.code": _w("CODE", "理由码"),
    "metavar.hash": _w("HASH", "版本"),
    "metavar.slug": _w("SLUG", "文档名"),
    "metavar.url": _w("URL", "网址"),
    "metavar.shares": _w("N", "股数"),
    "metavar.price": _w("P", "价格"),
    "metavar.day_short": _w("D", "日期"),
    "metavar.rate": _w("R", "费率"),
    "metavar.minimum": _w("M", "金额"),
    "metavar.options": _w("OPTIONS", "选项"),
    "metavar.command": _w("COMMAND", "命令"),
    "metavar.args": _w("ARGS", "参数"),
}

# Our commands' own help, said in `--help` (stockbench/cli/usage.py): a command's description (and its short line
# in its group's list) keyed by its path ("data.fetch"), an option's by the command's and its name
# ("data.fetch.--record"); the English is the command's docstring (its paragraphs on one line each, as `--help`
# wraps them) or the option's help exactly: a test pins it.
# A placeholder (SYMBOL, DIR) is said as the usage line says it; option names, values to type and codes stay.
COMMAND_HELP: dict[str, Words] = {
    "stockbench": _w(
        "Stock Workbench: research A-share and Hong Kong stocks against your own ledger.\n"
        "\n"
        "With no command, opens the desktop window.",
        "股票研究工作台：对照你自己的账本研究 A 股和港股。\n\n不带命令时打开桌面窗口。",
    ),
    "analyze": _w(
        "Run a full analysis of SYMBOL (stage titles on stderr); ends in a published report or a pause.",
        "对所给代码做一次完整分析（各阶段标题输出到标准错误）；最终发布一份报告，或暂停等待处理。",
    ),
    "analyze.--account": _w(
        "The ledger account the advice is sized for (default: the account holding SYMBOL, else the only account, "
        "else the one the last run read, as the window's Automatic account).",
        "按哪个账本账户计算建议的下单数量（默认：持有该代码的账户，否则唯一的账户，否则上一次研究读取的账户，与窗口中的"
        "“自动选择账户”相同）。",
    ),
    "analyze.--no-account": _w(
        "Read no account: the advice knows no holding, cash or order.",
        "不读取任何账户：建议不考虑持仓、现金和委托。",
    ),
    "analyze.--approve-plan": _w(
        "Approve a plan whose estimate exceeds --max-cost.",
        "批准预计费用超过 --max-cost 的研究计划。",
    ),
    "analyze.--language": _w(
        "The report's language (default: --lang when given, else the workspace's report_language setting, else the "
        "system locale's).",
        "报告的语言（默认：给出 --lang 时用其语言，否则用工作区设置 report_language，再否则跟随系统区域设置）。",
    ),
    "analyze.--max-cost": _w(
        "A cost ceiling for the model calls (the plan must fit or be approved).",
        "模型调用的费用上限（研究计划须在上限之内，或经批准）。",
    ),
    "analyze.--model": _w(
        "A configured model name, or 'offline' (default: the workspace's default).",
        "已配置的模型名称，或 'offline'（默认：工作区的默认模型）。",
    ),
    "analyze.--question": _w(
        "Your own question: the plan holds only what it needs.",
        "你自己的问题：研究计划只包含回答它所需的步骤。",
    ),
    "backtest": _w(
        "Replay the factor-score buy signal over SYMBOL's stored history: per horizon (5, 20, 60 sessions) the "
        "signals, win rate and expected value after costs beside the base rate (the same trade from every session), "
        "with the independent trade count, the evidence grade, in- and out-of-sample.",
        "在该代码已存的历史行情上回测因子得分买入信号：按每个持有期（5、20、60 个交易日）给出信号数、"
        "胜率和扣除成本后的期望值，并与基础概率（每个交易日都做同样的交易）对比；另给出独立交易次数、证据等级，"
        "以及样本内和样本外的结果。",
    ),
    "backtest.--benchmark": _w(
        "Index for relative strength (default: the one research reads).",
        "计算相对强弱所用的指数（默认：研究所用的那个）。",
    ),
    "backup": _w(
        "Take a backup of the workspace now (a consistent copy, with a manifest holding its sha256).",
        "立即备份工作区（一致的副本，附带记录其 sha256 的清单）。",
    ),
    "backup.--to": _w(
        "Write the backup to this folder instead of the backup folder (not pruned there).",
        "把备份写到此目录，而不是备份目录（在那里不会被自动清理）。",
    ),
    "backups": _w(
        "The workspace's backups: list them, or choose the folder they go to.",
        "工作区的备份：列出备份，或选择备份存放的目录。",
    ),
    "backups.folder": _w(
        "Show the backup folder, or set it (e.g. a synced folder); kept in backups.toml in the workspace folder.",
        "显示备份目录，或设置备份目录（例如一个同步目录）；设置保存在工作区目录的 backups.toml 中。",
    ),
    "backups.folder.--default": _w(
        "Go back to the workspace's own backups/ folder.",
        "改回工作区自己的 backups/ 目录。",
    ),
    "backups.list": _w(
        "Every complete backup, newest first (times in Beijing time).",
        "全部完整的备份，最新的在前（时间为北京时间）。",
    ),
    "calibrate": _w(
        "Build the calibrated scenario table (probabilities of up, sideways and down over 20 sessions per state "
        "combination) from the community A-share parquet, with its provenance and data range. Research as of a date "
        "uses the newest table whose data ends before it, so build per-year tables for research of the past.",
        "用社区 A 股 parquet 数据建立校准后的情景概率表（按每种状态组合给出 20 个交易日内上涨、横盘和下跌的概率），"
        "并记下数据来源和数据区间。按某一日期研究过去时，使用数据截止于该日期之前的最新一张表，"
        "因此研究过去时请按年份建表。",
    ),
    "calibrate.--data": _w(
        "Community A-share parquet (default: ../shared/data).",
        "社区 A 股 parquet 数据（默认：../shared/data）。",
    ),
    "calibrate.--out": _w(
        "Where to write (default: resources/calibration/).",
        "写到哪里（默认：resources/calibration/）。",
    ),
    "calibrate.--per-year": _w(
        "Also one table per year-end, written beside the full one.",
        "另按每个年末各建一张表，写在完整的表旁边。",
    ),
    "calibrate.--until": _w("Build from the data up to this date only.", "只用截至此日期的数据建表。"),
    "check-plan": _w(
        "Check the latest report's plan on SYMBOL against current data, by rule alone (no model).",
        "仅按规则（不用模型），用当前数据检查该代码最新一份报告中的交易计划。",
    ),
    "check-plan.--account": _w(
        "The ledger account whose orders and holding are checked (default: the report's).",
        "检查哪个账本账户的委托和持仓（默认：报告所用的账户）。",
    ),
    "data": _w(
        "Market data: import files, read bars and quotes as of the clock, fetch, and the data gates.",
        "行情数据：导入文件，按时钟读取日线和报价，获取数据，以及数据关卡。",
    ),
    "data.bars": _w(
        "Daily bars of SYMBOL as visible at the clock (prices unadjusted unless --adjust).",
        "按时钟可见的该代码日线（除非给出 --adjust，价格为不复权价）。",
    ),
    "data.bars.--from": _w("First date (default: the first stored).", "起始日期（默认：已存的第一天）。"),
    "data.bars.--source": _w(
        "Read this source only (default: the preferred source with data).",
        "只读这个数据源（默认：有数据的首选数据源）。",
    ),
    "data.bars.--to": _w("Last date (default: the clock's date).", "截止日期（默认：时钟所在日期）。"),
    "data.crosscheck": _w(
        "Compare SYMBOL's last price and previous close from two services; record disagreements.",
        "比对两项服务给出的该代码最新价和前收盘价；记录不一致之处。",
    ),
    "data.fetch": _w(
        "Fetch SYMBOL's data from the public services (live; progress on stderr). --record DIR keeps every exchange "
        "for a bug report; --replay DIR answers from such a recording instead of the network, on a clock standing at "
        "the time it was made (so a quote recorded in a session is asked again), unless --as-of is given (quotes the "
        "recording holds are answered from it then too).",
        "从公开数据源获取该代码的数据（实时联网；进度输出到标准错误）。--record 目录 把每一次请求和应答保存下来，"
        "供报告问题时使用；--replay 目录 不联网，改由这样的录制来应答，时钟停在录制时的时刻（因此交易时段内录下的报价"
        "会再次被请求），除非给出 --as-of（此时录制中已有的报价也由录制应答）。",
    ),
    "data.fetch.--record": _w("Write every request and answer into DIR.", "把每一次请求和应答写入此目录。"),
    "data.fetch.--replay": _w("Answer from the recording in DIR (no network).", "由此目录中的录制应答（不联网）。"),
    "data.fetch.--what": _w("Kinds to fetch, comma-separated.", "要获取的数据类别，用逗号分隔。"),
    "data.gates": _w(
        "The data gates of SYMBOL: pass or gap, the reason and the evidence (gaps are fetched first).",
        "该代码的数据关卡：通过或缺口、原因和证据（先获取缺口数据）。",
    ),
    "data.gates.--no-fetch": _w(
        "Evaluate what is stored, without fetching the gaps.",
        "只评估已存的数据，不获取缺口数据。",
    ),
    "data.import": _w(
        "Import daily bars from FILE (community CSV or parquet, or the generic CSV; a folder imports every file).",
        "从文件导入日线（社区 CSV 或 parquet，或通用 CSV；给出目录时导入其中每个文件）。",
    ),
    "data.indices": _w(
        "Rebuild the program's own indices (a benchmark and one per board) from every stored stock.",
        "用已存的全部股票重建本程序自己的指数（一个基准指数，另每个板块一个）。",
    ),
    "data.quote": _w(
        "The price of SYMBOL: a live quote inside its trading window, else the last close (labelled).",
        "该代码的价格：在其交易时段内为实时报价，否则为最近收盘价（并注明）。",
    ),
    "data.quote.--no-fetch": _w("Use only what is stored.", "只用已存的数据。"),
    "data.sources": _w(
        "The data sources per service and endpoint: base URL, state (ok, resting, failing, disabled), the last good "
        "answer, the last error and the failures in a row.",
        "按服务和端点列出数据源：基础网址、状态（ok 正常、resting 暂停、failing 失败中、disabled 已停用）、"
        "最近一次成功应答、最近一次错误和连续失败次数。",
    ),
    "data.sources.set": _w(
        "Change the data source NAME (see `stockbench data sources`).",
        "修改名为“名称”的数据源（参见 `stockbench data sources`）。",
    ),
    "data.sources.set.--base-url": _w(
        "Ask this base URL instead (a mirror or proxy; the paths are kept; '' restores).",
        "改为请求此基础网址（镜像或代理；路径保持不变；给出 '' 则恢复原址）。",
    ),
    "data.sources.set.--enabled": _w("Ask this endpoint or leave it out.", "请求此端点，或不再请求它。"),
    "data.sources.set.--order": _w(
        "Its place in its service (1 = asked first).",
        "它在所属服务中的次序（1 = 最先请求）。",
    ),
    "demo": _w(
        "Create or open the demo market (fictional, offline) and list what it holds.",
        "创建或打开示例市场（虚构、离线），并列出其中的内容。",
    ),
    "doctor": _w(
        "Check the workspace: schema, report seals, every block read back (and backups, ledger replay, journal).\n"
        "\n"
        "Exit 0 when no check failed, 1 when one did. A damaged file is reported (with the newest backup), not "
        "raised.",
        "检查工作区：数据库结构、报告封印、逐块读回的数据（以及备份、账本重放和账本日志）。\n"
        "\n"
        "没有检查项失败时退出码为 0，有失败时为 1。损坏的文件会被报告出来（并给出最新的备份），而不是报错中断。",
    ),
    "eval": _w(
        "Run the golden research cases (tool routing, citations, numbers, failure recovery, usefulness).\n"
        "\n"
        "Each case runs in a fresh copy of the demo market; the citation, permission and negative-expected-value "
        "invariants must hold on every case. Results are stored and compared with the previous run of the same "
        "model. Exits with 1 when a case or an invariant fails.",
        "运行标准研究用例（工具调用、引用、数字、故障恢复、实用性）。\n"
        "\n"
        "每个用例都在一份全新的示例市场副本中运行；每个用例都须满足引用、权限和负期望值这几条不变量。结果会保存下来，"
        "并与同一模型的上一次评测比较。有用例或不变量未通过时退出码为 1。",
    ),
    "eval.--case": _w("Run only these cases or categories.", "只运行这些用例或类别。"),
    "eval.--list": _w("List the golden cases and exit.", "列出标准用例后退出。"),
    "eval.--model": _w("'offline' or a configured model name.", "'offline' 或已配置的模型名称。"),
    "feedback": _w(
        "Review published reports: `feedback RUN --verdict ... --reason ...`; list, lineage, codes.\n"
        "\n"
        "Reviews are append-only. The next run on the symbol reads only their aggregates (verdict counts, the most "
        "frequent reason codes, mean scores); comments are for people and never reach a model.",
        "复核已发布的报告，并列出复核、查看修订链和理由码：`feedback 任务编号 --verdict ... --reason ...`。\n"
        "\n"
        "复核只增不改。下一次研究该代码时只读取复核的汇总（各结论的次数、最常见的理由码、平均得分）；评语只给人看，"
        "绝不会发给模型。",
    ),
    "feedback.add": _w(
        "Record a review of the report RUN (a run or report id) published.",
        "记录对所给任务编号（研究任务或报告的编号）所发布报告的复核。",
    ),
    "feedback.add.--comment": _w("Free text for people (never shown to a model).", "给人看的评语（绝不会给模型看）。"),
    "feedback.add.--reason": _w(
        "A reason code (repeat); see `feedback codes`.",
        "理由码（可重复给出）；参见 `feedback codes`。",
    ),
    "feedback.add.--revised-by": _w(
        "The run that revises this report (revise only).",
        "修订此报告的研究任务（仅用于 revise）。",
    ),
    "feedback.add.--score": _w("A score (repeat), e.g. usefulness=4.", "得分（可重复给出），例如 usefulness=4。"),
    "feedback.codes": _w("The reason codes and scores a review may use.", "复核可用的理由码和得分项。"),
    "feedback.lineage": _w(
        "The chain of revisions around REPORT (a report or run id), oldest first, from the stored reviews.",
        "按已存的复核，列出所给报告编号（报告或研究任务的编号）前后的修订链，最早的在前。",
    ),
    "feedback.list": _w("Reviews in the order they were recorded.", "按记录先后列出复核。"),
    "feedback.list.--run": _w("Reviews of one run.", "某一个研究任务的复核。"),
    "handbook": _w(
        "The method handbook the research follows: check it, show any version runs used.",
        "研究所遵循的方法手册：检查它，或显示研究任务用过的任一版本。",
    ),
    "handbook.check": _w(
        "Check the handbook against the code: names, stage markers, both editions, references, tables.\n"
        "\n"
        "Exits with 1 when there are problems.",
        "对照代码检查方法手册：名称、阶段标记、中英两个版本、参考文档和表格。\n\n有问题时退出码为 1。",
    ),
    "handbook.check.--folder": _w("Check another handbook folder.", "检查另一个方法手册目录。"),
    "handbook.show": _w(
        "Print the handbook (or one reference document) of the current version or of any stored version.",
        "显示当前版本或任一已存版本的方法手册（或其中一篇参考文档）。",
    ),
    "handbook.show.--lang": _w("Edition.", "语言版本。"),
    "handbook.show.--reference": _w(
        "Show one reference document instead of the main handbook.",
        "显示一篇参考文档，而不是方法手册正文。",
    ),
    "handbook.show.--version": _w(
        "A version a run used (default: the current one).",
        "某个研究任务用过的版本（默认：当前版本）。",
    ),
    "handbook.versions": _w(
        "The handbook versions stored in the workspace (every version a run used), newest first.",
        "工作区中保存的方法手册版本（研究任务用过的每个版本），最新的在前。",
    ),
    "indicators": _w(
        "Indicators of SYMBOL on its latest session on or before the clock's date (--as-of D to look back).\n"
        "\n"
        "Null values are still warming up (too few sessions) or undefined on that day.",
        "该代码在时钟所在日期当天或之前最近一个交易日的技术指标（用 --as-of 日期 回看过去）。\n"
        "\n"
        "空值表示指标仍在预热（交易日太少），或当天没有定义。",
    ),
    "indicators.--benchmark": _w(
        "Also the relative strength against this index or stock.",
        "另给出相对于此指数或股票的相对强弱。",
    ),
    "info": _w("Show the workspace path, schema version and sizes.", "显示工作区路径、数据库结构版本和大小。"),
    "ledger": _w(
        "Your books: accounts, cash, fills, positions (T+1 sellable), orders and corporate actions.",
        "你的账本：账户、现金、成交、持仓（按 T+1 计可卖数量）、委托和公司行动。",
    ),
    "ledger.account": _w("Add and list accounts.", "添加和列出账户。"),
    "ledger.account.add": _w("Open an account NAME.", "开立名为“名称”的账户。"),
    "ledger.account.add.--bundled": _w("Exchange fees are inside the commission.", "交易所收费已包含在佣金内。"),
    "ledger.account.add.--commission-min": _w("Minimum commission per order, e.g. 5.", "每笔委托的最低佣金，例如 5。"),
    "ledger.account.add.--commission-rate": _w("Broker commission rate, e.g. 0.00025.", "券商佣金费率，例如 0.00025。"),
    "ledger.account.add.--currency": _w("Base currency.", "本位币。"),
    "ledger.account.add.--markets": _w(
        "Markets traded, comma-separated (default: CN for CNY, HK for HKD).",
        "交易的市场，用逗号分隔（默认：CNY 账户为 CN，HKD 账户为 HK）。",
    ),
    "ledger.account.list": _w("List the accounts and their cash.", "列出各账户及其现金。"),
    "ledger.action": _w(
        "Corporate actions on a holding: cash dividends, bonus shares, capitalisation shares, splits.",
        "持仓上的公司行动：现金分红、送股、转增和拆股。",
    ),
    "ledger.action.bonus": _w("Bonus shares (送股), capitalisation shares (转增) or a split.", "送股、转增或拆股。"),
    "ledger.action.bonus.--qty": _w(
        "Shares credited by the broker (default: floor(holding x ratio)).",
        "券商实际到账的股数（默认：持仓 × 比例，向下取整）。",
    ),
    "ledger.action.bonus.--ratio": _w("Shares per share held: 0.3 for 10送3.", "每持有 1 股所得的股数：10送3 即 0.3。"),
    "ledger.action.dividend": _w(
        "A cash dividend on the holding at the record date.",
        "按股权登记日的持仓记录一笔现金分红。",
    ),
    "ledger.action.dividend.--amount": _w(
        "The broker's credited amount, if it differs from qty x per-share.",
        "券商实际到账的金额，如果与 数量 × 每股现金 不同。",
    ),
    "ledger.action.dividend.--per-share": _w("Cash per share (before tax).", "每股现金（税前）。"),
    "ledger.balance": _w("Cash per currency.", "各币种的现金。"),
    "ledger.cash": _w(
        "Record cash: deposit, withdraw, interest, fee, tax or dividend AMOUNT (positive).",
        "记录一笔现金：存入、取出、利息、费用、税款或分红，金额为正数。",
    ),
    "ledger.cash.--at": _w("When (default: now).", "时间（默认：现在）。"),
    "ledger.cash.--currency": _w("Currency (default: the account's base currency).", "币种（默认：账户的本位币）。"),
    "ledger.cash.--note": _w("A note kept with the entry.", "随这条记录保存的备注。"),
    "ledger.cash.--symbol": _w("The instrument a dividend, fee or tax belongs to.", "分红、费用或税款所属的证券。"),
    "ledger.export": _w(
        "Export an account's entries to CSV or to a Beancount ledger.",
        "把一个账户的记录导出为 CSV 或 Beancount 账本。",
    ),
    "ledger.fill": _w(
        "Record a fill; every problem is listed and nothing is written if any is found.",
        "记录一笔成交；发现问题时逐一列出，且什么都不写入。",
    ),
    "ledger.fill.--at": _w("Execution time (exchange time if naive).", "成交时间（未带时区时按交易所时间）。"),
    "ledger.fill.--dry-run": _w("Check and show the fill without recording it.", "检查并显示这笔成交，但不记录。"),
    "ledger.fill.--fee": _w(
        "The broker's total fees (default: computed from the rules and your terms).",
        "券商收取的费用合计（默认：按规则和你的费率计算）。",
    ),
    "ledger.fill.--order": _w("The order this fill executed.", "这笔成交所执行的委托。"),
    "ledger.fill.--qty": _w("Shares.", "股数。"),
    "ledger.fill.--ref": _w("The day's reference price, to check the price limits.", "当日参考价，用于检查涨跌停价。"),
    "ledger.fill.--report": _w("The report that proposed it.", "提出这笔交易的报告。"),
    "ledger.history": _w("Every entry of an account, voided ones included.", "一个账户的全部记录，包括已作废的。"),
    "ledger.import": _w(
        "Import fills from a CSV (see README: executed_at,symbol,side,qty,price[,fee][,order_id][,note]).",
        "从 CSV 导入成交（参见 README：executed_at,symbol,side,qty,price[,fee][,order_id][,note]）。",
    ),
    "ledger.import.--dry-run": _w(
        "Show what would be written and every problem; write nothing.",
        "显示将写入的内容和每一个问题；什么都不写入。",
    ),
    "ledger.order": _w(
        "Orders placed at the broker (or planned). Orders never change holdings.",
        "在券商处下的委托（或计划中的委托）。委托不会改变持仓。",
    ),
    "ledger.order.add": _w("Record an order.", "记录一笔委托。"),
    "ledger.order.add.--at": _w("When it was placed (default: now).", "下单时间（默认：现在）。"),
    "ledger.order.add.--valid-until": _w("Last session the order is good for.", "委托有效的最后一个交易日。"),
    "ledger.order.cancel": _w("Mark an order cancelled.", "把一笔委托标记为已撤销。"),
    "ledger.order.list": _w(
        "List orders with their status (derived from fills and events).",
        "列出委托及其状态（由成交和事件推出）。",
    ),
    "ledger.positions": _w(
        "Holdings: quantity, T+1 sellable, average and diluted cost, realized and unrealized P&L.",
        "持仓：数量、T+1 可卖数量、平均成本和摊薄成本、已实现和未实现盈亏。",
    ),
    "ledger.positions.--all": _w(
        "Include closed positions (realized P&L only).",
        "包括已清仓的持仓（只有已实现盈亏）。",
    ),
    "ledger.positions.--at": _w("Positions as they stood at this instant.", "按此时刻的持仓。"),
    "ledger.positions.--price": _w("Value a holding at P (repeatable).", "按此价格为持仓估值（可重复给出）。"),
    "ledger.rebuild": _w(
        "Restore the ledger exactly from its journal (even with the database file gone): the whole chain is verified "
        "first, then every table is replaced and replayed in one transaction.",
        "按账本日志原样恢复账本（数据库文件不在了也可以）：先校验整条日志链，再在一个事务中替换每一张表并重放全部记录"
        "。",
    ),
    "ledger.rebuild.--from-journal": _w("Rebuild the ledger tables from the journal.", "用账本日志重建账本的各张表。"),
    "ledger.rebuild.--journal": _w(
        "The journal file to rebuild from (default: the workspace's ledger-journal.jsonl).",
        "用于重建的账本日志文件（默认：工作区的 ledger-journal.jsonl）。",
    ),
    "ledger.rebuild.--yes": _w("Replace a ledger that already holds rows.", "即使账本中已有记录也予以替换。"),
    "ledger.transfer": _w(
        "Move cash between two accounts (with an FX rate when the currencies differ).",
        "在两个账户之间转账（币种不同时按汇率换算）。",
    ),
    "ledger.transfer.--currency": _w(
        "Currency leaving SOURCE (default: its base currency).",
        "从转出账户转出的币种（默认：其本位币）。",
    ),
    "ledger.transfer.--fx-rate": _w(
        "Units of the target currency per unit of the source currency.",
        "每 1 单位转出币种可换的转入币种数量。",
    ),
    "ledger.transfer.--to-currency": _w(
        "Currency arriving in TARGET, when different.",
        "转入账户收到的币种，如果不同。",
    ),
    "ledger.void": _w(
        "Void a fill, cash entry or corporate action; history keeps both.",
        "作废一笔成交、现金记录或公司行动；历史记录中两者都保留。",
    ),
    "ledger.void.--reason": _w("Why the entry is void (kept in history).", "作废的原因（保留在历史记录中）。"),
    "models": _w(
        "Language models: add, store keys (OS keyring or encrypted file), test, list, remove.",
        "大语言模型：添加、保存密钥（系统钥匙串或加密文件）、测试、列出和删除。",
    ),
    "models.add": _w(
        "Configure model NAME: with --provider and --model, or from a --preset.\n"
        "\n"
        "Exits 5 when the model was added but cannot be used yet: its key can be neither stored nor read here.",
        "配置名为“名称”的模型：用 --provider 和 --model，或用 --preset 预设。\n"
        "\n"
        "模型已添加但暂时无法使用（其密钥在这里既无法保存也无法读取）时，退出码为 5。",
    ),
    "models.add.--api-base": _w(
        "Endpoint URL (default: the provider's; required for openai_compatible).",
        "端点网址（默认：服务商的；openai_compatible 必须给出）。",
    ),
    "models.add.--fallback": _w(
        "A configured model to use when this one keeps failing.",
        "此模型持续失败时改用的另一个已配置模型。",
    ),
    "models.add.--model": _w(
        "The provider's model id, e.g. deepseek-v4-flash (a preset's default).",
        "服务商的模型编号，例如 deepseek-v4-flash（预设的默认值）。",
    ),
    "models.add.--preset": _w(
        "Fill provider, model and endpoint from a preset (see `models presets`), e.g. deepseek.",
        "按预设（参见 `models presets`）填入服务商、模型和端点，例如 deepseek。",
    ),
    "models.add.--provider": _w(
        "deepseek, openai, moonshot, qwen, minimax, ollama, openai_compatible.",
        "deepseek、openai、moonshot、qwen、minimax、ollama、openai_compatible 之一。",
    ),
    "models.add.--replace": _w("Replace an existing model of this name.", "替换同名的已有模型。"),
    "models.key": _w(
        "Store the API key of model NAME in the key store (read from standard input, never echoed).",
        "把名为“名称”的模型的 API 密钥保存到密钥存储中（从标准输入读取，不回显）。",
    ),
    "models.key.--delete": _w("Remove the stored key instead.", "改为删除已保存的密钥。"),
    "models.keystore": _w(
        "Where API keys are kept: show it, or choose STORE: os (the OS keyring) or file (an encrypted file in the "
        "workspace folder; its passphrase comes from STOCKBENCH_KEYSTORE_PASSPHRASE, else is asked without echo, "
        "else is the first line of standard input, and is never stored). Keys already stored are not moved.",
        "API 密钥保存在哪里：显示当前位置，或选择存储方式：os（系统钥匙串）或 file（工作区目录中的加密文件；"
        "其口令取自 STOCKBENCH_KEYSTORE_PASSPHRASE，否则不回显地询问，再否则取标准输入的第一行，且绝不保存）。"
        "已保存的密钥不会被迁移。",
    ),
    "models.list": _w(
        "The configured models, with their endpoints and where each key comes from (`key_source`: environment, "
        "keyring, file, missing, keyring_unavailable or file_locked).",
        "已配置的模型，及其端点和各自密钥的来源（`key_source`：environment 环境变量、keyring 钥匙串、file 加密文件、"
        "missing 缺失、keyring_unavailable 钥匙串不可用或 file_locked 密钥文件已锁定）。",
    ),
    "models.presets": _w(
        'The connection presets (the desktop app\'s "Connect your model"): provider, default model, endpoints.',
        "连接预设（即桌面程序的“连接你的模型”）：服务商、默认模型和端点。",
    ),
    "models.providers": _w(
        "The provider presets: litellm route, default endpoint, whether a key is needed.",
        "服务商预设：litellm 路由、默认端点、是否需要密钥。",
    ),
    "models.remove": _w("Remove model NAME (and its stored key).", "删除名为“名称”的模型（及其已保存的密钥）。"),
    "models.remove.--keep-key": _w("Leave the stored key in the key store.", "把已保存的密钥留在密钥存储中。"),
    "models.test": _w(
        "Send model NAME one tiny request (no fallback) and report latency, model and usage.",
        "向名为“名称”的模型发送一个很小的请求（不用备用模型），报告延迟、模型和用量。",
    ),
    "replay": _w(
        "Analyse symbols as of past sessions (offline model by default) and report the track record they earn.",
        "以过去若干交易日为研究日期分析一批代码（默认用离线模型），并报告这些分析所得的历史战绩。",
    ),
    "replay.--benchmark": _w(
        "Measure against this index instead of the official one.",
        "以此指数而不是官方指数作为比较基准。",
    ),
    "replay.--calls": _w("List every call in --json output.", "在 --json 输出中列出每一个判断。"),
    "replay.--every": _w("Sessions between analyses.", "每两次分析之间相隔的交易日数。"),
    "replay.--fresh": _w(
        "Analyse again even where the batch already published a report.",
        "即使这批回放已发布过报告，也重新分析。",
    ),
    "replay.--from": _w("First session to analyse as of.", "作为研究日期的第一个交易日。"),
    "replay.--language": _w(
        "The reports' language (default: --lang when given, else the workspace's report_language setting, else the "
        "system locale's).",
        "报告的语言（默认：给出 --lang 时用其语言，否则用工作区设置 report_language，再否则跟随系统区域设置）。",
    ),
    "replay.--remember": _w(
        "Keep --benchmark as this workspace's stand-in (runs read it too).",
        "把 --benchmark 保存为本工作区的替代基准（研究任务也会读取它）。",
    ),
    "replay.--runs": _w("List every analysis in --json output.", "在 --json 输出中列出每一次分析。"),
    "replay.--symbols": _w("Comma-separated symbols.", "代码，用逗号分隔。"),
    "replay.--to": _w("Last session to analyse as of.", "作为研究日期的最后一个交易日。"),
    "replay.--universe-file": _w("A file of symbols.", "列出代码的文件。"),
    "replay.--workers": _w(
        "Threads, one symbol each (little gain: the GIL).",
        "线程数，每个线程分析一个代码（受 GIL 所限，提速有限）。",
    ),
    "reports": _w("Published reports: list, show, export, verify.", "已发布的报告：列出、显示、导出和核验。"),
    "reports.evidence": _w(
        "Where a number or quote of report REPORT_ID comes from: each evidence it cites, with the passage holding "
        "it.\n"
        "\n"
        "Give exactly one of --number, --quote and --evidence.",
        "报告编号所指报告中的某个数字或引文出自哪里：它所引用的每条证据，以及包含该内容的原文段落。\n"
        "\n"
        "--number、--quote 和 --evidence 三者须给出且只给出一个。",
    ),
    "reports.evidence.--evidence": _w("An evidence id the report cites (ev-...).", "报告所引用的证据编号（ev-...）。"),
    "reports.evidence.--number": _w(
        "A number as written in one of the report's claims, e.g. 27.51.",
        "报告某条论断中写出的数字，例如 27.51。",
    ),
    "reports.evidence.--quote": _w("One of the report's quotations, as written.", "报告中的一段引文，按原样写出。"),
    "reports.export": _w("Write a report to a file (.md or .json).", "把一份报告写入文件（.md 或 .json）。"),
    "reports.export.--to": _w("A .md or .json path.", "一个 .md 或 .json 路径。"),
    "reports.list": _w(
        "Published reports, newest first (published in the exchange's time).",
        "已发布的报告，最新的在前（发布时间为交易所时间）。",
    ),
    "reports.show": _w(
        "A report as Markdown or as its structured JSON (a report that is not as published is shown with a warning).",
        "以 Markdown 或结构化 JSON 显示一份报告（与发布时不一致的报告会附警告显示）。",
    ),
    "reports.verify": _w(
        "Re-check a published report from its frozen evidence alone (nothing is fetched); exit 1 on any problem.",
        "仅凭封存的证据重新核验一份已发布的报告（不获取任何数据）；发现任何问题时退出码为 1。",
    ),
    "restore": _w(
        "Put the backup NAME (a file name from `backups list`, or a path) in place of the workspace's database.\n"
        "\n"
        "The current file is renamed to workspace.before-restore-<time>.duckdb first, never overwritten or deleted; "
        "the backup is checked (sha256, DuckDB opens it, its schema) before anything changes.",
        "用名为“名称”的备份（`backups list` 中的文件名，或一个路径）替换工作区的数据库。\n"
        "\n"
        "当前文件会先改名为 workspace.before-restore-<time>.duckdb，绝不会被覆盖或删除；在做任何改动之前，"
        "先检查备份（sha256、DuckDB 能否打开、数据库结构）。",
    ),
    "restore.--yes": _w(
        "Restore without asking (the current file is kept aside either way).",
        "不经询问直接恢复（无论如何当前文件都会另行保留）。",
    ),
    "review-quick": _w(
        "Re-check SYMBOL against its latest full report: the changes since, each answered by the model.",
        "对照该代码最新的完整报告做快速复核：列出此后的变化，每一项由模型作答。",
    ),
    "review-quick.--account": _w(
        "The ledger account whose position and open orders the answers consider (default: the report's).",
        "作答时考虑哪个账本账户的持仓和未成交委托（默认：该报告读取的账户）。",
    ),
    "review-quick.--model": _w(
        "A configured model name, or 'offline' (default: the workspace's default).",
        "已配置的模型名称，或 'offline'（默认：工作区的默认模型）。",
    ),
    "review-quick.--language": _w(
        "The review's language (default: --lang when given, else the workspace's report_language setting, else the "
        "system locale's).",
        "复核的语言（默认：给出 --lang 时用其语言，否则用工作区设置 report_language，再否则跟随系统区域设置）。",
    ),
    "rules": _w(
        "Exchange rules: identity, lots, ticks, limits, sessions, calendars and fees.",
        "交易所规则：证券识别、交易单位、最小价格变动、涨跌停、交易时段、交易日历和费用。",
    ),
    "rules.calendar": _w(
        "The sessions and half days of MARKET (CN or HK) between two dates.",
        "两个日期之间该市场（CN 或 HK）的交易日和半日市。",
    ),
    "rules.calendar.--from": _w("First day, YYYY-MM-DD.", "起始日，YYYY-MM-DD。"),
    "rules.calendar.--to": _w("Last day, YYYY-MM-DD (included).", "截止日，YYYY-MM-DD（含当日）。"),
    "rules.check-order": _w(
        "Can this order be placed? Lots, ticks, limits and the price cage (exit 0 either way).",
        "这笔委托能否下单？检查交易单位、最小价格变动、涨跌停和价格笼子（无论结果如何退出码都为 0）。",
    ),
    "rules.check-order.--date": _w("The trading date (default: today).", "交易日期（默认：今天）。"),
    "rules.check-order.--holding": _w(
        "Sellable holding (for sells: the odd-lot rule).",
        "可卖持仓（卖出时用于零股规则）。",
    ),
    "rules.check-order.--listing-session": _w(
        "Session number since listing, for new listings.",
        "上市以来的第几个交易日，用于新股。",
    ),
    "rules.check-order.--lot": _w(
        "Hong Kong board lot, when the workspace has no data for it.",
        "港股每手股数，在工作区没有该股数据时使用。",
    ),
    "rules.check-order.--qty": _w("Quantity in shares.", "数量（股）。"),
    "rules.check-order.--ref": _w(
        "The day's reference price, to check limits and the price cage.",
        "当日参考价，用于检查涨跌停和价格笼子。",
    ),
    "rules.check-order.--st": _w(
        "The stock is under special treatment (ST/*ST) that day.",
        "该股票当天处于风险警示（ST/*ST）。",
    ),
    "rules.fees": _w(
        "Itemised fees of an order: commission, stamp duty, exchange fees and levies in force on the date.",
        "一笔委托的分项费用：当日适用的佣金、印花税、交易所收费和征费。",
    ),
    "rules.fees.--bundled": _w(
        "Exchange handling and regulatory fees are inside the commission (A-shares).",
        "交易所经手费和证管费已包含在佣金内（A 股）。",
    ),
    "rules.fees.--commission-min": _w("Minimum commission per order, e.g. 5.", "每笔委托的最低佣金，例如 5。"),
    "rules.fees.--commission-rate": _w(
        "Commission rate on the traded amount, e.g. 0.00025.",
        "按成交金额计的佣金费率，例如 0.00025。",
    ),
    "rules.fees.--date": _w(
        "Trade date YYYY-MM-DD (default: today in the market).",
        "交易日期 YYYY-MM-DD（默认：该市场的今天）。",
    ),
    "rules.fees.--price": _w("Price per share in the market's currency.", "以该市场币种计的每股价格。"),
    "rules.fees.--qty": _w("Number of shares.", "股数。"),
    "rules.fees.--side": _w("Buy or sell.", "买入或卖出。"),
    "rules.holiday": _w(
        "The workspace's own holidays: corrections and years the shipped calendars do not know yet.",
        "工作区自己的休市日：对内置交易日历的更正，以及内置日历尚未覆盖的年份。",
    ),
    "rules.holiday.add": _w(
        "Record that MARKET is closed on DATE (or trades a half day, or is open).",
        "记录该市场在所给日期休市（或只交易半日，或照常开市）。",
    ),
    "rules.holiday.add.--half-day": _w("A morning-only session (Hong Kong).", "只有上午交易的半日市（港股）。"),
    "rules.holiday.add.--note": _w("Why (e.g. the exchange notice).", "原因（例如交易所公告）。"),
    "rules.holiday.add.--open": _w("A session the shipped calendar lacks.", "内置日历中缺少的交易日。"),
    "rules.holiday.extend": _w(
        "Vouch that MARKET's workspace holidays are complete through a date.",
        "确认该市场的工作区休市日已完整覆盖到某一日期。",
    ),
    "rules.holiday.extend.--note": _w("Where the holiday list comes from.", "休市日列表的出处。"),
    "rules.holiday.extend.--through": _w("Last day the workspace holidays cover.", "工作区休市日覆盖到的最后一天。"),
    "rules.holiday.list": _w(
        "The workspace's holidays, and how far each market's calendar is known.",
        "工作区的休市日，以及各市场的交易日历已知到哪一天。",
    ),
    "rules.limits": _w(
        "Limit-up and limit-down prices of SYMBOL from a reference price.",
        "按参考价计算该代码的涨停价和跌停价。",
    ),
    "rules.limits.--date": _w("The trading date (default: today).", "交易日期（默认：今天）。"),
    "rules.limits.--listing-session": _w(
        "Session number since listing, for new listings.",
        "上市以来的第几个交易日，用于新股。",
    ),
    "rules.limits.--ref": _w(
        "Reference price: previous close or ex-rights reference.",
        "参考价：前收盘价或除权除息参考价。",
    ),
    "rules.limits.--st": _w(
        "The stock is under special treatment (ST/*ST) that day.",
        "该股票当天处于风险警示（ST/*ST）。",
    ),
    "rules.session": _w(
        "Which session phase MARKET (CN or HK) is in at an instant.",
        "该市场（CN 或 HK）在某一时刻处于哪个交易时段。",
    ),
    "rules.session.--at": _w(
        "The instant (default: now); naive = exchange time.",
        "时刻（默认：现在）；未带时区时按交易所时间。",
    ),
    "rules.session.--board": _w(
        "main, chinext, star, bse, fund, hk_main, hk_gem (default: main).",
        "main、chinext、star、bse、fund、hk_main、hk_gem 之一（默认：main）。",
    ),
    "rules.session.--exchange": _w("SH, SZ, BJ or HK (default: SH for CN).", "SH、SZ、BJ 或 HK（默认：CN 为 SH）。"),
    "rules.show": _w("Identity and trading rules of SYMBOL on a date.", "该代码在某一日期的证券识别信息和交易规则。"),
    "rules.show.--date": _w("The date whose rules apply (default: today).", "按哪一天的规则（默认：今天）。"),
    "runs": _w("Research runs: list, show, resume, stop.", "研究任务：列出、显示、继续和停止。"),
    "runs.list": _w("Every run with its status and stage.", "每个研究任务及其状态和所处阶段。"),
    "runs.resume": _w(
        "Continue a paused or interrupted run from its journal (research of the past continues on its own clock).",
        "按任务日志继续一个已暂停或被中断的研究任务（研究过去的任务按它自己的时钟继续）。",
    ),
    "runs.show": _w(
        "A run's plan, status, model calls, cost and journal.",
        "一个研究任务的计划、状态、模型调用、费用和任务日志。",
    ),
    "runs.stop": _w("Stop a run (it cannot be resumed afterwards).", "停止一个研究任务（停止后无法再继续）。"),
    "scan": _w(
        "Screen every instrument (or the watchlist, or --symbol ...) and shortlist what is worth researching.\n"
        "\n"
        "The scan gives no prices to trade at and no quantities. Names are those of the as-of session; ST and *ST "
        "names are flagged and left off the shortlist unless --include-st. Equal scores are ordered by their "
        "components.",
        "筛选全部证券（或自选股，或 --symbol 给出的代码），列出值得研究的候选名单。\n"
        "\n"
        "扫描不给出交易价格，也不给出数量。证券名称取自研究日期当天；ST 和 *ST 股票会被标出，除非给出 --include-st，"
        "否则不进入候选名单。得分相同时按各分项排序。",
    ),
    "scan.--include-st": _w(
        "Rank ST and *ST names too (always flagged as such).",
        "ST 和 *ST 股票也参与排名（始终会被标出）。",
    ),
    "scan.--symbol": _w("Scan these symbols instead (repeatable).", "改为扫描这些代码（可重复给出）。"),
    "scan.--top": _w("Shortlist length.", "候选名单的长度。"),
    "scan.--universe": _w("What to scan.", "扫描的范围。"),
    "search": _w(
        "The web search research may use: a SearXNG instance (its JSON API) or the Brave Search API (with a key).",
        "研究可用的网页搜索：一个 SearXNG 实例（通过其 JSON API）或 Brave Search API（需要密钥）。",
    ),
    "search.clear": _w(
        "Use no search provider (Brave's stored key is deleted too).",
        "不使用任何搜索服务（已保存的 Brave 密钥也会被删除）。",
    ),
    "search.set": _w(
        "Let research query the SearXNG instance at URL, or the Brave Search API (test it with: stockbench search "
        "test).",
        "让研究查询位于所给网址的 SearXNG 实例，或 Brave Search API（可用 `stockbench search test` 测试）。",
    ),
    "search.set.--base-url": _w(
        "With --brave: another address of the API (a proxy, or a test server; http only to this machine). Default "
        "https://api.search.brave.com.",
        "与 --brave 一起用：API 的另一个地址（代理或测试服务器；http 只能指向本机）。"
        "默认 https://api.search.brave.com。",
    ),
    "search.set.--brave": _w(
        "Use the Brave Search API; its key is read from standard input (asked without echo on a terminal), unless "
        "STOCKBENCH_KEY_SEARCH_BRAVE gives it.",
        "使用 Brave Search API；其密钥从标准输入读取（在终端上不回显地询问），"
        "除非由 STOCKBENCH_KEY_SEARCH_BRAVE 给出。",
    ),
    "search.set.--searxng": _w(
        "The SearXNG instance's address, e.g. https://searx.example.org (JSON format enabled).",
        "SearXNG 实例的地址，例如 https://searx.example.org（须启用 JSON 格式）。",
    ),
    "search.show": _w(
        "The configured search provider (`provider` null when none).",
        "已配置的搜索服务（未配置时 `provider` 为 null）。",
    ),
    "search.test": _w(
        "Send the configured provider one query and report ok (results, latency) or the reason it failed.",
        "向已配置的搜索服务发送一次查询，报告正常（结果数、延迟）或失败的原因。",
    ),
    "size": _w(
        "Size an order of SYMBOL for ACCOUNT from a risk budget; a plan that breaks a rule is refused (exit 1).\n"
        "\n"
        "Percentages are percent: --risk-pct 1 risks 1% of equity at the stop (1% is the same).",
        "按风险预算为该账户计算该代码一笔委托的数量；违反规则的计划会被拒绝（退出码为 1）。\n"
        "\n"
        "百分比按百分数写：--risk-pct 1 表示触及止损时亏损权益的 1%（写 1% 也一样）。",
    ),
    "size.--confirm-risk": _w(
        "Accept a --risk-pct above the sizing table's ceiling.",
        "接受超过仓位表上限的 --risk-pct。",
    ),
    "size.--entry": _w(
        "Entry price (rounded to the tick, cautiously).",
        "入场价（按最小价格变动单位、向保守方向取整）。",
    ),
    "size.--max-weight": _w(
        "Largest position weight after the trade, percent: 20 or 20% (default: 20%).",
        "交易后单只持仓的最大权重，按百分数：20 或 20%（默认：20%）。",
    ),
    "size.--risk-pct": _w(
        "Percent of equity lost at the stop: 1 or 1% (default: the sizing table's 1%; above its 2% ceiling only with "
        "--confirm-risk).",
        "触及止损时亏损的权益百分比：1 或 1%（默认：仓位表的 1%；超过其 2% 上限须同时给出 --confirm-risk）。",
    ),
    "size.--side": _w("Buy or sell.", "买入或卖出。"),
    "size.--stop": _w("Stop price of the position (below the entry).", "这笔持仓的止损价（低于入场价）。"),
    "track-record": _w(
        "How published calls turned out once their horizon passed: hit rates, calibration, cost per report.",
        "已发布的判断在持有期过后的结果：命中率、校准情况和每份报告的费用。",
    ),
    "track-record.--benchmark": _w(
        "Measure against this index instead of the official one.",
        "以此指数而不是官方指数作为比较基准。",
    ),
    "track-record.--calls": _w("List every call in --json output.", "在 --json 输出中列出每一个判断。"),
    "track-record.--model": _w("Only reports by this model.", "只看此模型写的报告。"),
    "track-record.--remember": _w(
        "Keep --benchmark as this workspace's stand-in (runs read it too).",
        "把 --benchmark 保存为本工作区的替代基准（研究任务也会读取它）。",
    ),
    "track-record.--since": _w("Calls made on or after this session.", "在此交易日或之后做出的判断。"),
    "track-record.--until": _w("Calls made on or before this session.", "在此交易日或之前做出的判断。"),
    "watchlist": _w("Symbols you follow, in groups and in your order.", "你关注的代码，按分组和你排定的顺序。"),
    "watchlist.add": _w(
        "Add SYMBOLS (any accepted form: 600519, sh600519, 00700.HK) at the end of a group.",
        "把这些代码（可用任一接受的写法：600519、sh600519、00700.HK）添加到某个分组的末尾。",
    ),
    "watchlist.add.--group": _w("Group to add to (default: the first group).", "添加到哪个分组（默认：第一个分组）。"),
    "watchlist.add.--note": _w("A note shown beside the symbol.", "显示在代码旁边的备注。"),
    "watchlist.group": _w("Add, rename, reorder, remove and list groups.", "添加、重命名、调整次序、删除和列出分组。"),
    "watchlist.group.add": _w("Create an empty group NAME at the end.", "在末尾新建一个名为“名称”的空分组。"),
    "watchlist.group.list": _w("Every group with its size.", "每个分组及其代码数量。"),
    "watchlist.group.move": _w(
        "Move group NAME to POSITION (1 = first).",
        "把名为“名称”的分组移到所给位置（1 = 最前）。",
    ),
    "watchlist.group.remove": _w("Delete group NAME and the symbols on it.", "删除名为“名称”的分组及其中的代码。"),
    "watchlist.group.rename": _w("Rename group NAME to NEW_NAME.", "把名为“名称”的分组改名为“新名称”。"),
    "watchlist.list": _w("The groups and their symbols, in order.", "各分组及其中的代码，按顺序列出。"),
    "watchlist.list.--group": _w("Only this group.", "只看这个分组。"),
    "watchlist.move": _w(
        "Reorder SYMBOL within its group, or move it to another group.",
        "在所在分组内调整该代码的位置，或把它移到另一个分组。",
    ),
    "watchlist.move.--group": _w(
        "The group SYMBOL is in (needed when it is in several).",
        "该代码所在的分组（它在多个分组中时须给出）。",
    ),
    "watchlist.move.--to": _w("New place in its group (1 = top).", "在所在分组中的新位置（1 = 最前）。"),
    "watchlist.move.--to-group": _w(
        "Move SYMBOL into this group instead (at --to, default the end).",
        "改为把该代码移入此分组（放在 --to 给出的位置，默认放在末尾）。",
    ),
    "watchlist.remove": _w("Remove SYMBOL from the watchlist.", "把该代码从自选股中删除。"),
    "watchlist.remove.--group": _w(
        "Remove from this group only (default: from every group).",
        "只从这个分组中删除（默认：从每个分组中删除）。",
    ),
    "watchlist.search": _w(
        "Find instruments by code or name (e.g. 6059, 酒业).",
        "按代码或名称查找证券（例如 6059、酒业）。",
    ),
    "zones": _w(
        "Buy zone, sell zone and stop of SYMBOL on its last session (--as-of D to look back), with their anchors, "
        "the plan's reward-to-risk and whether it is tradeable (the reason codes when not).",
        "该代码在最近一个交易日的买入区间、卖出区间和止损价（用 --as-of 日期 回看过去），附其锚点、"
        "计划的盈亏比以及能否交易（不能交易时给出理由码）。",
    ),
    "zones.--price": _w(
        "Place this price against the zones (default: the last close).",
        "把此价格放到各区间中对照（默认：最近收盘价）。",
    ),
    # options that had no help before
    "data.bars.--adjust": _w(
        "Price adjustment: none (the prices traded), forward or backward.",
        "复权方式：`none`（不复权，即成交价）、`forward`（前复权）或 `backward`（后复权）。",
    ),
    "data.import.--format": _w(
        "The file's format (auto: told from its name and columns).", "文件格式（`auto`：按文件名和列自动判断）。"
    ),
    "feedback.add.--verdict": _w(
        "Your verdict on the report: accept, revise or reject.",
        "你对报告的结论：`accept`（接受）、`revise`（修改）或 `reject`（否决）。",
    ),
    "feedback.list.--symbol": _w("Only the feedback on this symbol.", "只列出对这只证券的反馈。"),
    "track-record.--symbol": _w("Only the calls on this symbol.", "只统计这只证券的判断。"),
    "replay.--model": _w(
        "The model that analyses each session (a configured name, or offline).",
        "分析每个交易日所用的模型（已配置的模型名，或 `offline`）。",
    ),
    "ledger.transfer.--at": _w(
        "When (exchange time if naive; default: now).", "时间（未带时区时按交易所时间；默认：现在）。"
    ),
    "ledger.balance.--at": _w(
        "The balance as it stood then (exchange time if naive; default: now).",
        "该时刻的余额（未带时区时按交易所时间；默认：现在）。",
    ),
    "ledger.fill.--side": _w("Buy or sell.", "买入（`buy`）或卖出（`sell`）。"),
    "ledger.fill.--price": _w("The price per share it was done at.", "每股成交价。"),
    "ledger.fill.--note": _w("A note kept with the fill.", "随这笔成交保存的备注。"),
    "ledger.order.add.--side": _w("Buy or sell.", "买入（`buy`）或卖出（`sell`）。"),
    "ledger.order.add.--qty": _w("Shares.", "股数。"),
    "ledger.order.add.--price": _w("The limit price.", "限价。"),
    "ledger.order.add.--report": _w("The report that proposed it.", "提出这笔委托的报告。"),
    "ledger.order.add.--note": _w("A note kept with the order.", "随这笔委托保存的备注。"),
    "ledger.order.list.--status": _w("Only the orders in this status.", "只列出处于该状态的委托。"),
    "ledger.order.cancel.--reason": _w("Why it is cancelled (kept with the order).", "撤单原因（随委托保存）。"),
    "ledger.action.dividend.--ex-date": _w(
        "The ex-dividend date: the holding of the session before it is paid.",
        "除息日：按其前一交易日的持仓派息。",
    ),
    "ledger.action.dividend.--pay-date": _w(
        "The day the cash is paid (kept with the action).", "现金到账日（随这条公司行动保存）。"
    ),
    "ledger.action.bonus.--ex-date": _w(
        "The ex-rights date: the holding of the session before it receives the shares.",
        "除权日：按其前一交易日的持仓送转。",
    ),
    "ledger.action.bonus.--kind": _w(
        "Bonus shares, a capitalization issue or a split.",
        "送股（`bonus`）、转增（`capitalization`）或拆股（`split`）。",
    ),
    "ledger.export.--format": _w("CSV, or a Beancount ledger.", "CSV，或 Beancount 账本。"),
    "ledger.export.--to": _w("The file to write.", "要写入的文件。"),
    "reports.list.--symbol": _w("Only the reports on this symbol.", "只列出这只证券的报告。"),
    "reports.show.--format": _w(
        "md: the report as Markdown; json: as JSON.", "`md`：以 Markdown 显示报告；`json`：以 JSON 显示。"
    ),
    "rules.check-order.--side": _w("Buy or sell.", "买入（`buy`）或卖出（`sell`）。"),
    "rules.check-order.--price": _w("The limit price.", "限价。"),
    "watchlist.search.--limit": _w("At most this many matches.", "最多列出的匹配数。"),
}

# The command line's own lines around an error (stockbench/cli/main.py, params.py).
NOTES |= {
    "cli.aborted": _w("aborted", "已中止"),
    "cli.cancelled": _w("cancelled", "已取消"),
    "cli.internal_error": _w("internal error: {error}", "内部错误：{error}"),
    "cli.internal_hint": _w("hint: this is a bug; the details are in the workspace log ({log})",
                            "提示：这是程序缺陷；详情见工作区日志（{log}）"),
    "cli.not_a_date": _w("'{value}' is not a date (use YYYY-MM-DD)",
                         "“{value}”不是日期（请按“年-月-日”写，例如 2021-12-31）"),
    "cli.bad_markets": _w("markets are CN and/or HK", "市场只能是 CN、HK 或两者（用逗号分隔）"),
    "cli.bad_price_pair": _w("'{item}' is not SYMBOL=PRICE", "“{item}”不是“代码=价格”"),
    "cli.bad_kinds": _w("use a comma-separated list of {kinds}", "请用逗号分隔列出以下类别：{kinds}"),
    "cli.bad_flag": _w("use true or false", "请用 1（是）或 0（否）"),
    "cli.rebuild_from": _w("say what to rebuild from: --from-journal", "请说明从何处重建：--from-journal"),
    "cli.evidence_one_of": _w("give exactly one of --number, --quote and --evidence",
                              "--number、--quote 和 --evidence 三者须给出且只给出一个"),
    "cli.evidence.head_number": _w("{report_id}: where {number} comes from", "{report_id}：{number} 的来源"),
    "cli.evidence.head_quote": _w("{report_id}: where the quote comes from", "{report_id}：引文的来源"),
    "cli.evidence.head": _w("{report_id}: evidence", "{report_id}：证据"),
    "cli.evidence.missing": _w("{evidence_id}: not in this workspace", "{evidence_id}：不在此工作区中"),
    "cli.evidence.item": _w("{evidence_id} ({kind}) from {source}", "{evidence_id}（{kind}），来源 {source}"),
    "cli.evidence.sha": _w("  sha256 {sha256}", "  sha256 {sha256}"),
    "cli.evidence.altered": _w("  (body altered!)", "（正文已被改动！）"),
    "cli.evidence.fetched": _w("  fetched {at}", "  获取于 {at}"),
    "cli.evidence.where": _w("  at {where}", "  位置 {where}"),
    "cli.evidence.drops_negation": _w("  REFUSED: the quote leaves out “{dropped}” of its clause",
                                      "  拒绝：引文漏掉了所在分句中的“{dropped}”"),
    "cli.evidence.mismatch": _w("  NOT FOUND: the closest passage is shown", "  未找到：下面是最接近的段落"),
    "cli.evidence.found": _w("  found", "  已找到"),
    "cli.evidence.not_found": _w("  NOT FOUND: its opening is shown", "  未找到：下面是它的开头"),
    "cli.folder_or_default": _w("give a folder or --default, not both", "请给出目录或 --default，不要同时给出"),
    "cli.account_or_none": _w("use --account or --no-account, not both",
                              "请用 --account 或 --no-account，不要同时使用"),
    "cli.half_day_or_open": _w("give at most one of --half-day and --open", "--half-day 和 --open 最多给出一个"),
    "cli.record_or_replay": _w("use --record or --replay, not both", "请用 --record 或 --replay，不要同时使用"),
    "cli.move_where": _w("say where: --to N (1 = top) or --to-group NAME",
                         "请说明移到哪里：--to 位置（1 为最前）或 --to-group 分组名"),
    "cli.not_a_percent": _w("an empty value is not a percentage (e.g. 1 or 1% for one percent)",
                            "空值不是百分数（例如 1 或 1% 表示百分之一）"),
}  # fmt: skip

# ---- reviews, the track record, replays and the eval (cli/feedback.py, cli/evals.py); the words of the reviews'
# ---- codes follow the desktop's review dialog
NOTES |= {
    "cli.review.added": _w("review {review_id} of {report_id}: {verdict}",
                           "已记录对报告 {report_id} 的评审 {review_id}：{verdict}"),
    "cli.review.none": _w("no review", "尚无评审"),
    "cli.review.verdict": _w("{verdict} ({reasons})", "{verdict}（{reasons}）"),
    "cli.review.step": _w("{report} {action}: {verdicts}", "{report} {action}：{verdicts}"),
    "cli.review.code": _w("{code}: {meaning}", "{code}：{meaning}"),
    "cli.review.score": _w("{name} {low}-{high}: {meaning}", "{name} {low}-{high}：{meaning}"),
    "cli.track.head": _w("as of {as_of}: {reports} reports, {matured} matured, {pending} pending, {unscored} unscored",
                         "截至 {as_of}：{reports} 份报告，{matured} 份已到期，{pending} 份待到期，"
                         "{unscored} 份无法评估"),
    "cli.track.benchmark": _w("benchmark {market}: {symbol} {name}", "基准 {market}：{symbol} {name}"),
    "cli.track.stand_in": _w("benchmark {market}: {symbol} {name}, a stand-in: the official index {official} is "
                             "not used",
                             "基准 {market}：以 {symbol} {name} 作为替代基准，未使用官方指数 {official}"),
    "cli.track.no_benchmark": _w("benchmark {market}: none: the official index {official} has no bars in this "
                                 "workspace, so excess returns and hit rates are not computed",
                                 "基准 {market}：无，本工作区没有官方指数 {official} 的行情，"
                                 "因此不计算超额收益和命中率"),
    "cli.track.brier": _w("Brier {brier} vs base rate {base_rate_brier} (skill {skill}, n={n})",
                          "布里尔分数 {brier}，基础概率为 {base_rate_brier}（技能 {skill}，{n} 个判断）"),
    "cli.track.no_brier": _w("no matured call with scenario probabilities yet", "尚无带情景概率的到期判断"),
    "cli.track.cost": _w("cost per report {per_report} over {reports} reports",
                         "每份报告费用 {per_report}（共 {reports} 份报告）"),
    "cli.replay.head": _w("{analyses} analyses in {seconds} s ({each} s each): {counts}",
                          "{analyses} 次分析，用时 {seconds} 秒（每次 {each} 秒）：{counts}"),
    "cli.replay.progress": _w("[{done}/{total}] {symbol} {day} {status} {outcome}{how}",
                              "[{done}/{total}] {symbol} {day} {status} {outcome}{how}"),
    "cli.replay.reused": _w(" (reused)", "（沿用已有报告）"), "cli.replay.seconds": _w(" {seconds}s", " {seconds} 秒"),
    "cli.eval.building": _w("building the demo market the cases run on (once; about fifteen seconds)",
                            "正在建立用例所用的示例市场（只需一次，约十五秒）"),
    "cli.eval.progress": _w("   {case}: {state} ({seconds} s)", "   {case}：{state}（{seconds} 秒）"),
    "cli.eval.head": _w("eval {eval_id}: {state} (model {model}, handbook {handbook_version}, {seconds} s)",
                        "评测 {eval_id}：{state}（模型 {model}，方法手册 {handbook_version}，{seconds} 秒）"),
    "cli.eval.category": _w("  {name}: {passed} passed, {failed} failed", "  {name}：{passed} 个通过，{failed} 个失败"),
    "cli.eval.case_failed": _w("    FAIL {case} ({status})", "    失败 {case}（{status}）"),
    "cli.eval.invariant_failure": _w("    - invariant {name}: {failure}", "    - 不变量 {name}：{failure}"),
    "cli.eval.invariants": _w("  invariants: {states}", "  不变量：{states}"),
    "cli.eval.invariant": _w("{name} {state}", "{name} {state}"),
    "cli.eval.no_previous": _w("  no earlier run of this model to compare with", "  此模型没有更早的评测可供比较"),
    "cli.eval.compared": _w("  compared with {eval_id} (handbook {handbook_version}): {regressions} regression(s), "
                            "{fixed} fixed",
                            "  与 {eval_id}（方法手册 {handbook_version}）相比：{regressions} 个退步，{fixed} 个修复"),
    "cli.eval.regressed": _w("    REGRESSED {case}", "    退步 {case}"),
}  # fmt: skip

VALUES |= {
    "verdict.accept": _w("accept", "接受"), "verdict.revise": _w("revise", "修改"),
    "verdict.reject": _w("reject", "拒绝"),
    # review reasons and scores: the English meanings are the records' own (research/review_records.py REASONS,
    # SCORES); the catalogue holds their Chinese, keyed by code
    "review_reason.good_call": _w("good_call", "判断与计划都正确"),
    "review_reason.wrong_action": _w("wrong_action", "就所示事实而言，操作建议有误"),
    "review_reason.wrong_zone": _w("wrong_zone", "买入、卖出或止损价位设置不当"),
    "review_reason.missed_risk": _w("missed_risk", "遗漏了重大风险"),
    "review_reason.missed_news": _w("missed_news", "遗漏了重要公告或事件"),
    "review_reason.weak_evidence": _w("weak_evidence", "论断缺乏所引证据的充分支持"),
    "review_reason.stale_data": _w("stale_data", "报告所依据的数据已过时"),
    "review_reason.wrong_scene": _w("wrong_scene", "板块指数、同业或参照对象有误"),
    "review_reason.bad_sizing": _w("bad_sizing", "下单数量与账户不匹配"),
    "review_reason.unclear": _w("unclear", "报告难以理解"),
    "review_score.usefulness": _w("usefulness", "实用性：报告对决策有多大帮助"),
    "review_score.evidence": _w("evidence", "证据：论断的支持程度"),
    "review_score.clarity": _w("clarity", "清晰度：报告是否清楚"),
    "review_score.risk": _w("risk", "风险覆盖：风险是否讲全"),
    "market.CN": _w("CN", "A 股"), "market.HK": _w("HK", "港股"),
    "run_status.skipped": _w("skipped", "已跳过"), "run_status.reused": _w("reused", "沿用"),
    "eval_state.ok": _w("ok", "通过"), "eval_state.failed": _w("FAILED", "失败"),
    "eval_state.passed": _w("passed", "通过"), "eval_state.violated": _w("VIOLATED", "被违反"),
    "column.review_id": _w("review_id", "评审编号"), "column.verdict": _w("verdict", "结论"),
    "column.reasons": _w("reasons", "原因"), "column.reviewed_at": _w("reviewed_at", "评审时间"),
    "column.calls": _w("calls", "判断数"), "column.judged": _w("judged", "已评判"), "column.hits": _w("hits", "命中"),
    "column.hit_rate": _w("hit_rate", "命中率"), "column.mean_return_pct": _w("mean_return_pct", "平均收益%"),
    "column.mean_excess_pct": _w("mean_excess_pct", "平均超额收益%"), "column.category": _w("category", "类别"),
}  # fmt: skip

ERRORS |= {  # typed dates and instants (clock.py)
    "not_a_date": (_w("'{text}' is not a date", "“{text}”不是日期"),
                   _w("use YYYY-MM-DD, e.g. 2021-12-31", "请按“年-月-日”写，例如 2021-12-31")),
    "not_an_instant": (_w("'{text}' is not a date or an ISO instant", "“{text}”不是日期，也不是 ISO 时间"),
                       _w("use YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS][+08:00]",
                          "请按“年-月-日”或“年-月-日T时:分[:秒][+08:00]”写，例如 2024-01-03T10:31")),
}  # fmt: skip

ERRORS |= {  # errors once worded in English only, now in both languages (issue 19)
    # ---- evidence look-ups in a report (evidence/lookup.py)
    "lookup_one_thing": (_w("look up one thing: a number, a quote or an evidence id",
                            "一次只查一项：一个数字、一段引文或一个证据编号"),
                         _w("give exactly one of them", "请只给出其中一项")),
    "lookup_number_unstated": (_w("no claim of the report states the number '{number}'",
                                  "报告中没有论断写到数字“{number}”"),
                               _w("numbers in its claims: {numbers}", "其论断中的数字：{numbers}")),
    "lookup_number_unstated.none": (_w("no claim of the report states the number '{number}'",
                                       "报告中没有论断写到数字“{number}”"),
                                    _w("the report states no number", "这份报告没有写到任何数字")),
    "lookup_quote_unquoted": (_w("the report does not quote that text", "报告没有引用这段文字"),
                              _w("it has {count} quote(s)", "报告共有 {count} 段引文")),
    "lookup_evidence_uncited": (_w("the report does not cite {evidence}", "报告没有引用 {evidence}"),
                                _w("it cites: {cited}", "报告引用的证据：{cited}")),
    # ---- the watchlist (watchlist.py)
    "watchlist_no_group": (_w("there is no watchlist group named '{name}'", "自选股中没有名为“{name}”的分组"),
                           _w("groups: {groups}", "现有分组：{groups}")),
    "watchlist_no_group.none": (_w("there is no watchlist group named '{name}'", "自选股中没有名为“{name}”的分组"),
                                _w("create one with: {command}", "请先新建分组：{command}")),
    "watchlist_already_in.add": (_w("{symbol} is already in the group '{group}'", "{symbol} 已在分组“{group}”中"),
                                 _w("move it with: {command}", "如要移动，请用：{command}")),
    "watchlist_already_in.same": (_w("{symbol} is already in the group '{group}'", "{symbol} 已在分组“{group}”中"),
                                  _w("choose another group", "请选择另一个分组")),
    "watchlist_already_in.both": (_w("{symbol} is already in the group '{group}'", "{symbol} 已在分组“{group}”中"),
                                  _w("remove it from one of them", "请先从其中一个分组移除它")),
    "watchlist_not_in": (_w("{symbol} is not in the watchlist", "{symbol} 不在自选股中"),
                         _w("add it first: {command}", "请先添加：{command}")),
    "watchlist_not_in.remove": (_w("{symbol} is not in the watchlist", "{symbol} 不在自选股中"),
                                _w("see it with: {command}", "查看自选股：{command}")),
    "watchlist_not_in.remove_group": (_w("{symbol} is not in the group '{group}'", "{symbol} 不在分组“{group}”中"),
                                      _w("see it with: {command}", "查看自选股：{command}")),
    "watchlist_not_in.group": (_w("{symbol} is not in the group '{group}'", "{symbol} 不在分组“{group}”中"),
                               _w("add it first: {command}", "请先添加：{command}")),
    "watchlist_position_outside": (_w("position {position} is outside the group '{group}'",
                                      "位置 {position} 超出了分组“{group}”的范围"),
                                   _w("use 0 to {last}", "请使用 0 到 {last}")),
    "watchlist_group_position_outside": (_w("position {position} is outside the groups",
                                            "位置 {position} 超出了分组的范围"),
                                         _w("use 0 to {last}", "请使用 0 到 {last}")),
    "watchlist_group_exists": (_w("a watchlist group named '{name}' already exists", "名为“{name}”的自选股分组已存在"),
                               _w("choose another name", "请换一个名称")),
    "watchlist_several_groups": (_w("{symbol} is in several groups ({groups})", "{symbol} 在多个分组中（{groups}）"),
                                 _w("say which one with {option}", "请用 {option} 指明是哪一个")),
    "watchlist_group_name": (_w("'{name}' is not a usable group name", "“{name}”不能用作分组名称"),
                             _w("use 1-{limit} printable characters", "请使用 1 到 {limit} 个可打印字符")),
    # ---- configured models (llm/models.py, cli/models.py)
    "model_unknown": (_w("no model named '{name}' is configured (configured: {known})",
                         "没有配置名为“{name}”的模型（已配置：{known}）"),
                      _w("add it with: {command}", "请先添加：{command}")),
    "model_unknown.none": (_w("no model named '{name}' is configured (configured: none yet)",
                              "没有配置名为“{name}”的模型（尚未配置任何模型）"),
                           _w("add it with: {command}", "请先添加：{command}")),
    "model_exists": (_w("a model named '{name}' is already configured", "名为“{name}”的模型已配置"),
                     _w("pass {option} to change it", "如要修改，请加上 {option}")),
    "model_is_fallback": (_w("model '{name}' is the fallback of {users}", "模型“{name}”是 {users} 的备用模型"),
                          _w("change or remove those models first", "请先修改或移除这些模型")),
    "model_name_unusable": (_w("'{name}' cannot name a model", "“{name}”不能用作模型名称"),
                            _w("use 1-40 lower-case letters, digits, '.', '_' or '-' (and not '{offline}')",
                               "请使用 1 到 40 个小写字母、数字、“.”、“_”或“-”（且不能是“{offline}”）")),
    "model_id_unusable": (_w("model id '{model}' is empty or has surrounding spaces",
                             "模型编号“{model}”为空，或首尾带有空格"),
                          _w("give the provider's model id as it is", "请照原样给出服务商的模型编号")),
    "model_no_endpoint": (_w("provider '{provider}' has no default endpoint", "服务商“{provider}”没有默认接口地址"),
                          _w("pass {option}", "请用 {option} 给出接口地址")),
    "model_own_fallback": (_w("model '{name}' cannot be its own fallback", "模型“{name}”不能作为自己的备用模型"),
                           _w("name another configured model as its fallback", "请指定另一个已配置的模型作为备用模型")),
    "model_fallback_unknown": (_w("fallback model '{fallback}' is not configured", "备用模型“{fallback}”尚未配置"),
                               _w("add it first", "请先添加该模型")),
    "model_fallback_loop": (_w("fallbacks would form a loop: {loop}", "备用模型会形成循环：{loop}"),
                            _w("choose a fallback that does not lead back to this model",
                               "请选择不会绕回本模型的备用模型")),
    "model_api_base_scheme": (_w("API base '{url}' is not an http(s) URL", "接口地址“{url}”不是 http(s) 地址"),
                              _w("for example {example}", "例如 {example}")),
    "model_api_base_credentials": (_w("API base '{url}' must not carry credentials or a query",
                                      "接口地址“{url}”不能带有账号密码或查询参数"),
                                   _w("store the key with: {command}", "请这样保存密钥：{command}")),
    "preset_other_provider": (_w("the preset '{preset}' uses the provider {uses}, not {provider}",
                                 "预设“{preset}”使用的服务商是 {uses}，而不是 {provider}"),
                              _w("see the presets with: {command}", "查看预设：{command}")),
    "model_needs_provider": (_w("a model needs {provider} and {model}, or a {preset}",
                                "配置模型需要 {provider} 和 {model}，或一个 {preset}"),
                             _w("list them: {command}", "查看预设：{command}")),
    "api_key_missing": (_w("no API key on standard input", "标准输入中没有 API 密钥"),
                        _w("pipe it in, e.g.: {command}", "请用管道传入，例如：{command}")),
    "api_key_missing.search": (_w("no API key on standard input", "标准输入中没有 API 密钥"),
                               _w("pipe it in, e.g.: {command} (or set {env})",
                                  "请用管道传入，例如：{command}（或设置环境变量 {env}）")),
    "api_key_spaces": (_w("the API key contains spaces or several lines", "API 密钥中含有空格或多行"),
                       _w("give the key alone", "请只给出密钥本身")),
    # ---- the web search provider (cli/search.py)
    "search_one_provider": (_w("give one provider", "请只给出一个搜索服务"),
                            _w("{searxng}, or {brave}", "{searxng}，或 {brave}")),
    "search_base_url_brave": (_w("{option} goes with {brave}", "{option} 只能与 {brave} 一起使用"),
                              _w("give the SearXNG address with {searxng} alone",
                                 "请只用 {searxng} 给出搜索服务的地址")),
    # ---- importing fills from a CSV (ledger/imports.py, cli/ledger.py)
    "import_encoding": (_w("{file} is neither UTF-8 nor {gbk} text", "{file} 既不是 UTF-8 文本，也不是 {gbk} 文本"),
                        _w("save the file as UTF-8 CSV", "请把文件另存为 UTF-8 编码的 CSV")),
    "import_side": (_w("side '{side}' is not {buy} or {sell}", "买卖方向“{side}”既不是 {buy} 也不是 {sell}"),
                    _w("write {buy} or {sell}", "请写 {buy} 或 {sell}")),
    "import_changed": (_w("{file} changed after it was checked", "{file} 在检查之后被改动过"),
                       _w("check the file again before importing it", "请重新检查该文件后再导入")),
    "import_row_problem": (_w("row {number}: {problem}", "第 {number} 行：{problem_zh}"), _w("{fix}", "{fix_zh}")),
    "import_fill_columns": (_w("{file} lacks the column(s) {missing}", "{file} 缺少列：{missing}"),
                            _w("the header must be: {header}", "表头必须是：{header}")),
    # ---- the method handbook, runs and their checks (research/handbook.py, journal.py, llm_port.py, plan_check.py,
    # quick_review.py)
    "handbook_missing": (_w("the method handbook is missing ({path})", "方法手册缺失（{path}）"),
                         _w("reinstall the app", "请重新安装本程序")),
    "handbook_version_gone": (_w("handbook version {version} is no longer available, so the run cannot resume with "
                                 "the method it started with",
                                 "手册版本 {version} 已不可用，该研究无法按开始时的方法继续"),
                              _w("start a new analysis", "请开始新的分析")),
    "handbook_no_reference": (_w("there is no reference '{reference}'", "没有参考资料“{reference}”"),
                              _w("use a slug from the table of contents", "请使用目录中的标识")),
    "handbook_no_page": (_w("'{reference}' has {pages} page(s); page {page} does not exist",
                            "“{reference}”共 {pages} 页；第 {page} 页不存在"),
                         _w("ask for a page from 1 to {pages}", "请查看第 1 到 {pages} 页")),
    "run_unknown": (_w("there is no run '{run}'", "没有研究“{run}”"),
                    _w("list runs with: {command}", "查看研究：{command}")),
    "cost_price_unknown": (_w("the price of '{name}' is unknown, so the call cannot be held to the cost ceiling",
                              "模型“{name}”的价格未知，无法把这次调用控制在费用上限内"),
                           _w("add the model's prices, or run without {option}",
                              "请补充该模型的价格，或不带 {option} 运行")),
    "cost_over_ceiling": (_w("the next call may cost up to {cost} {currency}; {left} is left of the ceiling",
                             "下一次调用最多可能花费 {cost} {currency}；费用上限只剩 {left}"),
                          _w("raise the ceiling and press Continue", "请提高费用上限后按“继续”")),
    "plan_check_no_report": (_w("there is no report on {symbol} to check", "没有关于 {symbol} 的报告可供检查"),
                             _w("write one first: {command}", "请先撰写报告：{command}")),
    "plan_check_no_price": (_w("there is no current price or last close of {symbol}",
                               "没有 {symbol} 的现价或最近收盘价"),
                            _w("fetch or import its daily bars: {command}", "请获取或导入其日线：{command}")),
    "quick_not_paused": (_w("run {run} is not a paused quick review ({kind}, {status})",
                            "研究 {run} 不是已暂停的快速复核（{kind}，{status}）"),
                         _w("start a new one: {command}", "请开始新的快速复核：{command}")),
    "quick_no_baseline": (_w("there is no full report on {symbol} to review against",
                             "没有关于 {symbol} 的完整报告可作为复核基准"),
                          _w("run a full analysis first: {command}", "请先进行完整分析：{command}")),
    "quick_baseline_old": (_w("the latest full report on {symbol} ({report}, {published}) is {age} sessions old; "
                              "a quick review needs one at most {limit} old",
                              "{symbol} 最新的完整报告（{report}，{published_zh}）已过去 {age} 个交易日；"
                              "快速复核需要不超过 {limit} 个交易日的报告"),
                           _w("run a full analysis first: {command}", "请先进行完整分析：{command}")),
    # ---- analytics: frames, zones and the backtest (analytics/indicators.py, signals.py, states.py, scenarios.py,
    # backtest.py)
    "backtest_notional": (_w("reference notional {notional} is not positive", "参考名义金额 {notional} 不是正数"),
                          _w("fix the backtest rule table", "请修正回测规则表")),
    "backtest_horizons": (_w("backtest horizons {horizons} must be whole sessions of 1 or more",
                             "回测持有期 {horizons} 必须是不少于 1 的整数个交易日"),
                          _w("fix the rule table", "请修正规则表")),
    "zone_levels_order": (_w("zone levels out of order: stop {stop}, buy {buy_low}-{buy_high}, sell {sell_low}-"
                             "{sell_high}",
                             "区间价位顺序不对：止损 {stop}，买入区间 {buy_low}-{buy_high}，卖出区间 {sell_low}-"
                             "{sell_high}"),
                          _w("need stop < buy low <= buy high < sell low <= sell high",
                             "须满足：止损 < 买入下沿 <= 买入上沿 < 卖出下沿 <= 卖出上沿")),
    "frame_lacks": (_w("the bar frame lacks {columns}", "K 线数据表缺少 {columns}"),
                    _w("build it with {module}", "请用 {module} 构建")),
    "frame_no_symbol": (_w("the frame has no symbol column", "数据表没有代码列"),
                        _w("build it with {module}", "请用 {module} 构建")),
    "frame_repeats_day": (_w("the bar frame repeats a (symbol, day)", "K 线数据表中有重复的（代码，日期）"),
                          _w("keep one bar per symbol and day", "每个代码每天只保留一根 K 线")),
    "frame_benchmark_symbols": (_w("the benchmark {name} holds several symbols", "基准 {name} 含有多个代码"),
                                _w("give one series of day and close", "请只给出一组日期和收盘价")),
    "frame_several_symbols": (_w("the frame holds several symbols", "数据表含有多个代码"),
                              _w("say which symbol", "请指明是哪个代码")),
    "frame_several_symbols.indicators": (_w("the frame holds several symbols", "数据表含有多个代码"),
                                         _w("name the symbol whose indicators you want", "请指明要计算指标的代码")),
    # ---- the workspace and the clock (store/migrations.py, store/workspace.py, clock.py)
    "workspace_too_new": (_w("This workspace has schema version {version}, newer than this release knows ({known}).",
                             "此工作区的结构版本是 {version}，比本版本程序所知的（{known}）更新。"),
                          _w("Open it with a newer Stock Workbench, or choose another workspace with {option}.",
                             "请用更新版本的股票研究工作台打开它，或用 {option} 选择其他工作区。")),
    "workspace_is_a_file": (_w("{home} is a file, not a workspace folder", "{home} 是文件，不是工作区文件夹"),
                            _w("choose a folder with {option}", "请用 {option} 选择一个文件夹")),
    "instant_naive.replay": (_w("replay instant {instant} has no time zone", "回放时刻 {instant} 没有时区"),
                             _w("give the instant with its offset, e.g. +08:00", "请给出带时差的时刻，例如 +08:00")),
    "instant_naive.recorded": (_w("recorded instant {instant} has no time zone", "录制时刻 {instant} 没有时区"),
                               _w("give the instant with its offset, e.g. +08:00", "请给出带时差的时刻，例如 +08:00")),
    # ---- daily bars checked against the market rules (market/bar_rules.py)
    "bar_symbol_bad": (_w("bar for '{symbol}': {problem}", "“{symbol}”的 K 线：{problem_zh}"),
                       _w("{hint}", "{hint_zh}")),
    "bar_symbol_not_canonical": (_w("bar symbol '{symbol}' is not canonical", "K 线代码“{symbol}”不是规范写法"),
                                 _w("write it as {canonical}", "请写成 {canonical}")),
    "bar_events_unknown": (_w("unknown listing event(s): {events}", "未知的上市事件：{events}"),
                           _w("use {known}", "请使用 {known}")),
    "bar_columns": (_w("bars lack the column(s) {missing}", "K 线缺少列：{missing}"),
                    _w("give {required} (and {name})", "请给出 {required}（以及 {name}）")),
    "bar_repeated": (_w("{count} bars share a symbol and date, e.g. {symbol} on {day}",
                        "有 {count} 根 K 线的代码和日期相同，例如 {symbol} 在 {day}"),
                     _w("keep one bar a day", "每天只保留一根 K 线")),
    # ---- accounts and ledger entries (ledger/book.py)
    "account_name_unusable": (_w("'{name}' is not a usable account name", "“{name}”不能用作账户名称"),
                              _w("use 1-{limit} printable characters", "请使用 1 到 {limit} 个可打印字符")),
    "account_currency": (_w("'{currency}' is not a supported base currency", "“{currency}”不是支持的记账币种"),
                         _w("use {currencies}", "请使用 {currencies_zh}")),
    "account_exists": (_w("an account named '{name}' already exists", "名为“{name}”的账户已存在"),
                       _w("choose another name", "请换一个名称")),
    "account_unknown": (_w("there is no account named '{name}'", "没有名为“{name}”的账户"),
                        _w("list them with: {command}", "查看账户：{command}")),
    "amount_not_positive": (_w("amount {amount} must be positive", "金额 {amount} 必须是正数"),
                            _w("give the amount without a sign", "请给出不带正负号的金额")),
    "amount_not_positive.cash": (_w("amount {amount} must be positive", "金额 {amount} 必须是正数"),
                                 _w("the kind ({kinds} ...) gives the sign", "正负号由类型（{kinds} 等）决定")),
    "amount_cents": (_w("amount {amount} has more than two decimals", "金额 {amount} 超过两位小数"),
                     _w("cash amounts are in cents", "现金金额最小单位是分")),
    "transfer_same_account": (_w("a transfer needs two different accounts", "转账需要两个不同的账户"),
                              _w("name another account than {account} to receive it",
                                 "请指定 {account} 以外的收款账户")),
    "transfer_fx_rate": (_w("an FX rate is needed exactly when the currencies differ", "只有币种不同时才需要汇率"),
                         _w("give {option} for {source} -> {target}", "{source} -> {target} 请给出 {option}")),
    "fx_rate_not_positive": (_w("FX rate {rate} must be positive", "汇率 {rate} 必须是正数"),
                             _w("give the rate as a positive number", "请给出正数汇率")),
    "entry_time_naive": (_w("the time {time} has no time zone", "时间 {time} 没有时区"),
                         _w("give the time with its offset, e.g. +08:00", "请给出带时差的时间，例如 +08:00")),
    "entry_in_future": (_w("{time} is in the future", "{time_zh}在未来"),
                        _w("entries record what already happened", "账本只记录已经发生的事")),
    "fills_one_account": (_w("fills recorded together must belong to one account",
                             "一起记录的成交必须属于同一个账户"),
                          _w("record the fills of {accounts} one account at a time",
                             "请按账户分别记录 {accounts} 的成交")),
    "void_needs_reason": (_w("a void needs a reason", "作废需要说明原因"),
                          _w("e.g. {example}", "例如 {example_zh}")),
    "void_already": (_w("{entry} is already voided", "{entry} 已经作废"),
                     _w("see the voided entries in the ledger history", "已作废的记录可在账本历史中查看")),
    "void_refused": (_w("{entry} cannot be voided: {problem}", "{entry} 无法作废：{problem_zh}"),
                     _w("void the later entry first", "请先作废后面的记录")),
    "void_breaks": (_w("without {target}, {entry} fails: {problem}", "去掉 {target} 后，{entry} 不成立：{problem_zh}"),
                    _w("void the later entry first", "请先作废后面的记录")),
    "entry_unknown": (_w("there is no ledger entry '{entry}'", "没有账本记录“{entry}”"),
                      _w("see the ids with: {command}", "查看编号：{command}")),
    "ledger_inconsistent": (_w("the ledger of '{account}' is inconsistent: {problem}",
                               "账户“{account}”的账本不一致：{problem_zh}"),
                            _w("{fix}", "{fix_zh}")),
    "dividend_not_positive": (_w("dividend per share {per_share} must be positive", "每股分红 {per_share} 必须是正数"),
                              _w("give the cash paid per share", "请给出每股派发的现金")),
    "ratio_not_positive": (_w("ratio {ratio} must be positive", "比例 {ratio} 必须是正数"),
                           _w("e.g. 0.3 for 10送3, 1 for a 1:2 split", "例如 10送3 写 0.3，1 拆 2 写 1")),
    "order_unknown": (_w("there is no order '{order}'", "没有委托“{order}”"),
                      _w("see them with: {command}", "查看委托：{command}")),
    "order_already_closed": (_w("order {order} is already {status}", "委托 {order} 已经是“{status_zh}”状态"),
                             _w("only an open or partially filled order can be cancelled",
                                "只有未成交或部分成交的委托才能撤销")),
    # ---- model keys, providers and presets (llm/client.py, llm/capabilities.py, llm/presets.py)
    "model_no_key": (_w("no API key is stored for model '{name}'", "没有为模型“{name}”保存 API 密钥"),
                     _w("store one with: {command} (or set {env})",
                        "请这样保存密钥：{command}（或设置环境变量 {env}）")),
    "provider_unknown": (_w("unknown provider '{name}'", "未知的服务商“{name}”"),
                         _w("choose one of: {choices}", "请从以下选择：{choices}")),
    "preset_unknown": (_w("unknown model preset '{name}'", "未知的模型预设“{name}”"),
                       _w("choose one of: {choices}", "请从以下选择：{choices}")),
    # ---- evidence, the handbook's references, bars and the calibration on the command line (evidence/store.py,
    # cli/handbook.py, cli/analytics_indicators.py, cli/analytics_backtest.py, cli/rules_fees.py)
    "evidence_unknown_id": (_w("there is no evidence '{evidence}'", "没有证据“{evidence}”"),
                            _w("use an id a report or a run cites", "请使用报告或研究引用的证据编号")),
    "handbook_no_reference.version": (_w("there is no reference '{reference}' in handbook {version}",
                                         "手册 {version} 中没有参考资料“{reference}”"),
                                      _w("list them with: {command}", "查看参考资料：{command}")),
    "bars_none_by": (_w("no daily bars of {symbol} are stored on or before {day}",
                        "{day} 及之前没有存储 {symbol} 的日线"),
                     _w("import them (`{import_command}`) or fetch them (`{fetch_command}`)",
                        "请导入（`{import_command}`）或获取（`{fetch_command}`）")),
    "bars_none_stored": (_w("no daily bars of {symbol} are stored (as of the clock)",
                            "没有存储 {symbol} 的日线（截至当前时钟）"),
                         _w("fetch them ({fetch_command}) or import a file ({import_command})",
                            "请获取（{fetch_command}）或导入文件（{import_command}）")),
    "calibrate_data_missing": (_w("{path} does not exist", "{path} 不存在"),
                               _w("give the community A-share parquet with {option}",
                                  "请用 {option} 给出社区整理的 A 股数据文件")),
    "calibrate_until_per_year": (_w("{until} and {per_year} build different tables",
                                    "{until} 和 {per_year} 构建的是不同的表"),
                                 _w("give one of them", "请只给出其中一个")),
    "qty_not_whole_positive": (_w("quantity '{text}' is not a positive whole number of shares",
                                  "数量“{text}”不是正整数股"),
                               _w("e.g. 100", "例如 100")),
    # ---- the golden research cases (evals/cases.py, evals/workspaces.py)
    "eval_unknown_case": (_w("no eval case or category is named {names}", "没有名为 {names} 的评测用例或类别"),
                          _w("categories: {categories}; list the cases with: {command}",
                             "类别：{categories}；查看用例：{command}")),
    "eval_template_empty": (_w("{template} holds no workspace", "{template} 中没有工作区"),
                            _w("build the demo market there with: {command}", "请在那里构建示例市场：{command}")),
    "eval_few_sessions": (_w("{symbol} has fewer than {count} sessions in the demo market",
                             "示例市场中 {symbol} 的交易日少于 {count} 个"),
                          _w("build a fresh demo market", "请重新构建示例市场")),
}  # fmt: skip

REFUSALS |= {  # refusals once worded in English only (issue 19)
    "import_not_written": _w("{count} problem(s) in {file}; nothing was written",
                             "{file} 中有 {count} 个问题；未写入任何内容"),
    "plan_refused": _w("the plan was refused: {problem}", "计划被拒绝：{problem}"),
}  # fmt: skip

# ==== issue 18: one language per report, inputs refused up front, the analytics commands' words ====
ERRORS |= {  # a symbol not yet listed at the as-of date (research/listing.py)
    "not_listed": (_w("{label} was not listed as of {as_of}: it listed on {listed}",
                      "{label} 截至 {as_of} 尚未上市：它于 {listed} 上市"),
                   _w("research it as of {listed} or later", "请研究 {listed} 及之后的日期")),
    "not_listed_in_period": (_w("{label} listed on {listed}, after the whole period {start}..{end}: no session of it "
                                "can be researched", "{label} 于 {listed} 上市，晚于整个区间 {start}..{end}：区间内没有"
                                "可研究的交易日"),
                             _w("choose a period that ends on {listed} or later",
                                "请选择在 {listed} 或之后结束的区间")),
}  # fmt: skip

VALUES |= {  # the position states in words (analytics/position_states.py; the report's words, research/wording)
    "position_state.no_position": _w("no position", "未持仓"), "position_state.watching": _w("watching", "观察中"),
    "position_state.building": _w("building", "建仓中"), "position_state.holding": _w("holding", "持有中"),
    "position_state.reducing": _w("reducing", "减仓中"), "position_state.exited": _w("exited", "已清仓"),
}  # fmt: skip

VALUES |= {  # the backtest's evidence grades (analytics/edge.py), the rule table it cites, the exchanges and boards
    "backtest_evidence.never_fired": _w("never_fired", "从未触发"),
    "backtest_evidence.no_trades": _w("no_trades", "尚无交易"),
    "backtest_evidence.no_edge": _w("no_edge", "未跑赢基准"),
    "backtest_evidence.thin_edge": _w("thin_edge", "优势不足"),
    "backtest_evidence.small_sample": _w("small_sample", "样本不足"), "backtest_evidence.edge": _w("edge", "有优势"),
    "rule_table.sample_confidence": _w("sample_confidence", "样本置信上限表"),
    "rule_table.trend": _w("trend", "趋势规则表"), "rule_table.capital": _w("capital", "资金规则表"),
    "rule_table.relative_strength": _w("relative_strength", "相对强弱规则表"),
    "rule_table.volatility": _w("volatility", "波动规则表"),
    "rule_table.factor_score": _w("factor_score", "因子得分表"), "rule_table.backtest": _w("backtest", "回测规则表"),
    "rule_table.decision_baseline": _w("decision_baseline", "决策基线表"),
    "rule_table.scenarios": _w("scenarios", "情景规则表"), "rule_table.sizing": _w("sizing", "仓位规则表"),
    "rule_table.zones": _w("zones", "区间规则表"), "rule_table.peers": _w("peers", "同业规则表"),
    "exchange.SH": _w("SH", "上海证券交易所"), "exchange.SZ": _w("SZ", "深圳证券交易所"),
    "exchange.BJ": _w("BJ", "北京证券交易所"), "exchange.HK": _w("HK", "香港交易所"),
    "exchange.US": _w("US", "美国市场"),
    "board.hk_main": _w("hk_main", "主板"), "board.hk_gem": _w("hk_gem", "创业板"), "board.us": _w("us", "美股"),
    "currency.CNY": _w("CNY", "人民币"), "currency.HKD": _w("HKD", "港元"), "currency.USD": _w("USD", "美元"),
    "column.horizon": _w("horizon", "周期"), "column.fires": _w("fires", "信号"), "column.trades": _w("trades", "交易"),
    "column.independent": _w("independent", "互不重叠"), "column.win_rate": _w("win_rate", "胜率"),
    "column.ev": _w("ev", "期望值"), "column.base": _w("base", "基准 胜率 / 期望值"),
    "column.evidence": _w("evidence", "证据"), "column.in_sample": _w("in_sample", "样本内"),
    "column.out_of_sample": _w("out_of_sample", "样本外"), "column.value": _w("value", "数值"),
    "column.indicator": _w("indicator", "指标"),
    # indicators (analytics/indicators.py INDICATOR_COLUMNS): a person's words for the engine's names
    "indicator.macd_dif": _w("macd_dif", "平滑异同均线差离值"),
    "indicator.macd_dea": _w("macd_dea", "平滑异同均线信号线"),
    "indicator.macd_bar": _w("macd_bar", "平滑异同均线柱"), "indicator.kdj_rsv": _w("kdj_rsv", "随机指标未成熟随机值"),
    "indicator.kdj_k": _w("kdj_k", "随机指标 K 值"), "indicator.kdj_d": _w("kdj_d", "随机指标 D 值"),
    "indicator.kdj_j": _w("kdj_j", "随机指标 J 值"), "indicator.boll_mid": _w("boll_mid", "布林线中轨"),
    "indicator.boll_up": _w("boll_up", "布林线上轨"), "indicator.boll_low": _w("boll_low", "布林线下轨"),
    "indicator.obv": _w("obv", "能量潮"), "indicator.vol_ratio": _w("vol_ratio", "量比"),
    "indicator.turnover_pct": _w("turnover_pct", "换手率（%）"), "indicator.high_52w": _w("high_52w", "52周最高价"),
    "indicator.low_52w": _w("low_52w", "52周最低价"), "indicator.drawdown": _w("drawdown", "距52周最高价回撤"),
}  # fmt: skip

NOTES |= {
    # a score's points after its reason (the scan's, analytics/scan.py)
    "note.points": _w("{text} ({points})", "{text}（{points}）"),
    # the backtest's evidence against the base rate (analytics/edge.py) and its counts and costs (analytics/backtest.py)
    "backtest.note.never_fired": _w("the signal never fired in this period: no evidence either way",
                                    "信号在此期间从未触发：没有任何一方的证据"),
    "backtest.note.no_trades": _w("no completed trade yet: no evidence either way",
                                  "尚无完成的交易：没有任何一方的证据"),
    "backtest.note.versus": _w("signal EV {ev}, win rate {win} vs base rate {base_ev}, {base_win} (any "
                               "{horizon}-session window)", "信号期望值 {ev}、胜率 {win}，基准期望值 {base_ev}、胜率 "
                               "{base_win}（任意 {horizon} 个交易日的窗口）"),
    "backtest.note.no_edge": _w("no edge over the base rate: confidence capped at {cap} ({table} v{version})",
                                "没有跑赢基准：置信度上限 {cap}（{table_zh} v{version}）"),
    "backtest.note.thin_edge": _w("edge below the minimum (EV +{ev_min}, win rate +{win_min}): confidence capped at "
                                  "{cap} ({table} v{version})", "超出基准的幅度低于门槛（期望值 +{ev_min}、胜率 "
                                  "+{win_min}）：置信度上限 {cap}（{table_zh} v{version}）"),
    "backtest.note.small_sample": _w("an edge, on {independent} independent trades (below {full}): confidence capped "
                                     "at {cap} ({table} v{version})", "跑赢基准，但互不重叠的交易只有 {independent} "
                                     "笔（不足 {full} 笔）：置信度上限 {cap}（{table_zh} v{version}）"),
    "backtest.note.edge": _w("an edge over the base rate on {independent} independent trades: confidence not capped "
                             "({table} v{version})", "在 {independent} 笔互不重叠的交易上跑赢基准：置信度不设上限"
                             "（{table_zh} v{version}）"),
    "backtest.counts": _w("{trades} completed trades ({independent} independent) from {fires} signals",
                          "{fires} 次信号完成 {trades} 笔交易（互不重叠 {independent} 笔）"),
    "backtest.counts.pending": _w("{pending} still open at the data's end", "{pending} 笔到数据末尾仍未平仓"),
    "backtest.counts.unfilled": _w("{unfilled} unfillable (locked limit-up entry)",
                                   "{unfilled} 笔无法成交（入场日封涨停）"),
    "backtest.counts.overlapping": _w("{overlapping} overlap the previous trade (not independent)",
                                      "{overlapping} 笔与前一笔交易重叠（不独立）"),
    "backtest.costs": _w("round-trip fees of a {notional} order from resources/market_rules.toml, default commission",
                         "按 {notional} 元委托计算往返费用（市场规则表的费率，默认佣金）"),
    "backtest.costs.early": _w("{early} trades entered before {start}, where the fee rows are incomplete: costs "
                               "understated", "{early} 笔交易在 {start} 之前入场，那时的费率记录不全：成本被低估"),
    "backtest.costs.none": _w("no costs", "未计成本"),
    # `stockbench backtest` (cli/analytics_backtest.py)
    "cli.backtest.head": _w("{symbol}: {sessions} scored sessions {first}..{last}, {fires} signals",
                            "{symbol}：{first}..{last} 共 {sessions} 个有评分的交易日，信号 {fires} 次"),
    "cli.backtest.split": _w("walk-forward split at {day} (in/out of sample: trades / win rate / EV)",
                             "样本内外以 {day} 为界（样本内 / 样本外：交易笔数 / 胜率 / 期望值）"),
    "cli.backtest.base": _w("base: win rate / EV of the same trade from every scored session (any window of the "
                            "horizon)", "基准：在每个有评分的交易日做同样交易的胜率 / 期望值（该周期的任意窗口）"),
    "cli.backtest.horizon": _w("{horizon}: {note}", "{horizon} 个交易日：{note}"),
    "cli.backtest.costs": _w("costs: {costs}", "成本：{costs}"),
    "cli.backtest.separator": _w("; ", "；"),
    # `stockbench indicators` (cli/analytics_indicators.py): the head, and the indicators named by their sessions
    "cli.indicators.head": _w("{symbol} on {day} ({sessions} sessions, prices forward-adjusted)",
                              "{symbol} 截至 {day}（{sessions} 个交易日，价格已前复权）"),
    "indicator.ma_n": _w("ma{sessions}", "{sessions}日均线"),
    "indicator.ema_n": _w("ema{sessions}", "{sessions}日指数均线"),
    "indicator.rsi_n": _w("rsi{sessions}", "{sessions}日相对强弱指标"),
    "indicator.atr_n": _w("atr{sessions}", "{sessions}日平均真实波幅"),
    "indicator.rs": _w("rs_{benchmark}", "相对 {benchmark_zh} 的强度"),
    "indicator.rs_change": _w("rs_{benchmark}_chg{sessions}", "相对 {benchmark_zh} 的强度的{sessions}日变化"),
    # `stockbench rules show` (cli/rules.py)
    "cli.rules.show.kind": _w("{exchange} {board} {kind}, {currency}",
                              "{exchange_zh} {board_zh} {kind_zh}，{currency_zh}"),
    "cli.rules.show.trading": _w("tick {tick}; lot {lot}; daily limit {limit}{st}; {settlement}",
                                 "最小价位 {tick}；每手 {lot}；涨跌幅限制 {limit}{st}；{settlement}"),
    "cli.rules.show.tables": _w("rules on {day} (tables {version})", "{day} 适用的规则（规则表版本 {version}）"),
    "cli.rules.show.spread_table": _w("spread table '{name}'", "价位表“{name}”"),
    "cli.rules.show.lot": _w("{lot}", "{lot} 股"),
    "cli.rules.show.lot_steps": _w("{lot} then steps of {step}", "{lot} 股起，以 {step} 股递增"),
    "cli.rules.show.no_limit": _w("none", "无"),
    "cli.rules.show.st": _w(" (ST)", "（ST）"),
    "cli.rules.show.none": _w("-", "-"),
    # a six-digit code read as a stock although an index shares it (market/instruments.py)
    "symbol.stock_or_index": _w("'{raw}' is both the Shenzhen stock {code}.SZ and the Shanghai index {code}.SH; taken "
                                "as the stock (write {code}.SH for the index)", "“{raw}”既是深市股票 {code}.SZ，也是"
                                "沪市指数 {code}.SH；按股票处理（要指数请写 {code}.SH）"),
    # the zones' and the scan's lists (cli/analytics_zones.py)
    "cli.list_separator": _w(", ", "、"),
    "cli.reason_separator": _w("; ", "；"),
}  # fmt: skip
# ==== end of issue 18 ====


# ---- issue 19, the last gaps (wt-19): keys without an OS keyring or with a locked key file, the search test's causes,
# ---- the CLI's money and the window's own refusals. One block, to keep merges simple.
NOTES |= {
    # what to do before a model can be used (llm/service.py ModelView.next_step_note)
    "models.step.missing": _w("store its key with: {command} (or set {env})",
                              "请保存它的密钥：{command}（或设置环境变量 {env}）"),
    "models.step.unavailable": _w("no key can be stored or read: {reason}. To use it: set {env}; {hint}",
                                  "无法保存或读取密钥：{reason_zh}。要使用它：请设置环境变量 {env}；{hint_zh}"),
    "models.step.file_locked": _w("its key cannot be read while the key file is locked: {reason}. To use it: {hint}; "
                                  "or set {env}",
                                  "密钥文件锁定期间无法读取它的密钥：{reason_zh}。要使用它：{hint_zh}；"
                                  "或设置环境变量 {env}"),
    "cli.search.key.file_locked": _w("cannot be read: the encrypted key file is locked",
                                     "无法读取：加密密钥文件已锁定"),
}  # fmt: skip
VALUES |= {
    "key_source.file_locked": _w("key file locked", "密钥文件已锁定"),
    # why a search provider could not be reached (research/search.py)
    "search_cause.refused": _w("the connection was refused", "连接被拒绝"),
    "search_cause.name": _w("the host name is not known", "无法解析主机名"),
    "search_cause.tls": _w("the secure connection failed", "安全连接失败"),
    "search_cause.other": _w("the connection failed", "连接失败"),
}
# The fields of the program's own records (computation evidence: analytics.zones, price_facts, indicators,
# valuation, states, scenarios, baseline, sizing, instrument, clock) as the window's evidence pane says them
# (ui/screens/reports/evidence_record.py); a field not here is shown by its name, a moving average or a 60-session
# low by `anchor_words`.
_EVIDENCE_FIELDS: dict[str, Words] = {
    "as_of": _w("as of", "截至"), "day": _w("day", "日期"), "symbol": _w("symbol", "代码"), "name": _w("name", "名称"),
    "buy": _w("buy zone", "买入区间"), "sell": _w("sell zone", "卖出区间"), "stop": _w("stop", "止损位"),
    "low": _w("low", "下沿"), "high": _w("high", "上沿"), "price": _w("price", "价格"), "last": _w("last", "最新价"),
    "anchors": _w("anchors", "锚点"), "id": _w("anchor", "锚点编号"), "role": _w("role", "作用"),
    "what": _w("built on", "依据"), "position": _w("position", "价格位置"), "flags": _w("notes", "提示"),
    "reasons": _w("reasons", "原因"), "reward_risk": _w("reward to risk", "盈亏比"),
    "min_reward_risk": _w("minimum reward to risk", "最低盈亏比"), "tradeable": _w("tradeable", "可交易"),
    "table": _w("rule table", "规则表"), "distance_pct": _w("distance (%)", "距离（%）"),
    "buy_high_pct": _w("to the buy zone's high (%)", "距买入区间上沿（%）"),
    "sell_low_pct": _w("to the sell zone's low (%)", "距卖出区间下沿（%）"),
    "stop_pct": _w("to the stop (%)", "距止损位（%）"), "atr14": _w("ATR14", "平均真实波幅（14日）"),
    "close": _w("close", "收盘价"), "prev_close": _w("previous close", "前收盘价"), "change": _w("change", "涨跌额"),
    "change_pct": _w("change (%)", "涨跌幅（%）"), "change_20_pct": _w("20-session change (%)", "20日涨跌幅（%）"),
    "volume": _w("volume", "成交量"), "amount": _w("turnover", "成交额"),
    "turnover_pct": _w("turnover rate (%)", "换手率（%）"),
    "high_52w": _w("52-week high", "52周最高价"), "low_52w": _w("52-week low", "52周最低价"),
    "high_52w_day": _w("52-week high's day", "52周最高价日期"),
    "low_52w_day": _w("52-week low's day", "52周最低价日期"),
    "drawdown_pct": _w("drawdown (%)", "回撤（%）"), "drawdown": _w("drawdown", "回撤"),
    "range_position_pct": _w("position in the 52-week range (%)", "52周区间位置（%）"),
    "ma20_distance_pct": _w("distance to the 20-day MA (%)", "距20日均线（%）"),
    "ma250_distance_pct": _w("distance to the 250-day MA (%)", "距250日均线（%）"),
    "float_mcap": _w("float market cap", "流通市值"), "total_mcap": _w("total market cap", "总市值"),
    "special_treatment": _w("risk warning (ST)", "风险警示（ST）"),
    "correlation": _w("correlation of daily returns", "日收益相关系数"),
    "values": _w("values", "数值"), "value": _w("value", "数值"), "percentile": _w("percentile", "分位数"),
    "days": _w("days", "天数"), "status": _w("status", "状态"), "reason": _w("reason", "原因"),
    "pe_ttm": _w("P/E TTM", "市盈率TTM"), "pb_mrq": _w("P/B", "市净率"), "ps_ttm": _w("P/S TTM", "市销率TTM"),
    "state": _w("state", "状态"), "rule": _w("rule", "规则"), "inputs": _w("inputs", "输入"),
    "version": _w("version", "版本"), "trend": _w("trend", "趋势"), "volatility": _w("volatility", "波动"),
    "capital": _w("capital flow", "资金"), "relative_strength": _w("relative strength", "相对强弱"),
    "items": _w("scenarios", "情景"), "probability": _w("probability", "概率"),
    "move_pct": _w("move (%)", "涨跌幅（%）"),
    "lands": _w("lands", "落点"), "description": _w("description", "说明"), "count": _w("count", "样本数"),
    "horizon": _w("horizon (sessions)", "期限（交易日）"), "direction": _w("direction", "方向"),
    "confidence": _w("confidence", "置信度"), "confidence_cap": _w("confidence cap", "置信度上限"),
    "ev": _w("expected value", "期望收益"), "currency": _w("currency", "币种"), "lot": _w("board lot", "每手股数"),
    "tick": _w("tick", "最小价格变动单位"), "board": _w("board", "板块"), "market": _w("market", "市场"),
    "exchange": _w("exchange", "交易所"), "settlement": _w("settlement", "交收"),
    "limit_pct": _w("price limit", "涨跌幅限制"), "security_type": _w("security type", "证券类型"),
    "phase": _w("phase", "交易时段"), "orders": _w("orders", "委托"), "problems": _w("problems", "问题"),
    "qty": _w("quantity", "数量"), "sellable": _w("sellable", "可卖"),
    # the other records' fields (clock, ledger, quote, gates, context, reviews, track record, returns, peers,
    # indicators, states, valuation, backtest, baseline, scenarios, position state, sizing)
    "account": _w("account", "账户"), "action": _w("action", "操作"),
    "action_zh": _w("action (Chinese)", "操作（中文）"),
    "actions": _w("actions allowed now", "现在可选的操作"), "age_seconds": _w("age (seconds)", "时长（秒）"),
    "allowed": _w("states allowed", "允许的状态"), "announcements": _w("announcements", "公告"), "at": _w("at", "时间"),
    "atr_pct": _w("ATR over the close (%)", "平均真实波幅占收盘价（%）"),
    "atr_pct_rank": _w("rank of that share over a year", "该占比在过去一年中的分位"),
    "available": _w("available", "可用"), "backtest": _w("backtest", "回测"),
    "base_ev_pct": _w("base rate's expected value (%)", "基础概率的期望收益（%）"),
    "base_independent": _w("base rate's independent windows", "基础概率的独立窗口数"),
    "base_rate_brier": _w("base rate's Brier score", "基础概率的布里尔分数"),
    "base_win_rate": _w("base rate's win rate", "基础概率的胜率"),
    "base_windows": _w("base rate's windows", "基础概率的窗口数"), "benchmark": _w("benchmark", "基准指数"),
    "benchmark_return_pct": _w("benchmark's return (%)", "基准收益（%）"),
    "boll_low": _w("Bollinger lower band", "布林线下轨"), "boll_mid": _w("Bollinger middle band", "布林线中轨"),
    "boll_up": _w("Bollinger upper band", "布林线上轨"), "brier": _w("Brier score", "布里尔分数"),
    "built": _w("built by the program", "程序构建"), "buy_candidate": _w("buy candidate", "买入候选"),
    "by_action": _w("by action", "按操作"), "calibration": _w("calibration", "校准"), "cap": _w("cap", "上限"),
    "capped": _w("capped by unknown inputs", "因输入未知而受限"), "category": _w("category", "类别"),
    "cell": _w("cell", "单元"), "check": _w("check", "检查"), "code": _w("code", "代码"),
    "corroboration": _w("cross-check", "交叉核对"), "cost_per_report": _w("cost per report", "每份报告的费用"),
    "counts": _w("counts", "计数"), "current": _w("now", "当前"), "data_from": _w("data from", "数据起始"),
    "data_to": _w("data to", "数据截止"), "delay_minutes": _w("delay (minutes)", "延迟（分钟）"),
    "distance": _w("distance", "距离"), "end": _w("end", "截止"),
    "ev_edge_pp": _w("expected value's edge (percentage points)", "期望收益优势（百分点）"),
    "ev_pct": _w("expected value (%)", "期望收益（%）"), "evidence": _w("evidence", "证据"),
    "exception_allowed": _w("exception allowed", "允许例外"), "factor_score": _w("factor score", "因子得分"),
    "file": _w("file", "文件"), "fired": _w("fired", "已触发"), "fires": _w("signals", "信号次数"),
    "first": _w("first", "起始"), "fix": _w("what to do", "处理办法"),
    "flow_long": _w("main net over the long window (share of turnover)", "长窗口主力净额占成交额"),
    "flow_short": _w("main net over the short window (share of turnover)", "短窗口主力净额占成交额"),
    "gates": _w("data gates", "数据关卡"), "growth_period": _w("growth's period", "增长对应的报告期"),
    "hit_rate": _w("hit rate", "命中率"), "horizons": _w("horizons", "期限"),
    "independent": _w("independent trades", "独立交易数"), "kdj_d": _w("KDJ D", "随机指标 D 值"),
    "kdj_j": _w("KDJ J", "随机指标 J 值"), "kdj_k": _w("KDJ K", "随机指标 K 值"),
    "kdj_rsv": _w("KDJ RSV", "随机指标未成熟随机值"),
    "key": _w("catalogue entry", "条目"), "label": _w("label", "标签"), "level": _w("level", "级别"),
    "limit": _w("limit", "限制"), "long_ma_gap": _w("gap to the long average", "距长期均线"),
    "look_ahead": _w("look-ahead", "前视"), "ma20_slope": _w("20-day MA's slope", "20日均线斜率"),
    "ma60_gap_atr": _w("gap to the 60-day MA (ATR)", "距60日均线（平均真实波幅倍数）"),
    "ma_sessions": _w("average's sessions", "均线交易日数"), "macd_bar": _w("MACD histogram", "平滑异同均线柱"),
    "macd_dea": _w("MACD DEA", "平滑异同均线信号线"), "macd_dif": _w("MACD DIF", "平滑异同均线差离值"),
    "matured": _w("matured", "已到期"), "members": _w("members", "成分股"), "message": _w("message", "说明"),
    "minimum": _w("minimum", "最低"), "n": _w("sample", "样本数"),
    "net_profit_parent_yoy": _w("net profit to the parent, year on year", "归母净利润同比"),
    "note": _w("note", "备注"), "now_local": _w("local time now", "当前当地时间"), "obv": _w("OBV", "能量潮"),
    "official": _w("official", "官方"), "op": _w("operator", "运算"), "open_orders": _w("open orders", "未成交委托"),
    "params": _w("parameters", "参数"), "pb_mrq_pct": _w("P/B percentile (%)", "市净率分位（%）"),
    "pe_ttm_pct": _w("P/E TTM percentile (%)", "市盈率TTM分位（%）"),
    "ps_ttm_pct": _w("P/S TTM percentile (%)", "市销率TTM分位（%）"), "peer_basis": _w("peers' basis", "同业依据"),
    "peer_candidates": _w("peer candidates", "同业候选数"), "peer_group": _w("peer group", "同业组"),
    "peer_size_basis": _w("peers chosen by", "同业选取依据"), "peer_table": _w("peers' table", "同业表"),
    "peers": _w("peers", "同业"), "pending": _w("pending", "未到期"), "plan_reason": _w("plan's reason", "计划原因"),
    "published": _w("published", "发布日期"), "range_weeks": _w("range (weeks)", "区间（周）"),
    "reason_text": _w("reason in words", "原因说明"), "recent": _w("recent", "最近"),
    "refused": _w("actions refused now", "现在不可选的操作"), "replay": _w("replay", "回放"),
    "replayed": _w("replayed", "回放报告数"), "reports": _w("reports", "报告数"),
    "ret20": _w("20-session return", "20日收益"), "ret60": _w("60-session return", "60日收益"),
    "ret250": _w("250-session return", "250日收益"), "return_pct": _w("return (%)", "收益（%）"),
    "return_20_pct": _w("20-session return (%)", "20日收益（%）"),
    "return_60_pct": _w("60-session return (%)", "60日收益（%）"),
    "return_250_pct": _w("250-session return (%)", "250日收益（%）"), "returns": _w("returns", "收益"),
    "revenue_yoy": _w("revenue, year on year", "营业收入同比"),
    "reviewed_reports": _w("reviewed reports", "已评审报告"),
    "revision_of": _w("revision of", "修订自"), "rows": _w("rows", "行数"), "rs": _w("relative strength", "相对强弱"),
    "rs_basis": _w("relative strength's benchmark", "相对强弱基准"),
    "rs_long": _w("relative strength, long window", "长窗口相对强弱"),
    "rs_short": _w("relative strength, short window", "短窗口相对强弱"), "rules": _w("rules", "规则"),
    "sample_confidence": _w("sample confidence", "样本置信度"), "sample_note": _w("sample", "样本说明"),
    "score": _w("score", "得分"), "scores": _w("scores", "评分"), "sector": _w("sector index", "板块指数"),
    "sector_basis": _w("sector's basis", "板块依据"), "sector_name": _w("sector's name", "板块名称"),
    "sessions": _w("sessions", "交易日数"), "sessions_52w": _w("sessions in 52 weeks", "52周交易日数"),
    "short_sessions": _w("short window (sessions)", "短窗口（交易日）"), "signal": _w("signal", "信号"),
    "size": _w("size", "规模"), "skill": _w("skill over the base rate", "相对基础概率的技能"),
    "source": _w("source", "来源"), "split_day": _w("split day", "分割日"), "start": _w("start", "起始"),
    "subject_size": _w("the stock's size", "本股规模"), "suggested": _w("suggested state", "建议状态"),
    "tables": _w("rule tables", "规则表"), "thesis_level": _w("bears on the thesis", "影响投资逻辑"),
    "title": _w("title", "标题"), "tolerance": _w("tolerance", "容差"), "top_reasons": _w("top reasons", "主要原因"),
    "trades": _w("trades", "交易数"), "trading_day": _w("trading day", "交易日"), "unit": _w("unit", "单位"),
    "unknown": _w("unknown", "未知"), "unscored": _w("unscored", "未评分"), "verdicts": _w("verdicts", "评审结论"),
    "vol_ratio": _w("volume ratio", "量比"), "weighting": _w("weighting", "加权方式"), "why": _w("why", "理由"),
    "win_rate": _w("win rate", "胜率"),
    "win_rate_edge_pp": _w("win rate's edge (percentage points)", "胜率优势（百分点）"),
    "windows": _w("windows", "窗口数"), "accept": _w("accepted", "接受"), "reject": _w("rejected", "拒绝"),
    "revise": _w("to revise", "修订"),
    "sessions_n": _w("{n} sessions", "{n}日"), "ema_n": _w("EMA{n}", "{n}日指数均线"),
    "rsi_n": _w("RSI{n}", "{n}日相对强弱指标"),
    "threshold": _w("threshold", "阈值"), "bounds": _w("zone levels", "区间价位"),
    "buy_low": _w("buy zone's low", "买入区间下沿"),
    "buy_high": _w("buy zone's top", "买入区间上沿"), "sell_low": _w("sell zone's bottom", "卖出区间下沿"),
    "sell_high": _w("sell zone's top", "卖出区间上沿"),
    # the continuity record (stockbench/research/continuity.py, facts.py)
    "crossed": _w("left the plan's range", "已越出计划区间"), "published_at": _w("published at", "发布时间"),
    "report_id": _w("report", "报告编号"), "since": _w("since then", "此后走势"),
    "call": _w("the call then", "当时的操作"),
    "close_now": _w("close now", "现收盘价"), "close_then": _w("close then", "当时收盘价"),
    "close_now_scaled": _w("close now on the report's scale", "按上次报告尺度的现收盘价"),
    "first_day": _w("first reached on", "首次触及日期"), "from_day": _w("from", "起始日"), "to_day": _w("to", "截止日"),
    "grade": _w("grade", "评定"), "high_day": _w("high's day", "最高价日期"),
    "high_pct": _w("high (%)", "最高涨幅（%）"),
    "low_day": _w("low's day", "最低价日期"), "low_pct": _w("low (%)", "最大跌幅（%）"), "notes": _w("notes", "提示"),
    "scale": _w("price scale", "价格尺度"), "touched": _w("levels reached", "触及的价位"),
    "zones": _w("zones", "区间"),
}  # fmt: skip
# Values of those records that are codes: said in words (a code not here is shown as it is).
_EVIDENCE_VALUES: dict[str, Words] = {
    "basis": _w("basis", "基准"), "confluence": _w("confluence", "共振"), "width": _w("width", "宽度"),
    "true": _w("yes", "是"), "false": _w("no", "否"), "null": _w("none", "无"),
    "between": _w("between the buy and sell zones", "位于买卖区间之间"),
    "in_buy": _w("in the buy zone", "位于买入区间"),
    "in_sell": _w("in the sell zone", "位于卖出区间"), "below_buy": _w("below the buy zone", "低于买入区间"),
    "above_sell": _w("above the sell zone", "高于卖出区间"), "stop_hit": _w("at or under the stop", "触及或跌破止损位"),
    "below_stop": _w("under the stop", "低于止损位"), "atr14": _w("ATR14 band", "平均真实波幅（14日）带宽"),
    "neutral": _w("neutral", "中性"), "inline": _w("in line", "同步"), "range": _w("range", "震荡"),
    "high": _w("high", "偏高"), "normal": _w("normal", "正常"), "low": _w("low", "偏低"), "ok": _w("ok", "正常"),
    "closed": _w("closed", "休市"), "up": _w("up", "上涨"),
    "down": _w("down", "下跌"), "sideways": _w("sideways", "横盘"),
    "wait": _w("wait", "观望"), "buy": _w("buy", "买入"), "sell": _w("sell", "卖出"), "hold": _w("hold", "持有"),
    "add": _w("add", "加仓"), "reduce": _w("reduce", "减仓"), "avoid": _w("avoid", "回避"),
    "stock": _w("stock", "股票"), "main": _w("main board", "主板"),
    # the baseline's reason codes, a data gate's reason codes, the context's bases, a quote's trading status
    "check_failed": _w("check failed", "检查未通过"), "input_unknown": _w("input unknown", "输入未知"),
    "confidence_cap": _w("confidence capped", "置信度受限"), "no_trade": _w("no trade", "不交易"),
    "buy_conditions_met": _w("buy conditions met", "买入条件满足"), "unknown": _w("unknown", "未知"),
    "current": _w("current", "最新"), "fetched": _w("fetched", "已获取"), "stored": _w("stored", "已存储"),
    "stale": _w("stale", "过时"), "too_few": _w("too few", "数量不足"), "not_fetched": _w("not fetched", "未获取"),
    "fetch_failed": _w("fetch failed", "获取失败"), "no_quote": _w("no quote", "无行情"),
    "no_close": _w("no close", "无收盘价"), "halted": _w("halted", "停牌"),
    "quote_stale": _w("quote stale", "行情过时"),
    "close_stale": _w("close stale", "收盘价过时"), "session_unknown": _w("session unknown", "交易时段未知"),
    "currency_unknown": _w("currency unknown", "币种未知"), "trading": _w("trading", "正常交易"),
    "rule": _w("by rule", "按规则"), "declared": _w("declared", "已声明"), "mapping": _w("sector mapping", "板块映射"),
    "built_sector": _w("sector index built by the program", "程序构建的板块指数"),
    "built_benchmark": _w("benchmark built by the program", "程序构建的基准指数"), "all": _w("all stocks", "全部股票"),
    "float_cap": _w("float market cap", "流通市值"), "float_mcap": _w("float market cap", "流通市值"),
    "total_mcap": _w("total market cap", "总市值"), "benchmark": _w("benchmark", "基准指数"),
    "correlation": _w("correlation of daily returns", "日收益相关性"),
    "pct": _w("%", "%"), "not": _w("not", "不是"), "capital": _w("capital flow", "资金"),
    "valuation": _w("valuation", "估值"), "trend": _w("trend", "趋势"), "volatility": _w("volatility", "波动"),
    "relative_strength": _w("relative strength", "相对强弱"), "weak": _w("weak", "偏弱"),
    "amount": _w("turnover", "成交额"), "unavailable": _w("unavailable", "不可用"),
    "right": _w("right", "正确"), "wrong": _w("wrong", "错误"), "open": _w("not settled", "尚无定论"),
    "too_early": _w("too early to grade", "尚无走势可评"),
    # the continuity record's call, events and notes (stockbench/research/continuity.py)
    "long": _w("long", "看多"), "bearish": _w("bearish", "看空"),
    "buy_zone": _w("the buy zone reached", "触及买入区间"),
    "sell_zone": _w("the sell zone reached", "触及卖出区间"),
    "stop_touched": _w("the stop touched intraday", "盘中触及止损"),
    "stop_closed": _w("a close under the stop", "收盘跌破止损"),
    "stopped_after_entry": _w("stopped out after the entry", "买入后止损"),
    "target_after_entry": _w("the target after the entry, before the stop", "买入后先到目标"),
    "entry_missed": _w("the entry never came", "买点未到"),
    "target_before_entry": _w("the target before the entry", "买入前已到目标"),
    "reversed_later": _w("reversed later", "此后反转"),
}  # fmt: skip
PROBLEMS |= {  # a broker file the fill import cannot read (ui/dialogs/fill_import_dialog.py)
    "import_unreadable": (_w("{file} cannot be read: {why}", "无法读取 {file}：{why_zh}"),
                          _w("check that the file exists and that you may read it", "请确认文件存在且你有权读取")),
}  # fmt: skip
VALUES |= {
    "file_error.missing": _w("it does not exist", "文件不存在"),
    "file_error.denied": _w("it may not be read", "没有读取权限"),
    "file_error.other": _w("it cannot be opened", "无法打开"),
}  # fmt: skip
ERRORS |= {  # the window's own refusals (ui/dialogs/account_dialogs.py)
    "transfer_needs_target": (_w("a transfer needs the account the cash goes to", "转账需要选择转入的账户"),
                              _w("choose the other account", "请选择另一个账户")),
}  # fmt: skip
VALUES |= {  # the program's sentences in stored records, said again (stockbench/research/record_words.py)
    "record.no_account_advice": _w("no account given: advice is not sized", "未指定账户：建议不计算数量"),
    "record.no_account_orders": _w("no account was given: orders are not sized", "未指定账户：不计算委托数量"),
    "record.no_zones": _w("no zones could be computed: no order", "无法计算区间：不下单"),
    "record.scale": _w("the previous report's price scale (forward-adjusted to its session)",
                       "上次报告的价格尺度（前复权至其交易日）"),
    # the move the zones point to (stockbench/analytics/position_states.py suggest)
    "record.suggest_stop": _w("the stop is hit: sell the whole sellable position", "触及止损：卖出全部可卖持仓"),
    "record.suggest_sell_zone": _w("the price reached the sell zone", "价格到达卖出区间"),
    "record.suggest_buy_zone": _w("the price is in the buy zone", "价格位于买入区间"),
    "record.suggest_sold_out": _w("the position is sold out", "持仓已全部卖出"),
    "record.no_order_action": _w("the action is {action}: no order", "本次操作为{action}：不下单"),
    "record.gaps_no_order": _w("the report discloses data gaps ({gaps}): no executable orders",
                               "报告披露了数据缺口（{gaps}）：不给出可执行委托"),
    "record.no_history": _w("no {metric} history", "无{metric}历史数据"),
    "record.metric.pe_ttm": _w("PE TTM", "市盈率TTM"), "record.metric.pb_mrq": _w("PB", "市净率"),
    "record.metric.ps_ttm": _w("PS TTM", "市销率TTM"),
    # the track record's scoring rules (stockbench/research/track_scoring.py RULES), by action
    "record.rule.buy": _w("beats the benchmark", "跑赢基准"), "record.rule.add": _w("beats the benchmark", "跑赢基准"),
    "record.rule.hold": _w("stays within the call's band of the benchmark", "与基准的差距不超出判断的区间"),
    "record.rule.reduce": _w("does not beat the benchmark", "未跑赢基准"),
    "record.rule.sell": _w("does not beat the benchmark", "未跑赢基准"),
    "record.rule.wait": _w("does not beat the benchmark by the call's band or more (the missed rise)",
                           "未以判断的区间或更多跑赢基准（错过的上涨）"),
    "record.rule.avoid": _w("does not beat the benchmark", "未跑赢基准"),
    "record.benchmark.stand_in": _w("the official benchmark {official} has no bars in this workspace; measured "
                                    "against {symbol} ({name}) instead",
                                    "官方基准 {official} 在本工作区没有行情数据；改以 {symbol}（{name}）衡量"),
    "record.benchmark.none": _w("the official benchmark {official} has no bars in this workspace: relative returns "
                                "and hit rates are not computed",
                                "官方基准 {official} 在本工作区没有行情数据：不计算相对收益与命中率"),
    "record.benchmark.no_bars": _w("{symbol} has no bars in this workspace", "{symbol} 在本工作区没有行情数据"),
    "record.benchmark.chosen": _w("chosen by the user; the official benchmark is {official}",
                                  "由用户指定；官方基准为 {official}"),
    "record.cell_note": _w("probabilities from {cell} ({n} samples)", "概率取自 {cell}（{n} 个样本）"),
    "record.cells_skipped": _w("; finer cells skipped: {skipped}", "；跳过了更细的单元：{skipped}"),
    "record.cell_unknown": _w("{keys} unknown", "{keys}未知"),
    "record.cell_few": _w("{cell} has {n} samples (< {minimum})", "{cell} 只有 {n} 个样本（少于 {minimum}）"),
    "record.base_rate": _w("the base rate", "基础概率"),
    "record.state_rule": _w("{state}: {rule}", "{state}：{rule}"),
    "record.state_rule.no rule matched": _w("no rule matched", "没有规则匹配"),
}  # fmt: skip
VALUES |= {f"evidence_field.{k}": w for k, w in _EVIDENCE_FIELDS.items()}
VALUES |= {f"evidence_value.{k}": w for k, w in _EVIDENCE_VALUES.items()}


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
    made of a user error (a tool's refusal to the model, a typed number refused) is said by the error's words."""
    entry = (PROBLEMS.get(found.key) or ERRORS.get(found.key)) if found.key else None
    if entry is None or language == "en":
        return found.message, found.fix
    values = dict(found.params)
    try:
        suffix = NOTES["allowed_now"].zh.format(**values) if "allowed_now" in values else ""
        return entry[0].zh.format(**values), entry[1].zh.format(**values) + suffix
    except (KeyError, IndexError):  # a field the Chinese needs and the problem lacks: the English is still right
        return found.message, found.fix


def allowed_now(found: Problem, allowed: Sequence[str]) -> Problem:
    """`found` with its fix followed by the actions allowed now (each in Chinese too, for `said`)."""
    english = ", ".join(allowed)
    chinese = "、".join(value_word("action", a, "zh") for a in allowed)
    params = (*found.params, ("allowed_now", english), ("allowed_now_zh", chinese))
    return replace(found, fix=found.fix + NOTES["allowed_now"].en.format(allowed_now=english), params=params)


def problem_of(error: UserError, code: str, /, *, location: str = "") -> Problem:
    """A user error of the catalogue as a problem with the stable `code` (said in Chinese from the error's key)."""
    return Problem(code, error.message, error.hint, location, key=error.key, params=error.params)


@dataclass(frozen=True, slots=True)
class Note:
    """A note of the catalogue (NOTES[key]) with the values its words are filled from; `text` says it."""

    key: str
    params: tuple[tuple[str, str], ...] = ()
    suffix: str = ""  # appended as it is in both languages
    points: str = ""  # a score's points ("+20"), said after the text in the language's brackets (NOTES note.points)

    def text(self, language: Language) -> str:
        words = NOTES[self.key]
        try:
            said = words.text(language).format(**dict(self.params)) + self.suffix
        except (KeyError, IndexError):  # a field the Chinese needs and the note lacks: the English is still right
            said = words.en.format(**dict(self.params)) + self.suffix
        return NOTES["note.points"].text(language).format(text=said, points=self.points) if self.points else said


def note(key: str, /, *, suffix: str = "", **params: object) -> Note:
    """The note `key` with its values (each said in English and, as name_zh, in Chinese where VALUES knows it)."""
    return Note(key, tuple(sorted((name, str(value)) for name, value in params.items())), suffix)


def rejection_words(code: str, language: Language) -> str:
    """Why the importer rejected a row (its reason code, data/importer.py) in `language`; an unknown code as it is."""
    words = NOTES.get(f"import.{code}")
    return words.text(language) if words is not None else code


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
    """The user's language by the system locale, the one rule of every front end and of reports: zh on a Chinese
    locale (LC_ALL, LC_MESSAGES, LANG, the first one set, then the C library's: zh_CN.UTF-8, zh_TW, Windows'
    "Chinese (Simplified)_China"), en on any other, C and POSIX included (a program's untranslated words, which is
    what a window reads there too). `--lang`, the window's choice and the report_language setting override it."""
    environ = os.environ if environ is None else environ
    value = next((environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(name)), None)
    found = value if value is not None else locale.getlocale()[0] or ""
    return "zh" if found.lower().startswith(("zh", "chinese")) else "en"


_TEMPLATE_FIELD = re.compile(r"\\\{(\w+)\\\}")  # a {field} of a template, once re.escape'd


def zone_flag_words(text: str, language: Language) -> str:
    """A zone's flag as the analytics wrote it (its English, "ex_rights: 2026-06-15 (factor 1.063358); ...", as a
    stored record keeps it) in `language`; "" when `text` is no flag of the catalogue or its words there need a value
    the English does not carry."""
    for key, words in NOTES.items():
        if not key.startswith("zone_flag."):
            continue
        found = re.fullmatch(_TEMPLATE_FIELD.sub(lambda m: f"(?P<{m[1]}>.+?)", re.escape(words.en)), text)
        if found is not None:
            try:
                return words.text(language).format(**found.groupdict())
            except KeyError:
                return ""
    return ""
