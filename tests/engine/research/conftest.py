"""Fixtures for the research acceptance tests: the demo market built once through the CLI, a fresh copy of it
per test, the scripted model behind the loopback LLM server, and a research service whose model client has
tiny limits and records its backoff waits instead of sleeping."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from stockbench.cli.main import run
from stockbench.clock import MARKET_TZ
from stockbench.ledger.entries import Order
from stockbench.ledger.store import LEDGER_TABLES
from stockbench.ledger.validation import FillDraft
from stockbench.llm.client import LlmClient, RetryPolicy, close_clients, import_litellm
from stockbench.llm.keys import OsKeyring
from stockbench.llm.models import ModelConfig, ModelRegistry
from stockbench.llm.prices import Prices
from stockbench.market.ticks import round_to_tick
from stockbench.research.llm_port import LlmPort
from stockbench.research.records import StatusRow
from stockbench.research.service import Research
from stockbench.store.settings import REPORT_LANGUAGE
from stockbench.workbench import Workbench
from tests.engine.research.scripted import ScriptedModel
from tests.llm_server.server import LlmServer

DEMO_SYMBOL = "605903.SH"  # Shanghai main board, baseline "wait" (nothing held, nothing to do)
BUY_SYMBOL = "301903.SZ"  # ChiNext, every buy condition but the plan's passed; its last close in the sell zone
SELL_SYMBOL = "003903.SZ"  # Shenzhen main board, baseline avoid; held (10,000 shares), a reduce: a sell is sized
LAST_SESSION = date(2026, 11, 27)  # the demo's pinned day
TEST_KEY = "sk-research-test-5f0c2a9e71d84b36"
# A stalled stream is noticed in 1.5 s and an attempt may take 10 s; backoff waits are recorded, not slept.
FAST = RetryPolicy(attempts_per_model=3, backoff_base_s=0.5, backoff_max_s=4.0, retry_after_max_s=30.0,
                   attempt_deadline_s=10.0, stall_s=1.5, connect_s=1.0)  # fmt: skip
# Both are generous because a loaded CI machine tripped tighter ones (0.3 s stall, 2 s attempt) before an answer
# came, and the retry consumed a scripted answer. The timeout test sets its own short deadline.


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo market, built once per session by `stockbench demo` (every test works on a copy)."""
    home = tmp_path_factory.mktemp("research-demo") / "market"
    assert run(["--home", str(home), "--json", "demo"]) == 0
    with Workbench.open(home) as bench:  # the reports these tests read are Chinese (the tests' C locale reads English)
        bench.workspace.settings.set(REPORT_LANGUAGE, "zh")
    return home


