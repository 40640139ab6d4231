"""The shell calls the engine through the front door: a planted import of a service module below it breaks the
contract, while the shell's own imports of records, events, errors and constants keep it."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests.contracts.module_graph import imports, modules
from tests.contracts.test_engine_boundary import ROOT, _copy_project, _lint_imports

CONTRACT = "The shell reaches the engine through the front door"


@pytest.mark.parametrize(
    "planted",
    [
        "from stockbench.ledger.exports import export_csv\n",
        "from stockbench.llm.models import ModelRegistry\n",
        "from stockbench.store.settings import Settings\n",
        "from stockbench.evidence.store import EvidenceStore\n",
        "from stockbench.research.service import Research\n",
        "from stockbench.research.quick_review import QuickReview\n",
        "from stockbench.analytics.zones import zones_for\n",
    ],
)
def test_a_service_import_in_the_shell_breaks_the_front_door(tmp_path: Path, planted: str) -> None:
    _copy_project(tmp_path)
    target = tmp_path / "ui/theme.py"
    target.write_text(target.read_text(encoding="utf-8") + planted, encoding="utf-8")
    result = _lint_imports(tmp_path)
    assert result.returncode != 0
    broken = [line for line in result.stdout.splitlines() if line.startswith(CONTRACT)]
    assert broken and "BROKEN" in " ".join(result.stdout.split()).split(CONTRACT, 1)[1][:120]


# What the shell may import from below the front door: records, enums, events, errors and constants. Every other
# engine module is forbidden to it by the contract, so a module added later is behind the front door by default.
SHELL_MAY_IMPORT = frozenset(
    {
        "stockbench.workbench",  # the front door itself
        "stockbench.errors",
        "stockbench.messages",  # the words of errors and problems, in both languages
        "stockbench.events",
        "stockbench.clock",
        "stockbench.config",
        "stockbench.watchlist",  # its records (WatchItem, InstrumentHit) and its change event
        "stockbench.llm",  # the model errors it exports
        "stockbench.llm.records",
        "stockbench.evidence.records",
        "stockbench.ledger.entries",
        "stockbench.market.instruments",
        "stockbench.market.numbers",  # the one reader of typed numbers (pure; prices shown are worked out off-thread)
        "stockbench.research.events",
        "stockbench.research.outcomes",
        "stockbench.research.plan",
        "stockbench.research.records",
        "stockbench.research.review_records",
        "stockbench.research.search_records",
        "stockbench.research.summary",
        "stockbench.research.track_scoring",
        "stockbench.research.track_summary",
    }
)


def _front_door_forbidden() -> list[str]:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    (contract,) = [c for c in contracts["contracts"] if c["name"].startswith(CONTRACT)]
    return list(contract["forbidden_modules"])


def test_every_engine_module_but_the_records_is_behind_the_front_door() -> None:
    known = modules(ROOT)
    forbidden = _front_door_forbidden()

    def covered(name: str) -> bool:
        return any(name == f or name.startswith(f + ".") for f in forbidden)

    engine = [m for m in known if m.startswith("stockbench.") and known[m].name != "__init__.py"]
    assert [m for m in engine if m not in SHELL_MAY_IMPORT and not covered(m)] == []
    assert [m for m in SHELL_MAY_IMPORT if covered(m)] == []
    assert all(m in known for m in SHELL_MAY_IMPORT)  # no stale name


def test_what_the_shell_imports_from_the_engine_is_only_what_it_may() -> None:
    engine = {e.target for e in imports(ROOT) if e.source.startswith("ui") and e.target.startswith("stockbench.")}
    packages = {m for m, path in modules(ROOT).items() if path.name == "__init__.py"}
    assert sorted(engine - SHELL_MAY_IMPORT - packages) == []
