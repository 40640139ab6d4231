"""The dashboard on the demo market: books after a deposit and a fill recorded through the ledger, open orders with
the latest report's decisions, zone alerts, the scan shortlist."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from datetime import datetime
from decimal import Decimal
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from stockbench.clock import MARKET_TZ
from stockbench.ledger.entries import Order
from stockbench.ledger.validation import FillDraft
from stockbench.research.summary import ReportSummary
from stockbench.workbench import Workbench
from ui.context import AppContext
from ui.screens.dashboard.dashboard_actions import order_decisions
from ui.screens.dashboard.dashboard_model import OrderRow
from ui.screens.dashboard.dashboard_panel import DashboardPanel

CN = MARKET_TZ["CN"]
WAIT_MS = 60_000  # generous: only a failing test waits this long (first engine calls import slowly)
SYMBOL, CLOSE = "605903.SH", Decimal("358.53")  # the demo's close on its last session, 2026-11-27
FILL_PRICE = Decimal("351.64")  # the close of 2026-11-26


def _record_books(bench: Workbench) -> None:
    ledger = bench.ledger
    ledger.add_account("main", "CNY")
    ledger.cash("main", "deposit", Decimal("100000"), at=datetime(2026, 11, 2, 9, 0, tzinfo=CN))
    ledger.record_fill(FillDraft("main", SYMBOL, "buy", 200, FILL_PRICE, datetime(2026, 11, 26, 14, 0, tzinfo=CN)))


@pytest.fixture(scope="session")
def researched_master(demo_master: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo with an account, a holding, two open orders (one inside the buy zone, one outside the sell zone),
    two watched symbols and a published offline report that decided the orders; built once per session."""
    home = tmp_path_factory.mktemp("dashboard-researched") / "demo"
    shutil.copytree(demo_master, home, ignore=shutil.ignore_patterns("*.lock", "*.wal"))
    with Workbench.open(home, command="tests") as bench:
        _record_books(bench)
        zones = bench.analytics.zones(SYMBOL)
        placed = datetime(2026, 11, 27, 15, 30, tzinfo=CN)
        bench.ledger.add_order(Order("", "main", SYMBOL, "buy", 100, zones.buy.low, placed))
        bench.ledger.add_order(Order("", "main", SYMBOL, "sell", 100, zones.sell.high + 10, placed))
        bench.watchlist.add(SYMBOL)
        bench.watchlist.add("003907.SZ")
        assert bench.research.analyze(SYMBOL, account="main").status == "published"
    return home


@pytest.fixture
def researched_ctx(
    researched_master: Path, tmp_path: Path, make_context: Callable[[Workbench], AppContext]
) -> Iterator[AppContext]:
    home = tmp_path / "researched"
    shutil.copytree(researched_master, home, ignore=shutil.ignore_patterns("*.lock", "*.wal"))
    bench = Workbench.open(home, command="tests")
    made = make_context(bench)
    yield made
    made.runner.wait()  # the context's own teardown comes after this one: drain its pools before closing
    bench.close()


@pytest.fixture
def shown_errors(qtbot: QtBot) -> Iterator[list[tuple[str, str]]]:
    errors: list[tuple[str, str]] = []
    yield errors
    assert errors == [], "the panel presented errors"


def _panel(ctx: AppContext, qtbot: QtBot, errors: list[tuple[str, str]]) -> DashboardPanel:
    ctx.presenter.error_presented.connect(lambda title, text: errors.append((title, text)))
    panel = DashboardPanel(ctx)
    qtbot.addWidget(panel)
    return panel


def test_books_appear_after_a_deposit_and_a_fill_through_the_ledger(
    ctx: AppContext, qtbot: QtBot, shown_errors: list[tuple[str, str]]
) -> None:
    panel = _panel(ctx, qtbot, shown_errors)
    qtbot.waitSignal(panel.books_refreshed, timeout=WAIT_MS).wait()
    assert panel.accounts.rows == [] and panel.positions.rows == []
    _record_books(ctx.bench)  # the ledger's events reload the dashboard
    qtbot.waitUntil(lambda: len(panel.positions.rows) == 1, timeout=WAIT_MS)
    fill = next(e for e, _ in ctx.bench.ledger.history("main") if getattr(e, "fill_id", None))
    cost = FILL_PRICE * 200 + fill.fees  # type: ignore[union-attr]
    cash = Decimal("100000.00") - cost
    value = CLOSE * 200
    assert [(r.account, r.currency, r.cash, r.market_value, r.equity) for r in panel.accounts.rows] == [
        ("main", "CNY", cash, value, cash + value)
    ]
    assert panel.text("accounts", 0, "equity") == f"{cash + value:,.2f}"
    (position,) = panel.positions.rows
    assert (position.symbol, position.qty, position.sellable, position.cost) == (SYMBOL, 200, 200, cost)
    assert position.pnl == value - cost
    assert panel.text("positions", 0, "pnl") == f"{value - cost:+,.2f}"
    assert panel.orders.rows == []
    # one account: its name on every row says nothing, and the column took the open orders' room
    account = [c.key for c in panel.positions.columns].index("account")
    assert panel.views["positions"].isColumnHidden(account) and panel.views["orders"].isColumnHidden(0)
    ctx.bench.ledger.add_account("second", "CNY")
    ctx.bench.ledger.cash("second", "deposit", Decimal("5000"), at=datetime(2026, 11, 3, 9, 0, tzinfo=CN))
    qtbot.waitUntil(lambda: len(panel.accounts.rows) == 2, timeout=WAIT_MS)
    assert not panel.views["positions"].isColumnHidden(account) and not panel.views["orders"].isColumnHidden(0)


