"""`stockbench demo` then `stockbench analyze`: a full report from the offline rules model, with no network and no
key, on every board of the demo market, and with an account holding a position and an open order."""

from __future__ import annotations

import json
import re
import socket
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from stockbench.cli.main import run
from stockbench.evidence.gates import GATES
from stockbench.ledger.entries import Order
from stockbench.market.limits import limit_pct
from stockbench.market.lots import board_lot
from stockbench.market.ticks import round_to_tick
from stockbench.research.offline import LABEL
from stockbench.research.wording import say
from stockbench.workbench import Workbench
from tests.engine.research.conftest import BUY_SYMBOL, DEMO_SYMBOL, LAST_SESSION, at, close_on, holding_account

BOARDS = {
    "605903.SH": "main",
    "003901.SZ": "main",
    "301901.SZ": "chinext",
    "688901.SH": "star",
    "920901.BJ": "bse",
    "605905.SH": "main",  # *ST since 2024
    "02971.HK": "hk_main",
}
SECTIONS = ("结论", "背景", "数据与缺口", "诊断", "多空辩论", "计划", "情景", "风险", "连续性", "方法", "声明")


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every socket connection attempt fails the test (and is recorded)."""
    attempts: list[object] = []

    def refuse(self: socket.socket, address: object) -> None:
        attempts.append(address)
        raise AssertionError(f"network access attempted: {address!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    return attempts


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code = run(["--json", *argv])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def gate_results(bench: Workbench, run_id: str) -> dict[str, list[dict[str, Any]]]:
    payload = bench.research.journal.stored(run_id, "publish/gates", "result")
    assert payload is not None, "the publication gates never ran"
    found: dict[str, list[dict[str, Any]]] = json.loads(payload)
    return found


def assert_published_and_clean(bench: Workbench, outcome: dict[str, Any]) -> dict[str, Any]:
    """Published, every gate ran and found nothing, and `reports verify` agrees from the frozen record."""
    assert outcome["status"] == "published", outcome
    gates = gate_results(bench, outcome["run_id"])
    assert set(gates) == {name for name, _ in GATES}
    assert gates == {name: [] for name in gates}
    assert bench.research.verify(outcome["report_id"]) == []
    report: dict[str, Any] = bench.research.report(outcome["report_id"]).as_dict()
    return report


def test_demo_then_analyze_publishes_a_full_report_offline_with_no_key(
    demo_home: Path, capsys: pytest.CaptureFixture[str], no_network: list[object]
) -> None:
    assert cli_json(capsys, "demo")["built"] is False  # the session built it through the same command
    outcome = cli_json(capsys, "analyze", DEMO_SYMBOL)
    # how long it takes is measured by the bundle's smoke test and `python -m bench research_offline`, not here
    assert set(outcome) >= {"run_id", "report_id", "status", "action", "zones", "orders"}
    assert outcome["status"] == "published" and outcome["action"] in {"buy", "wait", "avoid"}  # nothing held
    assert {"buy", "sell", "stop"} <= set(outcome["zones"])
    assert cli_json(capsys, "reports", "verify", outcome["report_id"]) == {
        "report_id": outcome["report_id"], "ok": True, "problems": []}  # fmt: skip
    assert no_network == []
    with Workbench.open(demo_home) as bench:
        assert bench.workspace.settings.get("models") in (None, {})  # no model configured, so no key either
        report = assert_published_and_clean(bench, outcome)
        assert report["offline"] is True and report["model"] == "offline"
        markdown = report["markdown"]
        # the header names the model once, saying no language model was used; the title and conclusion do not repeat it
        assert f"- 模型：{LABEL}" in markdown.splitlines() and markdown.count(LABEL) == 1
        assert LABEL not in report["title"] and "（（" not in report["title"] and "））" not in report["title"]
        assert [line[3:] for line in markdown.splitlines() if line.startswith("## ")] == list(SECTIONS)
        assert report["as_of"] is not None  # research on the replay clock says when it was as of
        stages = [k for k, kind, _ in bench.research.journal.results(outcome["run_id"]) if kind == "stage"]
        assert stages == [f"{s}/done" for s in ("prepare", "scene", "collect", "preprocess", "analyze", "decide",
                                                 "report", "publish")]  # fmt: skip


@pytest.mark.parametrize("symbol", list(BOARDS))
def test_every_board_publishes_with_every_gate_passing(bench: Workbench, symbol: str) -> None:
    outcome = bench.research.analyze(symbol).as_dict()
    report = assert_published_and_clean(bench, outcome)
    prepare = json.loads(bench.research.journal.stored(outcome["run_id"], "prepare/facts", "result") or "{}")
    facts = prepare["instrument"]
    instrument = bench.market.registry.instrument(symbol)
    assert facts["board"] == BOARDS[symbol] == instrument.board.value
    st = bool(bench.market.registry.st_on(symbol, LAST_SESSION))
    assert st == (symbol == "605905.SH")
    expected_pct = limit_pct(instrument, LAST_SESSION, st=st, tables=bench.market.tables)
    assert (facts["limit_pct"] is None) == (expected_pct is None)
    if expected_pct is not None:
        assert facts["limit_pct"] == str(expected_pct[0])
    assert facts["lot"] == board_lot(instrument, bench.market.tables)[0]
    assert report["symbol"] == symbol and report["draft"]["orders"] == []  # no account: nothing is sized
    # the scene's rationale says how this run's sector index and peers were chosen, as the context block records it
    context = prepare["context"]
    scene = report["markdown"].split("\n## ")[2].strip().splitlines()
    sector = {"mapping": f"的板块指数 {context['sector']} {context['sector_name']} 取自板块映射",
              "unavailable": f"的板块指数按手册默认为 {context['sector']} {context['sector_name']}，但其行情未存储"
              }[context["sector_basis"]]  # fmt: skip
    peers = {"declared": "同业取自板块映射中的声明", "rule": "同业按规则从已存储的股票中选取"}[context["peer_basis"]]
    assert scene[-1].startswith("按规则默认：") and sector in scene[-1] and scene[-1].endswith(peers), scene[-1]
    assert (context["sector_basis"], context["peer_basis"]) == (("unavailable", "rule") if symbol == "02971.HK"
                                                                else ("mapping", "declared"))  # fmt: skip
    # the day's traded amount in the quote currency ("成交额 1.37亿元" was said of a Hong Kong stock), read by the
    # number gate as it is written
    price = next(line for line in scene if line.startswith("价格（"))
    assert ("亿港元" in price) == (symbol == "02971.HK") and ("亿元" in price) == (symbol != "02971.HK"), price
    # prices to the cent as the rest of the report writes them (a Hong Kong close read "9.980" here, "9.98" elsewhere)
    assert re.search(r"\d\.\d{3}(?!\d)", price) is None, price
    if context["peer_basis"] == "declared":  # declared peers are named as the rule's are
        names = {p["symbol"]: p["name"] for p in context["peers"]}
        named = "、".join(f"{p} {names[p]}" for p in report["summary"]["context"]["peers"])
        assert f"同业：{named}" in scene
    # the paths fit the position: a wait holds nothing, so neither its sell zone nor its stop sells ("分批卖出" and
    # "止损离场" were written for a reader with no position); only an avoid has no path past its buy zone
    actions = [p["action"] for p in report["summary"]["paths"]]
    if report["summary"]["action"] == "wait":
        assert actions[1:] == ["无持仓可卖；不追高，不在买入区间上方建仓",
                               "计划的支撑失效：无持仓，任何买入前先重新分析"]  # fmt: skip
    assert "分批卖出" not in actions or report["summary"]["action"] not in ("wait", "avoid"), actions


def test_an_account_with_a_position_and_open_orders_then_a_second_analysis(bench: Workbench) -> None:
    keep = holding_account(bench, BUY_SYMBOL, qty=1000, order_offset="1.00")  # a sell order at the last close
    low = round_to_tick(bench.market.registry.instrument(BUY_SYMBOL),
                        close_on(bench, BUY_SYMBOL, LAST_SESSION) * Decimal("0.82"), LAST_SESSION)  # fmt: skip
    cancel = bench.ledger.add_order(Order("", "main", BUY_SYMBOL, "buy", 100, low, at("CN", LAST_SESSION)))
    first = bench.research.analyze(BUY_SYMBOL, account="main").as_dict()
    report = assert_published_and_clean(bench, first)
    journal = bench.research.journal
    prepare = json.loads(journal.stored(first["run_id"], "prepare/facts", "result") or "{}")
    assert prepare["ledger"]["position"]["qty"] == 1000
    assert {o["order_id"] for o in prepare["ledger"]["open_orders"]} == {keep.order_id, cancel.order_id}
    assert prepare["previous_report"] is None
    zones = first["zones"]
    assert Decimal(zones["sell"]["low"]) <= keep.price <= Decimal(zones["sell"]["high"])  # the premises
    assert cancel.price < Decimal(zones["buy"]["low"])
    decided = {d["order_id"]: d["decision"] for d in _accepted_judgments(bench, first["run_id"])["open_orders"]}
    assert decided == {keep.order_id: "KEEP", cancel.order_id: "CANCEL"}
    for order_id, decision in decided.items():
        assert f"未成交订单 {order_id}：{say(f'report.order.{decision}', 'zh')}" in report["markdown"]  # its word
    # Held with the last close in the sell zone (the premise above): the state table refuses building there, so
    # no add; the holder holds and nothing is sized (test_actions sizes a holder's reduce).
    assert first["action"] == "hold" and first["orders"] == [] and report["draft"]["orders"] == []

    second = bench.research.analyze(BUY_SYMBOL, account="main").as_dict()
    assert_published_and_clean(bench, second)
    prepare = json.loads(journal.stored(second["run_id"], "prepare/facts", "result") or "{}")
    assert prepare["previous_report"]["report_id"] == first["report_id"]
    continuity = _accepted_judgments(bench, second["run_id"])["continuity"]
    assert first["report_id"] in continuity["old_plan"]
    assert prepare["previous_report"]["evidence_id"] in continuity["evidence"]


def test_a_hong_kong_account_with_a_position(bench: Workbench) -> None:
    order = holding_account(bench, "02974.HK", qty=2 * board_lot(bench.market.registry.instrument("02974.HK"),
                                                                 bench.market.tables)[0], name="hk")  # fmt: skip
    outcome = bench.research.analyze("02974.HK", account="hk").as_dict()
    assert_published_and_clean(bench, outcome)
    decided = _accepted_judgments(bench, outcome["run_id"])
    assert [d["order_id"] for d in decided["open_orders"]] == [order.order_id]


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_holders_open_buy_in_the_buy_zone_is_cancelled_when_the_call_buys_nothing(
    bench: Workbench, language: str
) -> None:
    """The handbook keeps an order that lies in its side's new zone *and goes with the call* (11.3). The holder's
    hold kept an open buy inside the buy zone while its path said not to add; a sell inside the sell zone goes with
    the hold's sell path."""
    sell = holding_account(bench, DEMO_SYMBOL, qty=200, order_offset="1.00")
    zones = bench.analytics.zones(DEMO_SYMBOL)
    bench.ledger.cancel_order(sell.order_id)
    sell = bench.ledger.add_order(Order("", "main", DEMO_SYMBOL, "sell", 100, zones.sell.low, at("CN", LAST_SESSION)))
    buy = bench.ledger.add_order(Order("", "main", DEMO_SYMBOL, "buy", 100, zones.buy.low, at("CN", LAST_SESSION)))
    outcome = bench.research.analyze(DEMO_SYMBOL, account="main", language=language).as_dict()
    report = assert_published_and_clean(bench, outcome)
    assert outcome["action"] == "hold"
    decided = {d["order_id"]: d for d in _accepted_judgments(bench, outcome["run_id"])["open_orders"]}
    assert (decided[buy.order_id]["decision"], decided[sell.order_id]["decision"]) == ("CANCEL", "KEEP")
    said = {"zh": "本次操作为持有，计划现在不买入", "en": "the call is Hold: the plan buys nothing now"}[language]
    assert decided[buy.order_id]["reason"] == said and said in report["markdown"]
    paths = [p["action"] for p in report["summary"]["paths"]]
    assert paths[0] == say("path.hold_no_add", language)  # the buy zone's path adds nothing either


def _accepted_judgments(bench: Workbench, run_id: str) -> dict[str, Any]:
    accepted: dict[str, Any] = {}
    for _, _, payload in bench.research.journal.results(run_id, "decide/tool/"):
        result = json.loads(payload)
        if result.get("accepted") and result.get("judgment") == "judgments":
            accepted.update(result["value"])
    assert accepted, "no judgments were accepted"
    return accepted
