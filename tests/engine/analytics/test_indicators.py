"""Indicators: the A-share conventions against hand-worked values, warm-up nulls, per-symbol independence, the CLI."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from stockbench.analytics.frames import BAR_SCHEMA
from stockbench.analytics.indicators import (
    INDICATOR_COLUMNS,
    add_indicators,
    indicator_snapshot,
    latest_indicators,
    rs_column,
)
from stockbench.cli.main import run
from stockbench.clock import ReplayClock
from stockbench.data.records import Bar
from stockbench.errors import InvalidInput
from stockbench.workbench import Workbench

START = date(2024, 1, 1)
CONTRACT_KEYS = {
    *("ma5", "ma10", "ma20", "ma60", "ma120", "ma250", "ema12", "ema26", "macd_dif", "macd_dea", "macd_bar"),
    *("rsi6", "rsi12", "rsi24", "kdj_k", "kdj_d", "kdj_j", "boll_mid", "boll_up", "boll_low", "atr14", "obv"),
    *("vol_ratio", "high_52w", "low_52w"),
}


def bars(
    closes: Sequence[float],
    *,
    highs: Sequence[float] | None = None,
    lows: Sequence[float] | None = None,
    volumes: Sequence[float] | None = None,
    symbol: str = "600519.SH",
) -> pl.DataFrame:
    """A bar frame of one symbol on consecutive days (high = low = close unless given)."""
    n = len(closes)
    highs, lows = highs or closes, lows or closes
    volumes = volumes or [1000.0] * n
    rows = [
        (symbol, START + timedelta(i), closes[i], highs[i], lows[i], closes[i], None, volumes[i], None, None)
        for i in range(n)
    ]
    return pl.DataFrame(rows, schema=BAR_SCHEMA, orient="row")


def column(frame: pl.DataFrame, name: str) -> list[float | None]:
    return frame.get_column(name).to_list()


def assert_close(got: Sequence[float | None], expected: Sequence[float | None], rel: float) -> None:
    """Equal nulls where expected, and values within `rel` relative error elsewhere."""
    assert len(got) == len(expected)
    for i, (value, want) in enumerate(zip(got, expected, strict=True)):
        if want is None:
            assert value is None, f"row {i}: {value} where null was expected"
        else:
            assert value == pytest.approx(want, rel=rel), f"row {i}"


def test_kdj_uses_the_chinese_sma_smoothing_seeded_at_50() -> None:
    # Nine sessions with highs up to 12 and lows down to 8; row 8 closes at 11, row 9 at 9.
    highs = [10, 12, 10, 10, 10, 10, 10, 10, 11, 10]
    lows = [9, 9, 8, 9, 9, 9, 9, 9, 10, 9]
    closes = [9.5, 11, 9, 9.5, 9.5, 9.5, 9.5, 9.5, 11, 9]
    got = add_indicators(bars(closes, highs=highs, lows=lows))
    # Row 8: LLV9 = 8, HHV9 = 12, RSV = (11 - 8) / (12 - 8) x 100 = 75
    #   K = 2/3 x 50 + 1/3 x 75 = 175/3;  D = 2/3 x 50 + 1/3 x 175/3 = 475/9;  J = 3K - 2D = 625/9
    # Row 9 (rows 1..9): LLV9 = 8, HHV9 = 12, RSV = (9 - 8) / 4 x 100 = 25
    #   K = 2/3 x 175/3 + 1/3 x 25 = 425/9;  D = 2/3 x 475/9 + 1/3 x 425/9 = 1375/27;  J = 1275/9 - 2750/27 = 1075/27
    expected = {
        "kdj_rsv": [75, 25],
        "kdj_k": [Fraction(175, 3), Fraction(425, 9)],
        "kdj_d": [Fraction(475, 9), Fraction(1375, 27)],
        "kdj_j": [Fraction(625, 9), Fraction(1075, 27)],
    }
    for name, values in expected.items():
        assert column(got, name)[:8] == [None] * 8, name
        assert column(got, name)[8:] == pytest.approx([float(v) for v in values], rel=1e-14), name


def test_kdj_rsv_is_50_when_the_window_has_no_range() -> None:
    got = add_indicators(bars([10.0] * 10))
    assert column(got, "kdj_rsv")[8:] == [50.0, 50.0]
    assert column(got, "kdj_k")[8:] == pytest.approx([50.0, 50.0])


def test_rsi_is_wilder_seeded_with_the_mean_of_the_first_changes() -> None:
    # Changes +1, -0.5, +1, -0.5, +1, -0.5: mean gain 3/6 = 0.5, mean loss 1.5/6 = 0.25 -> RSI6 = 100 x 0.5/0.75
    # Then +1: gain (5 x 0.5 + 1)/6 = 3.5/6, loss (5 x 0.25 + 0)/6 = 1.25/6 -> RSI6 = 100 x 3.5/4.75 = 1400/19
    got = add_indicators(bars([10, 11, 10.5, 11.5, 11, 12, 11.5, 12.5]))
    assert_close(column(got, "rsi6"), [None] * 6 + [200 / 3, 1400 / 19], rel=1e-14)


def test_rsi_is_50_without_any_movement() -> None:
    assert column(add_indicators(bars([10.0] * 8)), "rsi6")[6:] == [50.0, 50.0]


def talib_ema(values: list[float], n: int, first: int) -> list[float | None]:
    """TA-Lib's EMA written out: the mean of values[first-n+1 .. first] at `first`, then += 2/(n+1) x (x - ema)."""
    out: list[float | None] = [None] * len(values)
    ema = sum(values[first - n + 1 : first + 1]) / n
    out[first] = ema
    for t in range(first + 1, len(values)):
        ema += 2 / (n + 1) * (values[t] - ema)
        out[t] = ema
    return out


