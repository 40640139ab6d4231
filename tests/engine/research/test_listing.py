"""Research of a symbol not yet listed at the as-of date is refused up front, with its listing date: `analyze`,
`review-quick` and `replay` exit 1 with one line naming the date, the desktop's front door raises the same error,
and no run is created or journaled. On the demo market (instrument data) and on the real 688981.SH (realdata:
its listing day read from its first name, N中芯)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from stockbench.cli.main import run
from stockbench.clock import ReplayClock
from stockbench.research.listing import NotListed
from stockbench.workbench import Workbench
from tests.engine.research.conftest import DEMO_SYMBOL

DEMO_LISTED = "2010-04-20"  # resources/demo/market.toml: 605903.SH 示例酱香酒业
BEFORE = "2009-12-31"


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The error and hint lines on stderr of a command that must exit 1 and print nothing on stdout, as one text."""
    assert run(list(argv)) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 2, lines
    return "\n".join(lines)


def run_count(home: Path) -> int:
    with Workbench.open(home) as bench:
        return len(bench.research.runs())


def test_analyze_before_listing_is_refused_with_the_date(demo_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = run_count(demo_home)
    line = refused(capsys, "--as-of", BEFORE, "analyze", DEMO_SYMBOL, "--model", "offline")
    assert line == (
        f"error: {DEMO_SYMBOL} 示例酱香酒业 was not listed as of {BEFORE}: it listed on {DEMO_LISTED}\n"
        f"hint: research it as of {DEMO_LISTED} or later"
    )
    assert run(["--json", "--as-of", BEFORE, "analyze", DEMO_SYMBOL]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "not_listed" and error["listed"] == DEMO_LISTED
    assert run_count(demo_home) == before  # nothing created, nothing journaled


def test_quick_review_and_replay_before_listing_are_refused(
    demo_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = refused(capsys, "--as-of", BEFORE, "review-quick", DEMO_SYMBOL, "--model", "offline")
    assert f"listed on {DEMO_LISTED}" in line and "was not listed as of 2009-12-31" in line
    line = refused(capsys, "replay", "--symbols", DEMO_SYMBOL, "--from", "2009-06-01", "--to", BEFORE)
    assert line == (
        f"error: {DEMO_SYMBOL} 示例酱香酒业 listed on {DEMO_LISTED}, after the whole period 2009-06-01..{BEFORE}: "
        f"no session of it can be researched\nhint: choose a period that ends on {DEMO_LISTED} or later"
    )


@pytest.mark.parametrize(
    ("language", "words"),
    [("zh", f"已跳过 {DEMO_SYMBOL} 示例酱香酒业 于 {DEMO_LISTED} 上市：2010-04-15 尚未上市"),
     ("en", f"skipped {DEMO_SYMBOL} 示例酱香酒业 listed on {DEMO_LISTED}: not yet listed on 2010-04-15")],
)  # fmt: skip
def test_a_replayed_day_before_the_listing_is_skipped_in_the_users_words(
    demo_home: Path, capsys: pytest.CaptureFixture[str], language: str, words: str
) -> None:
    """A replay over a period that starts before the listing skips those days, said in the --lang language (the
    reason was English under zh), and shows no "None" for the figures a batch of skips has not got."""
    assert (
        run(["--lang", language, "replay", "--symbols", DEMO_SYMBOL, "--from", "2010-04-15", "--to", "2010-04-21"]) == 0
    )
    captured = capsys.readouterr()
    assert words in captured.err
    assert "None" not in captured.out and "—" in captured.out


def test_the_desktop_gets_the_same_error_through_the_front_door(demo_home: Path) -> None:
    before = run_count(demo_home)
    with Workbench.open(demo_home, clock=ReplayClock.as_of(date(2009, 12, 31))) as bench:
        with pytest.raises(NotListed, match=f"it listed on {DEMO_LISTED}") as start:
            bench.research.start(DEMO_SYMBOL, model="offline")
        assert start.value.listed == date(2010, 4, 20)
        with pytest.raises(NotListed, match=f"it listed on {DEMO_LISTED}"):
            bench.research.quick_review(DEMO_SYMBOL, model="offline")
    with Workbench.open(demo_home, clock=ReplayClock.as_of(date(2010, 4, 20))) as bench:
        assert bench.market.registry.listing_date(DEMO_SYMBOL) == date(2010, 4, 20)
    assert run_count(demo_home) == before


@pytest.fixture(scope="module")
def smic_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.engine.analytics.test_zones import real_workspace, shared_folder

    return real_workspace(tmp_path_factory.mktemp("listing"), shared_folder(), ["sh688981", "sz000001"])


@pytest.mark.realdata
def test_688981_as_of_2020_03_20_is_refused_with_its_listing_date(
    shared_data: Path, smic_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = str(smic_home)
    line = refused(capsys, "--home", home, "--as-of", "2020-03-20", "analyze", "688981.SH", "--model", "offline")
    assert "2020-07-16" in line and "688981.SH" in line and "not listed as of 2020-03-20" in line
    line = refused(capsys, "--home", home, "--as-of", "2020-03-20", "review-quick", "688981")
    assert "it listed on 2020-07-16" in line
    assert run_count(smic_home) == 0  # no run row written
    with Workbench.open(smic_home, clock=ReplayClock.as_of(date(2020, 3, 20))) as bench:
        registry = bench.market.registry
        assert registry.listing_date("688981.SH") == date(2020, 7, 16)  # the day it traded as N中芯
        assert registry.listing_date("000001.SZ") is None  # its first stored name (平安银行) is no listing day's


def test_a_symbol_without_price_history_pauses_with_the_reason_before_any_model_argues(demo_home: Path) -> None:
    """600519.SH is not in the demo market and nothing can be fetched offline: the run pauses after the program
    computes what it can, saying no bars are stored, instead of sending the model into a sub-study over nothing
    (the offline model used to repeat a tool call until the run "stalled")."""
    with Workbench.open(demo_home) as bench:
        outcome = bench.research.analyze("600519.SH", model="offline")
        details = bench.research.run_details(outcome.run_id)
    journal = [a.key for a in details.actions]
    assert outcome.status == "paused" and outcome.report_id is None
    assert outcome.reason.startswith("no analytics for 600519.SH: no daily bars of 600519.SH are stored")
    assert "preprocess/facts" in journal and not [k for k in journal if k.startswith("analyze/")]


@pytest.mark.realdata
def test_688981_is_refused_in_the_users_language_with_the_same_code(
    shared_data: Path, smic_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Under --lang zh the refusal was English ("错误：688981.SH 中芯国际 was not listed as of 2020-03-20: ..."): it
    is the catalogue's error not_listed, said in either language, for analyze, review-quick and replay; the JSON
    keeps its code and listing date."""
    from tests.engine.research.test_report_language import english_in

    home, day = str(smic_home), ("--as-of", "2020-03-20")
    said = "688981.SH 中芯国际 截至 2020-03-20 尚未上市：它于 2020-07-16 上市"
    shown = f"错误：{said}\n提示：请研究 2020-07-16 及之后的日期"
    assert refused(capsys, "--home", home, "--lang", "zh", *day, "analyze", "688981.SH", "--model", "offline") == shown
    assert refused(capsys, "--home", home, "--lang", "zh", *day, "review-quick", "688981.SH") == shown
    period = ("--symbols", "688981.SH", "--from", "2020-01-02", "--to", "2020-03-20")
    line = refused(capsys, "--home", home, "--lang", "zh", "replay", *period)
    assert line == (
        "错误：688981.SH 中芯国际 于 2020-07-16 上市，晚于整个区间 2020-01-02..2020-03-20：区间内没有可研究的交易日\n"
        "提示：请选择在 2020-07-16 或之后结束的区间"
    )
    assert english_in(shown + line) == []
    assert run(["--home", home, "--json", "--lang", "zh", *day, "analyze", "688981.SH"]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert (error["code"], error["listed"], error["message"]) == ("not_listed", "2020-07-16", said)
    assert refused(capsys, "--home", home, "--lang", "en", *day, "analyze", "688981.SH").startswith(
        "error: 688981.SH 中芯国际 was not listed as of 2020-03-20: it listed on 2020-07-16"
    )
    assert run_count(smic_home) == 0
