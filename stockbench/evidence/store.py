"""The content-addressed evidence store: bodies stored once, linked to the runs that saw them.

An evidence id is `ev-` plus the first 24 hex digits of the body's SHA-256, so the same body always gets
the same id and an id never changes meaning. JSON bodies are canonicalised (sorted keys, no spaces,
Decimals as exact strings) before hashing, so equal data gives equal ids.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import duckdb

from stockbench.errors import NotFound
from stockbench.messages import user_error
from stockbench.store.database import Database

ID_PREFIX = "ev-"
ID_HEX = 24


@dataclass(frozen=True, slots=True)
class Evidence:
    evidence_id: str
    sha256: str
    kind: str
    source: str
    media_type: str
    fetched_at: datetime
    body: str
    label: str = ""

    def json(self) -> Any:
        return json.loads(self.body) if self.media_type == "application/json" else None


def _default(value: object) -> object:
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, datetime | date):
        return value.isoformat()
    raise TypeError(f"cannot store {type(value).__name__} as evidence")


def canonical_json(data: Any) -> str:
    """The canonical text of JSON evidence: sorted keys, compact, exact decimals, UTF-8 characters kept."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_default)


def digest(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def evidence_id_for(body: str) -> str:
    return ID_PREFIX + digest(body)[:ID_HEX]


class EvidenceStore:
    """Store and read evidence in one workspace."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def put(
        self,
        run_id: str,
        kind: str,
        source: str,
        body: str | Any,
        *,
        fetched_at: datetime,
        label: str = "",
        cursor: duckdb.DuckDBPyConnection | None = None,
    ) -> Evidence:
        """Store `body` (text, or JSON-able data) for `run_id`; return its evidence (existing or new).

        Pass `cursor` to write inside the caller's transaction (the run journal does).
        """
        text, media = (body, "text/plain") if isinstance(body, str) else (canonical_json(body), "application/json")
        sha = digest(text)
        evidence_id = ID_PREFIX + sha[:ID_HEX]
        found = Evidence(evidence_id, sha, kind, source, media, fetched_at, text, label)
        if cursor is None:
            with self.db.transaction() as cur:
                self._write(cur, run_id, found)
        else:
            self._write(cursor, run_id, found)
        return found

    @staticmethod
    def _write(cur: duckdb.DuckDBPyConnection, run_id: str, ev: Evidence) -> None:
        size = len(ev.body.encode("utf-8"))
        cur.execute(
            "INSERT INTO evidence (evidence_id, sha256, kind, source, media_type, fetched_at, bytes, body) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            [ev.evidence_id, ev.sha256, ev.kind, ev.source, ev.media_type, ev.fetched_at, size, ev.body],
        )
        cur.execute(
            "INSERT INTO run_evidence (run_id, evidence_id, kind, source, fetched_at, label) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            [run_id, ev.evidence_id, ev.kind, ev.source, ev.fetched_at, ev.label],
        )

    def get(self, evidence_id: str) -> Evidence:
        row = self.db.fetchone(
            "SELECT evidence_id, sha256, kind, source, media_type, fetched_at, body FROM evidence "
            "WHERE evidence_id = ?",
            [evidence_id],
        )
        if row is None:
            raise user_error(NotFound, "evidence_unknown_id", evidence=evidence_id)
        return Evidence(*row)

    def for_run(self, run_id: str) -> list[Evidence]:
        """Every evidence body linked to `run_id`, with the run's kind, source and label."""
        rows = self.db.fetchall(
            """
            SELECT e.evidence_id, e.sha256, r.kind, r.source, e.media_type, r.fetched_at, e.body, r.label
            FROM run_evidence r JOIN evidence e USING (evidence_id)
            WHERE r.run_id = ? ORDER BY r.fetched_at, e.evidence_id
            """,
            [run_id],
        )
        return [Evidence(*row) for row in rows]

    def verify(self, evidence_id: str) -> bool:
        """True when the stored body still hashes to its id (detects tampering or corruption)."""
        found = self.get(evidence_id)
        return digest(found.body) == found.sha256 and found.evidence_id == ID_PREFIX + found.sha256[:ID_HEX]
