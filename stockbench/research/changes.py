"""The quick review's change list: what moved since a report, each change tagged with its minimum response level.

Levels and thresholds are data (resources/quick_review.toml, described by the handbook reference
`quick-review-levels`). Everything here is pure: a report's plan and a snapshot of current data in, changes out,
each citing the evidence ids of the blocks it was computed from, so an answer that repeats a change's numbers
passes the number gate.
"""

from __future__ import annotations

import functools
import itertools
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast, get_args

from stockbench.config import resources_dir
from stockbench.errors import InternalError
from stockbench.evidence.numbers import extract_numbers
from stockbench.research.levels import ZoneLevels
from stockbench.research.wording import has, say
from stockbench.research.wording.actions import action_word
from stockbench.research.wording.entry import Language

__all__ = ["ZoneLevels"]  # a report's zones, placed against a price (research.levels)

if TYPE_CHECKING:
    from stockbench.research.summary import ReportPlan

Level = Literal["note", "watch", "act", "full_analysis"]
LEVELS: tuple[Level, ...] = get_args(Level)
ChangeKind = Literal[
    "zone_transition",
    "stop_hit",
    "limit_up",
    "limit_down",
    "money_flow_reversal",
    "volume_surge",
    "announcement",
    "ex_rights",
    "data_gap",
]
QuickAction = Literal["keep_plan", "watch", "follow_path", "protect"]
TABLE_FILE = "quick_review.toml"
# Words a report path's trigger uses for a level, when it names no price (Chinese and English).
PATH_WORDS = {"in_buy": ("买入区", "buy zone"), "in_sell": ("卖出区", "sell zone"), "stop_hit": ("止损", "stop")}


def rank(level: str) -> int:
    """The position of `level` in the rising order note < watch < act < full_analysis."""
    return LEVELS.index(cast(Level, level))


def _level(value: Any, where: str) -> Level:
    if value not in LEVELS:
        raise InternalError(f"{TABLE_FILE}: {where} has the unknown level {value!r}")
    return cast(Level, value)


@dataclass(frozen=True)
class LevelTable:
    """resources/quick_review.toml, read: the levels of every change and the plan check's conflicts."""

    name: str
    version: str
    max_age_sessions: int
    announcement_grace_days: int
    transitions: tuple[tuple[str, str, Level, str], ...]  # (from, to, level, note); "*" matches any position
    stop_hit: Level
    stop_touched: Level
    limit_sealed: Level
    limit_touched: Level
    limit_against: Level
    against_up: frozenset[str]
    against_down: frozenset[str]
    flow_level: Level
    flow_min_share: Decimal
    volume_level: Level
    volume_ratio: Decimal
    volume_min_minutes: int
    gap_level: Level
    no_price_level: Level
    ex_rights_level: Level
    actions: Mapping[str, tuple[str, ...]]
    conflicts: tuple[tuple[str, frozenset[str], str], ...]  # (position, actions, note)

    @property
    def label(self) -> str:
        return f"{self.name} {self.version}"

    def transition(self, old: str | None, new: str) -> tuple[Level, str] | None:
        """The level and note of the first row matching a move from `old` to `new`."""
        for source, target, level, note in self.transitions:
            if target == new and source in ("*", old):
                return level, note
        return None

    def conflict(self, position: str, action: str) -> str | None:
        """Why `action` contradicts the price standing at `position`, or None."""
        return next((note for pos, actions, note in self.conflicts if pos == position and action in actions), None)