def test_open_orders_carry_the_latest_reports_decision(
    researched_ctx: AppContext, qtbot: QtBot, shown_errors: list[tuple[str, str]]
) -> None:
    panel = _panel(researched_ctx, qtbot, shown_errors)
    qtbot.waitSignal(panel.books_refreshed, timeout=WAIT_MS).wait()
    bench = researched_ctx.bench
    (report,) = bench.research.reports(SYMBOL)
    decided = {r.side: r for r in panel.orders.rows if isinstance(r, OrderRow)}
    # the holder's call is hold: its open buy is cancelled though it lies in the buy zone (a hold buys nothing now),
    # and the sell outside the sell zone too
    assert report.action == "hold"
    assert decided["buy"].decision == "CANCEL" and decided["sell"].decision == "CANCEL"
    assert {r.report_id for r in decided.values()} == {report.report_id}
    row = panel.orders.rows.index(decided["buy"])
    assert panel.text("orders", row, "decision") == "CANCEL"
    assert panel.text("orders", row, "qty") == "0/100"
    # an order placed after that report: the report decides nothing for it, and the column says so (it said "—"
    # beside the report's date, as if there were no report)
    bench.ledger.add_order(Order("", "main", SYMBOL, "buy", 100, Decimal("340.00"), datetime(2026, 11, 30, 9, 40,
                                                                                              tzinfo=CN)))  # fmt: skip
    qtbot.waitUntil(lambda: len(panel.orders.rows) == 3, timeout=WAIT_MS)
    late = next(i for i, r in enumerate(panel.orders.rows) if r.price == Decimal("340.00"))
    assert panel.orders.rows[late].decision is None and panel.orders.rows[late].report_id == report.report_id
    assert panel.text("orders", late, "decision") == "Not in it"
    tip = panel.orders.data(panel.orders.index(late, 0), Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith(f"The latest report on this symbol ({panel.orders.rows[late].report_date}) decides nothing")
    assert panel.orders.headerData(6, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole) == "Report's call"


def test_zone_alerts_and_the_scan_of_the_watchlist(
    researched_ctx: AppContext, qtbot: QtBot, shown_errors: list[tuple[str, str]]
) -> None:
    panel = _panel(researched_ctx, qtbot, shown_errors)
    qtbot.waitSignal(panel.watch_refreshed, timeout=WAIT_MS).wait()
    bench = researched_ctx.bench
    # 003907.SZ closed 22.18 then 21.40 on the demo's last two sessions: from above its sell zone to between the
    # zones (zones v1.1 keep the sell zone 1 ATR above the buy zone).
    zones = bench.analytics.zones("003907.SZ")
    assert zones.sell.high < Decimal("22.18")
    assert zones.buy.high < Decimal("21.40") < zones.sell.low
    alerts = {(a.symbol, a.was, a.now) for a in panel.alerts.rows}
    assert ("003907.SZ", "above_sell", "between") in alerts
    assert all(symbol in {SYMBOL, "003907.SZ"} for symbol, _, _ in alerts)
    assert {p.symbol for p in panel.picks.rows} <= {SYMBOL, "003907.SZ"} and panel.picks.rows
    assert "2026-11-27" in panel.watch_note.text()
    # the alerts' basis is in the box's tip: in its title it made the box's least width and cut the tables beside it
    assert panel.boxes["alerts"].title() == "Zone alerts"
    assert panel.boxes["alerts"].toolTip() == "Each alert compares the last close with the close before it"


def test_the_lower_tables_sit_side_by_side_where_their_columns_fit_else_in_tabs(
    researched_ctx: AppContext, qtbot: QtBot, shown_errors: list[tuple[str, str]]
) -> None:
    """At 1366x768 with the side docks open the dashboard is about 600 px wide: the open orders, zone alerts and scan
    side by side showed two or three columns each over a scroll bar."""
    panel = _panel(researched_ctx, qtbot, shown_errors)
    panel.resize(600, 700)
    with qtbot.waitSignals([panel.books_refreshed, panel.watch_refreshed], timeout=WAIT_MS):
        panel.show()
    lower = ["orders", "alerts", "picks"]
    counts = [len(m.rows) for m in (panel.orders, panel.alerts, panel.picks)]
    assert all(counts)  # something in each, so a cut column would show
    views = [panel.views[name] for name in lower]

    def fits() -> bool:
        return all(view.horizontalScrollBar().maximum() == 0 for view in views)

    assert panel.lower_stack.currentWidget() is panel.lower_tabs
    tabs = [panel.lower_tabs.tabText(i) for i in range(panel.lower_tabs.count())]
    assert tabs == [f"Open orders ({counts[0]})", f"Zone alerts ({counts[1]})", f"Scan shortlist ({counts[2]})"]
    assert all(panel.boxes[name].title() == "" for name in lower)  # the tab says it
    for index in range(3):
        panel.lower_tabs.setCurrentIndex(index)
        qtbot.waitUntil(lambda i=index: views[i].horizontalScrollBar().maximum() == 0, timeout=10_000)
    panel.resize(2400, 700)
    qtbot.waitUntil(lambda: panel.lower_stack.currentWidget() is panel.lower_split, timeout=10_000)
    assert [panel.boxes[name].title() for name in lower] == ["Open orders", "Zone alerts", "Scan shortlist"]
    assert all(view.isVisible() for view in views)
    qtbot.waitUntil(fits, timeout=10_000)  # the three side by side, every column whole
    panel.resize(600, 700)
    qtbot.waitUntil(lambda: panel.lower_stack.currentWidget() is panel.lower_tabs, timeout=10_000)
    assert [panel.views[name] for name in lower] == views and panel.lower_tabs.count() == 3


def test_in_tabs_one_with_rows_is_in_front_until_the_user_picks_one(
    ctx: AppContext, qtbot: QtBot, shown_errors: list[tuple[str, str]]
) -> None:
    panel = _panel(ctx, qtbot, shown_errors)
    panel.resize(600, 700)
    with qtbot.waitSignals([panel.books_refreshed, panel.watch_refreshed], timeout=WAIT_MS):
        panel.show()
    assert panel.lower_stack.currentWidget() is panel.lower_tabs
    assert not panel.orders.rows and panel.picks.rows  # no books in the demo; its watchlist scanned
    filled = 1 if panel.alerts.rows else 2
    assert panel.lower_tabs.currentIndex() == filled  # not the empty open orders first
    panel.lower_tabs.tabBarClicked.emit(0)  # the user picks the open orders
    panel.lower_tabs.setCurrentIndex(0)
    with qtbot.waitSignals([panel.books_refreshed, panel.watch_refreshed], timeout=WAIT_MS):
        panel.refresh()
    assert panel.lower_tabs.currentIndex() == 0


def test_the_dashboard_fits_its_dock_without_scrolling(
    researched_ctx: AppContext, qtbot: QtBot, shown_errors: list[tuple[str, str]]
) -> None:
    """The scan's word-wrapped note gives the panel's layout a height-for-width, and Qt's resizable scroll area (the
    dock's holder before `ScreenHolder`) sized the panel to its preferred height, not the dock's: at 1366x768 it
    scrolled by 230 px."""
    from PySide6.QtWidgets import QMainWindow, QScrollArea

    from ui.screen_docks import ScreenDocks

    window = QMainWindow()
    qtbot.addWidget(window)
    panel = _panel(researched_ctx, qtbot, shown_errors)
    dock = ScreenDocks(window, researched_ctx.settings).add("dashboard", "Dashboard", panel)
    window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
    window.resize(640, 640)
    with qtbot.waitSignals([panel.books_refreshed, panel.watch_refreshed], timeout=WAIT_MS):
        window.show()
    holder = dock.widget()
    assert isinstance(holder, QScrollArea)
    qtbot.waitUntil(lambda: panel.height() == holder.viewport().height(), timeout=10_000)
    assert holder.verticalScrollBar().maximum() == 0
    assert panel.watch_note.isVisible() and "2026-11-27" in panel.watch_note.text()
    holder.takeWidget()  # the panel is closed by its own fixture, not with the window


def test_order_decisions_come_from_the_typed_summary_never_from_the_report_text() -> None:
    """Reports published before summaries listed their decisions are back-filled by migration 0010 (see
    test_report_seals.py); the dashboard reads only the typed summary."""
    decided = [
        {"order_id": "O1", "decision": "MODIFY", "reason": "new zone"},
        {"order_id": "O2", "decision": "CANCEL", "reason": "不在新区间内"},
    ]
    stored = {"action": "hold", "open_orders": decided}
    assert order_decisions(ReportSummary.from_json(stored)) == {
        "O1": ("MODIFY", "new zone"),
        "O2": ("CANCEL", "不在新区间内"),
    }
    assert order_decisions(ReportSummary.from_json({"action": "hold"})) == {}


def test_screenshot_books_are_fictional_and_recorded_once(
    ctx: AppContext, qtbot: QtBot, shown_errors: list[tuple[str, str]]
) -> None:
    from ui.screens.dashboard.dashboard_actions import SCREENSHOT_HOLDINGS, demo_books
    from ui.screens.dashboard.dashboard_panel import screenshot_setup

    panel = _panel(ctx, qtbot, shown_errors)
    qtbot.waitSignal(panel.books_refreshed, timeout=WAIT_MS).wait()
    screenshot_setup(panel)
    # The ledger's events reload the panel while the books are being written; wait for the finished books.
    qtbot.waitUntil(lambda: len(panel.positions.rows) == 2 and len(panel.orders.rows) == 1, timeout=WAIT_MS)
    assert [r.symbol for r in panel.positions.rows] == sorted(SCREENSHOT_HOLDINGS)
    assert demo_books(ctx.bench) == 0  # a workspace with accounts is never touched


def test_the_scan_s_reasons_are_joined_as_the_language_writes_them(demo_home: Path) -> None:
    """A pick's reasons in the Chinese dashboard are joined with "；", as the scan command joins them (they were
    joined with the English "; ")."""
    from ui.i18n.language import Translations
    from ui.screens.dashboard.dashboard_actions import watch

    translations = Translations()
    assert translations.install("zh_CN")
    try:
        with Workbench.open(demo_home) as bench:
            picks = watch(bench).shortlist
    finally:
        translations.install("en")
        translations.uninstall()
    several = [p.reasons for p in picks if len(re.findall(r"（[+-]\d+）", p.reasons)) >= 2]  # two reasons' points
    assert several, picks  # the demo's 605903.SH has two reasons
    assert all("；" in why and "; " not in why for why in several), several


def test_the_positions_keep_to_the_dashboards_width_and_tell_what_they_gave_up(
    researched_ctx: AppContext, qtbot: QtBot, shown_errors: list[tuple[str, str]]
) -> None:
    """At 1366x768 with the side docks open the dashboard is about 600 px wide, and the positions' ten columns
    scrolled sideways by about 100 px (the cost, then the market value, cut). Now the optional columns are given up
    in their order, and their values are read in the row's tip; a wider dashboard shows them again."""
    from ui.screens.dashboard.dashboard_model import POSITION_COLUMNS, POSITION_OPTIONAL

    panel = _panel(researched_ctx, qtbot, shown_errors)
    panel.resize(600, 700)
    with qtbot.waitSignals([panel.books_refreshed, panel.watch_refreshed], timeout=WAIT_MS):
        panel.show()
    view, fit = panel.views["positions"], panel.position_fit
    assert panel.positions.rows, "a holding, so the columns have values to measure"
    qtbot.waitUntil(lambda: view.horizontalScrollBar().maximum() == 0 and bool(fit.hidden()), timeout=10_000)
    given_up = fit.hidden()
    assert set(given_up) == set(POSITION_OPTIONAL[: len(given_up)])  # in their order, the first ones first
    keys = [c.key for c in POSITION_COLUMNS]
    shown = [key for i, key in enumerate(keys) if not view.isColumnHidden(i)]
    assert {"symbol", "name", "qty", "price", "pnl_pct", "market_value"} <= set(shown)
    assert "account" not in shown and "account" not in given_up  # one account: its column is left out, not given up
    header = view.horizontalHeader()
    cut = [(key, header.sectionSize(keys.index(key)), fit.wanted(keys.index(key))) for key in shown
           if header.sectionSize(keys.index(key)) < fit.wanted(keys.index(key))]  # fmt: skip
    assert cut == []
    row = panel.positions.rows[0]
    tip = panel.positions.data(panel.positions.index(0, 0), Qt.ItemDataRole.ToolTipRole)
    titles = {c.key: c.title for c in POSITION_COLUMNS}
    assert tip == "\n".join(f"{titles[key]}: {panel.positions.text(0, key)}" for key in keys if key in given_up)
    assert f"Cost: {row.cost:,.2f}" in tip.splitlines()
    panel.resize(2400, 700)
    qtbot.waitUntil(lambda: fit.hidden() == [], timeout=10_000)
    assert [key for i, key in enumerate(keys) if view.isColumnHidden(i)] == ["account"]
    assert panel.positions.data(panel.positions.index(0, 0), Qt.ItemDataRole.ToolTipRole) is None
