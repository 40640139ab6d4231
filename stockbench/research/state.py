"""A run's state: its record, the judgments accepted so far and the program's facts, rebuilt from the journal
on every resume. Plain data: nothing live (no engine, client or closure) is held here, so any module may read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from stockbench.evidence.documents import grounding
from stockbench.evidence.numbers import NumberIndex
from stockbench.evidence.store import Evidence
from stockbench.research import judgments as j
from stockbench.research.blocks import RunFacts
from stockbench.research.conversation import Conversation
from stockbench.research.handbook import Handbook
from stockbench.research.records import RunRecord

Stage = Literal["prepare", "scene", "collect", "preprocess", "analyze", "decide", "report", "publish"]
STAGES: tuple[Stage, ...] = get_args(Stage)
Side = Literal["bull", "bear"]
SIDES: tuple[Side, ...] = ("bull", "bear")
# The decide-stage judgments, as `Judgments` names them (each an optional field of a batch).
DECIDE_FIELDS = tuple(j.Judgments.model_fields)


class Paused(Exception):
    """A real failure the run stops for, with the reason shown (network-class failures resume by themselves)."""

    def __init__(self, reason: str, *, network: bool = False) -> None:
        super().__init__(reason)
        self.reason, self.network = reason, network


class StopRequested(Exception):
    """The user stopped the run."""


__all__ = ["STAGES", "Accepted", "Paused", "RunState", "Side", "Stage", "StopRequested"]


class Accepted(j.Strict):
    """Every judgment accepted so far, typed: the model's submissions exactly as the checks accepted them."""

    scene: j.Scene | None = None
    diagnosis: j.Diagnosis | None = None
    bull: j.Arguments | None = None
    bear: j.Arguments | None = None
    risks: list[j.Cited] | None = None
    debate_verdict: j.DebateVerdict | None = None
    position_state: str | None = None
    zones: j.ZoneChoice | None = None
    scenarios: list[j.ScenarioJudgment] | None = None
    continuity: j.Continuity | None = None
    paths: list[j.PathTrigger] | None = None
    open_orders: list[j.OpenOrderDecision] | None = None
    action: j.FinalAction | None = None
    gaps: list[j.GapAcceptance] | None = None
    report: j.ReportText | None = None

    def taken(self, kind: str, value: Mapping[str, Any]) -> Accepted:
        """This record with one accepted submission (a judgment type, `arguments_<side>`, or a decide batch)."""
        current = self.model_dump(mode="json", exclude_none=True)
        if kind == "judgments":
            current.update(value)
        elif kind.startswith("arguments_"):
            current[kind.removeprefix("arguments_")] = dict(value)
        else:
            current[kind] = dict(value)
        return Accepted.model_validate(current)

    def has(self, kind: str) -> bool:
        """Whether a judgment of type `kind` (or `arguments_<side>`) was accepted."""
        return getattr(self, kind.removeprefix("arguments_"), None) is not None

    def kinds(self) -> tuple[str, ...]:
        """The judgment types accepted, as the gates name them (the sub-studies as arguments_bull/bear)."""
        names = [f"arguments_{n}" if n in SIDES else n for n, v in self if v is not None]
        return tuple(names)

    def arguments(self, side: Side) -> list[j.Cited]:
        found = self.bull if side == "bull" else self.bear
        return list(found.arguments) if found else []

    def claims(self) -> list[j.Cited]:
        """The statements the report carries as claims: the causal chain, the diagnosis's claims, both sides."""
        diagnosis = self.diagnosis
        found = [*diagnosis.causal_chain, *diagnosis.claims] if diagnosis else []
        return found + self.arguments("bull") + self.arguments("bear")

    @property
    def decision(self) -> str:
        return self.action.action if self.action else "hold"


@dataclass
class RunState:
    """One run's working state while it executes: a record, evidence, facts, accepted judgments, conversations."""

    run: RunRecord
    handbook: Handbook
    evidence: dict[str, Evidence]
    facts: RunFacts = field(default_factory=RunFacts)
    accepted: Accepted = field(default_factory=Accepted)
    main: Conversation = field(default_factory=Conversation)
    baseline: Conversation = field(default_factory=Conversation)
    allowed: tuple[str, ...] = ()  # the tools the current stage may call
    side: Side | None = None  # the sub-study running, if any
    accepted_count: int = 0  # accepted submissions so far (live or replayed): progress, for stall checks
    values: dict[str, Any] = field(default_factory=dict)  # evidence id -> its values for citation checks
    _index: NumberIndex | None = None

    def add_evidence(self, stored: list[Evidence]) -> None:
        for item in stored:
            self.evidence.setdefault(item.evidence_id, item)
        if stored:
            self._index = None

    @property
    def index(self) -> NumberIndex:
        if self._index is None:
            self._index = grounding(self.evidence)
        return self._index

    def take(self, kind: str, value: Mapping[str, Any]) -> None:
        """Record an accepted submission (live or replayed from the journal)."""
        self.accepted = self.accepted.taken(kind, value)
        self.accepted_count += 1

    def required_decisions(self) -> list[str]:
        needed = list(j.DECIDE_REQUIRED)
        if self.facts.gaps:
            needed.append("gaps")
        return needed

    def decided(self) -> bool:
        return all(self.accepted.has(k) for k in self.required_decisions())
