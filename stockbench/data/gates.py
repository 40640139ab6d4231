"""Data gates: the checklist evaluated before research, each answering pass or gap with its reason and evidence.

Thresholds live in resources/data_gates.toml (`[gates.*]`), which the handbook quotes. A gate is a pure
function of a `GateContext`: what the point-in-time cache shows at the clock, the instrument's trading
window, and the recent fetch attempts. Fetching is the data service's job; this module also decides the
live-quote windows (any session phase but "closed"; never for a replay clock).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any, Literal

from stockbench.clock import MARKET_TZ, Clock, Market
from stockbench.data.cache import Coverage, MarketDataCache, load_data_rules
from stockbench.data.corroboration import Corroboration
from stockbench.data.records import DataKind, Quote
from stockbench.errors import CalendarUnknown, InternalError, InvalidInput
from stockbench.market.calendars import TradingCalendar
from stockbench.market.instruments import Instrument, rule_board
from stockbench.market.service import MarketRules
from stockbench.market.sessions import phase_at
from stockbench.market.tables import RuleTables, in_force
from stockbench.messages import user_error

GateStatus = Literal["pass", "gap"]
PROBLEM = "source_disagreement"
GATE_NAMES = ("fresh_quote", "daily_bars", "financials", "announcements", "money_flow", "valuation_history")
_CENT = Decimal("0.01")
# What the data service fetches when a gate is a gap (a closed market's last close comes from bars).
GATE_KINDS: dict[str, DataKind] = {
    "fresh_quote": "quote",
    "daily_bars": "bars",
    "financials": "financials",
    "announcements": "announcements",
    "money_flow": "money_flow",
    "valuation_history": "valuation",
}


@dataclass(frozen=True, slots=True)
class GateResult:
    """One gate's answer. `evidence` names what it read or fetched; `exception_allowed` is True only where
    the rules let the gap be recorded as an exception (money flow: every listed source actually failed);
    `label` says what a quote is ("live", "delayed" or "last_close"). `code` names the reason (a stable code, e.g.
    "stale", "fetch_failed") and `values` its figures as shown, so a report words it in its own language
    (`reason` is the English text the model and the logs read)."""

    name: str
    status: GateStatus
    reason: str
    evidence: tuple[str, ...] = ()
    exception_allowed: bool = False
    label: str | None = None
    code: str = ""
    values: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        data: dict[str, object] = {
            "name": self.name,
            "status": self.status,
            "reason": self.reason,
            "evidence": list(self.evidence),
            "exception_allowed": self.exception_allowed,
            "code": self.code,
            "values": dict(self.values),
        }
        if self.label:
            data["label"] = self.label
        return data


@dataclass(frozen=True, slots=True)
class FetchAttempt:
    """One row of the fetch log: who was asked for what, when (real time; a replayed fetch: when the answer it
    replayed was recorded), and how it ended."""

    source: str
    what: str
    symbol: str
    started_at: datetime
    ok: bool
    failure: str | None = None
    reason: str | None = None
    rows: int | None = None
    start_day: date | None = None
    end_day: date | None = None
    replay: str | None = None  # the recording folder a replayed fetch answered from (None: asked live)

    @property
    def ref(self) -> str:
        """A stable identifier of this attempt, for evidence lists."""
        return f"fetch_log:{self.source}:{self.what}:{self.symbol}:{self.started_at.isoformat()}"


@dataclass(frozen=True, slots=True)
class TradingWindow:
    """Whether an instrument's exchange is trading at the clock, and which session's close is the last close.

    `in_session`: any phase but "closed" (the lunch break included: the quote then is the morning's last
    price). `live_allowed`: in session and the clock is real (a replay never fetches live quotes).
    `last_session`: the latest session whose trading has ended (None when unknown, with `problem` saying why).
    """

    market: Market
    phase: str
    in_session: bool
    live_allowed: bool
    last_session: date | None
    problem: str = ""


def _first_start(tables: RuleTables, instrument: Instrument, board: str, day: date, half: bool) -> time | None:
    rows = [
        t
        for t in in_force(tables.sessions, day)
        if t.market == instrument.market
        and instrument.exchange.value in t.exchanges
        and board in t.boards
        and t.half_day == half
    ]
    return min((p.start for t in rows for p in t.phases), default=None)


def trading_window(rules: MarketRules, instrument: Instrument, clock: Clock) -> TradingWindow:
    """The trading window of `instrument` at the clock (read from the session tables and the calendar)."""
    market = instrument.market
    board = rule_board(instrument)
    try:
        calendar = rules.calendars.calendar(market)
        state = phase_at(market, clock.now(), calendar, rules.tables, exchange=instrument.exchange.value, board=board)
        local = state.local
        if state.phase != "closed":
            return TradingWindow(
                market, state.phase, True, not clock.is_replay, calendar.previous_session(local.date())
            )
        start = _first_start(rules.tables, instrument, board, local.date(), state.half_day)
        started = state.trading_day and start is not None and local.time() >= start
        last = local.date() if started else calendar.previous_session(local.date())
        return TradingWindow(market, state.phase, False, False, last)
    except (CalendarUnknown, InvalidInput) as error:
        return TradingWindow(market, "unknown", False, False, None, error.message)


@dataclass(frozen=True)
class GateContext:
    """Everything the gates read: the cache at the clock, the window, and the recent fetch attempts."""

    symbol: str
    instrument: Instrument
    cache: MarketDataCache
    window: TradingWindow
    calendar: TradingCalendar | None
    attempts: tuple[FetchAttempt, ...]  # newest first
    wall_now: datetime  # real time: fetch attempts are stamped in real time
    table: Mapping[str, Any]
    tags: Callable[[Quote], Corroboration | None] = field(default=lambda quote: None)  # a quote's cross-source tags

    def threshold(self, gate: str, key: str) -> Any:
        try:
            return self.table[gate][key]
        except KeyError:
            raise InternalError(f"the data gate table has no {gate}.{key}") from None


def gate_table() -> Mapping[str, Any]:
    """The `[gates]` table of resources/data_gates.toml."""
    return load_data_rules()["gates"]  # type: ignore[no-any-return]


def definitions() -> list[dict[str, Any]]:
    """Each gate's name, title, rule text and thresholds, in evaluation order (for the handbook and the CLI)."""
    table = gate_table()
    return [
        {
            "name": name,
            "title": table[name]["title"],
            "rule": table[name]["rule"],
            "applies_to": table[name]["applies_to"],
            "thresholds": {k: v for k, v in table[name].items() if k not in {"title", "rule", "applies_to"}},
        }
        for name in GATE_NAMES
    ]


