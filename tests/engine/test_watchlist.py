"""The watchlist engine: groups, add/remove/reorder persisted across reopening, the symbol search, the CLI."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from stockbench.cli.main import run
from stockbench.errors import InvalidInput, NotFound
from stockbench.events import Event
from stockbench.market.instruments import SecurityType
from stockbench.market.registry import InstrumentData
from stockbench.watchlist import DEFAULT_GROUP, Watchlist, WatchlistChanged
from stockbench.workbench import Workbench


@pytest.fixture
def bench(home: Path) -> Iterator[Workbench]:
    with Workbench.open(home) as opened:
        registry = opened.market.registry
        registry.save(InstrumentData("600519.SH", "贵州茅台", SecurityType.STOCK, source="test"))
        registry.save(InstrumentData("000858.SZ", "五粮液", SecurityType.STOCK, source="test"))
        registry.save(InstrumentData("00700.HK", "腾讯控股", SecurityType.STOCK, board_lot=100, source="test"))
        registry.save(InstrumentData("000001.SH", "上证指数", SecurityType.INDEX, source="test"))
        yield opened


def _symbols(book: Watchlist, group: str) -> list[str]:
    return list(book.group(group).symbols)


def test_first_add_creates_the_default_group_and_canonical_symbols(bench: Workbench) -> None:
    book = bench.watchlist
    assert book.groups() == []
    item = book.add("sh600519", note="core")
    assert (item.group, item.symbol, item.name, item.position, item.note) == (
        DEFAULT_GROUP, "600519.SH", "贵州茅台", 0, "core",
    )  # fmt: skip
    book.add("0700.hk")
    assert _symbols(book, DEFAULT_GROUP) == ["600519.SH", "00700.HK"]


def test_adding_twice_to_a_group_is_refused_but_another_group_may_hold_it(bench: Workbench) -> None:
    book = bench.watchlist
    book.add("600519")
    with pytest.raises(InvalidInput, match=r"600519\.SH is already in the group 'default'"):
        book.add("600519.SH")
    book.add_group("白酒")
    book.add("600519", "白酒")
    assert book.symbols() == ["600519.SH"]
    assert [g.name for g in book.groups() if "600519.SH" in g.symbols] == [DEFAULT_GROUP, "白酒"]


def test_bad_symbols_and_groups_are_refused_with_specific_messages(bench: Workbench) -> None:
    book = bench.watchlist
    with pytest.raises(InvalidInput, match="6 digits"):
        book.add("60051")
    with pytest.raises(NotFound, match="no watchlist group named 'nope'"):
        book.add("600519", "nope")
    with pytest.raises(InvalidInput, match="not a usable group name"):
        book.add_group("   ")
    book.add_group("a")
    with pytest.raises(InvalidInput, match="already exists"):
        book.add_group(" a ")


def test_reorder_keeps_positions_contiguous_and_persists(home: Path) -> None:
    with Workbench.open(home) as bench:
        book = bench.watchlist
        for symbol in ("600519", "000858", "00700.HK"):
            book.add(symbol)
        book.move("00700.HK", 0)
        book.move("600519", 2)
        with pytest.raises(InvalidInput, match="position 3 is outside the group 'default'"):
            book.move("600519", 3)
    with Workbench.open(home) as bench:
        items = bench.watchlist.items()
        assert [(i.symbol, i.position) for i in items] == [("00700.HK", 0), ("000858.SZ", 1), ("600519.SH", 2)]


def test_remove_from_one_group_or_everywhere_renumbers(bench: Workbench) -> None:
    book = bench.watchlist
    for symbol in ("600519", "000858", "00700.HK"):
        book.add(symbol)
    book.add_group("watch")
    book.add("000858", "watch")
    assert book.remove("000858", "watch") == 1
    assert _symbols(book, "watch") == []
    book.add("000858", "watch")
    assert book.remove("000858") == 2
    assert [(i.symbol, i.position) for i in book.items(DEFAULT_GROUP)] == [("600519.SH", 0), ("00700.HK", 1)]
    with pytest.raises(NotFound, match=r"000858\.SZ is not in the watchlist"):
        book.remove("000858")


def test_groups_rename_move_between_reorder_and_remove_persist(home: Path) -> None:
    with Workbench.open(home) as bench:
        book = bench.watchlist
        book.add("600519")
        book.add("000858")
        book.add_group("港股")
        book.add_group("later")
        book.move_to_group("000858", "港股")
        book.add("00700.HK", "港股")
        book.move_to_group("600519", "港股", position=0)
        book.rename_group(DEFAULT_GROUP, "A 股")
        book.move_group("later", 0)
        with pytest.raises(InvalidInput, match="already exists"):
            book.rename_group("later", "港股")
    with Workbench.open(home) as bench:
        book = bench.watchlist
        assert [(g.name, g.position, g.symbols) for g in book.groups()] == [
            ("later", 0, ()),
            ("A 股", 1, ()),
            ("港股", 2, ("600519.SH", "000858.SZ", "00700.HK")),
        ]
        assert book.remove_group("港股") == 3
        assert [(g.name, g.position) for g in book.groups()] == [("later", 0), ("A 股", 1)]
        assert book.items() == []


def test_moving_a_symbol_held_by_several_groups_needs_the_group(bench: Workbench) -> None:
    book = bench.watchlist
    book.add("600519")
    book.add_group("b")
    book.add("600519", "b")
    with pytest.raises(InvalidInput, match="several groups"):
        book.move("600519", 0)
    assert book.move("600519", 0, "b").symbols == ("600519.SH",)


def test_search_by_code_prefix_name_and_unknown_valid_codes(bench: Workbench) -> None:
    book = bench.watchlist
    assert [h.symbol for h in book.search("600519")] == ["600519.SH"]
    assert [h.symbol for h in book.search("00")] == ["000001.SH", "000858.SZ", "00700.HK"]
    assert [(h.symbol, h.name) for h in book.search("粮")] == [("000858.SZ", "五粮液")]
    assert [h.symbol for h in book.search("腾讯")] == ["00700.HK"]
    unknown = book.search("601318")
    assert [(h.symbol, h.known) for h in unknown] == [("601318.SH", False)]
    assert book.search("  ") == []
    assert book.search("%") == []  # LIKE wildcards are literal


def test_every_change_publishes_an_event(bench: Workbench) -> None:
    seen: list[Event] = []
    bench.events.subscribe(WatchlistChanged, seen.append)
    bench.watchlist.add("600519")
    bench.watchlist.add_group("g")
    bench.watchlist.remove("600519")
    assert [(e.group, e.what) for e in seen if isinstance(e, WatchlistChanged)] == [
        (DEFAULT_GROUP, "add"), ("g", "group"), (DEFAULT_GROUP, "remove"),
    ]  # fmt: skip


def test_the_scan_reads_the_watchlist_universe(bench: Workbench) -> None:
    bench.watchlist.add("600519")
    bench.watchlist.add_group("b")
    bench.watchlist.add("600519", "b")
    bench.watchlist.add("00700.HK", "b")
    assert sorted(bench.analytics.universe("watchlist")) == ["00700.HK", "600519.SH"]


def test_cli_add_move_list_remove(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["watchlist", "add", "600519", "000858", "00700.HK"]) == 0
    assert run(["watchlist", "group", "add", "港股"]) == 0
    assert run(["watchlist", "move", "00700.HK", "--to-group", "港股"]) == 0
    assert run(["watchlist", "move", "000858", "--to", "1"]) == 0
    capsys.readouterr()
    assert run(["--json", "watchlist", "list"]) == 0
    data = json.loads(capsys.readouterr().out)
    listed = [(g["name"], [(i["symbol"], i["position"]) for i in g["items"]]) for g in data["groups"]]
    assert listed == [(DEFAULT_GROUP, [("000858.SZ", 1), ("600519.SH", 2)]), ("港股", [("00700.HK", 1)])]
    assert run(["--json", "watchlist", "remove", "sz000858"]) == 0
    assert json.loads(capsys.readouterr().out) == {"symbol": "000858.SZ", "removed": 1}
    assert run(["watchlist", "move", "600519"]) == 2  # where to is required
    assert run(["watchlist", "remove", "000858"]) == 1
    assert "000858.SZ is not in the watchlist" in capsys.readouterr().err
