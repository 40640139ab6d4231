"""The dashboard's engine work, run in the background: the books (cash and equity per account and currency,
positions valued at the last close, open orders with the latest report's KEEP/MODIFY/CANCEL) and the watch
(zone alerts, the scan shortlist), which is slower and so comes second."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal

from stockbench.clock import MARKET_TZ
from stockbench.errors import UserError
from stockbench.ledger.entries import Position
from stockbench.messages import note
from stockbench.research.outcomes import ReportListing
from stockbench.research.summary import ReportSummary
from stockbench.workbench import Workbench
from ui.errors import error_text
from ui.i18n.language import engine_language
from ui.screens.dashboard.dashboard_model import AccountRow, AlertRow, OrderRow, PickRow, PositionRow

CENT = Decimal("0.01")
OPEN_STATUSES = ("open", "partially_filled")
SHORTLIST = 10


@dataclass(frozen=True)
class Books:
    accounts: tuple[AccountRow, ...]
    positions: tuple[PositionRow, ...]
    orders: tuple[OrderRow, ...]


@dataclass(frozen=True)
class Watch:
    alerts: tuple[AlertRow, ...]
    shortlist: tuple[PickRow, ...]
    scanned: int
    as_of: date | None
    universe: str  # watchlist | all
    problems: tuple[str, ...] = ()


# ---- books ---------------------------------------------------------------------------------------------------------
def books(bench: Workbench) -> Books:
    """Accounts, positions and open orders, valued at the last close (or a live quote already cached)."""
    accounts, positions = [], []
    for account in bench.ledger.accounts():
        held = bench.ledger.positions(account.name)
        prices = {p.symbol: price for p in held if p.qty and (price := last_close(bench, p.symbol)) is not None}
        valued = [p for p in bench.ledger.positions(account.name, prices=prices) if p.qty]
        accounts += _account_rows(account.name, bench.ledger.balance(account.name), valued)
        positions += [_position_row(bench, p) for p in valued]
    return Books(tuple(accounts), tuple(positions), tuple(open_orders(bench)))


def last_close(bench: Workbench, symbol: str) -> Decimal | None:
    try:
        return bench.data.quote(symbol, fetch=False).price
    except UserError:
        return None


def _account_rows(name: str, cash: dict[str, Decimal], held: list[Position]) -> list[AccountRow]:
    rows = []
    for currency in sorted({*cash, *(p.currency for p in held)}):
        mine = [p for p in held if p.currency == currency]
        value = sum((p.market_value if p.market_value is not None else p.cost for p in mine), Decimal(0))
        money = cash.get(currency, Decimal("0.00"))
        unpriced = sum(1 for p in mine if p.market_value is None)
        rows.append(AccountRow(name, currency, money, value.quantize(CENT), (money + value).quantize(CENT), unpriced))
    return rows


def _position_row(bench: Workbench, position: Position) -> PositionRow:
    pnl = position.unrealized_pnl
    pct = (pnl / position.cost * 100).quantize(CENT, ROUND_HALF_UP) if pnl is not None and position.cost else None
    name = bench.market.registry.instrument(position.symbol).name
    return PositionRow(position.account, position.symbol, name, position.currency, position.qty, position.sellable,
                       position.avg_cost, position.cost, position.price, position.market_value, pnl, pct)  # fmt: skip


def open_orders(bench: Workbench) -> list[OrderRow]:
    """Open and partly filled orders, each with what the latest report on its symbol decided about it."""
    rows = []
    latest: dict[str, tuple[ReportListing, ReportSummary] | None] = {}
    for status in bench.ledger.orders():
        if status.status not in OPEN_STATUSES:
            continue
        order = status.order
        if order.symbol not in latest:
            latest[order.symbol] = _latest_report(bench, order.symbol)
        found = latest[order.symbol]
        decision, reason = order_decisions(found[1]).get(order.order_id, (None, "")) if found else (None, "")
        market = bench.market.registry.instrument(order.symbol).market
        day = found[0].published_at.astimezone(MARKET_TZ[market]).date() if found else None
        rows.append(OrderRow(order.order_id, order.account, order.symbol, order.side, order.qty, status.filled,
                             order.price, status.status, decision, reason, found[0].report_id if found else None,
                             day))  # fmt: skip
    return rows


def _latest_report(bench: Workbench, symbol: str) -> tuple[ReportListing, ReportSummary] | None:
    listed = bench.research.reports(symbol)
    return (listed[0], bench.research.summary(listed[0].report_id)) if listed else None


def order_decisions(summary: ReportSummary) -> dict[str, tuple[str, str]]:
    """{order id: (KEEP | MODIFY | CANCEL, reason)}: what a report decided for each open order, from its typed summary
    (never from its text: reports published before the summary listed them are back-filled by migration 0010)."""
    return {d.order_id: (d.decision, d.reason) for d in summary.open_orders}


# ---- watch ---------------------------------------------------------------------------------------------------------
def watch(bench: Workbench, top: int = SHORTLIST) -> Watch:
    """Zone alerts over the watchlist and the holdings, and the scan of the watchlist (or of everything)."""
    listed = bench.watchlist.symbols()
    held = [p.symbol for a in bench.ledger.accounts() for p in bench.ledger.positions(a.name) if p.qty]
    symbols = list(dict.fromkeys([*listed, *held]))
    alerts, problems = zone_alerts(bench, symbols)
    universe = "watchlist" if listed else "all"
    try:
        scan = bench.analytics.scan(listed if listed else "all", top=top)
    except UserError as error:
        return Watch(tuple(alerts), (), 0, None, universe, (*problems, error_text(error)))
    language = engine_language()
    between = note("cli.reason_separator").text(language)  # "；" between Chinese reasons, as the scan command says
    picks = tuple(PickRow(p.symbol, _name(bench, p.symbol), p.score, between.join(n.text(language) for n in p.notes))
                  for p in scan.shortlist)  # fmt: skip
    return Watch(tuple(alerts), picks, scan.scanned, scan.as_of, universe, tuple(problems))


def zone_alerts(bench: Workbench, symbols: Iterable[str]) -> tuple[list[AlertRow], list[str]]:
    """Symbols whose last close moved into or out of a zone (or to the stop) from the close before it, both placed
    against the latest zones (the closes forward-adjusted onto the zones' price scale)."""
    alerts, problems = [], []
    listed = list(symbols)
    zones = bench.analytics.zones_many(listed)  # together: a fraction of one computation a symbol
    for symbol in listed:
        try:
            found = zones[symbol]
            if isinstance(found, UserError):
                raise found
            instrument = bench.market.registry.instrument(symbol)
            today = bench.analytics.today(instrument.market)
            closes = bench.data.bars(symbol, today - timedelta(days=40), found.as_of, adjust="forward")
        except UserError as error:
            problems.append(f"{symbol}: {error_text(error)}")
            continue
        if closes.height < 2:
            continue
        (_, before), (day, last) = closes.select("day", "close").tail(2).iter_rows()
        previous, close = Decimal(str(before)), Decimal(str(last))
        was, now = found.position_of(previous), found.position_of(close)
        if was != now:
            alerts.append(AlertRow(symbol, instrument.name, day, previous, close, was, now))
    return alerts, problems


def _name(bench: Workbench, symbol: str) -> str | None:
    return bench.market.registry.instrument(symbol).name


# ---- screenshots ---------------------------------------------------------------------------------------------------
SCREENSHOT_ACCOUNT = "示例账户"
SCREENSHOT_HOLDINGS = ("605903.SH", "003901.SZ")


def demo_books(bench: Workbench) -> int:
    """For screenshots of a demo workspace without accounts: a fictional account with a deposit, a fill per
    SCREENSHOT_HOLDINGS symbol (at its second-last close) and an open order. Never touches any other workspace."""
    if bench.kind != "demo" or bench.ledger.accounts():
        return 0
    from stockbench.ledger.entries import FillDraft, Order

    ledger = bench.ledger
    ledger.add_account(SCREENSHOT_ACCOUNT, "CNY", note="demo screenshots")
    today = bench.analytics.today("CN")
    ledger.cash(SCREENSHOT_ACCOUNT, "deposit", Decimal("200000"), at=_local(today - timedelta(days=30), 9))
    for symbol in SCREENSHOT_HOLDINGS:
        bars = bench.data.bars(symbol, today - timedelta(days=20), today)
        day, close = bars.select("day", "close").row(-2)
        ledger.record_fill(FillDraft(SCREENSHOT_ACCOUNT, symbol, "buy", 100, Decimal(str(close)), _local(day, 14)))
    zones = bench.analytics.zones(SCREENSHOT_HOLDINGS[0])
    ledger.add_order(Order("", SCREENSHOT_ACCOUNT, SCREENSHOT_HOLDINGS[0], "buy", 100, zones.buy.low,
                           _local(today, 15)))  # fmt: skip
    return len(SCREENSHOT_HOLDINGS)


def _local(day: date, hour: int) -> datetime:
    return datetime.combine(day, time(hour), MARKET_TZ["CN"])
