"""No false alarms: drafts written from real evidence of several symbols pass every gate.

Each draft's evidence is real: daily bars of eight community CSV files and eight parquet symbols, stored as
JSON through EvidenceStore; program computations over those bars (returns, averages, percentage-point
differences, ratios, a scenario table from each symbol's own history, zones and order sizing) stored as
computations with explicit units; the recorded service payloads stored as documents (quoted verbatim) and
as the records their parsers produce. The text is written the way reports write numbers: thousands
separators, 万/亿/万亿, %, 个百分点, 倍, English millions and billions, rounded to 0-2 decimals.
"""

from __future__ import annotations

import csv
import dataclasses
import json
from collections.abc import Callable, Iterator
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest

from stockbench.data.providers import eastmoney, tencent
from stockbench.data.records import Bar, Quote
from stockbench.evidence.documents import (
    Claim,
    GateContext,
    MethodStep,
    OrderPlan,
    QuoteRef,
    ReportDraft,
    Risk,
    ScenarioPlan,
    Section,
    ZoneBand,
    ZonePlan,
)
from stockbench.evidence.gates import blocking, run_gates
from stockbench.evidence.store import Evidence, EvidenceStore
from stockbench.market.instruments import parse_symbol
from stockbench.market.lots import board_lot
from tests.conftest import SHARED_DATA
from tests.engine.evidence.conftest import AT, LedgerSnapshot, context, ledger_checker, new_db

pytestmark = pytest.mark.realdata

D = Decimal
CSV_FILES = ["sh600519", "sz000001", "sz300750", "sh688981", "sh600078", "bj832278", "sh601318", "sz000002"]
PARQUET_CODES = ["sh600036", "sz000858", "sh601012", "sz002594", "sh600276", "sz000333", "sh600900", "sz300059"]
SECTIONS = ("summary", "analysis", "plan", "risks", "disclaimer")
JUDGMENTS = ("scene", "diagnosis", "verdict")
STEPS = ("quote", "bars", "zones", "scenarios")
CASH = D("1000000")
DISCLAIMER = "本报告为研究记录，不构成投资建议。"


# ---- formatting as reports write numbers ---------------------------------------------------------


def q(value: Decimal, places: int = 2) -> Decimal:
    return value.quantize(D(1).scaleb(-places), rounding=ROUND_HALF_UP)


def money(value: Decimal, places: int = 2) -> str:
    return f"{q(value, places):,}"


def big(value: Decimal) -> str:
    """12.35亿, 2.63万亿, 358.75万: the largest Chinese unit the value reaches."""
    for unit, size in (("万亿", D(10) ** 12), ("亿", D(10) ** 8)):
        if abs(value) >= size:
            return f"{money(value / size)}{unit}"
    return f"{money(value / 10**4)}万"


def pct(value: Decimal, places: int = 2, signed: bool = False) -> str:
    if signed:
        return f"{'+' if value >= 0 else '-'}{q(abs(value), places)}%"
    return f"{q(abs(value), places)}%"


def rise(value: Decimal) -> str:
    return "上涨" if value >= 0 else "下跌"


# ---- evidence ------------------------------------------------------------------------------------


def calc(expression: str, value: Decimal, unit: str, inputs: dict[str, Any]) -> dict[str, Any]:
    """A computation record in the calc tool's shape: expression, inputs with their paths, value, unit."""
    return {"kind": "calc", "expression": expression, "inputs": inputs, "value": format(q(value, 6), "f"),
            "unit": unit}  # fmt: skip


@dataclasses.dataclass
class Symbol:
    """One symbol's real rows (oldest first) and what the program computes from them."""

    code: str
    name: str
    rows: list[dict[str, str]]  # the last 60 bars as stored
    closes: list[Decimal]  # the whole history, for the scenario table
    line: str = ""  # the raw last line of the community file, when it came from one

    @property
    def symbol(self) -> str:
        return parse_symbol(self.code).symbol

    def column(self, key: str, last: int) -> list[Decimal]:
        return [D(r[key]) for r in self.rows[-last:]]


