"""Writes a generated demo market into a workspace, replacing any earlier demo rows, in one transaction.

Instruments and names go through the instrument registry; the market data go straight into the cache
tables of migration 0004 with source "demo" and a fetched_at on the day of the row (the close of its
session, or its publication), so point-in-time reads at the pinned clock see exactly the demo's past.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import polars as pl

from stockbench.market.registry import InstrumentRegistry
from stockbench.store.database import Database
from stockbench.store.settings import DEMO_BUILD, PINNED_AS_OF, SECTOR_MAP, Settings

if TYPE_CHECKING:  # the generator (calendars, statements, texts) loads only when a market is built
    from stockbench.data.demo.market import DemoMarket

SOURCE = "demo"
PIN_SETTING = PINNED_AS_OF.key  # the stored key, for tools and tests that read the settings table as it is
PUBLISHED_HOUR_UTC = 10  # statements are read at 18:00 Beijing time on their publication day
DATA_TABLES = ("bars", "quotes", "money_flow", "valuation", "financials", "announcements")


def _decimal(column: str, scale: int, target: str) -> str:
    """SQL turning an integer column of 10^-scale units into an exact DECIMAL."""
    return f"CAST({column}::DECIMAL(38, 0) * {1 / 10**scale:.{scale}f} AS {target})"


def _stamped(bars: pl.DataFrame) -> pl.DataFrame:
    """Bars with fetched_at: the close of their session (UTC), `close_minutes` after midnight UTC."""
    start = pl.col("day").cast(pl.Datetime("us", "UTC"))
    return bars.with_columns(fetched_at=start + pl.duration(minutes=pl.col("close_minutes")))


_BARS = f"""
INSERT INTO bars (symbol, day, open, high, low, close, prev_close, volume, amount, turnover_pct, source, fetched_at)
    SELECT symbol, day,
    {_decimal("open", 4, "DECIMAL(18, 4)")}, {_decimal("high", 4, "DECIMAL(18, 4)")},
    {_decimal("low", 4, "DECIMAL(18, 4)")}, {_decimal("close", 4, "DECIMAL(18, 4)")},
    {_decimal("prev_close", 4, "DECIMAL(18, 4)")}, volume, {_decimal("amount", 2, "DECIMAL(24, 4)")},
    {_decimal("turnover", 6, "DECIMAL(12, 6)")}, '{SOURCE}', fetched_at
FROM demo_bars
"""
_RATIOS = ("pe_ttm", "pe_static", "pb_mrq", "ps_ttm", "pcf_ocf_ttm")
_FLOW_COLUMNS = ("main_net", "small_net", "medium_net", "large_net", "super_large_net")
_VALUATION = f"""
INSERT INTO valuation (symbol, day, close, total_mcap, pe_ttm, pe_static, pb_mrq, ps_ttm, pcf_ocf_ttm, source,
    fetched_at)
    SELECT v.symbol, v.day, {_decimal("v.close", 4, "DECIMAL(18, 4)")},
    {_decimal("v.mcap_cents", 2, "DECIMAL(24, 2)")},
    {", ".join(_decimal(f"v.{c}", 4, "DECIMAL(18, 4)") for c in _RATIOS)},
    '{SOURCE}', b.fetched_at
FROM demo_valuation v JOIN demo_bars b USING (symbol, day)
"""
_FLOWS = f"""
INSERT INTO money_flow (symbol, day, main_net, small_net, medium_net, large_net, super_large_net, source, fetched_at)
    SELECT f.symbol, f.day,
    {", ".join(_decimal(f"f.{c}", 2, "DECIMAL(24, 4)") for c in _FLOW_COLUMNS)},
    '{SOURCE}', b.fetched_at
FROM demo_flows f JOIN demo_bars b USING (symbol, day)
"""
_FINANCIALS = f"""
INSERT INTO financials (symbol, period_end, statement, item, value, unit, published, source, fetched_at)
    SELECT symbol, period_end, statement, item, value, unit, published, '{SOURCE}', fetched_at
FROM demo_financials
"""
_ANNOUNCEMENTS = f"""
INSERT INTO announcements (source, source_id, symbol, published_at, title, category, url, text, text_sha256, fetched_at)
    SELECT '{SOURCE}', source_id, symbol, published_at, title, category,
    'demo://announcements/' || source_id, text, text_sha256, published_at
