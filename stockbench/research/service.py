"""Research as the workbench offers it: start, resume and stop runs; list runs and reports; verify reports."""

from __future__ import annotations

import json
import uuid
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stockbench.clock import MARKET_TZ, Clock, today_in
from stockbench.errors import InvalidInput, NotFound, Problem, RuleViolation
from stockbench.events import EventBus
from stockbench.evidence.frozen import verify
from stockbench.evidence.store import EvidenceStore
from stockbench.market.instruments import parse_symbol
from stockbench.messages import REFUSALS, language_of_locale, problem, said, user_error, value_word
from stockbench.research.archive import ReportArchive, render_markdown
from stockbench.research.compose import Publisher, publish
from stockbench.research.engine import ResearchEngine
from stockbench.research.events import RunEnded, RunStarted
from stockbench.research.facts import ProgramFacts
from stockbench.research.handbook import Handbook
from stockbench.research.journal import Journal
from stockbench.research.listing import check_listed
from stockbench.research.models import ModelPort
from stockbench.research.offline import OfflineModel
from stockbench.research.outcomes import (
    NOT_STARTED,
    PlanCheckResult,
    QuickOutcome,
    ReportListing,
    ReportRecord,
    RunAction,
    RunDetails,
    RunListing,
    RunOutcome,
)
from stockbench.research.plan import Plan, build_plan, plan_problems
from stockbench.research.records import RunRecord
from stockbench.research.summary import ReportSummary
from stockbench.research.wording import say
from stockbench.research.wording.entry import Language, language_of
from stockbench.store.database import Database
from stockbench.store.settings import DEFAULT_MODEL, REPORT_LANGUAGE

if TYPE_CHECKING:
    from stockbench.research.plan_check import PlanCheck
    from stockbench.research.quick_review import QuickReview


class PlanRefused(RuleViolation):
    """A plan that may not run (unknown tool, over its ceiling, unapproved): the refused run and its plan."""

    code = "plan_refused"

    def __init__(self, message: str, problems: list[Problem], *, run_id: str, plan: Plan, key: str = "") -> None:
        super().__init__(message, problems, key=key)  # `key`: its words in stockbench.messages.REFUSALS
        self.run_id, self.plan = run_id, plan