def test_macd_is_talib_seeded_and_the_a_share_bar_is_twice_dif_minus_dea() -> None:
    closes = [10 + (i % 7) * 0.3 - (i % 5) * 0.2 + i * 0.05 for i in range(45)]
    got = add_indicators(bars(closes))
    slow = talib_ema(closes, 26, 25)
    fast = talib_ema(closes, 12, 25)  # TA-Lib's MACD seeds its fast EMA on closes 14..25, beside the slow one
    dif = [f - s for f, s in zip(fast[25:], slow[25:], strict=True)]
    dea = talib_ema(dif, 9, 8)  # DIF rows 25..33 seed DEA at row 33
    assert_close(column(got, "macd_dif"), [None] * 25 + dif, rel=1e-12)
    assert_close(column(got, "macd_dea"), [None] * 25 + dea, rel=1e-12)
    bar = [2 * (d - e) for d, e in zip(dif, dea, strict=True) if e is not None]
    assert_close(column(got, "macd_bar"), [None] * 33 + bar, rel=1e-12)
    assert_close(column(got, "ema12"), talib_ema(closes, 12, 11), rel=1e-13)


def test_volume_ratio_is_the_volume_over_the_previous_five_sessions_mean() -> None:
    # Row 5: 900 / mean(100, 200, 300, 400, 500) = 900 / 300 = 3; row 6: 150 / mean(200..900) = 150 / 460
    got = add_indicators(bars([10.0] * 7, volumes=[100, 200, 300, 400, 500, 900, 150]))
    assert_close(column(got, "vol_ratio"), [None] * 5 + [3.0, 150 / 460], rel=1e-15)


def test_volume_ratio_is_null_after_five_sessions_without_volume() -> None:
    assert column(add_indicators(bars([10.0] * 6, volumes=[0, 0, 0, 0, 0, 100])), "vol_ratio")[5] is None


def test_obv_starts_at_the_first_volume_and_drawdown_at_zero() -> None:
    got = add_indicators(bars([10, 11, 11, 10.5, 12, 9], volumes=[100, 200, 300, 400, 500, 600]))
    assert column(got, "obv") == [100, 300, 300, -100, 400, -200]
    assert column(got, "drawdown") == pytest.approx([0, 0, 0, 10.5 / 11 - 1, 0, 9 / 12 - 1], abs=1e-15)


