"""The demo market's seed: instruments, sectors and indices read from `resources/demo/market.toml`.

The seed says what exists (codes, fictional names, listing dates, starting prices, share counts, name
changes and announced halts); the generator decides everything else from the seed number.
"""

from __future__ import annotations

import functools
import hashlib
import tomllib
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from stockbench.config import resources_dir
from stockbench.errors import InternalError
from stockbench.market.instruments import Instrument, SecurityType, identify

SEED_FOLDER = "demo"
SEED_FILE = "market.toml"
TEMPLATES_FILE = "announcements.toml"
DEMO_MARKS = ("示例", "DEMO")


@dataclass(frozen=True, slots=True)
class Sector:
    key: str
    name: str
    pe: float
    margin: float
    gross: float
    growth: float
    vol: float
    turnover: float
    beta: float
    asset_turnover: float
    equity_ratio: float
    payout: float
    season: tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class NameChange:
    """A later name from session `start`; `halt` is the one-session suspension before it takes effect."""

    start: date
    name: str
    halt: date | None
    kind: str  # other_risk | delisting_risk


@dataclass(frozen=True, slots=True)
class Halt:
    start: date
    sessions: int


@dataclass(frozen=True, slots=True)
class Bonus:
    year: int  # paid with the dividend on the fiscal year before `year`
    per10: Decimal


@dataclass(frozen=True, slots=True)
class SeedStock:
    instrument: Instrument
    name: str
    english: str
    sector: str
    list_date: date
    price: Decimal
    shares: int
    float_ratio: float
    lot: int | None
    loss_years: frozenset[int]
    names: tuple[NameChange, ...]
    halts: tuple[Halt, ...]
    bonus: tuple[Bonus, ...]

    @property
    def symbol(self) -> str:
        return self.instrument.symbol


@dataclass(frozen=True, slots=True)
class SeedIndex:
    instrument: Instrument
    name: str
    english: str
    sector: str  # "all" for the composite
    base: Decimal
    base_date: date

    @property
    def symbol(self) -> str:
        return self.instrument.symbol


@dataclass(frozen=True, slots=True)
class DemoSeed:
    number: int
    first_session: date
    last_session: date
    first_period: date
    company_suffix: str
    hk_company_suffix: str
    disclaimer: str
    sectors: dict[str, Sector]
    stocks: tuple[SeedStock, ...]
    indices: tuple[SeedIndex, ...]
    digest: str  # SHA-256 of the seed and announcement files: a changed seed means a rebuild


def seed_folder() -> Path:
    return resources_dir() / SEED_FOLDER


def _day(value: object) -> date:
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise InternalError(f"demo seed: {value!r} is not a date (YYYY-MM-DD)") from None


def _instrument(symbol: str, kind: SecurityType) -> Instrument:
    instrument = identify(symbol).instrument
    if instrument.symbol != symbol or instrument.security_type is not kind:
        raise InternalError(f"demo seed: {symbol} is not a canonical {kind.value} symbol")
    return instrument


def _fictional(*names: str) -> None:
    for name in names:
        if not any(mark in name for mark in DEMO_MARKS):
            raise InternalError(f"demo seed: the name {name!r} does not say it is a demo (示例 or DEMO)")


def _stock(row: dict[str, Any]) -> SeedStock:
    names = tuple(
        NameChange(_day(n["from"]), n["name"], _day(n["halt"]) if "halt" in n else None, n.get("kind", "other_risk"))
        for n in row.get("names", [])
    )
    _fictional(row["name"], row["english"], *(n.name for n in names))
    return SeedStock(
        instrument=_instrument(row["symbol"], SecurityType.STOCK),
        name=row["name"],
        english=row["english"],
        sector=row["sector"],
        list_date=_day(row["list_date"]),
        price=Decimal(row["price"]),
        shares=int(row["shares"]),
        float_ratio=float(row.get("float_ratio", 1.0)),
        lot=row.get("lot"),
        loss_years=frozenset(row.get("loss_years", [])),
        names=names,
        halts=tuple(Halt(_day(h["start"]), int(h["sessions"])) for h in row.get("halts", [])),
        bonus=tuple(Bonus(int(b["year"]), Decimal(b["per10"])) for b in row.get("bonus", [])),
    )


def _index(row: dict[str, Any]) -> SeedIndex:
    _fictional(row["name"], row["english"])
    return SeedIndex(
        _instrument(row["symbol"], SecurityType.INDEX),
        row["name"],
        row["english"],
        row["sector"],
        Decimal(row["base"]),
        _day(row["base_date"]),
    )


def _sector(key: str, row: dict[str, Any]) -> Sector:
    season = tuple(float(s) for s in row["season"])
    if len(season) != 4 or abs(sum(season) - 1) > 1e-9:
        raise InternalError(f"demo seed: sector {key} needs four seasonal shares adding up to 1")
    numbers = {k: float(v) for k, v in row.items() if k not in {"name", "season"}}
    return Sector(key=key, name=row["name"], season=season, **numbers)


@functools.cache
def load_seed(folder: Path | None = None) -> DemoSeed:
    """Read and check the demo seed (every name fictional, every symbol canonical, every sector known)."""
    folder = folder or seed_folder()
    raw = (folder / SEED_FILE).read_bytes()
    digest = hashlib.sha256(raw + (folder / TEMPLATES_FILE).read_bytes()).hexdigest()
    data = tomllib.loads(raw.decode("utf-8"))
    market = data["market"]
    sectors = {key: _sector(key, row) for key, row in data["sectors"].items()}
    stocks = tuple(_stock(row) for row in data["stock"])
    unknown = sorted({s.sector for s in stocks} - set(sectors))
    if unknown:
        raise InternalError(f"demo seed: unknown sector(s) {', '.join(unknown)}")
    return DemoSeed(
        number=int(market["seed"]),
        first_session=_day(market["first_session"]),
        last_session=_day(market["last_session"]),
        first_period=_day(market["first_period"]),
        company_suffix=market["company_suffix"],
        hk_company_suffix=market["hk_company_suffix"],
        disclaimer=market["disclaimer"],
        sectors=sectors,
        stocks=stocks,
        indices=tuple(_index(row) for row in data["index"]),
        digest=digest,
    )
