"""Context from what is stored: the sector index a run is measured against and the peers it is compared with,
chosen by rule when the workspace declares none.

The sector index is the workspace's mapping for the symbol (or its market's composite), else the handbook's
broad default for the board when its bars are stored, else the program's built index of the board (or its built
benchmark) on a session where it averaged enough stocks, else the broad default (whose missing bars the run then
shows). Peers are the declared ones, else the stored stocks of the same sector index nearest in size
(stockbench.analytics.peers.choose_peers). Both choices go into the run as one facts block, so a report can say
how they were made.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any

from stockbench.analytics.peers import CORRELATION
from stockbench.clock import today_in
from stockbench.data.cache import BuiltIndexDay
from stockbench.data.indices import load_method, rebuild, sector_key
from stockbench.market.instruments import Board, Instrument, SecurityType
from stockbench.research.blocks import (
    BuiltIndexFact,
    ContextFact,
    PriceFactsFact,
    RelativeWindowFact,
    StatesFact,
    shown,
)
from stockbench.research.wording import Language, has, price, say
from stockbench.store.database import Database

if TYPE_CHECKING:
    from stockbench.analytics.peers import Peer, PeerChoice
    from stockbench.data.service import DataService
    from stockbench.market.registry import InstrumentRegistry

_BUILDING = threading.Lock()


@dataclass(frozen=True, slots=True)
class SectorChoice:
    """The sector index chosen for a run, on what basis, and (for a built one) how it was made on the as-of day."""

    symbol: str | None
    basis: str  # mapping | board_default | built_sector | built_benchmark | unavailable
    built: BuiltIndexDay | None = None


def ensure_built(db: Database, data: DataService) -> None:
    """Build the program's indices once when the workspace stores stock bars but no index with bars at all (a
    workspace imported before imports built them); every later import rebuilds them."""
    stored = (
        "SELECT count(*) FROM instruments i WHERE security_type = 'index'"
        " AND EXISTS (SELECT 1 FROM bars b WHERE b.symbol = i.symbol)"
    )
    if data.cache.built_indices() or db.scalar(stored):
        return
    with _BUILDING:
        stocks = db.scalar("SELECT count(*) FROM instruments WHERE security_type = 'stock'")
        if stocks and not data.cache.built_indices():
            rebuild(db, data.cache)


def _has_bars(data: DataService, symbol: str) -> bool:
    return bool(data.cache.coverage("bars", symbol))


def _usable(data: DataService, symbol: str | None) -> BuiltIndexDay | None:
    """The built index's as-of session when it averaged at least the table's minimum of stocks."""
    if symbol is None:
        return None
    found = data.cache.built_index_day(symbol)
    return found if found is not None and found.members >= load_method().min_members else None


def choose_sector(
    data: DataService, instrument: Instrument, mapped: str | None, board_default: str | None
) -> SectorChoice:
    """The sector index of a run on `instrument` (see the module's docstring for the order)."""
    if mapped:
        return SectorChoice(mapped, "mapping", data.cache.built_index_day(mapped))
    if board_default and _has_bars(data, board_default):
        return SectorChoice(board_default, "board_default")
    built = data.cache.built_indices()
    key = sector_key(instrument.board.value)
    for basis, symbol in (("built_sector", built.get(key or "")), ("built_benchmark", built.get("all"))):
        found = _usable(data, symbol)
        if found is not None:
            return SectorChoice(found.symbol, basis, found)
    return SectorChoice(board_default, "unavailable" if board_default else "none")


def rule_peers(
    data: DataService, registry: InstrumentRegistry, instrument: Instrument, mapping: Mapping[str, Any]
) -> PeerChoice | None:
    """Peers of a stock by rule from the stored universe (None for an index or a fund)."""
    import polars as pl

    from stockbench.analytics.peers import choose_peers
    from stockbench.analytics.scan import load_zone_tables

    if instrument.security_type is not SecurityType.STOCK:
        return None
    table = load_zone_tables()["peers"]
    universe = data.cache.universe(instrument.market, table.integer("choose_lookback_days"))
    if universe.is_empty():
        return None
    day = today_in(data.cache.clock, instrument.market)
    names = registry.names_on(universe.get_column("symbol").to_list(), day)
    sectors: Mapping[str, str] = mapping.get("symbols") or {}
    own = sectors.get(instrument.symbol)
    group = (
        pl.col("symbol").replace_strict(dict(sectors), default=None, return_dtype=pl.String) if own else pl.col("board")
    )
    frame = universe.with_columns(
        group=group, name=pl.col("symbol").replace_strict(names, default=None, return_dtype=pl.String)
    )
    related = None if own else _correlations(data, frame, instrument, day, table)
    return choose_peers(frame, instrument.symbol, table, related)


def _correlations(data: DataService, frame: Any, instrument: Instrument, day: Any, table: Any) -> Any:
    """The board's stocks' daily-return correlations with the subject's (analytics.peers.return_correlations), from
    their stored bars over the last `choose_corr_sessions` sessions' worth of calendar days."""
    import polars as pl

    from stockbench.analytics.peers import return_correlations

    board = frame.filter(pl.col("symbol") == instrument.symbol).get_column("board")
    if board.is_empty():
        return None
    symbols = frame.filter(pl.col("board") == board[0]).get_column("symbol").to_list()
    start = day - timedelta(days=table.integer("choose_corr_sessions") * 7 // 4 + 14)  # sessions to calendar days
    bars = data.cache.bars_many(symbols, end=day, start=start)
    parts = [b.select("day", ret=pl.col("close").cast(pl.Float64) / pl.col("prev_close").cast(pl.Float64) - 1)
             .with_columns(symbol=pl.lit(s)) for s, b in bars.items() if b.height]  # fmt: skip
    if not parts:
        return None
    return return_correlations(pl.concat(parts), instrument.symbol, table)


def context_facts(
    sector: SectorChoice, declared: Sequence[str], chosen: PeerChoice | None, registry: InstrumentRegistry
) -> dict[str, Any]:
    """The context block: the sector index and how it was chosen; the peers and how they were chosen."""
    built = sector.built
    data: dict[str, Any] = {
        "sector": sector.symbol,
        "sector_name": registry.instrument(sector.symbol).name if sector.symbol else None,
        "sector_basis": sector.basis,
        "built": None
        if built is None
        else {
            "symbol": built.symbol,
            "key": built.key,
            "name": built.name,
            "day": built.day.isoformat(),
            "members": built.members,
            "weighting": built.weighting,
        },
    }
    if declared or chosen is None or not chosen.peers:
        return data | {"peer_basis": "declared" if declared else "none", "peers": [
            {"symbol": s, "name": registry.instrument(s).name} for s in declared]}  # fmt: skip
    return data | {
        "peer_basis": "rule",
        "peer_group": chosen.group,
        "peer_size_basis": chosen.basis,
        "subject_size": shown(chosen.subject_size),
        "peer_candidates": chosen.candidates,
        "peer_table": chosen.table,
        "peers": [
            {"symbol": p.symbol, "name": registry.instrument(p.symbol).name, "size": shown(p.size), "day": str(p.day)}
            | _correlation(p)
            for p in chosen.peers
        ],
    }


def _correlation(peer: Peer) -> dict[str, Any]:
    """A peer's correlation as the report shows it (two places, so the words cite the value the block holds) and
    the sessions it was measured over; nothing for a peer chosen by size."""
    if peer.correlation is None:
        return {}
    value = Decimal(repr(peer.correlation)).quantize(Decimal("0.01"), ROUND_HALF_UP)
    return {"correlation": shown(value), "sessions": peer.sessions}


# ---- the words a report shows ------------------------------------------------------------------------------------
_UNITS = {"zh": Decimal("1e8"), "en": Decimal("1e9")}  # 亿 / bn
_CENT = Decimal("0.01")


def built_name(built: BuiltIndexFact, language: Language) -> str:
    """A built index's name in the report's language (the method's English name, else the stored Chinese one)."""
    english = next((d.name_en for d in load_method().indices if d.key == built.key), built.name)
    return english if language == "en" else built.name


def sector_text(sector: str, context: ContextFact | None, language: Language) -> str:
    """The sector index as the scene line names it: with how it was built, or why it measures nothing."""
    if context is None or context.sector != sector:
        return sector
    if context.built is not None:
        built = context.built
        weighting = say(f"context.weighting.{built.weighting}", language)
        return say("context.sector.built", language, symbol=built.symbol, name=built_name(built, language),
                   members=built.members, weighting=weighting, day=built.day)  # fmt: skip
    if context.sector_basis == "unavailable":
        return say("context.sector.unavailable", language, sector=sector)
    return f"{sector} {context.sector_name}" if context.sector_name else sector


def rule_peers_line(peers: Sequence[str], context: ContextFact | None, language: Language) -> str | None:
    """The scene's peers line when they are the rule's choice (None otherwise: the plain line applies)."""
    if context is None or context.peer_basis != "rule" or not peers:
        return None
    named = {p.symbol: p.name for p in context.peers}
    if not set(peers) <= set(named):
        return None
    labels = {s: f"{s} {named[s] or ''}".strip() for s in peers}
    separator = say("report.list_separator", language)
    if context.peer_size_basis == CORRELATION:  # the board's stocks whose daily returns move most like the subject's
        facts = {p.symbol: p for p in context.peers}
        listed = separator.join(say("context.peers.correlated", language, peer=labels[s],
                                    correlation=facts[s].correlation) for s in peers)  # fmt: skip
        sessions = max((p.sessions or 0) for p in context.peers)
        board = say(f"context.board.{context.peer_group}", language) if context.peer_group in set(Board) else ""
        return say("context.peers.correlation", language, candidates=context.peer_candidates, board=board,
                   sessions=sessions, peers=listed)  # fmt: skip
    listed = separator.join(labels[s] for s in peers)
    basis = say(f"context.size.{context.peer_size_basis}", language)
    if context.peer_group in set(Board):  # grouped by the board (no sector mapping): said so, not "sector index"
        board = say(f"context.board.{context.peer_group}", language)
        return say("context.peers.board", language, candidates=context.peer_candidates, board=board, basis=basis,
                   peers=listed)  # fmt: skip
    return say("context.peers.rule", language, candidates=context.peer_candidates, basis=basis, peers=listed)


def _money(value: Decimal, language: Language, currency: str) -> str:
    """`value` in 亿 (zh) or billions (en) of `currency`, the instrument's quote currency."""
    key = f"context.money.{currency}" if has(f"context.money.{currency}") else "context.money.other"
    shown = format((value / _UNITS[language]).quantize(_CENT, ROUND_HALF_UP), "f")
    return say(key, language, value=shown, currency=currency)


def _signed(value: Decimal | None) -> str:
    return "" if value is None else format(value, "+f") if value > 0 else format(value, "f")


def price_line(facts: PriceFactsFact | None, language: Language, currency: str = "CNY") -> str | None:
    """The price facts as one line of the report (None without them), amounts in `currency` (the quote currency)."""
    if facts is None:
        return None
    close, change = price(facts.close), _signed(facts.change_pct)
    parts = [say("context.price", language, day=facts.day, close=close, change_pct=change)]
    if facts.special_treatment is not None and facts.limit_pct is not None:
        parts.append(say("context.price.special", language, flag=facts.special_treatment,
                         meaning=say(f"context.special.{facts.special_treatment}", language),
                         limit=format(facts.limit_pct.normalize(), "f")))  # fmt: skip
    if facts.high_52w is not None and facts.low_52w is not None:
        position = facts.range_position_pct if facts.range_position_pct is not None else "-"
        parts.append(say("context.price.range", language, low=price(facts.low_52w), high=price(facts.high_52w),
                         position=position, drawdown=_signed(facts.drawdown_pct)))  # fmt: skip
    if facts.ma250 is not None:
        parts.append(say("context.price.ma250", language, distance=_signed(facts.ma250_distance_pct),
                         ma250=price(facts.ma250)))  # fmt: skip
    if facts.ma20_distance_pct is not None and facts.change_20_pct is not None:
        parts.append(say("context.price.ma20", language, distance=_signed(facts.ma20_distance_pct),
                         change=_signed(facts.change_20_pct)))  # fmt: skip
    if facts.total_mcap is not None and facts.float_mcap is not None:
        parts.append(say("context.price.caps", language, total=_money(facts.total_mcap, language, currency),
                         float=_money(facts.float_mcap, language, currency)))  # fmt: skip
    if facts.amount is not None:
        amount = _money(facts.amount, language, currency)
        parts.append(
            say("context.price.turnover", language, amount=amount, rate=facts.turnover_pct)
            if facts.turnover_pct is not None
            else say("context.price.amount", language, amount=amount)
        )
    return say("context.price.separator", language).join(parts)


def _benchmark_name(benchmark: str, context: ContextFact | None, language: Language) -> str:
    """The benchmark relative strength is measured against: labelled as built when the program built it."""
    if context is None or context.sector != benchmark:
        return benchmark
    if context.built is not None:  # labelled as built (the method's names already say it)
        name, mark = built_name(context.built, language), say("context.relative.built", language)
        return f"{benchmark} {name}" if mark.strip() in name else f"{benchmark} {name}{mark}"
    return f"{benchmark} {context.sector_name}" if context.sector_name else benchmark


def relative_strength_line(states: StatesFact | None, context: ContextFact | None, language: Language) -> str | None:
    """Relative strength as one line of the report: the benchmark, the stock's and the benchmark's returns over the
    windows the state compares, and the state (None without the figures: blocks written before them)."""
    found = states.relative_strength.returns if states else None
    if states is None or found is None:
        return None
    state = states.relative_strength.state or "unknown"
    windows = [w for w in found.windows if w.return_pct is not None and w.benchmark_return_pct is not None]
    if found.benchmark is None or not windows:
        benchmark = _benchmark_name(found.benchmark, context, language) if found.benchmark else "-"
        return say("context.relative.unknown", language, benchmark=benchmark)
    said = say("context.relative.separator", language).join(
        say("context.relative.window", language, sessions=w.sessions, stock=_signed(w.return_pct),
            benchmark=_signed(w.benchmark_return_pct))
        for w in windows
    )  # fmt: skip
    word = say(f"state.relative_strength.{state}" if has(f"state.relative_strength.{state}") else "state.unknown",
               language)  # fmt: skip
    if state == "inline":
        word = _mixed(word, windows, language)
    return say("context.relative", language, benchmark=_benchmark_name(found.benchmark, context, language),
               windows=said, state=word)  # fmt: skip


def _mixed(word: str, windows: Sequence[RelativeWindowFact], language: Language) -> str:
    """An in-line state whose short and long windows point opposite ways (behind over 20 sessions, ahead over 60):
    said with both directions, so "in line" is not read as "moving with the benchmark"."""
    if len(windows) < 2:
        return word
    short, long = windows[0], windows[-1]
    gaps = [w.return_pct - w.benchmark_return_pct for w in (short, long)
            if w.return_pct is not None and w.benchmark_return_pct is not None]  # fmt: skip
    if len(gaps) != 2 or gaps[0] * gaps[1] >= 0:
        return word
    ways = [say("context.relative.ahead" if gap > 0 else "context.relative.behind", language) for gap in gaps]
    return say("context.relative.mixed", language, state=word, short=short.sessions, long=long.sessions,
               short_way=ways[0], long_way=ways[1])  # fmt: skip
