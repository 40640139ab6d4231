"""The preprocess and sizing stages: the analytics a run computes, and the orders it sizes against the ledger.

One pipeline per run: forward-adjusted bars -> indicators -> states (against the sector index, with money
flow) -> factor score -> backtest -> decision baseline; zones from the one zone algorithm; scenarios from the
calibrated table; the position state from the ledger and the zones. Every result is a facts block stored as
evidence; a part that cannot be computed is a visible gap in the block, never a guess.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from stockbench.errors import Problem, UserError
from stockbench.evidence.documents import OrderPlan
from stockbench.research import judgments as j
from stockbench.research.blocks import Block, RunFacts, block, shown
from stockbench.research.records import EvidenceItem, RunRecord
from stockbench.research.state import Accepted
from stockbench.research.wording.actions import baseline_reason
from stockbench.research.wording.entry import Language

if TYPE_CHECKING:
    import polars as pl

    from stockbench.analytics.calibration_tables import ChosenTable
    from stockbench.analytics.service import Analytics
    from stockbench.data.service import DataService
    from stockbench.ledger.book import Ledger
    from stockbench.market.service import MarketRules

ACTION_SIDE = {"buy": "buy", "add": "buy", "reduce": "sell", "sell": "sell"}


def _frame(analytics: Analytics, data: DataService, symbol: str, sector: str | None) -> tuple[pl.DataFrame, Any]:
    import polars as pl

    from stockbench.analytics.indicators import add_indicators
    from stockbench.analytics.rule_tables import load_rule_tables
    from stockbench.analytics.signals import score_frame

    book = load_rule_tables()
    found = analytics.history(symbol)
    bars = found.adjusted
    reference = None
    if sector:
        try:
            reference = analytics.history(sector).adjusted.select("day", "close")
        except UserError:
            reference = None
    flow = data.cache.money_flow(symbol)
    money = flow.select("day", pl.col("main_net").cast(pl.Float64)) if flow.height else None
    return score_frame(add_indicators(bars), benchmark=reference, money_flow=money, book=book), book


def _indicators(frame: pl.DataFrame) -> dict[str, Any]:
    from stockbench.analytics.indicators import latest_indicators

    day = _last_day(frame)
    values = latest_indicators(frame, day)
    return {"day": str(day), "values": {k: shown(v, 4) for k, v in values.items()}}


def _price_facts(analytics: Analytics, symbol: str) -> dict[str, Any]:
    """Close, change, the 52-week range, drawdown, distance to ma250, caps and turnover (analytics.price_facts)."""
    try:
        return analytics.price_facts(symbol).as_dict()
    except UserError as error:
        return {"available": False, "reason": error.message}


def _last_day(frame: pl.DataFrame) -> date:
    day = frame["day"].max()
    assert isinstance(day, date)
    return day


def _relative_returns(frame: pl.DataFrame, book: Any, symbol: str, benchmark: str | None) -> dict[str, Any]:
    """The stock's and the benchmark's returns (percent) over the windows relative strength compares."""
    from stockbench.analytics.states import relative_returns

    windows = relative_returns(frame, _last_day(frame), symbol, book)
    return {"benchmark": benchmark, "windows": [
        {"sessions": n, "return_pct": _pct(stock, 2), "benchmark_return_pct": _pct(bench, 2)}
        for n, stock, bench in windows.values()]}  # fmt: skip


def _states(frame: pl.DataFrame, book: Any, symbol: str, benchmark: str | None = None) -> dict[str, Any]:
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
            "inputs": {k: shown(v, 4) if isinstance(v, float) else v for k, v in (entry.get("inputs") or {}).items()},
        }
    result["relative_strength"]["returns"] = _relative_returns(frame, book, symbol, benchmark)
    return result


def _pct(value: float | None, places: int) -> str | None:
    return None if value is None else shown(value * 100, places)


def _horizon(stats: Any) -> dict[str, Any]:
    """One horizon of the backtest block: the signal's trades beside the base rate (any window of the horizon)."""
    return {
        "horizon": stats.horizon,
        "fires": stats.fires,
        "trades": stats.trades,
        "independent": stats.independent,
        "win_rate": shown(stats.win_rate, 4),
        "ev_pct": _pct(stats.ev, 2),
        "base_windows": stats.base_windows,
        "base_independent": stats.base_independent,
        "base_win_rate": shown(stats.base_win_rate, 4),
        "base_ev_pct": _pct(stats.base_ev, 2),
        "ev_edge_pp": _pct(stats.ev_edge, 2),
        "win_rate_edge_pp": _pct(stats.win_rate_edge, 2),
        "evidence": stats.evidence,
        "sample_note": stats.sample_note,
        "sample_note_parts": [
            {"key": n.key, "params": dict(n.params), "suffix": n.suffix, "points": n.points} for n in stats.sample_notes
        ],
        "confidence_cap": shown(stats.confidence_cap, 2),
    }


