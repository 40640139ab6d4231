"""Common moves of the demo market: a market factor per exchange area and a factor per sector.

A factor is a daily return series that wanders around a slowly rising trend (it is pulled back towards
it), so seven years of noise never leave the demo market at an absurd level.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from stockbench.clock import Market
from stockbench.data.demo.streams import normals, stream

MARKET_VOL = 0.011
SECTOR_VOL = 0.007
PULL = 0.004  # share of the gap to the trend closed each session
MARKET_TREND = 0.00012  # per session, about 3% a year; sectors wander around no trend


@dataclass(frozen=True, slots=True)
class Factors:
    """Daily returns of the market and sector factors, by market ("CN", "HK") and session."""

    market: dict[Market, dict[date, float]]
    sector: dict[tuple[Market, str], dict[date, float]]

    def move(self, market: Market, sector: str, day: date, beta: float) -> float:
        return beta * self.market[market][day] + self.sector[(market, sector)][day]


def factor_path(seed: int, key: str, sessions: list[date], vol: float, trend_rate: float = 0.0) -> dict[date, float]:
    """A factor's daily returns over `sessions`."""
    z = normals(stream(seed, "factor", key), len(sessions))
    level, trend = 1.0, 1.0
    path: dict[date, float] = {}
    for day, noise in zip(sessions, z, strict=True):
        trend *= 1 + trend_rate
        move = vol * float(noise) + PULL * (trend / level - 1)
        level *= 1 + move
        path[day] = move
    return path


def build_factors(seed: int, sessions: Mapping[Market, list[date]], sectors: Mapping[Market, set[str]]) -> Factors:
    """Factors for every market in `sessions` and every (market, sector) pair in `sectors`."""
    market = {m: factor_path(seed, m, days, MARKET_VOL, MARKET_TREND) for m, days in sessions.items()}
    sector = {
        (m, s): factor_path(seed, f"{m}/{s}", sessions[m], SECTOR_VOL) for m in sessions for s in sorted(sectors[m])
    }
    return Factors(market, sector)
