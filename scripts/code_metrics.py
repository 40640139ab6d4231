"""Measures of the code's shape: `uv run python scripts/code_metrics.py [--json]`.

- import cycles among the modules of stockbench/ and ui/ (every import counts: module level, inside functions,
  and under TYPE_CHECKING), as strongly connected components of the module graph;
- `.get("` calls in stockbench/research (untyped state read through dictionaries);
- modules over 450 lines and functions over 50 lines in stockbench/ and ui/.
The import graph is the one tests/contracts/test_import_cycles.py checks (tests/contracts/module_graph.py,
importable here because the project is installed in editable mode).
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path

from tests.contracts.module_graph import cycles, import_graph, modules

ROOT = Path(__file__).resolve().parent.parent
MODULE_LINES = 450
FUNCTION_LINES = 50


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
