"""The tools the model may call: typed functions whose JSON schemas come from their parameter models.

A tool's docstring is what the model reads. Retryable errors (bad arguments, a rejected judgment) go back
to the model as a result with `accepted: false` and the problems with their fixes; nothing the model sends
is ever rewritten by the program.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field, ValidationError

from stockbench.errors import Problem, UserError
from stockbench.research import judgments as j
from stockbench.research.journal import EvidenceItem

if TYPE_CHECKING:
    from stockbench.research.engine import RunState

log = logging.getLogger(__name__)


class MethodsRead(j.Strict):
    """Read one page of a handbook reference document (see the table of contents in the system message)."""

    slug: str
    page: int = 1


class EvidenceRead(j.Strict):
    """Read the full body of an evidence item of this run (documents come back inside untrusted delimiters)."""

    evidence_id: str
    page: int = 1


class CalcInput(j.Strict):
    evidence_id: str
    path: str = Field(description="A JSON path into the evidence, e.g. $.last or $.bars[3].close")


class Calc(j.Strict):
    """Compute a derived number from evidence values; cite the returned evidence id wherever you use it.

    Every operand is an input read from this run's evidence (evidence_id + JSON path) or one of the constants
    1, 2, 3, 4, 5, 10, 12, 20, 60, 100, 250, 252, 365, 1000, 10000, 100000000. The result's unit follows from
    the operands (a difference of two percentages is percentage points; a ratio times 100 is a percentage)."""

    expression: str = Field(description="Arithmetic over the input names, e.g. (a - b) / b * 100")
    inputs: dict[str, CalcInput]
    unit: str | None = Field(
        default=None, description="Optional: plain | pct | fraction | pp | multiple; must agree with the operands."
    )


class DocumentsRead(j.Strict):
    """Fetch the full text of an announcement (by its id in the facts) so it can be read and quoted."""

    announcement_id: str


class Search(j.Strict):
    """Search for policy background or topics; results are candidates until a document is read in full."""

    terms: list[str]


@dataclass
class ToolResult:
    content: dict[str, Any]
    evidence: Sequence[EvidenceItem] = ()
    accepted: dict[str, Any] = field(default_factory=dict)  # judgment type -> validated value

    def payload(self) -> str:
        return json.dumps(self.content, ensure_ascii=False, sort_keys=True)


@dataclass(frozen=True)
class Tool:
    name: str
    params: type[BaseModel]
    handler_name: str  # a RunState method; bound at call time

    def schema(self) -> dict[str, Any]:
        found: dict[str, Any] = json.loads(_schema_text(self.name, self.params))  # a fresh copy for each request
        return found


@functools.cache
def _schema_text(name: str, params: type[BaseModel]) -> str:
    """A tool's JSON schema, generated once per process (pydantic takes milliseconds per model, every turn)."""
    description = (params.__doc__ or name).strip()
    function = {"name": name, "description": description, "parameters": params.model_json_schema()}
    schema = {"type": "function", "function": function}
    return json.dumps(schema, ensure_ascii=False)


TOOLS: dict[str, Tool] = {
    tool.name: tool
    for tool in (
        Tool("methods_read", MethodsRead, "tool_methods_read"),
        Tool("evidence_read", EvidenceRead, "tool_evidence_read"),
        Tool("calc", Calc, "tool_calc"),
        Tool("documents_read", DocumentsRead, "tool_documents_read"),
        Tool("search", Search, "tool_search"),
        Tool("submit_scene", j.Scene, "submit_scene"),
        Tool("submit_diagnosis", j.Diagnosis, "submit_diagnosis"),
        Tool("submit_arguments", j.Arguments, "submit_arguments"),
        Tool("submit_judgments", j.Judgments, "submit_judgments"),
        Tool("submit_report", j.ReportText, "submit_report"),
    )
}
READING = ("methods_read", "evidence_read", "calc")
STAGE_TOOLS: dict[str, tuple[str, ...]] = {
    "scene": ("submit_scene", "methods_read", "evidence_read"),
    "bull": ("submit_arguments", *READING),
    "bear": ("submit_arguments", *READING),
    "analyze": ("submit_diagnosis", "documents_read", "search", *READING),
    "decide": ("submit_judgments", *READING),
    "report": ("submit_report", *READING),
    "publish_fix": ("submit_judgments", "submit_report", "submit_diagnosis", *READING),
}


def rejected(problems: Sequence[Problem]) -> ToolResult:
    return ToolResult({"accepted": False, "problems": [p.as_dict() for p in problems]})


def call_tool(state: RunState, name: str, arguments: dict[str, Any] | None, parse_error: str | None) -> ToolResult:
    """Validate the arguments against the tool's model and run it; errors become problems for the model."""
    tool = TOOLS.get(name)
    if tool is None:
        return rejected([Problem("unknown_tool", f"there is no tool '{name}'", f"use one of: {', '.join(TOOLS)}")])
    if arguments is None:
        return rejected(
            [
                Problem(
                    "malformed_arguments",
                    f"the arguments of {name} are not valid JSON: {parse_error}",
                    "send the arguments as one JSON object matching the schema",
                )
            ]
        )
    try:
        params = tool.params.model_validate(arguments)
    except ValidationError as error:
        problems = [
            Problem(
                "invalid_arguments",
                f"{'.'.join(str(p) for p in e['loc']) or name}: {e['msg']}",
                "fix the field and call again",
                ".".join(str(p) for p in e["loc"]),
            )
            for e in error.errors()
        ]
        return rejected(problems)
    handler: Callable[[BaseModel], ToolResult] = getattr(state, tool.handler_name)
    try:
        return handler(params)
    except UserError as error:
        return rejected([Problem(error.code, error.message, error.hint)])
    except Exception as error:  # a tool that raises is an answer to the model, never a dead run; the log has it
        log.exception("tool %s failed", name)
        return rejected(
            [
                Problem(
                    "tool_failed",
                    f"the tool {name} failed: {type(error).__name__}",
                    "check the arguments, or go on without this tool and disclose it",
                )
            ]
        )
