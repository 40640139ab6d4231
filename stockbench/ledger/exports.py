"""Exports of an account: a CSV of every entry, and a Beancount ledger that `bean-check` accepts.

In Beancount, shares are commodities named like `SH600519` held at cost (FIFO booking); fees, taxes and
dividends get their own accounts; realized gains are interpolated by Beancount itself. Bonus shares enter
as a zero-cost lot, so quantities and cash match ours exactly while Beancount's FIFO may attribute later
gains across lots differently from our proportional allocation.
"""

from __future__ import annotations

import csv
import hashlib
import re
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Protocol

from stockbench.ledger.entries import Account, CashEntry, CorporateAction, Entry, Fill
from stockbench.ledger.replay import entry_id, ordered, replay

CSV_COLUMNS = ["id", "kind", "at", "account", "symbol", "side", "qty", "price", "amount", "currency", "fees", "voided",
               "void_reason", "note"]  # fmt: skip
OPEN_DATE = date(1990, 1, 1)


class History(Protocol):
    """What an export reads of the ledger (`stockbench.ledger.book.Ledger`)."""

    def account(self, name: str) -> Account: ...

    def history(self, account: str) -> list[tuple[Entry, str | None]]: ...


def export_csv(ledger: History, account: str, target: Path) -> int:
    """Every entry of `account` (voided ones flagged) as CSV; returns the number of rows."""
    rows = ledger.history(account)
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(CSV_COLUMNS)
        for entry, reason in rows:
            writer.writerow(_csv_row(entry, reason))
    return len(rows)


def _csv_row(entry: Fill | CashEntry | CorporateAction, reason: str | None) -> list[str]:
    def text(value: object) -> str:
        return "" if value is None else (format(value, "f") if isinstance(value, Decimal) else str(value))

    voided = ["yes" if reason is not None else "", reason or ""]
    if isinstance(entry, Fill):
        values = [entry.fill_id, "fill", entry.executed_at.isoformat(), entry.account, entry.symbol, entry.side,
                  entry.qty, entry.price, entry.amount, entry.currency, entry.fees, *voided, entry.note]  # fmt: skip
    elif isinstance(entry, CashEntry):
        values = [entry.entry_id, entry.kind, entry.occurred_at.isoformat(), entry.account, entry.symbol, "", "",
                  "", entry.amount, entry.currency, "", *voided, entry.note]  # fmt: skip
    else:
        values = [entry.action_id, entry.kind, entry.effective.isoformat(), entry.account, entry.symbol, "",
                  entry.qty, entry.cash_per_share or entry.shares_per_share, entry.amount, entry.currency, "",
                  *voided, entry.note]  # fmt: skip
    return [text(v) for v in values]


def commodity(symbol: str) -> str:
    """A Beancount commodity name for a canonical symbol: 600519.SH -> SH600519, 00700.HK -> HK00700."""
    code, _, exchange = symbol.partition(".")
    return re.sub(r"[^A-Z0-9]", "", f"{exchange}{code}".upper())


def account_root(name: str) -> str:
    """A Beancount account component for a ledger account name (ASCII, capitalised, stable)."""
    slug = re.sub(r"[^A-Za-z0-9-]", "", name.replace(" ", "-"))
    if not slug or not slug[0].isalpha():
        slug = "A" + hashlib.sha256(name.encode()).hexdigest()[:8].upper() + slug
    return slug[0].upper() + slug[1:]


def _money(value: Decimal, currency: str) -> str:
    return f"{value:.4f} {currency}"


