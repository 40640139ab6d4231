"""Vectorised checks of daily A-share bars against the exchanges' price ticks and daily price limits.

The data layer runs `check_bars` on imported and demo bars. Boards, percentages, bands, listing sessions and
effective dates all come from the rule tables; prices are compared as integer ticks with half-up rounding,
so no float error can move a limit across a boundary. Polars is imported here: keep this module off the
CLI's import path.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any, Literal

import polars as pl

from stockbench.errors import InternalError, InvalidInput
from stockbench.market.instruments import SecurityType, identify, rule_board
from stockbench.market.registry import is_st_name, is_unreformed_name
from stockbench.market.tables import FirstSessionRow, RuleTables, load_tables
from stockbench.messages import error_words, user_error

LimitRule = Literal[
    "normal",  # the board's ordinary limit
    "st",  # special treatment: the name carries ST or *ST
    "unreformed",  # "S" shares whose split-share reform is not complete
    "first_day_band",  # first session of a pre-registration listing: a band around the offer price
    "new_listing",  # first sessions of a registration-system listing: no limit
    "further_issue",  # first session of shares listed in a further issue ("N" name prefix): no limit
    "resumed_listing",  # first session after a suspension of listing ends: no limit
    "relisting",  # first session of a relisting after delisting: no limit
    "delisting_period",  # first session of a delisting consolidation period (2020 delisting rules): no limit
    "reform_completed",  # first session after the split-share reform (the name loses its "S"): no limit
    "no_rule",  # no rule row covers the board on that date
    "none",  # not an A-share stock or fund (an index, Hong Kong, US): not checked
]
BarStatus = Literal[
    "ok", "unchecked", "no_rule", "bad_price", "ohlc_inconsistent", "off_tick", "above_limit_up", "below_limit_down"
]
ListingEvent = Literal["further_issue", "resumed_listing", "relisting", "delisting_period", "reform_completed"]
EVENTS: tuple[ListingEvent, ...] = (
    "further_issue",
    "resumed_listing",
    "relisting",
    "delisting_period",
    "reform_completed",
)
EVENT_RULES: tuple[ListingEvent, ...] = ("relisting", "delisting_period", "reform_completed")

PRICES = ("open", "high", "low", "close", "prev_close")
REQUIRED = ("symbol", "date", *PRICES)
OUTPUTS = ("listing_session", "limit_rule", "limit_up", "limit_down", "status")
BP = 10_000  # rates are applied in basis points: exact for any rate with up to 4 decimals
TICK_TOLERANCE = 1e-6  # a float price within a millionth of a tick of a multiple is on that tick
LIMIT_DECIMAL = pl.Decimal(18, 3)
ROW = "_row"

# Name prefixes the exchanges add for a day: ex-dates (prev_close already holds the reference), listings.
_RESUMED = r"^N\*?S?\*?ST"  # NST毅达: a listing that resumes (a new listing is never ST)
_NEW_SHARES = r"^N[^\x00-\x7F]"  # N中原: the first session of a listing or of a further issue
_REGISTRATION = r"^C[^\x00-\x7F]"  # C英力: sessions 2-5 of a registration-system listing


def first_session_rules(tables: RuleTables) -> tuple[FirstSessionRow, ...]:
    """The `first_session_no_limit` rows of the rule tables."""
    return tables.first_session_no_limit


def half_up_limit(ref_ticks: pl.Expr, bp: pl.Expr, side: Literal["up", "down"]) -> pl.Expr:
    """A limit in ticks: reference x (1 +/- bp / 10000), rounded half-up to a whole tick, in integers only."""
    factor = BP + bp if side == "up" else BP - bp
    return (ref_ticks * factor + BP // 2) // BP


def _bp(rate: Decimal) -> int:
    value = rate * BP
    if value != value.to_integral_value():
        raise InternalError(f"rule table rate {rate} has more than 4 decimals")
    return int(value)


def _rule_frame(rows: list[dict[str, Any]], schema: dict[str, Any]) -> pl.DataFrame:
    full = {**schema, "since": pl.Date, "until": pl.Date, "order": pl.Int64}
    return pl.DataFrame([{**r, "order": i} for i, r in enumerate(rows)], schema=full)


def _in_force(keys: pl.DataFrame, rules: pl.DataFrame, on: list[str], day: str) -> pl.DataFrame:
    """For every key, the first rule row (in file order) joined on `on` and in force on the key's `day`."""
    joined = keys.join(rules, on=on, how="inner") if on else keys.join(rules, how="cross")
    return (
        joined.filter(pl.col(day).is_between(pl.col("since"), pl.col("until")))
        .sort("order")
        .unique(subset=[*on, day], keep="first")
        .drop("since", "until", "order")
    )


