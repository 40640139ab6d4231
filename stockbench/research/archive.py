"""The report archive: the one writer of `reports`, and the keeper of their seals.

Publishing a report writes its row, its place in the workspace's publication order (`seq`), the hash of each
stored field and its seal (chained to the previous report's, see stockbench.store.seals) in the journal's
transaction, then appends the seal to the workspace's seal log (`reports.seals` beside the database file, one
line per report, append-only). The Markdown people read is rendered from the sealed content, so it cannot say
something else than the sealed draft.

`seal_problems` re-derives all of it and names what changed: a field (by name), the evidence linked to the
run, the chain (a deleted or reordered report), or the seal log (a deleted last report). A report whose seal
fails is not shown as trustworthy anywhere: `reports show` warns, the plan check and the next run refuse it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb

from stockbench.clock import MARKET_TZ
from stockbench.errors import InvalidInput, NotFound, Problem
from stockbench.evidence.documents import ReportDraft
from stockbench.market.instruments import identify, parse_symbol
from stockbench.messages import problem, said, user_error, value_word
from stockbench.research.levels import ZoneLevels
from stockbench.research.outcomes import ReportListing, ReportRecord
from stockbench.research.summary import ReportPlan, ReportSummary
from stockbench.research.wording import Language, say
from stockbench.research.wording.phrases import exchange_time
from stockbench.store.database import Database
from stockbench.store.seals import (
    SEALED_BY,
    SEALED_FIELDS,
    canonical,
    field_hashes,
    report_row,
    run_evidence,
    seal_of,
)

REPORT_KINDS = ("full", "question")  # runs whose reports carry a plan (a quick review's outcome does not)

SEAL_LOG = "reports.seals"
RENDERER = "3"  # the version of `render_markdown`, sealed with each report it renders (absent: version 1)
RENDERED_BY = "rendered_by"


def render_markdown(
    *, title: str, symbol: str, run_id: str, published_at: datetime, as_of: datetime | None, offline: bool,
    draft: ReportDraft, model: str, language: Language = "zh",
) -> str:  # fmt: skip
    """The report as Markdown: a pure function of its sealed content (the CLI, the browser and exports print it),
    in the report's language (its summary's `language`), with every instant in exchange time. The header names the
    model once (the offline rules model in words, saying no language model was used)."""
    lines = [
        f"# {' '.join(title.split())}",
        "",
        f"- {say('report.header.symbol', language, symbol=symbol)}",
        f"- {say('report.header.run', language, run_id=run_id)}",
        f"- {say('report.header.published', language, at=exchange_time(symbol, published_at, language))}",
    ]
    if as_of is not None:
        lines.append(f"- {say('report.header.as_of', language, at=exchange_time(symbol, as_of, language))}")
    named = say("report.model.offline", language) if offline else " ".join(model.split())
    lines += [f"- {say('report.header.model', language, model=named)}", ""]
    for section in draft.sections:
        lines += [f"## {section.title}", "", section.text, ""]
    return "\n".join(lines)


class ReportArchive:
    """Writes, reads and verifies the reports of one workspace."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.log = None if db.path == ":memory:" else Path(db.path).with_name(SEAL_LOG)

    # ---- writing -----------------------------------------------------------------------------------------
    def write(self, cur: duckdb.DuckDBPyConnection, record: ReportRecord) -> None:
        """Store and seal `record` inside the caller's transaction (the journal's, with the archive action)."""
        last = cur.execute("SELECT seq, seal FROM reports WHERE seq IS NOT NULL ORDER BY seq DESC LIMIT 1").fetchone()
        seq, previous = (int(last[0]) + 1, str(last[1])) if last else (1, "")
        row = record.stored()
        hashes = {
            **field_hashes(row, run_evidence(cur, record.run_id)),
            SEALED_BY: "publication",
            RENDERED_BY: RENDERER,
        }
        columns = [*SEALED_FIELDS, "seq", "sealed_fields", "prev_seal", "seal"]
        values = [row[name] for name in SEALED_FIELDS] + [seq, canonical(hashes), previous, seal_of(hashes, previous)]
        cur.execute(
            f"INSERT INTO reports ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
            values,
        )

    def append_log(self) -> None:
        """Bring the seal log up to date with the sealed reports (after the publishing transaction commits)."""
        if self.log is None:
            return
        logged = self._logged()
        last = max(logged, default=0)
        rows = self.db.fetchall(
            "SELECT seq, report_id, seal FROM reports WHERE seq > ? AND seal IS NOT NULL ORDER BY seq", [last]
        )
        if rows:
            with self.log.open("a", encoding="utf-8") as out:
                for seq, report_id, seal in rows:
                    out.write(f"{seq} {report_id} {seal}\n")

    def _logged(self) -> dict[int, tuple[str, str]]:
        if self.log is None or not self.log.exists():
            return {}
        found = {}
        for line in self.log.read_text(encoding="utf-8").splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[0].isdigit():
                found[int(parts[0])] = (parts[1], parts[2])
        return found

    # ---- verifying ---------------------------------------------------------------------------------------
    def seal_problems(self, report_id: str) -> list[Problem]:
        """Everything that changed about a stored report since it was sealed (empty when nothing did)."""
        cur = self.db.cursor()
        stored = cur.execute(
            "SELECT seq, sealed_fields, prev_seal, seal FROM reports WHERE report_id = ?", [report_id]
        ).fetchone()
        row = report_row(cur, report_id)
        if stored is None or row is None:
            return [
                Problem("report_missing", f"there is no report '{report_id}'", "list them: stockbench reports list")
            ]
        seq, sealed, previous, seal = stored
        if seal is None or sealed is None or seq is None:
            return [_problem("seal", report_id, "no_seal")]
        expected: Mapping[str, str] = json.loads(sealed)
        actual = field_hashes(row, run_evidence(cur, str(row["run_id"])))
        problems = [
            _problem(name, report_id, "changed", what=_what(name), what_zh=value_word("sealed", name, "zh"))
            for name in (*SEALED_FIELDS, "evidence")
            if expected.get(name) != actual.get(name)
        ]
        if seal_of(expected, str(previous or "")) != seal:
            problems.append(_problem("seal", report_id, "seal"))
        problems += self._chain_problems(cur, report_id, int(seq), str(previous or ""), str(seal))
        return problems + self._log_problems(report_id, int(seq), str(seal))

    def _chain_problems(
        self, cur: duckdb.DuckDBPyConnection, report_id: str, seq: int, previous: str, seal: str
    ) -> list[Problem]:
        problems = []
        before = cur.execute("SELECT report_id, seal FROM reports WHERE seq = ?", [seq - 1]).fetchone()
        if seq > 1 and before is None:
            problems.append(_problem("chain", report_id, "chain_missing", before=seq - 1))
        elif before is not None and str(before[1]) != previous:
            problems.append(_problem("chain", report_id, "chain_broken", before=before[0]))
        elif seq == 1 and previous:
            problems.append(_problem("chain", report_id, "chain_first"))
        after = cur.execute("SELECT report_id, prev_seal FROM reports WHERE seq = ?", [seq + 1]).fetchone()
        if after is not None and str(after[1]) != seal:
            problems.append(_problem("chain", report_id, "chain_next", after=after[0]))
        twins = int(cur.execute("SELECT count(*) FROM reports WHERE seq = ?", [seq]).fetchone()[0])  # type: ignore[index]
        if twins > 1:
            problems.append(_problem("chain", report_id, "chain_twins", twins=twins, seq=seq))
        return problems

    def _log_problems(self, report_id: str, seq: int, seal: str) -> list[Problem]:
        """The seal log against the workspace: a report it lists must be there with the seal it lists."""
        logged = self._logged()
        if seq in logged and logged[seq] != (report_id, seal):
            return [_problem("seal_log", report_id, "log_other", seq=seq)]
        present = {int(s) for (s,) in self.db.fetchall("SELECT seq FROM reports WHERE seq IS NOT NULL")}
        missing = sorted(s for s in logged if s not in present)
        if missing:
            ids = ", ".join(logged[s][0] for s in missing[:3])
            return [_problem("seal_log", report_id, "log_gone", ids=ids)]
        return []

    def rendered_by_this_renderer(self, report_id: str) -> bool:
        """Whether the report was sealed at publication by this version of `render_markdown`, so re-rendering its
        sealed content must give its Markdown byte for byte. A report an older renderer wrote keeps the Markdown it
        was published with: its seal (the Markdown's hash among the sealed fields) is what guards it."""
        sealed = self.db.scalar("SELECT sealed_fields FROM reports WHERE report_id = ?", [report_id])
        if sealed is None:
            return False
        fields = json.loads(sealed)
        return bool(fields.get(SEALED_BY) == "publication" and fields.get(RENDERED_BY, "1") == RENDERER)

    def verifies(self, report_id: str) -> bool:
        return not self.seal_problems(report_id)

    # ---- reading ---------------------------------------------------------------------------------------------
    def listed(self, symbol: str | None = None) -> tuple[ReportListing, ...]:
        """Published reports (on `symbol`, or all), newest first."""
        where, params = ("WHERE symbol = ?", [parse_symbol(symbol).symbol]) if symbol else ("", [])
        rows = self.db.fetchall(
            f"SELECT report_id, run_id, symbol, published_at, title, action, model, offline FROM reports {where} "
            "ORDER BY published_at DESC, seq DESC NULLS LAST, rowid DESC",
            params,
        )
        return tuple(
            ReportListing(str(a), str(b), str(c), d, str(e), str(f), str(g), bool(h)) for a, b, c, d, e, f, g, h in rows
        )

    def get(self, report_id: str) -> ReportRecord:
        """The stored report `report_id`, as it is stored (see `seal_problems` for whether it is as published)."""
        row = report_row(self.db.cursor(), report_id)
        if row is None:
            raise user_error(NotFound, "no_report", report=report_id, command="stockbench reports list")
        return ReportRecord.from_row(row)

    def of_run(self, run_id: str) -> ReportRecord | None:
        """The report a run published, if it did."""
        found = self.db.scalar("SELECT report_id FROM reports WHERE run_id = ?", [run_id])
        return None if found is None else self.get(str(found))

    def latest(self, symbol: str, now: datetime, kinds: Sequence[str] = REPORT_KINDS) -> str | None:
        """The id of the latest report on `symbol` published at or before `now` by a run of one of `kinds`."""
        marks = ", ".join("?" for _ in kinds)
        value = self.db.scalar(
            f"SELECT p.report_id FROM reports p JOIN runs r USING (run_id) WHERE p.symbol = ? AND p.published_at <= ? "
            f"AND r.kind IN ({marks}) ORDER BY p.published_at DESC, p.seq DESC NULLS LAST, p.report_id DESC LIMIT 1",
            [symbol, now, *kinds],
        )
        return None if value is None else str(value)

    def summary(self, report_id: str) -> ReportSummary:
        """The typed summary of a stored report."""
        stored = self.db.scalar("SELECT summary FROM reports WHERE report_id = ?", [report_id])
        if stored is None:
            raise user_error(NotFound, "no_report", report=report_id, command="stockbench reports list")
        return ReportSummary.from_json(json.loads(stored))

    def plan(self, report_id: str) -> ReportPlan:
        """What report `report_id` planned; refused when the report is not as it was published."""
        row = self.db.fetchone(
            "SELECT p.report_id, p.run_id, p.symbol, p.published_at, p.action, r.kind, r.account, r.created_at "
            "FROM reports p JOIN runs r USING (run_id) WHERE p.report_id = ?",
            [report_id],
        )
        if row is None:
            raise user_error(NotFound, "no_report", report=report_id, command="stockbench reports list")
        tampered = self.seal_problems(report_id)
        if tampered:
            raise user_error(InvalidInput, "report_tampered.plan", report=report_id, problem=tampered[0].message,
                             problem_zh=said(tampered[0], "zh")[0])  # fmt: skip
        rid, run_id, symbol, published, action, kind, account, created = row
        summary, blocks = self.summary(report_id), self._blocks(str(run_id))
        quote = blocks.get("quote", {})
        listed = blocks.get("cache.announcements", {}).get("announcements", [])
        zones = summary.as_json()["zones"]
        return ReportPlan(
            report_id=rid,
            run_id=run_id,
            symbol=symbol,
            published_at=published,
            data_at=created,
            kind=kind,
            account=account,
            action=action,
            zones=ZoneLevels.of(summary.zones),
            position=summary.zones.position if summary.zones else None,
            day=date.fromisoformat(quote["day"]) if quote.get("day") else _local_day(symbol, published),
            price=Decimal(quote["price"]) if quote.get("price") else None,
            capital=blocks.get("analytics.states", {}).get("capital", {}).get("state"),
            paths=tuple((p.trigger, p.action) for p in summary.paths),
            open_orders=tuple(summary.as_json()["open_orders"]),
            orders=tuple(summary.orders),
            gaps=summary.gaps,
            announcement_ids=frozenset(str(a["id"]) for a in listed),
            summary_zones=zones,
        )

    def _blocks(self, run_id: str) -> dict[str, Any]:
        """The run's program facts blocks a plan needs, by source (the latest of each)."""
        rows = self.db.fetchall(
            "SELECT r.source, e.body FROM run_evidence r JOIN evidence e USING (evidence_id) WHERE r.run_id = ? "
            "AND e.media_type = 'application/json' AND r.source IN ('quote', 'analytics.states', "
            "'cache.announcements') ORDER BY r.fetched_at, e.evidence_id",
            [run_id],
        )
        return {str(source): json.loads(body) for source, body in rows}


def _local_day(symbol: str, at: datetime) -> date:
    return at.astimezone(MARKET_TZ[identify(symbol).instrument.market]).date()


def _what(field: str) -> str:
    return {"markdown": "Markdown text", "draft": "draft", "frozen": "frozen gate context", "evidence":
            "evidence of its run"}.get(field, field)  # fmt: skip


def _problem(field: str, report_id: str, variant: str, **params: object) -> Problem:
    """A seal problem (report_tampered.<variant>); its location names the report and the field (or the chain, or
    the seal log)."""
    return problem(f"report_tampered.{variant}", location=f"{report_id}.{field}", report=report_id, field=field,
                   **params)  # fmt: skip
