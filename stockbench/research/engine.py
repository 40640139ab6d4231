"""The research engine: a staged, journaled run from a request to a published report.

prepare (program) -> scene (model) -> collect (program) -> preprocess (program) -> analyze (BULL and BEAR
sub-studies, then the diagnosis) -> decide (judgments, checked as they arrive) -> report (title, conclusion,
three answers) -> publish (every gate in one pass). Every action goes through the journal, so `run` is also
`resume`: completed actions replay from their stored results, and the first unfinished one runs.
The run stops for three reasons only: the method is complete, a real failure paused it, or the user stopped it.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from stockbench.errors import Problem, UserError
from stockbench.events import Event, EventBus
from stockbench.evidence.documents import GateContext, OrderPlan, QuoteRef
from stockbench.evidence.store import EvidenceStore
from stockbench.research.conversation import Conversation, facts_message, stage_message
from stockbench.research.events import CostUpdated, RunPaused, StageFinished, StageStarted, SubtaskTitle
from stockbench.research.handbook import Handbook
from stockbench.research.journal import Journal
from stockbench.research.loop import STALL_IDLE_TURNS, STALL_REPEATS, Exchange, converse
from stockbench.research.models import Call, ModelPort
from stockbench.research.records import EvidenceItem, Outcome, RunRecord
from stockbench.research.results import ToolResult, rejected
from stockbench.research.stages import STAGE_TOOLS
from stockbench.research.state import SIDES, STAGES, Paused, RunState, Side, Stage, StopRequested
from stockbench.research.tools import TOOLS, call_tool
from stockbench.research.validate import Checker, RunRules

if TYPE_CHECKING:
    from stockbench.research.facts import ProgramFacts

__all__ = ["MAX_AUTO_RESUMES", "NETWORK_RETRY", "STAGES", "STALL_IDLE_TURNS", "STALL_REPEATS", "Paused",
           "ResearchEngine", "RunRecord", "RunState"]  # fmt: skip
log = logging.getLogger(__name__)
NETWORK_RETRY = timedelta(minutes=5)
MAX_AUTO_RESUMES = 3
PUBLISH_FIXES = 2  # rounds in which the model may fix what the publication gates found, before the run pauses
PUBLISH_PAUSE = "publication gates"
Block = tuple[dict[str, Any], list[EvidenceItem]]
Publish = Callable[[RunState, str], "str | list[Problem]"]


@dataclass
class RunTools:
    """The tool context of one run: its state, its checks, and the program's readers (documents, search)."""

    state: RunState
    facts: ProgramFacts

    def checker(self) -> Checker:
        """The checks of a submission, against the run's evidence, facts, levels, orders and quotes so far."""
        state, facts = self.state, self.state.facts
        zones = facts.zones
        ctx = GateContext(
            state.run.run_id, state.evidence, (), (), (), {}, {},
            zone_bounds=zones.bounds() if zones else {},
            lot=facts.prepare.instrument.lot if facts.prepare else None,
            previous_levels=facts.previous_levels(),
            _index=state.index, _values=state.values,
        )  # fmt: skip
        levels = sorted(ctx.levels())
        orders = tuple(OrderPlan(o.account, o.symbol, o.side, o.qty, o.price) for o in facts.sized)
        diagnosis = state.accepted.diagnosis
        rules = RunRules(
            subject=state.run.symbol,
            ctx=ctx,
            orders=orders,
            gaps=bool(facts.gaps),
            known_symbol=self.facts.known_symbol,
            check_order=self.facts.order_checker(state) if state.run.account else None,
            account=state.run.account,
            reference=levels[len(levels) // 2] if levels else None,
            announcements=frozenset(a.id for a in facts.prepare.announcements) if facts.prepare else frozenset(),
            quotes=tuple(
                QuoteRef(q.text, q.evidence_id, f"diagnosis.quotes[{i}]")
                for i, q in enumerate(diagnosis.quotes if diagnosis else ())
            ),
        )
        return Checker(state.evidence, state.index, facts, rules)

    def read_document(self, announcement_id: str) -> ToolResult:
        return self.facts.read_document(self.state, announcement_id)

    def search(self, terms: Sequence[str]) -> ToolResult:
        return self.facts.search(self.state, terms)


class ResearchEngine:
    """Runs research for one workspace."""

    def __init__(  # noqa: PLR0917 - the services a run needs
        self,
        journal: Journal,
        store: EvidenceStore,
        facts: ProgramFacts,
        models: Callable[[str], ModelPort],
        events: EventBus,
        publish: Publish,
    ) -> None:
        self.journal, self.store, self.facts, self.models, self.events = journal, store, facts, models, events
        self.publish = publish
        self.stages: dict[Stage, Callable[[RunState], None]] = {
            "prepare": self._stage_prepare,
            "scene": self._stage_scene,
            "collect": self._stage_collect,
            "preprocess": self._stage_preprocess,
            "analyze": self._stage_analyze,
            "decide": self._stage_decide,
            "report": self._stage_report,
            "publish": self._stage_publish,
        }

    # ---- the run ---------------------------------------------------------------------------------
    def run(self, run: RunRecord, handbook: Handbook) -> str:
        """Execute or resume `run`; return its status (published, paused, stopped, failed)."""
        state = RunState(run, handbook, {e.evidence_id: e for e in self.store.for_run(run.run_id)})
        stage: Stage = "prepare"
        try:
            for stage in STAGES:
                if stage not in run.plan.stages:
                    continue
                self._check_stop(run.run_id)
                self.journal.set_status(run.run_id, "running", stage)
                self._emit(StageStarted(run_id=run.run_id, stage=stage, at=self.journal.clock.now()))
                self.stages[stage](state)
                self.journal.act(run.run_id, f"{stage}/done", "stage", stage, Outcome)
                self._emit(StageFinished(run_id=run.run_id, stage=stage, at=self.journal.clock.now()))
        except Paused as paused:
            self._pause(run.run_id, stage, paused)
            return "paused"
        except StopRequested:
            self.journal.set_status(run.run_id, "stopped", stage, "stopped by the user")
            return "stopped"
        except UserError as error:  # a real failure the user can act on: pause with the reason, wait for Continue
            self._pause(run.run_id, stage, Paused(error.message))
            return "paused"
        except Exception as error:  # a bug: never leave the run "running"; the details go to the log
            log.exception("run %s failed in %s", run.run_id, stage)
            self._pause(run.run_id, stage, Paused(f"internal error: {type(error).__name__}: {error}"))
            return "paused"
        self.journal.set_status(run.run_id, "published", "publish")
        return "published"

    def _pause(self, run_id: str, stage: str, paused: Paused) -> None:
        resume_at = None
        reason = paused.reason
        if paused.network:
            done = self.journal.pauses(run_id, "network")
            if done < MAX_AUTO_RESUMES:
                resume_at = self.journal.clock.now() + NETWORK_RETRY
                reason = f"network: {paused.reason} (automatic resume {done + 1} of {MAX_AUTO_RESUMES})"
            else:
                reason = f"network: {paused.reason} (automatic resumes used up; press Continue)"
        self.journal.set_status(run_id, "paused", stage, reason, resume_at)
        self._emit(
            RunPaused(run_id=run_id, stage=stage, reason=reason, resume_at=resume_at, at=self.journal.clock.now())
        )

    def _check_stop(self, run_id: str) -> None:
        status = self.journal.status(run_id)
        if status is not None and status.status == "stopped":
            raise StopRequested

    def _emit(self, event: Event) -> None:
        self.events.publish(event)

    def _title(self, state: RunState, title: str) -> None:
        self._emit(SubtaskTitle(run_id=state.run.run_id, title=title, at=self.journal.clock.now()))

    # ---- program stages ----------------------------------------------------------------------------
    def _program(self, state: RunState, key: str, name: str, *, title: str, compute: Callable[[], Block]) -> None:
        """A journaled program action whose result is the facts block `name` of the run."""
        self._title(state, title)

        def execute(_: str) -> Outcome:
            facts, items = compute()
            return Outcome(json.dumps(facts, ensure_ascii=False, sort_keys=True), items)

        payload = self.journal.act(state.run.run_id, key, "program", key, execute)
        state.add_evidence(self.store.for_run(state.run.run_id))
        state.facts = state.facts.with_block(name, json.loads(payload))

    def _stage_prepare(self, state: RunState) -> None:
        run = state.run
        compute = functools.partial(self.facts.prepare, run.symbol, run.account, run.plan, state.handbook)
        self._program(
            state, "prepare/facts", "prepare", title="Clock, identity, ledger and data gates", compute=compute
        )
        state.main.add({"role": "system", "content": self.facts.system_prompt(state.handbook)})
        state.main.add(facts_message("prepare", dict(state.facts.raw["prepare"]), self.facts.preface(run)))

    def _stage_scene(self, state: RunState) -> None:
        spec = {"stage": "scene", "required": ["submit_scene"], "tools": list(STAGE_TOOLS["scene"])}
        state.main.add(stage_message("scene", spec, self.facts.instructions("scene", state.handbook)))
        self.converse(state, state.main, "scene", "scene", lambda: state.accepted.scene is not None)

    def _stage_collect(self, state: RunState) -> None:
        compute = functools.partial(self.facts.collect, state.run.symbol, state.accepted.scene, state.run.plan)
        self._program(state, "collect/facts", "collect", title="Fetching what the scene implies", compute=compute)
        state.main.add(facts_message("collect", dict(state.facts.raw["collect"])))

    def _stage_preprocess(self, state: RunState) -> None:
        run = state.run
        self._program(state, "preprocess/facts", "analytics",
                      title="Indicators, states, zones, backtest and scenarios",
                      compute=lambda: self.facts.compute_analytics(run.symbol, run.account, state.accepted.scene,
                                                                   state.facts))  # fmt: skip
        unavailable = state.facts.raw["analytics"].get("unavailable")
        if unavailable:  # no price history: nothing to study, and no model is asked to argue over nothing
            raise Paused(f"no analytics for {run.symbol}: {unavailable.get('reason')}")
        state.main.add(facts_message("analytics", dict(state.facts.raw["analytics"])))

    # ---- model stages ------------------------------------------------------------------------------
    def _stage_analyze(self, state: RunState) -> None:
        state.baseline = state.main.fork()  # the shared fact baseline: the sub-studies never see the main draft
        for side in SIDES:
            self._sub_study(state, side, state.baseline, f"analyze/{side}")
        spec = {"stage": "analyze", "required": ["submit_diagnosis"]}
        state.main.add(stage_message("analyze", spec, self.facts.instructions("analyze", state.handbook)))
        self.converse(state, state.main, "analyze/main", "analyze", lambda: state.accepted.diagnosis is not None)
        self._revalidate_sub_studies(state)
        debate: dict[str, Any] = {
            side: {"arguments": [a.model_dump(mode="json") for a in state.accepted.arguments(side)], "side": side}
            if state.accepted.has(side) else {}
            for side in SIDES
        }  # fmt: skip
        state.main.add(facts_message("debate", debate))

    def _sub_study(self, state: RunState, side: Side, base: Conversation, key: str) -> None:
        fork = base.fork()
        spec = {"stage": side, "required": ["submit_arguments"], "side": side}
        fork.add(stage_message(side, spec, self.facts.instructions(side, state.handbook)))
        state.side = side
        self._title(state, f"{side.upper()} sub-study")
        state.accepted = state.accepted.model_copy(update={side: None})  # a redo starts from nothing
        self.converse(state, fork, key, side, lambda: state.accepted.has(side))
        state.side = None

    def _revalidate_sub_studies(self, state: RunState) -> None:
        """Refresh the quote; a sub-study that cited the old version of a source whose body changed is redone.

        New evidence from another source does not invalidate anything: only a changed version of cited evidence.
        """
        old = state.facts.raw.get("prepare", {}).get("quote", {})
        self._program(state, "analyze/refresh", "refresh", title="Refreshing the quote",
                      compute=lambda: self.facts.refresh_quote(state.run.symbol))  # fmt: skip
        refreshed = state.facts.raw["refresh"]
        if not old or refreshed.get("evidence_id") in (None, old.get("evidence_id")):
            return
        base = state.baseline.fork()
        base.add(facts_message("refresh", {"quote": dict(refreshed)}, "行情已更新：引用旧行情的子研究需重做。"))
        for side in SIDES:
            cited = {e for a in state.accepted.arguments(side) for e in a.evidence}
            if old.get("evidence_id") in cited:
                self._sub_study(state, side, base, f"analyze/{side}/redo")

    def _stage_decide(self, state: RunState) -> None:
        spec = {"stage": "decide", "required": state.required_decisions()}
        state.main.add(stage_message("decide", spec, self.facts.instructions("decide", state.handbook)))
        self.converse(state, state.main, "decide", "decide", state.decided)
        self._size_orders(state, "decide/orders")

    def _size_orders(self, state: RunState, key: str) -> None:
        self._program(state, key, "orders", title="Sizing orders against the ledger",
                      compute=lambda: self.facts.size_orders(state.run, state.accepted, state.facts))  # fmt: skip
        state.main.add(facts_message("orders", dict(state.facts.raw["orders"])))

    def _stage_report(self, state: RunState) -> None:
        spec = {"stage": "report", "required": ["submit_report"]}
        state.main.add(stage_message("report", spec, self.facts.instructions("report", state.handbook)))
        self.converse(state, state.main, "report", "report", lambda: state.accepted.report is not None)

    def _stage_publish(self, state: RunState) -> None:
        """Every gate in one pass. What the gates find goes back to the model to fix (a few rounds); then the run
        pauses with the problems, and Continue gives the model another round: a paused run can always go on."""
        self._title(state, "Publication gates")
        rounds = self.journal.pauses(state.run.run_id, PUBLISH_PAUSE)
        found: list[Problem] = []
        for round_ in range(rounds + 1):
            for attempt in range(PUBLISH_FIXES + 1):
                suffix = "" if round_ == attempt == 0 else f"/{round_}.{attempt}"
                published = self.publish(state, f"publish/gates{suffix}")
                if isinstance(published, str):
                    return
                found = published
                if attempt < PUBLISH_FIXES:
                    self._publish_fix(state, found, f"publish/fix/{round_}.{attempt}")
            if round_ == rounds:
                first = found[0]
                raise Paused(f"{PUBLISH_PAUSE} found {len(found)} problem(s); first: [{first.code}] {first.message}")

    def _publish_fix(self, state: RunState, problems: list[Problem], key: str) -> None:
        """Show the model what the gates found and take its corrected judgments or report text."""
        self._title(state, "Fixing what the publication gates found")
        spec = {
            "stage": "publish_fix",
            "required": ["submit_judgments", "submit_report"],
            "problems": [p.as_dict() for p in problems[:20]],
        }
        state.main.add(stage_message("publish_fix", spec, self.facts.instructions("publish_fix", state.handbook)))
        before = state.accepted_count
        self.converse(state, state.main, key, "publish_fix", lambda: state.accepted_count > before)
        self._size_orders(state, f"{key}/orders")

    # ---- the model loop ------------------------------------------------------------------------------
    def converse(self, state: RunState, conv: Conversation, key: str, stage: str, done: Callable[[], bool]) -> None:
        """Model turns until `done()`, through the one conversation loop (research/loop.py)."""
        model = self.models(state.run.model)
        # Every call offers the same tools (all the plan allows), so the prompt prefix stays byte-identical from
        # stage to stage and provider caches hit; what this stage may use is enforced when a tool is called.
        schemas = [TOOLS[name].schema() for name in TOOLS if name in state.run.plan.tools]
        state.allowed = tuple(name for name in STAGE_TOOLS[stage] if name in state.run.plan.tools)
        tools = RunTools(state, self.facts)
        exchange = Exchange(
            self.journal, state.run.run_id, model, schemas,
            call_model=lambda request: self._call_model(state, model, request),
            answer=lambda call: self._run_tool(tools, call),
            on_result=lambda call, result: _take(state, result),
            progress=lambda: (sum(1 for e in state.evidence.values() if e.source != "calc"), state.accepted_count),
            nudge=self.facts.nudge(state.allowed),
            check_stop=lambda: self._check_stop(state.run.run_id),
        )  # fmt: skip
        converse(exchange, conv, key, done)

    def _call_model(self, state: RunState, model: ModelPort, request: str) -> Outcome:
        try:
            text, cost = model.complete(request, ceiling_left=self._ceiling_left(state))
        except UserError as error:
            network = bool(getattr(error, "network_class", False))
            raise Paused(error.message, network=network) from error
        return Outcome(text, cost=cost, after=lambda: self._cost_event(state))

    def _cost_event(self, state: RunState) -> None:
        run_id = state.run.run_id
        calls, spent = self.journal.model_calls(run_id), self.journal.spent(run_id)
        self._emit(CostUpdated(run_id=run_id, spent=spent, calls=calls, at=self.journal.clock.now()))

    def _ceiling_left(self, state: RunState) -> Decimal | None:
        if state.run.cost_ceiling is None:
            return None
        return state.run.cost_ceiling - self.journal.spent(state.run.run_id)

    def _run_tool(self, tools: RunTools, call: Call) -> Outcome:
        state = tools.state
        if call.name in TOOLS and call.name not in state.allowed:
            planned = call.name in state.run.plan.tools
            code = "tool_not_in_stage" if planned else "tool_not_in_plan"
            where = "used in this stage" if planned else "in this run's plan"
            refused = rejected([Problem(code, f"the tool '{call.name}' is not {where}",
                                        f"use one of: {', '.join(state.allowed)}")])  # fmt: skip
            return Outcome(refused.payload())
        result = call_tool(tools, call.name, call.arguments, call.parse_error)
        outcome = Outcome(result.payload(), result.evidence)
        # what a tool fetched or computed (a document, a calc result) is citable from the next submission on
        outcome.after = lambda: state.add_evidence(outcome.stored)
        return outcome


def _take(state: RunState, payload: str) -> None:
    """Take an accepted judgment from a tool result (live or replayed)."""
    result = json.loads(payload)
    if result.get("accepted") and "judgment" in result:
        state.take(result["judgment"], result["value"])