@pytest.fixture
def demo_home(tmp_path: Path, demo_template: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of the demo workspace, also set as $STOCKBENCH_HOME."""
    home = tmp_path / "demo"
    shutil.copytree(demo_template, home)
    monkeypatch.setenv("STOCKBENCH_HOME", str(home))
    return home


@pytest.fixture
def bench(demo_home: Path) -> Iterator[Workbench]:
    with Workbench.open(demo_home) as opened:
        yield opened


@pytest.fixture(scope="session")
def litellm_loaded() -> None:
    """Import litellm once, before any test's deadline starts (the import takes seconds)."""
    import_litellm()


@pytest.fixture
def scripted() -> ScriptedModel:
    return ScriptedModel()


@pytest.fixture
def llm_server(litellm_loaded: None, scripted: ScriptedModel) -> Iterator[LlmServer]:
    server = LlmServer(scripted).start()
    yield server
    close_clients()
    server.stop()


@dataclass
class Lab:
    """A demo workbench wired to the scripted server, with helpers to read what a run recorded."""

    bench: Workbench
    server: LlmServer
    model: ScriptedModel
    sleeps: list[float] = field(default_factory=list)

    @property
    def db(self) -> Any:
        return self.bench.workspace.db

    def add_model(
        self,
        name: str = "scripted",
        provider: str = "openai_compatible",
        model: str = "scripted",
        *,
        fallback: str | None = None,
        key: str | None = None,
    ) -> ModelConfig:
        """Configure a model served by the scripted server (a key goes to the in-memory keyring)."""
        config = ModelConfig(name, provider, model, self.server.base_url, fallback)
        ModelRegistry(self.bench.workspace.settings).add(config)
        if key is not None:
            OsKeyring().set(name, key)
        return config

    def research(self, policy: RetryPolicy = FAST) -> Research:
        """A research service whose LLM client uses `policy` and records backoff waits in `sleeps`."""
        registry = ModelRegistry(self.bench.workspace.settings)
        client = LlmClient(registry, policy=policy, sleep=self.sleeps.append)
        prices = Prices(registry)

        def make(name: str) -> LlmPort:
            registry.get(name)
            return LlmPort(name, client, prices)

        return Research(self.db, self.bench.clock, self.bench.events, self.bench.research.facts, make)

    # ---- what a run recorded ---------------------------------------------------------------------------
    def results(self, run_id: str, kind: str | None = None) -> list[tuple[str, str]]:
        """(key, payload) of the run's recorded results, in order, optionally of one action kind."""
        return [(k, p) for k, kd, p in self.bench.research.journal.results(run_id) if kind in (None, kd)]

    def tool_results(self, run_id: str, prefix: str = "") -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
        """(key, request, result) of every tool call whose key starts with `prefix`."""
        rows = self.db.fetchall(
            "SELECT i.key, i.payload, r.payload FROM run_events i JOIN run_events r USING (run_id, key) "
            "WHERE i.run_id = ? AND i.kind = 'tool_call' AND i.phase = 'intent' AND r.phase = 'result' "
            "AND i.key LIKE ? ORDER BY r.seq",
            [run_id, prefix + "%"],
        )
        return [(str(k), json.loads(i), json.loads(r)) for k, i, r in rows]

    def status_rows(self, run_id: str) -> list[StatusRow]:
        rows = self.db.fetchall(
            "SELECT status, stage, reason, resume_at, changed_at FROM run_status WHERE run_id = ? ORDER BY seq",
            [run_id],
        )
        return [StatusRow(*row) for row in rows]


@pytest.fixture
def lab(bench: Workbench, llm_server: LlmServer, scripted: ScriptedModel) -> Lab:
    return Lab(bench, llm_server, scripted)


# ---- the ledger ----------------------------------------------------------------------------------------
def at(market: str, day: date, clock: str = "10:00") -> datetime:
    return datetime.combine(day, time.fromisoformat(clock), tzinfo=MARKET_TZ[market])  # type: ignore[index]


def close_on(bench: Workbench, symbol: str, day: date) -> Decimal:
    found = bench.workspace.db.scalar("SELECT close FROM bars WHERE symbol = ? AND day = ?", [symbol, day])
    assert found is not None, f"no bar of {symbol} on {day}"
    return Decimal(found)


def holding_account(bench: Workbench, symbol: str, *, qty: int, name: str = "main", cash: str = "2000000",
                    bought: date = date(2026, 11, 20), order_offset: str = "1.05") -> Order:  # fmt: skip
    """An account holding `qty` of `symbol` (bought at that day's close) with an open sell order above the last
    close; returns the order. Recorded through `bench.ledger`, as a user would."""
    instrument = bench.market.registry.instrument(symbol)
    market, currency = instrument.market, instrument.currency
    ledger = bench.ledger
    ledger.add_account(name, currency)
    ledger.cash(name, "deposit", Decimal(cash), at=at(market, date(2026, 11, 2), "09:00"))
    price = close_on(bench, symbol, bought)
    ledger.record_fill(FillDraft(name, symbol, "buy", qty, price, at(market, bought)))
    limit = round_to_tick(instrument, close_on(bench, symbol, LAST_SESSION) * Decimal(order_offset), LAST_SESSION)
    return ledger.add_order(Order("", name, symbol, "sell", qty // 2, limit, at(market, LAST_SESSION)))


def ledger_snapshot(bench: Workbench) -> dict[str, list[str]]:
    """Every row of every ledger table, in a stable order, as text: for byte-for-byte comparison."""
    db = bench.workspace.db
    return {t: [repr(row) for row in db.fetchall(f"SELECT * FROM {t} ORDER BY ALL")] for t in LEDGER_TABLES}