def _name_flags(names: pl.Series) -> pl.DataFrame:
    """What each distinct name says: ST (read after any ex-date prefix), S shares, listing prefixes."""
    frame = pl.DataFrame({"name": names.drop_nulls().unique()})
    return frame.with_columns(
        st=pl.Series([is_st_name(n) for n in frame["name"]], dtype=pl.Boolean),
        unreformed=pl.Series([is_unreformed_name(n) for n in frame["name"]], dtype=pl.Boolean),
        resumed_name=pl.col("name").str.contains(_RESUMED),
        new_shares_name=pl.col("name").str.contains(_NEW_SHARES),
        listing_name=pl.col("name").str.contains(_NEW_SHARES) | pl.col("name").str.contains(_REGISTRATION),
    )


def _instrument_rows(symbols: list[str], tables: RuleTables) -> pl.DataFrame:
    """Board, whether limits apply, and ticks per currency unit of every symbol (identity from the code)."""
    rows = []
    for symbol in symbols:
        try:
            instrument = identify(symbol).instrument
        except InvalidInput as error:
            problem_zh, hint_zh = error_words(error, "zh")
            raise user_error(InvalidInput, "bar_symbol_bad", symbol=symbol, problem=error.message, hint=error.hint,
                             problem_zh=problem_zh, hint_zh=hint_zh) from error  # fmt: skip
        if instrument.symbol != symbol:
            raise user_error(InvalidInput, "bar_symbol_not_canonical", symbol=symbol, canonical=instrument.symbol)
        checked = instrument.is_a_share and instrument.security_type is not SecurityType.INDEX
        tick = tables.ticks["cn_fund" if instrument.security_type is SecurityType.FUND else "cn_stock"]
        rows.append({"symbol": symbol, "board": rule_board(instrument), "checked": checked, "scale": int(1 / tick)})
    schema = {"symbol": pl.String, "board": pl.String, "checked": pl.Boolean, "scale": pl.Int64}
    return pl.DataFrame(rows, schema=schema)


def _event_rows(events: pl.DataFrame | None, data: pl.DataFrame, names: pl.DataFrame) -> pl.DataFrame:
    """The caller's listing events, then the reforms the names show (S on a symbol's bar, none on its next)."""
    schema = {"symbol": pl.String, "date": pl.Date, "event": pl.String}
    given = pl.DataFrame(schema=schema)
    if events is not None:
        given = events.select(
            pl.col("symbol").cast(pl.String), pl.col("date").cast(pl.Date), pl.col("event").cast(pl.String)
        )
    unknown = sorted(set(given["event"].to_list()) - set(EVENTS))
    if unknown:
        raise user_error(
            InvalidInput, "bar_events_unknown", events=", ".join(map(str, unknown)), known=", ".join(EVENTS)
        )
    s_names = names.filter("unreformed")["name"].implode()
    s_symbols = data.filter(pl.col("name").is_in(s_names))["symbol"].unique().implode()
    reforms = (
        data.filter(pl.col("symbol").is_in(s_symbols))
        .sort("symbol", "date")
        .filter(pl.col("name").is_in(s_names).shift(1).over("symbol") & ~pl.col("name").is_in(s_names))
        .select("symbol", "date", event=pl.lit("reform_completed"))
    )
    return pl.concat([given, reforms]).unique(subset=["symbol", "date"], keep="first", maintain_order=True)


def _symbol_rows(data: pl.DataFrame, names: pl.DataFrame, events: pl.DataFrame, tables: RuleTables) -> pl.DataFrame:
    """Per symbol: board, scale, whether the data catch its listing, and that listing's rule rows."""
    has_list_date = "list_date" in data.columns
    listed = pl.col("list_date").cast(pl.Date).first() if has_list_date else pl.lit(None, dtype=pl.Date)
    firsts = data.group_by("symbol").agg(
        first_date=pl.col("date").min(), name=pl.col("name").sort_by("date").first(), list_date=listed
    )
    firsts = firsts.join(names, on="name", how="left").join(
        events.rename({"date": "first_date"}), on=["symbol", "first_date"], how="left"
    )
    starts_late = pl.col("first_date") > pl.lit(data["date"].min(), dtype=pl.Date)
    relisted_first = pl.col("resumed_name").fill_null(False) | pl.col("event").is_in(["resumed_listing", "relisting"])
    by_data = (starts_late & ~relisted_first.fill_null(False)) | pl.col("listing_name").fill_null(False)
    new = (
        pl.when(pl.col("list_date").is_not_null()).then(pl.col("first_date") == pl.col("list_date")).otherwise(by_data)
    )
    symbols = firsts.select("symbol", new=new, listing_date=pl.when(new).then(pl.col("first_date")))
    symbols = symbols.join(_instrument_rows(symbols["symbol"].to_list(), tables), on="symbol")
    return symbols.join(_listing_rules(symbols, tables), on=["board", "listing_date"], how="left")


