"""Import of daily bars from local files: the community A-share CSV and parquet, and a documented generic CSV.

Every row is validated; a rejected row gets a reason and is counted, never stored. Accepted rows go to
the cache as unadjusted bars (with the reference price); the instrument registry and the name history
(one row per name change, so ST status on any date is known) are recorded from the same rows.

Community format (source "community"): the public A-share data set's CSV files (first line a comment,
UTF-8, columns 股票代码,股票名称,交易日期,开盘价,最高价,最低价,收盘价,前收盘价,成交量,成交额,流通市值,总市值,
codes like sh600519, volume in shares) and its parquet (code,name,date,open,high,low,close,prev_close,
volume,amount,float_mcap,total_mcap). The market capitalisations (流通市值 float_mcap, 总市值 total_mcap) are kept
on the bars.

Generic CSV (source "user_csv"), UTF-8 (a byte-order mark is allowed), comma-separated, one header row;
lines starting with # before the header are comments. Columns, in any order (others are ignored):

    symbol,date,open,high,low,close,prev_close,volume[,amount][,name][,float_mcap][,total_mcap]

- symbol: any form the program accepts: 600519, sh600519, 600519.SH, 00700.HK, AAPL.US
- date: the trading day, YYYY-MM-DD
- open, high, low, close: unadjusted prices in the instrument's currency (a decimal point, no separators)
- prev_close: the exchange's reference price for the day: the previous close, or the ex-rights reference
  on an ex-date (adjusted series are computed from it); may be empty when unknown
- volume: shares traded (not lots), a whole number >= 0
- amount: traded value in currency units (not 万元); optional, may be empty
- name: the instrument's name on that day (ST status is read from it); optional
- float_mcap, total_mcap: float and total market capitalisation in currency units; optional, may be empty
A .parquet file with these column names is read the same way.

A row is rejected when: the symbol is not understood (bad_symbol); the date is not YYYY-MM-DD (bad_date);
a price is missing or not a number (bad_price); a price is zero or negative (non_positive_price);
high < max(open, close) (high_below_open_or_close); low > min(open, close) (low_above_open_or_close);
volume is missing, not a whole number (bad_volume) or negative (negative_volume); amount is not a
number or negative (bad_amount); a market capitalisation is given but not a number (bad_mcap); the symbol and
date repeat an earlier row of the file (duplicate_row). A capitalisation of zero or less is stored as unknown
(the community files carry 0 for a few CDR sessions). Binary-float noise in a volume (875376394.9999999 shares in
the community files) is rounded away.

After an import the program rebuilds its own indices from every stored stock (stockbench.data.indices), so
relative strength has a benchmark even when no index is stored.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Literal

import polars as pl

from stockbench.clock import SystemClock
from stockbench.data.cache import AMOUNT, MCAP, PRICE, MarketDataCache, registered, upsert_frame
from stockbench.data.indices import RebuildReport, rebuild
from stockbench.errors import InvalidInput, UserError
from stockbench.market.instruments import identify
from stockbench.market.registry import strip_day_prefix
from stockbench.messages import user_error
from stockbench.store.database import Database

ImportFormat = Literal["auto", "community", "generic"]
FORMATS: tuple[ImportFormat, ...] = ("auto", "community", "generic")
SOURCES = {"community": "community", "generic": "user_csv"}
COMMUNITY_COLUMNS = {
    "股票代码": "code",
    "股票名称": "name",
    "交易日期": "date",
    "开盘价": "open",
    "最高价": "high",
    "最低价": "low",
    "收盘价": "close",
    "前收盘价": "prev_close",
    "成交量": "volume",
    "成交额": "amount",
    "流通市值": "float_mcap",
    "总市值": "total_mcap",
}
CAPS = ("float_mcap", "total_mcap")
REQUIRED = ("symbol", "date", "open", "high", "low", "close", "prev_close", "volume")
GENERIC_HEADER = ",".join(REQUIRED) + "[,amount][,name]"
PRICES = ("open", "high", "low", "close", "prev_close")
VOLUME_SLACK = 0.001  # float noise in the community files (875376394.9999999 shares) is rounded away
SAMPLES = 10
_DAY_PREFIX = r"^(?:XD|XR|DR)"  # the exchanges' ex-date name prefix of the day


@dataclass(frozen=True, slots=True)
class RejectedRow:
    """One rejected row: the file, its line (1-based, counting comment and header lines) and why."""

    file: str
    line: int
    reason: str


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What an import read, stored and rejected (reasons grouped, with the first few rows as samples)."""

    files: tuple[str, ...]
    format: str
    source: str
    read: int
    stored: int
    rejected: int
    rejected_reasons: dict[str, int]
    rejected_samples: tuple[RejectedRow, ...]
    symbols: int
    names: int
    first: date | None
    last: date | None
    seconds: float
    indices: RebuildReport | None = None  # the built indices, rebuilt after an import that stored rows


