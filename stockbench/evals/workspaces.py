"""The workspaces eval cases run in: a built demo market kept as a template, a fresh copy of it per case,
and the case's account recorded in that copy through the ledger, as a user would record it.

Nothing here touches the user's own workspace: a case's copy is thrown away when the case ends.
"""

from __future__ import annotations

import shutil
from datetime import date, datetime, time
from decimal import Decimal
from pathlib import Path

from stockbench.clock import MARKET_TZ, today_in
from stockbench.config import WorkspacePaths
from stockbench.data.demo import ensure_demo
from stockbench.errors import InvalidInput
from stockbench.evals.cases import AccountSetup
from stockbench.ledger.entries import Order
from stockbench.ledger.validation import FillDraft
from stockbench.market.instruments import Instrument
from stockbench.market.lots import board_lot
from stockbench.market.ticks import round_to_tick
from stockbench.messages import user_error
from stockbench.store.workspace import Workspace
from stockbench.workbench import Workbench

TEMPLATE_FOLDER = Path("evals") / "demo-market"
ORDER_TIME, FILL_TIME, DEPOSIT_TIME = time(9, 45), time(10, 0), time(9, 0)


def demo_template(home: Path) -> Path:
    """The demo market template kept in `home`'s eval folder, built (or rebuilt after a rules or seed change)
    on first use; building takes about fifteen seconds, reusing it none."""
    folder = home / TEMPLATE_FOLDER
    with Workspace.open(folder, kind="demo", command="stockbench eval (template)") as workspace:
        ensure_demo(workspace)
    return folder


def copy_workspace(template: Path, target: Path) -> Path:
    """A fresh copy of the closed workspace at `template` in the new folder `target`."""
    source = WorkspacePaths(template).database
    if not source.is_file():
        raise user_error(InvalidInput, "eval_template_empty", template=template, command="stockbench demo")
    target.mkdir(parents=True)
    destination = WorkspacePaths(target).database
    shutil.copyfile(source, destination)
    wal = source.with_name(source.name + ".wal")
    if wal.is_file():
        shutil.copyfile(wal, destination.with_name(destination.name + ".wal"))
    return target


def _sessions(bench: Workbench, instrument: Instrument, count: int) -> list[tuple[date, Decimal]]:
    """The last `count` sessions of `instrument` up to the clock's day, newest first, with their closes."""
    today = today_in(bench.clock, instrument.market)
    rows = bench.workspace.db.fetchall(
        "SELECT day, close FROM bars WHERE symbol = ? AND day <= ? ORDER BY day DESC LIMIT ?",
        [instrument.symbol, today, count],
    )
    if len(rows) < count:
        raise user_error(InvalidInput, "eval_few_sessions", symbol=instrument.symbol, count=count)
    return [(day, Decimal(close)) for day, close in rows]


def open_account(bench: Workbench, symbol: str, setup: AccountSetup) -> None:
    """Record the case's account: cash, a position bought at a past close, and open orders on the last session."""
    instrument = bench.market.registry.instrument(symbol)
    zone = MARKET_TZ[instrument.market]
    sessions = _sessions(bench, instrument, setup.held_sessions + 1)
    (last_day, last_close), (bought_day, bought_close) = sessions[0], sessions[-1]
    lot = (board_lot(instrument, bench.market.tables) or (100, 100))[0]
    ledger = bench.ledger
    ledger.add_account(setup.name, instrument.currency)
    ledger.cash(setup.name, "deposit", setup.cash, at=datetime.combine(bought_day, DEPOSIT_TIME, tzinfo=zone))
    if setup.lots:
        at = datetime.combine(bought_day, FILL_TIME, tzinfo=zone)
        ledger.record_fill(FillDraft(setup.name, instrument.symbol, "buy", setup.lots * lot, bought_close, at))
    for order in setup.orders:
        price = round_to_tick(instrument, last_close * order.offset, last_day)
        placed = datetime.combine(last_day, ORDER_TIME, tzinfo=zone)
        ledger.add_order(Order("", setup.name, instrument.symbol, order.side, order.lots * lot, price, placed))
