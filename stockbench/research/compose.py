"""Composing the report from accepted judgments, running every gate in one pass, and publishing it.

The program writes the report; the model supplies only the title, the conclusion and three answers, plus
the judgments already checked one by one. Gates never rewrite text: a draft with any problem is not
published (its problems go back to the model, then the run pauses with them as its reason).
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import TYPE_CHECKING

from stockbench.errors import Problem
from stockbench.events import EventBus
from stockbench.evidence import documents as d
from stockbench.evidence.frozen import draft_to_json, freeze_context
from stockbench.evidence.gates import blocking, run_gates
from stockbench.research import judgments as j
from stockbench.research.archive import ReportArchive, render_markdown
from stockbench.research.blocks import BandFact
from stockbench.research.events import ReportPublished
from stockbench.research.journal import Journal
from stockbench.research.outcomes import ReportRecord
from stockbench.research.records import Outcome
from stockbench.research.state import RunState
from stockbench.research.statements import CONTINUITY_PARTS, VERDICT_PARTS, program_scope, run_statements

if TYPE_CHECKING:
    from stockbench.research.facts import ProgramFacts

REQUIRED_SECTIONS = ("conclusion", "scene", "data", "diagnosis", "debate", "plan", "scenarios", "risks", "continuity",
                     "method", "disclaimer")  # fmt: skip
TITLES = {"conclusion": "结论", "scene": "场景", "data": "数据与缺口", "diagnosis": "诊断", "debate": "多空辩论",
          "plan": "计划", "scenarios": "情景", "risks": "风险", "continuity": "连续性", "method": "方法",
          "disclaimer": "声明"}  # fmt: skip
DISCLAIMER = "本报告为研究记录，不构成投资建议；程序不会下单，持仓只随你确认的成交而变化。"
DISCLAIMER_EN = "Research, not investment advice. Nothing is traded; holdings change only through fills you confirm."
_BLOCK_START = re.compile(r"^(?:#+|>|[-+*](?=\s)|\d+[.)](?=\s)|\||`{3,}|~{3,}|={3,})")
_INLINE = re.compile(r"([\[\]<>`|])")


def plain(text: object) -> str:
    """Model text as text: one line, nothing Markdown would read as a heading, list, quote, table, link or tag.

    The model writes judgments, not report structure: a conclusion that carries "## 数据与缺口" must not make a
    section of its own."""
    one = " ".join(str(text or "").split())
    escaped = _INLINE.sub(r"\\\1", one)
    return f"\\{escaped}" if _BLOCK_START.match(escaped) else escaped


def _cited(items: Sequence[j.Cited]) -> list[str]:
    return [f"- {plain(i.text)} [{', '.join(i.evidence)}]" for i in items]


# ---- the sections -----------------------------------------------------------------------------------------
def _conclusion(state: RunState) -> str:
    report = state.accepted.report
    if report is None:
        return ""
    return "\n".join([plain(report.conclusion), "", f"现在怎么做：{plain(report.what_to_do_now)}",
                      f"什么会改变判断：{plain(report.what_would_change_my_mind)}",
                      f"需要盯住什么：{plain(report.what_to_watch)}"])  # fmt: skip


def _scene(state: RunState) -> str:
    scene = state.accepted.scene
    if scene is None:
        return ""
    return "\n".join([f"板块指数: {plain(scene.sector_index)}; 出海相关: {scene.overseas_bound}",
                      f"同业: {', '.join(plain(p) for p in scene.peers) or '无'}",
                      plain(scene.rationale.text)])  # fmt: skip


def _data(state: RunState) -> str:
    gates = state.facts.prepare.gates if state.facts.prepare else ()
    lines = [f"- {g.name}: {g.status} — {g.reason}" for g in gates]
    lines += [f"- 缺口披露 {plain(g.gap)}: {plain(g.disclosure)}" for g in state.accepted.gaps or []]
    if not state.run.plan.search:  # without a search provider the report discloses that no search was run
        lines.append("- 搜索: 未配置搜索服务，本次未进行搜索 (no search provider: no search was run)")
    return "\n".join(lines) or "- 数据闸门全部通过"


def _diagnosis(state: RunState) -> str:
    diagnosis = state.accepted.diagnosis
    if diagnosis is None:
        return ""
    return "\n".join([plain(diagnosis.summary), *_cited(diagnosis.causal_chain), *_cited(diagnosis.claims)])


def _debate(state: RunState) -> str:
    verdict = state.accepted.debate_verdict
    ruling = [getattr(verdict, k) for k in VERDICT_PARTS] if verdict else []
    a = state.accepted
    return "\n".join(["看多:", *_cited(a.arguments("bull")), "看空:", *_cited(a.arguments("bear")), "裁决:",
                      *_cited(ruling)])  # fmt: skip


def _band(name: str, band: BandFact) -> str:
    return f"{name}: {band.low}-{band.high}"


def _plan(state: RunState) -> str:
    a, zones = state.accepted, state.facts.zones
    why = plain(a.action.why.text) if a.action else ""
    lines = [f"操作: {a.decision} — {why}", f"持仓状态: {plain(a.position_state or '')}"]
    if zones is not None:
        lines += [_band("买入区间", zones.buy), _band("卖出区间", zones.sell)]
        if zones.stop.price is not None:
            lines.append(f"止损: {zones.stop.price}")
    lines += [f"订单: {o['side']} {o['qty']} @ {o['price']}" for o in (state.facts.raw.get("orders") or {}).get(
        "orders", [])]  # fmt: skip
    lines += [f"路径: {plain(p.trigger)} → {plain(p.action)}" for p in a.paths or []]
    lines += [f"未成交订单 {o.order_id}: {o.decision}（{plain(o.reason)}）" for o in a.open_orders or []]
    return "\n".join(lines)


def _scenarios(state: RunState) -> str:
    return "\n".join(
        f"- {plain(s.name)}: {s.probability} — {plain(s.narrative)}" for s in state.accepted.scenarios or []
    )


def _continuity(state: RunState) -> str:
    continuity = state.accepted.continuity
    return "\n".join(f"{k}: {plain(getattr(continuity, k) if continuity else '')}" for k in CONTINUITY_PARTS)


SECTIONS: dict[str, Callable[[RunState], str]] = {
    "conclusion": _conclusion,
    "scene": _scene,
    "data": _data,
    "diagnosis": _diagnosis,
    "debate": _debate,
    "plan": _plan,
    "scenarios": _scenarios,
    "risks": lambda state: "\n".join(_cited(state.accepted.risks or [])),
    "continuity": _continuity,
    "method": lambda state: f"方法手册版本 hb-{state.handbook.version}; 模型 {state.run.model}",
    "disclaimer": lambda state: f"{DISCLAIMER}\n{DISCLAIMER_EN}",
}


def sections(state: RunState) -> list[d.Section]:
    return [d.Section(key, TITLES[key], SECTIONS[key](state)) for key in REQUIRED_SECTIONS]


# ---- the draft and its gate context -----------------------------------------------------------------------
def _draft_band(band: BandFact) -> d.ZoneBand:
    return d.ZoneBand(band.low, band.high, tuple(a.id for a in band.anchors))


def build_draft(state: RunState) -> d.ReportDraft:
    a, facts = state.accepted, state.facts
    zones = facts.zones
    plan = None
    if zones is not None:
        plan = d.ZonePlan(_draft_band(zones.buy), _draft_band(zones.sell), zones.stop.price,
                          tuple(x.id for x in zones.stop.anchors))  # fmt: skip
    orders = tuple(d.OrderPlan(o.account, o.symbol, o.side, o.qty, o.price) for o in facts.sized)
    quotes = a.diagnosis.quotes if a.diagnosis else []
    return d.ReportDraft(
        run_id=state.run.run_id,
        symbol=state.run.symbol,
        sections=tuple(sections(state)),
        claims=tuple(d.Claim(c.text, tuple(c.evidence)) for c in a.claims()),
        risks=tuple(d.Risk(r.text, tuple(r.evidence)) for r in a.risks or []),
        quotes=tuple(d.QuoteRef(q.text, q.evidence_id, f"diagnosis.quotes[{i}]") for i, q in enumerate(quotes)),
        zones=plan,
        scenarios=tuple(d.ScenarioPlan(s.name, _decimal(s.probability), s.narrative) for s in a.scenarios or []),
        orders=orders + modified_orders(state),
        gaps=tuple(d.Gap(g, "disclosed") for g in facts.gaps),
        method=tuple(d.MethodStep(s, "done") for s in state.run.plan.stages),
        judgments=dict.fromkeys(a.kinds(), "accepted"),
        statements=tuple(run_statements(a, program_scope(state.evidence))),
    )


def _decimal(text: str) -> Decimal:
    return Decimal(text)


def modified_orders(state: RunState) -> tuple[d.OrderPlan, ...]:
    """The open orders the decision MODIFYs, as the orders they become at the broker (checked like new ones)."""
    listed = {o.order_id: o for o in state.facts.open_orders}
    found = []
    for decision in state.accepted.open_orders or []:
        order = listed.get(decision.order_id)
        if order is None or decision.decision != "MODIFY" or state.run.account is None:
            continue
        price = _decimal(decision.new_price) if decision.new_price else order.price
        qty = decision.new_qty or order.remaining
        found.append(d.OrderPlan(state.run.account, state.run.symbol, order.side, qty, price, "modify"))
    return tuple(found)


def gate_context(state: RunState, facts_service: ProgramFacts) -> d.GateContext:
    facts = state.facts
    zones = facts.zones
    anchors = zones.anchors() if zones else ()
    scenarios = facts.analytics.scenarios if facts.analytics else None
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
        anchors={x.id: x.price for x in anchors if x.role != "width"},
        anchor_widths={x.id: x.price for x in anchors if x.role == "width"},
        zone_bounds=zones.bounds() if zones else {},
        calibrated=scenarios.table() if scenarios else {},
        probability_tolerance=scenarios.tolerance if scenarios else Decimal("0.05"),
        check_order=facts_service.order_checker(state),
        lot=facts.prepare.instrument.lot if facts.prepare else None,
        previous_levels=facts.previous_levels(),
    )


def markdown(draft: d.ReportDraft, title: str, state: RunState, published_at: datetime, offline: bool) -> str:
    """The report's Markdown, rendered from what is sealed (see `archive.render_markdown`)."""
    return render_markdown(
        title=title, symbol=draft.symbol, run_id=draft.run_id, published_at=published_at,
        as_of=state.run.as_of, offline=offline, draft=draft,
    )  # fmt: skip


