"""The intraday plan check: a report's plan against current data by rule alone, with the model layer disabled."""

from __future__ import annotations

import dataclasses
import importlib.abc
import json
import shutil
import sys
from collections.abc import Iterator, Sequence
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from stockbench.cli.main import run
from stockbench.clock import MARKET_TZ, ReplayClock
from stockbench.data.records import Quote
from stockbench.ledger.entries import Order
from stockbench.research.changes import PriceNow, ZoneLevels, load_table
from stockbench.research.offline import OfflineModel
from stockbench.research.plan_check import (
    Check,
    LedgerView,
    ReportPlan,
    latest_report,
    plan_checks,
    report_plan,
)
from stockbench.research.service import Research
from stockbench.workbench import Workbench
from tests.engine.research.conftest import DEMO_SYMBOL, holding_account

CN = MARKET_TZ["CN"]
TABLE = load_table()
ZONES = ZoneLevels(Decimal("351.56"), Decimal("359.35"), Decimal("361.08"), Decimal("371.47"), Decimal("341.17"))
PATHS = (
    ("价格进入买入区间 351.56-359.35", "按计划分批买入"),
    ("价格进入卖出区间 361.08-371.47", "分批卖出"),
    ("收盘跌破止损位 341.17", "止损离场"),
    ("放量突破前高", "加仓"),
)
NEXT_DAY = date(2026, 11, 30)
STATUSES = {"ok", "triggered", "conflict"}


def make_plan(**changes: Any) -> ReportPlan:
    base = ReportPlan(
        report_id="R1",
        run_id="RUN1",
        symbol=DEMO_SYMBOL,
        published_at=datetime(2026, 11, 27, 18, 0, tzinfo=CN),
        data_at=datetime(2026, 11, 27, 18, 0, tzinfo=CN),
        kind="full",
        account="main",
        action="hold",
        zones=ZONES,
        position="in_buy",
        day=date(2026, 11, 27),
        price=Decimal("358.53"),
        capital="outflow",
        paths=PATHS,
    )
    return dataclasses.replace(base, **changes)


def price_now(last: str) -> PriceNow:
    at = datetime(2026, 11, 30, 10, 25, tzinfo=CN)
    return PriceNow(Decimal(last), "live", NEXT_DAY, at, Decimal("358.53"), None, None, None, None, "demo")


def checks(plan: ReportPlan, last: str, **options: Any) -> dict[str, Check]:
    options = {"limits": None, "ledger": None, "ex_rights": (), "table": TABLE, **options}
    return {c.rule: c for c in plan_checks(plan, price_now(last), **options)}


def conflicts(found: dict[str, Check]) -> list[str]:
    return sorted(rule for rule, c in found.items() if c.status == "conflict")


# ---- the rules, one by one -------------------------------------------------------------------------------------
def test_a_plan_that_still_holds_has_no_conflict_and_names_the_path_whose_condition_holds() -> None:
    found = checks(make_plan(), "355")
    assert conflicts(found) == []
    assert found["stop"].status == "ok" and found["zone_position"].status == "ok"
    assert [found[f"path[{i}]"].status for i in (1, 2, 3)] == ["triggered", "ok", "ok"]
    assert found["path[4]"].checked is False  # names no zone level: the program says so instead of guessing
    assert all(c.status in STATUSES for c in found.values())


def test_hold_with_the_price_at_the_stop_is_a_conflict() -> None:
    found = checks(make_plan(action="hold"), "341.17")
    assert conflicts(found) == ["stop"]
    assert "341.17" in found["stop"].detail
    assert found["path[3]"].status == "triggered"


def test_sell_with_the_price_at_the_stop_is_triggered_not_a_conflict() -> None:
    found = checks(make_plan(action="sell"), "330")
    assert found["stop"].status == "triggered" and conflicts(found) == []


@pytest.mark.parametrize(("last", "position"), [("365", "in_sell"), ("380", "above_sell")])
def test_buy_with_the_price_in_or_above_the_sell_zone_is_a_conflict(last: str, position: str) -> None:
    found = checks(make_plan(action="buy"), last)
    assert conflicts(found) == ["zone_position"]
    assert position in found["zone_position"].detail


def test_hold_with_the_price_above_the_sell_zone_is_only_triggered() -> None:
    found = checks(make_plan(action="hold"), "380")
    assert found["zone_position"].status == "triggered" and conflicts(found) == []
    assert found["path[2]"].status == "triggered"


LIMITS = (Decimal("394.38"), Decimal("322.68"))


