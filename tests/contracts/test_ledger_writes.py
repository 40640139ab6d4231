"""Nothing outside stockbench/ledger writes ledger tables: research, reports and plans only read them."""

from __future__ import annotations

import re
from pathlib import Path

from stockbench.ledger.store import LEDGER_TABLES

ROOT = Path(__file__).resolve().parents[2]
WRITE = re.compile(
    r"\b(INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM|TRUNCATE|DROP\s+TABLE|ALTER\s+TABLE)\s+\"?(\w+)",
    re.IGNORECASE,
)


def writes_outside_the_ledger() -> list[str]:
    found = []
    for path in sorted((ROOT / "stockbench").rglob("*.py")):
        if "ledger" in path.relative_to(ROOT / "stockbench").parts[:1]:
            continue
        for match in WRITE.finditer(path.read_text(encoding="utf-8")):
            if match.group(3).lower() in LEDGER_TABLES:
                found.append(f"{path.relative_to(ROOT)}: {match.group(0)}")
    return found


def test_no_engine_module_outside_the_ledger_writes_ledger_tables() -> None:
    assert writes_outside_the_ledger() == []


def test_the_scan_would_catch_a_write(tmp_path: Path) -> None:
    sample = "cur.execute('INSERT INTO fills VALUES (?)')\ncur.execute(\"DELETE FROM ledger_cash WHERE 1\")"
    assert [m.group(3) for m in WRITE.finditer(sample)] == ["fills", "ledger_cash"]
