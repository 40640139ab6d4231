"""Search through a SearXNG-like JSON server on loopback: results come back as candidates stored as
`search_result` evidence, a quote citing a search result is rejected (snippets are not full texts) and the next
submission is accepted; without a configured provider the plan says search is unavailable and so does the tool."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from stockbench.evidence.store import canonical_json, evidence_id_for
from tests.engine.research.conftest import DEMO_SYMBOL, Lab
from tests.engine.research.scripted import calls, with_arguments
from tests.llm_server.server import ToolCallSpec
from tests.search_server import SearchServer

TERMS = ["白酒 消费税 政策", "酱香 行业 库存"]
RESULTS = [
    {
        "title": "示例：白酒消费税调整的传闻",
        "url": "https://news.example.cn/a/1",
        "content": "业内人士称消费税改革仍在研究阶段。",
    },
    {"title": "示例：酱香酒渠道库存", "url": "https://news.example.cn/a/2", "content": "渠道库存较上季度有所下降。"},
]


@pytest.fixture
def searxng() -> Iterator[SearchServer]:
    server = SearchServer(RESULTS).start()
    yield server
    server.stop()


def search_call() -> ToolCallSpec:
    return ToolCallSpec("search", {"terms": TERMS}, id="call_search")


def test_search_results_are_candidates_and_a_quote_from_one_is_refused(lab: Lab, searxng: SearchServer) -> None:
    lab.bench.workspace.settings.set("search.url", searxng.url)
    lab.add_model()
    found: dict[str, Any] = {}

    def quote_the_snippet(args: dict[str, Any]) -> dict[str, Any]:
        return {**args, "quotes": [{"text": RESULTS[0]["content"], "evidence_id": found["evidence_id"]}]}

    def remember(seen: Any, reply: Any) -> Any:
        """Quote a snippet, citing the search result's evidence (its id follows from its content)."""
        result = json.loads([m for m in seen.messages if m["role"] == "tool"][-1]["content"])
        found["evidence_id"] = evidence_id_for(canonical_json({"query": result["query"], "results": result["results"]}))
        return with_arguments(quote_the_snippet)(seen, reply)

    lab.model.on("analyze", calls(search_call()), remember)
    outcome = lab.research().analyze(DEMO_SYMBOL, model="scripted")
    assert outcome.status == "published", outcome
    run = lab.bench.research.record(outcome.run_id)
    assert run.plan.search and "search" in run.plan.tools

    [query] = searxng.queries
    assert query == {"q": [" ".join(TERMS)], "format": ["json"]}
    (_, request, result), (_, _, refused), (_, _, accepted) = lab.tool_results(outcome.run_id, "analyze/main/tool/")
    assert request["name"] == "search" and result["accepted"] is True
    assert [(r["title"], r["url"], r["snippet"]) for r in result["results"]] == [
        (r["title"], r["url"], r["content"]) for r in RESULTS]  # fmt: skip
    stored = {e.evidence_id: e for e in lab.bench.research.store.for_run(outcome.run_id)}
    [search_evidence] = [e for e in stored.values() if e.kind == "search_result"]
    assert search_evidence.evidence_id == found["evidence_id"] and search_evidence.source == searxng.url
    assert json.loads(search_evidence.body)["query"] == " ".join(TERMS)

    assert refused["accepted"] is False
    [problem] = refused["problems"]
    assert problem["code"] == "quote_not_full_text" and "search_result" in problem["message"]
    assert accepted["accepted"] is True and accepted["judgment"] == "diagnosis"
    report = lab.bench.research.report(outcome.report_id or "")
    assert RESULTS[0]["content"] not in json.dumps(report.draft, ensure_ascii=False)


def test_without_a_provider_search_is_unavailable_and_disclosed(lab: Lab) -> None:
    lab.add_model()
    lab.model.on("analyze", calls(search_call()))
    outcome = lab.research().analyze(DEMO_SYMBOL, model="scripted")
    assert outcome.status == "published", outcome
    plan = lab.bench.research.record(outcome.run_id).plan
    assert not plan.search and "search" not in plan.tools
    assert any("search is unavailable" in note for note in plan.notes)
    [(_, request, result), *_] = lab.tool_results(outcome.run_id, "analyze/main/tool/")
    assert request["name"] == "search" and result["accepted"] is False
    assert [p["code"] for p in result["problems"]] in (["search_unavailable"], ["tool_not_in_plan"])
    kinds = {e.kind for e in lab.bench.research.store.for_run(outcome.run_id)}
    assert "search_result" not in kinds
    markdown = lab.bench.research.report(outcome.report_id or "").markdown
    assert "搜索" in markdown and "未配置" in markdown  # the report discloses that no search was run


BRAVE_KEY = "BSAresearchKey0123456789"


def test_research_searches_through_brave_with_the_stored_key(lab: Lab) -> None:
    from tests.brave_server import BraveServer

    brave = BraveServer(BRAVE_KEY, [{"title": r["title"], "url": r["url"], "description": r["content"]}
                                    for r in RESULTS]).start()  # fmt: skip
    try:
        lab.bench.search.set_brave(BRAVE_KEY, brave.url)
        lab.add_model()
        lab.model.on("analyze", calls(search_call()))
        outcome = lab.research().analyze(DEMO_SYMBOL, model="scripted")
    finally:
        brave.stop()
    assert outcome.status == "published", outcome
    assert lab.bench.research.record(outcome.run_id).plan.search
    [query] = brave.queries
    assert query["q"] == [" ".join(TERMS)] and brave.headers[0]["x-subscription-token"] == BRAVE_KEY
    [(_, request, result), *_] = lab.tool_results(outcome.run_id, "analyze/main/tool/")
    assert request["name"] == "search" and result["accepted"] is True
    assert [(r["title"], r["url"], r["snippet"]) for r in result["results"]] == [
        (r["title"], r["url"], r["content"]) for r in RESULTS]  # fmt: skip
    [found] = [e for e in lab.bench.research.store.for_run(outcome.run_id) if e.kind == "search_result"]
    assert found.source == brave.url and BRAVE_KEY not in found.body
    journal = lab.db.fetchall("SELECT * FROM run_events")
    assert journal and BRAVE_KEY not in json.dumps([list(map(str, row)) for row in journal])
