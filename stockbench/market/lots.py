"""Board lots: whether a buy or sell quantity can be placed, given the holding for sells.

A-shares: main board and ChiNext buy in multiples of 100; STAR at least 200 then any step of 1; Beijing
at least 100 then 1. Selling, an odd remainder below one lot must go in one order (which may include
whole lots); on STAR and Beijing an order below the minimum must sell the whole holding. Hong Kong
lots are per stock (instrument data); odd lots trade only on the odd-lot market.
"""

from __future__ import annotations

from typing import Literal

from stockbench.errors import Problem
from stockbench.market.instruments import Exchange, Instrument, SecurityType, rule_board
from stockbench.market.tables import RuleTables, load_tables
from stockbench.messages import problem, value_word

Side = Literal["buy", "sell"]


def board_lot(instrument: Instrument, tables: RuleTables | None = None) -> tuple[int, int] | None:
    """(minimum, step) for `instrument`; None when it is unknown (a Hong Kong stock without data)."""
    tables = tables or load_tables()
    if instrument.is_a_share:
        row = tables.lots[rule_board(instrument)]
        return row.min, row.step
    if instrument.exchange is Exchange.US:
        return 1, 1
    lot = instrument.board_lot
    return (lot, lot) if lot else None


def check_quantity(
    instrument: Instrument, side: Side, qty: int, holding: int | None = None, tables: RuleTables | None = None
) -> list[Problem]:
    """Every lot problem with placing `qty` (for a sell, against the sellable `holding` when given)."""
    if instrument.security_type is SecurityType.INDEX:
        return [problem("not_tradable", symbol=instrument.symbol)]
    if qty <= 0:
        return [problem("qty_not_positive", qty=qty)]
    lot = board_lot(instrument, tables)
    if lot is None:
        return [problem("lot_unknown", symbol=instrument.symbol)]
    problems: list[Problem] = []
    if side == "sell" and holding is not None and qty > holding:
        problems.append(problem("exceeds_holding", qty=qty, holding=holding))
    if instrument.exchange is Exchange.HK:
        problems += _hk_lots(instrument, side, qty, lot[0])
    elif side == "buy":
        problems += _buy_lots(instrument, qty, *lot)
    else:
        problems += _sell_lots(instrument, qty, holding, *lot)
    return problems


def _buy_lots(instrument: Instrument, qty: int, minimum: int, step: int) -> list[Problem]:
    if qty < minimum:
        return [problem("lot_minimum", symbol=instrument.symbol, minimum=minimum, qty=qty)]
    if (qty - minimum) % step:
        lower = qty - (qty - minimum) % step
        return [problem("lot_multiple", symbol=instrument.symbol, step=step, qty=qty, lower=lower, upper=lower + step)]
    return []


def _sell_lots(instrument: Instrument, qty: int, holding: int | None, minimum: int, step: int) -> list[Problem]:
    if step == minimum:  # main board, ChiNext, funds: whole lots, or whole lots plus the entire odd remainder
        if qty % step == 0 or (holding is not None and qty <= holding and qty % step == holding % step):
            return []
        if holding is None:
            return [problem("odd_lot_sell", qty=qty, step=step)]
        odd = holding % step
        return [problem("odd_lot_sell.odd" if odd else "odd_lot_sell.holding", qty=qty, holding=holding, step=step,
                        odd=odd)]  # fmt: skip
    if qty >= minimum or (holding is not None and qty == holding):
        return []
    key = "lot_minimum.sell" if holding is None else "lot_minimum.sell_holding"
    return [problem(key, symbol=instrument.symbol, minimum=minimum, holding=holding)]


def _hk_lots(instrument: Instrument, side: Side, qty: int, lot: int) -> list[Problem]:
    if qty % lot == 0:
        return []
    lower = qty - qty % lot
    return [problem("hk_odd_lot", qty=qty, symbol=instrument.symbol, lot=lot, side=side,
                    side_zh=value_word("side", side, "zh"), whole=lower or lot, odd=qty % lot)]  # fmt: skip
