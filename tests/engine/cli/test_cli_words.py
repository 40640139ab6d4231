"""The CLI's human output is said in the language asked for: with `--lang zh` no English word is left in what a
representative command of each group prints (outside codes, symbols, currencies, paths and command names), and with
`--lang en` it is English."""

from __future__ import annotations

import math
import re
from datetime import date, timedelta
from pathlib import Path

import pytest

from stockbench.cli.main import run

# words a person reads as they are in either language: currency codes, the names this test gives (the account, the
# default watchlist group), units and the commands and options typed as they are
ALLOWED = {"CNY", "HKD", "USD", "main", "default", "stockbench", "ledger", "data", "MB", "local", "ollama", "qwen",
           "openai", "http", "models", "keystore", "file", "NAME", "UTC"}  # fmt: skip
# the OS keyring's own names and the install commands of this machine's system, said as they are typed
SYSTEM = re.compile(
    r"Secret Service|GNOME Keyring|KWallet|KDE|D-Bus|DBUS_SESSION_BUS_ADDRESS|SSH|Debian GNU/Linux"
    r"|bookworm|`[^`]*`|\((No recommended backend|[^)]*keyring)[^)]*\)"
)
# a run of ASCII letters standing alone: not inside a code or an id (F20240103-ab12), split at underscores too
WORD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{3,}(?![A-Za-z0-9])")
CJK = re.compile(r"[\u4e00-\u9fff]")


def _bars_csv(path: Path, sessions: int = 40) -> Path:
    """`sessions` weekday bars of 600519 from 2024-01-02, a gentle wave: enough for zones (ATR14 needs 15)."""
    rows, day, prev = ["symbol,date,open,high,low,close,prev_close,volume,amount,name"], date(2024, 1, 2), ""
    while len(rows) <= sessions:
        if day.weekday() < 5:
            i = len(rows) - 1
            close = round(100 + 10 * math.sin(i / 5) + i * 0.2, 2)
            volume = 10000 + i * 100
            rows.append(f"600519,{day},{close - 0.5:.2f},{close + 1.2:.2f},{close - 1.3:.2f},{close:.2f},{prev},"
                        f"{volume},{volume * close:.2f},贵州茅台")  # fmt: skip
            prev = f"{close:.2f}"
        day += timedelta(days=1)
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def _session(language: str, home: Path, tmp: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    """What each representative command prints (stdout and stderr), in `language`, on a fresh workspace."""
    said: dict[str, str] = {}

    def call(name: str, *args: str) -> str:
        code = run(["--home", str(home), "--as-of", "2024-03-15", "--lang", language, *args])
        captured = capsys.readouterr()
        assert code == 0, captured.err
        said[name] = captured.out + captured.err
        return said[name]

    call("account add", "ledger", "account", "add", "main", "--currency", "CNY")
    call("cash", "ledger", "cash", "main", "deposit", "200000", "--at", "2024-01-02T09:00")
    call("data import", "data", "import", str(_bars_csv(tmp / "bars.csv")))
    call("fill", "ledger", "fill", "main", "600519", "--side", "buy", "--qty", "100", "--price", "100.10",
         "--at", "2024-01-03T10:00")  # fmt: skip
    call("positions", "ledger", "positions", "main")
    added = call("order add", "ledger", "order", "add", "main", "600519", "--side", "sell", "--qty", "100",
                 "--price", "120", "--at", "2024-01-04T09:35")  # fmt: skip
    call("order list", "ledger", "order", "list", "main")
    order_id = re.search(r"O\d{8}-[0-9a-f]+", added)
    assert order_id is not None, added
    call("order cancel", "ledger", "order", "cancel", order_id.group())
    call("export", "ledger", "export", "main", "--format", "csv", "--to", str(tmp / "main.csv"))
    call("zones", "zones", "600519")
    call("watchlist add", "watchlist", "add", "600519")
    call("watchlist list", "watchlist", "list")
    call("models add", "models", "add", "local", "--preset", "ollama")
    call("models list", "models", "list")
    call("backup", "backup")
    return {name: text.replace(str(tmp), "PATH") for name, text in said.items()}


def _english_words(text: str) -> list[str]:
    text = re.sub(r"PATH\S*|\S+\.duckdb", "", SYSTEM.sub("", text))  # paths, and a backup's file name
    return [w for w in WORD.findall(text) if w not in ALLOWED]


def test_every_group_speaks_chinese_with_lang_zh(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = _session("zh", tmp_path / "w", tmp_path, capsys)
    left = {name: words for name, text in said.items() if (words := _english_words(text))}
    assert not left, "English left in the Chinese output:\n" + "\n".join(f"{n}: {said[n]}" for n in left)
    for name, text in said.items():
        assert CJK.search(text), f"{name} says nothing in Chinese: {text}"


def test_every_group_speaks_english_with_lang_en(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = _session("en", tmp_path / "w", tmp_path, capsys)
    assert said["account add"].strip() == "account 'main' opened (CNY, markets CN)"
    assert said["cash"].endswith(": deposit 200000 CNY at 2024-01-02 09:00:00 Beijing time (UTC+08:00)\n")
    assert said["data import"].startswith("read 40, stored 40, rejected 0 (")
    assert "not built 000292.SH: no stored stock of the boards chinext" in said["data import"]
    assert "buy 100 600519.SH @ 100.10 on 2024-01-03, fees 5.64" in said["fill"]
    assert said["positions"].startswith("symbol     qty  sellable  avg_cost")
    assert said["order add"].endswith(": sell 100 600519.SH @ 120.00\n")
    assert said["order list"].startswith("order_id") and " sell " in said["order list"]
    assert said["order cancel"].endswith(" cancelled\n")
    assert said["export"].strip() == "wrote 2 entries to PATH/main.csv"
    assert said["zones"].startswith("600519.SH as of 2024-02-26: price ")
    assert "plan  reward-to-risk" in said["zones"] and "note: no_bar: no bar on 2024-03-15" in said["zones"]
    assert said["watchlist add"].strip() == "added 600519.SH to 'default'"
    assert said["watchlist list"].startswith("[default]\n#  symbol")
    assert "  key        not required" in said["models add"]
    assert said["models list"].startswith("name   provider")
    assert said["backup"].startswith("backup workspace-")
    for name, text in said.items():
        names = text.replace("贵州茅台", "").replace("全A指数（程序构建）", "").replace("沪深主板指数（程序构建）", "")
        assert not CJK.search(names), f"{name} is not English: {text}"
