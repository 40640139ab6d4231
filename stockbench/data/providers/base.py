"""The provider port every market-data service adapter implements, and the strict field parsing they share.

An adapter is a set of pure parser functions (payload -> records, raising `PayloadError` with the reason) plus
fetching methods that call them; a kind the service does not offer raises FetchError(kind="unsupported").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

from stockbench.data.http import FailureKind, FetchError, HttpClient, Target
from stockbench.data.records import (
    HALTED,
    Announcement,
    Bar,
    DataKind,
    FinancialItem,
    MoneyFlowDay,
    Quote,
    ValuationDay,
)
from stockbench.market.instruments import Board, Exchange, Instrument, SecurityType, parse_symbol

T = TypeVar("T")
_MISSING = {"", "-", "--", "null", "None"}
A_SHARE_LOT = 100  # shares per lot in the services' A-share volumes (a unit of the data, not a trading rule)
AVERAGE_SLACK_LOW, AVERAGE_SLACK_HIGH = Decimal("0.98"), Decimal("1.02")
# A quote price outside this multiple of the previous close cannot be right (a daily limit is at most +-30%;
# unlimited first days and US moves stay far inside); amount / volume outside this multiple of the last price
# means the decimals (or the volume unit) were not applied: such errors are powers of ten.
PRICE_BAND = (Decimal("0.01"), Decimal("100"))
AVERAGE_BAND = (Decimal("0.1"), Decimal("10"))


@runtime_checkable
class Provider(Protocol):
    """A public market-data service. Symbols are canonical (600519.SH); records carry the provider's name."""

    @property
    def name(self) -> str: ...

    @property
    def kinds(self) -> frozenset[DataKind]: ...

    def supports(self, kind: DataKind) -> bool: ...

    def quotes(self, symbols: Sequence[str]) -> list[Quote]:
        """One quote per symbol, in the order asked; any symbol the service does not answer fails the call."""
        ...

    def daily_bars(self, symbol: str, start: date, end: date) -> list[Bar]:
        """Unadjusted daily bars from start to end inclusive, oldest first."""
        ...

    def money_flow(self, symbol: str) -> list[MoneyFlowDay]: ...

    def valuation_history(self, symbol: str) -> list[ValuationDay]: ...

    def financials(self, symbol: str) -> list[FinancialItem]: ...

    def announcements(self, symbol: str, start: date, end: date) -> list[Announcement]: ...

    def announcement_text(self, announcement: Announcement) -> str: ...


class PayloadError(ValueError):
    """A payload that does not say what its parser expects; adapters turn it into a FetchError with the URL."""

    def __init__(self, reason: str, kind: FailureKind = "unparseable") -> None:
        super().__init__(reason)
        self.reason = reason
        self.kind = kind


class ProviderBase:
    """Shared plumbing: every kind raises "unsupported" until an adapter overrides it."""

    name: ClassVar[str] = ""
    kinds: ClassVar[frozenset[DataKind]] = frozenset()

    def __init__(self, http: HttpClient) -> None:
        self.http = http

    def supports(self, kind: DataKind) -> bool:
        return kind in self.kinds

    def target(self, what: DataKind, symbol: str) -> Target:
        return Target(self.name, what, symbol)

    def unsupported(self, what: DataKind, symbol: str, why: str = "") -> FetchError:
        reason = why or f"{self.name} does not provide {what}"
        return self.target(what, symbol).failure("unsupported", reason)

    def parsed(self, target: Target, url: str, parse: Callable[[], T]) -> T:
        """Run a parser, turning its PayloadError into the target's FetchError."""
        try:
            return parse()
        except PayloadError as exc:
            raise target.failure(exc.kind, exc.reason, url=url) from None

    def quotes(self, symbols: Sequence[str]) -> list[Quote]:
        raise self.unsupported("quote", ",".join(symbols))

    def daily_bars(self, symbol: str, start: date, end: date) -> list[Bar]:
        raise self.unsupported("bars", symbol)

    def money_flow(self, symbol: str) -> list[MoneyFlowDay]:
        raise self.unsupported("money_flow", symbol)

    def valuation_history(self, symbol: str) -> list[ValuationDay]:
        raise self.unsupported("valuation", symbol)

    def financials(self, symbol: str) -> list[FinancialItem]:
        raise self.unsupported("financials", symbol)

    def announcements(self, symbol: str, start: date, end: date) -> list[Announcement]:
        raise self.unsupported("announcements", symbol)

    def announcement_text(self, announcement: Announcement) -> str:
        raise self.unsupported("announcements", announcement.symbol)


def instrument(symbol: str) -> Instrument:
    """The instrument of a canonical (or any accepted) symbol."""
    return parse_symbol(symbol)


def is_a_share_stock(inst: Instrument) -> bool:
    return inst.market == "CN" and inst.security_type is not SecurityType.INDEX


def volume_in_lots(inst: Instrument) -> bool:
    """Whether the CN services count this instrument's volume in 100-share lots (STAR is counted in shares)."""
    return inst.market == "CN" and not (inst.exchange is Exchange.SH and inst.board is Board.STAR)


