"""The crash test: an analysis through the loopback LLM server is killed with SIGKILL at many action boundaries and
restarted with `stockbench runs resume RUN` each time until it publishes. The final report equals an uninterrupted
run's, the journal holds each action's intent and result once (in the very order of the uninterrupted run), and
no model call whose result had been recorded is ever sent again; an interrupted call is re-sent byte-identical.

The analysing processes are forked from a "zygote" process that imported the engine and litellm once (litellm
alone takes seconds to import), so each restart costs what a real restart costs after start-up: opening the
workspace and replaying the journal. Kills come from the server when the k-th request of a process arrives,
shortly after a reply was sent (landing in the result's write, a tool call or a program stage), and after
random delays from the start (landing anywhere, program stages and transactions included).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import pytest

from stockbench.cli.main import run
from stockbench.workbench import Workbench
from tests.engine.research.conftest import DEMO_SYMBOL
from tests.engine.research.scripted import ScriptedModel, message_texts
from tests.llm_server.server import LlmServer, SeenRequest

ROOT = Path(__file__).resolve().parents[3]
SEED = 20261127
MAX_GENERATIONS = 40
# How each process dies, in the order the run progresses: at its n-th request (before the reply), a few random
# milliseconds after a stage title appears on its stderr (inside program actions, between a model call's result
# and the next call), or a random moment after it started (anywhere). After the list, processes run undisturbed.
PLAN = ("request:1", "delay", "title:Fetching what the scene implies", "title:Indicators, states", "request:1",
        "title:BEAR sub-study", "request:1", "request:2", "title:Refreshing the quote", "delay", "request:1",
        "title:Sizing orders", "request:1", "title:Publication gates", "delay")  # fmt: skip


def zygote() -> None:
    """Import the engine and litellm once, then fork one child per job line on stdin; report its pid and exit."""
    from stockbench.llm.client import import_litellm

    import_litellm()
    warm_imports()
    print("ready", flush=True)
    for line in sys.stdin:
        job = json.loads(line)
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:  # the child: one CLI invocation, its output in the job's log
            code = 99
            try:
                log = os.open(job["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND)
                os.dup2(log, 1)
                os.dup2(log, 2)
                os.environ["STOCKBENCH_HOME"] = job["home"]
                code = run(job["argv"])
            except BaseException:
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        print(pid, flush=True)
        _, status = os.waitpid(pid, 0)
        print(f"exit {os.waitstatus_to_exitcode(status)}", flush=True)


def warm_imports() -> None:
    """Import every engine module and the libraries a run loads lazily, so forked children start warm."""
    import importlib
    import pkgutil

    import stockbench

    for name in ("polars", "pandas", "pyarrow", "numpy", "exchange_calendars"):
        importlib.import_module(name)
    for module in pkgutil.walk_packages(stockbench.__path__, "stockbench."):
        if not module.name.endswith("__main__"):  # that one starts the app
            importlib.import_module(module.name)


class Zygote:
    """The forking parent, driven from the test."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from tests.engine.research.test_crash_resume import zygote; zygote()"],
            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert self._line() == "ready"

    def _line(self) -> str:
        stdout: IO[str] | None = self.process.stdout
        assert stdout is not None
        line = stdout.readline()
        assert line, "the zygote died"
        return line.strip()

    def spawn(self, argv: list[str], home: Path, log: Path) -> int:
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(json.dumps({"argv": argv, "home": str(home), "log": str(log)}) + "\n")
        stdin.flush()
        return int(self._line())

    def wait(self) -> int:
        """The child's exit code (negative: killed by that signal)."""
        return int(self._line().removeprefix("exit "))

    def close(self) -> None:
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()
        self.process.wait(timeout=30)


@dataclass
class Generation:
    """One analysing process: its requests (indices into the server's record), how it ended, what was done."""

    number: int
    mode: str | None
    first_request: int
    last_request: int = 0
    code: int = 0
    killed_at: str = ""
    seconds: float = 0.0
    completed: frozenset[str] = frozenset()  # model-call keys with a recorded result when it ended


