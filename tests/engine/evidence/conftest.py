"""Fixtures for the evidence tests: a migrated in-memory store, gate contexts, and an order check over a ledger
snapshot built from the real market rules (stockbench.market.order_rules.check_order)."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from stockbench.errors import Problem
from stockbench.evidence.documents import GateContext, OrderChecker, OrderPlan
from stockbench.evidence.store import Evidence, EvidenceStore
from stockbench.market.instruments import parse_symbol
from stockbench.market.order_rules import check_order
from stockbench.store.database import Database
from stockbench.store.migrations import migrate

AT = datetime(2024, 6, 28, 7, 30, tzinfo=UTC)


def new_db() -> Database:
    db = Database(":memory:")
    migrate(db)
    return db


@pytest.fixture
def db() -> Iterator[Database]:
    database = new_db()
    yield database
    database.close()


@pytest.fixture
def store(db: Database) -> EvidenceStore:
    return EvidenceStore(db)


@dataclass(frozen=True)
class LedgerSnapshot:
    """What the order gate needs from the ledger at publication: cash and sellable quantities per account."""

    cash: Mapping[str, Decimal]
    sellable: Mapping[tuple[str, str], int] = field(default_factory=dict)  # (account, symbol) -> shares


def ledger_checker(snapshot: LedgerSnapshot, day: date, refs: Mapping[str, Decimal] | None = None) -> OrderChecker:
    """An order check: the market's lot, tick and limit rules, then the account's cash and sellable shares."""

    def check(order: OrderPlan) -> list[Problem]:
        if order.account not in snapshot.cash:
            return [Problem("account_unknown", f"there is no account '{order.account}'", "use an existing account")]
        side = "sell" if order.side == "sell" else "buy"
        sellable = snapshot.sellable.get((order.account, order.symbol), 0)
        ref = (refs or {}).get(order.symbol)
        verdict = check_order(
            parse_symbol(order.symbol), side, order.qty, order.price, day, holding=sellable if side == "sell" else None,
            ref=ref,
        )  # fmt: skip
        problems = list(verdict.problems)
        cost = order.price * order.qty
        if side == "buy" and cost > snapshot.cash[order.account]:
            problems.append(
                Problem("exceeds_cash", f"buying costs {cost}, more than the cash of {snapshot.cash[order.account]}",
                        "buy less", f"orders.{order.symbol}")
            )  # fmt: skip
        return problems

    return check


def context(
    run_id: str,
    evidence: list[Evidence],
    *,
    sections: tuple[str, ...] = (),
    judgments: tuple[str, ...] = (),
    steps: tuple[str, ...] = (),
    anchors: Mapping[str, Decimal] | None = None,
    calibrated: Mapping[str, Decimal] | None = None,
    check: OrderChecker | None = None,
    **extra: Any,
) -> GateContext:
    """A gate context over `evidence` (this run's), with the program's anchors and calibrated table."""
    return GateContext(
        run_id, {e.evidence_id: e for e in evidence}, sections, judgments, steps, dict(anchors or {}),
        dict(calibrated or {}), check_order=check, **extra,
    )  # fmt: skip


# ---- the corpus world: one run's evidence, its gate context and a valid draft (corpus/world.json) ----------
CORPUS = Path(__file__).parent / "corpus"


def resolve(data: Any, ids: Mapping[str, str]) -> Any:
    """`data` with every "@alias" string replaced by the evidence id stored under that alias."""
    if isinstance(data, str):
        return ids.get(data[1:], data) if data.startswith("@") else data
    if isinstance(data, list):
        return [resolve(v, ids) for v in data]
    if isinstance(data, dict):
        return {k: resolve(v, ids) for k, v in data.items()}
    return data


@dataclass
class World:
    """The corpus world stored in a workspace: evidence ids by alias, the valid draft and its gate context."""

    store: EvidenceStore = field(repr=False)
    ids: dict[str, str] = field(repr=False)
    draft: dict[str, Any] = field(repr=False)
    ctx: GateContext = field(repr=False)


def load_world(store: EvidenceStore) -> World:
    raw = json.loads((CORPUS / "world.json").read_text(encoding="utf-8"))
    ids = {}
    for item in raw["evidence"]:
        ev = store.put(item["run"], item["kind"], item["source"], item["body"], fetched_at=AT, label=item["alias"])
        ids[item["alias"]] = ev.evidence_id
    spec = raw["context"]
    ledger = LedgerSnapshot(
        {k: Decimal(v) for k, v in spec["ledger"]["cash"].items()},
        {(a, s): n for a, s, n in spec["ledger"]["sellable"]},
    )
    refs = {k: Decimal(v) for k, v in spec["refs"].items()}
    ctx = context(
        raw["run_id"], store.for_run(raw["run_id"]), sections=tuple(spec["required_sections"]),
        judgments=tuple(spec["required_judgments"]), steps=tuple(spec["required_steps"]),
        anchors={k: Decimal(v) for k, v in spec["anchors"].items()},
        calibrated={k: Decimal(v) for k, v in spec["calibrated"].items()},
        check=ledger_checker(ledger, date.fromisoformat(spec["day"]), refs),
        probability_tolerance=Decimal(spec["probability_tolerance"]),
    )  # fmt: skip
    return World(store, ids, resolve(raw["draft"], ids), ctx)


def apply_case(draft: dict[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
    """The world's draft with one corpus case's change applied (see corpus/build_corpus.py for the keys)."""
    out = copy.deepcopy(draft)
    sections = {s["key"]: s for s in out["sections"]}
    if "text" in change:
        sections["analysis"]["text"] = change["text"]
    if "section_title" in change:
        sections[change["section_title"]["key"]]["title"] = change["section_title"]["title"]
    if "drop_section" in change:
        out["sections"] = [s for s in out["sections"] if s["key"] != change["drop_section"]]
    if "blank_section" in change:
        sections[change["blank_section"]]["text"] = "  "
    out.update(change.get("draft", {}))
    out["quotes"] = change.get("quotes", out["quotes"])
    out["claims"] += change.get("add_claims", [])
    out["risks"] += change.get("add_risks", [])
    if "drop_judgment" in change:
        del out["judgments"][change["drop_judgment"]]
    if "blank_judgment" in change:
        out["judgments"][change["blank_judgment"]] = " "
    out["judgments"].update(change.get("judgment", {}))
    if "drop_step" in change:
        out["method"] = [m for m in out["method"] if m["step"] != change["drop_step"]]
    if "method_step" in change:
        step = change["method_step"]
        out["method"] = [step if m["step"] == step["step"] else m for m in out["method"]]
    return out
