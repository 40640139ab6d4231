from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import stockbench
from stockbench.cli.main import run
from stockbench.store.migrations import latest_version


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"stockbench, version {stockbench.__version__}"


def test_info_json_on_a_fresh_home(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "w"
    assert run(["--home", str(home), "--json", "info"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["home"] == str(home.resolve())
    assert data["schema_version"] == latest_version()
    assert data["sizes"]["database"] > 0
    assert data["sizes"]["total"] == data["sizes"]["database"] + data["sizes"]["exports"]
    assert data["clock"] == "system"


def test_info_human_goes_to_stdout_and_uses_env_home(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["info"]) == 0
    out = capsys.readouterr().out
    assert str(home.resolve()) in out
    assert "schema" in out


def test_as_of_sets_a_replay_clock(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--json", "--as-of", "2021-12-31", "info"]) == 0
    assert json.loads(capsys.readouterr().out)["clock"] == "2021-12-31T10:00:00+00:00"


def test_user_error_exits_1_with_reason_and_hint(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--as-of", "yesterday", "info"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        "error: 'yesterday' is not a date or an ISO instant",
        "hint: use YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS][+08:00]",
    ]


def test_user_error_in_json_mode_is_also_machine_readable(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--json", "--as-of", "yesterday", "info"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "invalid_input"


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["no-such-command"]) == 2
    assert "No such command" in capsys.readouterr().err


def test_no_subcommand_opens_the_desktop(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    opened: list[tuple[Path | None, str | None]] = []

    def fake(home: Path | None, language: str | None = None) -> int:
        opened.append((home, language))
        return 0

    monkeypatch.setattr("stockbench.cli.main.open_desktop", fake)
    assert run([]) == 0
    assert run(["--home", str(tmp_path)]) == 0
    assert run(["--lang", "zh"]) == 0  # the window's language for this session
    assert opened == [(None, None), (tmp_path, None), (None, "zh")]


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--help"]) == 0
    out = capsys.readouterr().out
    assert "Usage: stockbench" in out
    assert "analyze" in out and "ledger" in out


_PROBE = """
import sys
import stockbench
from stockbench.cli.main import run
code = run(["--help"])
heavy = sorted(m for m in ("litellm", "PySide6", "polars", "pyarrow", "pandas") if m in sys.modules)
print(f"exit={code} heavy={','.join(heavy)}")
"""


def test_import_and_help_stay_light() -> None:
    result = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True)
    assert result.stdout.strip().splitlines()[-1] == "exit=0 heavy=", result.stdout


def test_console_script_is_installed() -> None:
    exe = Path(sys.executable).with_name("stockbench")
    result = subprocess.run([str(exe), "--version"], capture_output=True, text=True, check=True)
    assert result.stdout.startswith("stockbench, version")


def test_global_options_may_follow_the_subcommand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "after"
    assert run(["info", "--home", str(home), "--json", "--as-of", "2020-01-02"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["home"] == str(home.resolve())
    assert data["clock"] == "2020-01-02T10:00:00+00:00"
