"""Order sizing and the pre-trade check: the quantity a plan (side, entry, stop) allows in an account, or every
reason it is refused. Defaults come from the `sizing` rule table (resources/rule_tables.toml).

- Status: a name whose latest quote says it is suspended, delisted or not yet listed is not sized at all.

- Prices: the entry is rounded to a valid tick in the cautious direction (a buy down, a sell up) and kept inside
  the trade day's limits (a buy above limit-up goes in at limit-up, a sell below limit-down at limit-down; a buy
  below limit-down or a sell above limit-up cannot trade that day and is refused). The stop is rounded down, so
  the loss is computed at the lower price.
- Equity: the account's cash in the instrument's currency plus its holdings in that currency at their last close.
- Risk: the whole position after the trade, from the entry down to the stop, loses at most risk_pct x equity,
  counting this order's fees and the fees of selling that position at the stop. A risk_pct the user chose above
  the table's risk_pct_ceiling is refused unless the user confirmed it (the table's own default never is).
- Buys: the largest quantity within the risk budget, the cash (amount + fees; no margin) and the maximum weight
  ((holding + qty) x entry <= max_weight x (equity - fees)), rounded down to the board lot (STAR: 200, then 1).
- Sells: the smallest valid quantity (odd-remainder rules) that brings the rest of the holding within the risk
  budget and the maximum weight at this stop, at most the sellable quantity (T+1); the stop is the rest's stop.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_CEILING, Decimal
from typing import Literal

from stockbench.analytics.rule_tables import Table
from stockbench.data.records import HALTED, TradingStatus
from stockbench.errors import InvalidInput, Problem
from stockbench.market.fees import FeeBreakdown, FeeSettings, break_even_price, order_fees
from stockbench.market.instruments import Exchange, Instrument
from stockbench.market.limits import PriceLimits
from stockbench.market.lots import board_lot, check_quantity
from stockbench.market.tables import RuleTables
from stockbench.market.ticks import round_to_tick, tick_size
from stockbench.messages import problem, user_error

Side = Literal["buy", "sell"]
Bound = Literal["risk", "cash", "weight", "sellable"]
_WEIGHT_PLACES = Decimal("0.0001")
_CENT = Decimal("0.01")


@dataclass(frozen=True, slots=True)
class Plan:
    """What the user wants to do: side, entry price, stop, and the risk budget and weight cap (fractions).
    `risk_ceiling`: the largest risk_pct allowed without the user's confirmation (None: no ceiling applies)."""

    side: Side
    entry: Decimal
    stop: Decimal
    risk_pct: Decimal
    max_weight: Decimal
    risk_ceiling: Decimal | None = None


@dataclass(frozen=True, slots=True)
class AccountView:
    """The part of an account a plan is sized against (money in the instrument's currency)."""

    account: str
    currency: str
    cash: Decimal
    equity: Decimal
    holding: int
    sellable: int
    avg_cost: Decimal | None
    settings: FeeSettings


@dataclass(frozen=True, slots=True)
class TradeDate:
    """The session the order would be placed in, its price limits (None: unknown or no limit) and the trading status
    the latest quote gives (a halted name cannot trade: nothing is sized)."""

    day: date
    limits: PriceLimits | None
    status: TradingStatus = "trading"


@dataclass(frozen=True, slots=True)
class Sizing:
    """A sized order with its itemised fees and what it leaves."""

    symbol: str
    side: Side
    qty: int
    price: Decimal
    stop: Decimal
    fees: FeeBreakdown
    break_even: Decimal | None
    cash_after: Decimal
    weight_after: Decimal
    loss_at_stop: Decimal
    risk_budget: Decimal
    equity: Decimal
    bound_by: tuple[Bound, ...]
    day: date
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        return {
            "symbol": self.symbol,
            "side": self.side,
            "qty": self.qty,
            "price": self.price,
            "stop": self.stop,
            "fees": self.fees.as_dict(),
            "break_even": self.break_even,
            "cash_after": self.cash_after,
            "weight_after": self.weight_after,
            "loss_at_stop": self.loss_at_stop,
            "risk_budget": self.risk_budget,
            "equity": self.equity,
            "bound_by": list(self.bound_by),
            "day": self.day,
            "notes": list(self.notes),
        }


@dataclass(frozen=True, slots=True)
class SizeResult:
    """A sizing, or the problems that refuse the plan (never both)."""

    sizing: Sizing | None
    problems: tuple[Problem, ...] = ()


