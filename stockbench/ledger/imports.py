"""Importing fills from a CSV file: all or nothing, every problem listed with its row.

The generic format (UTF-8, a header row; GBK files are read too):

    executed_at,symbol,side,qty,price[,fee][,order_id][,note]
    2024-01-02T10:01:00+08:00,600519.SH,buy,100,1650.00,,,
    2024-01-03 10:00,sh600519,sell,50,1700,5.00,,closing half

`executed_at` is an ISO instant (a naive one is read in the exchange's time zone); `symbol` takes any
accepted form; `side` is buy or sell; `fee` is the broker's total (empty: computed from the rules and the
account's terms). Numbers are read as a person types them (`stockbench.market.numbers`: full-width digits and
thousands separators are read and noted per row; exponents and NaN are refused). Rows
are checked in order against the ledger and the rows before them; the file is
written only when every row is valid. A check (`dry_run`) returns the file's digest; passing it back as
`expected_digest` makes the import refuse a file that changed since it was checked.
"""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from stockbench.clock import parse_instant
from stockbench.errors import InvalidInput, Problem
from stockbench.ledger.entries import Account, Fill, FillDraft
from stockbench.market.instruments import parse_symbol
from stockbench.market.numbers import read_decimal, read_money, read_quantity
from stockbench.messages import ERRORS, Note, problem_of, said, user_error

REQUIRED = ("executed_at", "symbol", "side", "qty", "price")
OPTIONAL = ("fee", "order_id", "note")


class FillBook(Protocol):
    """What an import needs of the ledger (`stockbench.ledger.book.Ledger`): check drafts, then record fills."""

    def account(self, name: str) -> Account: ...

    def preview_fills(self, drafts: Sequence[FillDraft]) -> list[tuple[Fill | None, list[Problem]]]: ...

    def record_fills(self, fills: Sequence[Fill]) -> None: ...


@dataclass
class ImportResult:
    rows: int = 0
    fills: list[Fill] = field(default_factory=list)
    problems: list[tuple[int, Problem]] = field(default_factory=list)
    written: bool = False
    digest: str = ""  # SHA-256 of the file's bytes, as checked
    notes: list[tuple[int, Note]] = field(default_factory=list)  # how a row's numbers were read (normalised)


def read_text(path: Path) -> str:
    return _decode(path.read_bytes(), path.name)


def _decode(raw: bytes, name: str) -> str:
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise user_error(InvalidInput, "import_encoding", file=name, gbk="GBK")


def parse_row(row: dict[str, str], account: str) -> FillDraft:
    """One CSV row as a fill draft; raises InvalidInput naming the bad field."""
    return read_row(row, account)[0]


def read_row(row: dict[str, str], account: str) -> tuple[FillDraft, tuple[Note, ...]]:
    """One CSV row as a fill draft, with the notes on how its numbers were read; InvalidInput names a bad field."""
    instrument = parse_symbol(row["symbol"])
    executed = parse_instant(row["executed_at"], instrument.market)
    side = row["side"].strip().lower()
    if side not in {"buy", "sell"}:
        raise user_error(InvalidInput, "import_side", side=row["side"], buy="buy", sell="sell")
    qty = read_quantity(row["qty"] or "", "qty")
    price = read_decimal(row["price"] or "", "price")
    fee_text = (row.get("fee") or "").strip()
    fee = read_money(fee_text, "fee") if fee_text else None
    draft = FillDraft(
        account,
        instrument.symbol,
        side,  # type: ignore[arg-type]
        qty.whole,
        price.value,
        executed,
        None if fee is None else fee.value,
        (row.get("order_id") or "").strip() or None,
        None,
        None,
        (row.get("note") or "").strip(),
    )
    return draft, (*qty.notes, *price.notes, *(fee.notes if fee else ()))


def import_fills(
    ledger: FillBook, path: Path, account: str, *, dry_run: bool = False, expected_digest: str | None = None
) -> ImportResult:
    """Check every row; write all of them (unless `dry_run`) only when there is no problem at all.

    With `expected_digest` (a checked result's `digest`), a file whose bytes changed since is refused.
    """
    ledger.account(account)
    raw = path.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    if expected_digest is not None and digest != expected_digest:
        raise user_error(InvalidInput, "import_changed", file=path.name)
    reader = csv.DictReader(io.StringIO(_decode(raw, path.name)))
    missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
    if missing:
        raise user_error(InvalidInput, "import_fill_columns", file=path.name, missing=", ".join(missing),
                         header="executed_at,symbol,side,qty,price[,fee][,order_id][,note]")  # fmt: skip
    result = ImportResult(digest=digest)
    drafts: list[tuple[int, FillDraft]] = []
    for number, row in enumerate(reader, start=2):
        result.rows += 1
        try:
            draft, notes = read_row(row, account)
        except InvalidInput as error:
            result.problems.append((number, problem_of(error, "bad_row", location=f"row {number}")))
            continue
        drafts.append((number, draft))
        result.notes += [(number, found) for found in notes]
    checked = ledger.preview_fills([d for _, d in drafts])
    for (number, _), (made, problems) in zip(drafts, checked, strict=True):
        result.problems += [(number, _at_row(p, number)) for p in problems]
        if made is not None and not problems:  # a row with a problem is not a fill that would be written
            result.fills.append(made)
    if result.problems or dry_run or not result.fills:
        return result
    ledger.record_fills(result.fills)
    result.written = True
    return result


def _at_row(problem: Problem, number: int) -> Problem:
    """`problem` of the fill on row `number`, said with its row in both languages (its code kept)."""
    (problem_zh, fix_zh), location = said(problem, "zh"), f"row {number}"
    words = {"number": str(number), "problem": problem.message, "problem_zh": problem_zh, "fix": problem.fix,
             "fix_zh": fix_zh}  # fmt: skip
    message, fix = (w.en.format(**words) for w in ERRORS["import_row_problem"])
    return Problem(problem.code, message, fix, location, key="import_row_problem", params=tuple(sorted(words.items())))
