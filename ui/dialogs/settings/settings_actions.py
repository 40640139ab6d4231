"""EngineOp factories of the settings and the "Connect your model" dialog: each runs one front-door call in the
background (`bench.models`, `bench.data`, `bench.ledger`) and delivers its record on the GUI thread."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QWidget

from stockbench.clock import MARKET_TZ, Market
from stockbench.llm.records import KeyStoreView, ModelConfig, ModelPreset
from stockbench.workbench import Workbench
from ui.background import EngineOp
from ui.context import AppContext

Success = Callable[[Any], None]
Failure = Callable[[BaseException], None]
FEE_MARKETS: tuple[Market, ...] = ("CN", "HK")


@dataclass(frozen=True)
class FeeView:
    """The commission terms in force for one account and market."""

    account: str
    market: Market
    rate: Decimal
    minimum: Decimal
    bundled: bool


@dataclass(frozen=True)
class WizardChoices:
    """What "Connect your model" offers: the presets, the model names already taken, and where a key would stay."""

    presets: tuple[ModelPreset, ...]
    taken: frozenset[str]
    keys: KeyStoreView | None = None


# ---- models ------------------------------------------------------------------------------------------------------
def load_models(ctx: AppContext, parent: QWidget, success: Success) -> EngineOp:
    """The configured models (with whether a key is stored), the providers and research's defaults."""
    return ctx.op(lambda bench: bench.models.overview(), success, parent=parent)


def load_choices(ctx: AppContext, parent: QWidget, success: Success, failure: Failure) -> EngineOp:
    """The connection presets and the configured model names (a `WizardChoices`)."""

    def read(bench: Workbench) -> WizardChoices:
        models = bench.models
        return WizardChoices(models.presets(), frozenset(c.name for c in models.configs()), models.keystore())

    return ctx.op(read, success, failure=failure, parent=parent)


def add_model(
    ctx: AppContext, parent: QWidget, config: ModelConfig, success: Success, failure: Failure,
    *, key: str = "", make_default: bool = False,
) -> EngineOp:  # fmt: skip
    """Store `config`, its key in the OS keyring (if any), and optionally make it research's default."""
    return ctx.op(lambda bench: bench.models.add(config, key=key, make_default=make_default), success,
                  failure=failure, parent=parent)  # fmt: skip


def remove_model(ctx: AppContext, parent: QWidget, name: str, success: Success) -> EngineOp:
    """Remove model `name` and its stored key."""
    return ctx.op(lambda bench: bench.models.remove(name), success, parent=parent)


def store_key(ctx: AppContext, parent: QWidget, name: str, key: str, success: Success) -> EngineOp:
    """Store the API key of model `name` in the OS keyring."""
    return ctx.op(lambda bench: bench.models.store_key(name, key), success, parent=parent)


def load_keystore(ctx: AppContext, parent: QWidget, success: Success) -> EngineOp:
    """Where API keys are kept now, and whether that store can be used."""
    return ctx.op(lambda bench: bench.models.keystore(), success, parent=parent)


def use_keystore(
    ctx: AppContext, parent: QWidget, store: str, passphrase: str | None, *, success: Success, failure: Failure
) -> EngineOp:
    """Keep API keys in `store` ("os" or "file"; the file opened or created with `passphrase`)."""
    return ctx.op(lambda bench: bench.models.use_keystore(store, passphrase), success, failure=failure, parent=parent)


def unlock_keys(ctx: AppContext, parent: QWidget, passphrase: str, success: Success, failure: Failure) -> EngineOp:
    """Open the encrypted key file with `passphrase` for this session (held in memory, never stored)."""

    def unlock(bench: Workbench) -> KeyStoreView:
        bench.models.unlock(passphrase)
        return bench.models.keystore()

    return ctx.op(unlock, success, failure=failure, parent=parent)


def probe_model(ctx: AppContext, parent: QWidget, name: str, success: Success, failure: Failure) -> EngineOp:
    """One tiny request to the configured model `name` (a `ProbeResult`, or ConnectionFailed saying why not)."""
    return ctx.op(lambda bench: bench.models.probe(name), success, failure=failure, parent=parent)


