"""Indices the program builds from the stored universe: a benchmark of every stored A-share and one index per
board, float-cap weighted where caps exist (else equal weighted), so relative strength is known without an index.

The method and the definitions are in resources/built_indices.toml. Each session's value uses only that session's
bars (chained onto the previous level), so a built index is point in time like any stored series. Built indices
are bars of source "built" in the cache, registered as index instruments whose names say they were built, with
one row per session in `built_index_days` (members and weighting). They are rebuilt from scratch after every
import (`rebuild`); a symbol already held by a real instrument is left alone and reported.
"""

from __future__ import annotations

import functools
import time
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, Literal

import polars as pl

from stockbench.config import resources_dir
from stockbench.data.cache import AMOUNT, MCAP, PRICE, UTC_TIME, MarketDataCache, upsert_frame
from stockbench.errors import InternalError
from stockbench.market.instruments import SecurityType
from stockbench.market.registry import InstrumentData, InstrumentRegistry
from stockbench.messages import Note, note, value_word
from stockbench.store.database import Database

METHOD_FILE = "built_indices.toml"
Weighting = Literal["float_cap", "equal"]
_LEVELS = ("open", "high", "low", "close")
_SUMS = ("volume", "amount", "float_mcap", "total_mcap")


@dataclass(frozen=True, slots=True)
class IndexDefinition:
    """One built index: its key, role (benchmark or sector), symbol, names and the boards of its members."""

    key: str
    role: str
    symbol: str
    name: str
    name_en: str
    boards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class IndexMethod:
    """The table of resources/built_indices.toml."""

    version: str
    source: str
    skip_first: int
    base: float
    min_members: int  # in research a built index stands for its boards only on sessions with this many members
    indices: tuple[IndexDefinition, ...]

    def by_key(self, key: str) -> IndexDefinition:
        found = next((d for d in self.indices if d.key == key), None)
        if found is None:
            raise InternalError(f"{METHOD_FILE} defines no built index {key!r}")
        return found


@functools.cache
def load_method(path: Path | None = None) -> IndexMethod:
    """The built-index table, parsed once per process."""
    path = path or resources_dir() / METHOD_FILE
    try:
        with path.open("rb") as handle:
            raw: dict[str, Any] = tomllib.load(handle)
        indices = tuple(
            IndexDefinition(d["key"], d["role"], d["symbol"], d["name"], d["name_en"], tuple(d["boards"]))
            for d in raw["index"]
        )
        return IndexMethod(
            str(raw["version"]),
            raw["source"],
            int(raw["skip_first"]),
            float(raw["base"]),
            int(raw["min_members"]),
            indices,
        )
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as error:
        raise InternalError(f"cannot read the built-index table {path}: {error}") from error


@dataclass(frozen=True, slots=True)
class BuiltIndex:
    """What one rebuild made of one index."""

    key: str
    symbol: str
    name: str
    sessions: int
    first: date | None
    last: date | None
    members_last: int  # members on its last session
    float_cap_sessions: int
    equal_sessions: int

    def as_dict(self) -> dict[str, object]:
        return {
            "key": self.key,
            "symbol": self.symbol,
            "name": self.name,
            "sessions": self.sessions,
            "first": self.first,
            "last": self.last,
            "members_last": self.members_last,
            "float_cap_sessions": self.float_cap_sessions,
            "equal_sessions": self.equal_sessions,
        }


@dataclass(frozen=True, slots=True)
class RebuildReport:
    """A rebuild: the indices made, the ones left alone (and why), the stock rows read, and how long it took."""

    built: tuple[BuiltIndex, ...]
    skipped: tuple[tuple[str, Note], ...]  # (symbol, why: said in either language; the JSON's reason is English)
    rows: int
    seconds: float

    def as_dict(self) -> dict[str, object]:
        return {
            "built": [b.as_dict() for b in self.built],
            "skipped": [{"symbol": s, "reason": r.text("en")} for s, r in self.skipped],
            "rows": self.rows,
            "seconds": self.seconds,
        }