@pytest.mark.parametrize(
    ("action", "last", "rule", "status"),
    [
        ("hold", "322.68", "limit_down", "conflict"),
        ("sell", "394.38", "limit_up", "conflict"),
        ("hold", "394.38", "limit_up", "triggered"),
        ("reduce", "322.68", "limit_down", "triggered"),
    ],
)
def test_a_sealed_limit_against_the_report_s_action_is_a_conflict(
    action: str, last: str, rule: str, status: str
) -> None:
    found = checks(make_plan(action=action, zones=None), last, limits=LIMITS)
    assert found[rule].status == status
    assert found["stop"].checked is False and found["zone_position"].checked is False


def test_sized_orders_outside_the_limits_or_marketable_are_triggered() -> None:
    orders = (
        {"side": "buy", "qty": 200, "price": "359.35"},
        {"side": "sell", "qty": 100, "price": "400.00"},
        {"side": "buy", "qty": 100, "price": "352.00"},
    )
    found = checks(make_plan(action="buy", orders=orders), "358", limits=LIMITS)
    assert [found[f"order[{i}]"].status for i in (1, 2, 3)] == ["triggered", "triggered", "ok"]
    assert "marketable" in found["order[1]"].detail and "limits" in found["order[2]"].detail


def ledger(*orders: tuple[str, str, str, str], sellable: int = 0) -> LedgerView:
    rows = {
        oid: {"side": side, "qty": 100, "price": Decimal(price), "status": status}
        for oid, side, price, status in orders
    }
    return LedgerView("main", sellable, rows)


def test_open_order_decisions_against_the_ledger() -> None:
    decisions = (
        {"order_id": "O1", "decision": "CANCEL", "new_price": None, "reason": ""},
        {"order_id": "O2", "decision": "KEEP", "new_price": None, "reason": ""},
        {"order_id": "O3", "decision": "MODIFY", "new_price": "352.00", "reason": ""},
        {"order_id": "O4", "decision": "KEEP", "new_price": None, "reason": ""},
    )
    view = ledger(
        ("O1", "sell", "376.46", "open"),
        ("O2", "buy", "352.00", "open"),
        ("O3", "buy", "355.00", "open"),
        ("O4", "sell", "370.00", "filled"),
        ("O5", "buy", "350.00", "open"),
    )
    found = checks(make_plan(open_orders=decisions), "357", ledger=view)
    statuses = {rule: c.status for rule, c in found.items() if rule.startswith("open_order")}
    assert statuses == {
        "open_order O1": "triggered",  # the report said CANCEL, still open
        "open_order O2": "ok",  # kept, waits below the price
        "open_order O3": "triggered",  # not yet modified to 352.00
        "open_order O4": "ok",  # filled since
        "open_order O5": "triggered",  # not covered by the report
    }
    at_stop = checks(make_plan(open_orders=decisions), "340", ledger=view)
    assert at_stop["open_order O2"].status == "conflict"  # a kept buy order below the stop


def test_sell_with_nothing_sellable_is_triggered() -> None:
    assert checks(make_plan(action="sell"), "365", ledger=ledger())["sellable"].status == "triggered"
    assert checks(make_plan(action="sell"), "365", ledger=ledger(sellable=200))["sellable"].status == "ok"
    assert "sellable" not in checks(make_plan(action="hold"), "365", ledger=ledger())


def test_ex_rights_since_the_report_is_a_conflict() -> None:
    found = checks(make_plan(), "355", ex_rights=(NEXT_DAY,))
    assert conflicts(found) == ["ex_rights"]


# ---- on the demo market, through the CLI ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def reported(demo_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo market with a published offline report on the demo symbol for an account with an open order."""
    home = tmp_path_factory.mktemp("plan-check") / "market"
    shutil.copytree(demo_template, home)
    with Workbench.open(home) as bench:
        holding_account(bench, DEMO_SYMBOL, qty=400)
        assert bench.research.analyze(DEMO_SYMBOL, account="main").status == "published"
    return home


@pytest.fixture
def market(reported: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "market"
    shutil.copytree(reported, home)
    monkeypatch.setenv("STOCKBENCH_HOME", str(home))
    return home


class ModelLayerGuard(importlib.abc.MetaPathFinder):
    """Refuses (and records) any import of litellm or of the provider layer."""

    def __init__(self) -> None:
        self.attempts: list[str] = []

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None) -> None:
        if fullname.split(".", maxsplit=1)[0] == "litellm" or fullname.startswith(
            ("stockbench.llm", "stockbench.research.llm_port")
        ):
            self.attempts.append(fullname)
            raise ImportError(f"the model layer is disabled in this test: {fullname}")


