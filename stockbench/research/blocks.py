"""The program's facts blocks: written as JSON, read back typed.

The program writes each block as JSON (`block`: that is what the model sees and what the journal stores, byte
for byte, with the evidence id of its own stored body); the engine, the gates, the composer and the offline model
read it back through the frozen records below, parsed once per block (`RunFacts.of`). Fields the readers do not
need stay in the JSON only; a block a stage could not compute is None, never a guess.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache
from typing import Any, TypeVar, cast

from pydantic import TypeAdapter

from stockbench.evidence.store import canonical_json, evidence_id_for
from stockbench.research.continuity import Since
from stockbench.research.records import EvidenceItem
from stockbench.research.wording.entry import Language

T = TypeVar("T")
Block = tuple[dict[str, Any], list[EvidenceItem]]


def shown(value: Any, places: int | None = None) -> str | None:
    """A number as the exact string the facts show (and the report may quote)."""
    if value is None:
        return None
    if isinstance(value, float):
        if math.isnan(value):
            return None
        return format(Decimal(repr(value)).quantize(Decimal(1).scaleb(-(places or 4))), "f")
    return format(value, "f") if isinstance(value, Decimal) else str(value)


def block(kind: str, source: str, data: dict[str, Any], label: str) -> tuple[dict[str, Any], EvidenceItem]:
    """A facts block with the id its stored body will have."""
    body = json.loads(canonical_json(data))
    return {**body, "evidence_id": evidence_id_for(canonical_json(body))}, EvidenceItem(kind, source, body, label)


@cache
def _adapter(kind: type[Any]) -> TypeAdapter[Any]:
    return TypeAdapter(kind)


def parse(kind: type[T], data: Any) -> T:
    """A block of type `kind` from its JSON data (fields the record does not name are ignored)."""
    adapter: TypeAdapter[Any] = _adapter(cast(Any, kind))  # a class is hashable; mypy's type[T] is not
    found: T = adapter.validate_python(data)
    return found


# ---- prepare ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class InstrumentFact:
    symbol: str
    name: str | None = None
    market: str = "CN"
    board: str = ""
    security_type: str = "stock"
    currency: str = "CNY"
    tick: Decimal | None = None
    lot: int | None = None
    limit_pct: Decimal | None = None
    evidence_id: str = ""


@dataclass(frozen=True)
class HeldFact:
    qty: int
    sellable: int
    avg_cost: Decimal | None = None
    diluted_cost: Decimal | None = None
    realized_pnl: Decimal | None = None


@dataclass(frozen=True)
class OpenOrderFact:
    order_id: str
    side: str
    qty: int
    price: Decimal
    status: str = "open"
    filled: int = 0

    @property
    def remaining(self) -> int:
        return self.qty - self.filled


@dataclass(frozen=True)
class LedgerFact:
    account: str | None = None
    cash: Mapping[str, Decimal] = field(default_factory=dict)
    position: HeldFact | None = None
    open_orders: tuple[OpenOrderFact, ...] = ()
    evidence_id: str = ""


@dataclass(frozen=True)
class QuoteFact:
    price: Decimal | None = None
    prev_close: Decimal | None = None
    change_pct: Decimal | None = None
    day: str | None = None
    label: str | None = None
    evidence_id: str = ""


@dataclass(frozen=True)
class GateFact:
    name: str
    status: str
    reason: str
    exception_allowed: bool = False
    code: str = ""  # the reason's code (stockbench.data.gates.GateResult), "" in blocks written before codes
    values: Mapping[str, Any] = field(default_factory=dict)  # its figures as shown, for the report's words


@dataclass(frozen=True)
class AnnouncementFact:
    id: str
    title: str
    published: str = ""
    category: str = ""
    level: str = ""
    thesis_level: bool = False
    list_evidence_id: str = ""


@dataclass(frozen=True)
class PreviousReport:
    report_id: str
    published_at: str
    action: str
    zones: Mapping[str, Any] = field(default_factory=dict)  # the previous report's summary zones, as stored
    last: str | None = None
    crossed: bool | None = None
    since: Since | None = None  # the path since its session, graded against its plan (research.continuity)
    evidence_id: str = ""

    def levels(self) -> tuple[Decimal, ...]:
        """Its zone bounds and stop (a continuity may name them)."""
        found: list[Decimal] = []
        for side in ("buy", "sell"):
            band = self.zones.get(side) or {}
            found += [Decimal(str(band[k])) for k in ("low", "high") if band.get(k) is not None]
        if self.zones.get("stop") is not None:
            found.append(Decimal(str(self.zones["stop"])))
        return tuple(found)


@dataclass(frozen=True)
class BuiltIndexFact:
    """How a program-built index was made on the as-of session (stockbench.data.indices)."""

    symbol: str
    key: str
    name: str
    day: str
    members: int
    weighting: str  # float_cap | equal


@dataclass(frozen=True)
class PeerFact:
    symbol: str
    name: str | None = None
    size: Decimal | None = None  # on the peer's latest bar, by the choice's size basis
    day: str | None = None
    correlation: Decimal | None = None  # of its daily returns with the subject's (the correlation rule), two places
    sessions: int | None = None  # the sessions that correlation was measured over


@dataclass(frozen=True)
class ContextFact:
    """How the sector index and the peers were chosen (stockbench.research.context): sector_basis mapping,
    board_default, built_sector, built_benchmark, unavailable or none; peer_basis declared, rule or none."""

    sector: str | None = None
    sector_name: str | None = None
    sector_basis: str = "none"
    built: BuiltIndexFact | None = None
    peer_basis: str = "none"
    peers: tuple[PeerFact, ...] = ()
    peer_group: str | None = None
    peer_size_basis: str | None = None  # float_mcap | total_mcap | amount, or correlation (ranked by it)
    subject_size: Decimal | None = None
    peer_candidates: int = 0
    evidence_id: str = ""


@dataclass(frozen=True)
class Prepared:
    """The prepare stage's facts: clock, identity, ledger, quote, data gates, announcements, previous report."""

    instrument: InstrumentFact
    ledger: LedgerFact = field(default_factory=LedgerFact)
    quote: QuoteFact = field(default_factory=QuoteFact)
    gates: tuple[GateFact, ...] = ()
    gaps: tuple[str, ...] = ()
    gates_evidence_id: str = ""
    announcements: tuple[AnnouncementFact, ...] = ()
    sector_candidates: tuple[str, ...] = ()
    sector_default: str | None = None
    peer_candidates: tuple[str, ...] = ()
    anchor_defaults: tuple[str, ...] = ()
    previous_report: PreviousReport | None = None
    previous_refused: tuple[str, ...] = ()
    reviews: Mapping[str, Any] = field(default_factory=dict)
    language: Language = "zh"  # the report's language (blocks written before it existed were Chinese)
    context: ContextFact | None = None  # None in blocks written before the program chose sector and peers


