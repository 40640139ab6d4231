"""The analytics rule tables (resources/rule_tables.toml): named, versioned, quotable thresholds for states,
the factor score, the backtest, the decision baseline, scenarios, sizing and zones.

Code never hard-codes a threshold: it reads a table here and cites it as "<name> v<version>".
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal

import polars as pl

from stockbench.config import resources_dir
from stockbench.errors import InternalError

RULE_TABLES_FILE = "rule_tables.toml"
Op = Literal[">", ">=", "<", "<="]
OPS: tuple[Op, ...] = (">", ">=", "<", "<=")
UNKNOWN = "unknown"
STATE_TABLES = ("trend", "capital", "relative_strength", "volatility")
OTHER_TABLES = ("backtest", "sample_confidence", "decision_baseline", "scenarios", "sizing", "zones")

# The indicator columns of stockbench/analytics/indicators.py that factor-score rules may name.
_PRICE_INPUTS = ("open", "high", "low", "close", "volume", "amount", "ma5", "ma10", "ma20", "ma60", "ma120", "ma250")
_EMA_INPUTS = ("ema5", "ema10", "ema12", "ema20", "ema26", "ema60", "ema120", "ema250")
_OSCILLATORS = ("macd_dif", "macd_dea", "macd_bar", "rsi6", "rsi12", "rsi24", "kdj_k", "kdj_d", "kdj_j")
_BANDS = ("boll_mid", "boll_up", "boll_low", "atr14", "obv", "vol_ratio", "high_52w", "low_52w", "drawdown")
INDICATOR_INPUTS = frozenset((*_PRICE_INPUTS, *_EMA_INPUTS, *_OSCILLATORS, *_BANDS))


@dataclass(frozen=True, slots=True)
class Condition:
    """`left op right`: right is an input name or a number."""

    left: str
    op: Op
    right: str | float

    @classmethod
    def parse(cls, text: str, where: str) -> Condition:
        parts = text.split()
        if len(parts) != 3 or parts[1] not in OPS:
            raise InternalError(f"{where}: condition {text!r} is not '<input> <op> <input or number>'")
        try:
            right: str | float = float(parts[2])
        except ValueError:
            right = parts[2]
        op: Op = parts[1]
        return cls(parts[0], op, right)

    @property
    def inputs(self) -> tuple[str, ...]:
        return (self.left,) if isinstance(self.right, float) else (self.left, self.right)

    def expr(self) -> pl.Expr:
        """True where the condition holds; null where an input is null."""
        left = pl.col(self.left)
        right = pl.lit(self.right) if isinstance(self.right, float) else pl.col(self.right)
        compare = {">": left > right, ">=": left >= right, "<": left < right, "<=": left <= right}
        return compare[self.op]

    def holds(self, values: Mapping[str, float | None]) -> bool:
        """The condition evaluated on plain values (False when an input is missing)."""
        left = values.get(self.left)
        right = self.right if isinstance(self.right, float) else values.get(self.right)
        if left is None or right is None:
            return False
        return {">": left > right, ">=": left >= right, "<": left < right, "<=": left <= right}[self.op]

    def text(self) -> str:
        right = f"{self.right:g}" if isinstance(self.right, float) else self.right
        return f"{self.left} {self.op} {right}"


def _all(conditions: tuple[Condition, ...]) -> pl.Expr:
    """All conditions hold (null inputs count as not holding)."""
    expr = pl.lit(True)
    for condition in conditions:
        expr = expr & condition.expr().fill_null(False)
    return expr


@dataclass(frozen=True, slots=True)
class StateRule:
    """One row of a state table: the state given when every condition holds."""

    state: str
    when: tuple[Condition, ...]
    note: str

    def expr(self) -> pl.Expr:
        return _all(self.when)

    def text(self) -> str:
        return f"{self.state}: " + " and ".join(c.text() for c in self.when)


@dataclass(frozen=True, slots=True)
class StateTable:
    """A state classification table: ordered rules, a default state, and the inputs it needs."""

    name: str
    version: str
    description: str
    states: tuple[str, ...]
    default: str
    inputs: tuple[str, ...]
    requires: tuple[str, ...]
    rules: tuple[StateRule, ...]
    params: Mapping[str, int | float]

    def cite(self) -> str:
        return f"{self.name} v{self.version}"

    def param(self, key: str) -> int:
        return int(self.params[key])


@dataclass(frozen=True, slots=True)
class PointRule:
    """An indicator rule of the factor score: `points` when every condition holds."""

    name: str
    when: tuple[Condition, ...]
    points: float
    note: str

    def expr(self) -> pl.Expr:
        return _all(self.when)


@dataclass(frozen=True, slots=True)
class ScoreTable:
    """The factor score: points per state and per indicator rule, bounds, and when the buy signal fires."""

    name: str
    version: str
    description: str
    lower: float
    upper: float
    requires_known: tuple[str, ...]
    state_points: Mapping[str, Mapping[str, float]]
    indicator_points: tuple[PointRule, ...]
    fire_threshold: float
    fire_mode: Literal["cross"]
    cooldown: int

    def cite(self) -> str:
        return f"{self.name} v{self.version}"


@dataclass(frozen=True, slots=True)
class Table:
    """Any other table: name, version, description and its values as parsed from TOML."""

    name: str
    version: str
    description: str
    values: Mapping[str, Any]

    def cite(self) -> str:
        return f"{self.name} v{self.version}"

    def __getitem__(self, key: str) -> Any:
        try:
            return self.values[key]
        except KeyError:
            raise InternalError(f"rule table {self.cite()} has no {key!r}") from None

    def number(self, key: str) -> float:
        return float(self[key])

    def integer(self, key: str) -> int:
        return int(self[key])

    def decimal(self, key: str) -> Decimal:
        """An exact value (money, rates): written as a string or a number in the table."""
        return Decimal(str(self[key]))


@dataclass(frozen=True, slots=True)
class RuleBook:
    """Every analytics rule table, loaded once."""

    trend: StateTable
    capital: StateTable
    relative_strength: StateTable
    volatility: StateTable
    factor_score: ScoreTable
    backtest: Table
    sample_confidence: Table
    decision_baseline: Table
    scenarios: Table
    sizing: Table
    zones: Table
    path: Path

    def state_tables(self) -> tuple[StateTable, ...]:
        return (self.trend, self.capital, self.relative_strength, self.volatility)

    def versions(self) -> dict[str, str]:
        """name -> version of every table (recorded in calibration provenance and reports)."""
        tables: list[StateTable | ScoreTable | Table] = [*self.state_tables(), self.factor_score]
        tables += [self.backtest, self.sample_confidence, self.decision_baseline, self.scenarios]
        tables += [self.sizing, self.zones]
        return {t.name: t.version for t in tables}

    def sample_cap(self, trades: int) -> float:
        """The confidence cap for a backtest resting on `trades` completed trades."""
        for row in sorted(self.sample_confidence["caps"], key=lambda r: int(r["below"])):
            if trades < int(row["below"]):
                return float(row["cap"])
        return 1.0


def _head(raw: Mapping[str, Any], key: str) -> tuple[str, str, str]:
    for field in ("name", "version", "description"):
        if not str(raw.get(field, "")).strip():
            raise InternalError(f"rule table [{key}] has no {field}")
    if raw["name"] != key:
        raise InternalError(f"rule table [{key}] is named {raw['name']!r}")
    return str(raw["name"]), str(raw["version"]), str(raw["description"])


def _conditions(texts: list[str], where: str, allowed: frozenset[str]) -> tuple[Condition, ...]:
    found = tuple(Condition.parse(t, where) for t in texts)
    unknown = sorted({i for c in found for i in c.inputs} - allowed)
    if unknown or not found:
        raise InternalError(f"{where}: no conditions, or unknown inputs {', '.join(unknown)}")
    return found


def _state_table(raw: Mapping[str, Any], key: str) -> StateTable:
    name, version, description = _head(raw, key)
    states, inputs = tuple(raw["states"]), tuple(raw["inputs"])
    rules = tuple(
        StateRule(r["state"], _conditions(r["when"], f"{key} rule {i}", frozenset(inputs)), str(r.get("note", "")))
        for i, r in enumerate(raw["rules"])
    )
    wrong = ({r.state for r in rules} | {raw["default"]}) - set(states)
    if wrong or UNKNOWN not in states or not set(raw["requires"]) <= set(inputs):
        raise InternalError(f"rule table [{key}]: bad states {sorted(wrong)} or requires outside inputs")
    return StateTable(
        name,
        version,
        description,
        states,
        raw["default"],
        inputs,
        tuple(raw["requires"]),
        rules,
        dict(raw.get("params", {})),
    )


def _score_table(raw: Mapping[str, Any], states: Mapping[str, StateTable]) -> ScoreTable:
    name, version, description = _head(raw, "factor_score")
    points = {k: {s: float(p) for s, p in v.items()} for k, v in raw["state_points"].items()}
    for key, table in states.items():
        if set(points.get(key, {})) != set(table.states):
            raise InternalError(f"factor_score: state_points.{key} must give points for every {key} state")
    rules = tuple(
        PointRule(
            r["name"],
            _conditions(r["when"], f"factor_score rule {r['name']}", INDICATOR_INPUTS),
            float(r["points"]),
            str(r.get("note", "")),
        )
        for r in raw["indicator_points"]
    )
    if raw["fire_mode"] != "cross" or not set(raw["requires_known"]) <= set(states):
        raise InternalError("factor_score: fire_mode must be 'cross' and requires_known name state tables")
    return ScoreTable(
        name,
        version,
        description,
        float(raw["lower"]),
        float(raw["upper"]),
        tuple(raw["requires_known"]),
        points,
        rules,
        float(raw["fire_threshold"]),
        "cross",
        int(raw["cooldown"]),
    )


def _table(raw: Mapping[str, Any], key: str) -> Table:
    name, version, description = _head(raw, key)
    values = {k: v for k, v in raw.items() if k not in ("name", "version", "description")}
    return Table(name, version, description, values)


def parse_rule_tables(raw: Mapping[str, Any], path: Path) -> RuleBook:
    """Build and validate the rule book from parsed TOML."""
    try:
        states = {key: _state_table(raw[key], key) for key in STATE_TABLES}
        table = {key: _table(raw[key], key) for key in OTHER_TABLES}
        return RuleBook(
            states["trend"],
            states["capital"],
            states["relative_strength"],
            states["volatility"],
            _score_table(raw["factor_score"], states),
            table["backtest"],
            table["sample_confidence"],
            table["decision_baseline"],
            table["scenarios"],
            table["sizing"],
            table["zones"],
            path,
        )
    except (KeyError, TypeError, ValueError) as error:
        raise InternalError(f"rule tables {path} are malformed: {type(error).__name__}: {error}") from error


@functools.cache
def load_rule_tables(path: Path | None = None) -> RuleBook:
    """The analytics rule tables (resources/rule_tables.toml by default), parsed and validated once per process."""
    path = path or resources_dir() / RULE_TABLES_FILE
    try:
        with path.open("rb") as handle:
            raw = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise InternalError(f"cannot read the analytics rule tables {path}: {error}") from error
    return parse_rule_tables(raw, path)