def _bar_row(raw: dict[str, Any]) -> dict[str, Any]:
    keys = ("open", "high", "low", "close", "prev_close", "volume", "amount", "float_mcap", "total_mcap")
    row = {"day": str(raw["day"]), **{k: str(raw[k]) for k in keys}}
    row["volume"] = int(D(row["volume"]))
    return row


def from_csv(path: Path) -> Symbol:
    text = path.read_text(encoding="utf-8").splitlines()
    names = ["code", "name", "day", "open", "high", "low", "close", "prev_close", "volume", "amount", "float_mcap",
             "total_mcap"]  # fmt: skip
    rows = [dict(zip(names, r, strict=True)) for r in csv.reader(text[2:])]
    closes = [D(r["close"]) for r in rows]
    return Symbol(path.stem, rows[-1]["name"], [_bar_row(r) for r in rows[-60:]], closes, text[-1])


def from_parquet(shared: Path, codes: list[str]) -> list[Symbol]:
    import polars as pl

    frame = pl.scan_parquet(shared / "ashare_daily_2017_2022.parquet").filter(pl.col("code").is_in(codes)).collect()
    found = []
    for code in codes:
        raw = frame.filter(pl.col("code") == code).sort("date").to_dicts()
        rows = [{**r, "day": r["date"].isoformat(), **{k: repr(r[k]) for k in ("open", "high", "low", "close",
                "prev_close", "volume", "amount", "float_mcap", "total_mcap")}} for r in raw]  # fmt: skip
        found.append(Symbol(code, raw[-1]["name"].replace(" ", ""), [_bar_row(r) for r in rows[-60:]],
                            [D(r["close"]) for r in rows]))  # fmt: skip
    return found


@dataclasses.dataclass
class Facts:
    """Evidence of one draft, stored for its run, with the numbers the text is written from."""

    run: str
    ids: dict[str, str]
    values: dict[str, Decimal]
    anchors: dict[str, Decimal]
    table: dict[str, Decimal]
    samples: int


class Recorder:
    """Stores evidence for one run and remembers ids and computed values by name."""

    def __init__(self, store: EvidenceStore, run: str) -> None:
        self.store, self.run = store, run
        self.ids: dict[str, str] = {}
        self.values: dict[str, Decimal] = {}
        self.pending: dict[str, dict[str, Any]] = {}

    def put(self, name: str, kind: str, source: str, body: Any) -> Evidence:
        ev = self.store.put(self.run, kind, source, body, fetched_at=AT, label=name)
        self.ids[name] = ev.evidence_id
        return ev

    def compute(self, name: str, expression: str, value: Decimal, unit: str, source: str = "bars") -> Decimal:
        """A calc over stored evidence; kept until `flush` stores the batch as one computation body."""
        self.pending[name] = calc(expression, value, unit, {"from": self.ids.get(source, source)})
        self.values[name] = q(value, 6)
        return self.values[name]

    def flush(self) -> None:
        ev = self.put(
            "calc", "computation", "calc", {"computations": [{"name": k, **v} for k, v in self.pending.items()]}
        )
        self.ids |= dict.fromkeys(self.pending, ev.evidence_id)
        self.pending = {}


def scenario_table(closes: list[Decimal]) -> tuple[dict[str, Decimal], int]:
    """Frequencies of 5-session moves beyond +/-3% over the symbol's whole history."""
    moves = [b / a - 1 for a, b in zip(closes, closes[5:], strict=False) if a > 0]
    up = q(D(sum(m > D("0.03") for m in moves)) / len(moves))
    down = q(D(sum(m < D("-0.03") for m in moves)) / len(moves))
    return {"up": up, "flat": 1 - up - down, "down": down}, len(moves)


