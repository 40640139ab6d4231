"""The opportunity scan: a compact screen of many symbols on one session and a ranked shortlist with reasons.

It answers only "worth researching?": it never gives a price to trade at or a quantity. Vectorised across
symbols: only the as-of row of each symbol is computed, with the definitions of stockbench.analytics.indicators
(simple means; 52-week extremes over 250 sessions; ATR14 by Wilder's smoothing, here seeded at the window's first
true range, which differs from a full-history value by under 1e-7 relative after the 259 sessions read). The
zone position comes from the one zone algorithm (stockbench.analytics.zones); the tables are `scan`
(resources/zone_tables.toml), `trend` and `zones` (resources/rule_tables.toml). Names are the ones each symbol
carried on the as-of session, so special treatment (*ST, ST) is flagged as it stood then.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import polars as pl

from stockbench.analytics.baseline import Setup
from stockbench.analytics.rule_tables import RuleBook, Table, load_rule_tables
from stockbench.analytics.states import classify, state_column
from stockbench.analytics.zones import ZoneParams, candidate_levels, position_expr, with_sessions_back, zone_levels
from stockbench.config import resources_dir
from stockbench.errors import InternalError, InvalidInput
from stockbench.market.registry import special_treatment
from stockbench.messages import Note, anchor_words, check_words, note, user_error, value_word

ZONE_TABLES_FILE = "zone_tables.toml"
ATR_N = 14
MAS = (5, 20, 60, 120, 250)
YEAR = 250  # sessions of the 52-week high and low (as in stockbench.analytics.indicators)
_K = "_k"
ZONE_TEXT = {
    "stop_hit": "at or under the stop",
    "below_buy": "below the buy zone",
    "in_buy": "in the buy zone",
    "between": "between the buy and sell zones",
    "in_sell": "in the sell zone",
    "above_sell": "above the sell zone",
}
ST_NOTE = {"*ST": "scan.star_st", "ST": "scan.st"}


@functools.cache
def load_zone_tables(path: Path | None = None) -> dict[str, Table]:
    """The tables of resources/zone_tables.toml (scan, peers) by name, parsed once per process."""
    path = path or resources_dir() / ZONE_TABLES_FILE
    try:
        with path.open("rb") as handle:
            raw = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise InternalError(f"cannot read the zone tables {path}: {error}") from error
    tables = {}
    for key, body in raw.items():
        if key == "meta":
            continue
        if body.get("name") != key or not body.get("version") or not body.get("description"):
            raise InternalError(f"zone table [{key}] needs name = {key!r}, a version and a description")
        values = {k: v for k, v in body.items() if k not in ("name", "version", "description")}
        tables[key] = Table(key, str(body["version"]), str(body["description"]), values)
    return tables


@dataclass(frozen=True, slots=True)
class Pick:
    """A shortlisted symbol: its name on the as-of session, its special treatment (*ST, ST or None), its score and
    why (each reason with its points; a flag first)."""

    symbol: str
    score: float
    notes: tuple[Note, ...]
    name: str | None = None
    st: str | None = None
    setup: Setup | None = None  # the baseline's buy setup on the session (None: not judged)

    def with_setup(self, setup: Setup) -> Pick:
        """This pick with the buy setup judged: a note says it first (after a special-treatment flag) when it holds,
        or which checks its data cannot judge; a setup that fails is said only in the JSON (most do)."""
        flags = self.notes[: 1 if self.st else 0]
        said: tuple[Note, ...] = ()
        if setup.holds:
            limit = {c.name: c.limit for c in setup.checks}
            said = (note("scan.setup", ma250=f"{limit['uptrend']:g}-{limit['extension']:g}",
                         ma20=f"{limit['over_ma20']:g}-{limit['near_ma20']:g}"),)  # fmt: skip
        elif setup.holds is None:
            said = (note("scan.setup_unknown", checks=check_words(setup.unknown, "en"),
                         checks_zh=check_words(setup.unknown, "zh")),)  # fmt: skip
        return replace(self, setup=setup, notes=flags + said + self.notes[len(flags) :])

    @property
    def reasons(self) -> tuple[str, ...]:
        """The reasons in English (the CLI's and the JSON's words; `notes` says them in either language)."""
        return tuple(n.text("en") for n in self.notes)


@dataclass(frozen=True)
class ScanResult:
    """The screen of every scanned symbol and the ranked shortlist."""

    as_of: date
    scanned: int
    ranked: int
    shortlist: tuple[Pick, ...]
    screen: pl.DataFrame
    tables: tuple[str, ...]
    st_left_out: tuple[str, ...] = ()  # ST and *ST symbols that scored enough but were kept off the shortlist

    def as_dict(self) -> dict[str, object]:
        picks = [
            {"symbol": p.symbol, "name": p.name, "st": p.st, "score": p.score, "reasons": list(p.reasons),
             "setup": p.setup.as_dict() if p.setup is not None else None}
            for p in self.shortlist
        ]  # fmt: skip
        return {
            "as_of": self.as_of,
            "scanned": self.scanned,
            "ranked": self.ranked,
            "shortlist": picks,
            "st_left_out": list(self.st_left_out),
            "tables": list(self.tables),
        }


def as_of_window(frame: pl.DataFrame, as_of: date, sessions: int, calendar_days: int) -> pl.DataFrame:
    """The last `sessions` bars of every symbol on or before `as_of` (sorted by symbol and day), with `_k`."""
    start = as_of - timedelta(days=calendar_days)
    cut = frame.filter(pl.col("day").is_between(start, as_of))
    return with_sessions_back(cut).filter(pl.col(_K) < sessions)


def _true_range(window: pl.DataFrame) -> pl.DataFrame:
    """`window` with `_atr`: each true range times its Wilder weight for the as-of row's ATR (see `snapshot`)."""
    k, alpha = pl.col(_K), 1.0 / ATR_N
    first = (pl.col("symbol") != pl.col("symbol").shift(1)).fill_null(True)
    prev = pl.when(~first).then(pl.col("close").shift(1))
    high, low = pl.col("high"), pl.col("low")
    true_range = pl.max_horizontal(high - low, (high - prev).abs(), (low - prev).abs())
    seed = ~first & first.shift(1).fill_null(False)  # the oldest true range seeds the smoothing: weight (1-a)^k
    weight = pl.when(seed).then((1 - alpha) ** k).otherwise(alpha * (1 - alpha) ** k)
    return window.with_columns(_atr=pl.when(~first).then(true_range * weight))


