"""Human reviews of published reports: append-only verdicts with fixed reason codes and scores, their lineage,
and the sanitised aggregates the next run on the symbol reads (codes, counts and means, never the comments).

A `revise` verdict is linked to its revision in one of two ways. The reviewer may name the revising run
(`revised_by`, any other run on the same symbol). Otherwise the next run on the symbol takes the review up:
its `reviews` facts block says `revision_of` (the review, the run and the report it revises, and the reason
codes), and its published report carries that link in its summary. Both links are read back from the stored
rows alone, so the lineage of any report can be replayed at any time.
"""

from __future__ import annotations

import json
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime
from decimal import Decimal
from typing import Any

from stockbench.clock import Clock
from stockbench.errors import InvalidInput, NotFound
from stockbench.market.instruments import parse_symbol
from stockbench.messages import user_error
from stockbench.research.review_records import (
    MAX_COMMENT,
    REASONS,
    SCORES,
    TOP_REASONS,
    VERDICTS,
    LineageStep,
    Review,
)
from stockbench.store.database import Database


def parse_scores(items: Sequence[str]) -> dict[str, int]:
    """`name=value` pairs (as typed on the command line) as a dict; checked by `Reviews.add`."""
    scores: dict[str, int] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not value.strip().lstrip("-").isdigit():
            raise user_error(InvalidInput, "review_not_a_score", item=item, form="name=value", example="usefulness=4",
                             scores=_score_list())  # fmt: skip
        scores[name.strip()] = int(value)
    return scores


def _score_list() -> str:
    return ", ".join(f"{n} {s.low}-{s.high}" for n, s in SCORES.items())


def check_review(verdict: str, reasons: Sequence[str], scores: Mapping[str, int], comment: str) -> tuple[str, ...]:
    """The reason codes, deduplicated in order; raises InvalidInput naming the first thing wrong."""
    if verdict not in VERDICTS:
        raise user_error(InvalidInput, "review_verdict_unknown", verdict=verdict, verdicts=", ".join(VERDICTS))
    unknown = [r for r in reasons if r not in REASONS]
    if unknown:
        raise user_error(InvalidInput, "review_reason_unknown", reason=unknown[0], reasons=", ".join(REASONS))
    if verdict != "accept" and not reasons:
        raise user_error(InvalidInput, "review_needs_reason", verdict=verdict, option="--reason",
                         reasons=", ".join(REASONS))  # fmt: skip
    for name, value in scores.items():
        scale = SCORES.get(name)
        if scale is None:
            raise user_error(InvalidInput, "review_score_unknown", name=name, scores=_score_list())
        if not scale.low <= value <= scale.high:
            raise user_error(InvalidInput, "review_score_range", name=name, value=value, low=scale.low, high=scale.high)
    if len(comment) > MAX_COMMENT:
        raise user_error(InvalidInput, "review_comment_long", length=len(comment), limit=MAX_COMMENT)
    return tuple(dict.fromkeys(reasons))


_COLUMNS = "review_id, seq, run_id, report_id, symbol, verdict, reasons, scores, comment, revised_by, reviewed_at"


def _review(row: tuple[Any, ...]) -> Review:
    rid, seq, run_id, report_id, symbol, verdict, reasons, scores, comment, revised_by, at = row
    return Review(rid, seq, run_id, report_id, symbol, verdict, tuple(reasons), json.loads(scores), comment,
                  revised_by, at)  # fmt: skip


