"""Catalogue entries of the report's actions wording (keys are stable engine codes; see wording/__init__.py): the
seven actions, the decision baseline's reasons, the offline model's action reasons and plan paths.

`action.<action>` is the one word of each action wherever a person reads it: the report, and (through the
shell's translations, tested equal) the chart markers and the filters.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from stockbench.messages import CHECKS
from stockbench.research.wording.entry import Entry, Language
from stockbench.research.wording.plan import WORDS as PLAN_WORDS

WORDS: dict[str, Entry] = {
    "action.buy": Entry(zh="买入", en="Buy"),
    "action.add": Entry(zh="加仓", en="Add"),
    "action.hold": Entry(zh="持有", en="Hold"),
    "action.reduce": Entry(zh="减仓", en="Reduce"),
    "action.sell": Entry(zh="卖出", en="Sell"),
    "action.wait": Entry(zh="观望", en="Wait"),
    "action.avoid": Entry(zh="回避", en="Avoid"),
    # the baseline's checks, as its reasons name them: the one catalogue's (stockbench.messages.CHECKS)
    **{key: Entry(zh=words.zh, en=words.en) for key, words in CHECKS.items()},
    # the baseline's reasons (codes of stockbench.analytics.baseline.Reason)
    "baseline.buy_conditions_met": Entry(zh="全部买入条件通过", en="every buy condition passed"),
    "baseline.buy_setup_record": Entry(
        zh=(
            "全部买入条件通过；这一形态的记录（{measured_from} 起，样本外）：20个交易日跑赢市场的占 {setup_beat}"
            "（全部交易日 {base_beat}），平均超额 {setup_excess}（全部交易日 {base_excess}）："
            "优势小，单次结果多半取决于运气"
        ),
        en=(
            "every buy condition passed; the setup's record (out of sample from {measured_from}): {setup_beat} of its"
            " sessions beat the market over 20 sessions (every session: {base_beat}), mean excess {setup_excess} (every"
            " session: {base_excess}): a small edge, so any one outcome is mostly luck"
        ),
    ),
    "baseline.input_unknown": Entry(
        zh="{what}未知：未知不算通过，基线最多为{cap}",
        en="{what} is unknown: unknown is not a pass, so the baseline is at most {cap}",
    ),
    "baseline.check_failed": Entry(
        zh="{what}为 {value}，买入要求 {op} {limit}", en="{what} is {value} (a buy needs {op} {limit})"
    ),
    "baseline.capital_blocked": Entry(
        zh="资金状态处于规则表禁止买入的状态", en="the capital state is one the table blocks buying in"
    ),
    "baseline.volatility_blocked": Entry(
        zh="波动偏高或极端：规则表只在波动低或正常时买入",
        en="volatility is high or extreme: the table buys only when it is low or normal",
    ),
    "baseline.uptrend_low": Entry(
        zh="收盘价相对250日均线 {value}%，买入要求至少高出 {limit}%",
        en="the close stands {value}% against the 250-day MA; a buy needs it at least {limit}% above",
    ),
    "baseline.over_ma20_low": Entry(
        zh="收盘价低于20日均线（{value}%）：短线走弱，规则表不在此时买入",
        en="the close is below the 20-day MA ({value}%): short-term weakness, the table does not buy then",
    ),
    "baseline.near_ma20_high": Entry(
        zh="收盘价高于20日均线 {value}%，超过买入上限 {limit}%：短线已拉开，等回落",
        en=(
            "the close stands {value}% above the 20-day MA, beyond the buy limit of {limit}%: stretched, wait for a"
            " pullback"
        ),
    ),
    "baseline.run_low": Entry(
        zh="近20个交易日涨跌幅 {value}%，低于买入要求的 {limit}%：仍在下跌",
        en="the 20-session return is {value}%, below the {limit}% a buy needs: still falling",
    ),
    "baseline.run_up_high": Entry(
        zh="近20个交易日已上涨 {value}%，超过买入上限 {limit}%：过热",
        en="the price rose {value}% over 20 sessions, beyond the buy limit of {limit}%: overheated",
    ),
    "baseline.ev_veto": Entry(
        zh="回测 {trades} 笔交易扣费后的期望收益为 {value}，不为正：规则表不买入",
        en=(
            "the backtest's expected value after costs over {trades} trades is {value}, not positive: the table does"
            " not buy"
        ),
    ),
    "baseline.ev_veto_firing": Entry(
        zh=(
            "今日因子信号触发，其回测 {trades} 笔交易（独立 {independent} 笔）扣费后的期望收益为 {value}，不为正"
            "（同一期限任意窗口 {base}）：规则表不买入"
        ),
        en=(
            "the score's signal fires today, and its backtest's expected value after costs over {trades} trades"
            " ({independent} independent) is {value}, not positive (any window of the same horizon: {base}): the"
            " table does not buy"
        ),
    ),
    "baseline.extension_high": Entry(
        zh="收盘价高于250日均线 {value}%，超过买入上限 {limit}%：过热",
        en="the close stands {value}% above the 250-day MA, beyond the buy limit of {limit}%: overheated",
    ),
    "baseline.turnover_high": Entry(
        zh="换手率 {value}%，超过买入上限 {limit}%：交易过热",
        en="turnover is {value}%, beyond the buy limit of {limit}%: crowded trading",
    ),
    "baseline.table.sample_confidence": Entry(
        zh="样本置信度表 v{version}", en="the sample-confidence table v{version}"
    ),
    "baseline.no_trade": Entry(zh="不交易：{reason}", en="no trade: {reason}"),
    "baseline.weak": Entry(
        zh="技术分不高于 {threshold}，或期望收益与技术分同为负",
        en="the score is at or below {threshold}, or the expected value and the score are both negative",
    ),
    "baseline.confidence_cap": Entry(
        zh="置信度上限 {cap}：回测 {trades} 笔独立交易及其相对基准的优势（{table}）",
        en=(
            "confidence capped at {cap} by {trades} independent backtest trades and their edge over the base rate"
            " ({table})"
        ),
    ),
    # why the offline model took its action
    "action.why.baseline": Entry(zh="与程序基线一致：{action}", en="Consistent with the baseline: {action}"),
    "action.why.not_allowed": Entry(
        zh="程序基线为{baseline}，但持仓状态表现在不允许：改为{action}",
        en="The baseline says {baseline}, but the position state table does not allow it now: {action} instead",
    ),
    # plan paths
    "path.no_zones": Entry(zh="区间数据缺失", en="No zones could be computed"),
    "path.enter_buy": Entry(zh="价格进入买入区间 {low}-{high}", en="The price enters the buy zone {low}-{high}"),
    "path.in_buy": Entry(zh="价格位于买入区间 {low}-{high} 内", en="The price is in the buy zone {low}-{high}"),
    "path.enter_sell": Entry(zh="价格进入卖出区间 {low}-{high}", en="The price enters the sell zone {low}-{high}"),
    "path.close_below_stop": Entry(zh="收盘跌破止损位 {stop}", en="A close below the stop {stop}"),
    "path.buy_in_steps": Entry(zh="按计划分批买入", en="Buy in steps as planned"),
    "path.add_in_steps": Entry(zh="按计划分批加仓", en="Add in steps as planned"),
    # under hold the baseline gave no add (its buy conditions are not all met), so the buy zone is no reason to add:
    # "按计划分批加仓" stood under "操作：持有" while the price was already in the zone
    "path.hold_no_add": Entry(
        zh="继续持有，不加仓：程序基线改判之前不加",
        en="Keep holding; no adding until the program's baseline changes its call",
    ),
    "path.sell_in_steps": Entry(zh="分批卖出", en="Sell in steps"),
    "path.stop_out": Entry(zh="止损离场", en="Exit at the stop"),
    "path.recheck": Entry(zh="重新研究后再定，本计划不建仓", en="Research it again first; this plan opens nothing"),
    "path.reassess": Entry(
        zh="重新评估；程序基线改判之前不建仓",
        en="Assess again; no position until the program's baseline changes its call",
    ),
    "path.stay_out": Entry(zh="维持观望", en="Keep waiting"),
    # under wait nothing is held (the state table: wait is a move of watching), so the sell zone and the stop have
    # nothing to sell: "Sell in steps" and "Exit at the stop" were written there for a reader with no position
    "path.no_chase": Entry(
        zh="无持仓可卖；不追高，不在买入区间上方建仓", en="Nothing held to sell; do not chase above the buy zone"
    ),
    "path.support_fails": Entry(
        zh="计划的支撑失效：无持仓，任何买入前先重新分析",
        en="The plan's support fails: nothing held; analyse again before any buy",
    ),
}


def action_word(action: str, language: Language) -> str:
    """The word of `action` (an action outside the set, from an old report, is shown as it is)."""
    entry = WORDS.get(f"action.{action}")
    return entry.text(language) if entry is not None else action


def plan_reason(reason: Mapping[str, object], language: Language) -> str:
    """The plan's own reason of a baseline `no_trade` reason (plan.reason.*, the words the zone lines use), its
    figures from the reason; a reason whose figures it lacks is said without them (plan.reason.not_assessed)."""
    code = str(reason.get("plan_reason"))
    figures = {"ratio": reason.get("reward_risk"), "minimum": reason.get("minimum"),
               "distance": reason.get("distance"), "stop": reason.get("stop")}  # fmt: skip
    needed = {"reward_risk_below_min": ("ratio", "minimum"), "buy_out_of_reach": ("distance",), "stop_hit": ("stop",)}
    key = f"plan.reason.{code}"
    if key not in PLAN_WORDS or any(figures[k] is None for k in needed.get(code, ())):
        key = "plan.reason.not_assessed"
    return PLAN_WORDS[key].text(language).format(**figures)


def _no_trade(reason: Mapping[str, object], language: Language) -> str:
    """ "no trade:" and the plan's own reason."""
    return WORDS["baseline.no_trade"].text(language).format(reason=plan_reason(reason, language))


