"""Positions and sellable quantities for 100,000 fills across 500 symbols, against a plain DuckDB GROUP BY.

Setup (not timed): 100,000 realistic fills (buys, and T+1-respecting sells that never exceed the holding)
are bulk-loaded and the account is rebuilt from a replay of its entries. Timed: `Ledger.positions`
(quantity, sellable, FIFO cost, realized P&L from the materialised state) against a GROUP BY of quantity
and sellable over the same fills table. The full rebuild-from-scratch time is reported as a note.
"""

from __future__ import annotations

import random
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pyarrow as pa

from bench.harness import Result, benchmark, median_seconds
from stockbench.clock import MARKET_TZ, ReplayClock
from stockbench.workbench import Workbench

FILLS, SYMBOLS = 100_000, 500


def _fills(start: date) -> pa.Table:
    rng = random.Random(7)
    per_symbol = FILLS // SYMBOLS
    columns: dict[str, list[object]] = {k: [] for k in (
        "fill_id", "account", "symbol", "side", "qty", "price", "currency", "executed_at", "trade_date", "fees",
        "fee_items", "fees_source", "settlement", "recorded_at")}  # fmt: skip
    for s in range(SYMBOLS):
        symbol, held, day = f"{600000 + s}.SH", 0, start
        for n in range(per_symbol):
            day += timedelta(days=1 + rng.randrange(3))
            side = "sell" if held >= 200 and rng.random() < 0.45 else "buy"
            qty = (rng.randrange(1, held // 100 + 1) * 100) if side == "sell" else rng.randrange(1, 11) * 100
            held += qty if side == "buy" else -qty
            price = Decimal(rng.randrange(500, 5000)) / 100
            row = (f"F{s:04d}-{n:05d}", "bench", symbol, side, qty, price, "CNY",
                   datetime(day.year, day.month, day.day, 10, tzinfo=MARKET_TZ["CN"]), day, Decimal("5.00"), "{}",
                   "broker", "T+1", datetime.now(UTC))  # fmt: skip
            for key, value in zip(columns, row, strict=True):
                columns[key].append(value)
    return pa.table(columns)


@benchmark("ledger_positions")
def ledger_positions() -> Result:
    with tempfile.TemporaryDirectory() as folder:
        clock = ReplayClock.as_of(date(2026, 6, 30))
        with Workbench.open(Path(folder) / "w", clock=clock) as bench:
            book = bench.ledger
            book.add_account("bench", "CNY")
            book.cash("bench", "deposit", Decimal("100000000000"), at=datetime(1999, 1, 4, tzinfo=UTC))
            fills = _fills(date(2000, 1, 3))
            db = bench.workspace.db
            with db.transaction() as cur:
                cur.register("bench_fills", fills)
                cur.execute(f"INSERT INTO fills ({', '.join(fills.column_names)}) SELECT * FROM bench_fills")
                cur.unregister("bench_fills")
            started = time.perf_counter()
            book.rebuild("bench")
            rebuild = time.perf_counter() - started
            today = clock.now().astimezone(MARKET_TZ["CN"]).date()
            reference_sql = (
                "SELECT symbol, sum(CASE side WHEN 'buy' THEN qty ELSE -qty END) AS qty, "
                "sum(CASE side WHEN 'buy' THEN qty ELSE -qty END) - coalesce(sum(qty) FILTER (WHERE side = 'buy' "
                "AND trade_date >= ?), 0) AS sellable FROM fills WHERE account = 'bench' GROUP BY symbol"
            )
            positions = book.positions("bench")
            reference = db.fetchall(reference_sql, [today])
            assert {p.symbol: (p.qty, p.sellable) for p in positions if p.qty} == {
                s: (int(q), int(sellable)) for s, q, sellable in reference if q
            }
            ours = median_seconds(lambda: book.positions("bench"), repeat=9)
            base = median_seconds(lambda: db.fetchall(reference_sql, [today]), repeat=9)
    return Result("ledger_positions", ours, base, "s", target=3.0,
                  notes={"rebuild from scratch": f"{rebuild:.2f} s for {FILLS:,} fills"})  # fmt: skip