def _backtest(data: DataService, frame: pl.DataFrame, book: Any, symbol: str) -> tuple[dict[str, Any], Any, Any]:
    from stockbench.analytics.backtest import FeeCosts, run_backtest
    from stockbench.analytics.signals import score_on

    costs = FeeCosts(data.instrument(symbol), book.backtest.decimal("reference_notional"))
    report = run_backtest(frame, costs, book)
    score = score_on(frame, _last_day(frame), symbol, book)
    horizons = {str(stats.horizon): _horizon(stats) for stats in report.horizons}
    found = {
        "horizons": horizons,
        # cite the backtest only when the signal fired on the as-of session, beside the base rate
        "signal": {"day": str(score["day"]), "fired": bool(score.get("fired")), "score": shown(score.get("score"), 2)},
        "score": shown(score.get("score"), 2),
        "split_day": str(report.split_day),
        "tables": {k: str(v) for k, v in report.tables.items()},
    }
    return found, report, score


def _zones(analytics: Analytics, symbol: str) -> tuple[dict[str, Any], Any]:
    zones = analytics.zones(symbol)

    def anchors(items: Any, prefix: str) -> list[dict[str, Any]]:
        return [
            {
                "id": f"{prefix}:{a.kind}:{a.name}",
                "price": shown(a.value),
                "what": a.note or a.name,
                "day": str(a.day),
                "role": a.role,
            }
            for a in items
        ]

    data = {
        "as_of": str(zones.as_of),
        "last": shown(zones.price),
        "position": zones.position,
        "atr14": shown(zones.atr),
        "buy": {
            "low": shown(zones.buy.low),
            "high": shown(zones.buy.high),
            "anchors": anchors(zones.buy.anchors, "buy"),
        },
        "sell": {
            "low": shown(zones.sell.low),
            "high": shown(zones.sell.high),
            "anchors": anchors(zones.sell.anchors, "sell"),
        },
        "stop": {"price": shown(zones.stop), "anchors": anchors(zones.stop_anchors, "stop")},
        "flags": list(zones.flags),
        "table": zones.table,
        "reward_risk": shown(zones.reward_risk),
        "min_reward_risk": shown(zones.rules.min_reward_risk),
        # percent keys, so that a report's "1.06%" is read against them as percent
        "distance_pct": {f"{k}_pct": shown(v) for k, v in zones.distance_pct.as_dict().items()},
        "tradeable": zones.tradeable,
        "reasons": list(zones.reasons),
    }
    return data, zones


@dataclass(frozen=True)
class _Calibration:
    chosen: ChosenTable
    table: dict[str, Any]


def _calibration(as_of: date, book: Any) -> _Calibration:
    """The scenario table research as of `as_of` may use: built only from data before it, or look-ahead."""
    from stockbench.analytics.calibration_tables import table_for
    from stockbench.analytics.scenarios import load_calibration

    chosen = table_for(as_of, book)
    return _Calibration(chosen, load_calibration(chosen.path))


