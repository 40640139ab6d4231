"""Checks on each judgment the moment it is submitted, with fixes the model can act on.

These reuse the publication gates' own checks (evidence ids, number grounding, probabilities, anchors) on
the part just submitted, so a draft whose judgments were all accepted is a draft the gates accept.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from typing import Any

from stockbench.errors import Problem
from stockbench.evidence.citations import ground_statement
from stockbench.evidence.documents import GateContext, OrderPlan, QuoteRef, Statement, StatementKind
from stockbench.evidence.gates import quotation_problems
from stockbench.evidence.levels import level_problems, order_problems
from stockbench.evidence.numbers import NumberIndex, ground_numbers
from stockbench.evidence.quotes import normalise, quote_problem, quoted_spans
from stockbench.evidence.store import Evidence
from stockbench.research import judgments as j
from stockbench.research.statements import program_scope, statements_of


@dataclass(frozen=True)
class RunRules:
    """What a full analysis checks submissions against besides evidence: the subject, the program's levels and
    orders, and the market and ledger checks for orders the model proposes."""

    subject: str
    ctx: GateContext
    orders: tuple[OrderPlan, ...] = ()  # orders the program sized (none before the decide stage ends)
    gaps: bool = False
    known_symbol: Callable[[str], bool] = lambda symbol: True
    check_order: Callable[[OrderPlan], list[Problem]] | None = None
    account: str | None = None
    reference: Decimal | None = None
    announcements: frozenset[str] = field(default_factory=frozenset)
    quotes: tuple[QuoteRef, ...] = ()  # the quotes submitted so far: a quotation in any text must be one of them


class Checker:
    """Judgment checks against one run's evidence and program facts."""

    def __init__(
        self,
        evidence: Mapping[str, Evidence],
        index: NumberIndex,
        facts: Mapping[str, Any],
        rules: RunRules | None = None,
    ) -> None:
        self.evidence, self.index, self.facts = evidence, index, facts
        self.rules = rules
        self.ctx = rules.ctx if rules is not None else GateContext("", evidence, (), (), (), {}, {}, _index=index)
        self.program = program_scope(evidence)
        self.quoted: list[QuoteRef] = list(rules.quotes) if rules is not None else []

    def text(self, text: str, where: str) -> list[Problem]:
        """Numbers of a text held to this run's program facts (or, without run rules, to any evidence)."""
        if self.rules is None:
            return ground_numbers(text, self.index, where)
        return self.statement(Statement(where, text, self.program, "prose"))

    def statement(self, statement: Statement) -> list[Problem]:
        """Every rule on a statement: its numbers from what it cites, levels and orders from the program."""
        subject = self.rules.subject if self.rules is not None else ""
        problems = ground_statement(statement, self.ctx, subject)
        if self.rules is not None:
            orders = self.rules.orders
            problems += level_problems(statement, self.ctx, orders, reference=self.rules.reference)
            problems += order_problems(statement, orders, gaps=self.rules.gaps, lot=self.ctx.lot)
            registered = [(normalise(q.text), q) for q in self.quoted]
            for span in quoted_spans(statement.text):
                problems += quotation_problems(span, statement.location, registered, self.ctx)
        return problems

    def statements(self, kind: str, value: Mapping[str, Any]) -> list[Problem]:
        return [p for s in statements_of(kind, value, self.program) for p in self.statement(s)]

    def cited(self, item: j.Cited, where: str, kind: StatementKind = "claim") -> list[Problem]:
        problems = self.statement(Statement(where, item.text, tuple(item.evidence), kind))
        if not item.evidence:
            problems.append(Problem("evidence_missing", f"{where} cites no evidence", "cite evidence ids", where))
        for evidence_id in item.evidence:
            if evidence_id not in self.evidence:
                problems.append(
                    Problem(
                        "evidence_unknown",
                        f"{where} cites {evidence_id}, not evidence of this run",
                        "cite only ids returned by this run's tools and facts",
                        where,
                    )
                )
        return problems

    def quotes(self, quotes: Sequence[j.Quote], where: str) -> list[Problem]:
        problems = []
        for i, quote in enumerate(quotes):
            found = self.evidence.get(quote.evidence_id)
            problem = quote_problem(
                quote.text,
                quote.evidence_id,
                found.kind if found else None,
                found.body if found else None,
                f"{where}.quotes[{i}]",
            )
            if problem:
                problems.append(problem)
        return problems

    def scene(self, scene: j.Scene) -> list[Problem]:
        problems = self.cited(scene.rationale, "scene.rationale")
        for i, anchor in enumerate(scene.international_anchors):
            problems += self._name(anchor, f"scene.international_anchors[{i}]")
        problems += self._peers(scene.peers)
        problems += self._reading(scene.announcements_to_read)
        for i, term in enumerate(scene.search_terms):
            problems += self._name(term, f"scene.search_terms[{i}]", limit=60)
        known = set(self.facts.get("prepare", {}).get("sector_candidates", []))
        if known and scene.sector_index not in known:
            problems.append(
                Problem(
                    "sector_unknown",
                    f"sector index '{scene.sector_index}' is not among the candidates",
                    f"choose one of: {', '.join(sorted(known))}",
                    "scene.sector_index",
                )
            )
        return problems

    def _name(self, text: str, where: str, limit: int = 40) -> list[Problem]:
        """A short name (an index, a topic): no sentence, nothing to read as a claim, numbers grounded."""
        problems = self.text(text, where)
        if len(text) > limit or any(mark in text for mark in "。；;！？!?\n"):
            problems.append(
                Problem(
                    "name_not_a_name",
                    f"{where} holds a sentence, not a name: «{text[:60]}»",
                    f"give a short name (under {limit} characters); put claims in the rationale with evidence",
                    where,
                )
            )
        return problems

    def _peers(self, peers: Sequence[str]) -> list[Problem]:
        if self.rules is None:
            return []
        problems = []
        for i, peer in enumerate(peers):
            where = f"scene.peers[{i}]"
            if not self.rules.known_symbol(peer):
                problems.append(
                    Problem(
                        "peer_unknown",
                        f"peer «{peer[:60]}» is not a symbol of an instrument this workspace holds",
                        "give listed symbols (e.g. 600519.SH), one per entry; argue in the rationale",
                        where,
                    )
                )
            elif peer == self.rules.subject:
                problems.append(
                    Problem("peer_is_subject", f"{peer} is the subject itself", "name other companies", where)
                )
        return problems

    def _reading(self, announcements: Sequence[str]) -> list[Problem]:
        if self.rules is None:
            return []
        return [
            Problem(
                "announcement_unknown",
                f"announcement «{a[:60]}» is not in this run's announcement list",
                "choose ids from the announcement list in the facts",
                f"scene.announcements_to_read[{i}]",
            )
            for i, a in enumerate(announcements)
            if a not in self.rules.announcements
        ]

    def diagnosis(self, diagnosis: j.Diagnosis) -> list[Problem]:
        self.quoted += [
            QuoteRef(q.text, q.evidence_id, f"diagnosis.quotes[{i}]") for i, q in enumerate(diagnosis.quotes)
        ]
        problems = self.statements("diagnosis", diagnosis.model_dump(mode="json"))
        if not diagnosis.causal_chain:
            problems.append(Problem("chain_missing", "the causal chain is empty", "give at least one cause and effect"))
        for i, link in enumerate(diagnosis.causal_chain):
            problems += self.cited(link, f"diagnosis.causal_chain[{i}]")
        for i, claim in enumerate(diagnosis.claims):
            problems += self.cited(claim, f"diagnosis.claims[{i}]")
        return problems + self.quotes(diagnosis.quotes, "diagnosis")

    def arguments(self, arguments: j.Arguments, side: str) -> list[Problem]:
        problems = []
        if arguments.side != side:
            problems.append(
                Problem(
                    "wrong_side", f"this sub-study argues the {side} side, not {arguments.side}", f"submit side={side}"
                )
            )
        if not arguments.arguments:
            problems.append(
                Problem("arguments_missing", "no arguments were submitted", "give every argument you found")
            )
        for i, item in enumerate(arguments.arguments):
            problems += self.cited(item, f"{side}.arguments[{i}]")
        return problems

    def judgments(self, batch: j.Judgments) -> list[Problem]:
        """Problems with every judgment present in the batch."""
        problems: list[Problem] = []
        analytics = self.facts.get("analytics", {})
        for i, risk in enumerate(batch.risks or []):
            problems += self.cited(risk, f"risks[{i}]")
        if batch.debate_verdict is not None:
            verdict = batch.debate_verdict
            for name in ("strongest_case_for_selling", "most_likely_wrong", "conflicting_evidence", "explanation"):
                problems += self.cited(getattr(verdict, name), f"debate_verdict.{name}")
        given = batch.model_dump(mode="json", exclude_none=True)
        rest = {k: v for k, v in given.items() if k not in {"risks", "debate_verdict", "action"}}
        problems += self.statements("judgments", rest)
        if batch.position_state is not None:
            allowed = analytics.get("position_state", {}).get("allowed", [])
            if batch.position_state not in allowed:
                problems.append(
                    Problem(
                        "position_state_illegal",
                        f"'{batch.position_state}' is not a legal state now",
                        f"choose one of: {', '.join(allowed)}",
                        "position_state",
                    )
                )
        if batch.zones is not None and not batch.zones.accept_program_zones:
            problems.append(
                Problem(
                    "zones_program_only",
                    "zones are computed by the program and cannot be replaced",
                    "accept the program's zones; argue differences in the text",
                    "zones",
                )
            )
        if batch.scenarios is not None:
            problems += self._scenarios(batch.scenarios, analytics)
        if batch.continuity is not None:
            problems += self._continuity(batch.continuity)
        if batch.open_orders is not None:
            problems += self._open_orders(batch.open_orders, analytics)
        if batch.action is not None:
            problems += self._action(batch.action, analytics)
        if batch.gaps is not None:
            problems += self._gaps(batch.gaps)
        return problems

    def _scenarios(self, scenarios: Sequence[j.ScenarioJudgment], analytics: Mapping[str, Any]) -> list[Problem]:
        table = {s["name"]: Decimal(s["probability"]) for s in analytics.get("scenarios", {}).get("items", [])}
        tolerance = Decimal(analytics.get("scenarios", {}).get("tolerance", "0.05"))
        problems, total = [], Decimal(0)
        for i, s in enumerate(scenarios):
            where = f"scenarios[{i}]"
            try:
                p = Decimal(s.probability)
            except InvalidOperation:
                problems.append(
                    Problem("probability_format", f"'{s.probability}' is not a decimal", "e.g. 0.35", where)
                )
                continue
            total += p
            if s.name not in table:
                problems.append(
                    Problem(
                        "scenario_unknown",
                        f"'{s.name}' is not a calibrated scenario",
                        f"use: {', '.join(table)}",
                        where,
                    )
                )
            elif abs(p - table[s.name]) > tolerance:
                problems.append(
                    Problem(
                        "probability_off_table",
                        f"'{s.name}' {p} is not within {tolerance} of the calibrated {table[s.name]}",
                        "use the calibrated probability (argue in the narrative)",
                        where,
                    )
                )
        if scenarios and abs(total - 1) > Decimal("0.001"):
            problems.append(Problem("probabilities_sum", f"the probabilities sum to {total}", "make them sum to 1"))
        if {s.name for s in scenarios} != set(table):
            problems.append(
                Problem(
                    "scenarios_incomplete", "every calibrated scenario needs a judgment", f"submit: {', '.join(table)}"
                )
            )
        return problems

    def _continuity(self, continuity: j.Continuity) -> list[Problem]:
        problems = []
        for name in ("old_plan", "what_happened", "what_changed", "what_to_do"):
            value = getattr(continuity, name)
            if not value.strip():
                problems.append(Problem("continuity_incomplete", f"continuity.{name} is empty", "fill it in"))
        return problems

    def _open_orders(self, decisions: Sequence[j.OpenOrderDecision], analytics: Mapping[str, Any]) -> list[Problem]:
        open_ids = {o["order_id"] for o in self.facts.get("prepare", {}).get("ledger", {}).get("open_orders", [])}
        given = {d.order_id for d in decisions}
        problems = [
            Problem("open_order_undecided", f"open order {oid} needs KEEP, MODIFY or CANCEL", "decide every open order")
            for oid in sorted(open_ids - given)
        ]
        problems += [
            Problem("open_order_unknown", f"{oid} is not an open order of this account", "decide only listed orders")
            for oid in sorted(given - open_ids)
        ]
        zones = analytics.get("zones", {})
        orders = {o["order_id"]: o for o in self.facts.get("prepare", {}).get("ledger", {}).get("open_orders", [])}
        for i, d in enumerate(decisions):
            order = orders.get(d.order_id)
            if order is None or d.decision == "CANCEL":
                continue
            if d.decision == "MODIFY":
                problems += self._modify(d, order, f"open_orders[{i}]")
            modified = _decimal(d.new_price) if d.decision == "MODIFY" else None
            price = modified if modified is not None else Decimal(order["price"])
            band = zones.get("buy" if order["side"] == "buy" else "sell")
            if band and not Decimal(band["low"]) <= price <= Decimal(band["high"]):
                problems.append(
                    Problem(
                        "order_outside_zone",
                        f"order {d.order_id} at {price} lies outside the new {order['side']} zone "
                        f"{band['low']}-{band['high']}",
                        "MODIFY it into the zone or CANCEL it",
                    )
                )
        return problems

    def _modify(self, decision: j.OpenOrderDecision, order: Mapping[str, Any], where: str) -> list[Problem]:
        """A MODIFY is a new order at the broker: the same gate as the program's orders (tick, lot, limits,
        sellable, cash), and none at all in a report with data gaps."""
        if self.rules is not None and self.rules.gaps:
            return [
                Problem(
                    "modify_with_gaps",
                    f"order {decision.order_id} is modified, but the report has data gaps",
                    "a report with gaps carries no executable order: KEEP or CANCEL it",
                    where,
                )
            ]
        price = _decimal(decision.new_price) if decision.new_price is not None else Decimal(order["price"])
        if price is None:
            return [Problem("modify_price_format", f"'{decision.new_price}' is not a price", "e.g. 1650.00", where)]
        qty = decision.new_qty if decision.new_qty is not None else int(order["qty"]) - int(order.get("filled") or 0)
        if decision.new_price is None and decision.new_qty is None:
            return [Problem("modify_unchanged", f"MODIFY of {decision.order_id} changes nothing", "KEEP it", where)]
        if self.rules is None or self.rules.check_order is None or self.rules.account is None:
            return []
        plan = OrderPlan(self.rules.account, self.rules.subject, str(order["side"]), qty, price, "modify")
        return [replace(p, location=where) for p in self.rules.check_order(plan)]

    def _action(self, action: j.FinalAction, analytics: Mapping[str, Any]) -> list[Problem]:
        problems = self.cited(action.why, "action.why", "reason")
        baseline = analytics.get("baseline", {})
        problems += _agreement(action.action, action.why.text, str(baseline.get("direction", "")))
        if action.action in {"buy", "add"} and Decimal(str(baseline.get("ev", "0"))) < 0:
            problems.append(
                Problem(
                    "negative_ev_buy",
                    "the baseline's expected value is negative: no buy or add",
                    "choose hold, reduce, sell or avoid",
                    "action",
                )
            )
        return problems

    def _gaps(self, gaps: Sequence[j.GapAcceptance]) -> list[Problem]:
        open_gaps = set(self.facts.get("prepare", {}).get("gaps", []))
        given = {g.gap for g in gaps}
        return [
            Problem("gap_undisclosed", f"the data gap '{g}' is not disclosed", "accept it with a disclosure")
            for g in sorted(open_gaps - given)
        ]


