"""Reviews saved from the report browser: an accept writes one row and the list shows its verdict, a reject needs
a reason before Save, the engine's refusal shows in the dialog with nothing written, a revise verdict names its
revision or starts one, and the verdict filter lists reports by their latest review."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from stockbench.research.review_records import Review
from stockbench.workbench import Workbench
from tests.ui.conftest import REPORTS_BANK, REPORTS_HK, REPORTS_TIMEOUT
from ui.i18n.language import Translations
from ui.screens.reports.reports_model import COLUMN_INDEX, UNREVIEWED, ReportRow
from ui.screens.reports.reports_panel import ReportsPanel
from ui.screens.reports.review_dialog import START_NOW, ReviewDialog

BANK, HK, TIMEOUT = REPORTS_BANK, REPORTS_HK, REPORTS_TIMEOUT


@pytest.fixture
def bench(reports_bench: Workbench) -> Workbench:
    return reports_bench


@pytest.fixture
def panel(reports_panel: ReportsPanel) -> ReportsPanel:
    return reports_panel


def reviews(bench: Workbench) -> list[Review]:
    return bench.reviews.find()


def open_review(qtbot: QtBot, panel: ReportsPanel, symbol: str, nth: int = 0) -> tuple[ReportRow, ReviewDialog]:
    """Select the `nth` newest report on `symbol` and open its review dialog."""
    row = [r for r in panel.model.rows() if r.symbol == symbol][nth]
    with qtbot.waitSignal(panel.report_shown, timeout=TIMEOUT):
        panel.open_report(row.report_id)
    panel.review_button.click()
    assert panel.review_dialog is not None and panel.review_dialog.isVisible()
    return row, panel.review_dialog


def shown_verdict(panel: ReportsPanel, report_id: str) -> str:
    at = next(i for i, r in enumerate(panel.model.rows()) if r.report_id == report_id)
    return str(panel.model.index(at, COLUMN_INDEX["verdict"]).data())


def test_saving_an_accept_writes_one_review_and_the_list_shows_it(
    qtbot: QtBot, panel: ReportsPanel, bench: Workbench
) -> None:
    row, dialog = open_review(qtbot, panel, HK)
    assert row.verdict is None and shown_verdict(panel, row.report_id) == ""
    dialog.scores["usefulness"].setValue(4)
    dialog.comment.setPlainText("clear and well sourced")
    with qtbot.waitSignal(dialog.accepted, timeout=TIMEOUT), qtbot.waitSignal(panel.review_saved) as saved:
        dialog.save_button.click()
    [found] = reviews(bench)
    assert saved.args == [found]
    assert (found.run_id, found.report_id, found.verdict, found.reasons) == (row.run_id, row.report_id, "accept", ())
    assert (dict(found.scores), found.comment, found.revised_by) == ({"usefulness": 4}, "clear and well sourced", None)
    qtbot.waitUntil(lambda: panel.model.find(row.report_id).verdict == "accept", timeout=TIMEOUT)  # type: ignore[union-attr]
    assert shown_verdict(panel, row.report_id) == "Accepted"
    assert found.review_id in panel.status_label.text()


def test_a_reject_without_a_reason_keeps_save_disabled(qtbot: QtBot, panel: ReportsPanel, bench: Workbench) -> None:
    _row, dialog = open_review(qtbot, panel, BANK)
    assert dialog.save_button.isEnabled()
    dialog.set_verdict("reject")
    assert not dialog.save_button.isEnabled() and "reason" in dialog.status.text()
    dialog.check_reason("wrong_action")
    assert dialog.save_button.isEnabled() and dialog.status.text() == ""
    dialog.check_reason("wrong_action", False)
    assert not dialog.save_button.isEnabled()
    with qtbot.assertNotEmitted(dialog.save_requested):
        dialog.save()  # a keyboard shortcut or a stray call must not get past the check either
    assert reviews(bench) == [] and dialog.isVisible()
    dialog.reject()


def test_the_engines_refusal_shows_in_the_status_and_writes_nothing(
    qtbot: QtBot, panel: ReportsPanel, bench: Workbench
) -> None:
    other = next(r for r in panel.model.rows() if r.symbol == HK)
    _row, dialog = open_review(qtbot, panel, BANK, 1)
    dialog.set_verdict("revise")
    dialog.check_reason("unclear")
    dialog.revision_combo.addItem("a run on another symbol", other.run_id)  # the dialog never offers one
    dialog.revision_combo.setCurrentIndex(dialog.revision_combo.count() - 1)
    assert dialog.review().revised_by == other.run_id
    with qtbot.assertNotEmitted(panel.review_saved, wait=200):
        dialog.save_button.click()
        assert not dialog.save_button.isEnabled() and dialog.status.text() == "Saving…"
        qtbot.waitUntil(lambda: "cannot revise" in dialog.status.text(), timeout=TIMEOUT)
    assert dialog.status.text().startswith("Not saved: ") and "same symbol" in dialog.status.text()
    assert dialog.isVisible() and dialog.save_button.isEnabled(), "the user may fix the review and save again"
    assert reviews(bench) == []
    assert panel.ctx.presenter.presented == [], "a refused review is not an application error"
    dialog.reject()


def test_the_engines_refusal_is_said_in_the_interface_language(
    qtbot: QtBot, panel: ReportsPanel, bench: Workbench
) -> None:
    other = next(r for r in panel.model.rows() if r.symbol == HK)
    _row, dialog = open_review(qtbot, panel, BANK, 1)
    dialog.set_verdict("revise")
    dialog.check_reason("unclear")
    dialog.revision_combo.addItem("a run on another symbol", other.run_id)
    dialog.revision_combo.setCurrentIndex(dialog.revision_combo.count() - 1)
    translations = Translations()
    translations.install("zh_CN")
    try:
        dialog.save_button.click()
        qtbot.waitUntil(lambda: "不能修订" in dialog.status.text(), timeout=TIMEOUT)
    finally:
        translations.install("en")  # English again (translators and default locale) for the tests after this one
    assert dialog.status.text().startswith(f"未保存：研究 {other.run_id} 不能修订研究 ")
    assert dialog.status.text().endswith("\n修订须是同一证券的另一次研究")
    assert reviews(bench) == []
    dialog.reject()


def test_a_revise_verdict_names_a_later_run_or_starts_one(qtbot: QtBot, panel: ReportsPanel, bench: Workbench) -> None:
    newer, older = [r for r in panel.model.rows() if r.symbol == BANK]
    _row, dialog = open_review(qtbot, panel, BANK, 1)
    dialog.set_verdict("revise")
    assert dialog.revision_combo.isVisible()
    offered = [dialog.revision_combo.itemData(i) for i in range(dialog.revision_combo.count())]
    assert offered == ["", START_NOW, newer.run_id], "only later runs on the same symbol may be named"
    dialog.check_reason("wrong_zone")
    dialog.revision_combo.setCurrentIndex(2)
    with qtbot.waitSignal(panel.review_saved, timeout=TIMEOUT), qtbot.assertNotEmitted(panel.analyze_requested):
        dialog.save_button.click()
    [linked] = reviews(bench)
    assert (linked.run_id, linked.verdict, linked.reasons) == (older.run_id, "revise", ("wrong_zone",))
    assert linked.revised_by == newer.run_id
    assert [s.run_id for s in bench.reviews.lineage(older.run_id)] == [older.run_id, newer.run_id]

    _row, dialog = open_review(qtbot, panel, BANK, 0)
    dialog.set_verdict("revise")
    dialog.check_reason("missed_risk")
    dialog.revision_combo.setCurrentIndex(dialog.revision_combo.findData(START_NOW))
    with qtbot.waitSignal(panel.analyze_requested, timeout=TIMEOUT) as started:
        dialog.save_button.click()
    assert started.args == [BANK]
    pending = bench.reviews.pending_revision(BANK, bench.clock.now())
    assert pending is not None and pending.run_id == newer.run_id and pending.revised_by is None
    assert len(reviews(bench)) == 2


def test_the_verdict_filter_lists_reports_by_their_latest_review(
    qtbot: QtBot, panel: ReportsPanel, bench: Workbench
) -> None:
    newer, older = [r for r in panel.model.rows() if r.symbol == BANK]
    hk = next(r for r in panel.model.rows() if r.symbol == HK)
    bench.reviews.add(older.run_id, "reject", reasons=["stale_data"])
    bench.reviews.add(hk.run_id, "revise", reasons=["unclear"])
    bench.reviews.add(hk.run_id, "accept")  # a changed mind: the latest review counts
    panel.refresh()
    qtbot.waitUntil(lambda: panel.model.find(hk.report_id).verdict == "accept", timeout=TIMEOUT)  # type: ignore[union-attr]
    assert panel.verdict_combo.isEnabled()

    def listed(value: str) -> list[str]:
        panel.verdict_combo.setCurrentIndex(panel.verdict_combo.findData(value))
        return [r.report_id for r in panel.visible_rows()]

    assert listed("accept") == [hk.report_id]
    assert listed("reject") == [older.report_id]
    assert listed("revise") == []
    assert listed(UNREVIEWED) == [newer.report_id]
    assert sorted(listed("")) == sorted(r.report_id for r in panel.model.rows())
    listed("reject")
    with qtbot.waitSignal(panel.report_shown, timeout=TIMEOUT):
        panel.open_report(hk.report_id)  # opening a report the filter hides clears the filter
    assert panel.verdict_combo.currentData() == ""
