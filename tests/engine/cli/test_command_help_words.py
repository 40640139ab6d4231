"""Our commands' own help in the user's language: every command's description, its line in its group's list and
every option's help come from the catalogue (COMMAND_HELP), Chinese under `--lang zh` and under `--lang en` exactly
the English the commands have always shown."""

from __future__ import annotations

import inspect
import re
import unicodedata
from collections.abc import Iterator

import click
import pytest
from click.testing import CliRunner

from stockbench.cli.main import cli
from stockbench.cli.usage import help_key, short_chinese, speaking, wrap_wide
from stockbench.messages import COMMAND_HELP, HELP, USAGE
from tests.engine.test_messages import ENGLISH_WORD

SHARED = {w.en for w in (*HELP.values(), *USAGE.values())}  # the global options' and click's own help lines
# English a Chinese help keeps: names of products and of values to type or read (codes), said as they are
KEPT = {"SearXNG", "Brave", "Search", "DuckDB", "Beancount", "parquet", "litellm", "GIL", "README", "YYYY",
        "offline", "deepseek", "openai", "moonshot", "qwen", "minimax", "ollama", "environment", "keyring", "missing",
        "file", "resting", "failing", "disabled", "main", "chinext", "star", "bse", "fund", "revise", "true", "false",
        "null", "CNY", "HKD"}  # fmt: skip


def _commands() -> Iterator[tuple[list[str], click.Command]]:
    """Every command of the `stockbench` tree with its path (lazy groups load each subcommand by its name)."""

    def walk(command: click.Command, ctx: click.Context, path: list[str]) -> Iterator[tuple[list[str], click.Command]]:
        yield path, command
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None, name
                yield from walk(sub, click.Context(sub, info_name=name, parent=ctx), [*path, name])

    yield from walk(cli, click.Context(cli, info_name="stockbench"), [])


COMMANDS = list(_commands())
PATHS = [path for path, _ in COMMANDS]


def _paragraphs(text: str) -> str:
    """A help text as `--help` wraps it: its paragraphs, each on one line."""
    return "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(text).split("\n\n"))


def test_every_command_and_option_says_its_help_from_the_catalogue_and_its_english_is_the_commands() -> None:
    """A new or reworded command or option shows here; the catalogue holds no entry of a command that is gone."""
    used: set[str] = set()
    for path, command in COMMANDS:
        key = help_key(command)
        assert key == (".".join(path) or "stockbench"), path
        assert command.help, key
        assert COMMAND_HELP[key].en == _paragraphs(command.help), key
        used.add(key)
        for param in command.params:
            text = getattr(param, "help", None)
            if not text or text in SHARED:
                continue
            option = help_key(command, param)
            assert option is not None and option in COMMAND_HELP, (key, param.opts)
            assert COMMAND_HELP[option].en == text, option
            used.add(option)
    assert sorted(set(COMMAND_HELP) - used) == []


@pytest.mark.parametrize("key", list(COMMAND_HELP))
def test_every_chinese_help_keeps_the_option_names_and_numbers_it_names(key: str) -> None:
    words = COMMAND_HELP[key]
    assert re.search("[\u4e00-\u9fff]", words.zh), key
    for kept in (r"(?<![\w-])--[a-z][\w-]*", r"\d+(?:\.\d+)?%?", r"`[^`]*`"):
        english = sorted(set(re.findall(kept, words.en)) - {"`feedback RUN --verdict ... --reason ...`"})
        assert sorted(set(re.findall(kept, words.zh)) & set(english)) == english, (key, kept)


def _readable(said: str) -> str:
    """A `--help` without what is typed as it is: the usage line, commands' and options' names, values to type
    (choices, defaults), commands in backticks, paths, addresses and codes with punctuation in them."""
    lines = said.splitlines()
    heading = next((i for i, line in enumerate(lines) if line in ("命令：", "Commands:")), len(lines))
    kept = [re.sub(r"^  \S+", "", line) if at > heading else line for at, line in enumerate(lines)]
    text = "\n".join(line for line in kept if not line.startswith(("用法：", "Usage:")))
    for typed in (r"`[^`]*`", r"\[默认：[^\]]*\]", r"[\[{][\w|%-]+[\]}]", r"\w+\|\w+", r"stockbench( [a-z-]+)+",
                  r"\S*[./_=<:]\S*", r"(?<![\w-])--?[A-Za-z][\w-]*"):  # fmt: skip
        text = re.sub(typed, " ", text)
    return text


@pytest.mark.parametrize("path", PATHS, ids=[" ".join(p) or "stockbench" for p in PATHS])
def test_a_chinese_help_says_every_command_and_option_in_chinese(path: list[str]) -> None:
    said = CliRunner().invoke(cli, ["--lang", "zh", *path, "--help"], prog_name="stockbench")
    assert said.exit_code == 0, said.output
    assert sorted(set(ENGLISH_WORD.findall(_readable(said.output))) - KEPT) == [], said.output
    command = {" ".join(p): c for p, c in COMMANDS}[" ".join(path)]
    first = COMMAND_HELP[help_key(command) or ""].zh.split("\n\n")[0]
    assert first[:12] in said.output.replace("\n  ", ""), said.output


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


