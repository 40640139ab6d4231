"""No stored report can be edited unseen: every edit of a published report's stored fields, its run's evidence, or
the order of reports fails `reports verify` (exit 1) naming the report and the field; `reports show` warns, and the
plan check and the next run refuse the report. Also: the exit codes of verify and of paused runs, and the rounds in
which the model may fix what the publication gates found."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from stockbench.cli.main import run
from stockbench.evidence.store import canonical_json, digest, evidence_id_for
from stockbench.research import compose
from stockbench.research.archive import SEAL_LOG
from stockbench.research.summary import ReportSummary
from stockbench.store.database import Database
from stockbench.store.migrations import migrate
from stockbench.store.seals import SEALED_FIELDS, field_hashes, report_row, run_evidence, seal_of
from stockbench.workbench import Workbench
from tests.engine.research.conftest import DEMO_SYMBOL, LAST_SESSION, SELL_SYMBOL, at, holding_account

Edit = Callable[[Database, dict[str, str]], None]


@pytest.fixture(scope="module")
def sealed_template(tmp_path_factory: pytest.TempPathFactory, demo_template: Path) -> Path:
    """The demo market with three published reports: 605903.SH, 003903.SZ (held by an account: a reduce, with a
    sized order), then 605903.SH again (which takes the first as its previous report)."""
    home = tmp_path_factory.mktemp("sealed") / "market"
    shutil.copytree(demo_template, home)
    with Workbench.open(home) as bench:
        holding_account(bench, SELL_SYMBOL, qty=10000)
        for symbol, account in ((DEMO_SYMBOL, None), (SELL_SYMBOL, "main"), (DEMO_SYMBOL, None)):
            assert bench.research.analyze(symbol, account=account).status == "published"
    return home


@pytest.fixture
def home(tmp_path: Path, sealed_template: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    copy = tmp_path / "market"
    shutil.copytree(sealed_template, copy)
    monkeypatch.setenv("STOCKBENCH_HOME", str(copy))
    return copy


def reports(home: Path) -> dict[str, str]:
    """first, orders (the one with sized orders), last: report ids in publication order."""
    with Workbench.open(home) as bench:
        rows = bench.workspace.db.fetchall("SELECT report_id FROM reports ORDER BY seq")
    first, orders, last = (str(r[0]) for r in rows)
    return {"first": first, "orders": orders, "last": last}


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    code = run(["--json", *argv])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if captured.out.strip() else None, captured.err


def tamper(home: Path, change: Edit) -> dict[str, str]:
    ids = reports(home)
    with Workbench.open(home) as bench:
        change(bench.workspace.db, ids)
    return ids


def set_json(db: Database, report_id: str, column: str, edit: Callable[[dict[str, Any]], None]) -> None:
    value = json.loads(db.scalar(f"SELECT {column} FROM reports WHERE report_id = ?", [report_id]))
    edit(value)
    db.execute(f"UPDATE reports SET {column} = ? WHERE report_id = ?", [json.dumps(value, ensure_ascii=False),
                                                                         report_id])  # fmt: skip


def _first_section_text(draft: dict[str, Any]) -> None:
    draft["sections"][0]["text"] = "强烈买入。" + draft["sections"][0]["text"]


def _order_qty(draft: dict[str, Any]) -> None:
    draft["orders"][0] |= {"qty": 215000, "price": "73.183"}


def _extra_order(draft: dict[str, Any]) -> None:
    draft["orders"].append({**draft["orders"][0], "qty": draft["orders"][0]["qty"] * 3})


def _probabilities(draft: dict[str, Any]) -> None:
    draft["scenarios"][0]["probability"] = "0.9"


EDITS: dict[str, tuple[str, str, Edit]] = {
    "markdown": ("last", "markdown", lambda db, ids: db.execute(
        "UPDATE reports SET markdown = replace(markdown, '## 结论', '## 结论\n\n强烈买入！') WHERE report_id = ?",
        [ids["last"]])),
    "title": ("last", "title", lambda db, ids: db.execute(
        "UPDATE reports SET title = '强烈买入' WHERE report_id = ?", [ids["last"]])),
    "summary action": ("orders", "summary", lambda db, ids: set_json(
        db, ids["orders"], "summary", lambda s: s.update(action="sell"))),
    "summary orders": ("orders", "summary", lambda db, ids: set_json(
        db, ids["orders"], "summary", lambda s: s["orders"][0].update(qty=215000))),
    "draft text without numbers": ("last", "draft", lambda db, ids: set_json(
        db, ids["last"], "draft", _first_section_text)),
    "a structured order": ("orders", "draft", lambda db, ids: set_json(db, ids["orders"], "draft", _order_qty)),
    "an appended order": ("orders", "draft", lambda db, ids: set_json(db, ids["orders"], "draft", _extra_order)),
    "probabilities with the calibrated table": ("last", "frozen", lambda db, ids: (
        set_json(db, ids["last"], "draft", _probabilities),
        set_json(db, ids["last"], "frozen", lambda f: f["calibrated"].update({next(iter(f["calibrated"])): "0.9"})))),
    "the action column": ("first", "action", lambda db, ids: db.execute(
        "UPDATE reports SET action = 'buy' WHERE report_id = ?", [ids["first"]])),
    "the publication time": ("first", "published_at", lambda db, ids: db.execute(
        "UPDATE reports SET published_at = published_at - INTERVAL 3 DAY WHERE report_id = ?", [ids["first"]])),
}  # fmt: skip


@pytest.mark.parametrize("name", list(EDITS))
def test_every_edit_of_a_stored_report_fails_verify_naming_the_field(
    home: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    which, field, change = EDITS[name]
    ids = tamper(home, change)
    code, found, _ = cli(capsys, "reports", "verify", ids[which])
    assert code == 1 and found["ok"] is False
    located = {p.get("location") for p in found["problems"] if p["code"] == "report_tampered"}
    assert f"{ids[which]}.{field}" in located, found["problems"]
    code, shown, err = cli(capsys, "reports", "show", ids[which])
    assert code == 0 and shown["seal"]["ok"] is False and "not as it was published" in err  # shown, with a warning
    others = [r for key, r in ids.items() if key != which]
    assert all(cli(capsys, "reports", "verify", r)[0] == 0 for r in others)  # nothing else is affected


def test_evidence_planted_into_a_run_is_seen(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = canonical_json({"note": "管理层确认", "pe_ttm": "12.34"})

    def plant(db: Database, ids: dict[str, str]) -> None:
        run_id = db.scalar("SELECT run_id FROM reports WHERE report_id = ?", [ids["last"]])
        eid = evidence_id_for(body)
        db.execute("INSERT INTO evidence (evidence_id, sha256, kind, source, media_type, fetched_at, bytes, body) "
                   "VALUES (?, ?, 'computation', 'analytics.valuation', 'application/json', now(), ?, ?)",
                   [eid, digest(body), len(body), body])  # fmt: skip
        db.execute("INSERT INTO run_evidence (run_id, evidence_id, kind, source, fetched_at, label) "
                   "VALUES (?, ?, 'computation', 'analytics.valuation', now(), 'v')", [run_id, eid])  # fmt: skip
        set_json(db, ids["last"], "draft", lambda d: d["risks"].append({"text": "市盈率 12.34 倍", "evidence": [eid]}))

    ids = tamper(home, plant)
    code, found, _ = cli(capsys, "reports", "verify", ids["last"])
    codes = {(p["code"], p.get("location", "").split(".")[-1]) for p in found["problems"]}
    assert code == 1 and {("report_tampered", "evidence"), ("report_tampered", "draft")} <= codes
    assert "evidence_unjournaled" in {c for c, _ in codes}  # no action of the run produced it


def test_a_deleted_or_reordered_report_breaks_the_chain(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ids = tamper(home, lambda db, ids: db.execute("DELETE FROM reports WHERE report_id = ?", [ids["orders"]]))
    for neighbour in ("first", "last"):
        code, found, _ = cli(capsys, "reports", "verify", ids[neighbour])
        where = {p.get("location") for p in found["problems"]}
        assert code == 1 and {f"{ids[neighbour]}.chain", f"{ids[neighbour]}.seal_log"} & where, found["problems"]


def test_the_seal_log_sees_a_deleted_last_report(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (home / SEAL_LOG).read_text(encoding="utf-8").count("\n") == 3  # one line per report, append-only
    ids = tamper(home, lambda db, ids: db.execute("DELETE FROM reports WHERE report_id = ?", [ids["last"]]))
    code, found, _ = cli(capsys, "reports", "verify", ids["first"])
    assert code == 1 and f"{ids['first']}.seal_log" in {p.get("location") for p in found["problems"]}
    assert ids["last"] in found["problems"][0]["message"]


def test_swapped_places_in_the_chain_are_seen(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def swap(db: Database, ids: dict[str, str]) -> None:
        db.execute("UPDATE reports SET seq = 99 WHERE report_id = ?", [ids["first"]])
        db.execute("UPDATE reports SET seq = 1 WHERE report_id = ?", [ids["orders"]])
        db.execute("UPDATE reports SET seq = 2 WHERE report_id = ?", [ids["first"]])

    ids = tamper(home, swap)
    code, found, _ = cli(capsys, "reports", "verify", ids["first"])
    assert code == 1 and f"{ids['first']}.chain" in {p.get("location") for p in found["problems"]}


def test_a_number_planted_in_an_old_report_never_reaches_the_next_run(home: Path) -> None:
    def plant(db: Database, ids: dict[str, str]) -> None:
        set_json(db, ids["last"], "summary", lambda s: s["zones"]["buy"].update(low="98765.43"))

    ids = tamper(home, plant)
    with Workbench.open(home) as bench:
        outcome = bench.research.analyze(DEMO_SYMBOL)
        facts = json.loads(bench.research.journal.stored(outcome.run_id, "prepare/facts", "result") or "{}")
    assert outcome.status == "published"
    assert facts["previous_refused"] == [ids["last"]]  # named, never read ...
    assert facts["previous_report"]["report_id"] == ids["first"]  # ... the latest report that holds is used
    assert "98765.43" not in json.dumps(facts, ensure_ascii=False)


def test_the_plan_check_refuses_a_report_that_is_not_as_published(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tamper(home, lambda db, ids: set_json(db, ids["last"], "summary", lambda s: s.update(action="buy")))
    code, found, err = cli(capsys, "check-plan", DEMO_SYMBOL)
    assert code == 1 and "not as it was published" in err and found["error"]["code"] == "invalid_input"
    code, _, err = cli(capsys, "reports", "export", reports(home)["last"], "--to", str(home / "x.md"))
    assert code == 1 and "not as it was published" in err


def test_reports_sealed_before_seals_existed_are_sealed_by_the_migration(tmp_path: Path) -> None:
    db = Database(tmp_path / "old.duckdb")
    migrate(db, target=9)
    columns = ", ".join(SEALED_FIELDS)
    with db.transaction() as cur:
        for i in (1, 2):
            published = at("CN", LAST_SESSION, f"15:0{i}")
            cur.execute(
                f"INSERT INTO reports ({columns}) VALUES (?, ?, '600519.SH', ?, NULL, 't', 'hold', 'offline', true, "
                "'hb', '# t', '{}', '{}', '{}')",
                [f"R{i}", f"RUN{i}", published],
            )
    migrate(db)
    rows = db.fetchall("SELECT report_id, seq, prev_seal, seal, sealed_fields FROM reports ORDER BY seq")
    assert [(r[0], r[1]) for r in rows] == [("R1", 1), ("R2", 2)] and rows[1][2] == rows[0][3]
    cur = db.cursor()
    row = report_row(cur, "R1")
    assert row is not None and json.loads(row["summary"])["schema"] == 1  # upgraded to the current summary, then sealed
    hashes = {**field_hashes(row, run_evidence(cur, "RUN1")), "sealed_by": "migration"}
    assert json.loads(rows[0][4]) == hashes and rows[0][3] == seal_of(hashes, "")
    db.close()


def test_the_migration_reads_the_open_order_decisions_of_an_old_summary_from_the_run_s_journal(tmp_path: Path) -> None:
    """A report published before its summary listed open-order decisions printed them only in its Markdown; the
    migration takes them from the decide stage's accepted judgments, where the report took them from, so no
    reader ever parses the Markdown for them."""
    db = Database(tmp_path / "old.duckdb")
    migrate(db, target=9)
    published = at("CN", LAST_SESSION, "15:01")
    decided = {"open_orders": [{"order_id": "O2", "decision": "CANCEL", "reason": "不在新区间内"},
                               {"order_id": "O3", "decision": "MODIFY", "new_price": "350.00"}],
               "paths": [{"trigger": "跌破 341.17", "action": "止损卖出"}]}  # fmt: skip
    accepted = {"accepted": True, "judgment": "judgments", "value": decided}
    with db.transaction() as cur:
        cur.execute(
            "INSERT INTO run_events (run_id, key, phase, kind, seq, payload, outcome, logged_at) "
            "VALUES ('RUN1', 'decide/tool/1/call_1', 'result', 'tool_call', 1, ?, 'ok', ?)",
            [json.dumps(accepted, ensure_ascii=False), published],
        )
        cur.execute(
            f"INSERT INTO reports ({', '.join(SEALED_FIELDS)}) VALUES ('R1', 'RUN1', '600519.SH', ?, NULL, 't', "
            "'hold', 'offline', true, 'hb', ?, '{}', '{}', '{\"action\": \"hold\"}')",
            [published, "## 计划\n未成交订单 O2: CANCEL（不在新区间内）\n未成交订单 O3: MODIFY"],
        )
    migrate(db)
    summary = ReportSummary.from_json(json.loads(db.scalar("SELECT summary FROM reports WHERE report_id = 'R1'")))
    assert [(d.order_id, d.decision, d.new_price, d.reason) for d in summary.open_orders] == [
        ("O2", "CANCEL", None, "不在新区间内"),
        ("O3", "MODIFY", "350.00", ""),
    ]
    assert [(p.trigger, p.action) for p in summary.paths] == [("跌破 341.17", "止损卖出")]
    db.close()


# ---- exit codes and the publication rounds ----------------------------------------------------------------
@pytest.fixture
def failing_gate(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A planted gate problem at publication for as many rounds as the list says (the model cannot fix it)."""
    left = [0]
    publish = compose.publish

    def planted(state: Any, publisher: Any, key: str = "publish/gates") -> Any:
        if left[0] > 0:
            left[0] -= 1
            from stockbench.errors import Problem

            return [Problem("planted", "a planted problem", "nothing to do")]
        return publish(state, publisher, key)

    monkeypatch.setattr("stockbench.research.service.publish", planted)
    return left


