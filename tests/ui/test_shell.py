from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, QSettings, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from stockbench.workbench import Workbench
from ui.app import app_icon, start_home
from ui.context import AppContext, close_context, stop_runs
from ui.i18n.language import Translations, chosen_language, system_language
from ui.main_window import MainWindow
from ui.workspace_controller import LAST_HOME_SETTING
from ui.workspace_opener import WorkspaceOpener


def _quit_when_attached(app: QApplication, seen: list[MainWindow]) -> None:
    """Poll for the main window; once its workspace is attached, close it and quit (as File > Quit would)."""
    window = next((w for w in app.topLevelWidgets() if isinstance(w, MainWindow)), None)
    if window is not None and window.ctx is not None:
        seen.append(window)
        window.close()
        app.quit()  # a second quit request: run_desktop must not let it leak into later event loops
        return
    QTimer.singleShot(20, lambda: _quit_when_attached(app, seen))


def test_stockbench_without_arguments_opens_the_window(
    qapp: QApplication, demo_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from stockbench.cli.main import run

    monkeypatch.setenv("STOCKBENCH_HOME", str(demo_home))
    seen: list[MainWindow] = []
    QTimer.singleShot(0, lambda: _quit_when_attached(qapp, seen))
    assert run([]) == 0
    assert len(seen) == 1
    assert seen[0].ctx is None  # shut down in order when the loop ended
    assert QSettings().value(LAST_HOME_SETTING) == str(demo_home)
    Workbench.open(demo_home, command="tests").close()  # and the workspace lock was released


def test_help_stays_light() -> None:
    import subprocess
    import sys

    probe = "import sys; from stockbench.cli.main import run; run(['--help']); print('PySide6' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip().endswith("False")


def test_start_home_prefers_the_named_folder_then_the_environment(
    tmp_path: Path, demo_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = QSettings()
    monkeypatch.delenv("STOCKBENCH_HOME", raising=False)
    assert start_home(tmp_path / "mine", settings) == (tmp_path / "mine", "user", False)
    monkeypatch.setenv("STOCKBENCH_HOME", str(demo_home))
    assert start_home(None, settings) == (demo_home, "user", False)
    empty = tmp_path / "empty"
    monkeypatch.setenv("STOCKBENCH_HOME", str(empty))
    assert start_home(None, settings) == (empty, "demo", True)  # no workspace there: the demo, first run


def test_start_home_reopens_the_last_workspace(
    tmp_path: Path, demo_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("STOCKBENCH_HOME", raising=False)
    fake_default = tmp_path / "data" / "Stock Workbench"
    monkeypatch.setattr("stockbench.config.default_home", lambda: fake_default)
    monkeypatch.setattr("stockbench.data.demo.default_home", lambda: fake_default)
    settings = QSettings()
    folder, kind, first = start_home(None, settings)
    assert (folder, kind, first) == (tmp_path / "data" / "Stock Workbench Demo", "demo", True)
    settings.setValue(LAST_HOME_SETTING, str(demo_home))
    assert start_home(None, settings) == (demo_home, "user", False)


def test_opener_opens_in_the_background(qtbot: QtBot, tmp_path: Path) -> None:
    opener = WorkspaceOpener()
    with qtbot.waitSignal(opener.opened, timeout=10_000) as signal:
        opener.start(tmp_path / "new", "user")
    bench = signal.args[0]
    assert isinstance(bench, Workbench)
    assert bench.workspace.kind == "user" and not opener.busy
    bench.close()


def test_opener_reports_a_locked_workspace(qtbot: QtBot, demo_home: Path) -> None:
    from stockbench.errors import WorkspaceLocked

    with Workbench.open(demo_home, command="holder"):
        opener = WorkspaceOpener()
        with qtbot.waitSignal(opener.failed, timeout=10_000) as signal:
            opener.start(demo_home)
    assert isinstance(signal.args[0], WorkspaceLocked)


def test_close_context_stops_runs_then_drains_then_closes(ctx: AppContext, demo_home: Path) -> None:
    run = ctx.bench.research.start("605901.SH")
    finished: list[str] = []
    ctx.op(lambda _b: finished.append("op"), research=True)
    assert close_context(ctx, running=[run.run_id, "RUN-NONE"], close_bench=False)
    assert finished == ["op"]  # the pools were drained before returning
    assert ctx.bench.research.outcome(run.run_id).status == "stopped"
    stop_runs(ctx.bench, [run.run_id])  # already stopped: tolerated


def test_an_op_started_after_the_shutdown_neither_runs_nor_shows_an_error(qtbot: QtBot, ctx: AppContext) -> None:
    """A late timer started a chart load after the workspace had closed: the op read the closed database and the
    window showed "Something went wrong" on its way out (the bundle's smoke run then failed). Once the context is
    closing, no op starts (those queued before it are drained before the workspace closes)."""
    shown: list[tuple[str, str]] = []
    ctx.presenter.error_presented.connect(lambda title, text: shown.append((title, text)))
    assert close_context(ctx, close_bench=True)
    ran: list[str] = []
    ctx.op(lambda bench: ran.append(bench.market.registry.instrument("605901.SH").symbol))
    qtbot.wait(200)
    assert ran == [] and shown == []


def test_translations_follow_the_system_unless_set(qapp: QApplication) -> None:
    assert system_language(QLocale(QLocale.Language.Chinese, QLocale.Country.Taiwan)) == "zh_CN"
    assert system_language(QLocale(QLocale.Language.English, QLocale.Country.UnitedKingdom)) == "en"
    settings = QSettings()
    settings.setValue("ui/language", "system")
    assert chosen_language(settings, QLocale(QLocale.Language.Chinese, QLocale.Country.China)) == "zh_CN"
    settings.setValue("ui/language", "en")
    assert chosen_language(settings, QLocale(QLocale.Language.Chinese, QLocale.Country.China)) == "en"


def test_chinese_catalogue_loads_and_translates(qapp: QApplication) -> None:
    translations = Translations()
    try:
        assert translations.install("zh_CN")
        assert QCoreApplication.translate("StatusBar", "Lunch break") == "午间休市"
        assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "取消"  # Qt's own catalogue
    finally:
        translations.install("en")
    assert QCoreApplication.translate("StatusBar", "Lunch break") == "Lunch break"


def test_app_icon_renders(qapp: QApplication) -> None:
    icon = app_icon()
    assert not icon.isNull()
    assert not icon.pixmap(64, 64).isNull()


def test_every_string_of_the_shell_has_a_chinese_translation() -> None:
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[2] / "scripts" / "translations.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout  # fix: uv run python scripts/translations.py, then translate the .ts


def test_lang_opens_the_window_in_that_language_for_this_session_only(
    qapp: QApplication, demo_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from stockbench.cli.main import run
    from ui.i18n.language import SETTING

    monkeypatch.setenv("STOCKBENCH_HOME", str(demo_home))
    QSettings().setValue(SETTING, "en")
    seen: list[MainWindow] = []
    shown: list[tuple[str, str]] = []

    def quit_when_attached() -> None:
        window = next((w for w in qapp.topLevelWidgets() if isinstance(w, MainWindow)), None)
        if window is not None and window.ctx is not None:
            shown.append((window.translations.language, window.menuBar().actions()[0].text()))
        _quit_when_attached(qapp, seen) if shown else QTimer.singleShot(20, quit_when_attached)

    QTimer.singleShot(0, quit_when_attached)
    assert run(["--lang", "zh"]) == 0
    assert shown[0][0] == "zh_CN" and shown[0][1].startswith("文件")
    assert QSettings().value(SETTING) == "en"  # the stored choice is left as it was