def snapshot(window: pl.DataFrame, scan: Table, since: date | None = None, slope: int = 10) -> pl.DataFrame:
    """One row per symbol: the as-of row's close and the indicators the screen and the zones need; `recent` counts
    the bars on or after `since`; ma20_slope compares ma20 with its value `slope` sessions earlier (the trend
    table's slope_sessions). `window` holds each symbol's last bars in day order (see `as_of_window`)."""
    rs, short, long = scan.integer("rs_sessions"), scan.integer("surge_short"), scan.integer("surge_long")
    close, volume, bars = pl.col("close"), pl.col("volume"), pl.col("bars")
    agg = (
        _true_range(window)
        .group_by("symbol")
        .agg(
            day=pl.col("day").last(),
            close=close.last(),
            bars=pl.len(),
            recent=(pl.col("day") >= (since or date.min)).sum(),
            first_day=pl.col("day").first(),
            **{f"_ma{n}": close.tail(n).mean() for n in MAS},
            _back=close.slice(-(slope + 20), 20).mean(),
            _high=pl.col("high").tail(YEAR).max(),
            _low=pl.col("low").tail(YEAR).min(),
            _rs=close.slice(-(rs + 1), 1).first(),
            _atr=pl.col("_atr").sum(),
            _vshort=volume.tail(short).mean(),
            _vlong=volume.tail(long).mean(),
        )
    )
    return agg.select(
        "symbol",
        "day",
        "close",
        "bars",
        "recent",
        "first_day",
        *(pl.when(bars >= n).then(f"_ma{n}").alias(f"ma{n}") for n in MAS),
        ma20_slope=pl.when(bars >= slope + 20).then(pl.col("_ma20") / pl.col("_back") - 1),
        atr14=pl.when(bars > ATR_N).then("_atr"),
        high_52w=pl.when(bars >= YEAR).then("_high"),
        low_52w=pl.when(bars >= YEAR).then("_low"),
        ret=pl.when(bars > rs).then(pl.col("close") / pl.col("_rs") - 1),
        surge=pl.when(bars >= long).then(pl.col("_vshort") / pl.col("_vlong")),
    ).sort("symbol")


def _trend(snap: pl.DataFrame, book: RuleBook) -> pl.Series:
    """The trend state of each row (stockbench.analytics.states.classify; the other tables' inputs stay null)."""
    names = {n for t in book.state_tables() for n in t.inputs} - set(snap.columns)
    rows = snap.with_columns(pl.lit(None, pl.Float64).alias(n) for n in sorted(names))
    return classify(rows, book).get_column(state_column(book.trend.name)).alias("trend")


