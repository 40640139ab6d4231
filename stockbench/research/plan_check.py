"""The intraday plan check: a report's plan against current data, by rule alone (no model is ever asked).

A report's plan is its zones and stop, the paths and open-order decisions of its judgments, and the orders the
program sized; each becomes a check (ok, triggered or conflict) against the current price (a live quote in a
session, else the last close, labelled) and the ledger. Where a rule's hint contradicts the report's action (it
said hold, the price hit the stop; it said buy, the price is above the sell zone) the check is a conflict and a
full analysis is recommended. The conflicts are data: `[plan_check]` of resources/quick_review.toml.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Literal

from stockbench.clock import Clock
from stockbench.errors import InvalidInput, NotFound
from stockbench.market.limits import price_limits
from stockbench.market.registry import limit_status
from stockbench.messages import user_error
from stockbench.research.archive import REPORT_KINDS, ReportArchive
from stockbench.research.changes import (
    LevelTable,
    PriceNow,
    ex_rights_days,
    load_table,
    matching_path,
    show,
)
from stockbench.research.outcomes import Check, PlanCheckResult
from stockbench.research.summary import ReportPlan
from stockbench.store.database import Database

if TYPE_CHECKING:
    from stockbench.data.service import DataService
    from stockbench.ledger.book import Ledger
    from stockbench.market.instruments import Instrument
    from stockbench.market.service import MarketRules

OPEN = frozenset({"open", "partially_filled"})
# A path tied to a zone position is met when the price stands at one of these positions.
PATH_MET = {"stop_hit": {"stop_hit"}, "in_sell": {"in_sell", "above_sell"}, "in_buy": {"in_buy"}}


def latest_report(db: Database, symbol: str, now: datetime, kinds: Sequence[str] = REPORT_KINDS) -> str | None:
    """The id of the latest report on `symbol` published at or before `now` (see `ReportArchive.latest`)."""
    return ReportArchive(db).latest(symbol, now, kinds)


def report_plan(db: Database, report_id: str) -> ReportPlan:
    """The plan of report `report_id` (see `ReportArchive.plan`)."""
    return ReportArchive(db).plan(report_id)


def current_price(data: DataService, symbol: str, *, fetch: bool) -> PriceNow | None:
    """The live quote inside the trading window (fetched when `fetch`), else the last close; None when neither.

    Inside the window the data service offers the latest stored quote, labelled live, delayed or stale (a delayed
    or stale one keeps its label and the note saying how late or how old, never passed off as a close); one from an
    earlier day is not of the session, so the last close (of that session, from the daily bars) is used, labelled.
    """
    view = data.quote(symbol, fetch=fetch)
    if view.price is None or view.day is None:
        return None
    if view.label in ("live", "delayed", "stale") and view.day == data.cache.cutoff(symbol).today:
        q = data.cache.latest_quote(symbol)
        if q is not None:
            label: Literal["live", "delayed", "stale"] = (
                "stale" if view.label == "stale" else "delayed" if view.label == "delayed" else "live"
            )
            return PriceNow(view.price, label, view.day, view.at, q.prev_close, q.high, q.low, q.volume, q.amount,
                            view.source, view.note)  # fmt: skip
    bars = data.bars(symbol, view.day, view.day)
    row: dict[str, Any] = bars.row(-1, named=True) if bars.height else {}
    return PriceNow(
        row.get("close") or view.price,
        "last_close",
        view.day,
        None,
        row.get("prev_close") or view.prev_close,
        row.get("high"),
        row.get("low"),
        row.get("volume"),
        row.get("amount"),
        row.get("source") or view.source,
    )


def day_limits(market: MarketRules, instrument: Instrument, price: PriceNow) -> tuple[Decimal, Decimal] | None:
    """(limit-up, limit-down) of the price's session from the rules on its reference price; None without limits.

    A new listing's first sessions are not recognised here (the session count since listing is not read).
    """
    if not instrument.is_a_share or price.reference is None or price.reference <= 0:
        return None
    status = limit_status(market.registry.name_on(instrument.symbol, price.day))
    try:
        found = price_limits(
            instrument,
            price.reference,
            price.day,
            st=status == "st",
            unreformed=status == "unreformed",
            tables=market.tables,
        )
    except InvalidInput:
        return None
    return None if found.up is None or found.down is None else (found.up, found.down)


@dataclass(frozen=True)
class LedgerView:
    """The account's holding of the symbol and its orders on it (every status)."""

    account: str
    sellable: int
    orders: Mapping[str, Mapping[str, Any]]  # order_id -> side, qty, price, status


