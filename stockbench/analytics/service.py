"""The analytics the workbench offers as `bench.analytics`: indicators, valuation, peers, zones, sizing, position
states and the scan, reading bars point-in-time from the cache and positions from the ledger.

Zones are computed on bars forward-adjusted at the as-of session itself (so the levels are already on the price
scale of that session: a dividend or bonus issue before it moves older bars, never the tradable levels), and are
meant for the session after it, whose limits come from the as-of close.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Literal, Protocol

import polars as pl

from stockbench.analytics.baseline import Setup
from stockbench.analytics.frames import BAR_SCHEMA
from stockbench.analytics.indicators import add_indicators
from stockbench.analytics.position_states import PositionFacts, PositionState, Transition, check_move
from stockbench.analytics.rule_tables import load_rule_tables
from stockbench.analytics.scan import Pick, ScanResult, load_zone_tables, run_scan
from stockbench.analytics.sizing import AccountView, SizeResult, TradeDate, plan_with_defaults, size_order
from stockbench.analytics.valuation import Percentile, band_levels, bands, percentiles, screen_percentile
from stockbench.analytics.zones import TradeDay, ZoneFacts, ZoneParams, Zones, zones_for_many
from stockbench.clock import AS_OF_LOCAL_TIME, MARKET_TZ, Clock, Market, now_in
from stockbench.data.adjust import adjusted, ex_factors
from stockbench.data.records import Quote, TradingStatus
from stockbench.data.service import status_given
from stockbench.errors import CalendarUnknown, InvalidInput, NotFound, UserError
from stockbench.market.calendars import TradingCalendar
from stockbench.market.instruments import Instrument, identify
from stockbench.market.limits import PriceLimits, price_limits
from stockbench.market.registry import limit_status
from stockbench.market.service import MarketRules
from stockbench.market.ticks import round_to_tick
from stockbench.messages import Note, error_words, note, user_error
from stockbench.store.database import Database

if TYPE_CHECKING:
    from stockbench.analytics.price_facts import PriceFacts
    from stockbench.data.service import DataService
    from stockbench.ledger.book import Ledger

Universe = Literal["all", "watchlist"]
_NEW_LISTING = ("N", "C")  # name prefixes of a listing's first sessions (N: first day; C: registration days 2-5)


@dataclass(frozen=True)
class History:
    """One symbol's bars up to the as-of date: unadjusted (Decimal) and forward-adjusted at the last bar (float)."""

    instrument: Instrument
    raw: pl.DataFrame
    adjusted: pl.DataFrame

    @property
    def last(self) -> dict[str, Any]:
        """The last unadjusted bar (day, open ... prev_close as Decimals)."""
        return self.raw.row(-1, named=True)