class Research:
    """Runs and reports of one workspace."""

    def __init__(self, db: Database, clock: Clock, events: EventBus, facts: ProgramFacts, models: Any = None) -> None:
        self.db, self.clock, self.events, self.facts = db, clock, events, facts
        self.store = EvidenceStore(db)
        self.journal = Journal(db, self.store, clock)
        self.archive = ReportArchive(db)
        self._llm = models  # an LLM client factory (stockbench.llm), or None: offline only
        self._ports: dict[str, ModelPort] = {"offline": OfflineModel()}
        publisher = Publisher(self.journal, events, facts, lambda name: self.model(name).offline)
        self.engine = ResearchEngine(
            self.journal, self.store, facts, self.model, events, lambda state, key: publish(state, publisher, key)
        )

    # ---- models ------------------------------------------------------------------------------------
    def default_model(self) -> str:
        return self.facts.settings.get(DEFAULT_MODEL)

    def report_language(self) -> Language:
        """The language reports are written in when a run names none: the workspace's setting, else the user's (the
        system locale's, stockbench.messages.language_of_locale: Chinese on a Chinese locale, else English)."""
        stored = self.facts.settings.get(REPORT_LANGUAGE)
        return language_of(stored) if stored else language_of_locale()

    def model(self, name: str) -> ModelPort:
        if name not in self._ports:
            if self._llm is None:
                raise user_error(NotFound, "model_not_configured", name=name, command="stockbench models add ...")
            self._ports[name] = self._llm(name)
        return self._ports[name]

    def _estimate(self, model: str, input_tokens: int, output_tokens: int) -> Decimal | None:
        port = self.model(model)
        if port.offline:
            return Decimal(0)
        estimate = getattr(port, "estimate", None)
        return estimate(input_tokens, output_tokens) if estimate else None

    # ---- runs --------------------------------------------------------------------------------------
    def start(
        self,
        symbol: str,
        *,
        question: str | None = None,
        model: str | None = None,
        account: str | None = None,
        max_cost: Decimal | None = None,
        approve_plan: bool = False,
        language: str | None = None,
    ) -> RunRecord:
        """Plan a run and record it; refused (and recorded) when the plan may not run. A symbol not yet listed at
        the as-of date is refused before anything is recorded (NotListed, with its listing date)."""
        instrument = parse_symbol(symbol)
        check_listed(self.facts.market.registry, instrument.symbol, today_in(self.clock, instrument.market))
        model = model or self.default_model()
        self.model(model)
        written_in = self._language(language)
        if account is not None:
            self.facts.ledger.account(account)
        plan = build_plan(
            model=model,
            question=question,
            today=today_in(self.clock, instrument.market),
            estimate=self._estimate,
            search_available=self.facts.search_available(),
            language=written_in,
        )
        handbook = Handbook.load()
        run_id = f"RUN{self.clock.now():%Y%m%d}-{uuid.uuid4().hex[:8]}"
        as_of = self.clock.now() if self.clock.is_replay else None
        run = RunRecord(
            run_id, instrument.symbol, plan.kind, question, model, account, handbook.version, plan, max_cost, as_of
        )
        problems = plan_problems(plan, max_cost, approve_plan)
        handbook.store(self.db, self.clock.now())
        self.journal.create_run(run, approved=approve_plan)
        if problems:
            self.journal.set_status(run_id, "failed", "plan", "plan refused: " + "; ".join(p.message for p in problems))
            raise PlanRefused(REFUSALS["plan_refused"].en.format(problem=problems[0].message), problems,
                              run_id=run_id, plan=plan, key="plan_refused")  # fmt: skip
        self.events.publish(RunStarted(run_id=run_id, symbol=run.symbol, model=model, at=self.clock.now()))
        return run

    def default_account(self, symbol: str) -> str | None:
        """The account a run of `symbol` reads when the user names none in the window: the one holding it, else the
        only account, else the one the newest run read (Ledger.account_for)."""
        return self.facts.ledger.account_for(parse_symbol(symbol).symbol, self.journal.last_account())

    def _language(self, named: str | None) -> Language:
        """The report language of a new run: `named` (zh or en) when given, else `report_language()`."""
        try:
            return language_of(named) if named else self.report_language()
        except ValueError:
            raise user_error(InvalidInput, "report_language_unknown", language=named, choices="zh or en",
                             option="--language") from None  # fmt: skip

    def record(self, run_id: str) -> RunRecord:
        return self.journal.record(run_id)

    def execute(self, run_id: str) -> RunOutcome:
        """Run (or resume) until published, paused or stopped."""
        run = self.record(run_id)
        if run.kind == "quick_review":
            self.quick_reviews().resume(run_id)
            return self.outcome(run_id)
        status = self.journal.status(run_id)
        if status is not None and status.status in {"published", "stopped", "failed"}:
            return self.outcome(run_id)
        self._check_clock(run)
        handbook = Handbook.stored(self.db, run.handbook_version)
        result = self.engine.run(run, handbook)
        self.events.publish(RunEnded(run_id=run_id, status=result, at=self.clock.now()))
        return self.outcome(run_id)

    def on_its_clock(self, run: RunRecord) -> bool:
        """Whether this workspace's clock may continue `run`: the live clock for a live run; for research of the
        past, a replay clock on the same exchange day, not earlier (a restart minutes later sees the same market)."""
        if not self.clock.is_replay or run.as_of is None:
            return run.as_of is None and not self.clock.is_replay
        here, zone = self.clock.now(), MARKET_TZ["CN"]  # both markets keep UTC+8 days
        return run.as_of <= here and run.as_of.astimezone(zone).date() == here.astimezone(zone).date()

    def _check_clock(self, run: RunRecord) -> None:
        """A run continues only on the clock it started on: research of the past never sees what came later."""
        if self.on_its_clock(run):
            return
        if run.as_of is None:
            raise user_error(InvalidInput, "run_live_clock", run=run.run_id, now=self.clock.now().isoformat(),
                             option="--as-of")  # fmt: skip
        raise user_error(InvalidInput, "run_past_clock", run=run.run_id, as_of=run.as_of.isoformat(),
                         command=f"stockbench --as-of {run.as_of.isoformat()} runs resume {run.run_id}")  # fmt: skip

    def analyze(self, symbol: str, **options: Any) -> RunOutcome:
        return self.execute(self.start(symbol, **options).run_id)

    def resume(self, run_id: str) -> RunOutcome:
        status = self.journal.status(run_id)
        if status is not None and status.status == "stopped":
            raise user_error(InvalidInput, "run_stopped", run=run_id)
        return self.execute(run_id)

    def stop(self, run_id: str) -> RunOutcome:
        self.record(run_id)
        status = self.journal.status(run_id)
        if status is not None and status.status in {"published", "failed"}:
            raise user_error(InvalidInput, "run_ended", run=run_id, status=status.status,
                             status_zh=value_word("status", status.status, "zh"))  # fmt: skip
        self.journal.set_status(run_id, "stopped", status.stage if status else "prepare", "stopped by the user")
        return self.outcome(run_id)

    # ---- after the report --------------------------------------------------------------------------
    def quick_reviews(self) -> QuickReview:
        from stockbench.research.quick_review import QuickReview, ReviewServices

        def model(name: str) -> ModelPort:  # looked up at each use: a port replaced on this service is the one used
            return self.model(name)

        services = ReviewServices(self.journal, self.store, self.events, self.clock, model, self.default_model,
                                  self._language)  # fmt: skip
        return QuickReview(services, self.facts.data, self.facts.market, self.facts.ledger)

    def quick_review(
        self, symbol: str, *, model: str | None = None, account: str | None = None, language: str | None = None
    ) -> QuickOutcome:
        """Re-check the day's report against fresh data, change by change, written in `language` (zh or en; default:
        the report language), see research/quick_review.py."""
        return self.quick_reviews().review(symbol, model=model, account=account, language=language)

    def plan_checks(self) -> PlanCheck:
        from stockbench.research.plan_check import PlanCheck

        return PlanCheck(self.db, self.clock, self.facts.market, self.facts.data, self.facts.ledger)

    def check_plan(self, symbol: str, *, account: str | None = None) -> PlanCheckResult:
        """The latest plan's rules against current data, with no model at all (see research/plan_check.py)."""
        return self.plan_checks().check(symbol, account=account)

    def due(self) -> list[str]:
        """Paused runs whose automatic resume time has come."""
        return self.journal.due(self.clock.now())

    def outcome(self, run_id: str) -> RunOutcome:
        status = self.journal.status(run_id)
        report = self.archive.of_run(run_id)
        return RunOutcome(
            run_id,
            status.status if status else NOT_STARTED,
            status.stage if status else "",
            status.reason if status else "",
            report.report_id if report else None,
            report.action if report else None,
            report.report_summary() if report else None,
        )

    def runs(self) -> tuple[RunListing, ...]:
        """Every run with its status and stage (and a published run's report and action), newest first."""
        found = []
        published = {r[0]: (str(r[1]), str(r[2])) for r in self.db.fetchall(
            "SELECT run_id, report_id, action FROM reports")}  # fmt: skip
        for row in self.journal.runs():
            status = self.journal.status(row.run_id)
            report_id, action = published.get(row.run_id, ("", ""))
            found.append(
                RunListing(
                    row.run_id,
                    row.symbol,
                    status.status if status else NOT_STARTED,
                    status.stage if status else "",
                    row.created_at,
                    row.model,
                    status.reason if status else "",
                    report_id,
                    action,
                )
            )
        return tuple(found)

    def run_details(self, run_id: str) -> RunDetails:
        """A run's outcome, plan, model calls, cost and journal."""
        run = self.record(run_id)
        return RunDetails(
            self.outcome(run_id),
            run.symbol,
            run.model,
            run.plan,
            self.journal.model_calls(run_id),
            self.journal.spent(run_id),
            tuple(RunAction(e.key, e.kind, e.phase, e.outcome, e.at) for e in self.journal.events(run_id)),
        )

    # ---- reports -----------------------------------------------------------------------------------
    def reports(self, symbol: str | None = None) -> tuple[ReportListing, ...]:
        """Published reports (on `symbol`, or all), newest first."""
        return self.archive.listed(symbol)

    def report(self, report_id: str) -> ReportRecord:
        """A stored report (see `seal_problems` for whether it is as published)."""
        return self.archive.get(report_id)

    def summary(self, report_id: str) -> ReportSummary:
        """A stored report's typed summary: its action, zones, sized orders, open-order decisions, paths, gaps."""
        return self.archive.summary(report_id)

    def seal_problems(self, report_id: str) -> list[Problem]:
        """What differs from the report as it was published: its fields, its run's evidence, the chain, the log."""
        return self.archive.seal_problems(report_id)

    def verify(self, report_id: str) -> list[Problem]:
        """Re-check a published report from its stored record alone: its seal, the workspace's chain and seal log,
        its Markdown against its sealed content, that every evidence of its run came from the run's own journal,
        and every gate again from the frozen context (nothing is fetched)."""
        found = self.report(report_id)
        problems = self.archive.seal_problems(report_id)
        rendered = render_markdown(
            title=found.title, symbol=found.symbol, run_id=found.run_id, published_at=found.published_at,
            as_of=found.as_of, offline=found.offline, draft=found.report_draft(), model=found.model,
            language=found.report_summary().language,
        )  # fmt: skip
        if rendered != found.markdown and self.archive.rendered_by_this_renderer(report_id):
            problems.append(problem("report_tampered.markdown", location=f"{report_id}.markdown", report=report_id,
                                    field="markdown"))  # fmt: skip
        problems += self._unjournaled(found.run_id)
        return problems + verify(found.draft, found.frozen, self.store)

    def _unjournaled(self, run_id: str) -> list[Problem]:
        """Evidence linked to a run that none of the run's journaled actions produced."""
        produced = self.journal.produced(run_id)
        if produced is None:
            return []  # journaled before the journal kept what each action produced
        linked = {e.evidence_id for e in self.store.for_run(run_id)}
        return [
            Problem(
                "evidence_unjournaled",
                f"{eid} is linked to run {run_id}, but no action of the run produced it",
                "restore the workspace from a backup; evidence is only stored by the run's own actions",
                eid,
            )
            for eid in sorted(linked - produced)
        ]

    def seal_ok(self, report_id: str) -> bool:
        """Whether a stored report is exactly as published (seal, chain and seal log; no gate re-run)."""
        return self.archive.verifies(report_id)

    def export(self, report_id: str, target: Path) -> Path:
        """Write a report to `target` (.json: the whole record; else its Markdown); refused for a report that is
        not as it was published."""
        found = self.report(report_id)
        tampered = self.archive.seal_problems(report_id)
        if tampered:
            raise user_error(InvalidInput, "report_tampered", report=report_id, problem=tampered[0].message,
                             problem_zh=said(tampered[0], "zh")[0],
                             command=f"stockbench reports verify {report_id}")  # fmt: skip
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.suffix.lower() == ".json":
            text = json.dumps(found.document(), ensure_ascii=False, indent=2, default=str)
            target.write_text(text, encoding="utf-8")
        else:
            target.write_text(self.exported_markdown(report_id), encoding="utf-8")
        return target

    def exported_markdown(self, report_id: str) -> str:
        """The report as it is handed on (Markdown and PDF exports): its text, then what the report view shows
        after it, the quoted passages each with the evidence it quotes, in the report's language."""
        from stockbench.evidence.lookup import report_citations

        found = self.report(report_id)
        quotes = report_citations(found.draft, found.markdown).quotes
        if not quotes:
            return found.markdown
        language = language_of(str(found.summary.get("language") or "zh"))
        parts = [found.markdown.rstrip("\n"), "", "---", "", f"### {say('report.quotes.heading', language)}", ""]
        for quote in quotes:
            parts += [f"> {' '.join(quote.text.split())}", "",
                      say("report.quotes.source", language, evidence=quote.evidence_id), ""]  # fmt: skip
        return "\n".join(parts)
