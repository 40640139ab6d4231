"""The quick review on the demo market: the baseline, every change-list item at its level, answers checked like
judgments (levels, actions, paths, grounded numbers), thesis-level news never adjudicated, and the CLI's JSON."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from stockbench.cli.main import run
from stockbench.clock import MARKET_TZ, ReplayClock
from stockbench.data.records import Announcement, MoneyFlowDay, Quote
from stockbench.errors import InvalidInput, NotFound, UserError
from stockbench.market.limits import price_limits
from stockbench.research.conversation import read_facts
from stockbench.research.models import BasePort, Call, Reply
from stockbench.research.outcomes import QuickOutcome
from stockbench.research.plan_check import latest_report, report_plan
from stockbench.research.quick_review import STAGE, OfflineQuickReview
from stockbench.workbench import Workbench
from tests.engine.research.conftest import DEMO_SYMBOL, holding_account

CN = MARKET_TZ["CN"]
REVIEW_AT = datetime(2026, 11, 30, 10, 30, tzinfo=CN)  # the Monday session after the report (Friday evening)
QUOTED_AT = datetime(2026, 11, 30, 10, 25, tzinfo=CN)
LAST_CLOSE = Decimal("358.53")  # the demo symbol's close on 2026-11-27
THESIS_TITLE = "示例酱香酒业：关于持股5%以上股东减持股份计划的预披露公告"
NOTE_TITLE = "示例酱香酒业：关于召开2026年第二次临时股东大会的通知"


@pytest.fixture(scope="module")
def reported(demo_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo market with a published offline report on the demo symbol (account main holds it)."""
    home = tmp_path_factory.mktemp("quick-review") / "market"
    shutil.copytree(demo_template, home)
    with Workbench.open(home) as bench:
        holding_account(bench, DEMO_SYMBOL, qty=400)
        assert bench.research.analyze(DEMO_SYMBOL, account="main").status == "published"
    return home


