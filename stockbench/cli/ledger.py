"""`stockbench ledger ...`: accounts, cash, fills, positions, voids, orders, corporate actions, import, export."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.cli.output import message
from stockbench.cli.params import DATE, DECIMAL, MONEY, QUANTITY
from stockbench.messages import refusal

if TYPE_CHECKING:
    from stockbench.ledger.book import Ledger
    from stockbench.ledger.entries import Entry, OrderStatus, Position
    from stockbench.ledger.restore import RebuildResult


def _at(text: str | None, market: str = "CN") -> datetime | None:
    from stockbench.clock import parse_instant

    return parse_instant(text, market) if text else None  # type: ignore[arg-type]


def _market_of(symbol: str) -> str:
    from stockbench.market.instruments import parse_symbol

    return parse_symbol(symbol).market


def _ledger(cli: CliContext) -> Ledger:
    return cli.bench().ledger


@click.group()
def ledger() -> None:
    """Your books: accounts, cash, fills, positions (T+1 sellable), orders and corporate actions."""


# ---- accounts ------------------------------------------------------------------------------------
@ledger.group()
def account() -> None:
    """Add and list accounts."""


@account.command("add")
@click.argument("name")
@click.option("--currency", type=click.Choice(["CNY", "HKD"]), required=True, help="Base currency.")
@click.option("--markets", help="Markets traded, comma-separated (default: CN for CNY, HK for HKD).")
@click.option("--commission-rate", type=DECIMAL, help="Broker commission rate, e.g. 0.00025.")
@click.option("--commission-min", type=MONEY, help="Minimum commission per order, e.g. 5.")
@click.option("--bundled/--unbundled", default=None, help="Exchange fees are inside the commission.")
@pass_cli
def account_add(
    cli: CliContext,
    name: str,
    currency: str,
    markets: str | None,
    commission_rate: Decimal | None,
    commission_min: Decimal | None,
    bundled: bool | None,
) -> None:
    """Open an account NAME."""
    chosen = tuple(m.strip().upper() for m in markets.split(",")) if markets else None
    if chosen and not set(chosen) <= {"CN", "HK"}:
        raise click.BadParameter(cli.say("cli.bad_markets"), param_hint="--markets")
    acct = _ledger(cli).add_account(
        name,
        currency,
        markets=chosen,  # type: ignore[arg-type]
        commission_rate=commission_rate,
        commission_min=commission_min,
        bundled_exchange_fees=bundled,
    )
    cli.emit(
        {"account": acct.name, "currency": acct.base_currency, "markets": list(acct.markets)},
        lambda d: cli.say(
            "cli.account.opened", account=d["account"], currency=d["currency"], markets=", ".join(d["markets"])
        ),
    )


@account.command("list")
@pass_cli
def account_list(cli: CliContext) -> None:
    """List the accounts and their cash."""
    book = _ledger(cli)
    rows = [
        {"account": a.name, "currency": a.base_currency, "markets": ",".join(a.markets), "cash": book.balance(a.name)}
        for a in book.accounts()
    ]
    cli.emit({"accounts": rows}, lambda d: cli.table([{**r, "cash": _cash_text(r["cash"])} for r in d["accounts"]],
                                                     ["account", "currency", "markets", "cash"]))  # fmt: skip


def _cash_text(cash: dict[str, Any]) -> str:
    """Cash per currency as people read money ("100000.00 CNY; 5000.00 HKD"), not as a mapping."""
    return "; ".join(f"{_money(amount)} {currency}" for currency, amount in cash.items()) or "-"


def _money(amount: Any) -> str:
    """An amount in its currency's decimals (every currency the ledger keeps counts in cents)."""
    from stockbench.ledger.book import CENT

    return f"{Decimal(str(amount)).quantize(CENT):f}"


# ---- cash ----------------------------------------------------------------------------------------
CASH_KINDS = {"deposit": "deposit", "withdraw": "withdrawal", "withdrawal": "withdrawal", "interest": "interest",
              "fee": "fee", "tax": "tax", "dividend": "dividend"}  # fmt: skip