def record_symbol(store: EvidenceStore, s: Symbol, run: str) -> Facts:
    r = Recorder(store, run)
    r.put("bars", "bars", "community-csv" if s.line else "parquet", {"symbol": s.symbol, "bars": s.rows})
    last = s.rows[-1]
    close, prev = D(last["close"]), D(last["prev_close"])
    closes20, vols = s.column("close", 20), s.column("volume", 6)
    r.compute("ret1", "(close / prev_close - 1) * 100", (close / prev - 1) * 100, "pct")
    r.compute("ret5", "(close / close_5 - 1) * 100", (close / D(s.rows[-6]["close"]) - 1) * 100, "pct")
    r.compute("ret20", "(close / close_20 - 1) * 100", (close / D(s.rows[-21]["close"]) - 1) * 100, "pct")
    r.compute("diff", "ret20 - ret5", r.values["ret20"] - r.values["ret5"], "pp", "calc")
    r.compute("ma5", "mean(close, 5)", sum(closes20[-5:]) / 5, "plain")
    r.compute("ma20", "mean(close, 20)", sum(closes20) / 20, "plain")
    r.compute("avg_amount", "mean(amount, 20)", sum(s.column("amount", 20)) / 20, "plain")
    r.compute("avg_volume", "mean(volume, 20)", sum(s.column("volume", 20)) / 20, "plain")
    r.compute("vol_ratio", "volume / mean(volume[-6:-1])", vols[-1] / (sum(vols[:-1]) / 5), "multiple")
    r.compute("amplitude", "(high - low) / prev_close * 100", (D(last["high"]) - D(last["low"])) / prev * 100, "pct")
    low20, high20 = min(s.column("low", 20)), max(s.column("high", 20))
    r.compute("position", "(close - low20) / (high20 - low20)", (close - low20) / (high20 - low20), "fraction")
    r.flush()
    anchors = {"low20": low20, "ma20": q(r.values["ma20"]), "high20": high20, "stop": q(low20 * D("0.95"))}
    r.put("zones", "computation", "analytics.zones", {"anchors": [{"id": k, "price": v} for k, v in anchors.items()]})
    table, samples = scenario_table(s.closes)
    r.put("scenarios", "computation", "analytics.scenarios", {"horizon": 5, "threshold_pct": 3, "samples": samples,
          "items": [{"name": k, "probability": v} for k, v in table.items()]})  # fmt: skip
    r.values |= {"close": close, "low20": low20, "high20": high20}
    return Facts(run, r.ids, r.values, anchors, table, samples)


def order_for(s: Symbol, facts: Facts, store: EvidenceStore) -> OrderPlan:
    price = facts.values["close"]
    minimum, step = board_lot(parse_symbol(s.code)) or (100, 100)
    qty = max(minimum, int(D(200_000) / (price * step)) * step)
    store.put(facts.run, "computation", "analytics.sizing", {"account": "main", "symbol": s.symbol, "side": "buy",
              "qty": qty, "price": price, "cost": price * qty}, fetched_at=AT)  # fmt: skip
    return OrderPlan("main", s.symbol, "buy", qty, price)


# ---- drafts --------------------------------------------------------------------------------------


def zones(facts: Facts) -> ZonePlan:
    a = facts.anchors
    low, high = sorted((a["low20"], a["ma20"]))
    return ZonePlan(ZoneBand(low, high, ("low20", "ma20")), ZoneBand(a["high20"], a["high20"], ("high20",)), a["stop"],
                    ("stop",))  # fmt: skip


def common(s: Symbol, facts: Facts, store: EvidenceStore, sections: list[Section], **extra: Any) -> ReportDraft:
    ids = facts.ids
    order = order_for(s, facts, store)
    t = facts.table
    return ReportDraft(
        facts.run, s.symbol, tuple(sections),
        claims=(Claim(f"收于{money(facts.values['close'])}元", (ids["bars"],)),
                Claim(f"近20日{pct(facts.values['ret20'], signed=True)}", (ids["ret20"], ids["bars"]))),
        risks=(Risk(f"跌破{money(facts.anchors['stop'])}元止损", (ids["zones"],)),
               Risk("量能不足可能导致反弹失败", (ids["vol_ratio"],))),
        zones=zones(facts),
        scenarios=tuple(ScenarioPlan(k, v, f"{k}情景") for k, v in t.items()),
        orders=(order,),
        method=tuple(MethodStep(step, "done") for step in STEPS),
        judgments={"scene": f"{s.name}所在行业", "diagnosis": "趋势与量能", "verdict": "中性"},
        **extra,
    )  # fmt: skip


