"""Composing the report from accepted judgments, running every gate in one pass, and publishing it.

The program writes the report; the model supplies only the title, the conclusion and three answers, plus
the judgments already checked one by one. Gates never rewrite text: a draft with any problem is not
published (the run pauses with the problems as its reason).
"""

from __future__ import annotations

import json
import uuid
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import duckdb

from stockbench.evidence import documents as d
from stockbench.evidence.frozen import draft_to_json, freeze_context
from stockbench.evidence.gates import blocking, run_gates
from stockbench.research.engine import Paused, RunState
from stockbench.research.events import ReportPublished
from stockbench.research.journal import Outcome

if TYPE_CHECKING:
    from stockbench.research.facts import ProgramFacts

REQUIRED_SECTIONS = (
    "conclusion",
    "scene",
    "data",
    "diagnosis",
    "debate",
    "plan",
    "scenarios",
    "risks",
    "continuity",
    "method",
    "disclaimer",
)
DISCLAIMER = "本报告为研究记录，不构成投资建议；程序不会下单，持仓只随你确认的成交而变化。"
DISCLAIMER_EN = "Research, not investment advice. Nothing is traded; holdings change only through fills you confirm."


def _cited(items: list[dict[str, Any]]) -> list[str]:
    return [f"- {i['text']} [{', '.join(i['evidence'])}]" for i in items]


def sections(state: RunState) -> list[d.Section]:
    a, facts = state.accepted, state.facts
    prepare, analytics = facts.get("prepare", {}), facts.get("analytics", {})
    report = a.get("report", {})
    scene = a.get("scene", {})
    diagnosis = a.get("diagnosis", {})
    verdict = a.get("debate_verdict", {})
    zones = analytics.get("zones", {})
    plan_lines = [
        f"操作: {a.get('action', {}).get('action', 'hold')} — {a.get('action', {}).get('why', {}).get('text', '')}",
        f"持仓状态: {a.get('position_state', '')}",
    ]
    if zones.get("buy"):
        plan_lines.append(f"买入区间: {zones['buy']['low']}-{zones['buy']['high']}")
    if zones.get("sell"):
        plan_lines.append(f"卖出区间: {zones['sell']['low']}-{zones['sell']['high']}")
    if zones.get("stop"):
        plan_lines.append(f"止损: {zones['stop']['price']}")
    for order in facts.get("orders", {}).get("orders", []):
        plan_lines.append(f"订单: {order['side']} {order['qty']} @ {order['price']}")
    plan_lines += [f"路径: {p['trigger']} → {p['action']}" for p in a.get("paths", [])]
    plan_lines += [f"未成交订单 {o['order_id']}: {o['decision']}（{o['reason']}）" for o in a.get("open_orders", [])]
    gates_text = [f"- {g['name']}: {g['status']} — {g['reason']}" for g in prepare.get("gates", [])]
    gates_text += [f"- 缺口披露 {g['gap']}: {g['disclosure']}" for g in a.get("gaps", [])]
    if not state.run.plan.search:  # without a search provider the report discloses that no search was run
        gates_text.append("- 搜索: 未配置搜索服务，本次未进行搜索 (no search provider: no search was run)")
    continuity = a.get("continuity", {})
    text = {
        "conclusion": "\n".join(
            [
                report.get("conclusion", ""),
                "",
                f"现在怎么做：{report.get('what_to_do_now', '')}",
                f"什么会改变判断：{report.get('what_would_change_my_mind', '')}",
                f"需要盯住什么：{report.get('what_to_watch', '')}",
            ]
        ),
        "scene": "\n".join(
            [
                f"板块指数: {scene.get('sector_index', '')}; 出海相关: {scene.get('overseas_bound')}",
                f"同业: {', '.join(scene.get('peers', [])) or '无'}",
                scene.get("rationale", {}).get("text", ""),
            ]
        ),
        "data": "\n".join(gates_text) or "- 数据闸门全部通过",
        "diagnosis": "\n".join(
            [
                diagnosis.get("summary", ""),
                *_cited(diagnosis.get("causal_chain", [])),
                *_cited(diagnosis.get("claims", [])),
            ]
        ),
        "debate": "\n".join(
            [
                "看多:",
                *_cited(state.arguments.get("bull", {}).get("arguments", [])),
                "看空:",
                *_cited(state.arguments.get("bear", {}).get("arguments", [])),
                "裁决:",
                *_cited(
                    [
                        verdict[k]
                        for k in (
                            "strongest_case_for_selling",
                            "most_likely_wrong",
                            "conflicting_evidence",
                            "explanation",
                        )
                        if k in verdict
                    ]
                ),
            ]
        ),
        "plan": "\n".join(plan_lines),
        "scenarios": "\n".join(f"- {s['name']}: {s['probability']} — {s['narrative']}" for s in a.get("scenarios", [])),
        "risks": "\n".join(_cited(a.get("risks", []))),
        "continuity": "\n".join(
            f"{k}: {continuity.get(k, '')}" for k in ("old_plan", "what_happened", "what_changed", "what_to_do")
        ),
        "method": f"方法手册版本 hb-{state.handbook.version}; 模型 {state.run.model}",
        "disclaimer": f"{DISCLAIMER}\n{DISCLAIMER_EN}",
    }
    titles = {
        "conclusion": "结论",
        "scene": "场景",
        "data": "数据与缺口",
        "diagnosis": "诊断",
        "debate": "多空辩论",
        "plan": "计划",
        "scenarios": "情景",
        "risks": "风险",
        "continuity": "连续性",
        "method": "方法",
        "disclaimer": "声明",
    }
    return [d.Section(k, titles[k], text[k]) for k in REQUIRED_SECTIONS]