@ledger.command()
@click.argument("name")
@click.argument("kind", type=click.Choice(sorted(CASH_KINDS)))
@click.argument("amount", type=MONEY)
@click.option("--at", "at_text", metavar="ISO_INSTANT", help="When (default: now).")
@click.option("--currency", help="Currency (default: the account's base currency).")
@click.option("--symbol", help="The instrument a dividend, fee or tax belongs to.")
@click.option("--note", default="", help="A note kept with the entry.")
@pass_cli
def cash(
    cli: CliContext,
    name: str,
    kind: str,
    amount: Decimal,
    at_text: str | None,
    currency: str | None,
    symbol: str | None,
    note: str,
) -> None:
    """Record cash: deposit, withdraw, interest, fee, tax or dividend AMOUNT (positive)."""
    entry = _ledger(cli).cash(
        name,
        CASH_KINDS[kind],  # type: ignore[arg-type]
        amount,
        at=_at(at_text),
        currency=currency,
        symbol=symbol,
        note=note,
    )
    cli.emit(
        {"entry_id": entry.entry_id, "kind": entry.kind, "amount": entry.amount, "currency": entry.currency,
         "at": entry.occurred_at.astimezone(UTC), "balance": _ledger(cli).balance(name)},
        lambda d: cli.say("cli.cash.recorded", entry_id=d["entry_id"], kind=cli.word("cash_kind", d["kind"]),
                          amount=d["amount"], currency=d["currency"],
                          at=cli.moment(entry.occurred_at, symbol=entry.symbol, currency=entry.currency)),
    )  # fmt: skip


@ledger.command()
@click.argument("source")
@click.argument("target")
@click.argument("amount", type=MONEY)
@click.option("--currency", help="Currency leaving SOURCE (default: its base currency).")
@click.option("--to-currency", help="Currency arriving in TARGET, when different.")
@click.option("--fx-rate", type=DECIMAL, help="Units of the target currency per unit of the source currency.")
@click.option("--at", "at_text", metavar="ISO_INSTANT", help="When (exchange time if naive; default: now).")
@pass_cli
def transfer(
    cli: CliContext,
    source: str,
    target: str,
    amount: Decimal,
    currency: str | None,
    to_currency: str | None,
    fx_rate: Decimal | None,
    at_text: str | None,
) -> None:
    """Move cash between two accounts (with an FX rate when the currencies differ)."""
    out, into = _ledger(cli).transfer(
        source, target, amount, currency=currency, to_currency=to_currency, fx_rate=fx_rate, at=_at(at_text)
    )
    cli.emit(
        {"out": out.entry_id, "in": into.entry_id, "sent": -out.amount, "received": into.amount,
         "currency": out.currency, "to_currency": into.currency},
        lambda d: cli.say("cli.transfer.done", sent=d["sent"], currency=d["currency"], received=d["received"],
                          to_currency=d["to_currency"]),
    )  # fmt: skip


# ---- fills ---------------------------------------------------------------------------------------
@ledger.command()
@click.argument("name")
@click.argument("symbol")
@click.option("--side", type=click.Choice(["buy", "sell"]), required=True, help="Buy or sell.")
@click.option("--qty", type=QUANTITY, required=True, help="Shares.")
@click.option("--price", type=DECIMAL, required=True, help="The price per share it was done at.")
@click.option("--at", "at_text", required=True, metavar="ISO_INSTANT", help="Execution time (exchange time if naive).")
@click.option("--fee", type=MONEY, help="The broker's total fees (default: computed from the rules and your terms).")
@click.option("--order", "order_id", help="The order this fill executed.")
@click.option("--report", "report_id", help="The report that proposed it.")
@click.option("--ref", type=DECIMAL, help="The day's reference price, to check the price limits.")
@click.option("--note", default="", help="A note kept with the fill.")
@click.option("--dry-run", is_flag=True, help="Check and show the fill without recording it.")
@pass_cli
def fill(
    cli: CliContext,
    name: str,
    symbol: str,
    side: str,
    qty: int,
    price: Decimal,
    at_text: str,
    fee: Decimal | None,
    order_id: str | None,
    report_id: str | None,
    ref: Decimal | None,
    note: str,
    dry_run: bool,
) -> None:
    """Record a fill; every problem is listed and nothing is written if any is found."""
    from stockbench.ledger.entries import FillDraft

    executed = _at(at_text, _market_of(symbol))
    assert executed is not None
    draft = FillDraft(name, symbol, side, qty, price, executed, fee, order_id, report_id, ref, note)  # type: ignore[arg-type]
    book = _ledger(cli)
    if dry_run:
        found, problems = book.preview_fill(draft)
        if problems:
            raise refusal("fill_rejected", problems)
        assert found is not None
        cli.emit(
            {"valid": True, "fill": _fill_data(found)},
            lambda d: cli.say("cli.fill.valid", fill=_fill_line(cli, d["fill"])),
        )
        return
    recorded = book.record_fill(draft)
    data = {"fill_id": recorded.fill_id, **_fill_data(recorded)}
    cli.emit(data, lambda d: cli.say("cli.fill.recorded", fill_id=d["fill_id"], fill=_fill_line(cli, d)))