def _percent(value: object) -> object:
    """A fraction (0.4839, "-0.0078") in percent at two places, rounded as the number gate displays it
    (offline_prose._percent): "48.39%", "-0.78%"; what is not a number stays."""
    try:
        number = Decimal(str(value)) * 100
    except InvalidOperation:
        return value
    if not number.is_finite():
        return value
    return f"{format(number.quantize(Decimal('0.01'), ROUND_HALF_UP).normalize(), 'f')}%"


def _signed_pct(value: object) -> object:
    """A figure already in percent (0.79) with its sign, as the report writes an excess: "+0.79%"."""
    try:
        number = Decimal(str(value)).quantize(Decimal("0.01"), ROUND_HALF_UP)
    except InvalidOperation:
        return value
    return f"{number:+}%"


def _table_words(cited: str, language: Language) -> str:
    """A rule table's citation ("sample_confidence v1.0") in the reader's words; an unknown table as cited."""
    name, _, version = cited.partition(" v")
    entry = WORDS.get(f"baseline.table.{name}")
    return entry.text(language).format(version=version) if entry is not None else cited


_SETUP_WORDS = {
    "extension": "extension_high",
    "turnover": "turnover_high",
    "uptrend": "uptrend_low",
    "over_ma20": "over_ma20_low",
    "near_ma20": "near_ma20_high",
    "run": "run_low",
    "run_up": "run_up_high",
}


