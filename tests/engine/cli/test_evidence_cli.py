"""`stockbench reports evidence REPORT --number | --quote | --evidence`: where a published report's number or quote
comes from, as JSON (the contract's keys) and as text; what the report does not cite is refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from stockbench.cli.main import run
from stockbench.evidence.lookup import report_citations

SYMBOL = "605903.SH"
DETAIL_KEYS = {"evidence_id", "kind", "source", "sha256", "media_type", "fetched_at", "intact", "passage",
               "highlight", "where", "found", "missing", "quote_check", "dropped"}  # fmt: skip


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo market with one offline report, built once for this module."""
    home = tmp_path_factory.mktemp("evidence-cli") / "market"
    assert run(["--home", str(home), "--json", "demo"]) == 0
    assert run(["--home", str(home), "--json", "analyze", SYMBOL]) == 0
    return home


@pytest.fixture
def call(published: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Any:
    """Run a command on this test's copy of the published workspace; its JSON (or, `as_json=False`, its text)."""
    home = tmp_path / "market"
    shutil.copytree(published, home, ignore=shutil.ignore_patterns("*.lock", "*.wal"))
    capsys.readouterr()

    def invoke(*args: str, code: int = 0, as_json: bool = True) -> Any:
        result = run(["--home", str(home), *(["--json"] if as_json else []), *args])
        captured = capsys.readouterr()
        assert result == code, captured.err
        if not as_json:
            return captured.out
        return json.loads(captured.out) if captured.out.strip() else None

    return invoke


def test_a_number_of_a_claim_traces_to_the_passage_holding_it(call: Any) -> None:
    [listed] = call("reports", "list")
    shown = call("reports", "show", listed["report_id"], "--format", "json")
    cited = report_citations(shown["draft"], shown["markdown"])
    claim = next(c for c in cited.claims if c.numbers and c.evidence_ids)
    number = claim.numbers[0].text
    answer = call("reports", "evidence", listed["report_id"], "--number", number)
    assert set(answer) == {"report_id", "request", "details"} and answer["report_id"] == listed["report_id"]
    assert answer["request"]["number"] == number and set(claim.evidence_ids) <= set(answer["request"]["evidence_ids"])
    first = answer["details"][0]
    assert set(first) == DETAIL_KEYS
    assert first["found"] and first["highlight"] and first["highlight"] in first["passage"] and first["where"]
    text = call("reports", "evidence", listed["report_id"], "--number", number, as_json=False)
    assert text.startswith(f"{listed['report_id']}: where {number} comes from") and first["evidence_id"] in text
    assert "  found" in text and f"»{first['highlight']}«" in text


def test_a_quote_and_a_cited_id_are_looked_up_too(call: Any) -> None:
    [listed] = call("reports", "list")
    draft = call("reports", "show", listed["report_id"], "--format", "json")["draft"]
    quote = draft["quotes"][0]
    answer = call("reports", "evidence", listed["report_id"], "--quote", quote["text"])
    [detail] = answer["details"]
    assert detail["evidence_id"] == quote["evidence_id"] and detail["found"] and detail["quote_check"] == ""
    by_id = call("reports", "evidence", listed["report_id"], "--evidence", quote["evidence_id"])
    assert by_id["request"] == {"evidence_ids": [quote["evidence_id"]], "number": None, "quote": None}
    assert by_id["details"][0]["found"] and by_id["details"][0]["sha256"]


def test_what_the_report_does_not_cite_is_refused(call: Any) -> None:
    [listed] = call("reports", "list")
    refused = call("reports", "evidence", listed["report_id"], "--number", "123456.789", code=1)["error"]
    assert refused["code"] == "not_found" and "numbers in its claims" in refused["hint"]
    assert (
        call("reports", "evidence", listed["report_id"], "--evidence", "ev-" + "0" * 24, code=1)["error"]["message"]
        == f"the report does not cite ev-{'0' * 24}"
    )
    assert call("reports", "evidence", "no-such-report", "--number", "1", code=1)["error"]["code"] == "not_found"
    assert run(["reports", "evidence", listed["report_id"]]) == 2  # one of the three is required
