"""A full analysis never changes the user's books: every ledger table is byte-for-byte the same afterwards, even
when the run sized orders and decided open orders against that very account."""

from __future__ import annotations

import hashlib

from stockbench.ledger.store import LEDGER_TABLES
from stockbench.workbench import Workbench
from tests.engine.research.conftest import DEMO_SYMBOL, SELL_SYMBOL, holding_account, ledger_snapshot


def digest(snapshot: dict[str, list[str]]) -> str:
    return hashlib.sha256("\n".join(f"{t}\t{row}" for t in LEDGER_TABLES for row in snapshot[t]).encode()).hexdigest()


def test_full_runs_leave_every_ledger_table_unchanged(bench: Workbench) -> None:
    holding_account(bench, SELL_SYMBOL, qty=10000)  # a holder's reduce: a sell order is sized
    holding_account(bench, DEMO_SYMBOL, qty=400, name="second", order_offset="0.98")
    before = ledger_snapshot(bench)
    assert all(before[t] for t in ("accounts", "cash_entries", "fills", "orders", "ledger_lots"))
    first = bench.research.analyze(SELL_SYMBOL, account="main")
    second = bench.research.analyze(DEMO_SYMBOL, account="second")
    again = bench.research.analyze(SELL_SYMBOL, account="main")  # with a previous report: continuity
    assert [o.status for o in (first, second, again)] == ["published"] * 3
    assert first.orders and again.orders  # the runs sized real orders against this account
    after = ledger_snapshot(bench)
    assert after == before
    assert digest(after) == digest(before)
    positions = {(p.account, p.symbol): p.qty for p in bench.ledger.positions("main")}
    assert positions == {("main", SELL_SYMBOL): 10000}