_ACTION_WORDS: dict[str, str] = {
    "buy": r"\bbuy\b|买入", "add": r"\badd\b|加仓", "hold": r"\bhold\b|持有", "reduce": r"\breduce\b|减仓",
    "sell": r"\bsell\b|卖出", "avoid": r"\bavoid\b|回避", "wait": r"\bwait\b|观望",
}  # fmt: skip
_NOT_AN_ACTION = r"(?!\s?(?:区间|区域|区|价|点|信号|条件|时机|机会|zone|price|signal))"
_ACTIONS_NAMED = {a: re.compile(f"(?:{w}){_NOT_AN_ACTION}", re.IGNORECASE) for a, w in _ACTION_WORDS.items()}
_AGREES = re.compile(r"与(?:程序)?基线一致|同(?:程序)?基线|consistent with the baseline|agrees? with the baseline|"
                     r"same as the baseline|follows the baseline", re.IGNORECASE)  # fmt: skip


def _agreement(action: str, why: str, baseline: str) -> list[Problem]:
    """The action's stated reason must agree with the action: no other action named as the call, no claim of
    following the baseline when the action differs from it."""
    named = [a for a, pattern in _ACTIONS_NAMED.items() if pattern.search(why)]
    if _AGREES.search(why) and baseline and baseline != action:
        return [
            Problem(
                "action_reason_contradicts",
                f"the reason says the action follows the baseline ({baseline}), but the action is {action}",
                "say why the action differs from the baseline, or choose the baseline's action",
                "action.why",
            )
        ]
    if named and action not in named:
        return [
            Problem(
                "action_reason_contradicts",
                f"the reason names {', '.join(named)}, but the action is {action}",
                "make the reason argue for the action chosen",
                "action.why",
            )
        ]
    return []


def _decimal(value: str | None) -> Decimal | None:
    try:
        found = Decimal(str(value).strip()) if value is not None else None
    except InvalidOperation:
        return None
    return found if found is not None and found.is_finite() else None


def accepted_payload(kind: str, value: Any) -> dict[str, Any]:
    return {"accepted": True, "judgment": kind, "value": value}
