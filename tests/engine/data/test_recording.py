"""Recordings: a fetch recorded against the loopback replay server replays with the server stopped into the
same stored data; secrets never reach the folder; an unrecorded request fails by name and is never sent."""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path

import pytest

from stockbench.cli.main import run
from stockbench.data.http import FetchError, HttpClient, Target
from stockbench.data.recording import REDACTED, load
from stockbench.data.service import DataService
from stockbench.market.service import MarketRules
from stockbench.store.database import Database
from stockbench.store.migrations import migrate
from tests.engine.data.conftest import FAST
from tests.engine.data.replay_server import ReplayServer, Reply, eastmoney_kline
from tests.engine.data.test_gates import DAY, SYMBOL, FixedClock, local
from tests.engine.data.test_sources import KLINE, ROWS, Wall, only

BARS = "SELECT symbol, day, open, high, low, close, prev_close, volume, amount, source FROM bars ORDER BY day"


def client(**folder: Path) -> HttpClient:
    return HttpClient(policies={}, default_policy=FAST, allow_loopback=True, trust_env=False, **folder)


def fetch_bars(db_path: Path, base_url: str, http: HttpClient) -> tuple[list[tuple[object, ...]], list[str | None]]:
    db = Database(db_path)
    migrate(db)
    try:
        wall = Wall()
        only(db, wall, {"bars.eastmoney": base_url})
        service = DataService(db, FixedClock(local(DAY, 10, 1)), MarketRules(db), http=http, now=wall)
        outcomes = service.fetch(SYMBOL, ["bars"])
        return db.fetchall(BARS), [o.failure for o in outcomes]
    finally:
        db.close()


def test_a_recorded_fetch_replays_with_no_network_into_the_same_stored_data(tmp_path: Path) -> None:
    server = ReplayServer().start()
    server.route(KLINE, Reply.failing(503), Reply.json(eastmoney_kline("600519", 1, "贵州茅台", ROWS)))
    folder = tmp_path / "recording"
    with client(record=folder) as http:
        recorded, failures = fetch_bars(tmp_path / "first.duckdb", server.base_url, http)
    server.stop()
    assert len(recorded) == 3 and failures == [None]
    exchanges = load(folder)
    assert [(e.seq, e.method, e.status) for e in exchanges] == [(1, "GET", 503), (2, "GET", 200)]
    assert exchanges[1].url.startswith(f"{server.base_url}{KLINE}?") and "secid=1.600519" in exchanges[1].url
    assert (folder / "bodies" / "0002.bin").read_bytes().startswith(b'{"rc":0')
    assert exchanges[1].time.endswith("+00:00") and exchanges[1].request_headers["user-agent"]
    assert "stockbench 0.1.0" in (folder / "README.txt").read_text(encoding="utf-8")
    with client(replay=folder) as http:  # the server is stopped: any network attempt would fail
        replayed, failures = fetch_bars(tmp_path / "second.duckdb", server.base_url, http)
    assert replayed == recorded and failures == [None]


def test_secrets_never_reach_the_recording(tmp_path: Path, replay: ReplayServer) -> None:
    replay.route("/q", Reply(b"ok", headers={"Set-Cookie": "sid=s3cr3t-cookie"}))
    folder = tmp_path / "recording"
    url = f"{replay.base_url}/q?code=600519&token=s3cr3t-token&apikey=s3cr3t-api&page=2"
    with client(record=folder) as http:
        http.get_text(Target("test", "quote", SYMBOL), url, headers={"Authorization": "Bearer s3cr3t-bearer"})
    assert replay.seen("/q")[0].params["token"] == "s3cr3t-token"  # the real request carried it
    (exchange,) = load(folder)
    assert exchange.url == f"{replay.base_url}/q?code=600519&token={REDACTED}&apikey={REDACTED}&page=2"
    assert exchange.request_headers["authorization"] == REDACTED
    assert exchange.response_headers["set-cookie"] == REDACTED
    for path in folder.rglob("*"):
        assert not path.is_file() or b"s3cr3t" not in path.read_bytes(), path
    with client(replay=folder) as http:  # matched by the redacted URL, whatever the secret's value now
        other = url.replace("s3cr3t-token", "a-new-token")
        assert http.get_text(Target("test", "quote", SYMBOL), other) == "ok"


def test_a_request_not_in_the_recording_fails_by_name_and_is_never_sent(tmp_path: Path, replay: ReplayServer) -> None:
    replay.route("/q", Reply(b"ok"))
    folder = tmp_path / "recording"
    with client(record=folder) as http:
        http.get_text(Target("test", "quote", SYMBOL), f"{replay.base_url}/q?code=1")
    with client(replay=folder) as http, pytest.raises(FetchError) as caught:
        http.get_text(Target("test", "quote", SYMBOL), f"{replay.base_url}/q?code=2")
    assert caught.value.failure.kind == "not_recorded"
    assert f"GET {replay.base_url}/q?code=2" in caught.value.failure.reason
    assert len(replay.requests) == 1  # only the recorded one ever reached the server