def baseline_reason(reason: Mapping[str, object], language: Language) -> str:
    """The words of one baseline reason as the facts block carries it ({"code": ..., its values})."""
    code = str(reason.get("code", ""))
    check = WORDS.get(f"baseline.check.{reason.get('check')}")
    what = check.text(language) if check is not None else str(reason.get("check", ""))
    values = {k: "—" if v is None else v for k, v in reason.items() if k != "code"}
    if code == "buy_conditions_met" and "setup_beat_rate" in reason:
        return WORDS["baseline.buy_setup_record"].text(language).format(
            measured_from=values["measured_from"], setup_beat=_percent(values["setup_beat_rate"]),
            base_beat=_percent(values["base_beat_rate"]), setup_excess=_signed_pct(values["setup_excess_pct"]),
            base_excess=_signed_pct(values["base_excess_pct"]),
        )  # fmt: skip
    if code == "input_unknown":
        return WORDS[f"baseline.{code}"].text(language).format(what=what, cap=action_word(str(values["cap"]), language))
    if code == "no_trade":
        return _no_trade(reason, language)
    if code == "check_failed" and reason.get("check") == "capital":
        return WORDS["baseline.capital_blocked"].text(language)
    if code == "check_failed" and reason.get("check") == "volatility":
        return WORDS["baseline.volatility_blocked"].text(language)
    if code == "check_failed" and reason.get("check") in _SETUP_WORDS:
        key = _SETUP_WORDS[str(reason.get("check"))]
        return WORDS[f"baseline.{key}"].text(language).format(value=values["value"], limit=values["limit"])
    if code == "check_failed" and reason.get("check") == "ev" and reason.get("base_ev") is not None:
        return WORDS["baseline.ev_veto_firing"].text(language).format(
            value=_percent(values["value"]), trades=values["trades"], independent=values["independent"],
            base=_percent(values["base_ev"]),
        )  # fmt: skip
    if code == "check_failed" and reason.get("check") == "ev" and "trades" in reason:  # a block before 1.5
        return WORDS["baseline.ev_veto"].text(language).format(value=_percent(values["value"]), trades=values["trades"])
    if code == "check_failed":
        op = {">=": "≥", "<=": "≤"}.get(str(values.get("op", "")), values.get("op", ""))
        value, limit = values["value"], values["limit"]
        if reason.get("unit") == "fraction":  # a win rate or an expected value: said in percent
            value, limit = _percent(value), _percent(limit)
        shown = {"what": what, "value": value, "op": op, "limit": limit}
        return WORDS[f"baseline.{code}"].text(language).format(**shown)
    if code == "confidence_cap":
        values["table"] = _table_words(str(values.get("table", "")), language)
    entry = WORDS.get(f"baseline.{code}")
    return entry.text(language).format(**values) if entry is not None else code
