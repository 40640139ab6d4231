"""Issue 19.4: nothing clips at 1366x768, in either language. The main window on the demo workspace, every dock
in its default place: each visible button's text fits the button, and each visible button of the visible panel
lies inside the window (a panel wider than its dock pushed the research panel's Analyze button out of sight)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, QSettings, QSize
from PySide6.QtWidgets import QAbstractButton, QAbstractScrollArea, QDockWidget, QLineEdit, QPushButton, QStyle
from pytestqt.qtbot import QtBot

from stockbench.workbench import Workbench
from ui.i18n.language import Translations
from ui.main_window import MainWindow, default_size
from ui.screens.research.run_model import COLUMN_INDEX

SIZE = (1366, 768)
FIRST = default_size(QSize(*SIZE))  # the first window on a 1366x768 screen: room left for the window manager's frame


@pytest.fixture(params=["zh_CN", "en"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    translations = Translations()
    assert translations.install(request.param)
    yield str(request.param)
    translations.install("en")
    translations.uninstall()


def _shown(button: QAbstractButton) -> bool:
    """False for a button of a dock that is tabbed behind another (not painted at all)."""
    parent = button.parentWidget()
    while parent is not None and not isinstance(parent, QDockWidget):
        parent = parent.parentWidget()
    return parent is None or not parent.visibleRegion().isEmpty()


def _visible_area(button: QAbstractButton, window: MainWindow) -> QRect:
    """The part of the window where `button` can be seen: the window, cut by every scroll area's viewport around it
    (a dock's panel scrolls: a button past its viewport's edge is out of sight)."""
    area = QRect(QPoint(0, 0), window.size())
    parent = button.parentWidget()
    while parent is not None and parent is not window:
        if isinstance(parent, QAbstractScrollArea):
            viewport = parent.viewport()
            area = area.intersected(QRect(viewport.mapTo(window, QPoint(0, 0)), viewport.size()))
        parent = parent.parentWidget()
    return area


def window_at(qtbot: QtBot, size: tuple[int, int], bench: Workbench) -> MainWindow:
    """The main window shown at `size` in the test's language, with `bench` attached."""
    window = MainWindow(settings=QSettings())
    window.presenter.interactive = False
    qtbot.addWidget(window)
    window.retranslate()
    window.resize(*size)
    window.show()
    with qtbot.waitSignal(window.workspace_attached, timeout=20_000):
        window.attach_bench(bench)
    return window


@pytest.mark.parametrize("size", [SIZE, (FIRST.width(), FIRST.height())], ids=["1366x768", "first-size"])
def test_buttons_fit_their_text_and_the_window_at_1366x768(
    qtbot: QtBot, demo_home: Path, language: str, size: tuple[int, int]
) -> None:
    window = window_at(qtbot, size, Workbench.open(demo_home, command="tests"))
    cut: list[str] = []
    outside: list[str] = []
    for screen in ("ledger", "report", "dashboard", "track_record", "chart", "research"):  # each tab in front once
        window.show_screen(screen)
        qtbot.wait(300)
        _check(window, cut, outside)
    window.shutdown()
    assert cut == [], f"{language}: button text cut: {sorted(set(cut))}"
    assert outside == [], f"{language}: buttons outside the window: {sorted(set(outside))}"


def _check(window: MainWindow, cut: list[str], outside: list[str]) -> None:
    for button in window.findChildren(QPushButton):
        if not button.isVisible() or not button.text() or not _shown(button):
            continue
        text = button.text().replace("&", "")
        if button.fontMetrics().horizontalAdvance(text) > button.contentsRect().width():
            cut.append(f"{text!r} ({button.width()} px)")
        where = QRect(button.mapTo(window, QPoint(0, 0)), button.size())
        if not _visible_area(button, window).contains(where):
            outside.append(f"{text!r} at {where.getRect()}")
    print(
        "SIZE",
        window.size(),
        [
            (b.text(), QRect(b.mapTo(window, QPoint(0, 0)), b.size()).getRect(), b.isVisibleTo(window))
            for b in window.findChildren(QPushButton)
            if b.text() in ("Analyze", "分析")
        ],
    )


def _fits(edit: QLineEdit) -> bool:
    """Whether the placeholder of `edit` is seen whole (its text area: the edit less its frame and margins)."""
    frame = edit.style().pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth, None, edit)
    room = edit.width() - 2 * frame - 4 - edit.textMargins().left() - edit.textMargins().right()
    return edit.fontMetrics().horizontalAdvance(edit.placeholderText()) <= room