def test_what_the_gates_find_goes_back_to_the_model_then_the_run_pauses_and_continue_goes_on(
    demo_home: Path, capsys: pytest.CaptureFixture[str], failing_gate: list[int]
) -> None:
    failing_gate[0] = 1  # the first pass fails, the model fixes, the second pass publishes
    code, outcome, _ = cli(capsys, "analyze", DEMO_SYMBOL)
    assert code == 0 and outcome["status"] == "published"
    with Workbench.open(demo_home) as bench:
        keys = [k for k, _, _ in bench.research.journal.results(outcome["run_id"], "publish/")]
    assert "publish/fix/0.0/model/1" in keys and "publish/gates/0.1" in keys
    failing_gate[0] = 99  # never fixable by the model: the run pauses (exit 4) ...
    code, outcome, _ = cli(capsys, "analyze", DEMO_SYMBOL)
    assert code == 4 and outcome["status"] == "paused" and outcome["reason"].startswith("publication gates found")
    code, again, _ = cli(capsys, "runs", "resume", outcome["run_id"])
    assert code == 4 and again["status"] == "paused"  # still failing: paused again, exit 4
    failing_gate[0] = 0  # ... and Continue gives the model another round, which publishes
    code, done, _ = cli(capsys, "runs", "resume", outcome["run_id"])
    assert code == 0 and done["status"] == "published"


