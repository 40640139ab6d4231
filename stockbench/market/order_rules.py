"""Can this order be placed? Lots, ticks, the day's limits and the price cage, checked together.

Every problem is returned at once, each with a fix; an order outside the price cage is accepted by the
exchange but waits, so it is a note, not a problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from stockbench.errors import InvalidInput, Problem
from stockbench.market.instruments import Instrument, SecurityType
from stockbench.market.limits import PriceLimits, cage_note, limit_problem, price_limits
from stockbench.market.lots import Side, check_quantity
from stockbench.market.numbers import places_of
from stockbench.market.tables import RuleTables, load_tables
from stockbench.market.ticks import is_valid_tick, round_to_tick, tick_size
from stockbench.messages import problem, problem_of


@dataclass(frozen=True)
class OrderCheck:
    """The verdict on one order: valid when there are no problems."""

    problems: tuple[Problem, ...]
    notes: tuple[Problem, ...] = ()
    limits: PriceLimits | None = None
    checks: tuple[str, ...] = field(default=())

    @property
    def valid(self) -> bool:
        return not self.problems


def tick_problem(instrument: Instrument, price: Decimal, day: date, tables: RuleTables) -> Problem | None:
    """A problem naming the nearest valid prices when `price` is off the tick."""
    if price <= 0:
        return problem("price_not_positive", price=price)
    try:
        if is_valid_tick(instrument, price, day, tables):
            return None
        down = round_to_tick(instrument, price, day, "down", tables)
        up = round_to_tick(instrument, price, day, "up", tables)
    except InvalidInput as error:
        return problem_of(error, "price_out_of_range")
    allowed, count = places_of(tick_size(instrument, price, day, tables)), places_of(price)
    if count > allowed:  # finer than any price of the instrument there: say how many decimals it may have
        return problem("price_off_tick.places", price=price, symbol=instrument.symbol, down=down, up=up, count=count,
                       allowed=allowed)  # fmt: skip
    return problem("price_off_tick", price=price, symbol=instrument.symbol, down=down, up=up)


def check_order(
    instrument: Instrument,
    side: Side,
    qty: int,
    price: Decimal,
    day: date,
    *,
    holding: int | None = None,
    ref: Decimal | None = None,
    st: bool = False,
    listing_session: int | None = None,
    tables: RuleTables | None = None,
) -> OrderCheck:
    """Check an order against the rules in force on `day`.

    `holding` is the sellable quantity (for the odd-lot rule and the cap on sells); `ref` the day's
    reference price (previous close or ex-rights reference), without which limits cannot be checked.
    """
    tables = tables or load_tables()
    if instrument.security_type is SecurityType.INDEX:
        return OrderCheck((problem("not_tradable", symbol=instrument.symbol),))
    problems = list(check_quantity(instrument, side, qty, holding, tables))
    checks = ["lot"]
    if (tick := tick_problem(instrument, price, day, tables)) is not None:
        problems.append(tick)
    checks.append("tick")
    notes: list[Problem] = []
    limits = None
    if ref is not None:
        limits = price_limits(instrument, ref, day, st=st, listing_session=listing_session, tables=tables)
        if price > 0 and (beyond := limit_problem(side, price, limits)) is not None:
            problems.append(beyond)
        if price > 0 and (caged := cage_note(instrument, side, price, ref, day, tables=tables)) is not None:
            notes.append(caged)
        checks += ["limit", "cage"]
    return OrderCheck(tuple(problems), tuple(notes), limits, tuple(checks))
