"""Cross-source tags at fetch time, through two loopback replay servers (two hosts): two services agree ->
corroborated; one answers -> single_source; they differ beyond the tolerance -> conflicting, a data problem and
a gap of the fresh-quote gate with both values and sources."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from stockbench.data.crosscheck import problems
from stockbench.data.gates import fresh_quote
from stockbench.data.http import HttpClient
from stockbench.data.service import DataService
from stockbench.market.service import MarketRules
from stockbench.research.blocks import GateFact
from stockbench.research.wording.phrases import gate_reason
from stockbench.store.database import Database
from tests.engine.data.replay_server import ReplayServer, Reply, sina_a_line, tencent_a_line
from tests.engine.data.test_gates import db, rules
from tests.engine.data.test_sources import MOUTAI, SYMBOL, Wall, only, service

__all__ = ["db", "rules"]


def tencent_line() -> str:
    return tencent_a_line("sh", "600519", "贵州茅台", time="20240628100000", amount_yuan=170_000_000, **MOUTAI)


def sina_line(prev: str = "1690.00", last: str = "1700.00", volume: int = 100_000) -> str:
    line = sina_a_line("sh600519", "贵州茅台", open_="1690.00", prev=prev, last=last, volume=volume,
                       amount="170000000.000")  # fmt: skip
    return line.replace("15:00:03", "10:00:00")  # the same instant as Tencent's: the preferred source is shown


@pytest.fixture
def servers() -> Iterator[tuple[ReplayServer, ReplayServer]]:
    first, second = ReplayServer().start(), ReplayServer().start()
    yield first, second
    first.stop()
    second.stop()


def fetched(db: Database, rules: MarketRules, http: HttpClient, servers: tuple[ReplayServer, ReplayServer],
            sina: Reply) -> DataService:  # fmt: skip
    tencent, other = servers
    tencent.route("/q=sh600519", Reply.gbk(tencent_line()))
    other.route("/list=sh600519", sina)
    wall = Wall()
    only(db, wall, {"quote.tencent": tencent.base_url, "quote.sina": other.base_url})
    found = service(db, rules, http, wall)
    outcomes = found.fetch(SYMBOL, ["quote"])
    assert [o.source for o in outcomes] == ["tencent", "sina"]  # the second service is asked even after a success
    return found


def tags(found: DataService) -> dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]]:
    view = found.quote(SYMBOL, fetch=False)
    assert view.source == "tencent" and view.corroboration is not None
    return {c.field: (c.tag, c.sources, c.values) for c in view.corroboration.checks}


def test_two_services_that_agree_corroborate_each_value(
    db: Database, rules: MarketRules, http: HttpClient, servers: tuple[ReplayServer, ReplayServer]
) -> None:
    found = fetched(db, rules, http, servers, Reply.gbk(sina_line()))
    assert tags(found) == {
        "last": ("corroborated", ("tencent", "sina"), ("1700.00", "1700.00")),
        "prev_close": ("corroborated", ("tencent", "sina"), ("1690.00", "1690.00")),
        "volume": ("corroborated", ("tencent", "sina"), ("100000", "100000")),  # Tencent's 1000 lots are shares
    }
    assert problems(db, SYMBOL) == [] and found.gates(SYMBOL, fetch=False)[0].status == "pass"


def test_one_service_answering_is_single_source(
    db: Database, rules: MarketRules, http: HttpClient, servers: tuple[ReplayServer, ReplayServer]
) -> None:
    found = fetched(db, rules, http, servers, Reply.failing(503))
    assert {f: t[0] for f, t in tags(found).items()} == dict.fromkeys(("last", "prev_close", "volume"), "single_source")
    assert tags(found)["last"][1] == ("tencent",) and problems(db, SYMBOL) == []


def test_a_conflict_is_a_data_problem_and_a_disclosed_gap_never_averaged(
    db: Database, rules: MarketRules, http: HttpClient, servers: tuple[ReplayServer, ReplayServer]
) -> None:
    found = fetched(db, rules, http, servers, Reply.gbk(sina_line(prev="1600.00")))
    assert tags(found)["prev_close"] == ("conflicting", ("tencent", "sina"), ("1690.00", "1600.00"))
    assert tags(found)["last"][0] == "corroborated"
    assert found.quote(SYMBOL, fetch=False).prev_close == 1690  # the stored quote keeps its own value
    (problem,) = problems(db, SYMBOL)
    assert problem["kind"] == "source_disagreement"
    assert {k: problem["detail"][k] for k in ("field", "a_source", "a_value", "b_source", "b_value")} == {
        "field": "prev_close", "a_source": "tencent", "a_value": "1690.00", "b_source": "sina", "b_value": "1600.00"
    }  # fmt: skip
    gate = found.gates(SYMBOL, fetch=False)[0]
    assert (gate.name, gate.status, gate.code) == ("fresh_quote", "gap", "conflicting")
    assert "tencent 1690.00, sina 1600.00" in gate.reason
    fact = GateFact(gate.name, gate.status, gate.reason, gate.exception_allowed, gate.code, gate.values)
    zh = gate_reason(fact, SYMBOL, "zh")
    assert "昨收价" in zh and "腾讯财经 1690.00" in zh and "新浪财经 1600.00" in zh and "未取平均" in zh
    assert "previous close (Tencent Finance 1690.00, Sina Finance 1600.00)" in gate_reason(fact, SYMBOL, "en")
    assert fresh_quote(found._context(found.instrument(SYMBOL))).code == "conflicting"
    assert len(problems(db, SYMBOL)) == 1  # the conflict is one problem, not one per stored quote


def test_the_second_quote_carries_the_same_tags(
    db: Database, rules: MarketRules, http: HttpClient, servers: tuple[ReplayServer, ReplayServer]
) -> None:
    from stockbench.data import corroboration

    found = fetched(db, rules, http, servers, Reply.gbk(sina_line(prev="1600.00")))
    sina = found.cache.latest_quote(SYMBOL, "sina")
    assert sina is not None
    tagged = corroboration.read(db, sina)
    assert tagged is not None and tagged.conflicts()[0].values == ("1600.00", "1690.00")
