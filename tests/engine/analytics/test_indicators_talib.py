"""The indicators against TA-Lib on real A-share data, wherever TA-Lib has the same definition (needs ../shared/data).

Symbols: Moutai, Ping An Bank, SMIC (STAR), CATL (ChiNext) and an ST stock from the 2017-2022 parquet, and the
full histories of Vanke (from 1991, forward-adjusted down to 0.0017) and Ping An Insurance from the CSVs; all
forward-adjusted, so the ex-dates are in. Each value is compared on every row where TA-Lib gives one, and our
value must be null exactly where TA-Lib's is (the same warm-up), except where the module docstring says
otherwise (DIF from row 25, RSV from row 8). Relative error is |ours - talib| / |talib|; for MACD, whose lines
cross zero, the denominator is at least a millionth of the close (a relative error at a zero crossing says
nothing).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from stockbench.analytics.frames import bars_from_community_csv, bars_from_community_parquet
from stockbench.analytics.indicators import EMA_PERIODS, MA_PERIODS, RSI_PERIODS, add_indicators

talib = pytest.importorskip("talib")

pytestmark = pytest.mark.realdata

PARQUET_SYMBOLS = ("600519.SH", "000001.SZ", "688981.SH", "300750.SZ", "600078.SH")
CSV_FILES = ("sz000002.csv", "sh601318.csv")
LIMIT = 1e-9
Arrays = dict[str, np.ndarray]


@functools.cache
def computed(folder: Path) -> tuple[Arrays, ...]:
    """Per symbol: its bar and indicator columns as float arrays (nulls as NaN)."""
    parts = [bars_from_community_parquet(folder / "ashare_daily_2017_2022.parquet", PARQUET_SYMBOLS)]
    parts += [bars_from_community_csv(folder / "ashare_full" / name) for name in CSV_FILES]
    frame = add_indicators(pl.concat(parts))
    found = []
    for part in frame.partition_by("symbol", maintain_order=True):
        numbers = part.select(pl.exclude("symbol", "day").cast(pl.Float64))
        found.append({name: numbers.get_column(name).to_numpy() for name in numbers.columns})
    return tuple(found)


@pytest.fixture
def symbols(shared_data: Path) -> tuple[Arrays, ...]:
    return computed(shared_data)


def worst(ours: np.ndarray, reference: np.ndarray, floor: np.ndarray | None = None, skip: int = 0) -> float:
    """The largest relative error where TA-Lib has a value; fails if the null pattern differs after `skip` rows."""
    shown = ~np.isnan(reference)
    assert np.array_equal(~np.isnan(ours[skip:]), shown[skip:]), "warm-up differs from TA-Lib's"
    scale = np.abs(reference[shown]) if floor is None else np.maximum(np.abs(reference[shown]), floor[shown])
    difference = np.abs(ours[shown] - reference[shown])
    errors = np.divide(difference, scale, out=np.where(difference == 0, 0.0, np.inf), where=scale > 0)
    return float(np.max(errors, initial=0.0))


def check(symbols: tuple[Arrays, ...], compare: Callable[[Arrays], dict[str, float]]) -> None:
    errors = dict.fromkeys(compare(symbols[0]), 0.0)
    for arrays in symbols:
        for name, error in compare(arrays).items():
            errors[name] = max(errors[name], error)
    assert all(e < LIMIT for e in errors.values()), errors
    print(errors)  # the worst relative errors, shown with -s


def test_the_sample_covers_long_histories_and_ex_dates(symbols: tuple[Arrays, ...]) -> None:
    assert len(symbols) == len(PARQUET_SYMBOLS) + len(CSV_FILES)
    assert max(len(a["close"]) for a in symbols) > 7000
    assert any(np.any(a["prev_close"][1:] != a["close"][:-1]) for a in symbols)  # adjusted ex-dates stay visible


def test_moving_averages_match_sma(symbols: tuple[Arrays, ...]) -> None:
    check(symbols, lambda a: {f"ma{n}": worst(a[f"ma{n}"], talib.SMA(a["close"], n)) for n in MA_PERIODS})


def test_exponential_averages_match_ema(symbols: tuple[Arrays, ...]) -> None:
    check(symbols, lambda a: {f"ema{n}": worst(a[f"ema{n}"], talib.EMA(a["close"], n)) for n in EMA_PERIODS})


def test_macd_matches_talib_with_the_bar_twice_macdhist(symbols: tuple[Arrays, ...]) -> None:
    def compare(a: Arrays) -> dict[str, float]:
        dif, dea, hist = talib.MACD(a["close"], 12, 26, 9)
        floor = a["close"] * 1e-6
        return {
            "dif": worst(a["macd_dif"], dif, floor, skip=33),  # DIF starts at row 25, TA-Lib shows it from 33
            "dea": worst(a["macd_dea"], dea, floor),
            "bar/2": worst(a["macd_bar"] / 2, hist, floor),
        }

    check(symbols, compare)


def test_rsi_matches_talib(symbols: tuple[Arrays, ...]) -> None:
    check(symbols, lambda a: {f"rsi{n}": worst(a[f"rsi{n}"], talib.RSI(a["close"], n)) for n in RSI_PERIODS})


def test_boll_matches_bbands_with_the_population_deviation(symbols: tuple[Arrays, ...]) -> None:
    def compare(a: Arrays) -> dict[str, float]:
        upper, middle, lower = talib.BBANDS(a["close"], 20, 2.0, 2.0, 0)
        return {
            "up": worst(a["boll_up"], upper),
            "mid": worst(a["boll_mid"], middle),
            "low": worst(a["boll_low"], lower),
        }

    check(symbols, compare)


def test_atr_obv_and_52_week_extremes_match(symbols: tuple[Arrays, ...]) -> None:
    def compare(a: Arrays) -> dict[str, float]:
        return {
            "atr14": worst(a["atr14"], talib.ATR(a["high"], a["low"], a["close"], 14)),
            "obv": worst(a["obv"], talib.OBV(a["close"], a["volume"])),
            "high_52w": worst(a["high_52w"], talib.MAX(a["high"], 250)),
            "low_52w": worst(a["low_52w"], talib.MIN(a["low"], 250)),
        }

    check(symbols, compare)


def test_kdj_rsv_matches_stochf_fastk_where_the_window_has_a_range(symbols: tuple[Arrays, ...]) -> None:
    def compare(a: Arrays) -> dict[str, float]:
        fastk, _ = talib.STOCHF(a["high"], a["low"], a["close"], 9, 3, 0)
        flat = talib.MAX(a["high"], 9) == talib.MIN(a["low"], 9)  # RSV 50 here by our convention, TA-Lib's 0
        fastk[flat] = np.nan
        ours = np.where(flat, np.nan, a["kdj_rsv"])
        return {"rsv": worst(ours, fastk, skip=10)}  # RSV starts at row 8, STOCHF (which also smooths) at 10

    check(symbols, compare)
