"""Research's current price says what a quote is: a delayed or stale quote keeps its label and says how late or
how old (what the report and the model read), never passed off as the last close."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from stockbench.data.records import Quote
from stockbench.data.service import DataService
from stockbench.market.service import MarketRules
from stockbench.research.plan_check import current_price
from stockbench.store.database import Database
from tests.engine.data.test_gates import DAY, SYMBOL, FixedClock, db, local, rules

__all__ = ["db", "rules"]


def priced(db: Database, rules: MarketRules, minutes_old: int, delay: int = 0) -> dict[str, object]:
    now = local(DAY, 10, 40)
    service = DataService(db, FixedClock(now), rules, {})
    at = now - timedelta(minutes=minutes_old)
    service.cache.store_quotes([Quote(SYMBOL, at, Decimal("1700.00"), Decimal("1690.00"), Decimal("1690.00"),
                                      Decimal("1710.00"), Decimal("1680.00"), 100_000, Decimal("170000000"),
                                      "tencent", delay_minutes=delay)])  # fmt: skip
    price = current_price(service, SYMBOL, fetch=False)
    assert price is not None and price.price == Decimal("1700.00") and price.intraday
    return price.as_dict()


def test_a_stale_quote_is_labelled_stale_with_its_age(db: Database, rules: MarketRules) -> None:
    found = priced(db, rules, minutes_old=40)
    assert found["label"] == "stale" and "40 minutes old" in str(found["note"])


def test_a_delayed_quote_is_labelled_delayed_with_its_delay(db: Database, rules: MarketRules) -> None:
    found = priced(db, rules, minutes_old=1, delay=15)
    assert found["label"] == "delayed" and "15 minutes late" in str(found["note"])


def test_a_fresh_quote_is_live(db: Database, rules: MarketRules) -> None:
    found = priced(db, rules, minutes_old=1)
    assert found["label"] == "live" and found["note"] == ""
