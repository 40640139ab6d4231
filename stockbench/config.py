"""Where things live: the workspace folder, its files, and the read-only material shipped with the app.

A workspace is one folder: `workspace.duckdb` (everything the user owns), `exports/`, `logs/` and a
lock file. `--home DIR` beats `STOCKBENCH_HOME`, which beats the platform's user data folder.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

APP_NAME = "stockbench"
APP_DISPLAY_NAME = "Stock Workbench"
HOME_ENV = "STOCKBENCH_HOME"
RESOURCES_ENV = "STOCKBENCH_RESOURCES"


def default_home() -> Path:
    """The platform's user data folder for the app (imported lazily: platformdirs is only needed here)."""
    from platformdirs import user_data_path

    return user_data_path(APP_DISPLAY_NAME, appauthor=False)


def resolve_home(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The workspace folder: `explicit`, else $STOCKBENCH_HOME, else the user data folder."""
    chosen = explicit or os.environ.get(HOME_ENV) or None
    return Path(chosen).expanduser().resolve() if chosen else default_home()


@dataclass(frozen=True)
class WorkspacePaths:
    """The files of one workspace folder."""

    home: Path

    @property
    def database(self) -> Path:
        return self.home / "workspace.duckdb"

    @property
    def exports(self) -> Path:
        return self.home / "exports"

    @property
    def logs(self) -> Path:
        return self.home / "logs"

    @property
    def lock(self) -> Path:
        return self.home / "workspace.lock"

    @property
    def backups(self) -> Path:
        """Where rolling backups go unless the user chose another folder (setting `backup.folder`)."""
        return self.home / "backups"

    @property
    def ledger_journal(self) -> Path:
        """The plain-text, append-only journal of every ledger entry (one JSON line each, hash-chained)."""
        return self.home / "ledger-journal.jsonl"


def app_root() -> Path:
    """The folder holding `handbook/` and `resources/`: a bundle's data dir, or the source checkout."""
    override = os.environ.get(RESOURCES_ENV)
    if override:
        return Path(override)
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle)
    return Path(__file__).resolve().parent.parent


def handbook_dir() -> Path:
    return app_root() / "handbook"


def resources_dir() -> Path:
    return app_root() / "resources"


def configure_file_logging(logs: Path, level: int | None = None) -> None:
    """Log to `logs/stockbench.log` (rotated), once per process. Front ends call this."""
    import logging
    from logging.handlers import RotatingFileHandler

    root = logging.getLogger()
    if any(getattr(h, "_stockbench", False) for h in root.handlers):
        return
    logs.mkdir(parents=True, exist_ok=True)

    class LogFile(RotatingFileHandler):
        def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 (logging's name)
            """A log that cannot be written (a full disk) is dropped: it must not bury the message people read."""

    handler = LogFile(logs / "stockbench.log", maxBytes=5_000_000, backupCount=3, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(threadName)s %(name)s: %(message)s"))
    handler._stockbench = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level if level is not None else logging.INFO)