def test_boll_uses_the_population_deviation() -> None:
    closes = [float(i % 4) + 10 for i in range(20)]  # 10, 11, 12, 13 five times: mean 11.5, variance 1.25
    got = add_indicators(bars(closes)).row(19, named=True)
    assert got["boll_mid"] == pytest.approx(11.5, rel=1e-15)
    assert got["boll_up"] == pytest.approx(11.5 + 2 * 1.25**0.5, rel=1e-14)
    assert got["boll_low"] == pytest.approx(11.5 - 2 * 1.25**0.5, rel=1e-14)


def test_52_week_extremes_need_250_sessions() -> None:
    n = 252
    closes = [10 + (i % 9) for i in range(n)]
    highs = [c + 1 for c in closes]
    highs[3] = 40.0  # inside the first window, gone from the window ending at row 253
    got = add_indicators(bars(closes, highs=highs, lows=[c - 1 for c in closes]))
    assert column(got, "high_52w")[:249] == [None] * 249
    assert column(got, "high_52w")[249:] == [40.0, 40.0, 40.0]
    assert column(got, "low_52w")[249:] == [9.0, 9.0, 9.0]


def test_warm_up_rows_are_null_never_zero() -> None:
    got = add_indicators(bars([10.0 + i * 0.1 for i in range(40)]))
    first_value = {"ma5": 4, "ma20": 19, "ema5": 4, "ema26": 25, "rsi6": 6, "rsi24": 24, "atr14": 14, "boll_up": 19}
    for name, row in first_value.items():
        values = column(got, name)
        assert values[:row] == [None] * row and values[row] is not None, name
    assert column(got, "ma60") == [None] * 40 and column(got, "macd_dea")[:33] == [None] * 33


def test_relative_strength_is_the_normalised_close_ratio_and_its_change() -> None:
    closes = [10.0 * (1.01**i) for i in range(25)]
    index = bars([100.0 * (1.005**i) for i in range(25)], symbol="000300.SH")
    got = add_indicators(bars(closes), {"000300.SH": index})
    name = rs_column("000300.SH")
    assert name == "rs_000300_sh"
    assert column(got, name)[:2] == pytest.approx([1.0, 1.01 / 1.005], rel=1e-14)
    assert column(got, f"{name}_chg20")[20:21] == pytest.approx([(1.01 / 1.005) ** 20 - 1], rel=1e-12)
    assert column(got, f"{name}_chg20")[:20] == [None] * 20


def test_relative_strength_is_null_where_the_benchmark_has_no_close() -> None:
    index = bars([100.0, 101.0, 102.0], symbol="000300.SH").filter(pl.col("day") != START + timedelta(1))
    got = add_indicators(bars([10.0, 11.0, 12.0]), {"idx": index})
    assert_close(column(got, "rs_idx"), [1.0, None, 1.2 / 1.02], rel=1e-14)


def test_unsorted_frames_are_sorted_and_repeated_days_refused() -> None:
    one = bars([10.0, 11.0, 12.0, 13.0, 14.0])
    assert_frame_equal(add_indicators(one.reverse()), add_indicators(one))
    with pytest.raises(InvalidInput, match="repeats"):
        add_indicators(pl.concat([one, one.head(1)]))
    with pytest.raises(InvalidInput, match="lacks"):
        add_indicators(one.drop("high"))


def test_an_empty_frame_gets_every_column() -> None:
    got = add_indicators(bars([10.0]).clear())
    assert got.is_empty() and set(INDICATOR_COLUMNS) <= set(got.columns)


def test_snapshot_takes_the_latest_session_on_or_before_the_date() -> None:
    frame = bars([10.0 + i for i in range(10)])
    snapshot = indicator_snapshot(frame, START + timedelta(6))
    assert snapshot is not None and snapshot.day == START + timedelta(6)
    assert snapshot.values["ma5"] == pytest.approx(14.0) and snapshot.values["ma10"] is None
    assert set(INDICATOR_COLUMNS) <= set(snapshot.values)
    assert latest_indicators(frame, START - timedelta(1)) == {}
    with pytest.raises(InvalidInput, match="several symbols"):
        latest_indicators(pl.concat([frame, bars([1.0], symbol="000001.SZ")]))