@pytest.fixture
def market(reported: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "market"
    shutil.copytree(reported, home)
    monkeypatch.setenv("STOCKBENCH_HOME", str(home))
    return home


@pytest.fixture
def monday(market: Path) -> Iterator[Workbench]:
    """The workspace on a replay clock in Monday's session, 10:30."""
    with Workbench.open(market, clock=ReplayClock(REVIEW_AT)) as bench:
        yield bench


def quote(
    bench: Workbench,
    last: str,
    *,
    prev: Decimal = LAST_CLOSE,
    low: str | None = None,
    high: str | None = None,
    volume: int = 12_000_000,
    at: datetime = QUOTED_AT,
) -> None:
    """A live quote of the demo symbol as a provider would have stored it."""
    price = Decimal(last)
    record = Quote(
        DEMO_SYMBOL,
        at,
        price,
        prev,
        LAST_CLOSE,
        Decimal(high or last),
        Decimal(low or last),
        volume,
        Decimal("4300000000"),
        "demo",
    )
    bench.data.cache.store_quotes([record], fetched_at=at)


def announce(bench: Workbench, source_id: str, title: str, category: str, at: datetime) -> None:
    item = Announcement(
        DEMO_SYMBOL, source_id, at, title, category, f"demo://announcements/{source_id}", "demo", "正文"
    )
    bench.data.cache.store_announcements([item], fetched_at=at)


def flow(bench: Workbench, main_net: str) -> None:
    day = MoneyFlowDay(DEMO_SYMBOL, date(2026, 11, 30), Decimal(main_net), None, None, None, None, "demo")
    bench.data.cache.store_money_flow([day], fetched_at=QUOTED_AT)


def baseline_capital(bench: Workbench) -> str:
    report_id = latest_report(bench.workspace.db, DEMO_SYMBOL, bench.clock.now())
    assert report_id is not None
    capital = report_plan(bench.workspace.db, report_id).capital
    assert capital in {"inflow", "outflow"}, capital
    return capital


@dataclass(frozen=True)
class Seen:
    """A quick review as its JSON shows it: what the CLI prints, and what the assertions below read."""

    run_id: str
    baseline: dict[str, Any]
    changes: list[dict[str, Any]]
    answers: list[dict[str, Any]]
    full_analysis_required: bool
    status: str
    reason: str


def seen(outcome: QuickOutcome) -> Seen:
    shown = outcome.as_dict()
    return Seen(
        shown["run_id"], shown["baseline_report"], shown["changes"], shown["answers"], shown["full_analysis_required"],
        shown["status"], shown["reason"],
    )  # fmt: skip


def review(bench: Workbench, **options: Any) -> Seen:
    return seen(bench.quick_reviews.review(DEMO_SYMBOL, **options))


def by_kind(outcome: Seen) -> dict[str, list[tuple[dict[str, Any], dict[str, Any] | None]]]:
    """Each change with its answer, grouped by kind."""
    answers = {a["change"]: a for a in outcome.answers}
    found: dict[str, list[tuple[dict[str, Any], dict[str, Any] | None]]] = {}
    for change in outcome.changes:
        found.setdefault(change["kind"], []).append((change, answers.get(change["id"])))
    return found


def journal_keys(bench: Workbench, run_id: str, kind: str) -> list[str]:
    return [k for k, kd, _ in bench.research.journal.results(run_id) if kd == kind]


# ---- the baseline ------------------------------------------------------------------------------------------------
def test_at_the_report_s_own_clock_nothing_changed_and_no_model_is_asked(market: Path) -> None:
    with Workbench.open(market) as bench:
        outcome = review(bench, account="main")
        assert (outcome.changes, outcome.answers, outcome.status) == ([], [], "published")
        assert outcome.full_analysis_required is False
        assert outcome.baseline["age_sessions"] == 0 and outcome.baseline["kind"] == "full"
        assert journal_keys(bench, outcome.run_id, "model_call") == []
        details = bench.research.run_details(outcome.run_id).as_dict()  # recorded as a run of its own kind
        assert details["plan"]["kind"] == "quick_review" and details["status"] == "published"
        assert bench.workspace.db.scalar("SELECT kind FROM runs WHERE run_id = ?", [outcome.run_id]) == "quick_review"


def test_without_an_account_named_the_review_reads_the_one_its_report_read(market: Path) -> None:
    """The window's quick review names no account: it read none, so its answers knew nothing of the holding the
    report was written for (the plan check reads the report's account)."""
    with Workbench.open(market) as bench:
        outcome = review(bench)
        assert bench.research.record(outcome.run_id).account == "main"
        assert "ledger" in {e.kind for e in bench.research.store.for_run(outcome.run_id)}  # its snapshot, as evidence


def test_a_report_more_than_a_session_old_is_refused_and_says_how_old(market: Path) -> None:
    wednesday = datetime(2026, 12, 2, 10, 30, tzinfo=CN)
    with Workbench.open(market, clock=ReplayClock(wednesday)) as bench, pytest.raises(InvalidInput) as refused:
        review(bench)
    assert "3 sessions old" in refused.value.message and "stockbench analyze" in refused.value.hint


def test_without_a_full_report_there_is_no_baseline(monday: Workbench) -> None:
    with pytest.raises(NotFound, match=r"no full report on 003901\.SZ"):
        monday.quick_reviews.review("003901.SZ")


# ---- each change, answered at its level --------------------------------------------------------------------------
def test_a_session_of_changes_each_answered_at_its_level(monday: Workbench) -> None:
    capital = baseline_capital(monday)
    quote(monday, "378.00", low="357.00", high="379.00")  # into the sell zone 375.54-385.93, on heavy volume
    flow(monday, "300000000" if capital == "outflow" else "-300000000")  # against the report's capital state
    announce(
        monday, "DEMO-605903-2026-101", THESIS_TITLE, "shareholder_reduction", datetime(2026, 11, 30, 9, 0, tzinfo=CN)
    )
    announce(monday, "DEMO-605903-2026-102", NOTE_TITLE, "board_meeting", datetime(2026, 11, 30, 9, 5, tzinfo=CN))
    outcome = review(monday, account="main")
    found = by_kind(outcome)
    assert sorted(found) == ["announcement", "money_flow_reversal", "volume_surge", "zone_transition"]
    ((zone, zone_answer),) = found["zone_transition"]
    assert (zone["level"], zone["rule"]) == ("act", "zone_transition in_buy->in_sell")
    assert zone_answer is not None and zone_answer["action"] == "follow_path"
    assert zone_answer["path"] == zone["path"] and "卖出区间" in zone["path"]
    assert [(c["level"], a and a["action"]) for c, a in found["volume_surge"]] == [("watch", "watch")]
    assert [(c["level"], a and a["action"]) for c, a in found["money_flow_reversal"]] == [("watch", "watch")]
    news = {c["thesis_level"]: (c, a) for c, a in found["announcement"]}
    thesis, thesis_answer = news[True]
    assert thesis["level"] == "full_analysis" and "减持" in thesis["detail"]
    assert thesis_answer is not None and (thesis_answer["level"], thesis_answer["action"]) == (
        "full_analysis",
        "protect",
    )
    assert thesis_answer["response"].index("先保护") < thesis_answer["response"].index("完整分析")
    assert (news[False][0]["level"], news[False][1] and news[False][1]["action"]) == ("note", "keep_plan")
    assert outcome.full_analysis_required is True and outcome.status == "published"
    assert json.loads(monday.research.journal.stored(outcome.run_id, "quick_review/gates", "result") or "") == {
        "numbers": []
    }  # every number in the answers is grounded in this run's evidence
    evidence = {e.evidence_id for e in monday.research.store.for_run(outcome.run_id)}
    assert all(set(a["evidence"]) <= evidence and a["evidence"] for a in outcome.answers)


def test_a_stop_hit_at_limit_down_follows_the_stop_path_and_protects(monday: Workbench) -> None:
    instrument = monday.market.registry.instrument(DEMO_SYMBOL)
    down = price_limits(instrument, LAST_CLOSE, date(2026, 11, 30), tables=monday.market.tables).down
    assert down is not None
    quote(monday, str(down), volume=3_000_000)
    found = by_kind(review(monday))
    ((stop, stop_answer),) = found["stop_hit"]
    assert (stop["level"], stop_answer and stop_answer["action"]) == ("act", "follow_path")
    assert "止损" in (stop_answer or {})["path"]
    ((limit, limit_answer),) = found["limit_down"]
    assert limit["level"] == "act" and limit["rule"] == "limits.against"  # sealed against the report's hold
    assert str(down) in limit["detail"]
    assert limit_answer is not None and limit_answer["action"] == "protect"  # no report path covers it
    assert "volume_surge" not in found


def test_an_ex_rights_reference_since_the_report_requires_a_full_analysis(monday: Workbench) -> None:
    quote(monday, "352.00", prev=Decimal("350.00"), volume=3_000_000)  # the reference is not Friday's close
    outcome = review(monday)
    assert [(c["kind"], c["level"]) for c in outcome.changes] == [("ex_rights", "full_analysis")]
    assert outcome.full_analysis_required is True


def test_a_replay_clock_sees_nothing_newer_than_itself(monday: Workbench) -> None:
    quote(monday, "365.00", at=datetime(2026, 11, 30, 10, 40, tzinfo=CN))  # after the clock
    announce(
        monday, "DEMO-605903-2026-103", THESIS_TITLE, "shareholder_reduction", datetime(2026, 11, 30, 11, 0, tzinfo=CN)
    )
    outcome = review(monday)
    assert outcome.changes == []  # the price is Friday's close, the announcement is not yet published
    quote_block = json.loads(monday.research.journal.stored(outcome.run_id, "quick_review/facts", "result") or "")
    assert quote_block["quote"]["label"] == "last_close"


# ---- answers are checked like judgments ---------------------------------------------------------------------------
@dataclass
class ScriptedQuickModel(BasePort):
    """A model that answers with `first(changes)` on its first turn, then as the offline rules model would."""

    first: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]
    name: str = "scripted-quick"
    offline: bool = False

    def __post_init__(self) -> None:
        self.results: list[dict[str, Any]] = []

    def complete(self, request: str, *, ceiling_left: Decimal | None) -> tuple[str, Decimal | None]:
        messages = json.loads(request)["messages"]
        self.results += [json.loads(m["content"]) for m in messages[-1:] if m["role"] == "tool"]
        if any(m["role"] == "assistant" for m in messages):
            return OfflineQuickReview().complete(request, ceiling_left=ceiling_left)
        answers = self.first(read_facts(messages)["quick_review"]["changes"])
        arguments = {"answers": answers}
        call = Call("call_1", "submit_answers", json.dumps(arguments, ensure_ascii=False), arguments, None)
        return Reply("", (call,)).to_json(), Decimal("0.001")


