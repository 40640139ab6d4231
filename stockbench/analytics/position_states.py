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

from dataclasses import dataclass
from typing import Literal, get_args

from stockbench.analytics.zones import ZonePosition
from stockbench.errors import InvalidInput, Problem

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
    raise InvalidInput(f"'{text}' is not a position state", "one of: " + ", ".join(STATES))


def _ledger_problems(target: PositionState, facts: PositionFacts) -> list[Problem]:
    held = f"the ledger holds {facts.qty} shares"
    if target in ("watching", "no_position") and facts.qty > 0:
        return [Problem("still_holding", f"{held}: the state cannot be {target}", "use holding or reducing")]
    if target == "exited" and facts.qty > 0:
        return [Problem("not_sold_out", f"{held}: exited needs the position sold", "record the sell fills first")]
    if target in ("holding", "reducing") and facts.qty == 0:
        return [Problem("no_shares", f"the ledger holds no shares: the state cannot be {target}",
                        "record the buy fills first, or use building")]  # fmt: skip
    if target == "reducing" and facts.sellable == 0:
        return [Problem("nothing_sellable", f"none of the {facts.qty} shares is sellable today (T+1)",
                        "reduce from the next session")]  # fmt: skip
    return []


def _zone_problems(target: PositionState, facts: PositionFacts) -> list[Problem]:
    zone = facts.zone
    if target in ("building", "watching") and zone is None:
        return [Problem("no_zones", f"{target} needs buy and sell zones", "compute them: stockbench zones SYMBOL")]
    if target == "building" and zone in ("in_sell", "above_sell"):
        return [Problem("buying_into_sell_zone", f"the price is {zone.replace('_', ' ')} zone: building there "
                        "contradicts the plan", "wait for the buy zone, or recompute the zones")]  # fmt: skip
    if target == "building" and zone == "stop_hit":
        return [Problem("stop_hit", "the price is at or under the stop: no building", "wait for new zones")]
    return []


def check_move(current: PositionState, target: PositionState, facts: PositionFacts) -> Transition:
    """Whether moving from `current` to `target` is legal now, with every reason it is not."""
    if current == target:
        return Transition(current, target)
    problems = []
    if target not in MOVES[current]:
        allowed = ", ".join(sorted(MOVES[current]))
        problems.append(Problem("illegal_move", f"{current} cannot move to {target}", f"from {current}: {allowed}"))
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
    raise InvalidInput(f"'{text}' is not an action", "one of: " + ", ".join(ACTIONS))


def _held_problems(action: Action, facts: PositionFacts) -> list[Problem]:
    if action in HOLDER_ACTIONS and facts.qty == 0:
        return [Problem("action_needs_position", f"the ledger holds no shares: the action cannot be {action}",
                        "nothing held and nothing to do is wait; to open a position, buy")]  # fmt: skip
    if action in FLAT_ACTIONS and facts.qty > 0:
        return [Problem("action_needs_no_position", f"the ledger holds {facts.qty} shares: the action cannot be "
                        f"{action}", f"a holder's action is {FLAT_ACTIONS[action]}")]  # fmt: skip
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
    why = "; ".join(p.message for move in moves for p in move.problems)
    fixes = "; ".join(dict.fromkeys(p.fix for move in moves for p in move.problems if p.fix))
    targets = " or ".join(ACTION_STATES[action])
    return [Problem("action_move_illegal", f"{action} needs the move {current} -> {targets}, which is not legal "
                    f"now: {why}", fixes or "choose an action the position allows")]  # fmt: skip


def legal_actions(current: PositionState, facts: PositionFacts) -> dict[Action, tuple[PositionState, ...]]:
    """Every action that may be taken now (in ACTIONS order), with the position states it may go with."""
    return {
        action: tuple(s for s in ACTION_STATES[action] if check_move(current, s, facts).legal)
        for action in ACTIONS
        if not action_problems(action, current, facts)
    }


def check_action(action: Action, state: PositionState, current: PositionState, facts: PositionFacts) -> list[Problem]:
    """Whether `action` with the position state `state` is legal now, with every reason it is not."""
    problems = action_problems(action, current, facts)
    if problems:
        return problems
    allowed = [s for s in ACTION_STATES[action] if check_move(current, s, facts).legal]
    if state in allowed:
        return []
    return [Problem("action_state_mismatch", f"{action} goes with the position state {' or '.join(allowed)}, not "
                    f"{state}", f"submit position_state {allowed[0]} with {action}")]  # fmt: skip
