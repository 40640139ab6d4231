"""The shell calls the engine through the front door: a planted import of a service module below it breaks the
contract, while the shell's own imports of records, events, errors and constants keep it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.contracts.test_engine_boundary import _copy_project, _lint_imports

CONTRACT = "The shell reaches the engine through the front door"


@pytest.mark.parametrize(
    "planted",
    [
        "from stockbench.ledger.exports import export_csv\n",
        "from stockbench.llm.models import ModelRegistry\n",
        "from stockbench.store.settings import Settings\n",
        "from stockbench.evidence.store import EvidenceStore\n",
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