def with_model(bench: Workbench, monkeypatch: pytest.MonkeyPatch, model: BasePort) -> None:
    monkeypatch.setattr(bench.research, "model", lambda name: model)


def answer(change: dict[str, Any], level: str, action: str, text: str, path: str | None = None) -> dict[str, Any]:
    return {
        "change": change["id"],
        "level": level,
        "action": action,
        "path": path,
        "response": {"text": text, "evidence": change["evidence"]},
    }


def problem_codes(model: ScriptedQuickModel) -> list[str]:
    assert model.results and model.results[0]["accepted"] is False
    return sorted({p["code"] for p in model.results[0]["problems"]})


def test_thesis_level_news_is_never_adjudicated_on_the_spot(monday: Workbench, monkeypatch: pytest.MonkeyPatch) -> None:
    announce(
        monday, "DEMO-605903-2026-104", THESIS_TITLE, "shareholder_reduction", datetime(2026, 11, 30, 9, 0, tzinfo=CN)
    )
    model = ScriptedQuickModel(
        lambda changes: [
            answer(c, "act", "follow_path", "大股东减持影响有限，照常按计划买入。", "价格进入买入区间 351.56-359.35")
            for c in changes
        ]
    )
    with_model(monday, monkeypatch, model)
    outcome = review(monday, model="scripted-quick")
    assert "thesis_adjudicated" in problem_codes(model) and "level_lowered" in problem_codes(model)
    (only,) = outcome.answers
    assert (only["level"], only["action"]) == ("full_analysis", "protect")
    assert outcome.full_analysis_required is True and outcome.status == "published"
    assert len(journal_keys(monday, outcome.run_id, "model_call")) == 2  # rejected once, then answered