class Reviews:
    """Reviews of one workspace: record, list, lineage, and the aggregates a run may read."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self.db, self.clock = db, clock

    def _target(self, target: str) -> tuple[str, str, str]:
        row = self.db.fetchone(
            "SELECT run_id, report_id, symbol FROM reports WHERE run_id = ? OR report_id = ? LIMIT 1", [target, target]
        )
        if row is None:
            command = "stockbench reports list"
            if self.db.scalar("SELECT count(*) FROM runs WHERE run_id = ?", [target]):
                raise user_error(InvalidInput, "review_run_unpublished", run=target, command=command)
            raise user_error(NotFound, "review_target_unknown", target=target, command=command)
        return str(row[0]), str(row[1]), str(row[2])

    def _check_revision(self, run_id: str, symbol: str, revised_by: str) -> None:
        found = self.db.fetchone("SELECT symbol FROM runs WHERE run_id = ?", [revised_by])
        if found is None:
            raise user_error(NotFound, "review_reviser_unknown", run=revised_by, command="runs list")
        if revised_by == run_id or found[0] != symbol:
            raise user_error(InvalidInput, "review_reviser_invalid", reviser=revised_by, run=run_id)

    def add(
        self,
        target: str,
        verdict: str,
        *,
        reasons: Sequence[str] = (),
        scores: Mapping[str, int] | None = None,
        comment: str = "",
        revised_by: str | None = None,
    ) -> Review:
        """Record a review of the report a run (or report id) published; nothing recorded is ever changed."""
        scores = dict(scores or {})
        codes = check_review(verdict, reasons, scores, comment)
        run_id, report_id, symbol = self._target(target)
        if revised_by is not None:
            if verdict != "revise":
                raise user_error(InvalidInput, "review_revised_by_verdict", option="--revised-by", verdict="revise",
                                 use="--verdict revise")  # fmt: skip
            self._check_revision(run_id, symbol, revised_by)
        review_id = f"RV{self.clock.now():%Y%m%d}-{uuid.uuid4().hex[:8]}"
        with self.db.transaction() as cur:
            cur.execute(
                "INSERT INTO reviews (review_id, run_id, report_id, symbol, verdict, reasons, scores, comment, "
                "revised_by, reviewed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    review_id,
                    run_id,
                    report_id,
                    symbol,
                    verdict,
                    list(codes),
                    json.dumps(scores, sort_keys=True),
                    comment,
                    revised_by,
                    self.clock.now(),
                ],
            )
        return self.get(review_id)

    def get(self, review_id: str) -> Review:
        row = self.db.fetchone(f"SELECT {_COLUMNS} FROM reviews WHERE review_id = ?", [review_id])
        if row is None:
            raise user_error(NotFound, "no_review", review=review_id, command="stockbench feedback list")
        return _review(row)

    def find(self, symbol: str | None = None, run_id: str | None = None) -> list[Review]:
        """Reviews in recording order, optionally of one symbol or one run."""
        where, params = ["TRUE"], []
        if symbol:
            where.append("symbol = ?")
            params.append(parse_symbol(symbol).symbol)
        if run_id:
            where.append("run_id = ?")
            params.append(run_id)
        rows = self.db.fetchall(f"SELECT {_COLUMNS} FROM reviews WHERE {' AND '.join(where)} ORDER BY seq", params)
        return [_review(r) for r in rows]

    # ---- what a run may read -----------------------------------------------------------------------
    def visible(self, symbol: str, at: datetime) -> list[Review]:
        """The latest review of each report on `symbol` recorded by `at` (older ones were changed minds)."""
        rows = self.db.fetchall(
            f"SELECT {_COLUMNS} FROM reviews WHERE symbol = ? AND reviewed_at <= ? "
            "QUALIFY row_number() OVER (PARTITION BY report_id ORDER BY seq DESC) = 1 ORDER BY seq",
            [symbol, at],
        )
        return [_review(r) for r in rows]

    def pending_revision(self, symbol: str, at: datetime) -> Review | None:
        """The latest `revise` review on `symbol` that names no revision and no published report took up."""
        taken = {
            str(r[0])
            for r in self.db.fetchall(
                "SELECT json_extract_string(summary, '$.revision_of.review_id') FROM reports WHERE symbol = ? "
                "AND json_extract_string(summary, '$.revision_of.review_id') IS NOT NULL",
                [symbol],
            )
        }
        open_ = [r for r in self.visible(symbol, at) if r.verdict == "revise" and not r.revised_by]
        return next((r for r in reversed(open_) if r.review_id not in taken), None)

    def facts(self, symbol: str) -> dict[str, Any]:
        """The `reviews` facts block: sanitised aggregates only (fixed codes, counts, means), never a comment."""
        at = self.clock.now()
        found = self.visible(symbol, at)
        pending = self.pending_revision(symbol, at)
        return {
            "symbol": symbol,
            "reviewed_reports": len(found),
            **aggregates(found),
            "revision_of": None
            if pending is None
            else {
                "review_id": pending.review_id,
                "run_id": pending.run_id,
                "report_id": pending.report_id,
                "reasons": [{"code": c, "meaning": REASONS[c]} for c in pending.reasons if c in REASONS],
            },
            "note": "人工评审的汇总（仅代码、计数与均值）；评审者的文字评论不会提供给模型。",
        }

    # ---- lineage -----------------------------------------------------------------------------------
    def lineage(self, target: str) -> list[LineageStep]:
        """The chain of reports around `target` (a run or report id), oldest first, replayed from the tables."""
        run_id, _, _ = self._target(target)
        root = run_id
        seen = {root}
        while (parent := self._parent(root)) is not None and parent[0] not in seen:
            root = parent[0]
            seen.add(root)
        steps: list[LineageStep] = []
        self._walk(root, 0, steps, set())
        return steps

    def _parent(self, run_id: str) -> tuple[str, dict[str, Any]] | None:
        explicit = self.db.fetchone(
            "SELECT run_id, review_id FROM reviews WHERE revised_by = ? ORDER BY seq LIMIT 1", [run_id]
        )
        if explicit is not None:
            return str(explicit[0]), {"review_id": explicit[1], "run_id": explicit[0], "linked_by": "reviewer"}
        summary = self.db.scalar("SELECT summary FROM reports WHERE run_id = ?", [run_id])
        link = json.loads(summary).get("revision_of") if summary else None
        if link:
            return str(link["run_id"]), {**link, "linked_by": "next_run"}
        return None

    def _children(self, run_id: str) -> list[str]:
        children: list[str] = []
        for review in self.find(run_id=run_id):
            if review.verdict != "revise":
                continue
            if review.revised_by:
                children.append(review.revised_by)
                continue
            rows = self.db.fetchall(
                "SELECT run_id FROM reports WHERE json_extract_string(summary, '$.revision_of.review_id') = ? "
                "ORDER BY published_at, report_id",
                [review.review_id],
            )
            children += [str(r[0]) for r in rows]
        return list(dict.fromkeys(children))

    def _walk(self, run_id: str, depth: int, out: list[LineageStep], seen: set[str]) -> None:
        if run_id in seen:
            return
        seen.add(run_id)
        row = self.db.fetchone(
            "SELECT r.symbol, p.report_id, p.action, p.published_at FROM runs r "
            "LEFT JOIN reports p USING (run_id) WHERE r.run_id = ?",
            [run_id],
        )
        symbol, report_id, action, published = row if row else ("", None, None, None)
        parent = self._parent(run_id) if depth else None
        link = parent[1] if parent else None
        out.append(
            LineageStep(run_id, report_id, symbol, action, published, depth, link, tuple(self.find(run_id=run_id)))
        )
        for child in self._children(run_id):
            self._walk(child, depth + 1, out, seen)


def aggregates(found: Sequence[Review]) -> dict[str, Any]:
    """Verdict counts, the most frequent reason codes and the mean of each score over `found`.

    Only values from the fixed lists pass: a code or score name the program does not define is dropped.
    """
    verdicts = Counter(r.verdict for r in found if r.verdict in VERDICTS)
    reasons = Counter(c for r in found for c in r.reasons if c in REASONS)
    scores: dict[str, dict[str, Any]] = {}
    for name, scale in SCORES.items():
        values = [int(r.scores[name]) for r in found if isinstance(r.scores.get(name), int)]
        values = [v for v in values if scale.low <= v <= scale.high]
        if values:
            mean = (Decimal(sum(values)) / len(values)).quantize(Decimal("0.01"))
            scores[name] = {"mean": str(mean), "n": len(values), "range": f"{scale.low}-{scale.high}"}
    return {
        "verdicts": {v: verdicts.get(v, 0) for v in VERDICTS},
        "top_reasons": [
            {"code": c, "count": n, "meaning": REASONS[c]}
            for c, n in sorted(reasons.items(), key=lambda x: (-x[1], x[0]))[:TOP_REASONS]
        ],
        "scores": scores,
    }