def _scenarios(
    states: dict[str, Any], zones: Any, book: Any, instrument: Any, language: Language, *, calibration: Any = None
) -> dict[str, Any]:
    """The scenarios block: each scenario's probability, move, landing price and where it lands, and its text in
    the report's language, written from those values (never a template that names a zone it does not reach)."""
    from stockbench.analytics.scenarios import ZoneLevels, move_pct, scenarios_for
    from stockbench.market.ticks import round_to_tick
    from stockbench.research.wording.plan import scenario_words

    levels = ZoneLevels(zones.buy.low, zones.buy.high, zones.sell.low, zones.sell.high, zones.stop)
    atr_pct = float(zones.atr / zones.price) if zones.price else None
    day = zones.trade_day.day or zones.as_of
    found = scenarios_for(
        {k: v["state"] for k, v in states.items() if isinstance(v, dict)},
        levels,
        atr_pct=atr_pct,
        last=zones.price,
        to_tick=lambda price: round_to_tick(instrument, price, day, "nearest"),
        book=book,
        table=calibration.table if calibration else None,
    )
    prices = {s.name: shown(s.price) for s in found.scenarios}
    bounds = {k: shown(getattr(levels, k)) for k in ("buy_low", "buy_high", "sell_low", "sell_high", "stop")}
    values = {"horizon": found.horizon, "low": prices["down"], "high": prices["up"], **bounds}
    items = [
        {
            "name": s.name,
            "probability": shown(round(s.probability, 2), 2),
            "count": s.count,
            "move_pct": shown(s.move_pct),
            "price": shown(s.price),
            "lands": s.lands,
            "description": scenario_words(
                language, s.name, s.lands, **values, price=shown(s.price), move=shown(move_pct(found.band_pct))
            ),
        }
        for s in found.scenarios
    ]
    total = sum((Decimal(str(i["probability"])) for i in items), Decimal(0))
    if items and total != 1:  # keep the rounded probabilities summing to exactly 1
        items[-1]["probability"] = shown(Decimal(str(items[-1]["probability"])) + 1 - total)
    move = None if found.band_pct is None else shown(found.band_pct * 100, 1)  # as the descriptions show it
    return {
        "items": items,
        "cell": dict(found.cell),
        "n": found.n,
        "note": found.note,
        "horizon": found.horizon,
        "move_pct": move,
        "tolerance": "0.05",
        "table": found.table,
        "bounds": bounds,  # the zone levels the scenarios land against, as their texts name them
        "calibration": calibration.chosen.as_dict() if calibration else None,  # its data range: point in time
    }


