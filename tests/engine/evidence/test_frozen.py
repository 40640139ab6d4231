"""Frozen reports: the draft round-trips through JSON, and a stored report re-checks from its frozen record and
stored evidence alone, reporting tampering."""

from __future__ import annotations

import json
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType

from stockbench.evidence.documents import ActionChoice, OrderPlan, ReportDraft
from stockbench.evidence.frozen import draft_from_json, draft_to_json, freeze_context, order_key, thaw_context, verify
from stockbench.evidence.gates import blocking, run_gates
from stockbench.evidence.store import EvidenceStore
from stockbench.store.database import Database
from stockbench.store.migrations import migrate
from tests.engine.evidence.conftest import World, load_world


def world_draft(world: World) -> ReportDraft:
    return draft_from_json(world.draft)


def test_draft_round_trip(store: EvidenceStore) -> None:
    world = load_world(store)
    draft = world_draft(world)
    data = draft_to_json(draft)
    assert draft_from_json(data) == draft
    assert draft_from_json(json.loads(json.dumps(data))) == draft  # survives a trip through text
    assert data["orders"][0]["price"] == "1455.00"  # Decimals as exact strings
    assert data["zones"]["buy"]["anchors"] == ["box_low", "ma60"]


def test_round_trip_of_a_minimal_draft_and_a_read_only_mapping(store: EvidenceStore) -> None:
    draft = replace(world_draft(load_world(store)), zones=None, orders=(), judgments=MappingProxyType({"a": "b"}))
    back = draft_from_json(draft_to_json(draft))
    assert back.zones is None and back.orders == () and dict(back.judgments) == {"a": "b"}


def test_freeze_records_everything_but_the_evidence_with_order_checks_made_now(store: EvidenceStore) -> None:
    world = load_world(store)
    draft = replace(
        world_draft(world),
        orders=(*world_draft(world).orders, OrderPlan("main", "600519.SH", "buy", 150, Decimal("1455.00"))),
    )
    frozen = freeze_context(world.ctx, draft)
    assert json.loads(json.dumps(frozen)) == frozen
    assert frozen["anchors"]["box_low"] == "1440.00" and frozen["calibrated"]["base"] == "0.50"
    first, second = (order_key(o) for o in draft.orders)  # checks are keyed by the whole order, not its place
    assert frozen["order_checks"][first] == []
    assert [p["code"] for p in frozen["order_checks"][second]] == ["lot_multiple"]
    ctx = thaw_context(frozen, store, draft)
    assert set(ctx.evidence) == set(world.ctx.evidence)
    assert ctx.check_order is not None
    assert [p.code for p in ctx.check_order(draft.orders[1])] == ["lot_multiple"]


def test_verify_passes_on_an_intact_record(store: EvidenceStore) -> None:
    world = load_world(store)
    draft = world_draft(world)
    assert blocking(run_gates(draft, world.ctx)) == []
    assert verify(draft_to_json(draft), freeze_context(world.ctx, draft), store) == []


def test_verify_needs_nothing_but_the_workspace(tmp_path: Path) -> None:
    path = tmp_path / "w.duckdb"
    db = Database(path)
    migrate(db)
    world = load_world(EvidenceStore(db))
    draft = world_draft(world)
    record = json.dumps({"draft": draft_to_json(draft), "frozen": freeze_context(world.ctx, draft)})
    db.close()
    reopened = Database(path)  # later, in another session: no context, no ledger, no network
    stored = json.loads(record)
    assert verify(stored["draft"], stored["frozen"], EvidenceStore(reopened)) == []
    reopened.close()


def test_verify_reports_a_tampered_body(store: EvidenceStore) -> None:
    world = load_world(store)
    draft = world_draft(world)
    frozen = freeze_context(world.ctx, draft)
    notice = world.ids["notice"]
    with store.db.transaction() as cur:
        cur.execute("UPDATE evidence SET body = replace(body, '尚需提交', '无需提交') WHERE evidence_id = ?", [notice])
    found = verify(draft_to_json(draft), frozen, store)
    assert [(p.code, p.location) for p in found][:1] == [("evidence_tampered", notice)]
    assert "quote_mismatch" in [p.code for p in found]  # the gates re-run on what is stored now


def test_verify_reports_tampered_numbers(store: EvidenceStore) -> None:
    world = load_world(store)
    draft = world_draft(world)
    frozen = freeze_context(world.ctx, draft)
    quote = world.ids["quote"]
    with store.db.transaction() as cur:
        cur.execute("UPDATE evidence SET body = replace(body, '\"0.48\"', '\"0.58\"') WHERE evidence_id = ?", [quote])
    codes = [p.code for p in verify(draft_to_json(draft), frozen, store)]
    assert codes[0] == "evidence_tampered" and "number_ungrounded" in codes


def test_verify_reports_removed_evidence(store: EvidenceStore) -> None:
    world = load_world(store)
    draft = world_draft(world)
    frozen = freeze_context(world.ctx, draft)
    with store.db.transaction() as cur:
        cur.execute("DELETE FROM run_evidence WHERE evidence_id = ?", [world.ids["notice"]])
    codes = {p.code for p in verify(draft_to_json(draft), frozen, store)}
    assert {"evidence_unknown", "quote_source_missing", "number_ungrounded"} <= codes


def test_verify_reports_a_tampered_draft(store: EvidenceStore) -> None:
    world = load_world(store)
    draft = world_draft(world)
    frozen = freeze_context(world.ctx, draft)
    data = draft_to_json(draft)
    data["sections"][0]["text"] = data["sections"][0]["text"].replace("1,469.00", "1,496.00")
    assert [p.code for p in verify(data, frozen, store)] == ["number_ungrounded"]


def test_verify_uses_the_frozen_order_checks_not_todays_ledger(store: EvidenceStore) -> None:
    world = load_world(store)
    draft = world_draft(world)
    frozen = freeze_context(world.ctx, draft)
    frozen["order_checks"][order_key(draft.orders[0])] = [
        {"code": "exceeds_cash", "message": "at publication the cash was short", "fix": ""}
    ]
    assert [p.code for p in verify(draft_to_json(draft), frozen, store)] == ["exceeds_cash"]


def test_a_report_frozen_before_orders_followed_the_action_is_verified_by_its_own_rules(store: EvidenceStore) -> None:
    """`order_against_action` came after reports were published with a hold that kept its open buy: verifying those
    must not fail them; a report frozen under the rule is held to it."""
    world = load_world(store)
    draft = replace(world_draft(world), decision=ActionChoice("hold", ""),
                    orders=(OrderPlan("main", "600519.SH", "buy", 100, Decimal("1455.00"), "keep"),))  # fmt: skip
    frozen = freeze_context(replace(world.ctx, orders_follow_action=True), draft)
    assert frozen["orders_follow_action"] is True
    assert "order_against_action" in [p.code for p in verify(draft_to_json(draft), frozen, store)]
    del frozen["orders_follow_action"]  # as a report published before it was frozen
    assert "order_against_action" not in [p.code for p in verify(draft_to_json(draft), frozen, store)]
