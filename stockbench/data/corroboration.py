"""Cross-source tags of stored quotes: where a second service answered for the same instrument, each of last,
prev_close and volume (shares; the adapters convert lots) is corroborated, single_source or conflicting.

A conflict beyond the `[crosscheck]` tolerances of resources/data_gates.toml is recorded in data_problems (kind
"source_disagreement", both values and sources) and is never averaged or resolved by picking one: the stored
quote keeps its own value, tagged conflicting. This module owns the `quote_corroboration` table.
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
from stockbench.data.crosscheck import PROBLEM_KIND, relative_difference
from stockbench.data.records import Quote
from stockbench.store.database import Database

Tag = Literal["corroborated", "single_source", "conflicting"]
QuoteField = Literal["last", "prev_close", "volume"]
FIELDS: tuple[QuoteField, ...] = ("last", "prev_close", "volume")


@dataclass(frozen=True, slots=True)
class FieldCheck:
    """One stored quote value's tag: the services that answered for it and their values (as text)."""

    field: QuoteField
    tag: Tag
    sources: tuple[str, ...]
    values: tuple[str, ...]
    tolerance: Decimal | None = None
    difference: Decimal | None = None

    def as_dict(self) -> dict[str, object]:
        return {"tag": self.tag, "sources": list(self.sources), "values": list(self.values)}


@dataclass(frozen=True, slots=True)
class Corroboration:
    """The tags of one stored quote (`quote` is the one kept and shown)."""

    symbol: str
    quoted_at: datetime
    source: str
    checks: tuple[FieldCheck, ...]

    def conflicts(self, fields: Sequence[QuoteField] = FIELDS) -> tuple[FieldCheck, ...]:
        return tuple(c for c in self.checks if c.tag == "conflicting" and c.field in fields)


def _tolerances() -> tuple[dict[QuoteField, Decimal], int]:
    table = load_data_rules()["crosscheck"]
    found: dict[QuoteField, Decimal] = {f: Decimal(table[f"{f}_tolerance"]) for f in FIELDS}
    return found, int(table["max_skew_seconds"])


def at_fetch() -> bool:
    """Whether a live quote fetch also asks a second service (the `[crosscheck] at_fetch` setting)."""
    return bool(load_data_rules()["crosscheck"].get("at_fetch", False))


def _value(quote: Quote, field: QuoteField) -> Decimal | None:
    value = getattr(quote, field)
    return None if value is None else Decimal(value)


def _text(field: QuoteField, value: Decimal) -> str:
    """A value as shown: a volume in whole shares, a price with at least two decimals (1690.00, 3.456)."""
    if field == "volume":
        return str(int(value))
    normal = value.normalize()
    exponent = normal.as_tuple().exponent
    return format(value.quantize(Decimal("0.01")) if not isinstance(exponent, int) or exponent > -2 else normal, "f")


def _check(field: QuoteField, kept: Quote, other: Quote | None, tolerance: Decimal, skew: int) -> FieldCheck:
    mine = _value(kept, field)
    shown = "" if mine is None else _text(field, mine)
    theirs = None if other is None else _value(other, field)
    timely = other is not None and (field == "prev_close" or abs((kept.at - other.at).total_seconds()) <= skew)
    if other is None or mine is None or theirs is None or not timely or min(mine, theirs) <= 0:
        return FieldCheck(field, "single_source", (kept.source,), (shown,))
    difference = relative_difference(mine, theirs)
    tag: Tag = "conflicting" if difference > tolerance else "corroborated"
    return FieldCheck(field, tag, (kept.source, other.source), (shown, _text(field, theirs)), tolerance, difference)


def corroborate(kept: Quote, other: Quote | None) -> Corroboration:
    """Tag each field of `kept` against a second service's quote (None: no second service answered). Values
    seen too far apart in time (last, volume) or missing on either side are single_source."""
    tolerances, skew = _tolerances()
    checks = tuple(_check(f, kept, other, tolerances[f], skew) for f in FIELDS)
    return Corroboration(kept.symbol, kept.at, kept.source, checks)


def _problem(found: Corroboration, check: FieldCheck, at: datetime) -> str:
    sides = {
        f"{side}_{k}": v
        for side, source, value in zip(("a", "b"), check.sources, check.values, strict=True)
        for k, v in (("source", source), ("at", at.isoformat()), ("value", value))
    }
    detail = {"field": check.field, "difference": format(check.difference or 0, "f"),
              "tolerance": format(check.tolerance or 0, "f"), **sides}  # fmt: skip
    return json.dumps(detail, ensure_ascii=False)


def store(
    db: Database, found: Corroboration, as_of: date | None, *, record_problems: bool = True, at: datetime | None = None
) -> int:
    """Write the tags (replacing earlier ones of the same quote) and, with `record_problems`, each conflict as
    a data problem, checked `at` (None: now, in real time; a replayed fetch: when its answer was recorded);
    returns the number of conflicts recorded."""
    now = at or SystemClock().now()
    key = [found.symbol, found.quoted_at, found.source]
    conflicts = found.conflicts() if record_problems else ()
    with db.transaction() as cur:
        cur.execute("DELETE FROM quote_corroboration WHERE symbol = ? AND quoted_at = ? AND source = ?", key)
        cur.executemany(
            "INSERT INTO quote_corroboration (symbol, quoted_at, source, field, tag, sources, detail, checked_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [[*key, c.field, c.tag, ",".join(c.sources), json.dumps(c.values), now] for c in found.checks],
        )
        details = [_problem(found, c, found.quoted_at) for c in conflicts]
        if details:  # the same two answers checked again (a later fetch of the same quotes) are one problem, not two
            marks = ", ".join("?" * len(details))  # only the candidates are read, not every problem of the symbol
            cur.execute(f"SELECT detail FROM data_problems WHERE symbol = ? AND kind = ? AND detail IN ({marks})",
                        [found.symbol, PROBLEM_KIND, *details])  # fmt: skip
            known = {str(row[0]) for row in cur.fetchall()}
            details = [d for d in details if d not in known]
        if details:
            cur.executemany(
                "INSERT INTO data_problems (symbol, kind, detail, detected_at, as_of) VALUES (?, ?, ?, ?, ?)",
                [[found.symbol, PROBLEM_KIND, d, now, as_of] for d in details],
            )
    return len(details)


def read(db: Database, quote: Quote) -> Corroboration | None:
    """The stored tags of `quote` (None when it was never checked)."""
    rows = db.fetchall(
        "SELECT field, tag, sources, detail FROM quote_corroboration WHERE symbol = ? AND quoted_at = ? AND source = ?"
        " ORDER BY field",
        [quote.symbol, quote.at, quote.source],
    )
    if not rows:
        return None
    checks = tuple(
        FieldCheck(field, tag, tuple(sources.split(",")), tuple(json.loads(detail)))
        for field, tag, sources, detail in rows
    )
    order = {f: i for i, f in enumerate(FIELDS)}
    return Corroboration(quote.symbol, quote.at, quote.source, tuple(sorted(checks, key=lambda c: order[c.field])))
