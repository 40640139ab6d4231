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
        return [
            Problem(
                "not_tradable",
                f"{instrument.symbol} is an index and cannot be traded",
                "choose a stock or fund",
            )
        ]
    if qty <= 0:
        return [Problem("qty_not_positive", f"quantity {qty} is not positive", "enter a quantity above zero")]
    lot = board_lot(instrument, tables)
    if lot is None:
        return [
            Problem(
                "lot_unknown",
                f"the board lot of {instrument.symbol} is not known",
                "fetch its instrument data (stockbench data fetch) or give the lot with --lot N",
            )
        ]
    problems: list[Problem] = []
    if side == "sell" and holding is not None and qty > holding:
        problems.append(
            Problem(
                "exceeds_holding",
                f"selling {qty} exceeds the sellable holding of {holding}",
                f"sell at most {holding}",
            )
        )
    if instrument.exchange is Exchange.HK:
        problems += _hk_lots(instrument, side, qty, lot[0])
    elif side == "buy":
        problems += _buy_lots(instrument, qty, *lot)
    else:
        problems += _sell_lots(instrument, qty, holding, *lot)
    return problems


def _buy_lots(instrument: Instrument, qty: int, minimum: int, step: int) -> list[Problem]:
    if qty < minimum:
        return [
            Problem(
                "lot_minimum",
                f"a buy of {instrument.symbol} must be at least {minimum} shares, not {qty}",
                f"buy {minimum} or more",
            )
        ]
    if (qty - minimum) % step:
        lower = qty - (qty - minimum) % step
        return [
            Problem(
                "lot_multiple",
                f"a buy of {instrument.symbol} must be a multiple of {step} shares, not {qty}",
                f"buy {lower} or {lower + step}",
            )
        ]
    return []


def _sell_lots(instrument: Instrument, qty: int, holding: int | None, minimum: int, step: int) -> list[Problem]:
    if step == minimum:  # main board, ChiNext, funds: whole lots, or whole lots plus the entire odd remainder
        if qty % step == 0 or (holding is not None and qty <= holding and qty % step == holding % step):
            return []
        if holding is None:
            return [
                Problem(
                    "odd_lot_sell",
                    f"selling {qty} is not a multiple of {step}; it is valid only if it includes the whole "
                    "odd remainder of the holding",
                    "give the holding (--holding N) to check it, or sell a multiple of " + str(step),
                )
            ]
        odd = holding % step
        fix = f"sell a multiple of {step}" + (
            f", or include the whole odd remainder of {odd} (e.g. {odd})" if odd else ""
        )
        return [Problem("odd_lot_sell", f"selling {qty} of a holding of {holding} leaves an invalid odd lot", fix)]
    if qty >= minimum or (holding is not None and qty == holding):
        return []
    fix = f"sell at least {minimum}" + (f", or the whole holding of {holding}" if holding is not None else "")
    return [
        Problem(
            "lot_minimum",
            f"a sell of {instrument.symbol} below {minimum} shares must sell the whole holding",
            fix,
        )
    ]


def _hk_lots(instrument: Instrument, side: Side, qty: int, lot: int) -> list[Problem]:
    if qty % lot == 0:
        return []
    lower = qty - qty % lot
    return [
        Problem(
            "hk_odd_lot",
            f"{qty} is not a multiple of the board lot of {instrument.symbol} ({lot}); "
            "odd lots trade only on the odd-lot market",
            f"{side} {lower or lot} (whole lots), or place the odd {qty % lot} on the odd-lot market",
        )
    ]
