"""The watchlist screen's engine work, each run in the background through `ctx.op`: the rows of a group (price,
change, holding, P&L, latest report), the zone positions (the one zone algorithm, one symbol at a time, reported
as they come), the symbol search, and the writes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from stockbench.clock import MARKET_TZ
from stockbench.errors import UserError
from stockbench.watchlist import InstrumentHit, WatchItem
from stockbench.workbench import Workbench
from ui.errors import error_text
from ui.screens.watchlist.watchlist_model import WatchRow

CENT = Decimal("0.01")
SEARCH_LIMIT = 15


@dataclass(frozen=True)
class WatchlistView:
    """What the screen shows: the groups, the shown group and its rows."""

    groups: tuple[str, ...]
    group: str | None
    rows: tuple[WatchRow, ...]


@dataclass(frozen=True)
class Price:
    last: Decimal | None
    previous: Decimal | None
    label: str
    note: str = ""


def load_view(bench: Workbench, group: str | None) -> WatchlistView:
    """The rows of `group` (the first group when it is gone or None), without zones (see `zone_positions`)."""
    names = tuple(g.name for g in bench.watchlist.groups())
    chosen = group if group in names else (names[0] if names else None)
    items = bench.watchlist.items(chosen) if chosen is not None else []
    holdings = _holdings(bench)
    rows = tuple(_row(bench, item, holdings) for item in items)
    return WatchlistView(names, chosen, rows)


def last_price(bench: Workbench, symbol: str) -> Price:
    """The live quote inside the trading window when one is cached, else the last close (never fetched here)."""
    try:
        quote = bench.data.quote(symbol, fetch=False)
    except UserError as error:
        return Price(None, None, "none", error_text(error))
    return Price(quote.price, quote.prev_close, quote.label, quote.note)


def _holdings(bench: Workbench) -> dict[str, tuple[int, Decimal]]:
    """Quantity and remaining cost per symbol over every account."""
    held: dict[str, tuple[int, Decimal]] = {}
    for account in bench.ledger.accounts():
        for position in bench.ledger.positions(account.name):
            if position.qty:
                qty, cost = held.get(position.symbol, (0, Decimal(0)))
                held[position.symbol] = (qty + position.qty, cost + position.cost)
    return held


def _row(bench: Workbench, item: WatchItem, holdings: dict[str, tuple[int, Decimal]]) -> WatchRow:
    instrument = bench.market.registry.instrument(item.symbol)
    price = last_price(bench, item.symbol)
    change = None
    if price.last is not None and price.previous:
        change = ((price.last / price.previous - 1) * 100).quantize(CENT, ROUND_HALF_UP)
    qty, cost = holdings.get(item.symbol, (0, Decimal(0)))
    pnl = (price.last * qty - cost).quantize(CENT, ROUND_HALF_UP) if qty and price.last is not None else None
    reports = bench.research.reports(item.symbol)
    latest = reports[0] if reports else None
    published = latest.published_at.astimezone(MARKET_TZ[instrument.market]).date() if latest else None
    return WatchRow(
        symbol=item.symbol,
        name=item.name or instrument.name,
        currency=instrument.currency,
        last=price.last,
        change_pct=change,
        price_label=price.label,
        price_note=price.note,
        holding=qty,
        pnl=pnl,
        report_date=published,
        report_action=latest.action if latest else None,
        report_id=latest.report_id if latest else None,
    )


ZoneFound = tuple[str, str | None, str]  # symbol, position (None when unavailable), note


def zone_positions(bench: Workbench, symbols: list[str], report: Callable[[ZoneFound], None]) -> int:
    """Where each symbol's last close sits against its zones, reported symbol by symbol; returns how many."""
    for symbol in symbols:
        try:
            found = bench.analytics.zones(symbol)
        except UserError as error:
            report((symbol, None, error_text(error)))
            continue
        report((symbol, found.position, "; ".join(found.flags)))
    return len(symbols)


def search(bench: Workbench, text: str) -> list[InstrumentHit]:
    return bench.watchlist.search(text, SEARCH_LIMIT)


def add(symbol: str, group: str | None) -> Callable[[Workbench], object]:
    return lambda bench: bench.watchlist.add(symbol, group)


def remove(symbol: str, group: str | None) -> Callable[[Workbench], object]:
    return lambda bench: bench.watchlist.remove(symbol, group)


def move(symbol: str, position: int, group: str | None) -> Callable[[Workbench], object]:
    return lambda bench: bench.watchlist.move(symbol, position, group)


def move_to_group(symbol: str, source: str | None, target: str) -> Callable[[Workbench], object]:
    return lambda bench: bench.watchlist.move_to_group(symbol, target, source=source)


def add_group(name: str) -> Callable[[Workbench], object]:
    return lambda bench: bench.watchlist.add_group(name)


def rename_group(name: str, new_name: str) -> Callable[[Workbench], object]:
    return lambda bench: bench.watchlist.rename_group(name, new_name)


def remove_group(name: str) -> Callable[[Workbench], object]:
    return lambda bench: bench.watchlist.remove_group(name)