def plan_text(s: Symbol, facts: Facts, order: OrderPlan, places: int = 2) -> str:
    a, t = facts.anchors, facts.table
    low, high = sorted((a["low20"], a["ma20"]))
    return (f"买入区间{money(low)}-{money(high)}元，卖出参考{money(a['high20'])}元，止损{money(a['stop'])}元。"
            f"计划以{money(order.price)}元买入{order.qty:,}股，约{big(order.price * order.qty)}元。"
            f"情景概率（{facts.samples:,}个样本）：上涨{pct(t['up'] * 100, 0)}，震荡{pct(t['flat'] * 100, 0)}，"
            f"下跌{pct(t['down'] * 100, 0)}。")  # fmt: skip


def sections_of(titles: tuple[str, ...], *texts: str) -> list[Section]:
    return [Section(key, title, text) for key, title, text in zip(SECTIONS, titles, texts, strict=True)]


def chinese(s: Symbol, store: EvidenceStore) -> ReportDraft:
    f = record_symbol(store, s, f"run-{s.code}-cn")
    v, last = f.values, s.rows[-1]
    day = date.fromisoformat(last["day"])
    summary = (
        f"{s.name}（{s.symbol}）{day.year}年{day.month}月{day.day}日收于{money(v['close'])}元，"
        f"{rise(v['ret1'])}{pct(v['ret1'])}，近5日{pct(v['ret5'], signed=True)}，"
        f"近20日{pct(v['ret20'], signed=True)}，两者相差{q(abs(v['diff']))}个百分点。"
    )
    analysis = (
        f"当日成交量{big(D(last['volume']))}股，成交额{big(D(last['amount']))}元，"
        f"量比{q(v['vol_ratio'])}倍，振幅{pct(v['amplitude'])}。20日均线{money(v['ma20'])}元，"
        f"5日均线{money(v['ma5'])}元，总市值{big(D(last['total_mcap']))}元。"
    )
    risks = f"若跌破{money(f.anchors['stop'])}元止损位，计划失效；20日区间下沿{money(v['low20'])}元。"
    plan = plan_text(s, f, order_for(s, f, store))
    texts = sections_of(("结论", "分析", "计划", "风险", "声明"), summary, analysis, plan, risks, DISCLAIMER)
    return common(s, f, store, texts)  # fmt: skip


def english(s: Symbol, store: EvidenceStore) -> ReportDraft:
    f = record_symbol(store, s, f"run-{s.code}-en")
    v, last, a, t = f.values, s.rows[-1], f.anchors, f.table
    day = date.fromisoformat(last["day"])
    order = order_for(s, f, store)
    low, high = sorted((a["low20"], a["ma20"]))
    direction = "up" if v["ret1"] >= 0 else "down"
    summary = (
        f"{s.symbol} closed at RMB {money(v['close'])} on {day:%B} {day.day}, {day.year}, {direction} "
        f"{pct(v['ret1'])} on the day and {pct(v['ret20'], signed=True)} over 20 sessions."
    )
    analysis = (
        f"Volume was {q(D(last['volume']) / 10**6)} million shares and turnover RMB "
        f"{q(D(last['amount']) / 10**9, 2)} billion, {q(v['vol_ratio'])}x the average of the previous 5 "
        f"sessions. The MA20 stands at RMB {money(v['ma20'])}; the stock sits at "
        f"{q(v['position'] * 100, 1)} percent of its 20-day range, and the 20-day return differs from the "
        f"5-day return by {q(abs(v['diff']))} percentage points."
    )
    plan = (
        f"Buy zone RMB {money(low)}-{money(high)}, take profit near RMB {money(a['high20'])}, stop at RMB "
        f"{money(a['stop'])}. Proposed order: buy {order.qty:,} shares at RMB {money(order.price)}, about RMB "
        f"{money(order.price * order.qty)}. Scenario odds from {f.samples:,} samples: up "
        f"{pct(t['up'] * 100, 0)}, flat {pct(t['flat'] * 100, 0)}, down {pct(t['down'] * 100, 0)}."
    )
    risks = f"A close below RMB {money(a['stop'])} invalidates the plan."
    titles = ("Summary", "Analysis", "Plan", "Risks", "Disclaimer")
    return common(s, f, store, sections_of(titles, summary, analysis, plan, risks, "Research, not investment advice."))