def _span(kind: str, symbol: str, first: object, last: object, source: str) -> str:
    return f"{kind}:{symbol}:{first}..{last}:{source}"


def _lag(ctx: GateContext, last_day: date) -> int | None:
    """Sessions from the day after `last_day` through the last completed session (None: unknown)."""
    target = ctx.window.last_session
    if target is None or ctx.calendar is None:
        return None
    if last_day >= target:
        return 0
    try:
        return ctx.calendar.count_sessions(last_day + timedelta(days=1), target)
    except CalendarUnknown:
        return None


_NOUNS = {"bars": "daily bars", "money_flow": "days of money flow", "valuation": "days of valuation history"}


def price_text(value: Decimal) -> str:
    """A price as text with at least two decimals (2092.00, 3.456)."""
    normal = value.normalize()
    exponent = normal.as_tuple().exponent
    return format(value.quantize(_CENT) if not isinstance(exponent, int) or exponent > -2 else normal, "f")


def _series_gate(ctx: GateContext, name: str, kind: str, covered: list[Coverage], minimum: int) -> GateResult:
    noun = _NOUNS[kind]
    if not covered:
        return GateResult(name, "gap", f"no {noun} are stored for {ctx.symbol}", code="none")
    c = covered[0]
    evidence = (_span(kind, ctx.symbol, c.first, c.last, c.source),)
    summary = f"{c.rows} {noun} from {c.source} ({c.first}..{c.last})"
    shown = {"rows": c.rows, "source": c.source, "first": str(c.first), "last": str(c.last)}
    if c.rows < minimum:
        listed = ctx.instrument.list_date
        young = f"; listed on {listed}, so no more exist yet" if listed and c.first <= listed else ""
        figures = {**shown, "minimum": minimum, **({"listed": str(listed)} if young else {})}
        return GateResult(name, "gap", f"{summary}; at least {minimum} are needed{young}", evidence, code="too_few",
                          values=figures)  # fmt: skip
    lag = _lag(ctx, c.last)
    allowed = int(ctx.threshold(name, "max_lag_sessions"))
    if lag is None:
        problem = ctx.window.problem or "the trading calendar is unknown"
        return GateResult(name, "gap", f"{summary}; cannot tell whether it is current: {problem}", evidence,
                          code="currency_unknown", values=shown)  # fmt: skip
    if lag > allowed:
        stale = f"the latest is {lag} sessions behind the last session {ctx.window.last_session}"
        figures = {**shown, "lag": lag, "session": str(ctx.window.last_session), "allowed": allowed}
        return GateResult(name, "gap", f"{summary}; {stale} (at most {allowed} allowed)", evidence, code="stale",
                          values=figures)  # fmt: skip
    return GateResult(name, "pass", summary, evidence, code="current", values=shown)


