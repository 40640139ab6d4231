"""User errors once worded in English only are said in the language asked for (issue 19): with `--lang zh` the
error line and the hint are the catalogue's Chinese, with `--lang en` the same English as before, and `--json`
carries the same stable code in both languages beside the message in the language asked for."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import polars as pl
import pytest

from stockbench.cli.main import run
from stockbench.errors import InvalidInput
from stockbench.market.bar_rules import check_bars
from stockbench.messages import error_words

SYMBOL = "605903.SH"  # the demo market's name the offline analysis reports on
OTHER = "600519.SH"  # a name with no report


@dataclass(frozen=True)
class Case:
    """A command that fails, with what it says in each language: (message, hint) per language, the JSON code."""

    args: tuple[str, ...]
    code: str
    zh: tuple[str, str]
    en: tuple[str, str]
    setup: tuple[tuple[str, ...], ...] = ()


def _said(home: Path, language: str, args: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> tuple[str, dict]:
    """stderr of the failing command in `language`, and its JSON error."""
    assert run(["--home", str(home), "--lang", language, *args]) == 1
    err = capsys.readouterr().err
    assert run(["--home", str(home), "--lang", language, "--json", *args]) == 1
    return err, json.loads(capsys.readouterr().out)["error"]


def _check(home: Path, case: Case, capsys: pytest.CaptureFixture[str]) -> None:
    for command in case.setup:
        assert run(["--home", str(home), "--json", *command]) == 0, capsys.readouterr().err
    capsys.readouterr()
    zh_err, zh_json = _said(home, "zh", case.args, capsys)
    en_err, en_json = _said(home, "en", case.args, capsys)
    assert f"错误：{case.zh[0]}\n" in zh_err and f"提示：{case.zh[1]}\n" in zh_err, zh_err
    assert f"error: {case.en[0]}\n" in en_err and f"hint: {case.en[1]}\n" in en_err, en_err
    assert zh_json["code"] == en_json["code"] == case.code
    assert (zh_json["message"], zh_json["hint"]) == case.zh
    assert (en_json["message"], en_json["hint"]) == case.en


ACCOUNT = ("ledger", "account", "add", "main", "--currency", "CNY")
FRESH = {
    "watchlist.not_in": Case(
        ("watchlist", "remove", "600519"), "not_found",
        ("600519.SH 不在自选股中", "查看自选股：stockbench watchlist list"),
        ("600519.SH is not in the watchlist", "see it with: stockbench watchlist list"),
    ),
    "watchlist.no_group": Case(
        ("watchlist", "group", "remove", "nosuch"), "not_found",
        ("自选股中没有名为“nosuch”的分组", "请先新建分组：stockbench watchlist group add NAME"),
        ("there is no watchlist group named 'nosuch'", "create one with: stockbench watchlist group add NAME"),
    ),
    "watchlist.no_group_listed": Case(
        ("watchlist", "group", "remove", "nosuch"), "not_found",
        ("自选股中没有名为“nosuch”的分组", "现有分组：default"),
        ("there is no watchlist group named 'nosuch'", "groups: default"),
        setup=(("watchlist", "add", "600519"),),
    ),
    "watchlist.already_in": Case(
        ("watchlist", "add", "600519"), "invalid_input",
        ("600519.SH 已在分组“default”中", "如要移动，请用：watchlist move"),
        ("600519.SH is already in the group 'default'", "move it with: watchlist move"),
        setup=(("watchlist", "add", "600519"),),
    ),
    "models.unknown": Case(
        ("models", "remove", "nosuch"), "not_found",
        ("没有配置名为“nosuch”的模型（尚未配置任何模型）",
         "请先添加：stockbench models add nosuch --provider P --model M"),
        ("no model named 'nosuch' is configured (configured: none yet)",
         "add it with: stockbench models add nosuch --provider P --model M"),
    ),
    "models.needs_provider": Case(
        ("models", "add", "local", "--provider", "openai"), "invalid_input",
        ("配置模型需要 --provider 和 --model，或一个 --preset", "查看预设：stockbench models presets"),
        ("a model needs --provider and --model, or a --preset", "list them: stockbench models presets"),
    ),
    "models.name_unusable": Case(
        ("models", "add", "Bad", "--preset", "ollama"), "invalid_input",
        ("“Bad”不能用作模型名称", "请使用 1 到 40 个小写字母、数字、“.”、“_”或“-”（且不能是“offline”）"),
        ("'Bad' cannot name a model", "use 1-40 lower-case letters, digits, '.', '_' or '-' (and not 'offline')"),
    ),
    "models.exists": Case(
        ("models", "add", "local", "--preset", "ollama"), "invalid_input",
        ("名为“local”的模型已配置", "如要修改，请加上 --replace"),
        ("a model named 'local' is already configured", "pass --replace to change it"),
        setup=(("models", "add", "local", "--preset", "ollama"),),
    ),
    "models.provider_unknown": Case(
        ("models", "add", "x", "--provider", "nosuch", "--model", "m"), "invalid_input",
        ("未知的服务商“nosuch”", "请从以下选择：deepseek, openai, moonshot, qwen, minimax, ollama, openai_compatible"),
        ("unknown provider 'nosuch'",
         "choose one of: deepseek, openai, moonshot, qwen, minimax, ollama, openai_compatible"),
    ),
    "models.preset_unknown": Case(
        ("models", "add", "x", "--preset", "nosuch"), "invalid_input",
        ("未知的模型预设“nosuch”", "请从以下选择：deepseek, openai, kimi, qwen, minimax, ollama"),
        ("unknown model preset 'nosuch'", "choose one of: deepseek, openai, kimi, qwen, minimax, ollama"),
    ),
    "indicators.no_bars": Case(
        ("--as-of", "2024-03-15", "indicators", "600519"), "not_found",
        ("2024-03-15 及之前没有存储 600519.SH 的日线",
         "请导入（`stockbench data import FILE`）或获取（`stockbench data fetch 600519.SH --what bars`）"),
        ("no daily bars of 600519.SH are stored on or before 2024-03-15",
         "import them (`stockbench data import FILE`) or fetch them (`stockbench data fetch 600519.SH --what bars`)"),
    ),
    "backtest.no_bars": Case(
        ("backtest", "600519"), "data_unavailable",
        ("没有存储 600519.SH 的日线（截至当前时钟）",
         "请获取（stockbench data fetch 600519.SH --what bars）或导入文件（stockbench data import）"),
        ("no daily bars of 600519.SH are stored (as of the clock)",
         "fetch them (stockbench data fetch 600519.SH --what bars) or import a file (stockbench data import)"),
    ),
    "rules.fees_qty": Case(
        ("rules", "fees", "600519", "--side", "buy", "--qty", "0", "--price", "10"), "invalid_input",
        ("数量“0”不是正整数股", "例如 100"), ("quantity '0' is not a positive whole number of shares", "e.g. 100"),
    ),
    "eval.unknown_case": Case(
        ("eval", "--case", "nosuch"), "invalid_input",
        ("没有名为 nosuch 的评测用例或类别",
         "类别：tool_routing, citation_validity, number_groundedness, failure_recovery, usefulness, cheating_model；"
         "查看用例：stockbench eval --list"),
        ("no eval case or category is named nosuch",
         "categories: tool_routing, citation_validity, number_groundedness, failure_recovery, usefulness, "
         "cheating_model; list the cases with: stockbench eval --list"),
    ),
    "search.one_provider": Case(
        ("search", "set"), "invalid_input",
        ("请只给出一个搜索服务", "stockbench search set --searxng URL，或 stockbench search set --brave"),
        ("give one provider", "stockbench search set --searxng URL, or stockbench search set --brave"),
    ),
    "ledger.account_unknown": Case(
        ("ledger", "cash", "nosuch", "deposit", "100"), "not_found",
        ("没有名为“nosuch”的账户", "查看账户：stockbench ledger account list"),
        ("there is no account named 'nosuch'", "list them with: stockbench ledger account list"),
    ),
    "ledger.account_exists": Case(
        ACCOUNT, "invalid_input",
        ("名为“main”的账户已存在", "请换一个名称"),
        ("an account named 'main' already exists", "choose another name"),
        setup=(ACCOUNT,),
    ),
    "ledger.transfer_same": Case(
        ("ledger", "transfer", "main", "main", "100"), "invalid_input",
        ("转账需要两个不同的账户", "请指定 main 以外的收款账户"),
        ("a transfer needs two different accounts", "name another account than main to receive it"),
        setup=(ACCOUNT,),
    ),
    "ledger.order_unknown": Case(
        ("ledger", "order", "cancel", "O20240101-abcd"), "not_found",
        ("没有委托“O20240101-abcd”", "查看委托：stockbench ledger order list ACCOUNT"),
        ("there is no order 'O20240101-abcd'", "see them with: stockbench ledger order list ACCOUNT"),
    ),
    "ledger.void_reason": Case(
        ("ledger", "void", "C20240101-abcd", "--reason", " "), "invalid_input",
        ("作废需要说明原因", '例如 --reason "重复录入"'),
        ("a void needs a reason", 'e.g. --reason "entered twice"'),
    ),
    "ledger.entry_unknown": Case(
        ("ledger", "void", "C20240101-abcd", "--reason", "typo"), "not_found",
        ("没有账本记录“C20240101-abcd”", "查看编号：stockbench ledger history ACCOUNT"),
        ("there is no ledger entry 'C20240101-abcd'", "see the ids with: stockbench ledger history ACCOUNT"),
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", list(FRESH))
def test_an_error_on_a_fresh_workspace_is_said_in_both_languages(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _check(tmp_path / "home", FRESH[name], capsys)


def test_a_home_that_is_a_file_is_said_in_both_languages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "afile"
    home.write_text("", encoding="utf-8")
    case = Case(("watchlist", "list"), "invalid_input",
                (f"{home} 是文件，不是工作区文件夹", "请用 --home 选择一个文件夹"),
                (f"{home} is a file, not a workspace folder", "choose a folder with --home"))  # fmt: skip
    _check(home, case, capsys)


def test_a_missing_calibration_file_is_said_in_both_languages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.parquet"
    case = Case(("calibrate", "--data", str(missing)), "invalid_input",
                (f"{missing} 不存在", "请用 --data PATH 给出社区整理的 A 股数据文件"),
                (f"{missing} does not exist", "give the community A-share parquet with --data PATH"))  # fmt: skip
    _check(tmp_path / "home", case, capsys)


def test_a_rejected_import_is_said_in_both_languages_with_its_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("executed_at,symbol,side,qty,price\n2024-01-03T10:00:00+08:00,600519,hold,100,10\n", "utf-8")
    case = Case(("ledger", "import", str(bad), "main"), "rule_violation",
                ("bad.csv 中有 1 个问题；未写入任何内容", "请写 buy 或 sell"),
                ("1 problem(s) in bad.csv; nothing was written", "write buy or sell"), setup=(ACCOUNT,))  # fmt: skip
    _check(tmp_path / "home", case, capsys)
    run(["--home", str(tmp_path / "home"), "--lang", "zh", "--json", *case.args])
    [row] = json.loads(capsys.readouterr().out)["problems"]
    assert row["code"] == "bad_row" and row["message"] == "买卖方向“hold”既不是 buy 也不是 sell", row


def test_bars_the_market_rules_refuse_are_said_in_both_languages() -> None:
    """Bars handed to the market rules directly (the importer drops a repeated row itself before they get there)."""
    day = date(2024, 1, 2)
    bars = pl.DataFrame({"symbol": ["600519.SH"] * 2, "date": [day, day], "open": [1.0] * 2, "high": [1.0] * 2,
                         "low": [1.0] * 2, "close": [1.0] * 2, "prev_close": [1.0] * 2})  # fmt: skip
    with pytest.raises(InvalidInput) as repeated:
        check_bars(bars)
    assert error_words(repeated.value, "zh") == ("有 2 根 K 线的代码和日期相同，例如 600519.SH 在 2024-01-02",
                                                 "每天只保留一根 K 线")  # fmt: skip
    assert error_words(repeated.value, "en") == ("2 bars share a symbol and date, e.g. 600519.SH on 2024-01-02",
                                                 "keep one bar a day")  # fmt: skip
    with pytest.raises(InvalidInput) as odd:
        check_bars(bars.with_columns(symbol=pl.lit("600519")).head(1))
    assert error_words(odd.value, "zh") == ("K 线代码“600519”不是规范写法", "请写成 600519.SH")
    assert error_words(odd.value, "en") == ("bar symbol '600519' is not canonical", "write it as 600519.SH")


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo market with one offline report on SYMBOL, built once for this module."""
    home = tmp_path_factory.mktemp("error-words") / "market"
    assert run(["--home", str(home), "--json", "demo"]) == 0
    assert run(["--home", str(home), "--json", "analyze", SYMBOL]) == 0
    return home