def levels(s: Symbol, store: EvidenceStore) -> ReportDraft:
    f = record_symbol(store, s, f"run-{s.code}-levels")
    v, last = f.values, s.rows[-1]
    order = order_for(s, f, store)
    quotes: tuple[QuoteRef, ...] = ()
    quoted = ""
    if s.line:
        doc = store.put(f.run, "document", f"ashare_full/{s.code}.csv", s.line, fetched_at=AT)
        segment = ",".join(s.line.split(",")[:6])
        quotes = (QuoteRef(segment, doc.evidence_id, "analysis"),)
        quoted = f"导入记录为“{segment}”。"
    higher = "高" if v["diff"] >= 0 else "低"
    summary = (
        f"{s.name}最新收盘{money(v['close'])}元（{last['day']}），位于近20日区间的"
        f"{pct(v['position'] * 100, 1)}分位；区间上沿{money(v['high20'])}元，下沿{money(v['low20'])}元。"
    )
    analysis = (
        f"近20日累计{rise(v['ret20'])}{pct(v['ret20'], 1)}，较近5日{higher}{q(abs(v['diff']), 1)}个百分点；"
        f"20日日均成交额{big(v['avg_amount'])}元，日均成交量{big(v['avg_volume'])}股。{quoted}"
    )
    risks = f"止损{money(f.anchors['stop'])}元；量比{q(v['vol_ratio'], 1)}倍。"
    titles = ("结论", "分析", "计划", "风险", "声明")
    sections = sections_of(titles, summary, analysis, plan_text(s, f, order), risks, DISCLAIMER)
    return common(s, f, store, sections, quotes=quotes)


# ---- drafts from the recorded service payloads -----------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Payload:
    """A recorded service answer: its parsed record, the raw text stored as a document, and what a report says."""

    run: str
    record: Quote | list[Bar]
    doc: Evidence
    quote: str  # a verbatim span of the raw text
    summary: str
    calcs: dict[str, tuple[str, Decimal, str]]


def payload_draft(store: EvidenceStore, p: Payload) -> ReportDraft:
    recorder = Recorder(store, p.run)
    if isinstance(p.record, Quote):
        symbol, kind, body = p.record.symbol, "quote", dataclasses.asdict(p.record)
    else:
        symbol, kind, body = p.record[-1].symbol, "bars", {"bars": [dataclasses.asdict(b) for b in p.record]}
    parsed = recorder.put("parsed", kind, p.doc.source, body)
    for name, (expression, value, unit) in p.calcs.items():
        recorder.compute(name, expression, value, unit, "parsed")
    recorder.flush()
    skipped = "仅有服务原始记录，本次不计算区间与情景"
    texts = (p.summary, f"服务返回原文：“{p.quote}”。", "不提出订单。", "单一数据源，未交叉核对。", DISCLAIMER)
    return ReportDraft(
        p.run, symbol, tuple(sections_of(("结论", "原文", "计划", "风险", "声明"), *texts)),
        claims=(Claim(p.summary, (parsed.evidence_id, p.doc.evidence_id, recorder.ids["calc"])),),
        risks=(Risk("单一数据源", (p.doc.evidence_id,)),),
        quotes=(QuoteRef(p.quote, p.doc.evidence_id, "analysis"),),
        method=(MethodStep("quote", "done"), MethodStep("bars", "done"), MethodStep("zones", "skipped", skipped),
                MethodStep("scenarios", "skipped", skipped)),
        judgments={"scene": "原始记录", "diagnosis": "单日行情", "verdict": "不评级"},
    )  # fmt: skip


