"""States from the rule tables: each state on hand-made inputs, the derived inputs, and quotable evidence."""

from __future__ import annotations

import math
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from stockbench.analytics.rule_tables import load_rule_tables
from stockbench.analytics.states import (
    add_states,
    classify,
    relative_returns,
    states_on,
    with_benchmark,
    with_money_flow,
)
from stockbench.errors import InvalidInput, NotFound

START = date(2021, 1, 4)
NAN = float("nan")


def inputs_frame(rows: list[dict[str, float | None]]) -> pl.DataFrame:
    """One symbol per row, with every state input present (None where a row leaves it out)."""
    names = sorted({n for t in load_rule_tables().state_tables() for n in t.inputs})
    data: dict[str, Any] = {"symbol": [f"S{i}" for i in range(len(rows))], "day": [START] * len(rows)}
    for name in names:
        data[name] = [row.get(name) for row in rows]
    return pl.DataFrame(data, schema_overrides=dict.fromkeys(names, pl.Float64))


def states_of(table: str, rows: list[dict[str, float | None]]) -> list[str]:
    return classify(inputs_frame(rows))[f"{table}_state"].to_list()


def test_trend_states() -> None:
    up = {"close": 11.0, "ma5": 10.8, "ma20": 10.5, "ma60": 10.0, "ma120": 9.5, "ma60_gap_atr": 2.0,
          "long_ma_gap": 0.1}  # fmt: skip
    down = {"close": 9.0, "ma5": 9.2, "ma20": 9.5, "ma60": 10.0, "ma120": 10.5, "ma60_gap_atr": -2.0,
            "long_ma_gap": -0.1}  # fmt: skip
    rows = [
        up | {"ma20_slope": 0.05},  # strong_up
        up | {"ma20_slope": 0.01},  # up: the slope is below 3%
        up | {"ma60": 10.0, "ma120": 10.2, "ma20_slope": 0.05},  # up: 60 < 120 breaks the strong alignment
        down | {"ma20_slope": -0.05},  # strong_down
        down | {"ma20_slope": -0.01},  # down
        up | {"ma20_slope": -0.01},  # range: aligned up, but the 20-day line falls
        up | {"ma120": None, "ma20_slope": 0.05},  # warm-up
        up | {"ma20_slope": NAN},  # NaN counts as missing
    ]
    assert states_of("trend", rows) == [
        "strong_up",
        "up",
        "up",
        "strong_down",
        "down",
        "range",
        "unknown",
        "unknown",
    ]


def test_trend_needs_a_margin_over_the_60_day_line_and_the_long_line_on_its_side() -> None:
    """601318 as of 2021-12-31 was "up" on a 0.03-yuan margin over ma60 while 21% under ma250: now a range."""
    rising = {"close": 50.48, "ma5": 50.2, "ma20": 50.1, "ma60": 50.45, "ma120": 52.0, "ma20_slope": 0.01}
    atr = 1.2
    rows = [
        rising | {"ma20": 50.5, "ma60_gap_atr": 0.03 / atr, "long_ma_gap": -0.21},  # a few cents, far under ma250
        rising | {"ma20": 50.5, "ma60_gap_atr": 0.03 / atr, "long_ma_gap": 0.05},  # above ma250, margin too thin
        rising | {"ma20": 50.5, "ma60_gap_atr": 0.6, "long_ma_gap": -0.21},  # margin enough, under ma250
        rising | {"ma20": 50.5, "ma60_gap_atr": 0.6, "long_ma_gap": 0.05},  # both: up
        rising | {"ma20": 50.5, "ma60_gap_atr": 0.5, "long_ma_gap": 0.0},  # on the long line is not above it
        {"close": 40.0, "ma5": 41.0, "ma20": 42.0, "ma60": 44.0, "ma120": 46.0, "ma20_slope": -0.01,
         "ma60_gap_atr": -0.4, "long_ma_gap": -0.3},  # under every line, but within 0.5 ATR of ma60
        {"close": 40.0, "ma5": 41.0, "ma20": 42.0, "ma60": 44.0, "ma120": 46.0, "ma20_slope": -0.01,
         "ma60_gap_atr": -3.0, "long_ma_gap": 0.2},  # a pullback still above ma250
    ]  # fmt: skip
    assert states_of("trend", rows) == ["range", "range", "range", "up", "range", "range", "range"]


