"""Checking a fill CSV before importing it: the check writes nothing and returns the file's digest, and an import
given that digest refuses a file changed since (so what is written is exactly what was checked)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from stockbench.errors import InvalidInput
from stockbench.ledger.book import Ledger
from stockbench.ledger.imports import import_fills
from tests.engine.ledger.conftest import snapshot

CSV = "executed_at,symbol,side,qty,price\n2024-01-02 10:00,600519,buy,100,1650\n"


def test_a_check_writes_nothing_and_gives_the_digest(book: Ledger, tmp_path: Path) -> None:
    path = tmp_path / "fills.csv"
    path.write_text(CSV, encoding="utf-8")
    before = snapshot(book)
    checked = import_fills(book, path, "main", dry_run=True)
    assert (checked.rows, len(checked.fills), checked.problems, checked.written) == (1, 1, [], False)
    assert checked.digest == hashlib.sha256(path.read_bytes()).hexdigest()
    assert snapshot(book) == before
    written = import_fills(book, path, "main", expected_digest=checked.digest)
    assert written.written and [p.qty for p in book.positions("main")] == [100]


def test_a_file_changed_after_its_check_is_refused(book: Ledger, tmp_path: Path) -> None:
    path = tmp_path / "fills.csv"
    path.write_text(CSV, encoding="utf-8")
    checked = import_fills(book, path, "main", dry_run=True)
    path.write_text(CSV + "2024-01-02 10:05,600519,buy,100,1650\n", encoding="utf-8")
    before = snapshot(book)
    with pytest.raises(InvalidInput, match=r"fills\.csv changed after it was checked"):
        import_fills(book, path, "main", expected_digest=checked.digest)
    assert snapshot(book) == before