@dataclass
class Killer:
    """Kills the current child as the generation's mode says: from the server thread when its n-th request
    arrives, from a watcher when a stage title appears in its log (plus a random few milliseconds), or from a
    timer a random moment after it started."""

    rng: random.Random
    pid: int = 0
    mode: str = ""
    seen: int = 0
    kills: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    done: threading.Event = field(default_factory=threading.Event)

    def start(self, pid: int, mode: str | None, log: Path) -> None:
        with self.lock:
            self.pid, self.mode, self.seen = pid, mode or "", 0
        self.done.clear()
        kind, _, arg = self.mode.partition(":")
        if kind == "delay":
            seconds = self.rng.uniform(0.05, 1.5)
            threading.Thread(target=self._after, args=(seconds, "a random delay"), daemon=True).start()
        elif kind == "title":
            offset = log.stat().st_size if log.exists() else 0
            seconds = self.rng.uniform(0.0, 0.03)
            threading.Thread(target=self._watch, args=(log, offset, arg, seconds), daemon=True).start()

    def finish(self) -> None:
        self.done.set()
        with self.lock:
            self.pid = 0

    def on_request(self, seen: SeenRequest, number: int) -> None:
        with self.lock:
            self.seen += 1
            kind, _, arg = self.mode.partition(":")
        if kind == "request" and self.seen == int(arg):
            self.kill(f"at its request {self.seen}")

    def _after(self, seconds: float, why: str) -> None:
        if not self.done.wait(seconds):
            self.kill(f"{why} ({seconds:.2f} s)")

    def _watch(self, log: Path, offset: int, title: str, seconds: float) -> None:
        while not self.done.wait(0.002):
            text = log.read_bytes()[offset:].decode("utf-8", "replace") if log.exists() else ""
            if title in text:
                self._after(seconds, f"{seconds:.3f} s after '{title}'")
                return

    def kill(self, why: str) -> None:
        with self.lock:
            if not self.pid:
                return
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
                self.kills.append(why)
            self.pid = 0


@pytest.fixture
def zygote_process() -> Any:
    process = Zygote()
    yield process
    process.close()


def copy_of(template: Path, target: Path, server: LlmServer) -> Path:
    """A copy of the demo workspace with the scripted model configured, as a user would do it."""
    shutil.copytree(template, target)
    argv = ["--home", str(target), "models", "add", "scripted", "--provider", "openai_compatible", "--model",
            "scripted", "--api-base", server.base_url]  # fmt: skip
    assert run(argv) == 0
    return target


def journal(home: Path) -> dict[str, Any]:
    """What the workspace's (only) run recorded so far."""
    with Workbench.open(home) as bench:
        db = bench.workspace.db
        run_id = db.scalar("SELECT run_id FROM runs")
        if run_id is None:
            return {"run_id": None, "status": None, "completed": frozenset(), "last": ""}
        status = bench.research.journal.status(run_id)
        rows = db.fetchall("SELECT key, phase, kind, payload FROM run_events WHERE run_id = ? ORDER BY seq", [run_id])
        report = db.fetchone("SELECT report_id, markdown, draft FROM reports WHERE run_id = ?", [run_id])
        return {
            "run_id": run_id,
            "status": status.status if status else None,
            "stage": status.stage if status else None,
            "rows": [(str(k), str(p), str(kind), str(payload)) for k, p, kind, payload in rows],
            "completed": frozenset(str(k) for k, p, kind, _ in rows if kind == "model_call" and p == "result"),
            "last": f"{rows[-1][0]} ({rows[-1][1]})" if rows else "(nothing yet)",
            "report": report,
            "duplicates": db.fetchall(
                "SELECT key, phase, count(*) FROM run_events WHERE run_id = ? GROUP BY ALL HAVING count(*) > 1",
                [run_id],
            ),
        }


def normalised(found: dict[str, Any]) -> tuple[str, Any]:
    """The report's markdown and draft with the run id and report id replaced by placeholders."""
    report_id, markdown, draft = found["report"]
    text = json.dumps([markdown, json.loads(draft)], ensure_ascii=False, sort_keys=True)
    text = text.replace(found["run_id"], "<RUN>").replace(report_id, "<REPORT>")
    markdown, draft = json.loads(text)
    return markdown, draft


