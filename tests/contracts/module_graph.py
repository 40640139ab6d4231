"""The import graph of the project's packages (stockbench/ and ui/), read from the source with `ast`, and its
cycles (strongly connected components of more than one module).

Every import counts: at module level, inside functions and under TYPE_CHECKING (a cycle that only type
checking or a lazy import closes is still a knot in the design). A name imported from a module counts as that
module; importing a module also imports its parent packages, except the importer's own parents. Shared by
tests/contracts/test_import_cycles.py and scripts/code_metrics.py.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PACKAGES = ("stockbench", "ui")
Graph = dict[str, set[str]]


@dataclass(frozen=True, order=True)
class Import:
    """One edge of the graph: `source` imports `target`, first at `line` of `path`."""

    source: str
    target: str
    path: Path
    line: int


def modules(root: Path) -> dict[str, Path]:
    """Every module of the project's packages under `root`, by dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _imported(tree: ast.AST, name: str, is_package: bool) -> Iterator[tuple[str, int]]:
    """Every dotted name an import statement in `tree` reaches, with its line (relative imports resolved)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            yield base, node.lineno
            yield from ((f"{base}.{alias.name}", node.lineno) for alias in node.names)


def _targets(imported: str, importer: str, known: dict[str, Path]) -> Iterator[str]:
    """The project modules importing `imported` runs: the longest known prefix and its parent packages."""
    target = imported
    while target and target not in known:
        target = target.rpartition(".")[0]
    while target:
        if target != importer and not importer.startswith(f"{target}."):  # the importer's own parents
            yield target
        target = target.rpartition(".")[0]


def imports(root: Path) -> list[Import]:
    """Every edge of the graph under `root`, at the first line that makes it, sorted."""
    known = modules(root)
    found: dict[tuple[str, str], Import] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for imported, line in _imported(tree, name, path.name == "__init__.py"):
            for target in _targets(imported, name, known):
                edge = found.get((name, target))
                if edge is None or line < edge.line:
                    found[(name, target)] = Import(name, target, path, line)
    return sorted(found.values())


def import_graph(root: Path) -> Graph:
    """module -> the project modules it imports (every module of the packages is a key)."""
    graph: Graph = {name: set() for name in modules(root)}
    for edge in imports(root):
        graph[edge.source].add(edge.target)
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (each an import cycle), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def enter(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)

    for start in sorted(graph):  # iterative Tarjan: deep graphs must not hit the recursion limit
        if start in index:
            continue
        enter(start)
        work = [(start, iter(sorted(graph.get(start, ()))))]
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    enter(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = [stack.pop()]
                    while component[-1] != node:
                        component.append(stack.pop())
                    on_stack.difference_update(component)
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def shortest_loop(graph: Graph, component: list[str]) -> list[str]:
    """A shortest import loop through the component's first module, staying inside the component."""
    members, start = set(component), component[0]
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in sorted(graph[node] & members):
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [start, *reversed(path[:-1]), start]
            if nxt not in came_from:
                came_from[nxt] = node
                queue.append(nxt)
    return [start]
