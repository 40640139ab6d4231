"""Issue 19.2: no English in the Chinese interface. The main window on the demo workspace with published reports, in
Chinese, each screen brought to the front and the main dialogs opened, every page of Settings in turn: every visible
text (labels, buttons, group and tab titles, dock titles, combo box items, table headers and cells, and the text of
the report reader and its evidence pane) is walked, and none holds a word of the engine's or Qt's English. Symbols
(600519.SH), codes, ids and names may stay as they are; the words below may not."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QTextDocumentFragment
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDialog,
    QDockWidget,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListView,
    QTabBar,
    QTextEdit,
    QWidget,
)
from pytestqt.qtbot import QtBot

from stockbench.ledger.imports import OPTIONAL, REQUIRED
from stockbench.workbench import Workbench
from ui.dialogs.fill_import_dialog import FillImportDialog
from ui.i18n.language import Translations
from ui.main_window import MainWindow

# The engine's words (actions, states, sides, cash kinds, gate results, statuses, zones) and Qt's own buttons
ENGINE_WORDS = (
    "buy", "sell", "hold", "avoid", "wait", "add", "reduce", "deposit", "withdraw", "withdrawal", "transfer",
    "dividend", "fee", "fees", "fill", "fills", "computed", "computation", "observed", "pass", "passed", "fail",
    "failed", "unknown", "watching", "in_buy", "in_sell", "below_buy", "above_sell", "between", "trading", "shares",
    "share", "cash", "position", "published", "paused", "running", "stopped", "queued", "done", "pending", "open",
    "closed", "cancelled", "none", "yes", "no", "true", "false", "ok", "cancel", "apply", "close", "save", "discard",
    "help", "reset", "browse", "look", "files", "type", "name", "size", "date", "modified", "kind", "account",
    "accounts", "ledger", "report", "reports", "zone", "zones", "stop", "target", "price", "quote", "bars", "last",
    "close", "continuous", "lunch", "break", "auction", "live", "replay", "demo", "offline", "rules", "model",
    "full", "question", "quick", "review", "stale", "missing", "ready", "error", "warning", "holding", "holdings",
    "sellable", "order", "orders", "new", "modify", "keep", "total", "amount", "qty", "quantity", "from", "where",
    "comes", "evidence", "source", "the", "and", "of", "is", "not", "at", "in", "on", "to", "for",
)  # fmt: skip
WORDS = re.compile(r"(?<![\w.:/-])(" + "|".join(sorted(set(ENGINE_WORDS), key=len, reverse=True)) + r")(?![\w.:/-])",
                   re.IGNORECASE)  # fmt: skip
# What a person types as it is: the broker CSV's column names (the import dialog lists them)
CODES = re.compile(r"(?<![\w.:/-])(" + "|".join((*REQUIRED, *OPTIONAL)) + r")(?![\w.:/-])")
SCREENS = ("dashboard", "watchlist", "chart", "research", "report", "ledger", "track_record")
DIALOGS = ("record_fill", "settings", "connect_model", "import_fills", "new_account", "cash")


@pytest.fixture
def chinese(qtbot: QtBot) -> Iterator[MainWindow]:
    """The main window in Chinese (its setting says so before it is built); English again afterwards."""
    QSettings().setValue("ui/language", "zh_CN")
    window = MainWindow(settings=QSettings())
    qtbot.addWidget(window)
    yield window
    window.translations.install("en")
    window.translations.uninstall()
    Translations().install("en")  # the default locale back to English for the tests after this one


def _plain(text: str) -> str:
    return QTextDocumentFragment.fromHtml(text).toPlainText() if "<" in text else text


def _seen(widget: QWidget) -> bool:
    """Visible and not in a dock tabbed behind another."""
    if not widget.isVisible():
        return False
    parent = widget.parentWidget()
    while parent is not None and not isinstance(parent, QDockWidget):
        parent = parent.parentWidget()
    return parent is None or not parent.visibleRegion().isEmpty()


def _model_texts(view: QAbstractItemView) -> Iterator[str]:
    model = view.model()
    if model is None:
        return
    root = view.rootIndex()
    columns = 1 if isinstance(view, QListView) else model.columnCount(root)
    if not isinstance(view, QListView):
        for column in range(columns):
            yield str(model.headerData(column, Qt.Orientation.Horizontal) or "")
    for row in range(min(model.rowCount(root), 50)):
        for column in range(columns):
            yield str(model.index(row, column, root).data() or "")


def texts(root: QWidget) -> Iterator[tuple[str, str]]:
    """(where, text) of every visible text under `root`."""
    for widget in [root, *root.findChildren(QWidget)]:
        if not _seen(widget):
            continue
        name = f"{type(widget).__name__}({widget.objectName()})"
        if isinstance(widget, QLabel):
            yield name, _plain(widget.text())
        elif isinstance(widget, QAbstractButton):
            yield name, widget.text()
        elif isinstance(widget, QGroupBox):
            yield name, widget.title()
        elif isinstance(widget, QDockWidget | QDialog):
            yield name, widget.windowTitle()
        elif isinstance(widget, QTabBar):
            yield from ((name, widget.tabText(i)) for i in range(widget.count()))
        elif isinstance(widget, QComboBox):
            yield from ((name, widget.itemText(i)) for i in range(widget.count()))
        elif isinstance(widget, QLineEdit):
            yield name, widget.placeholderText()
        elif isinstance(widget, QAbstractItemView) and not isinstance(widget, QHeaderView):
            yield from ((name, t) for t in _model_texts(widget))
        elif isinstance(widget, QTextEdit):  # the report reader, its evidence pane, a comparison: line by line
            yield from ((name, line) for line in widget.toPlainText().splitlines() if line.strip())


def settle(qtbot: QtBot, window: MainWindow) -> None:
    """Wait until the engine calls the screens started have delivered (a delivery may start another)."""
    assert window.ctx is not None
    pool = window.ctx.runner.general
    for _ in range(3):
        qtbot.waitUntil(lambda: pool.activeThreadCount() == 0, timeout=20_000)
        qtbot.wait(150)


def english(root: QWidget, where: str, names: tuple[str, ...] = ()) -> list[str]:
    """Every visible text under `root` with an English word in it (`names`, the workspace's own, may stay)."""
    found = set()
    for widget, text in texts(root):
        plain = CODES.sub("", text.replace("&", ""))
        for name in names:
            plain = plain.replace(name, "")
        if WORDS.search(plain):
            found.add(f"{where}: {widget}: {text!r}")
    return sorted(found)


def _broker_file(folder: Path) -> Path:
    path = folder / "broker.csv"
    path.write_text("executed_at,symbol,side,qty,price\n2026-11-27 10:00,003901.SZ,buy,1000,10.43\n"
                    "2026-11-27 10:05,003901.SZ,buy,150,10.43\n", encoding="utf-8")  # fmt: skip
    return path


def test_no_english_word_in_the_chinese_interface(
    qtbot: QtBot, reports_bench: Workbench, chinese: MainWindow, tmp_path: Path
) -> None:
    window = chinese
    assert window.translations.language == "zh_CN"
    window.presenter.interactive = False
    window.resize(1366, 768)
    window.show()
    bench = reports_bench
    bench.ledger.add_account("main", "CNY")  # for the fill import to check a file against
    with qtbot.waitSignal(window.workspace_attached, timeout=20_000):
        window.attach_bench(bench)
    # the folder's and the accounts' names, and the data sources' (tencent, sina, ... and the demo market's "demo")
    names = (bench.workspace.home.name, *(a.name for a in bench.ledger.accounts()), "demo")
    found: list[str] = []
    seen: dict[str, int] = {}  # how many texts each screen showed: the walk reaches the tables' cells
    for screen in SCREENS:
        window.show_screen(screen)
        settle(qtbot, window)
        found += english(window, screen, names)
        seen[screen] = sum(1 for _ in texts(window))
    found += report_reader(qtbot, window, names)
    found += settings_pages(qtbot, window, names)
    for name in DIALOGS:
        before = set(QApplication.topLevelWidgets())
        window.actions_by_name[name].trigger()
        settle(qtbot, window)
        dialogs = [w for w in QApplication.topLevelWidgets() if w not in before and isinstance(w, QDialog)]
        assert dialogs, f"{name} opened no dialog"
        for dialog in dialogs:
            if isinstance(dialog, FillImportDialog):  # a broker file with a bad row and a good one, checked
                with qtbot.waitSignal(dialog.checked, timeout=20_000):
                    dialog.set_file(_broker_file(tmp_path))
            found += english(dialog, name, names)
            dialog.close()
    window.shutdown()
    assert min(seen.values()) > 50, seen
    assert window.presenter.presented == [], window.presenter.presented
    assert found == [], "\n".join(found)


def report_reader(qtbot: QtBot, window: MainWindow, names: tuple[str, ...]) -> list[str]:
    """The newest report open in the reader with the evidence behind one of its numbers shown below it."""
    from ui.screens.reports.reports_panel import screenshot_setup

    panel = window.show_screen("report")
    assert panel is not None
    qtbot.waitUntil(lambda: all(r.seal_checked for r in panel.model.rows()), timeout=20_000)  # type: ignore[attr-defined]
    screenshot_setup(panel)  # type: ignore[arg-type]
    view, evidence = panel.view, panel.evidence_view  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: bool(view.toPlainText().strip() and evidence.toPlainText().strip()), timeout=20_000)
    settle(qtbot, window)
    assert len(view.toPlainText()) > 1000 and evidence.toPlainText().strip(), "the reader shows no report"
    return english(panel, "report reader", names)


def settings_pages(qtbot: QtBot, window: MainWindow, names: tuple[str, ...]) -> list[str]:
    """Every page of Settings brought to the front in turn."""
    from ui.dialogs.settings.settings_dialog import SettingsDialog

    dialog = window.open_settings()
    assert isinstance(dialog, SettingsDialog)
    found: list[str] = []
    try:
        for index, page in enumerate(dialog.pages):
            dialog.tabs.setCurrentIndex(index)
            settle(qtbot, window)
            shown = sum(1 for _ in texts(page))
            assert shown > 2, f"Settings page {index} showed {shown} texts"
            found += english(dialog, f"settings {dialog.tabs.tabText(index)}", names)
    finally:
        dialog.close()
    return found
