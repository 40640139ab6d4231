"""Itemised trading fees for one order, read from the dated fee rows of the market rule tables.

Every rate, bound, rounding mode and effective date comes from `resources/market_rules.toml`; this module
only knows how to apply a row. US orders carry the commission only: the tables hold no US exchange fees.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal
from typing import Literal

from stockbench.errors import InternalError, InvalidInput
from stockbench.market.instruments import Instrument, SecurityType
from stockbench.market.tables import FeeRow, RuleTables, in_force, load_tables
from stockbench.messages import user_error, value_word

Side = Literal["buy", "sell"]
SIDES: tuple[Side, ...] = ("buy", "sell")

# The order in which items are listed (stable: reports and the CLI JSON rely on it). Items the tables add
# later and that are missing here follow in table order.
ITEM_ORDER: dict[str, tuple[str, ...]] = {
    "CN": ("commission", "stamp_duty", "transfer_fee", "handling_fee", "regulatory_fee"),
    "HK": ("commission", "stamp_duty", "trading_fee", "sfc_levy", "afrc_levy", "settlement_fee"),
    "US": ("commission",),
}
# Brokers that bundle exchange fees pay these out of their commission (A-shares). Hong Kong trading fees
# and levies are statutory pass-through charges and stay itemised whatever the setting says.
BUNDLED_ITEMS = frozenset({"handling_fee", "regulatory_fee"})

CENT = Decimal("0.01")
DOLLAR = Decimal("1")


@dataclass(frozen=True, slots=True)
class FeeSettings:
    """A broker account's commission terms: rate on the traded amount, per-order minimum, bundling."""

    commission_rate: Decimal
    commission_min: Decimal
    bundled_exchange_fees: bool = False

    def __post_init__(self) -> None:
        for label, value in (("rate", self.commission_rate), ("minimum", self.commission_min)):
            if not value.is_finite() or value < 0:
                raise user_error(InvalidInput, "commission_invalid", label=label, value=value,
                                 label_zh=value_word("fee_label", label, "zh"))  # fmt: skip

    @classmethod
    def default(cls, market: str, tables: RuleTables | None = None) -> FeeSettings:
        """The default commission terms for `market` from the rule tables' `commission_defaults`."""
        tables = tables or load_tables()
        found = tables.commission_defaults.get(market)
        if found is None:
            raise user_error(InvalidInput, "no_default_commission", market=market,
                             options="--commission-rate, --commission-min")  # fmt: skip
        return cls(found.rate, found.min, found.bundled_exchange_fees)


@dataclass(frozen=True, slots=True)
class FeeBreakdown:
    """The fees of one order: items in a stable order (zero items left out) and their total."""

    items: tuple[tuple[str, Decimal], ...]
    total: Decimal
    currency: str
    amount: Decimal  # the traded amount, qty x price
    unconfirmed: tuple[str, ...] = ()  # items computed from a table row flagged unconfirmed

    def item(self, name: str) -> Decimal:
        """The amount of item `name`, zero when the order does not carry it."""
        return dict(self.items).get(name, Decimal("0.00"))

    def as_dict(self) -> dict[str, object]:
        """Plain data for JSON output: items as an ordered name -> amount mapping."""
        return {
            "items": dict(self.items),
            "total": self.total,
            "currency": self.currency,
            "amount": self.amount,
            "unconfirmed": list(self.unconfirmed),
        }


def _check_order(instrument: Instrument, side: str, qty: int, price: Decimal) -> None:
    if instrument.security_type is SecurityType.INDEX:
        raise user_error(InvalidInput, "index_not_tradable.fees", symbol=instrument.symbol)
    if side not in SIDES:
        raise user_error(InvalidInput, "fee_side", side=side, buy="buy", sell="sell")
    if isinstance(qty, bool) or not isinstance(qty, int) or qty <= 0:
        raise user_error(InvalidInput, "fee_qty", qty=qty)
    if not isinstance(price, Decimal) or not price.is_finite() or price <= 0:
        raise user_error(InvalidInput, "fee_price", price=price)


def _applies(row: FeeRow, instrument: Instrument, side: str) -> bool:
    return (
        row.market == instrument.market
        and row.side in {side, "both"}
        and instrument.security_type.value in row.applies_to
        and (not row.exchanges or instrument.exchange.value in row.exchanges)
    )


