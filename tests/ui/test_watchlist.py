"""The watchlist screen on the demo market: its right-click menu emits requests for the right symbol, adds,
removes, reorders and groups persist through the engine, the search finds by code or name, and the columns show
values after a refresh."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from stockbench.clock import MARKET_TZ
from stockbench.ledger.validation import FillDraft
from stockbench.watchlist import DEFAULT_GROUP
from stockbench.workbench import Workbench
from ui.context import AppContext
from ui.i18n.action_words import action_word
from ui.screens.watchlist.watchlist_model import COLUMN_KEYS, ZONE_TITLES
from ui.screens.watchlist.watchlist_panel import WatchlistPanel

CN = MARKET_TZ["CN"]
WAIT_MS = 60_000  # generous: only a failing test waits this long (first engine calls import slowly)
SYMBOLS = ("605903.SH", "003901.SZ", "688901.SH")


@pytest.fixture
def errors(ctx: AppContext) -> Iterator[list[tuple[str, str]]]:
    shown: list[tuple[str, str]] = []
    ctx.presenter.error_presented.connect(lambda title, text: shown.append((title, text)))
    yield shown
    assert shown == [], "the panel presented errors"


def _panel(ctx: AppContext, qtbot: QtBot) -> WatchlistPanel:
    panel = WatchlistPanel(ctx)
    qtbot.addWidget(panel)
    qtbot.waitSignal(panel.refreshed, timeout=WAIT_MS).wait()
    return panel


def _action(menu: QMenu, name: str):  # type: ignore[no-untyped-def]
    found = [a for a in menu.actions() if a.objectName() == name]
    assert found, f"no menu entry {name}"
    return found[0]


def _text(panel: WatchlistPanel, row: int, key: str) -> str:
    return str(panel.model.data(panel.model.index(row, COLUMN_KEYS.index(key))))


def test_the_context_menu_emits_requests_for_the_right_symbol(
    ctx: AppContext, qtbot: QtBot, errors: list[tuple[str, str]]
) -> None:
    for symbol in SYMBOLS:
        ctx.bench.watchlist.add(symbol)
    panel = _panel(ctx, qtbot)
    assert panel.model.symbols() == list(SYMBOLS)
    menu = panel.context_menu("003901.SZ")
    with qtbot.waitSignal(panel.analyze_requested, timeout=1000) as analyze:
        _action(menu, "analyze").trigger()
    assert analyze.args == ["003901.SZ"]
    for name, signal in (("chart", panel.chart_requested), ("fill", panel.fill_requested)):
        with qtbot.waitSignal(signal, timeout=1000) as emitted:
            _action(menu, name).trigger()
        assert emitted.args == ["003901.SZ"]
    assert not _action(menu, "report").isEnabled()  # no report on it yet
    for name, signal in (("quick_review", panel.quick_review_requested), ("check_plan", panel.check_plan_requested)):
        with qtbot.waitSignal(signal, timeout=1000) as emitted:  # the features always ship: always offered
            _action(menu, name).trigger()
        assert emitted.args == ["003901.SZ"]
    _action(menu, "ask").trigger()
    assert panel.question_dialog is not None
    with qtbot.waitSignal(panel.question_requested, timeout=1000) as asked:
        panel.question_dialog.setTextValue("  为什么放量下跌？ ")
        panel.question_dialog.accept()
    assert asked.args == ["003901.SZ", "为什么放量下跌？"]
    _action(menu, "remove").trigger()
    qtbot.waitUntil(lambda: panel.model.symbols() == ["605903.SH", "688901.SH"], timeout=WAIT_MS)
    assert ctx.bench.watchlist.symbols() == ["605903.SH", "688901.SH"]


def test_add_remove_reorder_and_groups_persist(ctx: AppContext, qtbot: QtBot, errors: list[tuple[str, str]]) -> None:
    panel = _panel(ctx, qtbot)
    book = ctx.bench.watchlist

    def shown(symbols: list[str], group: str = DEFAULT_GROUP) -> None:
        """Wait until the engine holds `symbols` in `group` and the panel shows them (writes and reloads are async)."""
        qtbot.waitUntil(lambda: panel.group == group and panel.model.symbols() == symbols, timeout=WAIT_MS)
        qtbot.waitUntil(
            lambda: [list(g.symbols) for g in book.groups() if g.name == group] == [symbols], timeout=WAIT_MS
        )

    for count, symbol in enumerate(("605903", "sz003901", "688901.SH"), start=1):
        panel.add_symbol(symbol)
        qtbot.waitUntil(lambda n=count: len(panel.model.rows) == n, timeout=WAIT_MS)
    shown(list(SYMBOLS))
    panel.select("688901.SH")
    panel.move_selected(-1)  # the Up button
    shown(["605903.SH", "688901.SH", "003901.SZ"])
    drag = panel.model.mimeData([panel.model.index(0, 0)])
    panel.model.dropMimeData(drag, Qt.DropAction.MoveAction, 3, 0, QModelIndex())  # 605903.SH below the last row
    shown(["688901.SH", "003901.SZ", "605903.SH"])
    panel.new_group("港股")
    shown([], "港股")
    panel.add_symbol("02979.HK")
    shown(["02979.HK"], "港股")
    panel.rename_group("香港")
    shown(["02979.HK"], "香港")
    panel.show_group(DEFAULT_GROUP)
    shown(["688901.SH", "003901.SZ", "605903.SH"])
    panel.move_to_group("003901.SZ", "香港")
    shown(["688901.SH", "605903.SH"])
    panel.remove_symbol("688901.SH")
    shown(["605903.SH"])
    assert [(g.name, g.symbols) for g in book.groups()] == [
        (DEFAULT_GROUP, ("605903.SH",)),
        ("香港", ("02979.HK", "003901.SZ")),
    ]
    qtbot.waitUntil(lambda: panel.groups == (DEFAULT_GROUP, "香港"), timeout=WAIT_MS)
    assert [panel.group_box.itemText(i) for i in range(panel.group_box.count())] == [panel.tr("Default"), "香港"]
    panel.delete_group("香港")
    qtbot.waitUntil(lambda: [g.name for g in book.groups()] == [DEFAULT_GROUP], timeout=WAIT_MS)


def test_symbol_search_finds_by_name_and_adds_the_choice(
    ctx: AppContext, qtbot: QtBot, errors: list[tuple[str, str]]
) -> None:
    panel = _panel(ctx, qtbot)
    with qtbot.waitSignal(panel.search.hits_shown, timeout=WAIT_MS) as shown:
        panel.search.setText("酱香")
        panel.search.textEdited.emit("酱香")
    assert shown.args == [1]
    assert panel.search.hits.item(0).data(Qt.ItemDataRole.UserRole) == "605903.SH"
    panel.search.completer_.activated.emit(panel.search.hits.item(0).text())
    qtbot.waitUntil(lambda: panel.model.symbols() == ["605903.SH"], timeout=WAIT_MS)
    assert ctx.bench.watchlist.symbols() == ["605903.SH"] and panel.search.text() == ""


def test_columns_show_prices_zones_holdings_and_reports(
    reported_ctx: AppContext, qtbot: QtBot, reported_errors: list[tuple[str, str]]
) -> None:
    bench = reported_ctx.bench
    panel = WatchlistPanel(reported_ctx)
    qtbot.addWidget(panel)
    qtbot.waitSignal(panel.zones_refreshed, timeout=WAIT_MS).wait()
    assert panel.model.symbols() == ["605903.SH", "003901.SZ"]
    change = ((Decimal("358.53") / Decimal("351.64") - 1) * 100).quantize(Decimal("0.01"), ROUND_HALF_UP)
    (position,) = bench.ledger.positions("main")
    pnl = Decimal("358.53") * 200 - position.cost
    (report,) = bench.research.reports("605903.SH")
    zone = bench.analytics.zones("605903.SH").position
    assert [_text(panel, 0, key) for key in COLUMN_KEYS] == [
        "605903.SH", "示例酱香酒业", "358.53", f"{change:+.2f}%", ZONE_TITLES[zone], "200", f"{pnl:+,.2f}",
        "2026-11-27", action_word(report.action),
    ]  # fmt: skip
    assert _text(panel, 1, "holding") == "" and _text(panel, 1, "report_date") == ""
    assert _text(panel, 1, "zone") == ZONE_TITLES[bench.analytics.zones("003901.SZ").position]
    menu = panel.context_menu("605903.SH")
    with qtbot.waitSignal(panel.report_requested, timeout=1000) as opened:
        _action(menu, "report").trigger()
    assert opened.args == [report.report_id]


@pytest.fixture(scope="session")
def reported_master(demo_master: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo with 200 shares of 605903.SH bought on 2026-11-26, two watched symbols and a published offline
    report on 605903.SH (built once per session)."""
    home = tmp_path_factory.mktemp("watchlist-reported") / "demo"
    shutil.copytree(demo_master, home, ignore=shutil.ignore_patterns("*.lock", "*.wal"))
    with Workbench.open(home, command="tests") as bench:
        bench.ledger.add_account("main", "CNY")
        bench.ledger.cash("main", "deposit", Decimal("100000"), at=datetime(2026, 11, 2, 9, 0, tzinfo=CN))
        fill = FillDraft("main", "605903.SH", "buy", 200, Decimal("351.64"), datetime(2026, 11, 26, 14, 0, tzinfo=CN))
        bench.ledger.record_fill(fill)
        bench.watchlist.add("605903.SH")
        bench.watchlist.add("003901.SZ")
        assert bench.research.analyze("605903.SH").status == "published"
    return home