class Analytics:
    """Indicators, valuation, peers, zones, sizing, position states and the scan for one workspace."""

    def __init__(self, db: Database, clock: Clock, market: MarketRules, data: DataService, ledger: Ledger) -> None:
        self._db, self._clock, self._market, self._data, self._ledger = db, clock, market, data, ledger
        self.rules = load_rule_tables()

    # ---- reading ------------------------------------------------------------------------------------------------
    def today(self, market: Market = "CN") -> date:
        """The clock's date in `market` (the default as-of date)."""
        return self._clock.now().astimezone(MARKET_TZ[market]).date()

    def history(self, symbol: str, as_of: date | None = None) -> History:
        """`symbol`'s bars on or before `as_of` as the clock sees them, unadjusted and forward-adjusted."""
        instrument = self._market.registry.instrument(symbol)
        as_of = as_of or self.today(instrument.market)
        return _history(instrument, self._data.cache.bars(instrument.symbol, end=as_of), as_of)

    def valuation(self, symbol: str, as_of: date | None = None) -> dict[str, Percentile]:
        """Percentiles of PE TTM, PB and PS TTM within their own history (gaps below 1,000 days)."""
        instrument = self._market.registry.instrument(symbol)
        as_of = as_of or self.today(instrument.market)
        return percentiles(self._data.cache.valuation(instrument.symbol, end=as_of), as_of)

    def peers(self, symbols: Sequence[str], as_of: date | None = None, benchmark: str | None = None) -> pl.DataFrame:
        """The peer comparison table of `symbols` (see stockbench.analytics.peers.peer_table)."""
        from stockbench.analytics.peers import peer_table

        as_of = as_of or self.today()
        found = [self.history(s, as_of) for s in symbols]
        frames = [h.adjusted for h in found]
        cache = self._data.cache
        valuation = _stack([(h.instrument.symbol, cache.valuation(h.instrument.symbol, end=as_of)) for h in found])
        financials = _stack([(h.instrument.symbol, cache.financials(h.instrument.symbol)) for h in found])
        bench = self.history(benchmark, as_of).adjusted if benchmark else None
        return peer_table(pl.concat(frames), as_of, valuation=valuation, financials=financials, benchmark=bench)

    def price_facts(self, symbol: str, as_of: date | None = None) -> PriceFacts:
        """`symbol`'s price facts on its last session on or before `as_of` (stockbench.analytics.price_facts), with
        its special treatment and daily limit by the name it carried that session."""
        return self._price_facts(self.history(symbol, as_of))

    def _price_facts(self, found: History) -> PriceFacts:
        from stockbench.analytics.price_facts import price_facts

        day = found.raw.get_column("day")[-1] if found.raw.height else None
        name = self._market.registry.name_on(found.instrument.symbol, day) if day is not None else None
        return price_facts(found.instrument, found.raw, self._market.tables, name=name)

    # ---- zones ----------------------------------------------------------------------------------------------------
    def zones(self, symbol: str, as_of: date | None = None, price: Decimal | None = None) -> Zones:
        """Buy zone, sell zone and stop of `symbol` as of its last session on or before `as_of`, placing `price`
        (default: that session's close) against them."""
        found = self.zones_many([symbol], as_of, price=price)[symbol]
        if isinstance(found, UserError):
            raise found
        return found

    def zones_many(
        self, symbols: Sequence[str], as_of: date | None = None, *, price: Decimal | None = None
    ) -> dict[str, Zones | UserError]:
        """`zones(symbol, as_of, price)` of each of `symbols`, or the error it raises for that symbol, computed
        together: their bars, valuations, quotes and names read in a few queries and the one zone algorithm run
        over all of them at once (each result equal to the symbol's `zones` alone; a list of 60 costs a fraction
        of 60 single calls)."""
        result: dict[str, Zones | UserError] = {}
        known: dict[str, str] = {}  # the symbol as given -> its canonical symbol
        for text in dict.fromkeys(symbols):
            try:
                known[text] = identify(text).instrument.symbol
            except UserError as error:
                result[text] = error
        instruments = self._market.registry.instruments(list(dict.fromkeys(known.values())))
        by_day: dict[date, list[Instrument]] = {}
        for instrument in instruments.values():
            by_day.setdefault(as_of or self.today(instrument.market), []).append(instrument)
        computed: dict[str, Zones | UserError] = {}
        for day, group in by_day.items():
            computed |= self._zones_on(group, day, price)
        return {text: result[text] if text in result else computed[known[text]] for text in dict.fromkeys(symbols)}

    def _zones_on(
        self, instruments: Sequence[Instrument], as_of: date, price: Decimal | None
    ) -> dict[str, Zones | UserError]:
        """The zones of `instruments` as of `as_of` (see zones_many)."""
        symbols = [i.symbol for i in instruments]
        cache, params = self._data.cache, ZoneParams.from_table(self.rules.zones)
        bars, valuations = cache.bars_many(symbols, end=as_of), cache.valuation_many(symbols, end=as_of)
        calendars = functools.cache(self._market.calendars.calendar)  # read once for the batch (two queries each)
        reads = _Reads(self._market.registry.names(instruments), calendars, cache.latest_quotes(symbols))
        result: dict[str, Zones | UserError] = {}
        frames, bands_found, facts = [], [], []
        for instrument in instruments:
            try:
                found = _history(instrument, bars[instrument.symbol], as_of)
                fact, levels = self._zone_facts(found, as_of, price, valuation=valuations[instrument.symbol],
                                                reads=reads, params=params)  # fmt: skip
            except UserError as error:  # an index has no ticks, ... (what `zones` raises for it alone)
                result[instrument.symbol] = error
                continue
            frames.append(found.adjusted)
            bands_found.append(levels)
            facts.append(fact)
        if facts:
            frame = add_indicators(pl.concat(frames))
            levels = pl.concat(bands_found)
            result |= zones_for_many(frame, facts, bands=levels, params=params, tables=self._market.tables)
        return result

    def _zone_facts(
        self,
        found: History,
        as_of: date,
        price: Decimal | None,
        *,
        valuation: pl.DataFrame,
        reads: _Reads,
        params: ZoneParams,
    ) -> tuple[ZoneFacts, pl.DataFrame]:
        """What places one symbol's levels (see ZoneFacts) and its valuation bands as zone levels."""
        instrument, last = found.instrument, found.last
        close, adjusted_close = Decimal(str(last["close"])), found.adjusted.get_column("close")[-1]
        scale = (close / Decimal(repr(adjusted_close))).quantize(Decimal("1.000000"))
        found_bands = bands(valuation, instrument, as_of, params.valuation_percentiles)
        levels = band_levels(found_bands, instrument.symbol, scale)
        placed = price if price is not None else round_to_tick(instrument, close, last["day"], "nearest")
        trade = self._trade_day(found, as_of, reads)
        return ZoneFacts(instrument, placed, trade, scale, self._flags(found, as_of, params, reads)), levels

    def _limits(self, found: History, day: date, ref: Decimal, reads: _Reads) -> PriceLimits:
        symbol = found.instrument.symbol
        status = limit_status(reads.names.name_on(symbol, day))
        return price_limits(found.instrument, ref, day, st=status == "st", unreformed=status == "unreformed",
                            listing_session=self._listing_session(found, day, reads),
                            tables=self._market.tables)  # fmt: skip

    def _listing_session(self, found: History, day: date, reads: _Reads) -> int | None:
        """The session number of `day` since listing, when the listing day is known (instrument data, or the
        first bar carrying the new-listing name prefix)."""
        listed = found.instrument.list_date
        first = found.raw.get_column("day")[0]
        if listed is None:
            name = reads.names.name_on(found.instrument.symbol, first) or ""
            listed = first if name.startswith(_NEW_LISTING) else None
        if listed is None or day < listed:  # a session before the listing has no number since it (not listed yet)
            return None
        try:
            return reads.calendars(found.instrument.market).count_sessions(listed, day)
        except CalendarUnknown:
            return None

    def _sessions(self, market: Market, as_of: date, reads: _Reads | None = None) -> tuple[date, date]:
        """(the last completed session on or before `as_of`, the session the next orders go into); a session is
        completed once the clock is past AS_OF_LOCAL_TIME on it (the cache's rule for day rows)."""
        calendar = (reads.calendars if reads else self._market.calendars.calendar)(market)
        now = now_in(self._clock, market)
        open_today = as_of == now.date() and calendar.is_session(as_of) and now.time() < AS_OF_LOCAL_TIME
        if open_today:
            return calendar.previous_session(as_of), as_of
        done = as_of if calendar.is_session(as_of) else calendar.previous_session(as_of)
        return done, calendar.next_session(as_of)

    def _trade_day(self, found: History, as_of: date, reads: _Reads) -> TradeDay:
        ref = Decimal(str(found.last["close"]))
        status = self._status(found, as_of, reads)
        try:
            day = self._sessions(found.instrument.market, as_of, reads)[1]
        except CalendarUnknown as error:
            return TradeDay(None, ref, None, error.message, status)
        status = status_given(reads.names.listing_date(found.instrument.symbol), day, status) or status
        return TradeDay(day, ref, self._limits(found, day, ref, reads), status=status)

    def _status(self, found: History, as_of: date, reads: _Reads) -> TradingStatus:
        """The trading status of the latest quote, when that quote speaks of the as-of date: taken on it or after
        the last bar and not after it (a quote of a later day is not read as of an earlier one); not_listed before
        the listing date the workspace knows."""
        quote = reads.quotes.get(found.instrument.symbol)
        stated: TradingStatus = "trading"
        if quote is not None:
            day = quote.at.astimezone(MARKET_TZ[found.instrument.market]).date()
            stated = quote.status if found.last["day"] <= day <= as_of else "trading"
        return status_given(reads.names.listing_date(found.instrument.symbol), as_of, stated) or stated

    def _flags(self, found: History, as_of: date, params: ZoneParams, reads: _Reads) -> list[Note]:
        """What to know about the zones' data, each said in either language (its English words start with its code:
        "no_bar: ...", as the JSON's flags have always read)."""
        last, flags = found.last, []
        day = last["day"]
        try:
            session = self._sessions(found.instrument.market, as_of, reads)[0]
            if day < session:
                flags.append(note("zone_flag.no_bar", session=session, day=day))
        except CalendarUnknown as error:
            message, _ = error_words(error, "zh")
            flags.append(note("zone_flag.calendar_unknown", message=error.message, message_zh=message))
        prev = last["prev_close"]
        if isinstance(prev, Decimal) and prev > 0:
            limits = self._limits(found, day, prev, reads)
            if limits.up is not None and last["close"] == limits.up:
                flags.append(note("zone_flag.closed_limit_up", day=day, price=limits.up))
            if limits.down is not None and last["close"] == limits.down:
                flags.append(note("zone_flag.closed_limit_down", day=day, price=limits.down))
        window = found.raw.tail(params.window)
        for ex_day, factor in ex_factors(window):
            flags.append(note("zone_flag.ex_rights", ex_day=ex_day, factor=f"{factor:.6f}", day=day))
        return flags

    # ---- sizing and states ------------------------------------------------------------------------------------------
    def _account_view(self, account: str, instrument: Instrument) -> AccountView:
        positions = self._ledger.positions(account)
        cash = self._ledger.balance(account).get(instrument.currency, Decimal("0.00"))
        held = next((p for p in positions if p.symbol == instrument.symbol), None)
        equity = cash
        for position in positions:
            if position.currency == instrument.currency and position.qty:
                equity += position.qty * self._last_close(position.symbol, position.avg_cost)
        settings = self._ledger.fee_settings(account, instrument.market, self._clock.now())
        return AccountView(account, instrument.currency, cash, equity, held.qty if held else 0,
                           held.sellable if held else 0, held.avg_cost if held else None, settings)  # fmt: skip

    def _last_close(self, symbol: str, fallback: Decimal | None) -> Decimal:
        today = self.today(self._market.registry.instrument(symbol).market)
        rows = self._data.cache.bars(symbol, start=today - timedelta(days=366), end=today)
        if rows.is_empty():
            return fallback or Decimal(0)
        value = rows.get_column("close")[-1]
        return Decimal(str(value))

    def size(
        self,
        account: str,
        symbol: str,
        side: str,
        entry: Decimal,
        stop: Decimal,
        *,
        risk_pct: Decimal | None = None,
        max_weight: Decimal | None = None,
        confirm_risk: bool = False,
    ) -> SizeResult:
        """Size an order for `account` (see stockbench.analytics.sizing): a Sizing, or the problems refusing it.
        `risk_pct` and `max_weight` are fractions (0.01 = 1%); a risk_pct above the sizing table's ceiling is refused
        unless `confirm_risk`."""
        instrument = self._market.registry.instrument(symbol)
        plan = plan_with_defaults(side, entry, stop, risk_pct=risk_pct, max_weight=max_weight, table=self.rules.sizing,
                                  confirm_risk=confirm_risk)  # fmt: skip
        book = self._account_view(self._ledger.account(account).name, instrument)
        day = self._sessions(instrument.market, self.today(instrument.market))[1]
        limits = None
        try:
            found = self.history(instrument.symbol)
            reads = _Reads(self._market.registry, self._market.calendars.calendar, {})
            limits = self._limits(found, day, Decimal(str(found.last["close"])), reads)
        except NotFound:
            pass
        quote = self._data.cache.latest_quote(instrument.symbol)
        stated: TradingStatus = quote.status if quote is not None else "trading"
        status = self._data.status_on(instrument.symbol, day, stated) or stated
        return size_order(instrument, plan, book, TradeDate(day, limits, status), self._market.tables)

    def position_facts(self, account: str, symbol: str, as_of: date | None = None) -> PositionFacts:
        """The ledger's quantity and sellable quantity of `symbol`, and where its price sits against the zones."""
        instrument = self._market.registry.instrument(symbol)
        held = next((p for p in self._ledger.positions(account) if p.symbol == instrument.symbol), None)
        try:
            zone = self.zones(instrument.symbol, as_of).position
        except UserError:
            zone = None
        return PositionFacts(held.qty if held else 0, held.sellable if held else 0, zone)

    def check_move(self, account: str, symbol: str, current: PositionState, target: PositionState) -> Transition:
        """Whether the position of `symbol` in `account` may move from `current` to `target` now."""
        return check_move(current, target, self.position_facts(account, symbol))

    # ---- scan -------------------------------------------------------------------------------------------------------
    def universe(self, which: Universe | Sequence[str]) -> list[str]:
        """The symbols to scan: every stock and fund of the workspace, the watchlist, or the given symbols."""
        if not isinstance(which, str):
            return [self._market.registry.instrument(s).symbol for s in which]
        if which == "watchlist":
            if not self._db.scalar("SELECT count(*) FROM information_schema.tables WHERE table_name = 'watchlist'"):
                raise user_error(InvalidInput, "scan_no_watchlist", options="--symbol A --symbol B")
            rows = self._db.fetchall("SELECT DISTINCT symbol FROM watchlist ORDER BY symbol")
        elif which == "all":
            rows = self._db.fetchall("SELECT symbol FROM instruments WHERE security_type <> 'index' ORDER BY symbol")
        else:
            raise user_error(InvalidInput, "scan_unknown_universe", universe=which, choices="all or watchlist")
        return [str(r[0]) for r in rows]

    def scan(
        self,
        universe: Universe | Sequence[str] = "all",
        as_of: date | None = None,
        top: int = 20,
        *,
        include_st: bool = False,
    ) -> ScanResult:
        """Screen the universe on `as_of` and rank a shortlist with reasons and names (no prices, no quantities);
        ST and *ST names (as of that session) are flagged and left off the shortlist unless `include_st`."""
        from stockbench.analytics.frames import bars_from_cache

        as_of = as_of or self.today()
        symbols = self.universe(universe)
        start = as_of - timedelta(days=load_zone_tables()["scan"].integer("calendar_days"))
        frame = bars_from_cache(self._data.cache, symbols, start, as_of)
        cache = self._data.cache
        history = _stack([(s, cache.valuation(s, end=as_of)) for s in symbols])
        valuation = screen_percentile(history, as_of) if history is not None else None
        sessions = None  # a universe beyond the mainland is judged on the days its own bars show
        if all(self._market.registry.instrument(s).market == "CN" for s in symbols):
            try:
                sessions = self._market.calendars.calendar("CN").sessions(start, self._sessions("CN", as_of)[0])
            except CalendarUnknown:
                sessions = None
        registry = self._market.registry
        names = {s: name for s in symbols if (name := registry.instrument(s).name)} | registry.names_on(symbols, as_of)
        found = run_scan(frame, as_of, top, valuation=valuation, sessions=sessions, book=self.rules, names=names,
                         include_st=include_st)  # fmt: skip
        return dataclasses.replace(found, shortlist=tuple(self._judged(p, as_of) for p in found.shortlist))

    def _judged(self, pick: Pick, as_of: date) -> Pick:
        try:
            return pick.with_setup(self.setup(pick.symbol, as_of))
        except UserError:  # no bars to judge it on: the pick stays unjudged
            return pick

    def setup(self, symbol: str, as_of: date | None = None) -> Setup:
        """The decision baseline's buy setup of `symbol` on its last session on or before `as_of`, from the facts
        research reads (the price facts' distances, return and turnover; the volatility state), judged by the same
        checks (analytics.baseline.setup_checks): unknown inputs are unknown, never a pass."""
        from stockbench.analytics.baseline import Heat, setup_of
        from stockbench.analytics.states import add_states, states_on

        found = self.history(symbol, as_of)
        facts = self._price_facts(found)
        frame = add_states(add_indicators(found.adjusted), self.rules)
        volatility = states_on(frame, facts.day, found.instrument.symbol, self.rules)["volatility"]["state"]
        heat = Heat.of(volatility, facts.as_dict())
        return setup_of(found.instrument.symbol, facts.day.isoformat(), heat, self.rules)