# ---- collect ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DocumentFact:
    id: str
    title: str
    evidence_id: str
    quote: str | None = None


@dataclass(frozen=True)
class Collected:
    documents: tuple[DocumentFact, ...] = ()
    sector_index: Mapping[str, Any] | None = None
    peers: Mapping[str, Any] | None = None


# ---- analytics -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AnchorFact:
    id: str
    price: Decimal
    what: str = ""
    role: str = ""


@dataclass(frozen=True)
class BandFact:
    low: Decimal
    high: Decimal
    anchors: tuple[AnchorFact, ...] = ()

    def holds(self, price: Decimal) -> bool:
        return self.low <= price <= self.high

    def basis(self) -> AnchorFact | None:
        """The anchor the zone is built on (its id ends in the level's name: buy:ma:ma60)."""
        return next((a for a in self.anchors if a.role == "basis"), None)


@dataclass(frozen=True)
class StopFact:
    price: Decimal | None = None
    anchors: tuple[AnchorFact, ...] = ()


@dataclass(frozen=True)
class DistanceFact:
    """Percent of the price from it to the buy zone's top, the sell zone's bottom and the stop (negative below; the
    keys end in _pct so that the number gate reads them as percent)."""

    buy_high_pct: Decimal | None = None
    sell_low_pct: Decimal | None = None
    stop_pct: Decimal | None = None


@dataclass(frozen=True)
class ZonesFact:
    """The program's zones (stockbench.analytics.zones.Zones); `tradeable` and `reasons` (PLAN_REASONS codes) say
    whether the plan they make may be offered as a trade. A block written before plans were assessed reads as not
    tradeable, reason not_assessed: an unknown never passes."""

    buy: BandFact
    sell: BandFact
    stop: StopFact
    position: str | None = None
    last: Decimal | None = None
    atr14: Decimal | None = None
    reward_risk: Decimal | None = None
    min_reward_risk: Decimal | None = None
    distance_pct: DistanceFact = field(default_factory=DistanceFact)
    tradeable: bool = False
    reasons: tuple[str, ...] = ("not_assessed",)
    evidence_id: str = ""

    def band(self, side: str) -> BandFact:
        return self.buy if side == "buy" else self.sell

    def bounds(self) -> dict[str, tuple[Decimal, ...]]:
        """buy and sell (low, high) and the stop: the levels a plan may name."""
        found: dict[str, tuple[Decimal, ...]] = {
            "buy": (self.buy.low, self.buy.high),
            "sell": (self.sell.low, self.sell.high),
        }
        if self.stop.price is not None:
            found["stop"] = (self.stop.price,)
        return found

    def anchors(self) -> tuple[AnchorFact, ...]:
        return (*self.buy.anchors, *self.sell.anchors, *self.stop.anchors)


