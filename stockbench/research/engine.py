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
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from stockbench.errors import Problem, StockbenchError, UserError
from stockbench.events import Event, EventBus
from stockbench.evidence.documents import GateContext, OrderPlan, QuoteRef, grounding
from stockbench.evidence.numbers import NumberIndex
from stockbench.evidence.store import Evidence, EvidenceStore
from stockbench.evidence.untrusted import wrap
from stockbench.research import judgments as j
from stockbench.research.calc import calculate
from stockbench.research.conversation import Conversation, facts_message, stage_message
from stockbench.research.events import CostUpdated, RunPaused, StageFinished, StageStarted, SubtaskTitle
from stockbench.research.handbook import Handbook
from stockbench.research.journal import EvidenceItem, Journal, Outcome
from stockbench.research.plan import Plan
from stockbench.research.statements import previous_levels, zone_bounds
from stockbench.research.tools import STAGE_TOOLS, TOOLS, ToolResult, call_tool, rejected
from stockbench.research.validate import Checker, RunRules, accepted_payload

if TYPE_CHECKING:
    from stockbench.research.facts import ProgramFacts
    from stockbench.research.models import ModelPort

NETWORK_RETRY = timedelta(minutes=5)
MAX_AUTO_RESUMES = 3
STALL_REPEATS = 3
STALL_IDLE_TURNS = 8
STALL_TURNS_WITHOUT_JUDGMENT = 24  # reading may take turns, but a stage that accepts nothing for this long is stuck
PUBLISH_FIXES = 2  # rounds in which the model may fix what the publication gates found, before the run pauses
PUBLISH_PAUSE = "publication gates"
STAGES = ("prepare", "scene", "collect", "preprocess", "analyze", "decide", "report", "publish")


class Paused(Exception):
    def __init__(self, reason: str, *, network: bool = False) -> None:
        super().__init__(reason)
        self.reason, self.network = reason, network


class StopRequested(Exception):
    pass


@dataclass(frozen=True)
class RunRecord:
    run_id: str
    symbol: str
    kind: str
    question: str | None
    model: str
    account: str | None
    handbook_version: str
    plan: Plan
    cost_ceiling: Decimal | None
    as_of: datetime | None = None  # the replay instant of research of the past; None: the live market


