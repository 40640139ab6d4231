"""A report's zones as plain levels, placed against a price (a leaf: the summary, continuity and the quick review
read them; `summary.zone_levels` builds them from a stored summary)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Protocol


class Band(Protocol):
    @property
    def low(self) -> Decimal: ...
    @property
    def high(self) -> Decimal: ...


class Zoned(Protocol):
    """Anything with a buy band, an optional sell band and an optional stop (a summary's zones)."""

    @property
    def buy(self) -> Band: ...
    @property
    def sell(self) -> Band | None: ...
    @property
    def stop(self) -> Decimal | None: ...


@dataclass(frozen=True, slots=True)
class ZoneLevels:
    """A report's zones: the buy band, the sell band (when there is one) and the stop (when there is one)."""

    buy_low: Decimal
    buy_high: Decimal
    sell_low: Decimal | None
    sell_high: Decimal | None
    stop: Decimal | None

    @classmethod
    def of(cls, zones: Zoned | None) -> ZoneLevels | None:
        if zones is None:
            return None
        sell = zones.sell
        return cls(zones.buy.low, zones.buy.high, sell.low if sell else None, sell.high if sell else None, zones.stop)

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