def daily_bars(ctx: GateContext) -> GateResult:
    """At least min_bars daily bars from one source, current to within max_lag_sessions."""
    minimum = int(ctx.threshold("daily_bars", "min_bars"))
    return _series_gate(ctx, "daily_bars", "bars", ctx.cache.coverage("bars", ctx.symbol), minimum)


def valuation_history(ctx: GateContext) -> GateResult:
    """At least min_days of valuation history from one source; never replaced with other data."""
    minimum = int(ctx.threshold("valuation_history", "min_days"))
    found = _series_gate(ctx, "valuation_history", "valuation", ctx.cache.coverage("valuation", ctx.symbol), minimum)
    if found.status == "gap":
        reason = f"{found.reason} (it cannot be replaced with other data)"
        return GateResult(found.name, "gap", reason, found.evidence, code=found.code, values=found.values)
    return found


def _last_close(ctx: GateContext) -> GateResult:
    target = ctx.window.last_session
    if target is None:
        problem = ctx.window.problem or "the trading calendar is unknown"
        return GateResult("fresh_quote", "gap", f"cannot tell the last session of {ctx.symbol}: {problem}",
                          code="session_unknown")  # fmt: skip
    recent = ctx.cache.bars(ctx.symbol, target - timedelta(days=31), target)
    if recent.is_empty():
        return GateResult("fresh_quote", "gap", f"market closed; no close of {ctx.symbol} up to {target} is stored",
                          code="no_close", values={"session": str(target)})  # fmt: skip
    day, close, source = recent.select("day", "close", "source").row(-1)
    evidence = (_span("bars", ctx.symbol, day, day, source),)
    shown = {"price": price_text(close), "day": str(day), "source": source}
    if day != target:
        stored = f"the last close stored is {price_text(close)} of {day}"
        reason = f"market closed; {stored}, but the last session was {target}"
        return GateResult("fresh_quote", "gap", reason, evidence, label="last_close", code="close_stale",
                          values={**shown, "session": str(target)})  # fmt: skip
    reason = f"market closed; last close {price_text(close)} on {day} from {source}"
    return GateResult("fresh_quote", "pass", reason, evidence, label="last_close", code="last_close", values=shown)