def _listing_rules(symbols: pl.DataFrame, tables: RuleTables) -> pl.DataFrame:
    """No-limit sessions and first-day band of each board for listings on each listing date."""
    keys = symbols.select("board", "listing_date").drop_nulls().unique()
    free = [
        {"board": r.board, "sessions": r.sessions, "since": r.since, "until": r.until} for r in tables.listing_no_limit
    ]
    bands = [
        {"board": r.board, "band_up": _bp(r.up), "band_down": _bp(r.down), "since": r.since, "until": r.until}
        for r in tables.listing_first_day_band
    ]
    found_free = _in_force(
        keys, _rule_frame(free, {"board": pl.String, "sessions": pl.Int32}), ["board"], "listing_date"
    )
    band_schema = {"board": pl.String, "band_up": pl.Int64, "band_down": pl.Int64}
    found_bands = _in_force(keys, _rule_frame(bands, band_schema), ["board"], "listing_date")
    return keys.join(found_free, on=["board", "listing_date"], how="left").join(
        found_bands, on=["board", "listing_date"], how="left"
    )


def _day_rules(keys: pl.DataFrame, tables: RuleTables) -> pl.DataFrame:
    """Per board and date: the limit in basis points for each status, and which listing events are unlimited."""
    base = keys.select("board", "date")
    for status in ("normal", "st", "unreformed"):
        rows = [
            {"board": r.board, "bp": _bp(r.pct), "since": r.since, "until": r.until}
            for r in tables.limits
            if r.status == status
        ]
        found = _in_force(base, _rule_frame(rows, {"board": pl.String, "bp": pl.Int64}), ["board"], "date")
        keys = keys.join(found.rename({"bp": f"bp_{status}"}), on=["board", "date"], how="left")
    rules = first_session_rules(tables)
    for event in EVENTS:
        rows = [{"since": r.since, "until": r.until} for r in rules if r.event == event]
        found = _in_force(base.select("date").unique(), _rule_frame(rows, {}), [], "date")
        keys = keys.with_columns(pl.col("date").is_in(found["date"].implode()).alias(f"{event}_rule"))
    return keys


def _rule() -> pl.Expr:
    session, event = pl.col("listing_session"), pl.col("event")
    resumed = pl.col("resumed_name") | (event == "resumed_listing")
    further = (session.is_null() & pl.col("new_shares_name")) | (event == "further_issue")
    return (
        pl.when(~pl.col("checked"))
        .then(pl.lit("none"))
        .when(resumed & pl.col("resumed_listing_rule"))
        .then(pl.lit("resumed_listing"))
        .when(_event_rule())
        .then(event)
        .when(session <= pl.col("sessions"))
        .then(pl.lit("new_listing"))
        .when((session == 1) & pl.col("band_up").is_not_null())
        .then(pl.lit("first_day_band"))
        .when(further & pl.col("further_issue_rule"))
        .then(pl.lit("further_issue"))
        .when(pl.col("unreformed") & pl.col("bp_unreformed").is_not_null())
        .then(pl.lit("unreformed"))
        .when(pl.col("st") & pl.col("bp_st").is_not_null())
        .then(pl.lit("st"))
        .when(pl.col("bp_normal").is_not_null())
        .then(pl.lit("normal"))
        .otherwise(pl.lit("no_rule"))
    )


def _event_rule() -> pl.Expr:
    """True where the bar is the first session of an event whose rule row is in force on its date."""
    return pl.any_horizontal([(pl.col("event") == e) & pl.col(f"{e}_rule") for e in EVENT_RULES]).fill_null(False)


def _rate(side: str) -> pl.Expr:
    rule = pl.col("limit_rule")
    return (
        pl.when(rule == "first_day_band")
        .then(pl.col(f"band_{side}"))
        .when(rule.is_in(["normal", "st", "unreformed"]))
        .then(pl.when(rule == "normal").then("bp_normal").when(rule == "st").then("bp_st").otherwise("bp_unreformed"))
    )


def _ticks() -> list[pl.Expr]:
    scaled = {c: pl.col(c).cast(pl.Float64) * pl.col("scale") for c in PRICES}
    return [
        *(scaled[c].round(0).cast(pl.Int64, strict=False).alias(f"{c}_t") for c in PRICES),
        pl.all_horizontal([(scaled[c] - scaled[c].round(0)).abs() < TICK_TOLERANCE for c in PRICES]).alias("on_tick"),
        pl.all_horizontal([scaled[c].is_finite() & (scaled[c] > 0) for c in PRICES]).fill_null(False).alias("priced"),
    ]


