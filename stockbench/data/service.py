"""The data service the workbench exposes as `bench.data`: fetches (parallel, logged), imports, reads, gates.

Every read goes through the point-in-time cache; every fetch attempt, success or failure, is written to
`fetch_log` in real time. Per kind and market the endpoints of resources/data_sources.toml are asked in order
(as the user changed them, see stockbench.data.sources) and the next is tried when one fails; a host resting
after failures in a row is skipped, and said so. Live quotes are fetched only inside the trading window; a
stored quote older than the fresh-quote limit is labelled stale with its age, never shown as live. A fetch replayed
from a recording stores and logs what it answered at the time each answer was recorded (the fetch log naming the
recording), and leaves the endpoints' health alone.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

from stockbench.clock import Clock, Market, SystemClock
from stockbench.data import corroboration
from stockbench.data.cache import MarketDataCache, load_data_rules
from stockbench.data.crosscheck import Disagreement, PricePoint, Tolerances, compare, record
from stockbench.data.gates import (
    GATE_KINDS,
    FetchAttempt,
    GateContext,
    GateResult,
    TradingWindow,
    evaluate,
    gate_table,
    quote_label,
    trading_window,
)
from stockbench.data.importer import ImportFormat, ImportReport, import_path
from stockbench.data.indices import RebuildReport, rebuild
from stockbench.data.records import Adjust, Bar, DataKind, FetchFailure, Quote, TradingStatus
from stockbench.data.sources import Source, SourceBook
from stockbench.errors import CalendarUnknown, InvalidInput, UserError
from stockbench.events import EventBus, Progress
from stockbench.market.calendars import TradingCalendar
from stockbench.market.instruments import Instrument, identify
from stockbench.market.service import MarketRules
from stockbench.market.sessions import DayTrading
from stockbench.messages import user_error
from stockbench.store.database import Database
from stockbench.store.settings import SOURCE_PREFERENCE, Settings

if TYPE_CHECKING:
    import polars as pl

    from stockbench.data.http import HttpClient
    from stockbench.data.providers.base import Provider

log = logging.getLogger(__name__)
FETCH_KINDS: tuple[DataKind, ...] = ("quote", "bars", "money_flow", "valuation", "financials", "announcements")
ProgressHandler = Callable[[Progress], None]
_ATTEMPTS_READ = 200


@dataclass(frozen=True, slots=True)
class FetchOutcome:
    """One fetch attempt (or a skipped one): which source, how many rows were stored, or why it failed."""

    what: str
    source: str | None
    ok: bool
    rows: int = 0
    reason: str = ""
    failure: str | None = None  # FetchFailure.kind
    log: str | None = None  # the fetch_log reference
    skipped: bool = False
    at: datetime | None = None  # when it was asked (a replay: when its answer was recorded); None when skipped

    def as_dict(self) -> dict[str, object]:
        return {
            "what": self.what,
            "source": self.source,
            "ok": self.ok,
            "rows": self.rows,
            "reason": self.reason,
            "failure": self.failure,
            "log": self.log,
            "skipped": self.skipped,
            "fetched_at": self.at.isoformat() if self.at is not None else None,
        }


@dataclass(frozen=True, slots=True)
class QuoteView:
    """The price to show: a live quote inside the trading window, else the last session's close, labelled."""

    symbol: str
    label: Literal["live", "delayed", "stale", "last_close", "none"]
    price: Decimal | None
    prev_close: Decimal | None
    at: datetime | None  # a live quote's own time
    day: date | None  # the session the price belongs to
    source: str | None
    phase: str
    note: str = ""
    status: TradingStatus | None = None  # as the latest quote of that session says (None: no quote of it stored)
    delay_minutes: int = 0  # how late the live quote's source publishes
    age_seconds: int | None = None  # a live, delayed or stale quote's age at the clock
    corroboration: corroboration.Corroboration | None = None  # the live quote's cross-source tags, if checked


@dataclass(frozen=True, slots=True)
class CrossCheck:
    """Two services' views of one instrument and their disagreements (recorded in data_problems)."""

    symbol: str
    points: tuple[PricePoint, ...]
    disagreements: tuple[Disagreement, ...]
    outcomes: tuple[FetchOutcome, ...]


