"""A published report's summary and plan, typed: what the dashboard, the plan check and the quick review read.

The summary is stored with the report (and sealed with it) as JSON carrying its schema version; every reader
parses it into `ReportSummary`, so nothing ever reads a rendered report's text to recover data. `ReportPlan` is
what a report planned: its summary, with the facts of its run the plan's rules need (the quote, the capital
state, the announcements it knew).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from stockbench.research.blocks import ContextFact, RunFacts, SizedOrder, parse
from stockbench.research.levels import ZoneLevels
from stockbench.research.wording.entry import Language

if TYPE_CHECKING:
    from stockbench.research.state import Accepted

SUMMARY_SCHEMA = 1  # the version written by this release (stockbench.store.backfills.upgraded_summary reads older)


@dataclass(frozen=True)
class Band:
    low: Decimal
    high: Decimal


@dataclass(frozen=True)
class SummaryZones:
    buy: Band
    sell: Band | None = None
    stop: Decimal | None = None
    position: str | None = None


@dataclass(frozen=True)
class OrderDecision:
    """What the report decided for an open order: KEEP, MODIFY (with its new price) or CANCEL, and why."""

    order_id: str
    decision: str
    new_price: str | None = None
    reason: str = ""


@dataclass(frozen=True)
class Path:
    trigger: str
    action: str


@dataclass(frozen=True)
class ScenarioLine:
    """A scenario as the report gave it, with the program's figures for it: the move (signed percent), the price it
    lands at and where (stockbench.analytics.scenarios.LANDS). Summaries stored before they existed read None."""

    name: str
    probability: str
    narrative: str = ""
    move_pct: Decimal | None = None
    price: Decimal | None = None
    lands: str | None = None


@dataclass(frozen=True)
class Baseline:
    """The program's decision baseline beside the report's action: its direction, confidence, and whether only an
    unknown input (`unknown` names them) kept it from a buy, every known check passing (`capped`)."""

    direction: str | None = None
    confidence: str | None = None
    capped: bool = False
    unknown: tuple[str, ...] = ()


@dataclass(frozen=True)
class Calibration:
    """The scenario table the report's probabilities came from: its data range, and `look_ahead` when that data
    reaches the report's as-of date (disclosed in the report)."""

    data_from: str
    data_to: str
    look_ahead: bool


@dataclass(frozen=True)
class SummaryContext:
    """What the report measured the stock against: its sector index and how it was chosen (research.context), the
    relative strength state against it, the peers and how they were chosen, and the session's price facts."""

    sector: str | None = None
    sector_basis: str | None = None
    relative_strength: str | None = None
    peers: tuple[str, ...] = ()
    peer_basis: str | None = None
    price: Mapping[str, Any] | None = None  # the price facts block (analytics.price_facts), values as shown


@dataclass(frozen=True)
class ReportSummary:
    """The summary of a published report (schema `SUMMARY_SCHEMA`)."""

    action: str
    position_state: str | None = None  # the position state submitted with the action (None in older summaries)
    zones: SummaryZones | None = None
    orders: tuple[Mapping[str, Any], ...] = ()  # the sized orders as the facts showed them (fees, break-even...)
    baseline: Baseline = field(default_factory=Baseline)
    scenarios: tuple[ScenarioLine, ...] = ()
    gaps: tuple[str, ...] = ()
    paths: tuple[Path, ...] = ()
    open_orders: tuple[OrderDecision, ...] = ()
    revision_of: Mapping[str, Any] | None = None
    language: Language = "zh"  # the report's language (reports published before it existed were Chinese)
    calibration: Calibration | None = None  # None: no scenarios, or published before tables carried their range
    context: SummaryContext | None = None  # None in reports published before the context was recorded
    schema: int = SUMMARY_SCHEMA

    @classmethod
    def of(cls, accepted: Accepted, facts: RunFacts, action: str, revision: Any = None) -> ReportSummary:
        """The summary of a run about to publish."""
        zones = facts.zones
        summary_zones = None
        if zones is not None:
            summary_zones = SummaryZones(
                Band(zones.buy.low, zones.buy.high), Band(zones.sell.low, zones.sell.high), zones.stop.price,
                zones.position,
            )  # fmt: skip
        baseline = facts.analytics.baseline if facts.analytics else None
        orders = (facts.raw.get("orders") or {}).get("orders", [])
        return cls(
            action=action,
            zones=summary_zones,
            orders=tuple(orders),
            baseline=Baseline(
                baseline.direction if baseline else None,
                None if baseline is None or baseline.confidence is None else format(baseline.confidence, "f"),
                baseline.capped if baseline else False,
                baseline.unknown if baseline else (),
            ),
            position_state=accepted.position_state,
            scenarios=_scenario_lines(accepted, facts),
            gaps=facts.gaps,
            paths=tuple(Path(p.trigger, p.action) for p in accepted.paths or []),
            open_orders=tuple(
                OrderDecision(o.order_id, o.decision, o.new_price, o.reason) for o in accepted.open_orders or []
            ),
            revision_of=revision,
            language=facts.language,
            calibration=_calibration(facts),
            context=_context(accepted, facts),
        )

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ReportSummary:
        """The summary as stored (summaries of reports published before schema 1 are upgraded by migration 0010)."""
        return parse(ReportSummary, data)

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["zones"] = None if self.zones is None else _zones_json(self.zones)
        b = self.baseline
        data["baseline"] = {"direction": b.direction, "confidence": b.confidence, "capped": b.capped,
                            "unknown": list(b.unknown)}  # fmt: skip
        data["orders"] = [dict(o) for o in self.orders]
        found: dict[str, Any] = _plain(data)
        return found

    def sized(self) -> tuple[SizedOrder, ...]:
        return tuple(parse(SizedOrder, o) for o in self.orders)

    def decision_for(self, order_id: str) -> OrderDecision | None:
        return next((d for d in self.open_orders if d.order_id == order_id), None)


