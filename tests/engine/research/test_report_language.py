"""One language per report: a report in Chinese has no English word of the engine, a report in English no Chinese
character outside names, and neither shows an instant in UTC.

Two demo stocks are analysed once in each language by the offline model, through the CLI as a user would (one in
the buy zone with a net outflow, one in a sell zone built on a valuation band with a net inflow); the English
word list is built from the catalogue's English editions and the engine's codes, so a label, state, gate reason
or scenario text left untranslated anywhere in the report is found. Identifiers the engine names things by
(ma20, ATR14, ps_ttm_p80, a data source's code) and figures at the facts' own precision (a ratio 0.0172, an anchor
at 2196.5185) are engine words too: people read 20日均线, -1.72% and 2196.52.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from stockbench.analytics.scenarios import LANDS
from stockbench.cli.main import run
from stockbench.data.gates import GATE_NAMES
from stockbench.research.blocks import GateFact
from stockbench.research.statements import CONTINUITY_PARTS, VERDICT_PARTS
from stockbench.research.wording import CATALOGUE, say
from stockbench.research.wording.entry import LANGUAGES, Language
from stockbench.research.wording.phrases import gap_line, gate_line, one_line_reason
from stockbench.store.settings import REPORT_LANGUAGE
from stockbench.workbench import Workbench
from tests.engine.research.conftest import BUY_SYMBOL, DEMO_SYMBOL

# The engine's codes a report could leak: actions, states, positions, position states, scenario names and landings,
# gate names and statuses, continuity and verdict parts.
ENGINE_CODES = {
    "buy", "add", "hold", "reduce", "sell", "wait", "avoid", "strong_up", "up", "range", "down", "strong_down",
    "unknown", "inflow", "neutral", "outflow", "leading", "inline", "lagging", "low", "normal", "high", "extreme",
    "stop_hit", "below_buy", "in_buy", "between", "in_sell", "above_sell", "no_position", "watching", "building",
    "holding", "reducing", "exited", "sideways", "pass", "gap", "KEEP", "MODIFY", "CANCEL", "offline", "true", "false",
    "community", "user_csv", "demo", "tencent", "sina", "eastmoney", "cninfo",  # data sources
    *LANDS, *GATE_NAMES, *CONTINUITY_PARTS, *VERDICT_PARTS,
}  # fmt: skip
# Names and codes a Chinese report may carry in Latin letters: tickers and exchanges, evidence and run ids, the
# handbook version and the zone's offset.
CODE = re.compile(
    r"\b\d{6}\.(?:SH|SZ|BJ|HK)\b|\bev-[0-9a-f]+\b|\bR(?:UN)?\d{8}-[0-9a-f]{8}\b|\bhb-[0-9a-f]+\b|\bUTC[+-]\d\d:\d\d"
)
NAME_TOKENS = {"EV", "ROE", "PE", "PB", "TTM"}  # the glossary's terms (市盈率TTM)
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
Shown = Callable[..., dict[str, Any]]
CJK = re.compile(r"[\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]")
_LATIN = r"(?<![A-Za-z0-9_])(?:{})(?![A-Za-z0-9_])"  # not \b: a Chinese character is a word character too
INDICATOR_ZH = re.compile(_LATIN.format(r"(?i:ma|ema|atr)\d*"))  # ma20, ATR14, ATR: 20日均线, 14日平均真实波幅
INDICATOR_EN = re.compile(_LATIN.format(r"(?i:ma|ema)\d+|ATR\d+"))  # ma20, ATR14: the 20-day MA, the 14-day ATR
SNAKE = re.compile(_LATIN.format(r"[a-z]+\d*(?:_[a-z0-9]+)+"))  # in_buy, ps_ttm_p80, user_csv
RAW = re.compile(r"(?<![\d.])-?\d+\.\d{4,}(?!\d)")  # 0.0172, 2196.5185: the facts' precision, not a shown figure
NESTED = re.compile(r"[（(][^）)]*[（(]")  # （离线规则模型（未使用大语言模型））


def english_words() -> set[str]:
    """Every word of the catalogue's English editions (of two letters or more), and the engine's codes."""
    words = {w.lower() for entry in CATALOGUE.values() for w in WORD.findall(entry.en) if len(w) > 1}
    return (words | {c.lower() for c in ENGINE_CODES}) - {t.lower() for t in NAME_TOKENS}


def english_in(text: str) -> list[str]:
    """The English words of the engine in a Chinese text, outside names and codes."""
    listed = english_words()
    return sorted({w for w in WORD.findall(CODE.sub(" ", text)) if w.lower() in listed and w not in NAME_TOKENS})


def engine_words_in(text: str, language: Language) -> list[str]:
    """The engine's identifiers and unrounded figures in a report's text, outside names and codes."""
    plain = CODE.sub(" ", text)
    indicator = INDICATOR_ZH if language == "zh" else INDICATOR_EN
    return sorted({m.group(0) for pattern in (indicator, SNAKE, RAW) for m in pattern.finditer(plain)})


def chinese_in(text: str, names: set[str]) -> list[str]:
    """The Chinese characters of an English text outside the names of instruments and indices."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return sorted(set(CJK.findall(text)))