@dataclass(frozen=True)
class _Order:
    instrument: Instrument
    plan: Plan
    book: AccountView
    trade: TradeDate
    price: Decimal
    stop: Decimal
    tables: RuleTables | None

    def fees(self, side: Side, qty: int, price: Decimal) -> Decimal:
        if qty <= 0:
            return Decimal(0)
        found = order_fees(
            self.instrument, side, qty, price, self.trade.day, settings=self.book.settings, tables=self.tables
        )
        return found.total

    @property
    def budget(self) -> Decimal:
        return (self.book.equity * self.plan.risk_pct).quantize(_CENT)

    def loss(self, position: int, order_side: Side, qty: int) -> Decimal:
        """Loss from the entry to the stop of `position` shares, with this order's fees and selling at the stop."""
        return (
            position * (self.price - self.stop)
            + self.fees(order_side, qty, self.price)
            + self.fees("sell", position, self.stop)
        )


def _percent(fraction: Decimal) -> str:
    """A fraction as a percentage without trailing zeros: 0.0150 -> 1.5%."""
    return f"{(fraction * 100).normalize():f}%"


def _check_plan(instrument: Instrument, plan: Plan, book: AccountView) -> list[Problem]:
    problems = []
    for name, value in (("risk_pct", plan.risk_pct), ("max_weight", plan.max_weight)):
        if not Decimal(0) < value <= 1:
            problems.append(
                Problem(
                    f"bad_{name}", f"{name} {_percent(value)} is not above 0% and at most 100%", "e.g. 1 for 1%", name
                )
            )
    if plan.risk_ceiling is not None and plan.risk_ceiling < plan.risk_pct <= 1:
        problems.append(
            Problem(
                "risk_above_ceiling",
                f"a risk of {_percent(plan.risk_pct)} of equity is above the sizing table's ceiling of "
                f"{_percent(plan.risk_ceiling)}",
                f"lower --risk-pct to {_percent(plan.risk_ceiling)} or less, or confirm it with --confirm-risk",
                "risk_pct",
            )
        )
    if plan.entry <= 0 or plan.stop <= 0:
        problems.append(Problem("bad_price", "the entry and the stop must be positive prices", "e.g. 12.34"))
    elif plan.stop >= plan.entry:
        problems.append(
            Problem(
                "stop_not_below_entry",
                f"the stop {plan.stop} is not below the entry {plan.entry}",
                "a stop protects a long position: set it under the entry",
                "stop",
            )
        )
    if book.equity <= 0:
        problems.append(
            Problem(
                "no_equity",
                f"account '{book.account}' holds no {book.currency}",
                f"deposit {book.currency} first (stockbench ledger cash ...)",
            )
        )
    if plan.side == "sell" and book.holding == 0:
        problems.append(
            Problem("no_position", f"account '{book.account}' holds no {instrument.symbol}", "there is nothing to sell")
        )
    elif plan.side == "sell" and book.sellable == 0:
        problems.append(
            Problem(
                "nothing_sellable",
                f"none of the {book.holding} shares is sellable today (T+1)",
                "they can be sold from the next session",
            )
        )
    return problems


def _price(
    instrument: Instrument, plan: Plan, trade: TradeDate, tables: RuleTables | None
) -> tuple[Decimal | None, list[Problem], list[str]]:
    """The entry on a valid tick (cautious direction) inside the day's limits, or why it cannot trade that day."""
    mode: Literal["up", "down"] = "down" if plan.side == "buy" else "up"
    price = round_to_tick(instrument, plan.entry, trade.day, mode, tables)
    notes = [f"entry {plan.entry} rounded {mode} to the tick: {price}"] if price != plan.entry else []
    limits = trade.limits
    if limits is None or limits.up is None or limits.down is None:
        return price, [], notes
    if plan.side == "buy" and price > limits.up:
        return limits.up, [], [*notes, f"entry placed at the limit-up price {limits.up} of {trade.day}"]
    if plan.side == "sell" and price < limits.down:
        return limits.down, [], [*notes, f"entry placed at the limit-down price {limits.down} of {trade.day}"]
    if plan.side == "buy" and price < limits.down:
        return (
            None,
            [
                Problem(
                    "entry_below_limit_down",
                    f"a buy at {price} is below the limit-down price {limits.down} of {trade.day}: it cannot be placed",
                    f"buy at {limits.down} or higher",
                    "entry",
                )
            ],
            notes,
        )
    if plan.side == "sell" and price > limits.up:
        return (
            None,
            [
                Problem(
                    "entry_above_limit_up",
                    f"a sell at {price} is above the limit-up price {limits.up} of {trade.day}: it cannot be placed",
                    f"sell at {limits.up} or lower",
                    "entry",
                )
            ],
            notes,
        )
    return price, [], notes


