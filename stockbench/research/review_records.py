"""The records of human reviews: verdicts, reason codes and score scales (fixed, so that reviews aggregate), a
recorded review, and one step of a report's lineage. Read by front ends; written only by research/reviews.py."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, get_args

Verdict = Literal["accept", "revise", "reject"]
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)
REASONS: dict[str, str] = {
    "good_call": "the call and the plan were right",
    "wrong_action": "the action was wrong for the facts shown",
    "wrong_zone": "buy, sell or stop levels were badly placed",
    "missed_risk": "a material risk was left out",
    "missed_news": "a material announcement or event was left out",
    "weak_evidence": "claims were thinly supported by the cited evidence",
    "stale_data": "the data behind the report was out of date",
    "wrong_scene": "wrong sector index, peers or anchors",
    "bad_sizing": "order sizes did not fit the account",
    "unclear": "the report was hard to follow",
}


@dataclass(frozen=True, slots=True)
class Scale:
    """A score's whole-number range and what it measures."""

    low: int
    high: int
    meaning: str


SCORES: dict[str, Scale] = {
    "usefulness": Scale(1, 5, "how useful the report was for a decision"),
    "evidence": Scale(1, 5, "how well the claims were supported"),
    "clarity": Scale(1, 5, "how clear the report was"),
    "risk": Scale(1, 5, "how well the risks were covered"),
}
TOP_REASONS = 3
MAX_COMMENT = 2000


@dataclass(frozen=True)
class Review:
    """One recorded review."""

    review_id: str
    seq: int
    run_id: str
    report_id: str
    symbol: str
    verdict: Verdict
    reasons: tuple[str, ...]
    scores: Mapping[str, int]
    comment: str
    revised_by: str | None
    reviewed_at: datetime

    def as_dict(self) -> dict[str, Any]:
        return {
            "review_id": self.review_id,
            "run_id": self.run_id,
            "report_id": self.report_id,
            "symbol": self.symbol,
            "verdict": self.verdict,
            "reasons": list(self.reasons),
            "scores": dict(self.scores),
            "comment": self.comment,
            "revised_by": self.revised_by,
            "reviewed_at": self.reviewed_at,
        }


@dataclass(frozen=True)
class LineageStep:
    """One report in a lineage: its run, its reviews, and how it came to revise its parent."""

    run_id: str
    report_id: str | None
    symbol: str
    action: str | None
    published_at: datetime | None
    depth: int
    revision_of: dict[str, Any] | None
    reviews: tuple[Review, ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "report_id": self.report_id,
            "symbol": self.symbol,
            "action": self.action,
            "published_at": self.published_at,
            "depth": self.depth,
            "revision_of": self.revision_of,
            "reviews": [r.as_dict() for r in self.reviews],
        }