FROM demo_announcements
"""
# The demo market's announcements count as fetched: one successful fetch per stock covering the 120 days up
# to the pinned session, logged just before the pinned clock (so the announcements gate can prove it).
_FETCH_LOG = f"""
INSERT INTO fetch_log (started_at, source, what, symbol, url, ok, status, failure, reason, elapsed_ms, rows,
    start_day, end_day)
SELECT CAST(? AS TIMESTAMPTZ), '{SOURCE}', 'announcements', symbol, 'demo://announcements', true, NULL, NULL, NULL,
    0, count(*), CAST(? AS DATE) - INTERVAL 120 DAY, CAST(? AS DATE)
FROM demo_announcements GROUP BY symbol
"""
_QUOTE_COLUMNS = (
    "symbol, quoted_at, last, prev_close, open, high, low, volume, amount, limit_up, limit_down, board_lot,"
    " currency, turnover_pct"
)
_QUOTE_VALUATION = """
UPDATE quotes q SET pe = v.pe_ttm, pb = v.pb_mrq FROM valuation v
WHERE q.source = 'demo' AND v.source = 'demo' AND v.symbol = q.symbol
    AND v.day = (SELECT max(b.day) FROM bars b WHERE b.symbol = q.symbol AND b.source = 'demo')
"""


def sector_map(market: DemoMarket) -> dict[str, object]:
    """Each demo stock's sector index (the composite where its sector has none) and the market index, so the
    research scene has rule defaults to start from."""
    seed = market.seed
    by_sector = {i.sector: i.symbol for i in seed.indices}
    composite = by_sector.get("all")
    return {
        "market_index": {"CN": composite},
        "symbols": {s.symbol: by_sector.get(s.sector, composite) for s in seed.stocks if s.instrument.is_a_share},
        "peers": {
            s.symbol: sorted(o.symbol for o in seed.stocks if o.sector == s.sector and o.symbol != s.symbol)
            for s in seed.stocks
        },
    }


def clear(db: Database) -> None:
    """Remove every demo row (data, names, instruments); other sources' rows stay."""
    with db.transaction() as cur:
        for table in (*DATA_TABLES, "instrument_names", "instruments", "fetch_log"):
            cur.execute(f"DELETE FROM {table} WHERE source = ?", [SOURCE])


def write_market(db: Database, market: DemoMarket, build: dict[str, object]) -> None:
    """Replace the workspace's demo rows with `market`, record `build` and pin the clock, in one transaction."""
    registry = InstrumentRegistry(db)
    frames: dict[str, pl.DataFrame] = {
        "demo_bars": _stamped(market.bars),
        "demo_valuation": market.valuation,
        "demo_flows": market.money_flow,
        "demo_financials": market.financials.with_columns(
            fetched_at=pl.col("published").cast(pl.Datetime("us", "UTC")) + pl.duration(hours=PUBLISHED_HOUR_UTC)
        ),
        "demo_announcements": market.announcements,
    }
    with db.transaction() as cur:
        clear(db)
        for data in market.instruments:
            registry.save(data)
        for symbol, valid_from, name in market.names:
            registry.record_name(symbol, name, valid_from, SOURCE)
        for name, frame in frames.items():
            cur.register(name, frame.to_arrow())
        try:
            for sql in (_BARS, _VALUATION, _FLOWS, _FINANCIALS, _ANNOUNCEMENTS):
                cur.execute(sql)
            last = market.seed.last_session
            logged = f"{last.isoformat()} 09:00:00+00"  # 17:00 Beijing time on the pinned session
            cur.execute(_FETCH_LOG, [logged, last, last])
        finally:
            for name in frames:
                cur.unregister(name)
        cur.executemany(
            f"INSERT INTO quotes ({_QUOTE_COLUMNS}, source, fetched_at) VALUES ({', '.join('?' * 16)})",
            [[*q.values(), SOURCE, q["quoted_at"]] for q in market.quotes],
        )
        cur.execute(_QUOTE_VALUATION)
        settings = Settings(db)
        settings.set(PINNED_AS_OF, market.seed.last_session)
        settings.set(SECTOR_MAP, sector_map(market))
        settings.set(DEMO_BUILD, dict(build))