@dataclass(frozen=True)
class ScenarioFact:
    """One scenario: its calibrated probability, its move (signed percent), the price it lands at and where that
    lies against the zones (stockbench.analytics.scenarios.LANDS); the description is in the report's language."""

    name: str
    probability: Decimal
    count: int | None = None
    description: str = ""
    move_pct: Decimal | None = None
    price: Decimal | None = None
    lands: str | None = None


@dataclass(frozen=True)
class CalibrationFact:
    """The calibrated table the probabilities came from: its data range, and `look_ahead` when that data reaches
    the as-of date (stockbench.analytics.calibration_tables)."""

    data_from: str
    data_to: str
    look_ahead: bool
    file: str = ""


@dataclass(frozen=True)
class ScenariosFact:
    items: tuple[ScenarioFact, ...] = ()
    tolerance: Decimal = Decimal("0.05")
    calibration: CalibrationFact | None = None  # None in blocks written before tables carried their range
    evidence_id: str = ""

    def table(self) -> dict[str, Decimal]:
        return {s.name: s.probability for s in self.items}


@dataclass(frozen=True)
class BaselineFact:
    """The decision baseline (analytics.baseline): `capped` when only an unknown input (`unknown` names them) kept it
    from a buy (every known check passed, a tradeable plan included; reports before decision_baseline 1.5 also counted
    an untradeable plan); `reasons` are codes with their values; `trades` the sample of `ev`."""

    direction: str = "hold"
    confidence: Decimal | None = None
    ev: Decimal = Decimal(0)
    trades: int = 0
    fired: bool = True  # the signal fires on the session: the backtest vetoes only then (blocks before 1.5: always)
    capped: bool = False
    unknown: tuple[str, ...] = ()
    reasons: tuple[Mapping[str, Any], ...] = ()
    evidence_id: str = ""


@dataclass(frozen=True)
class RefusalFact:
    code: str
    message: str
    fix: str = ""
    key: str = ""  # its entry in stockbench.messages (empty in blocks written before refusals carried it)
    params: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class PositionStateFact:
    """The position state machine now: the current state, the states allowed, the program's suggestion, and the
    actions allowed (each with the states it goes with) or refused (with why)."""

    current: str = "no_position"
    allowed: tuple[str, ...] = ()
    suggested: str | None = None
    qty: int = 0
    sellable: int = 0
    actions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    refused: Mapping[str, tuple[RefusalFact, ...]] = field(default_factory=dict)
    evidence_id: str = ""


@dataclass(frozen=True)
class RelativeWindowFact:
    """The stock's and the benchmark's returns (percent) over one window relative strength compares."""

    sessions: int
    return_pct: Decimal | None = None
    benchmark_return_pct: Decimal | None = None


@dataclass(frozen=True)
class RelativeReturnsFact:
    """What relative strength was measured against (the run's sector index) and the returns it compared."""

    benchmark: str | None = None
    windows: tuple[RelativeWindowFact, ...] = ()


@dataclass(frozen=True)
class StateFact:
    state: str | None = None
    table: str | None = None
    version: str | None = None
    returns: RelativeReturnsFact | None = None  # relative strength's figures (None before the report said them)


@dataclass(frozen=True)
class StatesFact:
    trend: StateFact = field(default_factory=StateFact)
    capital: StateFact = field(default_factory=StateFact)
    relative_strength: StateFact = field(default_factory=StateFact)
    volatility: StateFact = field(default_factory=StateFact)
    evidence_id: str = ""

    def named(self) -> tuple[tuple[str, StateFact], ...]:
        return (("trend", self.trend), ("capital", self.capital), ("relative_strength", self.relative_strength),
                ("volatility", self.volatility))  # fmt: skip


@dataclass(frozen=True)
class HorizonFact:
    """The signal's trades over one horizon beside the base rate (the same trade from every scored session) and
    the grade of that evidence (stockbench.analytics.edge.EVIDENCE)."""

    fires: int | None = None
    trades: int | None = None
    win_rate: Decimal | None = None
    ev_pct: Decimal | None = None
    horizon: int | None = None
    independent: int | None = None  # non-overlapping trades: the sample that counts
    base_windows: int | None = None
    base_win_rate: Decimal | None = None
    base_ev_pct: Decimal | None = None
    evidence: str | None = None  # None in blocks written before the base rate


@dataclass(frozen=True)
class SignalFact:
    """The buy signal on the as-of session: a backtest is cited only when it fired then."""

    day: str | None = None
    fired: bool = False
    score: Decimal | None = None