def _shown(symbol: str, price: Decimal | None, at: datetime | date) -> Decimal | None:
    """A price in its tick's decimals, as people read it (the JSON keeps the stored value: a public contract that
    old workspaces are checked against)."""
    from stockbench.market.instruments import parse_symbol
    from stockbench.market.numbers import shown_price

    if price is None:
        return None
    day = at.date() if isinstance(at, datetime) else at
    return shown_price(parse_symbol(symbol), price, day)


def _people(row: dict[str, Any]) -> dict[str, Any]:
    """`row` as the human output shows it: a fill's or an order's price in its tick's decimals."""
    if row.get("price") is None or not row.get("symbol"):
        return row
    if row.get("trade_date") is not None:  # a fill
        at = row["trade_date"]
    elif row.get("placed_at") is not None:  # an order
        at = row["placed_at"]
    elif str(row.get("kind", "")).startswith("fill:"):  # a fill in the history
        at = row["at"]
    else:  # a corporate action's cash per share is not a price
        return row
    return {**row, "price": _shown(str(row["symbol"]), row["price"], at)}


def _fill_data(f: Any) -> dict[str, Any]:
    return {"account": f.account, "symbol": f.symbol, "side": f.side, "qty": f.qty, "price": f.price,
            "executed_at": f.executed_at, "trade_date": f.trade_date, "fees": f.fees,
            "fee_items": dict(f.fee_items), "settlement": f.settlement, "order_id": f.order_id}  # fmt: skip


def _fill_line(cli: CliContext, d: dict[str, Any]) -> str:
    d = _people(d)
    return cli.say(
        "cli.fill.line",
        side=cli.word("side", d["side"]),
        qty=d["qty"],
        symbol=d["symbol"],
        price=d["price"],
        trade_date=d["trade_date"],
        fees=d["fees"],
    )


# ---- reads ---------------------------------------------------------------------------------------
def _positions_data(positions: list[Position]) -> list[dict[str, Any]]:
    return [
        {"symbol": p.symbol, "qty": str(p.qty), "sellable": str(p.sellable), "avg_cost": p.avg_cost,
         "diluted_cost": p.diluted_cost, "realized_pnl": p.realized_pnl, "unrealized_pnl": p.unrealized_pnl,
         "market_value": p.market_value, "price": p.price, "cost": p.cost, "currency": p.currency, "fees": p.fees,
         "dividends": p.dividends, "dividend_tax": p.dividend_tax}
        for p in positions
    ]  # fmt: skip


@ledger.command()
@click.argument("name")
@click.option("--at", "at_text", metavar="ISO_INSTANT", help="Positions as they stood at this instant.")
@click.option("--price", "prices", multiple=True, metavar="SYMBOL=P", help="Value a holding at P (repeatable).")
@click.option("--all", "show_all", is_flag=True, help="Include closed positions (realized P&L only).")
@pass_cli
def positions(cli: CliContext, name: str, at_text: str | None, prices: tuple[str, ...], show_all: bool) -> None:
    """Holdings: quantity, T+1 sellable, average and diluted cost, realized and unrealized P&L."""
    from stockbench.market.instruments import canonical

    given: dict[str, Decimal] = {}
    for item in prices:
        symbol, _, value = item.partition("=")
        if not value:
            raise click.BadParameter(cli.say("cli.bad_price_pair", item=item), param_hint="--price")
        given[canonical(symbol)] = DECIMAL.convert(value, None, None)
    found = cli.bench().ledger.positions(name, _at(at_text), given)
    rows = _positions_data([p for p in found if show_all or p.qty])
    columns = ["symbol", "qty", "sellable", "avg_cost", "diluted_cost", "realized_pnl", "unrealized_pnl"]
    cli.emit(rows, lambda d: cli.table(d, columns))


