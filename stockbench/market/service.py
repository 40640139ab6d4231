"""The market rules as the workbench offers them: tables, instrument data and calendars in one place."""

from __future__ import annotations

import functools
from datetime import datetime
from typing import TYPE_CHECKING

from stockbench.clock import Market
from stockbench.market.registry import InstrumentRegistry
from stockbench.market.tables import RuleTables, load_tables
from stockbench.store.database import Database

if TYPE_CHECKING:
    from stockbench.market.calendars import Calendars
    from stockbench.market.sessions import SessionState


class MarketRules:
    """Rule tables plus the workspace's instrument data and calendar extensions."""

    def __init__(self, db: Database, tables: RuleTables | None = None) -> None:
        self.db = db
        self.tables = tables or load_tables()
        self.registry = InstrumentRegistry(db)

    @functools.cached_property
    def calendars(self) -> Calendars:
        from stockbench.market.calendars import Calendars

        return Calendars(self.db, self.tables)

    def phase(self, market: Market, at: datetime) -> SessionState:
        """The session phase of `market` at the instant `at` (CalendarUnknown past the known holiday years)."""
        from stockbench.market.sessions import phase_at

        return phase_at(market, at, self.calendars.calendar(market), self.tables)

    def last_trading_minute(self, market: Market, at: datetime) -> datetime:
        """`at` to the minute while `market` trades, else the last trading minute before it (sessions.py)."""
        from stockbench.market.sessions import last_trading_minute

        return last_trading_minute(market, at, self.calendars.calendar(market), self.tables)
