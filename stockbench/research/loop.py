"""The conversation loop: model turns until a stage is done, each call and each tool result a journaled action.

One loop for every kind of run (the full analysis's stages and sub-studies, the quick review): the request is
built from the conversation, the call and every tool call are journaled (so a resumed run replays them and sends
nothing twice), a turn without a tool call is answered with a nudge, and a stall detector pauses a loop that
makes no progress. Only live turns feed the detector: replaying a journal never pauses a run.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from stockbench.research.conversation import Conversation
from stockbench.research.journal import Journal
from stockbench.research.models import Call, ModelPort
from stockbench.research.records import Outcome
from stockbench.research.state import Paused

STALL_REPEATS = 3
STALL_IDLE_TURNS = 8
STALL_TURNS_WITHOUT_JUDGMENT = 24  # reading may take turns, but a stage that accepts nothing for this long is stuck


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


@dataclass
class Exchange:
    """What one conversation loop talks through: the run's journal and model port, and the run's answers to the
    model (its tool calls, its progress, a stop check)."""

    journal: Journal
    run_id: str
    port: ModelPort
    schemas: list[dict[str, object]]
    call_model: Callable[[str], Outcome]  # the model call for a stored request (with any cost contract)
    answer: Callable[[Call], Outcome]  # a tool call's outcome
    on_result: Callable[[Call, str], None]  # each tool result, live or replayed (take accepted judgments)
    progress: Callable[[], tuple[int, int]]  # (evidence read from outside, accepted submissions) after a turn
    nudge: str  # the answer to a turn with no tool call
    check_stop: Callable[[], None] = lambda: None


def converse(exchange: Exchange, conv: Conversation, key: str, done: Callable[[], bool]) -> None:
    """Model turns until `done()`; each call and each tool result is a journaled action under `key`."""
    stall = StallDetector()
    turn = 0
    journal, run_id, port = exchange.journal, exchange.run_id, exchange.port
    while not done():
        turn += 1
        exchange.check_stop()
        request = port.request(conv.messages, exchange.schemas)
        reply = journal.act(run_id, f"{key}/model/{turn}", "model_call", request, exchange.call_model)
        response = port.parse(reply)
        conv.add(response.assistant_message())
        if not response.tool_calls:
            conv.add({"role": "user", "content": exchange.nudge})
        for call in response.tool_calls:
            asked = json.dumps({"name": call.name, "arguments": call.arguments_text}, ensure_ascii=False)
            result = journal.act(run_id, f"{key}/tool/{turn}/{call.id}", "tool_call", asked,
                                 lambda _, call=call: exchange.answer(call))  # type: ignore[misc]  # fmt: skip
            exchange.on_result(call, result)
            conv.add({"role": "tool", "tool_call_id": call.id, "content": result})
            if reply.live:
                stall.observe(call.name, call.arguments_text, result)
        if reply.live:
            stall.turn_ended(*exchange.progress())
            if (reason := stall.reason()) is not None:
                raise Paused(f"stalled: {reason}")
