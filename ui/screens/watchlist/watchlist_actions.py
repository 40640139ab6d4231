"""The watchlist screen's engine work, each run in the background through `ctx.op`: the rows of a group (names,
holdings, latest report: a few queries whatever the list's length), then the rows' prices (their quotes read
together) and the zone positions (the one zone algorithm over many symbols at once); the symbol search,
and the writes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from stockbench.clock import MARKET_TZ
from stockbench.errors import UserError
from stockbench.research.outcomes import ReportListing
from stockbench.watchlist import InstrumentHit, WatchItem
from stockbench.workbench import Workbench
from ui.errors import error_text
from ui.screens.watchlist.watchlist_model import WatchRow

CENT = Decimal("0.01")
SEARCH_LIMIT = 15
ZONE_BATCH = 100  # symbols whose zones are computed together (the shown values arrive a batch at a time)


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


@dataclass(frozen=True)
class RowPrice:
    """A row's price columns: the last price, its change and the holding's P&L at it."""

    symbol: str
    last: Decimal | None
    change_pct: Decimal | None
    label: str
    note: str
    pnl: Decimal | None


def load_view(bench: Workbench, group: str | None) -> WatchlistView:
    """The rows of `group` (the first group when it is gone or None), without prices and zones (see `fill_rows`):
    reading each row's quote took most of a reopen's wait (60 symbols: seconds before the list showed)."""
    names = tuple(g.name for g in bench.watchlist.groups())
    chosen = group if group in names else (names[0] if names else None)
    items = bench.watchlist.items(chosen) if chosen is not None else []
    holdings = _holdings(bench)
    latest: dict[str, ReportListing] = {}
    for listed in bench.reports.listed():  # newest first: the first of a symbol is its latest
        latest.setdefault(listed.symbol, listed)
    rows = tuple(_row(bench, item, holdings, latest.get(item.symbol)) for item in items)
    return WatchlistView(names, chosen, rows)


def last_prices(bench: Workbench, symbols: list[str]) -> dict[str, Price]:
    """The live quote inside the trading window when one is cached, else the last close (never fetched here), of
    each of `symbols`, read together (`DataService.stored_quotes`: the same as each symbol's quote alone)."""
    prices = {}
    for symbol, quote in bench.data.stored_quotes(symbols).items():
        if isinstance(quote, UserError):
            prices[symbol] = Price(None, None, "none", error_text(quote))
        else:
            prices[symbol] = Price(quote.price, quote.prev_close, quote.label, quote.note)
    return prices


def _holdings(bench: Workbench) -> dict[str, tuple[int, Decimal]]:
    """Quantity and remaining cost per symbol over every account."""
    held: dict[str, tuple[int, Decimal]] = {}
    for account in bench.ledger.accounts():
        for position in bench.ledger.positions(account.name):
            if position.qty:
                qty, cost = held.get(position.symbol, (0, Decimal(0)))
                held[position.symbol] = (qty + position.qty, cost + position.cost)
    return held


def _row(
    bench: Workbench, item: WatchItem, holdings: dict[str, tuple[int, Decimal]], latest: ReportListing | None
) -> WatchRow:
    instrument = bench.market.registry.instrument(item.symbol)
    published = latest.published_at.astimezone(MARKET_TZ[instrument.market]).date() if latest else None
    return WatchRow(
        symbol=item.symbol,
        name=item.name or instrument.name,
        currency=instrument.currency,
        price_label="pending",
        holding=holdings.get(item.symbol, (0, Decimal(0)))[0],
        report_date=published,
        report_action=latest.action if latest else None,
        report_id=latest.report_id if latest else None,
    )


def row_price(symbol: str, price: Price, holding: tuple[int, Decimal]) -> RowPrice:
    """The price columns of `symbol`'s row at `price`, `holding` being its (quantity, remaining cost) over every
    account."""
    change = None
    if price.last is not None and price.previous:
        change = ((price.last / price.previous - 1) * 100).quantize(CENT, ROUND_HALF_UP)
    qty, cost = holding
    pnl = (price.last * qty - cost).quantize(CENT, ROUND_HALF_UP) if qty and price.last is not None else None
    return RowPrice(symbol, price.last, change, price.label, price.note, pnl)


ZoneFound = tuple[str, str | None, str]  # symbol, position (None when unavailable), note
RowFound = RowPrice | ZoneFound


def fill_prices(bench: Workbench, symbols: list[str], report: Callable[[RowFound], None]) -> int:
    """The price columns of `symbols`, their quotes read together (one engine call for the list: read one symbol at
    a time they cost about 18 ms each, and the zones waited on them), each reported; returns how many."""
    holdings, prices = _holdings(bench), last_prices(bench, symbols)
    for symbol in symbols:
        report(row_price(symbol, prices[symbol], holdings.get(symbol, (0, Decimal(0)))))
    return len(symbols)


def fill_zones(bench: Workbench, symbols: list[str], report: Callable[[RowFound], None]) -> int:
    """The zone positions of `symbols`, computed ZONE_BATCH at a time (one pass of the zone algorithm and a few
    queries for all of them: a 60-symbol list cost 60 single computations of about 50 ms each before) and reported
    batch by batch; returns how many."""
    for start in range(0, len(symbols), ZONE_BATCH):
        chunk = symbols[start : start + ZONE_BATCH]
        found = bench.analytics.zones_many(chunk)
        for symbol in chunk:  # where its last close sits against its zones (None with the reason when it has none)
            zones = found[symbol]
            if isinstance(zones, UserError):
                report((symbol, None, error_text(zones)))
            else:
                report((symbol, zones.position, "; ".join(zones.flags)))
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
