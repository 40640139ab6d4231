"""The point-in-time cache: idempotent bulk writes, one source per series, and nothing visible after the clock."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stockbench.clock import MARKET_TZ, ReplayClock
from stockbench.data.cache import MarketDataCache
from stockbench.data.records import Announcement, Bar, FinancialItem, MoneyFlowDay, Quote, ValuationDay
from stockbench.store.database import Database
from stockbench.store.migrations import migrate

CN = MARKET_TZ["CN"]
SYMBOL = "600519.SH"
WALL = datetime(2026, 11, 1, tzinfo=UTC)  # when the test rows were "fetched": after every replay instant


def new_db() -> Database:
    db = Database(":memory:")
    migrate(db)
    return db


@pytest.fixture
def db() -> Iterator[Database]:
    database = new_db()
    yield database
    database.close()


def at(day: date, hour: int, minute: int = 0) -> datetime:
    """An instant in Beijing time."""
    return datetime.combine(day, time(hour, minute), tzinfo=CN)


def cache_at(db: Database, instant: datetime) -> MarketDataCache:
    return MarketDataCache(db, ReplayClock(instant), preference=["eastmoney", "tencent", "community"])


def bar(day: date, close: str, prev: str | None = None, source: str = "tencent", symbol: str = SYMBOL) -> Bar:
    price = Decimal(close)
    return Bar(symbol, day, price, price, price, price, Decimal(prev) if prev else None, 1000, None, source)


def weekdays(start: date, end: date) -> list[date]:
    days = (start + timedelta(n) for n in range((end - start).days + 1))
    return [d for d in days if d.weekday() < 5]


def test_bars_round_trip_and_upserts_are_idempotent(db: Database) -> None:
    writer = cache_at(db, at(date(2024, 1, 10), 20))
    days = weekdays(date(2024, 1, 1), date(2024, 1, 5))
    assert writer.store_bars([bar(d, "10.00", "10.00") for d in days], fetched_at=WALL) == 5
    assert writer.store_bars([bar(days[0], "11.00", "10.00")], fetched_at=WALL) == 1
    frame = writer.bars(SYMBOL)
    assert frame.height == 5
    assert frame["close"].to_list()[:2] == [Decimal("11.0000"), Decimal("10.0000")]
    assert set(frame["source"].to_list()) == {"tencent"}
    assert db.scalar("SELECT count(*) FROM bars") == 5


def test_one_source_per_series_by_preference(db: Database) -> None:
    cache = cache_at(db, at(date(2024, 1, 10), 20))
    days = weekdays(date(2024, 1, 1), date(2024, 1, 5))
    cache.store_bars([bar(d, "10.00", source="tencent") for d in days], fetched_at=WALL)
    cache.store_bars([bar(d, "10.01", source="eastmoney") for d in days[:2]], fetched_at=WALL)
    preferred = cache.bars(SYMBOL)
    assert set(preferred["source"].to_list()) == {"eastmoney"} and preferred.height == 2
    later = cache.bars(SYMBOL, start=days[2])  # eastmoney has nothing there: tencent alone, never mixed
    assert set(later["source"].to_list()) == {"tencent"} and later.height == 3
    assert cache.bars(SYMBOL, source="tencent").height == 5
    assert [(c.source, c.rows) for c in cache.coverage("bars", SYMBOL)] == [("eastmoney", 2), ("tencent", 3 + 2)]


def test_same_day_rows_wait_for_the_day_to_end_unless_fetched_live(db: Database) -> None:
    day = date(2024, 1, 5)
    writer = cache_at(db, at(day, 20))
    writer.store_bars([bar(day, "10.00", source="tencent")], fetched_at=WALL)  # fetched long after: a replay
    writer.store_bars([bar(day, "10.00", source="eastmoney")], fetched_at=at(day, 15, 30))  # fetched live
    assert cache_at(db, at(day, 15)).bars(SYMBOL).height == 0
    assert set(cache_at(db, at(day, 16)).bars(SYMBOL)["source"].to_list()) == {"eastmoney"}
    assert cache_at(db, at(day, 16)).bars(SYMBOL, source="tencent").height == 0
    assert cache_at(db, at(day, 18)).bars(SYMBOL, source="tencent").height == 1
    assert cache_at(db, at(day - timedelta(1), 23)).bars(SYMBOL).height == 0


def test_quotes_money_flow_and_valuation(db: Database) -> None:
    day = date(2024, 1, 5)
    cache = cache_at(db, at(day, 10, 30))
    quotes = [
        Quote(SYMBOL, at(day, 10), Decimal("10.1"), Decimal("10"), None, None, None, 5, None, "tencent"),
        Quote(SYMBOL, at(day, 11), Decimal("10.2"), Decimal("10"), None, None, None, 9, None, "tencent", name="X"),
    ]
    assert cache.store_quotes(quotes, fetched_at=WALL) == 2
    found = cache.latest_quote(SYMBOL)
    assert found is not None and found.last == Decimal("10.1000") and found.at == at(day, 10)
    assert found.at.utcoffset() == timedelta(hours=8)
    assert (found.status, found.delay_minutes) == ("trading", 0)
    halted = Quote(SYMBOL, at(day, 10, 15), Decimal("10"), Decimal("10"), None, None, None, 0, None, "sina",
                   status="suspended", delay_minutes=15)  # fmt: skip
    cache.store_quotes([halted], fetched_at=WALL)
    stored = cache.latest_quote(SYMBOL)
    assert stored is not None and (stored.status, stored.delay_minutes, stored.open) == ("suspended", 15, None)
    flows = [
        MoneyFlowDay(SYMBOL, d, Decimal("-1.5"), None, None, None, None, "eastmoney") for d in (day, day - timedelta(1))
    ]
    values = [ValuationDay(SYMBOL, d, None, None, Decimal("30.5"), None, None, None, None, "eastmoney") for d in (day,)]
    cache.store_money_flow(flows, fetched_at=WALL)
    cache.store_valuation(values, fetched_at=WALL)
    assert cache.money_flow(SYMBOL)["day"].to_list() == [day - timedelta(1)]
    assert cache.valuation(SYMBOL).height == 0
    assert cache_at(db, at(day, 19)).valuation(SYMBOL)["pe_ttm"].to_list() == [Decimal("30.5000")]


def test_financials_visible_from_publication_or_the_statutory_deadline(db: Database) -> None:
    def line(period: date, published: date | None, item: str = "revenue") -> FinancialItem:
        return FinancialItem(SYMBOL, period, "income", item, Decimal("100"), "CNY", published, "eastmoney")

    items = [
        line(date(2023, 12, 31), date(2024, 3, 28)),
        line(date(2024, 3, 31), None),  # no date: visible from 2024-05-01
        line(date(2024, 6, 30), None),  # from 2024-09-01
        line(date(2023, 12, 31), None, "net_profit"),  # annual: from 2024-05-01
    ]
    cache_at(db, at(date(2024, 1, 1), 12)).store_financials(items, fetched_at=WALL)

    def visible(day: date) -> list[tuple[date, str]]:
        frame = cache_at(db, at(day, 12)).financials(SYMBOL)
        return sorted(zip(frame["period_end"].to_list(), frame["item"].to_list(), strict=True))

    assert visible(date(2024, 3, 27)) == []
    assert visible(date(2024, 3, 28)) == [(date(2023, 12, 31), "revenue")]
    assert len(visible(date(2024, 4, 30))) == 1
    assert len(visible(date(2024, 5, 1))) == 3
    assert len(visible(date(2024, 8, 31))) == 3
    assert len(visible(date(2024, 9, 1))) == 4


def test_announcements_by_publication_instant(db: Database) -> None:
    day = date(2024, 1, 5)
    items = [
        Announcement(SYMBOL, "a1", at(day, 16), "年度报告", "annual", "http://x/1", "cninfo", text="正文"),
        Announcement(SYMBOL, "a2", at(day, 20), "公告", "other", "http://x/2", "cninfo"),
    ]
    cache = cache_at(db, at(day, 18))
    assert cache.store_announcements(items, fetched_at=WALL) == 2
    assert [a.source_id for a in cache.announcements(SYMBOL)] == ["a1"]
    assert db.scalar("SELECT text_sha256 FROM announcements WHERE source_id = 'a1'") is not None
    assert [a.source_id for a in cache_at(db, at(day, 21)).announcements(SYMBOL, day, day)] == ["a1", "a2"]
    assert cache_at(db, at(day, 21)).announcements(SYMBOL, day + timedelta(1)) == []


# ---- the property: for any as-of instant, no query of any kind returns a row dated after it ----------

FIRST, LAST = date(2020, 1, 1), date(2020, 6, 30)


def _fill(db: Database) -> None:
    writer = cache_at(db, at(LAST, 20))
    days = weekdays(FIRST, LAST)
    writer.store_bars(
        [bar(d, f"{10 + i % 7}.00", f"{10 + (i - 1) % 7}.00") for i, d in enumerate(days)], fetched_at=WALL
    )
    writer.store_bars([bar(d, "9.00", "9.00", source="eastmoney") for d in days[::3]], fetched_at=WALL)
    for d in days[::5]:  # bars and quotes captured live on their own day
        writer.store_bars([bar(d, "8.00", "8.00", source="community")], fetched_at=at(d, 15, 30))
    quotes = [
        Quote(SYMBOL, at(d, h), Decimal("10"), Decimal("10"), None, None, None, 1, None, "tencent")
        for d in days
        for h in (10, 14)
    ]
    writer.store_quotes(quotes, fetched_at=WALL)
    writer.store_money_flow(
        [MoneyFlowDay(SYMBOL, d, Decimal(1), None, None, None, None, "eastmoney") for d in days], fetched_at=WALL
    )
    writer.store_valuation(
        [ValuationDay(SYMBOL, d, Decimal(10), None, None, None, None, None, None, "eastmoney") for d in days],
        fetched_at=WALL,
    )
    periods = [date(2019, 9, 30), date(2019, 12, 31), date(2020, 3, 31), date(2020, 6, 30)]
    lines = [
        FinancialItem(SYMBOL, p, "income", item, Decimal(1), "CNY", published, "eastmoney")
        for p in periods
        for item, published in (("revenue", p + timedelta(days=25)), ("roe", None))
    ]
    writer.store_financials(lines, fetched_at=WALL)
    notices = [
        Announcement(SYMBOL, f"n{i}", at(d, 8 + i % 14, 7 * i % 60), "公告", "other", "http://x", "cninfo")
        for i, d in enumerate(days)
    ]
    writer.store_announcements(notices, fetched_at=WALL)


@pytest.fixture(scope="module")
def filled() -> Iterator[Database]:
    database = new_db()
    _fill(database)
    yield database
    database.close()


def _deadline(period: date) -> date:
    """The day after the statutory deadline, written independently of the cache's SQL."""
    months = {3: 1, 6: 2, 9: 1, 12: 4}[period.month]
    index = period.year * 12 + (period.month - 1) + months + 1  # the month after the deadline's month
    return date(index // 12, index % 12 + 1, 1)


EDGES = [0, 15 * 60 + 29, 15 * 60 + 30, 17 * 60 + 59, 18 * 60, 24 * 60 - 1]  # live capture at 15:30; 18:00


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    day=st.dates(min_value=FIRST - timedelta(days=5), max_value=LAST + timedelta(days=5)),
    minute=st.one_of(st.sampled_from(EDGES), st.integers(min_value=0, max_value=24 * 60 - 1)),
)
def test_no_query_returns_a_row_dated_after_the_clock(filled: Database, day: date, minute: int) -> None:
    now = datetime.combine(day, time(minute // 60, minute % 60), tzinfo=CN)
    cache = cache_at(filled, now)
    after_close = now.time() >= time(18)

    def day_ok(d: date, fetched: datetime) -> bool:
        return d < day or (d == day and (after_close or fetched <= now))

    frames = [cache.bars(SYMBOL, adjust=a) for a in ("none", "forward", "backward")]
    frames += [cache.bars(SYMBOL, source=s) for s in ("tencent", "eastmoney", "community")]
    frames += [cache.money_flow(SYMBOL), cache.valuation(SYMBOL)]
    for frame in frames:
        assert all(day_ok(d, f) for d, f in zip(frame["day"].to_list(), frame["fetched_at"].to_list(), strict=True))
    for c in [*cache.coverage("bars", SYMBOL), *cache.coverage("money_flow", SYMBOL)]:
        assert c.last <= day
    quote = cache.latest_quote(SYMBOL)
    assert quote is None or quote.at <= now
    lines = cache.financials(SYMBOL)
    for period, published in zip(lines["period_end"].to_list(), lines["published"].to_list(), strict=True):
        assert (published or _deadline(period)) <= day
    assert all(a.published_at <= now for a in cache.announcements(SYMBOL))
    if day > FIRST + timedelta(days=7):  # not vacuous: the past is there
        assert frames[0].height > 0 and quote is not None and cache.announcements(SYMBOL)
