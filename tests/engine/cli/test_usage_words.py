"""Click's own words in the user's language: a usage error (a missing argument or option value, an unknown option or
command, a bad choice, number or date) and the `--help` headings come out in Chinese with `--lang zh` (or on a
Chinese locale), in English with `--lang en`; exit code 2 either way, and `--json` carries the same stable code."""

from __future__ import annotations

import ast
import json
import re
import string
import unicodedata
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from stockbench.cli.main import cli, run
from stockbench.messages import HELP, METAVARS, USAGE
from tests.engine.test_messages import ENGLISH_WORD

FILL = ["ledger", "fill", "main", "600519"]
# (what is wrong, the arguments, a Chinese phrase it must say, the English phrase it says with --lang en)
CASES = [
    ("missing argument", ["ledger", "fill"], "缺少参数", "Missing argument 'NAME'"),
    ("missing option", [*FILL, "--qty", "100", "--price", "10", "--at", "2024-01-03T10:00"], "缺少选项",
     "Missing option '--side'"),
    ("missing value", [*FILL, "--side"], "选项“--side”需要一个值", "Option '--side' requires an argument"),
    ("unknown option", [*FILL, "--bogus"], "没有选项“--bogus”", "No such option '--bogus'"),
    ("unknown command", ["ledgr"], "没有命令“ledgr”", "No such command 'ledgr'"),
    ("bad choice", [*FILL, "--side", "xx", "--qty", "100", "--price", "10", "--at", "2024-01-03T10:00"],
     "“xx”不在可选值", "'xx' is not one of 'buy', 'sell'"),
    ("bad integer", ["scan", "--top", "abc"], "“abc”不是有效的数字", "'abc' is not a valid integer"),
    ("bad date", ["track-record", "--since", "2024-13-01"], "“2024-13-01”不是日期", "'2024-13-01' is not a date"),
    ("extra argument", ["info", "extra"], "多出了参数", "Got unexpected extra argument (extra)"),
]  # fmt: skip
# click's English a Chinese usage error or help must not keep
ENGLISH = ("Missing", "No such", "Usage:", "Error:", "Invalid value", "requires an argument", "is not one of",
           "is not a valid", "Try '", "Options:", "Commands:", "Show this message", "unexpected extra")  # fmt: skip


@pytest.mark.parametrize(("args", "chinese"), [(c[1], c[2]) for c in CASES], ids=[c[0] for c in CASES])
def test_a_usage_error_is_said_in_chinese_with_lang_zh(args: list[str], chinese: str) -> None:
    result = _invoke(["--lang", "zh", *args])
    assert result.exit_code == 2, result.output
    assert chinese in result.output
    assert "错误：" in result.output
    assert not [phrase for phrase in ENGLISH if phrase in result.output], result.output


@pytest.mark.parametrize(("args", "english"), [(c[1], c[3]) for c in CASES], ids=[c[0] for c in CASES])
def test_a_usage_error_is_said_in_english_with_lang_en(args: list[str], english: str) -> None:
    result = _invoke(["--lang", "en", *args])
    assert result.exit_code == 2, result.output
    assert english in result.output
    assert "Error: " in result.output


