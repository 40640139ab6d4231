"""Data gates: pass and gap with reasons and evidence, the money-flow exception rule, and live-quote windows."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

import pytest

from stockbench.clock import MARKET_TZ, Clock, ReplayClock
from stockbench.data.cache import MarketDataCache
from stockbench.data.gates import FetchAttempt, GateContext, GateResult, evaluate, gate_table, trading_window
from stockbench.data.http import FetchError
from stockbench.data.records import Announcement, Bar, FetchFailure, FinancialItem, MoneyFlowDay, Quote, ValuationDay
from stockbench.data.service import DataService
from stockbench.market.registry import InstrumentData
from stockbench.market.service import MarketRules
from stockbench.store.database import Database
from tests.engine.data.test_cache import new_db

SYMBOL = "600519.SH"
DAY = date(2024, 6, 28)  # a Friday session
CN, HK = MARKET_TZ["CN"], MARKET_TZ["HK"]
WALL = datetime(2026, 11, 1, tzinfo=UTC)


@dataclass(frozen=True)
class FixedClock:
    """A real (not replay) clock stopped at one instant: live quotes may be fetched."""

    at: datetime
    is_replay: bool = False

    def now(self) -> datetime:
        return self.at.astimezone(UTC)


def local(day: date, hour: int, minute: int = 0, tz: Any = CN) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=tz)


@pytest.fixture
def db() -> Iterator[Database]:
    database = new_db()
    yield database
    database.close()


@pytest.fixture
def rules(db: Database) -> MarketRules:
    return MarketRules(db)


def sessions(rules: MarketRules, count: int, end: date = DAY, market: str = "CN") -> list[date]:
    calendar = rules.calendars.calendar(market)  # type: ignore[arg-type]
    return calendar.sessions(end - timedelta(days=count * 2), end)[-count:]


def bar(symbol: str, day: date, source: str = "eastmoney") -> Bar:
    p = Decimal("100.00")
    return Bar(symbol, day, p, p, p, p, p, 100, None, source)


def fill(cache: MarketDataCache, rules: MarketRules, symbol: str = SYMBOL, *, bars: int = 300, end: date = DAY) -> None:
    """Everything the gates ask for, through `end`."""
    market = "HK" if symbol.endswith(".HK") else "CN"
    days = sessions(rules, 1000, end, market)
    cache.store_bars([bar(symbol, d) for d in days[-bars:]], fetched_at=WALL)
    cache.store_money_flow(
        [MoneyFlowDay(symbol, d, Decimal(1), None, None, None, None, "eastmoney") for d in days[-30:]], fetched_at=WALL
    )
    cache.store_valuation(
        [ValuationDay(symbol, d, None, None, Decimal(20), None, None, None, None, "eastmoney") for d in days],
        fetched_at=WALL,
    )
    quarters = [date(2022, 3, 31), date(2022, 6, 30), date(2022, 9, 30), date(2022, 12, 31)]
    quarters += [q.replace(year=2023) for q in quarters]
    cache.store_financials(
        [
            FinancialItem(symbol, q, "income", "revenue", Decimal(1), "CNY", q + timedelta(days=28), "eastmoney")
            for q in quarters
        ],
        fetched_at=WALL,
    )
    cache.store_announcements(
        [Announcement(symbol, "a1", local(end - timedelta(days=10), 19), "公告", "other", "http://x", "cninfo")],
        fetched_at=WALL,
    )


def context(
    db: Database,
    rules: MarketRules,
    clock: Clock,
    *,
    symbol: str = SYMBOL,
    attempts: Sequence[FetchAttempt] = (),
    wall: datetime = WALL,
) -> GateContext:
    instrument = rules.registry.instrument(symbol)
    window = trading_window(rules, instrument, clock)
    calendar = rules.calendars.calendar(instrument.market) if instrument.market != "US" else None
    return GateContext(
        symbol, instrument, MarketDataCache(db, clock), window, calendar, tuple(attempts), wall, gate_table()
    )


def by_name(results: list[GateResult]) -> dict[str, GateResult]:
    return {r.name: r for r in results}


# ---- trading windows -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("instant", "phase", "in_session", "last"),
    [
        (local(DAY, 10), "continuous", True, date(2024, 6, 27)),
        (local(DAY, 12), "lunch_break", True, date(2024, 6, 27)),
        (local(DAY, 8), "closed", False, date(2024, 6, 27)),
        (local(DAY, 15, 2), "closed", False, DAY),
        (local(DAY + timedelta(days=1), 11), "closed", False, DAY),  # Saturday
    ],
)
def test_trading_windows_of_an_a_share(
    rules: MarketRules, instant: datetime, phase: str, in_session: bool, last: date
) -> None:
    window = trading_window(rules, rules.registry.instrument(SYMBOL), FixedClock(instant))
    assert (window.phase, window.in_session, window.live_allowed, window.last_session) == (
        phase,
        in_session,
        in_session,
        last,
    )


def test_replay_clocks_never_fetch_live_and_unknown_markets_say_why(rules: MarketRules) -> None:
    replay = trading_window(rules, rules.registry.instrument(SYMBOL), ReplayClock(local(DAY, 10)))
    assert replay.in_session and not replay.live_allowed
    hk = trading_window(rules, rules.registry.instrument("00700.HK"), FixedClock(local(DAY, 16, 5, HK)))
    assert (hk.phase, hk.live_allowed) == ("closing_auction", True)
    us = trading_window(rules, rules.registry.instrument("AAPL.US"), FixedClock(local(DAY, 10)))
    assert (us.phase, us.live_allowed, us.last_session) == ("unknown", False, None) and "US" in us.problem
    future = trading_window(rules, rules.registry.instrument(SYMBOL), FixedClock(local(date(2027, 3, 1), 10)))
    assert future.phase == "unknown" and "2027-03-01" in future.problem


# ---- the gates on stored data --------------------------------------------------------------------------


def test_every_gate_passes_on_complete_data_after_the_close(db: Database, rules: MarketRules) -> None:
    fill(MarketDataCache(db, ReplayClock.as_of(DAY)), rules)
    results = evaluate(context(db, rules, ReplayClock.as_of(DAY)))
    assert [r.name for r in results] == list(gate_table())
    assert {r.name: r.status for r in results} == dict.fromkeys(gate_table(), "pass")
    found = by_name(results)
    assert found["fresh_quote"].label == "last_close" and "100.00 on 2024-06-28" in found["fresh_quote"].reason
    assert found["daily_bars"].evidence == (f"bars:{SYMBOL}:{sessions(rules, 300)[0]}..{DAY}:eastmoney",)
    assert found["financials"].evidence == (f"financials:{SYMBOL}:2022-03-31..2023-12-31:eastmoney",)
    assert found["valuation_history"].reason.startswith("1000 days of valuation history")


def test_every_gate_is_a_gap_on_an_empty_cache(db: Database, rules: MarketRules) -> None:
    results = by_name(evaluate(context(db, rules, ReplayClock.as_of(DAY))))
    assert {r.status for r in results.values()} == {"gap"}
    assert results["valuation_history"].reason.endswith("(it cannot be replaced with other data)")
    assert results["money_flow"].exception_allowed is False
    assert "have not been fetched" in results["announcements"].reason


def test_too_few_or_stale_bars_are_gaps(db: Database, rules: MarketRules) -> None:
    fill(MarketDataCache(db, ReplayClock.as_of(DAY)), rules, bars=249)
    short = by_name(evaluate(context(db, rules, ReplayClock.as_of(DAY))))["daily_bars"]
    assert short.status == "gap" and "249 daily bars" in short.reason and "at least 250" in short.reason
    fill(MarketDataCache(db, ReplayClock.as_of(DAY)), rules, bars=300)
    later = date(2024, 7, 5)
    stale = by_name(evaluate(context(db, rules, ReplayClock.as_of(later))))
    assert (
        stale["daily_bars"].status == "gap"
        and "5 sessions behind the last session 2024-07-05" in stale["daily_bars"].reason
    )
    assert stale["fresh_quote"].status == "gap" and "the last session was 2024-07-05" in stale["fresh_quote"].reason


def test_fresh_quote_inside_the_window(db: Database, rules: MarketRules) -> None:
    cache = MarketDataCache(db, FixedClock(local(DAY, 10, 20)))
    quote = Quote(SYMBOL, local(DAY, 10, 10), Decimal("1700.5"), Decimal("1690"), None, None, None, 1, None, "tencent")
    cache.store_quotes([quote], fetched_at=local(DAY, 10, 10))
    fresh = by_name(evaluate(context(db, rules, FixedClock(local(DAY, 10, 20)))))["fresh_quote"]
    assert (
        (fresh.status, fresh.label) == ("pass", "live")
        and "1700.50" in fresh.reason
        and "10.0 minutes old" in fresh.reason
    )
    stale = by_name(evaluate(context(db, rules, FixedClock(local(DAY, 10, 40)))))["fresh_quote"]
    assert stale.status == "gap" and "at most 15 allowed" in stale.reason


def test_a_fresh_quote_of_a_suspended_name_is_a_gap(db: Database, rules: MarketRules) -> None:
    from stockbench.research.blocks import GateFact
    from stockbench.research.wording.phrases import gate_reason

    cache = MarketDataCache(db, FixedClock(local(DAY, 10, 20)))
    halted = Quote(SYMBOL, local(DAY, 10, 15), Decimal("1690"), Decimal("1690"), None, None, None, 0, None, "tencent",
                   status="suspended")  # fmt: skip
    cache.store_quotes([halted], fetched_at=local(DAY, 10, 15))
    gate = by_name(evaluate(context(db, rules, FixedClock(local(DAY, 10, 20)))))["fresh_quote"]
    assert (gate.status, gate.code) == ("gap", "halted") and "is suspended" in gate.reason
    fact = GateFact(gate.name, gate.status, gate.reason, code=gate.code, values=gate.values)
    assert "停牌" in gate_reason(fact, SYMBOL, "zh") and "suspended" in gate_reason(fact, SYMBOL, "en")


def test_a_delayed_quote_is_judged_net_of_its_delay_and_said_so_in_either_language(
    db: Database, rules: MarketRules
) -> None:
    from stockbench.research.blocks import GateFact
    from stockbench.research.wording.phrases import gate_reason

    def gate_at(minute: int, second: int) -> GateResult:
        clock = FixedClock(datetime(2024, 6, 28, 10, minute, second, tzinfo=HK))
        return by_name(evaluate(context(db, rules, clock, symbol="00700.HK")))["fresh_quote"]

    cache = MarketDataCache(db, FixedClock(local(DAY, 10, 20, HK)))
    delayed = Quote("00700.HK", local(DAY, 10, 0, HK), Decimal("380"), Decimal("378"), None, None, None, 1000, None,
                    "tencent", delay_minutes=15)  # fmt: skip
    cache.store_quotes([delayed], fetched_at=local(DAY, 10, 15, HK))
    on_time = gate_at(15, 5)
    assert (on_time.status, on_time.code, on_time.label) == ("pass", "delayed", "delayed")
    fact = GateFact(on_time.name, on_time.status, on_time.reason, code=on_time.code, values=on_time.values)
    assert "延时 15 分钟" in gate_reason(fact, "00700.HK", "zh")
    assert "15 minutes late" in gate_reason(fact, "00700.HK", "en")
    stale = gate_at(46, 5)
    assert (stale.status, stale.code, stale.label, stale.values["late"]) == ("gap", "quote_stale", "delayed", "31.1")
    fact = GateFact(stale.name, stale.status, stale.reason, code=stale.code, values=stale.values)
    assert "扣除延时后已过 31.1 分钟" in gate_reason(fact, "00700.HK", "zh")
    assert "31.1 minutes old beyond that delay" in gate_reason(fact, "00700.HK", "en")


def test_hong_kong_needs_four_half_years(db: Database, rules: MarketRules) -> None:
    fill(MarketDataCache(db, ReplayClock.as_of(DAY, "HK")), rules, "00700.HK")
    db.execute("DELETE FROM financials WHERE month(period_end) IN (3, 9)")
    found = by_name(evaluate(context(db, rules, ReplayClock.as_of(DAY, "HK"), symbol="00700.HK")))["financials"]
    assert found.status == "pass" and found.reason.startswith("4 reporting periods")
    cn = by_name(evaluate(context(db, rules, ReplayClock.as_of(DAY), symbol="00700.HK")))
    assert cn["financials"].status == "pass"


def attempt(
    source: str, ok: bool, minutes_ago: int = 5, kind: str | None = "network", what: str = "money_flow"
) -> FetchAttempt:
    started = WALL - timedelta(minutes=minutes_ago)
    return FetchAttempt(
        source, what, SYMBOL, started, ok, None if ok else kind, None if ok else "timed out", 0 if ok else None
    )


@pytest.mark.parametrize(
    ("attempts", "allowed"),
    [
        ([attempt("eastmoney", False), attempt("sina", False)], True),
        ([attempt("eastmoney", False)], False),  # Sina was never asked
        ([attempt("eastmoney", False), attempt("sina", False, kind="unsupported")], False),
        ([attempt("eastmoney", False), attempt("sina", False, minutes_ago=600)], False),  # too old to count
        ([attempt("sina", True, minutes_ago=1), attempt("eastmoney", False), attempt("sina", False)], False),
    ],
)
def test_the_money_flow_exception_needs_both_sources_to_have_failed(
    db: Database, rules: MarketRules, attempts: list[FetchAttempt], allowed: bool
) -> None:
    result = by_name(evaluate(context(db, rules, ReplayClock.as_of(DAY), attempts=attempts)))["money_flow"]
    assert (result.status, result.exception_allowed) == ("gap", allowed)
    if allowed:
        assert [e for e in result.evidence if e.startswith("fetch_log:")] == [a.ref for a in attempts]
        assert "eastmoney failed (network: timed out); sina failed" in result.reason


def test_announcements_pass_on_a_covering_fetch_and_show_a_failed_one(db: Database, rules: MarketRules) -> None:
    covering = FetchAttempt(
        "cninfo", "announcements", SYMBOL, WALL, True, rows=0, start_day=DAY - timedelta(days=90), end_day=DAY
    )
    found = by_name(evaluate(context(db, rules, ReplayClock.as_of(DAY), attempts=[covering])))["announcements"]
    assert found.status == "pass" and found.evidence == (covering.ref,)
    partial = FetchAttempt(
        "cninfo", "announcements", SYMBOL, WALL, True, rows=0, start_day=DAY - timedelta(days=30), end_day=DAY
    )
    failed = attempt("cninfo", False, kind="blocked", what="announcements")
    gap = by_name(evaluate(context(db, rules, ReplayClock.as_of(DAY), attempts=[partial, failed])))["announcements"]
    assert gap.status == "gap" and gap.evidence == (failed.ref,) and "cninfo: timed out" in gap.reason


# ---- the service: fetching the gaps in parallel, with fake providers ----------------------------------


@dataclass
class FakeProvider:
    """A second, in-process implementation of the Provider port (not a mock of the network)."""

    name: str
    answers: dict[str, Callable[[], list[Any]]]
    barrier: threading.Barrier | None = None
    calls: list[str] = field(default_factory=list)

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(self.answers)

    def supports(self, kind: str) -> bool:
        return kind in self.answers

    def _answer(self, kind: str) -> list[Any]:
        self.calls.append(kind)
        if self.barrier is not None:
            self.barrier.wait(timeout=5)  # every kind must be asked at once, or this times out
        return self.answers[kind]()

    def quotes(self, symbols: Sequence[str]) -> list[Quote]:
        return self._answer("quote")

    def daily_bars(self, symbol: str, start: date, end: date) -> list[Bar]:
        return [b for b in self._answer("bars") if start <= b.day <= end]

    def money_flow(self, symbol: str) -> list[MoneyFlowDay]:
        return self._answer("money_flow")

    def valuation_history(self, symbol: str) -> list[ValuationDay]:
        return self._answer("valuation")

    def financials(self, symbol: str) -> list[FinancialItem]:
        return self._answer("financials")

    def announcements(self, symbol: str, start: date, end: date) -> list[Announcement]:
        return self._answer("announcements")


def failing(source: str, what: str, kind: str = "network") -> Callable[[], list[Any]]:
    def fail() -> list[Any]:
        raise FetchError(FetchFailure(source, what, SYMBOL, f"{source} is down", kind, url=f"https://{source}/x"))  # type: ignore[arg-type]

    return fail


def source_of_everything(rules: MarketRules, barrier: threading.Barrier | None = None) -> FakeProvider:
    scratch = new_db()
    donor = MarketDataCache(scratch, ReplayClock.as_of(DAY))
    fill(donor, rules)
    days = sessions(rules, 1000)
    answers: dict[str, Callable[[], list[Any]]] = {
        "bars": lambda: [bar(SYMBOL, d) for d in days[-300:]],
        "money_flow": lambda: [
            MoneyFlowDay(SYMBOL, d, Decimal(1), None, None, None, None, "eastmoney") for d in days[-30:]
        ],
        "valuation": lambda: [
            ValuationDay(SYMBOL, d, None, None, Decimal(20), None, None, None, None, "eastmoney") for d in days
        ],
        "financials": lambda: [
            FinancialItem(
                SYMBOL,
                date(y, m, 28 if m == 2 else 30 if m in (6, 9) else 31),
                "income",
                "revenue",
                Decimal(1),
                "CNY",
                date(y + 1, 4, 1),
                "eastmoney",
            )
            for y in (2021, 2022)
            for m in (3, 6, 9, 12)
        ],
    }
    scratch.close()
    return FakeProvider("eastmoney", answers, barrier)


def test_gates_fetch_their_gaps_in_parallel_and_log_every_attempt(db: Database, rules: MarketRules) -> None:
    barrier = threading.Barrier(5)  # bars, money flow, valuation, financials and announcements at once
    eastmoney = source_of_everything(rules, barrier)
    notices = FakeProvider(
        "cninfo",
        {"announcements": lambda: [Announcement(SYMBOL, "n1", local(DAY, 9), "公告", "x", "u", "cninfo")]},
        barrier,
    )
    service = DataService(db, ReplayClock.as_of(DAY), rules, {"eastmoney": eastmoney, "cninfo": notices})
    progress: list[str] = []
    results = service.gates(SYMBOL, progress=lambda e: progress.append(e.title))
    assert {r.name: r.status for r in results} == dict.fromkeys(gate_table(), "pass")
    assert sorted(eastmoney.calls) == ["bars", "financials", "money_flow", "valuation"]
    assert notices.calls == ["announcements"]
    logged = db.fetchall("SELECT source, what, ok, rows FROM fetch_log ORDER BY what")
    assert [(s, w, ok) for s, w, ok, _ in logged] == [
        ("cninfo", "announcements", True),
        ("eastmoney", "bars", True),
        ("eastmoney", "financials", True),
        ("eastmoney", "money_flow", True),
        ("eastmoney", "valuation", True),
    ]
    assert progress[0].startswith("fetching") and len(progress) == 6
    assert service.gates(SYMBOL) == results and len(db.fetchall("SELECT * FROM fetch_log")) == 5  # nothing refetched


def test_both_money_flow_sources_failing_is_a_recordable_exception(db: Database, rules: MarketRules) -> None:
    eastmoney = FakeProvider("eastmoney", {"money_flow": failing("eastmoney", "money_flow")})
    sina = FakeProvider("sina", {"money_flow": failing("sina", "money_flow", "blocked")})
    service = DataService(db, ReplayClock.as_of(DAY), rules, {"eastmoney": eastmoney, "sina": sina})
    outcomes = service.fetch(SYMBOL, ["money_flow"])
    assert [(o.source, o.ok, o.failure) for o in outcomes] == [
        ("eastmoney", False, "network"),
        ("sina", False, "blocked"),
    ]
    result = by_name(service.gates(SYMBOL, fetch=False))["money_flow"]
    assert result.exception_allowed and [e for e in result.evidence if e.startswith("fetch_log:")] == [
        o.log for o in outcomes
    ]
    assert db.fetchall("SELECT url FROM fetch_log ORDER BY source") == [("https://eastmoney/x",), ("https://sina/x",)]


def test_live_quotes_only_inside_the_window(db: Database, rules: MarketRules) -> None:
    live = Quote(SYMBOL, local(DAY, 10, 0), Decimal("1700"), Decimal("1690"), None, None, None, 1, None, "tencent")
    tencent = FakeProvider("tencent", {"quote": lambda: [live], "bars": lambda: [bar(SYMBOL, DAY, "tencent")]})
    inside = DataService(db, FixedClock(local(DAY, 10, 1)), rules, {"tencent": tencent})
    view = inside.quote(SYMBOL)
    assert (view.label, view.price, view.source, tencent.calls) == ("live", Decimal("1700"), "tencent", ["quote"])
    outside = DataService(db, FixedClock(local(DAY, 20)), rules, {"tencent": tencent})
    view = outside.quote(SYMBOL)
    assert (view.label, view.price, view.day, tencent.calls) == ("last_close", Decimal("100"), DAY, ["quote", "bars"])
    skipped = outside.fetch(SYMBOL, ["quote"])
    assert skipped[0].skipped and "outside the trading window" in skipped[0].reason and tencent.calls[-1] == "bars"
    replay = DataService(db, ReplayClock(local(DAY, 10, 1)), rules, {"tencent": tencent}).fetch(SYMBOL, ["quote"])
    assert replay[0].skipped and "replay" in replay[0].reason


def test_an_index_is_checked_for_prices_only_and_a_young_listing_says_why(db: Database, rules: MarketRules) -> None:
    index = evaluate(context(db, rules, ReplayClock.as_of(DAY), symbol="000300.SH"))
    assert [r.name for r in index] == ["fresh_quote", "daily_bars"]
    days = sessions(rules, 100)
    rules.registry.save(InstrumentData(SYMBOL, list_date=days[0]))
    fill(MarketDataCache(db, ReplayClock.as_of(DAY)), rules, bars=100)
    young = by_name(evaluate(context(db, rules, ReplayClock.as_of(DAY))))["daily_bars"]
    assert young.status == "gap" and young.reason.endswith(f"listed on {days[0]}, so no more exist yet")
