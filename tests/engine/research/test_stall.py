"""The stall detector: a model that repeats the same tool call, takes turns that add nothing, or sends the same
rejected submission again and again pauses the run with that reason (and Continue carries on afterwards)."""

from __future__ import annotations

import json

from stockbench.research.engine import STALL_IDLE_TURNS, STALL_REPEATS
from stockbench.research.handbook import Handbook
from tests.engine.research.conftest import DEMO_SYMBOL, Lab
from tests.engine.research.scripted import Change, calls, text_only, with_arguments
from tests.llm_server.server import ToolCallSpec

UNKNOWN_EVIDENCE = "ev-000000000000000000000000"


def paused_for(lab: Lab, reason: str) -> str:
    research = lab.research()
    outcome = research.analyze(DEMO_SYMBOL, model="scripted")
    assert outcome.status == "paused", outcome
    assert outcome.reason.startswith(f"stalled: {reason}"), outcome.reason
    row = lab.status_rows(outcome.run_id)[-1]
    assert row.reason == outcome.reason and row.resume_at is None  # waits for Continue, no automatic resume
    return outcome.run_id


def test_the_same_tool_call_repeated_pauses(lab: Lab) -> None:
    lab.add_model()
    slug = next(iter(Handbook.load().references()))
    read = ToolCallSpec("methods_read", {"slug": slug, "page": 1}, id="call_read")
    lab.model.on("scene", *[calls(read)] * STALL_REPEATS)
    run_id = paused_for(lab, f"the same tool call was repeated {STALL_REPEATS} times")
    assert lab.model.stages == ["scene"] * STALL_REPEATS  # paused at once, not one request later
    reads = lab.tool_results(run_id, "scene/tool/")
    assert [r["name"] for _, r, _ in reads] == ["methods_read"] * STALL_REPEATS
    assert lab.research().resume(run_id).status == "published"  # Continue: the model moves on


def test_turns_that_add_nothing_pause(lab: Lab) -> None:
    lab.add_model()
    lab.model.on("scene", *[text_only("让我再想想。")] * (STALL_IDLE_TURNS + 1))
    run_id = paused_for(lab, f"{STALL_IDLE_TURNS} turns added no evidence and no accepted judgment")
    assert len(lab.model.stages) == STALL_IDLE_TURNS + 1
    nudges = [m for m in lab.server.chats[-1].messages if m["role"] == "user" and "不要只回复文字" in m["content"]]
    assert len(nudges) == STALL_IDLE_TURNS  # each empty turn was answered with a nudge to use the tools
    assert lab.research().resume(run_id).status == "published"


def test_the_same_validation_failure_over_and_over_pauses(lab: Lab) -> None:
    lab.add_model()

    def unknown_risk(text: str) -> Change:
        return with_arguments(lambda args: {**args, "risks": [{"text": text, "evidence": [UNKNOWN_EVIDENCE]}]})

    lab.model.on("decide", *(unknown_risk(t) for t in ("风险甲", "风险乙", "风险丙")))  # different calls
    run_id = paused_for(lab, f"the same validation failure came back {STALL_REPEATS} times")
    submissions = lab.tool_results(run_id, "decide/tool/")
    assert len(submissions) == STALL_REPEATS
    assert len({json.dumps(request) for _, request, _ in submissions}) == STALL_REPEATS
    assert {tuple(p["code"] for p in result["problems"]) for *_, result in submissions} == {("evidence_unknown",)}
    assert lab.research().resume(run_id).status == "published"
