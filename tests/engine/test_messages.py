"""The engine's message catalogue (stockbench/messages.py): every entry in both languages with the same fields,
no English word left in the Chinese, and each problem the ledger and market rules raise said in Chinese."""

from __future__ import annotations

import re
import string
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from stockbench.market.instruments import parse_symbol
from stockbench.market.lots import check_quantity
from stockbench.market.order_rules import tick_problem
from stockbench.market.tables import load_tables
from stockbench.messages import (
    ERRORS,
    NOTES,
    PROBLEMS,
    REFUSALS,
    VALUES,
    Words,
    error_words,
    language_of_locale,
    problem,
    refusal,
    said,
)

# English words of three letters or more, leaving out the commands and options a person types as they are
ENGLISH_WORD = re.compile(r"(?<![-.\w])(?!stockbench\b|ledger\b|list\b|fetch\b|data\b|order\b|account\b|ISO\b|UTF\b|"
                          r"CSV\b|JSON\b|HTTP\b|https?\b|API\b|Markdown\b)[A-Za-z]{3,}\b")  # fmt: skip


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _entries() -> list[tuple[str, Words]]:
    found = [(f"{k}.message", m) for k, (m, _) in PROBLEMS.items()] + [
        (f"{k}.fix", f) for k, (_, f) in PROBLEMS.items()
    ]
    found += [(f"error.{k}.message", m) for k, (m, _) in ERRORS.items()]
    found += [(f"error.{k}.hint", h) for k, (_, h) in ERRORS.items()]
    found += [(f"note.{k}", w) for k, w in NOTES.items()]
    return found + [(f"refusal.{k}", w) for k, w in REFUSALS.items()] + [(f"value.{k}", w) for k, w in VALUES.items()]


@pytest.mark.parametrize(("key", "words"), _entries(), ids=[k for k, _ in _entries()])
def test_every_entry_has_both_languages_with_the_same_fields(key: str, words: Words) -> None:
    assert words.en.strip() and words.zh.strip()
    english, chinese = _fields(words.en), _fields(words.zh)
    # the Chinese may take a value's Chinese word (side_zh for side) where the English takes the value itself
    assert {f.removesuffix("_zh") for f in chinese} == english, f"{key}: the languages name different fields"
    plain = string.Formatter().vformat(words.zh, (), dict.fromkeys(chinese, ""))
    assert not ENGLISH_WORD.findall(plain), f"{key}: English left in the Chinese: {plain}"


def test_a_problem_carries_its_english_words_and_is_said_in_chinese_from_its_parameters() -> None:
    found = problem("lot_multiple", symbol="600519.SH", step=100, qty=150, lower=100, upper=200)
    assert (found.code, found.message, found.fix) == (
        "lot_multiple", "a buy of 600519.SH must be a multiple of 100 shares, not 150", "buy 100 or 200")  # fmt: skip
    assert said(found, "zh") == ("600519.SH 买入数量须为 100 股的整数倍，而不是 150 股", "买入 100 股或 200 股")
    assert said(found, "en") == (found.message, found.fix)
    error = refusal("fill_not_recorded", [found])
    assert error.message == f"the fill was not recorded: {found.message}" and error.hint == found.fix
    assert error_words(error, "zh") == (
        "成交未记录：600519.SH 买入数量须为 100 股的整数倍，而不是 150 股",
        "买入 100 股或 200 股",
    )


@pytest.mark.parametrize(
    ("symbol", "side", "qty", "holding"),
    [("600519.SH", "buy", 150, None), ("688981.SH", "buy", 150, None), ("600519.SH", "sell", 150, 1000),
     ("600519.SH", "sell", 150, 130), ("600519.SH", "sell", 150, None), ("688981.SH", "sell", 150, 180),
     ("600519.SH", "buy", 0, None), ("000300.SH", "buy", 100, None), ("600519.SH", "sell", 300, 200)],
)  # fmt: skip
def test_every_lot_problem_is_said_in_chinese(symbol: str, side: str, qty: int, holding: int | None) -> None:
    problems = check_quantity(parse_symbol(symbol), side, qty, holding)  # type: ignore[arg-type]
    assert problems
    for found in problems:
        message, fix = said(found, "zh")
        assert (message, fix) != (found.message, found.fix) and not ENGLISH_WORD.findall(message + fix)


