"""The tools the model may call: plain typed functions over a small context; the JSON schema the model sees comes
from each function's signature and docstring (a submission tool takes one judgment model: its fields are the
tool's parameters).

A tool's docstring is what the model reads. Retryable errors (bad arguments, a rejected judgment, a tool that
raises) go back to the model as a result with `accepted: false` and the problems with their fixes; nothing the
model sends is ever rewritten by the program.
"""

from __future__ import annotations

import functools
import inspect
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Protocol, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from stockbench.errors import Problem, UserError
from stockbench.evidence.store import canonical_json, evidence_id_for
from stockbench.evidence.untrusted import wrap
from stockbench.messages import problem
from stockbench.research import judgments as j
from stockbench.research.calc import calculate
from stockbench.research.decisions import judgment_problems
from stockbench.research.records import EvidenceItem
from stockbench.research.results import ToolResult, rejected
from stockbench.research.stages import TOOL_NAMES
from stockbench.research.state import RunState
from stockbench.research.validate import Checker, accepted_payload

log = logging.getLogger(__name__)
PAGE_CHARS = 8000


class ToolContext(Protocol):
    """What a tool may use: the run's state, its checks, and the program's readers of documents and search."""

    @property
    def state(self) -> RunState: ...

    def checker(self) -> Checker: ...

    def read_document(self, announcement_id: str) -> ToolResult: ...

    def search(self, terms: Sequence[str]) -> ToolResult: ...


class CalcInput(j.Strict):
    evidence_id: str
    path: str = Field(description="A JSON path into the evidence, e.g. $.last or $.bars[3].close")


# ---- reading ----------------------------------------------------------------------------------------------------
def methods_read(ctx: ToolContext, slug: str, page: int = 1) -> ToolResult:
    """Read one page of a handbook reference document (see the table of contents in the system message)."""
    text, pages = ctx.state.handbook.read(slug, page)
    return ToolResult({"slug": slug, "page": page, "pages": pages, "text": text})