def _call(provider: Provider, what: DataKind, symbol: str, period: tuple[date, date] | None) -> list[Any]:
    if what == "quote":
        return [q for q in provider.quotes([symbol]) if q.symbol == symbol]
    if what in ("bars", "announcements"):
        if period is None:
            raise user_error(InvalidInput, "fetch_needs_period", what=what)
        method = provider.daily_bars if what == "bars" else provider.announcements
        return list(method(symbol, *period))
    methods: dict[str, Callable[[str], Sequence[Any]]] = {
        "money_flow": provider.money_flow,
        "valuation": provider.valuation_history,
        "financials": provider.financials,
    }
    return list(methods[what](symbol))


class DataService:
    """Market data for the workbench: fetching, the point-in-time cache, imports and data gates."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        market: MarketRules,
        providers: Mapping[str, Provider] | None = None,
        *,
        events: EventBus | None = None,
        http: HttpClient | None = None,
        now: Callable[[], datetime] | None = None,
        before_import: Callable[[], object] | None = None,
    ) -> None:
        """`before_import` runs before every import of market data (the workbench takes a backup there)."""
        self._db = db
        self._before_import = before_import
        self._clock = clock
        self._market = market
        self._injected = providers is not None
        self._providers = dict(providers) if providers is not None else None
        self._http: HttpClient | None = http
        self._own_http = http is None
        self._events = events
        self.sources = SourceBook(db, now)
        self._at: dict[tuple[str, tuple[tuple[str, str], ...]], Provider] = {}
        self.cache = MarketDataCache(db, clock)
        rules = load_data_rules()
        self._workers = int(rules["fetch"]["workers"])
        self._bars_lookback = timedelta(days=int(rules["fetch"]["bars_lookback_days"]))
        self._recorded: frozenset[str] = frozenset()  # the URLs a replayed recording answers (see use_recording)

    @property
    def providers(self) -> Mapping[str, Provider]:
        """The providers by name (by default every adapter of stockbench.data.providers, made on first use)."""
        if self._providers is None:
            from stockbench.data.http import HttpClient
            from stockbench.data.providers import default_providers

            if self._http is None:
                self._http = HttpClient()
            self._providers = dict(default_providers(self._http))
        return self._providers

    def use_recording(self, *, record: Path | None = None, replay: Path | None = None) -> None:
        """Record every HTTP exchange of the fetches into `record`, or answer them from the recording in
        `replay` with no network (see stockbench.data.recording); before the first fetch."""
        from stockbench.data.http import HttpClient
        from stockbench.data.recording import BadRecording, load

        try:
            client = HttpClient(record=record, replay=replay)
            recorded = frozenset(e.url for e in load(replay) if not e.error) if replay is not None else frozenset()
        except BadRecording as error:
            raise user_error(InvalidInput, "bad_recording", reason=str(error)) from None
        self.close()
        self._http, self._own_http, self._at, self._recorded = client, True, {}, recorded
        if not self._injected:
            self._providers = None

    def source_preference(self) -> tuple[str, ...]:
        """The data sources in the order reads prefer them (one source per series, never mixed)."""
        return self.cache.preference()

    def set_source_preference(self, order: Sequence[str]) -> None:
        """Prefer the sources in `order` from the next time the workspace opens."""
        Settings(self._db).set(SOURCE_PREFERENCE, list(order))

    def close(self) -> None:
        """Close the HTTP client of the default providers, if one was made."""
        if self._http is not None and self._own_http:
            self._http.close()
            self._http = None

    def instrument(self, symbol: str) -> Instrument:
        return self._market.registry.instrument(symbol)

    def window(self, symbol: str) -> TradingWindow:
        """The trading window of `symbol` at the clock (live quotes are fetched only inside it)."""
        return trading_window(self._market, self.instrument(symbol), self._clock)

    # ---- fetching -----------------------------------------------------------------------------------

    def _progress(self, handler: ProgressHandler | None, title: str, done: int, total: int) -> None:
        event = Progress(at=self._clock.now(), operation="data.fetch", title=title, done=done, total=total)
        if handler is not None:
            handler(event)
        if self._events is not None:
            self._events.publish(event)

    def _period(self, what: DataKind, symbol: str) -> tuple[date, date] | None:
        today = self.cache.cutoff(symbol).today
        if what == "bars":
            return today - self._bars_lookback, today
        if what == "announcements":
            return today - timedelta(days=int(gate_table()["announcements"]["lookback_days"])), today
        return None

    def _store(self, what: DataKind, records: list[Any], fetched_at: datetime) -> int:
        stores: dict[str, Callable[..., int]] = {
            "quote": self.cache.store_quotes,
            "bars": self.cache.store_bars,
            "money_flow": self.cache.store_money_flow,
            "valuation": self.cache.store_valuation,
            "financials": self.cache.store_financials,
            "announcements": self.cache.store_announcements,
        }
        return stores[what](records, fetched_at=fetched_at)

    @property
    def _replay(self) -> HttpClient | None:
        """The HTTP client answering from a recording, when the fetches are replayed (None: they are live)."""
        return self._http if self._http is not None and self._http.replaying else None

    def _replayed_at(self, started: datetime) -> datetime:
        """When a replayed attempt was asked in the recording: the earliest recorded exchange it was answered from,
        else (the recording lacks its request) when the recording was made; `started` when the fetch is live."""
        replay = self._replay
        if replay is None:
            return started
        return min(replay.replayed_times(), default=replay.recorded_at or started)

    def _log(self, attempt: FetchAttempt, url: str, status: int | None, elapsed_ms: int) -> None:
        with self._db.transaction() as cur:
            cur.execute(
                "INSERT INTO fetch_log (started_at, source, what, symbol, url, ok, status, failure, reason, "
                "elapsed_ms, rows, start_day, end_day, replay) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    attempt.started_at,
                    attempt.source,
                    attempt.what,
                    attempt.symbol,
                    url,
                    attempt.ok,
                    status,
                    attempt.failure,
                    attempt.reason,
                    elapsed_ms,
                    attempt.rows,
                    attempt.start_day,
                    attempt.end_day,
                    attempt.replay,
                ],
            )

    def _attempt(
        self, provider: Provider, what: DataKind, symbol: str, delay_minutes: int = 0
    ) -> tuple[FetchOutcome, list[Any]]:
        """Ask one provider for one kind of data, store what comes back, and log the attempt. A quote whose adapter
        states no delay carries the endpoint's declared `delay_minutes` (see resources/data_sources.toml)."""
        from stockbench.data.http import FetchError

        period = self._period(what, symbol)
        started = SystemClock().now()
        replay = self._replay
        if replay is not None:
            replay.replayed_times()  # forget what an earlier attempt on this thread was answered from
        clock = time.perf_counter()
        records: list[Any] = []
        failure: FetchFailure | None = None
        try:
            records = _call(provider, what, symbol, period)
            if what == "quote" and delay_minutes:
                records = [q if q.delay_minutes else dataclasses.replace(q, delay_minutes=delay_minutes)
                           for q in records]  # fmt: skip
            if what == "quote" and not records:  # other kinds may be genuinely empty (no announcements)
                failure = FetchFailure(provider.name, what, symbol, f"no quote for {symbol} in the answer", "empty")
        except FetchError as error:
            failure = error.failure
        except Exception as error:  # a bug in an adapter must not stop the other fetches; it is logged
            log.exception("%s %s for %s failed unexpectedly", provider.name, what, symbol)
            failure = FetchFailure(
                provider.name, what, symbol, f"internal error: {type(error).__name__}", "unparseable"
            )
        started = self._replayed_at(started)  # a replay stores what it answered as of the time it was recorded
        rows = 0 if failure else self._store(what, records, started)
        attempt = FetchAttempt(
            provider.name,
            what,
            symbol,
            started,
            failure is None,
            failure.kind if failure else None,
            failure.reason if failure else None,
            None if failure else rows,
            period[0] if period else None,
            period[1] if period else None,
            str(replay.replay_folder) if replay is not None else None,
        )
        self._log(attempt, failure.url if failure else "", failure.status if failure else None, _ms(clock))
        outcome = FetchOutcome(
            what, provider.name, failure is None, rows, attempt.reason or "", attempt.failure, attempt.ref, at=started
        )
        return outcome, records if failure is None else []

    def _provider_for(self, source: Source) -> Provider | None:
        """The provider asking `source`'s URLs: the named adapter with its endpoint fields at the source's base
        URL (an injected adapter as it is, unless the user gave the endpoint another base URL)."""
        base = self.providers.get(source.endpoint.provider)
        if base is None or not base.supports(source.endpoint.kind):
            return None
        endpoints = getattr(base, "endpoints", None)
        moved = source.base_url != source.endpoint.base_url
        if (self._injected and not moved) or endpoints is None or not dataclasses.is_dataclass(endpoints):
            return base
        key = (source.name, tuple(sorted(source.urls().items())))
        if key not in self._at:
            fields = {f: u for f, u in source.urls().items() if hasattr(endpoints, f)}
            at = dataclasses.replace(cast("Any", endpoints), **fields)
            self._at[key] = cast("Any", type(base))(cast("Any", base).http, at)
        return self._at[key]

    def _route(self, what: DataKind, symbol: str) -> list[tuple[Source, Provider]]:
        """The endpoints for `what` of `symbol`'s market in order, each with its provider (an adapter reached
        twice through the same URLs is asked once)."""
        chosen: list[tuple[Source, Provider]] = []
        for source in self.sources.chain(what, self.instrument(symbol).market):
            provider = self._provider_for(source)
            if provider is not None and all(provider is not p for _, p in chosen):
                chosen.append((source, provider))
        return chosen

    def _ask(self, source: Source, provider: Provider, what: DataKind, symbol: str) -> tuple[FetchOutcome, list[Any]]:
        """One attempt through one endpoint, its health recorded (a host resting is not asked: skipped). A replay
        neither reads nor writes the endpoints' health: it asks what the recording holds, and what it answers says
        nothing of how the services are doing now."""
        if self._replay is not None:
            return self._attempt(provider, what, symbol, source.endpoint.delay_minutes)
        until = self.sources.resting_until(source)
        if until is not None:
            reason = f"{source.name}: {source.host} rests until {until.isoformat()} after failures in a row"
            return FetchOutcome(what, provider.name, False, reason=reason, skipped=True), []
        outcome, records = self._attempt(provider, what, symbol, source.endpoint.delay_minutes)
        if outcome.ok:
            self.sources.succeeded(source)
        elif outcome.failure:
            self.sources.failed(source, outcome.failure, outcome.reason)
        return outcome, records

    def _replay_answers(self, what: DataKind, symbol: str) -> bool:
        """Whether the replayed recording holds an answer of one of `what`'s endpoints for `symbol`'s market (then
        the replay answers what was recorded, whatever the clock)."""
        if not self._recorded:
            return False
        bases = [u for s in self.sources.chain(what, self.instrument(symbol).market) for u in s.urls().values()]
        return any(url.startswith(base) for url in self._recorded for base in bases)

    def _fetch_kind(self, symbol: str, what: DataKind, window: TradingWindow) -> list[FetchOutcome]:
        if what == "quote" and not window.live_allowed and not self._replay_answers(what, symbol):
            why = window.problem or f"no live quote outside the trading window ({window.phase})"
            if self._clock.is_replay and window.in_session:
                why = "no live quote for a replay clock"
            return [FetchOutcome(what, None, False, reason=f"{why}; the last close is used", skipped=True)]
        outcomes = []
        route = self._route(what, symbol)
        for index, (source, provider) in enumerate(route):
            outcome, records = self._ask(source, provider, what, symbol)
            outcomes.append(outcome)
            if outcome.ok:
                if what == "quote" and corroboration.at_fetch():
                    at = outcome.at if self._replay is not None else None  # live: checked now
                    outcomes += self._corroborate(records[0], route[index + 1 :], symbol, at)
                break
        if not outcomes:
            outcomes.append(FetchOutcome(what, None, False, reason=f"no provider offers {what}", skipped=True))
        return outcomes

    def _corroborate(
        self, kept: Quote, rest: Sequence[tuple[Source, Provider]], symbol: str, at: datetime | None
    ) -> list[FetchOutcome]:
        """Ask the next quote service of another provider for the same instrument, tag `kept`'s values against
        its answer (single_source when none answers) and record conflicts as data problems, checked `at` (a replay:
        when `kept`'s answer was recorded; None: now)."""
        outcomes: list[FetchOutcome] = []
        other: Quote | None = None
        for source, provider in rest:
            resting = self._replay is None and self.sources.resting_until(source) is not None
            if provider.name == kept.source or resting:
                continue
            outcome, records = self._ask(source, provider, "quote", symbol)
            outcomes.append(outcome)
            if outcome.ok:
                other = records[0]
            break
        today = self.cache.cutoff(symbol).today
        corroboration.store(self._db, corroboration.corroborate(kept, other), today, at=at)
        if other is not None:  # the second quote is stored too (it may be the latest): it carries the same tags
            corroboration.store(self._db, corroboration.corroborate(other, kept), today, record_problems=False, at=at)
        return outcomes

    def fetch(
        self, symbol: str, what: Iterable[DataKind] = FETCH_KINDS, progress: ProgressHandler | None = None
    ) -> list[FetchOutcome]:
        """Fetch the kinds `what` of `symbol` in parallel (one thread per kind; the sources of a kind in
        route order until one succeeds) and store them. `progress` is called from the worker threads."""
        kinds = list(dict.fromkeys(what))
        unknown = [k for k in kinds if k not in FETCH_KINDS]
        if unknown:
            raise user_error(
                InvalidInput, "unknown_data_kinds", kinds=", ".join(unknown), choices=", ".join(FETCH_KINDS)
            )
        symbol = self.instrument(symbol).symbol
        window = self.window(symbol)
        done: list[FetchOutcome] = []

        def one(kind: DataKind) -> list[FetchOutcome]:
            found = self._fetch_kind(symbol, kind, window)
            done.extend(found)
            last = found[-1]
            state = f"{last.rows} rows from {last.source}" if last.ok else f"failed: {last.reason}"
            self._progress(progress, f"{kind} of {symbol}: {state}", len({o.what for o in done}), len(kinds))
            return found

        self._progress(progress, f"fetching {', '.join(kinds)} of {symbol}", 0, len(kinds))
        with ThreadPoolExecutor(max_workers=max(1, min(self._workers, len(kinds)))) as pool:
            results = list(pool.map(one, kinds))
        return [outcome for found in results for outcome in found]

    # ---- imports and reads ----------------------------------------------------------------------------

    def import_file(self, path: str | Path, fmt: ImportFormat = "auto") -> ImportReport:
        """Import a community or generic file (or a folder of them) into the cache; see stockbench.data.importer."""
        return import_path(self.cache, self._db, Path(path), fmt, before=self._before_import)

    def rebuild_indices(self) -> RebuildReport:
        """Rebuild the program's own indices from every stored stock (see stockbench.data.indices)."""
        return rebuild(self._db, self.cache)

    def bars(
        self,
        symbol: str,
        start: date | None = None,
        end: date | None = None,
        adjust: Adjust = "none",
        source: str | None = None,
    ) -> pl.DataFrame:
        """Daily bars of one source as visible at the clock (see MarketDataCache.bars)."""
        return self.cache.bars(self.instrument(symbol).symbol, start, end, adjust, source)

    def _last_close(self, symbol: str, window: TradingWindow) -> Bar | None:
        target = window.last_session
        if target is None:
            return None
        recent = self.cache.bars(symbol, target - timedelta(days=31), target)
        if recent.is_empty():
            return None
        row = recent.row(-1, named=True)
        return Bar(symbol, row["day"], row["open"], row["high"], row["low"], row["close"], row["prev_close"],
                   row["volume"], row["amount"], row["source"])  # fmt: skip

    def status_on(self, symbol: str, day: date, stated: TradingStatus | None = None) -> TradingStatus | None:
        """The trading status of `symbol` on `day`: `not_listed` when the workspace knows it lists after that day
        (its listing date in the instrument data, see InstrumentRegistry.listing_date), whatever a stored quote or
        bar says; else `stated`, the status its source's quote gives (None: no quote of that day)."""
        return status_given(self._market.registry.listing_date(symbol), day, stated)

    def traded_on(self, symbol: str, day: date) -> bool | None:
        """Whether the stored daily bars say `symbol` traded on `day`, as visible at the clock: False when `day` is a
        session of its exchange's calendar and its bars, stored before and after that day, have none on it
        (suspended) or one with no volume; True when a bar with volume is stored; None when they cannot tell (no
        bars on both sides of it, not a session, or the calendar unknown): unknown is not evidence of a suspension."""
        instrument = self.instrument(symbol)
        try:
            if not self._market.calendars.calendar(instrument.market).is_session(day):
                return None
        except (CalendarUnknown, InvalidInput):
            return None
        found = self.cache.bars(instrument.symbol, day, day)
        if not found.is_empty():
            return int(found.get_column("volume")[0] or 0) > 0
        spans = self.cache.coverage("bars", instrument.symbol)
        return False if any(span.first < day < span.last for span in spans) else None

    def trading_on(self, symbol: str, day: date) -> DayTrading | None:
        """How `symbol`'s session `day` went, as the stored data visible at the clock says: `traded` when a daily bar
        with volume is stored for it (a name halted after it traded that day did trade); else `suspended` or
        `delisted` when the latest stored quote of that day says so (today's bars are not in yet, but the quote is);
        else `not_traded` when its daily bars say it did not (see traded_on); None when nothing tells."""
        traded = self.traded_on(symbol, day)
        if traded:
            return "traded"
        stored = self.cache.latest_quote(self.instrument(symbol).symbol, on=day)
        if stored is not None and stored.status in ("suspended", "delisted"):
            return "suspended" if stored.status == "suspended" else "delisted"
        return None if traded is None else "not_traded"

    def quote(self, symbol: str, *, fetch: bool = True) -> QuoteView:
        """A live quote inside the trading window (fetched when allowed), else the last close, labelled; a symbol
        not listed yet at the clock is `not_listed` (so is a stored quote or close of a day before its listing date),
        and nothing is fetched for it."""
        symbol = self.instrument(symbol).symbol
        window = self.window(symbol)
        unlisted = self.status_on(symbol, self.cache.cutoff(symbol).today)  # not_listed, or None
        fetch = fetch and unlisted is None
        why = f"not listed yet: it lists on {self._market.registry.listing_date(symbol)}" if unlisted else ""
        if window.in_session:
            if fetch and window.live_allowed:
                self.fetch(symbol, ["quote"])
            found = self.cache.latest_quote(symbol)
            if found is not None:
                return self._live_view(found, window)
            why = why or "no quote could be had"
            return QuoteView(symbol, "none", None, None, None, None, None, window.phase, why, unlisted)
        last = self._last_close(symbol, window)
        if fetch and (last is None or last.day != window.last_session) and window.last_session is not None:
            self.fetch(symbol, ["bars"])
            last = self._last_close(symbol, window)
        if last is None:
            why = why or window.problem or "no close is stored; import or fetch daily bars"
            return QuoteView(symbol, "none", None, None, None, None, None, window.phase, why, unlisted)
        note = "" if last.day == window.last_session else f"the last session was {window.last_session}"
        stored = self.cache.latest_quote(symbol)
        status = stored.status if stored is not None and stored.at.date() == last.day else None
        return QuoteView(symbol, "last_close", last.close, last.prev_close, None, last.day, last.source,
                         window.phase, note, self.status_on(symbol, last.day, status))  # fmt: skip

    def stored_quotes(self, symbols: Sequence[str]) -> dict[str, QuoteView | UserError]:
        """`quote(symbol, fetch=False)` of each of `symbols`, or the error it raises for that symbol, read together:
        their instruments, listing dates, stored quotes and last closes in a few queries, each calendar once (each
        equal to the symbol's quote alone; a watchlist had read them one symbol at a time, about 18 ms each)."""
        result: dict[str, QuoteView | UserError] = {}
        known: dict[str, str] = {}  # the symbol as given -> its canonical symbol
        for text in dict.fromkeys(symbols):
            try:
                known[text] = identify(text).instrument.symbol  # as `quote` resolves it, without a query each
            except UserError as error:
                result[text] = error
        registry = self._market.registry
        instruments = registry.instruments(list(dict.fromkeys(known.values())))
        listed = registry.names(list(instruments.values()))
        quotes = self.cache.latest_quotes(list(instruments))
        rules = _CalendarsOnce(self._market)
        windows = {s: trading_window(rules, i, self._clock) for s, i in instruments.items()}  # type: ignore[arg-type]
        closes = self._last_closes(windows)
        views = {s: self._stored_view(s, windows[s], listed.listing_date(s), quotes.get(s), closes.get(s))
                 for s in instruments}  # fmt: skip
        return {text: result[text] if text in result else views[known[text]] for text in dict.fromkeys(symbols)}

    def _last_closes(self, windows: Mapping[str, TradingWindow]) -> dict[str, Bar]:
        """`_last_close` of each symbol in its window, one read per last session (a market's symbols share it)."""
        by_session: dict[date, list[str]] = {}
        for symbol, window in windows.items():
            if window.last_session is not None and not window.in_session:
                by_session.setdefault(window.last_session, []).append(symbol)
        found: dict[str, Bar] = {}
        for target, group in by_session.items():
            for symbol, recent in self.cache.bars_many(group, target, target - timedelta(days=31)).items():
                if not recent.is_empty():
                    row = recent.row(-1, named=True)
                    found[symbol] = Bar(symbol, row["day"], row["open"], row["high"], row["low"], row["close"],
                                        row["prev_close"], row["volume"], row["amount"], row["source"])  # fmt: skip
        return found

    def _stored_view(
        self, symbol: str, window: TradingWindow, listing: date | None, stored: Quote | None, last: Bar | None
    ) -> QuoteView:
        """What `quote(symbol, fetch=False)` answers, from what `stored_quotes` read."""
        unlisted = status_given(listing, self.cache.cutoff(symbol).today, None)
        why = f"not listed yet: it lists on {listing}" if unlisted else ""
        if window.in_session:
            if stored is not None:
                return self._live_view(stored, window)
            return QuoteView(symbol, "none", None, None, None, None, None, window.phase,
                             why or "no quote could be had", unlisted)  # fmt: skip
        if last is None:
            why = why or window.problem or "no close is stored; import or fetch daily bars"
            return QuoteView(symbol, "none", None, None, None, None, None, window.phase, why, unlisted)
        note = "" if last.day == window.last_session else f"the last session was {window.last_session}"
        status = stored.status if stored is not None and stored.at.date() == last.day else None
        return QuoteView(symbol, "last_close", last.close, last.prev_close, None, last.day, last.source,
                         window.phase, note, status_given(listing, last.day, status))  # fmt: skip

    def _live_view(self, found: Quote, window: TradingWindow) -> QuoteView:
        """A stored quote inside the window: live, delayed (its source publishes late, said with the minutes), or
        stale with its age when it lags the clock by more than the fresh-quote limit beyond its source's delay (the
        last good value, never passed off as live)."""
        now = self.cache.cutoff(found.symbol).now
        age = int((now - found.at).total_seconds())
        limit = timedelta(minutes=int(gate_table()["fresh_quote"]["max_age_minutes"]))
        label: Literal["live", "delayed", "stale"] = quote_label(found)
        note = f"delayed: {found.source} quotes are {found.delay_minutes} minutes late" if found.delay_minutes else ""
        if found.late(now) > limit:
            label, note = "stale", f"stale: the last good quote, {age // 60} minutes old; no source gave a fresh one"
        status = self.status_on(found.symbol, found.at.date(), found.status)
        return QuoteView(found.symbol, label, found.last, found.prev_close, found.at, found.at.date(), found.source,
                         window.phase, note, status, found.delay_minutes, age_seconds=age,
                         corroboration=corroboration.read(self._db, found))  # fmt: skip

    # ---- gates and checks -------------------------------------------------------------------------------

    def attempts(self, symbol: str) -> tuple[FetchAttempt, ...]:
        """The recent fetch attempts for `symbol`, newest first."""
        rows = self._db.fetchall(
            "SELECT source, what, symbol, started_at, ok, failure, reason, rows, start_day, end_day, replay"
            " FROM fetch_log"
            " WHERE symbol = ? ORDER BY started_at DESC LIMIT ?",
            [symbol, _ATTEMPTS_READ],
        )
        return tuple(FetchAttempt(*row) for row in rows)

    def _context(self, instrument: Instrument) -> GateContext:
        window = trading_window(self._market, instrument, self._clock)
        try:
            calendar = self._market.calendars.calendar(instrument.market)
        except (CalendarUnknown, InvalidInput):
            calendar = None
        return GateContext(
            instrument.symbol,
            instrument,
            self.cache,
            window,
            calendar,
            self.attempts(instrument.symbol),
            SystemClock().now(),
            gate_table(),
            lambda quote: corroboration.read(self._db, quote),
        )

    def _gap_kinds(self, results: Sequence[GateResult], window: TradingWindow) -> list[DataKind]:
        kinds: list[DataKind] = []
        for result in results:
            if result.status != "gap" or result.code == "not_listed":  # nothing to fetch before the listing date
                continue
            kind = GATE_KINDS[result.name]
            if kind == "quote" and not window.live_allowed:
                if window.in_session or window.last_session is None:
                    continue
                kind = "bars"  # outside the window the last close comes from the daily bars
            kinds.append(kind)
        return list(dict.fromkeys(kinds))

    def gates(self, symbol: str, *, fetch: bool = True, progress: ProgressHandler | None = None) -> list[GateResult]:
        """Evaluate the data gates of `symbol`; with `fetch`, fetch (in parallel) what the gaps need and
        evaluate again."""
        instrument = self.instrument(symbol)
        context = self._context(instrument)
        results = evaluate(context)
        if fetch:
            kinds = self._gap_kinds(results, context.window)
            if kinds:
                self.fetch(instrument.symbol, kinds, progress)
                results = evaluate(self._context(instrument))
        return results

    def _points(self, symbol: str, window: TradingWindow) -> tuple[list[PricePoint], list[FetchOutcome]]:
        what: DataKind = "quote" if window.live_allowed else "bars"
        route = [(s, p) for s, p in self._route(what, symbol)
                 if self._replay is not None or self.sources.resting_until(s) is None][:2]  # fmt: skip
        with ThreadPoolExecutor(max_workers=2) as pool:
            found = list(pool.map(lambda pair: self._ask(pair[0], pair[1], what, symbol), route))
        outcomes = [outcome for outcome, _ in found]
        if what == "quote":
            return [
                PricePoint.of_quote(q) for _, records in found for q in records[:1] if isinstance(q, Quote)
            ], outcomes
        latest = [max(records, key=lambda b: b.day) for _, records in found if records]
        common = min((b.day for b in latest), default=None)
        points = [
            PricePoint.of_bar(b) for _, records in found for b in records if isinstance(b, Bar) and b.day == common
        ]
        return points, outcomes

    def crosscheck(self, symbol: str) -> CrossCheck:
        """Compare the last price and previous close from two services (live quotes inside the trading
        window, else the latest common daily bar) and record disagreements beyond the tolerances."""
        symbol = self.instrument(symbol).symbol
        points, outcomes = self._points(symbol, self.window(symbol))
        found: list[Disagreement] = []
        if len(points) >= 2:
            found = compare(symbol, points[0], points[1], Tolerances.from_table())
            asked = min((o.at for o in outcomes if o.at is not None), default=None) if self._replay else None
            record(self._db, found, self.cache.cutoff(symbol).today, at=asked)
        return CrossCheck(symbol, tuple(points), tuple(found), tuple(outcomes))


def _ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)


def status_given(listed: date | None, day: date, stated: TradingStatus | None) -> TradingStatus | None:
    """`DataService.status_on` from the listing day: `not_listed` before it, else the quote's `stated` status."""
    return "not_listed" if listed is not None and day < listed else stated


class _CalendarsOnce:
    """The market rules with each market's calendar read once (for many symbols' trading windows at a time)."""

    def __init__(self, rules: MarketRules) -> None:
        self.tables = rules.tables
        self.calendars = self
        self._calendar = functools.cache(rules.calendars.calendar)

    def calendar(self, market: Market) -> TradingCalendar:
        return self._calendar(market)