def plan_checks(
    plan: ReportPlan,
    price: PriceNow,
    *,
    limits: tuple[Decimal, Decimal] | None,
    ledger: LedgerView | None,
    ex_rights: Sequence[date],
    table: LevelTable,
) -> list[Check]:
    """Every check of `plan` against `price` and the ledger, in a fixed order."""
    return [
        *_stop(plan, price, table),
        *_zone(plan, price, table),
        *_paths(plan, price),
        *_limits(plan, price, limits, table),
        *_orders(plan, price, limits),
        *_open_orders(plan, price, ledger),
        *_sellable(plan, ledger),
        *(
            Check(
                "ex_rights",
                "conflict",
                f"{d}: ex-rights or ex-dividend since the report; its levels are on the old price scale",
            )
            for d in ex_rights
        ),
    ]


def _stop(plan: ReportPlan, price: PriceNow, table: LevelTable) -> list[Check]:
    stop = plan.zones.stop if plan.zones else None
    if stop is None:
        return [Check("stop", "ok", "the report sets no stop", checked=False)]
    if price.price > stop:
        return [Check("stop", "ok", f"price {show(price.price)} is above the stop {stop}")]
    why = table.conflict("stop_hit", plan.action)
    if why:
        return [Check("stop", "conflict", f"price {show(price.price)} is at or below the stop {stop}: {why}")]
    return [
        Check(
            "stop", "triggered", f"price {show(price.price)} is at or below the stop {stop}: the report's exit applies"
        )
    ]


def _zone(plan: ReportPlan, price: PriceNow, table: LevelTable) -> list[Check]:
    if plan.zones is None:
        return [Check("zone_position", "ok", "the report has no zones", checked=False)]
    now = plan.zones.position(price.price)
    moved = f"position {plan.position} -> {now} (price {show(price.price)})"
    if now == "stop_hit":
        return [Check("zone_position", "ok" if plan.position == now else "triggered", f"{moved}; see the stop check")]
    why = table.conflict(now, plan.action)
    if why:
        return [Check("zone_position", "conflict", f"{moved}: {why}")]
    if now != plan.position:
        return [Check("zone_position", "triggered", moved)]
    return [Check("zone_position", "ok", f"position {now} as in the report (price {show(price.price)})")]


def _paths(plan: ReportPlan, price: PriceNow) -> list[Check]:
    checks = []
    now = plan.zones.position(price.price) if plan.zones else None
    for i, (trigger, action) in enumerate(plan.paths, 1):
        zones = plan.zones
        tied = next((p for p in PATH_MET if zones and matching_path([(trigger, action)], zones, p)), None)
        if tied is None or now is None:
            checks.append(
                Check(
                    f"path[{i}]", "ok", f"{trigger} -> {action}: names no zone level; check it by hand", checked=False
                )
            )
            continue
        met = now in PATH_MET[tied]
        state = "the condition holds" if met else "not met"
        checks.append(Check(f"path[{i}]", "triggered" if met else "ok", f"{trigger} -> {action}: {state} ({now})"))
    return checks


def _limits(
    plan: ReportPlan, price: PriceNow, limits: tuple[Decimal, Decimal] | None, table: LevelTable
) -> list[Check]:
    if limits is None:
        return []
    checks = []
    for rule, limit, against in (
        ("limit_up", limits[0], table.against_up),
        ("limit_down", limits[1], table.against_down),
    ):
        name = rule.replace("_", "-")
        if price.price != limit:
            checks.append(
                Check(rule, "ok", f"{name} {limit} (reference {show(price.reference or 0)}); price {show(price.price)}")
            )
        elif plan.action in against:
            detail = (
                f"price {show(price.price)} is sealed at the {name} {limit}, against the report's action {plan.action}"
            )
            checks.append(Check(rule, "conflict", detail))
        else:
            checks.append(Check(rule, "triggered", f"price {show(price.price)} is at the {name} {limit}"))
    return checks


def _marketable(side: str, order_price: Decimal, price: Decimal) -> bool:
    return order_price >= price if side == "buy" else order_price <= price


def _orders(plan: ReportPlan, price: PriceNow, limits: tuple[Decimal, Decimal] | None) -> list[Check]:
    checks = []
    for i, order in enumerate(plan.orders, 1):
        side, at = str(order["side"]), Decimal(str(order["price"]))
        what = f"{side} {order['qty']} @ {at}"
        if limits is not None and not limits[1] <= at <= limits[0]:
            checks.append(Check(f"order[{i}]", "triggered", f"{what}: outside today's limits {limits[1]}-{limits[0]}"))
        elif _marketable(side, at, price.price):
            checks.append(Check(f"order[{i}]", "triggered", f"{what}: marketable at the price {show(price.price)}"))
        else:
            checks.append(Check(f"order[{i}]", "ok", f"{what}: waits (price {show(price.price)})"))
    return checks


