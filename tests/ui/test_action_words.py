"""One set of action words: the chart's report marker (and the watchlist, the reports list and its filter, the track
record, through the same table) says the word the report itself uses for its action, in Chinese and in English;
an action outside the set, from an old report, shows as it was stored."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from stockbench.research.track_scoring import ACTIONS
from stockbench.research.wording import say
from stockbench.research.wording.entry import Language
from ui.context import AppContext
from ui.i18n.action_words import WORDS, action_word, in_order
from ui.i18n.language import Language as UiLanguage
from ui.i18n.language import Translations
from ui.screens.chart.chart_panel import ChartPanel
from ui.screens.reports.reports_model import COLUMN_INDEX
from ui.screens.reports.reports_panel import ReportsPanel

SYMBOL = "605903.SH"
WAIT_MS = 60_000
LANGUAGES: list[tuple[UiLanguage, Language]] = [("zh_CN", "zh"), ("en", "en")]


@pytest.fixture
def translations(qapp: QApplication) -> Iterator[Translations]:
    installed = Translations()
    yield installed
    installed.install("en")


@pytest.mark.parametrize(("shown", "written"), LANGUAGES)
def test_every_action_word_of_the_shell_is_the_report_s(
    translations: Translations, shown: UiLanguage, written: Language
) -> None:
    assert list(WORDS) == list(ACTIONS)  # the closed set, in the engine's order
    assert translations.install(shown)
    assert [action_word(a) for a in ACTIONS] == [say(f"action.{a}", written) for a in ACTIONS]
    assert action_word("watch") == "watch" and in_order({"watch", "hold", "wait"}) == ["hold", "wait", "watch"]


@pytest.mark.parametrize(("shown", "written"), LANGUAGES)
def test_the_chart_marker_says_the_report_s_action_word(
    ctx: AppContext, qtbot: QtBot, translations: Translations, shown: UiLanguage, written: Language
) -> None:
    outcome = ctx.bench.research.analyze(SYMBOL, language=written)
    assert outcome.status == "published" and outcome.action is not None
    report = ctx.bench.research.report(outcome.report_id or "")
    word = say(f"action.{outcome.action}", written)
    assert word in report.markdown  # the report's own word for its action
    assert translations.install(shown)
    panel = ChartPanel(ctx)
    qtbot.addWidget(panel)
    panel.resize(1000, 600)
    with qtbot.waitSignal(panel.loaded, timeout=WAIT_MS, check_params_cb=lambda s: s == SYMBOL):
        panel.show_symbol(SYMBOL)
    (marker,) = panel.chart.report_lines
    assert marker.label.textItem.toPlainText() == word
    browser = ReportsPanel(ctx)  # the reports list and its action filter
    qtbot.addWidget(browser)
    browser.show()
    qtbot.waitUntil(lambda: browser.model.rowCount() == 1, timeout=WAIT_MS)
    assert browser.action_combo.itemText(browser.action_combo.findData(outcome.action)) == word
    assert browser.model.index(0, COLUMN_INDEX["action"]).data() == word
