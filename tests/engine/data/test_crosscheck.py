"""Cross-source check: two services' last price and previous close, disagreements recorded on the instrument."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timedelta
from decimal import Decimal

import pytest

from stockbench.clock import ReplayClock
from stockbench.data.crosscheck import PricePoint, Tolerances, compare, problems, record
from stockbench.data.records import Bar, Quote
from stockbench.data.service import DataService
from stockbench.market.service import MarketRules
from stockbench.store.database import Database
from tests.engine.data.test_cache import new_db
from tests.engine.data.test_gates import CN, DAY, SYMBOL, FakeProvider, FixedClock, failing, local

TOLERANCES = Tolerances(Decimal("0.005"), Decimal("0.0005"), 120)


def point(source: str, last: str, prev: str | None, at: datetime | date | None = None) -> PricePoint:
    return PricePoint(
        source, at or datetime(2024, 6, 28, 10, tzinfo=CN), Decimal(last), Decimal(prev) if prev else None
    )


@pytest.fixture
def db() -> Iterator[Database]:
    database = new_db()
    yield database
    database.close()


def test_agreement_within_the_tolerances() -> None:
    assert compare(SYMBOL, point("a", "100.00", "99.00"), point("b", "100.40", "99.04"), TOLERANCES) == []


def test_disagreements_beyond_the_tolerances() -> None:
    found = compare(SYMBOL, point("a", "100.00", "99.00"), point("b", "101.00", "98.00"), TOLERANCES)
    assert [(d.field, d.difference) for d in found] == [("last", Decimal("0.01")), ("prev_close", Decimal(1) / 98)]
    detail = found[0].detail()
    assert (detail["a_source"], detail["a_value"], detail["b_value"], detail["tolerance"]) == (
        "a",
        "100.00",
        "101.00",
        "0.005",
    )


def test_last_prices_far_apart_in_time_are_not_compared() -> None:
    late = datetime(2024, 6, 28, 10, 5, tzinfo=CN)
    assert compare(SYMBOL, point("a", "100", "99"), point("b", "110", "99", late), TOLERANCES) == []
    same_day = compare(SYMBOL, point("a", "100", "99", DAY), point("b", "110", "99", DAY), TOLERANCES)
    assert [d.field for d in same_day] == ["last"]
    assert compare(SYMBOL, point("a", "100", "99", DAY), point("b", "110", "99", DAY - timedelta(1)), TOLERANCES) == []


def test_recorded_problems_carry_both_sides(db: Database) -> None:
    found = compare(SYMBOL, point("tencent", "100.00", "99.00"), point("sina", "100.00", "97.00"), TOLERANCES)
    assert record(db, found, DAY) == 1
    (stored,) = problems(db, SYMBOL)
    assert stored["kind"] == "source_disagreement" and stored["as_of"] == DAY
    assert stored["detail"]["field"] == "prev_close" and stored["detail"]["b_source"] == "sina"


def quote(source: str, last: str, prev: str) -> Quote:
    return Quote(SYMBOL, local(DAY, 10), Decimal(last), Decimal(prev), None, None, None, 1, None, source)


def test_the_service_compares_two_live_quotes_in_the_window(db: Database) -> None:
    rules = MarketRules(db)
    tencent = FakeProvider("tencent", {"quote": lambda: [quote("tencent", "1700.00", "1690.00")]})
    sina = FakeProvider("sina", {"quote": lambda: [quote("sina", "1700.00", "1600.00")]})
    service = DataService(db, FixedClock(local(DAY, 10, 1)), rules, {"tencent": tencent, "sina": sina})
    found = service.crosscheck(SYMBOL)
    assert [p.source for p in found.points] == ["tencent", "sina"]
    assert [d.field for d in found.disagreements] == ["prev_close"] and len(problems(db, SYMBOL)) == 1
    assert db.scalar("SELECT count(*) FROM fetch_log WHERE what = 'quote'") == 2


def test_outside_the_window_the_latest_common_bar_is_compared(db: Database) -> None:
    rules = MarketRules(db)

    def bars(source: str, close: str, days: int) -> list[Bar]:
        p = Decimal(close)
        return [Bar(SYMBOL, DAY - timedelta(i), p, p, p, p, p, 1, None, source) for i in range(days)]

    eastmoney = FakeProvider("eastmoney", {"bars": lambda: bars("eastmoney", "10.00", 3)})
    tencent = FakeProvider(
        "tencent", {"bars": lambda: bars("tencent", "10.30", 2)[1:], "quote": failing("tencent", "quote")}
    )
    service = DataService(db, ReplayClock.as_of(DAY), rules, {"eastmoney": eastmoney, "tencent": tencent})
    found = service.crosscheck(SYMBOL)
    assert {p.at for p in found.points} == {DAY - timedelta(1)} and tencent.calls == ["bars"]
    assert [d.field for d in found.disagreements] == ["last", "prev_close"]