@pytest.fixture
def no_model_layer(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModelLayerGuard]:
    """The model layer disabled: its modules cannot be imported, the model factory and every model call raise."""
    guard = ModelLayerGuard()
    for name in list(sys.modules):
        if name.split(".")[0] == "litellm" or name.startswith(("stockbench.llm", "stockbench.research.llm_port")):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [guard, *sys.meta_path])

    def refuse(*args: object, **kwargs: object) -> Any:
        raise AssertionError("the plan check reached the model layer")

    monkeypatch.setattr(Workbench, "_llm_factory", refuse)
    monkeypatch.setattr(Research, "model", refuse)
    monkeypatch.setattr(OfflineModel, "complete", refuse)
    yield guard
    assert guard.attempts == []
    assert "litellm" not in sys.modules


def check_plan(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code = run(["--json", *argv])
    out = capsys.readouterr().out
    assert code == 0, out
    found: dict[str, Any] = json.loads(out)
    return found


def test_check_plan_on_the_demo_runs_with_the_model_layer_disabled(
    market: Path, capsys: pytest.CaptureFixture[str], no_model_layer: ModelLayerGuard
) -> None:
    found = check_plan(capsys, "check-plan", DEMO_SYMBOL, "--account", "main")
    assert {"report_id", "checks", "recommend_full_analysis"} <= set(found)
    assert found["price"]["label"] == "last_close" and found["price"]["day"] == "2026-11-27"
    rules = {c["rule"]: c for c in found["checks"]}
    assert {c["status"] for c in found["checks"]} <= STATUSES
    assert set(rules) >= {"stop", "zone_position", "path[1]", "path[2]", "path[3]", "limit_up", "limit_down"}
    assert found["recommend_full_analysis"] is False
    order = next(c for rule, c in rules.items() if rule.startswith("open_order"))
    # the sell order at 376.46 lies in the sell zone 375.54-385.93 (zones v1.1): the offline report kept it
    assert order["status"] == "ok" and "KEEP" in order["detail"]


def test_a_stop_hit_after_a_hold_report_recommends_a_full_analysis(
    market: Path, capsys: pytest.CaptureFixture[str], no_model_layer: ModelLayerGuard
) -> None:
    at = datetime(2026, 11, 30, 10, 25, tzinfo=CN)
    with Workbench.open(market, clock=ReplayClock(at)) as bench:
        bench.data.cache.store_quotes(
            [
                Quote(
                    DEMO_SYMBOL,
                    at,
                    Decimal("338.00"),
                    Decimal("358.53"),
                    Decimal("350.00"),
                    Decimal("351.00"),
                    Decimal("337.50"),
                    9_000_000,
                    Decimal("3100000000"),
                    "demo",
                )
            ],
            fetched_at=at,
        )
    found = check_plan(capsys, "--as-of", "2026-11-30T10:30:00", "check-plan", DEMO_SYMBOL)
    assert found["price"] | {"label": "live", "price": "338.0000"} == found["price"]
    rules = {c["rule"]: c for c in found["checks"]}
    assert found["action"] == "hold"
    assert rules["stop"]["status"] == "conflict"
    assert rules["path[3]"]["status"] == "triggered"  # the stop path's condition holds
    assert found["recommend_full_analysis"] is True


def test_check_plan_without_a_report_says_so(
    market: Path, capsys: pytest.CaptureFixture[str], no_model_layer: ModelLayerGuard
) -> None:
    assert run(["--json", "check-plan", "003901.SZ"]) == 1
    captured = capsys.readouterr()
    assert "there is no report on 003901.SZ" in captured.err
    assert json.loads(captured.out)["error"]["code"] == "not_found"


def test_the_report_s_plan_is_read_back_from_its_summary_judgments_and_evidence(market: Path) -> None:
    with Workbench.open(market) as bench:
        report_id = latest_report(bench.workspace.db, DEMO_SYMBOL, bench.clock.now())
        assert report_id is not None
        plan = report_plan(bench.workspace.db, report_id)
        order: Order = next(s.order for s in bench.ledger.orders("main"))
        report = bench.research.report(report_id).as_dict()
    assert plan.action == report["action"] and plan.account == "main"
    assert plan.zones is not None and str(plan.zones.stop) == report["summary"]["zones"]["stop"]
    assert plan.position == report["summary"]["zones"]["position"] and plan.day == date(2026, 11, 27)
    assert plan.capital in {"inflow", "outflow", "neutral", "unknown"}
    assert [t for t, _ in plan.paths] and all(f"路径：{t} → {a}" in report["markdown"] for t, a in plan.paths)
    # the open sell at 376.46 lies in the sell zone (zones v1.1 keep the zones apart), so the plan keeps it
    assert [(d["order_id"], d["decision"]) for d in plan.open_orders] == [(order.order_id, "KEEP")]
    assert plan.announcement_ids  # the announcement list the report saw
