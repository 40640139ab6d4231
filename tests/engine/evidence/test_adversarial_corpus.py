"""The adversarial corpus: every case must be blocked, with the problem code it names.

`corpus/world.json` holds one run's evidence (and another run's), the gate context and a draft that passes
every gate; each line of `corpus/cases.jsonl` changes that draft in one way a model could get wrong.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from stockbench.evidence.frozen import draft_from_json
from stockbench.evidence.gates import blocking, run_gates
from stockbench.evidence.numbers import ground_numbers
from stockbench.evidence.store import EvidenceStore
from tests.engine.evidence.conftest import CORPUS, World, apply_case, load_world, new_db, resolve
from tests.engine.evidence.corpus.build_corpus import render

CASES: list[dict[str, Any]] = [
    json.loads(line) for line in (CORPUS / "cases.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()
]


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    db = new_db()
    yield load_world(EvidenceStore(db))
    db.close()


def codes(world: World, case: dict[str, Any]) -> list[str]:
    change = resolve(case, world.ids)
    draft = draft_from_json(apply_case(world.draft, change))
    ctx = replace(world.ctx, **change["context"]) if "context" in change else world.ctx
    return [p.code for p in blocking(run_gates(draft, ctx))]


def test_the_corpus_is_large_and_current() -> None:
    assert len(CASES) >= 200
    assert len({c["id"] for c in CASES}) == len(CASES)
    world_text, cases_text = render()
    assert (CORPUS / "world.json").read_text(encoding="utf-8") == world_text, "run corpus/build_corpus.py"
    assert (CORPUS / "cases.jsonl").read_text(encoding="utf-8") == cases_text, "run corpus/build_corpus.py"


def test_every_family_the_issue_names_is_covered() -> None:
    families = Counter(c["family"] for c in CASES)
    named = ["invented_number", "wan_yi_slip", "rounding_beyond_display", "pct_vs_pp", "other_run_number",
             "evidence_other_run", "quote_changed_char", "quote_search_snippet", "evidence_missing", "evidence_unknown",
             "zone_unanchored", "probabilities_sum", "probability_off_table", "order_off_tick", "order_lot",
             "order_above_sellable", "order_beyond_cash", "order_with_gaps"]  # fmt: skip
    assert all(families[f] >= 2 for f in named), {f: families[f] for f in named}


def test_the_world_draft_passes_every_gate(world: World) -> None:
    results = run_gates(draft_from_json(world.draft), world.ctx)
    assert blocking(results) == []
    assert set(results) == {"structure", "evidence", "numbers", "quotes", "risk_evidence", "method_coverage",
                            "zone_anchors", "probability", "actions", "orders", "citations", "levels"}  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_the_case_is_blocked_with_its_code(world: World, case: dict[str, Any]) -> None:
    found = codes(world, case)
    assert case["expect"] in found, found
    if case["only"]:
        assert set(found) == {case["expect"]}, found


@pytest.mark.parametrize("case", [c for c in CASES if "correct" in c], ids=lambda c: c["id"])
def test_the_correct_form_of_each_slip_passes(world: World, case: dict[str, Any]) -> None:
    assert ground_numbers(case["correct"], world.ctx.numbers, "t") == []


def test_number_problems_name_the_number_and_where_it_is(world: World) -> None:
    change = {"text": "成交额42.12万元。"}
    draft = draft_from_json(apply_case(world.draft, change))
    (problem,) = blocking(run_gates(draft, world.ctx))
    assert problem.location == "section:analysis[3:10]"
    assert "'42.12万元'" in problem.message and "4212345678" in problem.fix


def test_quote_problems_carry_the_source_passage(world: World) -> None:
    change = {
        "quotes": [{"text": "敬请广大投资者注意投资机会", "evidence_id": world.ids["notice"], "location": "risks"}]
    }
    (problem,) = blocking(run_gates(draft_from_json(apply_case(world.draft, change)), world.ctx))
    assert problem.code == "quote_mismatch" and "敬请广大投资者注意投资风险" in problem.fix
