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
from typing import Literal

from stockbench.errors import Problem, RuleViolation, UserError

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
}  # fmt: skip

# Refusals that wrap the first problem (RuleViolation.key); {problem} is that problem's message.
REFUSALS: dict[str, Words] = {
    "fill_not_recorded": _w("the fill was not recorded: {problem}", "成交未记录：{problem}"),
    "fill_rejected": _w("the fill would be rejected: {problem}", "这笔成交会被拒绝：{problem}"),
    "order_not_recorded": _w("the order was not recorded: {problem}", "委托未记录：{problem}"),
    "entry_not_recorded": _w("{entry} was not recorded: {problem}", "{entry} 未记录：{problem}"),
}

# Other user errors (UserError.key): (message, hint).
_LOCKED_HINT = _w(
    "Close that window or command first, or choose another workspace (File ▸ Open Workspace, or --home DIR).",
    "请先关闭那个窗口或命令，或选择其他工作区（“文件 ▸ 打开工作区”，或命令行的 --home 目录）。",
)
ERRORS: dict[str, tuple[Words, Words]] = {
    "workspace_locked": (_w("The workspace {home} is in use by Stock Workbench process {pid} on {host} ({command}, "
                            "since {since}).",
                            "工作区 {home} 正被 Stock Workbench 进程 {pid} 使用（{host}，{command}，自 {since} 起）。"),
                         _LOCKED_HINT),
    "workspace_locked.unknown": (_w("The workspace {home} is in use by another Stock Workbench process.",
                                    "工作区 {home} 正被另一个 Stock Workbench 进程使用。"), _LOCKED_HINT),
}  # fmt: skip

# Words of values that appear inside messages (sides, session phases, the cash a need is for).
VALUES: dict[str, Words] = {
    "side.buy": _w("buy", "买入"), "side.sell": _w("sell", "卖出"),
    "phase.closed": _w("closed", "休市"),
    "phase.preopen_cancellable": _w("preopen cancellable", "开盘集合竞价（可撤单）"),
    "phase.preopen_noncancellable": _w("preopen noncancellable", "开盘集合竞价（不可撤单）"),
    "phase.preopen_wait": _w("preopen wait", "集合竞价后等待开盘"), "phase.continuous": _w("continuous", "连续竞价"),
    "phase.lunch_break": _w("lunch break", "午间休市"), "phase.closing_auction": _w("closing auction", "收盘集合竞价"),
    "phase.after_hours_fixed_price": _w("after hours fixed price", "盘后固定价格交易"),
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
    """(message, fix) of a problem in `language`; a problem outside the catalogue keeps its English words."""
    entry = PROBLEMS.get(found.key) if found.key else None
    if entry is None or language == "en":
        return found.message, found.fix
    values = dict(found.params)
    try:
        return entry[0].zh.format(**values), entry[1].zh.format(**values)
    except (KeyError, IndexError):  # a field the Chinese needs and the problem lacks: the English is still right
        return found.message, found.fix


def refusal(key: str, problems: Sequence[Problem], **params: object) -> RuleViolation:
    """A RuleViolation whose message is REFUSALS[key] around the first problem's message (said again per language
    by `error_words`)."""
    values = {name: str(value) for name, value in params.items()}
    first = problems[0].message if problems else ""
    return RuleViolation(REFUSALS[key].en.format(problem=first, **values), problems, key=key,
                         params=tuple(sorted(values.items())))  # fmt: skip


def error_words(error: UserError, language: Language) -> tuple[str, str]:
    """(message, hint) of a user error in `language`: a refusal or another error of the catalogue in its words, the
    rest as raised (English) until it moves here."""
    if language != "en" and error.key in ERRORS:
        message_words, hint_words = ERRORS[error.key]
        values = dict(error.params)
        try:
            return message_words.zh.format(**values), hint_words.zh.format(**values)
        except (KeyError, IndexError):  # a field the Chinese needs and the error lacks: the English is still right
            return error.message, error.hint
    if language == "en" or not isinstance(error, RuleViolation) or error.key not in REFUSALS or not error.problems:
        return error.message, error.hint
    message, fix = said(error.problems[0], language)
    return REFUSALS[error.key].zh.format(problem=message, **dict(error.params)), fix


def language_of_locale(environ: Mapping[str, str] | None = None) -> Language:
    """zh when the user's locale is Chinese (LC_ALL, LC_MESSAGES, LANG, then the C library's), else en."""
    environ = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    found = locale.getlocale()[0] or ""
    return "zh" if found.lower().startswith("zh") else "en"