@ledger.command()
@click.argument("name")
@click.option(
    "--at",
    "at_text",
    metavar="ISO_INSTANT",
    help="The balance as it stood then (exchange time if naive; default: now).",
)
@pass_cli
def balance(cli: CliContext, name: str, at_text: str | None) -> None:
    """Cash per currency."""
    found = _ledger(cli).balance(name, _at(at_text))
    cli.emit(found, lambda d: "\n".join(f"{c} {v}" for c, v in d.items()) or cli.say("cli.balance.none"))


@ledger.command()
@click.argument("entry_id")
@click.option("--reason", required=True, help="Why the entry is void (kept in history).")
@pass_cli
def void(cli: CliContext, entry_id: str, reason: str) -> None:
    """Void a fill, cash entry or corporate action; history keeps both."""
    _ledger(cli).void(entry_id, reason)
    cli.emit(
        {"voided": entry_id, "reason": reason},
        lambda d: cli.say("cli.void.done", voided=d["voided"], reason=d["reason"]),
    )


def _entry_data(entry: Entry, void_reason: str | None) -> dict[str, Any]:
    from stockbench.ledger.entries import CashEntry, Fill
    from stockbench.ledger.replay import entry_id

    base: dict[str, Any] = {"id": entry_id(entry), "voided": void_reason is not None, "void_reason": void_reason}
    if isinstance(entry, Fill):
        return {**base, "kind": f"fill:{entry.side}", "at": entry.executed_at, "symbol": entry.symbol,
                "qty": entry.qty, "price": entry.price, "amount": entry.amount,
                "fees": entry.fees}  # fmt: skip
    if isinstance(entry, CashEntry):
        return {**base, "kind": entry.kind, "at": entry.occurred_at, "symbol": entry.symbol, "qty": None,
                "price": None, "amount": entry.amount, "currency": entry.currency, "fees": None}  # fmt: skip
    return {**base, "kind": entry.kind, "at": entry.effective, "symbol": entry.symbol, "qty": entry.qty,
            "price": entry.cash_per_share, "amount": entry.amount, "fees": None}  # fmt: skip


@ledger.command()
@click.argument("name")
@pass_cli
def history(cli: CliContext, name: str) -> None:
    """Every entry of an account, voided ones included."""
    rows = [_entry_data(e, reason) for e, reason in _ledger(cli).history(name)]
    columns = ["id", "kind", "at", "symbol", "qty", "price", "amount", "voided"]
    cli.emit(rows, lambda d: cli.table([_history_row(cli, r) for r in d], columns))


def _history_row(cli: CliContext, row: dict[str, Any]) -> dict[str, Any]:
    """An entry of the history as people read it: its kind in words, its price in its tick's decimals and its time
    in the exchange's zone, named (the JSON keeps the UTC instant)."""
    at = row["at"]
    if isinstance(at, datetime):
        at = cli.moment(at, symbol=row.get("symbol"), currency=row.get("currency"))
    amount = row.get("amount")
    shown = _money(amount) if amount is not None else amount
    return {**_people(row), "kind": _kind_word(cli, row["kind"]), "at": at, "amount": shown}


def _kind_word(cli: CliContext, kind: str) -> str:
    """The word of an entry's kind in the history: a fill's side, a cash kind or a corporate action's kind."""
    for family in ("entry_kind", "cash_kind", "action_kind"):
        if (word := cli.word(family, kind)) != kind:
            return word
    return kind


# ---- orders --------------------------------------------------------------------------------------
@ledger.group()
def order() -> None:
    """Orders placed at the broker (or planned). Orders never change holdings."""


def _order_data(s: OrderStatus) -> dict[str, Any]:
    o = s.order
    return {"order_id": o.order_id, "account": o.account, "symbol": o.symbol, "side": o.side, "qty": o.qty,
            "price": o.price, "placed_at": o.placed_at, "valid_until": o.valid_until,
            "status": s.status,
            "filled": s.filled, "report_id": o.report_id}  # fmt: skip