def test_a_chinese_locale_without_lang_says_usage_errors_in_chinese(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    result = _invoke(["ledger", "fill"])
    assert result.exit_code == 2
    assert "用法：" in result.output and "缺少参数 '名称'" in result.output
    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")
    assert "Missing argument 'NAME'" in _invoke(["ledger", "fill"]).output


def test_the_command_ends_a_chinese_usage_error_with_a_chinese_full_stop(capsys: pytest.CaptureFixture[str]) -> None:
    """Click joins a missing parameter's sentence with "." in code; the stockbench command ends it with 。 in
    Chinese (and keeps "." in English), in the text and in the JSON."""
    from stockbench.cli.main import run

    assert run(["--lang", "zh", "ledger", "fill"]) == 2
    assert "错误：缺少参数 '名称'。" in capsys.readouterr().err
    assert run(["--lang", "zh", "--json", "ledger", "fill"]) == 2
    assert "缺少参数 '名称'。" in capsys.readouterr().out
    assert run(["--lang", "en", "ledger", "fill"]) == 2
    assert "Error: Missing argument 'NAME'." in capsys.readouterr().err


def test_help_headings_are_chinese_with_lang_zh() -> None:
    said = _invoke(["--lang", "zh", "--help"]).output
    for words in ("用法： stockbench", "选项：", "命令：", "显示此帮助并退出。", "显示版本号并退出。",
                  "在标准输出上给出机器可读的结果。", "消息和拒绝理由的语言"):  # fmt: skip
        assert words in said, said
    assert not [phrase for phrase in ENGLISH if phrase in said], said
    sub = _invoke(["--lang", "zh", "ledger", "fill", "--help"]).output
    assert "用法： stockbench ledger fill" in sub and "选项：" in sub and "[必填]" in sub
    assert "工作区目录（同全局选项）。" in sub and "Show this message" not in sub


def test_help_is_english_again_with_lang_en_in_the_same_process() -> None:
    _invoke(["--lang", "zh", "ledger", "fill", "--help"])  # the help option is built in Chinese
    said = _invoke(["--lang", "en", "ledger", "fill", "--help"]).output
    assert "Usage: stockbench ledger fill" in said and "Options:" in said
    assert "Show this message and exit." in said and "[required]" in said
    assert not [ch for ch in said if "\u4e00" <= ch <= "\u9fff"], said


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_usage_error_with_json_prints_its_stable_code(language: str, capsys: pytest.CaptureFixture[str]) -> None:
    codes = {}
    for name, args, chinese, english in CASES:
        assert run(["--lang", language, "--json", *args]) == 2, name
        captured = capsys.readouterr()
        error = json.loads(captured.out)["error"]
        assert (chinese if language == "zh" else english) in error["message"], name
        assert error["message"] in captured.err  # the person reads the same words on stderr
        codes[name] = error["code"]
    assert codes == {
        "missing argument": "usage.missing_argument", "missing option": "usage.missing_option",
        "missing value": "usage.bad_option", "unknown option": "usage.no_such_option",
        "unknown command": "usage.no_such_command", "bad choice": "usage.bad_choice", "bad integer": "usage.bad_value",
        "bad date": "usage.bad_value", "extra argument": "usage.error",
    }  # fmt: skip


def test_a_bad_decimal_is_refused_in_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--lang", "zh", "rules", "limits", "600519", "--ref", "abc"]) == 1  # a typed number: a user error
    said = capsys.readouterr().err
    assert said.startswith("错误：--ref“abc”不是数字") and not ENGLISH_WORD.findall(said.replace("abc", "")), said


def _invoke(args: list[str]) -> Result:
    return CliRunner().invoke(cli, args, prog_name="stockbench")


def _click_texts() -> set[str]:
    """Every text click's modules ask gettext for (`_("...")`, `ngettext("...", "...", n)`)."""
    found: set[str] = set()
    for path in Path(click.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_", "ngettext"):
                found |= {a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)}
    return found


def test_every_usage_entry_is_a_text_click_asks_for() -> None:
    """An upgrade of click that rewords a text shows here, not as English in a Chinese error."""
    core = (Path(click.__file__).parent / "core.py").read_text(encoding="utf-8")
    assert 'extra["required"] = "required"' in core and '_(extra["required"])' in core  # asked for by a name
    assert sorted({w.en for w in USAGE.values()} - _click_texts() - {"required"}) == []


@pytest.mark.parametrize("key", [*USAGE, *HELP])
def test_every_usage_and_help_entry_is_chinese_with_no_new_fields(key: str) -> None:
    words = USAGE.get(key) or HELP[key]
    fields = {f: {name for _, name, _, _ in string.Formatter().parse(t) if name}
              for f, t in (("en", words.en), ("zh", words.zh))}  # fmt: skip
    assert fields["zh"] <= fields["en"], key  # the Chinese may leave out an English-only field, never add one
    plain = string.Formatter().vformat(words.zh, (), dict.fromkeys(fields["zh"], ""))
    assert not ENGLISH_WORD.findall(plain.replace("DATE", "").replace("$STOCKBENCH_HOME", "")), key


# click's placeholders for a value, and ours, that a Chinese `--help` or usage line must not keep
METAVAR = re.compile(
    r"(?<![-\w])(?:TEXT|INTEGER|FLOAT|BOOLEAN|PATH|FILE|DIRECTORY|DIR|DATE|DECIMAL|AMOUNT|PERCENT|"
    r"ISO_INSTANT|SYMBOLS?|NAME|MARKET|OPTIONS|COMMAND|ARGS|RUN|CODE|HASH|SLUG|URL|ID|"
    r"SOURCE|TARGET)(?![\w])"
)
HELPS = [["--help"], ["ledger", "fill", "--help"], ["ledger", "transfer", "--help"], ["data", "fetch", "--help"],
         ["scan", "--help"], ["rules", "fees", "--help"], ["track-record", "--help"], ["backups", "folder", "--help"],
         ["watchlist", "add", "--help"], ["feedback", "--help"], ["handbook", "show", "--help"]]  # fmt: skip


def _placeholders(said: str) -> list[str]:
    """The usage line and each option's or argument's term (before its help text) of a `--help`."""
    lines = said.splitlines()
    usage = [line for line in lines if line.startswith(("用法：", "Usage:"))]
    heading = next(i for i, line in enumerate(lines) if line in ("选项：", "Options:"))
    terms = [re.split(r"\s{2,}", line.strip())[0] for line in lines[heading:] if line.startswith("  -")]
    return usage + terms


@pytest.mark.parametrize("args", HELPS, ids=[" ".join(a[:-1]) or "stockbench" for a in HELPS])
def test_help_says_its_placeholders_in_chinese_with_lang_zh(args: list[str]) -> None:
    """Click's type metavars (TEXT, INTEGER, PATH, DATE ...), our own (ISO_INSTANT, SYMBOL) and the usage line's
    [OPTIONS] were English in a Chinese `--help`; in English they are click's words as before."""
    said = _invoke(["--lang", "zh", *args])
    assert said.exit_code == 0, said.output
    english = [p for p in _placeholders(said.output) if METAVAR.search(p)]
    assert english == [], said.output
    assert len(_placeholders(said.output)) > 2
    plain = _invoke(["--lang", "en", *args]).output
    assert not [ch for ch in plain if "\u4e00" <= ch <= "\u9fff"], plain
    assert [p for p in _placeholders(plain) if METAVAR.search(p)], plain  # the same help in English keeps them


def test_a_chinese_help_names_each_value_in_chinese_and_keeps_values_to_type() -> None:
    said = _invoke(["--lang", "zh", "ledger", "fill", "--help"]).output
    assert "用法： stockbench ledger fill [选项] 名称 代码" in said
    for term in ("--qty 整数", "--price 数值", "--at 时刻", "--fee 金额", "--note 文本", "--home 路径", "--as-of 日期",
                 "--side [buy|sell]"):  # fmt: skip
        assert term in said, (term, said)
    top = _invoke(["--lang", "zh", "--help"]).output
    assert "用法： stockbench [选项] [命令] [参数]..." in top and "--lang [zh|en]" in top
    english = _invoke(["--lang", "en", "ledger", "fill", "--help"]).output
    assert "Usage: stockbench ledger fill [OPTIONS] NAME SYMBOL" in english
    assert "--qty INTEGER" in english and "--at ISO_INSTANT" in english


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def test_a_chinese_help_lines_its_help_texts_up_on_the_screen() -> None:
    """A Chinese placeholder takes two columns a character: the help texts start at one column on a terminal."""
    said = _invoke(["--lang", "zh", "ledger", "fill", "--help"]).output
    rows = [re.match(r"(  -\S.*?\s{2,})\S", line) for line in said.splitlines() if line.startswith("  -")]
    starts = {_width(found.group(1)) for found in rows if found}
    assert len(starts) == 1, said


def test_every_metavar_the_command_line_shows_is_in_the_catalogue() -> None:
    """Each placeholder any command's `--help` shows in English (a type's, an option's or an argument's) has
    Chinese words in METAVARS; values to type ([buy|sell], [CNY|HKD], true|false) are left as they are."""
    shown: set[str] = set()

    def walk(command: click.Command, ctx: click.Context) -> None:
        for param in command.params:
            if param.metavar is None and isinstance(param.type, click.Choice):
                continue  # its values to type, shown as they are
            shown.update(re.findall(r"(?<!%)\b(?:INTEGER RANGE|FLOAT RANGE|[A-Z][A-Z_]*)\b", param.make_metavar(ctx)))
        if isinstance(command, click.Group):  # lazy: each subcommand is loaded by its name
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None, name
                walk(sub, click.Context(sub, info_name=name, parent=ctx))

    walk(cli, click.Context(cli, info_name="stockbench"))
    assert {"TEXT", "INTEGER", "PATH", "DATE", "ISO_INSTANT", "SYMBOL", "NAME"} <= shown, shown
    assert sorted(shown - {w.en for w in METAVARS.values()}) == []


@pytest.mark.parametrize("key", list(METAVARS))
def test_every_metavar_entry_is_chinese_with_no_field(key: str) -> None:
    words = METAVARS[key]
    assert "{" not in words.en and "{" not in words.zh, key
    assert words.zh and not ENGLISH_WORD.findall(words.zh) and not re.search(r"[A-Za-z]", words.zh), key


@pytest.mark.parametrize(
    ("args", "chinese", "english"),
    [
        (["ledger", "positions", "main", "--price", "600519"], "“600519”不是“代码=价格”", "is not SYMBOL=PRICE"),
        (["data", "fetch", "600519", "--what", "nonsense"], "请用逗号分隔列出以下类别", "use a comma-separated list"),
        (["data", "fetch", "600519", "--record", "a", "--replay", "b"], "不要同时使用", "use --record or --replay"),
        (["backups", "folder", "somewhere", "--default"], "不要同时给出", "give a folder or --default"),
    ],
    ids=["bad price pair", "bad kinds", "record and replay", "folder and default"],
)
def test_our_own_refusals_of_a_value_are_chinese_with_lang_zh(args: list[str], chinese: str, english: str) -> None:
    said = _invoke(["--lang", "zh", *args])
    assert said.exit_code == 2, said.output
    assert chinese in said.output and english not in said.output, said.output
    assert english in _invoke(["--lang", "en", *args]).output
