"""Sub-study invalidation through a real run on the loopback LLM server: when the quote a sub-study cited comes back
in a new version (the same source, a different body, so a different evidence id) at the refresh after the main
draft, that sub-study alone is redone from the fact baseline plus the refreshed quote, and the decision sees the
redone arguments; new text from another source, or a new version with the identical body, invalidates nothing;
a run paused around the redo never redoes anything twice when it is continued."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from datetime import timedelta
from decimal import Decimal
from typing import Any

from stockbench.data.records import Announcement, Bar
from stockbench.evidence.store import evidence_id_for
from stockbench.research.conversation import read_facts
from tests.engine.research.conftest import DEMO_SYMBOL, LAST_SESSION, Lab
from tests.engine.research.scripted import Change, calls, fault, stage_of, with_arguments
from tests.llm_server.server import Reply, SeenRequest, ToolCallSpec

CORRECTED_CLOSE = Decimal("355.00")  # inside the day's range, unlike the demo's 358.53
FIRST, REDONE, BEAR = "（多方初稿）", "（多方重做）", "（空方论据）"
NEW_ID = "DEMO-605903-MIDRUN"
NEW_TEXT = "示例酱香酒业股份有限公司关于召开投资者说明会的公告。\n本公司将于近期召开业绩说明会。\n（虚构示例。）"


# ---- the data, changed mid-run through the data service ------------------------------------------------------
def last_bar(lab: Lab) -> Bar:
    """The demo's bar of the last session, read through the data service."""
    row = lab.bench.data.bars(DEMO_SYMBOL, LAST_SESSION, LAST_SESSION).row(0, named=True)
    return Bar(DEMO_SYMBOL, row["day"], row["open"], row["high"], row["low"], row["close"], row["prev_close"],
               row["volume"], row["amount"], row["source"], row["turnover_pct"])  # fmt: skip


def restore_bar(lab: Lab, bar: Bar) -> None:
    """Store `bar` again as a new version from its own source, fetched at the clock's instant."""
    assert lab.bench.data.cache.store_bars([bar], fetched_at=lab.bench.clock.now()) == 1


def bar_fetched_at(lab: Lab) -> Any:
    return lab.db.scalar("SELECT fetched_at FROM bars WHERE symbol = ? AND day = ?", [DEMO_SYMBOL, LAST_SESSION])


def while_drafting(action: Any) -> Change:
    """Run `action` when the main draft's first request arrives (after both sub-studies), answer unchanged."""

    def change(seen: SeenRequest, reply: Reply) -> Reply:
        action()
        return reply

    return change


# ---- what the sub-studies argue ---------------------------------------------------------------------------------
def quote_id(seen: SeenRequest, block: str) -> str:
    """The quote's evidence id in the request's FACTS block `block` (prepare, or the refresh)."""
    found: str = read_facts(seen.messages)[block]["quote"]["evidence_id"]
    return found


def argue(mark: str, cite_quote_of: str | None = None) -> Change:
    """Mark every argument; with `cite_quote_of`, the first argument also cites that block's quote evidence."""

    def change(seen: SeenRequest, reply: Reply) -> Reply:
        def edit(args: dict[str, Any]) -> dict[str, Any]:
            arguments = [{**a, "text": a["text"] + mark} for a in args["arguments"]]
            if cite_quote_of is not None:
                first = arguments[0]
                arguments[0] = {**first, "evidence": [*first["evidence"], quote_id(seen, cite_quote_of)]}
            return {**args, "arguments": arguments}

        return with_arguments(edit)(seen, reply)

    return change


def requests(lab: Lab, stage: str) -> list[SeenRequest]:
    return [seen for seen in lab.server.chats if stage_of(seen.messages) == stage]


def accepted_arguments(lab: Lab, run_id: str, prefix: str) -> list[dict[str, Any]]:
    """The accepted argument submissions recorded under `prefix` (e.g. analyze/bull/tool/)."""
    found = [json.loads(p) for k, p in lab.results(run_id, "tool_call") if k.startswith(prefix)]
    return [r["value"] for r in found if r.get("accepted")]


