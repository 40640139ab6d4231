"""Cross-source check: the last price and previous close of one instrument from two services must agree.

Tolerances are relative and come from `[crosscheck]` in resources/data_gates.toml; a disagreement beyond
them is recorded in `data_problems` on the instrument (kind "source_disagreement"), never silently
resolved. Last prices are compared only when the two observations are close enough in time (quotes at
most max_skew_seconds apart, or bars of the same day); previous closes are compared when both are known.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Literal

from stockbench.clock import SystemClock
from stockbench.data.cache import load_data_rules
from stockbench.data.records import Bar, Quote
from stockbench.store.database import Database

PROBLEM_KIND = "source_disagreement"
PriceField = Literal["last", "prev_close"]


@dataclass(frozen=True, slots=True)
class PricePoint:
    """One service's view: the last price (a quote's, or a bar's close) and the previous close."""

    source: str
    at: datetime | date
    last: Decimal
    prev_close: Decimal | None

    @classmethod
    def of_quote(cls, quote: Quote) -> PricePoint:
        return cls(quote.source, quote.at, quote.last, quote.prev_close)

    @classmethod
    def of_bar(cls, bar: Bar) -> PricePoint:
        return cls(bar.source, bar.day, bar.close, bar.prev_close)


@dataclass(frozen=True, slots=True)
class Tolerances:
    """Relative tolerances (0.005 = 0.5%) and the largest time skew at which last prices are compared."""

    last: Decimal
    prev_close: Decimal
    max_skew_seconds: int

    @classmethod
    def from_table(cls) -> Tolerances:
        table = load_data_rules()["crosscheck"]
        return cls(Decimal(table["last_tolerance"]), Decimal(table["prev_close_tolerance"]), table["max_skew_seconds"])


@dataclass(frozen=True, slots=True)
class Disagreement:
    """Two services disagree on one field beyond its tolerance."""

    symbol: str
    field: PriceField
    a: PricePoint
    b: PricePoint
    difference: Decimal  # relative to the smaller value
    tolerance: Decimal

    def detail(self) -> dict[str, str]:
        return {
            "field": self.field,
            "difference": format(self.difference, "f"),
            "tolerance": format(self.tolerance, "f"),
            **{
                f"{side}_{k}": v for side, p in (("a", self.a), ("b", self.b)) for k, v in _point(p, self.field).items()
            },
        }


def _point(point: PricePoint, field: PriceField) -> dict[str, str]:
    value = point.last if field == "last" else point.prev_close
    return {"source": point.source, "at": point.at.isoformat(), "value": format(value, "f") if value else ""}


def relative_difference(a: Decimal, b: Decimal) -> Decimal:
    """|a - b| relative to the smaller of the two (both positive)."""
    return abs(a - b) / min(a, b)


def comparable_times(a: PricePoint, b: PricePoint, max_skew_seconds: int) -> bool:
    """Whether the two last prices were observed close enough in time to be compared."""
    if isinstance(a.at, datetime) and isinstance(b.at, datetime):
        return abs((a.at - b.at).total_seconds()) <= max_skew_seconds
    if isinstance(a.at, datetime) or isinstance(b.at, datetime):
        return False
    return a.at == b.at


def compare(symbol: str, a: PricePoint, b: PricePoint, tolerances: Tolerances) -> list[Disagreement]:
    """The disagreements between two services' views of `symbol` (empty when they agree)."""
    found = []
    if comparable_times(a, b, tolerances.max_skew_seconds) and min(a.last, b.last) > 0:
        diff = relative_difference(a.last, b.last)
        if diff > tolerances.last:
            found.append(Disagreement(symbol, "last", a, b, diff, tolerances.last))
    if a.prev_close and b.prev_close and a.prev_close > 0 and b.prev_close > 0:
        diff = relative_difference(a.prev_close, b.prev_close)
        if diff > tolerances.prev_close:
            found.append(Disagreement(symbol, "prev_close", a, b, diff, tolerances.prev_close))
    return found


def record(
    db: Database, disagreements: Sequence[Disagreement], as_of: date | None, *, at: datetime | None = None
) -> int:
    """Write each disagreement to data_problems (detected `at`, else now in real time; a replayed fetch passes when
    its answers were recorded; `as_of` is the clock's date)."""
    if not disagreements:
        return 0
    now = at or SystemClock().now()
    with db.transaction() as cur:
        cur.executemany(
            "INSERT INTO data_problems (symbol, kind, detail, detected_at, as_of) VALUES (?, ?, ?, ?, ?)",
            [[d.symbol, PROBLEM_KIND, json.dumps(d.detail(), ensure_ascii=False), now, as_of] for d in disagreements],
        )
    return len(disagreements)


def problems(db: Database, symbol: str) -> list[dict[str, object]]:
    """The data problems recorded on `symbol`, newest first."""
    rows = db.fetchall(
        "SELECT kind, detail, detected_at, as_of FROM data_problems WHERE symbol = ? ORDER BY detected_at DESC",
        [symbol],
    )
    return [{"kind": k, "detail": json.loads(d), "detected_at": t, "as_of": a} for k, d, t, a in rows]
