"""Fallback chains, the circuit breaker, stale and delayed quotes, and changed base URLs, through loopback replay
servers (one per host: the breaker rests a host, and two ports are two hosts)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from stockbench.cli.main import run
from stockbench.clock import MARKET_TZ
from stockbench.data.http import HttpClient
from stockbench.data.service import DataService
from stockbench.data.sources import SOURCE_KEYS, SourceBook, declared
from stockbench.errors import RuleViolation
from stockbench.market.service import MarketRules
from stockbench.store.database import Database
from tests.engine.data.replay_server import (
    ReplayServer,
    Reply,
    eastmoney_kline,
    eastmoney_quote,
    sina_a_line,
    tencent_a_line,
    tencent_hk_line,
    tencent_kline,
)
from tests.engine.data.test_gates import DAY, SYMBOL, FixedClock, db, local, rules

__all__ = ["db", "rules"]  # the fixtures, shared with the gates' tests

NEWFQKLINE = "/ifzqgtimg/appstock/app/newfqkline/get"
OLD_FQKLINE = "/appstock/app/fqkline/get"
TENCENT_ROWS = [["2024-06-27", "1700.00", "1705.00", "1710.00", "1690.00", "1000"],
                ["2024-06-28", "1705.00", "1700.00", "1712.00", "1695.00", "900"]]  # fmt: skip
KLINE = "/api/qt/stock/kline/get"
ROWS = [f"2024-06-{d},10.00,10.10,10.20,9.90,1000,1010000.00,3.00,1.00,0.10,0.50" for d in (26, 27, 28)]
MOUTAI = {"last": "1700.00", "prev": "1690.00", "high": "1710.00", "low": "1680.00", "lots": 1000}


@pytest.fixture
def servers() -> Iterator[tuple[ReplayServer, ReplayServer]]:
    first, second = ReplayServer().start(), ReplayServer().start()
    yield first, second
    first.stop()
    second.stop()


class Wall:
    """The breaker's clock (real time in the program), moved by the test."""

    def __init__(self) -> None:
        self.at = datetime(2024, 6, 28, 2, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at


def only(db: Database, wall: Wall, at: Mapping[str, str]) -> SourceBook:
    """Point the endpoints in `at` to the given base URLs and leave every other one out (no network)."""
    book = SourceBook(db, wall)
    for endpoint in declared():
        if endpoint.name in at:
            book.change(endpoint.name, base_url=at[endpoint.name])
        else:
            book.change(endpoint.name, enabled=False)
    return book


def service(db: Database, rules: MarketRules, http: HttpClient, wall: Wall, *, minute: int = 1) -> DataService:
    return DataService(db, FixedClock(local(DAY, 10, minute)), rules, http=http, now=wall)


def test_a_host_answering_501_falls_back_to_the_next(
    db: Database, rules: MarketRules, http: HttpClient, servers: tuple[ReplayServer, ReplayServer]
) -> None:
    tencent, eastmoney = servers
    tencent.route(NEWFQKLINE, Reply.failing(501))
    eastmoney.route(KLINE, Reply.json(eastmoney_kline("600519", 1, "贵州茅台", ROWS)))
    wall = Wall()
    book = only(db, wall, {"bars.tencent": tencent.base_url, "bars.eastmoney": eastmoney.base_url})
    outcomes = service(db, rules, http, wall).fetch(SYMBOL, ["bars"])
    assert [(o.source, o.ok, o.failure) for o in outcomes] == [
        ("tencent", False, "http_status"),
        ("eastmoney", True, None),
    ]
    assert tencent.seen(NEWFQKLINE) and eastmoney.seen(KLINE)[0].params["secid"] == "1.600519"
    states = {s.name: s for s in book.sources()}
    assert (states["bars.tencent"].state, states["bars.tencent"].failures) == ("failing", 1)
    assert "HTTP 501" in (states["bars.tencent"].last_error or "")
    assert (states["bars.eastmoney"].state, states["bars.eastmoney"].last_ok) == ("ok", wall.at)


@pytest.fixture
def three() -> Iterator[tuple[list[tuple[str, str]], ReplayServer, ReplayServer, ReplayServer]]:
    """Three hosts noting every request in one journal, in the order they came."""
    journal: list[tuple[str, str]] = []
    hosts = tuple(ReplayServer(journal).start() for _ in range(3))
    yield journal, *hosts
    for host in hosts:
        host.stop()


def hosts_asked(journal: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The journal with a host's retries of the same request folded into one."""
    return [entry for i, entry in enumerate(journal) if i == 0 or journal[i - 1] != entry]


def test_daily_bars_fall_back_from_newfqkline_to_push2his_to_push2delay(
    db: Database,
    rules: MarketRules,
    http: HttpClient,
    three: tuple[list[tuple[str, str]], ReplayServer, ReplayServer, ReplayServer],
) -> None:
    """Tencent's newfqkline answers 501 and Eastmoney's push2his 502: push2delay answers, and its bars are stored."""
    journal, tencent, his, delay = three
    tencent.route(NEWFQKLINE, Reply.failing(501))
    his.route(KLINE, Reply.failing(502))
    delay.route(KLINE, Reply.json(eastmoney_kline("600519", 1, "贵州茅台", ROWS)), secid="1.600519")
    wall = Wall()
    book = only(db, wall, {"bars.tencent": tencent.base_url, "bars.eastmoney": his.base_url,
                           "bars.eastmoney_delay": delay.base_url})  # fmt: skip
    data = service(db, rules, http, wall, minute=1)
    outcomes = data.fetch(SYMBOL, ["bars"])
    assert [(o.source, o.ok, o.failure) for o in outcomes] == [
        ("tencent", False, "http_status"),
        ("eastmoney", False, "http_status"),
        ("eastmoney", True, None),
    ]
    assert hosts_asked(journal) == [(tencent.base_url, NEWFQKLINE), (his.base_url, KLINE), (delay.base_url, KLINE)]
    assert delay.seen(KLINE)[0].params["secid"] == "1.600519"
    stored = data.bars(SYMBOL, date(2024, 6, 26), date(2024, 6, 27))
    assert stored.get_column("day").to_list() == [date(2024, 6, 26), date(2024, 6, 27)]
    assert {
        (r["open"], r["close"], r["high"], r["low"], r["volume"], r["source"]) for r in stored.iter_rows(named=True)
    } == {(Decimal("10"), Decimal("10.1"), Decimal("10.2"), Decimal("9.9"), 100_000, "eastmoney")}  # 1000 lots
    states = {s.name: s.state for s in book.sources()}
    assert (states["bars.tencent"], states["bars.eastmoney"], states["bars.eastmoney_delay"]) == (
        "failing",
        "failing",
        "ok",
    )


# An Eastmoney stock/get answer (fltt=2) for 600519 at 2024-06-28 10:00:00 Beijing time (f86), volume in lots (f47).
EASTMONEY_MOUTAI = {"f43": 1700.0, "f44": 1710.0, "f45": 1680.0, "f46": 1690.0, "f47": 1000, "f48": 170000000.0,
                    "f51": 1859.0, "f52": 1521.0, "f57": "600519", "f58": "贵州茅台", "f60": 1690.0,
                    "f86": 1719540000, "f168": 0.01}  # fmt: skip


def test_a_share_quotes_fall_back_from_tencent_to_sina_blocked_to_eastmoney(
    db: Database,
    rules: MarketRules,
    http: HttpClient,
    three: tuple[list[tuple[str, str]], ReplayServer, ReplayServer, ReplayServer],
) -> None:
    """Tencent answers 503 and Sina refuses with its "Kinsoku jikou desu!" page (HTTP 200, blocked): Eastmoney's
    quote is stored, tagged single-source (no service is left to check it against)."""
    journal, tencent, sina, eastmoney = three
    tencent.route("/q=sh600519", Reply.failing(503))
    sina.route("/list=sh600519", Reply(b"Kinsoku jikou desu!", content_type="text/html"))
    eastmoney.route("/api/qt/stock/get", Reply.json(eastmoney_quote(EASTMONEY_MOUTAI)), secid="1.600519")
    wall = Wall()
    only(db, wall, {"quote.tencent": tencent.base_url, "quote.sina": sina.base_url,
                    "quote.eastmoney": eastmoney.base_url})  # fmt: skip
    data = service(db, rules, http, wall, minute=1)
    outcomes = data.fetch(SYMBOL, ["quote"])
    assert [(o.source, o.ok, o.failure) for o in outcomes] == [
        ("tencent", False, "http_status"),
        ("sina", False, "blocked"),
        ("eastmoney", True, None),
    ]
    assert "Referer" in outcomes[1].reason
    assert hosts_asked(journal) == [
        (tencent.base_url, "/q=sh600519"),
        (sina.base_url, "/list=sh600519"),
        (eastmoney.base_url, "/api/qt/stock/get"),
    ]
    stored = data.cache.latest_quote(SYMBOL)
    assert stored is not None and stored.source == "eastmoney"
    assert (stored.last, stored.prev_close, stored.volume, stored.at) == (
        Decimal("1700"), Decimal("1690"), 100_000, local(DAY, 10, 0)
    )  # fmt: skip
    view = data.quote(SYMBOL, fetch=False)
    assert (view.label, view.source) == ("live", "eastmoney") and view.corroboration is not None
    assert {c.tag for c in view.corroboration.checks} == {"single_source"}


def test_a_resting_host_is_skipped_until_its_cooldown_even_by_the_next_process(
    db: Database, rules: MarketRules, http: HttpClient, servers: tuple[ReplayServer, ReplayServer]
) -> None:
    tencent, sina = servers
    tencent.route("/q=sh600519", Reply.failing(503))
    line = sina_a_line(
        "sh600519", "贵州茅台", open_="1690.00", prev="1690.00", last="1700.00", volume=100_000, amount="170000000.000"
    )
    sina.route("/list=sh600519", Reply.gbk(line))
    wall = Wall()
    book = only(db, wall, {"quote.tencent": tencent.base_url, "quote.sina": sina.base_url})
    rule = book.rule
    for _ in range(rule.failures):
        outcomes = service(db, rules, http, wall).fetch(SYMBOL, ["quote"])
        assert [(o.source, o.ok) for o in outcomes] == [("tencent", False), ("sina", True)]
    asked = len(tencent.requests)
    assert {s.name: s.state for s in book.sources()}["quote.tencent"] == "resting"

    later = service(db, rules, http, wall).fetch(SYMBOL, ["quote"])  # a new service: what the next process sees
    assert later[0].skipped and "rests until" in later[0].reason and later[1].ok
    assert len(tencent.requests) == asked

    wall.at += rule.cooldown - timedelta(seconds=1)
    assert service(db, rules, http, wall).fetch(SYMBOL, ["quote"])[0].skipped
    wall.at += timedelta(seconds=2)
    again = service(db, rules, http, wall).fetch(SYMBOL, ["quote"])
    assert not again[0].skipped and len(tencent.requests) > asked
    assert {s.name: s.state for s in book.sources()}["quote.tencent"] == "resting"  # failed again: rests again


def test_the_last_good_quote_is_labelled_stale_with_its_age_and_the_gate_is_a_gap(
    db: Database, rules: MarketRules, http: HttpClient, servers: tuple[ReplayServer, ReplayServer]
) -> None:
    tencent, _ = servers
    line = tencent_a_line("sh", "600519", "贵州茅台", time="20240628100000", amount_yuan=170_000_000, **MOUTAI)
    tencent.route("/q=sh600519", Reply.gbk(line), Reply.failing(502))
    wall = Wall()
    only(db, wall, {"quote.tencent": tencent.base_url})
    fresh = service(db, rules, http, wall).quote(SYMBOL)
    assert (fresh.label, fresh.price, fresh.age_seconds) == ("live", Decimal("1700"), 60)
    later = service(db, rules, http, wall, minute=40)
    view = later.quote(SYMBOL)
    assert (view.label, view.price, view.source, view.age_seconds) == ("stale", Decimal("1700"), "tencent", 40 * 60)
    assert "stale" in view.note and "40 minutes" in view.note
    gate = next(g for g in later.gates(SYMBOL, fetch=False) if g.name == "fresh_quote")
    assert (gate.status, gate.code) == ("gap", "quote_stale")


def test_hong_kong_quotes_come_from_sina_first_and_tencent_s_are_labelled_delayed(
    db: Database, rules: MarketRules, http: HttpClient, servers: tuple[ReplayServer, ReplayServer]
) -> None:
    wall = tencent_hk_only(db, servers, "2024/06/28 09:50:00")
    hk = hk_service(db, rules, http, wall, local(DAY, 10, 0, tz=MARKET_TZ["HK"]))
    view = hk.quote("00700.HK")
    assert servers[0].seen("/list=rt_hk00700") and (view.label, view.source, view.price) == (
        "delayed",
        "tencent",
        Decimal("380"),
    )
    assert "delayed" in view.note


def hk_service(db: Database, rules: MarketRules, http: HttpClient, wall: Wall, at: datetime) -> DataService:
    return DataService(db, FixedClock(at), rules, http=http, now=wall)


def tencent_hk_only(db: Database, servers: tuple[ReplayServer, ReplayServer], stamp: str) -> Wall:
    """Hong Kong quotes asked of the two loopback servers, Sina's failing (501) and Tencent's 00700 line taken at
    `stamp` (its own time field, Hong Kong time)."""
    sina, tencent = servers
    sina.route("/list=rt_hk00700", Reply.failing(501))
    line = tencent_hk_line("00700", "腾讯控股", "TENCENT", last="380.00", prev="378.00", lot=100, volume=1000)
    tencent.route("/q=hk00700", Reply.gbk(line.replace("2024/06/28 16:08:09", stamp)))
    wall = Wall()
    only(db, wall, {"hk_quote.sina": sina.base_url, "hk_quote.tencent": tencent.base_url})
    return wall


def test_a_tencent_hong_kong_quote_15_minutes_behind_is_delayed_not_stale_and_its_gate_passes_labelled_delayed(
    db: Database, rules: MarketRules, http: HttpClient, servers: tuple[ReplayServer, ReplayServer]
) -> None:
    """Tencent's Hong Kong quotes are published 15 minutes late: one taken 15 min 05 s before the clock is on time
    (5 s beyond the delay), labelled delayed with its minutes, and the fresh-quote gate passes labelled delayed."""
    wall = tencent_hk_only(db, servers, "2024/06/28 09:44:55")
    hk = hk_service(db, rules, http, wall, datetime(2024, 6, 28, 10, 0, tzinfo=MARKET_TZ["HK"]))
    view = hk.quote("00700.HK")
    assert (view.label, view.source, view.delay_minutes, view.age_seconds) == ("delayed", "tencent", 15, 905)
    assert "15 minutes late" in view.note and "stale" not in view.note
    gate = next(g for g in hk.gates("00700.HK", fetch=False) if g.name == "fresh_quote")
    assert (gate.status, gate.code, gate.label) == ("pass", "delayed", "delayed")
    assert gate.values["delay"] == 15 and gate.values["late"] == "0.1"


def test_a_delayed_quote_lagging_beyond_its_delay_and_the_limit_is_stale(
    db: Database, rules: MarketRules, http: HttpClient, servers: tuple[ReplayServer, ReplayServer]
) -> None:
    """The same quote 31 minutes later (46 min 05 s behind: 31 min beyond the delay, past the 15-minute limit)."""
    wall = tencent_hk_only(db, servers, "2024/06/28 09:44:55")
    hk_service(db, rules, http, wall, datetime(2024, 6, 28, 10, 0, tzinfo=MARKET_TZ["HK"])).quote("00700.HK")
    later = hk_service(db, rules, http, wall, datetime(2024, 6, 28, 10, 31, tzinfo=MARKET_TZ["HK"]))
    view = later.quote("00700.HK", fetch=False)
    assert (view.label, view.age_seconds) == ("stale", 46 * 60 + 5)
    gate = next(g for g in later.gates("00700.HK", fetch=False) if g.name == "fresh_quote")
    assert (gate.status, gate.code, gate.label, gate.values["late"]) == ("gap", "quote_stale", "delayed", "31.1")


def test_an_endpoint_s_declared_delay_is_carried_by_its_quotes(
    db: Database, rules: MarketRules, http: HttpClient, servers: tuple[ReplayServer, ReplayServer]
) -> None:
    """A source declared late in the sources table (here Sina, as if it were) stamps its delay on the quotes its
    adapter states none for: stored with it, and labelled delayed."""
    sina, _ = servers
    line = sina_a_line(
        "sh600519", "贵州茅台", open_="1690.00", prev="1690.00", last="1700.00", volume=100_000, amount="170000000.000"
    )
    sina.route("/list=sh600519", Reply.gbk(line.replace("15:00:03", "09:50:00")))
    wall = Wall()
    late = [dataclasses.replace(e, delay_minutes=15) if e.name == "quote.sina" else e for e in declared()]
    data = service(db, rules, http, wall)
    data.sources = SourceBook(db, wall, endpoints=late)
    for endpoint in late:
        data.sources.change(endpoint.name, **({"base_url": sina.base_url} if endpoint.name == "quote.sina"
                                              else {"enabled": False}))  # fmt: skip
    view = data.quote(SYMBOL)
    assert (view.label, view.source, view.delay_minutes) == ("delayed", "sina", 15)
    stored = data.cache.latest_quote(SYMBOL)
    assert stored is not None and stored.delay_minutes == 15


def test_the_old_tencent_fqkline_is_declared_after_newfqkline_and_off(db: Database) -> None:
    book = SourceBook(db, Wall())
    bars = [s for s in book.sources() if s.endpoint.service == "bars"]
    assert [s.name for s in bars][:2] == ["bars.tencent", "bars.tencent_old"]
    old = bars[1]
    assert (old.state, old.enabled, old.order) == ("disabled", False, 2)
    assert old.urls() == {"kline": "https://web.ifzq.gtimg.cn" + OLD_FQKLINE}
    assert [s.name for s in book.chain("bars", "CN")] == ["bars.tencent", "bars.eastmoney", "bars.eastmoney_delay"]
    assert book.health() == "ok"  # an endpoint left out does not dim the light
    book.change("bars.tencent_old", base_url="https://mirror.example.com")  # a new address: still off as declared
    assert book.source("bars.tencent_old").state == "disabled"
    book.change("bars.tencent_old", enabled=True)
    assert [s.name for s in book.chain("bars", "CN")][:2] == ["bars.tencent", "bars.tencent_old"]


HK_ROWS = ["2024-06-27,378.000,380.200,383.000,376.400,15000000,5703000000.000,1.75,0.58,2.20,0.16",
           "2024-06-28,380.200,382.400,385.000,379.000,12000000,4588800000.000,1.58,0.58,2.20,0.13"]  # fmt: skip


def test_hong_kong_bars_come_from_eastmoney_116_then_push2delay_and_tencent_s_hkfqkline_is_declared_off(
    db: Database, rules: MarketRules, http: HttpClient, servers: tuple[ReplayServer, ReplayServer]
) -> None:
    """The Hong Kong bars chain is Eastmoney push2his (secid 116, as akshare's stock_hk_hist asks), then push2delay;
    Tencent's hkfqkline (the host answering HTTP 501 on fqkline) is declared but off: given an address that answers,
    it is still never asked."""
    his, delay = servers
    tencent = ReplayServer().start()
    try:
        his.route(KLINE, Reply.failing(502))
        delay.route(KLINE, Reply.json(eastmoney_kline("00700", 116, "腾讯控股", HK_ROWS)), secid="116.00700")
        tencent.route("/appstock/app/hkfqkline/get", Reply.json(tencent_kline("hk00700", TENCENT_ROWS)))
        wall = Wall()
        book = SourceBook(db, wall)
        assert [s.name for s in book.chain("bars", "HK")] == ["bars.eastmoney", "bars.eastmoney_delay"]
        assert book.source("bars.tencent_hk").state == "disabled"
        at = {"bars.eastmoney": his.base_url, "bars.eastmoney_delay": delay.base_url,
              "bars.tencent_hk": tencent.base_url}  # fmt: skip
        for endpoint in declared():
            if endpoint.name in at:
                book.change(endpoint.name, base_url=at[endpoint.name])  # a new address, its declared state kept
            elif endpoint.enabled:
                book.change(endpoint.name, enabled=False)
        saturday = local(DAY + timedelta(days=1), 10, 0, tz=MARKET_TZ["HK"])  # the 28th's bar is visible then
        data = DataService(db, FixedClock(saturday), rules, http=http, now=wall)
        outcomes = data.fetch("00700.HK", ["bars"])
        assert [(o.source, o.ok, o.failure) for o in outcomes] == [
            ("eastmoney", False, "http_status"),
            ("eastmoney", True, None),
        ]
        assert [r.params["secid"] for r in his.seen(KLINE)][:1] == ["116.00700"]
        assert delay.seen(KLINE)[0].params["secid"] == "116.00700" and tencent.requests == []
        stored = data.bars("00700.HK")
        assert stored.get_column("day").to_list() == [date(2024, 6, 27), date(2024, 6, 28)]
        last = stored.row(-1, named=True)
        assert (last["close"], last["volume"], last["source"]) == (Decimal("382.4"), 12_000_000, "eastmoney")
    finally:
        tencent.stop()


def old_tencent_chain(db: Database, wall: Wall, new: ReplayServer, old: ReplayServer, *, enabled: bool) -> None:
    """newfqkline at `new`, the old fqkline at `old` (turned on only when `enabled`), every other endpoint off."""
    book = SourceBook(db, wall)
    for endpoint in declared():
        if endpoint.name not in {"bars.tencent", "bars.tencent_old"}:
            book.change(endpoint.name, enabled=False)
    book.change("bars.tencent", base_url=new.base_url)
    book.change("bars.tencent_old", base_url=old.base_url)
    if enabled:
        book.change("bars.tencent_old", enabled=True)


def test_the_old_tencent_fqkline_turned_on_is_asked_after_newfqkline_answers_501(
    db: Database, rules: MarketRules, http: HttpClient, servers: tuple[ReplayServer, ReplayServer]
) -> None:
    new, old = servers
    new.route(NEWFQKLINE, Reply.failing(501))
    old.route(OLD_FQKLINE, Reply.json(tencent_kline("sh600519", TENCENT_ROWS)))
    wall = Wall()
    old_tencent_chain(db, wall, new, old, enabled=True)
    outcomes = service(db, rules, http, wall).fetch(SYMBOL, ["bars"])
    assert [(o.source, o.ok, o.failure) for o in outcomes] == [
        ("tencent", False, "http_status"),
        ("tencent", True, None),
    ]
    assert len(new.seen(NEWFQKLINE)) == 1 and old.seen(NEWFQKLINE) == []
    assert old.seen(OLD_FQKLINE)[0].params["param"].startswith("sh600519,day,")
    states = {s.name: s for s in SourceBook(db, wall).sources()}
    assert (states["bars.tencent"].state, states["bars.tencent_old"].state) == ("failing", "ok")


def test_the_old_tencent_fqkline_left_off_is_never_asked(
    db: Database, rules: MarketRules, http: HttpClient, servers: tuple[ReplayServer, ReplayServer]
) -> None:
    new, old = servers
    new.route(NEWFQKLINE, Reply.failing(501))
    old.route(OLD_FQKLINE, Reply.json(tencent_kline("sh600519", TENCENT_ROWS)))
    wall = Wall()
    old_tencent_chain(db, wall, new, old, enabled=False)
    outcomes = service(db, rules, http, wall).fetch(SYMBOL, ["bars"])
    assert [(o.source, o.ok, o.failure) for o in outcomes] == [("tencent", False, "http_status")]
    assert old.requests == [] and new.seen(OLD_FQKLINE) == []


def test_order_and_enabled_change_the_chain_and_bad_changes_are_refused_at_once(db: Database) -> None:
    book = SourceBook(db, Wall())
    assert [s.name for s in book.chain("bars", "CN")] == ["bars.tencent", "bars.eastmoney", "bars.eastmoney_delay"]
    assert [s.name for s in book.chain("quote", "HK")] == ["hk_quote.sina", "hk_quote.tencent"]
    book.change("bars.eastmoney_delay", order=1)
    book.change("bars.tencent", enabled=False)
    assert [s.name for s in book.chain("bars", "CN")] == ["bars.eastmoney_delay", "bars.eastmoney"]
    assert {s.name: s.state for s in book.sources()}["bars.tencent"] == "disabled"
    with pytest.raises(RuleViolation) as refused:
        book.change("bars.eastmoney", base_url="ftp://me:secret@mirror?x=1", order=0)
    codes = [p.code for p in refused.value.problems]
    assert codes == ["source_url_scheme", "source_url_credentials", "source_url_query", "source_order"]
    assert "secret" not in str(refused.value) and all("secret" not in p.message for p in refused.value.problems)
    assert book.source("bars.eastmoney").base_url == "https://push2his.eastmoney.com"


def call(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, object]:
    code = run(["--json", *args])
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip() else None


def test_cli_lists_the_sources_with_the_contract_keys_and_a_changed_base_url_gets_the_requests(
    home: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    servers: tuple[ReplayServer, ReplayServer],
) -> None:
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    mirror, _ = servers
    mirror.route(KLINE, Reply.json(eastmoney_kline("600519", 1, "贵州茅台", ROWS)))
    code, listed = call(capsys, "data", "sources")
    assert code == 0 and isinstance(listed, dict)
    assert [tuple(s) for s in listed["sources"]] == [SOURCE_KEYS] * len(declared())
    for endpoint in declared():
        if endpoint.name != "bars.eastmoney":
            assert call(capsys, "data", "sources", "set", endpoint.name, "--enabled", "false")[0] == 0
    code, changed = call(capsys, "data", "sources", "set", "bars.eastmoney", "--base-url", mirror.base_url + "/")
    assert code == 0 and isinstance(changed, dict)
    assert changed["sources"] == [{"name": "bars.eastmoney", "base_url": mirror.base_url, "state": "ok",
                                   "last_ok": None, "last_error": None, "failures": 0}]  # fmt: skip
    code, fetched = call(capsys, "data", "fetch", "600519", "--what", "bars", "--as-of", "2024-06-28")
    assert code == 0 and isinstance(fetched, dict)
    assert [(f["source"], f["ok"]) for f in fetched["fetches"]] == [("eastmoney", True)]
    assert mirror.seen(KLINE)
    _, after = call(capsys, "data", "sources")
    assert isinstance(after, dict)
    row = next(s for s in after["sources"] if s["name"] == "bars.eastmoney")
    assert row["state"] == "ok" and datetime.fromisoformat(row["last_ok"]).tzinfo is not None
    code, refused = call(capsys, "data", "sources", "set", "bars.nowhere", "--order", "2")
    assert code == 1 and isinstance(refused, dict) and "bars.nowhere" in json.dumps(refused, ensure_ascii=False)


def test_cli_lists_the_old_tencent_fqkline_disabled_and_turns_it_on(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, listed = call(capsys, "data", "sources")
    assert code == 0 and isinstance(listed, dict)
    names = [s["name"] for s in listed["sources"]]
    assert names.index("bars.tencent_old") == names.index("bars.tencent") + 1
    row = next(s for s in listed["sources"] if s["name"] == "bars.tencent_old")
    assert row == {"name": "bars.tencent_old", "base_url": "https://web.ifzq.gtimg.cn", "state": "disabled",
                   "last_ok": None, "last_error": None, "failures": 0}  # fmt: skip
    assert run(["data", "sources"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if "bars.tencent_old" in x)
    assert "disabled" in line
    code, changed = call(capsys, "data", "sources", "set", "bars.tencent_old", "--enabled", "true")
    assert code == 0 and isinstance(changed, dict) and changed["sources"][0]["state"] == "ok"
    _, after = call(capsys, "data", "sources")
    assert isinstance(after, dict)
    assert next(s for s in after["sources"] if s["name"] == "bars.tencent_old")["state"] == "ok"


def test_cli_order_moves_an_endpoint_in_its_service_and_the_chain_follows(
    home: Path, servers: tuple[ReplayServer, ReplayServer]
) -> None:
    """`stockbench data sources set NAME --order N` through click: push2delay asked first for daily bars, listed
    there, and asked first by the next fetch; an order below 1 is refused and changes nothing."""
    from click.testing import CliRunner

    from stockbench.cli.main import cli

    def invoke(*args: str) -> tuple[int, Any]:
        said = CliRunner().invoke(cli, ["--json", *args], prog_name="stockbench")
        return said.exit_code, json.loads(said.stdout) if said.stdout.strip() else None

    code, changed = invoke("data", "sources", "set", "bars.eastmoney_delay", "--order", "1")
    assert code == 0 and [s["name"] for s in changed["sources"]] == ["bars.eastmoney_delay"]
    _, listed = invoke("data", "sources")
    bars = [s["name"] for s in listed["sources"] if s["name"].startswith("bars.")]
    assert bars == ["bars.eastmoney_delay", "bars.tencent", "bars.tencent_old", "bars.eastmoney", "bars.tencent_hk"]
    refused = CliRunner().invoke(cli, ["data", "sources", "set", "bars.eastmoney", "--order", "0"])
    assert isinstance(refused.exception, RuleViolation)  # `run` words it; click's runner hands it back as raised
    assert [p.code for p in refused.exception.problems] == ["source_order"]
    delay, his = servers
    delay.route(KLINE, Reply.json(eastmoney_kline("600519", 1, "贵州茅台", ROWS)))
    for name, url in (("bars.eastmoney_delay", delay.base_url), ("bars.eastmoney", his.base_url)):
        assert invoke("data", "sources", "set", name, "--base-url", url)[0] == 0
    assert invoke("data", "sources", "set", "bars.tencent", "--enabled", "false")[0] == 0
    code, fetched = invoke("data", "fetch", "600519", "--what", "bars", "--as-of", "2024-06-28")
    assert code == 0 and [(f["source"], f["ok"]) for f in fetched["fetches"]] == [("eastmoney", True)]
    assert delay.seen(KLINE) and his.requests == []
