"""Composing the report from accepted judgments, running every gate in one pass, and publishing it.

The program writes the report; the model supplies only the title, the conclusion and three answers, plus
the judgments already checked one by one. Gates never rewrite text: a draft with any problem is not
published (the run pauses with the problems as its reason).
"""

from __future__ import annotations

import json
import re
import uuid
from datetime import datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from stockbench.errors import Problem
from stockbench.evidence import documents as d
from stockbench.evidence.frozen import draft_to_json, freeze_context
from stockbench.evidence.gates import blocking, run_gates
from stockbench.research.archive import ReportArchive, ReportRecord, render_markdown
from stockbench.research.engine import RunState
from stockbench.research.events import ReportPublished
from stockbench.research.journal import Outcome
from stockbench.research.statements import previous_levels, program_scope, run_statements, zone_bounds

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


_BLOCK_START = re.compile(r"^(?:#+|>|[-+*](?=\s)|\d+[.)](?=\s)|\||`{3,}|~{3,}|={3,})")
_INLINE = re.compile(r"([\[\]<>`|])")


def plain(text: Any) -> str:
    """Model text as text: one line, nothing Markdown would read as a heading, list, quote, table, link or tag.

    The model writes judgments, not report structure: a conclusion that carries "## 数据与缺口" must not make a
    section of its own."""
    one = " ".join(str(text or "").split())
    escaped = _INLINE.sub(r"\\\1", one)
    return f"\\{escaped}" if _BLOCK_START.match(escaped) else escaped


def _cited(items: list[dict[str, Any]]) -> list[str]:
    return [f"- {plain(i['text'])} [{', '.join(i['evidence'])}]" for i in items]


