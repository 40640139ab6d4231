"""The demo indices: float-capitalisation weighted levels of their member stocks.

Each session the level moves by sum(float shares x price) / sum(float shares x reference price) over the
members trading that day, so ex-dates and suspensions do not move an index. A new listing joins after its
first ten sessions. Levels are kept to two decimals, as exchanges publish them.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from stockbench.data.demo.prices import StockPath
from stockbench.data.demo.seed import SeedIndex

INDEX_UNIT = Decimal("0.01")
JOIN_AFTER = 10  # sessions a new listing waits before it joins an index


def index_path(index: SeedIndex, members: list[tuple[StockPath, bool]], sessions: list[date]) -> StockPath:
    """The bars of `index` over `sessions`; each member comes with whether it listed inside the demo period."""
    totals: dict[date, list[int]] = {}  # day -> float-weighted ref, open, high, low, close; volume; amount
    for member, new in members:
        for i, day in enumerate(member.days):
            if new and i < JOIN_AFTER:
                continue
            weight = member.float_shares[i]
            row = (
                weight * member.ref[i],
                weight * member.open[i],
                weight * member.high[i],
                weight * member.low[i],
                weight * member.close[i],
                member.volume[i],
                member.amount[i],
            )
            found = totals.get(day)
            totals[day] = list(row) if found is None else [a + b for a, b in zip(found, row, strict=True)]
    path = StockPath(index.symbol, INDEX_UNIT)
    level = int(index.base / INDEX_UNIT)
    for day in sessions:
        if day not in totals:
            continue
        base, *prices, volume, amount = totals[day]
        open_, high, low, close = (round(level * p / base) for p in prices)
        path.add(day, (open_, max(high, open_, close), min(low, open_, close), close), level, volume, (1, 1))
        path.amount[-1] = amount
        path.turnover[-1] = None
        level = close
    return path
