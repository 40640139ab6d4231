"""The price facts of one instrument on its last session: close and change, the 52-week range and where the close
sits in it, the drawdown from the 52-week high, the distance to the 250-day line, market cap and turnover.

All values are exact Decimals. The close, change, volume, amount and caps are the session's own (unadjusted) bar;
the 52-week range and the 250-day line use prices forward-adjusted at that session (so an ex-date inside the year
does not read as a fall, and the close is the session's real close). The 52-week window is the sessions of the
last 364 calendar days up to and including the session; the range is intraday (highs and lows). Prices are
rounded to the instrument's tick (indices to 0.01), percentages to 0.01. The turnover rate is the stored one,
else volume / float shares (float cap / close) when the float cap is known.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import polars as pl

from stockbench.data.adjust import adjusted
from stockbench.errors import NotFound
from stockbench.market.instruments import Instrument, SecurityType
from stockbench.market.limits import limit_pct
from stockbench.market.registry import is_st_name, is_unreformed_name, special_treatment
from stockbench.market.tables import RuleTables
from stockbench.market.ticks import fixed_tick, quantize_half_up, round_to_tick
from stockbench.messages import user_error

YEAR_DAYS = 364  # 52 weeks
LONG_SESSIONS = 250  # the 250-day line (ma250)
SHORT_SESSIONS = 20  # the 20-day line (ma20) and the 20-session return
_PCT = Decimal("0.01")
_INDEX_STEP = Decimal("0.01")
_HUNDRED = Decimal(100)


@dataclass(frozen=True, slots=True)
class PriceFacts:
    """One session's price facts (None where the data cannot say)."""

    symbol: str
    day: date
    close: Decimal
    prev_close: Decimal | None
    change: Decimal | None
    change_pct: Decimal | None
    high_52w: Decimal
    high_52w_day: date
    low_52w: Decimal
    low_52w_day: date
    sessions_52w: int
    range_position_pct: Decimal | None  # 0 at the 52-week low, 100 at the high
    drawdown_pct: Decimal  # close / 52-week high - 1, in percent (0 or less)
    ma250: Decimal | None
    ma250_distance_pct: Decimal | None  # close / ma250 - 1, in percent
    volume: int
    amount: Decimal | None
    turnover_pct: Decimal | None
    float_mcap: Decimal | None
    total_mcap: Decimal | None
    ma20_distance_pct: Decimal | None = None  # close / ma20 - 1, in percent (forward-adjusted closes)
    change_20_pct: Decimal | None = None  # close / the close 20 sessions earlier - 1, in percent (forward-adjusted)
    special_treatment: str | None = None  # *ST or ST by the name the stock carried on the session, else None
    limit_pct: Decimal | None = None  # the ordinary daily price limit, in percent (None: none, or unknown)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: Decimals as exact strings, dates ISO; with the windows they were measured over."""
        windows = {"range_weeks": YEAR_DAYS // 7, "ma_sessions": LONG_SESSIONS, "short_sessions": SHORT_SESSIONS}
        return {k: _text(getattr(self, k)) for k in self.__slots__} | windows


def _text(value: object) -> object:
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, date):
        return value.isoformat()
    return value


def _pct(ratio: Decimal) -> Decimal:
    return quantize_half_up(ratio * _HUNDRED, _PCT)


def _price(instrument: Instrument, value: Decimal, day: date, tables: RuleTables | None) -> Decimal:
    if instrument.security_type is SecurityType.INDEX:
        return quantize_half_up(value, _INDEX_STEP)
    return round_to_tick(instrument, value, day, "nearest", tables)


def _turnover(row: dict[str, Any]) -> Decimal | None:
    if row.get("turnover_pct") is not None:
        return quantize_half_up(Decimal(row["turnover_pct"]), _PCT)
    cap, close = row.get("float_mcap"), row["close"]
    if not cap or cap <= 0 or not close:
        return None
    return _pct(Decimal(row["volume"]) * close / cap)


