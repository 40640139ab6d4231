"""The golden cases of the eval harness, read from the TOML files in resources/evals/ (one file per category).

A case is a setup (a demo-market symbol, an optional account with a position and open orders, an optional
question, an optional earlier report, an optional fault), one research run, and named checks with their
parameters (see `checks.py`). The files are data, so a case is added without touching the runner.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal, get_args

from stockbench.config import resources_dir
from stockbench.errors import InternalError, InvalidInput
from stockbench.messages import user_error

Category = Literal[
    "tool_routing", "citation_validity", "number_groundedness", "failure_recovery", "usefulness", "cheating_model"
]
CATEGORIES: tuple[Category, ...] = get_args(Category)
FaultKind = Literal["drop_data", "network", "invalid_submission", "cheat"]
FAULT_KINDS: tuple[FaultKind, ...] = get_args(FaultKind)
Side = Literal["buy", "sell"]
CASES_FOLDER = "evals"


@dataclass(frozen=True)
class OrderSetup:
    """An open order placed on the last session at `offset` times the last close (rounded to the tick)."""

    side: Side
    offset: Decimal
    lots: int = 1


@dataclass(frozen=True)
class AccountSetup:
    """An account with cash, optionally holding `lots` board lots bought `held_sessions` sessions ago."""

    name: str = "main"
    cash: Decimal = Decimal(2_000_000)
    lots: int = 0
    held_sessions: int = 5
    orders: tuple[OrderSetup, ...] = ()


@dataclass(frozen=True)
class Fault:
    """What goes wrong: data removed before the run, or a model answer in `stage` failed, spoiled or made to cheat
    (`cheat` names how, see evals/cheats.py) `times` times."""

    kind: FaultKind
    stage: str = ""
    data: str = ""
    times: int = 1
    cheat: str = ""


@dataclass(frozen=True)
class CheckSpec:
    name: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Case:
    id: str
    category: Category
    title: str
    symbol: str
    checks: tuple[CheckSpec, ...]
    question: str | None = None
    account: AccountSetup | None = None
    previous: bool = False  # publish an earlier (offline) report on the symbol first, so continuity applies
    resume: bool = False  # resume the run once if it paused (a network fault)
    fault: Fault | None = None


def _order(raw: Mapping[str, Any]) -> OrderSetup:
    return OrderSetup(raw["side"], Decimal(str(raw["offset"])), int(raw.get("lots", 1)))


def _account(raw: Mapping[str, Any] | None) -> AccountSetup | None:
    if raw is None:
        return None
    return AccountSetup(
        str(raw.get("name", "main")),
        Decimal(str(raw.get("cash", "2000000"))),
        int(raw.get("lots", 0)),
        int(raw.get("held_sessions", 5)),
        tuple(_order(o) for o in raw.get("orders", [])),
    )


def _fault(raw: Mapping[str, Any] | None, where: str) -> Fault | None:
    if raw is None:
        return None
    if raw.get("kind") not in FAULT_KINDS:
        raise InternalError(f"{where}: fault kind {raw.get('kind')!r} is not one of {', '.join(FAULT_KINDS)}")
    cheat = str(raw.get("cheat", ""))
    if raw["kind"] == "cheat":
        from stockbench.evals.cheats import CHEATS

        if cheat not in CHEATS:
            raise InternalError(f"{where}: cheat {cheat!r} is not one of {', '.join(CHEATS)}")
    return Fault(raw["kind"], str(raw.get("stage", "")), str(raw.get("data", "")), int(raw.get("times", 1)), cheat)


def _check(raw: Mapping[str, Any]) -> CheckSpec:
    params = {k: v for k, v in raw.items() if k != "check"}
    return CheckSpec(str(raw["check"]), params)


def parse_cases(text: str, source: str) -> list[Case]:
    """The cases of one TOML file (its `category` applies to every `[[cases]]` entry)."""
    data = tomllib.loads(text)
    category = data.get("category")
    if category not in CATEGORIES:
        raise InternalError(f"{source}: category {category!r} is not one of {', '.join(CATEGORIES)}")
    found = []
    for raw in data.get("cases", []):
        where = f"{source}: case {raw.get('id', '?')}"
        found.append(
            Case(
                id=str(raw["id"]),
                category=category,
                title=str(raw["title"]),
                symbol=str(raw["symbol"]),
                checks=tuple(_check(c) for c in raw["checks"]),
                question=raw.get("question"),
                account=_account(raw.get("account")),
                previous=bool(raw.get("previous", False)),
                resume=bool(raw.get("resume", False)),
                fault=_fault(raw.get("fault"), where),
            )
        )
    return found


def load_cases(folder: Path | None = None) -> list[Case]:
    """Every golden case (of `folder`, default resources/evals/), in category order then file order."""
    found: list[Case] = []
    for path in sorted((folder or resources_dir() / CASES_FOLDER).glob("*.toml")):
        found += parse_cases(path.read_text(encoding="utf-8"), path.name)
    ids = [c.id for c in found]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise InternalError(f"eval case ids are not unique: {', '.join(duplicates)}")
    return sorted(found, key=lambda c: CATEGORIES.index(c.category))


def select(cases: list[Case], wanted: tuple[str, ...]) -> list[Case]:
    """The cases named in `wanted` by id or by category (all cases when `wanted` is empty)."""
    if not wanted:
        return cases
    chosen = [c for c in cases if c.id in wanted or c.category in wanted]
    known = {c.id for c in cases} | set(CATEGORIES)
    unknown = [w for w in wanted if w not in known]
    if unknown:
        raise user_error(InvalidInput, "eval_unknown_case", names=", ".join(unknown), categories=", ".join(CATEGORIES),
                         command="stockbench eval --list")  # fmt: skip
    return chosen