@functools.cache
def load_table(path: Path | None = None) -> LevelTable:
    """The quick-review table (resources/quick_review.toml), parsed and checked once per process."""
    path = path or resources_dir() / TABLE_FILE
    try:
        data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise InternalError(f"cannot read the quick-review table {path}: {error}") from error
    if tuple(data.get("levels", ())) != LEVELS:
        raise InternalError(f"{TABLE_FILE}: levels must be {', '.join(LEVELS)} in this order")
    lim, flow, vol, gap = data["limits"], data["money_flow"], data["volume"], data["data_gap"]
    actions: dict[str, tuple[str, ...]] = {_level(k, "actions"): tuple(v) for k, v in data["actions"].items()}
    unknown = {a for v in actions.values() for a in v} - set(get_args(QuickAction))
    if set(actions) != set(LEVELS) or unknown:
        raise InternalError(f"{TABLE_FILE}: [actions] needs every level and known actions only ({sorted(unknown)})")
    return LevelTable(
        name=str(data["name"]),
        version=str(data["version"]),
        max_age_sessions=int(data["baseline"]["max_age_sessions"]),
        announcement_grace_days=int(data["baseline"].get("announcement_grace_days", 3)),
        transitions=tuple(
            (r["from"], r["to"], _level(r["level"], "zone_transition"), r.get("note", ""))
            for r in data["zone_transition"]
        ),
        stop_hit=_level(data["stop"]["hit"], "stop.hit"),
        stop_touched=_level(data["stop"]["touched"], "stop.touched"),
        limit_sealed=_level(lim["sealed"], "limits.sealed"),
        limit_touched=_level(lim["touched"], "limits.touched"),
        limit_against=_level(lim["against"], "limits.against"),
        against_up=frozenset(lim["against_up"]),
        against_down=frozenset(lim["against_down"]),
        flow_level=_level(flow["level"], "money_flow"),
        flow_min_share=Decimal(str(flow["min_share"])),
        volume_level=_level(vol["level"], "volume"),
        volume_ratio=Decimal(str(vol["ratio"])),
        volume_min_minutes=int(vol["min_minutes"]),
        gap_level=_level(gap["level"], "data_gap.level"),
        no_price_level=_level(gap["no_price"], "data_gap.no_price"),
        ex_rights_level=_level(data["ex_rights"]["level"], "ex_rights"),
        actions=actions,
        conflicts=tuple(
            (r["position"], frozenset(r["actions"]), r.get("note", "")) for r in data["plan_check"]["conflict"]
        ),
    )


