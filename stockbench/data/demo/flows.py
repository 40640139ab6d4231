"""Money flow of the demo stocks and their closing quotes on the last demo session.

Money flow splits each day's turnover by order size the way Eastmoney reports it: main = super-large +
large, and the four classes net to zero; the main net leans with the day's move. The closing quote
carries the day's limits (from `stockbench.market.limits`) and the board lot.
"""

from __future__ import annotations

from datetime import date, datetime, time
from decimal import Decimal

import polars as pl

from stockbench.clock import MARKET_TZ
from stockbench.data.demo.prices import StockPath
from stockbench.data.demo.schedule import StockSchedule
from stockbench.data.demo.streams import normals, stream
from stockbench.market.limits import price_limits
from stockbench.market.lots import board_lot
from stockbench.market.registry import is_st_name
from stockbench.market.tables import RuleTables

FLOW_SCHEMA = {
    "symbol": pl.String,
    "day": pl.Date,
    "main_net": pl.Int64,  # cents
    "small_net": pl.Int64,
    "medium_net": pl.Int64,
    "large_net": pl.Int64,
    "super_large_net": pl.Int64,
}
CLOSING_TIME = {"CN": time(15, 0), "HK": time(16, 8)}


def flow_frame(seed: int, path: StockPath) -> pl.DataFrame:
    """Net money flow by order size for every bar of `path` (cents)."""
    n = len(path.days)
    rng = stream(seed, path.symbol, "flow")
    z = [normals(rng, n).tolist() for _ in range(3)]
    main = [
        round(a * (1.2 * (c / r - 1) + 0.05 * e))
        for a, c, r, e in zip(path.amount, path.close, path.ref, z[0], strict=True)
    ]
    super_large = [round(m * (0.55 + 0.15 * e)) for m, e in zip(main, z[1], strict=True)]
    small = [round(-m * (0.6 + 0.15 * e)) for m, e in zip(main, z[2], strict=True)]
    columns = {
        "symbol": [path.symbol] * n,
        "day": path.days,
        "main_net": main,
        "small_net": small,
        "medium_net": [-m - s for m, s in zip(main, small, strict=True)],
        "large_net": [m - s for m, s in zip(main, super_large, strict=True)],
        "super_large_net": super_large,
    }
    return pl.DataFrame(columns, schema=FLOW_SCHEMA)


def closing_quote(path: StockPath, schedule: StockSchedule, tables: RuleTables) -> dict[str, object]:
    """The last bar of `path` as a closing quote, with that day's limits and the board lot."""
    stock = schedule.stock
    instrument = stock.instrument.with_data(board_lot=stock.lot)
    day: date = path.days[-1]
    last, ref = path.close[-1] * path.unit, path.ref[-1] * path.unit
    session = len(path.days) if schedule.new_listing else None
    st = is_st_name(schedule.name_on(day))
    limits = price_limits(instrument, ref, day, st=st, listing_session=session, tables=tables)
    lot = board_lot(instrument, tables)
    return {
        "symbol": path.symbol,
        "quoted_at": datetime.combine(day, CLOSING_TIME[instrument.market], tzinfo=MARKET_TZ[instrument.market]),
        "last": last,
        "prev_close": ref,
        "open": path.open[-1] * path.unit,
        "high": path.high[-1] * path.unit,
        "low": path.low[-1] * path.unit,
        "volume": path.volume[-1],
        "amount": Decimal(path.amount[-1]) / 100,
        "limit_up": limits.up,
        "limit_down": limits.down,
        "board_lot": lot[0] if lot else None,
        "currency": instrument.currency,
        "turnover_pct": Decimal(path.turnover[-1] or 0).scaleb(-6),
    }
