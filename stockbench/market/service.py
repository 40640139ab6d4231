"""The market rules as the workbench offers them: tables, instrument data and calendars in one place."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from stockbench.market.registry import InstrumentRegistry
from stockbench.market.tables import RuleTables, load_tables
from stockbench.store.database import Database

if TYPE_CHECKING:
    from stockbench.market.calendars import Calendars


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
