"""Random ledger operations, then a rebuild from the journal into another workspace equals the tables."""

from __future__ import annotations

import contextlib
import tempfile
from datetime import date
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from stockbench.clock import ReplayClock
from stockbench.errors import UserError
from stockbench.workbench import Workbench
from tests.engine.ledger.conftest import snapshot
from tests.engine.ledger.test_ledger_properties import apply, operations


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(ops=operations)
def test_a_rebuild_from_the_journal_equals_the_tables(ops: list[tuple]) -> None:  # type: ignore[type-arg]
    with tempfile.TemporaryDirectory() as folder:
        clock = ReplayClock.as_of(date(2024, 6, 28))
        with Workbench.open(Path(folder) / "a", clock=clock) as bench:
            bench.ledger.add_account("main", "CNY")
            ids: list[str] = []
            for op in ops:
                with contextlib.suppress(UserError):  # refused operations are part of the mix
                    apply(bench.ledger, op, ids)
            original, journal = snapshot(bench.ledger), bench.paths.ledger_journal
        with Workbench.open(Path(folder) / "b", clock=clock) as other:
            other.rebuild_ledger_from_journal(journal)
            assert snapshot(other.ledger) == original
            assert other.paths.ledger_journal.read_bytes() == journal.read_bytes()
