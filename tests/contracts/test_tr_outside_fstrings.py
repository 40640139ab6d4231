"""A `tr("...")` written inside an f-string is not extracted by pyside6-lupdate, so its words never reach the
catalogue and show in English in the Chinese window (found: the plan dialog's "Stages", the symbol search's
"(no data yet)"). Every literal passed to tr() must sit outside f-strings."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _tr_literals_in_fstrings(tree: ast.AST) -> list[int]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.JoinedStr):
            continue
        for inner in ast.walk(node):
            if (
                isinstance(inner, ast.Call)
                and isinstance(inner.func, ast.Attribute | ast.Name)
                and (inner.func.attr if isinstance(inner.func, ast.Attribute) else inner.func.id) in {"tr", "translate"}
                and any(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in inner.args)
            ):
                found.append(inner.lineno)
    return found


def test_no_tr_literal_inside_an_fstring() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted((ROOT / "ui").rglob("*.py"))
        for line in _tr_literals_in_fstrings(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert offenders == [], offenders


def test_the_check_finds_one() -> None:
    assert _tr_literals_in_fstrings(ast.parse("x = f\"{self.tr('Stages')}\"")) == [1]
    assert _tr_literals_in_fstrings(ast.parse('x = f"{self.tr(advice)}"')) == []
