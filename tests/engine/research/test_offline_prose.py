"""The offline model's prose on the demo: verdicts written from each run's own facts (no sentence shared between
two symbols), risks that name a number and cite the block it comes from, and continuity that grades the old call
against the price path since the previous report (its return and which zones were reached), every figure
grounded: each report publishes with every gate passing."""

from __future__ import annotations

import json
import re
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from stockbench.cli.main import run
from stockbench.market.instruments import identify
from stockbench.research.blocks import PreviousReport, RunFacts, parse
from stockbench.research.context import price_line
from stockbench.research.continuity import Session, graded, since_report
from stockbench.research.offline_continuity import continuity
from stockbench.research.offline_prose import Reading, pct
from stockbench.research.replay import Replayer
from stockbench.research.statements import VERDICT_PARTS
from stockbench.research.summary import ZoneLevels
from stockbench.research.wording import price, say
from stockbench.workbench import Workbench
from tests.engine.research.conftest import BUY_SYMBOL, DEMO_SYMBOL
from tests.engine.research.test_offline_run import assert_published_and_clean

FIRST, LATER = date(2026, 8, 3), date(2026, 9, 14)
_SENTENCE = re.compile(r"[。；;！？!?]\s*")
_NUMBER = re.compile(r"(?<![A-Za-z\d])\d+(?:\.\d+)?%?")
_CJK = re.compile(r"[\u4e00-\u9fff]")


def accepted(bench: Workbench, run_id: str) -> dict[str, Any]:
    """The run's accepted decide-stage judgments, merged."""
    found: dict[str, Any] = {}
    for _, _, payload in bench.research.journal.results(run_id, "decide/tool/"):
        result = json.loads(payload)
        if result.get("accepted") and result.get("judgment") == "judgments":
            found.update(result["value"])
    assert found, "no judgments were accepted"
    return found