class RunState:
    """One run's working state while it executes; rebuilt from the journal on every resume."""

    def __init__(self, engine: ResearchEngine, run: RunRecord, handbook: Handbook) -> None:
        self.engine, self.run, self.handbook = engine, run, handbook
        self.evidence: dict[str, Evidence] = {e.evidence_id: e for e in engine.store.for_run(run.run_id)}
        self.facts: dict[str, Any] = {}
        self.accepted: dict[str, Any] = {}
        self.arguments: dict[str, Any] = {}
        self.main = Conversation()
        self.baseline = Conversation()
        self.allowed: tuple[str, ...] = ()
        self.side: str = ""
        self._index: NumberIndex | None = None
        self.values: dict[str, Any] = {}  # evidence id -> its values for citation checks (bodies never change)
        self.accepted_count = 0  # accepted submissions so far (live or replayed): progress, for stall checks

    # ---- evidence ------------------------------------------------------------------------------
    def add_evidence(self, stored: list[Evidence]) -> None:
        for item in stored:
            self.evidence.setdefault(item.evidence_id, item)
        if stored:
            self._index = None

    def refresh_evidence(self) -> None:
        self.add_evidence(self.engine.store.for_run(self.run.run_id))

    @property
    def index(self) -> NumberIndex:
        if self._index is None:
            self._index = grounding(self.evidence)
        return self._index

    def checker(self) -> Checker:
        prepare, analytics = self.facts.get("prepare", {}), self.facts.get("analytics", {})
        ctx = GateContext(
            self.run.run_id, self.evidence, (), (), (), {}, {},
            zone_bounds=zone_bounds(analytics.get("zones") or {}),
            lot=(prepare.get("instrument") or {}).get("lot"),
            previous_levels=previous_levels(prepare),
            _index=self.index, _values=self.values,
        )  # fmt: skip
        levels = sorted(ctx.levels())
        orders = tuple(
            OrderPlan(o["account"], o["symbol"], o["side"], int(o["qty"]), Decimal(o["price"]))
            for o in (self.facts.get("orders") or {}).get("orders", [])
        )
        rules = RunRules(
            subject=self.run.symbol,
            ctx=ctx,
            orders=orders,
            gaps=bool(prepare.get("gaps")),
            known_symbol=self.engine.facts.known_symbol,
            check_order=self.engine.facts.order_checker(self) if self.run.account else None,
            account=self.run.account,
            reference=levels[len(levels) // 2] if levels else None,
            announcements=frozenset(a["id"] for a in prepare.get("announcements", [])),
            quotes=tuple(
                QuoteRef(q["text"], q["evidence_id"], f"diagnosis.quotes[{i}]")
                for i, q in enumerate((self.accepted.get("diagnosis") or {}).get("quotes", []))
            ),
        )
        return Checker(self.evidence, self.index, self.facts, rules)

    # ---- reading tools -------------------------------------------------------------------------
    def tool_methods_read(self, params: Any) -> ToolResult:
        text, pages = self.handbook.read(params.slug, params.page)
        return ToolResult({"slug": params.slug, "page": params.page, "pages": pages, "text": text})

    def tool_evidence_read(self, params: Any) -> ToolResult:
        found = self.evidence.get(params.evidence_id)
        if found is None:
            return rejected(
                [
                    Problem(
                        "evidence_unknown",
                        f"{params.evidence_id} is not evidence of this run",
                        "use an id from the facts or a tool result",
                    )
                ]
            )
        size = 8000
        body = found.body[(params.page - 1) * size : params.page * size]
        pages = max(1, -(-len(found.body) // size))
        text = wrap(found, body) if found.media_type == "text/plain" else body
        return ToolResult(
            {"evidence_id": found.evidence_id, "kind": found.kind, "page": params.page, "pages": pages, "body": text}
        )

    def tool_calc(self, params: Any) -> ToolResult:
        inputs = {name: {"evidence_id": ref.evidence_id, "path": ref.path} for name, ref in params.inputs.items()}
        record = calculate(params.expression, inputs, self.evidence, params.unit)
        item = EvidenceItem("computation", "calc", record, f"calc {params.expression}")
        from stockbench.evidence.store import canonical_json, evidence_id_for

        evidence_id = evidence_id_for(canonical_json(record))
        return ToolResult(
            {"accepted": True, "value": record["value"], "unit": record["unit"], "evidence_id": evidence_id}, [item]
        )

    def tool_documents_read(self, params: Any) -> ToolResult:
        return self.engine.facts.read_document(self, params.announcement_id)

    def tool_search(self, params: Any) -> ToolResult:
        return self.engine.facts.search(self, params.terms)

    # ---- submissions ---------------------------------------------------------------------------
    def _verdict(self, kind: str, value: j.Strict, problems: list[Problem]) -> ToolResult:
        if problems:
            return rejected(problems)
        return ToolResult(accepted_payload(kind, value.model_dump(mode="json")))

    def submit_scene(self, params: j.Scene) -> ToolResult:
        return self._verdict("scene", params, self.checker().scene(params))

    def submit_diagnosis(self, params: j.Diagnosis) -> ToolResult:
        return self._verdict("diagnosis", params, self.checker().diagnosis(params))

    def submit_arguments(self, params: j.Arguments) -> ToolResult:
        return self._verdict(f"arguments_{self.side}", params, self.checker().arguments(params, self.side))

    def submit_judgments(self, params: j.Judgments) -> ToolResult:
        problems = self.checker().judgments(params)
        if problems:
            return rejected(problems)
        given = {k: v for k, v in params.model_dump(mode="json").items() if v is not None}
        return ToolResult(
            {
                "accepted": True,
                "judgment": "judgments",
                "value": given,
                "still_needed": [k for k in self.required_decisions() if k not in {**self.accepted, **given}],
            }
        )

    def submit_report(self, params: j.ReportText) -> ToolResult:
        checker = self.checker()
        problems = checker.statements("report", params.model_dump(mode="json"))
        problems += [
            Problem("evidence_unknown", f"report.evidence cites {e}, not evidence of this run", "cite this run's ids")
            for e in params.evidence
            if e not in self.evidence
        ]
        return self._verdict("report", params, problems)

    def required_decisions(self) -> list[str]:
        needed = list(j.DECIDE_REQUIRED)
        if self.facts.get("prepare", {}).get("gaps"):
            needed.append("gaps")
        return needed

    def absorb(self, payload: str) -> None:
        """Take accepted judgments from a tool result (live or replayed)."""
        result = json.loads(payload)
        if not result.get("accepted") or "judgment" not in result:
            return
        kind, value = result["judgment"], result["value"]
        self.accepted_count += 1
        if kind == "judgments":
            self.accepted.update(value)
        elif kind.startswith("arguments_"):
            self.arguments[kind.removeprefix("arguments_")] = value
        else:
            self.accepted[kind] = value


class ResearchEngine:
    """Runs research for one workspace."""

    def __init__(  # noqa: PLR0917 - the services a run needs
        self,
        journal: Journal,
        store: EvidenceStore,
        facts: ProgramFacts,
        models: Callable[[str], ModelPort],
        events: EventBus,
        compose: Callable[[RunState, str], str | list[Problem]],
    ) -> None:
        self.journal, self.store, self.facts, self.models, self.events = journal, store, facts, models, events
        self.compose = compose

    # ---- the run ---------------------------------------------------------------------------------
    def run(self, run: RunRecord, handbook: Handbook) -> str:
        """Execute or resume `run`; return its status (published, paused, stopped, failed)."""
        state = RunState(self, run, handbook)
        stage = "prepare"
        try:
            for stage in STAGES:
                if stage not in run.plan.stages:
                    continue
                self._check_stop(run.run_id)
                self.journal.set_status(run.run_id, "running", stage)
                self._emit(StageStarted(run_id=run.run_id, stage=stage, at=self.journal.clock.now()))
                getattr(self, f"_stage_{stage}")(state)
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
            import logging

            logging.getLogger(__name__).exception("run %s failed in %s", run.run_id, stage)
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
    def _program(
        self, state: RunState, key: str, *, title: str, compute: Callable[[], tuple[dict[str, Any], list[EvidenceItem]]]
    ) -> dict[str, Any]:
        """A journaled program action whose result is a facts block."""
        self._title(state, title)

        def execute(_: str) -> Outcome:
            facts, items = compute()
            return Outcome(json.dumps(facts, ensure_ascii=False, sort_keys=True), items)

        payload = self.journal.act(state.run.run_id, key, "program", key, execute)
        state.refresh_evidence()
        result: dict[str, Any] = json.loads(payload)
        return result

    def _stage_prepare(self, state: RunState) -> None:
        run = state.run
        facts = self._program(
            state,
            "prepare/facts",
            title="Clock, identity, ledger and data gates",
            compute=lambda: self.facts.prepare(run.symbol, run.account, run.plan, state.handbook),
        )
        state.facts["prepare"] = facts
        system = self.facts.system_prompt(state.handbook)
        state.main.add({"role": "system", "content": system})
        state.main.add(facts_message("prepare", facts, self.facts.preface(run)))

    def _stage_scene(self, state: RunState) -> None:
        spec = {"stage": "scene", "required": ["submit_scene"], "tools": list(STAGE_TOOLS["scene"])}
        state.main.add(stage_message("scene", spec, self.facts.instructions("scene", state.handbook)))
        self.converse(state, state.main, "scene", STAGE_TOOLS["scene"], lambda: "scene" in state.accepted)

    def _stage_collect(self, state: RunState) -> None:
        scene = state.accepted.get("scene", {})
        facts = self._program(
            state,
            "collect/facts",
            title="Fetching what the scene implies",
            compute=lambda: self.facts.collect(state.run.symbol, scene, state.run.plan),
        )
        state.facts["collect"] = facts
        state.main.add(facts_message("collect", facts))

    def _stage_preprocess(self, state: RunState) -> None:
        scene = state.accepted.get("scene", {})
        facts = self._program(
            state,
            "preprocess/facts",
            title="Indicators, states, zones, backtest and scenarios",
            compute=lambda: self.facts.compute_analytics(state.run.symbol, state.run.account, scene, state.facts),
        )
        state.facts["analytics"] = facts
        state.main.add(facts_message("analytics", facts))

    # ---- model stages ------------------------------------------------------------------------------
    def _stage_analyze(self, state: RunState) -> None:
        state.baseline = state.main.fork()  # the shared fact baseline: the sub-studies never see the main draft
        for side in ("bull", "bear"):
            self._sub_study(state, side, state.baseline, f"analyze/{side}")
        spec = {"stage": "analyze", "required": ["submit_diagnosis"]}
        state.main.add(stage_message("analyze", spec, self.facts.instructions("analyze", state.handbook)))
        self.converse(state, state.main, "analyze/main", STAGE_TOOLS["analyze"], lambda: "diagnosis" in state.accepted)
        self._revalidate_sub_studies(state)
        state.main.add(
            facts_message("debate", {"bull": state.arguments.get("bull", {}), "bear": state.arguments.get("bear", {})})
        )

    def _sub_study(self, state: RunState, side: str, base: Conversation, key: str) -> None:
        fork = base.fork()
        spec = {"stage": side, "required": ["submit_arguments"], "side": side}
        fork.add(stage_message(side, spec, self.facts.instructions(side, state.handbook)))
        state.side = side
        self._title(state, f"{side.upper()} sub-study")
        state.arguments.pop(side, None)
        self.converse(state, fork, key, STAGE_TOOLS[side], functools.partial(_has, state.arguments, side))
        state.side = ""

    def _revalidate_sub_studies(self, state: RunState) -> None:
        """Refresh the quote; a sub-study that cited the old version of a source whose body changed is redone.

        New evidence from another source does not invalidate anything: only a changed version of cited evidence.
        """
        old = state.facts.get("prepare", {}).get("quote", {})
        refreshed = self._program(
            state, "analyze/refresh", title="Refreshing the quote",
            compute=lambda: self.facts.refresh_quote(state.run.symbol),
        )  # fmt: skip
        if not old or refreshed.get("evidence_id") in (None, old.get("evidence_id")):
            return
        base = state.baseline.fork()
        base.add(facts_message("refresh", {"quote": refreshed}, "行情已更新：引用旧行情的子研究需重做。"))
        for side in ("bull", "bear"):
            cited = {e for a in state.arguments.get(side, {}).get("arguments", []) for e in a.get("evidence", [])}
            if old.get("evidence_id") in cited:
                self._sub_study(state, side, base, f"analyze/{side}/redo")

    def _stage_decide(self, state: RunState) -> None:
        spec = {"stage": "decide", "required": state.required_decisions()}
        state.main.add(stage_message("decide", spec, self.facts.instructions("decide", state.handbook)))
        self.converse(
            state,
            state.main,
            "decide",
            STAGE_TOOLS["decide"],
            lambda: all(k in state.accepted for k in state.required_decisions()),
        )
        orders = self._program(
            state,
            "decide/orders",
            title="Sizing orders against the ledger",
            compute=lambda: self.facts.size_orders(state.run, state.accepted, state.facts),
        )
        state.facts["orders"] = orders
        state.main.add(facts_message("orders", orders))

    def _stage_report(self, state: RunState) -> None:
        spec = {"stage": "report", "required": ["submit_report"]}
        state.main.add(stage_message("report", spec, self.facts.instructions("report", state.handbook)))
        self.converse(state, state.main, "report", STAGE_TOOLS["report"], lambda: "report" in state.accepted)

    def _stage_publish(self, state: RunState) -> None:
        """Every gate in one pass. What the gates find goes back to the model to fix (a few rounds); then the run
        pauses with the problems, and Continue gives the model another round: a paused run can always go on."""
        self._title(state, "Publication gates")
        rounds = self.journal.pauses(state.run.run_id, PUBLISH_PAUSE)
        found: list[Problem] = []
        for round_ in range(rounds + 1):
            for attempt in range(PUBLISH_FIXES + 1):
                suffix = "" if round_ == attempt == 0 else f"/{round_}.{attempt}"
                published = self.compose(state, f"publish/gates{suffix}")
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
        self.converse(state, state.main, key, STAGE_TOOLS["publish_fix"], lambda: state.accepted_count > before)
        orders = self._program(
            state,
            f"{key}/orders",
            title="Sizing orders against the ledger",
            compute=lambda: self.facts.size_orders(state.run, state.accepted, state.facts),
        )
        state.facts["orders"] = orders

    # ---- the model loop ------------------------------------------------------------------------------
    def converse(
        self, state: RunState, conv: Conversation, key: str, tools: tuple[str, ...], done: Callable[[], bool]
    ) -> None:
        """Model turns until `done()`; each call and each tool result is a journaled action."""
        model = self.models(state.run.model)
        # Every call offers the same tools (all the plan allows), so the prompt prefix stays byte-identical from
        # stage to stage and provider caches hit; what this stage may use is enforced when a tool is called.
        schemas = [TOOLS[name].schema() for name in TOOLS if name in state.run.plan.tools]
        tools = tuple(name for name in tools if name in state.run.plan.tools)
        state.allowed = tools
        stall = StallDetector()
        turn = 0
        while not done():
            turn += 1
            self._check_stop(state.run.run_id)
            call_key = f"{key}/model/{turn}"
            request = model.request(conv.messages, schemas)
            payload = self.journal.act(
                state.run.run_id, call_key, "model_call", request, lambda req: self._call_model(state, model, req)
            )
            live = call_key in self.journal.executed
            response = model.parse(payload)
            conv.add(response.assistant_message())
            if not response.tool_calls:
                conv.add({"role": "user", "content": self.facts.nudge(tools)})
            for call in response.tool_calls:
                result = self.journal.act(
                    state.run.run_id,
                    f"{key}/tool/{turn}/{call.id}",
                    "tool_call",
                    json.dumps({"name": call.name, "arguments": call.arguments_text}, ensure_ascii=False),
                    functools.partial(self._tool_action, state, call),
                )
                state.absorb(result)
                conv.add({"role": "tool", "tool_call_id": call.id, "content": result})
                if live:
                    stall.observe(call.name, call.arguments_text, result)
            if live:
                read = sum(1 for e in state.evidence.values() if e.source != "calc")  # calc results are the model's
                stall.turn_ended(read, state.accepted_count)
                if (reason := stall.reason()) is not None:
                    raise Paused(f"stalled: {reason}")

    def _call_model(self, state: RunState, model: ModelPort, request: str) -> Outcome:
        try:
            text, cost = model.complete(request, ceiling_left=self._ceiling_left(state))
        except UserError as error:
            network = bool(getattr(error, "network_class", False))
            raise Paused(error.message, network=network) from error
        return Outcome(text, cost=cost, after=lambda: self._cost_event(state))

    def _cost_event(self, state: RunState) -> None:
        calls = int(self.journal.db.scalar(
            "SELECT count(*) FROM run_events WHERE run_id = ? AND kind = 'model_call' AND phase = 'result'",
            [state.run.run_id],
        ))  # fmt: skip
        spent = self.journal.spent(state.run.run_id)
        self._emit(CostUpdated(run_id=state.run.run_id, spent=spent, calls=calls, at=self.journal.clock.now()))

    def _ceiling_left(self, state: RunState) -> Decimal | None:
        if state.run.cost_ceiling is None:
            return None
        return state.run.cost_ceiling - self.journal.spent(state.run.run_id)

    def _tool_action(self, state: RunState, call: Any, _request: str) -> Outcome:
        return self._run_tool(state, call)

    def _run_tool(self, state: RunState, call: Any) -> Outcome:
        if call.name in TOOLS and call.name not in state.allowed:
            planned = call.name in state.run.plan.tools
            refused = rejected([Problem("tool_not_in_stage" if planned else "tool_not_in_plan",
                                        f"the tool '{call.name}' is not " + ("used in this stage" if planned else
                                                                             "in this run's plan"),
                                        f"use one of: {', '.join(state.allowed)}")])  # fmt: skip
            return Outcome(refused.payload())
        result = call_tool(state, call.name, call.arguments, call.parse_error)
        outcome = Outcome(result.payload(), result.evidence)
        # what a tool fetched or computed (a document, a calc result) is citable from the next submission on
        outcome.after = lambda: state.add_evidence(outcome.stored)
        return outcome


def _has(found: dict[str, Any], key: str) -> bool:
    return key in found


class StallDetector:
    """Pauses loops: identical repeated tool calls, turns that add nothing, the same rejection again and again."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.rejections: list[str] = []
        self.idle = 0
        self.unaccepted = 0
        self.last = (-1, -1)

    def observe(self, name: str, arguments: str, result: str) -> None:
        self.calls.append(f"{name}:{arguments}")
        parsed = json.loads(result)
        if parsed.get("accepted") is False:
            self.rejections.append(json.dumps(sorted(p["code"] for p in parsed.get("problems", []))))
        else:
            self.rejections.append("")

    def turn_ended(self, evidence: int, accepted: int) -> None:
        """Progress is an accepted judgment or evidence read from outside the model (never a calc of its own)."""
        progress = (evidence, accepted)
        self.idle = 0 if progress != self.last else self.idle + 1
        self.unaccepted = 0 if accepted != self.last[1] else self.unaccepted + 1
        self.last = progress

    def reason(self) -> str | None:
        if len(self.calls) >= STALL_REPEATS and len(set(self.calls[-STALL_REPEATS:])) == 1:
            return f"the same tool call was repeated {STALL_REPEATS} times"
        recent = self.rejections[-STALL_REPEATS:]
        if len(recent) == STALL_REPEATS and recent[0] and len(set(recent)) == 1:
            return f"the same validation failure came back {STALL_REPEATS} times: {recent[0]}"
        if self.idle >= STALL_IDLE_TURNS:
            return f"{STALL_IDLE_TURNS} turns added no evidence and no accepted judgment"
        if self.unaccepted >= STALL_TURNS_WITHOUT_JUDGMENT:
            return f"{STALL_TURNS_WITHOUT_JUDGMENT} turns brought no accepted judgment"
        return None


def failure_reason(error: BaseException) -> str:
    if isinstance(error, UserError):
        return error.message
    if isinstance(error, StockbenchError):
        return f"internal error: {error}"
    return f"{type(error).__name__}: {error}"
