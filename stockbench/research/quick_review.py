"""The quick review: a short, journaled re-check of the day's full report against fresh data.

The baseline is the latest full report on the symbol at or before the clock, at most `[baseline]
max_age_sessions` sessions old (resources/quick_review.toml; older ones are refused). The program refreshes
the quote, the day's bar, money flow and announcements (with a replay clock nothing newer than the clock is
seen), computes the change list (stockbench.research.changes) and stores each block as evidence of a run of
kind quick_review. The model, or the offline rules model, then answers every change once through
`submit_answers`, without re-collecting the baseline's financials or texts. Answers are checked like judgments:
every number grounded, no level lowered, only the actions the table allows for the level, a followed path copied
from the report. Thesis-level news is never adjudicated: a protective action, then a full analysis.
"""

from __future__ import annotations

import functools
import json
import uuid
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any, cast

from pydantic import Field, ValidationError

from stockbench.clock import MARKET_TZ, today_in
from stockbench.errors import CalendarUnknown, InvalidInput, NotFound, Problem, UserError
from stockbench.evidence.numbers import index_evidence
from stockbench.evidence.store import evidence_id_for
from stockbench.market.instruments import Instrument, rule_board
from stockbench.market.sessions import venue
from stockbench.market.tables import in_force
from stockbench.research import judgments as j
from stockbench.research.announcements import classify
from stockbench.research.changes import (
    Change,
    FlowDay,
    Level,
    LevelTable,
    NewAnnouncement,
    PriceNow,
    QuickAction,
    Snapshot,
    change_list,
    ex_rights_days,
    load_table,
    rank,
    show,
)
from stockbench.research.conversation import Conversation, facts_message, stage_message
from stockbench.research.engine import Paused, StallDetector
from stockbench.research.events import RunEnded, RunStarted
from stockbench.research.facts import SYSTEM_RULES, block
from stockbench.research.handbook import Handbook
from stockbench.research.journal import EvidenceItem, Outcome
from stockbench.research.models import Call, ModelPort
from stockbench.research.offline import OfflineModel
from stockbench.research.plan import Plan
from stockbench.research.plan_check import ReportPlan, current_price, day_limits, latest_report, report_plan
from stockbench.research.tools import Tool, ToolResult, rejected
from stockbench.research.validate import Checker

if TYPE_CHECKING:
    from stockbench.data.service import DataService
    from stockbench.ledger.book import Ledger
    from stockbench.market.service import MarketRules
    from stockbench.research.service import Research
    from stockbench.workbench import Workbench

STAGE = "quick_review"
REFERENCE = "quick-review-levels"
TRADING_PHASES = ("continuous", "closing_auction")
INSTRUCTIONS = """\
逐项回答 FACTS 中 `changes` 的每一个变化项，每项一条，通过 submit_answers 一次提交：
- level 不得低于该项的最低级别（可以提高）；action 只能取该级别允许的动作（见阶段说明的 actions）。
- follow_path：path 必须逐字抄写基准报告 paths 中的一个 trigger；没有对应路径就是 protect。
- 论点级公告（thesis_level 为 true）从不当场裁决：level 为 full_analysis，action 为 protect（先暂停未成交的买单、\
不加仓、持仓按原止损执行），随后需要完整分析。
- 不重新收集财务与公告全文，不改区间，不改情景概率；需要这些时就是 full_analysis。
- response 的每个数字都必须来自本次运行的证据，并在 evidence 中引用其 evidence_id。"""


class QuickAnswer(j.Strict):
    change: str = Field(description="The id of the change answered (c1, c2 ...).")
    level: Level = Field(description="At least the change's minimum level; you may raise it, never lower it.")
    action: QuickAction = Field(description="One of the actions the table allows at the chosen level.")
    response: j.Cited = Field(description="Why, and what to do or watch next; every number from cited evidence.")
    path: str | None = Field(default=None, description="For follow_path: a trigger of the report's paths, copied.")


