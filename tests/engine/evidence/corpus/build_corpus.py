"""Writes the adversarial corpus: `world.json` (one run's evidence, its gate context and a valid draft) and
`cases.jsonl` (each case a change to that draft, with the problem code that must block it).

Run `uv run python -m tests.engine.evidence.corpus.build_corpus` after editing; the corpus test checks the
files are current. Families are generated from lists of values and slips, but every case is written out
in full, so a reader of `cases.jsonl` sees exactly what is tested. Evidence is referred to by alias
("@quote"); the test stores the bodies and replaces each alias with the real content-addressed id.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
UNKNOWN_ID = "ev-000000000000000000000000"

NOTICE = (
    "甲公司关于2023年年度利润分配方案的公告\n"
    "本公司董事会及全体董事保证本公告内容不存在任何虚假记载、误导性陈述或者重大遗漏，并对其内容的真实性、准确性和"
    "完整性承担法律责任。\n"
    "一、利润分配方案内容\n"
    "经审计，公司2023年度实现归属于上市公司股东的净利润747.34亿元，同比增长19.16%；实现营业总收入1,505.60亿元，"
    "同比增长18.04%。公司拟向全体股东每10股派发现金红利308.76元（含税），合计拟派发现金红利387.86亿元（含税），"
    "占当年归属于上市公司股东的净利润的51.90%。\n"
    "二、公司履行的决策程序\n"
    "公司于2024年3月28日召开第三届董事会第三十次会议，审议通过了本次利润分配方案。\n"
    "三、相关风险提示\n"
    "本次利润分配方案尚需提交公司2023年年度股东大会审议通过后方可实施，敬请广大投资者注意投资风险。"
)
SNIPPET = "甲公司：拟每10股派发现金红利308.76元……公司表示将继续坚持高比例分红政策，持续回报广大投资者。"
OTHER_NOTICE = "乙银行2023年度实现营业收入1,646.99亿元，同比下降8.45%；实现净利润464.55亿元，同比增长2.06%。"

ZONES = {
    "anchors": [
        {"id": "box_low", "price": "1440.00"},
        {"id": "ma60", "price": "1455.00"},
        {"id": "ma20", "price": "1478.35"},
        {"id": "box_high", "price": "1560.00"},
        {"id": "prev_high", "price": "1590.00"},
        {"id": "atr_stop", "price": "1398.00"},
    ],
    "buy": {"low": "1440.00", "high": "1455.00"},
    "sell": {"low": "1560.00", "high": "1590.00"},
    "stop": "1398.00",
}
EVIDENCE: list[dict[str, Any]] = [
    {"alias": "quote", "run": "run-main", "kind": "quote", "source": "tencent", "body": {
        "symbol": "600519.SH", "name": "贵州茅台", "at": "2024-06-28T15:00:00+08:00", "last": "1469.00",
        "prev_close": "1462.00", "open": "1461.00", "high": "1478.88", "low": "1451.01", "volume": 2873456,
        "amount": "4212345678.00", "pe_ttm": "21.86", "pb": "7.83", "turnover_pct": "0.23",
        "total_mcap": "1845329876543.21", "limit_up": "1608.20", "limit_down": "1315.80", "change_pct": "0.48"}},
    {"alias": "bars", "run": "run-main", "kind": "bars", "source": "eastmoney", "body": {"symbol": "600519.SH",
     "bars": [
        {"day": "2024-06-24", "open": "1449.00", "high": "1452.50", "low": "1431.66", "close": "1443.00",
         "volume": 3021145, "amount": "4359876543.00"},
        {"day": "2024-06-25", "open": "1444.00", "high": "1460.00", "low": "1440.12", "close": "1455.50",
         "volume": 2456780, "amount": "3567123456.00"},
        {"day": "2024-06-26", "open": "1455.00", "high": "1456.99", "low": "1436.36", "close": "1440.01",
         "volume": 2687654, "amount": "3876543210.00"},
        {"day": "2024-06-27", "open": "1441.00", "high": "1466.66", "low": "1438.00", "close": "1462.00",
         "volume": 2765432, "amount": "4023456789.00"},
        {"day": "2024-06-28", "open": "1461.00", "high": "1478.88", "low": "1451.01", "close": "1469.00",
         "volume": 2873456, "amount": "4212345678.00"}]}},
    {"alias": "return_5d", "run": "run-main", "kind": "computation", "source": "calc", "body": {
        "kind": "calc", "expression": "(last - close_5) / close_5 * 100", "value": "1.801802", "unit": "pct"}},
    {"alias": "excess", "run": "run-main", "kind": "computation", "source": "calc", "body": {
        "kind": "calc", "expression": "r_stock - r_index", "value": "0.956300", "unit": "pp"}},
    {"alias": "volume_ratio", "run": "run-main", "kind": "computation", "source": "calc", "body": {
        "kind": "calc", "expression": "volume / avg_volume_5", "value": "1.346512", "unit": "multiple"}},
    {"alias": "ma20", "run": "run-main", "kind": "computation", "source": "analytics.indicators", "body": {
        "kind": "calc", "expression": "mean(close, 20)", "value": "1478.35", "unit": "plain"}},
    {"alias": "sector", "run": "run-main", "kind": "quote", "source": "tencent", "body": {
        "symbol": "BK0896", "name": "白酒", "last": "1234.46"}},
    {"alias": "backtest", "run": "run-main", "kind": "computation", "source": "analytics.backtest", "body": {
        "samples": 58, "win_rate": "0.5862", "avg_gain_pct": "3.47"}},
    {"alias": "zones", "run": "run-main", "kind": "computation", "source": "analytics.zones", "body": ZONES},
    {"alias": "scenarios", "run": "run-main", "kind": "computation", "source": "analytics.scenarios", "body": {
        "items": [{"name": "bull", "probability": "0.25"}, {"name": "base", "probability": "0.50"},
                  {"name": "bear", "probability": "0.25"}], "tolerance": "0.05"}},
    {"alias": "sizing", "run": "run-main", "kind": "computation", "source": "analytics.sizing", "body": {
        "account": "main", "symbol": "600519.SH", "side": "buy", "qty": 100, "price": "1455.00",
        "cost": "145500.00"}},
    {"alias": "notice", "run": "run-main", "kind": "document", "source": "https://static.cninfo.com.cn/notice.pdf",
     "body": NOTICE},
    {"alias": "snippet", "run": "run-main", "kind": "search_result", "source": "search: 甲公司 分红", "body": SNIPPET},
    {"alias": "other_quote", "run": "run-other", "kind": "quote", "source": "tencent", "body": {
        "symbol": "000001.SZ", "last": "10.52", "prev_close": "10.61", "volume": 98765432,
        "amount": "1038765432.10", "pe_ttm": "4.21", "change_pct": "-0.85"}},
    {"alias": "other_notice", "run": "run-other", "kind": "document", "source": "https://example.com/b.pdf",
     "body": OTHER_NOTICE},
]  # fmt: skip

ANALYSIS = (
    "成交额42.12亿元，成交量287.35万股，量比1.35倍；20日均线1,478.35元位于现价上方，白酒板块指数收于1,234.5点。"
    "公司2023年度净利润747.34亿元，同比增长19.16%，拟每10股派发现金红利308.76元（含税）。"
)
DRAFT: dict[str, Any] = {
    "run_id": "run-main",
    "symbol": "600519.SH",
    "sections": [
        {"key": "summary", "title": "结论", "text": "贵州茅台（600519.SH）2024年6月28日收于1,469.00元，上涨0.48%，"
         "近5日累计"
         "上涨1.80%，跑赢基准0.96个百分点。当前市盈率（TTM）21.86倍，市净率7.83倍。"},
        {"key": "analysis", "title": "分析", "text": ANALYSIS},
        {"key": "plan", "title": "计划", "text": "买入区间1,440.00-1,455.00元，卖出区间1,560.00-1,590.00元，"
         "止损1,398.00元。"
         "计划以1,455.00元买入100股，约14.55万元。历史相似情形胜率58.62%，样本58个。情景概率：乐观25%，基准50%，悲观25%。"},
        {"key": "risks", "title": "风险", "text": "利润分配方案尚需股东大会审议；跌破1,398.00元止损位将离场。"},
        {"key": "disclaimer", "title": "声明", "text": "本报告为研究记录，不构成投资建议。"},
    ],
    "claims": [
        {"text": "收于1,469.00元，上涨0.48%", "evidence": ["@quote"]},
        {"text": "近5日上涨1.80%", "evidence": ["@return_5d", "@bars"]},
    ],
    "risks": [
        {"text": "利润分配方案尚需提交股东大会审议", "evidence": ["@notice"]},
        {"text": "跌破止损位1,398.00元", "evidence": ["@zones"]},
    ],
    "quotes": [{"text": "本次利润分配方案尚需提交公司2023年年度股东大会审议通过后方可实施", "evidence_id": "@notice",
                "location": "risks"}],
    "zones": {
        "buy": {"low": "1440.00", "high": "1455.00", "anchors": ["box_low", "ma60"]},
        "sell": {"low": "1560.00", "high": "1590.00", "anchors": ["box_high", "prev_high"]},
        "stop": "1398.00",
        "stop_anchors": ["atr_stop"],
    },
    "scenarios": [
        {"name": "bull", "probability": "0.25", "text": "放量突破1,590.00元"},
        {"name": "base", "probability": "0.50", "text": "在1,440.00-1,590.00元区间震荡"},
        {"name": "bear", "probability": "0.25", "text": "跌破1,398.00元"},
    ],
    "orders": [{"account": "main", "symbol": "600519.SH", "side": "buy", "qty": 100, "price": "1455.00",
                "action": "new"}],
    "gaps": [],
    "method": [
        {"step": "identity", "status": "done", "reason": ""},
        {"step": "quote", "status": "done", "reason": ""},
        {"step": "bars", "status": "done", "reason": ""},
        {"step": "valuation", "status": "done", "reason": ""},
        {"step": "announcements", "status": "done", "reason": ""},
        {"step": "money_flow", "status": "skipped", "reason": "该方法版本对大盘蓝筹不要求资金流向"},
        {"step": "backtest", "status": "done", "reason": ""},
    ],
    "judgments": {"scene": "白酒板块，非出海", "diagnosis": "估值处于区间中部", "verdict": "中性偏多",
                  "plan": "分批买入"},
}  # fmt: skip
CONTEXT: dict[str, Any] = {
    "required_sections": ["summary", "analysis", "plan", "risks", "disclaimer"],
    "required_judgments": ["scene", "diagnosis", "verdict", "plan"],
    "required_steps": ["identity", "quote", "bars", "valuation", "announcements", "money_flow", "backtest"],
    "anchors": {a["id"]: a["price"] for a in ZONES["anchors"]},
    "calibrated": {"bull": "0.25", "base": "0.50", "bear": "0.25"},
    "probability_tolerance": "0.05",
    "ledger": {"cash": {"main": "500000.00"}, "sellable": [["main", "600519.SH", 300]]},
    "day": "2024-07-01",
    "refs": {"600519.SH": "1469.00"},
}


def case(family: str, expect: str, *, only: bool = True, **change: Any) -> dict[str, Any]:
    return {"family": family, "expect": expect, "only": only, **change}


def text_cases(family: str, texts: list[str], expect: str = "number_ungrounded") -> list[dict[str, Any]]:
    return [case(family, expect, text=t) for t in texts]


INVENTED = [
    "公司预计2024年营收增长15.3%。", "目标价1,800.00元。", "机构持股比例升至67.5%。", "北向资金净买入3.21亿元。",
    "毛利率高达91.96%。", "经销商数量达2,096家。", "直销收入占比45.8%。", "合理估值为30倍市盈率。",
    "股息率约2.1%。", "近一年最大回撤为26.4%。", "主力资金净流入1.56亿元。", "融资余额增加8,765万元。",
    "茅台酒基酒产量5.72万吨。", "预计下季度净利润增长12%。", "Revenue rose 17.2% in the half.",
    "The stock trades at 28.5x forward earnings.", "Net inflow of RMB 2.3 billion.", "同业平均市盈率为24.6倍。",
    "换手率升至0.35%。", "ROE约为34.2%。",
]  # fmt: skip
# (written correctly, value in base units) -> slips of the multiplier
WAN_YI = [
    ("成交额42.12亿元", ["成交额42.12万元", "成交额42.12万亿元"]),
    ("成交量287.35万股", ["成交量287.35亿股", "成交量287.35股"]),
    ("总市值1.85万亿元", ["总市值1.85亿元", "总市值1.85万元"]),
    ("总市值18,453.30亿元", ["总市值18,453.30万元", "总市值18,453.30万亿元"]),
    ("净利润747.34亿元", ["净利润747.34万元", "净利润747.34万亿元"]),
    ("营业总收入1,505.60亿元", ["营业总收入1,505.60万元", "营业总收入1.51亿元"]),
    ("现金红利387.86亿元", ["现金红利387.86万元", "现金红利3.88亿元"]),
    ("约14.55万元", ["约14.55亿元", "约1.46万元"]),
    ("6月24日成交额43.60亿元", ["6月24日成交额43.60万元", "6月24日成交额4.36亿元"]),
    ("6月25日成交量245.68万股", ["6月25日成交量245.68亿股", "6月25日成交量24.57万股"]),
    ("6月26日成交额38.77亿元", ["6月26日成交额38.77万元", "6月26日成交额387.65亿元"]),
    ("6月27日成交量276.54万股", ["6月27日成交量276.54亿股", "6月27日成交量2,765.43亿股"]),
]  # fmt: skip
# values written one step beyond their display rounding (either side)
ROUNDING = [
    ("收于1,469.01元", "1469.00"), ("收于1,468.99元", "1469.00"), ("昨收1,462.1元", "1462.00"),
    ("昨收1,461.9元", "1462.00"), ("最高1,478.89元", "1478.88"), ("最高1,478.87元", "1478.88"),
    ("最低1,451.02元", "1451.01"), ("最低1,451.1元", "1451.01"), ("市盈率21.87倍", "21.86"),
    ("市盈率21.8倍", "21.86"), ("市净率7.84倍", "7.83"), ("市净率7.9倍", "7.83"), ("换手率0.24%", "0.23"),
    ("换手率0.22%", "0.23"), ("上涨0.49%", "0.48"), ("上涨0.4%", "0.48"), ("近5日上涨1.81%", "1.801802"),
    ("近5日上涨1.79%", "1.801802"), ("近5日上涨1.9%", "1.801802"), ("跑赢0.97个百分点", "0.9563"),
    ("跑赢0.95个百分点", "0.9563"), ("跑赢0.9个百分点", "0.9563"), ("量比1.36倍", "1.346512"),
    ("量比1.34倍", "1.346512"), ("20日均线1,478.36元", "1478.35"), ("20日均线1,478.5元", "1478.35"),
    ("板块指数收于1,234.6点", "1234.46"), ("板块指数收于1,234.4点", "1234.46"), ("胜率58.63%", "0.5862"),
    ("胜率58.7%", "0.5862"), ("净利润747.35亿元", "74734000000"), ("净利润747.4亿元", "74734000000"),
    ("同比增长19.17%", "19.16"), ("同比增长19.1%", "19.16"), ("每10股派308.77元", "308.76"),
    ("每10股派308.7元", "308.76"), ("分红率51.91%", "51.90"), ("分红率51%", "51.90"),
    ("6月26日收于1,440.02元", "1440.01"), ("6月26日收于1,439.9元", "1440.01"),
]  # fmt: skip
PCT_PP = [
    "跑赢基准0.96%", "outperformed by 0.96 percent", "上涨0.48个百分点", "近5日上涨1.80个百分点",
    "换手率0.23个百分点", "净利润同比增长19.16个百分点", "营收同比增长18.04 percentage points", "胜率58.62个百分点",
    "分红率51.90个百分点", "平均盈利3.47个百分点", "excess return of 0.96%", "up 0.48pp on the day",
]  # fmt: skip
UNIT_SLIPS = ["市盈率21.86%", "量比1.35%", "收于1,469.00%", "市净率7.83%", "胜率0.5862倍"]
SIGNS = ["当日-0.48%", "近5日-1.80%", "超额-0.96个百分点", "同比-19.16%", "量比-1.35倍"]
OTHER_RUN_TEXTS = [
    "收于10.52元。", "营业收入1,646.99亿元。", "同比下降8.45%。", "净利润464.55亿元。", "市盈率4.21倍。",
    "当日下跌0.85%。", "成交量9,876.54万股。", "成交额10.39亿元。", "昨收10.61元。", "净利润同比增长2.06%。",
]  # fmt: skip
QUOTE_SLIPS = [
    # (family, altered quote of NOTICE)
    ("quote_changed_char", "本次利润分配方案尚需提交公司2023年年度股东大会审议通过后方能实施"),
    ("quote_changed_char", "本次利润分配方案尚需提交公司2023年年度董事会审议通过后方可实施"),
    ("quote_changed_char", "经审计，公司2023年度实现归属于上市公司股东的净利润747.34亿元，同比增加19.16%"),
    ("quote_changed_char", "公司拟向全体股东每10股派发现金红利308.76元（不含税）"),
    ("quote_changed_char", "公司于2024年3月28日召开第三届董事会第三十一次会议"),
    ("quote_changed_char", "敬请广大投资者注意投资机会"),
    ("quote_changed_char", "本公司董事会及全体董事保证本公告内容不存在任何虚假记载、误导性陈述或者重大疏漏"),
    ("quote_changed_char", "占当年归属于上市公司股东的净利润的51.09%"),
    ("quote_dropped_char", "本次利润分配方案需提交公司2023年年度股东大会审议通过后方可实施"),
    ("quote_dropped_char", "公司拟向全体股东每10股派发现金红308.76元（含税）"),
    ("quote_dropped_char", "实现营业总收入1,505.60亿元，同比增长18.4%"),
    ("quote_dropped_char", "合计拟派发现金红利387.86元（含税）"),
    ("quote_dropped_char", "审议通过了本次利润分方案"),
    ("quote_dropped_char", "敬请投资者注意投资风险"),
    ("quote_swapped_word", "本次利润分配方案尚需提交公司2023年年度股东大会通过审议后方可实施"),
    ("quote_swapped_word", "公司拟向全体股东每10股派发红利现金308.76元（含税）"),
    ("quote_swapped_word", "实现营业总收入1,505.60亿元，同比增长18.04%；经审计，公司2023年度实现归属于上市公司股东"),
    ("quote_swapped_word", "保证本公告内容不存在任何误导性陈述、虚假记载或者重大遗漏"),
    ("quote_swapped_word", "对其内容的准确性、真实性和完整性承担法律责任"),
    ("quote_swapped_word", "审议通过了本次利润分配方案，公司于2024年3月28日召开第三届董事会第三十次会议"),
    ("quote_changed_number", "公司2023年度实现归属于上市公司股东的净利润757.34亿元"),
    ("quote_changed_number", "同比增长19.61%"),
    ("quote_changed_number", "实现营业总收入1,550.60亿元"),
    ("quote_changed_number", "公司拟向全体股东每10股派发现金红利380.76元（含税）"),
    ("quote_changed_number", "合计拟派发现金红利378.86亿元（含税）"),
    ("quote_changed_number", "公司于2024年3月18日召开第三届董事会第三十次会议"),
    ("quote_inserted_char", "本次利润分配方案尚需提交公司2023年年度股东大会审议通过后方可正式实施"),
    ("quote_inserted_char", "公司拟向全体股东每10股派发现金红利308.76元（含税）整"),
    ("quote_inserted_char", "经审计，公司2023年度实现归属于上市公司股东的净利润约747.34亿元"),
    ("quote_inserted_char", "敬请广大投资者注意二级市场投资风险"),
]  # fmt: skip
SNIPPET_QUOTES = [
    ("公司表示将继续坚持高比例分红政策，持续回报广大投资者", "@snippet"),
    ("公司表示将继续坚持高比例分红政策", "@snippet"),
    ("拟每10股派发现金红利308.76元", "@snippet"),
    ("持续回报广大投资者", "@snippet"),
    ('"last":"1469.00"', "@quote"),
]
SOURCE_MISSING = [
    ("本次利润分配方案尚需提交公司2023年年度股东大会审议通过后方可实施", UNKNOWN_ID),
    ("本次利润分配方案尚需提交公司2023年年度股东大会审议通过后方可实施", ""),
    ("乙银行2023年度实现营业收入1,646.99亿元", "@other_notice"),
    ("公司表示将继续坚持高比例分红政策", "ev-5eed5eed5eed5eed5eed5eed"),
]
UNREGISTERED = [
    "公告称“本次利润分配方案尚需提交股东大会审议通过后方可实施”。",
    "公司表示“将继续坚持高比例分红政策，持续回报广大投资者”。",
    "管理层称「将持续提升分红比例并回报全体股东」。",
    'The company said "it will keep paying out most of its profit".',
    "公告强调『本公司董事会及全体董事保证本公告内容不存在任何虚假记载』。",
]
DISGUISED = [
    "PE为25.9倍。", "MA20为1,500.00元。", "RMB1,470.5 at the close.", "成交量 287346 手。", "收盘1470.50元。",
    "3.9%的涨幅来自估值修复。", "2024-06-28收于1,470.00元。", "贵州茅台（600519）收于1,470.00元。", "T+1后上涨2.5%。",
    "沪深300同期上涨1.2%。", "第3季度营收增长12.5%。", "KDJ(9,3,3)金叉后上涨4.4%。", "区间1,440.00-1,465.00元。",
    "Q3 2024 revenue grew 11.8%.",
]  # fmt: skip

# Numbers a reader could miss: each family writes an ungrounded number in one numeral form. Most are written
# so that a reader blind to the form sees only grounded pieces ("1469\u200b58" as 1469 and 58) or nothing at
# all, which is how a number slips through unchecked. The digit forms use escapes to show what they hide.
NUMERAL_FORMS: dict[str, list[str]] = {
    "number_hidden_invisible": ["目标价1\u200b8\u200b00元。", "目标价1469\u200b58元。", "目标价1462\u200d100元。",
                                "买入1440\u2060100股。"],
    "number_cn_multiplier": ["主力资金净流入两千万。", "北向资金净买入五亿。", "融资余额三千二百万。", "回购两万五。"],
    "number_financial": ["拟派发现金红利壹仟贰佰万元。", "营业收入叁拾亿元。", "净利润三億元。"],
    "number_digit_multiplier": ["主力资金净流入58千万元。", "营收21.86千亿元。", "回购100百万股。"],
    "number_qualifier": ["净利润六十多亿元。", "机构三十余家。", "融资余额100余万元。", "回购金额两千多万。"],
    "number_cheng_zhe": ["上涨概率三成。", "上涨概率三成五。", "以八五折发行。", "打7.83折。"],
    "number_index_points": ["上证3000点附近。", "创业板2000点。", "中证2000点。", "中证1000点。"],
    "number_english_words": ["Net inflow of seven million yuan.", "Revenue grew twenty-seven percent.",
                             "The stock trades at forty times earnings.", "Net profit of one and a half billion."],
    "number_superscript": ["目标价¹⁸⁰⁰元。", "上涨₁₂%。", "目标价₁₈₀₀元。", "上涨⁵%。"],
    "number_glued": ["目标价tp1800。", "估值PE(88)。", "详见https://x.example/p98765.html。", "自由现金流FCF98765。"],
    "number_scientific": ["成交额7.83e10元。", "成交量1.35×10⁸股。", "成交额58e10元。"],
    "number_digit_groups": ["成交量58\u00a0100股。", "目标价100 100元。", "成交量10'100股。"],
    "number_range": ["增速区间8-19.16%。", "涨幅区间10-19.16%。", "亏损区间58-747.34亿元。"],
    "number_fraction": ["仓位三分之一。", "仓位三分之二。", "1/3仓位。"],
}  # fmt: skip
# Numerals the reader cannot read at all: blocked as unreadable (digit groups of mixed widths are also read
# piecewise, so their pieces may be ungrounded too; digits joined by markup render as one number, 146958).
UNREADABLE = [("成交额三百百万元。", True), ("仓位½。", True), ("回购一万万股。", True), ("目标价1,23,456元。", False),
              ("市值1,2345,6789元。", False), ("目标价1469**58元。", True),
              ("目标价1462<b></b>100元。", True)]  # fmt: skip


def number_cases() -> list[dict[str, Any]]:
    cases = text_cases("invented_number", INVENTED)
    for correct, slips in WAN_YI:
        cases += [case("wan_yi_slip", "number_ungrounded", text=slip + "。", correct=correct) for slip in slips]
    cases += [case("rounding_beyond_display", "number_ungrounded", text=t + "。", value=v) for t, v in ROUNDING]
    cases += text_cases("pct_vs_pp", [t + "。" for t in PCT_PP])
    cases += text_cases("unit_slip", [t + "。" for t in UNIT_SLIPS])
    cases += text_cases("sign_slip", [t + "。" for t in SIGNS])
    cases += text_cases("other_run_number", OTHER_RUN_TEXTS)
    cases += text_cases("disguised_number", DISGUISED)
    for name, texts in NUMERAL_FORMS.items():
        cases += text_cases(name, texts)
    cases += [case("number_unreadable", "number_unreadable", only=only, text=t) for t, only in UNREADABLE]
    return cases


def quote_cases() -> list[dict[str, Any]]:
    cases = [case(f, "quote_mismatch", quotes=[{"text": q, "evidence_id": "@notice", "location": "risks"}])
             for f, q in QUOTE_SLIPS]  # fmt: skip
    cases += [case("quote_search_snippet", "quote_not_full_text", quotes=[{"text": q, "evidence_id": e,
                   "location": "analysis"}]) for q, e in SNIPPET_QUOTES]  # fmt: skip
    cases += [case("quote_source_missing", "quote_source_missing", quotes=[{"text": q, "evidence_id": e,
                   "location": "analysis"}]) for q, e in SOURCE_MISSING]  # fmt: skip
    cases += text_cases("quote_unregistered", UNREGISTERED, "quote_unregistered")
    return cases


def evidence_cases() -> list[dict[str, Any]]:
    claims = ["收于1,469.00元", "上涨0.48%", "净利润747.34亿元", "量比1.35倍", "胜率58.62%"]
    cases = [case("evidence_missing", "evidence_missing", add_claims=[{"text": c, "evidence": []}]) for c in claims]
    unknown = [UNKNOWN_ID, "ev-", "quote", "ev-ffffffffffffffffffffffff", "@quote "]
    cases += [case("evidence_unknown", "evidence_unknown", add_claims=[{"text": "收于1,469.00元", "evidence": [u]}])
              for u in unknown]  # fmt: skip
    other = [["@other_quote"], ["@other_notice"], ["@quote", "@other_quote"], ["@other_notice", "@notice"],
             ["@other_quote", "@other_notice"]]  # fmt: skip
    # citing this run's notice as well does not make it ground 0.48%: that case is also number_uncited
    cases += [case("evidence_other_run", "evidence_unknown", only="@notice" not in ids,
                   add_claims=[{"text": "上涨0.48%", "evidence": ids}]) for ids in other]  # fmt: skip
    return cases


def _zones(buy: Any = None, sell: Any = None, stop: str = "1398.00", stop_anchors: Any = None) -> dict[str, Any]:
    return {"zones": {
        "buy": buy or {"low": "1440.00", "high": "1455.00", "anchors": ["box_low", "ma60"]},
        "sell": sell or {"low": "1560.00", "high": "1590.00", "anchors": ["box_high", "prev_high"]},
        "stop": stop, "stop_anchors": ["atr_stop"] if stop_anchors is None else stop_anchors}}  # fmt: skip


def zone_cases() -> list[dict[str, Any]]:
    def band(low: str, high: str, *anchors: str) -> dict[str, Any]:
        return {"low": low, "high": high, "anchors": list(anchors)}

    changes: list[tuple[str, dict[str, Any]]] = [
        ("zone_unanchored", {"buy": band("1440.00", "1455.00")}),
        ("zone_unanchored", {"sell": band("1560.00", "1590.00")}),
        ("zone_unanchored", {"stop_anchors": []}),
        ("zone_anchor_unknown", {"buy": band("1440.00", "1455.00", "box_low", "ma250")}),
        ("zone_anchor_unknown", {"sell": band("1560.00", "1590.00", "fib_618")}),
        ("zone_anchor_unknown", {"stop_anchors": ["atr_stop_2"]}),
        ("zone_anchor_unknown", {"buy": band("1440.00", "1455.00", "support_1", "support_2")}),
        ("zone_off_anchor", {"buy": band("1400.00", "1455.00", "box_low", "ma60")}),
        ("zone_off_anchor", {"buy": band("1440.00", "1500.00", "box_low", "ma60")}),
        ("zone_off_anchor", {"sell": band("1500.00", "1590.00", "box_high", "prev_high")}),
        ("zone_off_anchor", {"sell": band("1560.00", "1650.00", "box_high", "prev_high")}),
        ("zone_off_anchor", {"stop": "1350.00"}),
        ("zone_off_anchor", {"stop": "1430.00"}),
        ("zone_inverted", {"buy": band("1455.00", "1440.00", "box_low", "ma60")}),
        ("zone_inverted", {"sell": band("1590.00", "1560.00", "box_high", "prev_high")}),
        ("zones_overlap", {"buy": band("1440.00", "1480.00", "box_low", "ma60"),
                           "sell": band("1470.00", "1590.00", "ma20", "box_high")}),
        ("zones_overlap", {"buy": band("1445.00", "1478.00", "box_low", "ma20"),
                           "sell": band("1470.00", "1560.00", "ma20", "prev_high")}),
    ]  # fmt: skip
    return [case(code, code, draft=_zones(**change)) for code, change in changes]


def _scenarios(*pairs: tuple[str, str]) -> dict[str, Any]:
    return {"scenarios": [{"name": n, "probability": p, "text": ""} for n, p in pairs]}


def probability_cases() -> list[dict[str, Any]]:
    sums = [("0.27", "0.50", "0.25"), ("0.25", "0.50", "0.20"), ("0.30", "0.50", "0.25"), ("0.22", "0.48", "0.25"),
            ("0.25", "0.45", "0.25")]  # fmt: skip
    off = [("0.35", "0.40", "0.25"), ("0.15", "0.50", "0.35"), ("0.25", "0.60", "0.15"), ("0.40", "0.45", "0.15"),
           ("0.10", "0.55", "0.35")]  # fmt: skip
    names = ("bull", "base", "bear")
    cases = [
        case("probabilities_sum", "probabilities_sum", draft=_scenarios(*zip(names, s, strict=True))) for s in sums
    ]
    cases += [case("probability_off_table", "probability_off_table", draft=_scenarios(*zip(names, s, strict=True)))
              for s in off]  # fmt: skip
    cases += [
        case("probability_range", "probability_range", only=False,
             draft=_scenarios(("bull", "-0.05"), ("base", "0.80"), ("bear", "0.25"))),
        case("probability_range", "probability_range", only=False,
             draft=_scenarios(("bull", "1.20"), ("base", "-0.45"), ("bear", "0.25"))),
        case("scenario_unknown", "scenario_unknown", only=False,
             draft=_scenarios(("boom", "0.25"), ("base", "0.50"), ("bear", "0.25"))),
        case("scenario_unknown", "scenario_unknown", only=False,
             draft=_scenarios(("bull", "0.25"), ("base", "0.50"), ("crash", "0.25"))),
        case("scenario_missing", "scenario_missing", only=False, draft=_scenarios(("bull", "0.50"), ("base", "0.50"))),
        case("scenario_missing", "scenario_missing", only=False, draft=_scenarios(("base", "0.50"), ("bear", "0.25"))),
        case("scenario_duplicate", "scenario_duplicate", only=False,
             draft=_scenarios(("bull", "0.25"), ("base", "0.25"), ("base", "0.25"), ("bear", "0.25"))),
    ]  # fmt: skip
    return cases


def _order(qty: int = 100, price: str = "1455.00", side: str = "buy", action: str = "new",
           account: str = "main") -> dict[str, Any]:  # fmt: skip
    return {"orders": [{"account": account, "symbol": "600519.SH", "side": side, "qty": qty, "price": price,
                        "action": action}]}  # fmt: skip


def order_cases() -> list[dict[str, Any]]:
    gap = {"name": "money_flow", "reason": "资金流向接口本次未返回数据"}
    return [
        *(case("order_off_tick", "price_off_tick", draft=_order(price=p)) for p in ("1455.001", "1455.005", "1455.1234",
                                                                                   "1440.009")),
        *(case("order_lot", "lot_multiple", draft=_order(qty=q)) for q in (150, 250, 310, 101)),
        case("order_lot", "lot_minimum", draft=_order(qty=50)),
        *(case("order_above_sellable", "exceeds_holding", draft=_order(qty=q, price="1560.00", side="sell"))
          for q in (400, 1000, 500)),
        case("order_odd_lot_sell", "odd_lot_sell", draft=_order(qty=250, price="1560.00", side="sell")),
        *(case("order_beyond_cash", "exceeds_cash", draft=_order(qty=q)) for q in (400, 1000, 3500)),
        case("order_beyond_limit", "above_limit_up", draft=_order(price="1620.00")),
        case("order_beyond_limit", "below_limit_down", draft=_order(price="1300.00")),
        *(case("order_with_gaps", "orders_with_gaps", draft={**_order(action=a), "gaps": [gap]})
          for a in ("new", "modify", "keep")),
        case("order_with_gaps", "orders_with_gaps", draft={**_order(qty=200, price="1560.00", side="sell"),
                                                           "gaps": [gap, {"name": "financials", "reason": "未披露"}]}),
        case("order_action_unknown", "order_action_unknown", draft=_order(action="buy")),
        case("order_unchecked", "orders_unchecked", context={"check_order": None}),
        case("order_account_unknown", "account_unknown", draft=_order(account="margin")),
        case("order_qty", "qty_not_positive", draft=_order(qty=0)),
    ]  # fmt: skip


def structure_cases() -> list[dict[str, Any]]:
    required = ["summary", "analysis", "plan", "risks", "disclaimer"]
    cases = [case("section_missing", "section_missing", drop_section=k) for k in required]
    cases += [case("section_missing", "section_missing", blank_section=k) for k in ("summary", "disclaimer")]
    cases += [case("judgment_missing", "judgment_missing", drop_judgment=k)
              for k in ("scene", "diagnosis", "verdict", "plan")]  # fmt: skip
    cases.append(case("judgment_missing", "judgment_missing", blank_judgment="verdict"))
    cases += [case("step_missing", "step_missing", drop_step=s) for s in ("identity", "announcements", "backtest")]
    cases += [case("skip_unexplained", "skip_unexplained", method_step={"step": s, "status": "skipped", "reason": r})
              for s, r in (("money_flow", ""), ("money_flow", "   "), ("valuation", ""))]  # fmt: skip
    cases.append(case("step_status", "step_status", method_step={"step": "bars", "status": "pending", "reason": ""}))
    cases.append(case("risks_missing", "risks_missing", draft={"risks": []}))
    cases += [case("risk_without_evidence", "evidence_missing", add_risks=[{"text": t, "evidence": []}])
              for t in ("估值回落风险", "消费需求不及预期")]  # fmt: skip
    cases += [case("risk_unknown_evidence", "evidence_unknown", add_risks=[{"text": "政策风险", "evidence": [e]}])
              for e in (UNKNOWN_ID, "@other_notice")]  # fmt: skip
    return cases


def other_text_cases() -> list[dict[str, Any]]:
    return [
        case("number_in_title", "number_ungrounded", section_title={"key": "summary", "title": "结论：目标价1,800元"}),
        case("number_in_scenario", "number_ungrounded", draft={"scenarios": [
            {"name": "bull", "probability": "0.25", "text": "乐观情景目标1,750.00元"},
            {"name": "base", "probability": "0.50", "text": ""}, {"name": "bear", "probability": "0.25", "text": ""}]}),
        case("number_in_judgment", "number_ungrounded", judgment={"verdict": "目标涨幅20%"}),
        case("number_in_gap", "number_ungrounded", draft={"gaps": [{"name": "money_flow", "reason": "近7日缺失"}],
                                                          "orders": []}),
        case("number_in_skip_reason", "number_ungrounded",
             method_step={"step": "money_flow", "status": "skipped", "reason": "近45日无资金流向数据"}),
        case("number_in_risk", "number_ungrounded", add_risks=[{"text": "最大回撤达35%", "evidence": ["@quote"]}]),
    ]  # fmt: skip


def all_cases() -> list[dict[str, Any]]:
    cases = number_cases() + quote_cases() + evidence_cases() + zone_cases() + probability_cases()
    cases += order_cases() + structure_cases() + other_text_cases()
    counters: dict[str, int] = {}
    for item in cases:
        counters[item["family"]] = counters.get(item["family"], 0) + 1
        item["id"] = f"{item['family']}-{counters[item['family']]:02d}"
    return [{"id": c.pop("id"), **c} for c in cases]


def world() -> dict[str, Any]:
    return {"run_id": "run-main", "evidence": EVIDENCE, "context": CONTEXT, "draft": DRAFT}


def render() -> tuple[str, str]:
    """The text of world.json and cases.jsonl."""
    cases = "".join(json.dumps(c, ensure_ascii=False, sort_keys=False) + "\n" for c in all_cases())
    return json.dumps(world(), ensure_ascii=False, indent=1) + "\n", cases


def main() -> None:
    world_text, cases_text = render()
    (HERE / "world.json").write_text(world_text, encoding="utf-8")
    (HERE / "cases.jsonl").write_text(cases_text, encoding="utf-8")
    print(f"wrote {cases_text.count(chr(10))} cases")


if __name__ == "__main__":
    main()
