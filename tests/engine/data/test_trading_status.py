"""Trading status from the workspace's own facts: not_listed before the listing date it knows (whatever a stored quote
or bar says), and whether the stored daily bars show a symbol trading on a session (a gap between bars: suspended)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from stockbench.clock import ReplayClock
from stockbench.data.cache import MarketDataCache
from stockbench.data.records import Bar, Quote
from stockbench.data.service import DataService
from stockbench.market.registry import InstrumentData
from stockbench.market.service import MarketRules
from stockbench.store.database import Database
from tests.engine.data.test_gates import DAY, SYMBOL, WALL, FakeProvider, FixedClock, bar, db, local, rules, sessions

__all__ = ["db", "rules"]

LISTED = date(2024, 7, 1)  # the Monday after DAY


def test_a_quote_before_the_listing_date_is_not_listed_and_nothing_is_fetched(db: Database, rules: MarketRules) -> None:
    rules.registry.save(InstrumentData(SYMBOL, list_date=LISTED))
    tencent = FakeProvider("tencent", {"quote": lambda: [], "bars": lambda: [bar(SYMBOL, DAY, "tencent")]})
    for clock in (FixedClock(local(DAY, 10, 1)), FixedClock(local(DAY, 20))):  # in the session and after it
        view = DataService(db, clock, rules, {"tencent": tencent}).quote(SYMBOL)
        assert (view.status, view.label, view.price) == ("not_listed", "none", None)
        assert str(LISTED) in view.note
    assert tencent.calls == []


def test_a_stored_quote_or_bar_of_a_day_before_the_listing_date_is_not_listed(db: Database, rules: MarketRules) -> None:
    cache = MarketDataCache(db, ReplayClock.as_of(DAY))
    cache.store_bars([bar(SYMBOL, d) for d in sessions(rules, 5)], fetched_at=WALL)
    quote = Quote(SYMBOL, local(DAY, 10, 0), Decimal("100"), Decimal("100"), None, None, None, 1, None, "tencent")
    cache.store_quotes([quote], fetched_at=WALL)
    inside = DataService(db, FixedClock(local(DAY, 10, 1)), rules, {})
    outside = DataService(db, FixedClock(local(LISTED, 8)), rules, {})  # after the listing date, before its session
    assert (inside.quote(SYMBOL, fetch=False).status, outside.quote(SYMBOL, fetch=False).status) == (
        "trading",
        "trading",
    )

    rules.registry.save(InstrumentData(SYMBOL, list_date=LISTED))  # what the instrument data says: listed later
    live = inside.quote(SYMBOL, fetch=False)
    assert (live.label, live.price, live.status) == ("live", Decimal("100"), "not_listed")
    last = outside.quote(SYMBOL, fetch=False)
    assert (last.label, last.day, last.price, last.status) == ("last_close", DAY, Decimal("100.00"), "not_listed")
    assert inside.status_on(SYMBOL, LISTED, "trading") == "trading"  # the listing day itself trades
    assert inside.status_on(SYMBOL, DAY, "suspended") == "not_listed"
    assert inside.status_on("000001.SZ", DAY) is None  # no listing date known: what the source says (nothing here)


def test_traded_on_reads_a_gap_between_stored_bars_as_suspended(db: Database, rules: MarketRules) -> None:
    days = sessions(rules, 6)  # 2024-06-21 .. 2024-06-28
    gap, silent = days[2], days[3]
    cache = MarketDataCache(db, ReplayClock.as_of(DAY))
    p = Decimal("100.00")
    zero = Bar(SYMBOL, silent, p, p, p, p, p, 0, None, "eastmoney")
    cache.store_bars([*(bar(SYMBOL, d) for d in days if d not in {gap, silent}), zero], fetched_at=WALL)
    data = DataService(db, ReplayClock.as_of(DAY), rules, {})
    assert data.traded_on(SYMBOL, days[1]) is True
    assert data.traded_on(SYMBOL, gap) is False  # bars before and after it, none on it: suspended that day
    assert data.traded_on(SYMBOL, silent) is False  # a bar with no volume
    assert data.traded_on(SYMBOL, date(2024, 6, 22)) is None  # a Saturday: not a session, nothing to say
    assert data.traded_on(SYMBOL, date(2024, 7, 1)) is None  # after the last bar: not known yet
    assert data.traded_on(SYMBOL, date(2024, 6, 3)) is None  # before the first bar stored
    assert data.traded_on("000001.SZ", gap) is None  # no bars stored at all: unknown is not a suspension
    early = DataService(db, ReplayClock.as_of(gap), rules, {})  # the later bars are not visible yet
    assert early.traded_on(SYMBOL, gap) is None


def test_the_fresh_quote_gate_before_the_listing_date_says_not_listed(db: Database, rules: MarketRules) -> None:
    """The gate reads the listing date: before it, `not_listed` (its own code and words), not "no quote is stored",
    whether the market is in session (with a stored quote) or closed (with stored closes); and nothing is fetched."""
    from stockbench.data.gates import evaluate
    from stockbench.research.blocks import GateFact
    from stockbench.research.wording.phrases import gate_reason
    from tests.engine.data.test_gates import context, fill

    fill(MarketDataCache(db, ReplayClock.as_of(DAY)), rules)
    quote = Quote(SYMBOL, local(DAY, 10, 0), Decimal("100"), Decimal("100"), None, None, None, 1, None, "tencent")
    MarketDataCache(db, ReplayClock.as_of(DAY)).store_quotes([quote], fetched_at=WALL)
    before = {
        clock: next(r for r in evaluate(context(db, rules, clock)) if r.name == "fresh_quote")
        for clock in (FixedClock(local(DAY, 10, 1)), FixedClock(local(DAY, 20)), ReplayClock.as_of(DAY))
    }
    assert {g.code for g in before.values()} == {"live", "last_close"}  # without a listing date: the stored prices

    rules.registry.save(InstrumentData(SYMBOL, list_date=LISTED))
    for clock in before:
        gate = next(r for r in evaluate(context(db, rules, clock)) if r.name == "fresh_quote")
        assert (gate.status, gate.code, gate.label) == ("gap", "not_listed", None)
        assert gate.values == {"day": str(DAY), "listed": str(LISTED)} and "no quote" not in gate.reason
        fact = GateFact(gate.name, gate.status, gate.reason, code=gate.code, values=gate.values)
        zh, en = gate_reason(fact, SYMBOL, "zh"), gate_reason(fact, SYMBOL, "en")
        assert "尚未上市" in zh and str(LISTED) in zh and not any(c.isascii() and c.isalpha() for c in zh)
        assert "not listed yet" in en and str(LISTED) in en
    on_the_day = next(r for r in evaluate(context(db, rules, ReplayClock.as_of(LISTED))) if r.name == "fresh_quote")
    assert on_the_day.code != "not_listed"  # the listing day itself trades

    tencent = FakeProvider("tencent", {"quote": lambda: [quote], "bars": lambda: [bar(SYMBOL, DAY, "tencent")]})
    gates = DataService(db, FixedClock(local(DAY, 10, 1)), rules, {"tencent": tencent}).gates(SYMBOL)
    assert next(g for g in gates if g.name == "fresh_quote").code == "not_listed"
    assert "quote" not in tencent.calls  # no quote is asked for a symbol that does not trade yet


def test_a_quote_gap_before_the_listing_date_is_disclosed_in_its_own_words_naming_the_listing_date(
    db: Database, rules: MarketRules
) -> None:
    """The report's gap disclosure of a `not_listed` fresh-quote gap says the symbol is not listed yet and when it
    lists, in Chinese and in English, instead of the general "no current price" words of the fresh-quote gap."""
    from stockbench.data.gates import evaluate
    from stockbench.research.blocks import GateFact
    from stockbench.research.wording.phrases import gap_line, gap_words
    from tests.engine.data.test_gates import context

    rules.registry.save(InstrumentData(SYMBOL, list_date=LISTED))
    gate = next(r for r in evaluate(context(db, rules, FixedClock(local(DAY, 10, 1)))) if r.name == "fresh_quote")
    fact = GateFact(gate.name, gate.status, gate.reason, code=gate.code, values=gate.values)
    assert fact.code == "not_listed"
    for language, words in (("zh", "尚未上市"), ("en", "not listed yet")):
        general, own = gap_words("fresh_quote", language), gap_words("fresh_quote", language, fact)
        line = gap_line(fact, SYMBOL, language)
        assert own != general and words in own and str(LISTED) in own, own
        assert own in line and general not in line, line
    zh = gap_words("fresh_quote", "zh", fact)
    assert not any(c.isascii() and c.isalpha() for c in zh)
    stale = GateFact("fresh_quote", "gap", "old", code="quote_stale", values={"price": "1.00"})
    assert gap_words("fresh_quote", "en", stale) == gap_words("fresh_quote", "en")  # other reasons: the table's words