def _csv_head(path: Path) -> list[str]:
    try:
        with path.open(encoding="utf-8-sig") as handle:
            return [handle.readline().strip() for _ in range(12)]
    except UnicodeDecodeError:
        raise user_error(InvalidInput, "import_not_utf8", file=path.name) from None


def detect_format(path: Path) -> Literal["community", "generic"]:
    """Tell the community format from the generic one by the columns (or the Chinese header)."""
    if path.suffix.lower() == ".parquet":
        columns = pl.read_parquet_schema(path)
        return "community" if "code" in columns else "generic"
    head = [line for line in _csv_head(path) if line]
    header = next((line for line in head if not line.startswith("#")), "")
    if any(line.startswith("股票代码") for line in head[:2]):
        return "community"
    if "symbol" in [c.strip().lower() for c in header.split(",")]:
        return "generic"
    raise user_error(InvalidInput, "import_unknown_layout", file=path.name, columns=GENERIC_HEADER)


def _read_csv(path: Path, skip: int) -> pl.DataFrame:
    try:
        return pl.read_csv(path, skip_rows=skip, infer_schema=False, encoding="utf8", truncate_ragged_lines=True)
    except pl.exceptions.PolarsError as error:
        raise user_error(InvalidInput, "import_unreadable", file=path.name, error=error) from None


def read_raw(path: Path, fmt: Literal["community", "generic"]) -> tuple[pl.DataFrame, int]:
    """The file's rows with the generic column names, and the line number of its first data row."""
    if path.suffix.lower() == ".parquet":
        frame = pl.read_parquet(path)
        first_line = 1
    elif fmt == "community":
        skip = 0 if _csv_head(path)[0].startswith("股票代码") else 1
        frame = _read_csv(path, skip).rename(COMMUNITY_COLUMNS, strict=False)
        first_line = skip + 2
    else:
        skip = next((i for i, line in enumerate(_csv_head(path)) if not line.startswith("#")), 0)
        frame = _read_csv(path, skip)
        frame = frame.rename({c: c.strip().lower() for c in frame.columns})
        first_line = skip + 2
    if "code" in frame.columns and "symbol" not in frame.columns:
        frame = frame.rename({"code": "symbol"})
    missing = [c for c in REQUIRED if c not in frame.columns]
    if missing:
        raise user_error(InvalidInput, "import_missing_columns", file=path.name, missing=", ".join(missing),
                         columns=GENERIC_HEADER)  # fmt: skip
    return frame, first_line


def _decimal(column: str, dtype: pl.DataType, target: pl.Decimal, places: int = 4) -> pl.Expr:
    expr = pl.col(column)
    if dtype == pl.String:
        text = expr.str.strip_chars()
        return pl.when(text == "").then(None).otherwise(text).cast(target, strict=False)
    if dtype.is_float():
        return expr.round(places).cast(target, strict=False)
    return expr.cast(target, strict=False)


def _given(column: str) -> pl.Expr:
    """The cell holds something (an empty or blank text is not given)."""
    return pl.col(column).is_not_null() & (pl.col(column).cast(pl.String).str.strip_chars() != "")


def _typed(frame: pl.DataFrame, symbols: dict[str, str | None], first_line: int) -> pl.DataFrame:
    schema = frame.schema
    date_col = pl.col("date")
    if schema["date"] == pl.String:
        date_col = date_col.str.strip_chars().str.to_date("%Y-%m-%d", strict=False)
    volume = pl.col("volume").cast(pl.Float64, strict=False)
    optional = {
        "amount": _decimal("amount", schema["amount"], AMOUNT) if "amount" in schema else pl.lit(None, AMOUNT),
        "name": pl.col("name").cast(pl.String).str.strip_chars() if "name" in schema else pl.lit(None, pl.String),
        **{c: _decimal(c, schema[c], MCAP, places=2) if c in schema else pl.lit(None, MCAP) for c in CAPS},
        **{f"_{c}_given": _given(c) if c in schema else pl.lit(False) for c in CAPS},
    }
    return frame.select(
        _line=pl.int_range(first_line, first_line + frame.height, dtype=pl.Int64),
        symbol=pl.col("symbol").cast(pl.String).replace_strict(symbols, default=None, return_dtype=pl.String),
        day=date_col.cast(pl.Date, strict=False),
        **{c: _decimal(c, schema[c], PRICE) for c in PRICES},
        _volume=volume,
        _amount_given=pl.col("amount").is_not_null() & (pl.col("amount").cast(pl.String) != "")
        if "amount" in schema
        else pl.lit(False),
        _prev_given=pl.col("prev_close").is_not_null() & (pl.col("prev_close").cast(pl.String).str.strip_chars() != ""),
        **optional,
    )