def test_trend_margin_and_long_gap_are_derived_from_the_bars() -> None:
    closes = [10 * 1.01**i for i in range(130)]
    frame = add_states(series("A", closes))  # no ma250 column: the long line is ma120 while ma250 warms up
    last = frame.row(-1, named=True)
    assert last["ma60_gap_atr"] == pytest.approx((last["close"] - last["ma60"]) / last["atr14"])
    assert last["long_ma_gap"] == pytest.approx(last["close"] / last["ma120"] - 1)
    with_long = series("A", closes).with_columns(ma250=pl.lit(100.0))
    assert add_states(with_long).row(-1, named=True)["long_ma_gap"] == pytest.approx(closes[-1] / 100 - 1)


def test_capital_states() -> None:
    rows = [
        {"flow_short": 0.04, "flow_long": 0.001},  # inflow (5-day rule)
        {"flow_short": -0.01, "flow_long": 0.025},  # inflow (20-day rule)
        {"flow_short": -0.04, "flow_long": -0.001},  # outflow
        {"flow_short": 0.01, "flow_long": -0.03},  # outflow (20-day rule)
        {"flow_short": 0.04, "flow_long": -0.01},  # neutral: 5-day inflow against a 20-day outflow
        {"flow_short": 0.01, "flow_long": None},  # no money flow
    ]
    assert states_of("capital", rows) == ["inflow", "inflow", "outflow", "outflow", "neutral", "unknown"]


def test_relative_strength_states() -> None:
    rows = [
        {"rs_short": 0.05, "rs_long": 0.01},
        {"rs_short": 0.05, "rs_long": -0.01},
        {"rs_short": -0.03, "rs_long": 0.0},
        {"rs_short": 0.0, "rs_long": 0.0},
        {"rs_short": None, "rs_long": 0.0},
    ]
    assert states_of("relative_strength", rows) == ["leading", "inline", "lagging", "inline", "unknown"]


def test_volatility_states() -> None:
    rows = [{"atr_pct": 0.03, "atr_pct_rank": r} for r in (0.99, 0.95, 0.8, 0.5, 0.25, 0.0)]
    rows.append({"atr_pct": 0.03, "atr_pct_rank": None})
    assert states_of("volatility", rows) == ["extreme", "extreme", "high", "normal", "low", "low", "unknown"]


def series(symbol: str, closes: list[float], start: date = START) -> pl.DataFrame:
    """A bar frame with the indicator columns the states need, built directly (simple moving means)."""
    days = [start + timedelta(days=i) for i in range(len(closes))]
    frame = pl.DataFrame({"symbol": symbol, "day": days, "close": closes})
    frame = frame.with_columns(
        open=pl.col("close"),
        high=pl.col("close") * 1.01,
        low=pl.col("close") * 0.99,
        amount=pl.lit(1_000_000.0),
    )
    mas = {f"ma{n}": pl.col("close").rolling_mean(n) for n in (5, 20, 60, 120)}
    return frame.with_columns(**mas, atr14=(pl.col("high") - pl.col("low")).rolling_mean(14))


def test_derived_inputs_per_symbol() -> None:
    a = series("A", [10 * 1.01**i for i in range(130)])
    b = series("B", [50 - 0.2 * i for i in range(130)])
    frame = add_states(pl.concat([a, b]))
    last_a = frame.filter(pl.col("symbol") == "A").row(-1, named=True)
    ma20 = a["ma20"].to_list()
    assert last_a["ma20_slope"] == pytest.approx(ma20[-1] / ma20[-11] - 1)
    assert last_a["trend_state"] == "strong_up"
    assert frame.filter(pl.col("symbol") == "B").row(-1, named=True)["trend_state"] == "strong_down"
    first_b = frame.filter(pl.col("symbol") == "B").head(20)
    assert first_b["ma20_slope"].null_count() == 20, "B's slope must not reach back into A's rows"
    assert frame["capital_state"].unique().to_list() == ["unknown"]
    assert frame["relative_strength_state"].unique().to_list() == ["unknown"]


def test_money_flow_and_benchmark_inputs() -> None:
    bars = series("A", [10 * 1.01**i for i in range(70)])
    days = bars["day"].to_list()
    flow = pl.DataFrame({"symbol": "A", "day": days[:-1], "main_net": [50_000.0] * (len(days) - 1)})
    bench = pl.DataFrame({"day": days, "close": [100.0] * len(days)})
    frame = add_states(with_money_flow(with_benchmark(bars, bench), flow))
    row = frame.row(-2, named=True)
    assert row["flow_short"] == pytest.approx(0.05) and row["capital_state"] == "inflow"
    assert row["rs_short"] == pytest.approx(1.01**20 - 1) and row["relative_strength_state"] == "leading"
    assert frame.row(-1, named=True)["capital_state"] == "unknown", "a day without money flow leaves a gap"