def _open_orders(plan: ReportPlan, price: PriceNow, ledger: LedgerView | None) -> list[Check]:
    if ledger is None:
        return []
    checks = [_decision(plan, price, d, ledger.orders.get(str(d["order_id"]))) for d in plan.open_orders]
    decided = {str(d["order_id"]) for d in plan.open_orders}
    checks += [
        Check(f"open_order {oid}", "triggered", f"{o['side']} {o['qty']} @ {o['price']}: not covered by the report")
        for oid, o in ledger.orders.items()
        if o["status"] in OPEN and oid not in decided
    ]
    return checks


def _decision(plan: ReportPlan, price: PriceNow, decision: Mapping[str, Any], order: Mapping[str, Any] | None) -> Check:
    rule, said = f"open_order {decision['order_id']}", str(decision["decision"])
    if order is None:
        return Check(rule, "ok", f"the report said {said}; the order is not in this account", checked=False)
    if order["status"] not in OPEN:
        return Check(rule, "ok", f"the report said {said}; the order is now {order['status']}")
    if said == "CANCEL":
        return Check(rule, "triggered", "the report said CANCEL; the order is still open")
    target = Decimal(str(decision["new_price"])) if said == "MODIFY" and decision.get("new_price") else order["price"]
    stop = plan.zones.stop if plan.zones else None
    if said == "MODIFY" and order["price"] != target:
        return Check(rule, "triggered", f"the report said MODIFY to {target}; the order is still at {order['price']}")
    if order["side"] == "buy" and stop is not None and price.price <= stop:
        return Check(
            rule,
            "conflict",
            f"a buy order at {target} is kept while the price {show(price.price)} is at or below the stop {stop}",
        )
    if _marketable(str(order["side"]), target, price.price):
        return Check(rule, "triggered", f"{said}: {order['side']} @ {target} is marketable at {show(price.price)}")
    return Check(rule, "ok", f"{said}: {order['side']} @ {target} waits (price {show(price.price)})")


def _sellable(plan: ReportPlan, ledger: LedgerView | None) -> list[Check]:
    if ledger is None or plan.action not in ("sell", "reduce"):
        return []
    if ledger.sellable > 0:
        return [Check("sellable", "ok", f"{ledger.sellable} shares are sellable today")]
    return [
        Check(
            "sellable",
            "triggered",
            f"the report says {plan.action}, but nothing is sellable today (T+1, or no holding)",
        )
    ]


class PlanCheck:
    """The plan check of one workspace: reads reports, data and the ledger; never a model."""

    def __init__(self, db: Database, clock: Clock, market: MarketRules, data: DataService, ledger: Ledger) -> None:
        self.db, self.clock, self.market, self.data, self.ledger = db, clock, market, data, ledger
        self.table = load_table()

    def check(self, symbol: str, account: str | None = None) -> PlanCheckResult:
        """The checks of the latest report on `symbol` against current data (and `account`'s ledger)."""
        instrument = self.market.registry.instrument(symbol)
        report_id = latest_report(self.db, instrument.symbol, self.clock.now())
        if report_id is None:
            raise user_error(NotFound, "plan_check_no_report", symbol=instrument.symbol,
                             command=f"stockbench analyze {instrument.symbol}")  # fmt: skip
        plan = report_plan(self.db, report_id)
        price = current_price(self.data, instrument.symbol, fetch=not self.clock.is_replay)
        if price is None:
            raise user_error(NotFound, "plan_check_no_price", symbol=instrument.symbol,
                             command=f"stockbench data fetch {instrument.symbol}")  # fmt: skip
        view = self.ledger_view(account or plan.account, instrument.symbol)
        limits, ex_rights = day_limits(self.market, instrument, price), self.ex_rights(plan, price)
        checks = plan_checks(plan, price, limits=limits, ledger=view, ex_rights=ex_rights, table=self.table)
        return PlanCheckResult(
            plan.report_id, instrument.symbol, plan.action, plan.published_at, price, view.account if view else None,
            tuple(checks), self.table.label,
        )  # fmt: skip

    def ledger_view(self, account: str | None, symbol: str) -> LedgerView | None:
        if account is None:
            return None
        held = next((p for p in self.ledger.positions(account) if p.symbol == symbol), None)
        orders = {
            s.order.order_id: {"side": s.order.side, "qty": s.order.qty, "price": s.order.price, "status": s.status}
            for s in self.ledger.orders(account)
            if s.order.symbol == symbol
        }
        return LedgerView(account, held.sellable if held else 0, orders)

    def ex_rights(self, plan: ReportPlan, price: PriceNow) -> tuple[date, ...]:
        if plan.day is None:
            return ()
        bars = self.data.bars(plan.symbol, plan.day, price.day)
        rows = [(r["day"], r["close"], r["prev_close"]) for r in bars.iter_rows(named=True)]
        return ex_rights_days(rows, plan.day, price if price.intraday else None)
