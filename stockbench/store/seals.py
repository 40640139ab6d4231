"""Report seals: a hash over every stored field of a published report and the evidence of its run, chained.

A report's seal is the SHA-256 of its field hashes (each field in a canonical form: JSON parsed and
re-serialised with sorted keys, instants in UTC) and the previous report's seal, so the reports of a workspace
form one hash chain in publication order (`seq`). Changing any stored field (the Markdown people read, the
title, the action, the orders the plan check reads, the draft, the frozen gate context, the evidence linked to
the run) changes its hash; deleting or reordering a report breaks the chain. `field_hashes` names what changed.

The chain lives in the workspace file itself, so it shows edits made without recomputing it; the workspace
also keeps an append-only log of seals beside the file (see the report archive), which a deleted last report
cannot hide from.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import duckdb

SEALED_FIELDS = (
    "report_id",
    "run_id",
    "symbol",
    "published_at",
    "as_of",
    "title",
    "action",
    "model",
    "offline",
    "handbook_version",
    "markdown",
    "draft",
    "frozen",
    "summary",
)
JSON_FIELDS = frozenset({"draft", "frozen", "summary"})
EVIDENCE_FIELD = "evidence"  # the (id, sha256, kind) of every evidence row linked to the report's run


def _default(value: object) -> object:
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    if isinstance(value, Decimal):
        return format(value, "f")
    raise TypeError(f"cannot seal {type(value).__name__}")


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_default)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _field(name: str, value: Any) -> Any:
    if name in JSON_FIELDS and isinstance(value, str):
        return json.loads(value)
    return value


def field_hashes(row: Mapping[str, Any], evidence: Sequence[tuple[str, str, str]]) -> dict[str, str]:
    """The hash of each sealed field of a report row, and of its run's evidence (id, sha256, kind) rows."""
    hashes = {name: _digest(canonical(_field(name, row.get(name)))) for name in SEALED_FIELDS}
    hashes[EVIDENCE_FIELD] = _digest(canonical(sorted(list(e) for e in evidence)))
    return hashes


def seal_of(hashes: Mapping[str, str], previous: str) -> str:
    """The seal: one hash over the field hashes and the previous report's seal."""
    return _digest(canonical({"fields": dict(hashes), "previous": previous}))


REPORT_COLUMNS = ", ".join(SEALED_FIELDS)


def report_row(cur: duckdb.DuckDBPyConnection, report_id: str) -> dict[str, Any] | None:
    """The sealed fields of one stored report, as stored."""
    found = cur.execute(f"SELECT {REPORT_COLUMNS} FROM reports WHERE report_id = ?", [report_id]).fetchone()
    return None if found is None else dict(zip(SEALED_FIELDS, found, strict=True))


def run_evidence(cur: duckdb.DuckDBPyConnection, run_id: str) -> list[tuple[str, str, str]]:
    """(id, sha256, kind) of every evidence row linked to `run_id`, as stored (the seal covers them)."""
    rows = cur.execute(
        "SELECT e.evidence_id, e.sha256, r.kind FROM run_evidence r JOIN evidence e USING (evidence_id) "
        "WHERE r.run_id = ? ORDER BY e.evidence_id",
        [run_id],
    ).fetchall()
    return [(str(a), str(b), str(c)) for a, b, c in rows]


SEALED_BY = "sealed_by"  # how a report was sealed: at publication, or by the migration that introduced seals