@dataclass(frozen=True)
class BacktestFact:
    horizons: Mapping[str, HorizonFact] = field(default_factory=dict)
    signal: SignalFact = field(default_factory=SignalFact)
    evidence_id: str = ""


@dataclass(frozen=True)
class PriceFactsFact:
    """The as-of session's price facts (stockbench.analytics.price_facts; percentages in percent)."""

    day: str
    close: Decimal
    change: Decimal | None = None
    change_pct: Decimal | None = None
    high_52w: Decimal | None = None
    low_52w: Decimal | None = None
    range_position_pct: Decimal | None = None
    drawdown_pct: Decimal | None = None
    ma250: Decimal | None = None
    ma250_distance_pct: Decimal | None = None
    amount: Decimal | None = None
    turnover_pct: Decimal | None = None
    float_mcap: Decimal | None = None
    total_mcap: Decimal | None = None
    ma20_distance_pct: Decimal | None = None
    change_20_pct: Decimal | None = None
    special_treatment: str | None = None  # *ST or ST (the name on the session), else None
    limit_pct: Decimal | None = None  # the session's ordinary daily price limit, in percent
    evidence_id: str = ""


@dataclass(frozen=True)
class AnalyticsFacts:
    """The preprocess stage's facts (each part None when it could not be computed)."""

    zones: ZonesFact | None = None
    scenarios: ScenariosFact | None = None
    baseline: BaselineFact | None = None
    position_state: PositionStateFact | None = None
    states: StatesFact | None = None
    backtest: BacktestFact | None = None
    price: PriceFactsFact | None = None
    evidence: Mapping[str, str] = field(default_factory=dict)  # part name -> its evidence id (states, backtest...)


# ---- orders --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SizedOrder:
    account: str
    symbol: str
    side: str
    qty: int
    price: Decimal


@dataclass(frozen=True)
class SizedOrders:
    orders: tuple[SizedOrder, ...] = ()
    reason: str = ""


def _analytics(raw: Mapping[str, Any]) -> AnalyticsFacts:
    zones = raw.get("zones") or {}
    usable = bool(zones.get("buy")) and zones.get("available", True) is not False
    return AnalyticsFacts(
        zones=parse(ZonesFact, zones) if usable else None,
        scenarios=parse(ScenariosFact, raw["scenarios"]) if raw.get("scenarios") else None,
        baseline=parse(BaselineFact, raw["baseline"]) if raw.get("baseline") else None,
        position_state=parse(PositionStateFact, raw["position_state"]) if raw.get("position_state") else None,
        states=parse(StatesFact, raw["states"]) if raw.get("states") else None,
        backtest=parse(BacktestFact, raw["backtest"]) if raw.get("backtest") else None,
        price=parse(PriceFactsFact, raw["price_facts"]) if (raw.get("price_facts") or {}).get("close") else None,
        evidence={k: str(v["evidence_id"]) for k, v in raw.items() if isinstance(v, dict) and "evidence_id" in v},
    )


@dataclass(frozen=True)
class RunFacts:
    """Every facts block of a run, typed, with the JSON the model saw (`raw`, by block name)."""

    raw: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    prepare: Prepared | None = None
    collect: Collected | None = None
    analytics: AnalyticsFacts | None = None
    orders: SizedOrders | None = None

    @classmethod
    def of(cls, raw: Mapping[str, Mapping[str, Any]]) -> RunFacts:
        """The typed blocks of the JSON blocks `raw` (prepare, collect, analytics, orders; any subset)."""
        return cls(
            raw=dict(raw),
            prepare=parse(Prepared, raw["prepare"]) if raw.get("prepare") else None,
            collect=parse(Collected, raw["collect"]) if raw.get("collect") else None,
            analytics=_analytics(raw["analytics"]) if raw.get("analytics") else None,
            orders=parse(SizedOrders, raw["orders"]) if raw.get("orders") else None,
        )

    def with_block(self, name: str, data: Mapping[str, Any]) -> RunFacts:
        return RunFacts.of({**self.raw, name: data})

    @property
    def zones(self) -> ZonesFact | None:
        return self.analytics.zones if self.analytics else None

    @property
    def gaps(self) -> tuple[str, ...]:
        return self.prepare.gaps if self.prepare else ()

    @property
    def language(self) -> Language:
        """The report's language (zh when no prepare block says otherwise)."""
        return self.prepare.language if self.prepare else "zh"

    @property
    def open_orders(self) -> tuple[OpenOrderFact, ...]:
        return self.prepare.ledger.open_orders if self.prepare else ()

    @property
    def sized(self) -> tuple[SizedOrder, ...]:
        return self.orders.orders if self.orders else ()

    def previous_levels(self) -> tuple[Decimal, ...]:
        previous = self.prepare.previous_report if self.prepare else None
        return previous.levels() if previous else ()
