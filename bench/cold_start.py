"""Cold start of the command line: `stockbench --help` against `python -c pass`.

The floor is click itself (about 18 ms of imports); the target guards against a heavy library
(polars, DuckDB, litellm, Qt) slipping into the import path of the command line.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bench.harness import Result, benchmark, command_seconds


@benchmark("cold_start")
def cold_start() -> Result:
    python = sys.executable
    script = str(Path(python).with_name("stockbench"))
    ours = command_seconds([script, "--help"])
    reference = command_seconds([python, "-c", "pass"])
    return Result("cold_start", ours, reference, "s", target=8.0)