def _largest(candidates: Callable[[int], int], ok: Callable[[int], bool], top: int) -> int | None:
    """The largest j in [0, top] with ok(candidates(j)) (ok is monotone: true then false); None if none."""
    if top < 0 or not ok(candidates(0)):
        return None
    lo, hi = 0, top
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if ok(candidates(mid)) else (lo, mid - 1)
    return lo


def _buy(order: _Order, lot: tuple[int, int]) -> tuple[int, tuple[Bound, ...]] | list[Problem]:
    minimum, step = lot
    book, price = order.book, order.price

    def qty_at(j: int) -> int:  # the valid buy quantities
        return minimum + j * step

    top = max(0, int((book.cash / price - minimum) // step) + 1)
    caps: dict[Bound, Callable[[int], bool]] = {
        "risk": lambda q: order.loss(book.holding + q, "buy", q) <= order.budget,
        "cash": lambda q: q * price + order.fees("buy", q, price) <= book.cash,
        "weight": lambda q: (
            (book.holding + q) * price <= order.plan.max_weight * (book.equity - order.fees("buy", q, price))
        ),
    }
    found = {name: _largest(qty_at, ok, top) for name, ok in caps.items()}
    if any(j is None for j in found.values()):
        return _too_small(order, [n for n, j in found.items() if j is None], minimum)
    best = min(j for j in found.values() if j is not None)
    return qty_at(best), tuple(n for n, j in found.items() if j == best)


def _too_small(order: _Order, bounds: list[Bound], minimum: int) -> list[Problem]:
    cost = minimum * order.price + order.fees("buy", minimum, order.price)
    texts = {
        "cash": (
            f"cash {order.book.cash} {order.book.currency} is less than one lot ({minimum} shares at "
            f"{order.price} cost {cost} with fees)",
            "deposit cash or choose a cheaper entry",
        ),
        "risk": (
            f"the risk budget {order.budget} ({_percent(order.plan.risk_pct)} of equity) is less than one lot's "
            f"loss at the stop ({order.loss(order.book.holding + minimum, 'buy', minimum):.2f})",
            "raise --risk-pct, or move the stop closer to the entry",
        ),
        "weight": (
            f"one more lot ({minimum} shares) would put the position above the maximum weight "
            f"{_percent(order.plan.max_weight)}",
            "raise --max-weight",
        ),
    }
    code = {"cash": "cash_below_one_lot", "risk": "risk_budget_below_one_lot", "weight": "weight_cap_below_one_lot"}
    return [Problem(code[bound], texts[bound][0], texts[bound][1]) for bound in bounds]


def _next_sell(q: int, sellable: int, lot: tuple[int, int], instrument: Instrument) -> int | None:
    """The smallest valid sell quantity of at least `q` out of `sellable`, or None."""
    minimum, step = lot
    if instrument.exchange is Exchange.HK or minimum == step:
        options = [-(-q // step) * step]
        if sellable % step:
            options.append(q + (sellable % step - q) % step)
        found = [o for o in options if 0 < o <= sellable and not check_quantity(instrument, "sell", o, sellable)]
        return min(found, default=None)
    chosen = max(q, minimum) if sellable >= minimum else sellable
    return chosen if chosen <= sellable and not check_quantity(instrument, "sell", chosen, sellable) else None


def _sell(order: _Order, lot: tuple[int, int]) -> tuple[int, tuple[Bound, ...]] | list[Problem]:
    book, price = order.book, order.price
    rest_ok: dict[Bound, Callable[[int], bool]] = {
        "risk": lambda q: order.loss(book.holding - q, "sell", q) <= order.budget,
        "weight": lambda q: (
            (book.holding - q) * price <= order.plan.max_weight * (book.equity - order.fees("sell", q, price))
        ),
    }
    needed = {name: _smallest(ok, book.holding) for name, ok in rest_ok.items()}
    target = max(needed.values())
    if target == 0:
        return [
            Problem(
                "nothing_to_sell",
                f"the holding of {book.holding} already fits the risk budget "
                f"{order.budget} and the maximum weight at this stop",
                "nothing needs selling for this plan",
            )
        ]
    bounds: tuple[Bound, ...] = tuple(n for n, q in needed.items() if q == target)
    qty = _next_sell(min(target, book.sellable), book.sellable, lot, order.instrument)
    if qty is None:
        return [
            Problem(
                "no_valid_sell",
                f"no valid sell quantity of at least {target} fits the sellable {book.sellable} shares",
                "sell the odd lot separately, or wait for more shares to be sellable",
            )
        ]
    return qty, (("sellable",) if target > book.sellable else bounds)


def _smallest(ok: Callable[[int], bool], top: int) -> int:
    lo, hi = 0, top
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid + 1, hi)
    return lo


def _result(order: _Order, qty: int, bounds: tuple[Bound, ...], notes: list[str]) -> Sizing:
    book, price, side = order.book, order.price, order.plan.side
    fees = order_fees(order.instrument, side, qty, price, order.trade.day, settings=book.settings, tables=order.tables)
    position = book.holding + qty if side == "buy" else book.holding - qty
    cash_after = book.cash - qty * price - fees.total if side == "buy" else book.cash + qty * price - fees.total
    weight = (position * price / (book.equity - fees.total)).quantize(_WEIGHT_PLACES)
    loss = order.loss(position, side, qty).quantize(_CENT)
    if bounds == ("sellable",):
        notes.append(f"only {book.sellable} of {book.holding} shares are sellable today (T+1)")
    return Sizing(
        order.instrument.symbol,
        side,
        qty,
        price,
        order.stop,
        fees,
        _break_even(order, qty),
        cash_after.quantize(_CENT),
        weight,
        loss,
        order.budget,
        book.equity,
        bounds,
        order.trade.day,
        tuple(notes),
    )


def _break_even(order: _Order, qty: int) -> Decimal | None:
    tick = tick_size(order.instrument, order.price, order.trade.day, order.tables)
    if order.plan.side == "buy":
        return break_even_price(
            order.instrument,
            qty,
            order.price,
            order.trade.day,
            tick=tick,
            settings=order.book.settings,
            tables=order.tables,
        )
    if order.book.avg_cost is None:
        return None
    fees = order.fees("sell", qty, order.price)
    return ((order.book.avg_cost * qty + fees) / qty / tick).to_integral_value(ROUND_CEILING) * tick


def size_order(
    instrument: Instrument, plan: Plan, book: AccountView, trade: TradeDate, tables: RuleTables | None = None
) -> SizeResult:
    """Size `plan` for `instrument` in `book` on the trade date, or refuse it with every problem found."""
    problems = _check_plan(instrument, plan, book)
    if trade.status in HALTED:
        problems.insert(0, problem(f"halted.{trade.status}", symbol=instrument.symbol))
    lot = board_lot(instrument, tables)
    if lot is None:
        problems.append(
            Problem(
                "lot_unknown",
                f"the board lot of {instrument.symbol} is not known",
                "fetch its instrument data (stockbench data fetch)",
            )
        )
    if problems or lot is None:
        return SizeResult(None, tuple(problems))
    price, refused, notes = _price(instrument, plan, trade, tables)
    if price is None:
        return SizeResult(None, tuple(refused))
    stop = round_to_tick(instrument, plan.stop, trade.day, "down", tables)
    if stop >= price:
        return SizeResult(
            None,
            (
                Problem(
                    "stop_not_below_entry",
                    f"the stop {stop} is not below the entry {price} after rounding to ticks and limits",
                    "lower the stop",
                    "stop",
                ),
            ),
        )
    order = _Order(instrument, plan, book, trade, price, stop, tables)
    found = _buy(order, lot) if plan.side == "buy" else _sell(order, lot)
    if isinstance(found, list):
        return SizeResult(None, tuple(found))
    return SizeResult(_result(order, found[0], found[1], notes))


def plan_with_defaults(
    side: str,
    entry: Decimal,
    stop: Decimal,
    *,
    risk_pct: Decimal | None,
    max_weight: Decimal | None,
    table: Table,
    confirm_risk: bool = False,
) -> Plan:
    """A plan with the `sizing` rule table's risk_pct and max_weight where the user gave none; a risk_pct the user
    gave is held to the table's risk_pct_ceiling unless `confirm_risk`."""
    if side not in ("buy", "sell"):
        raise user_error(InvalidInput, "sizing_side", side=side, buy="--side buy", sell="--side sell")
    risk = table.decimal("risk_pct") if risk_pct is None else risk_pct
    weight = table.decimal("max_weight") if max_weight is None else max_weight
    ceiling = None if risk_pct is None or confirm_risk else table.decimal("risk_pct_ceiling")
    return Plan("buy" if side == "buy" else "sell", entry, stop, risk, weight, ceiling)
