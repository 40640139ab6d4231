"""The price facts of 600519 as of 2021-02-18 from the real community file (realdata): its all-time-high reversal
day, 56% above the 250-day line. Values cross-checked against the indicator module and the file itself."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest

from stockbench.analytics.frames import bars_from_community_csv, forward_adjust
from stockbench.analytics.indicators import add_indicators
from stockbench.analytics.price_facts import price_facts
from stockbench.clock import ReplayClock
from stockbench.data.cache import MarketDataCache
from stockbench.data.importer import import_path
from stockbench.market.instruments import identify
from tests.engine.data.test_cache import new_db

pytestmark = pytest.mark.realdata
DAY = date(2021, 2, 18)


def test_moutai_on_its_reversal_day(shared_data: Path) -> None:
    source = shared_data / "ashare_full" / "sh600519.csv"
    db = new_db()
    cache = MarketDataCache(db, ReplayClock.as_of(DAY))
    import_path(cache, db, source)
    found = price_facts(identify("600519.SH").instrument, cache.bars("600519.SH", end=DAY))
    db.close()
    assert (found.day, found.close, found.prev_close, found.change, found.change_pct) == (
        DAY, Decimal("2471.00"), Decimal("2601.00"), Decimal("-130.00"), Decimal("-5.00"))  # fmt: skip
    assert (found.high_52w, found.high_52w_day) == (Decimal("2627.88"), DAY)  # the all-time high, that very day
    # the COVID low of 2020-03-19 (960.10 unadjusted), forward-adjusted for the 2020-06-24 dividend
    assert (found.low_52w, found.low_52w_day) == (Decimal("949.02"), date(2020, 3, 19))
    assert (found.drawdown_pct, found.range_position_pct) == (Decimal("-5.97"), Decimal("90.66"))
    assert (found.ma250, found.ma250_distance_pct) == (Decimal("1581.21"), Decimal("56.27"))
    assert (found.volume, found.amount) == (6_591_232, Decimal("16704135269.0000"))
    assert found.float_mcap == found.total_mcap == Decimal("3104064763800.00")
    assert found.turnover_pct == Decimal("0.52")  # 6,591,232 shares of 3104064763800 / 2471 float shares
    assert found.sessions_52w == 242
    # the indicator module's 250-day line on the file's closes forward-adjusted at the same session
    unadjusted = bars_from_community_csv(source, adjust="none").filter(pl.col("day") <= DAY)
    indicators = add_indicators(forward_adjust(unadjusted)).row(-1, named=True)
    assert float(found.ma250) == pytest.approx(indicators["ma250"], abs=0.005)
    assert found.as_dict()["ma250_distance_pct"] == "56.27" and found.as_dict()["range_weeks"] == 52
    # the setup's two other distances (decision_baseline 1.3), as the study computes them from the indicators
    assert (found.ma20_distance_pct, found.change_20_pct) == (Decimal("12.50"), Decimal("15.79"))
    assert float(found.ma20_distance_pct) == pytest.approx(
        (indicators["close"] / indicators["ma20"] - 1) * 100, abs=0.01
    )
    earlier = forward_adjust(unadjusted).get_column("close").to_list()[-21]
    assert float(found.change_20_pct) == pytest.approx((indicators["close"] / earlier - 1) * 100, abs=0.01)
    assert found.as_dict()["short_sessions"] == 20


def test_600078_under_its_delisting_risk_warning(shared_data: Path, tmp_path: Path) -> None:
    """*ST澄星 as of 2021-06-30: the name it carried that session says *ST (since 2021-05-06), and with it the main
    board's 5% limit for special treatment; on its last session as 澄星股份, an ordinary stock's 10%."""
    from stockbench.workbench import Workbench

    with Workbench.open(tmp_path / "workspace", clock=ReplayClock.as_of(date(2021, 6, 30))) as bench:
        assert bench.data.import_file(shared_data / "ashare_full" / "sh600078.csv").rejected == 0
        facts = bench.analytics.price_facts("600078.SH")
        names = bench.market.registry
        assert names.name_on("600078.SH", facts.day) == "*ST澄星"
        assert (facts.special_treatment, facts.limit_pct) == ("*ST", Decimal("5.00"))
        before = bench.analytics.price_facts("600078.SH", date(2021, 4, 30))  # its last session as 澄星股份
        assert names.name_on("600078.SH", before.day) == "澄星股份"
        assert (before.special_treatment, before.limit_pct) == (None, Decimal("10.00"))