def _status() -> pl.Expr:
    o, h, lo, c = (pl.col(f"{p}_t") for p in ("open", "high", "low", "close"))
    up, down = pl.col("up_t"), pl.col("down_t")
    return (
        pl.when(pl.col("limit_rule") == "none")
        .then(pl.lit("unchecked"))
        .when(pl.col("limit_rule") == "no_rule")
        .then(pl.lit("no_rule"))
        .when(~pl.col("priced"))
        .then(pl.lit("bad_price"))
        .when((h < pl.max_horizontal(o, c, lo)) | (lo > pl.min_horizontal(o, c, h)))
        .then(pl.lit("ohlc_inconsistent"))
        .when(~pl.col("on_tick"))
        .then(pl.lit("off_tick"))
        .when(up.is_not_null() & (h > up))
        .then(pl.lit("above_limit_up"))
        .when(down.is_not_null() & (lo < down))
        .then(pl.lit("below_limit_down"))
        .otherwise(pl.lit("ok"))
    )


def _validated(bars: pl.DataFrame | pl.LazyFrame) -> tuple[pl.DataFrame, list[str]]:
    lazy = bars.lazy()
    columns = lazy.collect_schema().names()
    missing = [c for c in REQUIRED if c not in columns]
    if missing:
        raise user_error(
            InvalidInput, "bar_columns", missing=", ".join(missing), required=", ".join(REQUIRED), name="name"
        )
    if "name" not in columns:
        lazy = lazy.with_columns(name=pl.lit(None, dtype=pl.String))
    data = lazy.with_columns(pl.col("symbol", "name").cast(pl.String), pl.col("date").cast(pl.Date)).collect()
    twice = data.select("symbol", "date").filter(pl.struct("symbol", "date").is_duplicated())
    if twice.height:
        symbol, day = twice.row(0)
        raise user_error(InvalidInput, "bar_repeated", count=twice.height, symbol=symbol, day=day)
    return data.with_row_index(ROW), columns


def check_bars(
    bars: pl.DataFrame | pl.LazyFrame,
    tables: RuleTables | None = None,
    *,
    events: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Each daily bar with its listing session, limit rule, limit prices (null: no limit) and status.

    `bars` needs symbol (canonical, e.g. 600519.SH), date, open, high, low, close and prev_close (the exchange's
    reference price), and may carry name (that day's name: ST, S, N, C and XD/XR/DR prefixes are read) and
    list_date. A symbol is a new listing when its list_date is its first bar's date or, without a list_date,
    when its first bar comes after the frame's first date (a symbol present on the first day is not new) or
    carries a listing prefix; its listing session is then the bar's 1-based position among its bars.
    `events` (symbol, date, event) names first sessions the names do not show: "resumed_listing" (after a
    suspension of listing), "relisting" (after delisting), "further_issue", "delisting_period" (the first
    session of a delisting consolidation period) or "reform_completed" (after the split-share reform; read
    from names too). Status is "ok" when every price
    is a positive valid tick, high and low bound the bar, and the bar lies within the limits; otherwise the
    first failing check. Rows come back in the order given.
    """
    tables = tables or load_tables()
    data, columns = _validated(bars)
    names = _name_flags(data["name"])
    event_rows = _event_rows(events, data, names)
    symbols = _symbol_rows(data, names, event_rows, tables)
    days = _day_rules(data.select("date").unique().join(symbols.select("board").unique(), how="cross"), tables)
    frame = (
        data.lazy()
        .join(symbols.lazy(), on="symbol", how="left")
        .join(names.lazy(), on="name", how="left")
        .join(event_rows.lazy(), on=["symbol", "date"], how="left")
        .join(days.lazy(), on=["board", "date"], how="left")
        .with_columns(pl.col("st", "unreformed", "resumed_name", "new_shares_name").fill_null(False))
        .with_columns(listing_session=pl.when("new").then(pl.col("date").rank("ordinal").over("symbol").cast(pl.Int32)))
        .with_columns(*_ticks(), limit_rule=_rule())
        .with_columns(
            up_t=half_up_limit(pl.col("prev_close_t"), _rate("up"), "up"),
            down_t=half_up_limit(pl.col("prev_close_t"), _rate("down"), "down"),
        )
        .with_columns(
            status=_status(),
            limit_up=(pl.col("up_t").cast(LIMIT_DECIMAL) / pl.col("scale")).cast(LIMIT_DECIMAL),
            limit_down=(pl.col("down_t").cast(LIMIT_DECIMAL) / pl.col("scale")).cast(LIMIT_DECIMAL),
        )
    )
    return frame.sort(ROW).select(*columns, *OUTPUTS).collect()


def scan_community_daily(path: Path) -> pl.LazyFrame:
    """The community A-share daily parquet (code like sh600519) as bars for `check_bars` (600519.SH)."""
    exchange = pl.col("code").str.slice(0, 2).str.to_uppercase()
    return pl.scan_parquet(path).select(
        (pl.col("code").str.slice(2) + pl.lit(".") + exchange).alias("symbol"),
        "date",
        "name",
        *PRICES,
    )