def stored_quote(lab: Lab, run_id: str, key: str) -> dict[str, Any]:
    payload = lab.bench.research.journal.stored(run_id, key, "result")
    assert payload is not None, f"{key} has no result"
    facts: dict[str, Any] = json.loads(payload)
    quote: dict[str, Any] = facts.get("quote", facts)  # a field of prepare/facts; analyze/refresh is the quote itself
    return quote


def keys(lab: Lab, run_id: str) -> list[str]:
    return [k for k, _ in lab.results(run_id)]


# ---- a changed quote: BULL cited it and is redone, BEAR did not and is kept --------------------------------------
def test_a_changed_quote_redoes_the_sub_study_that_cited_it_and_only_that_one(lab: Lab) -> None:
    lab.add_model()
    original = last_bar(lab)
    lab.model.on("bull", argue(FIRST, cite_quote_of="prepare"), argue(REDONE, cite_quote_of="refresh"))
    lab.model.on("bear", argue(BEAR))
    lab.model.on("analyze", while_drafting(lambda: restore_bar(lab, replace(original, close=CORRECTED_CLOSE))))
    outcome = lab.research().analyze(DEMO_SYMBOL, model="scripted")
    assert outcome.status == "published", outcome
    run_id = outcome.run_id

    old, new = stored_quote(lab, run_id, "prepare/facts"), stored_quote(lab, run_id, "analyze/refresh")
    assert Decimal(old["price"]) == original.close and Decimal(new["price"]) == CORRECTED_CLOSE
    assert old["source"] == new["source"] == original.source  # a new version of the same source
    assert old["evidence_id"] != new["evidence_id"]

    bull_requests, bear_requests = requests(lab, "bull"), requests(lab, "bear")
    assert len(bull_requests) == 2 and len(bear_requests) == 1  # BULL redone once, BEAR not at all
    assert any(k.startswith("analyze/bull/redo/") for k in keys(lab, run_id))
    assert not any(k.startswith("analyze/bear/redo/") for k in keys(lab, run_id))
    (first,) = accepted_arguments(lab, run_id, "analyze/bull/tool/")
    (redone,) = accepted_arguments(lab, run_id, "analyze/bull/redo/tool/")
    (bear,) = accepted_arguments(lab, run_id, "analyze/bear/tool/")
    assert old["evidence_id"] in first["arguments"][0]["evidence"]
    assert new["evidence_id"] in redone["arguments"][0]["evidence"]
    assert all(old["evidence_id"] not in a["evidence"] for a in bear["arguments"])

    redo = read_facts(bull_requests[1].messages)  # the redo starts from the baseline plus the refreshed quote
    assert redo["refresh"]["quote"] == new and redo["prepare"]["quote"] == old
    assert FIRST not in json.dumps(bull_requests[1].json, ensure_ascii=False)  # not from the stale draft
    assert "refresh" not in read_facts(bear_requests[0].messages)

    (decide, *_) = requests(lab, "decide")
    debate = read_facts(decide.messages)["debate"]
    assert debate["bull"] == redone and debate["bear"] == bear
    assert all(a["text"].endswith(REDONE) for a in debate["bull"]["arguments"])
    assert FIRST not in json.dumps(decide.json, ensure_ascii=False)  # the stale BULL never reaches the decision


