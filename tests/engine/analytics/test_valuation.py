"""Valuation percentiles and bands: the 1,000-day gate, the mid-rank percentile, losses, bands from the implied
per-share value, the vectorised table across symbols, and the service reading the cache point-in-time."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest

from stockbench.analytics.valuation import (
    band_levels,
    bands,
    min_days,
    percentile_frame,
    percentiles,
    screen_percentile,
)
from stockbench.clock import ReplayClock
from stockbench.data.records import ValuationDay
from stockbench.market.instruments import parse_symbol
from stockbench.workbench import Workbench

START = date(2015, 1, 5)
MOUTAI = parse_symbol("600519.SH")


def history(pe: list[float | None], symbol: str = "600519.SH", close: float = 100.0) -> pl.DataFrame:
    days = [START + timedelta(days=i) for i in range(len(pe))]
    return pl.DataFrame(
        {
            "symbol": symbol,
            "day": days,
            "close": close,
            "pe_ttm": pe,
            "pb_mrq": [None if v is None else v / 10 for v in pe],
            "ps_ttm": None,
        },
        schema_overrides={"ps_ttm": pl.Float64, "pe_ttm": pl.Float64},
    )


def test_the_gate_is_the_data_gate_threshold() -> None:
    assert min_days() == 1000
    short = percentiles(history([10.0 + i % 7 for i in range(999)]))
    assert short["pe_ttm"].status == "gap" and "999 days" in short["pe_ttm"].reason
    assert short["pe_ttm"].percentile is None
    assert short["ps_ttm"].status == "gap" and short["ps_ttm"].reason == "no PS TTM history"


def test_mid_rank_percentile() -> None:
    values = [float(v) for v in range(1, 1001)]  # 1 .. 1000; the latest is 500
    found = percentiles(history([*values[:-1], 500.0]))["pe_ttm"]
    # 499 days below 500, two equal to it (day 500 and today), of 1,000
    assert found.status == "ok" and found.percentile == pytest.approx((499 + 0.5 * 2) / 1000)
    assert found.days == 1000 and found.first == START and found.value == 500.0
    constant = percentiles(history([20.0] * 1000))["pe_ttm"]
    assert constant.percentile == pytest.approx(0.5)


def test_losses_are_left_out_and_a_loss_today_is_a_gap() -> None:
    values = [-5.0] * 100 + [float(v) for v in range(1, 1001)]
    found = percentiles(history(values))["pe_ttm"]
    assert found.days == 1000 and found.percentile == pytest.approx(0.9995)
    today_loss = percentiles(history([*values, -3.0]))["pe_ttm"]
    assert today_loss.status == "gap" and "not positive" in today_loss.reason


def test_as_of_hides_later_days() -> None:
    values = [float(v) for v in range(1, 1201)]
    found = percentiles(history(values), as_of=START + timedelta(days=1099))["pe_ttm"]
    assert found.value == 1100.0 and found.days == 1100 and found.percentile == pytest.approx(1099.5 / 1100)


def test_bands_from_the_implied_per_share_value() -> None:
    values = [float(v) for v in range(1, 1001)]  # today 1000 at a close of 100: earnings per share 0.1
    found = bands(history(values), MOUTAI, at=(0.2, 0.5, 0.8))
    pe = [b for b in found if b.metric == "pe_ttm"]
    expected = pl.Series(values).quantile(0.2, interpolation="linear")
    assert pe[0].ratio == pytest.approx(expected)
    assert pe[0].price == (Decimal("100") * Decimal(repr(expected)) / Decimal("1000")).quantize(Decimal("0.01"))
    assert [b.price for b in pe] == sorted(b.price for b in pe)
    levels = band_levels(found, "600519.SH", scale=Decimal("2"))
    sides = dict(zip(levels["name"], levels["side"], strict=True))
    assert sides == {
        "pe_ttm_p20": "support",
        "pe_ttm_p50": "either",
        "pe_ttm_p80": "resistance",
        "pb_mrq_p20": "support",
        "pb_mrq_p50": "either",
        "pb_mrq_p80": "resistance",
    }
    assert levels.filter(pl.col("name") == "pe_ttm_p20")["value"][0] == pytest.approx(float(pe[0].price) / 2)
    assert bands(history(values[:500]), MOUTAI) == []  # no band without the 1,000 days


def test_vectorised_table_matches_one_symbol_at_a_time() -> None:
    one = history([float(v % 37 + 1) for v in range(1100)], "600519.SH")
    two = history([float(v % 11 + 5) for v in range(1050)], "000001.SZ")
    together = percentile_frame(pl.concat([one, two]))
    alone = pl.concat([percentile_frame(one), percentile_frame(two)]).sort("symbol", "metric")
    assert together.equals(alone)
    chosen = screen_percentile(pl.concat([one, two]))
    assert chosen["valuation_metric"].to_list() == ["PE TTM", "PE TTM"]


def test_service_reads_the_cache_point_in_time(tmp_path: Path) -> None:
    days = [START + timedelta(days=i) for i in range(1200)]
    rows = [
        ValuationDay("600519.SH", d, Decimal("100"), None, Decimal(str(10 + i % 50)), None, None, None, None, "test")
        for i, d in enumerate(days)
    ]
    with Workbench.open(tmp_path / "w", clock=ReplayClock.as_of(days[-1])) as bench:
        bench.data.cache.store_valuation(rows)
    with Workbench.open(tmp_path / "w", clock=ReplayClock.as_of(days[998])) as bench:
        assert bench.analytics.valuation("600519")["pe_ttm"].status == "gap"  # 999 days visible
    with Workbench.open(tmp_path / "w", clock=ReplayClock.as_of(days[-1])) as bench:
        found = bench.analytics.valuation("600519")["pe_ttm"]
    assert found.status == "ok" and found.days == 1200 and found.last == days[-1]
