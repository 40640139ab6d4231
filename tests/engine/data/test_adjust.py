"""Adjusted prices from unadjusted bars and reference prices: multiplicative, exact on every ex-date."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest

from stockbench.clock import ReplayClock
from stockbench.data.adjust import adjusted, ex_factors
from stockbench.data.cache import BAR_SCHEMA, MarketDataCache
from stockbench.data.importer import import_path
from tests.engine.data.test_cache import new_db

# (close, prev_close): a cash dividend of 0.50 on day 3 (reference 10.00), a 10-for-10 bonus issue on day 5.
SERIES = [
    ("10.00", "10.00"),
    ("10.50", "10.00"),
    ("10.20", "10.00"),
    ("10.40", "10.20"),
    ("5.30", "5.20"),
    ("5.25", "5.30"),
]
DAYS = [date(2024, 1, 1) + timedelta(days=i) for i in range(len(SERIES))]


def frame(series: list[tuple[str, str | None]]) -> pl.DataFrame:
    rows = [
        ("X.SH", d, Decimal(c), Decimal(c), Decimal(c), Decimal(c), Decimal(p) if p else None, 100 + i, Decimal(7), "t")
        for i, (d, (c, p)) in enumerate(zip(DAYS * 40, series, strict=False))
    ]
    schema = {k: BAR_SCHEMA[k] for k in ("symbol", "day", "open", "high", "low", "close", "prev_close", "volume")}
    schema |= {"amount": BAR_SCHEMA["amount"], "source": pl.String}
    return pl.DataFrame(rows, schema=schema, orient="row")


def closes(bars: pl.DataFrame) -> list[Decimal]:
    return [c.normalize() for c in bars["close"].to_list()]


def test_factors_are_previous_close_over_reference() -> None:
    assert ex_factors(frame(SERIES)) == [(DAYS[2], Decimal("1.05")), (DAYS[4], Decimal(2))]


def test_backward_keeps_the_first_bar_and_scales_later_ones() -> None:
    got = adjusted(frame(SERIES), "backward")
    assert closes(got) == [Decimal(x) for x in ("10", "10.5", "10.71", "10.92", "11.13", "11.025")]
    assert got["prev_close"].to_list()[2] == Decimal("10.5")  # the reference equals the previous adjusted close


def test_forward_keeps_the_latest_bar_and_scales_earlier_ones() -> None:
    got = adjusted(frame(SERIES), "forward")
    assert closes(got) == [Decimal(x) for x in ("4.761905", "5", "5.1", "5.2", "5.3", "5.25")]
    assert got["prev_close"].to_list()[4] == Decimal("5.2")
    assert got["volume"].to_list() == frame(SERIES)["volume"].to_list()  # volume is never adjusted
    assert set(got["amount"].to_list()) == {Decimal(7)}


def test_no_factor_without_a_reference_or_an_ex_date() -> None:
    plain = frame([("10.00", None), ("10.50", None), ("10.20", "10.50")])
    assert ex_factors(plain) == []
    assert adjusted(plain, "forward").equals(plain)


def test_forward_adjustment_never_goes_negative_over_a_long_history() -> None:
    # Thirty cash dividends of 1.00 on a price of 10.00: subtracting them would reach -20.00.
    series: list[tuple[str, str | None]] = [("10.00", "10.00")]
    for _ in range(30):
        series += [("10.00", "9.00"), ("10.00", "10.00")]
    got = adjusted(frame(series), "forward")
    assert got["close"][0] == (Decimal(10) * Decimal("0.9") ** 30).quantize(Decimal("0.000001"))  # 0.423912
    assert min(got["low"].to_list()) > 0
    assert len(ex_factors(frame(series))) == 30


@pytest.mark.realdata
def test_600519_adjusted_closes_match_the_ex_rights_arithmetic(shared_data: Path) -> None:
    db = new_db()
    cache = MarketDataCache(db, ReplayClock.as_of(date(2022, 1, 14)))
    import_path(cache, db, shared_data / "ashare_full" / "sh600519.csv")
    raw = cache.bars("600519.SH")
    forward, backward = cache.bars("600519.SH", adjust="forward"), cache.bars("600519.SH", adjust="backward")
    rows = raw.with_row_index().filter(pl.col("prev_close") != pl.col("close").shift(1))["index"].to_list()
    assert len(rows) >= 15  # every yearly dividend since 2002, and the bonus issues
    step = Decimal("0.000001")  # adjusted prices are rounded to 6 places
    for series in (forward, backward):
        close, reference = series["close"].to_list(), series["prev_close"].to_list()
        for i in rows:
            assert abs(close[i - 1] - reference[i]) <= step, series["day"][i]  # adjusted close[t-1] == reference[t]
            ratio = raw["close"][i] / raw["prev_close"][i]  # the day's own return, from the exchange's reference
            assert abs(close[i] / close[i - 1] - ratio) <= 2 * step / close[i - 1], series["day"][i]
    day = forward["day"].to_list().index(date(2021, 6, 24))
    assert forward["close"][day] == Decimal("2048.76")  # no later ex-date in the data: exactly the reference
    assert forward["close"][-1] == raw["close"][-1] and backward["close"][0] == raw["close"][0]
    as_of_eve = MarketDataCache(db, ReplayClock.as_of(date(2021, 6, 24))).bars("600519.SH", adjust="forward")
    assert as_of_eve["close"][-1] == Decimal("2068.05")  # as of the eve, the 2021 dividend is not known yet
    db.close()
