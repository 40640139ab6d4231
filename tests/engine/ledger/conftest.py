"""A ledger on a real workspace, with a replay clock at a known date (so the trading calendar is known)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, time
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from stockbench.clock import MARKET_TZ, ReplayClock
from stockbench.ledger.book import Ledger
from stockbench.ledger.store import LEDGER_TABLES
from stockbench.ledger.validation import FillDraft
from stockbench.workbench import Workbench

NOW = date(2024, 12, 31)


def cn(day: str, clock: str = "10:00") -> datetime:
    return datetime.combine(date.fromisoformat(day), time.fromisoformat(clock), tzinfo=MARKET_TZ["CN"])


def hk(day: str, clock: str = "10:00") -> datetime:
    return datetime.combine(date.fromisoformat(day), time.fromisoformat(clock), tzinfo=MARKET_TZ["HK"])


def draft(symbol: str, side: str, qty: int, price: str, at: datetime, *, account: str = "main", **kw: Any) -> FillDraft:
    return FillDraft(account, symbol, side, qty, Decimal(price), at, **kw)  # type: ignore[arg-type]


@pytest.fixture
def bench(home: Path) -> Iterator[Workbench]:
    with Workbench.open(home, clock=ReplayClock.as_of(NOW)) as opened:
        yield opened


@pytest.fixture
def book(bench: Workbench) -> Ledger:
    ledger = bench.ledger
    ledger.add_account("main", "CNY")
    ledger.cash("main", "deposit", Decimal("1000000"), at=cn("2023-12-29", "09:00"))
    return ledger


def snapshot(ledger: Ledger) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every ledger table, for byte-for-byte comparisons."""
    return {t: sorted(map(repr, ledger.db.fetchall(f"SELECT * FROM {t}"))) for t in LEDGER_TABLES}  # type: ignore[misc]