# ---- per-symbol independence ---------------------------------------------------------------------------

PRICE = st.floats(min_value=1.0, max_value=500.0, allow_nan=False, allow_infinity=False)


@st.composite
def series(draw: st.DrawFn, symbol: str) -> pl.DataFrame:
    closes = draw(st.lists(PRICE, min_size=1, max_size=60))
    spreads = draw(st.lists(st.floats(0.0, 0.1), min_size=len(closes), max_size=len(closes)))
    volumes = draw(st.lists(st.integers(0, 10**9), min_size=len(closes), max_size=len(closes)))
    return bars(
        closes,
        highs=[c * (1 + s) for c, s in zip(closes, spreads, strict=True)],
        lows=[c * (1 - s) for c, s in zip(closes, spreads, strict=True)],
        volumes=[float(v) for v in volumes],
        symbol=symbol,
    )


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mine=series("300750.SZ"),
    before=series("000001.SZ"),
    after=series("688981.SH"),
    shuffle=st.randoms(use_true_random=False),
)
def test_other_symbols_never_change_a_symbols_indicators(
    mine: pl.DataFrame, before: pl.DataFrame, after: pl.DataFrame, shuffle: object
) -> None:
    alone = add_indicators(mine)
    rows = pl.concat([after, mine, before])
    order = list(range(rows.height))
    shuffle.shuffle(order)  # type: ignore[attr-defined]
    together = add_indicators(rows[order])
    assert_frame_equal(together.filter(pl.col("symbol") == "300750.SZ"), alone, check_exact=True)


# ---- the CLI -------------------------------------------------------------------------------------------


def store(home: Path, symbol: str, closes: Sequence[str]) -> None:
    """Daily bars of `symbol` stored through the cache (weekdays from 2024-01-01)."""
    days = [START + timedelta(i) for i in range(len(closes) * 2) if (START + timedelta(i)).weekday() < 5]
    records = []
    for i, text in enumerate(closes):
        close = Decimal(text)
        previous = Decimal(closes[i - 1]) if i else None
        high, low = close + Decimal("0.10"), close - Decimal("0.10")
        records.append(Bar(symbol, days[i], close, high, low, close, previous, 1000 + i, close * 1000, "tencent"))
    with Workbench.open(home, clock=ReplayClock.as_of(date(2026, 1, 5))) as bench:
        bench.data.cache.store_bars(records, fetched_at=datetime(2026, 1, 1, tzinfo=UTC))


def test_cli_prints_every_contract_key_for_the_latest_session(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store(home, "600519.SH", [f"{10 + (i % 5) * 0.25:.2f}" for i in range(40)])
    capsys.readouterr()
    assert run(["--json", "--as-of", "2024-02-20", "indicators", "600519"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["symbol"] == "600519.SH" and data["date"] == "2024-02-20"
    assert set(CONTRACT_KEYS) <= set(data)
    assert data["ma5"] == pytest.approx(10.5) and data["ma60"] is None and data["high_52w"] is None
    assert isinstance(data["rsi6"], float) and data["sessions"] == 37  # weekdays: 23 in January, 14 in February


def test_cli_adds_relative_strength_and_refuses_a_symbol_without_bars(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store(home, "600519.SH", ["10.00", "11.00", "12.00"])
    store(home, "000300.SH", ["100.00", "100.00", "120.00"])
    capsys.readouterr()
    assert run(["--json", "--as-of", "2024-01-10", "indicators", "600519.SH", "--benchmark", "000300.SH"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rs_000300_sh"] == pytest.approx(1.0)  # (12/120) / (10/100)
    assert run(["--json", "indicators", "000001.SZ"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["error"]["code"] == "not_found"
    assert "no daily bars of 000001.SZ" in captured.err and "data import" in captured.err
