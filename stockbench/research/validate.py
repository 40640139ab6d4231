"""Checks on each judgment the moment it is submitted, with fixes the model can act on.

These reuse the publication gates' own checks (evidence ids, number grounding, quotes, levels and orders) on
the part just submitted, so a draft whose judgments were all accepted is a draft the gates accept. The scene,
the diagnosis and the sub-studies are checked here; the decide stage's batches in `research/decisions.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from stockbench.errors import Problem
from stockbench.evidence.citations import ground_statement
from stockbench.evidence.documents import GateContext, OrderPlan, QuoteRef, Statement, StatementKind
from stockbench.evidence.gates import quotation_problems
from stockbench.evidence.levels import level_problems, order_problems
from stockbench.evidence.numbers import NumberIndex, ground_numbers
from stockbench.evidence.quotes import normalise, quote_problem, quoted_spans
from stockbench.evidence.store import Evidence
from stockbench.messages import problem, value_word
from stockbench.research import judgments as j
from stockbench.research.blocks import RunFacts
from stockbench.research.statements import (
    diagnosis_statements,
    judgment_statements,
    program_scope,
    report_statements,
    scene_statements,
)

Submitted = j.Scene | j.Diagnosis | j.Judgments | j.ReportText


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
        facts: RunFacts | None = None,
        rules: RunRules | None = None,
    ) -> None:
        self.evidence, self.index, self.facts = evidence, index, facts or RunFacts()
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

    def statements(self, value: Submitted) -> list[Problem]:
        """The rules on every statement of one submission (a scene, a diagnosis, a decide batch, a report)."""
        if isinstance(value, j.Scene):
            found = list(scene_statements(value, self.program))
        elif isinstance(value, j.Diagnosis):
            found = list(diagnosis_statements(value, self.program))
        elif isinstance(value, j.Judgments):
            found = list(judgment_statements(value, self.program))
        else:
            found = list(report_statements(value, self.program))
        return [p for s in found for p in self.statement(s)]

    def cited(self, item: j.Cited, where: str, kind: StatementKind = "claim") -> list[Problem]:
        problems = self.statement(Statement(where, item.text, tuple(item.evidence), kind))
        if not item.evidence:
            problems.append(problem("evidence_missing.statement", where=where, location=where))
        for evidence_id in item.evidence:
            if evidence_id not in self.evidence:
                problems.append(
                    problem("evidence_unknown.statement", where=where, evidence=evidence_id, location=where)
                )
        return problems

    def quotes(self, quotes: Sequence[j.Quote], where: str) -> list[Problem]:
        problems = []
        for i, quote in enumerate(quotes):
            found = self.evidence.get(quote.evidence_id)
            refused = quote_problem(
                quote.text,
                quote.evidence_id,
                found.kind if found else None,
                found.body if found else None,
                f"{where}.quotes[{i}]",
            )
            if refused:
                problems.append(refused)
        return problems

    def scene(self, scene: j.Scene) -> list[Problem]:
        problems = self.cited(scene.rationale, "scene.rationale")
        for i, anchor in enumerate(scene.international_anchors):
            problems += self._name(anchor, f"scene.international_anchors[{i}]")
        problems += self._peers(scene.peers)
        problems += self._reading(scene.announcements_to_read)
        for i, term in enumerate(scene.search_terms):
            problems += self._name(term, f"scene.search_terms[{i}]", limit=60)
        known = set(self.facts.prepare.sector_candidates if self.facts.prepare else ())
        if known and scene.sector_index not in known:
            problems.append(problem("sector_unknown", index=scene.sector_index, known=", ".join(sorted(known)),
                                    location="scene.sector_index"))  # fmt: skip
        return problems

    def _name(self, text: str, where: str, limit: int = 40) -> list[Problem]:
        """A short name (an index, a topic): no sentence, nothing to read as a claim, numbers grounded."""
        problems = self.text(text, where)
        if len(text) > limit or any(mark in text for mark in "。；;！？!?\n"):
            problems.append(problem("name_not_a_name", where=where, text=text[:60], limit=limit, location=where))
        return problems

    def _peers(self, peers: Sequence[str]) -> list[Problem]:
        if self.rules is None:
            return []
        problems = []
        for i, peer in enumerate(peers):
            where = f"scene.peers[{i}]"
            if not self.rules.known_symbol(peer):
                problems.append(problem("peer_unknown", peer=peer[:60], location=where))
            elif peer == self.rules.subject:
                problems.append(problem("peer_is_subject", peer=peer, location=where))
        return problems

    def _reading(self, announcements: Sequence[str]) -> list[Problem]:
        if self.rules is None:
            return []
        return [
            problem("announcement_unknown", announcement=a[:60], location=f"scene.announcements_to_read[{i}]")
            for i, a in enumerate(announcements)
            if a not in self.rules.announcements
        ]

    def diagnosis(self, diagnosis: j.Diagnosis) -> list[Problem]:
        self.quoted += [
            QuoteRef(q.text, q.evidence_id, f"diagnosis.quotes[{i}]") for i, q in enumerate(diagnosis.quotes)
        ]
        problems = self.statements(diagnosis)
        if not diagnosis.causal_chain:
            problems.append(problem("chain_missing"))
        for i, link in enumerate(diagnosis.causal_chain):
            problems += self.cited(link, f"diagnosis.causal_chain[{i}]")
        for i, claim in enumerate(diagnosis.claims):
            problems += self.cited(claim, f"diagnosis.claims[{i}]")
        return problems + self.quotes(diagnosis.quotes, "diagnosis")

    def arguments(self, arguments: j.Arguments, side: str) -> list[Problem]:
        problems = []
        if arguments.side != side:
            problems.append(problem("wrong_side", side=side, side_zh=value_word("debate_side", side, "zh"),
                                    given=arguments.side, given_zh=value_word("debate_side", arguments.side, "zh"),
                                    field=f"side={side}"))  # fmt: skip
        if not arguments.arguments:
            problems.append(problem("arguments_missing"))
        for i, item in enumerate(arguments.arguments):
            problems += self.cited(item, f"{side}.arguments[{i}]")
        return problems


def accepted_payload(kind: str, value: Any) -> dict[str, Any]:
    return {"accepted": True, "judgment": kind, "value": value}
