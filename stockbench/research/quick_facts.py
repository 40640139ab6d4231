"""The program's half of a quick review: fresh data since the baseline report, and the change list.

The program refreshes the quote, the day's bar, money flow and announcements (with a replay clock nothing newer
than the clock is seen), computes the change list (stockbench.research.changes) and stores each block as
evidence of the review's run, with the ids the changes cite.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any, cast

from stockbench.clock import MARKET_TZ, Clock, today_in
from stockbench.errors import CalendarUnknown, InvalidInput
from stockbench.evidence.store import evidence_id_for
from stockbench.market.instruments import Instrument, rule_board
from stockbench.market.sessions import venue
from stockbench.market.tables import in_force
from stockbench.research.announcements import classify
from stockbench.research.blocks import block
from stockbench.research.changes import (
    FlowDay,
    Level,
    LevelTable,
    NewAnnouncement,
    PriceNow,
    Snapshot,
    change_list,
    ex_rights_days,
    show,
)
from stockbench.research.handbook import Handbook
from stockbench.research.plan_check import current_price, day_limits
from stockbench.research.records import EvidenceItem
from stockbench.research.summary import ReportPlan
from stockbench.research.wording import has, say
from stockbench.research.wording.entry import Language

if TYPE_CHECKING:
    from stockbench.data.service import DataService
    from stockbench.ledger.book import Ledger
    from stockbench.market.service import MarketRules

TRADING_PHASES = ("continuous", "closing_auction")


def _minutes(start: time, end: time) -> int:
    return max(0, (end.hour * 60 + end.minute) - (start.hour * 60 + start.minute))


def traded_minutes(market: MarketRules, instrument: Instrument, at: datetime) -> tuple[int, int] | None:
    """(minutes of continuous trading and closing auction done by `at`, minutes of them in the whole session)."""
    local = at.astimezone(MARKET_TZ[instrument.market])
    try:
        calendar = market.calendars.calendar(instrument.market)
        if not calendar.is_session(local.date()):
            return None
        exchange, board = venue(instrument.market, instrument.exchange.value, rule_board(instrument))
        half = calendar.is_half_day(local.date())
    except (CalendarUnknown, InvalidInput):
        return None
    rows = [
        t
        for t in in_force(market.tables.sessions, local.date())
        if t.market == instrument.market and exchange in t.exchanges and board in t.boards and t.half_day == half
    ]
    if not rows:
        return None
    spans = [(p.start, p.end) for p in rows[0].phases if p.name in TRADING_PHASES]
    done = sum(_minutes(s, min(e, max(s, local.time()))) for s, e in spans)
    return done, sum(_minutes(s, e) for s, e in spans)


def baseline_age(market: MarketRules, instrument: Instrument, published: datetime, today: date) -> int:
    """How many sessions have opened since the report's date, up to and including today (0: same day)."""
    day = published.astimezone(MARKET_TZ[instrument.market]).date()
    if today <= day:
        return 0
    return market.calendars.calendar(instrument.market).count_sessions(day + timedelta(days=1), today)


BarRow = tuple[date, Decimal, Decimal | None, int, Decimal | None]  # day, close, prev_close, volume, amount


@dataclass(frozen=True)
class Target:
    """What one quick review is about: the instrument, the baseline and its age, the account, the handbook, and
    the language its texts are written in."""

    instrument: Instrument
    plan: ReportPlan
    age: int
    account: str | None
    handbook: Handbook
    language: Language = "zh"


@dataclass(frozen=True)
class Fresh:
    """The data a quick review read, before it is stored as evidence."""

    price: PriceNow | None
    bars: tuple[BarRow, ...]
    flow: FlowDay | None
    news: tuple[NewAnnouncement, ...]
    failures: tuple[str, ...]
    limits: tuple[Decimal, Decimal] | None
    ratio: Decimal | None
    volume: Mapping[str, Any]
    ex_rights: tuple[date, ...]

    def computed(self, table: LevelTable) -> dict[str, Any]:
        """The program's computations, as the block the changes cite."""
        share = None
        if self.flow is not None and self.flow.amount:
            share = show((abs(self.flow.main_net) / self.flow.amount * 100).quantize(Decimal("0.01"), ROUND_HALF_UP))
        return {
            "limit_up": str(self.limits[0]) if self.limits else None,
            "limit_down": str(self.limits[1]) if self.limits else None,
            "volume_ratio": str(self.ratio) if self.ratio is not None else None,
            **self.volume,
            "flow_share_pct": share,
            "ex_rights": [d.isoformat() for d in self.ex_rights],
            "thresholds": {"volume_ratio": show(table.volume_ratio), "flow_min_share": show(table.flow_min_share)},
            "table": table.label,
        }