def probe_draft(
    ctx: AppContext, parent: QWidget, config: ModelConfig, success: Success, failure: Failure, *, key: str = ""
) -> EngineOp:
    """The same test of a model not saved yet, with the key typed for it (held for this one request)."""
    return ctx.op(lambda bench: bench.models.probe_draft(config, key), success, failure=failure, parent=parent)


def save_defaults(ctx: AppContext, parent: QWidget, model: str, max_cost: Decimal | None) -> EngineOp:
    """Make `model` research's default and `max_cost` the cost ceiling offered (None: none)."""
    return ctx.op(lambda bench: bench.models.set_defaults(model, max_cost), parent=parent)


# ---- web search ----------------------------------------------------------------------------------------------
def load_search(ctx: AppContext, parent: QWidget, success: Success) -> EngineOp:
    """The configured search provider (a `SearchConfig`)."""
    return ctx.op(lambda bench: bench.search.show(), success, parent=parent)


def save_search(ctx: AppContext, parent: QWidget, url: str, success: Success, failure: Failure) -> EngineOp:
    """Let research query the SearXNG instance at `url` (InvalidInput when the address is not acceptable)."""
    return ctx.op(lambda bench: bench.search.set_searxng(url), success, failure=failure, parent=parent)


def clear_search(ctx: AppContext, parent: QWidget, success: Success) -> EngineOp:
    """Use no search provider."""
    return ctx.op(lambda bench: bench.search.clear(), success, parent=parent)


def test_search(ctx: AppContext, parent: QWidget, url: str, success: Success, failure: Failure) -> EngineOp:
    """One query to the SearXNG instance at `url`, saved or not (a `SearchProbe`)."""
    return ctx.op(lambda bench: bench.search.test_address(url), success, failure=failure, parent=parent)


def save_brave(
    ctx: AppContext, parent: QWidget, key: str, base_url: str, success: Success, *, failure: Failure
) -> EngineOp:
    """Let research query the Brave Search API at `base_url` (blank: Brave's own), storing `key` in the key store
    (blank: the key already had)."""
    return ctx.op(lambda bench: bench.search.set_brave(key or None, base_url or None), success, failure=failure,
                  parent=parent)  # fmt: skip


def test_brave(
    ctx: AppContext, parent: QWidget, key: str, base_url: str, success: Success, *, failure: Failure
) -> EngineOp:
    """One query to the Brave Search API with `key` as typed (never stored; blank: the stored key)."""
    return ctx.op(lambda bench: bench.search.test_brave(key, base_url or None), success, failure=failure,
                  parent=parent)  # fmt: skip


# ---- data sources ------------------------------------------------------------------------------------------------
def load_sources(ctx: AppContext, parent: QWidget, success: Success) -> EngineOp:
    """The data sources in the order reads prefer them."""
    return ctx.op(lambda bench: list(bench.data.source_preference()), success, parent=parent)


def save_sources(ctx: AppContext, parent: QWidget, order: Sequence[str], success: Success) -> EngineOp:
    """Prefer the sources in `order` (from the next time the workspace opens)."""
    chosen = list(order)
    return ctx.op(lambda bench: bench.data.set_source_preference(chosen), success, parent=parent)


@dataclass(frozen=True)
class SourceRow:
    """One data-source endpoint as the page shows it; `last_ok` already in its exchange's time, zone named."""

    name: str
    state: str  # ok, resting, failing, disabled
    base_url: str
    enabled: bool
    failures: int
    last_ok: str
    last_error: str
    service: str = ""
    order: int = 0  # 1-based place in its service (1 = asked first)


def _exchange_text(at: Any, markets: Sequence[str]) -> str:
    if at is None:
        return ""
    zone = next((z for m, z in MARKET_TZ.items() if markets and m == markets[0]), MARKET_TZ["CN"])
    return f"{at.astimezone(zone):%Y-%m-%d %H:%M:%S} {zone.key}"