def export_beancount(ledger: History, account: str, target: Path) -> int:
    """Write `account` as a Beancount file; returns the number of transactions."""
    acct = ledger.account(account)
    root, tag = f"Assets:Broker:{account_root(acct.name)}", account_root(acct.name)
    entries = ordered(e for e, reason in ledger.history(account) if reason is None)
    sells = replay(entries).sells
    currencies = sorted({acct.base_currency} | {e.currency for e in entries})
    symbols = sorted({e.symbol for e in entries if isinstance(e, Fill | CorporateAction)})
    lines = [
        f'option "title" "Stock Workbench: {acct.name}"',
        f'option "operating_currency" "{acct.base_currency}"',
        'option "booking_method" "FIFO"',
        "",
        *(f"{OPEN_DATE} open {root}:Cash:{ccy} {ccy}" for ccy in currencies),
    ]
    for symbol in symbols:
        lines.append(f"{OPEN_DATE} commodity {commodity(symbol)}")
        lines.append(f'{OPEN_DATE} open {root}:Stock:{commodity(symbol)} {commodity(symbol)} "FIFO"')
    for name in ("Equity:Deposits", "Equity:Transfers", "Equity:CorporateActions", f"Income:{tag}:PnL",
                 f"Income:{tag}:Dividends", f"Income:{tag}:Interest", f"Expenses:{tag}:Fees",
                 f"Expenses:{tag}:Taxes"):  # fmt: skip
        lines.append(f"{OPEN_DATE} open {name}")
    for entry in entries:
        lines += ["", *_transaction(entry, root, tag, sells)]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(entries)


def _day(entry: Fill | CashEntry | CorporateAction) -> date:
    if isinstance(entry, Fill):
        return entry.trade_date
    if isinstance(entry, CashEntry):
        return entry.occurred_at.date()
    return entry.ex_date


def _transaction(
    entry: Fill | CashEntry | CorporateAction, root: str, tag: str, sells: dict[str, tuple[Decimal, Decimal]]
) -> list[str]:
    head = f'{_day(entry)} * "{entry_id(entry)}"'
    if isinstance(entry, Fill):
        stock = f"{root}:Stock:{commodity(entry.symbol)}"
        cash, fees = f"{root}:Cash:{entry.currency}", f"Expenses:{tag}:Fees"
        if entry.side == "buy":
            return [
                f'{head} "buy {entry.qty} {entry.symbol} @ {entry.price}"',
                f"  {stock}  {entry.qty} {commodity(entry.symbol)} {{{entry.price} {entry.currency}}}",
                f"  {fees}  {_money(entry.fees, entry.currency)}",
                f"  {cash}  {_money(-(entry.amount + entry.fees), entry.currency)}",
            ]
        tax = sells.get(entry.fill_id, (Decimal(0), Decimal(0)))[1]
        lines = [
            f'{head} "sell {entry.qty} {entry.symbol} @ {entry.price}"',
            f"  {stock}  -{entry.qty} {commodity(entry.symbol)} {{}} @ {entry.price} {entry.currency}",
            f"  {fees}  {_money(entry.fees, entry.currency)}",
            f"  {cash}  {_money(entry.amount - entry.fees - tax, entry.currency)}",
            f"  Income:{tag}:PnL",
        ]
        if tax:
            lines.insert(3, f"  Expenses:{tag}:Taxes  {_money(tax, entry.currency)}")
        return lines
    if isinstance(entry, CashEntry):
        other = {
            "deposit": "Equity:Deposits", "withdrawal": "Equity:Deposits", "transfer_in": "Equity:Transfers",
            "transfer_out": "Equity:Transfers", "dividend": f"Income:{tag}:Dividends",
            "interest": f"Income:{tag}:Interest", "fee": f"Expenses:{tag}:Fees", "tax": f"Expenses:{tag}:Taxes",
        }[entry.kind]  # fmt: skip
        return [
            f'{head} "{entry.kind}{" " + entry.symbol if entry.symbol else ""}"',
            f"  {root}:Cash:{entry.currency}  {_money(entry.amount, entry.currency)}",
            f"  {other}  {_money(-entry.amount, entry.currency)}",
        ]
    if entry.kind == "cash_dividend":
        amount = entry.amount or Decimal(0)
        return [
            f'{head} "dividend {entry.symbol} {entry.cash_per_share} per share"',
            f"  {root}:Cash:{entry.currency}  {_money(amount, entry.currency)}",
            f"  Income:{tag}:Dividends  {_money(-amount, entry.currency)}",
        ]
    return [
        f'{head} "{entry.kind} {entry.symbol} {entry.shares_per_share} per share"',
        f"  {root}:Stock:{commodity(entry.symbol)}  {entry.qty} {commodity(entry.symbol)} {{0 {entry.currency}}}",
    ]
