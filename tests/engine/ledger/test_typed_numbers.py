"""Issue 21: numbers typed at the CLI and in a CSV import are read exactly or refused with the way to write them,
and what the ledger shows is what was typed (a property test over typed forms)."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stockbench.cli.main import run
from stockbench.errors import InvalidInput
from stockbench.ledger.book import Ledger
from stockbench.market.instruments import parse_symbol
from stockbench.market.numbers import price_text, read_decimal, read_money, read_quantity
from tests.engine.ledger.conftest import cn, draft

FILL = ["ledger", "fill", "main", "600519", "--side", "buy", "--at", "2024-01-02T10:00:00+08:00"]
FULL = str.maketrans("0123456789.", "０１２３４５６７８９．")


@pytest.fixture
def call(home: Path, capsys: pytest.CaptureFixture[str]) -> Any:
    def invoke(*args: str, code: int = 0, as_json: bool = True) -> tuple[Any, str]:
        result = run([*(["--json"] if as_json else []), "--as-of", "2024-12-31", *args])
        captured = capsys.readouterr()
        assert result == code, captured.err
        return (json.loads(captured.out) if as_json and captured.out.strip() else captured.out), captured.err

    invoke("ledger", "account", "add", "main", "--currency", "CNY")
    invoke("ledger", "cash", "main", "deposit", "1000000", "--at", "2024-01-02T09:00:00+08:00")
    return invoke


def test_an_exponent_is_refused_with_the_plain_form(call: Any) -> None:
    data, err = call(*FILL, "--qty", "100", "--price", "1e3", code=1)
    assert data["error"]["message"] == "--price '1e3' is written with an exponent"
    assert data["error"]["hint"] == "write 1000"
    _, err = call("--lang", "zh", *FILL, "--qty", "100", "--price", "1e3", code=1, as_json=False)
    assert "错误：--price“1e3”用了科学计数法" in err and "提示：请写成 1000" in err
    assert call("ledger", "history", "main")[0][-1]["kind"] == "deposit", "nothing was written"


@pytest.mark.parametrize("typed", ["NaN", "Infinity", "-inf"])
def test_nan_and_infinity_are_user_errors_with_a_hint(call: Any, typed: str) -> None:
    _, err = call(*FILL, "--qty", "100", "--price", typed, code=1, as_json=False)
    assert f"error: --price '{typed}' is not a finite number" in err
    assert "hint: write an amount in plain digits, e.g. 12.5" in err
    _, err = call("ledger", "cash", "main", "deposit", "--", typed, code=1, as_json=False)
    assert f"error: AMOUNT '{typed}' is not a finite number" in err


def test_full_width_and_grouped_numbers_are_read_and_said_so(call: Any) -> None:
    data, _ = call(*FILL, "--qty", "１００", "--price", "１,６５０")
    assert Decimal(data["price"]) == 1650 and data["qty"] == 100  # JSON keeps the value as stored
    assert data["notes"] == [
        "--qty '１００' was read as 100 (full-width characters made plain)",
        "--price '１,６５０' was read as 1650 (full-width characters made plain; thousands separators removed)",
    ]
    out, err = call("ledger", "cash", "main", "deposit", "1,000.50", as_json=False)
    assert "note: AMOUNT '1,000.50' was read as 1000.50 (thousands separators removed)" in err
    assert "deposit 1000.50 CNY" in out
    _, err = call("--lang", "zh", "ledger", "cash", "main", "deposit", "１０", as_json=False)
    assert "注意：AMOUNT“１０”已按 10 读取（全角字符已转为半角）" in err


def test_prices_are_shown_in_their_ticks_decimals(call: Any) -> None:
    out, _ = call(*FILL, "--qty", "100", "--price", "1650.5", as_json=False)
    assert "@ 1650.50 on 2024-01-02" in out
    shown, _ = call("ledger", "history", "main", as_json=False)
    assert "1650.50" in shown and "1650.5000" not in shown  # people read the tick's decimals
    history, _ = call("ledger", "history", "main")  # the JSON keeps the stored value (old workspaces read the same)
    assert [Decimal(row["price"]) for row in history if row["kind"] == "fill:buy"] == [Decimal("1650.5")]


def test_negative_money_and_too_many_decimals_are_refused(call: Any) -> None:
    _, err = call("ledger", "cash", "main", "withdraw", "--", "-5", code=1, as_json=False)
    assert "error: AMOUNT -5 is negative" in err and "hint: enter zero or more" in err
    _, err = call("ledger", "cash", "main", "deposit", "10.005", code=1, as_json=False)
    assert "error: AMOUNT 10.005 has 3 decimals; at most 2 are allowed" in err
    data, _ = call(*FILL, "--qty", "100", "--price", "1650.001", code=1)
    assert data["problems"][0]["message"].endswith("3 decimals, where its prices have at most 2")
    _, err = call(*FILL, "--qty", "100.5", "--price", "1650", code=1, as_json=False)
    assert "error: --qty '100.5' is not a whole number" in err


def test_the_csv_import_reads_typed_numbers_the_same_way(call: Any, tmp_path: Path) -> None:
    good = tmp_path / "good.csv"
    row = '2024-01-02 10:00,600519,buy,１００,"1,650.5",５.００'
    good.write_text(f"executed_at,symbol,side,qty,price,fee\n{row}\n", encoding="utf-8")
    data, _ = call("ledger", "import", str(good), "main")
    assert (
        data["written"] is True
        and Decimal(data["fills"][0]["price"]) == Decimal("1650.5")
        and data["fills"][0]["fees"] == "5.00"
    )
    assert data["notes"] == [
        "row 2: qty '１００' was read as 100 (full-width characters made plain)",
        "row 2: price '1,650.5' was read as 1650.5 (thousands separators removed)",
        "row 2: fee '５.００' was read as 5.00 (full-width characters made plain)",
    ]
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "executed_at,symbol,side,qty,price,fee\n2024-01-03 10:00,600519,buy,100,1e3,\n"
        "2024-01-03 10:00,600519,buy,100,NaN,\n2024-01-03 10:00,600519,buy,100,1650,5.001\n",
        encoding="utf-8",
    )
    refused, _ = call("ledger", "import", str(bad), "main", code=1)
    assert [(p["location"], p["message"], p["fix"]) for p in refused["problems"]] == [
        ("row 2", "price '1e3' is written with an exponent", "write 1000"),
        ("row 3", "price 'NaN' is not a finite number", "write an amount in plain digits, e.g. 12.5"),
        ("row 4", "fee 5.001 has 3 decimals; at most 2 are allowed", "write at most 2 decimals, e.g. 5.00"),
    ]


# ---- the property: what is shown is what was typed -------------------------------------------------------------
def _grouped(digits: str) -> str:
    head, _, tail = digits.partition(".")
    groups = []
    while len(head) > 3:
        head, groups = head[:-3], [head[-3:], *groups]
    return ",".join([head, *groups]) + (f".{tail}" if tail else "")


FORMS = {
    "plain": lambda text: text,
    "zeros": lambda text: text + ("0" if "." in text else ".00"),
    "full_width": lambda text: text.translate(FULL),
    "grouped": _grouped,
    "exponent": lambda text: f"{Decimal(text):E}",
    "comma": lambda text: text.replace(".", ","),
}


def _expected(form: str, plain: str, whole: bool, places: int | None) -> Decimal | None:
    """What the reader must make of `plain` written in `form`: its value, or None when it must be refused."""
    if form == "exponent" or (whole and form == "zeros"):
        return None
    if form == "comma":  # a decimal comma: refused, unless it reads as a thousands separator (and is noted)
        head, point, tail = plain.partition(".")
        if not point:
            return Decimal(plain)
        grouped = len(tail) == 3 and 1 <= len(head) <= 3 and head[0] != "0"  # 603,135 is a thousands group
        return Decimal(head + tail) if grouped else None
    value = Decimal(plain)
    exponent = value.normalize().as_tuple().exponent
    return None if places is not None and isinstance(exponent, int) and -exponent > places else value


@settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    cents=st.integers(min_value=1, max_value=500_000),
    extra=st.sampled_from(["", "", "", "5"]),  # a half cent: off the tick, must be refused
    lots=st.integers(min_value=1, max_value=30),
    fee_cents=st.integers(min_value=0, max_value=99_999),
    forms=st.tuples(*[st.sampled_from(sorted(FORMS))] * 3),
)
def test_a_fill_shows_exactly_what_was_typed_or_is_refused(
    book: Ledger, *, cents: int, extra: str, lots: int, fee_cents: int, forms: tuple[str, str, str]
) -> None:
    """Typed in any form, a fill is refused, or recorded and shown (price in its tick's decimals, quantity, fee)
    as the typed value read by the documented rule; a number read from a changed form always carries a note."""
    plains = f"{Decimal(cents) / 100:.2f}" + extra, str(lots * 100), f"{Decimal(fee_cents) / 100:.2f}"
    typed = [FORMS[form](plain) for form, plain in zip(forms, plains, strict=True)]
    readers = (
        (lambda t: read_decimal(t, "price")), read_quantity, (lambda t: read_money(t, "fee"))
    )  # fmt: skip
    expected = [_expected(f, p, whole, places) for f, p, whole, places in
                zip(forms, plains, (False, True, False), (None, 0, 2), strict=True)]  # fmt: skip
    read = []
    for reader, text, want in zip(readers, typed, expected, strict=True):
        if want is None:
            with pytest.raises(InvalidInput):
                reader(text)
            continue
        found = reader(text)
        assert found.value == want
        assert bool(found.notes) == (text.strip() != format(found.value, "f")), "a changed form is always noted"
        read.append(found)
    if len(read) < 3:
        return
    price, qty, fee = read
    # enough for the largest price the forms can make (999,995 read as a thousands group) x 3000 shares
    book.cash("main", "deposit", Decimal("10000000000"), at=cn("2024-01-02", "09:00"))
    fill = draft("600519", "buy", qty.whole, format(price.value, "f"), cn("2024-01-02"), fee=fee.value)
    made, problems = book.preview_fill(fill)
    if price.value % Decimal("0.01"):
        assert [p.code for p in problems] == ["price_off_tick"]
        return
    assert made is not None and not problems
    book.record_fill(fill)
    entry, _ = book.history("main")[-1]
    assert isinstance(entry, type(made))
    shown = price_text(parse_symbol("600519"), entry.price, entry.trade_date)
    assert Decimal(shown) == price.value and shown == f"{price.value:.2f}"
    assert entry.qty == qty.whole and entry.fees == fee.value
