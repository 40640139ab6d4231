"""The figures of a track record over its scored calls: hit rates by action, the calibration of the scenario
probabilities (Brier scores and reliability bins), and model cost per report. Pure functions returning typed
records; each record's `as_dict()` is the CLI's JSON (Decimals stay Decimals until output)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from decimal import Decimal
from typing import Any

from stockbench.analytics.calibration import OUTCOMES
from stockbench.research.track_scoring import ACTIONS, RULES, Call, Scored, brier, pct

OFFICIAL_BENCHMARKS: dict[str, str] = {"CN": "000300.SH", "HK": "HSI.HK"}  # CSI 300, Hang Seng Index
RATE = Decimal("0.0001")
BINS = 10


def _mean(values: Sequence[Decimal]) -> Decimal | None:
    return sum(values, Decimal(0)) / len(values) if values else None


def _mean_of(values: Sequence[Decimal]) -> Decimal:
    """The mean of a non-empty sequence, to four places."""
    return (sum(values, Decimal(0)) / len(values)).quantize(RATE)


def _rate(part: int, whole: int) -> Decimal | None:
    return (Decimal(part) / whole).quantize(RATE) if whole else None


def _quantized(value: Decimal | None) -> Decimal | None:
    return None if value is None else value.quantize(RATE)


@dataclass(frozen=True)
class Benchmark:
    """What calls in one market are measured against, and whether it is the official index."""

    market: str
    symbol: str | None
    name: str
    official: bool
    note: str

    def as_dict(self) -> dict[str, Any]:
        return {"symbol": self.symbol, "name": self.name, "official": self.official, "note": self.note}


@dataclass(frozen=True)
class ActionStats:
    """One action's matured calls: how many, how many could be judged, the hits, and the mean returns (%)."""

    calls: int
    judged: int
    hits: int
    hit_rate: Decimal | None
    mean_return_pct: Decimal | None
    mean_benchmark_pct: Decimal | None
    mean_excess_pct: Decimal | None
    rule: str

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def by_action(scored: Sequence[Scored]) -> dict[str, ActionStats]:
    """Per action (every action, in ACTIONS order): its matured calls' hits, hit rate and mean returns."""
    result = {}
    for action in ACTIONS:
        mine = [s for s in scored if s.status == "matured" and s.call.action == action]
        judged = [s for s in mine if s.hit is not None]
        hits = sum(1 for s in judged if s.hit)
        result[action] = ActionStats(
            calls=len(mine),
            judged=len(judged),
            hits=hits,
            hit_rate=_rate(hits, len(judged)),
            mean_return_pct=pct(_mean([s.stock_return for s in mine if s.stock_return is not None])),
            mean_benchmark_pct=pct(_mean([s.benchmark_return for s in mine if s.benchmark_return is not None])),
            mean_excess_pct=pct(_mean([e for s in mine if (e := s.excess) is not None])),
            rule=RULES[action],
        )
    return result


@dataclass(frozen=True)
class ReliabilityBin:
    """One outcome's forecasts in one decile: how many, their mean, and how often the outcome happened."""

    outcome: str
    bin: str
    n: int
    mean_forecast: Decimal
    observed: Decimal | None

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def reliability(usable: Sequence[Scored]) -> tuple[ReliabilityBin, ...]:
    """Per outcome and forecast decile: calls, the mean forecast and how often the outcome happened."""
    bins: dict[tuple[str, int], list[tuple[Decimal, bool]]] = defaultdict(list)
    for s in usable:
        for o in OUTCOMES:
            p = s.call.probabilities[o]
            bins[(o, min(int(p * BINS), BINS - 1))].append((p, s.outcome == o))
    ordered = sorted(bins.items(), key=lambda x: (OUTCOMES.index(x[0][0]), x[0][1]))
    return tuple(
        ReliabilityBin(outcome, f"{Decimal(b) / BINS:.1f}-{Decimal(b + 1) / BINS:.1f}", len(found),
                       _mean_of([p for p, _ in found]), _rate(sum(1 for _, hit in found if hit), len(found)))
        for (outcome, b), found in ordered
    )  # fmt: skip


@dataclass(frozen=True)
class Calibration:
    """Brier scores of the calls' scenario probabilities, of the base rate and of the sample's own frequencies
    (a hindsight reference), the skill against the base rate, and the reliability table."""

    n: int
    brier: Decimal | None
    base_rate_brier: Decimal | None
    skill: Decimal | None
    sample_rate_brier: Decimal | None
    base_rate: Mapping[str, Decimal]
    observed: Mapping[str, Decimal | None]
    mean_forecast: Mapping[str, Decimal | None]
    reliability: tuple[ReliabilityBin, ...]
    base_rate_source: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            **{k: getattr(self, k) for k in ("n", "brier", "base_rate_brier", "skill", "sample_rate_brier")},
            "base_rate": {o: str(self.base_rate[o]) for o in OUTCOMES},
            "observed": dict(self.observed),
            "mean_forecast": dict(self.mean_forecast),
            "reliability": [r.as_dict() for r in self.reliability],
            "base_rate_source": self.base_rate_source,
        }


