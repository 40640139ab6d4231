"""`stockbench doctor`: every check of a workspace, gathered from the module that owns what it checks.

The doctor opens the workspace like any command (taking its lock), then asks each owner for its `Check`: the store
for the schema and the full read of every block, research for the report seals, and (listed in `_OWNED_CHECKS`) the
ledger's replay and journal and the store's backups. A workspace that cannot be opened is reported, not raised: its
damage is a failed `integrity` check naming the newest backup, and the checks that need the database are not run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from stockbench.config import WorkspacePaths, resolve_home
from stockbench.errors import WorkspaceDamaged, WorkspaceTooNew
from stockbench.store.checks import Check
from stockbench.store.damage import read_problems
from stockbench.store.migrations import schema_check
from stockbench.workbench import Workbench

DOCTOR_COMMAND = "stockbench doctor"
NEEDS_DATABASE = ("schema", "report_seals")


@dataclass(frozen=True)
class DoctorReport:
    """What the doctor found in the workspace at `home`: `ok` unless a check failed."""

    home: Path
    checks: tuple[Check, ...]

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    @property
    def failed(self) -> int:
        return sum(not check.ok for check in self.checks)

    def as_dict(self) -> dict[str, object]:
        return {"ok": self.ok, "checks": [check.as_dict() for check in self.checks]}


def _owned_checks(bench: Workbench) -> list[Callable[[], Check]]:
    """The checks other modules own, one line each (they join here as they land)."""
    from stockbench.ledger.checks import journal_check, ledger_replay_check
    from stockbench.store.backups import backups_check

    return [
        lambda: backups_check(bench.paths, datetime.now(UTC)),
        lambda: ledger_replay_check(bench.workspace.db),
        lambda: journal_check(bench.workspace.db, bench.paths.ledger_journal),
    ]


def examine(home: str | Path | None = None) -> DoctorReport:
    """Check the workspace at `home` (it is opened, and migrated like at any open, but nothing else is written)."""
    paths = WorkspacePaths(resolve_home(home))
    try:
        bench = Workbench.open(paths.home, command=DOCTOR_COMMAND)
    except WorkspaceDamaged as damage:
        return DoctorReport(paths.home, (*(_not_checked(name) for name in NEEDS_DATABASE), damage_check(damage)))
    except WorkspaceTooNew as error:
        found = Check("schema", "failed", f"schema: {error.message}", "doctor.schema.too_new",
                      (("message", error.message),))  # fmt: skip
        return DoctorReport(paths.home, (found,))
    with bench:
        checks = [schema_check(bench.workspace.db), seals_check(bench), integrity_check(bench)]
        checks += [check() for check in _owned_checks(bench)]
    return DoctorReport(paths.home, tuple(checks))


def seals_check(bench: Workbench) -> Check:
    """`report_seals`: every stored report's seal, chain and seal log verify (research's own verification)."""
    research = bench.research
    listed = research.reports()
    bad = {r.report_id: problems for r in listed if (problems := research.seal_problems(r.report_id))}
    if not bad:
        return Check("report_seals", "ok", f"report seals: all {len(listed)} reports verify", "doctor.report_seals.ok",
                     (("count", str(len(listed))),))  # fmt: skip
    first = next(iter(bad.values()))[0].message
    params = {"bad": str(len(bad)), "count": str(len(listed)), "reports": ", ".join(sorted(bad)), "first": first}
    return Check("report_seals", "failed",
                 f"report seals: {params['bad']} of {params['count']} reports do not verify ({params['reports']}): "
                 f"{first}", "doctor.report_seals.failed", tuple(sorted(params.items())))  # fmt: skip


def integrity_check(bench: Workbench) -> Check:
    """`integrity`: every block of every table reads back (DuckDB verifies each block's checksum as it reads)."""
    result = read_problems(bench.workspace.db)
    if not result.problems:
        megabytes = f"{bench.paths.database.stat().st_size / 1e6:.1f}"
        params = {"tables": str(result.tables), "mb": megabytes, "seconds": f"{result.seconds:.2f}"}
        return Check("integrity", "ok", f"integrity: every block of {result.tables} tables reads back ({megabytes} MB "
                     f"in {params['seconds']} s)", "doctor.integrity.ok", tuple(sorted(params.items())))  # fmt: skip
    from stockbench.store.damage import damaged, reason_of_text

    tables = ", ".join(p.table for p in result.problems)
    damage = damaged(bench.paths, reason_of_text(result.problems[0].error) or "corrupt")
    params = {"tables": tables, "reason": damage.message, "hint": damage.hint, "key": damage.key, **dict(damage.params)}
    return Check("integrity", "failed", f"integrity: table(s) {tables} do not read back: {damage.message} "
                 f"{damage.hint}", "doctor.integrity.failed", tuple(sorted(params.items())))  # fmt: skip


def damage_check(damage: WorkspaceDamaged) -> Check:
    """The damage that stopped the workspace opening, as doctor's failed `integrity` (its hint names the backup)."""
    params = {"message": damage.message, "hint": damage.hint, "key": damage.key, **dict(damage.params)}
    return Check("integrity", "failed", f"integrity: {damage.reason}: {damage.message} {damage.hint}",
                 "doctor.damaged", tuple(sorted(params.items())))  # fmt: skip


def _not_checked(name: str) -> Check:
    return Check(name, "warning", f"{name}: not checked (the workspace cannot be opened)", "doctor.not_checked",
                 (("name", name),))  # fmt: skip