@pytest.fixture
def reported_ctx(
    reported_master: Path, tmp_path: Path, make_context: Callable[[Workbench], AppContext]
) -> Iterator[AppContext]:
    home = tmp_path / "reported"
    shutil.copytree(reported_master, home, ignore=shutil.ignore_patterns("*.lock", "*.wal"))
    bench = Workbench.open(home, command="tests")
    made = make_context(bench)
    yield made
    made.runner.wait()  # the context's own teardown comes after this one: drain its pools before closing
    bench.close()


@pytest.fixture
def reported_errors(reported_ctx: AppContext) -> Iterator[list[tuple[str, str]]]:
    shown: list[tuple[str, str]] = []
    reported_ctx.presenter.error_presented.connect(lambda title, text: shown.append((title, text)))
    yield shown
    assert shown == [], "the panel presented errors"


def test_a_stale_or_delayed_price_says_so_in_its_tooltip(qtbot: QtBot) -> None:
    from ui.screens.watchlist.watchlist_model import COLUMN_KEYS, WatchlistModel, WatchRow

    model = WatchlistModel()
    model.set_rows([WatchRow("600519.SH", last=Decimal("1700"), price_label="stale", price_note="40 minutes old"),
                    WatchRow("00700.HK", last=Decimal("380"), price_label="delayed")])  # fmt: skip
    column = COLUMN_KEYS.index("last")
    tips = [model.data(model.index(row, column), Qt.ItemDataRole.ToolTipRole) for row in range(2)]
    assert tips == ["Stale quote: no source gave a fresh one\n40 minutes old", "Delayed quote"]
