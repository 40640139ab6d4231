"""Replay: the ledger's state at any instant, computed from its entries alone.

Entries are applied in time order (corporate actions, then cash, then fills at the same instant; ties
by recording order). Lots are FIFO; a sell consumes the oldest sellable lots, settles A-share dividend
tax by each lot's holding period, and books realized P&L net of fees and tax. An entry that breaks a
rule (selling more than is sellable, spending cash that is not there) is reported, not applied.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, time
from decimal import ROUND_HALF_UP, Decimal

from stockbench.clock import MARKET_TZ, Market
from stockbench.errors import Problem
from stockbench.ledger.entries import CashEntry, CorporateAction, Entry, Fill
from stockbench.ledger.tax import BONUS_PAR_VALUE, dividend_tax
from stockbench.market.instruments import parse_symbol
from stockbench.messages import problem

COST_PLACES = Decimal("0.000001")
CENT = Decimal("0.01")
# After this local time, shares bought today count as sellable at the next session.
DAY_END = {"CN": time(15, 30), "HK": time(16, 10), "US": time(16, 0)}

# what a cash entry that spends is, in Chinese (the English is "the <kind>")
CASH_WORDS = {"withdrawal": "取出", "fee": "费用", "tax": "税款", "transfer_out": "转出"}


@dataclass
class Lot:
    """Shares acquired by one buy (grown by bonus shares), with their remaining cost incl. fees."""

    lot_id: str
    acquired: datetime  # the exchange-local instant of acquisition
    t0: bool  # sellable on the day it was bought
    qty: int
    cost: Decimal
    taxable: Decimal = Decimal(0)  # dividends received on these shares, taxed at sale

    def take(self, qty: int) -> tuple[Decimal, Decimal]:
        """Remove `qty` shares; return (cost, taxable dividend) of what was taken, exactly conserving totals."""
        if qty == self.qty:
            cost, taxable = self.cost, self.taxable
        else:
            cost = (self.cost * qty / self.qty).quantize(COST_PLACES, ROUND_HALF_UP)
            taxable = (self.taxable * qty / self.qty).quantize(COST_PLACES, ROUND_HALF_UP)
        self.qty -= qty
        self.cost -= cost
        self.taxable -= taxable
        return cost, taxable


@dataclass
class Holding:
    """One symbol in one account."""

    symbol: str
    currency: str
    lots: deque[Lot] = field(default_factory=deque)
    realized_pnl: Decimal = Decimal(0)
    fees: Decimal = Decimal(0)
    dividends: Decimal = Decimal(0)
    dividend_tax: Decimal = Decimal(0)
    net_invested: Decimal = Decimal(0)  # buys + fees - sells - dividends, since the holding last was zero

    @property
    def qty(self) -> int:
        return sum(lot.qty for lot in self.lots)

    @property
    def cost(self) -> Decimal:
        return sum((lot.cost for lot in self.lots), Decimal(0))

    def sellable(self, at: datetime) -> int:
        """Shares that may be sold at (or, after the close, at the session after) the instant `at`."""
        market = parse_symbol(self.symbol).market
        local = at.astimezone(MARKET_TZ[market])
        after_close = after_the_close(market, at)
        return sum(
            lot.qty
            for lot in self.lots
            if lot.t0
            or lot.acquired.astimezone(MARKET_TZ[market]).date() < local.date()
            or (after_close and lot.acquired.astimezone(MARKET_TZ[market]).date() == local.date())
        )


def after_the_close(market: Market, at: datetime) -> bool:
    """Whether the day's session of `market` is over at `at`: shares bought that day then count as sellable, for the
    next session (T+1), as a position read after the close shows them."""
    return at.astimezone(MARKET_TZ[market]).time() >= DAY_END[market]


@dataclass(frozen=True, slots=True)
class EntryProblem:
    entry_id: str
    problem: Problem


@dataclass
class LedgerState:
    """The books after a replay: cash per currency, holdings per symbol, and what could not be applied."""

    cash: dict[str, Decimal] = field(default_factory=dict)
    holdings: dict[str, Holding] = field(default_factory=dict)
    problems: list[EntryProblem] = field(default_factory=list)
    observed_sellable: dict[str, int] = field(default_factory=dict)  # entry id -> sellable just before it
    sells: dict[str, tuple[Decimal, Decimal]] = field(default_factory=dict)  # sell fill id -> (cost, dividend tax)

    def holding(self, symbol: str, currency: str) -> Holding:
        if symbol not in self.holdings:
            self.holdings[symbol] = Holding(symbol, currency)
        return self.holdings[symbol]

    def problems_for(self, entry_id: str) -> list[Problem]:
        return [p.problem for p in self.problems if p.entry_id == entry_id]


def entry_id(entry: Entry) -> str:
    if isinstance(entry, Fill):
        return entry.fill_id
    if isinstance(entry, CashEntry):
        return entry.entry_id
    return entry.action_id


def _instant(entry: Entry) -> datetime:
    if isinstance(entry, Fill):
        return entry.executed_at
    if isinstance(entry, CashEntry):
        return entry.occurred_at
    return entry.effective


_PRIORITY = {CorporateAction: 0, CashEntry: 1, Fill: 2}


def ordered(entries: Iterable[Entry]) -> list[Entry]:
    """Entries in replay order; ties keep the order given (the recording order)."""
    indexed = list(enumerate(entries))
    indexed.sort(key=lambda pair: (_instant(pair[1]), _PRIORITY[type(pair[1])], pair[0]))
    return [entry for _, entry in indexed]


def replay(entries: Sequence[Entry], *, until: datetime | None = None, observe: Iterable[str] = ()) -> LedgerState:
    """Apply `entries` (voided ones already removed) up to and including `until`."""
    state = LedgerState()
    watched = set(observe)
    for entry in ordered(entries):
        if until is not None and _instant(entry) > until:
            break
        if isinstance(entry, Fill) and entry.fill_id in watched:
            held = state.holdings.get(entry.symbol)
            state.observed_sellable[entry.fill_id] = held.sellable(entry.executed_at) if held else 0
        _apply(state, entry)
    return state


def _apply(state: LedgerState, entry: Entry) -> None:
    if isinstance(entry, Fill):
        (_buy if entry.side == "buy" else _sell)(state, entry)
    elif isinstance(entry, CashEntry):
        _cash(state, entry)
    else:
        _action(state, entry)


def _spend(state: LedgerState, entry_id: str, currency: str, amount: Decimal, what: tuple[str, str]) -> bool:
    """Take `amount` from cash, or report the shortfall and change nothing. `what` the cash is for, (en, zh)."""
    balance = state.cash.get(currency, Decimal(0))
    if amount > balance:
        found = problem("insufficient_cash", what=what[0], what_zh=what[1], amount=f"{amount:.2f}", currency=currency,
                        balance=f"{balance:.2f}", short=f"{amount - balance:.2f}")  # fmt: skip
        state.problems.append(EntryProblem(entry_id, found))
        return False
    state.cash[currency] = balance - amount
    return True


def _buy(state: LedgerState, fill: Fill) -> None:
    total = fill.amount + fill.fees
    what = (f"buying {fill.qty} {fill.symbol}", f"买入 {fill.qty} 股 {fill.symbol} ")  # a space: the code, then Chinese
    if not _spend(state, fill.fill_id, fill.currency, total, what):
        return
    holding = state.holding(fill.symbol, fill.currency)
    if not holding.lots:
        holding.net_invested = Decimal(0)
    holding.lots.append(Lot(fill.fill_id, fill.executed_at, fill.settlement == "T+0", fill.qty, total))
    holding.fees += fill.fees
    holding.net_invested += total


def _sell(state: LedgerState, fill: Fill) -> None:
    holding = state.holdings.get(fill.symbol)
    sellable = holding.sellable(fill.executed_at) if holding else 0
    if holding is None or fill.qty > sellable:
        held = holding.qty if holding else 0
        locked = held - sellable
        detail = f" ({locked} bought that day are not sellable until the next session)" if locked else ""
        detail_zh = f"（当天买入的 {locked} 股要到下一个交易日才能卖出）" if locked else ""
        found = problem("exceeds_sellable" if sellable else "exceeds_sellable.none", qty=fill.qty, symbol=fill.symbol,
                        sellable=sellable, detail=detail, detail_zh=detail_zh)  # fmt: skip
        state.problems.append(EntryProblem(fill.fill_id, found))
        return
    cost, tax = _consume(holding, fill)
    state.sells[fill.fill_id] = (cost, tax)
    proceeds = fill.amount - fill.fees - tax
    holding.realized_pnl += proceeds - cost
    holding.fees += fill.fees
    holding.dividend_tax += tax
    holding.net_invested -= proceeds
    state.cash[fill.currency] = state.cash.get(fill.currency, Decimal(0)) + proceeds
    if holding.qty == 0:
        holding.net_invested = Decimal(0)


def _consume(holding: Holding, fill: Fill) -> tuple[Decimal, Decimal]:
    """Take `fill.qty` from the oldest sellable lots; return (cost taken, dividend tax due)."""
    remaining, cost, tax = fill.qty, Decimal(0), Decimal(0)
    market = parse_symbol(fill.symbol).market
    local_day = fill.executed_at.astimezone(MARKET_TZ[market]).date()
    for lot in list(holding.lots):
        if remaining == 0:
            break
        acquired = lot.acquired.astimezone(MARKET_TZ[market]).date()
        if not lot.t0 and acquired >= local_day:
            continue
        taken = min(lot.qty, remaining)
        lot_cost, taxable = lot.take(taken)
        cost += lot_cost
        tax += dividend_tax(taxable, acquired, local_day) if taxable else Decimal(0)
        remaining -= taken
    holding.lots = deque(lot for lot in holding.lots if lot.qty > 0)
    return cost, tax


def _cash(state: LedgerState, entry: CashEntry) -> None:
    if entry.amount < 0:
        _spend(
            state, entry.entry_id, entry.currency, -entry.amount, (f"the {entry.kind}", CASH_WORDS.get(entry.kind, ""))
        )
        return
    state.cash[entry.currency] = state.cash.get(entry.currency, Decimal(0)) + entry.amount
    if entry.kind == "dividend" and entry.symbol and entry.symbol in state.holdings:
        state.holdings[entry.symbol].dividends += entry.amount


def _action(state: LedgerState, action: CorporateAction) -> None:
    holding = state.holdings.get(action.symbol)
    if holding is None or holding.qty == 0:
        state.problems.append(
            EntryProblem(
                action.action_id,
                Problem(
                    "no_holding",
                    f"there was no holding of {action.symbol} at the record date before {action.ex_date}",
                    "check the account and the ex-date",
                ),
            )
        )
        return
    if action.kind == "cash_dividend":
        amount = action.amount or Decimal(0)
        state.cash[action.currency] = state.cash.get(action.currency, Decimal(0)) + amount
        holding.dividends += amount
        holding.net_invested -= amount
        if action.taxable and action.cash_per_share:
            for lot in holding.lots:
                lot.taxable += lot.qty * action.cash_per_share
        return
    _credit_shares(holding, action)


def _credit_shares(holding: Holding, action: CorporateAction) -> None:
    """Spread credited shares over the lots in proportion (largest remainders first; earliest wins ties).

    Cost is unchanged and each lot keeps its acquisition time, so T+1 status and holding periods carry over.
    """
    credited = action.qty or 0
    total = holding.qty
    shares = [lot.qty * credited // total for lot in holding.lots]
    leftovers = sorted(range(len(shares)), key=lambda i: (-(holding.lots[i].qty * credited % total), i))[
        : credited - sum(shares)
    ]
    for i in leftovers:
        shares[i] += 1
    for lot, extra in zip(holding.lots, shares, strict=True):
        lot.qty += extra
        if action.taxable and action.kind == "bonus":
            lot.taxable += extra * BONUS_PAR_VALUE