def test_a_price_off_the_tick_is_said_in_chinese() -> None:
    found = tick_problem(parse_symbol("600519.SH"), Decimal("1650.001"), date(2024, 1, 2), load_tables())
    assert found is not None
    assert said(found, "zh")[0] == "1650.001 不符合 600519.SH 的最小价格变动单位：有 3 位小数，而其价格最多 2 位"


def test_a_price_cage_problem_is_said_in_chinese_with_its_stable_code() -> None:
    from stockbench.market.limits import cage_note

    tables = load_tables()
    instrument, day = parse_symbol("688981.SH"), date(2024, 1, 2)
    buy = cage_note(instrument, "buy", Decimal("60.00"), Decimal("50.00"), day, tables=tables)
    sell = cage_note(instrument, "sell", Decimal("40.00"), Decimal("50.00"), day, tables=tables)
    assert buy is not None and sell is not None
    assert buy.code == sell.code == "price_cage"
    assert buy.message.startswith("a buy at 60.00 is above the price cage (51")
    assert buy.fix == "buy at 51.00 or lower to be matchable now"
    assert said(buy, "zh")[0].startswith("买入价 60.00 高于价格笼子上限（以参考价 50.00 计为 51")
    assert said(buy, "zh")[1] == "买入价不高于 51.00 才能立即成交"
    assert said(sell, "zh")[1] == "卖出价不低于 49.00 才能立即成交"
    for found in (buy, sell):
        assert not ENGLISH_WORD.findall("".join(said(found, "zh")))


def test_a_user_error_of_the_catalogue_is_said_in_chinese_and_keeps_its_code(tmp_path: Path) -> None:
    from stockbench.data.importer import detect_format
    from stockbench.errors import InvalidInput

    odd = tmp_path / "odd.csv"
    odd.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(InvalidInput) as raised:
        detect_format(odd)
    error = raised.value
    assert error.message == "odd.csv is neither the community A-share format nor the generic CSV"
    assert error.as_dict()["code"] == "invalid_input" and error.key == "import_unknown_layout"
    message, hint = error_words(error, "zh")
    assert message == "odd.csv 既不是社区 A 股格式，也不是通用 CSV 格式"
    assert hint.startswith("通用 CSV 需要表头：symbol,date,")
    assert error_words(error, "en") == (error.message, error.hint)


def test_a_user_error_outside_the_catalogue_keeps_its_english_in_both_languages() -> None:
    from stockbench.errors import NotFound

    legacy = NotFound("no such thing", "look elsewhere")
    assert error_words(legacy, "zh") == error_words(legacy, "en") == ("no such thing", "look elsewhere")


def test_a_problem_outside_the_catalogue_keeps_its_english_in_both_languages() -> None:
    from stockbench.errors import Problem

    legacy = Problem("zone_inverted", "the buy zone's low 10 is above its high 9", "")
    assert said(legacy, "zh") == said(legacy, "en") == (legacy.message, legacy.fix)


@pytest.mark.parametrize(
    ("environ", "expected"),
    [({"LANG": "zh_CN.UTF-8"}, "zh"), ({"LANG": "en_US.UTF-8"}, "en"),
     ({"LC_ALL": "zh_TW.UTF-8", "LANG": "en_US"}, "zh"), ({"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}, "en"),
     ({"LANG": "C.UTF-8"}, "en"), ({"LANG": "POSIX"}, "en"), ({"LC_ALL": "en_GB.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),
     ({"LC_ALL": "", "LC_MESSAGES": "zh_TW", "LANG": "en_US"}, "zh")],
)  # fmt: skip
def test_the_default_language_follows_the_locale(environ: dict[str, str], expected: str) -> None:
    """The one rule of the user's language by the locale (the CLI's, the reports', the reviews'): the first of
    LC_ALL, LC_MESSAGES and LANG that is set decides; Chinese on a Chinese locale, English on any other, C and POSIX
    included."""
    assert language_of_locale(environ) == expected


@pytest.mark.parametrize(("found", "expected"), [(("zh_CN", "UTF-8"), "zh"), (("en_US", "UTF-8"), "en"),
                                                 (("Chinese (Simplified)_China", "936"), "zh"),
                                                 ((None, None), "en")])  # fmt: skip
def test_with_no_locale_variable_the_c_librarys_locale_decides(
    monkeypatch: pytest.MonkeyPatch, found: tuple[str | None, str | None], expected: str
) -> None:
    """A window started from a desktop (Windows, a macOS app) often has no LANG: the C library's locale decides,
    by its Windows name too."""
    import locale

    monkeypatch.setattr(locale, "getlocale", lambda *_: found)
    assert language_of_locale({}) == expected