def show(value: Decimal | int) -> str:
    """A number as program texts write it (exact, without trailing zeros), so the number gate finds it."""
    if isinstance(value, int):
        return str(value)
    text = format(value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def matching_path(paths: Sequence[tuple[str, str]], zones: ZoneLevels, position: str) -> str | None:
    """The trigger of the first report path tied to `position`: it names one of its prices, else its words."""
    levels = set(zones.levels_of(position))
    for trigger, _ in paths:
        if levels & {n.value for n in extract_numbers(trigger)}:
            return trigger
    words = PATH_WORDS.get(position, ())
    return next((t for t, _ in paths if any(w in t.lower() for w in words)), None)


@dataclass(frozen=True, slots=True)
class PriceNow:
    """The current price, labelled: a live quote (in a session), a delayed or stale one (said so in `note`: how
    late, or how old), or the last session's close."""

    price: Decimal
    label: Literal["live", "delayed", "stale", "last_close"]
    day: date
    at: datetime | None
    reference: Decimal | None  # the day's reference price: the previous close, or the ex-rights reference
    high: Decimal | None
    low: Decimal | None
    volume: int | None
    amount: Decimal | None
    source: str | None
    note: str = ""

    @property
    def intraday(self) -> bool:
        """A quote of the running session (live, delayed or stale), not a session's close."""
        return self.label != "last_close"

    def as_dict(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        return {k: (str(v) if isinstance(v, Decimal | date | datetime) else v) for k, v in data.items()}


@dataclass(frozen=True, slots=True)
class FlowDay:
    day: date
    main_net: Decimal
    amount: Decimal | None


@dataclass(frozen=True, slots=True)
class NewAnnouncement:
    id: str
    title: str
    category: str
    published: datetime
    level: Level
    thesis_level: bool


@dataclass(frozen=True)
class Snapshot:
    """Current data for a quick review, with the evidence id of each block it was stored in."""

    price: PriceNow | None
    limits: tuple[Decimal, Decimal] | None = None  # (up, down) of the price's session
    volume_ratio: Decimal | None = None
    flow: FlowDay | None = None  # the latest money-flow session
    announcements: tuple[NewAnnouncement, ...] = ()
    ex_rights: tuple[date, ...] = ()
    failures: tuple[str, ...] = ()
    evidence: Mapping[str, str] = field(default_factory=dict)

    def cite(self, *blocks: str) -> tuple[str, ...]:
        return tuple(self.evidence[b] for b in blocks if b in self.evidence)


@dataclass(frozen=True)
class Change:
    """One item of the change list: what changed, its minimum response level and the evidence it rests on."""

    kind: ChangeKind
    detail: str
    level: Level
    evidence: tuple[str, ...]
    rule: str
    next_check: str = ""
    path: str | None = None  # the report path that applies, if one does
    thesis_level: bool = False
    id: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "detail": self.detail,
            "level": self.level,
            "evidence": list(self.evidence),
            "rule": self.rule,
            "next_check": self.next_check,
            "path": self.path,
            "thesis_level": self.thesis_level,
        }


def is_fresh(plan: ReportPlan, price: PriceNow) -> bool:
    """Whether `price` comes from later than the report's own data (a later session, or a later live quote)."""
    if plan.day is None or price.day > plan.day:
        return True
    return price.intraday and price.at is not None and price.at > plan.published_at


def change_list(plan: ReportPlan, snap: Snapshot, table: LevelTable, language: Language = "zh") -> list[Change]:
    """Every change since the report, in a fixed order, with ids c1, c2 ..., its detail and next check in
    `language` (the words from the research catalogue; the codes kind, level and rule stay as they are)."""
    found = [
        *gap_changes(snap, table, language),
        *zone_changes(plan, snap, table, language),
        *limit_changes(plan, snap, table, language),
        *flow_changes(plan, snap, table, language),
        *volume_changes(plan, snap, table, language),
        *ex_rights_changes(snap, table, language),
        *announcement_changes(snap, language),
    ]
    return [replace(c, id=f"c{i}") for i, c in enumerate(found, 1)]


def _position_word(position: str | None, language: Language) -> str:
    """A zone position (in_buy, between ...) in the reader's words; an unknown one as the state's 'unknown'."""
    key = f"position.{position}"
    return say(key if has(key) else "state.unknown", language)


def gap_changes(snap: Snapshot, table: LevelTable, language: Language = "zh") -> list[Change]:
    found = [
        Change(
            "data_gap",
            say("quick.change.data_gap", language, reason=reason),
            table.gap_level,
            snap.cite("failures"),
            "data_gap.level",
            say("quick.next.data_gap", language),
        )
        for reason in snap.failures
    ]
    if snap.price is None:
        detail = say("quick.change.no_price", language)
        found.append(Change("data_gap", detail, table.no_price_level, snap.cite("quote"), "data_gap.no_price"))
    return found


def zone_changes(plan: ReportPlan, snap: Snapshot, table: LevelTable, language: Language = "zh") -> list[Change]:
    """The stop hit (or touched) and the move between zone positions, against the report's position."""
    price, zones = snap.price, plan.zones
    if price is None or zones is None:
        return []
    now, cite = zones.position(price.price), snap.cite("baseline", "quote")
    if now == "stop_hit" and plan.position != "stop_hit":
        detail = say("quick.change.stop_hit", language, price=show(price.price), stop=show(zones.stop or 0))
        path = matching_path(plan.paths, zones, "stop_hit")
        next_check = say("quick.next.stop_hit", language)
        return [Change("stop_hit", detail, table.stop_hit, cite, "stop.hit", next_check, path)]
    found = []
    move = table.transition(plan.position, now) if now != plan.position else None
    if move is not None:
        level, note = move
        if has(f"quick.transition.{now}"):  # the table's own note is the reports' Chinese
            note = say(f"quick.transition.{now}", language)
        old, new = _position_word(plan.position, language), _position_word(now, language)
        detail = say("quick.change.zone_transition", language, price=show(price.price), old=old, new=new, note=note)
        found.append(
            Change(
                "zone_transition",
                detail,
                level,
                cite,
                f"zone_transition {plan.position}->{now}",
                _next_check(zones, now, language),
                matching_path(plan.paths, zones, now),
            )
        )
    touched = price.low is not None and zones.stop is not None and price.low <= zones.stop < price.price
    if touched and plan.position != "stop_hit" and is_fresh(plan, price):
        detail = say("quick.change.stop_touched", language, low=show(price.low or 0), stop=show(zones.stop or 0),
                     price=show(price.price))  # fmt: skip
        next_check = say("quick.next.stop_touched", language)
        found.append(Change("stop_hit", detail, table.stop_touched, cite, "stop.touched", next_check))
    return found


def _next_check(zones: ZoneLevels, position: str, language: Language = "zh") -> str:
    if position in ("in_buy", "below_buy"):
        if zones.stop is None:
            return say("quick.next.buy_bottom", language)
        return say("quick.next.stop", language, stop=show(zones.stop))
    if position == "in_sell":
        if zones.sell_high is None:
            return say("quick.next.sell_zone", language)
        return say("quick.next.sell_top", language, high=show(zones.sell_high))
    if position == "above_sell":
        return say("quick.next.above_sell", language)
    if position == "between":
        return say("quick.next.buy_zone", language, low=show(zones.buy_low), high=show(zones.buy_high))
    return ""


def limit_changes(plan: ReportPlan, snap: Snapshot, table: LevelTable, language: Language = "zh") -> list[Change]:
    """Limit-up or limit-down of the price's session: sealed (the price is the limit) or touched (high/low)."""
    price = snap.price
    if price is None or snap.limits is None or not is_fresh(plan, price):
        return []
    up, down = snap.limits
    sides: tuple[tuple[ChangeKind, Decimal, Decimal | None, frozenset[str]], ...] = (
        ("limit_up", up, price.high, table.against_up),
        ("limit_down", down, price.low, table.against_down),
    )
    found = []
    for kind, limit, extreme, against in sides:
        cite, word = snap.cite("quote", "computed"), say(f"quick.limit.{kind}", language)
        shown = {"price": show(price.price), "limit": show(limit), "limit_word": word}
        if price.price == limit:
            level = table.limit_against if plan.action in against else table.limit_sealed
            rule = "limits.against" if plan.action in against else "limits.sealed"
            detail = say("quick.change.limit_sealed", language, action=action_word(plan.action, language), **shown)
            found.append(Change(kind, detail, level, cite, rule, say("quick.next.limit_sealed", language, **shown)))
        elif extreme is not None and (extreme >= limit if kind == "limit_up" else extreme <= limit):
            detail = say("quick.change.limit_touched", language, **shown)
            next_check = say("quick.next.limit_touched", language)
            found.append(Change(kind, detail, table.limit_touched, cite, "limits.touched", next_check))
    return found


def flow_changes(plan: ReportPlan, snap: Snapshot, table: LevelTable, language: Language = "zh") -> list[Change]:
    """A session after the report's whose main net flow runs against the report's capital state."""
    flow = snap.flow
    if flow is None or plan.capital not in ("inflow", "outflow") or (plan.day is not None and flow.day <= plan.day):
        return []
    if (flow.main_net < 0) != (plan.capital == "inflow") or flow.main_net == 0:
        return []
    if flow.amount and abs(flow.main_net) / flow.amount < table.flow_min_share:
        return []
    direction = say("quick.flow.outflow" if flow.main_net < 0 else "quick.flow.inflow", language)
    capital = say(f"state.capital.{plan.capital}", language)
    detail = say("quick.change.flow_reversal", language, day=flow.day.isoformat(), direction=direction,
                 amount=show(abs(flow.main_net)), capital=capital)  # fmt: skip
    cite, next_check = snap.cite("baseline", "flow", "computed"), say("quick.next.flow_reversal", language)
    return [Change("money_flow_reversal", detail, table.flow_level, cite, "money_flow.level", next_check)]


def volume_changes(plan: ReportPlan, snap: Snapshot, table: LevelTable, language: Language = "zh") -> list[Change]:
    """量比 at or above the table's threshold in a session later than the report's data."""
    ratio = snap.volume_ratio
    if ratio is None or snap.price is None or not is_fresh(plan, snap.price) or ratio < table.volume_ratio:
        return []
    detail = say("quick.change.volume_surge", language, ratio=show(ratio), threshold=show(table.volume_ratio))
    return [
        Change(
            "volume_surge",
            detail,
            table.volume_level,
            snap.cite("quote", "computed"),
            "volume.ratio",
            say("quick.next.volume_surge", language),
        )
    ]


def ex_rights_changes(snap: Snapshot, table: LevelTable, language: Language = "zh") -> list[Change]:
    return [
        Change(
            "ex_rights",
            say("quick.change.ex_rights", language, day=day.isoformat()),
            table.ex_rights_level,
            snap.cite("computed"),
            "ex_rights.level",
            say("quick.next.ex_rights", language),
        )
        for day in snap.ex_rights
    ]


def category_word(category: str, language: Language) -> str:
    """An announcement category (a key of the handbook's announcement_levels table) in the reader's words; a
    category the catalogue does not know is shown as it is."""
    key = f"announcement.category.{category}"
    return say(key, language) if has(key) else category


def announcement_changes(snap: Snapshot, language: Language = "zh") -> list[Change]:
    """Every new announcement, at its category's level (thesis-level ones at full_analysis)."""
    found = []
    for a in snap.announcements:
        level: Level = "full_analysis" if a.thesis_level else a.level
        news = say("quick.news.thesis" if a.thesis_level else "quick.news.new", language)
        category = category_word(a.category, language)
        detail = say("quick.change.announcement", language, news=news, title=a.title, category=category)
        found.append(
            Change(
                "announcement",
                detail,
                level,
                snap.cite("announcements", "announcement_titles"),
                f"announcement_levels {a.category}",
                say("quick.next.announcement", language),
                thesis_level=a.thesis_level,
            )
        )
    return found


def ex_rights_days(
    bars: Sequence[tuple[date, Decimal, Decimal | None]], after: date | None, live: PriceNow | None
) -> tuple[date, ...]:
    """Sessions after `after` whose reference price differs from the close before them (ex-rights, ex-dividend).

    `bars` are (day, close, prev_close) in day order; a live quote of a later session is compared with the last bar.
    """
    days = []
    for (_, close, _), (day, _, ref) in itertools.pairwise(bars):
        if (after is None or day > after) and ref is not None and ref != close:
            days.append(day)
    later = live is not None and bars and live.day > bars[-1][0] and (after is None or live.day > after)
    if later and live is not None and live.reference is not None and live.reference != bars[-1][1]:
        days.append(live.day)
    return tuple(days)
