"""The peer table on real bars of three A-shares (realdata): returns, volatility and relative strength worked out by
hand from the adjusted closes, valuation percentiles and year-on-year growth joined where present."""

from __future__ import annotations

import math
from datetime import date, timedelta
from pathlib import Path

import polars as pl
import pytest

from stockbench.analytics.frames import bars_from_community_csv
from stockbench.analytics.peers import peer_table

AS_OF = date(2021, 6, 30)
CODES = ("sh600519", "sz000001", "sz300750")


@pytest.fixture
def bars(shared_data: Path) -> pl.DataFrame:
    frames = [bars_from_community_csv(shared_data / "ashare_full" / f"{c}.csv") for c in CODES]
    return pl.concat(frames).filter(pl.col("day") >= date(2019, 1, 1))


def closes(bars: pl.DataFrame, symbol: str) -> list[float]:
    return bars.filter((pl.col("symbol") == symbol) & (pl.col("day") <= AS_OF)).get_column("close").to_list()


@pytest.mark.realdata
def test_returns_volatility_and_relative_strength(bars: pl.DataFrame) -> None:
    table = peer_table(bars, AS_OF)
    assert table.get_column("symbol").to_list() == ["000001.SZ", "300750.SZ", "600519.SH"]
    rows = {r["symbol"]: r for r in table.iter_rows(named=True)}
    for symbol, row in rows.items():
        c = closes(bars, symbol)
        assert row["day"] == AS_OF and row["close"] == c[-1]
        for n in (20, 60, 250):
            assert row[f"ret{n}"] == pytest.approx(c[-1] / c[-1 - n] - 1, rel=1e-12)
        logs = [math.log(c[i] / c[i - 1]) for i in range(len(c) - 60, len(c))]
        mean = sum(logs) / 60
        sd = math.sqrt(sum((x - mean) ** 2 for x in logs) / 59)
        assert row["volatility"] == pytest.approx(sd * math.sqrt(244), rel=1e-9)
    median = sorted(r["ret60"] for r in rows.values())[1]
    for row in rows.values():
        assert row["rs_basis"] == "peer median"
        assert row["rs"] == pytest.approx((1 + row["ret60"]) / (1 + median) - 1, rel=1e-12)


@pytest.mark.realdata
def test_relative_strength_against_a_benchmark(bars: pl.DataFrame) -> None:
    bench = bars.filter(pl.col("symbol") == "600519.SH").select("day", "close")
    table = peer_table(bars, AS_OF, benchmark=bench)
    moutai = table.filter(pl.col("symbol") == "600519.SH").row(0, named=True)
    assert moutai["rs_basis"] == "benchmark" and moutai["rs"] == pytest.approx(0.0, abs=1e-12)


@pytest.mark.realdata
def test_valuation_and_growth_are_joined_where_present(bars: pl.DataFrame) -> None:
    days = [AS_OF - timedelta(days=i) for i in range(1100)]
    valuation = pl.DataFrame({"symbol": "600519.SH", "day": days, "pe_ttm": [50.0 - i / 100 for i in range(1100)]})
    valuation = valuation.with_columns(pb_mrq=pl.lit(None, pl.Float64), ps_ttm=pl.lit(None, pl.Float64))
    financials = pl.DataFrame(
        {
            "symbol": ["600519.SH"] * 4,
            "period_end": [date(2020, 3, 31), date(2021, 3, 31), date(2020, 3, 31), date(2021, 3, 31)],
            "item": ["revenue", "revenue", "net_profit_parent", "net_profit_parent"],
            "value": [100.0, 110.0, 40.0, 50.0],
        }
    )
    table = peer_table(bars, AS_OF, valuation=valuation, financials=financials)
    moutai = table.filter(pl.col("symbol") == "600519.SH").row(0, named=True)
    assert moutai["pe_ttm"] == 50.0 and moutai["pe_ttm_pct"] == pytest.approx(1 - 0.5 / 1100)
    assert moutai["revenue_yoy"] == pytest.approx(0.10) and moutai["net_profit_parent_yoy"] == pytest.approx(0.25)
    assert moutai["growth_period"] == date(2021, 3, 31)
    bank = table.filter(pl.col("symbol") == "000001.SZ").row(0, named=True)
    assert bank["pe_ttm"] is None and bank["revenue_yoy"] is None  # never estimated
