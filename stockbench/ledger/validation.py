"""Checks on a fill before anything is written: every problem at once, each with a fix.

Static checks (account, symbol, listing date, session time, lot, tick, the day's limits, the linked order) come
from the market rules; whether the symbol traded that day comes from the stored market data through a `TradedOn`
the caller passes (the ledger never reads the data layer); the checks that depend on history (T+1 sellable
quantity, cash) come from replaying the account with the fill in place, so a fill recorded late is checked against
everything after it too.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Protocol

from stockbench.clock import MARKET_TZ
from stockbench.errors import CalendarUnknown, InvalidInput, Problem
from stockbench.ledger.entries import Account, FillDraft, Order
from stockbench.market.instruments import Instrument
from stockbench.market.limits import limit_problem, price_limits
from stockbench.market.lots import check_quantity
from stockbench.market.order_rules import tick_problem
from stockbench.market.service import MarketRules
from stockbench.market.sessions import DayTrading, phase_at
from stockbench.messages import problem, value_word

__all__ = [
    "EXECUTION_PHASES",
    "HK_EXECUTION_PHASES",
    "FillDraft",
    "TradedOn",
    "later_problem",
    "order_problems",
    "session_problem",
    "static_problems",
]

# Phases in which an execution can be timed: the opening auction's match (09:25 CN / 09:20 HK), continuous
# trading, the closing auction, after-hours fixed-price trading; and the closing auction's last instant.
EXECUTION_PHASES = {"preopen_wait", "continuous", "closing_auction", "after_hours_fixed_price"}
HK_EXECUTION_PHASES = {"preopen_noncancellable", "continuous", "closing_auction"}


class TradedOn(Protocol):
    """How the stored market data says `symbol`'s session `day` went (stockbench.market.sessions.DayTrading): a fill
    is refused on a day it did not trade (`not_traded`: its daily bars say so) or its quote of that day says it was
    `suspended` or `delisted`; `traded`, or None (the data cannot tell), refuses nothing."""

    def __call__(self, symbol: str, day: date, /) -> DayTrading | None: ...


_NOT_TRADED: dict[DayTrading, str] = {
    "not_traded": "not_traded",
    "suspended": "suspended.fill",
    "delisted": "delisted.fill",
}


def session_problem(market: MarketRules, instrument: Instrument, at: datetime) -> Problem | None:
    """A problem when `at` is not a moment at which a trade of `instrument` could have executed."""
    try:
        calendar = market.calendars.calendar("CN" if instrument.is_a_share else "HK")
        kwargs = (
            {"exchange": instrument.exchange.value, "board": instrument.board.value} if instrument.is_a_share else {}
        )
        state = phase_at(instrument.market, at, calendar, market.tables, **kwargs)
        before = phase_at(instrument.market, at - timedelta(seconds=1), calendar, market.tables, **kwargs)
    except CalendarUnknown as error:
        return Problem("calendar_unknown", error.message, error.hint)
    allowed = EXECUTION_PHASES if instrument.is_a_share else HK_EXECUTION_PHASES
    if state.phase in allowed or before.phase in {"closing_auction", "after_hours_fixed_price"}:
        return None
    local = state.local.strftime("%Y-%m-%d %H:%M:%S")
    if not state.trading_day:
        return problem("outside_session", local=local, symbol=instrument.symbol)
    return problem("outside_session.phase", local=local, symbol=instrument.symbol, phase=state.phase.replace("_", " "),
                   phase_zh=value_word("phase", state.phase, "zh"))  # fmt: skip


def static_problems(
    market: MarketRules,
    account: Account,
    instrument: Instrument,
    draft: FillDraft,
    *,
    now: datetime,
    sellable: int | None,
    traded: TradedOn | None = None,
) -> list[Problem]:
    """Every problem that does not depend on cash: market, listing, time, whether it traded that day, lot, tick and
    limit."""
    problems: list[Problem] = []
    if instrument.market not in account.markets:
        problems.append(problem("market_not_in_account", account=account.name, market=instrument.market))
    if draft.executed_at > now:
        problems.append(problem("future_time", at=draft.executed_at.isoformat()))
    day = draft.executed_at.astimezone(MARKET_TZ[instrument.market]).date()
    listed = market.registry.listing_date(instrument.symbol)
    if listed is not None and day < listed:
        problems.append(problem("not_listed.fill", symbol=instrument.symbol, day=day, listed=listed))
    if (session := session_problem(market, instrument, draft.executed_at)) is not None:
        problems.append(session)
    elif traded is not None and (listed is None or day >= listed):
        went = traded(instrument.symbol, day)
        if went is not None and went in _NOT_TRADED:
            problems.append(problem(_NOT_TRADED[went], symbol=instrument.symbol, day=day))
    holding = sellable if draft.side == "sell" else None
    lot_problems = check_quantity(instrument, draft.side, draft.qty, holding, market.tables)
    if sellable is not None and draft.side == "sell" and draft.qty > sellable:
        lot_problems = [p for p in lot_problems if p.code != "exceeds_holding"]  # the replay explains it better
    problems += lot_problems
    if (tick := tick_problem(instrument, draft.price, draft.executed_at.date(), market.tables)) is not None:
        problems.append(tick)
    if draft.ref_price is not None and draft.price > 0:
        problems += _limit_problems(market, instrument, draft)
    if draft.fee is not None and draft.fee < 0:
        problems.append(problem("negative_fee", fee=draft.fee))
    return problems


def _limit_problems(market: MarketRules, instrument: Instrument, draft: FillDraft) -> list[Problem]:
    assert draft.ref_price is not None
    day = draft.executed_at.astimezone(MARKET_TZ[instrument.market]).date()
    status = market.registry.name_on(instrument.symbol, day)
    from stockbench.market.registry import is_st_name, is_unreformed_name

    try:
        limits = price_limits(
            instrument,
            draft.ref_price,
            day,
            st=is_st_name(status),
            unreformed=is_unreformed_name(status),
            listed=instrument.list_date,
            tables=market.tables,
        )
    except InvalidInput as error:
        return [Problem("limit_unknown", error.message, error.hint)]
    found = limit_problem(draft.side, draft.price, limits)
    return [found] if found else []


def order_problems(order: Order | None, draft: FillDraft, filled: int, cancelled: bool) -> list[Problem]:
    """Problems linking the fill to `order` (None: the id does not exist)."""
    if draft.order_id is None:
        return []
    if order is None:
        return [problem("unknown_order", order=draft.order_id)]
    problems = []
    if (order.account, order.symbol, order.side) != (draft.account, draft.symbol, draft.side):
        problems.append(
            problem(
                "order_mismatch",
                order=order.order_id,
                side=order.side,
                side_zh=value_word("side", order.side, "zh"),
                symbol=order.symbol,
                account=order.account,
            )
        )
    if cancelled:
        problems.append(problem("order_closed", order=order.order_id))
    if filled + draft.qty > order.qty:
        problems.append(
            problem(
                "order_overfilled",
                order=order.order_id,
                qty=order.qty,
                filled=filled,
                more=draft.qty,
                left=order.qty - filled,
            )
        )
    return problems


def later_problem(other_id: str, problem: Problem) -> Problem:
    """A problem a new entry causes at a later entry, phrased for the new one."""
    return Problem(
        problem.code,
        f"with this entry in place, a later entry ({other_id}) fails: {problem.message}",
        problem.fix,
        location=other_id,
    )
