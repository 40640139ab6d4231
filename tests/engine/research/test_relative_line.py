"""The report's relative-strength line: an in-line state whose 20- and 60-session windows point opposite ways says
both directions; one whose windows agree, or a leading or lagging state, says the state alone."""

from __future__ import annotations

from decimal import Decimal

import pytest

from stockbench.research.blocks import RelativeReturnsFact, RelativeWindowFact, StateFact, StatesFact
from stockbench.research.context import relative_strength_line


def states(state: str, short: tuple[str, str], long: tuple[str, str]) -> StatesFact:
    windows = tuple(RelativeWindowFact(n, Decimal(s), Decimal(b)) for n, (s, b) in ((20, short), (60, long)))
    return StatesFact(relative_strength=StateFact(state, returns=RelativeReturnsFact("000300.SH", windows)))


@pytest.mark.parametrize(
    ("short", "long", "zh", "en"),
    [
        (("-27.54", "-11.65"), ("24.33", "-12.44"), "同步（近20个交易日跑输基准，近60个交易日跑赢基准：两段方向相反）",
         "in line (behind the benchmark over 20 sessions, ahead of it over 60: the two windows disagree)"),
        (("5.10", "2.00"), ("-1.00", "3.00"), "同步（近20个交易日跑赢基准，近60个交易日跑输基准：两段方向相反）",
         "in line (ahead of the benchmark over 20 sessions, behind it over 60: the two windows disagree)"),
    ],
)  # fmt: skip
def test_an_in_line_state_with_windows_pointing_opposite_ways(
    short: tuple[str, str], long: tuple[str, str], zh: str, en: str
) -> None:
    said = states("inline", short, long)
    assert zh in (relative_strength_line(said, None, "zh") or "")
    assert en in (relative_strength_line(said, None, "en") or "")


@pytest.mark.parametrize(
    ("state", "short", "long"),
    [("inline", ("1.00", "0.50"), ("2.00", "1.00")), ("inline", ("1.00", "1.00"), ("-2.00", "1.00")),
     ("leading", ("9.00", "1.00"), ("5.00", "1.00")), ("lagging", ("-9.00", "1.00"), ("-5.00", "1.00"))],
)  # fmt: skip
def test_the_state_alone_where_the_windows_agree(state: str, short: tuple[str, str], long: tuple[str, str]) -> None:
    zh = relative_strength_line(states(state, short, long), None, "zh") or ""
    en = relative_strength_line(states(state, short, long), None, "en") or ""
    assert "方向相反" not in zh and "disagree" not in en and zh.startswith("相对强弱：对比 000300.SH，")