class QuickAnswers(j.Strict):
    """Answer every change of the quick review's change list, exactly one answer per change, in one call."""

    answers: list[QuickAnswer]


SUBMIT = Tool("submit_answers", QuickAnswers, "submit_answers")


def answer_problems(
    batch: QuickAnswers, changes: Sequence[Change], triggers: Collection[str], checker: Checker, table: LevelTable
) -> list[Problem]:
    """Every problem with a batch of answers: coverage, levels, actions, paths, thesis-level news, numbers."""
    by_id = {c.id: c for c in changes}
    given = [a.change for a in batch.answers]
    problems = [
        Problem("answer_missing", f"change {c.id} ({c.kind}) has no answer", "answer every change once", "answers")
        for c in changes
        if c.id not in given
    ]
    problems += [
        Problem("answer_duplicate", f"change {cid} is answered {given.count(cid)} times", "answer it once", "answers")
        for cid in sorted({g for g in given if given.count(g) > 1})
    ]
    for i, answer in enumerate(batch.answers):
        change = by_id.get(answer.change)
        where = f"answers[{i}]"
        if change is None:
            problems.append(
                Problem(
                    "change_unknown",
                    f"{answer.change} is not a change of this review",
                    f"answer only: {', '.join(by_id)}",
                    where,
                )
            )
            continue
        problems += _answer_problems(answer, change, where, triggers, table) + checker.cited(
            answer.response, f"{where}.response"
        )
    return problems


def _answer_problems(
    answer: QuickAnswer, change: Change, where: str, triggers: Collection[str], table: LevelTable
) -> list[Problem]:
    problems = []
    if rank(answer.level) < rank(change.level):
        problems.append(
            Problem(
                "level_lowered",
                f"{change.id} is answered at {answer.level}, below its minimum {change.level}",
                f"answer at {change.level} or higher",
                where,
            )
        )
    allowed = table.actions[answer.level]
    if answer.action not in allowed:
        problems.append(
            Problem(
                "action_not_allowed",
                f"'{answer.action}' is not an action of level {answer.level}",
                f"use: {', '.join(allowed)}",
                where,
            )
        )
    if change.thesis_level and (answer.level != "full_analysis" or answer.action != "protect"):
        problems.append(
            Problem(
                "thesis_adjudicated",
                f"{change.id} is thesis-level news: it is never adjudicated on the spot",
                "answer at full_analysis with the protect action",
                where,
            )
        )
    if answer.action == "follow_path" and answer.path not in triggers:
        fix = f"copy one trigger exactly: {' | '.join(triggers)}" if triggers else "the report has no paths: protect"
        problems.append(Problem("path_unknown", f"'{answer.path}' is not a path of the report", fix, where))
    return problems


