"""The ledger service: accounts, cash, fills, voids, orders and corporate actions, and what they add up to.

Every write validates first and writes nothing when any problem is found (`RuleViolation` lists them
all). A write appends its entry and rewrites the account's derived state from a replay, in one
transaction under the workspace's single writer; every row it adds is also appended to the journal
(`journal.py`) at that transaction's commit.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import TYPE_CHECKING

from stockbench.clock import MARKET_TZ, Clock, Market, market_words
from stockbench.config import WorkspacePaths
from stockbench.errors import InvalidInput, NotFound, Problem, RuleViolation
from stockbench.events import EventBus, LedgerChanged
from stockbench.ledger.entries import (
    CASH_SIGN,
    Account,
    ActionKind,
    CashEntry,
    CashKind,
    CorporateAction,
    Entry,
    FeeTerms,
    Fill,
    FillDraft,
    Order,
    OrderStatus,
    Position,
)
from stockbench.ledger.journal import Journal, Kind
from stockbench.ledger.replay import LedgerState, after_the_close, entry_id, replay
from stockbench.ledger.store import (
    aware,
    insert_entry,
    load_accounts,
    load_entries,
    load_fee_terms,
    load_orders,
    materialise,
)
from stockbench.ledger.validation import TradedOn, later_problem, order_problems, static_problems
from stockbench.market.calendars import settlement
from stockbench.market.fees import FeeSettings, order_fees
from stockbench.market.instruments import Instrument, SecurityType
from stockbench.market.service import MarketRules
from stockbench.messages import ERRORS, problem, refusal, said, user_error, value_word
from stockbench.store.database import Database

if TYPE_CHECKING:
    from stockbench.ledger.imports import ImportResult

CENT = Decimal("0.01")
PRICE_PLACES = Decimal("0.0001")
CURRENCIES = {"CN": "CNY", "HK": "HKD"}


def _void_breaks(target_id: str, entry: str, found: Problem) -> Problem:
    """The problem `found` of `entry` that voiding `target_id` would cause, said in both languages."""
    words = {"target": target_id, "entry": entry, "problem": found.message, "problem_zh": said(found, "zh")[0]}
    message, fix = (w.en.format(**words) for w in ERRORS["void_breaks"])
    return Problem(found.code, message, fix, location=entry, key="void_breaks", params=tuple(sorted(words.items())))


def new_id(prefix: str, day: date) -> str:
    return f"{prefix}{day:%Y%m%d}-{uuid.uuid4().hex[:8]}"


def journal_path(db: Database) -> Path | None:
    """Where the journal of `db` lives: beside its file (an in-memory database keeps none: nothing outlives it)."""
    return None if db.path == ":memory:" else WorkspacePaths(Path(db.path).parent).ledger_journal


class Ledger:
    """The user's books in one workspace."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        market: MarketRules,
        events: EventBus | None = None,
        journal: Path | None = None,
        *,
        before_import: Callable[[], object] | None = None,
        traded: TradedOn | None = None,
    ) -> None:
        """`before_import` runs before every import that writes (the workbench takes a backup there); `traded`
        says whether the stored market data shows a symbol trading on a day (a fill on a day it did not is refused;
        None: not checked)."""
        self.db, self.clock, self.market = db, clock, market
        self._before_import = before_import
        self._traded = traded
        self.events = events or EventBus()
        path = journal or journal_path(db)
        self.journal = Journal(db, path) if path is not None else None

    def _journalled(self, kind: Kind, *key: object) -> None:
        if self.journal is not None:
            self.journal.noted(kind, *key)

    # ---- accounts ---------------------------------------------------------------------------
    def add_account(
        self,
        name: str,
        currency: str,
        *,
        markets: Sequence[Market] | None = None,
        commission_rate: Decimal | None = None,
        commission_min: Decimal | None = None,
        bundled_exchange_fees: bool | None = None,
        note: str = "",
    ) -> Account:
        """Open an account; its fee terms default to the rule tables' commission defaults."""
        name = name.strip()
        if not name or len(name) > 64 or any(c in name for c in "\n\t"):
            raise user_error(InvalidInput, "account_name_unusable", name=name, limit=64)
        if currency not in CURRENCIES.values():
            raise user_error(InvalidInput, "account_currency", currency=currency, currencies="CNY or HKD",
                             currencies_zh="CNY 或 HKD")  # fmt: skip
        chosen = tuple(markets) if markets else (("CN",) if currency == "CNY" else ("HK",))
        if self.db.scalar("SELECT count(*) FROM accounts WHERE name = ?", [name]):
            raise user_error(InvalidInput, "account_exists", name=name)
        now, since = self.clock.now(), datetime(1990, 1, 1, tzinfo=UTC)
        with self.db.transaction() as cur:
            cur.execute(
                "INSERT INTO accounts (name, base_currency, markets, created_at, note) VALUES (?, ?, ?, ?, ?)",
                [name, currency, ",".join(chosen), now, note],
            )
            self._journalled("account", name)
            for market in chosen:
                default = FeeSettings.default(market, self.market.tables)
                cur.execute(
                    "INSERT INTO account_fees (account, market, since, commission_rate, commission_min, "
                    "bundled_exchange_fees) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        name,
                        market,
                        since,
                        default.commission_rate if commission_rate is None else commission_rate,
                        default.commission_min if commission_min is None else commission_min,
                        default.bundled_exchange_fees if bundled_exchange_fees is None else bundled_exchange_fees,
                    ],
                )
                self._journalled("fee_terms", name, market, since)
        self._changed(name, "account")
        return self.account(name)

    def default_fees(self, market: Market) -> FeeSettings:
        """The rule tables' default broker terms of `market`: what a new account gets unless told otherwise."""
        return FeeSettings.default(market, self.market.tables)

    def account(self, name: str) -> Account:
        for account in load_accounts(self.db):
            if account.name == name:
                return account
        raise user_error(NotFound, "account_unknown", name=name, command="stockbench ledger account list")

    def accounts(self) -> list[Account]:
        return load_accounts(self.db)

    def account_for(self, symbol: str | None, last_used: str | None = None) -> str | None:
        """The account research of `symbol` should read: the one holding it (the last used among several holders,
        else the first by name), else the only account, else the last used if it still exists, else None."""
        names = [a.name for a in self.accounts()]
        if symbol:
            holders = [n for n in names if any(p.symbol == symbol and p.qty > 0 for p in self.positions(n))]
            if holders:
                return last_used if last_used in holders else holders[0]
        if len(names) == 1:
            return names[0]
        return last_used if last_used in names else None

    def fee_settings(self, account: str, market: Market, at: datetime) -> FeeSettings:
        terms = [t for t in load_fee_terms(self.db, account) if t.market == market and t.since <= at]
        if not terms:
            return FeeSettings.default(market, self.market.tables)
        last: FeeTerms = terms[-1]
        return FeeSettings(last.commission_rate, last.commission_min, last.bundled_exchange_fees)

    def set_fees(
        self,
        account: str,
        market: Market,
        *,
        rate: Decimal,
        minimum: Decimal,
        bundled: bool,
        since: datetime | None = None,
    ) -> None:
        """New commission terms from `since` (default: now); earlier fills keep the fees they were booked with. Terms
        set twice at one instant (a form saved twice under a frozen clock) are both kept, the later a microsecond
        after the earlier, so the later is the one in force."""
        self.account(account)
        if rate < 0 or minimum < 0:
            raise user_error(InvalidInput, "fees_negative")
        since = since or self.clock.now()
        with self.db.transaction() as cur:
            taken = {row[0] for row in cur.execute(
                "SELECT since FROM account_fees WHERE account = ? AND market = ? AND since >= ?",
                [account, market, since]).fetchall()}  # fmt: skip
            while any(aware(t) == since for t in taken):
                since += timedelta(microseconds=1)
            cur.execute(
                "INSERT INTO account_fees (account, market, since, commission_rate, commission_min, "
                "bundled_exchange_fees) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [account, market, since, rate, minimum, bundled],
            )
            self._journalled("fee_terms", account, market, since)

    # ---- writes -----------------------------------------------------------------------------
    def _instrument(self, symbol: str) -> Instrument:
        return self.market.registry.instrument(symbol)

    def _commit(self, account: str, entry: Entry, extra: Sequence[Entry] = ()) -> LedgerState:
        """Validate `entry` (and `extra`) against the whole history and write them, or raise with every problem."""
        with self.db.transaction() as cur:
            entries = [*load_entries(self.db, account), entry, *extra]
            state = replay(entries)
            new_ids = {entry_id(e) for e in (entry, *extra)}
            problems = [p.problem for p in state.problems if p.entry_id in new_ids]
            problems += [later_problem(p.entry_id, p.problem) for p in state.problems if p.entry_id not in new_ids]
            if problems:
                raise refusal("entry_not_recorded", problems, entry=entry_id(entry))
            recorded = datetime.now(UTC)
            for item in (entry, *extra):
                insert_entry(cur, item, recorded)
                self._journalled(ENTRY_KIND[type(item)], entry_id(item))
            materialise(cur, account, state)
        return state

    def cash(
        self,
        account: str,
        kind: CashKind,
        amount: Decimal,
        *,
        at: datetime | None = None,
        currency: str | None = None,
        symbol: str | None = None,
        note: str = "",
    ) -> CashEntry:
        """Record a cash entry; `amount` is positive, its sign comes from the kind."""
        acct = self.account(account)
        if amount <= 0:
            raise user_error(InvalidInput, "amount_not_positive.cash", amount=amount, kinds="deposit, withdrawal")
        if amount != amount.quantize(CENT):
            raise user_error(InvalidInput, "amount_cents", amount=amount)
        at = at or self.clock.now()
        self._not_future(at, currency or acct.base_currency)
        entry = CashEntry(
            new_id("C", at.date()),
            acct.name,
            kind,
            currency or acct.base_currency,
            amount * CASH_SIGN[kind],
            at,
            symbol,
            note=note,
        )
        self._commit(acct.name, entry)
        self._changed(acct.name, "cash")
        return entry

    def transfer(
        self,
        source: str,
        target: str,
        amount: Decimal,
        *,
        currency: str | None = None,
        to_currency: str | None = None,
        fx_rate: Decimal | None = None,
        at: datetime | None = None,
        note: str = "",
    ) -> tuple[CashEntry, CashEntry]:
        """Move cash between two accounts, converting at `fx_rate` when the currencies differ."""
        src, dst = self.account(source), self.account(target)
        if src.name == dst.name:
            raise user_error(InvalidInput, "transfer_same_account", account=src.name)
        if amount <= 0:
            raise user_error(InvalidInput, "amount_not_positive", amount=amount)
        if amount != amount.quantize(CENT):
            raise user_error(InvalidInput, "amount_cents", amount=amount)
        out_ccy = currency or src.base_currency
        in_ccy = to_currency or out_ccy
        if (in_ccy != out_ccy) != (fx_rate is not None):
            raise user_error(InvalidInput, "transfer_fx_rate", option="--fx-rate", source=out_ccy, target=in_ccy)
        if fx_rate is not None and fx_rate <= 0:
            raise user_error(InvalidInput, "fx_rate_not_positive", rate=fx_rate)
        at = at or self.clock.now()
        self._not_future(at, out_ccy)
        link = uuid.uuid4().hex[:12]
        received = (amount * (fx_rate or 1)).quantize(CENT, ROUND_HALF_UP)
        out = CashEntry(
            new_id("C", at.date()), src.name, "transfer_out", out_ccy, -amount, at, None, link, fx_rate, note
        )
        into = CashEntry(
            new_id("C", at.date()), dst.name, "transfer_in", in_ccy, received, at, None, link, fx_rate, note
        )
        with self.db.transaction():  # both legs or neither
            self._commit(src.name, out)
            self._commit(dst.name, into)
        self._changed(src.name, "cash")
        self._changed(dst.name, "cash")
        return out, into

    def _not_future(self, at: datetime, currency: str) -> None:
        """An entry's time must carry its zone and lie in the past; a refusal says it in the time zone of the market
        of `currency` (the cash's), the zone named, in either language."""
        if at.tzinfo is None:
            raise user_error(InvalidInput, "entry_time_naive", time=at.isoformat())
        if at > self.clock.now():
            market = next((m for m, c in CURRENCIES.items() if c == currency), "CN")
            raise user_error(InvalidInput, "entry_in_future", time=market_words(market, at, "en"),
                             time_zh=market_words(market, at, "zh"))  # fmt: skip

    def preview_fill(self, draft: FillDraft) -> tuple[Fill | None, list[Problem]]:
        """The fill as it would be recorded (fees computed) and every problem with it; writes nothing."""
        return self.preview_fills([draft])[0]

    def preview_fills(self, drafts: Sequence[FillDraft]) -> list[tuple[Fill | None, list[Problem]]]:
        """Check several fills as if recorded together, in order, with one replay; writes nothing."""
        built: list[tuple[Fill | None, list[Problem]]] = [self._prepare(d) for d in drafts]
        fills = [f for f, _ in built if f is not None]
        by_account: dict[str, list[Fill]] = {}
        for made in fills:
            by_account.setdefault(made.account, []).append(made)
        states = {
            name: replay([*load_entries(self.db, name), *new], observe=[f.fill_id for f in new])
            for name, new in by_account.items()
        }
        now = self.clock.now()
        result: list[tuple[Fill | None, list[Problem]]] = []
        for draft, (candidate, early) in zip(drafts, built, strict=True):
            if candidate is None:
                result.append((None, early))
                continue
            state = states[candidate.account]
            sellable = state.observed_sellable.get(candidate.fill_id)
            found = static_problems(
                self.market,
                self.account(candidate.account),
                self._instrument(candidate.symbol),
                draft,
                now=now,
                sellable=sellable,
                traded=self._traded,
            )
            found += self._order_check(replace(draft, symbol=candidate.symbol))
            found += state.problems_for(candidate.fill_id)
            result.append((candidate, found))
        for name, new in by_account.items():  # problems the new fills cause at existing entries
            new_ids = {f.fill_id for f in new}
            later = [later_problem(p.entry_id, p.problem) for p in states[name].problems if p.entry_id not in new_ids]
            if later:
                last = max(i for i, (f, _) in enumerate(result) if f is not None and f.account == name)
                result[last][1].extend(later)
        return result

    def _prepare(self, draft: FillDraft) -> tuple[Fill | None, list[Problem]]:
        try:
            account = self.account(draft.account)
        except NotFound:
            return None, [problem("unknown_account", account=draft.account)]
        try:
            instrument = self._instrument(draft.symbol)
        except InvalidInput as error:
            return None, [Problem("invalid_symbol", error.message, error.hint)]
        if instrument.security_type is SecurityType.INDEX:
            return None, [problem("not_tradable", symbol=instrument.symbol)]
        if draft.executed_at.tzinfo is None:
            return None, [problem("naive_time")]
        if draft.qty <= 0 or draft.price <= 0:
            return None, [problem("not_positive")]
        return self._build_fill(account, instrument, draft), []

    def record_fill(self, draft: FillDraft) -> Fill:
        """Validate and record a fill; raise `RuleViolation` listing every problem (nothing written)."""
        fill, problems = self.preview_fill(draft)
        if problems or fill is None:
            raise refusal("fill_not_recorded", problems)
        self._commit(fill.account, fill)
        self._changed(fill.account, "fill")
        return fill

    def record_fills(self, fills: Sequence[Fill]) -> None:
        """Record already-previewed fills of one account together (all or nothing)."""
        if not fills:
            return
        accounts = {f.account for f in fills}
        if len(accounts) != 1:
            raise user_error(InvalidInput, "fills_one_account", accounts=", ".join(sorted(accounts)))
        self._commit(fills[0].account, fills[0], fills[1:])
        self._changed(fills[0].account, "fill")

    def _build_fill(self, account: Account, instrument: Instrument, draft: FillDraft) -> Fill:
        tz = MARKET_TZ[instrument.market]
        day = draft.executed_at.astimezone(tz).date()
        items: tuple[tuple[str, Decimal], ...]
        if draft.fee is not None:
            items, total, source = (("broker_total", draft.fee),), draft.fee, "broker"
        else:
            try:
                settings = self.fee_settings(account.name, instrument.market, draft.executed_at)
                breakdown = order_fees(
                    instrument, draft.side, draft.qty, draft.price, day, settings=settings, tables=self.market.tables
                )
                items, total, source = breakdown.items, breakdown.total, "computed"
            except InvalidInput:
                items, total, source = (), Decimal(0), "computed"
        return Fill(
            new_id("F", day),
            account.name,
            instrument.symbol,
            draft.side,
            draft.qty,
            draft.price,
            instrument.currency,
            draft.executed_at,
            day,
            total,
            items,
            source,  # type: ignore[arg-type]
            settlement(instrument, self.market.tables),
            draft.order_id,
            draft.report_id,
            draft.note,
        )

    def _order_check(self, draft: FillDraft) -> list[Problem]:
        if draft.order_id is None:
            return []
        found = [s for s in self.orders() if s.order.order_id == draft.order_id]
        status = found[0] if found else None
        return order_problems(
            status.order if status else None,
            draft,
            status.filled if status else 0,
            status is not None and status.status == "cancelled",
        )

    def void(self, target_id: str, reason: str) -> None:
        """Exclude an entry from every computation, keeping it in history; refused if history would break."""
        reason = reason.strip()
        if not reason:
            raise user_error(InvalidInput, "void_needs_reason", example='--reason "entered twice"',
                             example_zh='--reason "重复录入"')  # fmt: skip
        kind = self._entry_kind(target_id)
        account = self._entry_account(kind, target_id)
        if self.db.scalar("SELECT count(*) FROM voids WHERE target_id = ?", [target_id]):
            raise user_error(InvalidInput, "void_already", entry=target_id)
        with self.db.transaction() as cur:
            remaining = [e for e in load_entries(self.db, account) if entry_id(e) != target_id]
            state = replay(remaining)
            if state.problems:
                first = state.problems[0]
                problems = [_void_breaks(target_id, p.entry_id, p.problem) for p in state.problems]
                words = {"entry": target_id, "problem": first.problem.message,
                         "problem_zh": said(first.problem, "zh")[0]}  # fmt: skip
                raise RuleViolation(ERRORS["void_refused"][0].en.format(**words), problems,
                                    key="void_refused", params=tuple(sorted(words.items())))  # fmt: skip
            cur.execute(
                "INSERT INTO voids (target_id, target_kind, reason, voided_at) VALUES (?, ?, ?, ?)",
                [target_id, kind, reason, self.clock.now()],
            )
            self._journalled("void", target_id)
            materialise(cur, account, state)
        self._changed(account, "void")

    def _entry_kind(self, target_id: str) -> str:
        for table, key, kind in (
            ("fills", "fill_id", "fill"),
            ("cash_entries", "entry_id", "cash"),
            ("corporate_actions", "action_id", "action"),
        ):
            if self.db.scalar(f"SELECT count(*) FROM {table} WHERE {key} = ?", [target_id]):
                return kind
        raise user_error(NotFound, "entry_unknown", entry=target_id, command="stockbench ledger history ACCOUNT")

    def _entry_account(self, kind: str, target_id: str) -> str:
        table, key = {"fill": ("fills", "fill_id"), "cash": ("cash_entries", "entry_id"),
                      "action": ("corporate_actions", "action_id")}[kind]  # fmt: skip
        return str(self.db.scalar(f"SELECT account FROM {table} WHERE {key} = ?", [target_id]))

    def rebuild(self, account: str) -> LedgerState:
        """Recompute `account`'s derived state from its entries (after a bulk load, or to repair)."""
        self.account(account)
        with self.db.transaction() as cur:
            state = replay(load_entries(self.db, account))
            if state.problems:
                first = state.problems[0]
                problems = [p.problem for p in state.problems]
                (problem_zh, fix_zh), first_problem = said(first.problem, "zh"), first.problem
                words = {"account": account, "problem": first_problem.message, "problem_zh": problem_zh,
                         "fix": first_problem.fix, "fix_zh": fix_zh}  # fmt: skip
                message, hint = (w.en.format(**words) for w in ERRORS["ledger_inconsistent"])
                raise RuleViolation(message, problems, hint, key="ledger_inconsistent",
                                    params=tuple(sorted(words.items())))  # fmt: skip
            materialise(cur, account, state)
        return state

    # ---- corporate actions ------------------------------------------------------------------
    def _record_date_holding(self, account: str, symbol: str, ex_date: date) -> tuple[int, datetime]:
        tz = MARKET_TZ[self._instrument(symbol).market]
        effective = datetime.combine(ex_date, time(0, 0), tzinfo=tz)
        state = replay(load_entries(self.db, account), until=effective - _EPSILON)
        held = state.holdings.get(symbol)
        return (held.qty if held else 0), effective

    def dividend(
        self,
        account: str,
        symbol: str,
        ex_date: date,
        per_share: Decimal,
        *,
        pay_date: date | None = None,
        amount: Decimal | None = None,
        note: str = "",
    ) -> CorporateAction:
        """A cash dividend on the holding at the record date (`amount`: the broker's figure, if it differs)."""
        acct = self.account(account)
        instrument = self._instrument(symbol)
        if per_share <= 0:
            raise user_error(InvalidInput, "dividend_not_positive", per_share=per_share)
        held, effective = self._record_date_holding(acct.name, instrument.symbol, ex_date)
        cash = amount if amount is not None else (per_share * held).quantize(CENT, ROUND_HALF_UP)
        action = CorporateAction(
            new_id("A", ex_date), acct.name, instrument.symbol, "cash_dividend", ex_date, effective, pay_date,
            per_share, None, None, cash, instrument.currency,
            instrument.is_a_share and instrument.security_type is SecurityType.STOCK, note,
        )  # fmt: skip
        self._commit(acct.name, action)
        self._changed(acct.name, "action")
        return action

    def bonus(
        self,
        account: str,
        symbol: str,
        ex_date: date,
        ratio: Decimal,
        *,
        kind: ActionKind = "bonus",
        qty: int | None = None,
        note: str = "",
    ) -> CorporateAction:
        """Shares credited per share held: 送股 (`bonus`, taxed at par), 转增 (`capitalization`) or a `split`."""
        acct = self.account(account)
        instrument = self._instrument(symbol)
        if ratio <= 0:
            raise user_error(InvalidInput, "ratio_not_positive", ratio=ratio)
        held, effective = self._record_date_holding(acct.name, instrument.symbol, ex_date)
        credited = qty if qty is not None else int((held * ratio).to_integral_value(ROUND_DOWN))
        action = CorporateAction(
            new_id("A", ex_date), acct.name, instrument.symbol, kind, ex_date, effective, None, None, ratio,
            credited, None, instrument.currency, instrument.is_a_share and kind == "bonus", note,
        )  # fmt: skip
        self._commit(acct.name, action)
        self._changed(acct.name, "action")
        return action

    # ---- orders -----------------------------------------------------------------------------
    def add_order(self, order: Order) -> Order:
        """Record an order placed at the broker (or planned). It never changes holdings."""
        from stockbench.market.order_rules import check_order

        self.account(order.account)
        instrument = self._instrument(order.symbol)
        sellable = None
        if order.side == "sell":
            sellable = next((p.sellable for p in self.positions(order.account) if p.symbol == instrument.symbol), 0)
        day = order.placed_at.astimezone(MARKET_TZ[instrument.market]).date()
        found = check_order(
            instrument, order.side, order.qty, order.price, day, holding=sellable, tables=self.market.tables
        )
        if found.problems:
            raise refusal("order_not_recorded", found.problems)
        order = replace(order, order_id=order.order_id or new_id("O", day), symbol=instrument.symbol)
        with self.db.transaction() as cur:
            cur.execute(
                "INSERT INTO orders (order_id, account, symbol, side, qty, price, placed_at, valid_until, report_id, "
                "note, recorded_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [order.order_id, order.account, order.symbol, order.side, order.qty, order.price, order.placed_at,
                 order.valid_until, order.report_id, order.note, datetime.now(UTC)],
            )  # fmt: skip
            self._journalled("order", order.order_id)
        self._changed(order.account, "order")
        return order

    def orders(self, account: str | None = None) -> list[OrderStatus]:
        filled = dict(
            self.db.fetchall(
                "SELECT order_id, sum(qty) FROM fills WHERE order_id IS NOT NULL "
                "AND fill_id NOT IN (SELECT target_id FROM voids) GROUP BY order_id"
            )
        )
        cancelled = {r[0] for r in self.db.fetchall("SELECT order_id FROM order_events WHERE kind = 'cancelled'")}
        today = self.clock.now().astimezone(MARKET_TZ["CN"]).date()
        result = []
        for order in load_orders(self.db, account):
            done = int(filled.get(order.order_id, 0))
            if order.order_id in cancelled:
                status = "cancelled"
            elif done >= order.qty:
                status = "filled"
            elif order.valid_until is not None and today > order.valid_until:
                status = "expired"
            else:
                status = "partially_filled" if done else "open"
            result.append(OrderStatus(order, status, done))
        return result

    def cancel_order(self, order_id: str, reason: str = "") -> OrderStatus:
        matches = [s for s in self.orders() if s.order.order_id == order_id]
        if not matches:
            raise user_error(NotFound, "order_unknown", order=order_id, command="stockbench ledger order list ACCOUNT")
        if matches[0].status in {"filled", "cancelled", "expired"}:
            raise user_error(InvalidInput, "order_already_closed", order=order_id, status=matches[0].status,
                             status_zh=value_word("order_status", matches[0].status, "zh"))  # fmt: skip
        at = self.clock.now()
        with self.db.transaction() as cur:
            cur.execute(
                "INSERT INTO order_events (order_id, event_at, kind, reason) VALUES (?, ?, 'cancelled', ?)",
                [order_id, at, reason],
            )
            self._journalled("order_event", order_id, "cancelled", at)
        self._changed(matches[0].order.account, "order")
        return next(s for s in self.orders() if s.order.order_id == order_id)

    # ---- reads ------------------------------------------------------------------------------
    def state(self, account: str, at: datetime | None = None) -> LedgerState:
        """A replay of `account` up to `at` (default: everything)."""
        self.account(account)
        return replay(load_entries(self.db, account), until=at)

    def positions(
        self, account: str, at: datetime | None = None, prices: Mapping[str, Decimal] | None = None
    ) -> list[Position]:
        """Holdings at `at` (default: now, from the materialised state) valued at `prices` where given."""
        self.account(account)
        prices = prices or {}
        if at is None:
            return self._current_positions(account, prices)
        state = self.state(account, at)
        return [
            _position(account, h.symbol, h.currency, h.qty, h.sellable(at), h.cost, h.realized_pnl, h.fees,
                      h.dividends, h.dividend_tax, h.net_invested, prices.get(h.symbol))
            for h in sorted(state.holdings.values(), key=lambda h: h.symbol)
        ]  # fmt: skip

    def after_the_close(self, market: Market = "CN", at: datetime | None = None) -> bool:
        """Whether the day's session of `market` is over at `at` (default: the clock): shares bought that day then
        count as sellable, for the next session (T+1), as `positions` counts them."""
        return after_the_close(market, at or self.clock.now())

    def _current_positions(self, account: str, prices: Mapping[str, Decimal]) -> list[Position]:
        now = self.clock.now().astimezone(MARKET_TZ["CN"])
        after_close = after_the_close("CN", now)
        rows = self.db.fetchall(
            """
            SELECT t.symbol, t.currency, coalesce(sum(l.qty), 0),
                   coalesce(sum(l.qty) FILTER (WHERE l.t0 OR l.acquired_date < ? OR (? AND l.acquired_date = ?)), 0),
                   coalesce(sum(l.cost), 0), t.realized_pnl, t.fees, t.dividends, t.dividend_tax, t.net_invested
            FROM ledger_totals t LEFT JOIN ledger_lots l ON l.account = t.account AND l.symbol = t.symbol
            WHERE t.account = ?
            GROUP BY ALL ORDER BY t.symbol
            """,
            [now.date(), after_close, now.date(), account],
        )
        return [
            _position(account, sym, ccy, int(q), int(s), Decimal(c), Decimal(r), Decimal(f), Decimal(d), Decimal(t),
                      Decimal(n), prices.get(sym))
            for sym, ccy, q, s, c, r, f, d, t, n in rows
        ]  # fmt: skip

    def balance(self, account: str, at: datetime | None = None) -> dict[str, Decimal]:
        """Cash per currency at `at` (default: now)."""
        self.account(account)
        if at is None:
            rows = self.db.fetchall("SELECT currency, balance FROM ledger_cash WHERE account = ? ORDER BY 1", [account])
            return {c: Decimal(b).quantize(CENT) for c, b in rows}
        return {c: b.quantize(CENT) for c, b in sorted(self.state(account, at).cash.items())}

    def history(self, account: str) -> list[tuple[Entry, str | None]]:
        """Every entry with its void reason (None when in force), in replay order."""
        from stockbench.ledger.replay import ordered

        self.account(account)
        voids = dict(self.db.fetchall("SELECT target_id, reason FROM voids"))
        return [(e, voids.get(entry_id(e))) for e in ordered(load_entries(self.db, account, include_voided=True))]

    # ---- files ------------------------------------------------------------------------------------------------
    def import_fills(
        self, path: Path, account: str, *, dry_run: bool = False, expected_digest: str | None = None
    ) -> ImportResult:
        """Import a broker CSV of fills into `account`: every row checked, all written or none (see `imports`)."""
        from stockbench.ledger.imports import import_fills

        if not dry_run and self._before_import is not None:
            self._before_import()
        return import_fills(self, path, account, dry_run=dry_run, expected_digest=expected_digest)

    def export_csv(self, account: str, target: Path) -> int:
        """Write every entry of `account` (voided ones flagged) to `target` as CSV; the number of rows."""
        from stockbench.ledger.exports import export_csv

        return export_csv(self, account, target)

    def export_beancount(self, account: str, target: Path) -> int:
        """Write `account` to `target` as a Beancount ledger that bean-check accepts; the number of transactions."""
        from stockbench.ledger.exports import export_beancount

        return export_beancount(self, account, target)

    def _changed(self, account: str, what: str) -> None:
        self.events.publish(LedgerChanged(at=self.clock.now(), account=account, what=what))