def test_a_lowered_level_an_invented_number_and_an_invented_path_are_sent_back(
    monday: Workbench, monkeypatch: pytest.MonkeyPatch
) -> None:
    quote(monday, "378.00", volume=3_000_000)  # into the sell zone: act
    model = ScriptedQuickModel(
        lambda changes: [
            answer(c, "watch", "follow_path", "卖出区上沿是 999.99，继续持有。", "价格突破 380 就全部卖出")
            for c in changes
        ]
    )
    with_model(monday, monkeypatch, model)
    outcome = review(monday, model="scripted-quick")
    assert problem_codes(model) == ["action_not_allowed", "level_lowered", "number_ungrounded", "path_unknown"]
    assert [(a["level"], a["action"]) for a in outcome.answers] == [("act", "follow_path")]


def test_a_model_failure_keeps_the_change_list(monday: Workbench, monkeypatch: pytest.MonkeyPatch) -> None:
    quote(monday, "340.00", volume=3_000_000)

    class Down(BasePort):
        name, offline = "down", False

        def complete(self, request: str, *, ceiling_left: Decimal | None) -> tuple[str, Decimal | None]:
            raise UserError("the provider is down", "try again later")

    with_model(monday, monkeypatch, Down())
    outcome = review(monday, model="down")
    assert (outcome.status, outcome.reason, outcome.answers) == ("paused", "the provider is down", [])
    assert [c["kind"] for c in outcome.changes] == ["stop_hit"]
    assert monday.research.journal.status(outcome.run_id).status == "paused"  # type: ignore[union-attr]
    monkeypatch.setattr(monday.research, "model", lambda name: OfflineQuickReview())  # the provider is back
    resumed = seen(monday.quick_reviews.resume(outcome.run_id))
    assert (resumed.status, [a["action"] for a in resumed.answers]) == ("published", ["follow_path"])
    assert resumed.changes == outcome.changes
    assert monday.research.journal.executed.count(f"{STAGE}/facts") == 1  # the data were not gathered again
    assert monday.research.journal.executed.count(f"{STAGE}/model/1") == 2  # the failed call, retried once
    with pytest.raises(InvalidInput, match="not a paused quick review"):
        monday.quick_reviews.resume(outcome.run_id)


