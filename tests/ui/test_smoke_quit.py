"""The start-up smoke switch: `STOCKBENCH_SMOKE_QUIT` makes `python -m stockbench` paint its window, report the
time and quit cleanly, in a real child process (as the packaged build is checked)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from stockbench.workbench import Workbench
from ui.app import process_age, smoke_mode

TIMEOUT_S = 180  # generous: CI shares two cores with other work


def _launch(tmp_path: Path, home: Path, mode: str) -> subprocess.CompletedProcess[str]:
    """`python -m stockbench` offscreen on `home`, with settings and user folders under `tmp_path`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("STOCKBENCH_", "XDG_"))}
    env.update(
        QT_QPA_PLATFORM="offscreen",
        STOCKBENCH_SMOKE_QUIT=mode,
        STOCKBENCH_HOME=str(home),
        HOME=str(tmp_path / "user"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CACHE_HOME=str(tmp_path / "cache"),
        LITELLM_LOCAL_MODEL_COST_MAP="True",
    )
    return subprocess.run(
        [sys.executable, "-m", "stockbench"], env=env, capture_output=True, text=True, timeout=TIMEOUT_S, check=False
    )


def _seconds(stdout: str, label: str) -> float:
    lines = [line.split() for line in stdout.splitlines() if line.startswith(f"{label} ")]
    assert len(lines) == 1, stdout
    assert lines[0][2] in ("process", "import"), stdout
    return float(lines[0][1])


def test_the_window_paints_reports_and_quits_without_opening_a_workspace(tmp_path: Path) -> None:
    home = tmp_path / "empty-home"
    done = _launch(tmp_path, home, "1")
    assert done.returncode == 0, done.stderr[-3000:]
    assert 0 < _seconds(done.stdout, "first-paint") < TIMEOUT_S
    assert "workspace-attached" not in done.stdout
    assert not home.exists()  # a first run would have built the demo market there
    assert (tmp_path / "config").is_dir()  # the window's settings went to the temporary user folders


def test_attached_mode_opens_the_workspace_then_quits_and_releases_it(tmp_path: Path, demo_home: Path) -> None:
    done = _launch(tmp_path, demo_home, "attached")
    assert done.returncode == 0, done.stderr[-3000:]
    painted, attached = _seconds(done.stdout, "first-paint"), _seconds(done.stdout, "workspace-attached")
    assert 0 < painted <= attached < TIMEOUT_S
    Workbench.open(demo_home, command="tests").close()  # the clean shutdown released the workspace lock


@pytest.mark.parametrize(
    ("value", "mode"), [("", "off"), ("0", "off"), ("1", "painted"), ("yes", "painted"), ("Attached", "attached")]
)
def test_smoke_mode_reads_the_environment(value: str, mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STOCKBENCH_SMOKE_QUIT", value)
    assert smoke_mode() == mode


def test_process_age_counts_from_the_process_start() -> None:
    age, origin = process_age()
    assert origin == ("process" if Path("/proc/self/stat").exists() else "import")
    assert 0 < age < 86_400