# ---- the method (pure) -------------------------------------------------------------------------------------------
def member_sums(rows: pl.LazyFrame, skip_first: int) -> pl.LazyFrame:
    """Per (board, day): the members' count, weights and weighted returns (see resources/built_indices.toml).

    `rows`: symbol (any key), board, day, open, high, low, close, prev_close, volume, amount, float_mcap, total_mcap
    (floats; caps may be null). A stock's first `skip_first` sessions with a positive reference price are left out;
    a session without a float cap carries the float shares of the stock's last session with one."""
    reference, close = pl.col("prev_close"), pl.col("close")
    shares = pl.when(pl.col("float_mcap") > 0).then(pl.col("float_mcap") / close)
    usable = rows.filter((reference > 0) & (close > 0)).with_columns(
        _shares=shares.forward_fill().over("symbol", order_by="day"),
        _session=pl.col("day").rank("ordinal").over("symbol"),
    )
    members = usable.filter(pl.col("_session") > skip_first)
    weighted = {f"_w_{x}": pl.col("_shares") * (pl.col(x) - reference) for x in _LEVELS}  # open cap x return
    plain = {f"_e_{x}": pl.col(x) / reference - 1 for x in _LEVELS}
    return (
        members.with_columns(_w=pl.col("_shares") * reference, **weighted, **plain)
        .group_by("board", "day")
        .agg(
            _n=pl.len(),
            _n_cap=pl.col("_w").count(),
            _w=pl.col("_w").sum(),
            **{c: pl.col(c).sum() for c in (*weighted, *plain)},
            **{c: pl.col(c).sum() for c in _SUMS},
        )
    )


def index_levels(sums: pl.LazyFrame, boards: Sequence[str], base: float) -> pl.DataFrame:
    """The daily bars of the index over `boards` from `member_sums`: levels, sums, members and weighting."""
    daily = sums.filter(pl.col("board").is_in(list(boards))).group_by("day").agg(pl.exclude("board").sum()).sort("day")
    by_cap = pl.col("_n_cap") == pl.col("_n")
    returns = {x: pl.when(by_cap).then(pl.col(f"_w_{x}") / pl.col("_w")).otherwise(pl.col(f"_e_{x}") / pl.col("_n"))
               for x in _LEVELS}  # fmt: skip
    chained = daily.with_columns(**{f"_r_{x}": e for x, e in returns.items()}).with_columns(
        close=base * (1 + pl.col("_r_close")).cum_prod()
    )
    previous = pl.col("close").shift(1).fill_null(base)
    levels = {x: previous * (1 + pl.col(f"_r_{x}")) for x in ("open", "high", "low")}
    return (
        chained.with_columns(prev_close=previous, **levels)
        .select(
            "day",
            "open",
            pl.max_horizontal("high", "open", "close").alias("high"),
            pl.min_horizontal("low", "open", "close").alias("low"),
            "close",
            "prev_close",
            *_SUMS,
            members=pl.col("_n").cast(pl.Int32),
            weighting=pl.when(by_cap).then(pl.lit("float_cap")).otherwise(pl.lit("equal")),
        )
        .collect()
    )


# ---- the workspace -----------------------------------------------------------------------------------------------
def _stock_rows(db: Database, boards: Sequence[str], preference: Sequence[str], source: str) -> pl.LazyFrame:
    """Every stored stock bar of `boards` (one source per symbol and day, by preference), as floats."""
    sql = (
        "SELECT hash(b.symbol) AS symbol, i.board, b.day, "
        + ", ".join(f"CAST(b.{c} AS DOUBLE) AS {c}" for c in (*_LEVELS, "prev_close", *_SUMS))
        + " FROM bars b JOIN instruments i USING (symbol)"
        " WHERE i.security_type = 'stock' AND b.source <> $built AND list_contains($boards, i.board)"
    )
    params: dict[str, object] = {"built": source, "boards": list(boards)}
    several = db.scalar("SELECT count(DISTINCT source) FROM bars WHERE source <> ?", [source]) or 0
    if int(several) > 1:
        sql += (
            " QUALIFY row_number() OVER (PARTITION BY b.symbol, b.day"
            " ORDER BY coalesce(list_position($order, b.source), 1000000), b.source) = 1"
        )
        params["order"] = list(preference)
    cursor = db.cursor()
    cursor.complete()
    relation = cursor.sql(sql, params=params)
    if relation is None:
        raise InternalError("the stock bars query returned nothing")
    found = pl.from_arrow(relation.to_arrow_table())
    if not isinstance(found, pl.DataFrame):
        raise InternalError("the stock bars query returned a series")
    return found.lazy()


