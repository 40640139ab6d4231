"""Research only what was trading: a symbol not yet listed at the as-of date is refused before any run is created,
with its listing date (the instrument registry's: the instrument data, else the listing day's name), in the words
of the one catalogue (stockbench.messages ERRORS not_listed, either language)."""

from __future__ import annotations

from datetime import date

from stockbench.errors import InvalidInput
from stockbench.market.registry import InstrumentRegistry
from stockbench.messages import user_error


class NotListed(InvalidInput):
    """Research of a symbol before its listing date; `listed` is that date (its `listed` parameter)."""

    code = "not_listed"

    @property
    def listed(self) -> date:
        return date.fromisoformat(dict(self.params)["listed"])

    def as_dict(self) -> dict[str, str | None]:
        return super().as_dict() | {"listed": self.listed.isoformat()}


def label(registry: InstrumentRegistry, symbol: str) -> str:
    """The code and, where known, the name: "688981.SH 中芯国际"."""
    instrument = registry.instrument(symbol)
    return f"{instrument.symbol} {instrument.name}" if instrument.name else instrument.symbol


def check_listed(registry: InstrumentRegistry, symbol: str, as_of: date) -> None:
    """Raise NotListed when `symbol` lists after `as_of` (nothing is known of it then but its code)."""
    listed = registry.listing_date(symbol)
    if listed is not None and as_of < listed:
        raise user_error(NotListed, "not_listed", label=label(registry, symbol), as_of=as_of, listed=listed)


def check_listed_in(registry: InstrumentRegistry, symbol: str, start: date, end: date) -> None:
    """Raise NotListed when `symbol` lists after the whole period `start`..`end`."""
    listed = registry.listing_date(symbol)
    if listed is not None and end < listed:
        found = label(registry, symbol)
        raise user_error(NotListed, "not_listed_in_period", label=found, listed=listed, start=start, end=end)


def before_listing(registry: InstrumentRegistry, symbol: str, day: date) -> dict[str, str] | None:
    """The words' figures (inputs.skipped_before_listing) of why `symbol` cannot be researched as of `day` when it
    lists later, else None."""
    listed = registry.listing_date(symbol)
    if listed is None or day >= listed:
        return None
    return {"label": label(registry, symbol), "listed": str(listed), "day": str(day)}