def test_the_research_table_and_the_chart_legend_fit_in_english(qtbot: QtBot, reports_bench: Workbench) -> None:
    """Found in the real window in English at the first size: the run table's stage ran past the dock's edge
    ("Publishing: every gate in one pa"), and on a reopen its columns were cut to "6059..." and "Publi..."; the
    chart's last moving average was cut ("MA20 354.93 MA"); the research form cut its cost box's words ("Co…")."""
    window = MainWindow(settings=QSettings())
    window.presenter.interactive = False
    qtbot.addWidget(window)
    window.resize(FIRST)
    window.show()
    with qtbot.waitSignal(window.workspace_attached, timeout=20_000):
        window.attach_bench(reports_bench)
    research, chart = window.panels["research"], window.panels["chart"].chart  # type: ignore[attr-defined]
    table = research.table  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: research.model.rowCount() == 3, timeout=20_000)  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: bool(chart.legend.text()), timeout=20_000)
    qtbot.wait(200)
    header, metrics, model = table.horizontalHeader(), table.fontMetrics(), table.model()
    margin = 2 * (table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1)  # Qt's own
    cut = [
        f"{model.index(row, column).data()!r} in {header.sectionSize(column)} px"
        for column in range(header.count())
        for row in range(model.rowCount())
        if metrics.horizontalAdvance(str(model.index(row, column).data() or "")) + margin > header.sectionSize(column)
    ]
    assert cut == [], cut
    titles = [header.sectionSizeFromContents(c).width() > header.sectionSize(c) for c in range(header.count())]
    assert not any(titles), titles
    in_view = table.viewport().width()
    for key in ("symbol", "status", "stage"):  # what a run is and where it stands: seen without scrolling
        column = COLUMN_INDEX[key]
        assert header.sectionViewportPosition(column) + header.sectionSize(column) <= in_view, key
    for label in (chart.info, chart.legend):
        assert label.sizeHint().width() <= label.width(), label.text()
    edits = [research.symbol_edit, research.question_edit, research.ceiling_edit]  # type: ignore[attr-defined]
    assert [e.placeholderText() for e in edits if not _fits(e)] == []
    window.shutdown()


@pytest.mark.parametrize("size", [SIZE, (FIRST.width(), FIRST.height())], ids=["1366x768", "first-size"])
def test_the_report_list_shows_its_titles(
    qtbot: QtBot, reports_bench: Workbench, language: str, size: tuple[int, int]
) -> None:
    """Found in the real window at 1366x768 in Chinese: beside the reader, the report list's other columns took its
    width and the title column showed "示..." (or "…"). The list goes above the reader when both do not fit side by
    side, and its title column has room for at least 12 CJK characters, with every other column in view."""
    from ui.screens.reports.reports_model import COLUMN_INDEX as REPORT_COLUMNS

    window = window_at(qtbot, size, reports_bench)
    panel = window.show_screen("report")
    assert panel is not None
    table = panel.table  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: table.model().rowCount() == 3, timeout=20_000)
    qtbot.wait(200)
    header = table.horizontalHeader()
    title = REPORT_COLUMNS["title"]
    twelve = table.fontMetrics().horizontalAdvance("示" * 12)
    try:
        assert header.sectionSize(title) >= twelve, (language, header.sectionSize(title), twelve)
        last = header.logicalIndex(header.count() - 1)
        assert header.sectionViewportPosition(last) + header.sectionSize(last) <= table.viewport().width()
        assert table.horizontalScrollBar().maximum() == 0  # nothing of the list is out of sight to the right
        reader = panel.tabs  # type: ignore[attr-defined]
        assert reader.width() >= 400, reader.width()  # the report keeps room to be read
    finally:
        window.shutdown()


def test_the_research_tables_model_column_fits_at_1366x768(
    qtbot: QtBot, reports_bench: Workbench, language: str
) -> None:
    """Found in the real window at 1366x768: the run table's model column was cut ("offline rul…", "离线规…"), the
    model and the columns after it past the dock's edge. The model's words are seen whole, without scrolling."""
    window = window_at(qtbot, SIZE, reports_bench)
    research = window.show_screen("research")
    assert research is not None
    table = research.table  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: table.model().rowCount() == 3, timeout=20_000)
    qtbot.wait(200)
    header, metrics, model = table.horizontalHeader(), table.fontMetrics(), table.model()
    margin = 2 * (table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1)  # Qt's own
    column = COLUMN_INDEX["model"]
    texts = [str(model.index(row, column).data() or "") for row in range(model.rowCount())]
    try:
        assert any(texts), texts
        width = max(metrics.horizontalAdvance(text) for text in texts) + margin
        assert width <= header.sectionSize(column), (language, texts, header.sectionSize(column))
        assert header.sectionSizeFromContents(column).width() <= header.sectionSize(column)  # its title too
        right = header.sectionViewportPosition(column) + header.sectionSize(column)
        assert right <= table.viewport().width(), (language, right, table.viewport().width())
    finally:
        window.shutdown()