# ---- new text alone, or an identical new version, invalidates nothing -------------------------------------------
def test_new_text_from_another_source_and_an_identical_quote_invalidate_nothing(lab: Lab) -> None:
    lab.add_model()
    original, before = last_bar(lab), bar_fetched_at(lab)
    now = lab.bench.clock.now()
    notice = Announcement(DEMO_SYMBOL, NEW_ID, now - timedelta(hours=1), "示例酱香酒业：关于召开投资者说明会的公告",
                          "other", "https://example.invalid/midrun", original.source, NEW_TEXT)  # fmt: skip

    def new_text_and_same_quote() -> None:
        assert lab.bench.data.cache.store_announcements([notice], fetched_at=now) == 1
        restore_bar(lab, original)  # a new version of the quote's source with the identical body

    lab.model.on("bull", argue(FIRST, cite_quote_of="prepare"))
    lab.model.on("bear", argue(BEAR))
    read_it = calls(ToolCallSpec("documents_read", {"announcement_id": NEW_ID}, id="call_new_text"))
    lab.model.on("analyze", lambda seen, reply: read_it(seen, while_drafting(new_text_and_same_quote)(seen, reply)))
    outcome = lab.research().analyze(DEMO_SYMBOL, model="scripted")
    assert outcome.status == "published", outcome
    run_id = outcome.run_id

    assert bar_fetched_at(lab) != before  # the quote's source really was stored again
    bodies = [e.body for e in lab.bench.research.store.for_run(run_id) if e.kind == "announcement_text"]
    assert NEW_TEXT in bodies  # the new text became evidence of the run before the refresh
    read = [json.loads(p) for k, p in lab.results(run_id, "tool_call") if k.endswith("/call_new_text")]
    assert read and read[0]["evidence_id"] == evidence_id_for(NEW_TEXT)
    old, new = stored_quote(lab, run_id, "prepare/facts"), stored_quote(lab, run_id, "analyze/refresh")
    assert old["evidence_id"] in accepted_arguments(lab, run_id, "analyze/bull/tool/")[0]["arguments"][0]["evidence"]
    assert new == old  # the same body, so the same evidence id: BULL's citation still holds
    assert (len(requests(lab, "bull")), len(requests(lab, "bear"))) == (1, 1)
    assert [k for k in keys(lab, run_id) if "/redo/" in k] == []
    debate = read_facts(requests(lab, "decide")[0].messages)["debate"]
    assert all(a["text"].endswith(FIRST) for a in debate["bull"]["arguments"])


# ---- continuing after pauses around the redo ----------------------------------------------------------------------
def test_continuing_after_pauses_around_the_redo_never_redoes_anything_twice(lab: Lab) -> None:
    lab.add_model()
    original = last_bar(lab)
    refused = fault(Reply.failing(401, "invalid api key", kind="authentication_error"))
    # BULL: the first draft cites the quote; the redo's first request is refused (a pause inside the redo); the
    # redo is sent again on Continue. The decision is refused once too (a pause after the redo completed).
    lab.model.on("bull", argue(FIRST, cite_quote_of="prepare"), refused, argue(REDONE, cite_quote_of="refresh"))
    lab.model.on("bear", argue(BEAR))
    lab.model.on("analyze", while_drafting(lambda: restore_bar(lab, replace(original, close=CORRECTED_CLOSE))))
    lab.model.on("decide", refused)
    research = lab.research()

    outcome = research.analyze(DEMO_SYMBOL, model="scripted")
    run_id = outcome.run_id
    assert (outcome.status, outcome.stage) == ("paused", "analyze"), outcome
    counts = Counter(lab.model.stages)
    assert (counts["bull"], counts["bear"]) == (2, 1)
    assert lab.bench.research.journal.stored(run_id, "analyze/refresh", "result") is not None

    assert research.resume(run_id).status == "paused"  # the redo completed, then the decision was refused
    after_redo = Counter(lab.model.stages)
    assert after_redo["bull"] == 3  # only the interrupted redo request was sent again ...
    interrupted, resent = requests(lab, "bull")[1:]
    assert interrupted.messages == resent.messages  # ... byte-identical, from the journaled refresh
    assert {s: after_redo[s] for s in ("scene", "bear", "analyze")} == {
        s: counts[s] for s in ("scene", "bear", "analyze")
    }

    assert research.resume(run_id).status == "published"
    final = Counter(lab.model.stages)
    assert {s: final[s] for s in ("scene", "bull", "bear", "analyze")} == {
        s: after_redo[s] for s in ("scene", "bull", "bear", "analyze")
    }
    repeated = lab.db.fetchall(
        "SELECT key FROM run_events WHERE run_id = ? AND phase = 'result' GROUP BY key HAVING count(*) > 1", [run_id]
    )
    assert repeated == []
    (redone,) = accepted_arguments(lab, run_id, "analyze/bull/redo/tool/")
    debate = read_facts(requests(lab, "decide")[-1].messages)["debate"]
    assert debate["bull"] == redone and all(a["text"].endswith(REDONE) for a in redone["arguments"])