def change(last: Decimal, prev: Decimal) -> tuple[str, Decimal, str]:
    return "(last / prev_close - 1) * 100", (last / prev - 1) * 100, "pct"


def tencent_quote_drafts(store: EvidenceStore, shared: Path) -> Iterator[ReportDraft]:
    for name, symbols in (("tencent_qt_sh600000_2019-10-11.txt", ["600000.SH"]),
                          ("tencent_qt_2026-09-30.txt", ["00700.HK", "09988.HK", "00005.HK", "AAPL.US"])):  # fmt: skip
        text = (shared / "payloads" / name).read_text(encoding="utf-8")
        wanted = {tencent.tencent_code(parse_symbol(s)): parse_symbol(s) for s in symbols}
        for quote in tencent.parse_quotes(text, wanted):
            assert quote.name and quote.amount is not None
            run = f"run-{name}-{quote.symbol}"
            doc = store.put(run, "document", "qt.gtimg.cn", text, fetched_at=AT)
            start = text.index(f"~{quote.name}~") + 1
            segment = text[start : start + 30].rsplit("~", 1)[0]
            cur, unit = {"CNY": ("", "元"), "HKD": ("HK$", "港元"), "USD": ("US$", "美元")}[quote.currency or "CNY"]
            ret = q((quote.last / quote.prev_close - 1) * 100, 6)
            at = quote.at.date()
            summary = (f"{quote.name}（{quote.symbol}）{at.year}年{at.month}月{at.day}日收于{cur}{money(quote.last)}，"
                       f"较昨收{cur}{money(quote.prev_close)}{rise(ret)}{pct(ret)}，"
                       f"成交额{big(quote.amount)}{unit}。")  # fmt: skip
            calcs = {"ret": change(quote.last, quote.prev_close)}
            yield payload_draft(store, Payload(run, quote, doc, segment, summary, calcs))


def kline_drafts(store: EvidenceStore, shared: Path) -> Iterator[ReportDraft]:
    text = (shared / "payloads" / "eastmoney_kline_601872.json").read_text(encoding="utf-8")
    bars = eastmoney.parse_kline_rows(json.loads(text), parse_symbol("601872.SH"))
    last, prev = bars[-1], bars[-2]
    assert last.amount is not None and last.turnover_pct is not None
    doc = store.put("run-em-601872", "document", "push2his.eastmoney.com", text, fetched_at=AT)
    row = json.loads(text)["data"]["klines"][-1]
    summary = (f"招商轮船（601872.SH）2024年12月31日收于{money(last.close)}元，{rise(last.close - prev.close)}"
               f"{pct((last.close / prev.close - 1) * 100)}，换手率{pct(last.turnover_pct)}，"
               f"成交额{big(last.amount)}元；近10日最高{money(max(b.high for b in bars))}元，"
               f"最低{money(min(b.low for b in bars))}元。")  # fmt: skip
    calcs = {"ret": change(last.close, prev.close)}
    yield payload_draft(store, Payload("run-em-601872", bars, doc, row, summary, calcs))
    text = (shared / "payloads" / "tencent_kline_sh600601.json").read_text(encoding="utf-8")
    day1, day2 = tencent.parse_daily_bars(json.loads(text), parse_symbol("600601.SH"), "sh600601")
    doc = store.put("run-tx-600601", "document", "web.ifzq.gtimg.cn", text, fetched_at=AT)
    row = json.dumps(json.loads(text)["data"]["sh600601"]["day"][-1], separators=(",", ":"))
    summary = (f"600601.SH于2023年1月20日收于{money(day2.close)}元，较前一日{rise(day2.close - day1.close)}"
               f"{pct((day2.close / day1.close - 1) * 100)}，成交量{big(D(day2.volume))}股。")  # fmt: skip
    calcs = {"ret": change(day2.close, day1.close)}
    yield payload_draft(store, Payload("run-tx-600601", [day1, day2], doc, row, summary, calcs))


# ---- the test ------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Built:
    draft: ReportDraft
    ctx: GateContext


