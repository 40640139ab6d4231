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
from stockbench.research.blocks import BandFact, ContextFact, ZonesFact
from stockbench.research.context import price_line, relative_strength_line, rule_peers_line, sector_text
from stockbench.research.decisions import action_choice, action_rules
from stockbench.research.events import ReportPublished
from stockbench.research.journal import Journal
from stockbench.research.outcomes import ReportRecord
from stockbench.research.records import Outcome
from stockbench.research.state import RunState
from stockbench.research.statements import CONTINUITY_PARTS, VERDICT_PARTS, program_scope, run_statements
from stockbench.research.wording import Language, has, say
from stockbench.research.wording.actions import baseline_reason
from stockbench.research.wording.phrases import anchor_name, gap_line, gate_line, level_price, one_line_reason

if TYPE_CHECKING:
    from stockbench.research.facts import ProgramFacts

REQUIRED_SECTIONS = ("conclusion", "scene", "data", "diagnosis", "debate", "plan", "scenarios", "risks", "continuity",
                     "method", "disclaimer")  # fmt: skip
_BLOCK_START = re.compile(r"^(?:#+|>|[-+*](?=\s)|\d+[.)](?=\s)|\||`{3,}|~{3,}|={3,})")
_INLINE = re.compile(r"([\[\]<>`|])")
_CONCLUSION_PARTS = ("what_to_do_now", "what_would_change_my_mind", "what_to_watch")


def plain(text: object) -> str:
    """Model text as text: one line, nothing Markdown would read as a heading, list, quote, table, link or tag.

    The model writes judgments, not report structure: a conclusion that carries "## 数据与缺口" must not make a
    section of its own."""
    one = " ".join(str(text or "").split())
    escaped = _INLINE.sub(r"\\\1", one)
    return f"\\{escaped}" if _BLOCK_START.match(escaped) else escaped


def _cited(items: Sequence[j.Cited]) -> list[str]:
    return [f"- {plain(i.text)} [{', '.join(i.evidence)}]" for i in items]


def _word(kind: str, code: str | None, language: Language) -> str:
    """The catalogue's word for an engine code (`action.buy` -> 买入), or the code itself when it has none."""
    key = f"{kind}.{code}"
    return say(key, language) if code and has(key) else plain(code or say("state.unknown", language))


# ---- the sections -----------------------------------------------------------------------------------------
def _conclusion(state: RunState, language: Language) -> str:
    report = state.accepted.report
    if report is None:
        return ""
    answers = [say(f"report.conclusion.{k}", language, text=plain(getattr(report, k))) for k in _CONCLUSION_PARTS]
    return "\n".join([plain(report.conclusion), "", *answers])


def _listed(items: Sequence[str], language: Language) -> str:
    return say("report.list_separator", language).join(plain(i) for i in items) or say("report.none", language)


def _named(symbols: Sequence[str], context: ContextFact | None) -> list[str]:
    """Symbols with the names the context block stored for them ("003902.SZ 示例酒业"), else as they are."""
    names = {p.symbol: p.name for p in context.peers if p.name} if context else {}
    return [f"{s} {names[s]}" if s in names else s for s in symbols]


def _scene(state: RunState, language: Language) -> str:
    scene = state.accepted.scene
    if scene is None:
        return ""
    answer = say("report.yes" if scene.overseas_bound else "report.no", language)
    context = state.facts.prepare.context if state.facts.prepare else None  # how sector and peers were chosen
    sector = sector_text(plain(scene.sector_index), context, language)
    peers = rule_peers_line(scene.peers, context, language)
    peers = peers or say("report.scene.peers", language, peers=_listed(_named(scene.peers, context), language))
    lines = [say("report.scene.sector", language, sector=sector),
             say("report.scene.overseas", language, answer=answer), peers]  # fmt: skip
    if scene.international_anchors:
        lines.append(say("report.scene.anchors", language, anchors=_listed(scene.international_anchors, language)))
    analytics = state.facts.analytics
    instrument = state.facts.prepare.instrument if state.facts.prepare else None
    price = price_line(analytics.price if analytics else None, language, instrument.currency if instrument else "CNY")
    relative = relative_strength_line(analytics.states if analytics else None, context, language)
    shown = [line for line in (price, relative) if line]
    return "\n".join([*lines, *shown, plain(scene.rationale.text)])


