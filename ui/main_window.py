"""The main window: menus, toolbar, status bar, and the screens as dock panels whose layout is remembered.

Screens are found by name (`ui/screens/<name>/<name>_panel.py`, a QWidget subclass with `screen_name`) and
built when a workspace is attached; the window routes their requests to each other (analyze, chart, report,
fill). Closing shuts down in order: stop running research, wait for the pools, close the bridge, close the
workspace last.
"""

from __future__ import annotations

import importlib
import itertools
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QT_TRANSLATE_NOOP, QByteArray, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QIcon, QKeySequence, QPaintEvent
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDockWidget,
    QFileDialog,
    QFrame,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QScrollArea,
    QToolBar,
    QWidget,
)

from stockbench import __version__
from stockbench.config import WorkspacePaths, resources_dir
from ui.app import LAST_HOME_SETTING, OpenKind, WorkspaceOpener, build_context, close_context, settle_heap
from ui.errors import ErrorPresenter
from ui.i18n.language import SETTING as LANGUAGE_SETTING
from ui.i18n.language import Choice, Translations, chosen_language, stored_choice
from ui.theme import THEME_MODES, ThemeManager, ThemeMode
from ui.widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from stockbench.workbench import Workbench
    from ui.context import AppContext

log = logging.getLogger(__name__)

# Screens in docking order: (screen_name, package under ui/screens, area). "main" screens share the centre as tabs.
SCREENS: tuple[tuple[str, str, str], ...] = (
    ("watchlist", "watchlist", "left"),
    ("chart", "chart", "main"),
    ("dashboard", "dashboard", "main"),
    ("report", "reports", "main"),
    ("ledger", "ledger", "main"),
    ("scan", "scan", "main"),
    ("track_record", "track_record", "main"),
    ("research", "research", "right"),
)
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
COLUMN_SHARES = (0.23, 0.50, 0.27)  # watchlist, main screens, research (its form and run table need room)
STATE_SETTING, GEOMETRY_SETTING, LAYOUT_VERSION = "window/state", "window/geometry", 1
WELCOME_SETTING = "welcome/shown"


def load_screen(name: str) -> type[QWidget] | None:
    """The panel class of screen `name`, or None while that screen does not exist yet."""
    package = next((p for n, p, _a in SCREENS if n == name), name)
    module_name = f"ui.screens.{package}.{package}_panel"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name and module_name.startswith(error.name):
            return None
        raise
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, QWidget) and getattr(value, "screen_name", None) == name:
            return value
    return None


def icon(name: str) -> QIcon:
    return QIcon(str(resources_dir() / "icons" / f"{name}.svg"))