# ---- the command ---------------------------------------------------------------------------------------------------
def test_review_quick_prints_the_documented_json(market: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Workbench.open(market, clock=ReplayClock(REVIEW_AT)) as bench:
        quote(bench, "365.00", volume=3_000_000)
        announce(
            bench,
            "DEMO-605903-2026-105",
            THESIS_TITLE,
            "shareholder_reduction",
            datetime(2026, 11, 30, 9, 0, tzinfo=CN),
        )
    code = run(
        [
            "--json",
            "--as-of",
            "2026-11-30T10:30:00",
            "review-quick",
            DEMO_SYMBOL,
            "--model",
            "offline",
            "--account",
            "main",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    found = json.loads(out)
    assert set(found) == {
        "run_id",
        "baseline_report",
        "changes",
        "answers",
        "full_analysis_required",
        "status",
        "reason",
        "language",
    }
    assert found["baseline_report"]["report_id"].startswith("R") and found["baseline_report"]["age_sessions"] == 1
    assert all({"kind", "detail", "level", "evidence"} <= set(c) for c in found["changes"])
    assert all({"change", "response", "action"} <= set(a) for a in found["answers"])
    assert {c["id"] for c in found["changes"]} == {a["change"] for a in found["answers"]}
    assert found["full_analysis_required"] is True and found["status"] == "published"
    assert run(["--as-of", "2026-11-30T10:30:00", "review-quick", DEMO_SYMBOL]) == 0
    assert "a full analysis is required" in capsys.readouterr().out


# ---- one language per review, the user's -----------------------------------------------------------------------
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
# The engine's codes that must never stand inside a Chinese sentence: positions, capital states, actions, levels,
# quick actions, change kinds and announcement categories.
ENGINE_WORDS = re.compile(
    r"\b(stop_hit|below_buy|in_buy|between|in_sell|above_sell|inflow|outflow|neutral|no_position|watching|building"
    r"|holding|keep_plan|follow_path|protect|watch|note|act|full_analysis|buy|add|hold|reduce|sell|wait|avoid"
    r"|zone_transition|money_flow_reversal|volume_surge|limit_up|limit_down|ex_rights|shareholder_reduction"
    r"|board_meeting|governance|other|None)\b"
)


@pytest.fixture(scope="module")
def reported_in(demo_template: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The demo market with a published offline report on the demo symbol written in each language."""
    homes = {}
    for language in ("zh", "en"):
        home = tmp_path_factory.mktemp(f"quick-review-{language}") / "market"
        shutil.copytree(demo_template, home)
        with Workbench.open(home) as bench:
            holding_account(bench, DEMO_SYMBOL, qty=400)
            assert bench.research.analyze(DEMO_SYMBOL, account="main", language=language).status == "published"
        homes[language] = home
    return homes


def _session_of_changes(bench: Workbench, scenario: str) -> None:
    """`busy`: into the sell zone on heavy volume, a flow against the report's capital state, a thesis-level and a
    note-level announcement; `stop`: the price at limit-down, under the stop."""
    if scenario == "stop":
        instrument = bench.market.registry.instrument(DEMO_SYMBOL)
        down = price_limits(instrument, LAST_CLOSE, date(2026, 11, 30), tables=bench.market.tables).down
        quote(bench, str(down), volume=3_000_000)
        return
    quote(bench, "378.00", low="357.00", high="379.00")
    flow(bench, "300000000" if baseline_capital(bench) == "outflow" else "-300000000")
    morning = datetime(2026, 11, 30, 9, 0, tzinfo=CN)
    announce(bench, "DEMO-605903-2026-101", THESIS_TITLE, "shareholder_reduction", morning)
    announce(bench, "DEMO-605903-2026-102", NOTE_TITLE, "board_meeting", morning.replace(minute=5))


def _reviewed(
    homes: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    *,
    language: str,
    scenario: str,
) -> tuple[dict[str, Any], str, str]:
    """A quick review in `language` on the report written in it, through the command: (its JSON, the command's
    human output, the stock's name)."""
    home = tmp_path / language
    shutil.copytree(homes[language], home)
    monkeypatch.setenv("STOCKBENCH_HOME", str(home))
    with Workbench.open(home, clock=ReplayClock(REVIEW_AT)) as bench:
        _session_of_changes(bench, scenario)
        name = bench.market.registry.instrument(DEMO_SYMBOL).name
    common = ["--lang", language, "--as-of", "2026-11-30T10:30:00"]
    tail = ["review-quick", DEMO_SYMBOL, "--model", "offline", "--account", "main"]
    capsys.readouterr()
    assert run([*common, "--json", *tail]) == 0
    found = json.loads(capsys.readouterr().out)
    assert run([*common, *tail]) == 0
    return found, capsys.readouterr().out, name


def _read(found: dict[str, Any]) -> str:
    """Every text of a review a person reads: each change's detail, next check and path, each answer's response."""
    texts = [c[k] or "" for c in found["changes"] for k in ("detail", "next_check", "path")]
    return "\n".join(texts + [a["response"] for a in found["answers"]] + [a["path"] or "" for a in found["answers"]])


def _codes(found: dict[str, Any]) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    changes = [(c["id"], c["kind"], c["rule"], c["level"], str(c["thesis_level"])) for c in found["changes"]]
    return changes, [(a["change"], a["level"], a["action"]) for a in found["answers"]]


@pytest.mark.parametrize("scenario", ["busy", "stop"])
def test_a_review_is_written_in_the_user_s_language_with_the_same_codes(
    reported_in: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str], scenario: str,
) -> None:  # fmt: skip
    zh, zh_shown, name = _reviewed(reported_in, tmp_path, monkeypatch, capsys, language="zh", scenario=scenario)
    en, en_shown, _ = _reviewed(reported_in, tmp_path, monkeypatch, capsys, language="en", scenario=scenario)
    assert (zh["status"], en["status"]) == ("published", "published")
    assert (zh["language"], en["language"]) == ("zh", "en")
    assert _codes(zh) == _codes(en) and zh["changes"]  # the JSON codes do not depend on the language
    kinds = {c["kind"] for c in zh["changes"]}
    assert kinds == ({"zone_transition", "volume_surge", "money_flow_reversal", "announcement"} if scenario == "busy"
                     else {"stop_hit", "limit_down"})  # fmt: skip
    # English: no Chinese outside the stock's name and the announcements' own titles
    english = _read(en) + "\n" + en_shown
    for own in (THESIS_TITLE, NOTE_TITLE, name):
        english = english.replace(own, "")
    assert CJK.findall(english) == [], english
    # Chinese: no engine code inside a sentence
    chinese = _read(zh) + "\n" + zh_shown
    assert ENGINE_WORDS.findall(chinese) == [], chinese
    assert CJK.search(_read(zh))
    # each review's numbers still ground in its own evidence (the offline answers repeat the changes' figures)
    for found in (zh, en):
        with Workbench.open(tmp_path / found["language"]) as bench:
            gates = bench.research.journal.stored(found["run_id"], "quick_review/gates", "result")
            assert json.loads(gates or "") == {"numbers": []}
            assert bench.research.record(found["run_id"]).plan.language == found["language"]  # stored with the run
