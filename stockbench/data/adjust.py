"""Forward- and backward-adjusted prices, computed on read from unadjusted bars and their reference prices.

An ex-date is a bar whose reference price (`prev_close`, the exchange's ex-rights reference) differs from
the previous bar's close; its factor is f = close[t-1] / prev_close[t] (above 1 after a dividend or a bonus
issue). Backward adjustment (后复权) keeps the first bar as it was and multiplies every price from an
ex-date on by that date's factor; forward adjustment (前复权) keeps the latest bar as it was and divides
every price before an ex-date by its factor. The method is multiplicative, so adjusted prices never go
negative however long the history (the subtractive method, price minus cash dividends, can). Adjusted prices
are exact Decimals rounded half-up to 6 places (unadjusted ones keep 4); volume and amount are never adjusted.
A bar without a reference price has no factor.
"""

from __future__ import annotations

from datetime import date
from decimal import Context, Decimal
from typing import Literal

import polars as pl

AdjustHow = Literal["forward", "backward"]
PRICES = ("open", "high", "low", "close", "prev_close")
ADJUSTED = pl.Decimal(24, 6)  # six places keep a 1991 price of 0.05 exact to 0.002%
FACTOR = pl.Decimal(38, 18)
_EXACT = Context(prec=40)
_FACTOR_STEP = Decimal("1e-18")
_START = date(1, 1, 1)


def ex_factors(bars: pl.DataFrame) -> list[tuple[date, Decimal]]:
    """(ex-date, factor close[t-1] / prev_close[t]) for every bar whose reference price differs from the
    previous bar's close, in date order. `bars` holds one symbol and one source."""
    events = (
        bars.sort("day")
        .select("day", previous=pl.col("close").shift(1), reference=pl.col("prev_close"))
        .filter(
            pl.col("previous").is_not_null() & (pl.col("reference") > 0) & (pl.col("reference") != pl.col("previous"))
        )
    )
    return [(day, _EXACT.divide(previous, reference)) for day, previous, reference in events.iter_rows()]


def multipliers(factors: list[tuple[date, Decimal]], how: AdjustHow) -> list[tuple[date, Decimal]]:
    """Breakpoints (from_day, multiplier): each multiplier applies from its day until the next breakpoint."""
    points: list[tuple[date, Decimal]] = []
    if how == "backward":
        running = Decimal(1)
        points.append((_START, running))
        for day, factor in factors:
            running = _EXACT.multiply(running, factor)
            points.append((day, running))
    else:
        running = Decimal(1)
        for day, factor in reversed(factors):
            points.append((day, running))
            running = _EXACT.divide(running, factor)
        points.append((_START, running))
        points.reverse()
    return [(day, value.quantize(_FACTOR_STEP, context=_EXACT)) for day, value in points]


def adjusted(bars: pl.DataFrame, how: AdjustHow) -> pl.DataFrame:
    """`bars` (one symbol, one source) with open, high, low, close and prev_close adjusted `how`."""
    ordered = bars.sort("day")
    factors = ex_factors(ordered)
    if not factors:
        return ordered
    points = pl.DataFrame(multipliers(factors, how), schema={"day": pl.Date, "_multiplier": FACTOR}, orient="row")
    joined = ordered.join_asof(points, on="day", strategy="backward")
    scaled = [(pl.col(c) * pl.col("_multiplier")).round(6, mode="half_away_from_zero").cast(ADJUSTED) for c in PRICES]
    return joined.with_columns(scaled).drop("_multiplier")