def fresh_quote(ctx: GateContext) -> GateResult:
    """In the trading window, a quote at most max_age_minutes old; outside it, the last session's close. Before the
    instrument's listing date (the instrument data's list_date) there is no price at all: `not_listed`."""
    listed, today = ctx.instrument.list_date, ctx.cache.cutoff(ctx.symbol).today
    if listed is not None and today < listed:  # whatever a stored line or the session says: it does not trade yet
        return GateResult("fresh_quote", "gap", f"{ctx.symbol} is not listed yet on {today}: it lists on {listed}",
                          (f"instruments:{ctx.symbol}:list_date:{listed}",), code="not_listed",
                          values={"day": str(today), "listed": str(listed)})  # fmt: skip
    if ctx.window.problem:
        return GateResult("fresh_quote", "gap", f"the session state of {ctx.symbol} is unknown: {ctx.window.problem}",
                          code="session_unknown")  # fmt: skip
    if not ctx.window.in_session:
        return _last_close(ctx)
    limit = int(ctx.threshold("fresh_quote", "max_age_minutes"))
    quote = ctx.cache.latest_quote(ctx.symbol)
    if quote is None:
        return GateResult("fresh_quote", "gap", f"the market is open ({ctx.window.phase}) and no quote is stored",
                          code="no_quote")  # fmt: skip
    now = ctx.cache.cutoff(ctx.symbol).now
    age, late = (now - quote.at).total_seconds() / 60, quote.late(now).total_seconds() / 60
    label = quote_label(quote)
    evidence = (f"quote:{ctx.symbol}:{quote.at.isoformat()}:{quote.source}",)
    taken = f"{quote.at:%Y-%m-%d %H:%M:%S} from {quote.source}"
    summary = f"last {price_text(quote.last)} at {taken}, {age:.1f} minutes old"
    shown: dict[str, Any] = {"price": price_text(quote.last), "at": quote.at.isoformat(), "source": quote.source,
                             "age": f"{age:.1f}"}  # fmt: skip
    if quote.delay_minutes:  # a delayed source's quote is judged by how far it lags beyond its delay
        summary += f" ({late:.1f} beyond its source's delay of {quote.delay_minutes} minutes)"
        shown |= {"delay": quote.delay_minutes, "late": f"{late:.1f}"}
    if quote.status != "trading":  # a suspended or delisted name has no price to act on, however fresh the line
        return GateResult("fresh_quote", "gap", f"{summary}; the quote says {ctx.symbol} is {quote.status}", evidence,
                          label=label, code="halted", values={**shown, "status": quote.status})  # fmt: skip
    if late > limit:
        return GateResult("fresh_quote", "gap", f"{summary}; at most {limit} allowed", evidence, label=label,
                          code="quote_stale", values={**shown, "limit": limit})  # fmt: skip
    tags = ctx.tags(quote)
    conflict = next(iter(tags.conflicts() if tags else ()), None)  # a price before the volume (FIELDS' order)
    if conflict is not None:  # both values are disclosed; neither is chosen, nothing is averaged
        code = "volume_conflicting" if conflict.field == "volume" else "conflicting"
        (a, b), (va, vb) = conflict.sources, conflict.values
        reason = f"{summary}; the services disagree on {conflict.field}: {a} {va}, {b} {vb}"
        values = {**shown, "field": conflict.field, "source_a": a, "value_a": va, "source_b": b, "value_b": vb}
        return GateResult("fresh_quote", "gap", reason, (*evidence, f"data_problems:{ctx.symbol}:{PROBLEM}"),
                          label=label, code=code, values=values)  # fmt: skip
    return GateResult("fresh_quote", "pass", summary, evidence, label=label, code=label, values=shown)


def quote_label(quote: Quote) -> Literal["live", "delayed"]:
    """What a quote on time is: `delayed` when its source publishes late (Quote.delay_minutes), else `live`."""
    return "delayed" if quote.delay_minutes else "live"


def financials(ctx: GateContext) -> GateResult:
    """At least min_periods reporting periods published by the clock's date (8 quarters; 4 half-years in HK)."""
    needs: Mapping[str, int] = ctx.threshold("financials", "min_periods")
    need = int(needs.get(ctx.instrument.market, max(needs.values())))
    lines = ctx.cache.financials(ctx.symbol)
    if lines.is_empty():
        return GateResult("financials", "gap", f"no published financial statements of {ctx.symbol} are stored",
                          code="none")  # fmt: skip
    periods = lines.get_column("period_end").unique().sort()
    source = str(lines.get_column("source")[0])
    evidence = (_span("financials", ctx.symbol, periods[0], periods[-1], source),)
    summary = f"{len(periods)} reporting periods from {source} ({periods[0]}..{periods[-1]})"
    shown = {"rows": len(periods), "source": source, "first": str(periods[0]), "last": str(periods[-1])}
    if len(periods) < need:
        return GateResult("financials", "gap", f"{summary}; at least {need} are needed", evidence, code="too_few",
                          values={**shown, "minimum": need})  # fmt: skip
    return GateResult("financials", "pass", summary, evidence, code="current", values=shown)


def _covering_fetch(ctx: GateContext, start: date, end: date) -> FetchAttempt | None:
    for attempt in ctx.attempts:
        first, last = attempt.start_day, attempt.end_day
        if attempt.what == "announcements" and attempt.ok and first and last and first <= start and last >= end:
            return attempt
    return None


