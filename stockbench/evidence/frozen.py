"""Frozen reports: a published draft and its gate context as JSON, re-checkable later without fetching.

At publication the draft and everything the gates read besides the evidence itself (required sections,
judgments and steps, the program's anchors, the calibrated probabilities, and the order checks made
against the ledger at that moment) are stored together. `verify` rebuilds the context from that record
and the run's stored evidence and runs every gate again.
"""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from decimal import Decimal
from typing import Any

from stockbench.errors import Problem
from stockbench.evidence.documents import (
    ActionChoice,
    ActionRule,
    Claim,
    Gap,
    GateContext,
    MethodStep,
    OrderPlan,
    QuoteRef,
    ReportDraft,
    Risk,
    ScenarioPlan,
    Section,
    Statement,
    ZoneBand,
    ZonePlan,
)
from stockbench.evidence.gates import blocking, run_gates
from stockbench.evidence.store import EvidenceStore, canonical_json


def _dec(value: Any) -> Decimal | None:
    return None if value is None else Decimal(str(value))


def draft_to_json(draft: ReportDraft) -> dict[str, Any]:
    """The draft as canonical JSON data (Decimals as exact strings); `draft_from_json` reads it back."""
    data: dict[str, Any] = asdict(replace(draft, judgments=dict(draft.judgments)))  # a mappingproxy cannot be copied
    return json.loads(canonical_json(data))  # type: ignore[no-any-return]


def draft_from_json(data: dict[str, Any]) -> ReportDraft:
    """The draft that `draft_to_json` wrote."""
    zones = data.get("zones")

    def band(raw: dict[str, Any] | None) -> ZoneBand | None:
        if raw is None:
            return None
        return ZoneBand(Decimal(raw["low"]), Decimal(raw["high"]), tuple(raw["anchors"]))

    return ReportDraft(
        run_id=data["run_id"],
        symbol=data["symbol"],
        sections=tuple(Section(**s) for s in data["sections"]),
        claims=tuple(Claim(c["text"], tuple(c["evidence"])) for c in data.get("claims", [])),
        risks=tuple(Risk(r["text"], tuple(r["evidence"])) for r in data.get("risks", [])),
        quotes=tuple(QuoteRef(**q) for q in data.get("quotes", [])),
        zones=None
        if zones is None
        else ZonePlan(band(zones["buy"]), band(zones["sell"]), _dec(zones["stop"]), tuple(zones["stop_anchors"])),
        scenarios=tuple(
            ScenarioPlan(s["name"], Decimal(s["probability"]), s["text"]) for s in data.get("scenarios", [])
        ),
        orders=tuple(
            OrderPlan(o["account"], o["symbol"], o["side"], int(o["qty"]), Decimal(o["price"]), o["action"])
            for o in data.get("orders", [])
        ),
        gaps=tuple(Gap(**g) for g in data.get("gaps", [])),
        method=tuple(MethodStep(**m) for m in data.get("method", [])),
        judgments=dict(data.get("judgments", {})),
        statements=tuple(
            Statement(s["location"], s["text"], tuple(s["evidence"]), s.get("kind", "claim"))
            for s in data.get("statements", [])
        ),
        decision=ActionChoice(**data["decision"]) if data.get("decision") else None,
    )


def order_key(order: OrderPlan) -> str:
    """An order's identity for its frozen check: every field, so an edited or added order has no check."""
    return canonical_json([order.account, order.symbol, order.side, order.qty, format(order.price, "f"), order.action])


def freeze_context(ctx: GateContext, draft: ReportDraft) -> dict[str, Any]:
    """The parts of `ctx` the gates need besides the evidence bodies, with order checks made now."""
    checks = {}
    if ctx.check_order is not None:
        for order in draft.orders:
            checks[order_key(order)] = [p.as_dict() for p in ctx.check_order(order)]
    return {
        "run_id": ctx.run_id,
        "required_sections": list(ctx.required_sections),
        "required_judgments": list(ctx.required_judgments),
        "required_steps": list(ctx.required_steps),
        "anchors": {k: format(v, "f") for k, v in ctx.anchors.items()},
        "anchor_widths": {k: format(v, "f") for k, v in ctx.anchor_widths.items()},
        "zone_bounds": {k: [format(x, "f") for x in v] for k, v in ctx.zone_bounds.items()},
        "calibrated": {k: format(v, "f") for k, v in ctx.calibrated.items()},
        "probability_tolerance": format(ctx.probability_tolerance, "f"),
        "order_checks": checks,
        "lot": ctx.lot,
        "previous_levels": [format(v, "f") for v in ctx.previous_levels],
        "action_rules": {
            a: {"states": list(r.states), "problems": [p.as_dict() for p in r.problems]}
            for a, r in ctx.action_rules.items()
        },
        "orders_follow_action": ctx.orders_follow_action,
    }


def thaw_context(frozen: dict[str, Any], store: EvidenceStore, draft: ReportDraft) -> GateContext:
    """A gate context from a frozen record and the run's stored evidence (nothing is fetched)."""
    checks = frozen.get("order_checks", {})
    positions = {id(order): str(i) for i, order in enumerate(draft.orders)}  # reports frozen before order keys

    def check_order(order: OrderPlan) -> list[Problem]:
        found = checks.get(order_key(order), checks.get(positions.get(id(order), "")))
        if found is None:
            return [
                Problem(
                    "order_unchecked",
                    f"the order {order.side} {order.qty} @ {order.price} was not checked at publication",
                    "orders come only from the program's sizing at publication",
                    "orders",
                )
            ]
        return [Problem(**p) for p in found]

    return GateContext(
        run_id=frozen["run_id"],
        evidence={e.evidence_id: e for e in store.for_run(frozen["run_id"])},
        required_sections=tuple(frozen["required_sections"]),
        required_judgments=tuple(frozen["required_judgments"]),
        required_steps=tuple(frozen["required_steps"]),
        anchors={k: Decimal(v) for k, v in frozen["anchors"].items()},
        anchor_widths={k: Decimal(v) for k, v in frozen.get("anchor_widths", {}).items()},
        zone_bounds={k: tuple(Decimal(x) for x in v) for k, v in frozen.get("zone_bounds", {}).items()},
        calibrated={k: Decimal(v) for k, v in frozen["calibrated"].items()},
        probability_tolerance=Decimal(frozen["probability_tolerance"]),
        check_order=check_order,
        lot=frozen.get("lot"),
        previous_levels=tuple(Decimal(v) for v in frozen.get("previous_levels", [])),
        action_rules={
            a: ActionRule(tuple(r["states"]), tuple(Problem(**p) for p in r["problems"]))
            for a, r in frozen.get("action_rules", {}).items()
        },
        orders_follow_action=bool(frozen.get("orders_follow_action", False)),
    )


def verify(draft_json: dict[str, Any], frozen: dict[str, Any], store: EvidenceStore) -> list[Problem]:
    """Every gate problem of a stored report, re-checked from its frozen record and stored evidence.

    Tampered evidence (a body that no longer hashes to its id) is a problem too.
    """
    draft = draft_from_json(draft_json)
    ctx = thaw_context(frozen, store, draft)
    problems = [
        Problem("evidence_tampered", f"{eid} no longer matches its hash", "restore the workspace from a backup", eid)
        for eid in ctx.evidence
        if not store.verify(eid)
    ]
    return problems + blocking(run_gates(draft, ctx))
