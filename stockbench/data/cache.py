"""The market data cache and its one point-in-time query layer: every read hides what the clock cannot see yet.

Writes are bulk, idempotent upserts keyed by each table's primary key, with the source and fetched_at on
every row. Reads apply these rules, here and nowhere else (so no caller can bypass them):

- Day rows (bars, money flow, valuation) dated D are visible at instant t when D is before t's local date
  in the instrument's market, or D is that date and either t is past `AS_OF_LOCAL_TIME` (18:00, after
  every session) or the row was fetched before t (a live same-day row). Nothing dated later is visible.
- Quotes: `quoted_at <= t`. Announcements: `published_at <= t`.
- Financial lines: `published <= t's local date`; a line without a publication date becomes visible the
  day after its statutory deadline (see `[point_in_time]` in resources/data_gates.toml).
- One source per series: where several sources hold rows of a symbol, a read takes the first source of
  the preference order (`[sources]`, or the workspace setting "data.source_preference") among those
  with visible rows in the requested window; unlisted sources follow alphabetically. Sources are never
  mixed within one result, and each result names its source.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from stockbench.clock import AS_OF_LOCAL_TIME, MARKET_TZ, Clock, Market, SystemClock
from stockbench.config import resources_dir
from stockbench.data.adjust import adjusted
from stockbench.data.records import Adjust, Announcement, Bar, FinancialItem, MoneyFlowDay, Quote, ValuationDay
from stockbench.errors import InternalError, InvalidInput
from stockbench.market.instruments import EXCHANGE_MARKET as _EXCHANGE_MARKET
from stockbench.market.instruments import identify
from stockbench.messages import user_error
from stockbench.store.database import Database
from stockbench.store.settings import SOURCE_PREFERENCE, Settings

DATA_RULES_FILE = "data_gates.toml"
FAR_PAST = date(1900, 1, 1)
FAR_FUTURE = date(9999, 12, 31)
_COUNTER = itertools.count()
_QUOTE_FIELDS = tuple(f.name for f in fields(Quote))

PRICE = pl.Decimal(18, 4)
AMOUNT = pl.Decimal(24, 4)
MCAP = pl.Decimal(24, 2)  # market capitalisation, currency units
UTC_TIME = pl.Datetime("us", "UTC")
BAR_SCHEMA: dict[str, Any] = {
    "symbol": pl.String,
    "day": pl.Date,
    **dict.fromkeys(("open", "high", "low", "close", "prev_close"), PRICE),
    "volume": pl.Int64,
    "amount": AMOUNT,
    "turnover_pct": pl.Decimal(12, 6),
    "float_mcap": MCAP,
    "total_mcap": MCAP,
    "source": pl.String,
    "fetched_at": UTC_TIME,
}
BAR_COLUMNS = (
    "day", "open", "high", "low", "close", "prev_close", "volume", "amount", "turnover_pct", "float_mcap", "total_mcap",
    "source",
)  # fmt: skip
_OPTIONAL_BAR_COLUMNS = ("turnover_pct", "float_mcap", "total_mcap")
FLOW_COLUMNS = ("day", "main_net", "small_net", "medium_net", "large_net", "super_large_net", "source")
VALUATION_COLUMNS = ("day", "close", "total_mcap", "pe_ttm", "pe_static", "pb_mrq", "ps_ttm", "pcf_ocf_ttm", "source")
_FLOW_SCHEMA: dict[str, Any] = {
    "symbol": pl.String,
    "day": pl.Date,
    **dict.fromkeys(FLOW_COLUMNS[1:-1], AMOUNT),
    "source": pl.String,
}
_VALUATION_SCHEMA: dict[str, Any] = {
    "symbol": pl.String,
    "day": pl.Date,
    "close": PRICE,
    "total_mcap": MCAP,
    **dict.fromkeys(VALUATION_COLUMNS[3:-1], PRICE),
    "source": pl.String,
}


@functools.cache
def load_data_rules(path: Path | None = None) -> dict[str, Any]:
    """The data-layer table (resources/data_gates.toml), parsed once per process."""
    path = path or resources_dir() / DATA_RULES_FILE
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise InternalError(f"cannot read the data rules table {path}: {error}") from error


@dataclass(frozen=True, slots=True)
class Cutoff:
    """What a clock can see in one market: its instant, local date, and whether that day's sessions are over."""

    now: datetime
    today: date
    day_over: bool

    @classmethod
    def of(cls, clock: Clock, symbol: str) -> Cutoff:
        return cls.in_market(clock, identify(symbol).instrument.market)

    @classmethod
    def in_market(cls, clock: Clock, market: Market) -> Cutoff:
        now = clock.now()
        local = now.astimezone(MARKET_TZ[market])
        return cls(now, local.date(), local.time() >= AS_OF_LOCAL_TIME)

    def params(self) -> dict[str, object]:
        return {"now": self.now, "today": self.today, "day_over": self.day_over}