def number(value: Any, what: str) -> Decimal:
    """An exact Decimal from a payload field (text or JSON number); PayloadError names the field otherwise."""
    result = optional_number(value, what)
    if result is None:
        raise PayloadError(f"{what} is missing")
    return result


def optional_number(value: Any, what: str) -> Decimal | None:
    """Like number(), but '', '-', null and the like mean "not given"."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, Decimal | int):
        return Decimal(value)
    text = str(value).strip()
    if text in _MISSING:
        return None
    try:
        result = Decimal(text)
    except InvalidOperation:
        raise PayloadError(f"{what} is not a number: {text[:40]!r}") from None
    if not result.is_finite():
        raise PayloadError(f"{what} is not a finite number: {text[:40]!r}")
    return result


def whole(value: Decimal, what: str) -> int:
    """A count that must be a whole number (volumes, lots)."""
    if value != value.to_integral_value():
        raise PayloadError(f"{what} is not a whole number: {value}")
    return int(value)


def positive_or_none(value: Decimal | None) -> Decimal | None:
    """Services write 0 or -1 where a price or ratio does not apply."""
    return value if value is not None and value > 0 else None


def day(value: Any, what: str) -> date:
    """A date from 'YYYY-MM-DD' (optionally followed by a time, as the Eastmoney data center writes)."""
    text = str(value or "").strip()[:10]
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise PayloadError(f"{what} is not a date: {str(value)[:30]!r}") from None


def moment(text: str, formats: Sequence[str], tz: Any, what: str) -> datetime:
    """A timezone-aware instant from the first format that fits."""
    for fmt in formats:
        try:
            return datetime.strptime(text.strip(), fmt).replace(tzinfo=tz)
        except ValueError:
            continue
    raise PayloadError(f"{what} is not a time: {text[:30]!r}")


def check_quote(quote: Quote, inst: Instrument) -> Quote:
    """The one sanity rule every parsed quote passes, whatever its source: a quote whose numbers cannot be right is
    a PayloadError with the reason, never a quote. A halted (suspended, delisted) quote keeps the previous close as
    its last price and has no session: its zero open, high and low become None."""
    if quote.prev_close <= 0:
        raise PayloadError(f"previous close {quote.prev_close} is not positive")
    if quote.status in HALTED:

        def session(price: Decimal | None) -> Decimal | None:
            return None if price == 0 else price

        return replace(quote, open=session(quote.open), high=session(quote.high), low=session(quote.low))
    if quote.last <= 0:
        raise PayloadError(f"no last price ({quote.last}): not traded yet", "empty")
    zero = [name for name in ("open", "high", "low") if getattr(quote, name) == 0]
    if zero:
        raise PayloadError(
            f"{'/'.join(zero)} 0 with a last price of {quote.last} and no suspension flag: not a traded quote"
        )
    low, high = PRICE_BAND
    for name in ("last", "open", "high", "low"):
        price = getattr(quote, name)
        if price is not None and not low <= price / quote.prev_close <= high:
            raise PayloadError(
                f"{name} {price} is outside {low}x-{high}x of the previous close {quote.prev_close}: "
                "the prices or their decimals are wrong"
            )
    if inst.security_type is not SecurityType.INDEX and quote.volume and quote.amount and quote.amount > 0:
        average = quote.amount / quote.volume
        if not AVERAGE_BAND[0] <= quote.last / average <= AVERAGE_BAND[1]:
            raise PayloadError(
                f"last {quote.last} against an average price (amount / volume) of {average:.4f}: "
                "the decimals were not applied, or the volume unit is wrong"
            )
    return quote


def check_bar_shape(bar: Bar) -> Bar:
    """Reject a bar whose high/low do not enclose open and close: the sign of a changed field order."""
    if not bar.low <= min(bar.open, bar.close) <= max(bar.open, bar.close) <= bar.high:
        raise PayloadError(
            f"bar {bar.day} has open {bar.open}, high {bar.high}, low {bar.low}, close {bar.close}: "
            "the field order may have changed"
        )
    return bar


def check_unadjusted(bar: Bar, inst: Instrument) -> Bar:
    """Reject a Shanghai or Shenzhen bar whose average price (amount / volume) lies more than 2% outside its
    low-high range: its prices are adjusted (only prices are adjusted, never volume or amount) or its volume
    unit is wrong. Across the 4.5M real 2017-2022 bars of those exchanges none lies further out; Beijing (block
    trades in the totals), Hong Kong and US totals can, so they are not checked."""
    if inst.exchange not in {Exchange.SH, Exchange.SZ} or inst.security_type is SecurityType.INDEX:
        return bar
    if not bar.volume or not bar.amount:
        return bar
    average = bar.amount / bar.volume
    if not bar.low * AVERAGE_SLACK_LOW <= average <= bar.high * AVERAGE_SLACK_HIGH:
        raise PayloadError(
            f"bar {bar.day}: the average price {average:.4f} (amount / volume) lies outside low {bar.low} - "
            f"high {bar.high}: the prices look adjusted, or the volume unit changed"
        )
    return bar


def unique_by_day(bars: Sequence[Bar]) -> list[Bar]:
    """Bars sorted by day, one per day (overlapping pages repeat days)."""
    return sorted({bar.day: bar for bar in bars}.values(), key=lambda bar: bar.day)
