"""The calc tool: arithmetic the model asks for, done by the program on numbers read from evidence.

A derived number (a ratio, a difference, a growth rate) must come from here, not from the model's own
arithmetic: the result is stored as a computation with its expression, its inputs (each an evidence id and
a JSON path, with the value found there) and its unit, so the number gate can trace it.

The model cannot make evidence of its own this way: every operand is a value read from this run's evidence
or one of a few fixed constants (100, 10,000, 1e8, days in a year...); a result equal to one of its inputs
is refused (cite the input instead); the unit is derived from the operands' units (个百分点 only for a
difference of two percentages), so a 1.96% change cannot be stored as 1.96 percentage points; overflow, NaN
and division by zero are refused with a fix.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, DivisionByZero, InvalidOperation, Overflow, localcontext
from typing import Any

from stockbench.errors import InvalidInput
from stockbench.evidence.numbers import exact_number, explicit_unit, unit_for_key
from stockbench.evidence.store import Evidence
from stockbench.messages import user_error, value_word

MAX_LENGTH = 200
RESULT_PLACES = Decimal("0.000001")
MAX_MAGNITUDE = Decimal(10) ** 18
CONSTANTS = frozenset(Decimal(c) for c in ("1", "2", "3", "4", "5", "10", "12", "20", "60", "100", "250", "252",
                                           "365", "1000", "10000", "100000000"))  # fmt: skip
# Units an operand or result can have: the evidence units, plus a constant and a difference of two fractions
# (which becomes percentage points when multiplied by 100).
_COMPATIBLE = {"fraction": {"fraction", "multiple"}, "plain": {"plain", "multiple"}, "multiple": {"multiple", "plain"}}


@dataclass(frozen=True, slots=True)
class Operand:
    value: Decimal
    unit: str  # plain | pct | fraction | pp | multiple | const | fraction_diff


def json_path(data: Any, path: str) -> Any:
    """Follow a `$.a.b[2].c` path into JSON data."""
    if not path.startswith("$"):
        raise user_error(InvalidInput, "calc_path_not_rooted", path=path)
    current = data
    for part in path[1:].replace("[", ".[").split("."):
        if not part:
            continue
        try:
            current = current[int(part[1:-1])] if part.startswith("[") else current[part]
        except (KeyError, IndexError, TypeError, ValueError):
            raise user_error(InvalidInput, "calc_path_missing", path=path) from None
    return current


def _parent_and_key(data: Any, path: str) -> tuple[Any, str]:
    """The JSON object holding the value at `path` and the value's field name (for its unit)."""
    parts = [p for p in path[1:].replace("[", ".[").split(".") if p]
    key = next((p for p in reversed(parts) if not p.startswith("[")), "")
    parent = json_path(data, "$" + "".join(p if p.startswith("[") else f".{p}" for p in parts[:-1])) if parts else data
    return parent, key


def _unit_at(data: Any, path: str) -> str:
    parent, key = _parent_and_key(data, path)
    if isinstance(parent, dict) and key == "value" and (declared := explicit_unit(parent)) is not None:
        return declared
    return unit_for_key(key)


def _add(left: Operand, right: Operand, subtract: bool) -> str:
    units = {left.unit, right.unit}
    if "const" in units:
        return right.unit if left.unit == "const" else left.unit
    if len(units) > 1:
        verb = "subtract" if subtract else "add"
        raise user_error(InvalidInput, "calc_unit_mismatch", verb=verb, verb_zh=value_word("calc_op", verb, "zh"),
                         **_unit_words("right", right.unit), **_unit_words("left", left.unit))  # fmt: skip
    unit = left.unit
    if subtract and unit == "pct":
        return "pp"
    if subtract and unit == "fraction":
        return "fraction_diff"
    return unit


def _multiply(left: Operand, right: Operand) -> str:
    const, other = (left, right) if left.unit == "const" else (right, left)
    if const.unit == "const":
        if const.value == 100 and other.unit == "fraction":
            return "pct"
        if const.value == 100 and other.unit == "fraction_diff":
            return "pp"
        return other.unit
    return "fraction" if left.unit == right.unit == "fraction" else "plain"


def _divide(left: Operand, right: Operand) -> str:
    if right.unit == "const":
        return "fraction" if right.value == 100 and left.unit == "pct" else left.unit
    if left.unit == "const":
        return "plain"
    return "fraction" if left.unit == right.unit else "plain"


