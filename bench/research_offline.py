"""A full offline analysis on the demo market: program time in total and per stage, against the same program work
called directly.

Setup (not timed): the demo market built in a temporary folder, and one warm-up analysis (imports, rule tables,
calendars). Timed: `Research.analyze` of the demo symbol with the offline rules model (plan, prepare, scene,
collect, preprocess, analyze, decide, report, publish), each stage timed from the engine's StageStarted and
StageFinished events (the journal's own timestamps come from the demo's frozen replay clock, so they cannot time
anything); the median of several runs. Reference: the program's own work for the same analysis, called directly
without the engine: the prepare facts (clock, identity, ledger, quote, data gates, announcements), the collect
facts (sector index, peers, announcement texts) and the analytics (indicators, states, valuation, backtest,
baseline, zones, scenarios, position state). The ratio is what the research engine adds on top of work it has to
do anyway: the journal (an intent and a result per action, evidence in the same transaction), the conversation
and the offline model's turns, the judgment checks and every publication gate.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

from bench.harness import Result, benchmark, median_seconds
from stockbench.clock import today_in
from stockbench.events import Event
from stockbench.research.blocks import RunFacts
from stockbench.research.events import StageFinished, StageStarted
from stockbench.research.handbook import Handbook
from stockbench.research.judgments import Cited, Scene
from stockbench.research.plan import build_plan
from stockbench.workbench import Workbench

SYMBOL = "605903.SH"
RUNS = 5
TARGET = 3.0  # the engine may cost at most twice again the program work itself


def build_demo(folder: Path) -> Path:
    from stockbench.data.demo import ensure_demo
    from stockbench.store.workspace import Workspace

    home = folder / "demo"
    with Workspace.open(home, kind="demo") as workspace:
        ensure_demo(workspace)
    return home


class StageTimer:
    """Wall time per stage, from the engine's events."""

    def __init__(self) -> None:
        self.started: dict[str, float] = {}
        self.seconds: dict[str, list[float]] = defaultdict(list)

    def __call__(self, event: Event) -> None:
        if isinstance(event, StageStarted):
            self.started[event.stage] = time.perf_counter()
        elif isinstance(event, StageFinished):
            self.seconds[event.stage].append(time.perf_counter() - self.started.pop(event.stage))


def direct_program_work(bench: Workbench) -> None:
    """The facts the run computes, called directly: no journal, no model, no gates."""
    facts = bench.research.facts
    instrument = bench.market.registry.instrument(SYMBOL)
    plan = build_plan(model="offline", question=None, today=today_in(bench.clock, instrument.market),
                      estimate=lambda *_: Decimal(0))  # fmt: skip
    prepared, _ = facts.prepare(SYMBOL, None, plan, Handbook.load())
    scene = Scene(
        sector_index=prepared["sector_default"],
        overseas_bound=False,
        peers=list(prepared["peer_candidates"][:3]),
        announcements_to_read=[a["id"] for a in prepared["announcements"][:3]],
        rationale=Cited(text="bench", evidence=[]),
    )
    facts.collect(SYMBOL, scene, plan)
    facts.compute_analytics(SYMBOL, None, scene, RunFacts.of({"prepare": prepared}))


@benchmark("research_offline")
def research_offline() -> Result:
    with tempfile.TemporaryDirectory() as folder:
        home = build_demo(Path(folder))
        with Workbench.open(home) as bench:
            timer = StageTimer()
            bench.events.subscribe(Event, timer)
            outcome = bench.research.analyze(SYMBOL)  # warm-up
            assert outcome.status == "published", outcome
            timer.seconds.clear()
            totals = []
            for _ in range(RUNS):
                start = time.perf_counter()
                outcome = bench.research.analyze(SYMBOL)
                totals.append(time.perf_counter() - start)
                assert outcome.status == "published", outcome
            reference = median_seconds(lambda: direct_program_work(bench), repeat=RUNS)
            ours = statistics.median(totals)
            stages = {s: statistics.median(v) for s, v in timer.seconds.items()}
    notes = {"stages": ", ".join(f"{s} {v * 1000:.0f} ms" for s, v in stages.items())}
    notes["outside stages"] = f"{(ours - sum(stages.values())) * 1000:.0f} ms (plan, run record, handbook)"
    return Result("research_offline", ours, reference, "s", TARGET, notes)