def _reason() -> pl.Expr:
    o, h, lo, c, pc = (pl.col(x) for x in PRICES)
    checks: list[tuple[pl.Expr, str]] = [
        (pl.col("symbol").is_null(), "bad_symbol"),
        (pl.col("day").is_null(), "bad_date"),
        (pl.any_horizontal(o.is_null(), h.is_null(), lo.is_null(), c.is_null()), "bad_price"),
        (pl.col("_prev_given") & pc.is_null(), "bad_price"),
        (pl.min_horizontal(o, h, lo, c) <= 0, "non_positive_price"),
        (pc.is_not_null() & (pc <= 0), "non_positive_price"),
        (h < pl.max_horizontal(o, c), "high_below_open_or_close"),
        (lo > pl.min_horizontal(o, c), "low_above_open_or_close"),
        (pl.col("_volume").is_null(), "bad_volume"),
        (pl.col("_volume") < 0, "negative_volume"),
        ((pl.col("_volume") - pl.col("_volume").round(0)).abs() > VOLUME_SLACK, "bad_volume"),
        (pl.col("_amount_given") & pl.col("amount").is_null(), "bad_amount"),
        (pl.col("amount") < 0, "bad_amount"),
        (pl.any_horizontal(*(pl.col(f"_{c}_given") & pl.col(c).is_null() for c in CAPS)), "bad_mcap"),
        (pl.struct("symbol", "day").is_first_distinct().not_(), "duplicate_row"),
    ]
    expr: pl.Expr = pl.lit(None, dtype=pl.String)
    for condition, reason in reversed(checks):
        expr = pl.when(condition.fill_null(False)).then(pl.lit(reason)).otherwise(expr)
    return expr


def _symbol_map(texts: Iterable[str | None]) -> dict[str, str | None]:
    mapped: dict[str, str | None] = {}
    for text in texts:
        if text is None:
            continue
        try:
            mapped[text] = identify(text).instrument.symbol
        except UserError:
            mapped[text] = None
    return mapped


def validate(frame: pl.DataFrame, first_line: int) -> pl.DataFrame:
    """Typed rows with a `reason` column: null for an accepted row, else why it is rejected."""
    symbols = _symbol_map(frame.get_column("symbol").cast(pl.String).unique().to_list())
    typed = _typed(frame, symbols, first_line)
    return typed.with_columns(reason=_reason())


def _bars(accepted: pl.DataFrame, source: str) -> pl.DataFrame:
    return accepted.select(
        "symbol",
        "day",
        *PRICES,
        volume=pl.col("_volume").round(0).cast(pl.Int64),
        amount="amount",
        **{c: pl.when(pl.col(c) > 0).then(pl.col(c)) for c in CAPS},  # zero or less: unknown
        source=pl.lit(source),
    )


def name_changes(accepted: pl.DataFrame, source: str) -> pl.DataFrame:
    """One row per name change (symbol, valid_from, name, source), in symbol and date order."""
    named = accepted.select("symbol", "day", "name").filter(pl.col("name").is_not_null() & (pl.col("name") != ""))
    if not named.select(pl.struct("symbol", "day").is_sorted()).item():
        named = named.sort("symbol", "day")
    changed = (pl.col("symbol") != pl.col("symbol").shift(1)) | (pl.col("name") != pl.col("name").shift(1))
    return named.filter(changed.fill_null(True)).select("symbol", valid_from="day", name="name", source=pl.lit(source))


def _instrument_rows(accepted: pl.DataFrame, changes: pl.DataFrame, source: str) -> pl.DataFrame:
    latest = changes.group_by("symbol").agg(
        raw=pl.col("name").last(), plain=pl.col("name").filter(~pl.col("name").str.contains(_DAY_PREFIX)).last()
    )
    rows = []
    names = {r[0]: r[2] or strip_day_prefix(r[1]) for r in latest.iter_rows()}
    for symbol in accepted.get_column("symbol").unique().to_list():
        instrument = identify(symbol).instrument
        rows.append((symbol, names.get(symbol), instrument.security_type.value, instrument.board.value, source))
    schema = {
        "symbol": pl.String,
        "name": pl.String,
        "security_type": pl.String,
        "board": pl.String,
        "source": pl.String,
    }
    return pl.DataFrame(rows, schema=schema, orient="row")


