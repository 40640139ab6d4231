"""Workspaces written by released versions, opened by this code (Electrum's rule: real files from old releases).

Each folder tests/fixtures/workspaces/schema-NNNN/ holds a workspace its release wrote (the database gzipped) and,
under expected/, what that release's CLI printed about it with --json. A copy is opened here, which migrates it
to the latest schema; then the same commands must print the same fields with the same values (fields the new
code adds are ignored), and its report must verify. How the fixtures are made: tests/fixtures/workspaces/README.md.
"""

from __future__ import annotations

import gzip
import json
import shutil
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb
import pytest

from stockbench.cli.main import run
from stockbench.store.migrations import latest_version
from stockbench.workbench import Workbench

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "workspaces"
RELEASES = sorted(p for p in FIXTURES.glob("schema-*") if p.is_dir())
# What each release's CLI printed at fixture time (expected/NAME.json) and the command that printed it.
READS: dict[str, list[str]] = {
    "positions": ["ledger", "positions", "main", "--all"],
    "balance": ["ledger", "balance", "main"],
    "history": ["ledger", "history", "main"],
    "orders": ["ledger", "order", "list", "main"],
    "reports": ["reports", "list"],
    "report": ["reports", "show", "{report_id}", "--format", "json"],
    "verify": ["reports", "verify", "{report_id}"],
    "runs": ["runs", "list"],
    "run": ["runs", "show", "{run_id}"],
}


def expected(release: Path, name: str) -> Any:
    return json.loads((release / "expected" / f"{name}.json").read_text(encoding="utf-8"))


def differences(new: Any, old: Any, where: str = "$") -> list[str]:
    """Where `new` does not read as `old` did: every old field kept with its value (new fields are ignored)."""
    if isinstance(old, dict):
        if not isinstance(new, dict):
            return [f"{where}: {new!r} is not an object"]
        return [d for k, v in old.items() for d in
                (differences(new[k], v, f"{where}.{k}") if k in new else [f"{where}.{k}: missing"])]  # fmt: skip
    if isinstance(old, list):
        if not isinstance(new, list) or len(new) != len(old):
            return [f"{where}: {new!r} is not a list of {len(old)}"]
        return [d for i, (n, o) in enumerate(zip(new, old, strict=True)) for d in differences(n, o, f"{where}[{i}]")]
    return [] if _same(new, old) else [f"{where}: {new!r}, the release read {old!r}"]


def _same(new: Any, old: Any) -> bool:
    """Equal, or the same instant (the database gives instants in the machine's zone, which may differ)."""
    if new == old or not (isinstance(new, str) and isinstance(old, str)):
        return bool(new == old)
    try:
        return datetime.fromisoformat(new) == datetime.fromisoformat(old) and "T" in old
    except ValueError:
        return False


@pytest.fixture(scope="module", params=RELEASES, ids=[p.name for p in RELEASES])
def migrated(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the release's fixture, a copy of its workspace opened once by this code, which migrated it)."""
    release: Path = request.param
    home = tmp_path_factory.mktemp(release.name) / "workspace"
    shutil.copytree(release, home, ignore=shutil.ignore_patterns("expected"))
    with gzip.open(home / "workspace.duckdb.gz") as packed, (home / "workspace.duckdb").open("wb") as database:
        shutil.copyfileobj(packed, database)
    (home / "workspace.duckdb.gz").unlink()
    with duckdb.connect(str(home / "workspace.duckdb"), read_only=True) as db:
        written = db.execute("SELECT max(version) FROM schema_migrations").fetchall()[0][0]
    assert written == expected(release, "info")["schema_version"] < latest_version()  # really an old file
    with Workbench.open(home):
        pass
    return release, home


def test_an_old_workspace_migrates_to_the_latest_schema_and_keeps_every_row(migrated: tuple[Path, Path]) -> None:
    release, home = migrated
    old = expected(release, "info")
    with Workbench.open(home) as bench:
        info = bench.workspace.info()
    assert info.schema_version == info.latest_schema_version == latest_version()
    assert (info.kind, info.workspace_id) == (old["kind"], old["workspace_id"])
    assert info.created_at == datetime.fromisoformat(old["created_at"])
    counts = {t: n for t, n in old["tables"].items() if t != "schema_migrations"}
    if counts.get("accounts"):  # its ledger's journal was started on the first open: one more setting, its head
        counts["settings"] = counts.get("settings", 0) + 1
        assert (home / "ledger-journal.jsonl").stat().st_size > 0
    assert {t: info.tables.get(t) for t in counts} == counts


def test_an_old_report_verifies_after_migration(migrated: tuple[Path, Path]) -> None:
    """Migration 0010 seals the reports published before it: the release's report must verify as it did then."""
    release, home = migrated
    report_id = expected(release, "analyze")["report_id"]
    assert expected(release, "verify") == {"report_id": report_id, "ok": True, "problems": []}
    with Workbench.open(home) as bench:
        assert bench.research.seal_ok(report_id)
        problems = bench.research.verify(report_id)
    assert [p.as_dict() for p in problems] == []


@pytest.mark.parametrize("name", list(READS))
def test_an_old_workspace_reads_as_its_release_read_it(
    migrated: tuple[Path, Path], name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    release, home = migrated
    ids = {k: expected(release, "analyze")[k] for k in ("report_id", "run_id")}
    capsys.readouterr()
    code = run(["--home", str(home), "--json", *(a.format(**ids) for a in READS[name])])
    out = capsys.readouterr().out
    assert differences(json.loads(out) if out else None, expected(release, name)) == [], f"exit code {code}"
    assert code == 0