def stable_rows(found: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(key, phase, payload) with payloads that carry wall times (model-call results) or ids normalised."""
    rows = []
    for key, phase, kind, payload in found["rows"]:
        text = payload
        if kind == "model_call" and phase == "result":
            reply = json.loads(payload)
            text = json.dumps({"content": reply["content"], "tool_calls": reply["tool_calls"]}, sort_keys=True)
        rows.append((key, phase, text.replace(found["run_id"], "<RUN>").replace(found["report"][0], "<REPORT>")))
    return rows


def uninterrupted(zygote: Zygote, home: Path, tmp_path: Path) -> dict[str, Any]:
    log = tmp_path / "reference.log"
    zygote.spawn(["--json", "analyze", DEMO_SYMBOL, "--model", "scripted"], home, log)
    assert zygote.wait() == 0, log.read_text(encoding="utf-8")
    found = journal(home)
    assert found["status"] == "published"
    return found


def request_key(seen: SeenRequest, intents: dict[tuple[str, ...], str]) -> str:
    key = intents.get(tuple(message_texts(seen.messages)))
    assert key is not None, f"a request matches no model-call intent of the run: {seen!r}"
    return key


@pytest.mark.slow
def test_killed_at_random_action_boundaries_the_run_resumes_to_the_same_report(
    tmp_path: Path, demo_template: Path, llm_server: LlmServer, scripted: ScriptedModel, zygote_process: Zygote
) -> None:
    reference_home = copy_of(demo_template, tmp_path / "reference", llm_server)
    reference = uninterrupted(zygote_process, reference_home, tmp_path)
    reference_requests = len(llm_server.chats)

    home = copy_of(demo_template, tmp_path / "crashed", llm_server)
    killer = Killer(random.Random(SEED))
    scripted.before = killer.on_request
    generations: list[Generation] = []
    argv = ["--json", "analyze", DEMO_SYMBOL, "--model", "scripted"]
    log = tmp_path / "crashed.log"
    state: dict[str, Any] = {}
    for number in range(1, MAX_GENERATIONS + 1):
        mode = PLAN[number - 1] if number <= len(PLAN) else None
        generation = Generation(number, mode, len(llm_server.chats))
        started = time.perf_counter()
        pid = zygote_process.spawn(argv, home, log)
        killer.start(pid, mode, log)
        generation.code = zygote_process.wait()
        killer.finish()
        generation.seconds = time.perf_counter() - started
        generation.last_request = len(llm_server.chats)
        state = journal(home)
        generation.completed = state["completed"]
        if generation.code == -signal.SIGKILL:
            generation.killed_at = f"{killer.kills[-1]}, after {state['last']}"
        generations.append(generation)
        if state["status"] == "published":
            break
        assert generation.code == -signal.SIGKILL, log.read_text(encoding="utf-8")
        if state["run_id"] is not None:
            argv = ["--json", "runs", "resume", state["run_id"]]
    summary = "\n".join(f"{g.number} {g.mode}: exit {g.code} after {g.seconds:.2f} s {g.killed_at}"
                        for g in generations)  # fmt: skip
    print(summary)
    assert state["status"] == "published", summary
    kills = [g for g in generations if g.code == -signal.SIGKILL]
    assert len(kills) >= 10, summary
    assert len({g.killed_at.split(", after ")[1] for g in kills}) >= 6, summary  # at many different boundaries

    # no action's result is recorded twice, and the journal is the uninterrupted run's, row for row
    assert state["duplicates"] == []
    assert stable_rows(state) == stable_rows(reference), summary
    # the final report equals the uninterrupted run's
    assert normalised(state) == normalised(reference)

    # no completed model call is sent again; an interrupted one is re-sent byte-identical
    intents = {
        tuple(message_texts(json.loads(payload)["messages"])): key
        for key, phase, kind, payload in state["rows"]
        if kind == "model_call" and phase == "intent"
    }
    sent: dict[str, list[bytes]] = {}
    done_before: frozenset[str] = frozenset()
    for generation in generations:
        for seen in llm_server.chats[generation.first_request : generation.last_request]:
            key = request_key(seen, intents)
            assert key not in done_before, f"{key} was sent again after its result was recorded\n{summary}"
            sent.setdefault(key, []).append(seen.body)
        done_before = generation.completed
    assert set(sent) == {k for k, p, kind, _ in state["rows"] if kind == "model_call" and p == "result"}
    for key, bodies in sent.items():
        assert len(set(bodies)) == 1, f"{key} was re-sent with different bytes"
    resent = sum(len(b) - 1 for b in sent.values())
    assert resent >= 1, summary  # some kill did interrupt a call in flight
    assert len(llm_server.chats) - reference_requests == sum(len(b) for b in sent.values())
