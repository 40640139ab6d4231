"""The judgments a model submits, as typed records; their JSON schemas become the tools' parameters.

Names here are the method's vocabulary: the handbook names each judgment type exactly as `JUDGMENT_TYPES`
does, and the handbook check verifies it. Every free-text field is checked by the gates (numbers and quotes
must be grounded); every list of evidence ids must name evidence of this run.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from stockbench.analytics.position_states import Action  # the closed set, tied to the position states

OrderDecision = Literal["KEEP", "MODIFY", "CANCEL"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Cited(Strict):
    text: str = Field(description="One statement; every number in it must come from cited evidence.")
    evidence: list[str] = Field(description="Evidence ids (ev-...) from this run that support the statement.")


class Quote(Strict):
    text: str = Field(description="A verbatim passage from a fetched full text.")
    evidence_id: str = Field(description="The evidence id of the full text it is copied from.")


class Scene(Strict):
    """The standalone scene declaration: the model's first action."""

    sector_index: str = Field(description="The sector index the stock is judged against (a symbol in the facts).")
    overseas_bound: bool = Field(description="Whether the business depends materially on overseas markets.")
    international_anchors: list[str] = Field(default_factory=list, description="Overseas peers or indices to read.")
    peers: list[str] = Field(default_factory=list, description="Comparable listed companies (symbols).")
    search_terms: list[str] = Field(default_factory=list, description="Policy or topic searches worth running.")
    announcements_to_read: list[str] = Field(default_factory=list, description="Announcement ids to read in full.")
    rationale: Cited


class Diagnosis(Strict):
    summary: str = Field(description="The diagnosis in a short paragraph.")
    causal_chain: list[Cited] = Field(description="Events turned into causes and effects, each with evidence.")
    claims: list[Cited] = Field(default_factory=list)
    quotes: list[Quote] = Field(default_factory=list)


class Arguments(Strict):
    """A BULL or BEAR sub-study: every evidence-backed argument for its side."""

    side: Literal["bull", "bear"]
    arguments: list[Cited]


class DebateVerdict(Strict):
    """The four verdict questions."""

    strongest_case_for_selling: Cited
    most_likely_wrong: Cited
    conflicting_evidence: Cited
    opposition_overturns: bool = Field(description="Is the opposition strong enough to overturn the call?")
    explanation: Cited


class ZoneChoice(Strict):
    accept_program_zones: bool = Field(description="Use the program's zones as computed (recommended).")
    reason: str = ""


class ScenarioJudgment(Strict):
    name: str = Field(description="A scenario name from the calibrated table.")
    probability: str = Field(description="A decimal string, within the table's tolerance of its calibrated value.")
    narrative: str


class Continuity(Strict):
    old_plan: str
    what_happened: str
    what_changed: str
    what_to_do: str
    evidence: list[str] = Field(default_factory=list)


class PathTrigger(Strict):
    trigger: str = Field(description="A price or event condition, referring to the program's zone levels.")
    action: str


class OpenOrderDecision(Strict):
    order_id: str
    decision: OrderDecision
    new_price: str | None = Field(default=None, description="MODIFY: the new limit price (on the tick).")
    new_qty: int | None = Field(default=None, description="MODIFY: the new quantity (whole lots, within sellable).")
    reason: str


class FinalAction(Strict):
    action: Action = Field(
        description="One of the actions the program allows now (analytics.position_state.actions): "
        "hold, reduce and sell need shares held; nothing held and nothing to do is wait."
    )
    why: Cited = Field(description="Why this action; if it differs from the program's baseline, why it differs.")


class GapAcceptance(Strict):
    gap: str = Field(description="The data gate name that has a gap.")
    disclosure: str = Field(description="How the report discloses it to the reader.")


class Judgments(Strict):
    """A batch of decide-stage judgments; submit any subset, fix what is returned, until all are accepted."""

    risks: list[Cited] | None = None
    debate_verdict: DebateVerdict | None = None
    position_state: str | None = Field(default=None, description="A position state the program allows now.")
    zones: ZoneChoice | None = None
    scenarios: list[ScenarioJudgment] | None = None
    continuity: Continuity | None = None
    paths: list[PathTrigger] | None = None
    open_orders: list[OpenOrderDecision] | None = None
    action: FinalAction | None = None
    gaps: list[GapAcceptance] | None = None


class ReportText(Strict):
    """The only prose the model writes into the report's frame: title, conclusion and three answers."""

    title: str
    conclusion: str
    what_to_do_now: str
    what_would_change_my_mind: str
    what_to_watch: str
    evidence: list[str] = Field(
        default_factory=list,
        description="Evidence ids beyond the program's facts that these texts take numbers from (documents read).",
    )


JUDGMENT_TYPES = (
    "scene",
    "diagnosis",
    "arguments",
    "risks",
    "debate_verdict",
    "position_state",
    "zones",
    "scenarios",
    "continuity",
    "paths",
    "open_orders",
    "action",
    "gaps",
    "report",
)
DECIDE_REQUIRED = (
    "risks",
    "debate_verdict",
    "position_state",
    "zones",
    "scenarios",
    "continuity",
    "paths",
    "open_orders",
    "action",
)