def _data(state: RunState, language: Language) -> str:
    gates = state.facts.prepare.gates if state.facts.prepare else ()
    symbol = state.run.symbol
    lines = [f"- {gate_line(g, symbol, language)}" for g in gates]
    handled = {g.gap: plain(g.disclosure) for g in state.accepted.gaps or []}
    for gate in (g for g in gates if g.status == "gap"):
        lines.append(f"- {gap_line(gate, symbol, language)}")
        if handled.get(gate.name):
            lines.append(f"  {say('report.data.handling', language, text=handled[gate.name])}")
    if not state.run.plan.search:  # without a search provider the report discloses that no search was run
        lines.append(f"- {say('report.data.no_search', language)}")
    return "\n".join(lines) or f"- {say('report.data.all_passed', language)}"


def _diagnosis(state: RunState, language: Language) -> str:
    diagnosis = state.accepted.diagnosis
    if diagnosis is None:
        return ""
    return "\n".join([plain(diagnosis.summary), *_cited(diagnosis.causal_chain), *_cited(diagnosis.claims)])


def _verdict(verdict: j.DebateVerdict | None, language: Language) -> list[str]:
    if verdict is None:
        return []
    lines = []
    for part in VERDICT_PARTS:
        item: j.Cited = getattr(verdict, part)
        answer = say("report.yes" if verdict.opposition_overturns else "report.no", language)
        text = say(f"report.verdict.{part}", language, text=plain(item.text), answer=answer)
        lines.append(f"- {text} [{', '.join(item.evidence)}]")
    return lines


def _debate(state: RunState, language: Language) -> str:
    a = state.accepted
    return "\n".join([say("report.debate.bull", language), *_cited(a.arguments("bull")),
                      say("report.debate.bear", language), *_cited(a.arguments("bear")),
                      say("report.debate.verdict", language), *_verdict(a.debate_verdict, language)])  # fmt: skip


def _baseline(state: RunState, language: Language) -> str:
    baseline = state.facts.analytics.baseline if state.facts.analytics else None
    if baseline is None:
        return say("report.plan.no_baseline", language)
    direction = _word("action", baseline.direction, language)
    if baseline.confidence is None:
        return say("report.plan.baseline_unknown", language, direction=direction)
    return say("report.plan.baseline", language, direction=direction, confidence=baseline.confidence)


def _baseline_reasons(state: RunState, language: Language) -> list[str]:
    """The baseline's reasons in the reader's words (an overheated session, a failed check, an unknown input)."""
    baseline = state.facts.analytics.baseline if state.facts.analytics else None
    if baseline is None or not baseline.reasons:
        return []
    reasons = say("report.plan.baseline_join", language).join(baseline_reason(r, language) for r in baseline.reasons)
    return [say("report.plan.baseline_reasons", language, reasons=reasons)]


def _band(key: str, band: BandFact, language: Language) -> str:
    return say(key, language, low=band.low, high=band.high)


def _signed(value: Decimal) -> str:
    return format(value, "+f")


def _zone_line(key: str, band: BandFact, distance: Decimal | None, language: Language) -> str:
    basis = band.basis()
    if distance is None or basis is None:  # facts written before plans were assessed
        return _band(f"report.{key}", band, language)
    named = f"{anchor_name(basis.id.rsplit(':', 1)[-1], language)} {level_price(basis.price, band.low, band.high)}"
    return say(key, language, low=band.low, high=band.high, basis=named, distance=_signed(distance))


def _plan_reason(code: str, zones: ZonesFact, language: Language) -> str:
    if not has(f"plan.reason.{code}"):
        return plain(code)
    distance = zones.distance_pct.buy_high_pct
    return say(f"plan.reason.{code}", language, ratio=zones.reward_risk, minimum=zones.min_reward_risk,
               distance=abs(distance) if distance is not None else "", stop=zones.stop.price)  # fmt: skip


def _zone_lines(zones: ZonesFact, language: Language) -> list[str]:
    """The zones with their bases and distances from the price, the stop, the plan's reward-to-risk and whether it
    is tradeable (with its reasons when not)."""
    distance = zones.distance_pct
    lines = [_zone_line("plan.buy_zone", zones.buy, distance.buy_high_pct, language),
             _zone_line("plan.sell_zone", zones.sell, distance.sell_low_pct, language)]  # fmt: skip
    if zones.stop.price is not None and distance.stop_pct is not None:
        lines.append(say("plan.stop", language, price=zones.stop.price, distance=_signed(distance.stop_pct)))
    elif zones.stop.price is not None:
        lines.append(say("report.plan.stop", language, price=zones.stop.price))
    if zones.reward_risk is not None:
        lines.append(say("plan.reward_risk", language, ratio=zones.reward_risk, minimum=zones.min_reward_risk))
    if zones.tradeable:
        return [*lines, say("plan.tradeable", language)]
    reasons = say("plan.reason_join", language).join(_plan_reason(c, zones, language) for c in zones.reasons)
    return [*lines, say("plan.not_tradeable", language, reasons=reasons)]