def _day_visible(alias: str = "") -> str:
    day, fetched = f"{alias}day", f"{alias}fetched_at"
    return f"({day} < $today OR ({day} = $today AND ($day_over OR {fetched} <= $now)))"


_DAY_VISIBLE = _day_visible()
_CHOSEN = (
    "source = (SELECT source FROM visible GROUP BY source"
    " ORDER BY coalesce(list_position($order, source), 1000000), source LIMIT 1)"
)


@dataclass(frozen=True, slots=True)
class BuiltIndexDay:
    """One session of an index the program built: how many stored stocks it averaged, and how it weighted them."""

    symbol: str
    day: date
    members: int
    weighting: str  # float_cap | equal
    key: str  # the definition's key (resources/built_indices.toml)
    name: str


@dataclass(frozen=True, slots=True)
class Coverage:
    """What one source holds of a symbol's day rows, as visible at the clock."""

    source: str
    first: date
    last: date
    rows: int


def _lag_sql(rules: Mapping[str, Any]) -> str:
    lags: Mapping[str, int] = rules["unpublished_lag_months"]
    cases = " ".join(f"WHEN {int(month)} THEN {int(months)}" for month, months in lags.items())
    default = int(rules["unpublished_default_months"])
    return f"last_day(period_end + to_months(CASE month(period_end) {cases} ELSE {default} END)) + 1"


@contextmanager
def registered(cur: duckdb.DuckDBPyConnection, frame: pl.DataFrame) -> Iterator[str]:
    """Expose `frame` to SQL on `cur` under a fresh name for the duration of the block."""
    name = f"_frame_{next(_COUNTER)}"
    cur.register(name, frame.to_arrow())
    try:
        yield name
    finally:
        cur.unregister(name)


def upsert_frame(db: Database, table: str, frame: pl.DataFrame, keys: Sequence[str], *, unique: bool = False) -> int:
    """Insert or replace `frame`'s rows into `table` in one statement; returns the rows written.

    Of rows sharing a key the last wins (`unique=True`: the caller guarantees there are none). When no
    incoming key is stored yet, a plain INSERT is used: it is a third faster than INSERT OR REPLACE.
    """
    if frame.is_empty():
        return 0
    if not unique:
        frame = frame.unique(subset=list(keys), keep="last", maintain_order=True)
    columns = ", ".join(frame.columns)
    with db.transaction() as cur, registered(cur, frame) as name:
        overlap = cur.execute(f"SELECT EXISTS (SELECT 1 FROM {table} JOIN {name} USING ({', '.join(keys)}))")
        verb = "INSERT OR REPLACE" if overlap.fetchall() != [(False,)] else "INSERT"
        cur.execute(f"{verb} INTO {table} ({columns}) SELECT {columns} FROM {name}")
    return frame.height


