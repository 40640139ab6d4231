"""The content-addressed evidence store: ids from hashes, canonical JSON, run links, tamper detection."""

from __future__ import annotations

import hashlib
from datetime import date, datetime, timedelta
from decimal import Decimal

import pytest

from stockbench.errors import NotFound
from stockbench.evidence.store import EvidenceStore, canonical_json, digest, evidence_id_for
from stockbench.store.database import Database
from tests.engine.evidence.conftest import AT


def test_the_id_is_the_sha256_of_the_body(store: EvidenceStore) -> None:
    body = "贵州茅台 收盘 1689.50"
    ev = store.put("run-a", "document", "https://example.com/a", body, fetched_at=AT)
    sha = hashlib.sha256(body.encode("utf-8")).hexdigest()
    assert (ev.sha256, ev.evidence_id, ev.media_type) == (sha, "ev-" + sha[:24], "text/plain")
    assert ev.evidence_id == evidence_id_for(body) and digest(body) == sha


def test_the_same_body_is_stored_once_and_keeps_its_id(store: EvidenceStore, db: Database) -> None:
    first = store.put("run-a", "quote", "tencent", {"last": Decimal("12.50")}, fetched_at=AT)
    again = store.put("run-a", "quote", "tencent", {"last": Decimal("12.50")}, fetched_at=AT + timedelta(hours=1))
    other = store.put("run-a", "quote", "tencent", {"last": Decimal("12.51")}, fetched_at=AT)
    assert first.evidence_id == again.evidence_id != other.evidence_id
    assert db.scalar("SELECT count(*) FROM evidence") == 2
    stored = store.get(first.evidence_id)
    assert stored.fetched_at == AT  # the first time this body was stored
    assert stored.body == '{"last":"12.50"}'


def test_json_is_canonical_so_equal_data_gets_equal_ids(store: EvidenceStore) -> None:
    a = store.put("r", "quote", "s", {"b": 1, "a": [1.5, "x"], "c": {"z": None, "y": True}}, fetched_at=AT)
    b = store.put("r", "quote", "s", {"c": {"y": True, "z": None}, "a": [1.5, "x"], "b": 1}, fetched_at=AT)
    assert a.evidence_id == b.evidence_id
    assert a.body == '{"a":[1.5,"x"],"b":1,"c":{"y":true,"z":null}}'
    assert a.media_type == "application/json" and a.json() == {"a": [1.5, "x"], "b": 1, "c": {"y": True, "z": None}}


def test_canonical_json_keeps_decimals_exact_dates_iso_and_characters() -> None:
    text = canonical_json({"price": Decimal("1689.50"), "day": date(2024, 6, 28), "at": AT, "name": "贵州茅台"})
    assert text == '{"at":"2024-06-28T07:30:00+00:00","day":"2024-06-28","name":"贵州茅台","price":"1689.50"}'
    # A Decimal keeps its written precision: 12.5 and 12.50 are different bodies (the display differs).
    assert canonical_json(Decimal("12.5")) != canonical_json(Decimal("12.50"))


def test_unstorable_values_are_refused() -> None:
    with pytest.raises(TypeError, match="cannot store set"):
        canonical_json({"x": {1, 2}})


def test_a_text_body_is_not_json(store: EvidenceStore) -> None:
    ev = store.put("r", "document", "s", '{"looks": "like json"}', fetched_at=AT)
    assert ev.media_type == "text/plain" and ev.json() is None


def test_runs_link_to_shared_bodies_with_their_own_kind_source_and_label(store: EvidenceStore) -> None:
    body = {"symbol": "600519.SH", "last": "1689.50"}
    a = store.put("run-a", "quote", "tencent", body, fetched_at=AT, label="quote 600519.SH")
    later = AT + timedelta(days=1)
    b = store.put("run-b", "quote_replay", "cache", body, fetched_at=later, label="cached quote")
    store.put("run-b", "document", "https://example.com/n", "公告正文", fetched_at=later)
    assert a.evidence_id == b.evidence_id
    run_a = store.for_run("run-a")
    run_b = store.for_run("run-b")
    assert [(e.evidence_id, e.kind, e.source, e.label) for e in run_a] == [
        (a.evidence_id, "quote", "tencent", "quote 600519.SH")
    ]
    assert [(e.kind, e.source, e.label) for e in run_b] == [
        ("quote_replay", "cache", "cached quote"),
        ("document", "https://example.com/n", ""),
    ]
    assert store.for_run("run-c") == []


def test_linking_the_same_body_twice_to_a_run_keeps_one_link(store: EvidenceStore, db: Database) -> None:
    store.put("run-a", "quote", "s", {"x": 1}, fetched_at=AT)
    store.put("run-a", "quote", "s", {"x": 1}, fetched_at=AT + timedelta(minutes=5))
    assert db.scalar("SELECT count(*) FROM run_evidence") == 1
    assert len(store.for_run("run-a")) == 1


def test_put_joins_the_callers_transaction(store: EvidenceStore, db: Database) -> None:
    def failing() -> None:
        with db.transaction() as cur:
            store.put("run-a", "quote", "s", {"x": 2}, fetched_at=AT, cursor=cur)
            raise RuntimeError("the journal write failed")

    with pytest.raises(RuntimeError):
        failing()
    assert db.scalar("SELECT count(*) FROM evidence") == 0
    assert db.scalar("SELECT count(*) FROM run_evidence") == 0


def test_get_of_an_unknown_id_is_not_found(store: EvidenceStore) -> None:
    with pytest.raises(NotFound, match="ev-000000000000000000000000"):
        store.get("ev-000000000000000000000000")


def test_verify_passes_on_intact_bodies_and_detects_tampering(store: EvidenceStore, db: Database) -> None:
    ev = store.put("run-a", "document", "s", "净利润747.34亿元", fetched_at=AT)
    assert store.verify(ev.evidence_id)
    with db.transaction() as cur:
        cur.execute("UPDATE evidence SET body = '净利润947.34亿元' WHERE evidence_id = ?", [ev.evidence_id])
    assert not store.verify(ev.evidence_id)


def test_verify_detects_a_rewritten_hash_too(store: EvidenceStore, db: Database) -> None:
    ev = store.put("run-a", "document", "s", "original", fetched_at=AT)
    forged = digest("forged")
    with db.transaction() as cur:
        cur.execute("UPDATE evidence SET body = 'forged', sha256 = ? WHERE evidence_id = ?", [forged, ev.evidence_id])
    assert not store.verify(ev.evidence_id)  # the body matches the new hash, but the id no longer does


def test_fetched_at_is_kept_as_an_aware_instant(store: EvidenceStore) -> None:
    ev = store.put("run-a", "document", "s", "x", fetched_at=AT)
    got = store.get(ev.evidence_id).fetched_at
    assert isinstance(got, datetime) and got.tzinfo is not None and got == AT
