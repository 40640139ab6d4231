"""Checks on each judgment the moment it is submitted, with fixes the model can act on.

These reuse the publication gates' own checks (evidence ids, number grounding, probabilities, anchors) on
the part just submitted, so a draft whose judgments were all accepted is a draft the gates accept.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from stockbench.errors import Problem
from stockbench.evidence.numbers import NumberIndex, ground_numbers
from stockbench.evidence.quotes import quote_problem
from stockbench.evidence.store import Evidence
from stockbench.research import judgments as j


class Checker:
    """Judgment checks against one run's evidence and program facts."""

    def __init__(self, evidence: Mapping[str, Evidence], index: NumberIndex, facts: Mapping[str, Any]) -> None:
        self.evidence, self.index, self.facts = evidence, index, facts

    def text(self, text: str, where: str) -> list[Problem]:
        return ground_numbers(text, self.index, where)

    def cited(self, item: j.Cited, where: str) -> list[Problem]:
        problems = self.text(item.text, where)
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

    def diagnosis(self, diagnosis: j.Diagnosis) -> list[Problem]:
        problems = self.text(diagnosis.summary, "diagnosis.summary")
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
        for i, path in enumerate(batch.paths or []):
            problems += self.text(path.trigger, f"paths[{i}].trigger") + self.text(path.action, f"paths[{i}].action")
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
            problems += self.text(s.narrative, f"{where}.narrative")
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
            problems += self.text(value, f"continuity.{name}")
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
        for d in decisions:
            order = orders.get(d.order_id)
            if order is None or d.decision == "CANCEL":
                continue
            price = Decimal(d.new_price) if d.decision == "MODIFY" and d.new_price else Decimal(order["price"])
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

    def _action(self, action: j.FinalAction, analytics: Mapping[str, Any]) -> list[Problem]:
        problems = self.cited(action.why, "action.why")
        baseline = analytics.get("baseline", {})
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
        problems = [
            Problem("gap_undisclosed", f"the data gap '{g}' is not disclosed", "accept it with a disclosure")
            for g in sorted(open_gaps - given)
        ]
        for i, gap in enumerate(gaps):
            problems += self.text(gap.disclosure, f"gaps[{i}].disclosure")
        return problems


def accepted_payload(kind: str, value: Any) -> dict[str, Any]:
    return {"accepted": True, "judgment": kind, "value": value}
