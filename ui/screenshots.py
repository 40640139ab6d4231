"""Render each screen and dialog offscreen on the demo market, in Chinese and English: `python -m ui.screenshots
OUTDIR`.

Files are named `<screen>-<lang>.png` (`watchlist-zh.png`, `chart-en.png`, ...), plus `main-<lang>.png` and
`main-dark-<lang>.png`. Every screen is shown as it is seen: the main window at 1366x768 (a common laptop screen) with
that screen in front; a dialog at its own size, which fits that screen. The demo market is built in a temporary
folder (or copied from `--demo DIR`) and given a small showcase: an account with cash and two holdings, offline
reports on three stocks, offline analyses as of past sessions (matured calls for the track record), a model without
its key and a SearXNG address. A screen module's `screenshot_setup(widget)` hook, if it has one, selects what to
show; rendering waits until every background operation has finished. The user's own settings and workspaces are
never touched.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from datetime import time as clock_time
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEventLoop, QSettings, QSize, Qt, QTimer
from PySide6.QtWidgets import QWidget

from stockbench.clock import MARKET_TZ
from stockbench.workbench import Workbench
from ui.background import EngineOp
from ui.context import AppContext

if TYPE_CHECKING:
    from ui.main_window import MainWindow

LANGUAGES: dict[str, str] = {"zh": "zh_CN", "en": "en"}
log = logging.getLogger("ui.screenshots")
SHOWCASE_ACCOUNT = "main"
WINDOW_SIZE = (1366, 768)  # a common laptop screen: nothing may clip at it (issue 19)
HOLDINGS = (("003901.SZ", 2000), ("605903.SH", 100))
REPORTED = ("003901.SZ", "605903.SH", "02971.HK")
REPLAYED = ("003901.SZ", "605903.SH", "301903.SZ")  # analysed as of past sessions: matured calls to score
REPLAY_SESSIONS = (-100, -40, 20)  # from, to (sessions before the last one), and sessions between analyses
QUIET_MS = 400
LIMIT_S = 90.0


@dataclass(frozen=True)
class Shot:
    """One dialog's screenshot: the file stem, how to build the dialog, and its size (None: the dialog's own)."""

    name: str
    build: Callable[[AppContext], QWidget]
    size: tuple[int, int] | None = None


# The screens, each shown in front in the main window at WINDOW_SIZE (the watchlist beside the chart).
SCREENS: tuple[str, ...] = ("watchlist", "dashboard", "chart", "research", "report", "ledger", "track_record")


def _fill(ctx: AppContext) -> QWidget:
    from ui.dialogs.fill_dialog import FillDialog

    return FillDialog(ctx, None, account=SHOWCASE_ACCOUNT)


def _settings(ctx: AppContext) -> QWidget:
    from ui.dialogs.settings.settings_dialog import SettingsDialog

    return SettingsDialog(ctx, None)


def _backups(ctx: AppContext) -> QWidget:
    """Settings > Backups with one backup taken by hand (the demo market is not backed up on its own)."""
    from ui.dialogs.settings.settings_dialog import SettingsDialog

    if not ctx.bench.backups():
        ctx.bench.backup("manual")
    dialog = SettingsDialog(ctx, None)
    dialog.tabs.setCurrentWidget(dialog.backups)
    return dialog


def _new_account(ctx: AppContext) -> QWidget:
    from ui.dialogs.account_dialogs import NewAccountDialog

    return NewAccountDialog(ctx, None)


def _cash(ctx: AppContext) -> QWidget:
    from ui.dialogs.account_dialogs import CashDialog

    accounts = tuple(a.name for a in ctx.bench.ledger.accounts())
    return CashDialog(ctx, SHOWCASE_ACCOUNT, accounts, ctx.bench.clock.now(), None)


def _search(ctx: AppContext) -> QWidget:
    """Settings > Search with the showcase's SearXNG address."""
    from ui.dialogs.settings.settings_dialog import SettingsDialog

    dialog = SettingsDialog(ctx, None)
    dialog.tabs.setCurrentWidget(dialog.search)
    return dialog


def _passphrase(ctx: AppContext) -> QWidget:
    """The passphrase asked for a new encrypted key file (Settings > Models, on a machine without a keyring)."""
    from ui.dialogs.settings.passphrase_dialog import PassphraseDialog

    return PassphraseDialog(str(ctx.bench.home / "keys.cfg"), new=True)  # the key file's path, as Settings shows it


def _welcome(_ctx: AppContext) -> QWidget:
    from ui.dialogs.welcome_dialog import WelcomeDialog

    return WelcomeDialog(None)


def _connect_model(ctx: AppContext) -> QWidget:
    from ui.dialogs.model_wizard_dialog import ModelWizardDialog

    return ModelWizardDialog(ctx, None, preset="deepseek")