@order.command("add")
@click.argument("name")
@click.argument("symbol")
@click.option("--side", type=click.Choice(["buy", "sell"]), required=True, help="Buy or sell.")
@click.option("--qty", type=QUANTITY, required=True, help="Shares.")
@click.option("--price", type=DECIMAL, required=True, help="The limit price.")
@click.option("--valid-until", type=DATE, help="Last session the order is good for.")
@click.option("--report", "report_id", help="The report that proposed it.")
@click.option("--at", "at_text", metavar="ISO_INSTANT", help="When it was placed (default: now).")
@click.option("--note", default="", help="A note kept with the order.")
@pass_cli
def order_add(
    cli: CliContext,
    name: str,
    symbol: str,
    side: str,
    qty: int,
    price: Decimal,
    valid_until: date | None,
    report_id: str | None,
    at_text: str | None,
    note: str,
) -> None:
    """Record an order."""
    from stockbench.ledger.entries import Order

    book = _ledger(cli)
    placed = _at(at_text, _market_of(symbol)) or book.clock.now()
    made = book.add_order(Order("", name, symbol, side, qty, price, placed, valid_until, report_id, note))  # type: ignore[arg-type]
    status = next(s for s in book.orders(name) if s.order.order_id == made.order_id)
    cli.emit(
        _order_data(status),
        lambda d: cli.say(
            "cli.order.added",
            order_id=d["order_id"],
            side=cli.word("side", d["side"]),
            qty=d["qty"],
            symbol=d["symbol"],
            price=_people(d)["price"],
        ),
    )


@order.command("list")
@click.argument("name", required=False)
@click.option(
    "--status",
    type=click.Choice(["open", "partially_filled", "filled", "cancelled", "expired"]),
    help="Only the orders in this status.",
)
@pass_cli
def order_list(cli: CliContext, name: str | None, status: str | None) -> None:
    """List orders with their status (derived from fills and events)."""
    rows = [_order_data(s) for s in _ledger(cli).orders(name) if status is None or s.status == status]
    columns = ["order_id", "account", "symbol", "side", "qty", "price", "status", "filled"]
    kinds = {"side": "side", "status": "order_status"}
    cli.emit(rows, lambda d: cli.table([_people(r) for r in d], columns, kinds))


@order.command("cancel")
@click.argument("order_id")
@click.option("--reason", default="", help="Why it is cancelled (kept with the order).")
@pass_cli
def order_cancel(cli: CliContext, order_id: str, reason: str) -> None:
    """Mark an order cancelled."""
    status = _ledger(cli).cancel_order(order_id, reason)
    cli.emit(
        _order_data(status),
        lambda d: cli.say("cli.order.status", order_id=d["order_id"], status=cli.word("order_status", d["status"])),
    )


# ---- corporate actions ---------------------------------------------------------------------------
@ledger.group()
def action() -> None:
    """Corporate actions on a holding: cash dividends, bonus shares, capitalisation shares, splits."""


@action.command("dividend")
@click.argument("name")
@click.argument("symbol")
@click.option(
    "--ex-date", type=DATE, required=True, help="The ex-dividend date: the holding of the session before it is paid."
)
@click.option("--per-share", type=DECIMAL, required=True, help="Cash per share (before tax).")
@click.option("--pay-date", type=DATE, help="The day the cash is paid (kept with the action).")
@click.option("--amount", type=MONEY, help="The broker's credited amount, if it differs from qty x per-share.")
@pass_cli
def action_dividend(
    cli: CliContext,
    name: str,
    symbol: str,
    ex_date: date,
    per_share: Decimal,
    pay_date: date | None,
    amount: Decimal | None,
) -> None:
    """A cash dividend on the holding at the record date."""
    made = _ledger(cli).dividend(name, symbol, ex_date, per_share, pay_date=pay_date, amount=amount)
    cli.emit(
        {"action_id": made.action_id, "symbol": made.symbol, "amount": made.amount, "taxable": made.taxable},
        lambda d: cli.say("cli.action.dividend", action_id=d["action_id"], amount=d["amount"], symbol=d["symbol"]),
    )


