"""What a tool answers: a result for the model, the evidence it produced, or a refusal with the problems.

Retryable errors (bad arguments, a rejected judgment) go back to the model as a result with `accepted: false`
and the problems with their fixes; nothing the model sends is ever rewritten by the program.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from stockbench.errors import Problem
from stockbench.research.records import EvidenceItem


@dataclass
class ToolResult:
    content: dict[str, Any]
    evidence: Sequence[EvidenceItem] = ()

    def payload(self) -> str:
        return json.dumps(self.content, ensure_ascii=False, sort_keys=True)


def rejected(problems: Sequence[Problem]) -> ToolResult:
    return ToolResult({"accepted": False, "problems": [p.as_dict() for p in problems]})