def test_the_returns_relative_strength_compares_are_its_inputs() -> None:
    """The stock's and the benchmark's returns over the table's windows, which rs_short and rs_long compare (the
    report says them); a window longer than the history has none."""
    bars = series("A", [10 * 1.01**i for i in range(70)])
    days = bars["day"].to_list()
    bench = pl.DataFrame({"day": days, "close": [100 * 1.002**i for i in range(len(days))]})
    frame = add_states(with_benchmark(bars, bench))
    found = relative_returns(frame, days[-1])
    (short, stock, benchmark), (long, _, _) = found["short"], found["long"]
    assert (short, long) == (20, 60) and stock is not None and benchmark is not None
    assert (stock, benchmark) == (pytest.approx(1.01**20 - 1), pytest.approx(1.002**20 - 1))
    assert (1 + stock) / (1 + benchmark) - 1 == pytest.approx(frame.row(-1, named=True)["rs_short"])
    assert relative_returns(frame, days[30])["long"] == (60, None, None)
    assert relative_returns(add_states(bars), days[-1])["short"][2] is None  # no benchmark


def test_volatility_rank_is_the_own_history_percentile() -> None:
    closes = [10.0] * 200
    bars = series("A", closes).with_columns(atr14=pl.int_range(1, 201, eager=True).cast(pl.Float64) / 100)
    frame = add_states(bars)
    assert frame["atr_pct_rank"][118] is None, "fewer than rank_min values"
    assert frame["atr_pct_rank"][-1] == pytest.approx(1.0)
    assert frame["volatility_state"][-1] == "extreme"
    falling = bars.with_columns(atr14=pl.col("atr14").reverse())
    assert add_states(falling)["volatility_state"][-1] == "low"


def test_states_on_quotes_the_rule_and_inputs() -> None:
    frame = add_states(series("A", [10 * 1.01**i for i in range(140)]))
    found = states_on(frame, START + timedelta(days=400))
    trend = found["trend"]
    assert found["day"] == START + timedelta(days=139)
    assert trend["state"] == "strong_up" and trend["table"] == "trend" and trend["version"] == "1.1"
    assert trend["rule"].startswith("strong_up: close > ma20")
    assert set(trend["inputs"]) == {"close", "ma5", "ma20", "ma60", "ma120", "ma20_slope", "ma60_gap_atr",
                                    "long_ma_gap"}  # fmt: skip
    assert math.isclose(trend["inputs"]["close"], 10 * 1.01**139)
    assert found["capital"]["rule"] == "unknown: missing flow_short, flow_long"
    volatility = found["volatility"]
    assert volatility["rule"].split(":")[0] == volatility["state"] != "unknown"
    assert 0 <= volatility["inputs"]["atr_pct_rank"] <= 1


def test_states_on_errors() -> None:
    frame = add_states(pl.concat([series("A", [10.0] * 30), series("B", [10.0] * 30)]))
    with pytest.raises(InvalidInput, match="several symbols"):
        states_on(frame, START)
    with pytest.raises(NotFound, match="no session of A"):
        states_on(frame, START - timedelta(days=1), "A")
    with pytest.raises(InvalidInput, match="no symbol column"):
        add_states(frame.drop("symbol"))


@pytest.mark.realdata
def test_real_states_2019_2021(shared_data: Path) -> None:
    from stockbench.analytics.frames import bars_from_community_parquet
    from stockbench.analytics.indicators import add_indicators

    symbols = ["600519.SH", "000001.SZ", "688981.SH", "300750.SZ"]
    real = bars_from_community_parquet(
        shared_data / "ashare_daily_2017_2022.parquet", symbols, date(2019, 1, 1), date(2021, 12, 31)
    )
    frame = add_states(add_indicators(real))
    expected = [
        ("300750.SZ", date(2020, 12, 31), "strong_up", "normal"),  # CATL's 2020 rally
        ("600519.SH", date(2021, 2, 10), "strong_up", "high"),  # Moutai at its February 2021 peak
        ("600519.SH", date(2021, 3, 10), "range", "extreme"),  # a month into the fall from it
        ("000001.SZ", date(2021, 12, 31), "down", "low"),
        ("688981.SH", date(2021, 12, 31), "down", "low"),
    ]
    for symbol, day, trend, volatility in expected:
        found = states_on(frame, day, symbol)
        assert (found["trend"]["state"], found["volatility"]["state"]) == (trend, volatility), (symbol, day)
    first = frame.filter(pl.col("symbol") == "688981.SH")["trend_state"]
    assert first.head(119).unique().to_list() == ["unknown"], "SMIC listed 2020-07-16: warm-up of ma120"
