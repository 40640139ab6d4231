"""The one reader of the numbers a person types (money, prices, quantities, rates) and the writer of prices shown.

Plain decimal notation only: digits, at most one '.', an optional leading '-' (where a negative is allowed).
Full-width digits, the full-width point and minus, and thousands separators ("," and "，", in groups of three
after a first group of one to three digits not starting with 0, as in 1,234,567.5) are normalised, and a note says
so: "1,234" is one thousand two hundred and thirty-four, as it is written in China and Hong Kong. Spaces and other
separators inside a number are refused (is "1 000" one number or two?), as are exponents ("1e3": write 1000), NaN
and Infinity, a comma that is not a thousands separator (the decimal comma of "12,5"), negatives where not
allowed, and more decimals than money allows (2), each with the allowed form. A price finer than its tick is
refused by the order rules (`tick_problem`), beside every other problem of the fill, naming the decimals allowed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_FLOOR, Decimal, InvalidOperation

from stockbench.errors import InvalidInput
from stockbench.market.instruments import Instrument
from stockbench.market.tables import RuleTables
from stockbench.market.ticks import tick_size
from stockbench.messages import Note, note, user_error, value_word

MONEY_PLACES = 2
MAX_EXPONENT = 24  # beyond this an exponent's plain form is too long to offer as the fix

_FULL_WIDTH = str.maketrans({**{chr(0xFF10 + d): str(d) for d in range(10)},
                             "．": ".", "－": "-", "−": "-", "＋": "+", "，": ",", "\u3000": " "})  # fmt: skip
_PLAIN = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
_GROUPED = re.compile(r"[+-]?[1-9]\d{0,2}(?:,\d{3})+(?:\.\d*)?")
_EXPONENT = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)[eE][+-]?\d+")
_NOT_FINITE = re.compile(r"[+-]?(?:nan|snan|inf|infinity|∞)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Typed:
    """A number as a person typed it (`typed`), its exact value, and the notes on how it was read."""

    value: Decimal
    typed: str
    notes: tuple[Note, ...] = ()

    @property
    def whole(self) -> int:
        return int(self.value)


def _what(what: str) -> dict[str, str]:
    """`what` (a VALUES key under "number.", or words as they are) in English and Chinese."""
    return {"what": value_word("number", what, "en"), "what_zh": value_word("number", what, "zh")}


def _normalised(text: str, what: str) -> tuple[str, list[str]]:
    """`text` in plain ASCII notation (thousands separators removed), and how it was changed."""
    stripped = text.strip()
    converted = stripped.translate(_FULL_WIDTH).strip()
    changes = ["full_width"] if converted != stripped else []
    if _GROUPED.fullmatch(converted):
        converted = converted.replace(",", "")
        changes.append("grouping")
    return converted, changes


def _refuse(key: str, what: str, **params: object) -> InvalidInput:
    return user_error(InvalidInput, key, **_what(what), **params)


def read_decimal(text: str, what: str, *, negative: bool = False, places: int | None = None) -> Typed:
    """`text` as an exact Decimal, or InvalidInput saying what is wrong and how to write it.

    `what` names the value in the words (a key of VALUES "number.*", e.g. "price", or text such as "--price");
    `places` is the most decimals allowed (None: any).
    """
    plain, changes = _normalised(text, what)
    if not plain:
        raise _refuse("number_empty", what)
    if _NOT_FINITE.fullmatch(plain):
        raise _refuse("number_not_finite", what, typed=text.strip())
    if _EXPONENT.fullmatch(plain):
        exponent = int(re.split("[eE]", plain)[1])
        if abs(exponent) > MAX_EXPONENT:
            raise _refuse("number_exponent.long", what, typed=text.strip())
        raise _refuse("number_exponent", what, typed=text.strip(), plain=_plain_text(Decimal(plain)))
    if not _PLAIN.fullmatch(plain):
        if re.fullmatch(r"[+-]?\d+,\d+", plain):
            raise _refuse("number_decimal_comma", what, typed=text.strip(), fixed=plain.replace(",", "."))
        raise _refuse("number_malformed", what, typed=text.strip())
    try:
        value = Decimal(plain)
    except InvalidOperation:  # the pattern admits only what Decimal reads; kept as a guard, not a path
        raise _refuse("number_malformed", what, typed=text.strip()) from None
    if value < 0 and not negative:
        raise _refuse("number_negative", what, value=_plain_text(value))
    if places is not None and places_of(value) > places:
        raise _refuse("number_places", what, value=_plain_text(value), count=places_of(value), allowed=places,
                      example=_plain_text(value.quantize(Decimal(1).scaleb(-places), ROUND_FLOOR)))  # fmt: skip
    return Typed(value, text, _notes(text, plain, what, changes))


def _notes(text: str, plain: str, what: str, changes: list[str]) -> tuple[Note, ...]:
    if not changes:
        return ()
    how = "; ".join(value_word("normalised", c, "en") for c in changes)
    how_zh = "；".join(value_word("normalised", c, "zh") for c in changes)
    return (note("number.normalised", typed=text.strip(), value=plain, how=how, how_zh=how_zh,
                 **_what(what)),)  # fmt: skip


def read_money(text: str, what: str, *, negative: bool = False) -> Typed:
    """An amount of money: at most two decimals."""
    return read_decimal(text, what, negative=negative, places=MONEY_PLACES)


def read_quantity(text: str, what: str = "quantity") -> Typed:
    """A whole number of shares, zero or more (the ledger checks it against lots and holdings)."""
    found = read_decimal(text, what)
    if found.value != found.value.to_integral_value() or "." in _normalised(text, what)[0]:
        raise _refuse("number_not_whole", what, typed=text.strip())
    return found


def priceplaces_of(instrument: Instrument, price: Decimal, day: date, tables: RuleTables | None = None) -> int:
    """How many decimals the tick at `price` has (0.01 -> 2, 0.005 -> 3, 5 -> 0)."""
    return places_of(tick_size(instrument, price, day, tables))


def shown_price(instrument: Instrument, price: Decimal, day: date, tables: RuleTables | None = None) -> Decimal:
    """`price` as shown: in its tick's decimals (12.5 -> 12.50 for an A-share), never dropping a decimal it has."""
    try:
        places = priceplaces_of(instrument, price, day, tables)
    except InvalidInput:
        places = 0
    return price.quantize(Decimal(1).scaleb(-max(places, places_of(price))))


def price_text(instrument: Instrument, price: Decimal, day: date, tables: RuleTables | None = None) -> str:
    """`shown_price` as text, in plain notation."""
    return _plain_text(shown_price(instrument, price, day, tables))


def places_of(value: Decimal) -> int:
    """The decimals `value` needs (trailing zeros do not count): 12.50 -> 1, 1000 -> 0."""
    exponent = value.normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def _plain_text(value: Decimal) -> str:
    """`value` in plain notation, never an exponent (1E+3 -> 1000)."""
    return format(value, "f")
