"""The QApplication, which workspace to start on, and the desktop entry point.

`run_desktop` shows the main window at once and opens the workspace in the background: the one named, else
the last one used, else the user's default workspace if it exists, else the demo market (built on first use).
With `STOCKBENCH_SMOKE_QUIT=1` it prints `first-paint SECONDS` once the window has painted and quits (a start-up
smoke test of an installed build); with `STOCKBENCH_SMOKE_QUIT=attached` it also opens the workspace first and
prints `workspace-attached SECONDS` before quitting. In either mode the first error the window shows ends the
process with exit code 1.

One window per workspace (`ui.instance_server`): a start on a workspace another instance shows hands its request to
that instance's window, which comes forward, and exits 0 without a window of its own.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from PySide6.QtCore import QCoreApplication, QEvent, QLocale, QSettings, Qt, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QWidget

from stockbench import __version__
from stockbench.config import APP_DISPLAY_NAME, HOME_ENV, WorkspacePaths, resolve_home, resources_dir
from ui.collector import collect_on_gui_thread
from ui.instance_server import InstanceServer, StartRequest, claim_instance
from ui.workspace_controller import LAST_HOME_SETTING
from ui.workspace_opener import OpenKind

if TYPE_CHECKING:
    from stockbench.messages import Language as EngineLanguage
    from ui.i18n.language import Language
    from ui.main_window import MainWindow

ORGANIZATION = "StockWorkbench"
FIRST_PAINT_WAIT_MS = 1000
GIL_SWITCH_S = 0.0005
SMOKE_QUIT_ENV = "STOCKBENCH_SMOKE_QUIT"
SmokeMode = Literal["off", "painted", "attached"]
_IMPORTED_AT = time.perf_counter()  # the fallback origin where the process's start time cannot be read


def app_icon() -> QIcon:
    """The application icon (SVG, with PNG renders for platforms that want bitmaps)."""
    folder = resources_dir() / "icons"
    icon = QIcon(str(folder / "stockbench.svg"))
    for png in sorted(folder.glob("stockbench-*.png")):
        icon.addFile(str(png))
    return icon


def create_app(argv: Sequence[str] | None = None) -> QApplication:
    """The process's QApplication (created once) with the app's identity set."""
    # The GUI thread gives up the GIL inside most Qt calls, and Qt takes it again for every Python method it calls
    # (an item's boundingRect and paint: some seventy per chart frame); each time it must win it back from an engine
    # thread. A shorter switch interval bounds that wait. bench/ui_stall.py, the largest stall while research runs
    # and the chart pans (noisy from run to run): 49-53 ms at 1 ms, 36-57 ms at 0.5 ms (median 46 ms over 9 runs),
    # 32-48 ms at 0.2 ms; two engine threads that both compute took 4%, 8% and 40% longer than at Python's 5 ms.
    sys.setswitchinterval(GIL_SWITCH_S)
    # Qt's own file dialogs on every system: they speak the interface language (a native one speaks the
    # system's), and on Linux the "native" one is the Qt widget dialog anyway.
    QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_DontUseNativeDialogs, True)
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        collect_on_gui_thread(existing)
        return existing
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APP_DISPLAY_NAME)
    QCoreApplication.setApplicationVersion(__version__)
    app = QApplication(list(argv if argv is not None else sys.argv))
    app.setWindowIcon(app_icon())
    app.setDesktopFileName("io.github.stockworkbench.StockWorkbench")  # the .desktop entry's id (Wayland)
    collect_on_gui_thread(app)  # never in an engine thread (ui/collector.py)
    return app


def start_home(explicit: Path | None, settings: QSettings) -> tuple[Path, OpenKind, bool]:
    """Which workspace to open: (folder, kind if created, first run).

    `--home` wins; then $STOCKBENCH_HOME; then the last workspace used; then the default workspace if it
    exists; otherwise the demo market (the first run).
    """
    if explicit is not None or os.environ.get(HOME_ENV):
        chosen = resolve_home(explicit)
        if explicit is not None or WorkspacePaths(chosen).database.exists():
            return chosen, "user", False
        return _demo_home(), "demo", True
    last = str(settings.value(LAST_HOME_SETTING, "") or "")
    if last and WorkspacePaths(Path(last)).database.exists():
        return Path(last), "user", False
    default = resolve_home(None)
    if WorkspacePaths(default).database.exists():
        return default, "user", False
    return _demo_home(), "demo", True


def _demo_home() -> Path:
    from stockbench.workbench import Workbench  # imported only on a first run (it pulls in the market generator)

    return Workbench.demo_home()


def process_age() -> tuple[float, str]:
    """Seconds since this process started and what they count from: "process" (its creation, read from
    /proc/self/stat on Linux, 10 ms resolution) or, elsewhere, "import" (when this module was imported)."""
    try:
        stat = Path("/proc/self/stat").read_text(encoding="ascii")
        ticks = int(stat.rsplit(")", 1)[1].split()[19])  # field 22, starttime: clock ticks after boot
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return time.perf_counter() - _IMPORTED_AT, "import"
    return (age, "process") if 0 <= age < 86_400 else (time.perf_counter() - _IMPORTED_AT, "import")


def smoke_mode() -> SmokeMode:
    """$STOCKBENCH_SMOKE_QUIT: unset/"0" off; "attached" quits once the workspace is shown; anything else after
    the first paint, without opening a workspace."""
    value = os.environ.get(SMOKE_QUIT_ENV, "").strip().lower()
    if value in ("", "0"):
        return "off"
    return "attached" if value == "attached" else "painted"


def _smoke_report(label: str, window: QWidget | None = None) -> None:
    """Print `label SECONDS [origin]` (flushed); with `window`, close it next (the normal shutdown runs)."""
    age, origin = process_age()
    print(f"{label} {age:.3f} {origin}", flush=True)  # noqa: T201 (the smoke test reads stdout)
    if window is not None:
        QTimer.singleShot(0, window.close)


def _smoke_failed(app: QApplication, title: str, text: str) -> None:
    """A smoke run ends at the first error shown, exit code 1, with its words on stderr (the traceback is in the
    workspace log): a window that cannot attach must fail the smoke test at once, not wait for its time-out."""
    print(f"smoke-error {title}: {text}", file=sys.stderr, flush=True)  # noqa: T201 (the smoke test reads stderr)
    app.exit(1)


def run_desktop(
    argv: Sequence[str] | None = None,
    home: str | Path | None = None,
    *,
    ready: Callable[[object], None] | None = None,
    language: EngineLanguage | None = None,
) -> int:
    """Open the main window on a workspace and run the event loop until the window closes.

    `ready(window)` is called once the workspace is attached (tests quit from it instead of blocking). `language`
    (`stockbench --lang zh|en`) is the interface language of this session; the stored choice is not changed.
    """
    from ui.main_window import MainWindow

    app = create_app(argv)
    settings = QSettings()
    named = Path(home).expanduser().resolve() if home is not None else None  # the running one may sit elsewhere
    folder, kind, first_run = start_home(named, settings)
    instance = claim_instance(folder, StartRequest(named))
    if instance is None:
        _say_handed_over(settings, folder, language)
        return 0
    window = MainWindow(settings=settings, language=session_language(language))
    _serve(instance, window)
    window.presenter.install()
    if ready is not None:
        window.workspace_attached.connect(lambda: ready(window))
    smoke = smoke_mode()
    started: list[bool] = [True] if smoke == "painted" else []  # that smoke test never opens a workspace

    def start() -> None:  # once, after the first paint: opening competes for the GIL with painting
        if not started:
            started.append(True)
            window.open_workspace(folder, kind, welcome=first_run and smoke == "off")

    if smoke != "off":
        window.presenter.error_presented.connect(lambda title, text: _smoke_failed(app, title, text))
        window.first_painted.connect(lambda: _smoke_report("first-paint", window if smoke == "painted" else None))
        window.workspace_attached.connect(lambda: _smoke_report("workspace-attached", window))
    window.first_painted.connect(start, Qt.ConnectionType.QueuedConnection)
    QTimer.singleShot(FIRST_PAINT_WAIT_MS, start)  # a window that is not painted (minimised) still opens
    window.show_on_screen()
    try:
        return int(app.exec())
    finally:
        instance.close()  # first: a start from now on must not hand over to a window that is going away
        window.shutdown()  # also when the loop was quit without closing the window
        window.presenter.uninstall()
        window.deleteLater()
        # a second quit request (last window closed, then quit()) must not end a later event loop
        QCoreApplication.removePostedEvents(app, QEvent.Type.Quit)
        instance.deleteLater()


def session_language(language: EngineLanguage | None) -> Language | None:
    """The interface language `--lang` names (zh: Simplified Chinese), None when it was not given."""
    return None if language is None else "zh_CN" if language == "zh" else "en"


def _serve(instance: InstanceServer, window: MainWindow) -> None:
    """Later starts bring `window` forward; the socket's name follows the workspace the window shows."""
    instance.requested.connect(lambda request: window.bring_forward(request.home))
    window.workspace_attached.connect(lambda: instance.listen(window.ctx.bench.home) if window.ctx else None)


def _say_handed_over(settings: QSettings, folder: Path, language: EngineLanguage | None = None) -> None:
    """One line for a terminal: the running window took this start (in the interface's language, or `--lang`'s)."""
    from ui.i18n.language import Translations, chosen_language

    translations, locale = Translations(), QLocale()
    translations.install(session_language(language) or chosen_language(settings))
    try:
        text = QCoreApplication.translate("SingleInstance", "Stock Workbench is already open on %1; its window was "
                                          "brought to the front.").replace("%1", str(folder))  # fmt: skip
    finally:
        translations.uninstall()
        QLocale.setDefault(locale)  # install() set it; this start leaves the process as it found it
    print(text, flush=True)  # noqa: T201 (the user started it from a terminal, or nobody reads it)
