"""Times the CLI shows to a person are in the exchange's time zone with the zone named, as a report says them (the
ledger's history and a recorded deposit, the report and run lists), in the `--lang` language; `--json` keeps the
ISO instants it always had."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from stockbench.cli.main import run

BEIJING = {"zh": "北京时间（UTC+08:00）", "en": "Beijing time (UTC+08:00)"}
HONG_KONG = {"zh": "香港时间（UTC+08:00）", "en": "Hong Kong time (UTC+08:00)"}
ISO_INSTANT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")  # an instant as JSON writes it, not as people read it


def _call(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = run(list(args))
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out + captured.err


@pytest.fixture
def books(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A CNY account with a deposit at 09:00 and a fill at 10:00 (Beijing time), and an HKD account's deposit."""
    home = tmp_path / "books"
    base = ["--home", str(home), "--as-of", "2024-03-15"]
    _call(capsys, *base, "ledger", "account", "add", "main", "--currency", "CNY")
    _call(capsys, *base, "ledger", "cash", "main", "deposit", "200000", "--at", "2024-01-02T09:00")
    _call(capsys, *base, "ledger", "fill", "main", "600519", "--side", "buy", "--qty", "100", "--price", "100.10",
          "--at", "2024-01-03T10:00")  # fmt: skip
    _call(capsys, *base, "ledger", "account", "add", "hk", "--currency", "HKD")
    _call(capsys, *base, "ledger", "cash", "hk", "deposit", "5000", "--at", "2024-01-02T01:30:00+00:00")
    return home


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_history_shows_exchange_time_with_the_zone_named(
    books: Path, language: str, capsys: pytest.CaptureFixture[str]
) -> None:
    said = _call(capsys, "--home", str(books), "--lang", language, "ledger", "history", "main")
    assert f"2024-01-02 09:00:00 {BEIJING[language]}" in said  # the deposit
    assert f"2024-01-03 10:00:00 {BEIJING[language]}" in said  # the fill
    assert not ISO_INSTANT.search(said) and "+00:00" not in said, said
    hk = _call(capsys, "--home", str(books), "--lang", language, "ledger", "history", "hk")
    assert f"2024-01-02 09:30:00 {HONG_KONG[language]}" in hk  # an HKD account's cash: Hong Kong time


def test_the_history_as_json_keeps_its_utc_instants(books: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = json.loads(_call(capsys, "--home", str(books), "--lang", "zh", "--json", "ledger", "history", "main"))
    assert [r["at"] for r in rows] == ["2024-01-02T01:00:00+00:00", "2024-01-03T02:00:00+00:00"]


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_recorded_deposit_says_when_in_exchange_time(
    tmp_path: Path, language: str, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--home", str(tmp_path / "w"), "--lang", language]
    _call(capsys, *base, "ledger", "account", "add", "main", "--currency", "CNY")
    said = _call(capsys, *base, "ledger", "cash", "main", "deposit", "100", "--at", "2024-01-02T09:00")
    assert f"2024-01-02 09:00:00 {BEIJING[language]}" in said and "+00:00" not in said
    data = json.loads(_call(capsys, *base, "--json", "ledger", "cash", "main", "deposit", "1", "--at", "2024-01-02"))
    assert data["at"] == "2024-01-02T10:00:00+00:00"  # a bare date is that day's 18:00 Beijing time


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo market with one offline report, built once for this module."""
    home = tmp_path_factory.mktemp("times-cli") / "market"
    assert run(["--home", str(home), "--json", "demo"]) == 0
    assert run(["--home", str(home), "--json", "analyze", "605903.SH"]) == 0
    return home


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_report_and_run_lists_show_exchange_time(
    published: Path, language: str, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    reports: list[dict[str, Any]] = json.loads(_call(capsys, "--home", str(published), "--json", "reports", "list"))
    local = reports[0]["published_at"]
    assert local.endswith("+08:00")  # the JSON was already in exchange time with its offset: kept as it is
    said = _call(capsys, "--home", str(published), "--lang", language, "reports", "list")
    assert f"{local[:10]} {local[11:19]} {BEIJING[language]}" in said and not ISO_INSTANT.search(said), said
    runs = json.loads(_call(capsys, "--home", str(published), "--json", "runs", "list"))
    assert runs[0]["started"].endswith("+00:00")  # the JSON keeps the UTC instant
    listed = _call(capsys, "--home", str(published), "--lang", language, "runs", "list")
    assert BEIJING[language] in listed and not ISO_INSTANT.search(listed), listed
    words = {"wait": "观望", "avoid": "回避", "buy": "买入"}
    words = words if language == "zh" else {a: a for a in words}
    assert words[runs[0]["action"]] in listed.splitlines()[2], listed  # the run's action, in words


@pytest.mark.parametrize("language", ["zh", "en"])
def test_evidence_info_and_a_quick_review_say_their_times_as_people_read_them(
    published: Path, language: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`reports evidence` (when each evidence was fetched), `info` (a replayed clock in exchange time; the workspace's
    creation in the user's own zone, named: no exchange applies) and `review-quick` (its baseline's publication)
    show no ISO instant, and `reports evidence` speaks the `--lang` language throughout."""
    capsys.readouterr()
    reports = json.loads(_call(capsys, "--home", str(published), "--json", "reports", "list"))
    report = reports[0]["report_id"]
    said = _call(capsys, "--home", str(published), "--lang", language, "reports", "evidence", report,
                 "--number", "358.53")  # fmt: skip
    assert not ISO_INSTANT.search(said) and "+00:00" not in said, said
    if language == "zh":
        assert "358.53 的来源" in said and "获取于 " in said and BEIJING["zh"] in said and "（计算），来源 " in said
        assert not re.search(r"\b(fetched|from|found|where|comes)\b", said), said
    else:
        assert "where 358.53 comes from" in said and f"fetched 2026-11-27 18:00:00 {BEIJING['en']}" in said
    info = _call(capsys, "--home", str(published), "--lang", language, "--as-of", "2026-11-20", "info")
    assert f"2026-11-20 18:00:00 {BEIJING[language]}" in info and not ISO_INSTANT.search(info), info
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [A-Z+\-0-9]+", info.splitlines()[4]), info  # local, named
    quick = _call(capsys, "--home", str(published), "--lang", language, "review-quick", "605903.SH")
    assert BEIJING[language] in quick and not ISO_INSTANT.search(quick), quick


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_cash_entry_in_the_future_is_refused_in_exchange_time(
    tmp_path: Path, language: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The refusal names the instant as people read it in the account's market (it gave the ISO instant in UTC)."""
    base = ["--home", str(tmp_path / "books"), "--as-of", "2024-03-15", "--lang", language]
    _call(capsys, *base, "ledger", "account", "add", "hk", "--currency", "HKD")
    code = run([*base, "ledger", "cash", "hk", "deposit", "100", "--at", "2024-06-03T01:30:00+00:00"])
    said = capsys.readouterr().err
    assert code == 1 and f"2024-06-03 09:30:00 {HONG_KONG[language]}" in said, said
    assert ("在未来" in said) if language == "zh" else ("is in the future" in said)
    assert not ISO_INSTANT.search(said) and "+00:00" not in said, said
    data = json.loads(run_json(capsys, [*base, "--json", "ledger", "cash", "hk", "deposit", "100", "--at",
                                        "2024-06-03T01:30:00+00:00"]))  # fmt: skip
    assert data["error"]["code"] == "invalid_input" and HONG_KONG[language] in data["error"]["message"]


def run_json(capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    assert run(args) == 1
    return capsys.readouterr().out