def _bars(levels: pl.DataFrame, symbol: str) -> pl.DataFrame:
    return levels.select(
        pl.lit(symbol).alias("symbol"),
        "day",
        *(pl.col(c).round(4).cast(PRICE) for c in (*_LEVELS, "prev_close")),
        pl.col("volume").round(0).cast(pl.Int64),
        pl.col("amount").round(4).cast(AMOUNT),
        *(pl.when(pl.col(c) > 0).then(pl.col(c)).round(2).cast(MCAP).alias(c) for c in ("float_mcap", "total_mcap")),
    )


def _owner(db: Database, symbol: str, source: str) -> str | None:
    """The source of a non-built instrument holding `symbol` (None when it is free or already built)."""
    row = db.fetchone("SELECT source FROM instruments WHERE symbol = ?", [symbol])
    if row is None or row[0] == source:
        return None
    return str(row[0])


def _summary(key: str, symbol: str, name: str, levels: pl.DataFrame) -> BuiltIndex:
    weights = levels.get_column("weighting")
    return BuiltIndex(
        key,
        symbol,
        name,
        levels.height,
        levels.get_column("day").min() if levels.height else None,  # type: ignore[arg-type]
        levels.get_column("day").max() if levels.height else None,  # type: ignore[arg-type]
        int(levels.get_column("members")[-1]) if levels.height else 0,
        int((weights == "float_cap").sum()),
        int((weights == "equal").sum()),
    )


def _store(db: Database, cache: MarketDataCache, index: IndexDefinition, levels: pl.DataFrame, source: str) -> None:
    built_at = datetime.now(UTC)
    days = levels.select(
        pl.lit(index.symbol).alias("symbol"), "day", "members", "weighting", fetched_at=pl.lit(built_at, UTC_TIME)
    )
    with db.transaction() as cur:
        InstrumentRegistry(db).save(InstrumentData(index.symbol, index.name, SecurityType.INDEX, source=source))
        cache.replace_bar_frame(_bars(levels, index.symbol), source, fetched_at=built_at)
        cur.execute("DELETE FROM built_index_days WHERE symbol = ?", [index.symbol])
        upsert_frame(db, "built_index_days", days, ("symbol", "day"), unique=True)
        cur.execute(
            "INSERT OR REPLACE INTO built_indices (symbol, key, name, boards, built_at) VALUES (?, ?, ?, ?, ?)",
            [index.symbol, index.key, index.name, list(index.boards), built_at],
        )


def rebuild(db: Database, cache: MarketDataCache, method: IndexMethod | None = None) -> RebuildReport:
    """Build every index of the table from the stocks stored now (all of their history) and replace the old ones.

    An index with no member session is not stored (an old one of that symbol is removed)."""
    method = method or load_method()
    started = time.perf_counter()
    boards = sorted({b for d in method.indices for b in d.boards})
    rows = _stock_rows(db, boards, cache.preference(), method.source)
    count = rows.select(pl.len()).collect().item()
    sums = member_sums(rows, method.skip_first).collect().lazy()
    built, skipped = [], []
    for index in method.indices:
        owner = _owner(db, index.symbol, method.source)
        if owner is not None:
            skipped.append((index.symbol, note("index.owned", symbol=index.symbol, source=owner)))
            continue
        levels = index_levels(sums, index.boards, method.base)
        if levels.is_empty():
            _remove(db, index.symbol, method.source)
            chinese = "、".join(value_word("board", b, "zh") for b in index.boards)
            skipped.append((index.symbol, note("index.no_stock", boards=", ".join(index.boards), boards_zh=chinese)))
            continue
        _store(db, cache, index, levels, method.source)
        built.append(_summary(index.key, index.symbol, index.name, levels))
    return RebuildReport(tuple(built), tuple(skipped), int(count), round(time.perf_counter() - started, 3))


def _remove(db: Database, symbol: str, source: str) -> None:
    with db.transaction() as cur:
        cur.execute("DELETE FROM bars WHERE symbol = ? AND source = ?", [symbol, source])
        cur.execute("DELETE FROM built_index_days WHERE symbol = ?", [symbol])
        cur.execute("DELETE FROM built_indices WHERE symbol = ?", [symbol])
        cur.execute("DELETE FROM instruments WHERE symbol = ? AND source = ?", [symbol, source])


def sector_key(board: str, method: IndexMethod | None = None) -> str | None:
    """The key of the built sector index whose members are `board`'s stocks (None when no definition has it)."""
    method = method or load_method()
    found = next((d.key for d in method.indices if d.role == "sector" and board in d.boards), None)
    return found