def announcements(ctx: GateContext) -> GateResult:
    """The announcements of the last lookback_days were fetched (or are stored, fetched after the period)."""
    days = int(ctx.threshold("announcements", "lookback_days"))
    cutoff = ctx.cache.cutoff(ctx.symbol)
    start, end = cutoff.today - timedelta(days=days), cutoff.today
    stored = ctx.cache.announcements(ctx.symbol, start, end)
    fetched = _covering_fetch(ctx, start, end)
    sources = sorted({a.source for a in stored})
    evidence = tuple(_span("announcements", ctx.symbol, start, end, s) for s in sources)
    period = {"start": str(start), "end": str(end)}
    if fetched is not None:
        reason = f"announcements of {start}..{end} fetched from {fetched.source}: {len(stored)} in the period"
        return GateResult("announcements", "pass", reason, (fetched.ref, *evidence), code="fetched",
                          values={**period, "source": fetched.source, "count": len(stored)})  # fmt: skip
    last_fetch = ctx.cache.announcements_fetched_at(ctx.symbol, start, end)
    if stored and last_fetch is not None and last_fetch.astimezone(MARKET_TZ[ctx.instrument.market]).date() >= end:
        reason = f"{len(stored)} announcements of {start}..{end} stored, fetched after the period ended"
        return GateResult("announcements", "pass", reason, evidence, code="stored",
                          values={**period, "count": len(stored)})  # fmt: skip
    failed = next((a for a in ctx.attempts if a.what == "announcements" and not a.ok), None)
    if failed is not None:
        reason = f"the announcements of {start}..{end} could not be fetched: {failed.source}: {failed.reason}"
        return GateResult("announcements", "gap", reason, (failed.ref, *evidence), code="fetch_failed",
                          values={**period, "failed": [[failed.source, failed.failure or "unknown"]]})  # fmt: skip
    return GateResult("announcements", "gap", f"the announcements of {start}..{end} have not been fetched", evidence,
                      code="not_fetched", values=period)  # fmt: skip


def _latest_attempts(ctx: GateContext, what: str) -> dict[str, FetchAttempt]:
    latest: dict[str, FetchAttempt] = {}
    for attempt in ctx.attempts:
        if attempt.what == what:
            latest.setdefault(attempt.source, attempt)
    return latest


def money_flow_exception(ctx: GateContext) -> tuple[bool, tuple[FetchAttempt, ...]]:
    """Whether a money-flow gap may be recorded as an exception: the latest attempt of every exception source
    actually failed (an unsupported request is not a failure) within failure_max_age_minutes."""
    sources: Sequence[str] = ctx.threshold("money_flow", "exception_sources")
    max_age = timedelta(minutes=int(ctx.threshold("money_flow", "failure_max_age_minutes")))
    latest = _latest_attempts(ctx, "money_flow")
    failures = tuple(latest[s] for s in sources if s in latest)
    allowed = len(failures) == len(sources) and all(
        not a.ok and a.failure != "unsupported" and ctx.wall_now - a.started_at <= max_age for a in failures
    )
    return allowed, failures


def money_flow(ctx: GateContext) -> GateResult:
    """At least min_days of money flow, current; a gap is an allowed exception only when all sources failed."""
    minimum = int(ctx.threshold("money_flow", "min_days"))
    found = _series_gate(ctx, "money_flow", "money_flow", ctx.cache.coverage("money_flow", ctx.symbol), minimum)
    if found.status == "pass":
        return found
    allowed, attempts = money_flow_exception(ctx)
    if not allowed:
        return found
    failures = "; ".join(f"{a.source} failed ({a.failure}: {a.reason})" for a in attempts)
    reason = f"{found.reason}; {failures}: the gap may be recorded as an exception"
    failed = [[a.source, a.failure or "unknown"] for a in attempts]
    return GateResult("money_flow", "gap", reason, (*found.evidence, *(a.ref for a in attempts)), True,
                      code=found.code, values={**found.values, "failed": failed})  # fmt: skip


GATES: dict[str, Callable[[GateContext], GateResult]] = {
    "fresh_quote": fresh_quote,
    "daily_bars": daily_bars,
    "financials": financials,
    "announcements": announcements,
    "money_flow": money_flow,
    "valuation_history": valuation_history,
}


def applicable(ctx: GateContext, name: str) -> bool:
    """Whether gate `name` is evaluated for the instrument's security type (`applies_to` in the table)."""
    return ctx.instrument.security_type.value in ctx.threshold(name, "applies_to")


def evaluate(ctx: GateContext, names: Sequence[str] = GATE_NAMES) -> list[GateResult]:
    """Run the named gates that apply to the instrument (all, in the table's order, by default)."""
    unknown = [n for n in names if n not in GATES]
    if unknown:
        raise user_error(InvalidInput, "unknown_data_gates", gates=", ".join(unknown), choices=", ".join(GATE_NAMES))
    return [GATES[name](ctx) for name in names if applicable(ctx, name)]
