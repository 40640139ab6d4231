"""End to end: two quote services disagree during a session, and the report says so.

A real workspace (bars imported, the clock stopped at 10:01 on a session), its data sources pointed at two loopback
replay servers (Tencent and Sina; every other endpoint left out, so nothing leaves the machine), then an offline
analysis. The fresh-quote gate is a `conflicting` gap naming both values and sources (nothing averaged), the gaps
section of the report says it in the report's language, and the publication gates still pass.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from stockbench.workbench import Workbench
from tests.engine.data.replay_server import ReplayServer, Reply
from tests.engine.data.test_corroboration import sina_line, tencent_line
from tests.engine.data.test_gates import DAY, SYMBOL, FixedClock, local
from tests.engine.data.test_sources import Wall, only


@pytest.fixture
def servers() -> Iterator[tuple[ReplayServer, ReplayServer]]:
    first, second = ReplayServer().start(), ReplayServer().start()
    yield first, second
    first.stop()
    second.stop()


@pytest.fixture
def loopback_only(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """A connection anywhere but this machine fails the test (and is recorded)."""
    attempts: list[object] = []
    connect = socket.socket.connect

    def guarded(self: socket.socket, address: Any) -> None:
        host = address[0] if isinstance(address, tuple) else str(address)
        if host not in ("127.0.0.1", "::1", "localhost"):
            attempts.append(address)
            raise AssertionError(f"network access attempted: {address!r}")
        connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)
    return attempts


def bars_csv(folder: Path) -> Path:
    """300 weekday sessions of 600519.SH up to the day before DAY, prices wandering around 1690."""
    days, day = [], DAY - timedelta(days=1)
    while len(days) < 300:
        if day.weekday() < 5:
            days.append(day)
        day -= timedelta(days=1)
    days.reverse()
    closes = [1600 + (i * 7) % 180 for i in range(len(days) + 1)]
    rows = [f"{SYMBOL},{d},{closes[i]}.00,{closes[i + 1] + 10}.00,{min(closes[i], closes[i + 1]) - 10}.00,"
            f"{closes[i + 1]}.00,{closes[i]}.00,{3_000_000 + i}" for i, d in enumerate(days)]  # fmt: skip
    rows[-1] = f"{SYMBOL},{days[-1]},1685.00,1700.00,1675.00,1690.00,1680.00,3000000"  # the previous close: 1690
    path = folder / "bars.csv"
    path.write_text("symbol,date,open,high,low,close,prev_close,volume\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def analysed(
    home: Path,
    tmp_path: Path,
    servers: tuple[ReplayServer, ReplayServer],
    language: str,
    sina_answer: str = sina_line(prev="1600.00"),  # by default Sina's previous close disagrees
) -> dict[str, Any]:
    tencent, sina = servers
    tencent.route("/q=sh600519", Reply.gbk(tencent_line()))
    sina.route("/list=sh600519", Reply.gbk(sina_answer))
    with Workbench.open(home, clock=FixedClock(local(DAY, 10, 1))) as bench:
        assert bench.data.import_file(bars_csv(tmp_path)).stored > 250
        only(bench.workspace.db, Wall(), {"quote.tencent": tencent.base_url, "quote.sina": sina.base_url})
        outcome = bench.research.analyze(SYMBOL, language=language).as_dict()
        assert outcome["status"] == "published", outcome
        assert bench.research.verify(outcome["report_id"]) == []
        gates = json.loads(bench.research.journal.stored(outcome["run_id"], "publish/gates", "result") or "{}")
        assert gates and all(found == [] for found in gates.values())  # published through every gate
        report: dict[str, Any] = bench.research.report(outcome["report_id"]).as_dict()
    assert tencent.seen("/q=sh600519") and sina.seen("/list=sh600519")
    return report


def test_a_conflict_between_two_quote_services_is_a_disclosed_gap_in_the_report(
    home: Path, tmp_path: Path, servers: tuple[ReplayServer, ReplayServer], loopback_only: list[object]
) -> None:
    report = analysed(home, tmp_path, servers, "zh")
    markdown = report["markdown"]
    [line] = [x for x in markdown.splitlines() if x.startswith("- 最新行情：")]
    assert "缺口" in line and "昨收价" in line and "腾讯财经 1690.00" in line and "新浪财经 1600.00" in line
    assert "未取平均" in line
    assert "1645.00" not in markdown  # never the average of the two
    assert loopback_only == []


def test_the_conflict_is_said_in_english_too(
    home: Path, tmp_path: Path, servers: tuple[ReplayServer, ReplayServer], loopback_only: list[object]
) -> None:
    markdown = analysed(home, tmp_path, servers, "en")["markdown"]
    [line] = [x for x in markdown.splitlines() if x.lower().startswith("- fresh quote:")]
    assert (
        "gap" in line
        and "previous close (Tencent Finance 1690.00, Sina Finance 1600.00)" in line
        and "neither is averaged" in line
    )
    assert loopback_only == []


@pytest.mark.parametrize("language", ["zh", "en"])
def test_two_services_answering_different_last_prices_is_a_recorded_problem_and_a_disclosed_gap(
    home: Path, tmp_path: Path, servers: tuple[ReplayServer, ReplayServer], loopback_only: list[object], language: str
) -> None:
    """Tencent answers a last price of 1700.00 and Sina 1650.00 (beyond the tolerance) for 600519.SH: the stored
    last is tagged conflicting, a source_disagreement data problem is recorded, and the report discloses the gap in
    its own language with the catalogue's words (no English in the Chinese one, no exception text) -- never 1675.00,
    the average."""
    from stockbench.data.crosscheck import problems
    from stockbench.research.wording.phrases import gap_words
    from tests.engine.research.test_report_language import chinese_in, engine_words_in, english_in

    report = analysed(home, tmp_path, servers, language, sina_line(last="1650.00"))
    markdown = report["markdown"]
    with Workbench.open(home, clock=FixedClock(local(DAY, 10, 1))) as bench:
        view = bench.data.quote(SYMBOL, fetch=False)
        found = problems(bench.workspace.db, SYMBOL)
    assert view.corroboration is not None
    tags = {c.field: c.tag for c in view.corroboration.checks}
    assert tags["last"] == "conflicting" and tags["prev_close"] == "corroborated"
    [problem] = [p for p in found if p["kind"] == "source_disagreement"]
    detail = problem["detail"]
    assert isinstance(detail, dict) and detail["field"] == "last" and problem["as_of"] == DAY
    assert {(detail["a_source"], detail["a_value"]), (detail["b_source"], detail["b_value"])} == {
        ("tencent", "1700.00"),
        ("sina", "1650.00"),
    }

    # The report's JSON: the fresh-quote gap is listed and disclosed; the average is nowhere.
    assert "fresh_quote" in report["summary"]["gaps"]
    assert {"name": "fresh_quote", "reason": "disclosed"} in report["draft"]["gaps"]
    assert "1675" not in json.dumps(report, ensure_ascii=False, default=str)

    # The report's text: the gate line and the gap disclosure, in the catalogue's words of the report's language.
    gate = "- 最新行情：" if language == "zh" else "- Fresh quote:"
    [line] = [x for x in markdown.splitlines() if x.lower().startswith(gate.lower())]
    words = gap_words("fresh_quote", language)  # type: ignore[arg-type]
    [disclosure] = [x for x in markdown.splitlines() if words in x and "1650.00" in x]  # the gaps section's line
    if language == "zh":
        for text in (line, disclosure):
            assert "缺口" in markdown and "最新价不一致" in text and "腾讯财经 1700.00" in text
            assert "新浪财经 1650.00" in text and "未取平均" in text
        assert english_in(markdown) == [] and engine_words_in(markdown, "zh") == []
    else:
        for text in (line, disclosure):
            assert "disagree on the last price (Tencent Finance 1700.00, Sina Finance 1650.00)" in text
            assert "neither is averaged" in text
        assert chinese_in(markdown, {"贵州茅台"}) == []
    assert not any(word in markdown for word in ("Error", "Exception", "Traceback", "errno"))
    assert loopback_only == []


@pytest.mark.parametrize("language", ["zh", "en"])
def test_two_services_answering_different_volumes_is_a_recorded_problem_and_a_gap_of_its_own_in_the_report(
    home: Path, tmp_path: Path, servers: tuple[ReplayServer, ReplayServer], loopback_only: list[object], language: str
) -> None:
    """Tencent and Sina agree on the prices of 600519.SH but answer 100,000 and 150,000 shares (beyond the volume
    tolerance): the volume is tagged conflicting, a source_disagreement problem is recorded, and the fresh-quote gate
    is a gap of its own (volume_conflicting) the report discloses in its language with both values and sources --
    never 125,000, the average."""
    from stockbench.data.crosscheck import problems
    from stockbench.research.blocks import GateFact
    from stockbench.research.wording.phrases import gap_words
    from tests.engine.research.test_report_language import chinese_in, engine_words_in, english_in

    report = analysed(home, tmp_path, servers, language, sina_line(volume=150_000))
    markdown = report["markdown"]
    with Workbench.open(home, clock=FixedClock(local(DAY, 10, 1))) as bench:
        view = bench.data.quote(SYMBOL, fetch=False)
        found = problems(bench.workspace.db, SYMBOL)
        gate = next(g for g in bench.data.gates(SYMBOL, fetch=False) if g.name == "fresh_quote")
    assert view.corroboration is not None
    tags = {c.field: c.tag for c in view.corroboration.checks}
    assert tags == {"last": "corroborated", "prev_close": "corroborated", "volume": "conflicting"}
    [problem] = [p for p in found if p["kind"] == "source_disagreement"]
    assert isinstance(problem["detail"], dict) and problem["detail"]["field"] == "volume"
    assert (gate.status, gate.code, gate.values["value_a"], gate.values["value_b"]) == (
        "gap", "volume_conflicting", "100000", "150000"
    )  # fmt: skip
    assert "fresh_quote" in report["summary"]["gaps"]
    assert "125000" not in json.dumps(report, ensure_ascii=False, default=str)

    words = gap_words(
        "fresh_quote", language, GateFact(gate.name, gate.status, gate.reason, code=gate.code, values=gate.values)
    )  # type: ignore[arg-type]
    [disclosure] = [x for x in markdown.splitlines() if words in x]  # the gaps section's line
    if language == "zh":
        assert words.startswith("两个数据源的成交量不一致")
        assert "腾讯财经 100000 股" in disclosure and "新浪财经 150000 股" in disclosure and "未取平均" in disclosure
        assert english_in(markdown) == [] and engine_words_in(markdown, "zh") == []
    else:
        assert words.startswith("the services disagree on the volume")
        assert "(Tencent Finance 100000 shares, Sina Finance 150000 shares)" in disclosure
        assert chinese_in(markdown, {"贵州茅台"}) == []
    assert loopback_only == []
