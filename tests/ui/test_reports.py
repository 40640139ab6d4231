"""The report browser on the demo workspace with published reports: list, filters, search, evidence links,
compare, verify, export to Markdown and PDF, and the review dialog."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import QDate, Qt, QUrl
from pytestqt.qtbot import QtBot

from stockbench.clock import MARKET_TZ
from stockbench.evidence.lookup import report_citations
from stockbench.research.review_records import REASONS, SCORES
from stockbench.research.wording import say
from tests.ui.conftest import REPORTS_BANK, REPORTS_HK, REPORTS_TIMEOUT
from ui.context import AppContext
from ui.screens.reports.report_links import link_report
from ui.screens.reports.report_view import ReportView, kind_word
from ui.screens.reports.reports_model import ReportRow
from ui.screens.reports.reports_panel import ReportsPanel

BANK, HK, TIMEOUT = REPORTS_BANK, REPORTS_HK, REPORTS_TIMEOUT


@pytest.fixture
def ctx(reports_ctx: AppContext) -> AppContext:
    return reports_ctx


@pytest.fixture
def panel(reports_panel: ReportsPanel) -> ReportsPanel:
    return reports_panel


@contextmanager
def in_chinese(panel: ReportsPanel) -> Iterator[None]:
    """The interface switched to Chinese and `panel` retranslated, as the window does; English again afterwards."""
    from ui.i18n.language import Translations

    translations = Translations()
    try:
        translations.install("zh_CN")
        panel.retranslate()
        yield
    finally:
        translations.install("en")
        translations.uninstall()
    panel.retranslate()


def select(qtbot: QtBot, panel: ReportsPanel, symbol: str, nth: int = 0) -> ReportRow:
    row = [r for r in panel.model.rows() if r.symbol == symbol][nth]
    with qtbot.waitSignal(panel.report_shown, timeout=TIMEOUT):
        panel.open_report(row.report_id)
    return row


def test_the_browser_lists_and_renders_reports(qtbot: QtBot, panel: ReportsPanel, ctx: AppContext) -> None:
    assert sorted(r.symbol for r in panel.visible_rows()) == [BANK, BANK, HK]
    row = select(qtbot, panel, HK)
    text = panel.view.toPlainText()
    assert row.title in text and say("report.disclaimer", "zh") in text  # a Chinese report, in Chinese only
    assert "## " not in text, "markdown is rendered, not shown raw"
    assert panel.current_row() == row
    assert not panel.compare_button.isEnabled(), "the only report on a symbol has nothing to compare with"


def test_the_empty_reader_says_what_to_do_in_the_interface_language(qtbot: QtBot, panel: ReportsPanel) -> None:
    """Seen in the real window: before a report was chosen the reader was a blank page."""

    assert panel.view.toPlainText() == ""
    assert panel.view.placeholderText() == "Choose a report in the list to read it here."
    with in_chinese(panel):
        assert panel.view.placeholderText() == "在列表中选择一份报告，在这里阅读。"
    select(qtbot, panel, HK)
    assert panel.view.toPlainText()  # a report shown: the hint is gone with the empty page


def test_full_text_search_and_filters(qtbot: QtBot, panel: ReportsPanel) -> None:
    panel.search_edit.setText("02971")  # the symbol appears only in the HK report's text, not in any title
    assert [r.symbol for r in panel.visible_rows()] == [HK]
    panel.search_edit.setText("示例商业银行 avoid")  # every term must match
    assert {r.symbol for r in panel.visible_rows()} <= {BANK}
    panel.search_edit.setText("no report says this")
    assert panel.visible_rows() == []
    panel.search_edit.clear()
    panel.symbol_edit.setText("003901")
    assert [r.symbol for r in panel.visible_rows()] == [BANK, BANK]
    panel.symbol_edit.clear()
    action = panel.model.rows()[0].action
    panel.action_combo.setCurrentIndex(panel.action_combo.findData(action))
    assert {r.action for r in panel.visible_rows()} == {action}
    panel.action_combo.setCurrentIndex(0)
    day = panel.model.rows()[0].day
    panel.since_check.setChecked(True)
    panel.since_edit.setDate(QDate(day.year, day.month, day.day))
    assert len(panel.visible_rows()) == 3
    later = day + timedelta(days=1)
    panel.since_edit.setDate(QDate(later.year, later.month, later.day))
    assert panel.visible_rows() == []


def test_export_to_markdown_and_pdf(qtbot: QtBot, panel: ReportsPanel, ctx: AppContext, tmp_path: Path) -> None:
    row = select(qtbot, panel, BANK)
    markdown, pdf = tmp_path / "out" / "report.md", tmp_path / "out" / "report.pdf"
    with qtbot.waitSignal(panel.exported, timeout=TIMEOUT):
        panel.export_markdown(markdown)
    written = markdown.read_text(encoding="utf-8")
    # Issue 19.6: the export carries what the view shows after the report: each quoted passage and its evidence
    assert written.startswith(row.markdown.rstrip("\n")) and row.draft["quotes"]
    heading = "### 引文及其出处" if "### 引文及其出处" in written else "### Quotes and their sources"
    appendix = written.split(heading, 1)[1]
    for quote in row.draft["quotes"]:
        assert " ".join(quote["text"].split()) in appendix and quote["evidence_id"] in appendix
    with qtbot.waitSignal(panel.exported, timeout=TIMEOUT):
        panel.export_pdf(pdf)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and len(data) > 2000
    from pypdf import PdfReader

    text = "".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert row.draft["quotes"][0]["evidence_id"] in text.replace("\n", "")


def test_clicking_an_evidence_id_shows_its_source_and_hash(qtbot: QtBot, panel: ReportsPanel, ctx: AppContext) -> None:
    select(qtbot, panel, BANK)
    anchors = [a for a in panel.view.anchors() if a.startswith("evidence:")]
    assert anchors, "every evidence id is a link"
    evidence_id = anchors[0].removeprefix("evidence:")
    with qtbot.waitSignal(panel.evidence_shown, timeout=TIMEOUT) as shown:
        panel.view.anchorClicked.emit(QUrl(anchors[0]))
    stored = ctx.bench.research.store.get(evidence_id)
    assert [d.evidence_id for d in shown.args[0]] == [evidence_id]
    text = panel.evidence_view.text()
    assert stored.source in text and stored.sha256 in text and kind_word(stored.kind) in text
    fetched = shown.args[0][0].fetched_at
    assert fetched is not None and "+00:00" not in text  # exchange time, the zone named
    assert f"{fetched.astimezone(MARKET_TZ['CN']):%Y-%m-%d %H:%M:%S} Beijing time (UTC+08:00)" in text


def test_clicking_a_number_in_a_claim_shows_the_passage_around_it(qtbot: QtBot, panel: ReportsPanel) -> None:
    row = select(qtbot, panel, BANK)
    numbers = [a for a in panel.view.anchors() if a.startswith("number:")]
    assert len(numbers) >= 2, "the numbers in the claims are links"
    request = panel.view.linked.request("number", numbers[-1].removeprefix("number:"))
    assert request is not None and request.number is not None
    citing = [set(c["evidence"]) for c in row.draft["claims"] if request.number in c["text"]]
    assert any(set(request.evidence_ids) <= cited for cited in citing)  # the cited evidence that grounds the number
    with qtbot.waitSignal(panel.evidence_shown, timeout=TIMEOUT) as shown:
        panel.view.anchorClicked.emit(QUrl(numbers[-1]))
    detail = shown.args[0][0]
    assert detail.found and detail.where and detail.highlight in detail.passage
    assert detail.source in panel.evidence_view.text()


def test_clicking_a_quote_shows_its_passage(qtbot: QtBot, panel: ReportsPanel) -> None:
    row = select(qtbot, panel, BANK)
    quotes = [a for a in panel.view.anchors() if a.startswith("quote:")]
    assert len(quotes) == len(row.draft["quotes"]) > 0
    with qtbot.waitSignal(panel.evidence_shown, timeout=TIMEOUT) as shown:
        panel.view.anchorClicked.emit(QUrl(quotes[0]))
    detail = shown.args[0][0]
    assert detail.found and detail.evidence_id == row.draft["quotes"][0]["evidence_id"]
    assert detail.kind and detail.sha256 in panel.evidence_view.text()


def test_compare_with_the_previous_report_on_the_symbol(qtbot: QtBot, panel: ReportsPanel) -> None:
    newer = select(qtbot, panel, BANK, 0)
    older = panel.model.previous(newer)
    assert older is not None and older.symbol == BANK
    assert panel.compare_button.isEnabled()
    panel.compare_button.click()
    text = panel.compare_view.toPlainText()
    assert f"Previous: {older.day.isoformat()} ({older.report_id})" in text
    assert f"This: {newer.day.isoformat()} ({newer.report_id})" in text
    assert all(s["title"] in text for s in newer.draft["sections"])
    assert panel.tabs.currentWidget() is panel.compare_view


def test_verify_rechecks_the_report(qtbot: QtBot, panel: ReportsPanel) -> None:
    row = select(qtbot, panel, HK)
    with qtbot.waitSignal(panel.verified, timeout=TIMEOUT) as result:
        panel.verify_button.click()
    assert result.args == [row.report_id, []]
    assert "verifies" in panel.status_label.text()


def test_the_review_dialog_offers_the_engines_codes_and_scores(qtbot: QtBot, panel: ReportsPanel) -> None:
    row = select(qtbot, panel, HK)
    panel.review_button.click()
    dialog = panel.review_dialog
    assert dialog is not None and dialog.isVisible()
    codes = [dialog.reasons.item(i).data(Qt.ItemDataRole.UserRole) for i in range(dialog.reasons.count())]
    assert codes == list(REASONS) and list(dialog.scores) == list(SCORES)
    assert all(dialog.reasons.item(i).text() != "" for i in range(dialog.reasons.count()))
    assert dialog.save_button.isEnabled() and dialog.review().scores == {}, "an accept needs no reason nor score"
    dialog.set_verdict("reject")
    review = dialog.review()
    assert (review.run_id, review.report_id, review.verdict) == (row.run_id, row.report_id, "reject")
    assert review.problems(), "a reject needs a reason"
    dialog.check_reason("missed_news")
    dialog.scores["clarity"].setValue(4)
    assert dialog.review().reasons == ("missed_news",) and dialog.review().problems() == []
    assert dialog.review().scores == {"clarity": 4}
    dialog.reject()


def test_a_newly_published_report_appears(qtbot: QtBot, panel: ReportsPanel, ctx: AppContext) -> None:
    worker = threading.Thread(target=lambda: ctx.bench.research.analyze("003903.SZ"))
    worker.start()
    qtbot.waitUntil(lambda: panel.model.rowCount() == 4, timeout=TIMEOUT)
    worker.join()
    assert "003903.SZ" in [r.symbol for r in panel.model.rows()]


def test_open_latest_by_code(qtbot: QtBot, panel: ReportsPanel) -> None:
    with qtbot.waitSignal(panel.report_shown, timeout=TIMEOUT) as shown:
        panel.open_latest("02971")
    assert shown.args == [next(r.report_id for r in panel.model.rows() if r.symbol == HK)]


def test_report_text_cannot_render_html_or_follow_foreign_links(qtbot: QtBot) -> None:
    view = ReportView()
    qtbot.addWidget(view)
    markdown = (
        "# T\n\nSee <b>bold</b> [site](https://example.com) ![x](file:///etc/passwd) [ev-0123456789abcdef01234567]"
    )
    row = ReportRow("R1", "RUN1", BANK, date(2026, 1, 5), None, "T", "hold", "offline", True, markdown, {})  # type: ignore[arg-type]
    view.show_report(row)
    assert "See <b>bold</b>" in view.toPlainText(), "raw HTML in a report is shown as text, never rendered"
    assert view.loadResource(2, QUrl("file:///etc/passwd")) is None, "no image or file is ever loaded"
    assert view.anchors() == ["https://example.com", "evidence:ev-0123456789abcdef01234567"]
    emitted: list[object] = []
    view.evidence_requested.connect(emitted.append)
    view.anchorClicked.emit(QUrl("https://example.com"))
    view.anchorClicked.emit(QUrl("file:///etc/passwd"))
    assert emitted == []
    view.anchorClicked.emit(QUrl("evidence:ev-0123456789abcdef01234567"))
    assert len(emitted) == 1


def test_claim_numbers_and_ids_become_links() -> None:
    draft = {"claims": [{"text": "回测：期望收益 -0.07%，样本 37 次", "evidence": ["ev-" + "a" * 24]}]}
    markdown = "## 诊断\n\n- 回测：期望收益 -0.07%，样本 37 次 [ev-" + "a" * 24 + "]"
    linked = link_report(markdown, report_citations(draft))
    assert "[-0.07%](number:0)" in linked.markdown and "[37](number:1)" in linked.markdown
    assert f"\\[[ev-{'a' * 24}](evidence:ev-{'a' * 24})\\]" in linked.markdown
    assert [r.number for r in linked.links] == ["-0.07%", "37"]
    assert linked.request("number", "5") is None and linked.request("mailto", "x") is None


def test_the_evidence_pane_speaks_the_interface_language_and_follows_a_switch(
    qtbot: QtBot, panel: ReportsPanel
) -> None:
    import re

    from ui.i18n.language import Translations

    select(qtbot, panel, BANK)
    numbers = [a for a in panel.view.anchors() if a.startswith("number:")]
    with qtbot.waitSignal(panel.evidence_shown, timeout=TIMEOUT) as shown:
        panel.view.anchorClicked.emit(QUrl(numbers[-1]))
    detail = shown.args[0][0]
    number = panel.view.linked.request("number", numbers[-1].removeprefix("number:")).number  # type: ignore[union-attr]
    assert f"Where {number} comes from" in panel.evidence_view.text()
    translations = Translations()
    try:
        translations.install("zh_CN")
        qtbot.waitUntil(lambda: "的来源" in panel.evidence_view.text(), timeout=2_000)
        text = panel.evidence_view.text()
        assert f"{number} 的来源" in text and "comes from" not in text
        table = text.split(detail.passage[:20])[0] if detail.passage else text
        for value in (detail.source, detail.sha256, detail.where, detail.evidence_id, number or ""):
            table = table.replace(value, "")
        assert not re.findall(r"[A-Za-z]{3,}", table.replace("SHA-256", "").replace("UTC", "")), table
    finally:
        translations.install("en")
        translations.uninstall()
    qtbot.waitUntil(lambda: f"Where {number} comes from" in panel.evidence_view.text(), timeout=2_000)


def test_the_offline_rules_model_is_named_in_the_interface_language(qapp: object) -> None:
    """The list names the built-in model in the catalogue's words in both languages (English said "offline" where
    Chinese said 离线规则模型)."""
    from ui.i18n.language import Translations
    from ui.screens.reports.reports_model import model_title

    assert (model_title("offline"), model_title("deepseek")) == ("offline rules model", "deepseek")
    translations = Translations()
    try:
        assert translations.install("zh_CN")
        assert (model_title("offline"), model_title("deepseek")) == ("离线规则模型", "deepseek")
    finally:
        translations.install("en")
        translations.uninstall()


def test_the_list_sits_beside_the_reader_only_where_its_titles_fit(qtbot: QtBot, panel: ReportsPanel) -> None:
    """Wide, the list is beside the reader; narrower than the list's columns, a title of 12 CJK characters and a
    reader need, it goes above the reader (whose buttons then share one row), and back again when widened."""
    from PySide6.QtCore import Qt

    needed = panel.side_by_side_width()
    panel.resize(needed + 40, 700)
    qtbot.waitUntil(lambda: panel.splitter.orientation() == Qt.Orientation.Horizontal, timeout=2_000)
    panel.resize(needed - 40, 700)
    qtbot.waitUntil(lambda: panel.splitter.orientation() == Qt.Orientation.Vertical, timeout=2_000)
    qtbot.waitUntil(lambda: panel.compare_button.y() == panel.export_pdf_button.y(), timeout=2_000)
    panel.resize(needed + 40, 700)
    qtbot.waitUntil(lambda: panel.splitter.orientation() == Qt.Orientation.Horizontal, timeout=2_000)
    qtbot.waitUntil(lambda: panel.compare_button.y() != panel.export_pdf_button.y(), timeout=2_000)


def test_a_comparison_on_screen_is_worded_again_on_a_language_switch(qtbot: QtBot, panel: ReportsPanel) -> None:
    from ui.i18n.language import Translations

    newer = select(qtbot, panel, BANK, 0)
    older = panel.model.previous(newer)
    assert older is not None
    panel.compare_button.click()
    translations = Translations()
    try:
        translations.install("zh_CN")
        panel.retranslate()
        text = panel.compare_view.toPlainText()
        assert f"Previous: {older.day.isoformat()}" not in text and older.report_id in text
        assert panel.tabs.currentWidget() is panel.compare_view
    finally:
        translations.install("en")
        translations.uninstall()
    panel.retranslate()
    assert f"Previous: {older.day.isoformat()} ({older.report_id})" in panel.compare_view.toPlainText()


def test_a_tampered_report_is_refused_a_pdf_in_the_interface_language(
    qtbot: QtBot, panel: ReportsPanel, ctx: AppContext, tmp_path: Path
) -> None:
    """Found on main: the PDF export of a report not as published was refused in English only."""
    from ui.i18n.language import Translations

    row = select(qtbot, panel, HK)
    ctx.bench.workspace.db.execute("UPDATE reports SET title = '强烈买入' WHERE report_id = ?", [row.report_id])
    presented = ctx.presenter.presented
    translations = Translations()
    try:
        assert translations.install("zh_CN")
        panel.export_pdf(tmp_path / "report.pdf")
        qtbot.waitUntil(lambda: bool(presented), timeout=TIMEOUT)
        assert presented[-1][1].startswith(f"报告 {row.report_id} 已不是发布时的样子：")
        assert "is not as it was published" not in presented[-1][1]
    finally:
        translations.install("en")
        translations.uninstall()
    panel.export_pdf(tmp_path / "report.pdf")
    qtbot.waitUntil(lambda: len(presented) == 2, timeout=TIMEOUT)
    assert presented[-1][1].startswith(f"report {row.report_id} is not as it was published: ")
    assert not (tmp_path / "report.pdf").exists()


def test_the_evidence_pane_is_folded_until_a_click_asks_for_evidence(qtbot: QtBot, panel: ReportsPanel) -> None:
    """At 1366x768 the evidence pane's empty hint took a quarter of the reader's height: it is folded away until a
    click shows evidence (the hint is said on the status line), opens from its heading, and folds again when
    another report is chosen."""
    from ui.screens.reports.report_view import evidence_hint

    panel.resize(600, 640)
    select(qtbot, panel, BANK)
    assert panel.evidence_folded() and panel.evidence_view.height() == 0
    hint = "Click an evidence id, a number in a claim or a quote to see its source."
    assert panel.status_label.text() == evidence_hint() == hint
    folded = panel.view.height()
    numbers = [a for a in panel.view.anchors() if a.startswith("number:")]
    with qtbot.waitSignal(panel.evidence_shown, timeout=TIMEOUT):
        panel.view.anchorClicked.emit(QUrl(numbers[-1]))
    qtbot.waitUntil(lambda: panel.evidence_view.height() > 100, timeout=2_000)
    assert not panel.evidence_folded() and panel.view.height() < folded
    assert panel.evidence_view.verticalScrollBar().value() == 0
    assert panel.evidence_view.toPlainText().startswith("Where ")
    with in_chinese(panel):
        assert panel.status_label.text() == "点击证据编号、论断中的数字或引文，查看其来源。"
    select(qtbot, panel, HK)
    assert panel.evidence_folded() and panel.evidence_view.toPlainText() == ""
    assert panel.status_label.text() == evidence_hint()


def test_the_list_folds_away_to_read_a_report_at_the_panels_full_height(qtbot: QtBot, panel: ReportsPanel) -> None:
    """Under the list at 768 px the report showed about eight lines: Hide the list gives the reader the panel's
    height, Show the list brings the list and its filters back as they were."""
    from ui.i18n.language import Translations

    panel.resize(600, 640)
    qtbot.waitUntil(lambda: panel.splitter.orientation() == Qt.Orientation.Vertical, timeout=2_000)
    select(qtbot, panel, BANK)
    qtbot.wait(300)  # the reader's buttons settle on one row under the list
    under_the_list, shares = panel.view.height(), panel.splitter.sizes()
    assert panel.list_button.text() == "Hide the list" and panel.list_button.isVisible()
    qtbot.mouseClick(panel.list_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.view.height() > under_the_list + 150, timeout=2_000)
    assert not panel.table.isVisible() and not panel.search_edit.isVisible()
    assert panel.list_button.text() == "Show the list"
    translations = Translations()
    try:
        translations.install("zh_CN")
        panel.retranslate()
        assert panel.list_button.text() == "显示列表"
    finally:
        translations.install("en")
        translations.uninstall()
    panel.retranslate()
    qtbot.mouseClick(panel.list_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.table.isVisible() and panel.search_edit.isVisible(), timeout=2_000)
    assert panel.list_button.text() == "Hide the list" and panel.current_row() is not None
    qtbot.wait(300)
    assert panel.splitter.sizes() == shares and panel.view.height() == under_the_list


def test_a_records_sentences_follow_a_language_switch(qtbot: QtBot, panel: ReportsPanel, ctx: AppContext) -> None:
    """The evidence pane's record (here the data gates) is looked up again on a switch: its sentences in the new
    language, not only its field names (the gates' reasons stayed in the language they were looked up in)."""
    from stockbench.evidence.records import EvidenceRequest
    from ui.i18n.language import Translations

    row = select(qtbot, panel, BANK)
    [(gates,)] = ctx.bench.workspace.db.execute(
        "SELECT e.evidence_id FROM run_evidence e JOIN reports r ON r.run_id = e.run_id "
        "WHERE r.report_id = ? AND e.kind = 'data_gates'",
        [row.report_id],
    ).fetchall()
    with qtbot.waitSignal(panel.evidence_shown, timeout=TIMEOUT):
        panel.show_evidence(EvidenceRequest((gates,)))
    assert "daily bars" in panel.evidence_view.toPlainText()
    translations = Translations()
    try:
        translations.install("zh_CN")
        with qtbot.waitSignal(panel.evidence_shown, timeout=TIMEOUT):
            panel.retranslate()  # as the window does on a switch
        text = panel.evidence_view.toPlainText()
        assert "日线" in text and "daily bars" not in text and "原因：" in text
    finally:
        translations.install("en")
        translations.uninstall()
