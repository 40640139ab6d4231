"""The quick review: a short, journaled re-check of the day's full report against fresh data.

The baseline is the latest full report on the symbol at or before the clock, at most `[baseline]
max_age_sessions` sessions old (resources/quick_review.toml; older ones are refused). The program's half
(research/quick_facts.py) refreshes the data and computes the change list; the model, or the offline rules model,
then answers every change once through `submit_answers` (research/quick_answers.py), in the same conversation
loop as a full analysis, without re-collecting the baseline's financials or texts.

A review is written in one language, the user's (named, else the workspace's report language): it is stored with
the run (its plan's `language`), and every change's detail and next check, the facts the model reads and the
offline model's answers are in it; the codes (kind, rule, level, action) stay as they are.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from stockbench.clock import Clock, today_in
from stockbench.errors import InvalidInput, NotFound, UserError
from stockbench.events import EventBus
from stockbench.evidence.documents import grounding
from stockbench.evidence.store import EvidenceStore
from stockbench.market.instruments import Instrument
from stockbench.messages import LANGUAGES, user_error
from stockbench.research import judgments as j
from stockbench.research.archive import ReportArchive
from stockbench.research.changes import Change, load_table
from stockbench.research.conversation import Conversation, facts_message, stage_message
from stockbench.research.events import RunEnded, RunStarted
from stockbench.research.facts import SYSTEM_RULES
from stockbench.research.handbook import Handbook
from stockbench.research.journal import Journal
from stockbench.research.listing import check_listed
from stockbench.research.loop import Exchange, converse
from stockbench.research.models import Call, ModelPort
from stockbench.research.offline import OfflineModel
from stockbench.research.outcomes import Answer, QuickOutcome
from stockbench.research.plan import Plan
from stockbench.research.quick_answers import (
    INSTRUCTIONS,
    REFERENCE,
    STAGE,
    SUBMIT,
    AnswerContext,
    OfflineQuickReview,
)
from stockbench.research.quick_facts import QuickFacts, Target, baseline_age
from stockbench.research.records import Outcome, RunRecord
from stockbench.research.state import Paused
from stockbench.research.summary import ReportPlan
from stockbench.research.tools import call_tool
from stockbench.research.validate import Checker
from stockbench.research.wording import say
from stockbench.research.wording.entry import Language
from stockbench.research.wording.phrases import exchange_time

if TYPE_CHECKING:
    from stockbench.data.service import DataService
    from stockbench.ledger.book import Ledger
    from stockbench.market.service import MarketRules

__all__ = ["STAGE", "OfflineQuickReview", "QuickReview"]


def _change(data: Mapping[str, Any]) -> Change:
    return Change(**{**data, "evidence": tuple(data["evidence"])})


@dataclass(frozen=True)
class ReviewServices:
    """What a quick review works with: the workspace's run store, evidence, events, clock and model ports, and
    the language a review is written in (`language(named)`: the named one, else the workspace's)."""

    journal: Journal
    store: EvidenceStore
    events: EventBus
    clock: Clock
    models: Callable[[str], ModelPort]
    default_model: Callable[[], str]
    language: Callable[[str | None], Language]


class QuickReview:
    """Quick reviews of one workspace: journaled runs of kind quick_review."""

    def __init__(self, services: ReviewServices, data: DataService, market: MarketRules, ledger: Ledger) -> None:
        self.services, self.market, self.ledger = services, market, ledger
        self.journal, self.clock, self.db = services.journal, services.clock, services.journal.db
        self.table = load_table()
        self.program = QuickFacts(self.clock, data, market, ledger, self.table)
        self.archive = ReportArchive(self.db)

    # ---- the run -------------------------------------------------------------------------------------
    def review(
        self, symbol: str, *, model: str | None = None, account: str | None = None, language: str | None = None
    ) -> QuickOutcome:
        """Review `symbol` against its baseline report, written in `language` (zh or en; default: the workspace's
        report language), considering `account`'s holding and orders (default: the account the report read); the
        change list stands even when the model fails."""
        written_in = self.services.language(language)
        instrument = self.market.registry.instrument(symbol)
        check_listed(self.market.registry, instrument.symbol, today_in(self.clock, instrument.market))
        plan, age = self.baseline(instrument)
        name = model or self.services.default_model()
        port = self._port(name)
        if account is not None:
            self.ledger.account(account)
        else:  # the account the report read, as the plan check reads it (the window named none)
            account = plan.account
        target = Target(instrument, plan, age, account, Handbook.load(), written_in)
        return self._run(self._start(target, name), target, port)

    def resume(self, run_id: str) -> QuickOutcome:
        """Continue a paused quick review from its journal: recorded actions are replayed, never repeated."""
        record = self.journal.record(run_id)
        status = self.journal.status(run_id)
        if record.kind != STAGE or (status is not None and status.status != "paused"):
            shown = status.status if status else "planned"
            raise user_error(InvalidInput, "quick_not_paused", run=run_id, kind=record.kind, status=shown,
                             command=f"stockbench review-quick {record.symbol}")  # fmt: skip
        stored = self.journal.stored(run_id, f"{STAGE}/facts", "result")
        plan = self.archive.plan(record.plan.notes[0])
        instrument = self.market.registry.instrument(record.symbol)
        age = json.loads(stored)["baseline"]["age_sessions"] if stored else 0
        handbook = Handbook.stored(self.db, record.handbook_version)
        self.journal.set_status(run_id, "running", STAGE)
        target = Target(instrument, plan, age, record.account, handbook, record.plan.language)
        return self._run(run_id, target, self._port(record.model))

    def _port(self, name: str) -> ModelPort:
        port = self.services.models(name)
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
        answered = tuple(Answer.from_json(a) for a in answers)
        outcome = QuickOutcome(
            run_id, target.plan, target.age, self.table.label, tuple(changes), answered, status, reason,
            target.language,
        )  # fmt: skip
        return self._finish(outcome)

    def baseline(self, instrument: Instrument) -> tuple[ReportPlan, int]:
        """The baseline report's plan and its age in sessions; refused when there is none recent enough."""
        found = self.archive.latest(instrument.symbol, self.clock.now(), kinds=("full",))
        command = f"stockbench analyze {instrument.symbol}"
        if found is None:
            raise user_error(NotFound, "quick_no_baseline", symbol=instrument.symbol, command=command)
        plan = self.archive.plan(found)
        age = baseline_age(self.market, instrument, plan.published_at, today_in(self.clock, instrument.market))
        if age > self.table.max_age_sessions:
            published = {
                language: exchange_time(instrument.symbol, plan.published_at, language) for language in LANGUAGES
            }
            raise user_error(InvalidInput, "quick_baseline_old", symbol=instrument.symbol, report=plan.report_id,
                             published=published["en"], published_zh=published["zh"], age=age,
                             limit=self.table.max_age_sessions, command=command)  # fmt: skip
        return plan, age

    def _start(self, target: Target, model: str) -> str:
        now, symbol = self.clock.now(), target.instrument.symbol
        run_id = f"QR{now:%Y%m%d}-{uuid.uuid4().hex[:8]}"
        today = today_in(self.clock, target.instrument.market)
        why = {STAGE: f"re-check report {target.plan.report_id} against fresh data, change by change"}
        data = ("announcements", "bars", "money_flow", "quote")
        cost = Decimal(0) if model == "offline" else None
        plan = Plan(STAGE, model, (STAGE,), (SUBMIT.name,), data, why, target.plan.day or today, today, (), cost, {},
                    notes=(target.plan.report_id,), language=target.language)  # fmt: skip
        target.handbook.store(self.db, now)
        replay = now if self.clock.is_replay else None
        record = RunRecord(run_id, symbol, STAGE, None, model, target.account, target.handbook.version, plan, None,
                           replay)  # fmt: skip
        self.journal.create_run(record, approved=False)
        self.journal.set_status(run_id, "running", STAGE)
        self.services.events.publish(RunStarted(run_id=run_id, symbol=symbol, model=model, at=now))
        return run_id

    def _finish(self, outcome: QuickOutcome) -> QuickOutcome:
        if outcome.status == "paused":  # the outcome is recorded once, when the answers are in
            self.journal.set_status(outcome.run_id, "paused", STAGE, outcome.reason)
        else:
            payload = json.dumps(outcome.as_dict(), ensure_ascii=False, sort_keys=True, default=str)
            self.journal.act(outcome.run_id, f"{STAGE}/outcome", "program", "outcome", lambda _: Outcome(payload))
            self.journal.set_status(outcome.run_id, "published", STAGE)
        self.services.events.publish(RunEnded(run_id=outcome.run_id, status=outcome.status, at=self.clock.now()))
        return outcome

    # ---- the program's half: fresh data and the change list ----------------------------------------------
    def _facts(self, run_id: str, target: Target) -> dict[str, Any]:
        def execute(_: str) -> Outcome:
            facts, items = self.program.gather(target)
            return Outcome(json.dumps(facts, ensure_ascii=False, sort_keys=True, default=str), items)

        result: dict[str, Any] = json.loads(self.journal.act(run_id, f"{STAGE}/facts", "program", STAGE, execute))
        return result

    # ---- the model's half: one answer per change ------------------------------------------------------
    def _answers(
        self, run_id: str, port: ModelPort, target: Target, facts: dict[str, Any], changes: list[Change]
    ) -> list[dict[str, Any]]:
        evidence = {e.evidence_id: e for e in self.services.store.for_run(run_id)}
        checker = Checker(evidence, grounding(evidence))
        triggers = [t for t, _ in target.plan.paths]
        reference = target.handbook.references().get(REFERENCE)
        conv = Conversation()
        conv.add({"role": "system", "content": f"{reference.text if reference else ''}\n\n{SYSTEM_RULES}"})
        title = say("quick.facts.title", target.language, symbol=target.plan.symbol, report_id=target.plan.report_id)
        conv.add(facts_message(STAGE, facts, title))
        actions = {k: list(v) for k, v in self.table.actions.items()}
        spec = {"stage": STAGE, "required": [SUBMIT.name], "changes": [c.id for c in changes], "actions": actions}
        conv.add(stage_message(STAGE, spec, INSTRUCTIONS))
        ctx = AnswerContext(changes, triggers, checker, self.table)
        accepted: list[dict[str, Any]] = []

        def take(call: Call, payload: str) -> None:
            result = json.loads(payload)
            if result.get("accepted") and not accepted:
                accepted.extend(result["value"]["answers"])

        exchange = Exchange(
            self.journal, run_id, port, [SUBMIT.schema()],
            call_model=lambda request: _call_model(port, request),
            answer=lambda call: Outcome(call_tool(ctx, call.name, call.arguments, call.parse_error,
                                                  tools={SUBMIT.name: SUBMIT}).payload()),
            on_result=take,
            progress=lambda: (0, len(accepted)),  # nothing but an accepted batch is progress here
            nudge=f"请调用 {SUBMIT.name} 提交全部回答；不要只回复文字。",
        )  # fmt: skip
        converse(exchange, conv, STAGE, lambda: bool(accepted))
        self._gate(run_id, accepted, checker)
        return accepted

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
