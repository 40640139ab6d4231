"""`stockbench watchlist ...`: add, remove, list, move and search symbols, and manage the groups they sit in.
Positions on the command line count from 1 (the top of a group)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from stockbench.cli.context import CliContext, pass_cli

if TYPE_CHECKING:
    from stockbench.watchlist import WatchItem, Watchlist


def _watchlist(cli: CliContext) -> Watchlist:
    return cli.bench().watchlist


def _item(item: WatchItem) -> dict[str, Any]:
    return {"group": item.group, "symbol": item.symbol, "name": item.name, "position": item.position + 1,
            "added_at": item.added_at, "note": item.note}  # fmt: skip


def _listing(watchlist: Watchlist, group: str | None) -> dict[str, Any]:
    groups = [g for g in watchlist.groups() if group is None or g.name == watchlist.group(group).name]
    items = watchlist.items(group)
    return {
        "groups": [
            {"name": g.name, "position": g.position + 1, "items": [_item(i) for i in items if i.group == g.name]}
            for g in groups
        ]
    }


def _listing_human(cli: CliContext, data: dict[str, Any]) -> str:
    if not data["groups"]:
        return cli.say("cli.watchlist.empty", command="stockbench watchlist add SYMBOL")
    parts = []
    for group in data["groups"]:
        rows = [{"#": i["position"], "symbol": i["symbol"], "name": i["name"] or "", "note": i["note"]}
                for i in group["items"]]  # fmt: skip
        parts.append(f"[{group['name']}]\n" + cli.table(rows, ["#", "symbol", "name", "note"]))
    return "\n\n".join(parts)


@click.group()
def watchlist() -> None:
    """Symbols you follow, in groups and in your order."""


@watchlist.command("add")
@click.argument("symbols", nargs=-1, required=True)
@click.option("--group", help="Group to add to (default: the first group).")
@click.option("--note", default="", help="A note shown beside the symbol.")
@pass_cli
def add(cli: CliContext, symbols: tuple[str, ...], group: str | None, note: str) -> None:
    """Add SYMBOLS (any accepted form: 600519, sh600519, 00700.HK) at the end of a group."""
    book = _watchlist(cli)
    added = [_item(book.add(symbol, group, note=note)) for symbol in symbols]
    cli.emit({"added": added}, lambda d: "\n".join(cli.say("cli.watchlist.added", symbol=i["symbol"], group=i["group"])
                                                   for i in d["added"]))  # fmt: skip


@watchlist.command("remove")
@click.argument("symbol")
@click.option("--group", help="Remove from this group only (default: from every group).")
@pass_cli
def remove(cli: CliContext, symbol: str, group: str | None) -> None:
    """Remove SYMBOL from the watchlist."""
    from stockbench.market.instruments import canonical

    removed = _watchlist(cli).remove(symbol, group)
    cli.emit({"symbol": canonical(symbol), "removed": removed},
             lambda d: cli.say("cli.watchlist.removed", symbol=d["symbol"], count=d["removed"]))  # fmt: skip


@watchlist.command("list")
@click.option("--group", help="Only this group.")
@pass_cli
def list_(cli: CliContext, group: str | None) -> None:
    """The groups and their symbols, in order."""
    cli.emit(_listing(_watchlist(cli), group), lambda d: _listing_human(cli, d))


@watchlist.command("move")
@click.argument("symbol")
@click.option("--to", "position", type=click.IntRange(min=1), help="New place in its group (1 = top).")
@click.option("--group", help="The group SYMBOL is in (needed when it is in several).")
@click.option("--to-group", help="Move SYMBOL into this group instead (at --to, default the end).")
@pass_cli
def move(cli: CliContext, symbol: str, position: int | None, group: str | None, to_group: str | None) -> None:
    """Reorder SYMBOL within its group, or move it to another group."""
    book = _watchlist(cli)
    if to_group is not None:
        found = book.move_to_group(symbol, to_group, source=group, position=None if position is None else position - 1)
        cli.emit(_item(found), lambda d: cli.say("cli.watchlist.moved", symbol=d["symbol"], group=d["group"],
                                                 position=d["position"]))  # fmt: skip
        return
    if position is None:
        raise click.UsageError(cli.say("cli.move_where"))
    moved = book.move(symbol, position - 1, group)
    cli.emit({"group": moved.name, "symbols": list(moved.symbols)},
             lambda d: f"[{d['group']}] " + ", ".join(d["symbols"]))  # fmt: skip


@watchlist.command("search")
@click.argument("text")
@click.option(
    "--limit", type=click.IntRange(min=1, max=200), default=20, show_default=True, help="At most this many matches."
)
@pass_cli
def search(cli: CliContext, text: str, limit: int) -> None:
    """Find instruments by code or name (e.g. 6059, 酒业)."""
    hits = [{"symbol": h.symbol, "name": h.name, "security_type": h.security_type, "known": h.known}
            for h in _watchlist(cli).search(text, limit)]  # fmt: skip
    columns = ["symbol", "name", "security_type", "known"]
    cli.emit({"hits": hits}, lambda d: cli.table(d["hits"], columns, {"security_type": "security_type"}))


@watchlist.group("group")
def group_() -> None:
    """Add, rename, reorder, remove and list groups."""


@group_.command("list")
@pass_cli
def group_list(cli: CliContext) -> None:
    """Every group with its size."""
    rows = [{"name": g.name, "position": g.position + 1, "symbols": len(g.symbols)} for g in _watchlist(cli).groups()]
    cli.emit({"groups": rows}, lambda d: cli.table(d["groups"], ["position", "name", "symbols"]))


@group_.command("add")
@click.argument("name")
@pass_cli
def group_add(cli: CliContext, name: str) -> None:
    """Create an empty group NAME at the end."""
    found = _watchlist(cli).add_group(name)
    cli.emit(
        {"name": found.name, "position": found.position + 1},
        lambda d: cli.say("cli.watchlist.group_created", name=d["name"]),
    )


@group_.command("rename")
@click.argument("name")
@click.argument("new_name")
@pass_cli
def group_rename(cli: CliContext, name: str, new_name: str) -> None:
    """Rename group NAME to NEW_NAME."""
    found = _watchlist(cli).rename_group(name, new_name)
    cli.emit(
        {"name": found.name, "position": found.position + 1},
        lambda d: cli.say("cli.watchlist.group_renamed", name=d["name"]),
    )


@group_.command("move")
@click.argument("name")
@click.argument("position", type=click.IntRange(min=1))
@pass_cli
def group_move(cli: CliContext, name: str, position: int) -> None:
    """Move group NAME to POSITION (1 = first)."""
    groups = _watchlist(cli).move_group(name, position - 1)
    cli.emit(
        {"groups": [g.name for g in groups]}, lambda d: cli.say("cli.watchlist.groups", groups=", ".join(d["groups"]))
    )


@group_.command("remove")
@click.argument("name")
@pass_cli
def group_remove(cli: CliContext, name: str) -> None:
    """Delete group NAME and the symbols on it."""
    removed = _watchlist(cli).remove_group(name)
    cli.emit(
        {"name": name, "removed_symbols": removed}, lambda d: cli.say("cli.watchlist.group_removed", name=d["name"])
    )
