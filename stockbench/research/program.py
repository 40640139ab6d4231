"""The preprocess and sizing stages: the analytics a run computes, and the orders it sizes against the ledger.

One pipeline per run: forward-adjusted bars -> indicators -> states (against the sector index, with money
flow) -> factor score -> backtest -> decision baseline; zones from the one zone algorithm; scenarios from the
calibrated table; the position state from the ledger and the zones. Every result is a facts block stored as
evidence; a part that cannot be computed is a visible gap in the block, never a guess.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from stockbench.errors import Problem, UserError
from stockbench.evidence.documents import OrderPlan
from stockbench.research.facts import Block, _s, block
from stockbench.research.journal import EvidenceItem

if TYPE_CHECKING:
    import polars as pl

    from stockbench.research.engine import RunRecord, RunState
    from stockbench.research.facts import ProgramFacts

ACTION_SIDE = {"buy": "buy", "add": "buy", "reduce": "sell", "sell": "sell"}


def _frame(facts: ProgramFacts, symbol: str, sector: str | None) -> tuple[pl.DataFrame, Any]:
    import polars as pl

    from stockbench.analytics.indicators import add_indicators
    from stockbench.analytics.rule_tables import load_rule_tables
    from stockbench.analytics.signals import score_frame

    book = load_rule_tables()
    found = facts.analytics.history(symbol)
    bars = found.adjusted
    reference = None
    if sector:
        try:
            reference = facts.analytics.history(sector).adjusted.select("day", "close")
        except UserError:
            reference = None
    flow = facts.data.cache.money_flow(symbol)
    money = flow.select("day", pl.col("main_net").cast(pl.Float64)) if flow.height else None
    return score_frame(add_indicators(bars), benchmark=reference, money_flow=money, book=book), book


def _indicators(frame: pl.DataFrame) -> dict[str, Any]:
    from stockbench.analytics.indicators import latest_indicators

    day = _last_day(frame)
    values = latest_indicators(frame, day)
    return {"day": str(day), "values": {k: _s(v, 4) for k, v in values.items()}}


def _last_day(frame: pl.DataFrame) -> date:
    day = frame["day"].max()
    assert isinstance(day, date)
    return day


def _states(frame: pl.DataFrame, book: Any, symbol: str) -> dict[str, Any]:
    from stockbench.analytics.states import states_on

    found = states_on(frame, _last_day(frame), symbol, book)
    result: dict[str, Any] = {"day": str(found["day"])}
    for name in ("trend", "capital", "relative_strength", "volatility"):
        entry = found.get(name) or {}
        result[name] = {
            "state": entry.get("state"),
            "table": entry.get("table"),
            "version": entry.get("version"),
            "rule": entry.get("rule"),
            "inputs": {k: _s(v, 4) if isinstance(v, float) else v for k, v in (entry.get("inputs") or {}).items()},
        }
    return result


def _backtest(facts: ProgramFacts, frame: pl.DataFrame, book: Any, symbol: str) -> tuple[dict[str, Any], Any, Any]:
    from stockbench.analytics.backtest import FeeCosts, run_backtest
    from stockbench.analytics.signals import score_on

    costs = FeeCosts(facts.data.instrument(symbol), book.backtest.decimal("reference_notional"))
    report = run_backtest(frame, costs, book)
    score = score_on(frame, _last_day(frame), symbol, book)
    horizons = {}
    for stats in report.horizons:
        horizons[str(stats.horizon)] = {
            "fires": stats.fires,
            "trades": stats.trades,
            "win_rate": _s(stats.win_rate, 4),
            "ev_pct": _s(stats.ev * 100, 2) if stats.ev is not None else None,
            "sample_note": stats.sample_note,
            "confidence_cap": _s(stats.confidence_cap, 2),
        }
    data = {
        "horizons": horizons,
        "score": _s(score.get("score"), 2),
        "split_day": str(report.split_day),
        "tables": {k: str(v) for k, v in report.tables.items()},
    }
    return data, report, score


def _zones(facts: ProgramFacts, symbol: str) -> tuple[dict[str, Any], Any]:
    zones = facts.analytics.zones(symbol)

    def anchors(items: Any, prefix: str) -> list[dict[str, Any]]:
        return [
            {
                "id": f"{prefix}:{a.kind}:{a.name}",
                "price": _s(a.value),
                "what": a.note or a.name,
                "day": str(a.day),
                "role": a.role,
            }
            for a in items
        ]

    data = {
        "as_of": str(zones.as_of),
        "last": _s(zones.price),
        "position": zones.position,
        "atr14": _s(zones.atr),
        "buy": {"low": _s(zones.buy.low), "high": _s(zones.buy.high), "anchors": anchors(zones.buy.anchors, "buy")},
        "sell": {
            "low": _s(zones.sell.low),
            "high": _s(zones.sell.high),
            "anchors": anchors(zones.sell.anchors, "sell"),
        },
        "stop": {"price": _s(zones.stop), "anchors": anchors(zones.stop_anchors, "stop")},
        "flags": list(zones.flags),
        "table": zones.table,
    }
    return data, zones


def _scenarios(states: dict[str, Any], zones: Any, book: Any) -> dict[str, Any]:
    from stockbench.analytics.scenarios import ZoneLevels, scenarios_for

    levels = ZoneLevels(zones.buy.low, zones.buy.high, zones.sell.low, zones.sell.high, zones.stop)
    atr_pct = float(zones.atr / zones.price) if zones.price else None
    found = scenarios_for(
        {k: v["state"] for k, v in states.items() if isinstance(v, dict)}, levels, atr_pct=atr_pct, book=book
    )
    items = [
        {"name": s.name, "probability": _s(round(s.probability, 2), 2), "count": s.count, "description": s.description}
        for s in found.scenarios
    ]
    total = sum((Decimal(str(i["probability"])) for i in items), Decimal(0))
    if items and total != 1:  # keep the rounded probabilities summing to exactly 1
        items[-1]["probability"] = _s(Decimal(str(items[-1]["probability"])) + 1 - total)
    move = None if found.band_pct is None else _s(found.band_pct * 100, 1)  # as the descriptions show it
    return {
        "items": items,
        "cell": dict(found.cell),
        "n": found.n,
        "note": found.note,
        "horizon": found.horizon,
        "move_pct": move,
        "tolerance": "0.05",
        "table": found.table,
    }


def _baseline(
    report: Any, score: dict[str, Any], states: dict[str, Any], valuation: dict[str, Any], *, held: bool, book: Any
) -> dict[str, Any]:
    from stockbench.analytics.baseline import decide_from

    pct = valuation.get("pe_ttm", {}).get("percentile")
    found = decide_from(
        report,
        score.get("score"),
        capital=states.get("capital", {}).get("state") or "unknown",
        valuation_pct=float(pct) if pct is not None else None,
        holding=held,
        book=book,
    )
    horizon = book.decision_baseline.integer("horizon")
    stats = next((s for s in report.horizons if s.horizon == horizon), None)
    direction = {"buy": "buy", "hold": "hold", "reduce": "reduce", "avoid": "avoid"}.get(found.direction, "hold")
    if direction == "buy" and held:
        direction = "add"
    return {
        "direction": direction,
        "confidence": _s(found.confidence, 2),
        "confidence_cap": _s(found.confidence_cap, 2),
        "buy_candidate": found.buy_candidate,
        "ev": _s(stats.ev, 4) if stats and stats.ev is not None else "0",
        "reasons": list(found.reasons),
        "table": found.table,
    }


def _valuation(facts: ProgramFacts, symbol: str) -> dict[str, Any]:
    try:
        found = facts.analytics.valuation(symbol)
    except UserError as error:
        return {"available": False, "reason": error.message}
    return {
        name: {
            "value": _s(p.value, 2),
            "percentile": _s(p.percentile, 2),
            "days": p.days,
            "status": p.status,
            "reason": p.reason,
        }
        for name, p in found.items()
    }


def _position(facts: ProgramFacts, account: str | None, symbol: str, zone: str | None) -> dict[str, Any]:
    from stockbench.analytics.position_states import PositionFacts, legal_moves, reconcile, suggest

    qty = sellable = 0
    if account:
        held = next((p for p in facts.ledger.positions(account) if p.symbol == symbol), None)
        qty, sellable = (held.qty, held.sellable) if held else (0, 0)
    state_facts = PositionFacts(qty, sellable, zone)  # type: ignore[arg-type]
    current = reconcile("holding" if qty else "no_position", state_facts)
    allowed = [current, *[s for s in legal_moves(current, state_facts) if s != current]]
    suggested = suggest(current, state_facts)
    return {
        "current": current,
        "qty": qty,
        "sellable": sellable,
        "allowed": allowed,
        "suggested": suggested[0] if suggested else current,
        "why": suggested[1] if suggested else "",
    }


def analytics_blocks(
    facts: ProgramFacts, symbol: str, account: str | None, scene: dict[str, Any], prepared: dict[str, Any]
) -> Block:
    """The analytics facts of a run, each part a block of its own evidence."""
    items: list[EvidenceItem] = []
    result: dict[str, Any] = {}

    def add(name: str, data: dict[str, Any], label: str) -> dict[str, Any]:
        made, item = block("computation", f"analytics.{name}", data, label)
        result[name] = made
        items.append(item)
        return made

    try:
        frame, book = _frame(facts, symbol, scene.get("sector_index"))
    except UserError as error:
        add("unavailable", {"reason": error.message}, "analytics unavailable")
        return result, items
    add("indicators", _indicators(frame), f"indicators {symbol}")
    states = add("states", _states(frame, book, symbol), f"states {symbol}")
    valuation = add("valuation", _valuation(facts, symbol), f"valuation {symbol}")
    backtest, report, score = _backtest(facts, frame, book, symbol)
    add("backtest", backtest, f"backtest {symbol}")
    held = bool((prepared.get("prepare", {}).get("ledger", {}).get("position") or {}).get("qty"))
    add("baseline", _baseline(report, score, states, valuation, held=held, book=book), f"decision baseline {symbol}")
    try:
        zones_data, zones = _zones(facts, symbol)
    except UserError as error:
        add("zones", {"available": False, "reason": error.message}, f"zones {symbol}")
        add("position_state", _position(facts, account, symbol, None), "position state")
        return result, items
    add("zones", zones_data, f"zones {symbol}")
    add("scenarios", _scenarios(states, zones, book), f"scenarios {symbol}")
    add("position_state", _position(facts, account, symbol, zones.position), "position state")
    return result, items


def sized_orders(facts: ProgramFacts, run: RunRecord, accepted: dict[str, Any], prepared: dict[str, Any]) -> Block:
    """The orders the decided action implies, sized against the ledger (none with gaps or without an account)."""
    action = accepted.get("action", {}).get("action", "hold")
    zones = prepared.get("analytics", {}).get("zones", {})
    gaps = prepared.get("prepare", {}).get("gaps", [])
    reason, orders, problems = "", [], []
    side = ACTION_SIDE.get(action)
    if side is None:
        reason = f"the action is {action}: no order"
    elif run.account is None:
        reason = "no account was given: orders are not sized"
    elif gaps:
        reason = f"the report discloses data gaps ({', '.join(gaps)}): no executable orders"
    elif not zones.get("buy"):
        reason = "no zones could be computed: no order"
    else:
        entry = Decimal(zones["buy"]["high"] if side == "buy" else zones["sell"]["low"])
        stop = Decimal(zones["stop"]["price"])
        found = facts.analytics.size(run.account, run.symbol, side, entry, stop)
        if found.sizing is None:
            problems = [p.as_dict() for p in found.problems]
            reason = "the program refused to size an order: " + "; ".join(p.message for p in found.problems)
        else:
            s = found.sizing
            orders.append(
                {
                    "account": run.account,
                    "symbol": run.symbol,
                    "side": s.side,
                    "qty": s.qty,
                    "price": _s(s.price),
                    "fees": _s(s.fees.total),
                    "break_even": _s(s.break_even),
                    "cash_after": _s(s.cash_after),
                    "weight_after": _s(s.weight_after),
                    "loss_at_stop": _s(s.loss_at_stop),
                }
            )
    data, item = block(
        "computation", "analytics.sizing", {"orders": orders, "reason": reason, "problems": problems}, "sized orders"
    )
    return data, [item]


def order_checker(facts: ProgramFacts, state: RunState) -> Callable[[OrderPlan], list[Problem]]:
    """Legality of an order under the market rules and the ledger as it stands now."""
    from stockbench.market.order_rules import check_order

    def check(order: OrderPlan) -> list[Problem]:
        instrument = facts.market.registry.instrument(order.symbol)
        held = next((p for p in facts.ledger.positions(order.account) if p.symbol == instrument.symbol), None)
        sellable = held.sellable if held else 0
        day = facts.analytics.today(instrument.market)
        found = check_order(
            instrument,
            "buy" if order.side == "buy" else "sell",
            order.qty,
            order.price,
            day,
            holding=sellable if order.side == "sell" else None,
            tables=facts.market.tables,
        )
        problems = list(found.problems)
        if order.side == "buy":
            cash = facts.ledger.balance(order.account).get(instrument.currency, Decimal(0))
            if order.price * order.qty > cash:
                problems.append(
                    Problem(
                        "order_beyond_cash",
                        f"buying {order.qty} at {order.price} exceeds the cash of {cash}",
                        "size the order again",
                        "orders",
                    )
                )
        return problems

    return check
