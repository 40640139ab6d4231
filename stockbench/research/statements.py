"""The statements of a run: every text the model wrote, with the evidence its numbers must come from.

One mapping from judgments to statements serves both checks: when a judgment is submitted (so the model can
fix what is wrong) and at publication (the draft carries the same statements, so `reports verify` re-checks
them). A statement that cites evidence is held to what it cites; a text that cites nothing (a narrative, a
path, a reason, the conclusion) is held to the run's program facts, never to a document it did not cite.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal
from typing import Any

from stockbench.evidence.documents import Statement, StatementKind
from stockbench.evidence.store import Evidence

# Evidence read from outside that a statement must cite by id to use: documents and search results.
READ_KINDS = frozenset({"announcement_text", "document", "page", "filing", "search_result"})
VERDICT_PARTS = ("strongest_case_for_selling", "most_likely_wrong", "conflicting_evidence", "explanation")
REPORT_PARTS = ("title", "conclusion", "what_to_do_now", "what_would_change_my_mind", "what_to_watch")
CONTINUITY_PARTS = ("old_plan", "what_happened", "what_changed", "what_to_do")


def program_scope(evidence: Mapping[str, Evidence]) -> tuple[str, ...]:
    """The run's program facts: every evidence of the run except documents and search results."""
    return tuple(sorted(eid for eid, e in evidence.items() if e.kind not in READ_KINDS))


def _cited(where: str, item: Mapping[str, Any]) -> Statement:
    return Statement(where, str(item.get("text", "")), tuple(item.get("evidence", [])), "claim")


def _text(where: str, text: Any, scope: Sequence[str], kind: StatementKind = "prose") -> Iterator[Statement]:
    if isinstance(text, str) and text.strip():
        yield Statement(where, text, tuple(scope), kind)


def _scene(value: Mapping[str, Any], program: Sequence[str]) -> Iterator[Statement]:
    if value.get("rationale"):
        yield _cited("scene.rationale", value["rationale"])
    for i, anchor in enumerate(value.get("international_anchors", [])):
        yield from _text(f"scene.international_anchors[{i}]", anchor, program)


def _diagnosis(value: Mapping[str, Any], program: Sequence[str]) -> Iterator[Statement]:
    links = [*value.get("causal_chain", []), *value.get("claims", [])]
    cited = {e for link in links for e in link.get("evidence", [])}
    yield from _text("diagnosis.summary", value.get("summary"), [*program, *sorted(cited)])


def _arguments(side: str, value: Mapping[str, Any]) -> Iterator[Statement]:
    for i, item in enumerate(value.get("arguments", [])):
        yield _cited(f"{side}.arguments[{i}]", item)


def _decided(value: Mapping[str, Any], program: Sequence[str]) -> Iterator[Statement]:
    """The statements of a batch of decide-stage judgments (risks are claims of their own, see `claims_of`)."""
    verdict = value.get("debate_verdict") or {}
    for part in VERDICT_PARTS:
        if verdict.get(part):
            yield _cited(f"debate_verdict.{part}", verdict[part])
    zones = value.get("zones") or {}
    yield from _text("zones.reason", zones.get("reason"), program)
    for i, scenario in enumerate(value.get("scenarios") or []):
        yield from _text(f"scenarios[{i}].narrative", scenario.get("narrative"), program)
    continuity = value.get("continuity") or {}
    scope = [*program, *continuity.get("evidence", [])]
    for part in CONTINUITY_PARTS:
        yield from _text(f"continuity.{part}", continuity.get(part), scope, "continuity")
    for i, path in enumerate(value.get("paths") or []):
        yield from _text(f"paths[{i}].trigger", path.get("trigger"), program, "path")
        yield from _text(f"paths[{i}].action", path.get("action"), program, "path")
    for i, order in enumerate(value.get("open_orders") or []):
        yield from _text(f"open_orders[{i}].reason", order.get("reason"), program, "reason")
    action = value.get("action") or {}
    why = action.get("why") or {}
    if why.get("text"):
        yield Statement("action.why", str(why["text"]), tuple(why.get("evidence", [])), "reason")
    for i, gap in enumerate(value.get("gaps") or []):
        yield from _text(f"gaps[{i}].disclosure", gap.get("disclosure"), program)


def _report(value: Mapping[str, Any], program: Sequence[str]) -> Iterator[Statement]:
    scope = [*program, *value.get("evidence", [])]
    for part in REPORT_PARTS:
        yield from _text(f"report.{part}", value.get(part), scope, "report")


def statements_of(kind: str, value: Mapping[str, Any], program: Sequence[str]) -> list[Statement]:
    """The statements of one accepted (or submitted) judgment of type `kind`, as JSON data."""
    if kind == "scene":
        return list(_scene(value, program))
    if kind == "diagnosis":
        return list(_diagnosis(value, program))
    if kind.startswith("arguments_"):
        return list(_arguments(kind.removeprefix("arguments_"), value))
    if kind == "judgments":
        return list(_decided(value, program))
    if kind == "report":
        return list(_report(value, program))
    return []


def run_statements(
    accepted: Mapping[str, Any], arguments: Mapping[str, Any], program: Sequence[str]
) -> list[Statement]:
    """Every statement of a run's accepted judgments except those the draft carries as claims and risks."""
    found = statements_of("scene", accepted.get("scene") or {}, program)
    found += statements_of("diagnosis", accepted.get("diagnosis") or {}, program)
    found += statements_of("judgments", accepted, program)
    found += statements_of("report", accepted.get("report") or {}, program)
    return found


def zone_bounds(zones: Mapping[str, Any]) -> dict[str, tuple[Decimal, ...]]:
    """The program's zone bounds from an analytics zones block: buy and sell (low, high) and the stop."""
    bounds: dict[str, tuple[Decimal, ...]] = {}
    for side in ("buy", "sell"):
        if zones.get(side):
            bounds[side] = (Decimal(zones[side]["low"]), Decimal(zones[side]["high"]))
    if (zones.get("stop") or {}).get("price"):
        bounds["stop"] = (Decimal(zones["stop"]["price"]),)
    return bounds


def previous_levels(prepare: Mapping[str, Any]) -> tuple[Decimal, ...]:
    """The zone bounds and stop of the previous report, as the prepare facts carry them."""
    zones = (prepare.get("previous_report") or {}).get("zones") or {}
    found: list[Decimal] = []
    for side in ("buy", "sell"):
        band = zones.get(side) or {}
        found += [Decimal(str(band[k])) for k in ("low", "high") if band.get(k) is not None]
    if zones.get("stop") is not None:
        found.append(Decimal(str(zones["stop"])))
    return tuple(found)
