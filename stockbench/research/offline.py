"""The offline rules model: the same interface as an LLM, no network, fully deterministic.

It reads the conversation it is given (the program's FACTS blocks, the current STAGE instruction, earlier
tool results) and answers with tool calls: the scene from rule defaults; BULL and BEAR arguments, the
diagnosis and the verdict from the program's states, backtest and baseline; judgments through the same
tools and gates as any model. Every number it writes is copied from a facts value and cites that block's
evidence, so its reports pass the number gate by construction, and they say they were produced without an LLM.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

from stockbench.research.blocks import AnalyticsFacts, PreviousReport, RunFacts, ZonesFact
from stockbench.research.conversation import current_stage, read_facts, tool_results
from stockbench.research.models import BasePort, Call, Reply

LABEL = "离线规则模型（未使用大语言模型）"
_UNTRUSTED = re.compile(r"<<<UNTRUSTED (?P<tag>ev-[0-9a-f]+ [0-9a-f]+)>>>\n(?P<body>.*?)\n<<<END UNTRUSTED (?P=tag)>>>",
                        re.DOTALL)  # fmt: skip
POSITIVE = frozenset({"strong_up", "up", "inflow", "leading", "low"})
NEGATIVE = frozenset({"strong_down", "down", "outflow", "lagging", "high", "extreme"})
ACTIONS = frozenset({"buy", "add", "hold", "reduce", "sell", "avoid"})
Answer = tuple[str, dict[str, Any]]


def _unwrapped(text: str) -> str:
    """The text between an untrusted block's delimiters (the program hands quote candidates over that way)."""
    match = _UNTRUSTED.search(text)
    return match["body"] if match else text


def _cite(text: str, *evidence: str | None) -> dict[str, Any]:
    return {"text": text, "evidence": [e for e in evidence if e]}


