"""The ledger's text journal: rebuilding the books from it with the database gone, and refusing a tampered line."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from stockbench.clock import ReplayClock
from stockbench.errors import InvalidInput, RuleViolation
from stockbench.ledger.checks import journal_check, ledger_replay_check
from stockbench.ledger.entries import Order
from stockbench.workbench import Workbench
from tests.engine.ledger.conftest import NOW, cn, draft, snapshot


def fill_books(bench: Workbench) -> None:
    book = bench.ledger
    book.add_account("main", "CNY", note="主账户")
    book.cash("main", "deposit", Decimal("500000"), at=cn("2024-01-02", "09:00"))
    book.set_fees("main", "CN", rate=Decimal("0.0002"), minimum=Decimal("5"), bundled=False,
                  since=cn("2024-01-02", "09:10"))  # fmt: skip
    order = book.add_order(Order("", "main", "600519", "buy", 200, Decimal("1650"), cn("2024-01-02", "09:20")))
    book.record_fill(draft("600519", "buy", 100, "1650", cn("2024-01-02", "10:00"), order_id=order.order_id))
    book.record_fill(draft("000001", "buy", 1000, "9.50", cn("2024-01-03", "10:00")))
    book.record_fill(draft("000001", "sell", 500, "9.80", cn("2024-01-04", "10:00")))
    book.dividend("main", "600519", date(2024, 6, 19), Decimal("30.876"))
    book.cancel_order(order.order_id, "changed my mind")
    extra = book.cash("main", "fee", Decimal("12.50"), at=cn("2024-01-05", "16:00"))
    book.void(extra.entry_id, "entered twice")


def test_rebuild_after_the_database_is_deleted_restores_every_table(home: Path) -> None:
    clock = ReplayClock.as_of(NOW)
    with Workbench.open(home, clock=clock) as bench:
        fill_books(bench)
        before, positions, cash = snapshot(bench.ledger), bench.ledger.positions("main"), bench.ledger.balance("main")
        assert journal_check(bench.workspace.db, bench.paths.ledger_journal).status == "ok"
        assert ledger_replay_check(bench.workspace.db).status == "ok"
        database = bench.paths.database
    database.unlink()
    with Workbench.open(home, clock=clock) as bench:
        assert bench.ledger.accounts() == []
        with pytest.raises(InvalidInput, match="out of step"):  # the journal is ahead: writes wait for a rebuild
            bench.ledger.add_account("other", "CNY")
        result = bench.rebuild_ledger_from_journal()
        assert result.as_dict() == {"lines": 12, "accounts": 1, "entries": 6, "orders": 1, "rebuilt": True}
        assert snapshot(bench.ledger) == before
        assert bench.ledger.positions("main") == positions and bench.ledger.balance("main") == cash
        assert journal_check(bench.workspace.db, bench.paths.ledger_journal).status == "ok"
        bench.ledger.cash("main", "deposit", Decimal("1"), at=cn("2024-12-30"))  # writing goes on after it
        assert bench.ledger.history("main")[-1][0].occurred_at == cn("2024-12-30")  # type: ignore[union-attr]


def test_a_tampered_line_is_refused_by_its_number_and_nothing_changes(home: Path) -> None:
    with Workbench.open(home, clock=ReplayClock.as_of(NOW)) as bench:
        fill_books(bench)
        path = bench.paths.ledger_journal
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        lines[4] = lines[4].replace('"qty":200', '"qty":2000')
        path.write_text("".join(lines), encoding="utf-8")
        before = snapshot(bench.ledger)
        with pytest.raises(InvalidInput, match="line 5: its hash does not match"):
            bench.rebuild_ledger_from_journal(yes=True)
        assert snapshot(bench.ledger) == before
        check = journal_check(bench.workspace.db, path)
        assert (check.status, dict(check.params)["line"]) == ("failed", "5")


def test_a_rejected_fill_leaves_the_journal_unchanged_and_writes_only_append(home: Path) -> None:
    with Workbench.open(home, clock=ReplayClock.as_of(NOW)) as bench:
        fill_books(bench)
        path = bench.paths.ledger_journal
        written = path.read_bytes()
        with pytest.raises(RuleViolation):
            bench.ledger.record_fill(draft("600519", "sell", 5000, "1700", cn("2024-01-08")))
        assert path.read_bytes() == written
        bench.ledger.cash("main", "deposit", Decimal("100"), at=cn("2024-01-08"))
        assert path.read_bytes().startswith(written) and len(path.read_bytes()) > len(written)


def test_a_crash_between_the_journal_write_and_the_commit_is_settled_on_open(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from stockbench.ledger import journal

    clock = ReplayClock.as_of(NOW)
    with Workbench.open(home, clock=clock) as bench:
        fill_books(bench)
        path, before = bench.paths.ledger_journal, snapshot(bench.ledger)
        written = path.read_bytes()

        class Crash:
            def prepare(self) -> None:
                raise KeyboardInterrupt  # the process dies after the journal's lines are on disk

            def committed(self) -> None: ...
            def aborted(self) -> None: ...

        original = journal._Batch.prepare

        def then_crash(self: journal._Batch) -> None:
            original(self)
            bench.workspace.db.at_commit(Crash())

        monkeypatch.setattr(journal._Batch, "prepare", then_crash)
        monkeypatch.setattr(journal._Batch, "aborted", lambda self: self.journal.finished())  # no clean-up ran
        with pytest.raises(KeyboardInterrupt):
            bench.ledger.cash("main", "deposit", Decimal("100"), at=cn("2024-01-08"))
        monkeypatch.undo()
        assert snapshot(bench.ledger) == before
        assert len(path.read_bytes()) > len(written)  # the uncommitted line is there until the next open
    with Workbench.open(home, clock=clock) as bench:
        assert path.read_bytes() == written
        assert journal.aborted_lines(path).read_text(encoding="utf-8").count("\n") == 1
        assert journal_check(bench.workspace.db, path).status == "ok"
        bench.ledger.cash("main", "deposit", Decimal("100"), at=cn("2024-01-08"))


def test_a_workspace_without_a_journal_gets_one_started_from_its_tables(home: Path) -> None:
    clock = ReplayClock.as_of(NOW)
    with Workbench.open(home, clock=clock) as bench:
        fill_books(bench)
        path = bench.paths.ledger_journal
    path.unlink()
    with Workbench.open(home, clock=clock) as bench:
        assert journal_check(bench.workspace.db, path).status == "ok"
        started = path.read_bytes()
    with Workbench.open(home, clock=clock):
        assert path.read_bytes() == started  # once