def _context(accepted: Accepted, facts: RunFacts) -> SummaryContext:
    scene, analytics = accepted.scene, facts.analytics
    chosen = facts.prepare.context if facts.prepare else None
    states = analytics.states if analytics else None
    price = (facts.raw.get("analytics") or {}).get("price_facts")
    return SummaryContext(
        sector=scene.sector_index if scene else None,
        sector_basis=chosen.sector_basis if chosen and scene and chosen.sector == scene.sector_index else None,
        relative_strength=states.relative_strength.state if states else None,
        peers=tuple(scene.peers) if scene else (),
        peer_basis=_peer_basis(scene.peers, chosen) if scene and scene.peers else None,
        price={k: v for k, v in price.items() if k != "evidence_id"} if isinstance(price, Mapping) else None,
    )


def _peer_basis(peers: Sequence[str], chosen: ContextFact | None) -> str:
    """declared or rule when the peers are the program's offer, else model (the model chose them)."""
    offered = {p.symbol for p in chosen.peers} if chosen else set()
    return chosen.peer_basis if chosen is not None and set(peers) <= offered else "model"


def _calibration(facts: RunFacts) -> Calibration | None:
    scenarios = facts.analytics.scenarios if facts.analytics else None
    found = scenarios.calibration if scenarios else None
    return None if found is None else Calibration(found.data_from, found.data_to, found.look_ahead)


def _scenario_lines(accepted: Accepted, facts: RunFacts) -> tuple[ScenarioLine, ...]:
    computed = facts.analytics.scenarios if facts.analytics else None
    figures = {s.name: s for s in computed.items} if computed else {}
    lines = []
    for s in accepted.scenarios or []:
        found = figures.get(s.name)
        move, price, lands = (found.move_pct, found.price, found.lands) if found else (None, None, None)
        lines.append(ScenarioLine(s.name, s.probability, s.narrative, move, price, lands))
    return tuple(lines)


def _zones_json(zones: SummaryZones) -> dict[str, Any]:
    return {
        "buy": {"low": zones.buy.low, "high": zones.buy.high},
        "sell": None if zones.sell is None else {"low": zones.sell.low, "high": zones.sell.high},
        "stop": zones.stop,
        "position": zones.position,
    }


def _plain(value: Any) -> Any:
    """JSON data: Decimals as their exact strings, tuples as lists."""
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def zone_levels(zones: Mapping[str, Any] | None) -> ZoneLevels | None:
    """The zones of a report's summary (`reports.summary.zones`), or None when it has none."""
    if not zones or not zones.get("buy"):
        return None
    return ZoneLevels.of(parse(SummaryZones, zones))


@dataclass(frozen=True)
class ReportPlan:
    """What a published report planned, read back from its summary and the facts of its run."""

    report_id: str
    run_id: str
    symbol: str
    published_at: datetime
    data_at: datetime  # when the run gathered its data
    kind: str
    account: str | None
    action: str
    zones: ZoneLevels | None
    position: str | None
    day: date | None  # the session of the report's price
    price: Decimal | None
    capital: str | None
    paths: tuple[tuple[str, str], ...] = ()
    open_orders: tuple[Mapping[str, Any], ...] = ()
    orders: tuple[Mapping[str, Any], ...] = ()
    gaps: tuple[str, ...] = ()
    announcement_ids: frozenset[str] = field(default_factory=frozenset)
    summary_zones: Mapping[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "report_id": self.report_id,
            "run_id": self.run_id,
            "kind": self.kind,
            "published_at": self.published_at.isoformat(),
            "account": self.account,
            "action": self.action,
            "zones": self.summary_zones,
            "position": self.position,
            "day": self.day.isoformat() if self.day else None,
            "price": str(self.price) if self.price is not None else None,
            "capital": self.capital,
            "paths": [{"trigger": t, "action": a} for t, a in self.paths],
            "open_orders": [dict(o) for o in self.open_orders],
            "orders": [dict(o) for o in self.orders],
            "gaps": list(self.gaps),
        }
