"""The Beancount export passes bean-check, and Beancount's balances and positions equal ours; the CSV export."""

from __future__ import annotations

import csv
import subprocess
import sys
from collections import defaultdict
from datetime import date
from decimal import Decimal
from pathlib import Path

from stockbench.ledger.book import Ledger
from stockbench.ledger.exports import commodity, export_beancount, export_csv
from stockbench.market.registry import InstrumentData
from tests.engine.ledger.conftest import cn, draft, hk

D = Decimal
BIN = Path(sys.executable).parent


def busy_books(book: Ledger) -> None:
    book.record_fill(draft("600519", "buy", 200, "1600", cn("2024-01-02")))
    book.record_fill(draft("600519", "buy", 100, "1650.50", cn("2024-01-03", "14:56")))
    book.record_fill(draft("000001", "buy", 1000, "9.45", cn("2024-01-03")))
    book.dividend("main", "600519", date(2024, 1, 10), D("30.876"))
    book.bonus("main", "000001", date(2024, 1, 11), D("0.3"))  # 1000 -> 1300
    book.record_fill(draft("600519", "sell", 200, "1700", cn("2024-01-12")))  # dividend tax at sale
    book.record_fill(draft("000001", "sell", 300, "9.80", cn("2024-01-12")))
    book.cash("main", "interest", D("12.34"), at=cn("2024-03-21", "09:00"))
    voided = book.record_fill(draft("000001", "buy", 100, "9.50", cn("2024-03-22")))
    book.void(voided.fill_id, "test")
    book.add_account("hk", "HKD")
    book.transfer("main", "hk", D("100000"), to_currency="HKD", fx_rate=D("1.0850"), at=cn("2024-01-02", "09:00"))
    book.market.registry.save(InstrumentData("00700.HK", name="Tencent", board_lot=100, source="test"))
    book.record_fill(draft("00700.HK", "buy", 200, "300.20", hk("2024-01-03"), account="hk"))
    book.record_fill(draft("00700.HK", "sell", 100, "310.40", hk("2024-01-03", "15:00"), account="hk"))


def beancount_balances(path: Path) -> dict[str, dict[str, Decimal]]:
    from beancount import loader
    from beancount.core import data

    entries, errors, _ = loader.load_file(str(path))
    assert errors == [], errors
    totals: dict[str, dict[str, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    for entry in entries:
        if isinstance(entry, data.Transaction):
            for posting in entry.postings:
                totals[posting.account][posting.units.currency] += posting.units.number
    return totals


def test_beancount_export_checks_and_balances_match(book: Ledger, tmp_path: Path) -> None:
    busy_books(book)
    for account in ("main", "hk"):
        target = tmp_path / f"{account}.beancount"
        export_beancount(book, account, target)
        check = subprocess.run([str(BIN / "bean-check"), str(target)], capture_output=True, text=True, check=False)
        assert check.returncode == 0, check.stdout + check.stderr
        totals = beancount_balances(target)
        root = f"Assets:Broker:{account.capitalize()}"
        for currency, amount in book.balance(account).items():
            assert totals[f"{root}:Cash:{currency}"][currency] == amount
        for position in book.positions(account):
            name = commodity(position.symbol)
            assert totals[f"{root}:Stock:{name}"][name] == position.qty
    main_positions = {p.symbol: p.qty for p in book.positions("main")}
    assert main_positions == {"000001.SZ": 1000, "600519.SH": 100}


def test_csv_export_lists_every_entry(book: Ledger, tmp_path: Path) -> None:
    busy_books(book)
    target = tmp_path / "main.csv"
    count = export_csv(book, "main", target)
    with target.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == count == len(book.history("main"))
    assert [r["void_reason"] for r in rows if r["voided"]] == ["test"]
    assert {r["kind"] for r in rows} >= {"fill", "deposit", "cash_dividend", "bonus", "interest", "transfer_out"}
