"""The embedded demo market: a deterministic, clearly fictional market in a workspace of its own.

Fictional companies (every name marked 示例 or DEMO) on every A-share board and in Hong Kong, with six
years of daily bars that obey the real rules (ticks, limits, suspensions, ex-rights references),
quarterly statements, valuation history, money flow and announcements to read. The seed lives in
`resources/demo/`; the same seed, rules and calendars give the same market on every machine. The demo
workspace pins a replay clock at its last session (setting `clock.pinned_as_of`), so it works offline.

Default folder: "Stock Workbench Demo" beside the user's default workspace folder (the platform's user
data folder), unless `--home` or $STOCKBENCH_HOME says otherwise.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stockbench.config import HOME_ENV, default_home
from stockbench.data.demo.seed import DemoSeed, load_seed
from stockbench.data.demo.writer import PIN_SETTING, SOURCE, write_market
from stockbench.errors import InvalidInput
from stockbench.market.tables import RuleTables, load_tables
from stockbench.messages import user_error
from stockbench.store.database import Database
from stockbench.store.settings import DEMO_BUILD, PINNED_AS_OF
from stockbench.store.workspace import Workspace

if TYPE_CHECKING:
    from stockbench.data.demo.market import DemoMarket, generate

GENERATOR_VERSION = "3"  # bump whenever the generator's output changes for the same seed
DEMO_FOLDER = "Stock Workbench Demo"
# one of each board, for the demo's starting watchlist (a first run has something to right-click)
STARTER_WATCHLIST = ("605903.SH", "003901.SZ", "301901.SZ", "688901.SH", "920901.BJ", "02971.HK")

__all__ = [
    "DEMO_FOLDER",
    "PIN_SETTING",
    "SOURCE",
    "DemoMarket",
    "DemoSummary",
    "build_demo",
    "default_demo_home",
    "demo_home",
    "demo_summary",
    "ensure_demo",
    "fingerprint",
    "generate",
]


@dataclass(frozen=True, slots=True)
class DemoSummary:
    """What the demo workspace holds."""

    home: Path
    instruments: int
    bars: int
    first: date | None
    last: date | None
    symbols: list[str]
    pinned_as_of: date | None
    built: bool  # True when this call (re)built the market


def default_demo_home() -> Path:
    """The demo's own folder, beside the user's default workspace folder."""
    return default_home().parent / DEMO_FOLDER


def demo_home(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The demo workspace folder: `explicit`, else $STOCKBENCH_HOME, else `default_demo_home()`."""
    chosen = explicit or os.environ.get(HOME_ENV) or None
    return Path(chosen).expanduser().resolve() if chosen else default_demo_home()


def fingerprint(seed: DemoSeed, tables: RuleTables) -> dict[str, object]:
    """What a built demo market depends on; a workspace whose record differs is rebuilt."""
    return {"generator": GENERATOR_VERSION, "seed": seed.number, "digest": seed.digest, "rules": tables.version}


def __getattr__(name: str) -> Any:
    """The generator's names, imported on first use: reopening a built demo checks its fingerprint only, and the
    generator (it pulls in the exchange calendars and pandas) cost a second of every reopen."""
    if name in ("DemoMarket", "generate"):
        from stockbench.data.demo import market

        return getattr(market, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build_demo(db: Database, seed: DemoSeed | None = None, tables: RuleTables | None = None) -> DemoMarket:
    """Generate the demo market and write it into `db`, replacing earlier demo rows, in one transaction."""
    from stockbench.data.demo.market import generate

    seed = seed or load_seed()
    tables = tables or load_tables()
    market = generate(seed, tables)
    write_market(db, market, fingerprint(seed, tables))
    return market


def ensure_demo(workspace: Workspace) -> DemoSummary:
    """Build the demo market in a demo workspace unless it already holds this build (idempotent)."""
    if workspace.kind != "demo":
        raise user_error(InvalidInput, "demo_needs_demo_workspace", home=workspace.home,
                         command="stockbench demo --home NEW_FOLDER")  # fmt: skip
    seed, tables = load_seed(), load_tables()
    built = workspace.settings.get(DEMO_BUILD) != fingerprint(seed, tables)
    if built:
        build_demo(workspace.db, seed, tables)
    return demo_summary(workspace, built=built)


def demo_summary(workspace: Workspace, *, built: bool = False) -> DemoSummary:
    """Counts, date range and symbols of the demo rows in `workspace`."""
    db = workspace.db
    symbols = [r[0] for r in db.fetchall("SELECT symbol FROM instruments WHERE source = ? ORDER BY symbol", [SOURCE])]
    bars, first, last = db.fetchone("SELECT count(*), min(day), max(day) FROM bars WHERE source = ?", [SOURCE]) or (
        0,
        None,
        None,
    )
    return DemoSummary(
        home=workspace.home,
        instruments=len(symbols),
        bars=int(bars),
        first=first,
        last=last,
        symbols=symbols,
        pinned_as_of=workspace.settings.get(PINNED_AS_OF),
        built=built,
    )
