"""Publication gates on a 500-number report against 10 MB of real evidence, against one regex pass over it.

Setup (not timed): real daily bars of several symbols (../shared/data) stored as JSON evidence, the
community CSV files as text documents, and a program computation of returns; a report whose 500 numbers
are rendered from those values in report formats (thousands separators, 万/亿, %, 倍, 1-2 decimals).
Timed: building the number index from the evidence (once per report, as the gates do) plus every gate;
the reference is one `finditer` pass of a plain number regex over the same evidence and report text.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from bench.harness import Result, benchmark, median_seconds
from stockbench.evidence.documents import Claim, GateContext, ReportDraft, Risk, Section
from stockbench.evidence.gates import blocking, run_gates
from stockbench.evidence.store import Evidence, canonical_json, digest, evidence_id_for
from stockbench.market.instruments import parse_symbol

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
TARGET_BYTES = 10_000_000
NUMBERS = 500
AT = datetime(2022, 1, 14, 8, tzinfo=UTC)
_PLAIN_NUMBER = re.compile(r"[-+]?\d+(?:[.,]\d+)*")


def _evidence(kind: str, source: str, body: str, media: str) -> Evidence:
    return Evidence(evidence_id_for(body), digest(body), kind, source, media, AT, body)


def _bars(limit: int) -> Iterator[Evidence]:
    """Real bars from the parquet, one JSON evidence body per symbol, until `limit` bytes."""
    import polars as pl

    frame = pl.read_parquet(DATA / "ashare_daily_2017_2022.parquet", columns=[
        "code", "date", "open", "high", "low", "close", "prev_close", "volume", "amount", "total_mcap"])  # fmt: skip
    codes = frame.get_column("code").unique().sort().gather_every(97)
    used = 0
    for code in codes:
        rows = frame.filter(pl.col("code") == code).sort("date").iter_rows(named=True)
        bars = [{**r, "date": r["date"].isoformat(), "volume": int(r["volume"])} for r in rows]
        body = canonical_json({"symbol": code, "bars": bars})
        used += len(body.encode())
        yield _evidence("bars", "parquet", body, "application/json")
        if used >= limit:
            return


def _documents() -> list[Evidence]:
    return [
        _evidence("document", path.name, path.read_text(encoding="utf-8"), "text/plain")
        for path in sorted((DATA / "ashare_full").glob("*.csv"))
    ]


def _returns(bars: Evidence) -> Evidence:
    closes = [Decimal(str(b["close"])) for b in bars.json()["bars"]]
    changes = [
        {"unit": "pct", "value": format(((b / a - 1) * 100).quantize(Decimal("0.0001")), "f")}
        for a, b in itertools.pairwise(closes)
        if a
    ]
    return _evidence("computation", "calc.pct_change", canonical_json({"changes": changes}), "application/json")


def _render(value: Decimal, rng: random.Random) -> str:
    """A report-style rendering of a price, volume or amount."""
    if abs(value) >= 100_000_000:
        return f"{(value / 100_000_000).quantize(Decimal('0.01'), ROUND_HALF_UP)}亿元"
    if abs(value) >= 100_000:
        return f"{(value / 10_000).quantize(Decimal('0.1'), ROUND_HALF_UP)}万股"
    places = rng.choice([Decimal("0.01"), Decimal("0.1")])
    return f"{value.quantize(places, ROUND_HALF_UP):,}元"


def _draft(evidence: list[Evidence], rng: random.Random) -> ReportDraft:
    """500 numbers rendered from the evidence; each claim and risk cites the bodies its numbers come from (the
    citation gate holds them to exactly those), the sections are checked against the whole run."""
    bars = [e for e in evidence if e.kind == "bars"]
    changes = [e for e in evidence if e.kind == "computation"]
    phrases: list[tuple[str, str]] = []
    while len(phrases) < NUMBERS:
        if len(phrases) % 5 == 4:
            source = rng.choice(changes)
            item = rng.choice(source.json()["changes"])
            value = Decimal(item["value"]).quantize(Decimal("0.01"), ROUND_HALF_UP)
            phrases.append((f"当日涨跌幅{value}%", source.evidence_id))
            continue
        source = rng.choice(bars)
        data = source.json()
        bar = rng.choice(data["bars"])
        field = rng.choice(["open", "close", "high", "low", "volume", "amount"])
        owner = parse_symbol(data["symbol"]).symbol  # a bar of a table of many: the sentence says whose it is
        phrases.append((f"{owner}的{field}为{_render(Decimal(str(bar[field])), rng)}", source.evidence_id))

    def text(part: list[tuple[str, str]], joint: str) -> str:
        return joint.join(p for p, _ in part)

    def cited(part: list[tuple[str, str]]) -> tuple[str, ...]:
        return tuple(dict.fromkeys(e for _, e in part))

    sections = tuple(
        Section(f"s{i}", f"第{i + 1}部分", text(phrases[i * 50 : (i + 1) * 50], "；") + "。") for i in range(8)
    )
    claims = tuple(Claim(text(part, "，"), cited(part)) for part in (phrases[400 + i * 10 : 410 + i * 10]
                                                                       for i in range(5)))  # fmt: skip
    risks = tuple(Risk(text(part, "，"), cited(part)) for part in (phrases[450 + i * 10 : 460 + i * 10]
                                                                     for i in range(5)))  # fmt: skip
    return ReportDraft("bench", "600519.SH", sections, claims=claims, risks=risks)


def _context(evidence: list[Evidence]) -> GateContext:
    return GateContext("bench", {e.evidence_id: e for e in evidence}, (), (), (), {}, {})


@benchmark("gates")
def gates() -> Result:
    if not DATA.is_dir():
        raise FileNotFoundError(f"the gates benchmark reads real data from {DATA}, which is absent")
    documents = _documents()
    bars = list(_bars(TARGET_BYTES - sum(len(d.body.encode()) for d in documents)))
    evidence = [*bars, *documents, *(_returns(b) for b in bars[:5])]
    draft = _draft(evidence, random.Random(7))
    found = blocking(run_gates(draft, _context(evidence)))
    assert not found, found[:3]
    texts = [e.body for e in evidence] + [s.text for s in draft.sections]
    ours = median_seconds(lambda: run_gates(draft, _context(evidence)), repeat=5)
    reference = median_seconds(lambda: sum(1 for t in texts for _ in _PLAIN_NUMBER.finditer(t)), repeat=5)
    size = sum(len(t.encode()) for t in texts)
    notes = {"evidence": f"{size / 1e6:.1f} MB in {len(evidence)} bodies", "numbers": str(NUMBERS)}
    return Result("gates", ours, reference, "s", target=10.0, notes=notes)