class MainWindow(QMainWindow):
    """The application's window. `attach(ctx)` shows a workspace; `open_workspace` opens one in the background."""

    workspace_attached = Signal()
    first_painted = Signal()

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        settings: QSettings | None = None,
        presenter: ErrorPresenter | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("MainWindow")
        self.settings = settings or QSettings()
        self.presenter = presenter or ErrorPresenter(self)
        self.presenter.parent_widget = self
        self.translations = Translations()
        self.translations.install(chosen_language(self.settings))
        app = QApplication.instance()
        self.theme = ThemeManager(app, self.settings) if isinstance(app, QApplication) else None
        if self.theme is not None:
            self.theme.apply()
            self.theme.candles_changed.connect(lambda: self._refresh_screen("chart"))
        self.ctx: AppContext | None = None
        self.panels: dict[str, QWidget] = {}
        self.docks: dict[str, QDockWidget] = {}
        self.current_symbol: str | None = None
        self._closed, self._painted = False, False
        self.opener = WorkspaceOpener(self)
        self.opener.opened.connect(self.attach_bench)
        self.opener.failed.connect(self._open_failed)
        self.status = StatusBar(self)
        self.setStatusBar(self.status)
        self.setDockNestingEnabled(True)
        self.setDockOptions(self.dockOptions() | QMainWindow.DockOption.AllowTabbedDocks)
        self.actions_by_name: dict[str, QAction] = {}
        self._build_actions()
        self._build_menus()
        self._build_toolbar()
        self._placeholder(self.tr("No workspace is open. Use File ▸ Open Workspace or File ▸ Demo Market."))
        self.resize(1440, 900)
        geometry = self.settings.value(GEOMETRY_SETTING)
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        self.retranslate()

    # ---- actions, menus, toolbar -------------------------------------------------------------------------------
    def _action(self, name: str, slot: Callable[[], object], shortcut: QKeySequence.StandardKey | str | None = None,
                icon_name: str | None = None) -> QAction:  # fmt: skip
        action = QAction(self)
        action.setObjectName(name)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if icon_name:
            action.setIcon(icon(icon_name))
        action.triggered.connect(lambda _checked=False: slot())
        self.actions_by_name[name] = action
        return action

    def _build_actions(self) -> None:
        self._action("open_workspace", self.choose_workspace, QKeySequence.StandardKey.Open, "open")
        self._action("new_workspace", self.choose_new_workspace, QKeySequence.StandardKey.New)
        self._action("demo_workspace", self.open_demo, "Ctrl+Shift+D", "demo")
        self._action("export_ledger", self.export_ledger, "Ctrl+E", "export")
        self._action("import_fills", self.import_fills_csv)
        self._action("connect_model", self.open_model_wizard)
        self._action("settings", self.open_settings, "Ctrl+,", "settings")
        self._action("quit", self.close, QKeySequence.StandardKey.Quit)
        self._action("refresh", self.refresh_screens, QKeySequence.StandardKey.Refresh, "refresh")
        self._action("reset_layout", self.reset_layout)
        self._action("analyze", self.analyze_selected, "Ctrl+R", "analyze")
        self._action("runs", lambda: self.show_screen("research"), "Ctrl+Shift+R")
        self._action("record_fill", self.record_fill_selected, "Ctrl+Shift+F", "fill")
        self._action("about", self.about, QKeySequence.StandardKey.HelpContents)
        self.theme_group = self._choice_group("theme", THEME_MODES, self.set_theme)
        self.language_group = self._choice_group("language", ("system", "zh_CN", "en"), self.set_language)
        self._check_choices()

    def _choice_group(self, prefix: str, values: tuple[str, ...], apply: Callable[[Any], None]) -> QActionGroup:
        group = QActionGroup(self)
        for value in values:
            action = QAction(self, checkable=True)
            action.setObjectName(f"{prefix}_{value}")
            action.setData(value)
            action.triggered.connect(lambda _checked=False, v=value: apply(v))
            group.addAction(action)
            self.actions_by_name[action.objectName()] = action
        return group

    def _check_choices(self) -> None:
        mode = self.theme.mode if self.theme is not None else "system"
        self.actions_by_name[f"theme_{mode}"].setChecked(True)
        self.actions_by_name[f"language_{stored_choice(self.settings)}"].setChecked(True)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        a = self.actions_by_name
        self.menus: dict[str, QMenu] = {
            name: bar.addMenu("") for name in ("file", "view", "research", "ledger", "help")
        }
        self.menus["file"].addActions([a["open_workspace"], a["new_workspace"], a["demo_workspace"]])
        self.menus["file"].addSeparator()
        self.menus["file"].addActions([a["import_fills"], a["export_ledger"], a["connect_model"], a["settings"]])
        self.menus["file"].addSeparator()
        self.menus["file"].addAction(a["quit"])
        self.panels_menu = self.menus["view"].addMenu("")
        self.menus["view"].addAction(a["reset_layout"])
        self.menus["view"].addSeparator()
        self.theme_menu = self.menus["view"].addMenu("")
        self.theme_menu.addActions(self.theme_group.actions())
        self.language_menu = self.menus["view"].addMenu("")
        self.language_menu.addActions(self.language_group.actions())
        self.menus["view"].addSeparator()
        self.menus["view"].addAction(a["refresh"])
        self.menus["research"].addActions([a["analyze"], a["runs"]])
        self.menus["ledger"].addActions([a["record_fill"], a["import_fills"]])
        self.menus["help"].addAction(a["about"])

    def _build_toolbar(self) -> None:
        self.toolbar = QToolBar(self)
        self.toolbar.setObjectName("main_toolbar")
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        a = self.actions_by_name
        self.toolbar.addActions([a["open_workspace"], a["demo_workspace"]])
        self.toolbar.addSeparator()
        self.toolbar.addActions([a["analyze"], a["record_fill"], a["refresh"]])
        self.toolbar.addSeparator()
        self.toolbar.addAction(a["settings"])
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.toolbar)

    def retranslate(self) -> None:
        """Set every text of the window in the current language."""
        texts = {
            "open_workspace": self.tr("&Open Workspace…"), "new_workspace": self.tr("&New Workspace…"),
            "demo_workspace": self.tr("&Demo Market"), "export_ledger": self.tr("&Export Ledger…"),
            "settings": self.tr("&Settings…"), "quit": self.tr("&Quit"), "refresh": self.tr("&Refresh"),
            "reset_layout": self.tr("Reset &Layout"), "analyze": self.tr("&Analyze Selected…"),
            "runs": self.tr("Research &Runs"), "record_fill": self.tr("Record &Fill…"),
            "about": self.tr("&About Stock Workbench"), "import_fills": self.tr("&Import Fills from CSV…"),
            "connect_model": self.tr("&Connect Your Model…"),
        }  # fmt: skip
        for name, text in texts.items():
            self.actions_by_name[name].setText(text)
        tips = {"analyze": self.tr("Analyze the selected symbol (offline model unless another is chosen)"),
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
        suffix = self.tr(" (demo)") if self.ctx.bench.workspace.kind == "demo" else ""
        self.setWindowTitle(f"{self.ctx.bench.home.name}{suffix} — {app_name}")

    def _placeholder(self, text: str) -> None:
        label = QLabel(text, self)
        label.setObjectName("placeholder")
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        label.setWordWrap(True)
        self.setCentralWidget(label)

    # ---- workspaces --------------------------------------------------------------------------------------------
    def open_workspace(self, folder: Path, kind: OpenKind = "user", *, welcome: bool = False) -> None:
        """Open the workspace in `folder` in the background (first run: offer the welcome dialog first)."""
        if welcome and not self.settings.value(WELCOME_SETTING, False, type=bool):
            self.show_welcome(folder)
            return
        if self.opener.busy:
            return
        self.detach()
        self._placeholder(self.tr("Opening %1…").replace("%1", str(folder)))
        self.opener.start(folder, kind)

    def show_welcome(self, demo_folder: Path | None = None) -> QDialog:
        from ui.dialogs.welcome_dialog import WelcomeDialog

        self.settings.setValue(WELCOME_SETTING, True)
        dialog = WelcomeDialog(self, demo_folder=demo_folder)
        dialog.workspace_opened.connect(self.attach_bench)
        dialog.connect_model_requested.connect(self.open_model_wizard)
        dialog.rejected.connect(lambda: self.open_workspace(demo_folder, "demo") if demo_folder else None)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def open_demo(self) -> None:
        from stockbench.data.demo import demo_home

        self.open_workspace(demo_home(None), "demo")

    def choose_workspace(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, self.tr("Open a workspace folder"))
        if not chosen:
            return
        if not WorkspacePaths(Path(chosen)).database.exists():
            QMessageBox.information(self, self.tr("Not a workspace"),
                                    self.tr("%1 holds no workspace.").replace("%1", chosen))  # fmt: skip
            return
        self.open_workspace(Path(chosen))

    def choose_new_workspace(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, self.tr("Choose an empty folder for the new workspace"))
        if chosen and Path(chosen).is_dir() and any(Path(chosen).iterdir()):
            QMessageBox.information(self, self.tr("Folder not empty"), self.tr("Choose an empty folder."))
        elif chosen:
            self.open_workspace(Path(chosen))

    def _open_failed(self, error: BaseException) -> None:
        self._placeholder(self.tr("The workspace could not be opened. Use File ▸ Open Workspace to choose another."))
        self.presenter.present(error)

    def attach_bench(self, bench: Workbench) -> None:
        """Show the opened `bench` (the window takes ownership and closes it on detach)."""
        self.detach()
        if self._closed:
            bench.close()
            return
        self.attach(build_context(bench, self.presenter, self.settings))

    def attach(self, ctx: AppContext) -> None:
        """Build the screens on `ctx` and restore the remembered layout."""
        self.ctx = ctx
        self.settings.setValue(LAST_HOME_SETTING, str(ctx.bench.home))
        self.takeCentralWidget()
        self._build_screens()
        self.status.attach(ctx)
        self._update_title()
        QTimer.singleShot(0, settle_heap)
        self.workspace_attached.emit()

    def detach(self, *, close_workspace: bool = True) -> None:
        """Take the screens down and close the current workspace in order (unless told to leave it open)."""
        ctx = self.ctx
        if ctx is None:
            return
        self.save_layout()
        running = set(self.status.tracker.running)
        self.status.attach(None)
        self._remove_screens()
        self.ctx = None
        if close_workspace:
            self.statusBar().showMessage(self.tr("Closing the workspace…"))
            close_context(ctx, running=running)
            self.statusBar().clearMessage()
        self._update_title()

    # ---- screens -----------------------------------------------------------------------------------------------
    def _build_screens(self) -> None:
        assert self.ctx is not None
        for name, _package, _area in SCREENS:
            panel_class = load_screen(name)
            if panel_class is None:
                continue
            try:
                panel = cast(Callable[..., QWidget], panel_class)(self.ctx, self)
            except Exception as error:  # one broken screen must not take the window down
                log.exception("screen %s failed to build", name)
                self.presenter.present(error)
                continue
            self._dock(name, panel)
        self._connect_screens()
        self._arrange()
        self.panels_menu.clear()
        self.panels_menu.addActions([dock.toggleViewAction() for dock in self.docks.values()])
        for number, dock in enumerate(self.docks.values(), start=1):
            dock.toggleViewAction().setShortcut(QKeySequence(f"Alt+{number}"))

    def _dock(self, name: str, panel: QWidget) -> None:
        dock = QDockWidget(self.screen_title(name), self)
        dock.setObjectName(f"dock_{name}")
        # A scroll area lets a dock shrink below its screen's minimum width, so the window fits small displays.
        holder = QScrollArea(dock)
        holder.setWidgetResizable(True)
        holder.setFrameShape(QFrame.Shape.NoFrame)
        holder.setWidget(panel)
        dock.setWidget(holder)
        self.panels[name], self.docks[name] = panel, dock

    def _remove_screens(self) -> None:
        for dock in self.docks.values():
            self.removeDockWidget(dock)
            dock.deleteLater()
        self.panels.clear()
        self.docks.clear()
        self.panels_menu.clear()

    def _arrange(self) -> None:
        self.default_layout()
        state = self.settings.value(STATE_SETTING)
        if isinstance(state, QByteArray):
            self.restoreState(state, LAYOUT_VERSION)

    def default_layout(self) -> None:
        """Watchlist on the left, chart and the other screens as tabs in the middle, research on the right."""
        areas = {name: area for name, _package, area in SCREENS}
        left = [d for n, d in self.docks.items() if areas.get(n) == "left"]
        main = [d for n, d in self.docks.items() if areas.get(n, "main") == "main"]
        right = [d for n, d in self.docks.items() if areas.get(n) == "right"]
        columns = [c for c in (left, main, right) if c]
        if not columns:
            return
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, columns[0][0])
        for before, column in itertools.pairwise(columns):
            self.splitDockWidget(before[0], column[0], Qt.Orientation.Horizontal)
        for column in columns:
            for dock in column[1:]:
                self.tabifyDockWidget(column[0], dock)
            column[0].show()
            column[0].raise_()
        shares = [share for c, share in zip((left, main, right), COLUMN_SHARES, strict=True) if c]
        firsts = [c[0] for c in columns]
        QTimer.singleShot(0, lambda: self._size_columns(firsts, shares))  # once the docks are laid out

    def _size_columns(self, docks: list[QDockWidget], shares: list[float]) -> None:
        if all(dock in self.docks.values() for dock in docks):
            total = self.width()
            self.resizeDocks(docks, [int(total * share) for share in shares], Qt.Orientation.Horizontal)

    def reset_layout(self) -> None:
        self.settings.remove(STATE_SETTING)
        for dock in self.docks.values():
            dock.setFloating(False)
            dock.show()
        self.default_layout()

    def save_layout(self) -> None:
        if self.docks:
            self.settings.setValue(STATE_SETTING, self.saveState(LAYOUT_VERSION))
        self.settings.setValue(GEOMETRY_SETTING, self.saveGeometry())

    def show_screen(self, name: str) -> QWidget | None:
        """Bring screen `name` to the front; its panel, or None when it is not available."""
        dock = self.docks.get(name)
        if dock is None:
            return None
        dock.show()
        dock.raise_()
        return self.panels[name]

    def refresh_screens(self) -> None:
        for panel in self.panels.values():
            refresh = getattr(panel, "refresh", None)
            if callable(refresh):
                refresh()
        self.status.refresh_phases()
        self.status.refresh_freshness()

    def _refresh_screen(self, name: str) -> None:
        refresh = getattr(self.panels.get(name), "refresh", None)
        if callable(refresh):
            refresh()

    def _connect_screens(self) -> None:
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
        for panel in self.panels.values():
            for signal_name, slot in routes.items():
                signal = getattr(panel, signal_name, None)
                if signal is not None and hasattr(signal, "connect"):
                    signal.connect(slot)

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
        if self.ctx is None:
            return None
        try:
            dialog_class = importlib.import_module("ui.dialogs.fill_dialog").FillDialog
        except ModuleNotFoundError:
            self.statusBar().showMessage(self.tr("The fill dialog is not available."), 5000)
            return None
        dialog: QDialog = dialog_class(self.ctx, self, symbol=symbol or None)
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

    def open_settings(self) -> None:
        from ui.dialogs.settings_dialog import SettingsDialog

        if self.ctx is None:
            return
        dialog = SettingsDialog(self.ctx, self)
        dialog.language_chosen.connect(self.set_language)
        dialog.theme_chosen.connect(self.set_theme)
        dialog.candles_chosen.connect(self._set_candles)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def open_model_wizard(self) -> QDialog | None:
        """Open "Connect your model" (a saved model becomes research's default unless the user unticks it)."""
        from ui.dialogs.model_wizard_dialog import ModelWizardDialog

        if self.ctx is None:
            return None
        dialog = ModelWizardDialog(self.ctx, self)
        dialog.model_saved.connect(lambda name: self.statusBar().showMessage(
            self.tr("Model %1 connected.").replace("%1", name), 8000))  # fmt: skip
        dialog.model_saved.connect(lambda _name: self._refresh_screen("research"))
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
        """Switch the interface language now; screens without `retranslate()` are rebuilt in it."""
        self.settings.setValue(LANGUAGE_SETTING, choice)
        self.actions_by_name[f"language_{choice}"].setChecked(True)
        language = chosen_language(self.settings)
        if language == self.translations.language:
            return
        self.translations.install(language)
        self.retranslate()
        if self.ctx is not None and any(not hasattr(p, "retranslate") for p in self.panels.values()):
            self.save_layout()
            self._remove_screens()
            self._build_screens()
        else:
            for panel in self.panels.values():
                panel.retranslate()  # type: ignore[attr-defined]

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
    from stockbench.ledger.exports import export_beancount, export_csv

    exporter = export_beancount if target.suffix.lower() == ".beancount" else export_csv
    return exporter(bench.ledger, account, target)