def price_facts(
    instrument: Instrument, raw: pl.DataFrame, tables: RuleTables | None = None, name: str | None = None
) -> PriceFacts:
    """The price facts of `instrument` on the last bar of `raw` (its unadjusted bars of one source up to the
    as-of session, as the cache reads them: Decimal prices, volume, amount, turnover_pct, float_mcap, total_mcap).
    `name`: the name it carried on that session, which says whether it was under special treatment (and so its
    price limit); unknown, neither is said (an A-share's limit as an ordinary stock's would be a guess)."""
    if raw.is_empty():
        raise user_error(NotFound, "no_bars", symbol=instrument.symbol)
    ordered = raw.sort("day")
    last = ordered.row(-1, named=True)
    day: date = last["day"]
    scaled = adjusted(ordered, "forward")
    year = scaled.filter(pl.col("day") > day - timedelta(days=YEAR_DAYS))
    top = year.row(int(year.get_column("high").arg_max() or 0), named=True)
    bottom = year.row(int(year.get_column("low").arg_min() or 0), named=True)
    close: Decimal = last["close"]
    high = _price(instrument, Decimal(top["high"]), day, tables)
    low = _price(instrument, Decimal(bottom["low"]), day, tables)
    closes = scaled.get_column("close").tail(LONG_SESSIONS).to_list()
    ma250 = sum(closes, Decimal(0)) / len(closes) if len(closes) == LONG_SESSIONS else None
    recent = closes[-SHORT_SESSIONS:] if len(closes) >= SHORT_SESSIONS else []
    ma20 = sum(recent, Decimal(0)) / SHORT_SESSIONS if recent else None
    earlier = closes[-SHORT_SESSIONS - 1] if len(closes) > SHORT_SESSIONS else None
    reference: Decimal | None = last["prev_close"]
    change = close - reference if reference else None
    step = _step(instrument, tables)
    return PriceFacts(
        symbol=instrument.symbol,
        day=day,
        close=quantize_half_up(close, step),
        prev_close=quantize_half_up(reference, step) if reference else None,
        change=quantize_half_up(change, step) if change is not None else None,
        change_pct=_pct(change / reference) if change is not None and reference else None,
        high_52w=high,
        high_52w_day=top["day"],
        low_52w=low,
        low_52w_day=bottom["day"],
        sessions_52w=year.height,
        range_position_pct=_pct((close - low) / (high - low)) if high > low else None,
        drawdown_pct=_pct(close / high - 1),
        ma250=_price(instrument, ma250, day, tables) if ma250 is not None else None,
        ma250_distance_pct=_pct(close / ma250 - 1) if ma250 else None,
        volume=int(last["volume"]),
        amount=last.get("amount"),
        turnover_pct=_turnover(last),
        float_mcap=last.get("float_mcap"),
        total_mcap=last.get("total_mcap"),
        ma20_distance_pct=_pct(close / ma20 - 1) if ma20 else None,
        change_20_pct=_pct(close / earlier - 1) if earlier else None,
        special_treatment=special_treatment(name),
        limit_pct=_limit(instrument, day, name, tables),
    )


def _limit(instrument: Instrument, day: date, name: str | None, tables: RuleTables | None) -> Decimal | None:
    """The session's ordinary daily limit in percent, for a stock whose name on the session is known."""
    if name is None or instrument.security_type is not SecurityType.STOCK or not instrument.is_a_share:
        return None
    found = limit_pct(instrument, day, st=is_st_name(name), unreformed=is_unreformed_name(name), tables=tables)
    return _pct(found[0]) if found is not None else None


def _step(instrument: Instrument, tables: RuleTables | None) -> Decimal:
    """The step the session's own prices are shown with: the fixed tick (0.01 for an index, 0.001 where the tick
    depends on the price: those prices are on a tick already)."""
    if instrument.security_type is SecurityType.INDEX:
        return _INDEX_STEP
    return fixed_tick(instrument, tables) or Decimal("0.001")