def prepared(bench: Workbench, run_id: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(bench.research.journal.stored(run_id, "prepare/facts", "result") or "{}")
    return found


def sentences(text: str) -> set[str]:
    return {s.strip() for s in _SENTENCE.split(text) if s.strip()}


def test_two_symbols_share_no_verdict_sentence(bench: Workbench) -> None:
    verdicts, reports = [], []
    for symbol in (DEMO_SYMBOL, BUY_SYMBOL):
        outcome = bench.research.analyze(symbol).as_dict()
        reports.append(assert_published_and_clean(bench, outcome))
        verdicts.append(accepted(bench, outcome["run_id"])["debate_verdict"])
    said = [{s for part in VERDICT_PARTS for s in sentences(v[part]["text"])} for v in verdicts]
    assert all(said) and said[0].isdisjoint(said[1]), said[0] & said[1]
    for verdict, report in zip(verdicts, reports, strict=True):
        for part in VERDICT_PARTS:  # each answer cites evidence and states a figure of its own run
            assert verdict[part]["evidence"] and _NUMBER.search(verdict[part]["text"]), (part, verdict[part])
        for part in ("strongest_case_for_selling", "most_likely_wrong", "conflicting_evidence"):
            label = say(f"report.verdict.{part}", "zh", text="").strip()
            assert f"{label}{verdict[part]['text']}" in report["markdown"]  # labelled by its question


@pytest.mark.parametrize("symbol", [DEMO_SYMBOL, BUY_SYMBOL, "688901.SH"])
def test_every_risk_names_a_number_or_a_gap_and_cites_its_block(bench: Workbench, symbol: str) -> None:
    outcome = bench.research.analyze(symbol).as_dict()
    assert_published_and_clean(bench, outcome)  # the citations gate: each number is a value of what it cites
    risks = accepted(bench, outcome["run_id"])["risks"]
    gaps = prepared(bench, outcome["run_id"])["gaps"]
    gap_words = {say(f"gate.{g}", "zh") for g in gaps}
    assert len(risks) >= 2
    for risk in risks:
        named_gap = any(word in risk["text"] for word in gap_words)
        assert risk["evidence"] and (_NUMBER.search(risk["text"]) or named_gap), risk
        assert "规则表未给出明确的看空信号" not in risk["text"]
    zones = outcome["zones"]
    assert any(zones["stop"] in r["text"] for r in risks)  # the price risk names the stop


def test_continuity_grades_the_old_call_against_the_path_since(bench: Workbench) -> None:
    replayer = Replayer(bench.workspace.db, bench.market)
    for symbol in (DEMO_SYMBOL, BUY_SYMBOL):
        first = replayer.research_at(FIRST).analyze(symbol).as_dict()
        later = replayer.research_at(LATER).analyze(symbol).as_dict()
        assert first["status"] == later["status"] == "published"
        assert_published_and_clean(bench, later)
        previous = prepared(bench, later["run_id"])["previous_report"]
        since = previous["since"]
        assert previous["report_id"] == first["report_id"] and since["from_day"] == FIRST.isoformat()
        _check_path(bench, symbol, since, first["zones"])
        told = accepted(bench, later["run_id"])["continuity"]
        assert previous["evidence_id"] in told["evidence"]
        assert first["report_id"] in told["old_plan"]
        assert f"{pct(Decimal(since['return_pct']))}%" in told["what_happened"]  # the return since
        for side, event in (("buy", "buy_zone"), ("sell", "sell_zone")):
            band = first["zones"][side]
            day = since["touched"][event]
            key = f"offline.continuity.{side}_touched" if day else f"offline.continuity.{side}_untouched"
            expected = say(key, "zh", low=price(Decimal(band["low"])), high=price(Decimal(band["high"])), day=day or "")
            assert expected in told["what_happened"], (expected, told["what_happened"])
        verdict = {"right": "判断正确", "wrong": "判断错了", "open": "尚无定论"}[since["grade"]]
        assert verdict in told["what_changed"]


def _check_path(bench: Workbench, symbol: str, since: dict[str, Any], zones: dict[str, Any]) -> None:
    """The return since and the first sessions the old zones were reached, recomputed from the bars here."""
    bars = bench.workspace.db.fetchall(
        "SELECT day, high, low, close FROM bars WHERE symbol = ? AND day >= ? AND day <= ? ORDER BY day",
        [symbol, FIRST, LATER],
    )
    then = Decimal(bars[0][3])
    after = [(d, Decimal(h), Decimal(lo)) for d, h, lo, _ in bars[1:]]
    assert since["sessions"] == len(after)
    expected = ((Decimal(bars[-1][3]) / then - 1) * 100).quantize(Decimal("0.01"))
    assert abs(Decimal(since["return_pct"]) - expected) <= Decimal("0.01")  # no ex-rights day in the demo period
    buy_low, buy_high = Decimal(zones["buy"]["low"]), Decimal(zones["buy"]["high"])
    reached = next((d for d, h, lo in after if lo <= buy_high and h >= buy_low), None)
    assert since["touched"]["buy_zone"] == (reached.isoformat() if reached else None)
    assert Decimal(since["high"]) == max(h for _, h, _ in after)


def test_an_old_avoid_that_missed_a_rise_is_said_so() -> None:
    """An avoid at 100 under a sell zone of 105-108, then a rise to 239: wrong, and the prose says by how much."""
    zones = ZoneLevels(Decimal(90), Decimal(92), Decimal(105), Decimal(108), Decimal(85))
    closes = [100, 104, 110, 130, 180, 239]
    history = _history(closes)
    since = since_report(history, date(2026, 3, 2), Decimal(100), zones, "avoid")
    assert since is not None
    assert (since.grade, since.first, since.return_pct) == ("wrong", "above_sell", Decimal("139.00"))
    previous = PreviousReport("R-OLD", "2026-03-02", "avoid", _zones_json(zones), since=since)
    told = continuity(Reading("zh", "示例", "600519.SH"), previous, (), "wait")
    assert "错过了这段上涨" in told["what_changed"] and "139.00%" in told["what_changed"]
    assert "累计上涨 139.00%" in told["what_happened"]
    english = continuity(Reading("en", "Example", "600519.SH"), previous, (), "wait")
    assert not any(_CJK.search(str(v)) for v in english.values())
    assert "missed the rise" in english["what_changed"]


@pytest.mark.parametrize(
    ("action", "path", "grade", "notes"),
    [
        ("hold", [(101, 99, 100), (107, 104, 106)], "right", ()),  # the sell zone before the stop
        ("hold", [(99, 84, 84.5), (107, 104, 106)], "wrong", ("stopped_after_entry",)),  # a close under the stop
        ("buy", [(91, 89, 90), (99, 84, 84.5)], "wrong", ("stopped_after_entry",)),  # filled, then stopped
        ("buy", [(106, 100, 105), (101, 97, 98)], "right", ("entry_missed",)),  # right, but never filled
        ("buy", [(106, 100, 105), (91, 89, 90), (93, 90, 92)], "open", ("target_before_entry",)),
        ("wait", [(93, 91, 92), (110, 100, 109)], "right", ()),  # the entry came first
        # the entry, the sell zone, then a close under the stop: a buy there sold first (it read "stopped out")
        ("wait", [(93, 91, 92), (106, 104, 105), (99, 84, 84.5)], "right", ("target_after_entry",)),
        ("wait", [(93, 91, 92), (106, 84, 84.5)], "right", ("stopped_after_entry",)),  # one session: the stop's
        ("avoid", [(95, 88, 89), (109, 100, 109)], "right", ("reversed_later",)),  # the fall first, then a rise
        ("avoid", [(95, 88, 89), (104, 100, 103)], "right", ()),  # the fall first, no rise over the sell zone after
        ("sell", [(109, 100, 109), (95, 88, 89)], "wrong", ()),  # the rise first: wrong, nothing to add
    ],
)
def test_a_call_is_graded_by_which_of_its_levels_came_first(
    action: str, path: list[tuple[float, float, float]], grade: str, notes: tuple[str, ...]
) -> None:
    zones = ZoneLevels(Decimal(90), Decimal(92), Decimal(105), Decimal(108), Decimal(85))
    sessions = [Session(date(2026, 3, 3 + i), Decimal(str(h)), Decimal(str(lo)), Decimal(str(c)))
                for i, (h, lo, c) in enumerate(path)]  # fmt: skip
    found = graded(action, Decimal(100), zones, sessions)
    assert (found.grade, found.notes) == (grade, notes)


def test_the_same_session_twice_is_too_early_to_grade(bench: Workbench) -> None:
    first = bench.research.analyze(DEMO_SYMBOL).as_dict()
    second = bench.research.analyze(DEMO_SYMBOL).as_dict()
    assert_published_and_clean(bench, second)
    since = prepared(bench, second["run_id"])["previous_report"]["since"]
    assert (since["sessions"], since["grade"]) == (0, "too_early")
    told = accepted(bench, second["run_id"])["continuity"]
    assert first["report_id"] in told["old_plan"] and since["from_day"] in told["what_happened"]


def test_an_english_report_has_english_prose(bench: Workbench) -> None:
    outcome = bench.research.analyze(BUY_SYMBOL, language="en").as_dict()
    assert_published_and_clean(bench, outcome)
    judged = accepted(bench, outcome["run_id"])
    name = bench.market.registry.instrument(BUY_SYMBOL).name or ""
    texts = [judged["debate_verdict"][p]["text"] for p in VERDICT_PARTS]
    texts += [r["text"] for r in judged["risks"]] + [str(judged["continuity"][k]) for k in ("old_plan",
              "what_happened", "what_changed", "what_to_do")]  # fmt: skip
    for text in texts:
        assert not _CJK.search(text.replace(name, "")), text


def _history(closes: list[int]) -> Any:
    from stockbench.analytics.service import History

    days = [date(2026, 3, 2 + i) for i in range(len(closes))]
    raw = pl.DataFrame(
        {"day": days, "high": [Decimal(c) for c in closes], "low": [Decimal(c) for c in closes],
         "close": [Decimal(c) for c in closes]},
        schema={"day": pl.Date, "high": pl.Decimal(18, 4), "low": pl.Decimal(18, 4), "close": pl.Decimal(18, 4)},
    )  # fmt: skip
    adjusted = raw.with_columns(pl.col(c).cast(pl.Float64) for c in ("high", "low", "close"))
    return History(identify("600519.SH").instrument, raw, adjusted)


def _zones_json(zones: ZoneLevels) -> dict[str, Any]:
    return {
        "buy": {"low": str(zones.buy_low), "high": str(zones.buy_high)},
        "sell": {"low": str(zones.sell_low), "high": str(zones.sell_high)},
        "stop": str(zones.stop),
    }


def test_the_path_since_is_read_back_typed() -> None:
    zones = ZoneLevels(Decimal(90), Decimal(92), Decimal(105), Decimal(108), Decimal(85))
    since = since_report(_history([100, 93, 91, 84]), date(2026, 3, 2), None, zones, "wait")
    assert since is not None and since.touched["buy_zone"] == date(2026, 3, 4)
    stored = {"report_id": "R-OLD", "published_at": "2026-03-02", "action": "wait", "since": since.as_json()}
    assert parse(PreviousReport, json.loads(json.dumps(stored))).since == since


@pytest.mark.realdata
def test_an_old_wait_that_missed_the_rise_of_300750_is_graded_wrong(
    shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """300750 as of 2020-03-20 (the COVID low), then as of 2021-02-18 after it more than tripled: the continuity
    states the return since and that the old call missed the rise, and the report publishes."""
    home = str(tmp_path / "real")
    assert run(["--home", home, "--json", "data", "import", str(shared_data / "ashare_full" / "sz300750.csv")]) == 0
    capsys.readouterr()
    for day in ("2020-03-20", "2021-02-18"):
        assert run(["--home", home, "--as-of", day, "--json", "analyze", "300750.SZ", "--language", "zh"]) == 0
        outcome = json.loads(capsys.readouterr().out)
        assert outcome["status"] == "published", outcome["reason"]
    with Workbench.open(Path(home)) as bench:
        since = prepared(bench, outcome["run_id"])["previous_report"]["since"]
        told = accepted(bench, outcome["run_id"])["continuity"]
    assert Decimal(since["return_pct"]) > 100 and since["touched"]["buy_zone"] is None
    assert f"累计上涨 {pct(Decimal(since['return_pct']))}%" in told["what_happened"]
    assert since["call"] in {"wait", "bearish"}  # no buy with the valuation history a gap (unknown caps it)
    assert since["grade"] == "wrong" and "错过了这段上涨" in told["what_changed"]


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_stretch_above_ma250_is_a_risk_only_beyond_the_baseline_s_overheating_limit(language: str) -> None:
    """A close 24.76% above ma250 lies in the v1.3 setup's healthy range (10-50%): the offline model does not name
    it as a risk (it did, against the scenario table's move of a few percent). At 56.27%, where the baseline's
    `extension` check failed, it is the risk, with the baseline's own limit, citing the price and baseline blocks."""
    from stockbench.research.blocks import BaselineFact, PriceFactsFact
    from stockbench.research.offline_prose import findings

    ev = {"price": "EV-PRICE", "baseline": "EV-BASE", "zones": "EV-ZONES", "states": "EV-STATES"}

    def reading(distance: str, reasons: tuple[dict[str, Any], ...]) -> Reading:
        close, ma250 = (
            Decimal("2050.00"),
            (Decimal("2050.00") / (1 + Decimal(distance) / 100)).quantize(Decimal("0.01")),
        )
        facts = PriceFactsFact(day="2021-02-18", close=close, ma250=ma250, ma250_distance_pct=Decimal(distance))
        baseline = BaselineFact(direction="wait", reasons=reasons)
        return Reading(language=language, name="贵州茅台", symbol="600519.SH", close=close, price=facts,
                       baseline=baseline, ev=ev)  # type: ignore[arg-type]  # fmt: skip

    healthy = findings(reading("24.76", ()), "bear")
    assert "ma250_extended" not in [f.code for f in healthy]
    failed = {"code": "check_failed", "check": "extension", "value": 56.27, "op": "<=", "limit": 50, "unit": "pct"}
    hot = {f.code: f for f in findings(reading("56.27", (failed,)), "bear")}
    assert {"EV-PRICE", "EV-BASE"} <= set(hot["ma250_extended"].evidence)
    text = hot["ma250_extended"].text
    assert "56.27%" in text and "50%" in text
    assert ("过热上限" in text) if language == "zh" else ("overheating limit" in text)


MEANING_EN = {"*ST": "delisting risk warning", "ST": "other risk warning"}


@pytest.mark.parametrize(
    ("symbol", "flag", "meaning", "finding"),
    [("605905.SH", "*ST", "退市风险警示", "公司面临终止上市的风险"),
     ("003904.SZ", "ST", "其他风险警示", "交易所认定公司财务或经营存在异常")],
)  # fmt: skip
def test_a_stock_under_special_treatment_says_so_first_among_its_risks(
    bench: Workbench, symbol: str, flag: str, meaning: str, finding: str
) -> None:
    """*ST600078 as of 2021-06-30 (the real file) read as any stock 55% off its high: its delisting risk warning
    and its 5% limit were said nowhere. The demo's 605905.SH has been *ST since 2024-04-30 and 003904.SZ ST since
    2022-05-05, both main board, so 10% since 2026-07-06."""
    outcome = bench.research.analyze(symbol).as_dict()
    report = assert_published_and_clean(bench, outcome)  # the limit is a value of the price facts it cites
    facts = accepted(bench, outcome["run_id"])
    first = facts["risks"][0]
    assert first["text"].startswith(f"{flag}（{meaning}）：{finding}；日涨跌幅限制 10%"), first
    stored = bench.research.journal.stored(outcome["run_id"], "preprocess/facts", "result")
    price_facts = RunFacts.of({"analytics": json.loads(stored or "{}")}).analytics.price  # type: ignore[union-attr]
    assert price_facts is not None and (price_facts.special_treatment, price_facts.limit_pct) == (flag, 10)
    assert price_facts.evidence_id in first["evidence"]
    assert f"；{flag}：{meaning}，日涨跌幅限制 10%；" in report["markdown"]  # in the price line of the context
    if flag == "*ST":  # the weightiest risk there is: the verdict's strongest case for selling too
        assert facts["debate_verdict"]["strongest_case_for_selling"]["text"] == first["text"]
    english = price_line(price_facts, "en")
    assert english is not None and f"; {flag}: {MEANING_EN[flag]}, daily price limit 10%; " in english
    code = "special_delisting" if flag == "*ST" else "special_other"  # the risk says the warning as the line does
    assert say(f"offline.finding.{code}", "en", flag=flag, limit="10").startswith(
        f"{flag} (a {MEANING_EN[flag]})" if flag == "*ST" else f"{flag} ({MEANING_EN[flag]})"
    )


def test_the_limit_is_the_one_in_force_on_the_as_of_session_and_a_plain_stock_has_none(demo_home: Path) -> None:
    from stockbench.clock import ReplayClock

    with Workbench.open(demo_home, clock=ReplayClock.as_of(date(2026, 6, 30))) as bench:
        facts = bench.analytics.price_facts("605905.SH")
        assert (facts.special_treatment, facts.limit_pct) == ("*ST", Decimal("5.00"))  # main-board ST: 5% until 07-03
        plain = bench.analytics.price_facts(DEMO_SYMBOL)
        assert (plain.special_treatment, plain.limit_pct) == (None, Decimal("10.00"))
        outcome = bench.research.analyze(DEMO_SYMBOL).as_dict()
        report = assert_published_and_clean(bench, outcome)
        assert "风险警示" not in report["markdown"] and "risk warning" not in report["markdown"]
    with Workbench.open(demo_home, clock=ReplayClock.as_of(date(2024, 4, 26))) as bench:  # before it turned *ST
        assert bench.analytics.price_facts("605905.SH").special_treatment == "ST"