def _baseline(
    report: Any,
    score: dict[str, Any],
    states: dict[str, Any],
    valuation: dict[str, Any],
    zones: Any,
    *,
    held: bool,
    book: Any,
    language: Language,
    prices: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The decision baseline; an unknown input caps it at wait (hold for a holder), and so does a plan the zones
    call not tradeable (None zones: none could be computed, and the position state machine refuses a buy). The
    setup reads the volatility state and the price facts (`prices`: an unavailable block is unknown)."""
    from stockbench.analytics.baseline import Heat, PlanFacts, decide_from

    pct = valuation.get("pe_ttm", {}).get("percentile")
    plan = None
    if zones is not None:
        plan = PlanFacts(zones.tradeable, float(zones.reward_risk), float(zones.rules.min_reward_risk), zones.reasons,
                         str(abs(zones.distance_pct.buy_high)), str(zones.stop))  # fmt: skip
    found = decide_from(
        report,
        score.get("score"),
        capital=states.get("capital", {}).get("state") or "unknown",
        valuation_pct=float(pct) if pct is not None else None,
        holding=held,
        plan=plan,
        book=book,
        heat=Heat.of(states.get("volatility", {}).get("state"), prices),
        fired=bool(score.get("fired")),
    )
    horizon = book.decision_baseline.integer("horizon")
    stats = next((s for s in report.horizons if s.horizon == horizon), None)
    reasons = [{k: _plain(v) for k, v in r.as_dict().items()} for r in found.reasons]
    return {
        "direction": found.direction,
        "confidence": shown(found.confidence, 2),
        "confidence_cap": shown(found.confidence_cap, 2),
        "buy_candidate": found.buy_candidate,
        "capped": found.capped,
        "unknown": list(found.unknown),
        "ev": shown(stats.ev, 4) if stats and stats.ev is not None else "0",
        "trades": stats.trades if stats else 0,  # the EV's sample: it vetoes a buy only from buy_min_trades
        "fired": bool(score.get("fired")),  # the signal fires on the session: only then may the backtest veto
        "reasons": reasons,
        "reason_text": [baseline_reason(r, language) for r in reasons],
        "table": found.table,
    }


def _plain(value: Any) -> Any:
    """A float of a reason as the exact short decimal it shows (4 places at most, no trailing zeros)."""
    if not isinstance(value, float):
        return value
    text = shown(value, 4)
    return None if text is None else format(Decimal(text).normalize(), "f")


def _valuation(analytics: Analytics, symbol: str) -> dict[str, Any]:
    try:
        found = analytics.valuation(symbol)
    except UserError as error:
        return {"available": False, "reason": error.message}
    return {
        name: {
            "value": shown(p.value, 2),
            "percentile": shown(p.percentile, 2),
            "days": p.days,
            "status": p.status,
            "reason": p.reason,
        }
        for name, p in found.items()
    }


def _position(ledger: Ledger, account: str | None, symbol: str, zone: str | None) -> dict[str, Any]:
    from stockbench.analytics.position_states import (
        ACTIONS,
        PositionFacts,
        action_problems,
        legal_actions,
        legal_moves,
        reconcile,
        suggest,
    )

    qty = sellable = 0
    if account:
        held = next((p for p in ledger.positions(account) if p.symbol == symbol), None)
        qty, sellable = (held.qty, held.sellable) if held else (0, 0)
    state_facts = PositionFacts(qty, sellable, zone)  # type: ignore[arg-type]
    current = reconcile("holding" if qty else "no_position", state_facts)
    allowed = [current, *[s for s in legal_moves(current, state_facts) if s != current]]
    suggested = suggest(current, state_facts)
    actions = legal_actions(current, state_facts)
    return {
        "current": current,
        "qty": qty,
        "sellable": sellable,
        "allowed": allowed,
        "suggested": suggested[0] if suggested else current,
        "why": suggested[1] if suggested else "",
        "actions": {a: list(states) for a, states in actions.items()},
        "refused": {
            a: [_refusal(p) for p in action_problems(a, current, state_facts)] for a in ACTIONS if a not in actions
        },
    }


def _refusal(found: Problem) -> dict[str, Any]:
    """A refused action's reason as the block stores it: its words, and its catalogue key so people read it in their
    language (the model reads `message`)."""
    return {**found.as_dict(), "key": found.key, "params": dict(found.params)}


def analytics_blocks(  # noqa: PLR0917 - the services the analytics read, and the run's inputs
    analytics: Analytics,
    data: DataService,
    ledger: Ledger,
    symbol: str,
    account: str | None,
    scene: j.Scene | None,
    facts: RunFacts,
) -> Block:
    """The analytics facts of a run, each part a block of its own evidence."""
    items: list[EvidenceItem] = []
    result: dict[str, Any] = {}

    def add(name: str, block_data: dict[str, Any], label: str) -> dict[str, Any]:
        made, item = block("computation", f"analytics.{name}", block_data, label)
        result[name] = made
        items.append(item)
        return made

    sector = scene.sector_index if scene else None
    try:
        frame, book = _frame(analytics, data, symbol, sector)
    except UserError as error:
        add("unavailable", {"reason": error.message}, "analytics unavailable")
        return result, items
    add("indicators", _indicators(frame), f"indicators {symbol}")
    prices = add("price_facts", _price_facts(analytics, symbol), f"price facts {symbol}")
    states = add("states", _states(frame, book, symbol, sector), f"states {symbol}")
    valuation = add("valuation", _valuation(analytics, symbol), f"valuation {symbol}")
    backtest, report, score = _backtest(data, frame, book, symbol)
    add("backtest", backtest, f"backtest {symbol}")
    position = facts.prepare.ledger.position if facts.prepare else None
    held = bool(position and position.qty)
    try:
        zones_data, zones = _zones(analytics, symbol)
    except UserError as error:
        zones_data, zones = {"available": False, "reason": error.message}, None
    decided = _baseline(
        report, score, states, valuation, zones, held=held, book=book, language=facts.language, prices=prices
    )
    add("baseline", decided, f"decision baseline {symbol}")
    add("zones", zones_data, f"zones {symbol}")
    if zones is None:
        add("position_state", _position(ledger, account, symbol, None), "position state")
        return result, items
    instrument = data.instrument(symbol)
    calibration = _calibration(analytics.today(instrument.market), book)
    scenarios = _scenarios(states, zones, book, instrument, facts.language, calibration=calibration)
    add("scenarios", scenarios, f"scenarios {symbol}")
    add("position_state", _position(ledger, account, symbol, zones.position), "position state")
    return result, items


def _no_order(run: RunRecord, action: str, facts: RunFacts) -> str:
    """Why the decided action implies no order ("" when one is to be sized)."""
    side = ACTION_SIDE.get(action)
    if side is None:
        return f"the action is {action}: no order"
    if run.account is None:
        return "no account was given: orders are not sized"
    if facts.gaps:
        return f"the report discloses data gaps ({', '.join(facts.gaps)}): no executable orders"
    if facts.zones is None or facts.zones.stop.price is None:
        return "no zones could be computed: no order"
    return ""


def sized_orders(analytics: Analytics, run: RunRecord, accepted: Accepted, facts: RunFacts) -> Block:
    """The orders the decided action implies, sized against the ledger (none with gaps or without an account)."""
    action = accepted.decision
    reason, orders, problems = _no_order(run, action, facts), [], []
    if not reason and facts.zones is not None and facts.zones.stop.price is not None and run.account is not None:
        side = ACTION_SIDE[action]
        entry = facts.zones.buy.high if side == "buy" else facts.zones.sell.low
        found = analytics.size(run.account, run.symbol, side, entry, facts.zones.stop.price)
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
                    "price": shown(s.price),
                    "fees": shown(s.fees.total),
                    "break_even": shown(s.break_even),
                    "cash_after": shown(s.cash_after),
                    "weight_after": shown(s.weight_after),
                    "loss_at_stop": shown(s.loss_at_stop),
                }
            )
    data, item = block(
        "computation", "analytics.sizing", {"orders": orders, "reason": reason, "problems": problems}, "sized orders"
    )
    return data, [item]


def order_checker(market: MarketRules, ledger: Ledger, analytics: Analytics) -> Callable[[OrderPlan], list[Problem]]:
    """Legality of an order under the market rules and the ledger as it stands now."""
    from stockbench.market.order_rules import check_order

    def check(order: OrderPlan) -> list[Problem]:
        instrument = market.registry.instrument(order.symbol)
        held = next((p for p in ledger.positions(order.account) if p.symbol == instrument.symbol), None)
        sellable = held.sellable if held else 0
        found = check_order(
            instrument,
            "buy" if order.side == "buy" else "sell",
            order.qty,
            order.price,
            analytics.today(instrument.market),
            holding=sellable if order.side == "sell" else None,
            tables=market.tables,
        )
        problems = list(found.problems)
        if order.side == "buy":
            cash = ledger.balance(order.account).get(instrument.currency, Decimal(0))
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
