"""Research's tables have one writer each: the run store (research/journal.py) writes `runs`, `run_status` and
`run_events`; the report archive (research/archive.py) writes `reports`. Everything else reads them through
those owners. The Python steps of schema migrations (store/backfills.py) reshape rows at the version they
introduce, like the SQL beside them, and are the one exception."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WRITE = re.compile(
    r"\b(INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM|TRUNCATE|DROP\s+TABLE|ALTER\s+TABLE)\s+\"?(\w+)",
    re.IGNORECASE,
)
OWNERS = {
    "runs": "stockbench/research/journal.py",
    "run_status": "stockbench/research/journal.py",
    "run_events": "stockbench/research/journal.py",
    "reports": "stockbench/research/archive.py",
}
MIGRATION_STEPS = "stockbench/store/backfills.py"
POSITIONAL = re.compile(r"INSERT\s+(OR\s+\w+\s+)?INTO\s+\"?\w+\"?\s+(VALUES|SELECT)\b", re.IGNORECASE)


def writes_outside_their_owners(root: Path = ROOT) -> list[str]:
    found = []
    for folder in ("stockbench", "ui"):
        for path in sorted((root / folder).rglob("*.py")):
            where = path.relative_to(root).as_posix()
            if where == MIGRATION_STEPS:
                continue
            for match in WRITE.finditer(path.read_text(encoding="utf-8")):
                table = match.group(3).lower()
                if table in OWNERS and OWNERS[table] != where:
                    found.append(f"{where}: {match.group(0)}")
    return found


def test_only_the_run_store_and_the_archive_write_research_tables() -> None:
    assert writes_outside_their_owners() == []


def test_the_scan_would_catch_a_write_outside_the_owner(tmp_path: Path) -> None:
    (tmp_path / "stockbench" / "research").mkdir(parents=True)
    (tmp_path / "ui").mkdir()
    (tmp_path / "stockbench" / "research" / "journal.py").write_text(
        "cur.execute('INSERT INTO runs (run_id) VALUES (?)')"
    )
    (tmp_path / "stockbench" / "research" / "compose.py").write_text(
        'cur.execute("INSERT INTO reports (report_id) VALUES (?)")'
    )
    (tmp_path / "ui" / "panel.py").write_text("db.execute('UPDATE run_status SET status = ?')")
    assert writes_outside_their_owners(tmp_path) == [
        "stockbench/research/compose.py: INSERT INTO reports",
        "ui/panel.py: UPDATE run_status",
    ]


def test_every_insert_names_its_columns() -> None:
    """A positional INSERT breaks when a migration adds a column; every writer names the columns it fills."""
    found = [
        f"{path.relative_to(ROOT).as_posix()}: {match.group(0)}"
        for folder in ("stockbench", "ui")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for match in POSITIONAL.finditer(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_insert_scan_tells_named_columns_from_positional_ones() -> None:
    sample = (
        "INSERT INTO runs VALUES (?)\nINSERT INTO runs (run_id) VALUES (?)\nINSERT OR REPLACE INTO settings SELECT 1"
    )
    assert [m.group(0).split()[-2] for m in POSITIONAL.finditer(sample)] == ["runs", "settings"]
