"""Buy zone, sell zone and stop for one or many symbols on a date: ONE algorithm, vectorised across symbols, every
bound resting on named anchors (table `zones` of resources/rule_tables.toml) so reports can cite them.

The algorithm, on forward-adjusted bars up to the as-of session (ATR = atr14 that day):

1. Candidate levels, each an anchor with the session it comes from: the moving averages of `buy_anchor_mas`
   (either side of the close); swing lows and highs of the last `swing_lookback` sessions (a bar whose low/high
   is the extreme of `swing_window` sessions either side) and that window's lowest low and highest high, so a
   support and a resistance always exist; the 52-week high; volume-profile nodes (the last
   `volume_profile_lookback` sessions in `volume_profile_bins` equal price bins, each bar's volume in the bin
   of its typical price (H+L+C)/3: the node is the busiest bin's middle, either side of the close); and,
   with at least 1,000 days of valuation history, the valuation bands at `valuation_band_percentiles`
   (lowest: support, highest: resistance, the others either side).
2. Buy basis: the nearest support at or below the close. Buy zone = [support - buy_atr_below x ATR, support +
   buy_atr_above x ATR]; stop = buy zone's low - stop_atr_below x ATR.
3. Sell basis: the nearest resistance at or above the close whose sell zone (resistance +/- sell_atr_band x ATR)
   starts at least min_separation_atr x ATR above the buy zone; nearer resistances belong to the same congestion
   and are skipped. With none that far, the sell basis is projected exactly that far up (anchor atr_projection).
   Every candidate inside a zone is listed as a confluence anchor beside its basis.
4. Tradable prices: levels are scaled to the unadjusted price scale of the as-of session (x raw close /
   adjusted close, so a dividend or bonus issue inside the lookback moves old levels onto today's scale), then
   rounded to valid ticks: buy bounds and the stop down, sell bounds up. Each zone also carries the part of it
   that lies inside the next session's price limits (`tradable`; None when none of it can trade that day).
5. The plan (`Zones`): reward-to-risk from the zone middles and the stop, the distances of the buy zone's top, the
   sell zone's bottom and the stop from the price (percent), and whether the plan is tradeable: reward-to-risk at
   least min_reward_risk, the buy zone within max_buy_distance_atr x ATR under the price, the price above the
   stop; each failure is a reason code (PlanReason).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Literal, get_args

import polars as pl

from stockbench.analytics.rule_tables import Table, load_rule_tables
from stockbench.data.records import HALTED, TradingStatus
from stockbench.errors import DataUnavailable, Problem, UserError
from stockbench.market.instruments import Instrument
from stockbench.market.limits import PriceLimits
from stockbench.market.tables import RuleTables
from stockbench.market.ticks import round_to_tick, tick_size
from stockbench.messages import Note, user_error

ZonePosition = Literal["stop_hit", "below_buy", "in_buy", "between", "in_sell", "above_sell"]
POSITIONS: tuple[ZonePosition, ...] = get_args(ZonePosition)
PlanReason = Literal["halted", "reward_risk_below_min", "buy_out_of_reach", "stop_hit"]
PLAN_REASONS: tuple[PlanReason, ...] = get_args(PlanReason)
AnchorKind = Literal["ma", "swing_low", "swing_high", "high_52w", "volume_node", "valuation_band", "atr_band"]
AnchorRole = Literal["basis", "confluence", "width"]
LevelSide = Literal["support", "resistance", "either"]
LEVEL_SCHEMA: dict[str, Any] = {
    "symbol": pl.String,
    "side": pl.String,
    "kind": pl.String,
    "name": pl.String,
    "value": pl.Float64,
    "day": pl.Date,
    "note": pl.String,
}
_K = "_k"  # sessions back from the as-of row (0 = the as-of session)
PROJECTION = "atr_projection"  # the name of a sell basis projected from the buy zone (no resistance far enough)
_CENT = Decimal("0.01")


@dataclass(frozen=True, slots=True)
class ZoneParams:
    """The `zones` rule table's parameters."""

    cite: str
    mas: tuple[str, ...]
    buy_atr_below: float
    buy_atr_above: float
    stop_atr_below: float
    sell_atr_band: float
    swing_lookback: int
    swing_window: int
    profile_lookback: int
    profile_bins: int
    valuation_percentiles: tuple[float, ...]
    min_separation_atr: float

    @classmethod
    def from_table(cls, table: Table | None = None) -> ZoneParams:
        t = table or load_rule_tables().zones
        return cls(
            t.cite(),
            tuple(t["buy_anchor_mas"]),
            t.number("buy_atr_below"),
            t.number("buy_atr_above"),
            t.number("stop_atr_below"),
            t.number("sell_atr_band"),
            t.integer("swing_lookback"),
            t.integer("swing_window"),
            t.integer("volume_profile_lookback"),
            t.integer("volume_profile_bins"),
            tuple(float(p) for p in t["valuation_band_percentiles"]),
            t.number("min_separation_atr"),
        )

    @property
    def window(self) -> int:
        """Sessions of bars the algorithm reads before the as-of session (included)."""
        return max(self.swing_lookback + self.swing_window, self.profile_lookback)