def sections(state: RunState) -> list[d.Section]:
    a, facts = state.accepted, state.facts
    prepare, analytics = facts.get("prepare", {}), facts.get("analytics", {})
    report = a.get("report", {})
    scene = a.get("scene", {})
    diagnosis = a.get("diagnosis", {})
    verdict = a.get("debate_verdict", {})
    zones = analytics.get("zones", {})
    action = a.get("action") or {}
    plan_lines = [
        f"操作: {action.get('action', 'hold')} — {plain((action.get('why') or {}).get('text'))}",
        f"持仓状态: {plain(a.get('position_state', ''))}",
    ]
    if zones.get("buy"):
        plan_lines.append(f"买入区间: {zones['buy']['low']}-{zones['buy']['high']}")
    if zones.get("sell"):
        plan_lines.append(f"卖出区间: {zones['sell']['low']}-{zones['sell']['high']}")
    if zones.get("stop"):
        plan_lines.append(f"止损: {zones['stop']['price']}")
    for order in facts.get("orders", {}).get("orders", []):
        plan_lines.append(f"订单: {order['side']} {order['qty']} @ {order['price']}")
    plan_lines += [f"路径: {plain(p['trigger'])} → {plain(p['action'])}" for p in a.get("paths", [])]
    plan_lines += [
        f"未成交订单 {o['order_id']}: {o['decision']}（{plain(o['reason'])}）" for o in a.get("open_orders", [])
    ]
    gates_text = [f"- {g['name']}: {g['status']} — {g['reason']}" for g in prepare.get("gates", [])]
    gates_text += [f"- 缺口披露 {plain(g['gap'])}: {plain(g['disclosure'])}" for g in a.get("gaps", [])]
    if not state.run.plan.search:  # without a search provider the report discloses that no search was run
        gates_text.append("- 搜索: 未配置搜索服务，本次未进行搜索 (no search provider: no search was run)")
    continuity = a.get("continuity", {})
    text = {
        "conclusion": "\n".join(
            [
                plain(report.get("conclusion", "")),
                "",
                f"现在怎么做：{plain(report.get('what_to_do_now', ''))}",
                f"什么会改变判断：{plain(report.get('what_would_change_my_mind', ''))}",
                f"需要盯住什么：{plain(report.get('what_to_watch', ''))}",
            ]
        ),
        "scene": "\n".join(
            [
                f"板块指数: {plain(scene.get('sector_index', ''))}; 出海相关: {scene.get('overseas_bound')}",
                f"同业: {', '.join(plain(p) for p in scene.get('peers', [])) or '无'}",
                plain(scene.get("rationale", {}).get("text", "")),
            ]
        ),
        "data": "\n".join(gates_text) or "- 数据闸门全部通过",
        "diagnosis": "\n".join(
            [
                plain(diagnosis.get("summary", "")),
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
        "scenarios": "\n".join(
            f"- {plain(s['name'])}: {s['probability']} — {plain(s['narrative'])}" for s in a.get("scenarios", [])
        ),
        "risks": "\n".join(_cited(a.get("risks", []))),
        "continuity": "\n".join(
            f"{k}: {plain(continuity.get(k, ''))}" for k in ("old_plan", "what_happened", "what_changed", "what_to_do")
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
    orders += modified_orders(state)
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
        statements=tuple(run_statements(a, state.arguments, program_scope(state.evidence))),
    )


def modified_orders(state: RunState) -> tuple[d.OrderPlan, ...]:
    """The open orders the decision MODIFYs, as the orders they become at the broker (checked like new ones)."""
    listed = {o["order_id"]: o for o in state.facts.get("prepare", {}).get("ledger", {}).get("open_orders", [])}
    found = []
    for decision in state.accepted.get("open_orders", []):
        order = listed.get(decision["order_id"])
        if order is None or decision["decision"] != "MODIFY" or state.run.account is None:
            continue
        price = Decimal(decision["new_price"]) if decision.get("new_price") else Decimal(order["price"])
        qty = decision.get("new_qty") or int(order["qty"]) - int(order.get("filled") or 0)
        found.append(d.OrderPlan(state.run.account, state.run.symbol, order["side"], int(qty), price, "modify"))
    return tuple(found)


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
        zone_bounds=zone_bounds(zones),
        calibrated={s["name"]: Decimal(s["probability"]) for s in scenarios.get("items", [])},
        probability_tolerance=Decimal(scenarios.get("tolerance", "0.05")),
        check_order=facts_service.order_checker(state),
        lot=(state.facts.get("prepare", {}).get("instrument") or {}).get("lot"),
        previous_levels=previous_levels(state.facts.get("prepare", {})),
    )


def markdown(draft: d.ReportDraft, title: str, state: RunState, published_at: datetime) -> str:
    """The report's Markdown, rendered from what is sealed (see `archive.render_markdown`)."""
    return render_markdown(
        title=title, symbol=draft.symbol, run_id=draft.run_id, published_at=published_at,
        as_of=state.run.as_of, offline=state.engine.models(state.run.model).offline, draft=draft,
    )  # fmt: skip


def publish(state: RunState, facts_service: ProgramFacts, key: str = "publish/gates") -> str | list[Problem]:
    """Run every gate; publish and return the report id, or return the problems (nothing is published)."""
    draft = build_draft(state)
    ctx = gate_context(state, facts_service)
    results = run_gates(draft, ctx)
    problems = blocking(results)
    journal = state.engine.journal
    run_id = state.run.run_id
    gate_payload = json.dumps({name: [p.as_dict() for p in ps] for name, ps in results.items()}, ensure_ascii=False)
    journal.act(run_id, key, "gate_check", "all", lambda _: Outcome(gate_payload))
    if problems:
        return problems
    title = state.accepted.get("report", {}).get("title", state.run.symbol)
    action = state.accepted.get("action", {}).get("action", "hold")

    def archive(_: str) -> Outcome:
        report_id = f"R{journal.clock.now():%Y%m%d}-{uuid.uuid4().hex[:8]}"
        summary = facts_service.report_summary(state, action)
        published = journal.clock.now()
        record = ReportRecord(
            report_id=report_id,
            run_id=run_id,
            symbol=state.run.symbol,
            published_at=published,
            as_of=facts_service.as_of(),
            title=title,
            action=action,
            model=state.run.model,
            offline=state.engine.models(state.run.model).offline,
            handbook_version=state.handbook.version,
            markdown=markdown(draft, title, state, published),
            draft=draft_to_json(draft),
            frozen=freeze_context(ctx, draft),
            summary=json.loads(json.dumps(summary, ensure_ascii=False, default=str)),
        )
        archive_ = ReportArchive(journal.db)
        return Outcome(report_id, write=lambda cur: archive_.write(cur, record), after=archive_.append_log)

    report_id = journal.act(run_id, "publish/archive", "program", "archive", archive)
    state.engine.events.publish(
        ReportPublished(
            run_id=run_id, report_id=report_id, symbol=state.run.symbol, action=action, at=journal.clock.now()
        )
    )
    return report_id