def context_for(store: EvidenceStore, draft: ReportDraft) -> GateContext:
    evidence = store.for_run(draft.run_id)
    anchors: dict[str, Decimal] = {}
    table: dict[str, Decimal] = {}
    for ev in evidence:
        if ev.label == "zones":
            anchors = {a["id"]: D(a["price"]) for a in ev.json()["anchors"]}
        if ev.label == "scenarios":
            table = {item["name"]: D(item["probability"]) for item in ev.json()["items"]}
    refs = {o.symbol: o.price for o in draft.orders}  # the order is placed at the last close, the next day's reference
    check = ledger_checker(LedgerSnapshot({"main": CASH}), date(2022, 1, 17), refs)
    return context(draft.run_id, evidence, sections=SECTIONS, judgments=JUDGMENTS, steps=STEPS, anchors=anchors,
                   calibrated=table, check=check)  # fmt: skip


def build_all() -> dict[str, Built]:
    store = EvidenceStore(new_db())
    symbols = [from_csv(SHARED_DATA / "ashare_full" / f"{code}.csv") for code in CSV_FILES]
    symbols += from_parquet(SHARED_DATA, PARQUET_CODES)
    writers: list[Callable[[Symbol, EvidenceStore], ReportDraft]] = [chinese, english, levels]
    drafts = [write(s, store) for s in symbols for write in writers]
    drafts += [*tencent_quote_drafts(store, SHARED_DATA), *kline_drafts(store, SHARED_DATA)]
    return {d.run_id: Built(d, context_for(store, d)) for d in drafts}


@pytest.fixture(scope="module")
def built() -> dict[str, Built]:
    """Every draft and its context, built once (the tests also take `shared_data`, which skips without the data)."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real data not available: {SHARED_DATA} is absent (it ships beside the repository in CI)")
    return build_all()


RUNS = [f"run-{c}-{style}" for c in CSV_FILES + PARQUET_CODES for style in ("cn", "en", "levels")] + [
    "run-tencent_qt_sh600000_2019-10-11.txt-600000.SH",
    *(f"run-tencent_qt_2026-09-30.txt-{s}" for s in ("00700.HK", "09988.HK", "00005.HK", "AAPL.US")),
    "run-em-601872",
    "run-tx-600601",
]


def test_there_are_at_least_fifty_drafts_of_several_symbols(shared_data: Path, built: dict[str, Built]) -> None:
    assert sorted(built) == sorted(RUNS) and len(RUNS) >= 50
    assert len({b.draft.symbol for b in built.values()}) >= 16


@pytest.mark.parametrize("run", RUNS)
def test_the_draft_passes_every_gate(shared_data: Path, built: dict[str, Built], run: str) -> None:
    found = blocking(run_gates(built[run].draft, built[run].ctx))
    assert found == [], "\n".join(f"{p.code} {p.location}: {p.message} | {p.fix}" for p in found)


def test_the_drafts_are_full_of_numbers(shared_data: Path, built: dict[str, Built]) -> None:
    from stockbench.evidence.numbers import extract_numbers

    counts = [sum(len(extract_numbers(s.text)) for s in b.draft.sections) for b in built.values()]
    assert min(counts) >= 4 and sum(counts) >= 800


def test_the_drafts_are_blocked_once_a_number_slips(shared_data: Path, built: dict[str, Built]) -> None:
    """The same drafts fail when one displayed price slips by a factor of ten: the pass above is not vacuous."""
    for run in RUNS[:48]:
        draft, ctx = built[run].draft, built[run].ctx
        assert draft.zones is not None and draft.zones.sell is not None
        shown = money(draft.zones.sell.low)
        text = draft.sections[2].text
        slipped = text.replace(shown, money(draft.zones.sell.low * 10), 1)
        assert slipped != text
        sections = (*draft.sections[:2], dataclasses.replace(draft.sections[2], text=slipped), *draft.sections[3:])
        codes = {p.code for p in blocking(run_gates(dataclasses.replace(draft, sections=sections), ctx))}
        assert codes == {"number_ungrounded"}, run
