"""A published report's summary and plan, typed: what the dashboard, the plan check and the quick review read.

The summary is stored with the report (and sealed with it) as JSON carrying its schema version; every reader
parses it into `ReportSummary`, so nothing ever reads a rendered report's text to recover data. `ReportPlan` is
what a report planned: its summary, with the facts of its run the plan's rules need (the quote, the capital
state, the announcements it knew).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from stockbench.research.blocks import RunFacts, SizedOrder, parse

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
    name: str
    probability: str
    narrative: str = ""


@dataclass(frozen=True)
class Baseline:
    direction: str | None = None
    confidence: str | None = None


@dataclass(frozen=True)
class ReportSummary:
    """The summary of a published report (schema `SUMMARY_SCHEMA`)."""

    action: str
    zones: SummaryZones | None = None
    orders: tuple[Mapping[str, Any], ...] = ()  # the sized orders as the facts showed them (fees, break-even...)
    baseline: Baseline = field(default_factory=Baseline)
    scenarios: tuple[ScenarioLine, ...] = ()
    gaps: tuple[str, ...] = ()
    paths: tuple[Path, ...] = ()
    open_orders: tuple[OrderDecision, ...] = ()
    revision_of: Mapping[str, Any] | None = None
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
            ),
            scenarios=tuple(ScenarioLine(s.name, s.probability, s.narrative) for s in accepted.scenarios or []),
            gaps=facts.gaps,
            paths=tuple(Path(p.trigger, p.action) for p in accepted.paths or []),
            open_orders=tuple(
                OrderDecision(o.order_id, o.decision, o.new_price, o.reason) for o in accepted.open_orders or []
            ),
            revision_of=revision,
        )

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ReportSummary:
        """The summary as stored (summaries of reports published before schema 1 are upgraded by migration 0010)."""
        return parse(ReportSummary, data)

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["zones"] = None if self.zones is None else _zones_json(self.zones)
        data["baseline"] = {"direction": self.baseline.direction, "confidence": self.baseline.confidence}
        data["orders"] = [dict(o) for o in self.orders]
        found: dict[str, Any] = _plain(data)
        return found

    def sized(self) -> tuple[SizedOrder, ...]:
        return tuple(parse(SizedOrder, o) for o in self.orders)

    def decision_for(self, order_id: str) -> OrderDecision | None:
        return next((d for d in self.open_orders if d.order_id == order_id), None)


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


@dataclass(frozen=True, slots=True)
class ZoneLevels:
    """A report's zones: the buy band, the sell band (when there is one) and the stop (when there is one)."""

    buy_low: Decimal
    buy_high: Decimal
    sell_low: Decimal | None
    sell_high: Decimal | None
    stop: Decimal | None

    @classmethod
    def of(cls, zones: SummaryZones | None) -> ZoneLevels | None:
        if zones is None:
            return None
        sell = zones.sell
        return cls(zones.buy.low, zones.buy.high, sell.low if sell else None, sell.high if sell else None, zones.stop)

    @classmethod
    def from_summary(cls, zones: Mapping[str, Any] | None) -> ZoneLevels | None:
        """The zones of a report's summary (`reports.summary.zones`), or None when it has none."""
        if not zones or not zones.get("buy"):
            return None
        return cls.of(parse(SummaryZones, zones))

    def position(self, price: Decimal) -> str:
        """Where `price` sits, as stockbench.analytics.zones.Zones.position_of places it."""
        if self.stop is not None and price <= self.stop:
            return "stop_hit"
        if price < self.buy_low:
            return "below_buy"
        if price <= self.buy_high:
            return "in_buy"
        if self.sell_low is None or self.sell_high is None or price < self.sell_low:
            return "between"
        return "in_sell" if price <= self.sell_high else "above_sell"

    def levels_of(self, position: str) -> tuple[Decimal, ...]:
        """The prices that define `position` (for finding the report path that names them)."""
        found = {
            "in_buy": (self.buy_low, self.buy_high),
            "in_sell": (self.sell_low, self.sell_high),
            "stop_hit": (self.stop,),
        }.get(position, ())
        return tuple(v for v in found if v is not None)


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