def _quality(snap: pl.DataFrame, scan: Table, recent: Sequence[date]) -> pl.Expr:
    """ok, or why not: stale (no bar on the last session), short (too few bars), gappy (missing sessions)."""
    last_session = recent[-1] if recent else date.min
    sessions = pl.Series(recent, dtype=pl.Date)
    expected = len(recent) - sessions.search_sorted(snap.get_column("first_day"), side="left")
    covered = pl.col("recent") >= scan.number("min_coverage") * pl.lit(expected)
    return (
        pl.when(pl.col("day") != pl.lit(last_session))
        .then(pl.lit("stale"))
        .when(pl.col("bars") < scan.integer("min_bars"))
        .then(pl.lit("short"))
        .when(~covered)
        .then(pl.lit("gappy"))
        .otherwise(pl.lit("ok"))
    )


def _points(scan: Table) -> dict[str, pl.Expr]:
    trend = pl.col("trend").replace_strict(dict(scan["trend_points"]), default=0, return_dtype=pl.Float64)
    rs = pl.col("rs_rank")
    rs_points = (
        pl.when(rs >= scan.number("rs_top"))
        .then(scan.number("rs_top_points"))
        .when(rs <= scan.number("rs_bottom"))
        .then(scan.number("rs_bottom_points"))
        .otherwise(0.0)
    )
    surging = (pl.col("surge") >= scan.number("surge_min")) & ~pl.col("trend").is_in(scan["surge_blocked_trends"])
    value = pl.col("valuation_pct")
    value_points = (
        pl.when(value <= scan.number("valuation_low"))
        .then(scan.number("valuation_low_points"))
        .when(value >= scan.number("valuation_high"))
        .then(scan.number("valuation_high_points"))
        .otherwise(0.0)
    )
    zone = pl.col("zone").replace_strict(dict(scan["zone_points"]), default=0, return_dtype=pl.Float64)
    return {
        "p_trend": trend,
        "p_rs": rs_points.fill_null(0.0),
        "p_surge": pl.when(surging).then(scan.number("surge_points")).otherwise(0.0).fill_null(0.0),
        "p_valuation": value_points.fill_null(0.0),
        "p_zone": zone.fill_null(0.0),
    }


def screen(
    frame: pl.DataFrame,
    as_of: date,
    *,
    valuation: pl.DataFrame | None = None,
    sessions: Sequence[date] | None = None,
    book: RuleBook | None = None,
    scan: Table | None = None,
    names: Mapping[str, str] | None = None,
) -> pl.DataFrame:
    """One row per symbol with a bar on or before `as_of`: name, st (*ST, ST or null), trend, rs_rank, surge,
    valuation_pct, zone, quality, the points of each and the score (null when the data quality is not ok).

    `frame`: forward-adjusted bars of many symbols sorted by (symbol, day); `valuation`: (symbol,
    valuation_pct, valuation_metric); `sessions`: the market's sessions up to `as_of` (default: the days of `frame`);
    `names`: each symbol's name on the as-of session, where known.
    """
    book, scan = book or load_rule_tables(), scan or load_zone_tables()["scan"]
    params = ZoneParams.from_table(book.zones)
    window = as_of_window(frame, as_of, scan.integer("window_sessions"), scan.integer("calendar_days"))
    known = window.get_column("day").unique().sort().to_list() if sessions is None else sorted(sessions)
    recent = [d for d in known if d <= as_of][-scan.integer("coverage_sessions") :]
    snap = snapshot(window, scan, recent[0] if recent else None, book.trend.param("slope_sessions"))
    zone_window = window.filter(pl.col(_K) < params.window)
    levels = candidate_levels(zone_window, snap, params)
    zones = zone_levels(snap, levels, params).select(
        "symbol", "stop", "buy_low", "buy_high", "sell_low", "sell_high", "buy_basis_name"
    )
    out = snap.with_columns(_trend(snap, book), quality=_quality(snap, scan, recent))
    out = out.join(zones, on="symbol", how="left").with_columns(zone=position_expr(pl.col("close")))
    out = out.with_columns(zone=pl.when(pl.col("stop").is_not_null()).then("zone"))
    out = _join_valuation(out, valuation)
    ok = pl.col("quality") == "ok"
    out = out.with_columns(rs_rank=pl.when(ok).then(pl.col("ret")).rank("average") / ok.sum())
    out = out.with_columns(**_points(scan))
    total = pl.sum_horizontal(pl.col("p_trend", "p_rs", "p_surge", "p_valuation", "p_zone"))
    return _with_names(out.with_columns(score=pl.when(ok).then(total)), names or {}).sort("symbol")


def _with_names(out: pl.DataFrame, names: Mapping[str, str]) -> pl.DataFrame:
    found = [names.get(symbol) for symbol in out.get_column("symbol")]
    flags = [special_treatment(name) for name in found]
    return out.with_columns(name=pl.Series(found, dtype=pl.String), st=pl.Series(flags, dtype=pl.String))