def _plan(state: RunState, language: Language) -> str:
    a, zones = state.accepted, state.facts.zones
    why = plain(a.action.why.text) if a.action else ""
    lines = [say("report.plan.action", language, action=_word("action", a.decision, language),
                 baseline=_baseline(state, language), why=why),
             *_baseline_reasons(state, language),
             say("report.plan.position_state", language,
                 state=_word("position_state", a.position_state, language)),
             say("report.plan.account", language, account=state.run.account) if state.run.account
             else say("report.plan.no_account", language)]  # fmt: skip
    if zones is None:
        lines.append(say("report.plan.no_zones", language))
    else:
        if zones.position:
            lines.append(say("report.plan.price", language, position=_word("position", zones.position, language)))
        lines += _zone_lines(zones, language)
    lines += [say("report.plan.order", language, side=_word("report.side", o.side, language), qty=o.qty,
                  price=o.price) for o in state.facts.sized]  # fmt: skip
    lines += [say("report.plan.path", language, trigger=plain(p.trigger), action=plain(p.action))
              for p in a.paths or []]  # fmt: skip
    lines += [say("report.plan.open_order", language, order_id=o.order_id,
                  decision=_word("report.order", o.decision, language), reason=plain(o.reason))
              for o in a.open_orders or []]  # fmt: skip
    return "\n".join(lines)


def _scenarios(state: RunState, language: Language) -> str:
    """Each scenario with the program's text of where it lands (written from its move and landing price); the
    model's narrative follows as its view when it says something else."""
    computed = state.facts.analytics.scenarios if state.facts.analytics else None
    figures = {s.name: s for s in computed.items} if computed else {}
    lines = []
    for s in state.accepted.scenarios or []:
        name, text = _word("scenario.name", s.name, language), plain(s.narrative)
        found = figures.get(s.name)
        program = plain(found.description) if found is not None and found.lands else ""
        body = program or text
        key = "report.scenario" if body else "report.scenario.bare"
        lines.append(f"- {say(key, language, name=name, probability=s.probability, text=body)}")
        if program and text and text != program:
            lines.append(f"  {say('scenario.view', language, narrative=text)}")
    return "\n".join(lines)


def _continuity(state: RunState, language: Language) -> str:
    continuity = state.accepted.continuity
    return "\n".join(say(f"report.continuity.{k}", language, text=plain(getattr(continuity, k) if continuity else ""))
                     for k in CONTINUITY_PARTS)  # fmt: skip


def _method(state: RunState, language: Language) -> str:
    return say("report.method", language, version=state.handbook.version)  # the model is named in the header


SECTIONS: dict[str, Callable[[RunState, Language], str]] = {
    "conclusion": _conclusion,
    "scene": _scene,
    "data": _data,
    "diagnosis": _diagnosis,
    "debate": _debate,
    "plan": _plan,
    "scenarios": _scenarios,
    "risks": lambda state, language: "\n".join(_cited(state.accepted.risks or [])),
    "continuity": _continuity,
    "method": _method,
    "disclaimer": lambda state, language: say("report.disclaimer", language),
}


def sections(state: RunState) -> list[d.Section]:
    """The report's sections, in the run's language."""
    language = state.facts.language
    return [
        d.Section(key, say(f"report.section.{key}", language), SECTIONS[key](state, language))
        for key in REQUIRED_SECTIONS
    ]


def report_title(state: RunState) -> str:
    """The report's title: name, code, action and the model's one-line reason, in the run's language."""
    language, prepare = state.facts.language, state.facts.prepare
    name = (prepare.instrument.name if prepare else None) or state.run.symbol
    action = _word("action", state.accepted.decision, language)
    text = state.accepted.report.title if state.accepted.report else ""
    reason = one_line_reason(text, (name, state.run.symbol, state.run.symbol.split(".")[0]))
    values = {"name": plain(name), "code": state.run.symbol, "action": action, "reason": reason}
    return say("report.title" if reason else "report.title.bare", language, **values)


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
        decision=action_choice(a),
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
        action_rules=action_rules(facts.analytics),
        orders_follow_action=True,
    )


def markdown(draft: d.ReportDraft, title: str, state: RunState, published_at: datetime, offline: bool) -> str:
    """The report's Markdown, rendered from what is sealed (see `archive.render_markdown`)."""
    return render_markdown(
        title=title, symbol=draft.symbol, run_id=draft.run_id, published_at=published_at,
        as_of=state.run.as_of, offline=offline, draft=draft, model=state.run.model, language=state.facts.language,
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
    title = report_title(state)
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