class OfflineModel(BasePort):
    """Deterministic tool calls from the program's own results."""

    name = "offline"
    offline = True

    def complete(self, request: str, *, ceiling_left: Decimal | None) -> tuple[str, Decimal | None]:
        data = json.loads(request)
        messages: list[dict[str, Any]] = data["messages"]
        reply = self.answer(messages)
        return reply.to_json(), Decimal(0)

    def builders(self) -> Mapping[str, Callable[[RunFacts, dict[str, Any], dict[str, Any]], Answer]]:
        """The answer of each stage this model knows (a subclass adds its own)."""
        return {
            "scene": self._scene,
            "bull": lambda facts, spec, last: self._side(facts, "bull"),
            "bear": lambda facts, spec, last: self._side(facts, "bear"),
            "analyze": self._analyze,
            "decide": self._decide,
            "report": self._report,
            "publish_fix": self._report,
        }

    def answer(self, messages: list[dict[str, Any]]) -> Reply:
        stage = current_stage(messages)
        if stage is None:
            return Reply("", ())
        name, spec = stage
        facts = RunFacts.of(read_facts(messages))
        previous = [r for n, r in tool_results(messages) if n.startswith("submit_")]
        last = previous[-1] if previous else {}
        turn = sum(1 for m in messages if m.get("role") == "assistant")
        builder = self.builders().get(name)
        if builder is None:
            return Reply(f"{LABEL}: no rule for stage {name}", ())
        tool, arguments = builder(facts, spec, last)
        return Reply(
            "",
            (Call(f"call_{turn + 1}", tool, json.dumps(arguments, ensure_ascii=False), arguments, None),),
            model="offline",
        )

    # ---- stages ------------------------------------------------------------------------------------
    def _scene(self, facts: RunFacts, spec: dict[str, Any], last: dict[str, Any]) -> Answer:
        prepare = facts.prepare
        assert prepare is not None
        inst = prepare.instrument
        reading = [a.id for a in prepare.announcements if a.thesis_level][:3]
        reading += [a.id for a in prepare.announcements if a.id not in reading][: 3 - len(reading)]
        sector = prepare.sector_default or (prepare.sector_candidates or (inst.symbol,))[0]
        return "submit_scene", {
            "sector_index": sector,
            "overseas_bound": inst.market == "HK",
            "international_anchors": list(prepare.anchor_defaults),
            "peers": list(prepare.peer_candidates[:3]),
            "search_terms": [],
            "announcements_to_read": reading,
            "rationale": _cite(f"按规则默认：{inst.name or inst.symbol}所属板块指数取自标的资料。", inst.evidence_id),
        }

    @staticmethod
    def _arguments(analytics: AnalyticsFacts, side: str) -> list[dict[str, Any]]:
        states = analytics.states
        ev_states = states.evidence_id if states else None
        wanted = POSITIVE if side == "bull" else NEGATIVE
        found = [
            _cite(f"{name} 状态为 {state.state}（规则表 {state.table} {state.version}）", ev_states)
            for name, state in (states.named() if states else ())
            if state.state in wanted
        ]
        backtest = analytics.backtest
        h20 = backtest.horizons.get("20") if backtest else None
        if backtest is not None and h20 is not None and h20.ev_pct is not None and (h20.ev_pct > 0) == (side == "bull"):
            found.append(_cite(f"回测：20个交易日期望收益 {h20.ev_pct}%，样本 {h20.fires} 次", backtest.evidence_id))
        zones = analytics.zones
        places = {"below_buy", "in_buy"} if side == "bull" else {"in_sell", "above_sell", "stop_hit"}
        if zones is not None and zones.position in places:
            found.append(_cite(f"价格位置：{zones.position}", zones.evidence_id))
        if not found:
            found.append(_cite(f"规则表未给出明确的{'看多' if side == 'bull' else '看空'}信号", ev_states))
        return found

    def _side(self, facts: RunFacts, side: str) -> Answer:
        return "submit_arguments", {
            "side": side,
            "arguments": self._arguments(facts.analytics or AnalyticsFacts(), side),
        }

    def _analyze(self, facts: RunFacts, spec: dict[str, Any], last: dict[str, Any]) -> Answer:
        analytics = facts.analytics or AnalyticsFacts()
        states = analytics.states
        ev = states.evidence_id if states else None
        trend = (states.trend.state if states else None) or "unknown"
        capital = (states.capital.state if states else None) or "unknown"
        baseline = analytics.baseline
        direction = baseline.direction if baseline else "hold"
        chain = [
            _cite(f"均线排列与斜率 → 趋势状态 {trend}", ev),
            _cite(f"资金流向 → 资金状态 {capital}", ev),
            _cite(f"趋势、资金、回测与估值合成 → 程序基线方向 {direction}", baseline.evidence_id if baseline else None),
        ]
        documents = facts.collect.documents if facts.collect else ()
        quotes = [{"text": _unwrapped(d.quote), "evidence_id": d.evidence_id} for d in documents if d.quote]
        return "submit_diagnosis", {
            "summary": f"{LABEL}：趋势 {trend}，资金 {capital}，基线方向 {direction}。",
            "causal_chain": chain,
            "claims": [],
            "quotes": quotes[:2],
        }

    def _decide(self, facts: RunFacts, spec: dict[str, Any], last: dict[str, Any]) -> Answer:
        analytics = facts.analytics or AnalyticsFacts()
        prepare = facts.prepare
        assert prepare is not None
        debate = facts.raw.get("debate", {})
        bear = list((debate.get("bear") or {}).get("arguments", []))
        bull = list((debate.get("bull") or {}).get("arguments", []))
        baseline = analytics.baseline
        direction = baseline.direction if baseline else "hold"
        ev_base = baseline.evidence_id if baseline else None
        states_ev = analytics.states.evidence_id if analytics.states else None
        verdict = {
            "strongest_case_for_selling": dict(bear[0]) if bear else _cite("看空方没有给出有证据的论点", ev_base),
            "most_likely_wrong": _cite("若趋势状态反转，基于趋势的判断最可能出错", states_ev),
            "conflicting_evidence": dict(bull[0]) if bull and bear else _cite("多空论点没有直接冲突", ev_base),
            "opposition_overturns": False,
            "explanation": _cite(f"程序基线方向为 {direction}，反方论点不足以推翻", ev_base),
        }
        scenarios = analytics.scenarios
        action = direction if direction in ACTIONS else "hold"
        judgments: dict[str, Any] = {
            "risks": [dict(a) for a in bear] or [_cite("规则表未发现显著风险信号，但任何判断都可能出错", ev_base)],
            "debate_verdict": verdict,
            "position_state": self._position_state(analytics, action),
            "zones": {"accept_program_zones": True, "reason": "区间由程序按锚点计算"},
            "scenarios": [
                {"name": s.name, "probability": format(s.probability, "f"), "narrative": s.description or s.name}
                for s in (scenarios.items if scenarios else ())
            ],
            "continuity": self._continuity(prepare.previous_report, analytics.zones),
            "paths": self._paths(analytics.zones),
            "open_orders": self._open_orders(facts),
            "action": {"action": action, "why": _cite(f"与程序基线一致：{direction}", ev_base)},
        }
        if prepare.gaps:
            judgments["gaps"] = [
                {"gap": g, "disclosure": f"数据缺口：{g}，相关结论置信度降低，报告不附可执行订单"} for g in prepare.gaps
            ]
        if last.get("accepted") is False:
            judgments = self._repair(judgments, last)
        return "submit_judgments", judgments

    @staticmethod
    def _open_orders(facts: RunFacts) -> list[dict[str, Any]]:
        zones = facts.zones
        found = []
        for order in facts.open_orders:
            inside = zones is not None and zones.band(order.side).holds(order.price)
            found.append(
                {
                    "order_id": order.order_id,
                    "decision": "KEEP" if inside else "CANCEL",
                    "new_price": None,
                    "reason": "在新区间内" if inside else "不在新区间内",
                }
            )
        return found

    @staticmethod
    def _position_state(analytics: AnalyticsFacts, action: str) -> str:
        """The program's suggestion when the action acts on it; otherwise stay put (watching when flat)."""
        state = analytics.position_state
        allowed = list(state.allowed) if state and state.allowed else ["watching"]
        suggested = state.suggested if state else None
        acting = {"building": {"buy", "add"}, "reducing": {"reduce", "sell"}, "exited": {"sell"}}
        if suggested in allowed and action in acting.get(str(suggested), {action}):
            return str(suggested)
        current = state.current if state else None
        if current in {"no_position", "exited"} and "watching" in allowed:
            return "watching"
        return str(current) if current in allowed else allowed[0]

    @staticmethod
    def _repair(judgments: dict[str, Any], last: dict[str, Any]) -> dict[str, Any]:
        """Drop the judgments a rejection names, keeping the rest, so the offline model never loops."""
        bad = {str(p.get("location", "")).split("[")[0].split(".")[0] for p in last.get("problems", [])}
        return {k: v for k, v in judgments.items() if k not in bad} or judgments

    @staticmethod
    def _continuity(previous: PreviousReport | None, zones: ZonesFact | None) -> dict[str, Any]:
        if previous is None:
            return {
                "old_plan": "没有以往报告",
                "what_happened": "首次分析",
                "what_changed": "不适用",
                "what_to_do": "按本次区间执行",
                "evidence": [],
            }
        position = zones.position if zones and zones.position else "unknown"
        return {
            "old_plan": f"上次报告 {previous.report_id} 的操作为 {previous.action}",
            "what_happened": f"价格位置现为 {position}",
            "what_changed": "以本次程序重新计算的区间为准"
            if previous.crossed is False
            else "价格已穿越旧区间，旧计划失效",
            "what_to_do": "按新区间执行",
            "evidence": [e for e in (previous.evidence_id, zones.evidence_id if zones else None) if e],
        }

    @staticmethod
    def _paths(zones: ZonesFact | None) -> list[dict[str, Any]]:
        if zones is None:
            return [{"trigger": "区间数据缺失", "action": "观望"}]
        paths = [
            {"trigger": f"价格进入买入区间 {zones.buy.low}-{zones.buy.high}", "action": "按计划分批买入"},
            {"trigger": f"价格进入卖出区间 {zones.sell.low}-{zones.sell.high}", "action": "分批卖出"},
        ]
        if zones.stop.price is not None:
            paths.append({"trigger": f"收盘跌破止损位 {zones.stop.price}", "action": "止损离场"})
        return paths

    def _report(self, facts: RunFacts, spec: dict[str, Any], last: dict[str, Any]) -> Answer:
        prepare = facts.prepare
        assert prepare is not None
        inst = prepare.instrument
        baseline = facts.analytics.baseline if facts.analytics else None
        zones = facts.zones
        action = baseline.direction if baseline else "hold"
        watch = f"买入区间 {zones.buy.low}-{zones.buy.high}" if zones else "区间变化"
        return "submit_report", {
            "title": f"{inst.name or inst.symbol}：{action}（{LABEL}）",
            "conclusion": f"{LABEL}按程序基线给出 {action}；所有价格与数量由程序计算。",
            "what_to_do_now": f"{action}，按程序区间与仓位执行",
            "what_would_change_my_mind": "趋势或资金状态反转、跌破止损位",
            "what_to_watch": watch,
        }