def record_instruments(db: Database, accepted: pl.DataFrame, source: str) -> tuple[int, int]:
    """Register the instruments and their name history; returns (instruments, name rows).

    An instrument already in the registry keeps its name (a provider's is newer than a file's); the
    name history is merged by (symbol, valid_from).
    """
    changes = name_changes(accepted, source)
    instruments = _instrument_rows(accepted, changes, source)
    now = SystemClock().now()
    with db.transaction() as cur, registered(cur, instruments) as name:
        cur.execute(
            "INSERT INTO instruments AS i (symbol, name, security_type, board, source, updated_at)"
            f" SELECT symbol, name, security_type, board, source, ? FROM {name}"
            " ON CONFLICT (symbol) DO UPDATE SET name = coalesce(i.name, excluded.name),"
            " updated_at = excluded.updated_at",
            [now],
        )
        upsert_frame(db, "instrument_names", changes, ("symbol", "valid_from"), unique=True)
    return instruments.height, changes.height


def _samples(rejected: pl.DataFrame, file: str) -> list[RejectedRow]:
    return [
        RejectedRow(file, line, reason) for line, reason in rejected.head(SAMPLES).select("_line", "reason").iter_rows()
    ]


def _files(path: Path) -> list[Path]:
    if path.is_dir():
        found = sorted(p for p in path.iterdir() if p.suffix.lower() in {".csv", ".parquet"})
        if not found:
            raise user_error(InvalidInput, "import_no_files", path=path)
        return found
    if not path.is_file():
        raise user_error(InvalidInput, "import_missing_path", path=path)
    return [path]


@dataclass
class _Tally:
    read: int = 0
    stored: int = 0
    rejected: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    samples: list[RejectedRow] = field(default_factory=list)
    symbols: set[str] = field(default_factory=set)
    names: int = 0
    days: list[date] = field(default_factory=list)
    formats: set[str] = field(default_factory=set)


def _import_file(cache: MarketDataCache, db: Database, path: Path, fmt: ImportFormat, tally: _Tally) -> None:
    chosen = detect_format(path) if fmt == "auto" else fmt
    source = SOURCES[chosen]
    raw, first_line = read_raw(path, chosen)
    checked = validate(raw, first_line)
    accepted = checked.filter(pl.col("reason").is_null())
    rejected = checked.filter(pl.col("reason").is_not_null())
    with db.transaction():
        tally.stored += cache.store_bar_frame(_bars(accepted, source), unique=True)
        if not accepted.is_empty():
            tally.names += record_instruments(db, accepted, source)[1]
    tally.read += checked.height
    tally.rejected += rejected.height
    for reason, count in rejected.get_column("reason").value_counts().iter_rows():
        tally.reasons[reason] = tally.reasons.get(reason, 0) + count
    tally.samples.extend(_samples(rejected, path.name)[: SAMPLES - len(tally.samples)])
    tally.symbols.update(accepted.get_column("symbol").unique().to_list())
    if not accepted.is_empty():
        tally.days += [accepted.get_column("day").min(), accepted.get_column("day").max()]  # type: ignore[list-item]
    tally.formats.add(chosen)


def import_path(
    cache: MarketDataCache, db: Database, path: Path, fmt: ImportFormat = "auto",
    *, before: Callable[[], object] | None = None,
) -> ImportReport:  # fmt: skip
    """Import a file, or every .csv/.parquet file of a folder, and report what was read, stored and rejected.

    `before` runs once the files are found and before the first is read (the workbench takes a backup there)."""
    if fmt not in FORMATS:
        raise user_error(InvalidInput, "import_unknown_format", format=fmt, choices=", ".join(FORMATS))
    started = time.perf_counter()
    files = _files(path)
    if before is not None:
        before()
    tally = _Tally()
    for file in files:
        _import_file(cache, db, file, fmt, tally)
    indices = rebuild(db, cache) if tally.stored else None
    formats = sorted(tally.formats)
    return ImportReport(
        files=tuple(str(f) for f in files),
        format=formats[0] if len(formats) == 1 else "mixed",
        source=", ".join(SOURCES[f] for f in formats),
        read=tally.read,
        stored=tally.stored,
        rejected=tally.rejected,
        rejected_reasons=dict(sorted(tally.reasons.items(), key=lambda kv: -kv[1])),
        rejected_samples=tuple(tally.samples),
        symbols=len(tally.symbols),
        names=tally.names,
        first=min(tally.days) if tally.days else None,
        last=max(tally.days) if tally.days else None,
        seconds=round(time.perf_counter() - started, 3),
        indices=indices,
    )