_EPSILON = timedelta(microseconds=1)
ENTRY_KIND: dict[type, Kind] = {Fill: "fill", CashEntry: "cash", CorporateAction: "action"}


def _position(  # noqa: PLR0917 - one row of the position query, in column order
    account: str,
    symbol: str,
    currency: str,
    qty: int,
    sellable: int,
    cost: Decimal,
    realized: Decimal,
    fees: Decimal,
    dividends: Decimal,
    tax: Decimal,
    net_invested: Decimal,
    price: Decimal | None,
) -> Position:
    value = (price * qty).quantize(CENT, ROUND_HALF_UP) if price is not None else None
    return Position(
        account,
        symbol,
        currency,
        qty,
        sellable,
        cost.quantize(CENT, ROUND_HALF_UP),
        (cost / qty).quantize(PRICE_PLACES, ROUND_HALF_UP) if qty else None,
        (net_invested / qty).quantize(PRICE_PLACES, ROUND_HALF_UP) if qty else None,
        realized.quantize(CENT, ROUND_HALF_UP),
        (value - cost).quantize(CENT, ROUND_HALF_UP) if value is not None else None,
        value,
        price,
        fees.quantize(CENT, ROUND_HALF_UP),
        dividends.quantize(CENT, ROUND_HALF_UP),
        tax.quantize(CENT, ROUND_HALF_UP),
    )