def test_a_new_renderer_leaves_reports_an_older_one_wrote_verifying_and_still_guards_them(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each report seals the version of the renderer that wrote its Markdown. When the renderer changes (a new
    release), re-rendering an older report differs byte for byte, but that is no edit: its sealed Markdown hash
    guards it. Reports of the current renderer are still re-rendered and compared."""
    from stockbench.research import archive, service

    ids = reports(home)
    assert cli(capsys, "reports", "verify", ids["first"])[0] == 0
    original = archive.render_markdown
    monkeypatch.setattr(service, "render_markdown", lambda **kw: original(**kw) + "\n(a later renderer)\n")
    code, found, _ = cli(capsys, "reports", "verify", ids["first"])
    assert code == 1 and "report_tampered" in {p["code"] for p in found["problems"]}  # same renderer: compared
    monkeypatch.setattr(archive, "RENDERER", "4")  # the release after: these reports were rendered by version 3
    assert cli(capsys, "reports", "verify", ids["first"])[0] == 0
    with Workbench.open(home) as bench:  # and the seal still catches an edit of the Markdown itself
        bench.workspace.db.execute("UPDATE reports SET markdown = markdown || 'x' WHERE report_id = ?", [ids["first"]])
    code, found, _ = cli(capsys, "reports", "verify", ids["first"])
    assert code == 1 and "report_tampered" in {p["code"] for p in found["problems"]}


def test_a_tampered_report_is_refused_in_chinese_naming_the_seal_problem(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = tamper(home, lambda db, ids: db.execute("UPDATE reports SET title = '强烈买入' WHERE report_id = ?",
                                                 [ids["first"]]))  # fmt: skip
    code = run(["--json", "--lang", "zh", "reports", "export", ids["first"], "--to", str(tmp_path / "out.md")])
    captured = capsys.readouterr()
    error = json.loads(captured.out)["error"]
    assert code != 0 and error["code"] == "invalid_input"
    assert error["message"].startswith(f"报告 {ids['first']} 已不是发布时的样子：报告 {ids['first']}：存储的")
    assert "在报告封印后被改动" in error["message"] and "changed" not in error["message"]


def test_the_doctor_fails_report_seals_naming_the_edited_report(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ids = reports(home)
    code, found, _ = cli(capsys, "doctor")
    assert code == 0 and {c["name"]: c["status"] for c in found["checks"]}["report_seals"] == "ok"
    with Workbench.open(home) as bench:
        bench.workspace.db.execute("UPDATE reports SET title = '强烈买入' WHERE report_id = ?", [ids["last"]])
    code, found, _ = cli(capsys, "doctor")
    seals = {c["name"]: c for c in found["checks"]}["report_seals"]
    assert code == 1 and found["ok"] is False
    assert seals["status"] == "failed" and ids["last"] in seals["detail"] and "of 3 reports" in seals["detail"]
