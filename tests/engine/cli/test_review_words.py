"""Reviews, the track record and the eval speak the `--lang` language: under `--lang zh` what `feedback`,
`track-record` and `eval` print for people holds none of their English words (codes, ids and case titles stay as
they are), and under `--lang en` it is English."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from stockbench.cli.main import run

SYMBOL = "605903.SH"
# the English these commands printed under --lang zh before they went through the catalogue
ENGLISH = ("review ", "no review", " reports", "matured", "pending", "unscored", "benchmark", "stand-in", "Brier",
           "base rate", "cost per report", "as of", "passed", "failed", "invariants", "compared", "no earlier run",
           "building", "accept", "wait", "the call and the plan", "how useful", "verdict", "reviewed_at", "category",
           "title", "+00:00")  # fmt: skip
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo market with one offline report, built once for this module."""
    home = tmp_path_factory.mktemp("review-words") / "market"
    assert run(["--home", str(home), "--json", "demo"]) == 0
    assert run(["--home", str(home), "--json", "analyze", SYMBOL]) == 0
    return home


def _said(home: Path, language: str, capsys: pytest.CaptureFixture[str], report: str) -> dict[str, str]:
    said: dict[str, str] = {}

    def call(name: str, *args: str) -> None:
        code = run(["--home", str(home), "--lang", language, *args])
        captured = capsys.readouterr()
        assert code == 0, captured.err
        said[name] = captured.out + captured.err

    call("feedback codes", "feedback", "codes")
    call("feedback add", "feedback", report, "--verdict", "accept", "--reason", "good_call")
    call("feedback list", "feedback", "list")
    call("feedback lineage", "feedback", "lineage", report)
    call("track-record", "track-record")
    call("eval list", "eval", "--list", "--case", "technical_question")
    call("eval", "eval", "--case", "technical_question")
    return said


def _copy(published: Path, tmp_path: Path) -> Path:
    """This test's copy of the published workspace."""
    home = tmp_path / "market"
    shutil.copytree(published, home, ignore=shutil.ignore_patterns("*.lock", "*.wal"))
    return home


def _report(home: Path, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert run(["--home", str(home), "--json", "reports", "list"]) == 0
    report: str = json.loads(capsys.readouterr().out)[0]["report_id"]
    return report


def test_reviews_the_track_record_and_the_eval_speak_chinese(
    published: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = _copy(published, tmp_path)
    said = _said(home, "zh", capsys, _report(home, capsys))
    left = {name: [w for w in ENGLISH if w in text] for name, text in said.items()}
    assert not {n: w for n, w in left.items() if w}, "\n".join(f"{n}: {said[n]}" for n, w in left.items() if w)
    assert all(CJK.search(text) for text in said.values()), said
    assert "接受" in said["feedback add"] and "判断与计划都正确" in said["feedback codes"]
    assert "北京时间（UTC+08:00）" in said["track-record"] and "替代基准" in said["track-record"]
    assert "不变量：" in said["eval"] and "个通过" in said["eval"]


def test_they_speak_english_with_lang_en(published: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = _copy(published, tmp_path)
    said = _said(home, "en", capsys, _report(home, capsys))
    assert "good_call: the call and the plan were right" in said["feedback codes"]
    assert said["feedback add"].startswith("review RV") and said["feedback add"].rstrip().endswith(": accept")
    assert ": accept (good_call)" in said["feedback lineage"]
    assert "Beijing time (UTC+08:00): 1 reports, 0 matured, 1 pending" in said["track-record"]
    assert "a stand-in: the official index 000300.SH" in said["track-record"]
    assert "invariants: citation ok" in said["eval"] and "1 passed, 0 failed" in said["eval"]
    assert not [text for text in said.values() if CJK.search(text.replace("示例综合指数", ""))]
