"""Instrument identity: every accepted way of writing a symbol, normalised to one canonical form.

Canonical symbols are `CODE.EXCHANGE`: `600519.SH`, `000001.SZ`, `920118.BJ`, `00700.HK`, `AAPL.US`.
A bare six-digit code maps to its exchange by prefix; the one real ambiguity (`000xxx` is both a Shenzhen
stock and a Shanghai index) resolves to the stock and says so. What the code alone cannot tell (a Hong
Kong board lot, a fund's kind, a name, a listing date) comes from instrument data in the workspace.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date
from enum import StrEnum

from stockbench.clock import Market
from stockbench.errors import InvalidInput
from stockbench.messages import Note, note, user_error


class Exchange(StrEnum):
    SH = "SH"
    SZ = "SZ"
    BJ = "BJ"
    HK = "HK"
    US = "US"


class Board(StrEnum):
    MAIN = "main"  # Shanghai or Shenzhen main board
    CHINEXT = "chinext"  # Shenzhen 300/301
    STAR = "star"  # Shanghai 688/689
    BSE = "bse"  # Beijing Stock Exchange (and its NEEQ predecessors' codes)
    HK_MAIN = "hk_main"
    HK_GEM = "hk_gem"  # Hong Kong GEM, 08xxx
    US = "us"


class SecurityType(StrEnum):
    STOCK = "stock"
    FUND = "fund"  # exchange-traded funds and listed funds
    INDEX = "index"


class FundKind(StrEnum):
    """Kinds of exchange funds; some are T+0 (see the settlement rules)."""

    EQUITY = "equity"
    CROSS_BORDER = "cross_border"
    BOND = "bond"
    GOLD = "gold"
    MONEY_MARKET = "money_market"
    COMMODITY = "commodity"


EXCHANGE_MARKET: dict[Exchange, Market] = {
    Exchange.SH: "CN",
    Exchange.SZ: "CN",
    Exchange.BJ: "CN",
    Exchange.HK: "HK",
    Exchange.US: "US",
}
EXCHANGE_CURRENCY = {
    Exchange.SH: "CNY",
    Exchange.SZ: "CNY",
    Exchange.BJ: "CNY",
    Exchange.HK: "HKD",
    Exchange.US: "USD",
}


@dataclass(frozen=True, slots=True)
class Instrument:
    """A tradable (or index) instrument. Fields beyond the code come from instrument data when known."""

    symbol: str
    code: str
    exchange: Exchange
    board: Board
    security_type: SecurityType
    name: str | None = None
    board_lot: int | None = None  # Hong Kong: per stock, from instrument data; None when unknown
    list_date: date | None = None
    fund_kind: FundKind | None = None

    @property
    def market(self) -> Market:
        return EXCHANGE_MARKET[self.exchange]

    @property
    def currency(self) -> str:
        return EXCHANGE_CURRENCY[self.exchange]

    @property
    def is_a_share(self) -> bool:
        return self.market == "CN"

    def with_data(self, **fields: object) -> Instrument:
        """A copy enriched with instrument data (name, board_lot, list_date, fund_kind, security_type)."""
        return replace(self, **fields)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Identified:
    """The result of parsing user input: the instrument, and a note when the input was ambiguous."""

    instrument: Instrument
    note: str = ""  # in English
    said: Note | None = None  # the same note in the catalogue's words, for either language


HK_INDICES = {
    "HSI": "Hang Seng Index",
    "HSCEI": "Hang Seng China Enterprises Index",
    "HSTECH": "Hang Seng TECH",
}
_PREFIXED = re.compile(r"^(SH|SZ|BJ|HK|US)(.+)$")
_SUFFIXED = re.compile(r"^(.+)\.(SH|SS|SZ|BJ|HK|US)$")
_US_TICKER = re.compile(r"^[A-Z][A-Z0-9]{0,5}([.-][A-Z])?$")


def _a_share(code: str, exchange: Exchange | None, raw: str) -> Identified:
    if not code.isdigit() or len(code) != 6:
        raise user_error(InvalidInput, "symbol_digits", raw=raw)
    if code[:3] in {"900", "200", "201"}:
        raise user_error(InvalidInput, "symbol_b_share", raw=raw)
    said = None
    if exchange is None:
        exchange, said = _exchange_by_prefix(code, raw)
    return Identified(_classify_a_share(code, exchange, raw), said.text("en") if said else "", said)


def _exchange_by_prefix(code: str, raw: str) -> tuple[Exchange, Note | None]:
    head1, head2, head3 = code[0], code[:2], code[:3]
    if head1 in {"6", "5"} or head3 == "688":
        return Exchange.SH, None
    if head3 == "920" or head2 in {"43", "83", "87"}:
        return Exchange.BJ, None
    if head3 in {"000", "001", "002", "003", "300", "301", "399"} or head2 in {"15", "16", "18"}:
        return Exchange.SZ, note("symbol.stock_or_index", raw=raw, code=code) if head3 == "000" else None
    raise user_error(InvalidInput, "symbol_prefix", raw=raw)


def _classify_a_share(code: str, exchange: Exchange, raw: str) -> Instrument:
    head2, head3 = code[:2], code[:3]
    symbol = f"{code}.{exchange.value}"
    board, kind = Board.MAIN, SecurityType.STOCK
    if exchange is Exchange.SH:
        if head3 == "000":
            kind = SecurityType.INDEX
        elif head3 in {"688", "689"}:
            board = Board.STAR
        elif code[0] == "5":
            kind = SecurityType.FUND
        elif head3 not in {"600", "601", "603", "605"}:
            raise user_error(InvalidInput, "symbol_not_shanghai", raw=raw)
    elif exchange is Exchange.SZ:
        if head3 == "399":
            kind = SecurityType.INDEX
        elif head3 in {"300", "301"}:
            board = Board.CHINEXT
        elif head2 in {"15", "16", "18"}:
            kind = SecurityType.FUND
        elif head3 not in {"000", "001", "002", "003"}:
            raise user_error(InvalidInput, "symbol_not_shenzhen", raw=raw)
    else:
        if not (head3 == "920" or head2 in {"43", "83", "87"}):
            raise user_error(InvalidInput, "symbol_not_beijing", raw=raw)
        board = Board.BSE
    return Instrument(symbol, code, exchange, board, kind)


def _hong_kong(code: str, raw: str) -> Identified:
    upper = code.upper()
    if upper in HK_INDICES:
        return Identified(
            Instrument(f"{upper}.HK", upper, Exchange.HK, Board.HK_MAIN, SecurityType.INDEX, name=HK_INDICES[upper])
        )
    if not code.isdigit() or not 1 <= len(code) <= 5 or int(code) == 0:
        raise user_error(InvalidInput, "symbol_hk_digits", raw=raw)
    padded = code.zfill(5)
    board = Board.HK_GEM if padded.startswith("08") else Board.HK_MAIN
    return Identified(Instrument(f"{padded}.HK", padded, Exchange.HK, board, SecurityType.STOCK))


def _us(code: str, raw: str) -> Identified:
    ticker = code.upper().replace("-", ".")
    if not _US_TICKER.match(ticker):
        raise user_error(InvalidInput, "symbol_us", raw=raw, ticker="AAPL")
    return Identified(Instrument(f"{ticker}.US", ticker, Exchange.US, Board.US, SecurityType.STOCK))


def identify(text: str) -> Identified:
    """Parse any accepted form of a symbol into its instrument (identity only, no data)."""
    raw = text
    cleaned = text.strip().upper().replace(" ", "")
    if not cleaned:
        raise user_error(InvalidInput, "symbol_empty", ticker="AAPL")
    exchange: str | None = None
    code = cleaned
    if match := _SUFFIXED.match(cleaned):
        code, exchange = match[1], match[2]
    elif (match := _PREFIXED.match(cleaned)) and (match[1] != "US" or len(cleaned) > 2):
        exchange, code = match[1], match[2]
    if exchange == "SS":
        exchange = "SH"
    if exchange in {"SH", "SZ", "BJ"}:
        return _a_share(code, Exchange(exchange), raw)
    if exchange == "HK":
        return _hong_kong(code, raw)
    if exchange == "US":
        return _us(code, raw)
    if code.isdigit():
        if len(code) == 6:
            return _a_share(code, None, raw)
        if len(code) <= 4 or (len(code) == 5 and code.startswith("0")):
            return _hong_kong(code, raw)
        raise user_error(
            InvalidInput, "symbol_digits.hk" if len(code) == 5 else "symbol_digits.short", raw=raw, code=code
        )
    if cleaned in HK_INDICES:
        return _hong_kong(cleaned, raw)
    if _US_TICKER.match(cleaned):
        return _us(cleaned, raw)
    raise user_error(InvalidInput, "symbol_unknown", raw=raw, ticker="AAPL")


def rule_board(instrument: Instrument) -> str:
    """The board key used by the rule tables: exchange funds have rules of their own ("fund")."""
    return "fund" if instrument.security_type is SecurityType.FUND else instrument.board.value


def parse_symbol(text: str) -> Instrument:
    """The canonical instrument for `text` (see `identify` for the ambiguity note)."""
    return identify(text).instrument


def canonical(text: str) -> str:
    """The canonical symbol string for `text`, e.g. 'sh600519' -> '600519.SH'."""
    return identify(text).instrument.symbol
