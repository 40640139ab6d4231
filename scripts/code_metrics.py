"""Measures of the code's shape: `uv run python scripts/code_metrics.py [--json]`.

- import cycles among the modules of stockbench/ and ui/ (every import counts: module level, inside functions,
  and under TYPE_CHECKING), as strongly connected components of the module graph;
- `.get("` calls in stockbench/research (untyped state read through dictionaries);
- modules over 450 lines and functions over 50 lines in stockbench/ and ui/.
The import graph is the same one tests/contracts/test_import_cycles.py checks.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("stockbench", "ui")
MODULE_LINES = 450
FUNCTION_LINES = 50


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the project's packages, by dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _imported(tree: ast.AST, name: str, is_package: bool) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """module -> the project modules it imports (a name imported from a module counts as that module)."""
    known = modules(root)
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        targets = set()
        for imported in _imported(tree, name, path.name == "__init__.py"):
            target = imported
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(f"{target}."):  # a package's own parents
                targets.add(target)
        graph[name] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (each an import cycle), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(start: str) -> None:  # iterative Tarjan: deep graphs must not hit the recursion limit
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def long_functions(root: Path = ROOT) -> list[tuple[str, int]]:
    found = []
    for name, path in modules(root).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno is not None:
                length = node.end_lineno - node.lineno + 1
                if length > FUNCTION_LINES:
                    found.append((f"{name}.{node.name}", length))
    return sorted(found, key=lambda item: -item[1])


def measure(root: Path = ROOT) -> dict[str, object]:
    found = modules(root)
    research = [p for n, p in found.items() if n.startswith("stockbench.research")]
    long_modules = sorted(
        ((n, len(p.read_text(encoding="utf-8").splitlines())) for n, p in found.items()), key=lambda i: -i[1]
    )
    return {
        "import_cycles": cycles(import_graph(root)),
        "get_calls_in_research": sum(p.read_text(encoding="utf-8").count('.get("') for p in research),
        "modules_over_450_lines": [(n, lines) for n, lines in long_modules if lines > MODULE_LINES],
        "functions_over_50_lines": long_functions(root),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--root", type=Path, default=ROOT, help="another checkout to measure")
    args = parser.parse_args(argv)
    found = measure(args.root)
    if args.json:
        print(json.dumps(found, indent=1))
        return 0
    cyc = found["import_cycles"]
    assert isinstance(cyc, list)
    print(f"import cycles: {len(cyc)}")
    for component in cyc:
        print(f"  {' <-> '.join(component)}")
    print(f'.get(" calls in stockbench/research: {found["get_calls_in_research"]}')
    for key in ("modules_over_450_lines", "functions_over_50_lines"):
        items = found[key]
        assert isinstance(items, list)
        print(f"{key.replace('_', ' ')}: {len(items)}")
        for item, size in items:
            print(f"  {item} ({size})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