def test_a_recorded_failure_replays_as_the_same_failure(tmp_path: Path) -> None:
    server = ReplayServer().start()
    base = server.base_url
    server.stop()  # nothing listens: the connection is refused
    folder = tmp_path / "recording"
    with client(record=folder) as http, pytest.raises(FetchError) as live:
        http.get_text(Target("test", "quote", SYMBOL), f"{base}/q")
    assert [e.error.split(":")[0] for e in load(folder)] == ["ConnectError", "ConnectError"]  # with its retry
    with client(replay=folder) as http, pytest.raises(FetchError) as again:
        http.get_text(Target("test", "quote", SYMBOL), f"{base}/q")
    assert (live.value.failure.kind, again.value.failure.kind) == ("network", "network")


def test_record_and_replay_together_is_a_usage_error_and_a_bad_folder_a_user_error(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["data", "fetch", "600519", "--record", str(tmp_path / "a"), "--replay", str(tmp_path / "b")]) == 2
    capsys.readouterr()
    code = run(["--json", "data", "fetch", "600519", "--replay", str(tmp_path / "missing")])
    error = json.loads(capsys.readouterr().out)["error"]
    assert code == 1 and "is not a recording" in error["message"]


def test_a_quote_recorded_in_a_session_replays_later_on_the_recordings_clock(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from stockbench.workbench import Workbench
    from tests.engine.data.test_corroboration import tencent_line

    server = ReplayServer().start()
    server.route("/q=sh600519", Reply.gbk(tencent_line()))
    folder, at = tmp_path / "recording", local(DAY, 10, 1)
    db = Database(tmp_path / "first.duckdb")
    migrate(db)
    with client(record=folder) as http:  # recorded live at 10:01 in the session
        only(db, Wall(), {"quote.tencent": server.base_url})
        outcomes = DataService(db, FixedClock(at), MarketRules(db), http=http, now=Wall()).fetch(SYMBOL, ["quote"])
    db.close()
    server.stop()
    assert [(o.source, o.ok) for o in outcomes] == [("tencent", True)]
    index = folder / "index.jsonl"  # the wall clock of that moment (the test's clock only stands in for it)
    lines = [json.loads(line) | {"time": at.isoformat()} for line in index.read_text(encoding="utf-8").splitlines()]
    index.write_text("".join(json.dumps(line, sort_keys=True) + "\n" for line in lines), encoding="utf-8")
    with Workbench.open(home) as bench:
        only(bench.workspace.db, Wall(), {"quote.tencent": server.base_url})
    capsys.readouterr()
    assert (
        run(["--home", str(home), "--json", "data", "fetch", SYMBOL, "--what", "quote", "--replay", str(folder)]) == 0
    )
    answer = json.loads(capsys.readouterr().out)
    fetched = answer["fetches"]
    assert [(f["what"], f["source"], f["ok"]) for f in fetched] == [("quote", "tencent", True)]  # not skipped as late
    # labelled with the recording's time, never as a live answer of now
    assert answer["replay"] == {"folder": str(folder), "recorded_at": at.isoformat(), "live": False}
    assert answer["as_of"].startswith("2024-06-28T02:01")  # the recording's clock (UTC), not the wall clock
    with Workbench.open(home) as bench:
        stored = bench.data.cache.latest_quote(SYMBOL)
    assert stored is not None and stored.last == 1700
    for language, words in (
        ("en", "Replayed: the answers recorded at 2024-06-28 10:01:00"),
        ("zh", "回放：2024-06-28 10:01:00"),
    ):
        assert run(["--home", str(home), "--lang", language, "data", "fetch", SYMBOL, "--what", "quote",
                    "--replay", str(folder)]) == 0  # fmt: skip
        shown = capsys.readouterr().out
        assert words in shown and ("not live now" in shown if language == "en" else "并非此刻的实时行情" in shown)
        assert ("Beijing" if language == "en" else "北京时间") in shown


def test_under_replay_an_as_of_clock_outside_the_session_still_asks_the_recorded_quotes(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --as-of the evening (a replay clock, outside the window) a recording that holds quote answers is still
    answered from; one that holds none skips the quote as before (nothing to replay, and never the network)."""
    from stockbench.workbench import Workbench
    from tests.engine.data.test_corroboration import tencent_line

    server = ReplayServer().start()
    server.route("/q=sh600519", Reply.gbk(tencent_line()))
    server.route(KLINE, Reply.json(eastmoney_kline("600519", 1, "贵州茅台", ROWS)))
    db = Database(tmp_path / "first.duckdb")
    migrate(db)
    only(db, Wall(), {"quote.tencent": server.base_url, "bars.eastmoney": server.base_url})
    quotes, bars = tmp_path / "quotes", tmp_path / "bars"
    for folder, kind in ((quotes, "quote"), (bars, "bars")):
        with client(record=folder) as http:
            service = DataService(db, FixedClock(local(DAY, 10, 1)), MarketRules(db), http=http, now=Wall())
            assert [o.ok for o in service.fetch(SYMBOL, [kind])] == [True]
    db.close()
    server.stop()
    with Workbench.open(home) as bench:
        only(bench.workspace.db, Wall(), {"quote.tencent": server.base_url, "bars.eastmoney": server.base_url})
    evening = ["--home", str(home), "--json", "--as-of", "2024-06-28T20:00", "data", "fetch", SYMBOL, "--what"]
    capsys.readouterr()
    assert run([*evening, "quote", "--replay", str(quotes)]) == 0
    fetched = json.loads(capsys.readouterr().out)["fetches"]
    assert [(f["source"], f["ok"], f["skipped"]) for f in fetched] == [("tencent", True, False)]
    assert run([*evening, "quote", "--replay", str(bars)]) == 0
    skipped = json.loads(capsys.readouterr().out)["fetches"]
    assert [(f["ok"], f["skipped"]) for f in skipped] == [(False, True)] and "outside the trading window" in skipped[0][
        "reason"
    ]


def test_what_a_replay_stores_carries_the_recordings_time_and_says_it_was_replayed(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bars, quotes, their cross-source tags and the fetch log of a replayed fetch are stamped with the time each
    answer was recorded (a request the recording lacks: the time the recording was made), never the real now; the
    fetch log names the recording, and a replay leaves the endpoints' live health alone."""
    from stockbench.workbench import Workbench
    from tests.engine.data.test_corroboration import tencent_line

    server = ReplayServer().start()
    server.route("/q=sh600519", Reply.gbk(tencent_line()))
    server.route(KLINE, Reply.json(eastmoney_kline("600519", 1, "贵州茅台", ROWS)))
    folder, asked, answered = tmp_path / "recording", local(DAY, 10, 1), local(DAY, 10, 1).replace(second=2)
    db = Database(tmp_path / "first.duckdb")
    migrate(db)
    only(db, Wall(), {"quote.tencent": server.base_url, "bars.eastmoney": server.base_url})
    with client(record=folder) as http:
        service = DataService(db, FixedClock(asked), MarketRules(db), http=http, now=Wall())
        assert [o.ok for o in service.fetch(SYMBOL, ["quote", "bars"])] == [True, True]
    db.close()
    server.stop()
    index = folder / "index.jsonl"  # the wall clock of that moment: the quote asked at 10:01:00, the bars at 10:01:02
    lines = [json.loads(line) for line in index.read_text(encoding="utf-8").splitlines()]
    for line in lines:
        line["time"] = (answered if KLINE in line["url"] else asked).isoformat()
    lines.sort(key=lambda line: line["time"])
    index.write_text("".join(json.dumps(line, sort_keys=True) + "\n" for line in lines), encoding="utf-8")
    at = {"quote.tencent": server.base_url, "quote.sina": server.base_url, "bars.eastmoney": server.base_url}
    with Workbench.open(home) as bench:
        only(bench.workspace.db, Wall(), at)  # the replay asks Sina too (the cross-check): not in the recording
    capsys.readouterr()
    command = ["--home", str(home), "--json", "data", "fetch", SYMBOL, "--what", "quote,bars", "--replay", str(folder)]
    assert run(command) == 0
    fetched = json.loads(capsys.readouterr().out)["fetches"]
    assert [(f["what"], f["source"], f["ok"], f["failure"], f["fetched_at"]) for f in fetched] == [
        ("quote", "tencent", True, None, asked.astimezone(UTC).isoformat()),
        ("quote", "sina", False, "not_recorded", asked.astimezone(UTC).isoformat()),
        ("bars", "eastmoney", True, None, answered.astimezone(UTC).isoformat()),
    ]
    with Workbench.open(home) as bench:
        store = bench.workspace.db
        assert {row[0] for row in store.fetchall("SELECT fetched_at FROM bars")} == {answered}
        assert store.fetchall("SELECT source, fetched_at FROM quotes") == [("tencent", asked)]
        assert {row[0] for row in store.fetchall("SELECT checked_at FROM quote_corroboration")} == {asked}
        logged = store.fetchall("SELECT source, what, ok, failure, started_at, replay FROM fetch_log ORDER BY source")
        assert logged == [
            ("eastmoney", "bars", True, None, answered, str(folder)),
            ("sina", "quote", False, "not_recorded", asked, str(folder)),
            ("tencent", "quote", True, None, asked, str(folder)),
        ]
        newest = bench.data.attempts(SYMBOL)[0]
        assert (newest.source, newest.replay) == ("eastmoney", str(folder))
        health = store.fetchall("SELECT name, failures, last_ok, last_error FROM source_health ORDER BY name")
        assert health == []  # no live endpoint was asked: a replay says nothing of their health now