class Names(Protocol):
    """Where names and listing days are read: the registry (a query each) or a NameHistory read once."""

    def name_on(self, symbol: str, day: date) -> str | None: ...

    def listing_date(self, symbol: str) -> date | None: ...


@dataclass(frozen=True)
class _Reads:
    """What the zones of many symbols read once: their name history, the trading calendars (by market) and their
    latest quotes (the registry and the workspace's calendars themselves, a query each, where one symbol is read)."""

    names: Names
    calendars: Callable[[Market], TradingCalendar]
    quotes: Mapping[str, Quote]


def _history(instrument: Instrument, raw: pl.DataFrame, as_of: date) -> History:
    """The History of `instrument` from its unadjusted bars up to `as_of` (NotFound when there are none)."""
    if raw.is_empty():
        raise user_error(NotFound, "no_bars_stored", symbol=instrument.symbol, day=as_of,
                         imports="stockbench data import FILE",
                         fetch=f"stockbench data fetch {instrument.symbol}")  # fmt: skip
    casts = [pl.col(c).cast(t) for c, t in BAR_SCHEMA.items() if c != "symbol"]
    frame = adjusted(raw, "forward").select(pl.lit(instrument.symbol).alias("symbol"), *casts)
    return History(instrument, raw, frame)


def _stack(parts: Sequence[tuple[str, pl.DataFrame]]) -> pl.DataFrame | None:
    """Per-symbol frames stacked with a `symbol` column (None when all are empty)."""
    found = [frame.with_columns(symbol=pl.lit(symbol)) for symbol, frame in parts if not frame.is_empty()]
    return pl.concat(found, how="diagonal_relaxed") if found else None
