"""The factor-score backtest: trade mechanics with known outcomes, costs from the fee rows, no look-ahead, the
walk-forward split, the CLI, and the real 2019-2021 data of four symbols (realdata)."""

from __future__ import annotations

import json
import random
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest

from stockbench.analytics.backtest import FeeCosts, run_backtest, split_day, trades
from stockbench.analytics.edge import Edge, grade, independent_count
from stockbench.analytics.indicators import add_indicators
from stockbench.analytics.rule_tables import load_rule_tables
from stockbench.analytics.signals import add_fires, add_score, score_frame, score_on
from stockbench.cli.main import run
from stockbench.market.fees import order_fees
from stockbench.market.instruments import identify

SYMBOL = "600519.SH"
START = date(2020, 1, 1)
MOUTAI = identify(SYMBOL).instrument


def bars(closes: list[float], symbol: str = SYMBOL, start: date = START) -> pl.DataFrame:
    """Daily bars: open at the previous close, high/low 1% around the close, calendar days as sessions."""
    days = [start + timedelta(days=i) for i in range(len(closes))]
    frame = pl.DataFrame({"symbol": symbol, "day": days, "close": closes})
    return frame.with_columns(
        open=pl.col("close").shift(1).fill_null(pl.col("close")),
        high=pl.col("close") * 1.01,
        low=pl.col("close") * 0.99,
        prev_close=pl.col("close").shift(1),
        volume=pl.lit(1e6),
        amount=pl.lit(1e7),
    )


def v_closes(n_down: int = 150, n_up: int = 200) -> list[float]:
    """Down 0.4% a session, then up 0.6%, with a deterministic +/-1.5% zigzag."""
    closes, close = [], 20.0
    for i in range(n_down + n_up):
        close *= 1 + (-0.004 if i < n_down else 0.006) + (0.015 if i % 2 == 0 else -0.015)
        closes.append(close)
    return closes


