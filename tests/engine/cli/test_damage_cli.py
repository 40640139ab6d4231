"""The CLI on a damaged workspace, a read-only folder and a full disk: one line and a hint, exit 1, nothing lost."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from stockbench.cli.main import run
from tests.damaged_workspaces import BACKUP_NAME, DAMAGES, DEPOSITS, books_workspace, deposits

SHOWN = ("zero_length", "truncated_4096", "flip_main_header", "flip_books_block")


@pytest.mark.parametrize("name", SHOWN)
def test_a_damaged_file_gives_one_line_and_the_backup(
    home: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = books_workspace(home)
    capsys.readouterr()
    DAMAGES[name][0](paths.database)
    assert run(["--home", str(home), "ledger", "balance", "main"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and err[0].startswith("error: The workspace file") and "Traceback" not in "".join(err)
    assert err[1].startswith("hint: ") and f"stockbench restore {BACKUP_NAME}" in err[1]
    assert "taken 2026-12-01 15:30 (Asia/Shanghai)" in err[1]


@pytest.mark.parametrize("name", SHOWN)
def test_json_gains_the_reason_and_the_backup(home: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    paths = books_workspace(home)
    capsys.readouterr()
    damage, reason = DAMAGES[name]
    damage(paths.database)
    assert run(["--home", str(home), "--json", "info"]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "workspace_damaged"
    assert (error["reason"], error["backup"]) == (reason, BACKUP_NAME)


def test_in_chinese_too(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = books_workspace(home, backup=False)
    capsys.readouterr()
    paths.database.write_bytes(b"")
    assert run(["--lang", "zh", "--home", str(home), "--json", "info"]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith("错误：工作区文件") and "此工作区没有备份" in captured.err
    assert json.loads(captured.out)["error"]["backup"] is None


# ---- a read-only folder and a full disk: in a child process (as root, chmod does not stop writes) ----------------

AS_NOBODY = """
import _strptime, fcntl, os, sys  # noqa (loaded before the privileges go)
import stockbench.cli.ledger, stockbench.cli.main, stockbench.ledger.book, stockbench.store.damage  # noqa
import stockbench.store.workspace, stockbench.workbench, stockbench.market.registry  # noqa
if os.geteuid() == 0:  # after the imports: the interpreter's own files may be readable by root alone
    os.setgid(65534)
    os.setuid(65534)
sys.exit(stockbench.cli.main.run(sys.argv[1:]))
"""


def deposit_as(home: Path, *, preexec: object = None, code: str = AS_NOBODY) -> subprocess.CompletedProcess[str]:
    args = ["--home", str(home), "ledger", "cash", "main", "deposit", "777.25"]
    env = {**os.environ, "STOCKBENCH_HOME": str(home), "LC_ALL": "C.UTF-8"}
    return subprocess.run([sys.executable, "-c", code, *args], preexec_fn=preexec, capture_output=True, text=True,  # type: ignore[arg-type]
                          env=env, timeout=60, check=False)  # fmt: skip


def one_line_reason(result: subprocess.CompletedProcess[str], start: str) -> None:
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 1, result.stderr
    assert len(lines) == 2 and lines[0].startswith(start) and lines[1].startswith("hint: "), result.stderr


@pytest.fixture
def open_home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A workspace folder whose parents anyone may pass through (pytest's own are root's alone)."""
    with tempfile.TemporaryDirectory(prefix="stockbench-ro-") as parent:
        Path(parent).chmod(0o755)
        home = Path(parent) / "workspace"
        monkeypatch.setenv("STOCKBENCH_HOME", str(home))
        yield home


def test_a_read_only_folder_loses_nothing_committed(open_home: Path) -> None:
    home = open_home
    paths = books_workspace(home)
    for path in (home, *home.iterdir()):  # readable by anyone, writable by none but root
        path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        result = deposit_as(home)
    finally:
        for path in (home, *home.iterdir()):
            path.chmod(0o755 if path.is_dir() else 0o644)
    one_line_reason(result, f"error: The workspace folder {home} cannot be written")
    assert f"stockbench restore {BACKUP_NAME}" in result.stderr
    assert deposits(paths.database) == list(DEPOSITS)
    assert run(["--home", str(home), "ledger", "cash", "main", "deposit", "1.00"]) == 0  # writable again: it works
    assert deposits(paths.database) == [*DEPOSITS, 1]


FILE_LIMIT = 512  # bytes: the WAL (empty after a close) cannot take a deposit's entry


def small_files() -> None:
    """The fault-injecting layer: no file may grow past FILE_LIMIT; a write beyond fails with EFBIG, no signal."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))


FULL_DISK = "import sys\nfrom stockbench.cli.main import run\nsys.exit(run(sys.argv[1:]))\n"


def test_a_full_disk_loses_nothing_committed(home: Path) -> None:
    paths = books_workspace(home)
    result = deposit_as(home, preexec=small_files, code=FULL_DISK)
    one_line_reason(result, f"error: The disk holding {home} is full")
    assert deposits(paths.database) == list(DEPOSITS)
    assert run(["--home", str(home), "ledger", "cash", "main", "deposit", "2.00"]) == 0  # space again: it works
    assert deposits(paths.database) == [*DEPOSITS, 2]