def _source_rows(bench: Workbench) -> list[SourceRow]:
    return [
        SourceRow(s.name, s.state, s.base_url, s.enabled, s.failures, _exchange_text(s.last_ok, s.endpoint.markets),
                  s.last_error or "", s.endpoint.service, s.order)
        for s in bench.data.sources.sources()
    ]  # fmt: skip


def load_endpoints(ctx: AppContext, parent: QWidget, success: Success) -> EngineOp:
    """Every data-source endpoint with its state, last good answer and last error."""
    return ctx.op(_source_rows, success, parent=parent)


def change_endpoint(
    ctx: AppContext,
    parent: QWidget,
    name: str,
    *,
    base_url: str | None = None,
    enabled: bool | None = None,
    order: int | None = None,
    success: Success,
    failure: Failure,
) -> EngineOp:
    """Change endpoint `name` as `stockbench data sources set NAME` does (base URL: '' restores the declared one;
    enabled; order: its place in its service), each None kept, then the rows."""

    def run(bench: Workbench) -> list[SourceRow]:
        bench.data.sources.change(name, base_url=base_url, enabled=enabled, order=order)
        return _source_rows(bench)

    return ctx.op(run, success, failure=failure, parent=parent)


# ---- fees --------------------------------------------------------------------------------------------------------
def _fees(bench: Workbench) -> list[FeeView]:
    now = bench.clock.now()
    return [
        FeeView(a.name, m, s.commission_rate, s.commission_min, s.bundled_exchange_fees)
        for a in bench.ledger.accounts() for m in a.markets if m in FEE_MARKETS
        for s in [bench.ledger.fee_settings(a.name, m, now)]
    ]  # fmt: skip


def load_fees(ctx: AppContext, parent: QWidget, success: Success) -> EngineOp:
    """The commission terms in force now, per account and market."""
    return ctx.op(_fees, success, parent=parent)


def save_fees(ctx: AppContext, parent: QWidget, view: FeeView, success: Success, failure: Failure) -> EngineOp:
    """New commission terms for `view`'s account and market, from now on."""

    def save(bench: Workbench) -> None:
        bench.ledger.set_fees(view.account, view.market, rate=view.rate, minimum=view.minimum, bundled=view.bundled)

    return ctx.op(save, success, failure=failure, parent=parent)


# ---- backups -----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BackupRow:
    """One complete backup as the page lists it."""

    name: str  # the file name, which `restore` takes
    taken_at: datetime  # aware (UTC)
    reason: str  # close, daily, migration, import, manual, restore
    bytes: int


@dataclass(frozen=True)
class BackupsView:
    """Where backups go (`chosen`: a folder the user picked, not the workspace's own) and those there, newest first."""

    folder: Path
    chosen: bool
    backups: tuple[BackupRow, ...]


def _backups_view(bench: Workbench) -> BackupsView:
    folder = bench.backup_folder()
    rows = tuple(BackupRow(b.path.name, b.taken_at, b.reason, b.bytes) for b in bench.backups())
    return BackupsView(folder, folder != bench.paths.backups, rows)


def load_backups(ctx: AppContext, parent: QWidget, success: Success) -> EngineOp:
    """The backup folder and the complete backups in it (a `BackupsView`)."""
    return ctx.op(_backups_view, success, parent=parent)


def take_backup(ctx: AppContext, parent: QWidget, success: Success, failure: Failure) -> EngineOp:
    """A backup by hand now (a `BackupRow`), kept by the retention rule like the others."""

    def take(bench: Workbench) -> BackupRow:
        taken = bench.backup("manual")
        return BackupRow(taken.path.name, taken.taken_at, taken.reason, taken.bytes)

    return ctx.op(take, success, failure=failure, parent=parent)


def choose_backup_folder(
    ctx: AppContext, parent: QWidget, folder: Path | None, success: Success, failure: Failure
) -> EngineOp:
    """Send later backups to `folder` (None: the workspace's own backups/); then the page's new `BackupsView`."""

    def choose(bench: Workbench) -> BackupsView:
        bench.choose_backup_folder(folder)
        return _backups_view(bench)

    return ctx.op(choose, success, failure=failure, parent=parent)
