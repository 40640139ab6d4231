"""Price ticks: the minimum price step of an instrument at a price on a date, validation and rounding.

A-share stocks move in 0.01 CNY, exchange funds in 0.001; Hong Kong uses a spread table whose bands
changed on 2025-08-04 (exchange-traded products keep the old one); US stocks 0.01 (0.0001 below $1).
"""

from __future__ import annotations

from datetime import date
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal
from typing import Literal

from stockbench.errors import InvalidInput
from stockbench.market.instruments import Exchange, Instrument, SecurityType
from stockbench.market.tables import RuleTables, SpreadTable, in_force, load_tables
from stockbench.messages import user_error

RoundMode = Literal["up", "down", "nearest"]


def _not_tradable(instrument: Instrument) -> InvalidInput:
    return user_error(InvalidInput, "index_not_tradable.tick", symbol=instrument.symbol)


def spread_table(instrument: Instrument, day: date, tables: RuleTables | None = None) -> SpreadTable:
    """The Hong Kong spread table in force for `instrument` on `day`."""
    tables = tables or load_tables()
    kind = instrument.security_type.value
    for table in in_force(tables.hk_spread, day):
        if kind in table.applies_to:
            return table
    raise user_error(InvalidInput, "no_spread_table", symbol=instrument.symbol, day=day.isoformat())


def tick_size(instrument: Instrument, price: Decimal, day: date, tables: RuleTables | None = None) -> Decimal:
    """The tick that applies at `price` (for Hong Kong, the band containing the price)."""
    tables = tables or load_tables()
    if instrument.security_type is SecurityType.INDEX:
        raise _not_tradable(instrument)
    if instrument.is_a_share:
        key = "cn_fund" if instrument.security_type is SecurityType.FUND else "cn_stock"
        return tables.ticks[key]
    if instrument.exchange is Exchange.US:
        return tables.ticks["us_below_1"] if price < 1 else tables.ticks["us"]
    bands = spread_table(instrument, day, tables).bands
    if bands[0].lower <= price <= bands[0].upper:
        return bands[0].tick
    for band in bands[1:]:
        if band.lower < price <= band.upper:
            return band.tick
    raise user_error(InvalidInput, "outside_spread_table", price=price, lower=bands[0].lower, upper=bands[-1].upper)


def fixed_tick(instrument: Instrument, tables: RuleTables | None = None) -> Decimal | None:
    """The tick when it does not depend on the price (A-shares), else None."""
    if instrument.is_a_share and instrument.security_type is not SecurityType.INDEX:
        return tick_size(instrument, Decimal(1), date.today(), tables)  # noqa: DTZ011 - A-share ticks never changed
    return None


def is_valid_tick(instrument: Instrument, price: Decimal, day: date, tables: RuleTables | None = None) -> bool:
    """True when `price` is a positive multiple of the tick that applies at it."""
    if price <= 0:
        return False
    return price % tick_size(instrument, price, day, tables) == 0


def round_to_tick(
    instrument: Instrument,
    price: Decimal,
    day: date,
    mode: RoundMode = "nearest",
    tables: RuleTables | None = None,
) -> Decimal:
    """Round `price` to a valid tick: `down`, `up`, or `nearest` (ties go up, as half-up rounding does).

    Band edges are multiples of both neighbouring ticks, so rounding within the band that contains the
    price always yields a valid price.
    """
    if price <= 0:
        raise user_error(InvalidInput, "tick_price_not_positive", price=price)
    tick = tick_size(instrument, price, day, tables)
    down = (price / tick).to_integral_value(ROUND_FLOOR) * tick
    up = (price / tick).to_integral_value(ROUND_CEILING) * tick
    if mode == "down":
        chosen = down if down > 0 else up
    elif mode == "up":
        chosen = up
    else:
        chosen = up if (price - down) >= (up - price) else down
        if chosen <= 0:
            chosen = up
    return chosen.quantize(tick)


def floor_to(value: Decimal, tick: Decimal) -> Decimal:
    """The largest multiple of `tick` not above `value`."""
    return ((value / tick).to_integral_value(ROUND_FLOOR) * tick).quantize(tick)


def ceil_to(value: Decimal, tick: Decimal) -> Decimal:
    """The smallest multiple of `tick` not below `value`."""
    return ((value / tick).to_integral_value(ROUND_CEILING) * tick).quantize(tick)


def quantize_half_up(value: Decimal, tick: Decimal) -> Decimal:
    """Round `value` half-up to a multiple of `tick` (how exchanges round limit prices)."""
    return ((value / tick).to_integral_value(ROUND_HALF_UP) * tick).quantize(tick)
