"""The signal study's plans (bench/signal_study.py `plans`) against research's zones on the same real sessions: the
study judges each buy candidate's plan with the one zone algorithm on the session's own window, so its
reward-to-risk must be research's up to the tick rounding research applies, and its tradeable verdict the same
wherever the ratio is not within that rounding of the minimum. The study's candidate figures (the issue 18 replay
target, measured on the whole universe) rest on this."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest

from bench.signal_study import plans, session_frame
from stockbench.analytics.rule_tables import load_rule_tables
from tests.engine.analytics.test_zones import real_workspace, zones_on

pytestmark = pytest.mark.realdata

CODES = {"600519.SH": "sh600519", "601318.SH": "sh601318", "300750.SZ": "sz300750"}
DAYS = [date(2020, 3, 20), date(2020, 9, 30), date(2021, 2, 18), date(2021, 6, 30), date(2021, 12, 31)]


def test_the_study_s_plans_are_research_s_zones_on_the_same_sessions(shared_data: Path, tmp_path: Path) -> None:
    home = real_workspace(tmp_path, shared_data, list(CODES.values()), since="2017-01-01")
    small = tmp_path / "three.parquet"
    codes = list(CODES.values())
    pl.scan_parquet(shared_data / "ashare_daily_2017_2022.parquet").filter(pl.col("code").is_in(codes)).sink_parquet(
        small
    )
    frame = session_frame(small)
    chosen = frame.filter(pl.col("day").is_in(DAYS)).select("symbol", "day", "n")
    assert chosen.height == len(CODES) * len(DAYS)
    judged = {(r["symbol"], r["day"]): r for r in plans(frame, chosen, load_rule_tables()).iter_rows(named=True)}
    minimum = load_rule_tables().zones.decimal("min_reward_risk")
    compared = 0
    for symbol in CODES:
        for day in DAYS:
            research = zones_on(home, symbol, day)
            study = judged[(symbol, day)]
            ratio = Decimal(str(study["reward_risk"]))
            # research rounds each bound to the tick: a few ticks over an ATR-wide risk moves the ratio a little
            assert abs(ratio - research.reward_risk) <= Decimal("0.05") + Decimal("0.02") * research.reward_risk, (
                symbol, day, ratio, research.reward_risk)  # fmt: skip
            if abs(research.reward_risk - minimum) > Decimal("0.1"):
                assert study["tradeable"] == research.tradeable, (symbol, day, study, research.reasons)
                compared += 1
    assert compared >= 10  # most sessions are judged away from the boundary