def build_draft(state: RunState) -> d.ReportDraft:
    a, facts = state.accepted, state.facts
    zones = facts.get("analytics", {}).get("zones", {})

    def band(raw: dict[str, Any] | None) -> d.ZoneBand | None:
        if not raw:
            return None
        return d.ZoneBand(Decimal(raw["low"]), Decimal(raw["high"]), tuple(x["id"] for x in raw.get("anchors", [])))

    stop = zones.get("stop")
    plan = d.ZonePlan(
        band(zones.get("buy")),
        band(zones.get("sell")),
        Decimal(stop["price"]) if stop else None,
        tuple(x["id"] for x in (stop or {}).get("anchors", [])),
    )
    diagnosis = a.get("diagnosis", {})
    claims = [*diagnosis.get("causal_chain", []), *diagnosis.get("claims", [])]
    claims += [arg for side in ("bull", "bear") for arg in state.arguments.get(side, {}).get("arguments", [])]
    orders = tuple(
        d.OrderPlan(o["account"], o["symbol"], o["side"], int(o["qty"]), Decimal(o["price"]))
        for o in facts.get("orders", {}).get("orders", [])
    )
    method = tuple(d.MethodStep(s, "done") for s in state.run.plan.stages)
    return d.ReportDraft(
        run_id=state.run.run_id,
        symbol=state.run.symbol,
        sections=tuple(sections(state)),
        claims=tuple(d.Claim(c["text"], tuple(c["evidence"])) for c in claims),
        risks=tuple(d.Risk(r["text"], tuple(r["evidence"])) for r in a.get("risks", [])),
        quotes=tuple(
            d.QuoteRef(q["text"], q["evidence_id"], f"diagnosis.quotes[{i}]")
            for i, q in enumerate(diagnosis.get("quotes", []))
        ),
        zones=plan if (plan.buy or plan.sell or plan.stop) else None,
        scenarios=tuple(
            d.ScenarioPlan(s["name"], Decimal(s["probability"]), s["narrative"]) for s in a.get("scenarios", [])
        ),
        orders=orders,
        gaps=tuple(d.Gap(g, "disclosed") for g in facts.get("prepare", {}).get("gaps", [])),
        method=method,
        judgments=dict.fromkeys((*a.keys(), *(f"arguments_{s}" for s in state.arguments)), "accepted"),
    )