class FactsBook:
    """Facts blocks as they are made, with the evidence items that will store them."""

    def __init__(self) -> None:
        self.facts: dict[str, Any] = {}
        self.items: list[EvidenceItem] = []

    def add(self, name: str, kind: str, data: dict[str, Any], label: str) -> str:
        """Add a JSON block; return the evidence id it will have."""
        self.facts[name], item = block(kind, f"quick.{name}", data, label)
        self.items.append(item)
        return str(self.facts[name]["evidence_id"])

    def add_text(self, name: str, kind: str, text: str, label: str) -> str | None:
        """Add a text (so numbers written in it are grounded); None when there is no text."""
        if not text:
            return None
        self.items.append(EvidenceItem(kind, f"quick.{name}", text, label))
        self.facts[f"{name}_evidence_id"] = evidence_id_for(text)
        return str(self.facts[f"{name}_evidence_id"])


class QuickFacts:
    """Reads what the change list needs and stores it as the review's facts blocks."""

    def __init__(self, clock: Clock, data: DataService, market: MarketRules, ledger: Ledger, table: LevelTable) -> None:
        self.clock, self.data, self.market, self.ledger, self.table = clock, data, market, ledger, table

    def gather(self, target: Target) -> tuple[dict[str, Any], list[EvidenceItem]]:
        """The refreshed data and the change list as facts blocks, with the evidence items that store them."""
        fresh = self.read(target)
        book = FactsBook()
        evidence = self._store(book, target, fresh)
        snap = Snapshot(
            fresh.price, fresh.limits, fresh.ratio, fresh.flow, fresh.news, fresh.ex_rights, fresh.failures, evidence
        )
        changes = [c.as_dict() for c in change_list(target.plan, snap, self.table, target.language)]
        book.add("change_list", "computation", {"changes": changes, "table": self.table.label}, "change list")
        book.facts["changes"] = changes
        book.facts["language"] = target.language  # the offline model answers in it
        return book.facts, book.items

    def read(self, target: Target) -> Fresh:
        """Refresh (live clock only) and read what the change list needs; with a replay clock nothing is fetched."""
        instrument, plan = target.instrument, target.plan
        symbol, live = instrument.symbol, not self.clock.is_replay
        failures = self._refresh(symbol) if live else []
        price = current_price(self.data, symbol, fetch=live)
        if live and price is not None and price.label in ("delayed", "stale"):
            failures.append(f"quote: {price.note}")
        elif live and price is not None and price.label != "live" and self.data.window(symbol).in_session:
            failures.append("quote: no live quote could be had; the last close is used")
        bars = self._bars(symbol, plan, price)
        ratio, volume = self._volume_ratio(instrument, price, bars)
        return Fresh(
            price,
            bars,
            self._flow(symbol, plan, price, bars),
            self._news(symbol, plan, target.handbook),
            tuple(failures),
            day_limits(self.market, instrument, price) if price else None,
            ratio,
            volume,
            ex_rights_days([(b[0], b[1], b[2]) for b in bars], plan.day, price),
        )

    def _store(self, book: FactsBook, target: Target, fresh: Fresh) -> dict[str, str]:
        """Every block the changes cite, by name -> evidence id."""
        plan, symbol = target.plan, target.instrument.symbol
        base = {**plan.as_dict(), "age_sessions": target.age, "table": self.table.label}
        news = {"announcements": [_news_data(a) for a in fresh.news]}
        evidence = {
            "baseline": book.add("baseline", "report", base, f"baseline report {plan.report_id}"),
            "quote": book.add(
                "quote", "quote", fresh.price.as_dict() if fresh.price else {"available": False}, f"quote {symbol}"
            ),
            "flow": book.add("flow", "money_flow", _flow_data(fresh.flow), f"money flow {symbol}"),
            "announcements": book.add("announcements", "announcement_list", news, "new announcements"),
            "computed": book.add("computed", "computation", fresh.computed(self.table), f"computations {symbol}"),
        }
        text = _plan_text(plan, target.language)
        book.add_text("baseline_text", "report_text", text, f"baseline plan {plan.report_id}")
        if target.account is not None:
            book.add("ledger", "ledger", self._ledger(target.account, symbol), f"ledger snapshot {target.account}")
        titles = "\n".join(a.title for a in fresh.news)
        for name, kind, text in (
            ("announcement_titles", "announcement_titles", titles),
            ("failures", "data_gates_text", "\n".join(fresh.failures)),
        ):
            if (found := book.add_text(name, kind, text, f"{name} {symbol}")) is not None:
                evidence[name] = found
        return evidence

    def _refresh(self, symbol: str) -> list[str]:
        outcomes = self.data.fetch(symbol, ["money_flow", "announcements"])
        failed = {o.what: o.reason for o in outcomes if not o.ok and not o.skipped}
        succeeded = {o.what for o in outcomes if o.ok}
        return [f"{what}: {reason}" for what, reason in failed.items() if what not in succeeded]

    def _bars(self, symbol: str, plan: ReportPlan, price: PriceNow | None) -> tuple[BarRow, ...]:
        days = [d for d in (plan.day, price.day if price else None) if d is not None]
        if not days:
            return ()
        frame = self.data.bars(symbol, min(days) - timedelta(days=20), max(days))
        rows = frame.iter_rows(named=True)
        return tuple((r["day"], r["close"], r["prev_close"], r["volume"], r["amount"]) for r in rows)

    def _ledger(self, account: str, symbol: str) -> dict[str, Any]:
        held = next((p for p in self.ledger.positions(account) if p.symbol == symbol), None)
        orders = [
            {
                "order_id": s.order.order_id,
                "side": s.order.side,
                "qty": s.order.qty,
                "price": str(s.order.price),
                "status": s.status,
            }
            for s in self.ledger.orders(account)
            if s.order.symbol == symbol and s.status in {"open", "partially_filled"}
        ]
        qty, sellable = (held.qty, held.sellable) if held else (0, 0)
        return {"account": account, "qty": qty, "sellable": sellable, "open_orders": orders}

    def _flow(self, symbol: str, plan: ReportPlan, price: PriceNow | None, bars: Sequence[BarRow]) -> FlowDay | None:
        start = (plan.day or today_in(self.clock, "CN")) - timedelta(days=10)
        frame = self.data.cache.money_flow(symbol, start)
        if frame.is_empty():
            return None
        row = frame.row(-1, named=True)
        amount = {b[0]: b[4] for b in bars}.get(row["day"])
        if amount is None and price is not None and price.day == row["day"]:
            amount = price.amount
        return FlowDay(row["day"], Decimal(row["main_net"]), Decimal(amount) if amount else None)

    def _news(self, symbol: str, plan: ReportPlan, hb: Handbook) -> tuple[NewAnnouncement, ...]:
        """Announcements the baseline did not list, published after its data (less the grace days)."""
        since = plan.data_at - timedelta(days=self.table.announcement_grace_days)
        tz = MARKET_TZ[self.market.registry.instrument(symbol).market]
        found = self.data.cache.announcements(symbol, since.astimezone(tz).date(), None)
        result = []
        for a in found:
            if a.source_id in plan.announcement_ids or a.published_at <= since:
                continue
            level = classify(hb, a.title, a.category)
            tagged = cast(Level, level.level)
            result.append(
                NewAnnouncement(a.source_id, a.title, level.category, a.published_at, tagged, level.thesis_level)
            )
        return tuple(result)

    def _volume_ratio(
        self, instrument: Instrument, price: PriceNow | None, bars: Sequence[BarRow]
    ) -> tuple[Decimal | None, dict[str, Any]]:
        """量比 of the price's session (None when it cannot be had) and the numbers it came from."""
        if price is None or price.volume is None:
            return None, {}
        prior = [int(b[3]) for b in bars if b[0] < price.day][-5:]
        if len(prior) < 5 or sum(prior) <= 0:
            return None, {}
        mean = Decimal(sum(prior)) / 5
        info: dict[str, Any] = {"mean_volume_5": show(mean), "volume": price.volume}
        fraction = Decimal(1)
        if price.intraday:
            minutes = traded_minutes(self.market, instrument, price.at or self.clock.now())
            if minutes is None or minutes[0] < self.table.volume_min_minutes or not minutes[1]:
                return None, info | {"traded_minutes": minutes[0] if minutes else None}
            info |= {"traded_minutes": minutes[0], "session_minutes": minutes[1]}
            fraction = Decimal(minutes[0]) / Decimal(minutes[1])
        ratio = (Decimal(price.volume) / (mean * fraction)).quantize(Decimal("0.01"), ROUND_HALF_UP)
        return ratio, info

    # ---- the model's half: one answer per change ------------------------------------------------------