def evidence_read(ctx: ToolContext, evidence_id: str, page: int = 1) -> ToolResult:
    """Read the full body of an evidence item of this run (documents come back inside untrusted delimiters)."""
    found = ctx.state.evidence.get(evidence_id)
    if found is None:
        return rejected([problem("evidence_unknown.read", evidence=evidence_id)])
    body = found.body[(page - 1) * PAGE_CHARS : page * PAGE_CHARS]
    pages = max(1, -(-len(found.body) // PAGE_CHARS))
    text = wrap(found, body) if found.media_type == "text/plain" else body
    return ToolResult({"evidence_id": found.evidence_id, "kind": found.kind, "page": page, "pages": pages,
                       "body": text})  # fmt: skip


def calc(
    ctx: ToolContext,
    expression: Annotated[str, Field(description="Arithmetic over the input names, e.g. (a - b) / b * 100")],
    inputs: dict[str, CalcInput],
    unit: Annotated[
        str | None, Field(description="Optional: plain | pct | fraction | pp | multiple; must agree with the operands.")
    ] = None,
) -> ToolResult:
    """Compute a derived number from evidence values; cite the returned evidence id wherever you use it.

    Every operand is an input read from this run's evidence (evidence_id + JSON path) or one of the constants
    1, 2, 3, 4, 5, 10, 12, 20, 60, 100, 250, 252, 365, 1000, 10000, 100000000. The result's unit follows from
    the operands (a difference of two percentages is percentage points; a ratio times 100 is a percentage)."""
    refs = {name: {"evidence_id": ref.evidence_id, "path": ref.path} for name, ref in inputs.items()}
    record = calculate(expression, refs, ctx.state.evidence, unit)
    item = EvidenceItem("computation", "calc", record, f"calc {expression}")
    evidence_id = evidence_id_for(canonical_json(record))
    return ToolResult(
        {"accepted": True, "value": record["value"], "unit": record["unit"], "evidence_id": evidence_id}, [item]
    )


def documents_read(ctx: ToolContext, announcement_id: str) -> ToolResult:
    """Fetch the full text of an announcement (by its id in the facts) so it can be read and quoted."""
    return ctx.read_document(announcement_id)


def search(ctx: ToolContext, terms: list[str]) -> ToolResult:
    """Search for policy background or topics; results are candidates until a document is read in full."""
    return ctx.search(terms)


# ---- submissions ------------------------------------------------------------------------------------------------
def _verdict(kind: str, value: j.Strict, problems: list[Problem]) -> ToolResult:
    return rejected(problems) if problems else ToolResult(accepted_payload(kind, value.model_dump(mode="json")))


def submit_scene(ctx: ToolContext, scene: j.Scene) -> ToolResult:
    """The standalone scene declaration: the model's first action."""
    return _verdict("scene", scene, ctx.checker().scene(scene))


def submit_diagnosis(ctx: ToolContext, diagnosis: j.Diagnosis) -> ToolResult:
    """The diagnosis: a summary, the causal chain (each link citing evidence), claims and verbatim quotes."""
    return _verdict("diagnosis", diagnosis, ctx.checker().diagnosis(diagnosis))


def submit_arguments(ctx: ToolContext, arguments: j.Arguments) -> ToolResult:
    """A BULL or BEAR sub-study: every evidence-backed argument for its side."""
    side = ctx.state.side or ""
    return _verdict(f"arguments_{side}", arguments, ctx.checker().arguments(arguments, side))


def submit_judgments(ctx: ToolContext, judgments: j.Judgments) -> ToolResult:
    """A batch of decide-stage judgments; submit any subset, fix what is returned, until all are accepted."""
    problems = judgment_problems(ctx.checker(), judgments)
    if problems:
        return rejected(problems)
    given = judgments.model_dump(mode="json", exclude_none=True)
    state = ctx.state
    needed = [k for k in state.required_decisions() if k not in given and not state.accepted.has(k)]
    return ToolResult({"accepted": True, "judgment": "judgments", "value": given, "still_needed": needed})


def submit_report(ctx: ToolContext, report: j.ReportText) -> ToolResult:
    """The only prose the model writes into the report's frame: title, conclusion and three answers."""
    problems = ctx.checker().statements(report)
    problems += [
        problem("evidence_unknown.report", where="report.evidence", evidence=e)
        for e in report.evidence
        if e not in ctx.state.evidence
    ]
    return _verdict("report", report, problems)


# ---- the table ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Tool:
    """A tool as the model sees it (name, description, parameters) and the function that answers it."""

    name: str
    params: type[BaseModel]
    function: Callable[..., ToolResult]
    description: str
    whole: bool  # the function takes the validated params object (a submission), not its fields

    @classmethod
    def of(cls, function: Callable[..., ToolResult]) -> Tool:
        """The tool of `function`: its parameters after the context, and its docstring."""
        hints = get_type_hints(function, include_extras=True)
        names = list(inspect.signature(function).parameters)[1:]
        description = inspect.getdoc(function) or function.__name__
        single = hints[names[0]] if len(names) == 1 else None
        if isinstance(single, type) and issubclass(single, BaseModel):
            return cls(function.__name__, single, function, description, whole=True)
        defaults = inspect.signature(function).parameters
        fields: dict[str, Any] = {
            n: (hints[n], ... if defaults[n].default is inspect.Parameter.empty else defaults[n].default) for n in names
        }
        title = "".join(part.capitalize() for part in function.__name__.split("_"))
        model = create_model(title, __config__=ConfigDict(extra="forbid", frozen=True), __doc__=description, **fields)
        return cls(function.__name__, model, function, description, whole=False)

    def schema(self) -> dict[str, Any]:
        found: dict[str, Any] = json.loads(_schema_text(self))  # a fresh copy for each request
        return found

    def answer(self, ctx: ToolContext, params: BaseModel) -> ToolResult:
        if self.whole:
            return self.function(ctx, params)
        return self.function(ctx, **{name: getattr(params, name) for name in type(params).model_fields})


@functools.cache
def _schema_text(tool: Tool) -> str:
    """A tool's JSON schema, generated once per process (pydantic takes milliseconds per model, every turn)."""
    function = {"name": tool.name, "description": tool.description, "parameters": tool.params.model_json_schema()}
    return json.dumps({"type": "function", "function": function}, ensure_ascii=False)


FUNCTIONS: tuple[Callable[..., ToolResult], ...] = (
    methods_read, evidence_read, calc, documents_read, search, submit_scene, submit_diagnosis, submit_arguments,
    submit_judgments, submit_report,
)  # fmt: skip
TOOLS: dict[str, Tool] = {tool.name: tool for tool in (Tool.of(f) for f in FUNCTIONS)}
assert set(TOOLS) == TOOL_NAMES, "research.stages names a tool this module does not define (or the reverse)"


def call_tool(
    ctx: Any, name: str, arguments: Mapping[str, Any] | None, parse_error: str | None, tools: Mapping[str, Tool] = TOOLS
) -> ToolResult:
    """Validate the arguments against the tool's parameters and run it (a tool of `tools`, by default a research
    run's); every error is a problem for the model."""
    tool = tools.get(name)
    if tool is None:
        return rejected([problem("unknown_tool.call", tool=name, tools=", ".join(tools))])
    if arguments is None:
        return rejected([problem("malformed_arguments", tool=name, error=parse_error)])
    try:
        params = tool.params.model_validate(arguments)
    except ValidationError as error:
        return rejected(
            [
                problem(
                    "invalid_arguments",
                    field=".".join(str(p) for p in e["loc"]) or name,
                    error=e["msg"],
                    location=".".join(str(p) for p in e["loc"]),
                )
                for e in error.errors()
            ]
        )
    try:
        return tool.answer(ctx, params)
    except UserError as error:
        return rejected([Problem(error.code, error.message, error.hint, key=error.key, params=error.params)])
    except Exception as error:  # a tool that raises is an answer to the model, never a dead run; the log has it
        log.exception("tool %s failed", name)
        return rejected([problem("tool_failed", tool=name, error=type(error).__name__)])
