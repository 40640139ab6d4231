"""The statements of a run: every text the model wrote, with the evidence its numbers must come from.

One mapping from judgments to statements serves both checks: when a judgment is submitted (so the model can
fix what is wrong) and at publication (the draft carries the same statements, so `reports verify` re-checks
them). A statement that cites evidence is held to what it cites; a text that cites nothing (a narrative, a
path, a reason, the conclusion) is held to the run's program facts, never to a document it did not cite.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from stockbench.evidence.documents import Statement, StatementKind
from stockbench.evidence.store import Evidence
from stockbench.research import judgments as j

if TYPE_CHECKING:
    from stockbench.research.state import Accepted

# Evidence read from outside that a statement must cite by id to use: documents and search results.
READ_KINDS = frozenset({"announcement_text", "document", "page", "filing", "search_result"})
VERDICT_PARTS = ("strongest_case_for_selling", "most_likely_wrong", "conflicting_evidence", "explanation")
REPORT_PARTS = ("title", "conclusion", "what_to_do_now", "what_would_change_my_mind", "what_to_watch")
CONTINUITY_PARTS = ("old_plan", "what_happened", "what_changed", "what_to_do")


def program_scope(evidence: Mapping[str, Evidence]) -> tuple[str, ...]:
    """The run's program facts: every evidence of the run except documents and search results."""
    return tuple(sorted(eid for eid, e in evidence.items() if e.kind not in READ_KINDS))


def _cited(where: str, item: j.Cited, kind: StatementKind = "claim") -> Statement:
    return Statement(where, item.text, tuple(item.evidence), kind)


def _text(where: str, text: str, scope: Sequence[str], kind: StatementKind = "prose") -> Iterator[Statement]:
    if text.strip():
        yield Statement(where, text, tuple(scope), kind)


def scene_statements(scene: j.Scene, program: Sequence[str]) -> Iterator[Statement]:
    yield _cited("scene.rationale", scene.rationale)
    for i, anchor in enumerate(scene.international_anchors):
        yield from _text(f"scene.international_anchors[{i}]", anchor, program)


def diagnosis_statements(diagnosis: j.Diagnosis, program: Sequence[str]) -> Iterator[Statement]:
    cited = sorted({e for link in (*diagnosis.causal_chain, *diagnosis.claims) for e in link.evidence})
    yield from _text("diagnosis.summary", diagnosis.summary, [*program, *cited])


def judgment_statements(batch: j.Judgments | Accepted, program: Sequence[str]) -> Iterator[Statement]:
    """The statements of decide-stage judgments (risks are claims of their own, carried by the draft as risks;
    the action's reason is a cited reason)."""
    verdict = batch.debate_verdict
    for part in VERDICT_PARTS if verdict else ():
        yield _cited(f"debate_verdict.{part}", getattr(verdict, part))
    if batch.zones is not None:
        yield from _text("zones.reason", batch.zones.reason, program)
    for i, scenario in enumerate(batch.scenarios or []):
        yield from _text(f"scenarios[{i}].narrative", scenario.narrative, program)
    if batch.continuity is not None:
        scope = [*program, *batch.continuity.evidence]
        for part in CONTINUITY_PARTS:
            yield from _text(f"continuity.{part}", getattr(batch.continuity, part), scope, "continuity")
    for i, path in enumerate(batch.paths or []):
        yield from _text(f"paths[{i}].trigger", path.trigger, program, "path")
        yield from _text(f"paths[{i}].action", path.action, program, "path")
    for i, order in enumerate(batch.open_orders or []):
        yield from _text(f"open_orders[{i}].reason", order.reason, program, "reason")
    if batch.action is not None and batch.action.why.text:
        yield _cited("action.why", batch.action.why, "reason")
    for i, gap in enumerate(batch.gaps or []):
        yield from _text(f"gaps[{i}].disclosure", gap.disclosure, program)


def report_statements(report: j.ReportText, program: Sequence[str]) -> Iterator[Statement]:
    scope = [*program, *report.evidence]
    for part in REPORT_PARTS:
        yield from _text(f"report.{part}", getattr(report, part), scope, "report")


def run_statements(accepted: Accepted, program: Sequence[str]) -> list[Statement]:
    """Every statement of a run's accepted judgments except those the draft carries as claims and risks."""
    found: list[Statement] = []
    if accepted.scene is not None:
        found += scene_statements(accepted.scene, program)
    if accepted.diagnosis is not None:
        found += diagnosis_statements(accepted.diagnosis, program)
    found += judgment_statements(accepted, program)
    if accepted.report is not None:
        found += report_statements(accepted.report, program)
    return found
