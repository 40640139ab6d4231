"""The engine/shell boundary is enforced by tools: a Qt import planted in the engine fails both."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _copy_project(dest: Path) -> None:
    shutil.copytree(ROOT / "stockbench", dest / "stockbench", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "ui", dest / "ui", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")


def _lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "lint-imports"), "--no-cache"],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(cwd), "PATH": str(BIN)},
    )


def test_contracts_hold_on_the_real_tree(tmp_path: Path) -> None:
    _copy_project(tmp_path)
    result = _lint_imports(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("module", "planted"),
    [
        ("stockbench/clock.py", "import PySide6.QtCore\n"),
        ("stockbench/events.py", "import pyqtgraph\n"),
        ("stockbench/config.py", "import ui.app\n"),
    ],
)
def test_a_planted_qt_import_breaks_the_contract(tmp_path: Path, module: str, planted: str) -> None:
    _copy_project(tmp_path)
    target = tmp_path / module
    target.write_text(target.read_text(encoding="utf-8") + planted, encoding="utf-8")
    result = _lint_imports(tmp_path)
    assert result.returncode != 0
    assert "The engine never imports Qt, pyqtgraph or the shell BROKEN" in result.stdout
    ruff = subprocess.run(
        [str(BIN / "ruff"), "check", "--no-cache", "--select", "TID251", module],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ruff.returncode == 1
    assert "TID251" in ruff.stdout


@pytest.mark.parametrize(
    ("module", "planted"),
    [
        ("stockbench/errors.py", "import stockbench.workbench\n"),
        ("stockbench/research/stages.py", "import stockbench.workbench\n"),  # research below the front door
        ("stockbench/research/stages.py", "import stockbench.evals.cases\n"),  # evals sit above the workbench
        ("stockbench/analytics/zones.py", "import stockbench.research.plan\n"),  # analytics below research
        ("stockbench/evidence/quotes.py", "from stockbench.research import stages\n"),
        ("stockbench/llm/failures.py", "import stockbench.research.summary\n"),
        ("stockbench/data/adjust.py", "import stockbench.analytics.zones\n"),  # data below analytics
        ("stockbench/ledger/entries.py", "import stockbench.evidence.store\n"),
        ("stockbench/market/ticks.py", "import stockbench.ledger.entries\n"),  # market below the books
        ("stockbench/store/database.py", "import stockbench.market.ticks\n"),
    ],
)
def test_an_upward_import_breaks_the_layers(tmp_path: Path, module: str, planted: str) -> None:
    _copy_project(tmp_path)
    target = tmp_path / module
    target.write_text(target.read_text(encoding="utf-8") + planted, encoding="utf-8")
    result = _lint_imports(tmp_path)
    assert result.returncode != 0
    assert "Engine layers point downward BROKEN" in result.stdout


@pytest.mark.parametrize(
    ("module", "planted"),
    [
        ("stockbench/cli/research.py", "from stockbench.research.journal import Journal\n"),
        ("stockbench/workbench.py", "from stockbench.research.archive import ReportArchive\n"),
        ("ui/screens/reports/reports_actions.py", "import stockbench.research.archive\n"),
    ],
)
def test_reaching_the_run_store_or_the_archive_from_outside_research_breaks_a_contract(
    tmp_path: Path, module: str, planted: str
) -> None:
    _copy_project(tmp_path)
    target = tmp_path / module
    target.write_text(target.read_text(encoding="utf-8") + planted, encoding="utf-8")
    result = _lint_imports(tmp_path)
    assert result.returncode != 0
    assert "Only research reaches its run store and report archive" in result.stdout
    assert "reports BROKEN" in result.stdout