def _import_fills(ctx: AppContext) -> QWidget:
    """The CSV import dialog checking a broker file with one good row and one off-lot row."""
    from ui.dialogs.fill_import_dialog import FillImportDialog

    today = ctx.bench.clock.now().astimezone(MARKET_TZ["CN"]).date()
    symbol = HOLDINGS[0][0]
    price = _session_close(ctx.bench, symbol, today)
    csv = Path(tempfile.gettempdir()) / "broker-fills.csv"
    csv.write_text(
        "executed_at,symbol,side,qty,price,fee\n"
        f"{today.isoformat()} 10:31,{symbol},buy,500,{price},\n"
        f"{today.isoformat()} 13:05,{symbol},buy,150,{price},\n",
        encoding="utf-8",
    )
    return FillImportDialog(ctx, None, account=SHOWCASE_ACCOUNT, path=csv)


SHOTS: tuple[Shot, ...] = (
    Shot("fill", _fill),
    Shot("new_account", _new_account),
    Shot("cash", _cash),
    Shot("settings", _settings),
    Shot("search", _search),
    Shot("passphrase", _passphrase),
    Shot("backups", _backups),
    Shot("welcome", _welcome),
    Shot("connect_model", _connect_model),
    Shot("import_fills", _import_fills),
)


# ---- the showcase workspace -------------------------------------------------------------------------------------
def prepare_home(folder: Path, source: Path | None) -> Path:
    """A demo workspace in `folder`: a copy of `source`, else freshly built (about ten seconds)."""
    from ui.workspace_opener import open_workbench

    home = folder / "demo"
    if source is not None:
        shutil.copytree(source, home, ignore=shutil.ignore_patterns("*.lock"))
    open_workbench(home, "demo").close()
    return home


def _session_close(bench: Workbench, symbol: str, day: date) -> Decimal:
    bars = bench.data.cache.bars(symbol, end=day)
    return Decimal(str(bars.get_column("close")[-1]))


def seed_showcase(bench: Workbench) -> None:
    """An account with cash and two holdings bought a week before the demo's last session, three reports, a few
    analyses as of past sessions, and a configured model (without a key) for the settings screen."""
    ledger = bench.ledger
    if any(a.name == SHOWCASE_ACCOUNT for a in ledger.accounts()):
        return
    calendar = bench.market.calendars.calendar("CN")
    today = bench.clock.now().astimezone(MARKET_TZ["CN"]).date()
    bought = calendar.session_offset(today, -5)
    ledger.add_account(SHOWCASE_ACCOUNT, "CNY")
    ledger.cash(SHOWCASE_ACCOUNT, "deposit", Decimal(500_000), at=_at(calendar.session_offset(bought, -1), 9))
    from stockbench.ledger.entries import FillDraft

    for symbol, qty in HOLDINGS:
        price = _session_close(bench, symbol, bought)
        ledger.record_fill(FillDraft(SHOWCASE_ACCOUNT, symbol, "buy", qty, price, _at(bought, 14)))
    replay_history(bench, today)
    for symbol in REPORTED:
        bench.research.analyze(symbol)
    from stockbench.llm.records import ModelConfig

    bench.models.add(ModelConfig("deepseek", "deepseek", "deepseek-v4-flash"))  # no key
    bench.search.set_searxng("https://searx.example.org")


def replay_history(bench: Workbench, today: date) -> None:
    """Offline analyses as of past sessions, so the track record has matured calls to show."""
    calendar = bench.market.calendars.calendar("CN")
    start, end, every = REPLAY_SESSIONS
    bench.replays.run(
        REPLAYED, calendar.session_offset(today, start), calendar.session_offset(today, end), clock=bench.clock,
        every=every,
    )  # fmt: skip


def _at(day: date, hour: int) -> datetime:
    return datetime.combine(day, clock_time(hour, 0), tzinfo=MARKET_TZ["CN"])


# ---- rendering ---------------------------------------------------------------------------------------------------
def settle(ctx: AppContext, quiet_ms: int = QUIET_MS, limit_s: float = LIMIT_S) -> None:
    """Run the event loop until no background operation has been running for `quiet_ms`."""
    deadline, quiet_since = time.monotonic() + limit_s, None
    while time.monotonic() < deadline:
        loop = QEventLoop()
        QTimer.singleShot(25, loop.quit)
        loop.exec()
        pools = ctx.runner.general.activeThreadCount() + ctx.runner.research.activeThreadCount()
        if pools or EngineOp.live:
            quiet_since = None
        elif quiet_since is None:
            quiet_since = time.monotonic()
        elif (time.monotonic() - quiet_since) * 1000 >= quiet_ms:
            return


