"""The faults a case injects: data removed from the case's workspace before the run, and a model port wrapper
that fails or spoils the model's answers in one stage, for any model (the offline one or a configured LLM).

A spoiled answer is what the model is then told it said: the journal stores it, the engine rejects it with
its problems, and the case checks that the model's next submission fixes it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from stockbench.errors import InternalError
from stockbench.evals.cases import Fault
from stockbench.evals.cheats import cheat_payload
from stockbench.llm import ModelUnavailable
from stockbench.research.conversation import current_stage
from stockbench.research.models import ModelPort, Reply
from stockbench.store.database import Database

DROPPABLE = {
    "financials": "financials",
    "money_flow": "money_flow",
    "valuation": "valuation",
    "announcements": "announcements",
}
FAKE_EVIDENCE = "ev-000000000000000000000000"
INVENTED = "目标价 987.65 元"


def drop_data(db: Database, symbol: str, fault: Fault) -> int:
    """Remove one kind of cached data of `symbol`, so the data gates find a gap; return the rows removed."""
    table = DROPPABLE.get(fault.data)
    if table is None:
        raise InternalError(f"a drop_data fault names '{fault.data}', not one of {', '.join(DROPPABLE)}")
    removed = int(db.scalar(f"SELECT count(*) FROM {table} WHERE symbol = ?", [symbol]))
    with db.transaction() as cur:
        cur.execute(f"DELETE FROM {table} WHERE symbol = ?", [symbol])
    return removed


def _cited_items(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        if isinstance(value.get("text"), str) and isinstance(value.get("evidence"), list):
            yield value
        for item in value.values():
            yield from _cited_items(item)
    elif isinstance(value, list):
        for item in value:
            yield from _cited_items(item)


def spoil(arguments: dict[str, Any]) -> bool:
    """Make a submission wrong the way models get it wrong: its first cited statement gains an invented number
    and cites evidence that does not exist (a report text gains the number). False when nothing could be spoiled."""
    first = next(_cited_items(arguments), None)
    if first is not None:
        first["text"] = f"{first['text']}（{INVENTED}）"
        first["evidence"] = [FAKE_EVIDENCE]
        return True
    if isinstance(arguments.get("conclusion"), str):
        arguments["conclusion"] += f"（{INVENTED}）"
        return True
    return False


def spoil_payload(payload: str) -> str | None:
    """The reply payload with its first spoilable submission spoiled (None when it holds none)."""
    data = json.loads(payload)
    for call in data.get("tool_calls", []):
        if not str(call.get("name", "")).startswith("submit_"):
            continue
        try:
            arguments = json.loads(call["arguments"])
        except json.JSONDecodeError:
            continue
        if isinstance(arguments, dict) and spoil(arguments):
            call["arguments"] = json.dumps(arguments, ensure_ascii=False)
            return json.dumps(data, ensure_ascii=False, sort_keys=True)
    return None


class FaultPort:
    """A model port that passes through to `inner`, except for `fault` in the stage it names."""

    def __init__(self, inner: ModelPort, fault: Fault | None) -> None:
        self.inner, self.fault = inner, fault
        self.name, self.offline = inner.name, inner.offline
        self.left = fault.times if fault is not None and fault.kind != "drop_data" else 0
        self.stage = ""
        self.injected: list[str] = []  # the stages where the fault struck, in order

    def request(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> str:
        found = current_stage(messages)
        self.stage = found[0] if found else ""
        return self.inner.request(messages, tools)

    def parse(self, payload: str) -> Reply:
        return self.inner.parse(payload)

    def estimate(self, input_tokens: int, output_tokens: int) -> Decimal | None:
        estimate = getattr(self.inner, "estimate", None)
        return None if estimate is None else estimate(input_tokens, output_tokens)

    def _due(self) -> bool:
        return self.fault is not None and self.left > 0 and self.stage == self.fault.stage

    def complete(self, request: str, *, ceiling_left: Decimal | None) -> tuple[str, Decimal | None]:
        if self._due() and self.fault is not None and self.fault.kind == "network":
            self.left -= 1
            self.injected.append(self.stage)
            raise ModelUnavailable("simulated: the provider did not answer (eval fault)", network_class=True)
        payload, cost = self.inner.complete(request, ceiling_left=ceiling_left)
        if self._due() and self.fault is not None and self.fault.kind == "cheat":
            cheated = cheat_payload(self.fault.cheat, payload, request, self.fault.times - self.left)
            if cheated is not None:
                self.left -= 1
                self.injected.append(self.stage)
                return cheated, cost
            return payload, cost
        if self._due():
            spoiled = spoil_payload(payload)
            if spoiled is not None:
                self.left -= 1
                self.injected.append(self.stage)
                return spoiled, cost
        return payload, cost
