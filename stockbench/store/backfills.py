"""The Python steps of schema migrations, for what SQL cannot express: each runs right after its migration's
SQL, in the same transaction, and like that SQL it never changes once released. These are the only writers of
research's tables outside their owners (the run store and the report archive): a migration reshapes rows at
the version it introduces, before any owner reads them."""

from __future__ import annotations

import json
from typing import Any

import duckdb

from stockbench.store.seals import SEALED_BY, canonical, field_hashes, report_row, run_evidence, seal_of

SUMMARY_SCHEMA = 1


def _decided(cur: duckdb.DuckDBPyConnection, run_id: str) -> dict[str, Any]:
    """A run's accepted decide-stage judgments as its journal holds them (later batches over earlier ones)."""
    found: dict[str, Any] = {}
    rows = cur.execute(
        "SELECT payload FROM run_events WHERE run_id = ? AND phase = 'result' AND kind = 'tool_call' ORDER BY seq",
        [run_id],
    ).fetchall()
    for (payload,) in rows:
        result = json.loads(payload)
        if result.get("accepted") and result.get("judgment") == "judgments":
            found.update(result.get("value", {}))
    return found


def upgraded_summary(cur: duckdb.DuckDBPyConnection, run_id: str, summary: dict[str, Any]) -> dict[str, Any]:
    """A summary written before its schema was versioned, in schema 1: the plan's paths and open-order decisions
    (read from the run's journal, where the report took them from) and every field with its default."""
    if summary.get("schema") == SUMMARY_SCHEMA:
        return summary
    decided = _decided(cur, run_id)
    paths = summary.get("paths") or [{"trigger": p["trigger"], "action": p["action"]} for p in decided.get("paths", [])]
    decisions = summary.get("open_orders")
    if decisions is None:
        decisions = [{"order_id": o["order_id"], "decision": o["decision"], "new_price": o.get("new_price"),
                      "reason": o.get("reason", "")} for o in decided.get("open_orders", [])]  # fmt: skip
    defaults: dict[str, Any] = {
        "action": "hold", "zones": None, "orders": [], "baseline": {"direction": None, "confidence": None},
        "scenarios": [], "gaps": [], "revision_of": None,
    }  # fmt: skip
    return {**defaults, **summary, "paths": paths, "open_orders": decisions, "schema": SUMMARY_SCHEMA}


def seal_reports(cur: duckdb.DuckDBPyConnection) -> None:
    """Bring the reports published before seals existed to the current summary schema, then seal them in
    publication order (run by the migration that adds seals)."""
    rows = cur.execute("SELECT report_id, run_id, summary FROM reports ORDER BY published_at, rowid").fetchall()
    previous = ""
    for seq, (report_id, run_id, summary) in enumerate(rows, start=1):
        upgraded = upgraded_summary(cur, str(run_id), json.loads(summary))
        cur.execute("UPDATE reports SET summary = ? WHERE report_id = ?", [canonical(upgraded), report_id])
        row = report_row(cur, str(report_id))
        assert row is not None
        hashes = {**field_hashes(row, run_evidence(cur, row["run_id"])), SEALED_BY: "migration"}
        seal = seal_of(hashes, previous)
        cur.execute(
            "UPDATE reports SET seq = ?, sealed_fields = ?, prev_seal = ?, seal = ? WHERE report_id = ?",
            [seq, canonical(hashes), previous, seal, report_id],
        )
        previous = seal