# ---- publishing ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Publisher:
    """What publishing needs besides the run's state: the journal, the event bus, the program's facts service."""

    journal: Journal
    events: EventBus
    facts: ProgramFacts
    offline: Callable[[str], bool]  # whether a model name is the offline rules model


def publish(state: RunState, publisher: Publisher, key: str = "publish/gates") -> str | list[Problem]:
    """Run every gate; publish and return the report id, or return the problems (nothing is published)."""
    draft = build_draft(state)
    ctx = gate_context(state, publisher.facts)
    results = run_gates(draft, ctx)
    problems = blocking(results)
    journal, run_id = publisher.journal, state.run.run_id
    gate_payload = json.dumps({name: [p.as_dict() for p in ps] for name, ps in results.items()}, ensure_ascii=False)
    journal.act(run_id, key, "gate_check", "all", lambda _: Outcome(gate_payload))
    if problems:
        return problems
    title = state.accepted.report.title if state.accepted.report else state.run.symbol
    action = state.accepted.decision
    offline = publisher.offline(state.run.model)

    def archive(_: str) -> Outcome:
        report_id = f"R{journal.clock.now():%Y%m%d}-{uuid.uuid4().hex[:8]}"
        published = journal.clock.now()
        record = ReportRecord(
            report_id=report_id,
            run_id=run_id,
            symbol=state.run.symbol,
            published_at=published,
            as_of=publisher.facts.as_of(),
            title=title,
            action=action,
            model=state.run.model,
            offline=offline,
            handbook_version=state.handbook.version,
            markdown=markdown(draft, title, state, published, offline),
            draft=draft_to_json(draft),
            frozen=freeze_context(ctx, draft),
            summary=publisher.facts.report_summary(state, action),
        )
        archive_ = ReportArchive(journal.db)
        return Outcome(report_id, write=lambda cur: archive_.write(cur, record), after=archive_.append_log)

    report_id = str(journal.act(run_id, "publish/archive", "program", "archive", archive))
    publisher.events.publish(
        ReportPublished(
            run_id=run_id, report_id=report_id, symbol=state.run.symbol, action=action, at=journal.clock.now()
        )
    )
    return report_id
