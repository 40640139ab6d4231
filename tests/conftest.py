"""Shared fixtures: each test gets its own workspace folder; Qt runs offscreen; no network."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh workspace folder, also set as $STOCKBENCH_HOME so nothing touches the user's data."""
    folder = tmp_path / "workspace"
    monkeypatch.setenv("STOCKBENCH_HOME", str(folder))
    return folder


@pytest.fixture
def shared_data() -> Path:
    """The shared real-data folder; tests using it skip (with the reason) when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real data not available: {SHARED_DATA} is absent (it ships beside the repository in CI)")
    return SHARED_DATA
