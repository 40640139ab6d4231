"""The main window: menus, toolbar, status bar, and the screens as dock panels whose layout is remembered.

Screens (`ui.screens`) are built when a workspace is attached; which workspace that is, the window's
`WorkspaceController` decides. The window routes the screens' requests to each other (analyze, chart, report,
fill). Closing shuts down in order: stop running research, wait for the pools, close the bridge, close the
workspace last.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

import shiboken6
from PySide6.QtCore import QT_TRANSLATE_NOOP, QByteArray, QMargins, QRect, QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QKeySequence, QPaintEvent
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QWidget,
)

from stockbench import __version__
from stockbench.errors import WorkspaceDamaged
from ui.errors import ErrorPresenter, error_text
from ui.i18n.language import SETTING as LANGUAGE_SETTING
from ui.i18n.language import Choice, Language, Translations, chosen_language, stored_choice
from ui.main_menus import MainMenus, Shortcut
from ui.screen_docks import ScreenDocks
from ui.screens import SCREENS, load_screen
from ui.theme import THEME_MODES, ThemeManager, ThemeMode
from ui.widgets.status_bar import StatusBar
from ui.workspace_controller import WorkspaceController
from ui.workspace_opener import OpenKind, RestoreDone

if TYPE_CHECKING:
    from stockbench.workbench import Workbench
    from ui.context import AppContext

log = logging.getLogger(__name__)

SCREEN_TITLES: dict[str, str] = {
    "watchlist": str(QT_TRANSLATE_NOOP("MainWindow", "Watchlist")),
    "chart": str(QT_TRANSLATE_NOOP("MainWindow", "Chart")),
    "dashboard": str(QT_TRANSLATE_NOOP("MainWindow", "Dashboard")),
    "report": str(QT_TRANSLATE_NOOP("MainWindow", "Reports")),
    "ledger": str(QT_TRANSLATE_NOOP("MainWindow", "Ledger")),
    "scan": str(QT_TRANSLATE_NOOP("MainWindow", "Scan")),
    "track_record": str(QT_TRANSLATE_NOOP("MainWindow", "Track Record")),
    "research": str(QT_TRANSLATE_NOOP("MainWindow", "Research")),
}
THEME_TITLES: dict[str, str] = {
    "system": str(QT_TRANSLATE_NOOP("MainWindow", "Follow the system")),
    "light": str(QT_TRANSLATE_NOOP("MainWindow", "Light")),
    "dark": str(QT_TRANSLATE_NOOP("MainWindow", "Dark")),
}
LANGUAGE_TITLES: dict[str, str] = {"system": str(QT_TRANSLATE_NOOP("MainWindow", "Follow the system")),
                                   "zh_CN": "简体中文", "en": "English"}  # fmt: skip
GEOMETRY_SETTING = "window/geometry"
HOLD_MAX_MS = 3000  # the screens' other first loads start at the latest this long after the urgent ones
FIRST_BACKUP_CHECK_MS = 60_000  # the day's backup is looked at a minute after a workspace opens (after its loads)
BACKUP_CHECK_MS = 3_600_000  # then every hour


DEFAULT_SIZE = QSize(1440, 900)
# What a window manager adds around the window, before the real frame is known (openbox: a 20 px title bar and
# 1 px borders; GNOME, KDE and Windows up to about 30 px): the first size leaves this much room for it.
FRAME_RESERVE = QMargins(4, 32, 4, 4)


def default_size(available: QSize | None, frame: QMargins = FRAME_RESERVE) -> QSize:
    """The first window's size: 1440x900, cut so that the window and its `frame` fit the screen's free area (sized
    to the free area alone, a 1366x768 screen under a window manager put the status bar below the screen edge)."""
    if available is None or available.isEmpty():
        return DEFAULT_SIZE
    room = available.shrunkBy(frame)
    return DEFAULT_SIZE.boundedTo(room)


def fitted_frame(frame: QRect, available: QRect) -> QRect:
    """`frame` (the window with its decorations) moved, and cut where it is larger, to lie inside `available`."""
    fitted = QRect(frame.topLeft(), frame.size().boundedTo(available.size()))
    fitted.moveLeft(min(max(fitted.left(), available.left()), available.right() - fitted.width() + 1))
    fitted.moveTop(min(max(fitted.top(), available.top()), available.bottom() - fitted.height() + 1))
    return fitted


class MainWindow(QMainWindow):
    """The application's window. `attach(ctx)` shows a workspace; `open_workspace` opens one in the background."""

    workspace_attached = Signal()
    first_painted = Signal()
    language_changed = Signal()  # the interface language was switched: every screen retranslates in place

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        settings: QSettings | None = None,
        presenter: ErrorPresenter | None = None,
        language: Language | None = None,
    ) -> None:
        """`language`: the interface language of this session (`stockbench --lang`), the stored choice untouched;
        a language chosen in the window later replaces it."""
        super().__init__(parent)
        self.setObjectName("MainWindow")
        self.settings = settings or QSettings()
        self.presenter = presenter or ErrorPresenter(self)
        self.presenter.parent_widget = self
        self.translations = Translations()
        self.translations.install(language or chosen_language(self.settings))
        self.daily_backup = QTimer(self)  # the once-a-day backup while the app runs (checked hourly)
        self.daily_backup.setInterval(BACKUP_CHECK_MS)
        self.daily_backup.timeout.connect(self.backup_if_due)
        self.screens = ScreenDocks(self, self.settings)
        app = QApplication.instance()
        self.theme = ThemeManager(app, self.settings) if isinstance(app, QApplication) else None
        if self.theme is not None:
            self.theme.apply()
            self.theme.candles_changed.connect(lambda: self.screens.refresh("chart"))
        self.ctx: AppContext | None = None
        self.damage_dialog: QDialog | None = None  # the last damaged workspace's dialog
        self._tried: Path | None = None  # the workspace folder last asked to open
        self._damaged = False  # the open workspace was found damaged: closing it takes no backup of the damage
        self.presenter.on_damage = self._damaged_while_open
        self.current_symbol: str | None = None
        self._closed, self._painted = False, False
        self.workspaces = WorkspaceController(self, self.settings)
        self.workspaces.opening.connect(self._opening)
        self.workspaces.opened.connect(self.attach_bench)
        self.workspaces.failed.connect(self._open_failed)
        self.workspaces.restored.connect(self._restored)
        self.workspaces.connect_model_requested.connect(self.open_model_wizard)
        self.status = StatusBar(self)
        self.setStatusBar(self.status)
        self.setDockNestingEnabled(True)
        self.setDockOptions(self.dockOptions() | QMainWindow.DockOption.AllowTabbedDocks)
        self._build_chrome()
        self._placeholder(self.tr("No workspace is open. Use File ▸ Open Workspace or File ▸ Demo Market."))
        self.resize(default_size(self.screen().availableGeometry().size() if self.screen() else None))
        geometry = self.settings.value(GEOMETRY_SETTING)
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        self.retranslate()

    # ---- actions, menus, toolbar -------------------------------------------------------------------------------
    def _build_chrome(self) -> None:
        actions: dict[str, tuple[Callable[[], object], Shortcut, str | None]] = {
            "open_workspace": (self.workspaces.choose_workspace, QKeySequence.StandardKey.Open, "open"),
            "new_workspace": (self.workspaces.choose_new_workspace, QKeySequence.StandardKey.New, None),
            "demo_workspace": (self.workspaces.open_demo, "Ctrl+Shift+D", "demo"),
            "export_ledger": (self.export_ledger, "Ctrl+E", "export"),
            "import_fills": (self.import_fills_csv, None, None),
            "connect_model": (self.open_model_wizard, None, None),
            "settings": (self.open_settings, "Ctrl+,", "settings"),
            "quit": (self.close, QKeySequence.StandardKey.Quit, None),
            "refresh": (self.refresh_screens, QKeySequence.StandardKey.Refresh, "refresh"),
            "reset_layout": (self.reset_layout, None, None),
            "analyze": (self.analyze_selected, "Ctrl+R", "analyze"),
            "runs": (lambda: self.show_screen("research"), "Ctrl+Shift+R", None),
            "record_fill": (self.record_fill_selected, "Ctrl+Shift+F", "fill"),
            "new_account": (lambda: self._call("ledger", "open_new_account_dialog"), None, None),
            "cash": (lambda: self._call("ledger", "open_cash_dialog"), None, None),
            "about": (self.about, QKeySequence.StandardKey.HelpContents, None),
        }
        choices = {"theme": (THEME_MODES, self.set_theme), "language": (("system", "zh_CN", "en"), self.set_language)}
        chrome = MainMenus(self, actions, choices)
        self.actions_by_name, self.menus, self.toolbar = chrome.actions, chrome.menus, chrome.toolbar
        submenus = chrome.submenus
        self.panels_menu, self.theme_menu, self.language_menu = (
            submenus["panels"],
            submenus["theme"],
            submenus["language"],
        )
        mode = self.theme.mode if self.theme is not None else "system"
        self.actions_by_name[f"theme_{mode}"].setChecked(True)
        self.actions_by_name[f"language_{stored_choice(self.settings)}"].setChecked(True)

    def retranslate(self) -> None:
        """Set every text of the window in the current language."""
        texts = {
            "open_workspace": self.tr("&Open Workspace…"), "new_workspace": self.tr("&New Workspace…"),
            "demo_workspace": self.tr("&Demo Market"), "export_ledger": self.tr("&Export Ledger…"),
            "settings": self.tr("&Settings…"), "quit": self.tr("&Quit"), "refresh": self.tr("&Refresh"),
            "reset_layout": self.tr("Reset &Layout"), "analyze": self.tr("&Analyze Selected…"),
            "runs": self.tr("Research &Runs"), "record_fill": self.tr("Record &Fill…"),
            "about": self.tr("&About Stock Workbench"), "import_fills": self.tr("&Import Fills from CSV…"),
            "connect_model": self.tr("&Connect Your Model…"), "new_account": self.tr("&New Account…"),
            "cash": self.tr("&Cash: Deposit, Withdraw, Transfer…"),
        }  # fmt: skip
        for name, text in texts.items():
            self.actions_by_name[name].setText(text)
        tips = {"analyze": self.tr("Analyze the selected symbol (the offline rules model unless another is chosen)"),
                "record_fill": self.tr("Record a fill you made at your broker"),
                "demo_workspace": self.tr("Open the fictional demo market"),
                "import_fills": self.tr("Import fills from your broker's CSV export (all rows or none)"),
                "connect_model": self.tr("Connect DeepSeek, OpenAI, Kimi, Qwen, MiniMax or a local Ollama model"),
                }  # fmt: skip
        for name, tip in tips.items():
            self.actions_by_name[name].setToolTip(tip)
        for mode in THEME_MODES:
            self.actions_by_name[f"theme_{mode}"].setText(self.tr(THEME_TITLES[mode]))
        for value, title in LANGUAGE_TITLES.items():
            self.actions_by_name[f"language_{value}"].setText(self.tr(title) if value == "system" else title)
        titles = {"file": self.tr("&File"), "view": self.tr("&View"), "research": self.tr("&Research"),
                  "ledger": self.tr("&Ledger"), "help": self.tr("&Help")}  # fmt: skip
        for name, title in titles.items():
            self.menus[name].setTitle(title)
        self.panels_menu.setTitle(self.tr("&Panels"))
        self.theme_menu.setTitle(self.tr("&Theme"))
        self.language_menu.setTitle(self.tr("&Language"))
        self.toolbar.setWindowTitle(self.tr("Main toolbar"))
        for name, dock in self.docks.items():
            dock.setWindowTitle(self.screen_title(name))
        self.status.retranslate()
        self._update_title()

    def screen_title(self, name: str) -> str:
        return self.tr(SCREEN_TITLES[name]) if name in SCREEN_TITLES else name.title()

    def _update_title(self) -> None:
        app_name = self.tr("Stock Workbench")
        if self.ctx is None:
            self.setWindowTitle(app_name)
            return
        if self.ctx.bench.kind == "demo":  # the demo's folder name is the program's, in English: say what it is
            demo = self.tr("Demo market (fictional)")
            self.setWindowTitle(f"{demo} — {app_name}")
            return
        self.setWindowTitle(f"{self.ctx.bench.home.name} — {app_name}")

    def _placeholder(self, text: str) -> None:
        label = QLabel(text, self)
        label.setObjectName("placeholder")
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        label.setWordWrap(True)
        self.setCentralWidget(label)

    # ---- workspaces --------------------------------------------------------------------------------------------
    def open_workspace(self, folder: Path, kind: OpenKind = "user", *, welcome: bool = False) -> None:
        """Open the workspace in `folder` in the background (first run: offer the welcome dialog first)."""
        self.workspaces.open(folder, kind, welcome=welcome)

    def bring_forward(self, home: Path | None = None) -> None:
        """Another start of the app asked for this window: show it in front, and open `home` if it named a workspace
        the window does not show (one that failed to open is tried again)."""
        self.setWindowState((self.windowState() & ~Qt.WindowState.WindowMinimized) | Qt.WindowState.WindowActive)
        self.show()
        self.raise_()
        self.activateWindow()
        self.statusBar().showMessage(self.tr("Stock Workbench was started again; this window is the one to use."),
                                     8000)  # fmt: skip
        shown = self.ctx.bench.home.resolve() if self.ctx is not None else None
        if home is not None and home.resolve() != shown:
            self.open_workspace(home)

    def _opening(self, folder: Path) -> None:
        self._tried = folder  # the folder a damage dialog offers to restore
        self.detach()
        self._placeholder(self.tr("Opening %1…").replace("%1", str(folder)))

    def _open_failed(self, error: BaseException) -> None:
        self._placeholder(self.tr("The workspace could not be opened. Use File ▸ Open Workspace to choose another."))
        if isinstance(error, WorkspaceDamaged):
            self.show_damage(error)
            return
        self.presenter.present(error)

    def show_damage(self, error: WorkspaceDamaged, *, while_open: bool = False) -> QDialog:
        """The workspace's file is damaged (or its folder read-only, or the disk full): say why, name the newest
        backup, and offer another workspace or quitting."""
        from ui.dialogs.damaged_workspace_dialog import DamagedWorkspaceDialog

        dialog = DamagedWorkspaceDialog(self, error, while_open=while_open)
        dialog.open_another.connect(self.workspaces.choose_workspace)
        folder = self._tried
        if folder is not None:
            dialog.restore_requested.connect(lambda backup: self.workspaces.restore(folder, backup))
        dialog.quit_requested.connect(self.close)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.damage_dialog = dialog
        if self.presenter.interactive:
            dialog.open()
        # shown like any other error to whoever listens (the smoke test ends at the first one)
        self.presenter.presented.append((dialog.windowTitle(), dialog.reason_label.text()))
        self.presenter.error_presented.emit(dialog.windowTitle(), dialog.reason_label.text())
        return dialog

    def _damaged_while_open(self, error: WorkspaceDamaged) -> None:
        """A read or write of the open workspace found its file damaged (a block that does not read back, a full
        disk): the damage dialog once, naming the newest backup and offering to restore it."""
        shown = self.damage_dialog
        if shown is not None and shiboken6.isValid(shown) and shown.isVisible():  # closed, it is deleted on close
            return
        if self.ctx is not None:
            self._tried = self.ctx.bench.home
            self._damaged = True
        self.show_damage(error, while_open=True)

    def attach_bench(self, bench: Workbench) -> None:
        """Show the opened `bench` (the window takes ownership and closes it on detach)."""
        self.detach()
        if self._closed:
            bench.close()
            return
        from ui.context import build_context

        self.attach(build_context(bench, self.presenter, self.settings))

    def attach(self, ctx: AppContext) -> None:
        """Build the screens on `ctx` and restore the remembered layout."""
        from ui.context import settle_heap

        self.ctx = ctx
        self.workspaces.remember(ctx.bench.home)
        self.takeCentralWidget()
        ctx.runner.hold_for_urgent()  # the screens' first loads: what shows first runs first (see ui.background)
        self._build_screens()
        self.status.attach(ctx)
        self._update_title()
        self._say_stale_holder()
        if ctx.runner.urgent == 0:
            ctx.runner.release()
        QTimer.singleShot(HOLD_MAX_MS, lambda: ctx.runner.release() if ctx is self.ctx else None)
        QTimer.singleShot(0, settle_heap)
        QTimer.singleShot(FIRST_BACKUP_CHECK_MS, self.backup_if_due)
        self.daily_backup.start()
        self.workspace_attached.emit()

    def backup_if_due(self) -> None:
        """Take the day's backup in the background when the newest is a day old (a user's workspace only); a
        backup that cannot be written is said in the status bar, never a dialog that interrupts the work."""
        if self.ctx is None or self._closed:
            return

        def failed(error: BaseException) -> None:
            log.warning("the daily backup failed: %s", error)
            self.statusBar().showMessage(self.tr("No backup could be taken: %1").replace("%1", error_text(error)),
                                         20_000)  # fmt: skip

        self.ctx.op(lambda bench: bench.backup_if_due(), failure=failed, parent=self)

    def _say_stale_holder(self) -> None:
        """Say so when the last session on this workspace ended without closing it (the lock was free again)."""
        stale = self.ctx.bench.workspace.take_stale_holder() if self.ctx is not None else None
        if stale is not None:
            text = self.tr("The last session on this workspace (process %1 on %2, since %3) ended without closing "
                           "it; the workspace was taken over and opened normally.")  # fmt: skip
            self.statusBar().showMessage(text.replace("%1", str(stale.pid)).replace("%2", stale.host)
                                         .replace("%3", stale.since), 20_000)  # fmt: skip

    def detach(self, *, close_workspace: bool = True) -> None:
        """Take the screens down and close the current workspace in order (unless told to leave it open)."""
        ctx = self.ctx
        if ctx is None:
            return
        self.save_layout()
        self.daily_backup.stop()
        running = set(self.status.tracker.running)
        self.status.attach(None)
        self._remove_screens()
        self.ctx = None
        if close_workspace:
            from ui.context import close_context

            self.statusBar().showMessage(self.tr("Closing the workspace…"))
            close_context(ctx, running=running, backup=not self._damaged)
            self._damaged = False
            self.statusBar().clearMessage()
        self._update_title()

    # ---- screens -----------------------------------------------------------------------------------------------
    @property
    def panels(self) -> dict[str, QWidget]:
        return self.screens.panels

    @property
    def docks(self) -> dict[str, QDockWidget]:
        return self.screens.docks

    def _build_screens(self) -> None:
        for name, _package, _area in SCREENS:
            panel = self._build_panel(name)
            if panel is not None:
                self.screens.add(name, self.screen_title(name), panel)
                self._connect_panel(panel)
        self.screens.arrange()
        self.panels_menu.clear()
        self.panels_menu.addActions([dock.toggleViewAction() for dock in self.docks.values()])
        for number, dock in enumerate(self.docks.values(), start=1):
            dock.toggleViewAction().setShortcut(QKeySequence(f"Alt+{number}"))

    def _build_panel(self, name: str) -> QWidget | None:
        panel_class = load_screen(name)
        if panel_class is None or self.ctx is None:
            return None
        try:
            return cast(Callable[..., QWidget], panel_class)(self.ctx, self)
        except Exception as error:  # one broken screen must not take the window down
            log.exception("screen %s failed to build", name)
            self.presenter.present(error)
            return None

    def _remove_screens(self) -> None:
        self.screens.clear()
        self.panels_menu.clear()

    def reset_layout(self) -> None:
        self.screens.reset()

    def save_layout(self) -> None:
        self.screens.save()
        self.settings.setValue(GEOMETRY_SETTING, self.saveGeometry())

    def show_screen(self, name: str) -> QWidget | None:
        """Bring screen `name` to the front; its panel, or None when it is not available."""
        return self.screens.show(name)

    def refresh_screens(self) -> None:
        self.screens.refresh()
        self.status.refresh_phases()
        self.status.refresh_freshness()

    def _connect_panel(self, panel: QWidget) -> None:
        routes: dict[str, Callable[..., object]] = {
            "analyze_requested": self.analyze,
            "question_requested": self.ask,
            "quick_review_requested": lambda symbol: self._research_feature("quick_review", symbol),
            "check_plan_requested": lambda symbol: self._research_feature("check_plan", symbol),
            "chart_requested": self.show_chart,
            "report_requested": self.open_report,
            "open_report_requested": self.open_report,
            "fill_requested": self.record_fill,
            "symbol_selected": self._symbol_selected,
        }
        for signal_name, slot in routes.items():
            signal = getattr(panel, signal_name, None)
            if signal is not None and hasattr(signal, "connect"):
                signal.connect(slot)
        # Every screen words itself again in place on a language switch: no dock, panel or table is rebuilt, so the
        # layout, the column widths and the selections stay (rebuilding a screen scrambled the docks).
        retranslate = getattr(panel, "retranslate", None)
        if callable(retranslate):
            self.language_changed.connect(retranslate)
        else:
            log.warning("screen %s has no retranslate(): it keeps its first language", type(panel).__name__)

    # ---- routes between screens --------------------------------------------------------------------------------
    def _symbol_selected(self, symbol: str) -> None:
        """A symbol selected in a list is the one the menus act on; a visible chart follows it."""
        self.current_symbol = symbol
        chart, dock = self.panels.get("chart"), self.docks.get("chart")
        show = getattr(chart, "show_symbol", None)
        if dock is not None and not dock.visibleRegion().isEmpty() and callable(show):
            show(symbol)

    def _call(self, screen: str, method: str, *args: object) -> bool:
        panel = self.show_screen(screen)
        target = getattr(panel, method, None)
        if not callable(target):
            self.statusBar().showMessage(
                self.tr("The %1 screen is not available.").replace("%1", self.screen_title(screen)), 5000
            )
            return False
        target(*args)
        return True

    def analyze(self, symbol: str) -> None:
        """Start a full analysis of `symbol` in the research panel."""
        self.current_symbol = symbol
        self._call("research", "start", symbol)

    def ask(self, symbol: str, question: str) -> None:
        """Start a question run about `symbol` in the research panel."""
        self.current_symbol = symbol
        self._call("research", "start", symbol, question)

    def _research_feature(self, method: str, symbol: str) -> None:
        self.current_symbol = symbol
        self._call("research", method, symbol)

    def show_chart(self, symbol: str) -> None:
        self.current_symbol = symbol
        self._call("chart", "show_symbol", symbol)

    def open_report(self, report_id: str) -> None:
        self._call("report", "open_report", report_id)

    def record_fill(self, symbol: str = "") -> QDialog | None:
        """Open the fill dialog (for `symbol` when given); nothing is written before the user confirms."""
        from ui.dialogs.fill_dialog import FillDialog

        if self.ctx is None:
            return None
        dialog = FillDialog(self.ctx, self, symbol=symbol or None)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def _selected_symbol(self) -> str | None:
        selected = getattr(self.panels.get("watchlist"), "selected_symbol", None)
        found = selected() if callable(selected) else None
        return str(found) if found else self.current_symbol

    def analyze_selected(self) -> None:
        symbol = self._selected_symbol() or self._ask_symbol(self.tr("Analyze"))
        if symbol:
            self.analyze(symbol)

    def record_fill_selected(self) -> None:
        self.record_fill(self._selected_symbol() or "")

    def _ask_symbol(self, title: str) -> str | None:
        text, ok = QInputDialog.getText(self, title, self.tr("Symbol (for example 600519 or 00700.HK):"))
        return text.strip() if ok and text.strip() else None

    # ---- file actions ------------------------------------------------------------------------------------------
    def export_ledger(self) -> None:
        """Export an account's ledger to CSV or Beancount (the account chosen when there are several)."""
        if self.ctx is not None:
            self.ctx.op(lambda bench: [a.name for a in bench.ledger.accounts()], self._export_accounts, parent=self)

    def _export_accounts(self, names: list[str]) -> None:
        if not names:
            QMessageBox.information(self, self.tr("Export ledger"), self.tr("This workspace has no accounts yet."))
            return
        account = names[0]
        if len(names) > 1:
            account, ok = QInputDialog.getItem(self, self.tr("Export ledger"), self.tr("Account:"), names, 0, False)
            if not ok:
                return
        target, _filter = QFileDialog.getSaveFileName(self, self.tr("Export ledger"), f"{account}.csv",
                                                     self.tr("CSV (*.csv);;Beancount (*.beancount)"))  # fmt: skip
        if target and self.ctx is not None:
            self.ctx.op(lambda bench: _export(bench, account, Path(target)),
                        lambda count: self.statusBar().showMessage(self.tr("Exported %n entries", "", count), 8000),
                        parent=self)  # fmt: skip

    def open_settings(self) -> QDialog | None:
        from ui.dialogs.settings.settings_dialog import SettingsDialog

        if self.ctx is None:
            return None
        dialog = SettingsDialog(self.ctx, self)
        dialog.language_chosen.connect(self.set_language)
        dialog.theme_chosen.connect(self.set_theme)
        dialog.candles_chosen.connect(self._set_candles)

        def restore(backup: str) -> None:
            dialog.close()
            self.restore_backup(backup)

        dialog.restore_requested.connect(restore)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def restore_backup(self, backup: str) -> None:
        """Close the workspace, put its backup `backup` back (the current file kept aside) and reopen it."""
        if self.ctx is None:
            return
        self.workspaces.restore(self.ctx.bench.home, backup, self.ctx.bench.kind)

    def _restored(self, done: RestoreDone) -> None:
        """Say what a restore put back and kept aside; offer the journal's newer ledger entries when it has any."""
        said = self.tr("Backup %1 put back; the file it replaced is kept as %2.")
        self.statusBar().showMessage(said.replace("%1", done.backup).replace("%2", done.aside or "—"), 15000)
        if not done.journal_ahead:
            return
        box = QMessageBox(QMessageBox.Icon.Information, self.tr("Newer ledger entries"),
                          self.tr("The ledger journal holds entries recorded after this backup was taken."),
                          QMessageBox.StandardButton.NoButton, self)  # fmt: skip
        box.setInformativeText(self.tr("Rebuild the books from the journal to bring them back, or keep the books "
                                       "as they were in the backup."))  # fmt: skip
        rebuild = box.addButton(self.tr("Rebuild the books"), QMessageBox.ButtonRole.AcceptRole)
        box.addButton(self.tr("Keep the backup's books"), QMessageBox.ButtonRole.RejectRole)
        box.finished.connect(lambda _r: self._rebuild_from_journal() if box.clickedButton() is rebuild else None)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.journal_box = box
        box.open()

    def _rebuild_from_journal(self) -> None:
        """Replace the ledger's tables with the journal's records (checked line by line first), in the background."""
        ctx = self.ctx
        if ctx is None:  # the workspace has not attached yet: try again once it has
            QTimer.singleShot(200, self._rebuild_from_journal)
            return
        ctx.op(lambda bench: bench.rebuild_ledger_from_journal(yes=True),
               lambda result: self.statusBar().showMessage(
                   self.tr("The books were rebuilt from the journal (%n entries).", "", result.lines), 15000),
               parent=self)  # fmt: skip

    def open_model_wizard(self) -> QDialog | None:
        """Open "Connect your model" (a saved model becomes research's default unless the user unticks it)."""
        from ui.dialogs.model_wizard_dialog import ModelWizardDialog

        if self.ctx is None:
            return None
        dialog = ModelWizardDialog(self.ctx, self)
        dialog.model_saved.connect(lambda name: self.statusBar().showMessage(
            self.tr("Model %1 connected.").replace("%1", name), 8000))  # fmt: skip
        dialog.model_saved.connect(lambda _name: self.screens.refresh("research"))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def import_fills_csv(self) -> QDialog | None:
        """Open the broker CSV import; the ledger views are re-read after an import."""
        from ui.dialogs.fill_import_dialog import FillImportDialog

        if self.ctx is None:
            return None
        account = getattr(self.panels.get("ledger"), "account", None)
        dialog = FillImportDialog(self.ctx, self, account=account() if callable(account) else None)
        dialog.imported.connect(lambda _account, _count: self.refresh_screens())
        dialog.imported.connect(lambda _account, count: self.statusBar().showMessage(
            self.tr("Imported %n fill(s).", "", count), 8000))  # fmt: skip
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def about(self) -> None:
        QMessageBox.about(self, self.tr("About Stock Workbench"), self.tr(
            "<h3>Stock Workbench %1</h3><p>Local-first research of China A-share and Hong Kong stocks against "
            "your own ledger.</p><p>Output is research, not investment advice. No broker connection, no "
            "automatic orders.</p>").replace("%1", __version__))  # fmt: skip

    # ---- theme and language ------------------------------------------------------------------------------------
    def set_theme(self, mode: ThemeMode) -> None:
        if self.theme is not None:
            self.theme.set_mode(mode)
        self.actions_by_name[f"theme_{mode}"].setChecked(True)

    def _set_candles(self, scheme: str) -> None:
        if self.theme is not None:
            self.theme.set_candles(scheme)  # type: ignore[arg-type]

    def set_language(self, choice: Choice) -> None:
        """Switch the interface language now, in place: the docks keep their places, sizes and tabs."""
        self.settings.setValue(LANGUAGE_SETTING, choice)
        self.actions_by_name[f"language_{choice}"].setChecked(True)
        language = chosen_language(self.settings)
        if language == self.translations.language:
            return
        self.translations.install(language)
        self.retranslate()
        self.language_changed.emit()

    def show_on_screen(self) -> None:
        """Show the window to a person: once the window manager has framed it (by its first paint), the whole
        window, frame included, is brought onto the screen's free area (the reserve the first size left may be
        smaller than the real frame; a restored geometry may come from another screen)."""
        self.first_painted.connect(self.fit_to_screen, Qt.ConnectionType.SingleShotConnection)
        self.show()

    def fit_to_screen(self) -> None:
        """Move the window, and cut it where it is larger, so that it lies with its frame on its screen's free area
        (nothing when it already does, or is maximised or full screen)."""
        screen = self.screen()
        if screen is None or self.isMaximized() or self.isFullScreen():
            return
        frame, inner = self.frameGeometry(), self.geometry()
        fitted = fitted_frame(frame, screen.availableGeometry())
        if fitted != frame:
            decorations = frame.size() - inner.size()
            self.resize(fitted.size() - decorations)
            self.move(fitted.topLeft())

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            self.first_painted.emit()

    # ---- shutdown ----------------------------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        running = len(self.status.tracker.running)
        if running and not self._confirm_stop(running):
            event.ignore()
            return
        self.shutdown()
        event.accept()

    def _confirm_stop(self, running: int) -> bool:
        answer = QMessageBox.question(
            self, self.tr("Research is running"),
            self.tr("%n analysis(es) are still running. Stop them and quit? A stopped run keeps its journal.", "",
                    running),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel,
        )  # fmt: skip
        return answer == QMessageBox.StandardButton.Yes

    def shutdown(self) -> None:
        """Save the layout and close the workspace in order (idempotent)."""
        if self._closed:
            return
        self._closed = True
        self.detach()
        self.settings.setValue(GEOMETRY_SETTING, self.saveGeometry())
        self.settings.sync()
        self.translations.uninstall()  # the catalogues belong to this window; nothing it showed remains


def _export(bench: Workbench, account: str, target: Path) -> int:
    if target.suffix.lower() == ".beancount":
        return bench.ledger.export_beancount(account, target)
    return bench.ledger.export_csv(account, target)
