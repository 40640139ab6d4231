"""The benchmark record, the registry, and timing helpers shared by every benchmark module."""

from __future__ import annotations

import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Result:
    """One benchmark's measurement: ours against a reference measured in the same run."""

    name: str
    ours: float
    reference: float
    unit: str
    target: float
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def ratio(self) -> float:
        return self.ours / self.reference if self.reference else float("inf")

    @property
    def met(self) -> bool:
        return self.ratio <= self.target

    def line(self) -> str:
        verdict = "" if self.met else "  MISSED"
        extra = "".join(f", {k} {v}" for k, v in self.notes.items())
        return (
            f"{self.name}: ours {self.ours:.4g} {self.unit}, reference {self.reference:.4g} {self.unit}, "
            f"ratio {self.ratio:.3g} (target <= {self.target:g}){extra}{verdict}"
        )


Benchmark = Callable[[], Result | tuple[Result, ...]]  # a module may measure several scenarios in one run
REGISTRY: dict[str, Benchmark] = {}


def benchmark(name: str) -> Callable[[Benchmark], Benchmark]:
    """Register a benchmark function under `name`."""

    def register(fn: Benchmark) -> Benchmark:
        REGISTRY[name] = fn
        return fn

    return register


def median_seconds(fn: Callable[[], object], repeat: int = 7, warmup: int = 1) -> float:
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def command_seconds(argv: Sequence[str], repeat: int = 9, env: dict[str, str] | None = None) -> float:
    """Median wall time of running a command to completion (output discarded)."""

    def once() -> None:
        subprocess.run(argv, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    return median_seconds(once, repeat=repeat)