def _rows(instrument: Instrument, side: str, day: date, tables: RuleTables) -> list[FeeRow]:
    rows = [r for r in in_force(tables.fees, day) if _applies(r, instrument, side)]
    names = [r.item for r in rows]
    if duplicated := sorted({n for n in names if names.count(n) > 1}):
        raise InternalError(f"fee rows overlap on {day} for {instrument.symbol}: {', '.join(duplicated)}")
    return rows


def _charge(row: FeeRow, amount: Decimal) -> Decimal:
    fee = amount * row.rate
    if row.min is not None:
        fee = max(fee, row.min)
    if row.max is not None:
        fee = min(fee, row.max)
    if row.round == "cent":
        return fee.quantize(CENT, rounding=ROUND_HALF_UP)
    if row.round == "up_dollar":
        return fee.quantize(DOLLAR, rounding=ROUND_CEILING).quantize(CENT)
    raise InternalError(f"fee row {row.market}/{row.item} has an unknown rounding mode '{row.round}'")


def commission(amount: Decimal, settings: FeeSettings) -> Decimal:
    """The broker's commission: max(amount x rate, minimum), rounded half-up to the cent."""
    return max(amount * settings.commission_rate, settings.commission_min).quantize(CENT, ROUND_HALF_UP)


def _ordered(market: str, charged: dict[str, Decimal]) -> tuple[tuple[str, Decimal], ...]:
    order = ITEM_ORDER.get(market, ())
    names = [n for n in order if n in charged] + [n for n in charged if n not in order]
    return tuple((n, charged[n]) for n in names if charged[n] > 0)


def order_fees(
    instrument: Instrument,
    side: Side,
    qty: int,
    price: Decimal,
    day: date,
    *,
    settings: FeeSettings | None = None,
    tables: RuleTables | None = None,
) -> FeeBreakdown:
    """Itemised fees of buying or selling `qty` shares of `instrument` at `price` on `day`.

    Fee rows apply by market, date, side, security type (stock/fund) and exchange; with
    `settings.bundled_exchange_fees` the A-share handling and regulatory fees are inside the commission.
    Settings default to the tables' commission defaults for the instrument's market.
    """
    _check_order(instrument, side, qty, price)
    tables = tables or load_tables()
    settings = settings or FeeSettings.default(instrument.market, tables)
    amount = qty * price
    charged = {"commission": commission(amount, settings)}
    unconfirmed: list[str] = []
    for row in _rows(instrument, side, day, tables):
        if settings.bundled_exchange_fees and row.item in BUNDLED_ITEMS:
            continue
        charged[row.item] = _charge(row, amount)
        if row.unconfirmed and charged[row.item] > 0:
            unconfirmed.append(row.item)
    items = _ordered(instrument.market, charged)
    total = sum((value for _, value in items), Decimal("0.00"))
    shown = tuple(name for name, _ in items if name in unconfirmed)
    return FeeBreakdown(items, total, instrument.currency, amount, shown)


def _up_to_tick(value: Decimal, tick: Decimal) -> Decimal:
    return (value / tick).to_integral_value(rounding=ROUND_CEILING) * tick


def break_even_price(
    instrument: Instrument,
    qty: int,
    buy_price: Decimal,
    day: date,
    *,
    tick: Decimal,
    settings: FeeSettings | None = None,
    tables: RuleTables | None = None,
) -> Decimal:
    """The lowest price on the `tick` grid at which selling `qty` recovers the purchase and both sides' fees.

    `tick` is the price step around the answer (for Hong Kong, the spread-table band it falls in).
    """
    if not tick.is_finite() or tick <= 0:
        raise user_error(InvalidInput, "fee_tick", tick=tick)
    tables = tables or load_tables()
    settings = settings or FeeSettings.default(instrument.market, tables)
    bought = order_fees(instrument, "buy", qty, buy_price, day, settings=settings, tables=tables)
    cost = qty * buy_price + bought.total
    # Fees never fall as the price rises, so this climbs to the least price p on the grid with
    # qty x p - fees(p) >= cost, even where rounding makes net proceeds dip between neighbouring ticks.
    price = _up_to_tick(cost / qty, tick)
    for _ in range(10_000):
        fees = order_fees(instrument, "sell", qty, price, day, settings=settings, tables=tables).total
        needed = _up_to_tick((cost + fees) / qty, tick)
        if needed <= price:
            return price
        price = needed
    raise InternalError(f"break-even price for {instrument.symbol} did not converge")