@pytest.fixture
def market(published: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str]:
    """This test's copy of the published workspace, and its report's id."""
    home = tmp_path / "market"
    shutil.copytree(published, home, ignore=shutil.ignore_patterns("*.lock", "*.wal"))
    capsys.readouterr()
    assert run(["--home", str(home), "--json", "reports", "list"]) == 0
    [listed] = json.loads(capsys.readouterr().out)
    return home, listed["report_id"]


def test_an_evidence_look_up_the_report_does_not_hold_is_said_in_both_languages(
    market: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    home, report = market
    missing = "ev-" + "0" * 24
    cited = Case(("reports", "evidence", report, "--evidence", missing), "not_found",
                 (f"报告没有引用 {missing}", "?"), (f"the report does not cite {missing}", "?"))  # fmt: skip
    zh_err, zh_json = _said(home, "zh", cited.args, capsys)
    en_err, en_json = _said(home, "en", cited.args, capsys)
    assert zh_err.startswith(f"错误：{cited.zh[0]}\n提示：报告引用的证据：ev-"), zh_err
    assert en_err.startswith(f"error: {cited.en[0]}\nhint: it cites: ev-"), en_err
    assert zh_json["code"] == en_json["code"] == "not_found" and zh_json["message"] == cited.zh[0]
    number = ("reports", "evidence", report, "--number", "123456.789")
    zh_err, zh_json = _said(home, "zh", number, capsys)
    en_err, en_json = _said(home, "en", number, capsys)
    assert zh_err.startswith("错误：报告中没有论断写到数字“123456.789”\n提示：其论断中的数字："), zh_err
    assert en_err.startswith("error: no claim of the report states the number '123456.789'\nhint: numbers in its"), (
        en_err
    )
    assert zh_json["code"] == en_json["code"] == "not_found"


RESEARCH = {
    "check_plan.no_report": Case(
        ("check-plan", OTHER), "not_found",
        (f"没有关于 {OTHER} 的报告可供检查", f"请先撰写报告：stockbench analyze {OTHER}"),
        (f"there is no report on {OTHER} to check", f"write one first: stockbench analyze {OTHER}"),
    ),
    "review_quick.no_baseline": Case(
        ("review-quick", OTHER), "not_found",
        (f"没有关于 {OTHER} 的完整报告可作为复核基准", f"请先进行完整分析：stockbench analyze {OTHER}"),
        (f"there is no full report on {OTHER} to review against",
         f"run a full analysis first: stockbench analyze {OTHER}"),
    ),
    "runs.unknown": Case(
        ("runs", "show", "RUN20240101-nosuch"), "not_found",
        ("没有研究“RUN20240101-nosuch”", "查看研究：stockbench runs list"),
        ("there is no run 'RUN20240101-nosuch'", "list runs with: stockbench runs list"),
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", list(RESEARCH))
def test_a_research_error_is_said_in_both_languages(
    name: str, market: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    _check(market[0], RESEARCH[name], capsys)


def test_a_handbook_reference_that_does_not_exist_is_said_in_both_languages(
    market: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    home = market[0]
    zh_err, zh_json = _said(home, "zh", ("handbook", "show", "--reference", "nosuch"), capsys)
    en_err, en_json = _said(home, "en", ("handbook", "show", "--reference", "nosuch"), capsys)
    assert re.match(
        r"错误：手册 \w+ 中没有参考资料“nosuch”\n提示：查看参考资料：stockbench handbook show --json\n", zh_err
    )
    assert re.match(r"error: there is no reference 'nosuch' in handbook \w+\nhint: list them with: ", en_err), en_err
    assert zh_json["code"] == en_json["code"] == "not_found"


def test_a_checked_row_of_an_import_is_said_with_its_row_in_both_languages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A fill row the rules refuse (150 shares of a 100-share lot) is listed with its row, in the language asked."""
    home, odd = tmp_path / "home", tmp_path / "odd.csv"
    odd.write_text("executed_at,symbol,side,qty,price\n2024-01-03T10:00:00+08:00,600519,buy,150,10\n", "utf-8")
    assert run(["--home", str(home), "--json", *ACCOUNT]) == 0
    capsys.readouterr()
    said = {}
    for language in ("zh", "en"):
        assert run(["--home", str(home), "--lang", language, "--json", "ledger", "import", str(odd), "main"]) == 1
        said[language] = {p["code"]: p for p in json.loads(capsys.readouterr().out)["problems"]}
    zh, en = said["zh"]["lot_multiple"], said["en"]["lot_multiple"]
    assert zh["message"] == "第 2 行：600519.SH 买入数量须为 100 股的整数倍，而不是 150 股", zh
    assert en["message"] == "row 2: a buy of 600519.SH must be a multiple of 100 shares, not 150", en
    assert zh["location"] == en["location"] == "row 2" and zh["fix"] != en["fix"]