@pytest.mark.parametrize("args", [["--help"], ["data", "--help"], ["size", "--help"], ["data", "fetch", "--help"]])
def test_a_chinese_help_lines_up_and_keeps_within_the_screen(args: list[str]) -> None:
    """A Chinese character takes two columns: click's wrapping by characters ran lines past the screen's edge and
    cut Chinese short lines in the middle; each column starts at one place and no line is wider than the English."""
    said = CliRunner().invoke(cli, ["--lang", "zh", *args], prog_name="stockbench").output
    english = CliRunner().invoke(cli, ["--lang", "en", *args], prog_name="stockbench").output
    assert max(map(_width, said.splitlines())) <= max(80, *map(_width, english.splitlines())), said
    rows = [re.match(r"(  \S.*?\s{2,})\S", line) for line in said.splitlines() if re.match(r"  [-a-z]", line)]
    starts = {_width(found.group(1)) for found in rows if found}
    assert len(starts) <= 2, said  # the options' column and the commands' column


def test_a_long_chinese_line_in_a_group_list_drops_its_asides_and_is_cut_after_a_clause() -> None:
    text = "按服务和端点列出数据源：基础网址、状态（ok 正常、resting 暂停）、最近一次成功应答、最近一次错误和连续失败次数。"  # noqa: E501
    assert short_chinese(text, 200) == text
    assert short_chinese(text, 90) == text.replace("（ok 正常、resting 暂停）", "")
    assert short_chinese(text, 70) == "按服务和端点列出数据源：基础网址、状态、最近一次成功应答…"
    assert short_chinese(text, 30) == "按服务和端点列出数据源…"
    assert short_chinese("第一句。第二句。", 40) == "第一句。"


def test_chinese_is_wrapped_by_its_columns_never_inside_an_option_nor_before_a_closing_mark() -> None:
    with speaking("zh"):
        text = "把每一次请求和应答写入 --record 给出的目录（不联网）。再说一句。"
        lines = wrap_wide(text, 24, "  ", "  ").splitlines()
    assert lines == ["  把每一次请求和应答写入", "  --record 给出的目录", "  （不联网）。再说一句。"]
    assert all(_width(line) <= 24 for line in lines)


ENGLISH_LINES = {
    ("data", "--help"): ["  Market data: import files, read bars and quotes as of the clock, fetch, and",
                         "  the data gates.",
                         "  fetch       Fetch SYMBOL's data from the public services (live; progress...",
                         "  import      Import daily bars from FILE (community CSV or parquet, or the...",
                         "  sources     The data sources per service and endpoint: base URL, state..."],
    ("data", "fetch", "--help"): ["  Fetch SYMBOL's data from the public services (live; progress on stderr).",
                                  "  --record DIR keeps every exchange for a bug report; --replay DIR answers from",
                                  "  given (quotes the recording holds are answered from it then too).",
                                  "  --what TEXT    Kinds to fetch, comma-separated.  [default:",
                                  "  --record PATH  Write every request and answer into DIR.",
                                  "  --replay PATH  Answer from the recording in DIR (no network)."],
    ("ledger", "fill", "--help"): ["  Record a fill; every problem is listed and nothing is written if any is found.",
                                   "  --fee AMOUNT       The broker's total fees (default: computed from the rules",
                                   "                     and your terms).",
                                   "  --ref DECIMAL      The day's reference price, to check the price limits."],
}  # fmt: skip


@pytest.mark.parametrize("args", list(ENGLISH_LINES), ids=[" ".join(a[:-1]) for a in ENGLISH_LINES])
def test_an_english_help_is_the_english_it_always_was(args: tuple[str, ...]) -> None:
    CliRunner().invoke(cli, ["--lang", "zh", *args], prog_name="stockbench")  # Chinese first, in the same process
    said = CliRunner().invoke(cli, ["--lang", "en", *args], prog_name="stockbench", terminal_width=80).output
    said = said.splitlines()
    assert [line for line in ENGLISH_LINES[args] if line not in said] == [], "\n".join(said)
    assert not [line for line in said if re.search("[\u4e00-\u9fff]", line)]


def test_every_option_a_person_can_give_says_what_it_is() -> None:
    """No option is shown without help (29 were: `ledger fill --price`, `--side`, `--note`, `reports list --symbol`,
    ...), so the Chinese help never shows a bare option."""
    bare = [f"{' '.join(path)} {max(p.opts, key=len)}" for path, command in COMMANDS for p in command.params
            if isinstance(p, click.Option) and not p.hidden and not p.help]  # fmt: skip
    assert bare == []


def test_a_short_bracketed_note_is_never_broken_across_lines() -> None:
    """click's "[默认：auto]" or "[必填]" after a Chinese help stays whole on a line, as the English does."""
    text = "文件格式（`auto`：按文件名和列自动判断）。 [默认：auto]"
    for width in range(20, 50):
        wrapped = wrap_wide(text, width)
        assert "[默认：auto]" in wrapped.splitlines() or any(
            line.endswith("[默认：auto]") for line in wrapped.splitlines()
        ), (width, wrapped)
