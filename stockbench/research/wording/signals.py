"""Catalogue entries of the report's signals wording (keys are stable engine codes; see wording/__init__.py): the
backtest cited as an argument beside its base rate, the grades of its evidence (stockbench.analytics.edge), and
the data range of the calibrated scenario table (point in time)."""

from __future__ import annotations

from stockbench.research.wording.entry import Entry

_VERSUS = Entry(
    zh="回测：买入信号于 {day} 触发；历史上信号后持有 {horizon} 个交易日平均收益 {ev}%、胜率 {win}%（{trades} 笔，"
    "互不重叠 {independent} 笔），同一历史中任意 {horizon} 日窗口平均 {base_ev}%、胜率 {base_win}%；{grade}",
    en="Backtest: the buy signal fired on {day}; held {horizon} sessions after past signals, the mean return was "
    "{ev}% with {win}% wins ({trades} trades, {independent} independent), against {base_ev}% and {base_win}% "
    "wins for any {horizon}-session window of the same history; {grade}",
)

WORDS: dict[str, Entry] = {
    "backtest.cited": _VERSUS,
    "backtest.evidence.edge": Entry(
        zh="跑赢基准，且独立样本充足",
        en="it beats the base rate, on enough independent trades",
    ),
    "backtest.evidence.small_sample": Entry(
        zh="跑赢基准，但独立样本不足，置信度受限",
        en="it beats the base rate, but on too few independent trades: confidence is capped",
    ),
    "backtest.evidence.thin_edge": Entry(
        zh="超出基准的幅度低于规则表门槛，置信度受限",
        en="its margin over the base rate is below the rule table's minimum: confidence is capped",
    ),
    "backtest.evidence.no_edge": Entry(
        zh="未跑赢基准：信号没有带来额外收益，不能作为买入理由",
        en="it does not beat the base rate: the signal adds nothing and is no reason to buy",
    ),
    "backtest.evidence.no_trades": Entry(zh="尚无完成的交易", en="no completed trade yet"),
    "backtest.evidence.never_fired": Entry(zh="信号从未触发", en="the signal never fired"),
    "calibration.range": Entry(
        zh="情景概率来自校准表（数据 {data_from} 至 {data_to}，早于研究日期）",
        en="Scenario probabilities come from the calibrated table of data {data_from} to {data_to}, before the "
        "research date",
    ),
    "calibration.look_ahead": Entry(
        zh="前视披露：情景概率来自校准表（数据 {data_from} 至 {data_to}），其数据晚于研究日期，含未来信息",
        en="Look-ahead: the scenario probabilities come from the calibrated table of data {data_from} to "
        "{data_to}, which reaches past the research date",
    ),
}
