"""The research panel on the demo workspace: live stage titles, pause and Continue, Stop, plan approval, history."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from stockbench.clock import MARKET_TZ
from stockbench.ledger.validation import FillDraft
from stockbench.llm import ModelUnavailable
from stockbench.research.engine import STAGES
from stockbench.research.offline import OfflineModel
from ui.context import AppContext
from ui.i18n.action_words import action_word
from ui.screens.research.research_panel import ResearchPanel
from ui.screens.research.run_model import RunRow, stage_name, stage_title

SYMBOL = "003901.SZ"
RUN_TIMEOUT = 30_000


@pytest.fixture
def errors(ctx: AppContext) -> list[tuple[str, str]]:
    """The errors presented during the test (title, text)."""
    found: list[tuple[str, str]] = []
    ctx.presenter.error_presented.connect(lambda title, text: found.append((title, text)))
    return found


class FlakyModel(OfflineModel):
    """The offline model behind a provider that is down (a network-class failure) until `up` is set."""

    name = "flaky"

    def __init__(self) -> None:
        self.up = False

    def complete(self, request: str, *, ceiling_left: Decimal | None) -> tuple[str, Decimal | None]:
        if not self.up:
            raise ModelUnavailable("the provider answered 503 three times", network_class=True)
        return super().complete(request, ceiling_left=ceiling_left)


class CostlyModel(OfflineModel):
    """The offline model priced like a paid one, so a plan can exceed a cost ceiling."""

    name = "costly"
    offline = False

    def estimate(self, input_tokens: int, output_tokens: int) -> Decimal:
        return Decimal("2.40")


def panel_for(qtbot: QtBot, ctx: AppContext) -> ResearchPanel:
    panel = ResearchPanel(ctx)
    qtbot.addWidget(panel)
    panel.show()
    return panel


def wait_for_status(qtbot: QtBot, panel: ResearchPanel, status: str, symbol: str = SYMBOL) -> RunRow:
    def found() -> RunRow | None:
        return next((r for r in panel.model.rows() if r.symbol == symbol and r.status == status), None)

    qtbot.waitUntil(lambda: found() is not None, timeout=RUN_TIMEOUT)
    row = found()
    assert row is not None
    return row


def test_a_run_shows_its_stage_titles_live(qtbot: QtBot, ctx: AppContext, errors: list[tuple[str, str]]) -> None:
    panel = panel_for(qtbot, ctx)
    shown: list[str] = []
    panel.model.dataChanged.connect(lambda *_: shown.append(panel.stage_label.text()))
    panel.start(SYMBOL)
    row = wait_for_status(qtbot, panel, "published")
    lines = panel.timeline_texts()
    assert [line for line in lines if line.startswith("▶ ")] == ["▶ " + stage_title(s) for s in STAGES]
    assert "    · BULL sub-study" in lines and "    · Publication gates" in lines
    assert any(stage_title("scene") in text for text in shown), "the stage title is shown while the run goes"
    assert row.report_id is not None and panel.report_button.isEnabled()
    qtbot.waitUntil(lambda: (panel.model.row(row.run_id) or row).calls is not None)
    assert (panel.model.row(row.run_id) or row).calls > 0  # type: ignore[operator]
    assert panel.stats_label.text().startswith("Elapsed")
    # done, the row says what the run said right after its status, and no stage it is at (it read "Publishing")
    at = next(i for i, r in enumerate(panel.model.rows()) if r.run_id == row.run_id)
    cells = [panel.model.index(at, c).data() for c in range(3)]
    done = panel.model.row(row.run_id) or row
    assert cells == [SYMBOL, "Published", action_word(done.action or "")] and done.action, cells
    assert panel.stage_label.text() == f"{SYMBOL} · Published", panel.stage_label.text()
    assert errors == []


def test_a_paused_run_shows_the_reason_and_continue_resumes_it(qtbot: QtBot, ctx: AppContext) -> None:
    flaky = FlakyModel()
    ctx.bench.research._ports["flaky"] = flaky
    panel = panel_for(qtbot, ctx)
    panel.model_combo.setCurrentText("flaky")
    panel.start(SYMBOL)
    row = wait_for_status(qtbot, panel, "paused")
    assert row.stage == "scene"
    assert "the provider answered 503 three times" in panel.reason_label.text()
    assert "automatic resume 1 of 3" in panel.reason_label.text()
    shown = panel.model.row(row.run_id) or row
    assert shown.resume_at is not None  # shown in the exchange's time, its zone named
    assert f"{shown.resume_at.astimezone(MARKET_TZ['CN']):%Y-%m-%d %H:%M} Beijing time" in panel.reason_label.text()
    at = next(i for i, r in enumerate(panel.model.rows()) if r.run_id == row.run_id)
    status = panel.model.index(at, 1)  # the status says the stage it is paused at; its tip the stage and why
    assert status.data() == f"Paused · {stage_name('scene')}", status.data()
    assert stage_title("scene") in status.data(Qt.ItemDataRole.ToolTipRole) and "503" in status.data(
        Qt.ItemDataRole.ToolTipRole)  # fmt: skip
    qtbot.waitUntil(panel.continue_button.isEnabled)  # once the paused call has returned
    flaky.up = True
    panel.continue_button.click()
    done = wait_for_status(qtbot, panel, "published")
    assert done.run_id == row.run_id and done.report_id is not None
    assert not panel.continue_button.isEnabled()


def test_stop_ends_a_paused_run(qtbot: QtBot, ctx: AppContext) -> None:
    ctx.bench.research._ports["flaky"] = FlakyModel()
    panel = panel_for(qtbot, ctx)
    panel.model_combo.setCurrentText("flaky")
    panel.start(SYMBOL)
    row = wait_for_status(qtbot, panel, "paused")
    assert panel.stop_button.isEnabled()
    panel.stop_button.click()
    wait_for_status(qtbot, panel, "stopped")
    assert ctx.bench.research.outcome(row.run_id).status == "stopped"
    assert not panel.continue_button.isEnabled()


def test_a_plan_over_its_ceiling_asks_for_approval(
    qtbot: QtBot, ctx: AppContext, errors: list[tuple[str, str]]
) -> None:
    ctx.bench.research._ports["costly"] = CostlyModel()
    panel = panel_for(qtbot, ctx)
    panel.model_combo.setCurrentText("costly")
    panel.ceiling_edit.setText("1.00")
    panel.start(SYMBOL)
    qtbot.waitUntil(lambda: panel.plan_dialog is not None and panel.plan_dialog.isVisible(), timeout=RUN_TIMEOUT)
    dialog = panel.plan_dialog
    assert dialog is not None
    assert "2.4" in dialog.summary.text() and "1" in dialog.summary.text()
    assert stage_title("analyze") in dialog.details.toPlainText()
    assert panel.executing() == set()  # nothing runs before approval
    dialog.approve_button.click()
    row = wait_for_status(qtbot, panel, "published")
    assert row.model == "costly"
    assert errors == []


def test_a_declined_plan_does_not_run(qtbot: QtBot, ctx: AppContext) -> None:
    ctx.bench.research._ports["costly"] = CostlyModel()
    panel = panel_for(qtbot, ctx)
    panel.model_combo.setCurrentText("costly")
    panel.ceiling_edit.setText("1")
    panel.start(SYMBOL)
    qtbot.waitUntil(lambda: panel.plan_dialog is not None and panel.plan_dialog.isVisible(), timeout=RUN_TIMEOUT)
    assert panel.plan_dialog is not None
    panel.plan_dialog.reject()
    qtbot.waitUntil(lambda: any(r.status == "failed" for r in panel.model.rows()))
    assert [r.status for r in ctx.bench.research.runs()] == ["failed"]
    assert panel.executing() == set()


def test_two_runs_proceed_at_once_and_history_lists_them(qtbot: QtBot, ctx: AppContext) -> None:
    panel = panel_for(qtbot, ctx)
    panel.start(SYMBOL)
    panel.start("02971.HK")
    qtbot.waitUntil(lambda: len(panel.executing()) == 2, timeout=RUN_TIMEOUT)
    wait_for_status(qtbot, panel, "published")
    wait_for_status(qtbot, panel, "published", "02971.HK")
    for row in panel.model.rows():  # each run received only its own events
        stages = [e.text for e in row.timeline if e.kind == "stage"]
        assert stages == list(STAGES)
    fresh = panel_for(qtbot, ctx)
    qtbot.waitUntil(lambda: len(fresh.model.rows()) == 2)
    assert {r.status for r in fresh.model.rows()} == {"published"}
    # read back from the history, each row says its action and opens its report (they were blank before)
    done = {r.run_id: r for r in panel.model.rows()}
    assert [(r.action, r.report_id) for r in fresh.model.rows()] == [
        (done[r.run_id].action, done[r.run_id].report_id) for r in fresh.model.rows()]  # fmt: skip
    assert all(fresh.model.index(i, 2).data() == action_word(r.action or "-") and r.action
               for i, r in enumerate(fresh.model.rows()))  # fmt: skip


def test_a_run_from_the_history_shows_its_calls_cost_and_stages_when_selected(qtbot: QtBot, ctx: AppContext) -> None:
    """Selecting a run from the history said "Elapsed 0:00 · model calls – · cost –" over an empty timeline, as if it
    had taken no time and nothing were known of it; its journal knows its calls, its cost and its stages."""
    outcome = ctx.bench.research.analyze(SYMBOL)  # published by another window (or a command) before this one opened
    details = ctx.bench.research.run_details(outcome.run_id)
    panel = panel_for(qtbot, ctx)
    qtbot.waitUntil(lambda: panel.model.row(outcome.run_id) is not None, timeout=RUN_TIMEOUT)
    panel.table.selectRow(panel.model.row_index(outcome.run_id))
    qtbot.waitUntil(lambda: panel.timeline.count() > 0, timeout=RUN_TIMEOUT)
    assert [panel.timeline.item(i).text() for i in range(panel.timeline.count())] == [
        "▶ " + stage_title(stage) for stage in STAGES]  # fmt: skip
    cost = f"{details.cost.quantize(Decimal('0.0001')).normalize():f}"
    assert panel.stats_label.text() == f"Elapsed – · model calls {details.model_calls} · cost {cost}"


def test_an_interrupted_run_in_the_history_can_be_continued(qtbot: QtBot, ctx: AppContext) -> None:
    run = ctx.bench.research.start(SYMBOL)  # recorded, never executed: as if the app had closed at once
    panel = panel_for(qtbot, ctx)
    qtbot.waitUntil(lambda: panel.model.row(run.run_id) is not None, timeout=RUN_TIMEOUT)
    panel.table.selectRow(panel.model.row_index(run.run_id))
    assert "Interrupted" in panel.reason_label.text() and panel.continue_button.isEnabled()
    panel.continue_button.click()
    assert wait_for_status(qtbot, panel, "published").run_id == run.run_id


def test_quick_review_and_plan_check_after_a_report(qtbot: QtBot, ctx: AppContext) -> None:
    panel = panel_for(qtbot, ctx)
    panel.start(SYMBOL)
    wait_for_status(qtbot, panel, "published")
    panel.check_plan(SYMBOL)
    qtbot.waitUntil(lambda: "Plan check of report" in panel.notice_label.text(), timeout=RUN_TIMEOUT)
    panel.quick_review(SYMBOL)
    qtbot.waitUntil(lambda: "Quick review:" in panel.notice_label.text(), timeout=RUN_TIMEOUT)
    assert panel.notice_label.isVisible()
    (quick,) = [r.run_id for r in ctx.bench.research.runs() if r.run_id.startswith("QR")]
    assert ctx.bench.research.record(quick).plan.language == "en"  # written in the interface's language


def test_a_bad_symbol_is_reported_and_nothing_runs(
    qtbot: QtBot, ctx: AppContext, errors: list[tuple[str, str]]
) -> None:
    panel = panel_for(qtbot, ctx)
    panel.symbol_edit.setText("NOT-A-SYMBOL")
    panel.analyze_button.click()
    qtbot.waitUntil(lambda: bool(errors))
    assert "NOT-A-SYMBOL" in errors[0][1]
    assert panel.model.rows() == []


def test_a_run_started_here_writes_its_report_in_the_interface_language(qtbot: QtBot, ctx: AppContext) -> None:
    """The shell asks for the report in the language it shows (English in these tests; Chinese once switched)."""
    panel = panel_for(qtbot, ctx)
    panel.start(SYMBOL)
    row = wait_for_status(qtbot, panel, "published")
    assert ctx.bench.research.record(row.run_id).plan.language == "en"
    assert row.report_id is not None and ctx.bench.research.summary(row.report_id).language == "en"
    ctx.settings.setValue("ui/language", "zh_CN")
    assert panel._report_language() == "zh"


def test_analyze_reads_the_account_that_holds_the_symbol_by_default(
    qtbot: QtBot, ctx: AppContext, errors: list[tuple[str, str]]
) -> None:
    """Issue 19.2: with one account holding 100 shares, Analyze used to read "(no account)" and report the symbol as
    watched. Now the account box starts on Automatic: the run reads that account, the panel says so, and the
    report names it and knows the holding."""
    cn = MARKET_TZ["CN"]
    ctx.bench.ledger.add_account("main", "CNY")
    ctx.bench.ledger.cash("main", "deposit", Decimal("100000"), at=datetime(2026, 11, 2, 9, 0, tzinfo=cn))
    ctx.bench.ledger.record_fill(FillDraft("main", SYMBOL, "buy", 100, Decimal("30.00"),
                                           datetime(2026, 11, 26, 14, 0, tzinfo=cn)))  # fmt: skip
    panel = panel_for(qtbot, ctx)
    panel.refresh()
    qtbot.waitUntil(lambda: panel.account_combo.findData("main") >= 0, timeout=RUN_TIMEOUT)
    assert panel.account_combo.currentText() == "Automatic account"
    panel.start(SYMBOL)
    row = wait_for_status(qtbot, panel, "published")
    assert panel.notice_label.text() == f"{SYMBOL} reads the account main"
    report = ctx.bench.research.report(str(row.report_id))
    assert ctx.bench.research.record(row.run_id).account == "main"
    assert "读取账户：main" in report.markdown or "Account read: main" in report.markdown
    assert ctx.bench.research.summary(str(row.report_id)).position_state != "watching"
    assert not errors


def test_a_ceiling_typed_with_an_exponent_is_refused_not_taken_as_none(qtbot: QtBot, ctx: AppContext) -> None:
    """Issue 21: text that was not a number was taken as no ceiling, and '1e3' silently as 1000; now a ceiling is
    read by the one reader: '1e3' is refused with the plain form and nothing runs."""
    panel = panel_for(qtbot, ctx)
    panel.ceiling_edit.setText("1e3")
    panel.start(SYMBOL)
    assert panel.notice_label.text() == "cost ceiling '1e3' is written with an exponent — write 1000"
    qtbot.wait(100)
    assert list(ctx.bench.research.runs()) == [] and panel.executing() == set()


def test_the_offline_rules_model_is_named_in_words_in_both_languages(qtbot: QtBot, ctx: AppContext) -> None:
    """The model box names the built-in model as Settings and the report list do, in English too (it said
    "offline"), and a switch of language renames it in place (the choice stays the offline model)."""
    from ui.i18n.language import Translations

    panel = ResearchPanel(ctx)
    qtbot.addWidget(panel)
    assert panel.model_combo.itemText(0) == "offline rules model"
    assert panel.model_combo.itemData(0) == "offline"
    translations = Translations()
    try:
        assert translations.install("zh_CN")
        panel.retranslate()
        assert panel.model_combo.itemText(0) == "离线规则模型"
        assert panel._model_name() == "offline"
    finally:
        translations.install("en")
        translations.uninstall()
    panel.retranslate()
    assert panel.model_combo.currentText() == "offline rules model"
    assert panel._model_name() == "offline"


def test_every_stage_a_run_reports_has_a_name_in_both_languages(qtbot: QtBot) -> None:
    """The run table's stage column never shows an engine key: a quick review's stage read "quick_review" in the
    Chinese window."""
    import re

    from stockbench.research.quick_answers import STAGE as QUICK
    from ui.i18n.language import Translations
    from ui.screens.research.run_model import stage_name

    stages, chinese = (*STAGES, QUICK), Translations()
    try:
        assert chinese.install("zh_CN")
        untranslated = [s for s in stages if not re.search("[\u4e00-\u9fff]", stage_name(s) + stage_title(s))]
        assert untranslated == [] and stage_name(QUICK) == "快速复核"
    finally:
        chinese.install("en")
        chinese.uninstall()
    assert stage_name(QUICK) == "Quick review" and all(stage_name(s) != s for s in stages)


def test_only_a_run_under_way_or_held_says_a_stage(qtbot: QtBot) -> None:
    """One rule for the status cell, its tip and the title above the timeline: a published run is done (its last
    stage read "Publishing" as if it still were) and a planned or queued one has not begun; a running, paused,
    stopped or failed run says the stage it is at."""
    from ui.screens.research.run_model import RunModel

    rows = [
        RunRow("r1", SYMBOL, status="published", stage="publish", reason=""),
        RunRow("r2", SYMBOL, status="queued", stage="prepare"),
        RunRow("r3", SYMBOL, status="paused", stage="scene", reason="model unavailable"),
        RunRow("r4", SYMBOL, status="failed", stage="compute"),
    ]
    assert [r.shown_stage() for r in rows] == ["", "", "scene", "compute"]
    model = RunModel()
    for row in rows:
        model.upsert(row)
    at = {r.run_id: i for i, r in enumerate(model.rows())}
    status = next(c for c in range(model.columnCount()) if model.headerData(c, Qt.Orientation.Horizontal) == "Status")
    cell = {k: model.index(i, status).data() for k, i in at.items()}
    tip = {k: model.index(i, status).data(Qt.ItemDataRole.ToolTipRole) for k, i in at.items()}
    assert cell["r1"] == "Published" and cell["r2"] == "Queued" and tip["r1"] is None and tip["r2"] is None
    assert cell["r3"].endswith(stage_name("scene")) and tip["r3"] == f"{stage_title('scene')}\nmodel unavailable"
    assert cell["r4"].endswith(stage_name("compute")) and tip["r4"] == stage_title("compute")


def test_the_history_read_again_changes_only_the_runs_it_says_something_new_of(qtbot: QtBot) -> None:
    """Refresh reads the whole history again: each run was replaced and announced as changed, and the table measured
    every cell of 650 runs (250 ms of the window's time). Now a run the history says the same of is left alone, and
    the runs it adds come in one insertion (a run started elsewhere since, at the top: it was put last)."""
    from stockbench.research.outcomes import RunListing
    from ui.screens.research.run_model import RunModel

    at = datetime(2026, 11, 27, 15, tzinfo=MARKET_TZ["CN"])
    history = [RunListing(f"r{i}", SYMBOL, "published", "", at, "offline", "", f"R{i}", "wait") for i in range(30)]
    model = RunModel()
    inserted: list[tuple[int, int]] = []
    changed: list[int] = []
    model.rowsInserted.connect(lambda _parent, first, last: inserted.append((first, last)))
    model.dataChanged.connect(lambda top, _bottom: changed.append(top.row()))
    model.merge_history(history)
    assert inserted == [(0, 29)] and changed == []
    assert [r.run_id for r in model.rows()] == [f"r{i}" for i in range(30)]  # newest first, as the history lists them
    model.merge_history(history)
    assert inserted == [(0, 29)] and changed == []  # nothing new: nothing to show
    history[7] = RunListing("r7", SYMBOL, "published", "", at, "offline", "", "R7", "avoid")
    model.merge_history([RunListing("new", SYMBOL, "queued", "", at, "offline", ""), *history])  # run from the CLI
    assert changed == [7] and inserted == [(0, 29), (0, 0)]  # the new run at the top, where the history lists it
    assert model.row("r7") is not None and model.row("r7").action == "avoid"  # type: ignore[union-attr]
    assert model.row_index("new") == 0 and model.row_index("r7") == 8