def call(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    capsys.readouterr()
    code = run(["--json", *argv])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


@pytest.fixture(scope="module")
def home(demo_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One demo workspace for the module's analyses."""
    found = tmp_path_factory.mktemp("language") / "demo"
    shutil.copytree(demo_template, found)
    return found


@pytest.fixture(scope="module")
def analysed(home: Path) -> Callable[..., str]:
    """The report id of `symbol` (the demo symbol unless named) analysed in `language` (once, on first use)."""
    found: dict[tuple[Language, str], str] = {}

    def report_in(language: Language, symbol: str = DEMO_SYMBOL) -> str:
        if (language, symbol) not in found:
            argv = ["--home", str(home), "--json", "analyze", symbol, "--model", "offline", "--language", language]
            assert run(argv) == 0, f"the {language} analysis of {symbol} did not publish"
            with Workbench.open(home) as bench:
                found[language, symbol] = bench.research.reports()[0].report_id
        return found[language, symbol]

    return report_in


@pytest.fixture
def shown(home: Path, analysed: Callable[..., str], capsys: pytest.CaptureFixture[str]) -> Shown:
    """`reports show --format json` of the report on a symbol (the demo symbol unless named) in a language."""
    return lambda language, symbol=DEMO_SYMBOL: call(capsys, "--home", str(home), "reports", "show",
                                                      analysed(language, symbol), "--format", "json")  # fmt: skip


def instrument_names(home: Path) -> set[str]:
    with Workbench.open(home) as bench:
        return {str(n) for (n,) in bench.workspace.db.fetchall("SELECT name FROM instruments WHERE name IS NOT NULL")}


@pytest.mark.parametrize("symbol", [DEMO_SYMBOL, BUY_SYMBOL])
def test_a_chinese_report_has_no_english_word_of_the_engine(shown: Shown, symbol: str) -> None:
    report = shown("zh", symbol)
    assert report["language"] == "zh"
    assert english_in(report["markdown"]) == []
    assert english_in(report["title"]) == []
    assert engine_words_in(report["markdown"], "zh") == []
    assert "+00:00" not in report["markdown"]
    assert say("gate.unworded", "zh") not in report["markdown"]  # every gate's reason has its code and words


@pytest.mark.parametrize("symbol", [DEMO_SYMBOL, BUY_SYMBOL])
def test_an_english_report_has_no_chinese_outside_names(home: Path, shown: Shown, symbol: str) -> None:
    report = shown("en", symbol)
    assert report["language"] == "en"
    assert chinese_in(report["markdown"], instrument_names(home)) == []
    assert engine_words_in(report["markdown"], "en") == []
    assert "+00:00" not in report["markdown"]
    assert "## Data and gaps" in report["markdown"] and "## 数据与缺口" not in report["markdown"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_context_and_the_scenarios_have_headings_of_their_own(shown: Shown, language: Language) -> None:
    """The context section was headed 场景 beside the scenarios' 情景: two headings that mean the same."""
    headings = [line[3:] for line in shown(language)["markdown"].splitlines() if line.startswith("## ")]
    assert {"zh": "背景", "en": "Context"}[language] in headings and not {"场景", "Scene"} & set(headings)
    assert say("report.section.scenarios", language) in headings


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_model_is_named_once_in_the_header_never_in_the_title(shown: Shown, language: Language) -> None:
    report = shown(language)
    model, markdown = say("report.model.offline", language), report["markdown"]
    header = markdown.split("\n## ")[0].splitlines()
    assert f"- {say('report.header.model', language, model=model)}" in header
    assert markdown.count(model) == 1 and say("offline.label", language) not in report["title"]
    assert NESTED.search(report["title"]) is None, report["title"]


def test_a_zone_is_said_with_its_basis_in_words_at_the_ticks_decimals() -> None:
    """A zone built on ma20 at 2196.5185 read "基准 ma20 2196.5185"."""
    from stockbench.research.blocks import AnchorFact, BandFact, DistanceFact, StopFact, ZonesFact
    from stockbench.research.compose import _zone_lines

    anchor = AnchorFact("buy:ma:ma20", Decimal("2196.5185"), role="basis")
    band = BandFact(Decimal("2156.16"), Decimal("2216.69"), (anchor,))
    band_anchor = AnchorFact("sell:valuation_band:pe_ttm_p80", Decimal("2627.8800"), role="basis")
    sell = BandFact(Decimal("2587.53"), Decimal("2668.24"), (band_anchor,))
    zones = ZonesFact(band, sell, StopFact(Decimal("2075.46")), distance_pct=DistanceFact(Decimal("-10.29"),
                      Decimal("4.72"), Decimal("-16.01")))  # fmt: skip
    zh, en = _zone_lines(zones, "zh"), _zone_lines(zones, "en")
    assert "基准 20日均线 2196.52；" in zh[0] and "基准 市盈率TTM估值带上沿 2627.88；" in zh[1]
    assert "built on 20-day MA 2196.52;" in en[0] and "the P/E TTM valuation band 2627.88;" in en[1]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_title_names_the_stock_its_code_and_the_action_in_the_reports_language(
    shown: Shown, language: Language
) -> None:
    report = shown(language)
    action = say(f"action.{report['action']}", language)
    assert DEMO_SYMBOL in report["title"] and action in report["title"], report["title"]
    assert f"{action} — " in report["title"] or report["title"].endswith(action)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_json_of_a_report_carries_its_language_action_position_scenarios_and_calibration(
    shown: Shown, language: Language
) -> None:
    report = shown(language)
    assert report["language"] == language
    assert report["action"] in {"buy", "add", "hold", "reduce", "sell", "wait", "avoid"}
    assert report["position_state"] == report["summary"]["position_state"]
    assert [set(s) for s in report["scenarios"]] == [{"name", "probability", "move_pct", "price", "lands"}] * 3
    assert {s["lands"] for s in report["scenarios"]} <= set(LANDS)
    assert set(report["calibration"]) >= {"data_from", "data_to", "look_ahead"}
    assert "+00:00" not in report["published_at"] and report["published_at"].endswith("+08:00")


def test_the_report_list_shows_exchange_time(
    home: Path, analysed: Callable[..., str], capsys: pytest.CaptureFixture[str]
) -> None:
    analysed("zh")
    listed = call(capsys, "--home", str(home), "reports", "list")
    assert listed and all(r["published_at"].endswith("+08:00") for r in listed)


# ---- the words of gates and gaps --------------------------------------------------------------------------------
FAILED = GateFact(
    "announcements", "gap", "the announcements of 2021-10-02..2021-12-31 could not be fetched: cninfo: ConnectError: "
    "[Errno -2] Name or service not known", code="fetch_failed",
    values={"start": "2021-10-02", "end": "2021-12-31", "failed": [["cninfo", "network"]]},
)  # fmt: skip
MONEY_FLOW = GateFact(
    "money_flow", "gap", "no days of money flow are stored for 600519.SH; eastmoney failed (network: ...)",
    exception_allowed=True, code="none", values={"failed": [["eastmoney", "network"], ["sina", "http_status"]]},
)  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_fetch_failure_is_a_gap_with_words_never_the_exceptions_text(language: Language) -> None:
    line, gap = gate_line(FAILED, "600519.SH", language), gap_line(FAILED, "600519.SH", language)
    for text in (line, gap):  # the source by its name in the report's language
        assert "ConnectError" not in text and "Errno" not in text and say("source.cninfo", language) in text
        assert say("failure.network", language) in text
    assert say("gap.announcements", language) in gap


def test_a_gap_reads_the_same_whatever_its_reason_and_money_flow_is_always_disclosed() -> None:
    stale = GateFact(
        "money_flow",
        "gap",
        "...",
        code="stale",
        values={
            "rows": 300,
            "source": "eastmoney",
            "first": "2020-01-02",
            "last": "2021-12-01",
            "lag": 20,
            "session": "2021-12-31",
            "allowed": 1,
        },
    )
    for language in LANGUAGES:
        words = say("gap.money_flow", language)
        lines = [gap_line(g, "600519.SH", language) for g in (MONEY_FLOW, stale)]
        assert all(words in line for line in lines)
        assert say("report.data.exception", language) in lines[0]
    assert english_in(gap_line(MONEY_FLOW, "600519.SH", "zh")) == []


def test_a_live_quote_is_timed_in_exchange_time_with_the_zone_named() -> None:
    live = GateFact(
        "fresh_quote",
        "pass",
        "...",
        code="live",
        values={"price": "2050.00", "at": "2021-12-31T06:30:00+00:00", "source": "tencent", "age": "2.5"},
    )
    assert "2021-12-31 14:30:00 北京时间（UTC+08:00）" in gate_line(live, "600519.SH", "zh")
    assert "2021-12-31 14:30:00 Beijing time (UTC+08:00)" in gate_line(live, "600519.SH", "en")


def test_a_gate_of_an_older_block_is_unclassified_rather_than_shown_in_english() -> None:
    old = GateFact("financials", "pass", "35 reporting periods from demo (2018-03-31..2026-09-30)")
    assert gate_line(old, "600519.SH", "zh") == f"财务报表：通过 — {say('gate.unworded', 'zh')}"


def test_the_models_title_becomes_the_one_line_reason() -> None:
    names = ("贵州茅台", "600519.SH", "600519")
    assert (
        one_line_reason("贵州茅台（600519.SH）：观望——估值历史缺失，无法确认买点", names)
        == "估值历史缺失，无法确认买点"
    )
    assert one_line_reason("估值历史缺失，无法确认买点", names) == "估值历史缺失，无法确认买点"
    assert one_line_reason("600519.SH: wait — valuation history missing", names) == "valuation history missing"


def test_the_workspace_setting_chooses_the_report_language(bench: Workbench) -> None:
    from stockbench.store.settings import REPORT_LANGUAGE

    bench.workspace.settings.set(REPORT_LANGUAGE, "en")
    run_record = bench.research.start(DEMO_SYMBOL, model="offline")
    assert run_record.plan.language == "en"
    assert bench.research.start(DEMO_SYMBOL, model="offline", language="zh").plan.language == "zh"


def test_money_in_the_price_line_rounds_half_up_as_the_number_gate_reads_it() -> None:
    """002869.SZ as of 2019-07-03 (the replay batch): a float cap of 2,218,500,000 was written "22.18亿元" (half to
    even), which the number gate, rounding half up, did not find in the evidence: the report paused unpublished."""
    from decimal import Decimal

    from stockbench.research.blocks import PriceFactsFact
    from stockbench.research.context import price_line

    facts = PriceFactsFact("2019-07-03", Decimal("43.50"), float_mcap=Decimal("2218500000.00"),
                           total_mcap=Decimal("5124300000.00"))  # fmt: skip
    assert "22.19亿元" in str(price_line(facts, "zh")) and "51.24亿元" in str(price_line(facts, "zh"))
    assert "CNY 2.22 bn" in str(price_line(facts, "en"))
    # a Hong Kong stock's amounts are in Hong Kong dollars
    assert "22.19亿港元" in str(price_line(facts, "zh", "HKD")) and "HKD 2.22 bn" in str(price_line(facts, "en", "HKD"))


# ---- whose language: --language, else an explicit --lang, else the workspace's setting, else the locale's -----------
def _language_of(home: Path, capsys: pytest.CaptureFixture[str], report_id: str) -> str:
    return str(call(capsys, "--home", str(home), "reports", "show", report_id, "--format", "json")["language"])


@pytest.mark.parametrize(("environ", "language"), [("C.UTF-8", "en"), ("POSIX", "en"), ("zh_CN.UTF-8", "zh"),
                                                   ("en_US.UTF-8", "en")])  # fmt: skip
def test_one_rule_says_the_users_language_by_the_locale_for_messages_and_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, environ: str, language: str
) -> None:
    """On a C.UTF-8 machine the reports' default said zh while the CLI's said en: one function decides both."""
    from stockbench.messages import language_of_locale

    monkeypatch.setenv("LC_ALL", environ)
    with Workbench.open(tmp_path / "plain") as bench:  # no report_language setting
        assert bench.research.report_language() == language_of_locale() == language


def test_the_lang_option_chooses_the_report_language_before_the_setting(
    demo_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`stockbench --lang en analyze` wrote a Chinese report (the workspace's setting, else the locale, decided):
    the user's explicit --lang comes before the setting, --language before both, and without either the setting
    decides (this workspace's is zh)."""
    base = ["--home", str(demo_home)]
    for argv, language in (([], "zh"), (["--lang", "en"], "en"), (["--lang", "zh", "--language", "en"], "en")):
        head, tail = (argv, []) if "--language" not in argv else (argv[:2], argv[2:])
        outcome = call(capsys, *base, *head, "analyze", DEMO_SYMBOL, "--model", "offline", *tail)
        assert _language_of(demo_home, capsys, outcome["report_id"]) == language, argv
    with Workbench.open(demo_home) as bench:
        bench.workspace.settings.set(REPORT_LANGUAGE, "en")
    outcome = call(capsys, *base, "--lang", "zh", "analyze", DEMO_SYMBOL, "--model", "offline")
    assert _language_of(demo_home, capsys, outcome["report_id"]) == "zh"


def test_the_lang_option_chooses_the_language_of_a_quick_review_and_a_replay(
    demo_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--home", str(demo_home)]
    call(capsys, *base, "analyze", DEMO_SYMBOL, "--model", "offline")  # the day's report (zh: the setting)
    assert call(capsys, *base, "review-quick", DEMO_SYMBOL, "--model", "offline")["language"] == "zh"
    assert call(capsys, *base, "--lang", "en", "review-quick", DEMO_SYMBOL, "--model", "offline")["language"] == "en"
    replayed = call(capsys, *base, "--lang", "en", "replay", "--symbols", DEMO_SYMBOL, "--from", "2026-08-03",
                    "--to", "2026-08-03", "--runs")  # fmt: skip
    (one,) = replayed["runs"]
    assert _language_of(demo_home, capsys, one["report_id"]) == "en"
