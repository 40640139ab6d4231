"""The backtest as an argument of the debate, and the calibrated table's range as a report line.

A backtest says something about today only when its signal fires on the as-of session; then it is cited beside
the base rate of the same horizon and its count of independent trades, for the bull when the signal beats the
base rate and for the bear when it does not. Every number is copied from the backtest facts block as shown.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

from stockbench.research.blocks import BacktestFact, CalibrationFact, HorizonFact
from stockbench.research.wording import say
from stockbench.research.wording.entry import Language

Side = Literal["bull", "bear"]
BULL_GRADES = frozenset({"thin_edge", "small_sample", "edge"})
BEAR_GRADES = frozenset({"no_edge"})
CITED_HORIZON = "20"  # the decision baseline's horizon


def _pct(rate: Decimal) -> str:
    """A fraction as the percent the facts support (0.6800 -> 68.0)."""
    return format((rate * 100).quantize(Decimal("0.1"), ROUND_HALF_UP), "f")  # as the number gate displays it


def side_of(horizon: HorizonFact) -> Side | None:
    """Whose argument the backtest is: the bull's when the signal beats the base rate, the bear's when not."""
    if horizon.evidence in BULL_GRADES:
        return "bull"
    return "bear" if horizon.evidence in BEAR_GRADES else None


def backtest_argument(backtest: BacktestFact | None, side: Side, language: Language) -> str | None:
    """The backtest as `side`'s argument, or None: not fired on the as-of session, no base rate, or the other
    side's argument."""
    if backtest is None or not backtest.signal.fired:
        return None
    h = backtest.horizons.get(CITED_HORIZON)
    if h is None or side_of(h) != side:
        return None
    if h.win_rate is None or h.ev_pct is None or h.base_win_rate is None or h.base_ev_pct is None:
        return None
    grade = say(f"backtest.evidence.{h.evidence}", language)
    return say("backtest.cited", language, day=backtest.signal.day, horizon=h.horizon or CITED_HORIZON,
               ev=h.ev_pct, win=_pct(h.win_rate), trades=h.trades, independent=h.independent,
               base_ev=h.base_ev_pct, base_win=_pct(h.base_win_rate), grade=grade)  # fmt: skip


def calibration_line(calibration: CalibrationFact | None, language: Language) -> str | None:
    """The scenario table's data range for the report, a look-ahead disclosure when its data reaches the
    research date (None for blocks written before tables carried their range)."""
    if calibration is None:
        return None
    key = "calibration.look_ahead" if calibration.look_ahead else "calibration.range"
    return say(key, language, data_from=calibration.data_from, data_to=calibration.data_to)