def with_sessions_back(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` (sorted by symbol and day) with `_k`: sessions back from each symbol's last row (0 there)."""
    reverse = frame.with_columns(pl.int_range(pl.len(), dtype=pl.Int64).reverse().alias(_K))
    return reverse.with_columns(pl.col(_K) - pl.col(_K).min().over("symbol"))


def tail_rows(frame: pl.DataFrame, sessions: int) -> pl.DataFrame:
    """The last `sessions` rows of every symbol of `frame` (sorted by symbol and day), with `_k` sessions back."""
    return with_sessions_back(frame).filter(pl.col(_K) < sessions)


def _levels(frame: pl.DataFrame | pl.LazyFrame, **columns: pl.Expr) -> pl.LazyFrame:
    return frame.lazy().select(pl.col("symbol"), **columns).select(list(LEVEL_SCHEMA)).cast(LEVEL_SCHEMA)  # type: ignore[arg-type]


def _ma_levels(last: pl.DataFrame, params: ZoneParams) -> list[pl.LazyFrame]:
    return [
        _levels(
            last,
            side=pl.lit("either"),
            kind=pl.lit("ma"),
            name=pl.lit(ma),
            value=pl.col(ma),
            day=pl.col("day"),
            note=pl.lit(f"{ma} on the as-of session"),
        )
        for ma in params.mas
        if ma in last.columns
    ]


def _swing_levels(window: pl.DataFrame, params: ZoneParams) -> list[pl.LazyFrame]:
    span, look = 2 * params.swing_window + 1, params.swing_lookback
    rows = window.lazy().filter(pl.col(_K) < look + params.swing_window)
    # One kernel over the column; a window is kept only when both its ends (hence all of it) are one symbol's.
    whole = pl.col("symbol").shift(params.swing_window) == pl.col("symbol").shift(-params.swing_window)
    low_min = pl.when(whole).then(pl.col("low").rolling_min(span, center=True))
    high_max = pl.when(whole).then(pl.col("high").rolling_max(span, center=True))
    pivots = rows.with_columns(_lo=low_min, _hi=high_max).filter(pl.col(_K) < look)
    note = f"extreme of {params.swing_window} sessions either side"
    recent = rows.filter(pl.col(_K) < look)
    low_day = pl.col("day").filter(pl.col("low") == pl.col("low").min()).max()
    high_day = pl.col("day").filter(pl.col("high") == pl.col("high").max()).max()
    ranges = recent.group_by("symbol").agg(
        _low=pl.col("low").min(), _low_day=low_day, _high=pl.col("high").max(), _high_day=high_day
    )
    return [
        _levels(
            pivots.filter(pl.col("low") == pl.col("_lo")),
            side=pl.lit("support"),
            kind=pl.lit("swing_low"),
            name=pl.lit("pivot_low"),
            value=pl.col("low"),
            day=pl.col("day"),
            note=pl.lit(note),
        ),
        _levels(
            pivots.filter(pl.col("high") == pl.col("_hi")),
            side=pl.lit("resistance"),
            kind=pl.lit("swing_high"),
            name=pl.lit("pivot_high"),
            value=pl.col("high"),
            day=pl.col("day"),
            note=pl.lit(note),
        ),
        _levels(
            ranges,
            side=pl.lit("support"),
            kind=pl.lit("swing_low"),
            name=pl.lit(f"low_{look}"),
            value=pl.col("_low"),
            day=pl.col("_low_day"),
            note=pl.lit(f"lowest low of the last {look} sessions"),
        ),
        _levels(
            ranges,
            side=pl.lit("resistance"),
            kind=pl.lit("swing_high"),
            name=pl.lit(f"high_{look}"),
            value=pl.col("_high"),
            day=pl.col("_high_day"),
            note=pl.lit(f"highest high of the last {look} sessions"),
        ),
    ]


def _profile_levels(window: pl.DataFrame, params: ZoneParams) -> list[pl.LazyFrame]:
    bins, look = params.profile_bins, params.profile_lookback
    rows = window.lazy().filter(pl.col(_K) < look)
    rows = rows.with_columns(_lo=pl.col("low").min().over("symbol"), _hi=pl.col("high").max().over("symbol"))
    # No division by a constant or by a per-symbol aggregate: polars divides a column by a scalar as a product with
    # its reciprocal, but a one-symbol frame's aggregate is itself a scalar (a true quotient), so a price on a bin's
    # edge fell in another bin alone than beside other symbols. Products are the same either way.
    width = (pl.col("_hi") - pl.col("_lo")) * (1.0 / bins)
    per_price = bins / (pl.col("_hi") - pl.col("_lo"))
    typical = (pl.col("high") + pl.col("low") + pl.col("close")) / 3
    index = pl.when(width > 0).then(((typical - pl.col("_lo")) * per_price).floor().clip(0, bins - 1)).otherwise(0)
    node = (
        rows.with_columns(_bin=index, _w=width)
        .group_by("symbol", "_bin")
        .agg(_vol=pl.col("volume").sum(), _lo=pl.col("_lo").first(), _w=pl.col("_w").first(), day=pl.col("day").max())
        .with_columns(_share=pl.col("_vol") * (1.0 / pl.col("_vol").sum().over("symbol")))
        .sort("symbol", "_vol", "_bin", descending=[False, True, False])
        .unique("symbol", keep="first", maintain_order=True)
    )
    low, high = pl.col("_lo") + pl.col("_bin") * pl.col("_w"), pl.col("_lo") + (pl.col("_bin") + 1) * pl.col("_w")
    note = pl.format(
        "busiest of {} price bins over {} sessions ({}-{}), {}% of the volume",
        pl.lit(bins),
        pl.lit(look),
        low.round(2),
        high.round(2),
        (pl.col("_share") * 100).round(1),
    )
    return [
        _levels(
            node,
            side=pl.lit("either"),
            kind=pl.lit("volume_node"),
            name=pl.lit("volume_node"),
            value=(low + high) / 2,
            day=pl.col("day"),
            note=note,
        )
    ]


def _high_52w(last: pl.DataFrame) -> list[pl.LazyFrame]:
    if "high_52w" not in last.columns:
        return []
    return [
        _levels(
            last,
            side=pl.lit("resistance"),
            kind=pl.lit("high_52w"),
            name=pl.lit("high_52w"),
            value=pl.col("high_52w"),
            day=pl.col("day"),
            note=pl.lit("highest high of 250 sessions"),
        )
    ]


def candidate_levels(
    window: pl.DataFrame, last: pl.DataFrame, params: ZoneParams, bands: pl.DataFrame | None = None
) -> pl.DataFrame:
    """Every candidate anchor level per symbol (columns of LEVEL_SCHEMA), on the frame's (adjusted) price scale.

    `window` holds the last `params.window` rows per symbol (see `tail_rows`); `last` one row per symbol with
    day, close and the indicator columns; `bands` optional valuation bands with LEVEL_SCHEMA's columns.
    """
    parts = [*_ma_levels(last, params), *_swing_levels(window, params), *_profile_levels(window, params)]
    parts += _high_52w(last)
    if bands is not None and not bands.is_empty():
        parts.append(bands.lazy().select(list(LEVEL_SCHEMA)).cast(LEVEL_SCHEMA))  # type: ignore[arg-type]
    found = pl.concat(parts).filter(pl.col("value").is_finite() & (pl.col("value") > 0))
    return (
        found.unique(["symbol", "kind", "name", "value"], keep="last").sort("symbol", "value", "kind", "name").collect()
    )


def _basis(levels: pl.LazyFrame, support: bool) -> pl.LazyFrame:
    """The nearest support at or below the close (or resistance at or above it, and at or above `_floor`)."""
    sides = ["support", "either"] if support else ["resistance", "either"]
    near = pl.col("value") <= pl.col("close") if support else pl.col("value") >= pl.max_horizontal("close", "_floor")
    prefix = "buy" if support else "sell"
    chosen = (
        levels.filter(pl.col("side").is_in(sides) & near)
        .sort("symbol", "value", "kind", "name", descending=[False, support, False, False])
        .unique("symbol", keep="first", maintain_order=True)
    )
    return chosen.select("symbol", **{f"{prefix}_basis": pl.col("value"), f"{prefix}_basis_name": pl.col("name")})


def zone_levels(last: pl.DataFrame, levels: pl.DataFrame, params: ZoneParams) -> pl.DataFrame:
    """Per symbol with an ATR: the raw (adjusted, unrounded) zone bounds and stop, and the names of their bases.

    Columns: symbol, day, close, atr, buy_low, buy_high, sell_low, sell_high, stop, projected (no resistance was
    far enough: the sell basis is projected from the buy zone), buy_basis, buy_basis_name, sell_basis,
    sell_basis_name.
    """
    base = last.lazy().select("symbol", "day", "close", atr=pl.col("atr14")).filter(pl.col("atr") > 0)
    lv = levels.lazy().join(base.select("symbol", "close"), on="symbol")
    atr = pl.col("atr")
    out = base.join(_basis(lv, True), on="symbol").with_columns(
        buy_low=pl.col("buy_basis") - params.buy_atr_below * atr,
        buy_high=pl.col("buy_basis") + params.buy_atr_above * atr,
    )
    # The lowest sell basis whose zone starts min_separation_atr ATR above the buy zone.
    out = out.with_columns(_floor=pl.col("buy_high") + (params.min_separation_atr + params.sell_atr_band) * atr)
    sell = _basis(lv.join(out.select("symbol", "_floor"), on="symbol"), False)
    out = out.join(sell, on="symbol", how="left").with_columns(projected=pl.col("sell_basis").is_null())
    out = out.with_columns(
        sell_basis=pl.coalesce("sell_basis", "_floor"),
        sell_basis_name=pl.coalesce("sell_basis_name", pl.lit(PROJECTION)),
    ).with_columns(
        sell_low=pl.col("sell_basis") - params.sell_atr_band * atr,
        sell_high=pl.col("sell_basis") + params.sell_atr_band * atr,
        stop=pl.col("buy_low") - params.stop_atr_below * atr,
    )
    columns = ["symbol", "day", "close", "atr", "buy_low", "buy_high", "sell_low", "sell_high", "stop", "projected"]
    return out.select(*columns, "buy_basis", "buy_basis_name", "sell_basis", "sell_basis_name").collect()


def position_expr(price: pl.Expr) -> pl.Expr:
    """Where `price` sits against the columns stop, buy_low, buy_high, sell_low, sell_high (see ZonePosition)."""
    return (
        pl.when(price <= pl.col("stop"))
        .then(pl.lit("stop_hit"))
        .when(price < pl.col("buy_low"))
        .then(pl.lit("below_buy"))
        .when(price <= pl.col("buy_high"))
        .then(pl.lit("in_buy"))
        .when(price < pl.col("sell_low"))
        .then(pl.lit("between"))
        .when(price <= pl.col("sell_high"))
        .then(pl.lit("in_sell"))
        .otherwise(pl.lit("above_sell"))
    )


def compute_levels(
    frame: pl.DataFrame, params: ZoneParams | None = None, bands: pl.DataFrame | None = None
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(zone_levels, candidate_levels) of every symbol on its last row of `frame` (indicator columns present)."""
    params = params or ZoneParams.from_table()
    window = tail_rows(frame, params.window)
    last = window.filter(pl.col(_K) == 0)
    levels = candidate_levels(window, last, params, bands)
    return zone_levels(last, levels, params), levels


# ---- one symbol, tradable: Decimals on valid ticks, anchors, limits --------------------------------------------


@dataclass(frozen=True, slots=True)
class Anchor:
    """A computed level a zone rests on, on the current (unadjusted) price scale."""

    kind: AnchorKind
    name: str
    value: Decimal
    day: date
    role: AnchorRole
    note: str = ""

    def as_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "name": self.name,
            "value": self.value,
            "day": self.day,
            "role": self.role,
            "note": self.note,
        }


@dataclass(frozen=True, slots=True)
class Zone:
    """A price range on valid ticks and the anchors that define it; `tradable` is its part inside the next
    session's limits (the whole zone where there are none; None when no part of it can trade that day)."""

    low: Decimal
    high: Decimal
    anchors: tuple[Anchor, ...]
    tradable: tuple[Decimal, Decimal] | None

    def as_dict(self) -> dict[str, object]:
        tradable = {"low": self.tradable[0], "high": self.tradable[1]} if self.tradable else None
        return {
            "low": self.low,
            "high": self.high,
            "anchors": [a.as_dict() for a in self.anchors],
            "tradable": tradable,
        }


@dataclass(frozen=True, slots=True)
class TradeDay:
    """The session the levels are for (the next one after the as-of session), its price limits, and the trading
    status the latest quote states for it (suspended, delisted: no order can trade; see data.records.HALTED)."""

    day: date | None
    reference: Decimal | None
    limits: PriceLimits | None
    note: str = ""
    status: TradingStatus = "trading"


@dataclass(frozen=True, slots=True)
class PlanRules:
    """When a plan is tradeable (the `zones` rule table's min_reward_risk and max_buy_distance_atr)."""

    min_reward_risk: Decimal
    max_buy_distance_atr: Decimal

    @classmethod
    def from_table(cls, table: Table | None = None) -> PlanRules:
        t = table or load_rule_tables().zones
        return cls(t.decimal("min_reward_risk"), t.decimal("max_buy_distance_atr"))


@dataclass(frozen=True, slots=True)
class Distances:
    """How far the buy zone's top, the sell zone's bottom and the stop lie from the price, in percent of the
    price (signed: negative below it), to 2 places."""

    buy_high: Decimal
    sell_low: Decimal
    stop: Decimal

    def as_dict(self) -> dict[str, object]:
        return {"buy_high": self.buy_high, "sell_low": self.sell_low, "stop": self.stop}


def percent_from(price: Decimal, level: Decimal) -> Decimal:
    """`level` against `price`, in percent of the price (2 places; negative below it)."""
    return ((level / price - 1) * 100).quantize(_CENT, ROUND_HALF_UP)


def reward_risk(buy: Zone, sell: Zone, stop: Decimal) -> Decimal:
    """(sell zone middle - buy zone middle) / (buy zone middle - stop), to 2 places."""
    entry, target = (buy.low + buy.high) / 2, (sell.low + sell.high) / 2
    return ((target - entry) / (entry - stop)).quantize(_CENT, ROUND_HALF_UP)


@dataclass(frozen=True, slots=True)
class Zones:
    """Buy zone, sell zone and stop of one symbol as of its last session, where a price sits, and whether the plan
    they make is tradeable (reward-to-risk, reach, stop) with the reason codes when it is not."""

    symbol: str
    as_of: date
    price: Decimal
    buy: Zone
    sell: Zone
    stop: Decimal
    stop_anchors: tuple[Anchor, ...]
    atr: Decimal
    scale: Decimal
    trade_day: TradeDay
    flags: tuple[str, ...] = ()
    table: str = ""
    rules: PlanRules = field(default_factory=PlanRules.from_table)
    flag_notes: tuple[Note, ...] = ()  # the flags in words of either language (flags keeps their English)
    position: ZonePosition = field(init=False)
    reward_risk: Decimal = field(init=False)
    distance_pct: Distances = field(init=False)
    tradeable: bool = field(init=False)
    reasons: tuple[PlanReason, ...] = field(init=False)

    def __post_init__(self) -> None:
        at = functools.partial(percent_from, self.price)
        distances = Distances(at(self.buy.high), at(self.sell.low), at(self.stop))
        ratio = reward_risk(self.buy, self.sell, self.stop)
        reasons = self.reasons_for(ratio)
        for name, value in (("position", self.position_of(self.price)), ("reward_risk", ratio),
                            ("distance_pct", distances), ("tradeable", not reasons), ("reasons", reasons)):  # fmt: skip
            object.__setattr__(self, name, value)

    def reasons_for(self, ratio: Decimal) -> tuple[PlanReason, ...]:
        """Why the plan is not tradeable at the price (empty when it is), in PLAN_REASONS order."""
        found: list[PlanReason] = []
        if self.trade_day.status in HALTED:
            found.append("halted")
        if ratio < self.rules.min_reward_risk:
            found.append("reward_risk_below_min")
        if self.price - self.buy.high > self.rules.max_buy_distance_atr * self.atr:
            found.append("buy_out_of_reach")
        if self.price <= self.stop:
            found.append("stop_hit")
        return tuple(found)

    def position_of(self, price: Decimal) -> ZonePosition:
        """Where `price` sits: stop_hit, below_buy, in_buy, between, in_sell or above_sell."""
        if price <= self.stop:
            return "stop_hit"
        if price < self.buy.low:
            return "below_buy"
        if price <= self.buy.high:
            return "in_buy"
        if price < self.sell.low:
            return "between"
        return "in_sell" if price <= self.sell.high else "above_sell"

    def as_dict(self) -> dict[str, object]:
        limits = self.trade_day.limits
        return {
            "symbol": self.symbol,
            "as_of": self.as_of,
            "price": self.price,
            "buy": self.buy.as_dict(),
            "sell": self.sell.as_dict(),
            "stop": self.stop,
            "stop_anchors": [a.as_dict() for a in self.stop_anchors],
            "position": self.position,
            "atr14": self.atr,
            "scale": self.scale,
            "trade_day": {
                "day": self.trade_day.day,
                "limit_up": limits.up if limits else None,
                "limit_down": limits.down if limits else None,
                "note": self.trade_day.note or (limits.reason if limits else ""),
                "status": self.trade_day.status,
            },
            "flags": list(self.flags),
            "table": self.table,
            "reward_risk": self.reward_risk,
            "min_reward_risk": self.rules.min_reward_risk,
            "distance_pct": self.distance_pct.as_dict(),
            "tradeable": self.tradeable,
            "reasons": list(self.reasons),
        }

    def basis(self, side: Literal["buy", "sell"]) -> Anchor | None:
        """The anchor the buy or sell zone is built on."""
        zone = self.buy if side == "buy" else self.sell
        return next((a for a in zone.anchors if a.role == "basis"), None)


@dataclass(frozen=True, slots=True)
class _Rounder:
    instrument: Instrument
    day: date
    scale: Decimal
    tables: RuleTables | None

    def level(self, value: float) -> Decimal:
        """A float level of the adjusted frame on the current price scale (4 places, not a tick)."""
        return (Decimal(repr(value)) * self.scale).quantize(Decimal("0.0001"))

    def tick(self, value: float, mode: Literal["up", "down"]) -> Decimal:
        scaled = max(self.level(value), Decimal("0.0001"))
        return round_to_tick(self.instrument, scaled, self.day, mode, self.tables)


def _anchor(row: dict[str, Any], rounder: _Rounder, role: AnchorRole) -> Anchor:
    return Anchor(row["kind"], row["name"], rounder.level(row["value"]), row["day"], role, row["note"])


def _projection(row: dict[str, Any], rounder: _Rounder, params: ZoneParams) -> Anchor:
    far = params.min_separation_atr + params.sell_atr_band
    note = (f"no resistance far enough: buy zone high + {far:g} x ATR14, so the sell zone starts "
            f"{params.min_separation_atr:g} x ATR14 above the buy zone")  # fmt: skip
    return Anchor("atr_band", PROJECTION, rounder.level(row["sell_basis"]), row["day"], "basis", note)


def _zone_anchors(
    levels: list[dict[str, Any]], row: dict[str, Any], side: str, rounder: _Rounder, params: ZoneParams
) -> list[Anchor]:
    low, high = row[f"{side}_low"], row[f"{side}_high"]
    key = (row[f"{side}_basis_name"], row[f"{side}_basis"])
    basis = [r for r in levels if (r["name"], r["value"]) == key][:1]
    inside = [r for r in levels if low <= r["value"] <= high and r not in basis]
    found = [_anchor(r, rounder, "basis") for r in basis]
    if side == "sell" and row["projected"]:
        found.append(_projection(row, rounder, params))
    return found + [_anchor(r, rounder, "confluence") for r in inside]


def _skipped(levels: list[dict[str, Any]], row: dict[str, Any], rounder: _Rounder, params: ZoneParams) -> str:
    """The note naming the resistances nearer than the sell basis (too close to the buy zone to sell at)."""
    near = [r for r in levels if r["side"] != "support" and row["close"] <= r["value"] < row["sell_basis"]]
    if not near:
        return ""
    names = ", ".join(f"{r['name']} {rounder.level(r['value'])}" for r in near)
    return f"; nearer resistance skipped (within {params.min_separation_atr:g} x ATR14 of the buy zone): {names}"


def _tradable(low: Decimal, high: Decimal, limits: PriceLimits | None) -> tuple[Decimal, Decimal] | None:
    if limits is None or limits.up is None or limits.down is None:
        return (low, high)
    lo, hi = max(low, limits.down), min(high, limits.up)
    return (lo, hi) if lo <= hi else None


def _width(row: dict[str, Any], rounder: _Rounder, note: str) -> Anchor:
    return Anchor("atr_band", "atr14", rounder.level(row["atr"]), row["day"], "width", note)


def _zone(
    row: dict[str, Any],
    side: Literal["buy", "sell"],
    levels: list[dict[str, Any]],
    rounder: _Rounder,
    *,
    trade: TradeDay,
    params: ZoneParams,
) -> Zone:
    mode: Literal["up", "down"] = "down" if side == "buy" else "up"
    low, high = rounder.tick(row[f"{side}_low"], mode), rounder.tick(row[f"{side}_high"], mode)
    anchors = _zone_anchors(levels, row, side, rounder, params)
    if side == "buy":
        note = f"basis - {params.buy_atr_below:g} x ATR14 to basis + {params.buy_atr_above:g} x ATR14"
    else:
        note = f"basis +/- {params.sell_atr_band:g} x ATR14" + _skipped(levels, row, rounder, params)
    anchors.append(_width(row, rounder, note))
    return Zone(low, high, tuple(anchors), _tradable(low, high, trade.limits))


def _apart(buy: Zone, sell: Zone, rounder: _Rounder, trade: TradeDay) -> Zone:
    """Zones that meet on a tick would share a price: the sell zone then starts one tick above the buy zone."""
    if sell.low > buy.high:
        return sell
    low = round_to_tick(rounder.instrument, buy.high + Decimal("0.0001"), rounder.day, "up", rounder.tables)
    high = max(sell.high, low)
    return Zone(low, high, sell.anchors, _tradable(low, high, trade.limits))


def _stop(row: dict[str, Any], buy: Zone, rounder: _Rounder, params: ZoneParams) -> tuple[Decimal, tuple[Anchor, ...]]:
    stop = rounder.tick(row["stop"], "down")
    step = tick_size(rounder.instrument, buy.low, rounder.day, rounder.tables)
    if buy.low <= step:
        raise user_error(DataUnavailable, "zones_no_stop", symbol=rounder.instrument.symbol, low=buy.low)
    if stop >= buy.low:  # an ATR smaller than a tick: keep the stop a tick under the zone
        stop = buy.low - step
    width = _width(row, rounder, f"stop = buy zone low - {params.stop_atr_below:g} x ATR14")
    basis = tuple(a for a in buy.anchors if a.role == "basis")
    return stop, (*basis, width)


@dataclass(frozen=True, slots=True)
class ZoneFacts:
    """What places one symbol's levels on today's prices: the unadjusted `price` to place (the last close, or a
    live quote), the session the levels are for, `scale` = raw close / adjusted close of the last row, and the
    flags about its data."""

    instrument: Instrument
    price: Decimal
    trade: TradeDay
    scale: Decimal = Decimal(1)
    flags: Sequence[str | Note] = ()


def zones_for(
    frame: pl.DataFrame,
    instrument: Instrument,
    *,
    price: Decimal,
    trade: TradeDay,
    scale: Decimal = Decimal(1),
    flags: Sequence[str | Note] = (),
    bands: pl.DataFrame | None = None,
    params: ZoneParams | None = None,
    tables: RuleTables | None = None,
    rules: PlanRules | None = None,
) -> Zones:
    """The zones of the one symbol of `frame` (adjusted bars with indicator columns, ending on the as-of session).

    `price` is the unadjusted price to place (the last close, or a live quote); `scale` = raw close / adjusted
    close of the last row; `bands` valuation bands (LEVEL_SCHEMA) on the frame's adjusted scale.
    """
    params = params or ZoneParams.from_table()
    found, levels = compute_levels(frame, params, bands)
    row = found.row(0, named=True) if not found.is_empty() else None
    facts = ZoneFacts(instrument, price, trade, scale, flags)
    unplaced = _Unplaced(frame.height, _last_atr(frame))
    return _zones_of(row, levels.to_dicts(), facts, unplaced, params=params, tables=tables, rules=rules)


def zones_for_many(
    frame: pl.DataFrame,
    facts: Sequence[ZoneFacts],
    *,
    bands: pl.DataFrame | None = None,
    params: ZoneParams | None = None,
    tables: RuleTables | None = None,
    rules: PlanRules | None = None,
) -> dict[str, Zones | UserError]:
    """`zones_for` of every symbol of `facts` in one pass over `frame` (adjusted bars with indicator columns of all
    of them, sorted by symbol and day), each equal to its `zones_for` alone; a symbol without zones maps to the
    error `zones_for` raises for it."""
    params = params or ZoneParams.from_table()
    found, levels = compute_levels(frame, params, bands)
    rows = {str(r["symbol"]): r for r in found.iter_rows(named=True)}
    anchors: dict[str, list[dict[str, Any]]] = {}
    for level in levels.iter_rows(named=True):
        anchors.setdefault(str(level["symbol"]), []).append(level)
    counts = frame.group_by("symbol").agg(pl.len(), pl.col("atr14").last()) if "atr14" in frame.columns else None
    unplaced = {str(r[0]): _Unplaced(int(r[1]), r[2]) for r in counts.iter_rows()} if counts is not None else {}
    result: dict[str, Zones | UserError] = {}
    for fact in facts:
        symbol = fact.instrument.symbol
        try:
            result[symbol] = _zones_of(rows.get(symbol), anchors.get(symbol, []), fact,
                                       unplaced.get(symbol, _Unplaced(0, None)), params=params, tables=tables,
                                       rules=rules)  # fmt: skip
        except UserError as error:
            result[symbol] = error
    return result


@dataclass(frozen=True, slots=True)
class _Unplaced:
    """Why a symbol without a zone row has none: how many sessions it has, and its last ATR (None: too few)."""

    sessions: int
    atr: float | None


def _last_atr(frame: pl.DataFrame) -> float | None:
    return frame.get_column("atr14")[-1] if "atr14" in frame.columns and not frame.is_empty() else None


def _zones_of(
    row: dict[str, Any] | None,
    levels: list[dict[str, Any]],
    facts: ZoneFacts,
    unplaced: _Unplaced,
    *,
    params: ZoneParams,
    tables: RuleTables | None,
    rules: PlanRules | None,
) -> Zones:
    """The tradable zones of one symbol from its zone row and candidate levels (see `compute_levels`)."""
    instrument, trade = facts.instrument, facts.trade
    if row is None:
        if unplaced.atr is None:
            raise user_error(DataUnavailable, "zones_too_few_sessions", symbol=instrument.symbol,
                             count=unplaced.sessions)  # fmt: skip
        raise user_error(DataUnavailable, "zones_no_movement", symbol=instrument.symbol)
    rounder = _Rounder(instrument, trade.day or row["day"], facts.scale, tables)
    buy = _zone(row, "buy", levels, rounder, trade=trade, params=params)
    sell = _apart(buy, _zone(row, "sell", levels, rounder, trade=trade, params=params), rounder, trade)
    stop, stop_anchors = _stop(row, buy, rounder, params)
    return Zones(
        instrument.symbol,
        row["day"],
        facts.price,
        buy,
        sell,
        stop,
        stop_anchors,
        rounder.level(row["atr"]),
        facts.scale,
        trade,
        tuple(f if isinstance(f, str) else f.text("en") for f in facts.flags),
        params.cite,
        rules or PlanRules.from_table(),
        tuple(f for f in facts.flags if not isinstance(f, str)),
    )


def zone_problems(side: Literal["buy", "sell"], low: Decimal, high: Decimal, zones: Zones) -> list[Problem]:
    """Problems with a proposed zone: it must lie on the computed zone's side and contain one of its anchors."""
    computed = zones.buy if side == "buy" else zones.sell
    problems = []
    if low > high:
        problems.append(Problem("zone_inverted", f"the {side} zone {low}-{high} ends below its start", "swap them"))
    levels = [a for a in computed.anchors if a.role != "width"]
    if not any(low <= a.value <= high for a in levels):
        names = ", ".join(f"{a.name} {a.value}" for a in levels)
        problems.append(
            Problem(
                "zone_unanchored",
                f"the {side} zone {low}-{high} contains none of its anchors",
                f"rest it on one of: {names}",
                f"{side}_zone",
            )
        )
    return problems
