"""No import cycle among the modules of stockbench/ and ui/, counting every import (module level, inside
functions, under TYPE_CHECKING); and a cycle planted in a copy of the tree, each of those ways, is caught."""

from __future__ import annotations

import shutil
from itertools import pairwise
from pathlib import Path

import pytest

from tests.contracts.module_graph import PACKAGES, Import, cycles, import_graph, imports, shortest_loop

ROOT = Path(__file__).resolve().parents[2]


def described(root: Path) -> str:
    """Each cycle as a shortest loop, with the line of every import that closes it."""
    graph = import_graph(root)
    lines: dict[tuple[str, str], Import] = {(e.source, e.target): e for e in imports(root)}
    text = []
    for component in cycles(graph):
        loop = shortest_loop(graph, component)
        text.append(f"{len(component)} modules: {', '.join(component)}")
        for source, target in pairwise(loop):
            edge = lines[(source, target)]
            text.append(f"    {source} -> {target}  ({edge.path.relative_to(root)}:{edge.line})")
    return "\n".join(text)


def test_no_module_takes_part_in_an_import_cycle() -> None:
    assert cycles(import_graph(ROOT)) == [], "import cycles:\n" + described(ROOT)


@pytest.mark.parametrize(
    "planted",
    [
        "from stockbench.workbench import Workbench\n",
        "def _later() -> None:\n    import stockbench.workbench\n",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from stockbench.workbench import Workbench\n",
    ],
    ids=["module level", "inside a function", "under TYPE_CHECKING"],
)
def test_a_planted_cycle_is_caught(tmp_path: Path, planted: str) -> None:
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    clock = tmp_path / "stockbench" / "clock.py"
    assert not any("stockbench.clock" in c for c in cycles(import_graph(tmp_path)))
    clock.write_text(clock.read_text(encoding="utf-8") + planted, encoding="utf-8")  # workbench imports clock
    caught = [c for c in cycles(import_graph(tmp_path)) if "stockbench.clock" in c]
    assert len(caught) == 1 and "stockbench.workbench" in caught[0]
    assert "stockbench.clock -> stockbench.workbench  (stockbench/clock.py:" in described(tmp_path)


def test_relative_imports_and_parent_packages_count(tmp_path: Path) -> None:
    package = tmp_path / "stockbench" / "pkg"
    package.mkdir(parents=True)
    (tmp_path / "ui").mkdir()
    (tmp_path / "stockbench" / "__init__.py").write_text("", encoding="utf-8")
    (package / "__init__.py").write_text("from stockbench.other import thing\n", encoding="utf-8")
    (package / "a.py").write_text("from . import b\n", encoding="utf-8")
    (package / "b.py").write_text("", encoding="utf-8")
    (tmp_path / "stockbench" / "other.py").write_text("import stockbench.pkg.b\n", encoding="utf-8")
    graph = import_graph(tmp_path)
    assert graph["stockbench.pkg.a"] == {"stockbench.pkg.b"}  # its own package is not an edge
    assert graph["stockbench.other"] == {"stockbench.pkg", "stockbench.pkg.b"}  # importing b runs pkg/__init__
    assert cycles(graph) == [["stockbench.other", "stockbench.pkg"]]
