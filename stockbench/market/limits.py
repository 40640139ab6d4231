"""Daily price limits and the price cage, from the rule tables and the date asked about.

Limit = reference x (1 +/- pct), rounded half-up to the tick. The reference is the previous close, or the
exchange's ex-rights reference on ex-dates. New registration-system listings trade without a limit for
their first sessions; before that, a new listing's first session was banded at +44%/-36%.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Literal

from stockbench.errors import InvalidInput, Problem
from stockbench.market.instruments import Instrument, SecurityType, rule_board
from stockbench.market.tables import RuleTables, in_force, load_tables
from stockbench.market.ticks import ceil_to, floor_to, quantize_half_up, tick_size
from stockbench.messages import problem, user_error, value_word


@dataclass(frozen=True, slots=True)
class PriceLimits:
    """The day's limit prices (None where there is no limit) and why."""

    up: Decimal | None
    down: Decimal | None
    pct: Decimal | None
    reason: str
    unconfirmed: bool = False

    @property
    def limited(self) -> bool:
        return self.up is not None

    def contains(self, price: Decimal) -> bool:
        if self.up is None or self.down is None:
            return True
        return self.down <= price <= self.up


def limit_pct(
    instrument: Instrument,
    day: date,
    *,
    st: bool = False,
    unreformed: bool = False,
    tables: RuleTables | None = None,
) -> tuple[Decimal, bool] | None:
    """(percentage, unconfirmed) of the ordinary daily limit, or None where there is none.

    `unreformed` (shares not yet through the split-share reform, S-prefixed names) takes precedence over `st`.
    """
    tables = tables or load_tables()
    if not instrument.is_a_share or instrument.security_type is SecurityType.INDEX:
        return None
    board = rule_board(instrument)
    status = "normal"
    if instrument.security_type is SecurityType.STOCK:
        status = "unreformed" if unreformed else ("st" if st else "normal")
    rows = [r for r in in_force(tables.limits, day) if r.board == board and r.status == status]
    if not rows:
        raise user_error(InvalidInput, "no_limit_rule", symbol=instrument.symbol, board=board, status=status,
                         day=day.isoformat())  # fmt: skip
    return rows[0].pct, rows[0].unconfirmed


def no_limit_sessions(instrument: Instrument, day: date, tables: RuleTables | None = None) -> int:
    """How many first sessions of a listing on `day`'s rules trade without a limit (0 if none)."""
    tables = tables or load_tables()
    board = rule_board(instrument)
    rows = [r for r in in_force(tables.listing_no_limit, day) if r.board == board]
    return rows[0].sessions if rows else 0


def price_limits(
    instrument: Instrument,
    ref: Decimal,
    day: date,
    *,
    st: bool = False,
    unreformed: bool = False,
    listing_session: int | None = None,
    listed: date | None = None,
    first_session_event: str | None = None,
    tables: RuleTables | None = None,
) -> PriceLimits:
    """The limit-up and limit-down prices for `day` from the reference price `ref`.

    `listing_session` is the 1-based session number since listing when the instrument is newly listed
    (None when it is not, or not known to be); the listing rules are those in force on `listed` (the
    listing date; `day` when not given). `first_session_event` names an event whose first session has no
    limit (`resumed_listing`, `relisting`, `further_issue`, `delisting_period`, `reform_completed`).
    """
    tables = tables or load_tables()
    if ref <= 0:
        raise user_error(InvalidInput, "reference_not_positive", ref=ref)
    found = limit_pct(instrument, day, st=st, unreformed=unreformed, tables=tables)
    if found is None:
        return PriceLimits(None, None, None, f"{instrument.symbol}: no daily price limit")
    if first_session_event is not None:
        events = [r for r in in_force(tables.first_session_no_limit, day) if r.event == first_session_event]
        if not events:
            known = ", ".join(sorted({r.event for r in tables.first_session_no_limit}))
            raise user_error(InvalidInput, "unknown_first_session_event", event=first_session_event,
                             day=day.isoformat(), events=known)  # fmt: skip
        return PriceLimits(None, None, None, f"no limit: first session of a {first_session_event.replace('_', ' ')}")
    rules_day = listed or day
    free = no_limit_sessions(instrument, rules_day, tables)
    if listing_session is not None and listing_session <= free:
        return PriceLimits(None, None, None, f"no limit: new listing, session {listing_session} of {free}")
    tick = tick_size(instrument, ref, day, tables)
    if listing_session == 1:
        bands = [r for r in in_force(tables.listing_first_day_band, rules_day) if r.board == rule_board(instrument)]
        if bands:
            band = bands[0]
            return PriceLimits(
                quantize_half_up(ref * (1 + band.up), tick),
                quantize_half_up(ref * (1 - band.down), tick),
                None,
                f"first session of a listing: +{band.up:%} / -{band.down:%} of the offer price",
            )
    pct, unconfirmed = found
    status = " unreformed (S)" if unreformed else (" ST" if st else "")
    label = f"{rule_board(instrument)}{status} {pct * 100:g}%"
    return PriceLimits(
        quantize_half_up(ref * (1 + pct), tick),
        quantize_half_up(ref * (1 - pct), tick),
        pct,
        label,
        unconfirmed,
    )


def limit_problem(side: Literal["buy", "sell"], price: Decimal, limits: PriceLimits) -> Problem | None:
    """A problem when `price` lies outside the day's limits (orders there are rejected by the exchange)."""
    if limits.up is not None and price > limits.up:
        return problem("above_limit_up", price=price, up=limits.up, side=side, side_zh=value_word("side", side, "zh"))
    if limits.down is not None and price < limits.down:
        return problem("below_limit_down", price=price, down=limits.down, side=side,
                       side_zh=value_word("side", side, "zh"))  # fmt: skip
    return None


def cage_note(
    instrument: Instrument,
    side: Literal["buy", "sell"],
    price: Decimal,
    ref: Decimal,
    day: date,
    *,
    tables: RuleTables | None = None,
) -> Problem | None:
    """A note when a continuous-auction limit order lies outside the price cage (it waits, unmatched).

    `ref` is the cage's reference price (during continuous trading, the latest trade price).
    """
    tables = tables or load_tables()
    board = rule_board(instrument)
    rows = [r for r in in_force(tables.price_cage, day) if board in r.boards]
    if not rows:
        return None
    cage = rows[0]
    tick = tick_size(instrument, ref, day, tables)
    caveat = {"caveat": value_word("caveat", "unconfirmed", "en") if cage.unconfirmed else "",
              "caveat_zh": value_word("caveat", "unconfirmed", "zh") if cage.unconfirmed else ""}  # fmt: skip
    if side == "buy":
        bound = max(ref * cage.buy_pct, ref + cage.ticks * tick)
        if price > bound:
            return problem("price_cage.buy", price=price, bound=bound.normalize(), ref=ref,
                           matchable=floor_to(bound, tick), **caveat)  # fmt: skip
    else:
        bound = min(ref * cage.sell_pct, ref - cage.ticks * tick)
        if price < bound:
            return problem("price_cage.sell", price=price, bound=bound.normalize(), ref=ref,
                           matchable=ceil_to(bound, tick), **caveat)  # fmt: skip
    return None