def _join_valuation(out: pl.DataFrame, valuation: pl.DataFrame | None) -> pl.DataFrame:
    if valuation is None or valuation.is_empty():
        return out.with_columns(valuation_pct=pl.lit(None, pl.Float64), valuation_metric=pl.lit(None, pl.String))
    chosen = valuation.select("symbol", pl.col("valuation_pct").cast(pl.Float64), pl.col("valuation_metric"))
    return out.join(chosen, on="symbol", how="left")


def _notes(row: Mapping[str, Any], n: int) -> tuple[Note, ...]:
    """Why a row scored: each part with its points, best first, a special-treatment flag before them."""
    notes: dict[str, Note] = {}
    trend = {"trend": row["trend"], "trend_zh": value_word("trend", row["trend"], "zh")}
    if row["ma20_slope"] is not None:
        notes["p_trend"] = note("scan.trend", slope=f"{row['ma20_slope']:+.1%}", **trend)
    else:
        notes["p_trend"] = note("scan.trend_only", **trend)
    if row["ret"] is not None:
        notes["p_rs"] = note("scan.rs", ret=f"{row['ret']:+.1%}", rank=f"{row['rs_rank']:.0%}", n=n)
    if row["surge"]:
        notes["p_surge"] = note("scan.surge", surge=f"{row['surge']:.1f}")
    if row["valuation_pct"] is not None:
        metric = row["valuation_metric"]
        notes["p_valuation"] = note("scan.valuation", metric=metric, pct=f"{row['valuation_pct']:.0%}",
                                    metric_zh=value_word("metric", metric, "zh"))  # fmt: skip
    basis, zone = row["buy_basis_name"] or "", row["zone"]
    notes["p_zone"] = note("scan.zone", zone=ZONE_TEXT.get(zone, ""), basis=anchor_words(basis, "en"),
                           basis_zh=anchor_words(basis, "zh"), zone_zh=value_word("zone", zone, "zh"))  # fmt: skip
    parts = sorted(((row[k], k) for k in notes if row[k]), key=lambda item: (-item[0], item[1]))
    flag = (note(ST_NOTE[row["st"]]),) if row.get("st") else ()
    return flag + tuple(replace(notes[k], points=f"{points:+g}") for points, k in parts)


def ranked(table: pl.DataFrame, scan: Table | None = None) -> pl.DataFrame:
    """The rows scoring at least min_score, best first: by score, then by the tie_break components (higher
    first), then by code (only rows equal in every component)."""
    scan = scan or load_zone_tables()["scan"]
    keys = ["score", *scan["tie_break"]]
    chosen = table.filter(pl.col("score") >= scan.number("min_score"))
    return chosen.sort([*keys, "symbol"], descending=[True] * len(keys) + [False], nulls_last=True)


def shortlist(
    table: pl.DataFrame, top: int, scan: Table | None = None, *, include_st: bool = False
) -> tuple[Pick, ...]:
    """The `top` best of `ranked`, each with its reasons; ST and *ST names are left out when the scan table's
    exclude_st holds, unless `include_st`."""
    if top < 1:
        raise user_error(InvalidInput, "scan_top_not_positive", top=top, example="--top 20")
    scan = scan or load_zone_tables()["scan"]
    order = ranked(table, scan)
    if scan["exclude_st"] and not include_st:
        order = order.filter(pl.col("st").is_null())
    n = table.filter(pl.col("quality") == "ok").height
    rows = order.head(top).iter_rows(named=True)
    return tuple(Pick(r["symbol"], float(r["score"]), _notes(r, n), r["name"], r["st"]) for r in rows)


def run_scan(
    frame: pl.DataFrame,
    as_of: date,
    top: int = 20,
    *,
    valuation: pl.DataFrame | None = None,
    sessions: Sequence[date] | None = None,
    book: RuleBook | None = None,
    names: Mapping[str, str] | None = None,
    include_st: bool = False,
) -> ScanResult:
    """Screen every symbol of `frame` on `as_of` and rank the shortlist (see `screen` and `shortlist`)."""
    book, scan = book or load_rule_tables(), load_zone_tables()["scan"]
    table = screen(frame, as_of, valuation=valuation, sessions=sessions, book=book, scan=scan, names=names)
    picks = shortlist(table, top, scan, include_st=include_st)
    scored = table.filter(pl.col("score").is_not_null()).height
    flagged = ranked(table, scan).filter(pl.col("st").is_not_null()).get_column("symbol").to_list()
    left_out = () if include_st or not scan["exclude_st"] else tuple(flagged)
    cites = (scan.cite(), book.trend.cite(), book.zones.cite())
    return ScanResult(as_of, table.height, scored, picks, table, cites, left_out)
