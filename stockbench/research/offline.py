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
from decimal import Decimal
from typing import Any

from stockbench.research.conversation import current_stage, read_facts, tool_results
from stockbench.research.models import BasePort, Call, Reply

LABEL = "离线规则模型（未使用大语言模型）"
_UNTRUSTED = re.compile(r"<<<UNTRUSTED (?P<tag>ev-[0-9a-f]+ [0-9a-f]+)>>>\n(?P<body>.*?)\n<<<END UNTRUSTED (?P=tag)>>>",
                        re.DOTALL)  # fmt: skip
DIRECTION_ACTION = {"buy": "buy", "add": "add", "hold": "hold", "reduce": "reduce", "sell": "sell", "avoid": "avoid"}


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

    def answer(self, messages: list[dict[str, Any]]) -> Reply:
        stage = current_stage(messages)
        if stage is None:
            return Reply("", ())
        name, spec = stage
        facts = read_facts(messages)
        previous = [r for n, r in tool_results(messages) if n.startswith("submit_")]
        last = previous[-1] if previous else {}
        turn = sum(1 for m in messages if m.get("role") == "assistant")
        builder = getattr(self, f"_{name}", None)
        if builder is None:
            return Reply(f"{LABEL}: no rule for stage {name}", ())
        tool, arguments = builder(facts, spec, last)
        return Reply(
            "",
            (Call(f"call_{turn + 1}", tool, json.dumps(arguments, ensure_ascii=False), arguments, None),),
            model="offline",
        )

    # ---- stages ------------------------------------------------------------------------------------
    def _scene(self, facts: dict[str, Any], spec: dict[str, Any], last: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        prepare = facts["prepare"]
        inst = prepare["instrument"]
        reading = [a["id"] for a in prepare.get("announcements", []) if a.get("thesis_level")][:3]
        reading += [a["id"] for a in prepare.get("announcements", []) if a["id"] not in reading][: 3 - len(reading)]
        return "submit_scene", {
            "sector_index": prepare.get("sector_default") or (prepare.get("sector_candidates") or [inst["symbol"]])[0],
            "overseas_bound": inst.get("market") == "HK",
            "international_anchors": prepare.get("anchor_defaults", []),
            "peers": prepare.get("peer_candidates", [])[:3],
            "search_terms": [],
            "announcements_to_read": reading,
            "rationale": _cite(
                f"按规则默认：{inst.get('name') or inst['symbol']}所属板块指数取自标的资料。", inst.get("evidence_id")
            ),
        }

    def _arguments(self, facts: dict[str, Any], side: str) -> list[dict[str, Any]]:
        analytics = facts.get("analytics", {})
        states = analytics.get("states", {})
        ev_states = states.get("evidence_id")
        positive = {"strong_up", "up", "inflow", "leading", "low"}
        negative = {"strong_down", "down", "outflow", "lagging", "high", "extreme"}
        wanted = positive if side == "bull" else negative
        found = []
        for name in ("trend", "capital", "relative_strength", "volatility"):
            state = states.get(name, {})
            if state.get("state") in wanted:
                found.append(
                    _cite(
                        f"{name} 状态为 {state['state']}（规则表 {state.get('table')} {state.get('version')}）",
                        ev_states,
                    )
                )
        bt = analytics.get("backtest", {})
        h20 = bt.get("horizons", {}).get("20", {})
        if h20.get("ev_pct") is not None:
            ev = Decimal(str(h20["ev_pct"]))
            if (ev > 0) == (side == "bull"):
                found.append(
                    _cite(
                        f"回测：20个交易日期望收益 {h20['ev_pct']}%，样本 {h20.get('fires')} 次", bt.get("evidence_id")
                    )
                )
        zones = analytics.get("zones", {})
        if zones.get("position") in (
            {"below_buy", "in_buy"} if side == "bull" else {"in_sell", "above_sell", "stop_hit"}
        ):
            found.append(_cite(f"价格位置：{zones['position']}", zones.get("evidence_id")))
        if not found:
            found.append(_cite(f"规则表未给出明确的{'看多' if side == 'bull' else '看空'}信号", ev_states))
        return found

    def _bull(self, facts: dict[str, Any], spec: dict[str, Any], last: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return "submit_arguments", {"side": "bull", "arguments": self._arguments(facts, "bull")}

    def _bear(self, facts: dict[str, Any], spec: dict[str, Any], last: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return "submit_arguments", {"side": "bear", "arguments": self._arguments(facts, "bear")}

    def _analyze(self, facts: dict[str, Any], spec: dict[str, Any], last: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        analytics = facts.get("analytics", {})
        states = analytics.get("states", {})
        ev = states.get("evidence_id")
        trend = states.get("trend", {}).get("state", "unknown")
        capital = states.get("capital", {}).get("state", "unknown")
        chain = [
            _cite(f"均线排列与斜率 → 趋势状态 {trend}", ev),
            _cite(f"资金流向 → 资金状态 {capital}", ev),
        ]
        baseline = analytics.get("baseline", {})
        chain.append(
            _cite(
                f"趋势、资金、回测与估值合成 → 程序基线方向 {baseline.get('direction', 'hold')}",
                baseline.get("evidence_id"),
            )
        )
        quotes = []
        for document in facts.get("collect", {}).get("documents", []):
            if document.get("quote"):
                quotes.append({"text": _unwrapped(document["quote"]), "evidence_id": document["evidence_id"]})
        return "submit_diagnosis", {
            "summary": f"{LABEL}：趋势 {trend}，资金 {capital}，基线方向 {baseline.get('direction', 'hold')}。",
            "causal_chain": chain,
            "claims": [],
            "quotes": quotes[:2],
        }

    def _decide(self, facts: dict[str, Any], spec: dict[str, Any], last: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        analytics = facts.get("analytics", {})
        prepare = facts["prepare"]
        debate = facts.get("debate", {})
        bear = debate.get("bear", {}).get("arguments", [])
        bull = debate.get("bull", {}).get("arguments", [])
        baseline = analytics.get("baseline", {})
        ev_base = baseline.get("evidence_id")
        zones = analytics.get("zones", {})
        risks = [dict(a) for a in bear] or [_cite("规则表未发现显著风险信号，但任何判断都可能出错", ev_base)]
        verdict = {
            "strongest_case_for_selling": dict(bear[0]) if bear else _cite("看空方没有给出有证据的论点", ev_base),
            "most_likely_wrong": _cite(
                "若趋势状态反转，基于趋势的判断最可能出错", analytics.get("states", {}).get("evidence_id")
            ),
            "conflicting_evidence": dict(bull[0]) if bull and bear else _cite("多空论点没有直接冲突", ev_base),
            "opposition_overturns": False,
            "explanation": _cite(f"程序基线方向为 {baseline.get('direction', 'hold')}，反方论点不足以推翻", ev_base),
        }
        scenarios = [
            {"name": s["name"], "probability": s["probability"], "narrative": s.get("description", s["name"])}
            for s in analytics.get("scenarios", {}).get("items", [])
        ]
        previous = prepare.get("previous_report")
        continuity = self._continuity(previous, zones)
        paths = self._paths(zones)
        open_orders = []
        for order in prepare.get("ledger", {}).get("open_orders", []):
            band = zones.get("buy" if order["side"] == "buy" else "sell") or {}
            inside = band and Decimal(band["low"]) <= Decimal(order["price"]) <= Decimal(band["high"])
            open_orders.append(
                {
                    "order_id": order["order_id"],
                    "decision": "KEEP" if inside else "CANCEL",
                    "new_price": None,
                    "reason": "在新区间内" if inside else "不在新区间内",
                }
            )
        action = DIRECTION_ACTION.get(baseline.get("direction", "hold"), "hold")
        state = analytics.get("position_state", {})
        judgments: dict[str, Any] = {
            "risks": risks,
            "debate_verdict": verdict,
            "position_state": self._position_state(state, action),
            "zones": {"accept_program_zones": True, "reason": "区间由程序按锚点计算"},
            "scenarios": scenarios,
            "continuity": continuity,
            "paths": paths,
            "open_orders": open_orders,
            "action": {"action": action, "why": _cite(f"与程序基线一致：{baseline.get('direction', 'hold')}", ev_base)},
        }
        if prepare.get("gaps"):
            judgments["gaps"] = [
                {"gap": g, "disclosure": f"数据缺口：{g}，相关结论置信度降低，报告不附可执行订单"}
                for g in prepare["gaps"]
            ]
        if last.get("accepted") is False:
            judgments = self._repair(judgments, last)
        return "submit_judgments", judgments

    @staticmethod
    def _position_state(state: dict[str, Any], action: str) -> str:
        """The program's suggestion when the action acts on it; otherwise stay put (watching when flat)."""
        allowed = state.get("allowed") or ["watching"]
        suggested = state.get("suggested")
        acting = {"building": {"buy", "add"}, "reducing": {"reduce", "sell"}, "exited": {"sell"}}
        if suggested in allowed and action in acting.get(str(suggested), {action}):
            return str(suggested)
        current = state.get("current")
        if current in {"no_position", "exited"} and "watching" in allowed:
            return "watching"
        return str(current) if current in allowed else allowed[0]

    @staticmethod
    def _repair(judgments: dict[str, Any], last: dict[str, Any]) -> dict[str, Any]:
        """Drop the judgments a rejection names, keeping the rest, so the offline model never loops."""
        bad = {str(p.get("location", "")).split("[")[0].split(".")[0] for p in last.get("problems", [])}
        return {k: v for k, v in judgments.items() if k not in bad} or judgments

    @staticmethod
    def _continuity(previous: dict[str, Any] | None, zones: dict[str, Any]) -> dict[str, Any]:
        if not previous:
            return {
                "old_plan": "没有以往报告",
                "what_happened": "首次分析",
                "what_changed": "不适用",
                "what_to_do": "按本次区间执行",
                "evidence": [],
            }
        return {
            "old_plan": f"上次报告 {previous['report_id']} 的操作为 {previous['action']}",
            "what_happened": f"价格位置现为 {zones.get('position', 'unknown')}",
            "what_changed": "以本次程序重新计算的区间为准"
            if previous.get("crossed") is False
            else "价格已穿越旧区间，旧计划失效",
            "what_to_do": "按新区间执行",
            "evidence": [e for e in (previous.get("evidence_id"), zones.get("evidence_id")) if e],
        }

    @staticmethod
    def _paths(zones: dict[str, Any]) -> list[dict[str, Any]]:
        paths = []
        if zones.get("buy"):
            paths.append(
                {
                    "trigger": f"价格进入买入区间 {zones['buy']['low']}-{zones['buy']['high']}",
                    "action": "按计划分批买入",
                }
            )
        if zones.get("sell"):
            paths.append(
                {"trigger": f"价格进入卖出区间 {zones['sell']['low']}-{zones['sell']['high']}", "action": "分批卖出"}
            )
        if zones.get("stop"):
            paths.append({"trigger": f"收盘跌破止损位 {zones['stop']['price']}", "action": "止损离场"})
        return paths or [{"trigger": "区间数据缺失", "action": "观望"}]

    def _report(self, facts: dict[str, Any], spec: dict[str, Any], last: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        prepare = facts["prepare"]
        inst = prepare["instrument"]
        baseline = facts.get("analytics", {}).get("baseline", {})
        zones = facts.get("analytics", {}).get("zones", {})
        name = inst.get("name") or inst["symbol"]
        action = baseline.get("direction", "hold")
        watch = f"买入区间 {zones['buy']['low']}-{zones['buy']['high']}" if zones.get("buy") else "区间变化"
        return "submit_report", {
            "title": f"{name}：{action}（{LABEL}）",
            "conclusion": f"{LABEL}按程序基线给出 {action}；所有价格与数量由程序计算。",
            "what_to_do_now": f"{action}，按程序区间与仓位执行",
            "what_would_change_my_mind": "趋势或资金状态反转、跌破止损位",
            "what_to_watch": watch,
        }

    def _publish_fix(
        self, facts: dict[str, Any], spec: dict[str, Any], last: dict[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        return self._report(facts, spec, last)