@action.command("bonus")
@click.argument("name")
@click.argument("symbol")
@click.option(
    "--ex-date",
    type=DATE,
    required=True,
    help="The ex-rights date: the holding of the session before it receives the shares.",
)
@click.option("--ratio", type=DECIMAL, required=True, help="Shares per share held: 0.3 for 10送3.")
@click.option(
    "--kind",
    type=click.Choice(["bonus", "capitalization", "split"]),
    default="bonus",
    show_default=True,
    help="Bonus shares, a capitalization issue or a split.",
)
@click.option("--qty", type=int, help="Shares credited by the broker (default: floor(holding x ratio)).")
@pass_cli
def action_bonus(
    cli: CliContext, name: str, symbol: str, ex_date: date, ratio: Decimal, kind: str, qty: int | None
) -> None:
    """Bonus shares (送股), capitalisation shares (转增) or a split."""
    made = _ledger(cli).bonus(name, symbol, ex_date, ratio, kind=kind, qty=qty)  # type: ignore[arg-type]
    cli.emit(
        {"action_id": made.action_id, "symbol": made.symbol, "qty": made.qty, "kind": made.kind},
        lambda d: cli.say(
            "cli.action.shares",
            action_id=d["action_id"],
            kind=cli.word("action_kind", d["kind"]),
            qty=d["qty"],
            symbol=d["symbol"],
        ),
    )


# ---- import / export -----------------------------------------------------------------------------
@ledger.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("name")
@click.option("--dry-run", is_flag=True, help="Show what would be written and every problem; write nothing.")
@pass_cli
def import_fills(cli: CliContext, file: Path, name: str, dry_run: bool) -> None:
    """Import fills from a CSV (see README: executed_at,symbol,side,qty,price[,fee][,order_id][,note])."""
    result = _ledger(cli).import_fills(file, name, dry_run=dry_run)
    if result.problems:
        raise refusal("import_not_written", [p for _, p in result.problems], count=len(result.problems),
                      file=file.name)  # fmt: skip
    notes = [
        cli.say("cli.import.row_note", number=number, text=found.text(cli.language)) for number, found in result.notes
    ]
    data = {"rows": result.rows, "valid": True, "written": result.written,
            "fills": [_fill_data(f) for f in result.fills], "problems": [], "notes": notes}  # fmt: skip
    message(cli.say("cli.import.would_write" if dry_run else "cli.import.wrote", count=len(result.fills)))
    for line in notes:
        cli.note_line(line)
    columns = ["symbol", "side", "qty", "price", "trade_date", "fees"]
    cli.emit(data, lambda d: cli.table([_people(r) for r in d["fills"]], columns, {"side": "side"}))


@ledger.command("export")
@click.argument("name")
@click.option(
    "--format", "fmt", type=click.Choice(["csv", "beancount"]), required=True, help="CSV, or a Beancount ledger."
)
@click.option(
    "--to", "target", type=click.Path(dir_okay=False, path_type=Path), required=True, help="The file to write."
)
@pass_cli
def export(cli: CliContext, name: str, fmt: str, target: Path) -> None:
    """Export an account's entries to CSV or to a Beancount ledger."""
    book = _ledger(cli)
    count = book.export_csv(name, target) if fmt == "csv" else book.export_beancount(name, target)
    cli.emit(
        {"path": target, "entries": count, "format": fmt},
        lambda d: cli.say("cli.export.wrote", entries=d["entries"], path=d["path"]),
    )


# ---- the journal -----------------------------------------------------------------------------------------------
@ledger.command("rebuild")
@click.option("--from-journal", "from_journal", is_flag=True, help="Rebuild the ledger tables from the journal.")
@click.option(
    "--journal",
    "journal",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The journal file to rebuild from (default: the workspace's ledger-journal.jsonl).",
)
@click.option("--yes", is_flag=True, help="Replace a ledger that already holds rows.")
@pass_cli
def rebuild(cli: CliContext, from_journal: bool, journal: Path | None, yes: bool) -> None:
    """Restore the ledger exactly from its journal (even with the database file gone): the whole chain is
    verified first, then every table is replaced and replayed in one transaction."""
    if not from_journal:
        raise click.UsageError(cli.say("cli.rebuild_from"))
    result = cli.bench().rebuild_ledger_from_journal(journal, yes=yes)
    cli.emit(result, lambda d: _rebuilt_words(cli, result, d))


def _rebuilt_words(cli: CliContext, result: RebuildResult, data: dict[str, Any]) -> str:
    from stockbench.messages import note, value_word

    counts = {k: v for k, v in data.items() if k != "rebuilt"}
    lines = [note("journal.rebuilt", **counts).text(cli.language)]
    for kind, count in result.kinds:
        name, name_zh = value_word("journal_kind", kind, "en"), value_word("journal_kind", kind, "zh")
        lines.append(note("journal.kind_count", kind=name, kind_zh=name_zh, count=count).text(cli.language))
    return "\n".join(lines)