class MarketDataCache:
    """Bulk writes and point-in-time reads of bars, quotes, money flow, valuation, financials, announcements."""

    def __init__(self, db: Database, clock: Clock, *, preference: Sequence[str] | None = None) -> None:
        self._db = db
        self._clock = clock
        self._preference = tuple(preference) if preference is not None else None
        rules = load_data_rules()["point_in_time"]
        self._financials_visible = f"coalesce(published, {_lag_sql(rules)})"

    @property
    def clock(self) -> Clock:
        return self._clock

    def preference(self) -> tuple[str, ...]:
        """The source preference order: the constructor's, else the workspace setting, else the table's."""
        if self._preference is None:
            chosen = Settings(self._db).get(SOURCE_PREFERENCE) or load_data_rules()["sources"]["preference"]
            self._preference = tuple(str(s) for s in chosen)
        return self._preference

    def cutoff(self, symbol: str) -> Cutoff:
        return Cutoff.of(self._clock, symbol)

    # ---- writes -------------------------------------------------------------------------------------

    def _upsert(self, table: str, frame: pl.DataFrame, keys: Sequence[str], *, unique: bool = False) -> int:
        return upsert_frame(self._db, table, frame, keys, unique=unique)

    @staticmethod
    def _stamp(frame: pl.DataFrame, fetched_at: datetime | None) -> pl.DataFrame:
        if "fetched_at" in frame.columns and fetched_at is None:
            return frame
        stamp = (fetched_at or SystemClock().now()).astimezone(UTC)
        return frame.with_columns(fetched_at=pl.lit(stamp, dtype=UTC_TIME))

    def store_bar_frame(self, frame: pl.DataFrame, *, fetched_at: datetime | None = None, unique: bool = False) -> int:
        """Upsert bars given as a frame with the `bars` table's columns (prices Decimal, volume shares).

        `unique=True` promises that no (symbol, day, source) repeats in `frame` (it skips a costly check).
        """
        frame = self._stamp(frame, fetched_at)
        missing = [c for c in _OPTIONAL_BAR_COLUMNS if c not in frame.columns]
        frame = frame.with_columns(pl.lit(None, dtype=BAR_SCHEMA[c]).alias(c) for c in missing)
        return self._upsert("bars", frame.select(list(BAR_SCHEMA)), ("symbol", "day", "source"), unique=unique)

    def replace_bar_frame(self, frame: pl.DataFrame, source: str, *, fetched_at: datetime | None = None) -> int:
        """Replace every `source` bar of the symbols in `frame` with `frame`'s rows, in one transaction (a series the
        program derives again from scratch, such as a built index: none of its old rows may survive)."""
        symbols = frame.get_column("symbol").unique().to_list()
        with self._db.transaction() as cur:
            cur.execute("DELETE FROM bars WHERE source = ? AND list_contains(?, symbol)", [source, symbols])
            return self.store_bar_frame(frame.with_columns(source=pl.lit(source)), fetched_at=fetched_at, unique=True)

    def store_bars(self, bars: Iterable[Bar], *, fetched_at: datetime | None = None) -> int:
        """Upsert daily bars (idempotent: the key is symbol, day, source)."""
        rows = [
            (
                b.symbol,
                b.day,
                b.open,
                b.high,
                b.low,
                b.close,
                b.prev_close,
                b.volume,
                b.amount,
                b.turnover_pct,
                b.float_mcap,
                b.total_mcap,
                b.source,
            )
            for b in bars
        ]
        schema = {k: v for k, v in BAR_SCHEMA.items() if k != "fetched_at"}
        return self.store_bar_frame(pl.DataFrame(rows, schema=schema, orient="row"), fetched_at=fetched_at)

    def store_quotes(self, quotes: Iterable[Quote], *, fetched_at: datetime | None = None) -> int:
        """Upsert quote snapshots (key: symbol, the quote's own time, source)."""
        prices = ("last", "prev_close", "open", "high", "low")
        rows = [
            {
                "symbol": q.symbol,
                "quoted_at": q.at,
                **{f: getattr(q, f) for f in prices},
                "volume": q.volume,
                "amount": q.amount,
                "limit_up": q.limit_up,
                "limit_down": q.limit_down,
                "board_lot": q.board_lot,
                "currency": q.currency,
                "pe": q.pe,
                "pb": q.pb,
                "turnover_pct": q.turnover_pct,
                "status": q.status,
                "delay_minutes": q.delay_minutes,
                "source": q.source,
            }
            for q in quotes
        ]
        schema: dict[str, Any] = {
            "symbol": pl.String,
            "quoted_at": UTC_TIME,
            **dict.fromkeys(prices, PRICE),
            "volume": pl.Int64,
            "amount": AMOUNT,
            **dict.fromkeys(("limit_up", "limit_down"), PRICE),
            "board_lot": pl.Int32,
            "currency": pl.String,
            **dict.fromkeys(("pe", "pb"), PRICE),
            "turnover_pct": pl.Decimal(12, 6),
            "status": pl.String,
            "delay_minutes": pl.Int32,
            "source": pl.String,
        }
        frame = self._stamp(pl.DataFrame(rows, schema=schema), fetched_at)
        return self._upsert("quotes", frame, ("symbol", "quoted_at", "source"))

    def store_money_flow(self, days: Iterable[MoneyFlowDay], *, fetched_at: datetime | None = None) -> int:
        """Upsert money flow days (key: symbol, day, source)."""
        rows = [
            (d.symbol, d.day, d.main_net, d.small_net, d.medium_net, d.large_net, d.super_large_net, d.source)
            for d in days
        ]
        frame = self._stamp(pl.DataFrame(rows, schema=_FLOW_SCHEMA, orient="row"), fetched_at)
        return self._upsert("money_flow", frame, ("symbol", "day", "source"))

    def store_valuation(self, days: Iterable[ValuationDay], *, fetched_at: datetime | None = None) -> int:
        """Upsert valuation history days (key: symbol, day, source)."""
        rows = [
            (v.symbol, v.day, v.close, v.total_mcap, v.pe_ttm, v.pe_static, v.pb_mrq, v.ps_ttm, v.pcf_ocf_ttm, v.source)
            for v in days
        ]
        frame = self._stamp(pl.DataFrame(rows, schema=_VALUATION_SCHEMA, orient="row"), fetched_at)
        return self._upsert("valuation", frame, ("symbol", "day", "source"))

    def store_financials(self, items: Iterable[FinancialItem], *, fetched_at: datetime | None = None) -> int:
        """Upsert financial statement lines (key: symbol, period_end, statement, item, source)."""
        rows = [(i.symbol, i.period_end, i.statement, i.item, i.value, i.unit, i.published, i.source) for i in items]
        schema: dict[str, Any] = {
            "symbol": pl.String,
            "period_end": pl.Date,
            "statement": pl.String,
            "item": pl.String,
            "value": pl.Decimal(28, 6),
            "unit": pl.String,
            "published": pl.Date,
            "source": pl.String,
        }
        frame = self._stamp(pl.DataFrame(rows, schema=schema, orient="row"), fetched_at)
        return self._upsert("financials", frame, ("symbol", "period_end", "statement", "item", "source"))

    def store_announcements(self, items: Iterable[Announcement], *, fetched_at: datetime | None = None) -> int:
        """Upsert announcements (key: source, source_id); the text's SHA-256 is kept beside it."""
        rows = [
            (
                a.source,
                a.source_id,
                a.symbol,
                a.published_at,
                a.title,
                a.category,
                a.url,
                a.text,
                hashlib.sha256(a.text.encode("utf-8")).hexdigest() if a.text is not None else None,
            )
            for a in items
        ]
        names = ("source", "source_id", "symbol", "published_at", "title", "category", "url", "text", "text_sha256")
        schema: dict[str, Any] = dict.fromkeys(names, pl.String) | {"published_at": UTC_TIME}
        frame = self._stamp(pl.DataFrame(rows, schema=schema, orient="row"), fetched_at)
        return self._upsert("announcements", frame, ("source", "source_id"))

    # ---- point-in-time reads ------------------------------------------------------------------------

    def _query(self, sql: str, params: Mapping[str, object]) -> duckdb.DuckDBPyRelation:
        """Run a read on this thread's cursor (a relation: arrow output without an extra copy)."""
        cursor = self._db.cursor()
        # A DB-API read on this thread (Database.fetchone, .scalar) can leave its result pending, and DuckDB
        # refuses relation work on the connection until it is run to its end.
        cursor.complete()
        relation = cursor.sql(sql, params=dict(params))
        if relation is None:
            raise InternalError("a cache read ran a statement that returns no rows")
        return relation

    def _frame(self, sql: str, params: Mapping[str, object]) -> pl.DataFrame:
        found = pl.from_arrow(self._query(sql, params).to_arrow_table())
        if not isinstance(found, pl.DataFrame):
            raise InternalError("a cache query returned a series instead of a frame")
        return found

    def _order(self, source: str | None) -> list[str]:
        return [source] if source else list(self.preference())

    def _day_rows(
        self,
        table: str,
        columns: Sequence[str],
        symbol: str,
        start: date | None,
        end: date | None,
        *,
        source: str | None,
    ) -> pl.DataFrame:
        cutoff = self.cutoff(symbol)
        sql = (
            f"WITH visible AS (SELECT {', '.join(columns)}, fetched_at FROM {table}"
            f" WHERE symbol = $symbol AND day BETWEEN $start AND $end AND {_DAY_VISIBLE}"
            " AND ($source IS NULL OR source = $source))"
            f" SELECT {', '.join(columns)}, fetched_at FROM visible WHERE {_CHOSEN} ORDER BY day"
        )
        params = {
            "symbol": symbol,
            "start": start or FAR_PAST,
            "end": end or FAR_FUTURE,
            "source": source,
            "order": self._order(source),
            **cutoff.params(),
        }
        return self._frame(sql, params)

    def _day_rows_many(
        self, table: str, columns: Sequence[str], symbols: Sequence[str], end: date | None, start: date | None = None
    ) -> dict[str, pl.DataFrame]:
        """`_day_rows` of many symbols from `start` to `end` (any source), one query per market: each symbol's
        rows of the source `_day_rows` would choose for it alone, keyed by symbol (no rows: an empty frame)."""
        found: dict[str, pl.DataFrame] = {}
        by_market: dict[Market, list[str]] = {}
        for symbol in symbols:
            by_market.setdefault(identify(symbol).instrument.market, []).append(symbol)
        for market, group in by_market.items():
            sql = (
                f"WITH visible AS (SELECT symbol, {', '.join(columns)}, fetched_at FROM {table}"
                f" WHERE list_contains($symbols, symbol) AND day BETWEEN $start AND $end AND {_DAY_VISIBLE}),"
                " chosen AS (SELECT symbol, source FROM visible GROUP BY symbol, source QUALIFY row_number() OVER"
                " (PARTITION BY symbol ORDER BY coalesce(list_position($order, source), 1000000), source) = 1)"
                f" SELECT symbol, {', '.join(columns)}, fetched_at FROM visible JOIN chosen USING (symbol, source)"
                " ORDER BY symbol, day"
            )
            params = {
                "symbols": group,
                "start": start or FAR_PAST,
                "end": end or FAR_FUTURE,
                "order": self._order(None),
            }
            rows = self._frame(sql, {**params, **Cutoff.in_market(self._clock, market).params()})
            parts = rows.partition_by("symbol", as_dict=True, maintain_order=True)
            empty = rows.drop("symbol").clear()
            found |= {s: parts[(s,)].drop("symbol") if (s,) in parts else empty for s in group}
        return found

    def bars_many(
        self, symbols: Sequence[str], end: date | None = None, start: date | None = None
    ) -> dict[str, pl.DataFrame]:
        """`bars(symbol, start, end)` of each of `symbols` (unadjusted), read in one query per market."""
        return self._day_rows_many("bars", BAR_COLUMNS, symbols, end, start)

    def valuation_many(self, symbols: Sequence[str], end: date | None = None) -> dict[str, pl.DataFrame]:
        """`valuation(symbol, end=end)` of each of `symbols`, read in one query per market."""
        return self._day_rows_many("valuation", VALUATION_COLUMNS, symbols, end)

    def bars(
        self,
        symbol: str,
        start: date | None = None,
        end: date | None = None,
        adjust: Adjust = "none",
        source: str | None = None,
    ) -> pl.DataFrame:
        """Daily bars of one source from `start` to `end` (inclusive), as visible at the clock.

        Columns: day, open, high, low, close, prev_close, volume, amount, turnover_pct, source, fetched_at.
        `adjust` "forward" or "backward" scales prices by factors computed from the unadjusted bars (see
        `stockbench.data.adjust`): forward-adjusted prices are anchored at the latest bar visible at the
        clock, backward-adjusted ones at the source's first bar. Volume and amount are never adjusted.
        """
        if start is not None and end is not None and start > end:
            raise user_error(InvalidInput, "period_reversed", start=start, end=end)
        if adjust == "none":
            return self._day_rows("bars", BAR_COLUMNS, symbol, start, end, source=source)
        if adjust not in ("forward", "backward"):
            raise user_error(InvalidInput, "unknown_adjustment", adjust=adjust, choices="none, forward, backward")
        window = self._day_rows("bars", ("day", "source"), symbol, start, end, source=source)
        if window.is_empty():
            return self._day_rows("bars", BAR_COLUMNS, symbol, start, end, source=source)
        chosen = str(window["source"][0])
        whole = self._day_rows("bars", BAR_COLUMNS, symbol, None, None, source=chosen)
        result = adjusted(whole, adjust)
        return result.filter(pl.col("day").is_between(start or FAR_PAST, end or FAR_FUTURE))

    def coverage(self, table: str, symbol: str) -> list[Coverage]:
        """Per source: the first and last visible day and the row count of `table` (bars, money_flow, valuation)."""
        if table not in {"bars", "money_flow", "valuation"}:
            raise InternalError(f"no day coverage for table {table!r}")
        cutoff = self.cutoff(symbol)
        rows = self._query(
            f"SELECT source, min(day), max(day), count(*) FROM {table} WHERE symbol = $symbol AND {_DAY_VISIBLE}"
            " GROUP BY source ORDER BY coalesce(list_position($order, source), 1000000), source",
            params={"symbol": symbol, "order": list(self.preference()), **cutoff.params()},
        )
        return [Coverage(s, first, last, n) for s, first, last, n in rows.fetchall()]

    def money_flow(
        self, symbol: str, start: date | None = None, end: date | None = None, source: str | None = None
    ) -> pl.DataFrame:
        """Money flow days of one source, as visible at the clock (columns: FLOW_COLUMNS, fetched_at)."""
        return self._day_rows("money_flow", FLOW_COLUMNS, symbol, start, end, source=source)

    def valuation(
        self, symbol: str, start: date | None = None, end: date | None = None, source: str | None = None
    ) -> pl.DataFrame:
        """Valuation history of one source, as visible at the clock (columns: VALUATION_COLUMNS, fetched_at)."""
        return self._day_rows("valuation", VALUATION_COLUMNS, symbol, start, end, source=source)

    def latest_quote(self, symbol: str, source: str | None = None, *, on: date | None = None) -> Quote | None:
        """The latest quote taken at or before the clock (ties between sources: by preference); with `on`, the latest
        one taken on that day (in the exchange's time zone)."""
        cutoff = self.cutoff(symbol)
        zone = MARKET_TZ[identify(symbol).instrument.market]
        start = datetime.combine(on, time(0), tzinfo=zone) if on is not None else None
        end = start + timedelta(days=1) if start is not None else None
        names = [f for f in _QUOTE_FIELDS if f != "name"]
        row = self._query(
            f"SELECT {', '.join('quoted_at' if f == 'at' else f for f in names)} FROM quotes"
            " WHERE symbol = $symbol AND quoted_at <= $now AND ($source IS NULL OR source = $source)"
            " AND ($start IS NULL OR (quoted_at >= $start AND quoted_at < $end))"
            " ORDER BY quoted_at DESC, coalesce(list_position($order, source), 1000000), source LIMIT 1",
            params={
                "symbol": symbol,
                "now": cutoff.now,
                "source": source,
                "order": self._order(source),
                "start": start,
                "end": end,
            },
        ).fetchall()
        if not row:
            return None
        values = dict(zip(names, row[0], strict=True))
        values["at"] = values["at"].astimezone(zone)
        return Quote(**values)

    def latest_quotes(self, symbols: Sequence[str]) -> dict[str, Quote]:
        """`latest_quote(symbol)` of each of `symbols` in one query (a symbol without a quote is left out)."""
        names = [f for f in _QUOTE_FIELDS if f != "name"]
        rows = self._query(
            f"SELECT {', '.join('quoted_at' if f == 'at' else f for f in names)} FROM quotes"
            " WHERE list_contains($symbols, symbol) AND quoted_at <= $now QUALIFY row_number() OVER (PARTITION BY"
            " symbol ORDER BY quoted_at DESC, coalesce(list_position($order, source), 1000000), source) = 1",
            params={"symbols": list(symbols), "now": self._clock.now(), "order": self._order(None)},
        ).fetchall()
        found = {}
        for row in rows:
            values = dict(zip(names, row, strict=True))
            values["at"] = values["at"].astimezone(MARKET_TZ[identify(values["symbol"]).instrument.market])
            found[str(values["symbol"])] = Quote(**values)
        return found

    def financials(self, symbol: str, source: str | None = None) -> pl.DataFrame:
        """Financial statement lines of one source visible at the clock's date.

        Columns: period_end, statement, item, value, unit, published, visible_from, source, fetched_at.
        """
        cutoff = self.cutoff(symbol)
        sql = (
            "WITH lines AS (SELECT period_end, statement, item, value, unit, published,"
            f" {self._financials_visible} AS visible_from, source, fetched_at FROM financials"
            " WHERE symbol = $symbol AND ($source IS NULL OR source = $source)),"
            " visible AS (SELECT * FROM lines WHERE visible_from <= $today)"
            f" SELECT * FROM visible WHERE {_CHOSEN} ORDER BY period_end, statement, item"
        )
        params = {"symbol": symbol, "source": source, "order": self._order(source), "today": cutoff.today}
        return self._frame(sql, params)

    def announcements(
        self, symbol: str, start: date | None = None, end: date | None = None, source: str | None = None
    ) -> list[Announcement]:
        """Announcements of one source published at or before the clock, from `start` to `end` (local dates)."""
        cutoff = self.cutoff(symbol)
        tz = MARKET_TZ[identify(symbol).instrument.market]
        rows = self._query(
            "WITH visible AS (SELECT symbol, source_id, published_at, title, category, url, source, text"
            " FROM announcements WHERE symbol = $symbol AND published_at <= $now"
            " AND CAST(timezone($tz, published_at) AS DATE) BETWEEN $start AND $end"
            " AND ($source IS NULL OR source = $source))"
            f" SELECT * FROM visible WHERE {_CHOSEN} ORDER BY published_at, source_id",
            params={
                "symbol": symbol,
                "now": cutoff.now,
                "tz": str(tz),
                "start": start or FAR_PAST,
                "end": end or FAR_FUTURE,
                "source": source,
                "order": self._order(source),
            },
        ).fetchall()
        return [Announcement(r[0], r[1], r[2].astimezone(tz), *r[3:]) for r in rows]

    def announcements_fetched_at(self, symbol: str, start: date, end: date) -> datetime | None:
        """When the latest of the visible announcements of `start`..`end` was fetched (None: none stored)."""
        cutoff = self.cutoff(symbol)
        tz = MARKET_TZ[identify(symbol).instrument.market]
        value = self._query(
            "SELECT max(fetched_at) FROM announcements WHERE symbol = $symbol AND published_at <= $now"
            " AND CAST(timezone($tz, published_at) AS DATE) BETWEEN $start AND $end",
            params={"symbol": symbol, "now": cutoff.now, "tz": str(tz), "start": start, "end": end},
        ).fetchall()
        found: datetime | None = value[0][0]
        return found

    def universe(self, market: Market, lookback_days: int, security_type: str = "stock") -> pl.DataFrame:
        """Every `security_type` instrument of `market` with a bar in the `lookback_days` calendar days up to the
        clock's date, as its latest such bar (one source per symbol, by preference), as visible at the clock.

        Columns: symbol, board, day, close, volume, amount, float_mcap, total_mcap, source.
        """
        cutoff = Cutoff.in_market(self._clock, market)
        exchanges = [e.value for e, m in _EXCHANGE_MARKET.items() if m == market]
        sql = (
            "SELECT b.symbol, i.board, b.day, b.close, b.volume, b.amount, b.float_mcap, b.total_mcap, b.source"
            " FROM bars b JOIN instruments i USING (symbol)"
            " WHERE i.security_type = $kind AND list_contains($exchanges, split_part(b.symbol, '.', 2))"
            f" AND b.day BETWEEN $start AND $today AND {_day_visible('b.')}"
            " QUALIFY row_number() OVER (PARTITION BY b.symbol"
            " ORDER BY coalesce(list_position($order, b.source), 1000000), b.source, b.day DESC) = 1"
            " ORDER BY b.symbol"
        )
        start = cutoff.today - timedelta(days=lookback_days)
        params = {"kind": security_type, "exchanges": exchanges, "start": start, "order": list(self.preference())}
        return self._frame(sql, {**params, **cutoff.params()})

    def built_index_day(self, symbol: str, day: date | None = None) -> BuiltIndexDay | None:
        """How a built index was made on its last session on or before `day` (default: the clock's date), as
        visible at the clock; None when `symbol` is not a built index or has no such session."""
        cutoff = self.cutoff(symbol)
        row = self._query(
            "SELECT d.day, d.members, d.weighting, x.key, x.name FROM built_index_days d JOIN built_indices x"
            f" USING (symbol) WHERE d.symbol = $symbol AND d.day <= $day AND {_day_visible('d.')}"
            " ORDER BY d.day DESC LIMIT 1",
            params={"symbol": symbol, "day": min(day or cutoff.today, cutoff.today), **cutoff.params()},
        ).fetchall()
        return BuiltIndexDay(symbol, *row[0]) if row else None

    def built_indices(self) -> dict[str, str]:
        """The built indices of the workspace: definition key -> symbol."""
        rows = self._query("SELECT key, symbol FROM built_indices ORDER BY key", params={}).fetchall()
        return {str(key): str(symbol) for key, symbol in rows}
