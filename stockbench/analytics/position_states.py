"""The position state machine: no_position, watching, building, holding, reducing, exited, and which moves between
them are legal given the ledger position (quantity and T+1 sellable) and where the price sits against the zones.

Moves (staying in a state is always allowed):

    no_position -> watching, building
    watching    -> no_position, building
    building    -> holding, reducing, exited
    holding     -> building, reducing, exited
    reducing    -> holding, exited
    exited      -> no_position, watching, building

Conditions, checked against the ledger and the zones: watching and no_position need no shares held; holding and
reducing need shares (reducing also needs sellable shares: T+1); exited needs the position sold out; building
needs zones and a price that is not in or above the sell zone and has not hit the stop. Selling, whether part
or all of the position, is reducing; exited follows once the ledger shows nothing left. An illegal move comes
back as Problems saying why and what to do.

Actions are a closed set tied to the machine (`ACTION_STATES`, the handbook's state-action table): buy and add
go with building, hold with holding, reduce and sell with reducing, wait and avoid with watching or no_position.
Add, hold, reduce and sell need shares held (nothing held and nothing to do is wait); buy, wait and avoid need
none held; and the action's state must be a legal move now (a buy into the sell zone is refused).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from stockbench.analytics.zones import ZonePosition
from stockbench.errors import InvalidInput, Problem
from stockbench.messages import NOTES, Language, problem, said, user_error, value_word

PositionState = Literal["no_position", "watching", "building", "holding", "reducing", "exited"]
STATES: tuple[PositionState, ...] = get_args(PositionState)
HELD: frozenset[PositionState] = frozenset({"building", "holding", "reducing"})
Action = Literal["buy", "add", "hold", "reduce", "sell", "wait", "avoid"]
ACTIONS: tuple[Action, ...] = get_args(Action)
ACTION_STATES: dict[Action, tuple[PositionState, ...]] = {
    "buy": ("building",),
    "add": ("building",),
    "hold": ("holding",),
    "reduce": ("reducing",),
    "sell": ("reducing",),
    "wait": ("no_position", "watching"),
    "avoid": ("no_position", "watching"),
}
HOLDER_ACTIONS: frozenset[Action] = frozenset({"add", "hold", "reduce", "sell"})
NO_FIX = NOTES["choose_allowed_action"]
FLAT_ACTIONS: dict[Action, str] = {"buy": "add", "wait": "hold", "avoid": "reduce or sell"}  # -> the holder's action

MOVES: dict[PositionState, frozenset[PositionState]] = {
    "no_position": frozenset({"watching", "building"}),
    "watching": frozenset({"no_position", "building"}),
    "building": frozenset({"holding", "reducing", "exited"}),
    "holding": frozenset({"building", "reducing", "exited"}),
    "reducing": frozenset({"holding", "exited"}),
    "exited": frozenset({"no_position", "watching", "building"}),
}


@dataclass(frozen=True, slots=True)
class PositionFacts:
    """What the machine checks against: the ledger's quantity and sellable quantity, and the zone position of the
    price (None when no zones could be computed)."""

    qty: int
    sellable: int
    zone: ZonePosition | None


@dataclass(frozen=True, slots=True)
class Transition:
    """A requested move and whether it is legal; `problems` explain an illegal one."""

    current: PositionState
    target: PositionState
    problems: tuple[Problem, ...] = ()

    @property
    def legal(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict[str, object]:
        return {"from": self.current, "to": self.target, "legal": self.legal,
                "problems": [p.as_dict() for p in self.problems]}  # fmt: skip


def parse_state(text: str) -> PositionState:
    """A state from its name, with a clear error."""
    for state in STATES:
        if text == state:
            return state
    raise user_error(InvalidInput, "not_a_position_state", text=text, choices=", ".join(STATES))


def state_words(states: Sequence[PositionState], language: Language) -> str:
    """Position states as people read them (“未持仓” / no position), joined by "or" (或)."""
    if language == "zh":
        return "或".join(f"“{value_word('position_state', s, language)}”" for s in states)
    return " or ".join(value_word("position_state", s, language) for s in states)


def _named(**states: PositionState) -> dict[str, str]:
    """Each state by its code (what the model submits) and, as <name>_zh, in Chinese words (a person's)."""
    return {**states, **{f"{name}_zh": state_words([state], "zh") for name, state in states.items()}}


_EDITIONS: tuple[tuple[str, Language], ...] = (("", "en"), ("_zh", "zh"))  # a parameter's suffix per language


def _said(**states: Sequence[PositionState]) -> dict[str, str]:
    """Each group of states in English words and, as <name>_zh, in Chinese words (both read by people)."""
    return {f"{name}{suffix}": state_words(found, language) for name, found in states.items()
            for suffix, language in _EDITIONS}  # fmt: skip


def _ledger_problems(target: PositionState, facts: PositionFacts) -> list[Problem]:
    if target in ("watching", "no_position") and facts.qty > 0:
        return [problem("still_holding", qty=facts.qty, **_named(target=target, holding="holding",
                                                                 reducing="reducing"))]  # fmt: skip
    if target == "exited" and facts.qty > 0:
        return [problem("not_sold_out", qty=facts.qty, **_named(exited="exited"))]
    if target in ("holding", "reducing") and facts.qty == 0:
        return [problem("no_shares", **_named(target=target, building="building"))]
    if target == "reducing" and facts.sellable == 0:
        return [problem("nothing_sellable", qty=facts.qty)]
    return []


def _zone_problems(target: PositionState, facts: PositionFacts) -> list[Problem]:
    zone = facts.zone
    if target in ("building", "watching") and zone is None:
        return [problem("no_zones", command="stockbench zones SYMBOL", **_named(target=target))]
    if target == "building" and zone in ("in_sell", "above_sell"):
        return [problem("buying_into_sell_zone", zone=value_word("zone", zone, "en"),
                        zone_zh=value_word("zone", zone, "zh"))]  # fmt: skip
    if target == "building" and zone == "stop_hit":
        return [problem("stop_hit")]
    return []


def check_move(current: PositionState, target: PositionState, facts: PositionFacts) -> Transition:
    """Whether moving from `current` to `target` is legal now, with every reason it is not."""
    if current == target:
        return Transition(current, target)
    problems = []
    if target not in MOVES[current]:
        allowed = sorted(MOVES[current])
        problems.append(problem("illegal_move", **_said(current=[current], target=[target]),
                                allowed=", ".join(state_words([s], "en") for s in allowed),
                                allowed_zh="、".join(state_words([s], "zh") for s in allowed)))  # fmt: skip
    problems += _ledger_problems(target, facts)
    problems += _zone_problems(target, facts)
    return Transition(current, target, tuple(problems))


def legal_moves(current: PositionState, facts: PositionFacts) -> list[PositionState]:
    """The states `current` may move to now (itself included), in STATES order."""
    return [s for s in STATES if check_move(current, s, facts).legal]


def reconcile(recorded: PositionState, facts: PositionFacts) -> PositionState:
    """The state the ledger implies when it disagrees with the recorded one: shares bought while not held make the
    position building; a held position sold out is exited."""
    if facts.qty > 0 and recorded not in HELD:
        return "building"
    if facts.qty == 0 and recorded in ("holding", "reducing"):
        return "exited"
    return recorded


def suggest(current: PositionState, facts: PositionFacts) -> tuple[PositionState, str] | None:
    """The move the zones point to, with the reason, when it is legal now (None: stay)."""
    zone, reason = facts.zone, ""
    target_state: PositionState | None = None
    if current in HELD and zone == "stop_hit":
        target_state, reason = "reducing", "the stop is hit: sell the whole sellable position"
    elif current in ("holding", "building") and zone in ("in_sell", "above_sell"):
        target_state, reason = "reducing", "the price reached the sell zone"
    elif current in ("watching", "no_position", "exited") and zone == "in_buy":
        target_state, reason = "building", "the price is in the buy zone"
    elif current == "reducing" and facts.qty == 0:
        target_state, reason = "exited", "the position is sold out"
    if target_state is None or current == target_state or not check_move(current, target_state, facts).legal:
        return None
    return target_state, reason


def parse_action(text: str) -> Action:
    """An action from its name, with a clear error."""
    for action in ACTIONS:
        if text == action:
            return action
    raise user_error(InvalidInput, "not_an_action", text=text, choices=", ".join(ACTIONS))


def _held_problems(action: Action, facts: PositionFacts) -> list[Problem]:
    if action in HOLDER_ACTIONS and facts.qty == 0:
        return [problem("action_needs_position", action=action, action_zh=value_word("action", action, "zh"))]
    if action in FLAT_ACTIONS and facts.qty > 0:
        other = FLAT_ACTIONS[action]
        other_zh = "或".join(value_word("action", a, "zh") for a in other.split(" or "))
        words = {"action_zh": value_word("action", action, "zh"), "other_zh": other_zh}
        return [problem("action_needs_no_position", qty=facts.qty, action=action, other=other, **words)]
    return []


def action_problems(action: Action, current: PositionState, facts: PositionFacts) -> list[Problem]:
    """Why `action` cannot be taken now from `current` (empty when it can): the position it needs, and a legal
    move to one of its states."""
    problems = _held_problems(action, facts)
    if problems:
        return problems
    moves = [check_move(current, state, facts) for state in ACTION_STATES[action]]
    if any(move.legal for move in moves):
        return []
    found = [p for move in moves for p in move.problems]
    chinese = [said(p, "zh") for p in found]
    why, why_zh = "; ".join(p.message for p in found), "；".join(m for m, _ in chinese)
    fixes = "; ".join(dict.fromkeys(p.fix for p in found if p.fix)) or NO_FIX.en
    fixes_zh = "；".join(dict.fromkeys(f for _, f in chinese if f)) or NO_FIX.zh
    return [
        problem(
            "action_move_illegal",
            action=action,
            why=why,
            fixes=fixes,
            action_zh=value_word("action", action, "zh"),
            why_zh=why_zh,
            fixes_zh=fixes_zh,
            **_said(current=[current], targets=ACTION_STATES[action]),
        )
    ]


def legal_actions(current: PositionState, facts: PositionFacts) -> dict[Action, tuple[PositionState, ...]]:
    """Every action that may be taken now (in ACTIONS order), with the position states it may go with."""
    return {
        action: tuple(s for s in ACTION_STATES[action] if check_move(current, s, facts).legal)
        for action in ACTIONS
        if not action_problems(action, current, facts)
    }