def _word(key: str, language: Language) -> str | None:
    return say(key, language) if has(key) else None


def _plan_text(plan: ReportPlan, language: Language = "zh") -> str:
    """The baseline's paths, orders and open-order decisions as a text in `language` (the paths are the report's
    own words, copied), so the numbers an answer repeats from them are grounded."""
    lines = [say("report.plan.path", language, trigger=t, action=a) for t, a in plan.paths]
    lines += [
        say("quick.plan.order", language, side=_word(f"report.side.{o.get('side')}", language) or o.get("side"),
            qty=o.get("qty"), price=o.get("price"))
        for o in plan.orders
    ]  # fmt: skip
    lines += [
        say("report.plan.open_order", language, order_id=o.get("order_id"), reason=o.get("reason", ""),
            decision=_word(f"report.order.{o.get('decision')}", language) or o.get("decision"))
        for o in plan.open_orders
    ]  # fmt: skip
    return "\n".join(lines)


def _flow_data(flow: FlowDay | None) -> dict[str, Any]:
    if flow is None:
        return {"available": False}
    amount = str(flow.amount) if flow.amount else None
    return {"day": flow.day.isoformat(), "main_net": str(flow.main_net), "amount": amount}


def _news_data(a: NewAnnouncement) -> dict[str, Any]:
    return {
        "id": a.id,
        "title": a.title,
        "category": a.category,
        "published": a.published.isoformat(),
        "level": a.level,
        "thesis_level": a.thesis_level,
    }