class OfflineQuickReview(OfflineModel):
    """The offline rules model, answering each change at its minimum level (a path when the report has one)."""

    def _quick_review(
        self, facts: dict[str, Any], spec: dict[str, Any], last: dict[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        block = facts.get(STAGE, {})
        stop = ((block.get("baseline") or {}).get("zones") or {}).get("stop")
        actions: dict[str, list[str]] = spec.get("actions", {})
        plan = [
            e for e in ((block.get("baseline") or {}).get("evidence_id"), block.get("baseline_text_evidence_id")) if e
        ]
        answers = [_offline_answer(c, actions, stop, plan) for c in block.get("changes", [])]
        return "submit_answers", {"answers": answers}


def _offline_answer(
    change: dict[str, Any], actions: dict[str, list[str]], stop: str | None, plan: list[str]
) -> dict[str, Any]:
    """One change answered at its minimum level; a text that restates the report's path or stop cites the report."""
    level, detail, path = change["level"], change["detail"], change.get("path")
    allowed = actions.get(level, [])
    if level in ("act", "full_analysis") and not ("follow_path" in allowed and path):
        level, action = "full_analysis", "protect"  # no report path covers it: protect, then a full analysis
    else:
        action = "follow_path" if "follow_path" in allowed else allowed[0]
    stop_text = f" {stop}" if stop else ""
    text = {
        "keep_plan": f"{detail}。最低级别 note：不影响计划，计划不变。",
        "watch": f"{detail}。下一个观察点：{change.get('next_check') or '收盘价的区间位置'}。",
        "follow_path": f"{detail}。按报告的路径执行：{path}。",
        "protect": f"{detail}。先保护：暂停未成交的买单、不加仓，持仓按报告的止损{stop_text} 执行；随后需要完整分析。",
    }[action]
    cited = [*change["evidence"], *(e for e in plan if e not in change["evidence"])] if action != "watch" else []
    return {
        "change": change["id"],
        "level": level,
        "action": action,
        "response": {"text": text, "evidence": cited or change["evidence"]},
        "path": path if action == "follow_path" else None,
    }


@dataclass(frozen=True)
class QuickOutcome:
    run_id: str
    baseline: dict[str, Any]
    changes: list[dict[str, Any]]
    answers: list[dict[str, Any]]
    full_analysis_required: bool
    status: str
    reason: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "baseline_report": self.baseline,
            "changes": self.changes,
            "answers": self.answers,
            "full_analysis_required": self.full_analysis_required,
            "status": self.status,
            "reason": self.reason,
        }


def _change(data: Mapping[str, Any]) -> Change:
    return Change(**{**data, "evidence": tuple(data["evidence"])})


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
    """What one quick review is about: the instrument, the baseline and its age, the account, the handbook."""

    instrument: Instrument
    plan: ReportPlan
    age: int
    account: str | None
    handbook: Handbook


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


class QuickReview:
    """Quick reviews of one workspace: journaled runs of kind quick_review."""

    def __init__(self, research: Research, data: DataService, market: MarketRules, ledger: Ledger) -> None:
        self.research, self.data, self.market, self.ledger = research, data, market, ledger
        self.db, self.clock, self.journal = research.db, research.clock, research.journal
        self.table = load_table()

    @classmethod
    def of(cls, bench: Workbench) -> QuickReview:
        return cls(bench.research, bench.data, bench.market, bench.ledger)

    # ---- the run -------------------------------------------------------------------------------------
    def review(self, symbol: str, *, model: str | None = None, account: str | None = None) -> QuickOutcome:
        """Review `symbol` against its baseline report; the change list stands even when the model fails."""
        instrument = self.market.registry.instrument(symbol)
        plan, age = self.baseline(instrument)
        name = model or self.research.default_model()
        port = self._port(name)
        if account is not None:
            self.ledger.account(account)
        target = Target(instrument, plan, age, account, Handbook.load())
        return self._run(self._start(target, name), target, port)

    def resume(self, run_id: str) -> QuickOutcome:
        """Continue a paused quick review from its journal: recorded actions are replayed, never repeated."""
        record = self.research.record(run_id)
        status = self.journal.status(run_id)
        if record.kind != STAGE or (status is not None and status.status != "paused"):
            shown = status.status if status else "planned"
            raise InvalidInput(
                f"run {run_id} is not a paused quick review ({record.kind}, {shown})",
                f"start a new one: stockbench review-quick {record.symbol}",
            )
        stored = self.journal.stored(run_id, f"{STAGE}/facts", "result")
        plan = report_plan(self.db, record.plan.notes[0])
        instrument = self.market.registry.instrument(record.symbol)
        age = json.loads(stored)["baseline"]["age_sessions"] if stored else 0
        handbook = Handbook.stored(self.db, record.handbook_version)
        self.journal.set_status(run_id, "running", STAGE)
        return self._run(run_id, Target(instrument, plan, age, record.account, handbook), self._port(record.model))

    def _port(self, name: str) -> ModelPort:
        port = self.research.model(name)
        return OfflineQuickReview() if isinstance(port, OfflineModel) else port

    def _run(self, run_id: str, target: Target, port: ModelPort) -> QuickOutcome:
        facts = self._facts(run_id, target)
        changes = [_change(c) for c in facts["changes"]]
        status, reason, answers = "published", "", []
        try:
            if changes:
                answers = self._answers(run_id, port, target, facts, changes)
        except Paused as paused:
            status, reason = "paused", paused.reason
        full = any(c.level == "full_analysis" for c in changes) or any(a["level"] == "full_analysis" for a in answers)
        changed = [c.as_dict() for c in changes]
        return self._finish(QuickOutcome(run_id, facts["baseline"], changed, answers, full, status, reason))

    def baseline(self, instrument: Instrument) -> tuple[ReportPlan, int]:
        """The baseline report's plan and its age in sessions; refused when there is none recent enough."""
        found = latest_report(self.db, instrument.symbol, self.clock.now(), kinds=("full",))
        hint = f"run a full analysis first: stockbench analyze {instrument.symbol}"
        if found is None:
            raise NotFound(f"there is no full report on {instrument.symbol} to review against", hint)
        plan = report_plan(self.db, found)
        age = baseline_age(self.market, instrument, plan.published_at, today_in(self.clock, instrument.market))
        if age > self.table.max_age_sessions:
            raise InvalidInput(
                f"the latest full report on {instrument.symbol} ({plan.report_id}, {plan.published_at.isoformat()}) "
                f"is {age} sessions old; a quick review needs one at most {self.table.max_age_sessions} old",
                hint,
            )
        return plan, age

    def _start(self, target: Target, model: str) -> str:
        now, symbol = self.clock.now(), target.instrument.symbol
        run_id = f"QR{now:%Y%m%d}-{uuid.uuid4().hex[:8]}"
        today = today_in(self.clock, target.instrument.market)
        why = {STAGE: f"re-check report {target.plan.report_id} against fresh data, change by change"}
        data = ("announcements", "bars", "money_flow", "quote")
        cost = Decimal(0) if model == "offline" else None
        record = Plan(
            STAGE,
            model,
            (STAGE,),
            (SUBMIT.name,),
            data,
            why,
            target.plan.day or today,
            today,
            (),
            cost,
            {},
            notes=(target.plan.report_id,),
        )
        target.handbook.store(self.db, now)
        replay = now if self.clock.is_replay else None
        with self.db.transaction() as cur:
            cur.execute(
                "INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    run_id,
                    symbol,
                    STAGE,
                    None,
                    model,
                    target.account,
                    replay,
                    target.handbook.version,
                    record.to_json(),
                    None,
                    False,
                    now,
                ],
            )
        self.journal.set_status(run_id, "running", STAGE)
        self.research.events.publish(RunStarted(run_id=run_id, symbol=symbol, model=model, at=now))
        return run_id

    def _finish(self, outcome: QuickOutcome) -> QuickOutcome:
        if outcome.status == "paused":  # the outcome is recorded once, when the answers are in
            self.journal.set_status(outcome.run_id, "paused", STAGE, outcome.reason)
        else:
            payload = json.dumps(outcome.as_dict(), ensure_ascii=False, sort_keys=True, default=str)
            self.journal.act(outcome.run_id, f"{STAGE}/outcome", "program", "outcome", lambda _: Outcome(payload))
            self.journal.set_status(outcome.run_id, "published", STAGE)
        self.research.events.publish(RunEnded(run_id=outcome.run_id, status=outcome.status, at=self.clock.now()))
        return outcome

    # ---- the program's half: fresh data and the change list ----------------------------------------------
    def _facts(self, run_id: str, target: Target) -> dict[str, Any]:
        def execute(_: str) -> Outcome:
            facts, items = self.gather(target)
            return Outcome(json.dumps(facts, ensure_ascii=False, sort_keys=True, default=str), items)

        result: dict[str, Any] = json.loads(self.journal.act(run_id, f"{STAGE}/facts", "program", STAGE, execute))
        return result

    def gather(self, target: Target) -> tuple[dict[str, Any], list[EvidenceItem]]:
        """The refreshed data and the change list as facts blocks, with the evidence items that store them."""
        fresh = self.read(target)
        book = FactsBook()
        evidence = self._store(book, target, fresh)
        snap = Snapshot(
            fresh.price, fresh.limits, fresh.ratio, fresh.flow, fresh.news, fresh.ex_rights, fresh.failures, evidence
        )
        changes = [c.as_dict() for c in change_list(target.plan, snap, self.table)]
        book.add("change_list", "computation", {"changes": changes, "table": self.table.label}, "change list")
        book.facts["changes"] = changes
        return book.facts, book.items

    def read(self, target: Target) -> Fresh:
        """Refresh (live clock only) and read what the change list needs; with a replay clock nothing is fetched."""
        instrument, plan = target.instrument, target.plan
        symbol, live = instrument.symbol, not self.clock.is_replay
        failures = self._refresh(symbol) if live else []
        price = current_price(self.data, symbol, fetch=live)
        if live and price is not None and price.label != "live" and self.data.window(symbol).in_session:
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
        book.add_text("baseline_text", "report_text", _plan_text(plan), f"baseline plan {plan.report_id}")
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
        if price.label == "live":
            minutes = traded_minutes(self.market, instrument, price.at or self.clock.now())
            if minutes is None or minutes[0] < self.table.volume_min_minutes or not minutes[1]:
                return None, info | {"traded_minutes": minutes[0] if minutes else None}
            info |= {"traded_minutes": minutes[0], "session_minutes": minutes[1]}
            fraction = Decimal(minutes[0]) / Decimal(minutes[1])
        ratio = (Decimal(price.volume) / (mean * fraction)).quantize(Decimal("0.01"), ROUND_HALF_UP)
        return ratio, info

    # ---- the model's half: one answer per change ------------------------------------------------------
    def _answers(
        self, run_id: str, port: ModelPort, target: Target, facts: dict[str, Any], changes: list[Change]
    ) -> list[dict[str, Any]]:
        evidence = {e.evidence_id: e for e in self.research.store.for_run(run_id)}
        index = index_evidence((e.evidence_id, e.media_type, e.body) for e in evidence.values())
        checker = Checker(evidence, index, {})
        triggers = [t for t, _ in target.plan.paths]
        reference = target.handbook.references().get(REFERENCE)
        conv = Conversation()
        conv.add({"role": "system", "content": f"{reference.text if reference else ''}\n\n{SYSTEM_RULES}"})
        conv.add(facts_message(STAGE, facts, f"快速复盘 {target.plan.symbol}；基准报告 {target.plan.report_id}"))
        actions = {k: list(v) for k, v in self.table.actions.items()}
        spec = {"stage": STAGE, "required": [SUBMIT.name], "changes": [c.id for c in changes], "actions": actions}
        conv.add(stage_message(STAGE, spec, INSTRUCTIONS))

        def submit(call: Call) -> ToolResult:
            return self._submit(call, changes, triggers, checker)

        accepted = self._converse(run_id, port, conv, submit)
        self._gate(run_id, accepted, checker)
        return accepted

    def _converse(
        self, run_id: str, port: ModelPort, conv: Conversation, submit: Callable[[Call], ToolResult]
    ) -> list[dict[str, Any]]:
        """Model turns until a batch of answers is accepted; every call and tool result is journaled."""
        stall, turn, schemas = StallDetector(), 0, [SUBMIT.schema()]
        while True:
            turn += 1
            key = f"{STAGE}/model/{turn}"
            request = port.request(conv.messages, schemas)
            payload = self.journal.act(run_id, key, "model_call", request, functools.partial(_call_model, port))
            live = key in self.journal.executed
            reply = port.parse(payload)
            conv.add(reply.assistant_message())
            if not reply.tool_calls:
                conv.add({"role": "user", "content": f"请调用 {SUBMIT.name} 提交全部回答；不要只回复文字。"})
            for call in reply.tool_calls:
                asked = json.dumps({"name": call.name, "arguments": call.arguments_text}, ensure_ascii=False)
                result = self.journal.act(
                    run_id,
                    f"{STAGE}/tool/{turn}/{call.id}",
                    "tool_call",
                    asked,
                    functools.partial(_tool_outcome, submit, call),
                )
                conv.add({"role": "tool", "tool_call_id": call.id, "content": result})
                parsed = json.loads(result)
                if parsed.get("accepted"):
                    return list(parsed["value"]["answers"])
                if live:
                    stall.observe(call.name, call.arguments_text, result)
            if live:
                stall.turn_ended(0, 0)  # nothing but an accepted batch is progress here
                if (why := stall.reason()) is not None:
                    raise Paused(f"stalled: {why}")

    def _submit(self, call: Call, changes: list[Change], triggers: list[str], checker: Checker) -> ToolResult:
        if call.name != SUBMIT.name:
            return rejected([Problem("unknown_tool", f"there is no tool '{call.name}' here", f"use {SUBMIT.name}")])
        if call.arguments is None:
            why = f"the arguments are not valid JSON: {call.parse_error}"
            return rejected([Problem("malformed_arguments", why, "send one JSON object matching the schema")])
        try:
            batch = QuickAnswers.model_validate(call.arguments)
        except ValidationError as error:
            fix = "fix the field and call again"
            return rejected(
                [
                    Problem("invalid_arguments", f"{'.'.join(map(str, e['loc']))}: {e['msg']}", fix)
                    for e in error.errors()
                ]
            )
        problems = answer_problems(batch, changes, triggers, checker, self.table)
        if problems:
            return rejected(problems)
        return ToolResult({"accepted": True, "judgment": "quick_answers", "value": _answers_json(batch)})

    def _gate(self, run_id: str, answers: list[dict[str, Any]], checker: Checker) -> None:
        """The number gate over the accepted answers once more, recorded as the run's gate check."""
        problems = [
            p.as_dict()
            for i, a in enumerate(answers)
            for p in checker.cited(j.Cited(text=a["response"], evidence=a["evidence"]), f"answers[{i}].response")
            + checker.text(a.get("path") or "", f"answers[{i}].path")
        ]
        payload = json.dumps({"numbers": problems}, ensure_ascii=False)
        self.journal.act(run_id, f"{STAGE}/gates", "gate_check", "numbers", lambda _: Outcome(payload))
        if problems:
            raise Paused(f"the number gate found {len(problems)} problem(s); first: {problems[0]['message']}")


def _call_model(port: ModelPort, request: str) -> Outcome:
    try:
        text, cost = port.complete(request, ceiling_left=None)
    except UserError as error:
        raise Paused(error.message, network=bool(getattr(error, "network_class", False))) from error
    return Outcome(text, cost=cost)


def _tool_outcome(submit: Callable[[Call], ToolResult], call: Call, _request: str) -> Outcome:
    return Outcome(submit(call).payload())


def _answers_json(batch: QuickAnswers) -> dict[str, Any]:
    return {
        "answers": [
            {
                "change": a.change,
                "level": a.level,
                "action": a.action,
                "response": a.response.text,
                "evidence": list(a.response.evidence),
                "path": a.path,
            }
            for a in batch.answers
        ]
    }


def _plan_text(plan: ReportPlan) -> str:
    lines = [f"路径: {t} → {a}" for t, a in plan.paths]
    lines += [f"订单: {o.get('side')} {o.get('qty')} @ {o.get('price')}" for o in plan.orders]
    lines += [f"未成交订单 {o.get('order_id')}: {o.get('decision')}（{o.get('reason', '')}）" for o in plan.open_orders]
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