def walk(n: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    closes, close = [], 10.0
    for _ in range(n):
        close *= 1 + rng.gauss(0.0005, 0.02)
        closes.append(close)
    return closes


def fired(frame: pl.DataFrame, at: list[int]) -> pl.DataFrame:
    """`frame` with a hand-set signal: score 60 and a fire on the rows `at`."""
    flags = [i in at for i in range(frame.height)]
    return frame.with_columns(score=pl.lit(60.0), fire=pl.Series(flags))


def test_trade_enters_next_open_and_exits_close_h_sessions_later() -> None:
    frame = fired(bars([10.0 + i for i in range(80)]), [2])
    rows = trades(frame, [5, 20, 60], None).sort("horizon")
    first = rows.row(0, named=True)
    assert first["entry_day"] == START + timedelta(days=3) and first["entry"] == frame["open"][3] == 12.0
    assert first["exit_day"] == START + timedelta(days=7) and first["exit"] == frame["close"][7] == 17.0
    assert rows["exit"].to_list() == [17.0, 32.0, 72.0]
    assert rows["gross"].to_list() == pytest.approx([17 / 12 - 1, 32 / 12 - 1, 72 / 12 - 1])


def test_fires_on_a_cross_from_below_with_a_cooldown() -> None:
    scores = [None, 60, 40, 55, 40, 55, 45, 45, 45, 45, 45, 45, 55, 50]
    frame = pl.DataFrame({"symbol": "A", "score": scores}, schema_overrides={"score": pl.Float64})
    other = frame.with_columns(symbol=pl.lit("B"), score=pl.Series([40.0] * len(scores)))
    fires = add_fires(pl.concat([frame, other]))
    assert fires.filter(pl.col("symbol") == "A")["fire"].arg_true().to_list() == [3, 12]
    assert fires.filter(pl.col("symbol") == "B")["fire"].sum() == 0, "B's first row is no cross from A's last"


def states_row(**states: str) -> dict[str, object]:
    indicators = {"macd_dif": 0.0, "macd_bar": 0.0, "rsi12": 50.0}
    return {"symbol": "A", "day": START, **indicators} | {f"{k}_state": v for k, v in states.items()}


def test_score_adds_the_points_of_the_table_and_clips() -> None:
    best = states_row(trend="strong_up", relative_strength="leading", capital="inflow", volatility="normal")
    worst = states_row(trend="strong_down", relative_strength="lagging", capital="outflow", volatility="extreme")
    warm = states_row(trend="unknown", relative_strength="leading", capital="inflow", volatility="normal")
    rows = [
        best | {"macd_dif": 1.0, "macd_bar": 0.5},
        worst | {"macd_dif": -1.0, "macd_bar": -0.5, "rsi12": 85.0},
        warm,
        best | {"rsi12": None},
    ]
    scored = add_score(pl.DataFrame(rows))
    assert scored["score"].to_list() == [90.0, -100.0, None, 80.0]
    assert scored.row(1, named=True)["score_volatility"] == -10.0
    scored = add_fires(scored.with_columns(day=pl.Series([START + timedelta(days=i) for i in range(4)])))
    quoted = score_on(scored, START)
    assert quoted["score"] == 90.0 and quoted["parts"]["trend"] == 40.0 and quoted["parts"]["macd_up"] == 10.0
    assert (quoted["table"], quoted["version"], quoted["threshold"]) == ("factor_score", "1.0", 50.0)


def test_known_uptrend_wins_every_trade_after_costs() -> None:
    frame = score_frame(add_indicators(bars(v_closes())))
    report = run_backtest(frame, FeeCosts(MOUTAI, Decimal("100000")))
    assert len(report.fire_days) == 1 and report.fire_days[0] > START + timedelta(days=150)
    for stats in report.horizons:
        assert (stats.fires, stats.trades, stats.wins, stats.win_rate) == (1, 1, 1, 1.0)
        assert stats.ev is not None and stats.avg_cost is not None and stats.ev > 0
    rows = trades(frame, [20], FeeCosts(MOUTAI, Decimal("100000")))
    assert rows["gross"][0] - rows["net"][0] == pytest.approx(rows["cost"][0])
    assert report.horizon(20).ev == pytest.approx(rows["net"][0])


def test_a_steady_decline_never_fires() -> None:
    report = run_backtest(score_frame(add_indicators(bars([30 * 0.997**i for i in range(300)]))), None)
    assert report.fire_days == () and report.sessions > 0
    stats = report.horizon(20)
    assert (stats.fires, stats.trades, stats.win_rate, stats.ev) == (0, 0, None, None)
    assert "never fired" in stats.sample_note


def test_costs_are_the_round_trip_fee_rows() -> None:
    costs = FeeCosts(MOUTAI, Decimal("100000"))
    day = date(2021, 6, 1)
    buy = order_fees(MOUTAI, "buy", 1000, Decimal("100"), day).total
    sell = order_fees(MOUTAI, "sell", 1000, Decimal("100"), day).total
    assert costs.round_trip(day, day) == pytest.approx(float((buy + sell) / 100000))
    assert costs.rate("sell", day) - costs.rate("buy", day) == pytest.approx(0.001), "stamp duty 0.1% on sells"
    assert costs.covered_from() == date(2015, 8, 1)
    assert costs.note([date(2015, 7, 31), date(2015, 8, 1)]).endswith(
        "1 trades entered before 2015-08-01, where the fee rows are incomplete: costs understated"
    )
    before, after = costs.rate("sell", date(2023, 8, 25)), costs.rate("sell", date(2023, 8, 28))
    assert before - after == pytest.approx(0.0005 + 0.0000487 - 0.0000341, abs=1e-12), "stamp duty halved"


def test_locked_limit_up_entry_is_unfilled_and_late_fires_are_pending() -> None:
    frame = bars([10.0 + 0.1 * i for i in range(70)])
    locked = frame.with_columns(
        pl.when(pl.int_range(pl.len()) == 4).then(pl.lit(11.0)).otherwise(pl.col(c)).alias(c)
        for c in ("open", "high", "low", "close")
    )
    report = run_backtest(fired(locked, [3, 65]), None)
    stats = report.horizon(5)
    assert (stats.fires, stats.trades, stats.unfilled, stats.pending) == (2, 0, 1, 1)
    assert "1 unfillable" in stats.sample_note and "1 still open" in stats.sample_note


def steps(blocks: int) -> list[float]:
    """Blocks of 10 sessions: five rises of 2%, then five flat sessions (a signal on each block's first session
    catches the rise; any window catches it only in part)."""
    closes, close = [], 10.0
    for i in range(blocks * 10):
        close *= 1.02 if 1 <= i % 10 <= 5 else 1.0
        closes.append(close)
    return closes


def test_small_samples_cap_confidence() -> None:
    frame = fired(bars(steps(20)), list(range(0, 120, 10)))
    stats = run_backtest(frame, None).horizon(5)
    assert stats.evidence == "small_sample", "an edge over the base rate, on 12 independent trades"
    assert stats.trades == stats.independent == 12
    assert stats.confidence_cap == load_rule_tables().sample_cap(12) == 0.6
    assert "(below 30): confidence capped at 0.6 (sample_confidence v2.0)" in stats.sample_note


def test_a_signal_no_better_than_any_window_is_capped_whatever_its_sample() -> None:
    """A steady rise: every trade wins, and so does every window. Issue 18: the sample alone gave full
    confidence; without an edge over the base rate the cap is no_edge_cap."""
    frame = fired(bars([10.0 + 0.1 * i for i in range(400)]), list(range(0, 390, 6)))
    stats = run_backtest(frame, None).horizon(5)
    assert stats.independent >= 30 and stats.win_rate == stats.base_win_rate == 1.0
    assert stats.evidence == "no_edge" and stats.confidence_cap == 0.3
    assert "no edge over the base rate: confidence capped at 0.3" in stats.sample_note
    assert "full confidence" not in stats.sample_note and "not capped" not in stats.sample_note


def test_base_rate_and_independent_trades_on_a_constructed_series() -> None:
    """The base rate is the same trade from every scored session (next open = this close, exit h sessions later),
    the independent trades the non-overlapping ones counted from the first; both computed here by hand."""
    closes = steps(12)
    at = [0, 3, 10, 12, 30, 31, 60]
    frame = fired(bars(closes), at)
    h, n = 5, len(closes)
    windows = [closes[t + h] / closes[t] - 1 for t in range(n - h)]  # entry open[t+1] == close[t]
    signal = [closes[t + h] / closes[t] - 1 for t in at]
    stats = run_backtest(frame, None).horizon(h)
    assert stats.base_windows == len(windows) == n - h
    assert stats.base_ev == pytest.approx(sum(windows) / len(windows))
    assert stats.base_win_rate == pytest.approx(sum(w > 0 for w in windows) / len(windows))
    assert stats.ev == pytest.approx(sum(signal) / len(signal))
    # 0 (enters 1, exits 5) counts; 3 enters 4 <= 5: overlaps; 10 counts; 12 overlaps; 30 counts; 31 overlaps; 60
    assert (stats.trades, stats.independent, stats.overlapping) == (7, 4, 3)
    # windows from every session: t = 0, 5, 10, ... enter after the previous one exited
    assert stats.base_independent == (n - h - 1) // h + 1
    assert stats.ev_edge == pytest.approx(stats.ev - stats.base_ev)
    assert stats.win_rate_edge == pytest.approx(stats.win_rate - stats.base_win_rate)
    row = run_backtest(frame, None).as_dict()["horizons"]["5"]
    assert {"independent", "base_windows", "base_independent", "base_win_rate", "base_ev", "ev_edge",
            "win_rate_edge", "evidence"} <= set(row)  # fmt: skip


def test_independent_count_takes_trades_greedily_from_the_first() -> None:
    day = date(2021, 1, 4)

    def at(entry: int, exit_day: int) -> tuple[date, date]:
        return day + timedelta(days=entry), day + timedelta(days=exit_day)

    assert independent_count([]) == 0
    assert independent_count([at(0, 5), at(5, 10), at(6, 11), at(11, 16)]) == 2, "entering on the exit day overlaps"
    assert independent_count([at(6, 11), at(0, 5)]) == 2, "in entry order, whatever the input order"


def test_grades_follow_the_sample_and_the_edge() -> None:
    book = load_rule_tables()

    def graded(*figures: float) -> str:
        """fires, trades, independent trades, win rate, EV, base win rate, base EV."""
        fires, trades, alone, win, ev, base_win, base_ev = figures
        return grade(Edge(20, int(fires), int(trades), int(alone), win, ev, base_win, base_ev), book)

    assert graded(0, 0, 0, 0, 0, 0.5, 0.01) == "never_fired"
    assert graded(31, 31, 31, 0.4839, 0.004, 0.5, 0.01) == "no_edge", "issue 18: 0.4839 is no full confidence"
    assert graded(40, 40, 40, 0.70, 0.004, 0.5, 0.01) == "no_edge", "a better win rate, a worse EV"
    assert graded(40, 40, 40, 0.62, 0.015, 0.6, 0.01) == "thin_edge"
    assert graded(40, 40, 12, 0.70, 0.05, 0.6, 0.03) == "small_sample"
    assert graded(40, 40, 30, 0.70, 0.05, 0.6, 0.03) == "edge"


def test_future_bars_never_change_a_past_signal() -> None:
    closes = walk(500, seed=11)
    cut = 380
    rng = random.Random(5)
    changed = closes[:cut] + [c * rng.uniform(0.5, 1.5) for c in closes[cut:]]
    columns = ["score", "fire", "trend_state", "volatility_state", "relative_strength_state"]
    bench = bars(walk(500, seed=3)).select("day", "close")
    one = score_frame(add_indicators(bars(closes)), benchmark=bench).head(cut)
    two = score_frame(add_indicators(bars(changed)), benchmark=bench).head(cut)
    assert one.select(columns).equals(two.select(columns))
    assert one["score"].null_count() < cut - 150, "the test must cover scored sessions"


def test_walk_forward_keeps_samples_apart() -> None:
    frame = score_frame(add_indicators(bars(walk(1500, seed=2))), benchmark=bars(walk(1500, seed=9)))
    report = run_backtest(frame, None)
    split = report.split_day
    assert split == split_day(frame, 0.7) and split is not None
    scored = frame.filter(pl.col("score").is_not_null())["day"]
    assert (scored < split).sum() == int(len(scored) * 0.7)
    rows = trades(frame, [5, 20, 60], None)
    assert len(report.fire_days) > 10
    for whole, ins, outs in zip(report.horizons, report.in_sample, report.out_of_sample, strict=True):
        mine = rows.filter(pl.col("horizon") == whole.horizon)
        assert ins.fires == mine.filter(pl.col("exit_day") < split).height
        assert outs.fires == mine.filter(pl.col("day") >= split).height
        assert ins.trades + outs.trades <= whole.trades
        straddling = mine.filter((pl.col("day") < split) & (pl.col("exit_day") >= split)).height
        assert ins.fires + outs.fires + straddling + (mine["exit"].is_null() & (mine["day"] < split)).sum() == (
            whole.fires
        )


def write_csv(path: Path, closes: list[float]) -> None:
    lines = ["symbol,date,open,high,low,close,prev_close,volume,amount"]
    previous = None
    for i, close in enumerate(closes):
        o, c = round(previous or close, 2), round(close, 2)
        high, low = round(max(o, c) * 1.01, 2), round(min(o, c) * 0.99, 2)
        ref = "" if previous is None else f"{round(previous, 2):.2f}"
        lines.append(f"600519,{START + timedelta(days=i)},{o:.2f},{high:.2f},{low:.2f},{c:.2f},{ref},100000,")
        previous = c
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_backtest_command(home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bars.csv"
    write_csv(path, v_closes())
    assert run(["data", "import", str(path)]) == 0
    capsys.readouterr()
    assert run(["--json", "backtest", "600519"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["symbol"] == SYMBOL and set(data["horizons"]) == {"5", "20", "60"}
    for horizon in data["horizons"].values():
        assert {"fires", "win_rate", "ev", "sample_note", "in_sample", "out_of_sample"} <= set(horizon)
        assert horizon["fires"] == 1 and horizon["win_rate"] == 1.0 and horizon["ev"] > 0
    assert data["latest_score"]["table"] == "factor_score"
    as_of = str(START + timedelta(days=200))
    assert run(["--json", "backtest", "600519", "--as-of", as_of]) == 0
    replay = json.loads(capsys.readouterr().out)
    assert replay["last_day"] <= as_of and replay["fires"] == 0


def test_backtest_command_without_bars(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--json", "backtest", "000001"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["error"]["code"] == "data_unavailable"


REAL = {"600519.SH": 12, "000001.SZ": 9, "688981.SH": 1, "300750.SZ": 18}


@pytest.mark.realdata
def test_four_real_symbols_2019_2021(shared_data: Path) -> None:
    from stockbench.analytics.frames import bars_from_community_parquet

    real = bars_from_community_parquet(
        shared_data / "ashare_daily_2017_2022.parquet", list(REAL), date(2019, 1, 1), date(2021, 12, 31)
    )
    frame = score_frame(add_indicators(real))
    for symbol, fires in REAL.items():
        mine = frame.filter(pl.col("symbol") == symbol)
        costs = FeeCosts(identify(symbol).instrument, Decimal("100000"))
        report = run_backtest(mine, costs)
        assert len(report.fire_days) == fires, f"{symbol}: factor_score v1.0 signals 2019-2021"
        for stats in report.horizons:
            assert stats.fires == fires and stats.trades + stats.pending + stats.unfilled == fires
            assert stats.win_rate is None or 0 <= stats.win_rate <= 1
            reference = costs.round_trip(date(2020, 1, 2), date(2020, 1, 2))
            assert stats.avg_cost is None or stats.avg_cost == pytest.approx(reference)
        day = report.fire_days[0]
        after = mine.filter(pl.col("day") > day).row(0, named=True)
        entry = trades(mine, [5], costs).filter(pl.col("day") == day).row(0, named=True)
        assert (entry["entry_day"], entry["entry"]) == (after["day"], after["open"])
    moutai = run_backtest(frame.filter(pl.col("symbol") == "600519.SH"), FeeCosts(MOUTAI, Decimal("100000")))
    assert moutai.horizon(20).trades == 10 and moutai.horizon(20).wins == 9


@pytest.mark.realdata
def test_600519_as_of_2021_02_18_signal_against_the_base_rate(shared_data: Path) -> None:
    """Issue 18: 600519's signal (about 5% and two thirds of trades won over 20 sessions) stood alone, with no base
    rate (about 3% and 59% for any 20-session window of the same history). Figures of factor_score v1.0 and
    trend v1.1 on the full history to 2021-02-18 (the community CSV, no benchmark: the `backtest` command's)."""
    from stockbench.analytics.frames import bars_from_community_csv

    history = bars_from_community_csv(shared_data / "ashare_full" / "sh600519.csv")
    frame = score_frame(add_indicators(history.filter(pl.col("day") <= date(2021, 2, 18))))
    stats = run_backtest(frame, FeeCosts(MOUTAI, Decimal("100000"))).horizon(20)
    assert (stats.fires, stats.trades, stats.independent, stats.overlapping) == (74, 73, 49, 30)
    assert stats.win_rate == pytest.approx(0.6849, abs=1e-4) and stats.ev == pytest.approx(0.0537, abs=1e-4)
    assert stats.base_windows == 4495 and stats.base_independent == 225
    assert stats.base_win_rate == pytest.approx(0.5935, abs=1e-4) and stats.base_ev == pytest.approx(0.0309, abs=1e-4)
    assert stats.evidence == "edge" and stats.confidence_cap == 1.0
    assert "vs base rate 3.09%, 59.35% (any 20-session window)" in stats.sample_note
    assert score_on(frame, date(2021, 2, 18))["fired"] is False, "no signal on the day: a report does not cite it"