def _evaluate(node: ast.AST, values: Mapping[str, Operand]) -> Operand:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body, values)
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
        value = Decimal(str(node.value))
        if value not in CONSTANTS:
            constants = ", ".join(format(c, "f") for c in sorted(CONSTANTS))
            raise user_error(InvalidInput, "calc_constant", value=node.value, constants=constants)
        return Operand(value, "const")
    if isinstance(node, ast.Name):
        if node.id not in values:
            raise user_error(InvalidInput, "calc_not_an_input", name=node.id)
        return values[node.id]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult | ast.Div):
        left, right = _evaluate(node.left, values), _evaluate(node.right, values)
        if isinstance(node.op, ast.Add):
            return Operand(left.value + right.value, _add(left, right, subtract=False))
        if isinstance(node.op, ast.Sub):
            return Operand(left.value - right.value, _add(left, right, subtract=True))
        if isinstance(node.op, ast.Mult):
            return Operand(left.value * right.value, _multiply(left, right))
        if right.value == 0:
            raise user_error(InvalidInput, "calc_divides_by_zero")
        return Operand(left.value / right.value, _divide(left, right))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _evaluate(node.operand, values)
        return Operand(-inner.value, inner.unit)
    raise user_error(InvalidInput, "calc_operators")


def _operands(inputs: Mapping[str, Mapping[str, str]], evidence: Mapping[str, Evidence]) -> tuple[
    dict[str, Operand], dict[str, dict[str, str]]
]:  # fmt: skip
    values: dict[str, Operand] = {}
    record: dict[str, dict[str, str]] = {}
    for name, ref in inputs.items():
        source = evidence.get(ref.get("evidence_id", ""))
        if source is None or source.media_type != "application/json":
            raise user_error(InvalidInput, "calc_input_not_json", name=name)
        if source.kind == "search_result":
            raise user_error(InvalidInput, "calc_input_search_result", name=name)
        path = ref.get("path", "$")
        data = json.loads(source.body)
        raw = json_path(data, path)
        number = exact_number(raw)
        if number is None:
            raise user_error(InvalidInput, "calc_input_not_number", name=name, path=path, raw=repr(raw))
        values[name] = Operand(number, _unit_at(data, path))
        record[name] = {"evidence_id": source.evidence_id, "path": path, "value": str(raw)}
    return values, record


def _unit(derived: str, requested: str | None) -> str:
    unit = "fraction" if derived == "fraction_diff" else ("plain" if derived == "const" else derived)
    if requested is None or requested == unit:
        return unit
    if requested in _COMPATIBLE.get(unit, set()):
        return requested
    raise user_error(
        InvalidInput, "calc_unit_derived", **_unit_words("unit", unit), **_unit_words("requested", requested)
    )


def _unit_words(name: str, unit: str) -> dict[str, str]:
    return {name: unit, f"{name}_zh": value_word("unit", unit, "zh")}


def calculate(
    expression: str, inputs: Mapping[str, Mapping[str, str]], evidence: Mapping[str, Evidence], unit: str | None
) -> dict[str, Any]:
    """Evaluate `expression` over inputs read from this run's evidence; return the computation record."""
    if len(expression) > MAX_LENGTH:
        raise user_error(InvalidInput, "calc_too_long", limit=MAX_LENGTH)
    if unit is not None and unit not in {"plain", "pct", "fraction", "pp", "multiple"}:
        raise user_error(InvalidInput, "calc_unit_unknown", unit=unit, units="plain, pct, fraction, pp, multiple")
    if not inputs:
        raise user_error(InvalidInput, "calc_no_inputs")
    values, record_inputs = _operands(inputs, evidence)
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        raise user_error(InvalidInput, "calc_not_expression", expression=expression) from None
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    if unused := sorted(set(values) - used):
        raise user_error(InvalidInput, "calc_unused_inputs", names=", ".join(unused))
    try:
        with localcontext() as ctx:
            ctx.prec = 34
            result = _evaluate(tree, values)
            value = result.value.quantize(RESULT_PLACES) if result.value.is_finite() else result.value
    except (DivisionByZero, ZeroDivisionError):
        raise user_error(InvalidInput, "calc_divides_by_zero") from None
    except (InvalidOperation, Overflow):
        raise user_error(InvalidInput, "calc_out_of_range") from None
    if not value.is_finite() or abs(value) >= MAX_MAGNITUDE:
        raise user_error(InvalidInput, "calc_out_of_range")
    same = [n for n, v in values.items() if v.value.quantize(RESULT_PLACES) == value]
    if same:
        raise user_error(InvalidInput, "calc_result_is_input", name=same[0], value=value)
    return {
        "kind": "calc",
        "expression": expression,
        "inputs": record_inputs,
        "value": format(value, "f"),
        "unit": _unit(result.unit, unit),
    }
