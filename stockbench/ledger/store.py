"""Ledger rows in DuckDB: reading entries back as records, appending new ones, and materialising state.

Only this module touches the ledger tables. Entries are only ever inserted; the derived tables
(ledger_lots, ledger_totals, ledger_cash) are rewritten from a replay in the writer's transaction.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import duckdb

from stockbench.clock import MARKET_TZ
from stockbench.ledger.entries import Account, CashEntry, CorporateAction, Entry, FeeTerms, Fill, Order
from stockbench.ledger.replay import LedgerState
from stockbench.market.instruments import parse_symbol
from stockbench.store.database import Database

LEDGER_TABLES = (
    "accounts",
    "account_fees",
    "cash_entries",
    "fills",
    "orders",
    "order_events",
    "corporate_actions",
    "voids",
    "ledger_lots",
    "ledger_totals",
    "ledger_cash",
)


def aware(value: datetime) -> datetime:
    """A timestamp as DuckDB returns it, with its zone (UTC when it came back naive)."""
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def account_from_row(row: tuple[Any, ...]) -> Account:
    name, currency, markets, created, note = row
    return Account(name, currency, tuple(m for m in markets.split(",") if m), aware(created), note)


def load_accounts(db: Database) -> list[Account]:
    rows = db.fetchall("SELECT name, base_currency, markets, created_at, note FROM accounts ORDER BY name")
    return [account_from_row(r) for r in rows]


def load_fee_terms(db: Database, account: str) -> list[FeeTerms]:
    rows = db.fetchall(
        "SELECT account, market, since, commission_rate, commission_min, bundled_exchange_fees "
        "FROM account_fees WHERE account = ? ORDER BY since",
        [account],
    )
    return [FeeTerms(a, m, aware(s), Decimal(r), Decimal(mn), bool(b)) for a, m, s, r, mn, b in rows]


def _fill(row: tuple[Any, ...]) -> Fill:
    (fid, account, symbol, side, qty, price, currency, at, day, fees, items, source, settle, order, report, note) = row
    return Fill(
        fid,
        account,
        symbol,
        side,
        int(qty),
        Decimal(price),
        currency,
        aware(at),
        day,
        Decimal(fees),
        tuple((k, Decimal(v)) for k, v in json.loads(items).items()),
        source,
        settle,
        order,
        report,
        note,
    )


def _cash(row: tuple[Any, ...]) -> CashEntry:
    eid, account, kind, currency, amount, at, symbol, transfer, fx, note = row
    return CashEntry(
        eid,
        account,
        kind,
        currency,
        Decimal(amount),
        aware(at),
        symbol,
        transfer,
        None if fx is None else Decimal(fx),
        note,
    )


def _action(row: tuple[Any, ...]) -> CorporateAction:
    aid, account, symbol, kind, ex, eff, pay, cps, sps, qty, amount, currency, taxable, note = row
    return CorporateAction(
        aid,
        account,
        symbol,
        kind,
        ex,
        aware(eff),
        pay,
        None if cps is None else Decimal(cps),
        None if sps is None else Decimal(sps),
        None if qty is None else int(qty),
        None if amount is None else Decimal(amount),
        currency,
        bool(taxable),
        note,
    )


_FILL_COLUMNS = (
    "fill_id, account, symbol, side, qty, price, currency, executed_at, trade_date, fees, fee_items, fees_source, "
    "settlement, order_id, report_id, note"
)
_CASH_COLUMNS = "entry_id, account, kind, currency, amount, occurred_at, symbol, transfer_id, fx_rate, note"
_ACTION_COLUMNS = (
    "action_id, account, symbol, kind, ex_date, effective_at, pay_date, cash_per_share, shares_per_share, qty, "
    "amount, currency, taxable, note"
)


def load_entries(db: Database, account: str, *, include_voided: bool = False) -> list[Entry]:
    """Every entry of `account` in recording order (voided ones excluded unless asked for)."""
    void_filter = "" if include_voided else " AND {id} NOT IN (SELECT target_id FROM voids)"
    parts: list[tuple[int, Entry]] = []
    for sql, make, key in (
        (f"SELECT {_FILL_COLUMNS}, seq FROM fills WHERE account = ?", _fill, "fill_id"),
        (f"SELECT {_CASH_COLUMNS}, seq FROM cash_entries WHERE account = ?", _cash, "entry_id"),
        (f"SELECT {_ACTION_COLUMNS}, seq FROM corporate_actions WHERE account = ?", _action, "action_id"),
    ):
        for row in db.fetchall(sql + void_filter.format(id=key), [account]):
            parts.append((int(row[-1]), make(row[:-1])))
    parts.sort(key=lambda pair: pair[0])
    return [entry for _, entry in parts]


def insert_entry(cur: duckdb.DuckDBPyConnection, entry: Entry, recorded_at: datetime) -> None:
    """Append one entry row (inside the caller's transaction)."""
    if isinstance(entry, Fill):
        items = json.dumps({k: format(v, "f") for k, v in entry.fee_items})
        cur.execute(
            f"INSERT INTO fills ({_FILL_COLUMNS}, recorded_at) VALUES ({', '.join('?' * 17)})",
            [
                entry.fill_id, entry.account, entry.symbol, entry.side, entry.qty, entry.price, entry.currency,
                entry.executed_at, entry.trade_date, entry.fees, items, entry.fees_source, entry.settlement,
                entry.order_id, entry.report_id, entry.note, recorded_at,
            ],
        )  # fmt: skip
    elif isinstance(entry, CashEntry):
        cur.execute(
            f"INSERT INTO cash_entries ({_CASH_COLUMNS}, recorded_at) VALUES ({', '.join('?' * 11)})",
            [
                entry.entry_id, entry.account, entry.kind, entry.currency, entry.amount, entry.occurred_at,
                entry.symbol, entry.transfer_id, entry.fx_rate, entry.note, recorded_at,
            ],
        )  # fmt: skip
    else:
        cur.execute(
            f"INSERT INTO corporate_actions ({_ACTION_COLUMNS}, recorded_at) VALUES ({', '.join('?' * 15)})",
            [
                entry.action_id, entry.account, entry.symbol, entry.kind, entry.ex_date, entry.effective,
                entry.pay_date, entry.cash_per_share, entry.shares_per_share, entry.qty, entry.amount,
                entry.currency, entry.taxable, entry.note, recorded_at,
            ],
        )  # fmt: skip


def materialise(cur: duckdb.DuckDBPyConnection, account: str, state: LedgerState) -> None:
    """Replace `account`'s derived rows with `state` (inside the caller's transaction)."""
    for table in ("ledger_lots", "ledger_totals", "ledger_cash"):
        cur.execute(f"DELETE FROM {table} WHERE account = ?", [account])
    lots, totals = [], []
    for holding in state.holdings.values():
        tz = MARKET_TZ[parse_symbol(holding.symbol).market]
        for lot in holding.lots:
            lots.append(
                (account, holding.symbol, lot.lot_id, lot.acquired, lot.acquired.astimezone(tz).date(), lot.t0,
                 lot.qty, lot.cost, lot.taxable)
            )  # fmt: skip
        totals.append(
            (account, holding.symbol, holding.currency, holding.realized_pnl, holding.fees, holding.dividends,
             holding.dividend_tax, holding.net_invested)
        )  # fmt: skip
    _insert_many(cur, "ledger_lots", _LOT_COLUMNS, lots)
    _insert_many(cur, "ledger_totals", _TOTAL_COLUMNS, totals)
    cash = [(account, c, b) for c, b in state.cash.items()]
    _insert_many(cur, "ledger_cash", ("account", "currency", "balance"), cash)


_LOT_COLUMNS = ("account", "symbol", "lot_id", "acquired_at", "acquired_date", "t0", "qty", "cost", "taxable")
_TOTAL_COLUMNS = (
    "account", "symbol", "currency", "realized_pnl", "fees", "dividends", "dividend_tax", "net_invested"
)  # fmt: skip


def _insert_many(
    cur: duckdb.DuckDBPyConnection, table: str, columns: Sequence[str], rows: Sequence[tuple[Any, ...]]
) -> None:
    if not rows:
        return
    names = ", ".join(columns)
    if len(rows) > 500:  # bulk: through Arrow, far faster than executemany
        import pyarrow as pa

        frame = pa.table({name: [row[i] for row in rows] for i, name in enumerate(columns)})
        cur.register("ledger_bulk_rows", frame)
        try:
            cur.execute(f"INSERT INTO {table} ({names}) SELECT {names} FROM ledger_bulk_rows")
        finally:
            cur.unregister("ledger_bulk_rows")
        return
    cur.executemany(f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(columns))})", list(rows))


def load_orders(db: Database, account: str | None = None) -> list[Order]:
    where = "WHERE account = ?" if account else ""
    rows = db.fetchall(
        "SELECT order_id, account, symbol, side, qty, price, placed_at, valid_until, report_id, note "
        f"FROM orders {where} ORDER BY placed_at, order_id",
        [account] if account else None,
    )
    return [
        Order(oid, acc, sym, side, int(q), Decimal(p), aware(at), until, rep, note)
        for oid, acc, sym, side, q, p, at, until, rep, note in rows
    ]