def calibration(
    scored: Sequence[Scored],
    base_rate: Mapping[str, Decimal],
    per_call: Mapping[str, Mapping[str, Decimal]] | None = None,
) -> Calibration:
    """Brier scores of the calls' scenario probabilities and of the base rate, with a reliability table. A call's
    base rate is `per_call[report_id]` where given (the point-in-time table's), else `base_rate`."""
    usable = [s for s in scored if s.status == "matured" and s.outcome and set(s.call.probabilities) >= set(OUTCOMES)]
    n = len(usable)
    rates = per_call or {}
    calls = _mean([brier(s.call.probabilities, str(s.outcome)) for s in usable])
    base = _mean([brier(rates.get(s.call.report_id, base_rate), str(s.outcome)) for s in usable])
    observed: dict[str, Decimal] = {o: Decimal(sum(s.outcome == o for s in usable)) / n for o in OUTCOMES} if n else {}
    return Calibration(
        n=n,
        brier=_quantized(calls),
        base_rate_brier=_quantized(base),
        skill=None if calls is None or not base else (1 - calls / base).quantize(RATE),
        sample_rate_brier=_quantized(_mean([brier(observed, str(s.outcome)) for s in usable])),
        base_rate=dict(base_rate),
        observed={o: _rate(sum(1 for s in usable if s.outcome == o), n) for o in OUTCOMES},
        mean_forecast={o: _mean_of([s.call.probabilities[o] for s in usable]) if n else None for o in OUTCOMES},
        reliability=reliability(usable),
    )


@dataclass(frozen=True)
class Cost:
    """Model cost of some reports (from the journal): in all, per report, and calls whose cost is unknown."""

    reports: int
    total: Decimal
    per_report: Decimal | None
    calls_of_unknown_cost: int

    @classmethod
    def of(cls, calls: Sequence[Call]) -> Cost:
        total = sum((c.cost for c in calls), Decimal(0))
        per_report = (total / len(calls)).quantize(Decimal("0.000001")) if calls else None
        return cls(len(calls), total, per_report, sum(c.cost_unknown for c in calls))

    def as_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("reports", "total", "per_report", "calls_of_unknown_cost")}


@dataclass(frozen=True)
class CostSummary(Cost):
    """Model cost per report, overall and by model."""

    by_model: Mapping[str, Cost] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "by_model": {m: c.as_dict() for m, c in self.by_model.items()}}


def costs(calls: Sequence[Call]) -> CostSummary:
    """Model cost per report (from the journal), overall and by model."""
    models: dict[str, list[Call]] = defaultdict(list)
    for c in calls:
        models[c.model].append(c)
    overall = Cost.of(calls)
    return CostSummary(**overall.__dict__, by_model={m: Cost.of(found) for m, found in sorted(models.items())})


@dataclass(frozen=True)
class Counts:
    """How many reports the record holds, by status, and how many came from research of the past (replays)."""

    reports: int
    matured: int
    pending: int
    unscored: int
    replayed: int

    @classmethod
    def of(cls, scored: Sequence[Scored]) -> Counts:
        statuses = [s.status for s in scored]
        return cls(len(scored), statuses.count("matured"), statuses.count("pending"), statuses.count("unscored"),
                   sum(1 for s in scored if s.call.replay))  # fmt: skip

    def as_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class TrackSummary:
    """A track record's figures without its calls."""

    as_of: datetime
    filters: Mapping[str, Any]
    benchmarks: Mapping[str, Benchmark]
    counts: Counts
    hit_rate: Decimal | None
    by_action: Mapping[str, ActionStats]
    calibration: Calibration
    cost: CostSummary

    def as_dict(self) -> dict[str, Any]:
        return {
            "as_of": self.as_of,
            "filters": dict(self.filters),
            "benchmarks": {m: b.as_dict() for m, b in self.benchmarks.items()},
            "counts": self.counts.as_dict(),
            "hit_rate": self.hit_rate,
            "by_action": {a: s.as_dict() for a, s in self.by_action.items()},
            "calibration": self.calibration.as_dict(),
            "cost": self.cost.as_dict(),
        }


@dataclass(frozen=True)
class TrackRecord:
    """Scored calls at one instant, with the benchmarks and base rate they were judged by."""

    as_of: datetime
    benchmarks: Mapping[str, Benchmark]
    scored: tuple[Scored, ...]
    base_rate: Mapping[str, Decimal]  # the newest table's (what live research uses)
    calibration_source: str
    filters: Mapping[str, Any] = field(default_factory=dict)
    base_rates: Mapping[str, Mapping[str, Decimal]] = field(default_factory=dict)  # per report id, point in time

    def matured(self) -> list[Scored]:
        return [s for s in self.scored if s.status == "matured"]

    def summary(self) -> TrackSummary:
        """Counts, hit rates by action, calibration and cost (without the calls)."""
        actions = by_action(self.scored)
        judged = sum(a.judged for a in actions.values())
        return TrackSummary(
            as_of=self.as_of,
            filters=dict(self.filters),
            benchmarks=dict(self.benchmarks),
            counts=Counts.of(self.scored),
            hit_rate=_rate(sum(a.hits for a in actions.values()), judged),
            by_action=actions,
            calibration=replace(
                calibration(self.scored, self.base_rate, self.base_rates), base_rate_source=self.calibration_source
            ),
            cost=costs([s.call for s in self.scored]),
        )

    def as_dict(self, *, calls: bool = True) -> dict[str, Any]:
        data = self.summary().as_dict()
        if calls:
            data["calls"] = [s.as_dict() for s in self.scored]
        return data
