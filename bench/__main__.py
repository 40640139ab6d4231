"""`python -m bench [NAME ...]`: run benchmarks; print `name: ours X, reference Y, ratio R (target <= T)`."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from pathlib import Path

from bench.harness import REGISTRY


def discover() -> None:
    folder = Path(__file__).parent
    for module in pkgutil.iter_modules([str(folder)]):
        if module.name not in {"harness", "__main__"}:
            importlib.import_module(f"bench.{module.name}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description="Run Stock Workbench benchmarks.")
    parser.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
    parser.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    discover()
    if args.list:
        print("\n".join(sorted(REGISTRY)))
        return 0
    unknown = [n for n in args.names if n not in REGISTRY]
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(sorted(REGISTRY))}")
    missed = 0
    for name in args.names or sorted(REGISTRY):
        measured = REGISTRY[name]()
        for result in measured if isinstance(measured, tuple) else (measured,):
            print(result.line(), flush=True)
            missed += not result.met
    return 1 if (missed and args.strict) else 0


if __name__ == "__main__":
    sys.exit(main())