def render(widget: QWidget, ctx: AppContext, target: Path, size: tuple[int, int] | None) -> Path:
    """Show `widget` offscreen, let its screen hook select what to show, wait, and save it as PNG."""
    if size is not None:
        widget.resize(QSize(*size))
    sized = widget.testAttribute(Qt.WidgetAttribute.WA_Resized)  # a dialog that chose its own size keeps it
    widget.show()
    settle(ctx)
    hook = getattr(sys.modules[type(widget).__module__], "screenshot_setup", None)
    if callable(hook):
        hook(widget)
        settle(ctx)
    if not sized:
        widget.adjustSize()
        settle(ctx, quiet_ms=100)
    target.parent.mkdir(parents=True, exist_ok=True)
    if not widget.grab().save(str(target)):
        raise OSError(f"could not write {target}")
    widget.close()
    widget.deleteLater()
    return target


def render_window(ctx: AppContext, outdir: Path, tag: str, screens: Sequence[str], *, dark: bool = False) -> list[Path]:
    """The main window on `ctx` at WINDOW_SIZE (light or dark): with each of `screens` in front (its
    `screenshot_setup` hook run on its panel), as `<screen>-<tag>.png`, then with a chart shown, as
    `main[-dark]-<tag>.png`."""
    from ui.main_window import MainWindow

    window = MainWindow(settings=QSettings())
    window.presenter.interactive = False
    window.set_theme("dark" if dark else "light")
    window.resize(*WINDOW_SIZE)
    window.show()
    window.attach(ctx)
    settle(ctx)
    written = [_grab_screen(window, ctx, name, outdir / f"{name}-{tag}.png") for name in screens]
    window.show_chart(HOLDINGS[0][0])
    settle(ctx)
    written.append(_save(window, outdir / f"main{'-dark' if dark else ''}-{tag}.png"))
    window.set_theme("light")
    window.detach(close_workspace=False)
    window.translations.uninstall()  # the next language's screens must not see this window's catalogue
    window.deleteLater()
    return written


def _grab_screen(window: MainWindow, ctx: AppContext, name: str, target: Path) -> Path:
    """The window with screen `name` in front (the watchlist, always shown, beside the chart)."""
    window.show_screen("chart" if name == "watchlist" else name)
    settle(ctx)
    panel = window.panels.get(name)
    hook = getattr(sys.modules[type(panel).__module__], "screenshot_setup", None) if panel is not None else None
    if callable(hook):
        hook(panel)
        settle(ctx)
    return _save(window, target)


def _save(widget: QWidget, target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    if not widget.grab().save(str(target)):
        raise OSError(f"could not write {target}")
    log.info("wrote %s", target)
    return target


def render_all(ctx: AppContext, outdir: Path, languages: Sequence[str], only: set[str]) -> list[Path]:
    """Every shot in every language; returns the files written."""
    from ui.i18n.language import Translations

    translations, written = Translations(), []
    for tag in languages:
        translations.install(LANGUAGES[tag])  # type: ignore[arg-type]
        QSettings().setValue("ui/language", LANGUAGES[tag])  # the main window reads it
        for shot in SHOTS:
            if only and shot.name not in only:
                continue
            written.append(render(shot.build(ctx), ctx, outdir / f"{shot.name}-{tag}.png", shot.size))
            log.info("wrote %s", written[-1])
        screens = [name for name in SCREENS if not only or name in only]
        if screens or not only or "main" in only:
            written += render_window(ctx, outdir, tag, screens)
            written += render_window(ctx, outdir, tag, (), dark=True)
    translations.install("en")
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ui.screenshots", description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path, help="where the PNG files go")
    parser.add_argument("--demo", type=Path, help="copy this demo workspace instead of building one")
    parser.add_argument("--lang", nargs="+", choices=sorted(LANGUAGES), default=["zh", "en"])
    parser.add_argument("--only", nargs="+", default=[], help="screen names (and/or 'main') to render")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from ui.app import create_app
    from ui.context import build_context, close_context
    from ui.errors import ErrorPresenter

    app = create_app([sys.argv[0]])
    with tempfile.TemporaryDirectory(prefix="stockbench-shots-") as folder:
        _isolate_settings(Path(folder))
        home = prepare_home(Path(folder), args.demo)
        bench = Workbench.open(home, command="ui.screenshots")
        seed_showcase(bench)
        ctx = build_context(bench, ErrorPresenter(interactive=False))
        try:
            written = render_all(ctx, args.outdir, args.lang, set(args.only))
        finally:
            close_context(ctx)
        app.processEvents()
    errors = ctx.presenter.presented
    for title, text in errors:
        log.error("error shown while rendering: %s: %s", title, text)
    log.info("%d screenshots in %s", len(written), args.outdir)
    return 1 if errors else 0


def _isolate_settings(folder: Path) -> None:
    QCoreApplication.setOrganizationName("StockWorkbenchScreenshots")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder / "settings"))


if __name__ == "__main__":
    sys.exit(main())
