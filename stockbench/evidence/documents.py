"""The report draft the publication gates check, and the context they check it against.

A draft is data, not prose: sections of text plus the structured judgments behind them (claims and risks
with their evidence ids, quotes with their source, zones with their anchors, scenarios with probabilities,
orders, disclosed gaps and the method steps done or skipped). The research engine builds it; the gates
only read it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

from stockbench.errors import Problem
from stockbench.evidence.numbers import NumberIndex, index_evidence
from stockbench.evidence.store import Evidence


@dataclass(frozen=True, slots=True)
class Section:
    key: str
    title: str
    text: str


@dataclass(frozen=True, slots=True)
class Claim:
    text: str
    evidence: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Risk:
    text: str
    evidence: tuple[str, ...]


# Evidence that never grounds a number or a quote: search results are candidates until a document is read in full
# (their bodies also echo the model's own query).
CANDIDATE_KINDS = frozenset({"search_result"})


def grounding(evidence: Mapping[str, Evidence]) -> NumberIndex:
    """The number index of a run's evidence that may ground numbers (candidates left out)."""
    return index_evidence(
        (e.evidence_id, e.media_type, e.body) for e in evidence.values() if e.kind not in CANDIDATE_KINDS
    )


StatementKind = Literal["claim", "prose", "path", "reason", "report", "continuity"]
STATEMENT_KINDS: tuple[StatementKind, ...] = ("claim", "prose", "path", "reason", "report", "continuity")


@dataclass(frozen=True, slots=True)
class Statement:
    """A text the model wrote, with the evidence its numbers must come from.

    `evidence` is the statement's scope: the ids it cites (a claim) or, for text that cites nothing, the run's
    program facts. `kind` says which rules on levels and orders apply: a `path` may name only the program's
    levels; `reason`, `report` and `continuity` texts that speak of a zone, stop or order likewise (a
    continuity may also name the previous report's levels); `report` texts may restate a sized order.
    """

    location: str
    text: str
    evidence: tuple[str, ...]
    kind: StatementKind = "claim"


@dataclass(frozen=True, slots=True)
class QuoteRef:
    text: str
    evidence_id: str
    location: str


@dataclass(frozen=True, slots=True)
class ZoneBand:
    low: Decimal
    high: Decimal
    anchors: tuple[str, ...]  # anchor ids computed by the program (analytics.zones)


@dataclass(frozen=True, slots=True)
class ZonePlan:
    buy: ZoneBand | None
    sell: ZoneBand | None
    stop: Decimal | None
    stop_anchors: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ScenarioPlan:
    name: str
    probability: Decimal
    text: str = ""


@dataclass(frozen=True, slots=True)
class OrderPlan:
    """An executable order proposal (sized by the program)."""

    account: str
    symbol: str
    side: str
    qty: int
    price: Decimal
    action: str = "new"  # new | keep | modify | cancel


@dataclass(frozen=True, slots=True)
class Gap:
    name: str
    reason: str


@dataclass(frozen=True, slots=True)
class MethodStep:
    step: str
    status: str  # done | skipped
    reason: str = ""


@dataclass(frozen=True, slots=True)
class ActionChoice:
    """The final action and the position state submitted with it."""

    action: str
    position_state: str


@dataclass(frozen=True, slots=True)
class ActionRule:
    """What the program allows for one action now: the position states it may go with, or why it is refused."""

    states: tuple[str, ...] = ()
    problems: tuple[Problem, ...] = ()


@dataclass(frozen=True)
class ReportDraft:
    run_id: str
    symbol: str
    sections: tuple[Section, ...]
    claims: tuple[Claim, ...] = ()
    risks: tuple[Risk, ...] = ()
    quotes: tuple[QuoteRef, ...] = ()
    zones: ZonePlan | None = None
    scenarios: tuple[ScenarioPlan, ...] = ()
    orders: tuple[OrderPlan, ...] = ()
    gaps: tuple[Gap, ...] = ()
    method: tuple[MethodStep, ...] = ()
    judgments: Mapping[str, str] = field(default_factory=dict)  # judgment type -> evidence-backed summary
    statements: tuple[Statement, ...] = ()  # every model-written text besides claims and risks, with its scope
    decision: ActionChoice | None = None  # None in drafts published before the action gate

    def section(self, key: str) -> Section | None:
        return next((s for s in self.sections if s.key == key), None)


OrderChecker = Callable[[OrderPlan], list[Problem]]


@dataclass
class GateContext:
    """What the gates check a draft against: this run's evidence and the program's own results."""

    run_id: str
    evidence: Mapping[str, Evidence]
    required_sections: tuple[str, ...]
    required_judgments: tuple[str, ...]
    required_steps: tuple[str, ...]  # method steps that apply to this run (from the handbook)
    anchors: Mapping[str, Decimal]  # anchor id -> price level, as the program computed them
    calibrated: Mapping[str, Decimal]  # scenario name -> calibrated probability
    probability_tolerance: Decimal = Decimal("0.05")
    anchor_widths: Mapping[str, Decimal] = field(default_factory=dict)  # width anchors (an ATR band): id -> width
    # The program's own zone bounds ("buy": (low, high), "sell": (low, high), "stop": (price,)): when given, a
    # proposed zone must equal them exactly (zones are computed by the program, never by the model).
    zone_bounds: Mapping[str, tuple[Decimal, ...]] = field(default_factory=dict)
    check_order: OrderChecker | None = None
    lot: int | None = None  # shares per board lot of the subject: "手" in an order sentence is counted in lots
    previous_levels: tuple[Decimal, ...] = ()  # the previous report's zone bounds and stop (continuity may name them)
    # Every action of the closed set -> what the position allows for it now (empty: the action is not checked).
    action_rules: Mapping[str, ActionRule] = field(default_factory=dict)
    # Whether a kept, modified or new order must go with the final action (`order_against_action`): a report
    # published before the rule is verified by the gates it was published under.
    orders_follow_action: bool = False
    _index: NumberIndex | None = None
    _values: dict[str, Any] = field(default_factory=dict, repr=False)  # evidence id -> its values, for citations

    @property
    def numbers(self) -> NumberIndex:
        if self._index is None:
            self._index = grounding(self.evidence)
        return self._index

    def levels(self) -> tuple[Decimal, ...]:
        """The program's own levels: zone bounds and stop (the prices a plan may name besides sized orders)."""
        return tuple(level for bounds in self.zone_bounds.values() for level in bounds)
