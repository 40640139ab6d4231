"""Random sequences of valid and invalid operations: invalid ones change nothing, and the materialised
state always equals a replay from scratch."""

from __future__ import annotations

import tempfile
from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stockbench.clock import ReplayClock
from stockbench.errors import UserError
from stockbench.ledger.book import Ledger
from stockbench.workbench import Workbench
from tests.engine.ledger.conftest import cn, draft, snapshot

SESSIONS = ["2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05", "2024-01-08", "2024-01-09", "2024-02-08",
            "2024-02-19", "2024-03-01"]  # fmt: skip
TIMES = ["09:25", "10:00", "14:00", "15:00", "12:00"]  # 12:00 is the lunch break: invalid
SYMBOLS = {"600519": ["1650.00", "1700.00", "1650.005"], "688981": ["45.00", "46.50"], "000001": ["9.50", "9.80"]}

deposit = st.tuples(
    st.just("deposit"), st.sampled_from(["100000", "0.001", "-5", "250000.50"]), st.sampled_from(SESSIONS)
)
withdraw = st.tuples(st.just("withdraw"), st.sampled_from(["1000", "5000000"]), st.sampled_from(SESSIONS))
trade = st.tuples(
    st.sampled_from(["buy", "sell"]),
    st.sampled_from(sorted(SYMBOLS)),
    st.sampled_from([100, 150, 200, 201, 300, 1000]),
    st.integers(0, 2),
    st.sampled_from(SESSIONS),
    st.sampled_from(TIMES),
)
void = st.tuples(st.just("void"), st.integers(0, 50))
dividend = st.tuples(st.just("dividend"), st.sampled_from(sorted(SYMBOLS)), st.sampled_from(SESSIONS))
bonus = st.tuples(st.just("bonus"), st.sampled_from(sorted(SYMBOLS)), st.sampled_from(SESSIONS))
operations = st.lists(st.one_of(deposit, withdraw, trade, trade, trade, void, dividend, bonus), min_size=3, max_size=14)


def apply(book: Ledger, op: tuple, ids: list[str]) -> None:  # type: ignore[type-arg]
    kind = op[0]
    if kind == "deposit":
        made = book.cash("main", "deposit", Decimal(op[1]), at=cn(op[2], "09:00"))
        ids.append(made.entry_id)
    elif kind == "withdraw":
        ids.append(book.cash("main", "withdrawal", Decimal(op[1]), at=cn(op[2], "16:00")).entry_id)
    elif kind in {"buy", "sell"}:
        _, symbol, qty, price_index, day, clock = op
        prices = SYMBOLS[symbol]
        ids.append(
            book.record_fill(draft(symbol, kind, qty, prices[price_index % len(prices)], cn(day, clock))).fill_id
        )
    elif kind == "void":
        if ids:
            book.void(ids[op[1] % len(ids)], "property test")
    elif kind == "dividend":
        ids.append(book.dividend("main", op[1], date.fromisoformat(op[2]), Decimal("0.5")).action_id)
    else:
        ids.append(book.bonus("main", op[1], date.fromisoformat(op[2]), Decimal("0.3")).action_id)


def assert_materialised_equals_replay(book: Ledger, now: datetime) -> None:
    assert book.positions("main") == book.positions("main", now)
    assert book.balance("main") == book.balance("main", now)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=operations)
def test_invalid_operations_change_nothing_and_state_equals_replay(ops: list[tuple]) -> None:  # type: ignore[type-arg]
    with tempfile.TemporaryDirectory() as folder:
        clock = ReplayClock.as_of(date(2024, 6, 28))
        with Workbench.open(Path(folder) / "w", clock=clock) as bench:
            book = bench.ledger
            book.add_account("main", "CNY")
            ids: list[str] = []
            for op in ops:
                before = snapshot(book)
                try:
                    apply(book, op, ids)
                except UserError:
                    assert snapshot(book) == before, f"{op} failed but changed the ledger"
                assert_materialised_equals_replay(book, clock.now() + timedelta(0))