def _bounds(zones: dict[str, Any]) -> dict[str, tuple[Decimal, ...]]:
    bounds: dict[str, tuple[Decimal, ...]] = {}
    for side in ("buy", "sell"):
        if zones.get(side):
            bounds[side] = (Decimal(zones[side]["low"]), Decimal(zones[side]["high"]))
    if zones.get("stop"):
        bounds["stop"] = (Decimal(zones["stop"]["price"]),)
    return bounds


def gate_context(state: RunState, facts_service: ProgramFacts) -> d.GateContext:
    analytics = state.facts.get("analytics", {})
    zones = analytics.get("zones", {})
    listed = [x for part in ("buy", "sell", "stop") for x in (zones.get(part) or {}).get("anchors", [])]
    anchors = {x["id"]: Decimal(x["price"]) for x in listed if x.get("role") != "width"}
    widths = {x["id"]: Decimal(x["price"]) for x in listed if x.get("role") == "width"}
    scenarios = analytics.get("scenarios", {})
    return d.GateContext(
        run_id=state.run.run_id,
        evidence=state.evidence,
        required_sections=REQUIRED_SECTIONS,
        required_judgments=(
            "scene",
            "diagnosis",
            "arguments_bull",
            "arguments_bear",
            *state.required_decisions(),
            "report",
        ),
        required_steps=state.run.plan.stages,
        anchors=anchors,
        anchor_widths=widths,
        zone_bounds=_bounds(zones),
        calibrated={s["name"]: Decimal(s["probability"]) for s in scenarios.get("items", [])},
        probability_tolerance=Decimal(scenarios.get("tolerance", "0.05")),
        check_order=facts_service.order_checker(state),
    )


def markdown(draft: d.ReportDraft, title: str, state: RunState) -> str:
    lines = [
        f"# {title}",
        "",
        f"- 标的: {draft.symbol}",
        f"- 运行: {draft.run_id}",
        f"- 时间: {state.engine.journal.clock.now().isoformat()}",
        "",
    ]
    if state.engine.models(state.run.model).offline:
        lines += [
            "> 本报告由离线规则模型生成，未使用大语言模型。 (Produced by the offline rules model, without an LLM.)",
            "",
        ]
    for section in draft.sections:
        lines += [f"## {section.title}", "", section.text, ""]
    return "\n".join(lines)


def publish(state: RunState, facts_service: ProgramFacts) -> str:
    """Run every gate; publish and return the report id, or pause with the problems."""
    draft = build_draft(state)
    ctx = gate_context(state, facts_service)
    results = run_gates(draft, ctx)
    problems = blocking(results)
    journal = state.engine.journal
    run_id = state.run.run_id
    gate_payload = json.dumps({name: [p.as_dict() for p in ps] for name, ps in results.items()}, ensure_ascii=False)
    journal.act(run_id, "publish/gates", "gate_check", "all", lambda _: Outcome(gate_payload))
    if problems:
        first = problems[0]
        raise Paused(f"publication gates found {len(problems)} problem(s); first: [{first.code}] {first.message}")
    title = state.accepted.get("report", {}).get("title", state.run.symbol)
    action = state.accepted.get("action", {}).get("action", "hold")

    def archive(_: str) -> Outcome:
        report_id = f"R{journal.clock.now():%Y%m%d}-{uuid.uuid4().hex[:8]}"
        summary = facts_service.report_summary(state, action)

        def write(cur: duckdb.DuckDBPyConnection) -> None:
            cur.execute(
                "INSERT INTO reports VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    report_id,
                    run_id,
                    state.run.symbol,
                    journal.clock.now(),
                    facts_service.as_of(),
                    title,
                    action,
                    state.run.model,
                    state.engine.models(state.run.model).offline,
                    state.handbook.version,
                    markdown(draft, title, state),
                    json.dumps(draft_to_json(draft), ensure_ascii=False),
                    json.dumps(freeze_context(ctx, draft), ensure_ascii=False),
                    json.dumps(summary, ensure_ascii=False, default=str),
                ],
            )

        return Outcome(report_id, write=write)

    report_id = journal.act(run_id, "publish/archive", "program", "archive", archive)
    state.engine.events.publish(
        ReportPublished(
            run_id=run_id, report_id=report_id, symbol=state.run.symbol, action=action, at=journal.clock.now()
        )
    )
    return report_id
