"""The calc tool: arithmetic the model asks for, done by the program on numbers read from evidence.

A derived number (a ratio, a difference, a growth rate) must come from here, not from the model's own
arithmetic: the result is stored as a computation with its expression, its inputs (each an evidence id and
a JSON path, with the value found there) and its unit, so the number gate can trace it.
"""

from __future__ import annotations

import ast
import json
import operator
from collections.abc import Callable, Mapping
from decimal import Decimal, DivisionByZero, InvalidOperation, localcontext
from typing import Any

from stockbench.errors import InvalidInput
from stockbench.evidence.store import Evidence

_OPS: dict[type[ast.AST], Callable[[Decimal, Decimal], Decimal]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}
MAX_LENGTH = 200
RESULT_PLACES = Decimal("0.000001")


def json_path(data: Any, path: str) -> Any:
    """Follow a `$.a.b[2].c` path into JSON data."""
    if not path.startswith("$"):
        raise InvalidInput(f"path '{path}' must start with $", "e.g. $.quote.last or $.bars[0].close")
    current = data
    for part in path[1:].replace("[", ".[").split("."):
        if not part:
            continue
        try:
            current = current[int(part[1:-1])] if part.startswith("[") else current[part]
        except (KeyError, IndexError, TypeError, ValueError):
            raise InvalidInput(f"path '{path}' does not exist in the evidence", "read the evidence first") from None
    return current


def _evaluate(node: ast.AST, values: Mapping[str, Decimal]) -> Decimal:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body, values)
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
        return Decimal(str(node.value))
    if isinstance(node, ast.Name):
        if node.id not in values:
            raise InvalidInput(f"'{node.id}' is not one of the inputs", "name every number as an input from evidence")
        return values[node.id]
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_evaluate(node.left, values), _evaluate(node.right, values))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_evaluate(node.operand, values)
    raise InvalidInput("only + - * / and parentheses over named inputs are allowed", "e.g. (a - b) / b * 100")


def calculate(
    expression: str, inputs: Mapping[str, Mapping[str, str]], evidence: Mapping[str, Evidence], unit: str
) -> dict[str, Any]:
    """Evaluate `expression` over inputs read from this run's evidence; return the computation record."""
    if len(expression) > MAX_LENGTH:
        raise InvalidInput("the expression is too long", f"keep it under {MAX_LENGTH} characters")
    if unit not in {"plain", "pct", "fraction", "pp", "multiple"}:
        raise InvalidInput(f"unit '{unit}' is unknown", "one of plain, pct, fraction, pp, multiple")
    values: dict[str, Decimal] = {}
    record_inputs = {}
    for name, ref in inputs.items():
        source = evidence.get(ref.get("evidence_id", ""))
        if source is None or source.media_type != "application/json":
            raise InvalidInput(f"input '{name}' must cite JSON evidence of this run", "give evidence_id and path")
        raw = json_path(json.loads(source.body), ref.get("path", "$"))
        try:
            values[name] = Decimal(str(raw))
        except InvalidOperation:
            raise InvalidInput(f"input '{name}' at {ref.get('path')} is not a number ({raw!r})") from None
        record_inputs[name] = {"evidence_id": source.evidence_id, "path": ref.get("path", "$"), "value": str(raw)}
    try:
        tree = ast.parse(expression, mode="eval")
        with localcontext() as ctx:
            ctx.prec = 34
            result = _evaluate(tree, values)
    except SyntaxError:
        raise InvalidInput(f"'{expression}' is not an arithmetic expression") from None
    except (DivisionByZero, InvalidOperation, ZeroDivisionError):
        raise InvalidInput("the expression divides by zero") from None
    value = result.quantize(RESULT_PLACES)
    return {
        "kind": "calc",
        "expression": expression,
        "inputs": record_inputs,
        "value": format(value, "f"),
        "unit": unit,
    }
