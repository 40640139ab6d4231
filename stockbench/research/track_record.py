"""The track record: how published calls turned out once their horizon passed, against the benchmark index.

A call is a published report: its action, its scenario probabilities, and the facts its run computed (the
as-of session, the scenario horizon and the band that counts as a move, 0.5 x ATR% x sqrt(horizon) by the
scenarios rule table). It matures `horizon` exchange sessions after its as-of session. The realised return is
taken on forward-adjusted closes (dividends and bonus issues are no loss), the stock's last close standing in
on a suspended exit day. Hit rules by action (excess = stock return - benchmark return):
    buy, add                  hit when the stock beat the benchmark (excess > 0)
    reduce, sell, avoid       hit when it did not (excess <= 0)
    hold                      hit when it stayed within the call's own band of the benchmark (|excess| < band)
Calibration: the multi-class Brier score of the report's up/sideways/down probabilities against the outcome
on the stock's own return (up: return >= band; down: <= -band), beside the Brier score of the calibrated
table's base rate (every session of the calibration file, whatever its states) and of the sample's own outcome
frequencies (a hindsight reference no forecaster could have had). Everything is point-in-time:
only reports published, and bars visible, at the clock count.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Literal

from stockbench.analytics.calibration import OUTCOMES
from stockbench.clock import Clock, Market, today_in
from stockbench.errors import UserError
from stockbench.market.instruments import parse_symbol
from stockbench.store.database import Database
from stockbench.store.settings import Settings

if TYPE_CHECKING:
    from stockbench.data.service import DataService
    from stockbench.market.calendars import TradingCalendar
    from stockbench.market.service import MarketRules

Status = Literal["matured", "pending", "unscored"]
ACTIONS = ("buy", "add", "hold", "reduce", "sell", "avoid")
RULES = {
    "buy": "beats the benchmark",
    "add": "beats the benchmark",
    "hold": "stays within the call's band of the benchmark",
    "reduce": "does not beat the benchmark",
    "sell": "does not beat the benchmark",
    "avoid": "does not beat the benchmark",
}
OFFICIAL_BENCHMARKS: dict[str, str] = {"CN": "000300.SH", "HK": "HSI.HK"}  # CSI 300, Hang Seng Index
FALLBACK_SETTING = "track_record.fallback_benchmark"  # {"CN": "SYMBOL"}: a labelled stand-in
COMPOSITE_SETTING = "research.sector_map"  # its market_index: the market's composite (the demo's)
PCT, RATE = Decimal("0.01"), Decimal("0.0001")
BINS = 10
RECENT = 5
Closes = Sequence[tuple[date, Decimal]]


@dataclass(frozen=True)
class Benchmark:
    """What calls in one market are measured against, and whether it is the official index."""

    market: str
    symbol: str | None
    name: str
    official: bool
    note: str

    def as_dict(self) -> dict[str, Any]:
        return {"symbol": self.symbol, "name": self.name, "official": self.official, "note": self.note}


@dataclass(frozen=True)
class Call:
    """A published report as the track record reads it."""

    report_id: str
    run_id: str
    symbol: str
    market: Market
    model: str
    action: str
    published_at: datetime
    replay: bool
    entry_day: date | None
    horizon: int
    band: Decimal | None
    probabilities: Mapping[str, Decimal]
    cost: Decimal
    cost_unknown: int = 0


@dataclass(frozen=True)
class Scored:
    """A call with what happened to it."""

    call: Call
    status: Status
    reason: str = ""
    exit_day: date | None = None
    stock_return: Decimal | None = None
    benchmark_return: Decimal | None = None
    suspended: bool = False
    outcome: str | None = None
    hit: bool | None = None

    @property
    def excess(self) -> Decimal | None:
        if self.stock_return is None or self.benchmark_return is None:
            return None
        return self.stock_return - self.benchmark_return

    def as_dict(self) -> dict[str, Any]:
        c = self.call
        return {
            "report_id": c.report_id,
            "run_id": c.run_id,
            "symbol": c.symbol,
            "model": c.model,
            "action": c.action,
            "entry_day": c.entry_day,
            "exit_day": self.exit_day,
            "horizon": c.horizon,
            "status": self.status,
            "reason": self.reason,
            "return_pct": _pct(self.stock_return),
            "benchmark_pct": _pct(self.benchmark_return),
            "excess_pct": _pct(self.excess),
            "band_pct": _pct(c.band),
            "suspended_at_exit": self.suspended,
            "outcome": self.outcome,
            "probabilities": {k: str(v) for k, v in c.probabilities.items()},
            "hit": self.hit,
        }


def _pct(value: Decimal | None) -> Decimal | None:
    return None if value is None else (value * 100).quantize(PCT)


def _mean(values: Sequence[Decimal]) -> Decimal | None:
    return sum(values, Decimal(0)) / len(values) if values else None


def _mean_of(values: Sequence[Decimal]) -> Decimal:
    """The mean of a non-empty sequence, to four places."""
    return (sum(values, Decimal(0)) / len(values)).quantize(RATE)


def _rate(part: int, whole: int) -> Decimal | None:
    return (Decimal(part) / whole).quantize(RATE) if whole else None


# ---- pure scoring ------------------------------------------------------------------------------------------
def close_on(closes: Closes, day: date) -> tuple[date, Decimal] | None:
    """The last (day, close) on or before `day` (`closes` in day order)."""
    found = None
    for bar_day, close in closes:
        if bar_day > day:
            break
        found = (bar_day, close)
    return found


def scenario_outcome(ret: Decimal, band: Decimal) -> str:
    """up, down or sideways by the scenarios rule table's definition."""
    return "up" if ret >= band else "down" if ret <= -band else "sideways"


def brier(probabilities: Mapping[str, Decimal], outcome: str) -> Decimal:
    """The multi-class Brier score: the sum over outcomes of (p - happened)^2 (0 is perfect, 2 the worst)."""
    return sum(((probabilities[o] - (1 if o == outcome else 0)) ** 2 for o in OUTCOMES), Decimal(0))


def judge(action: str, excess: Decimal | None, band: Decimal | None) -> bool | None:
    """Whether the action was right by the hit rules (None when it cannot be told)."""
    if excess is None:
        return None
    if action in {"buy", "add"}:
        return excess > 0
    if action in {"reduce", "sell", "avoid"}:
        return excess <= 0
    if action == "hold" and band is not None:
        return abs(excess) < band
    return None


def _relative(bench: Closes | None, entry: date, exit_day: date) -> tuple[Decimal | None, str]:
    if bench is None:
        return None, "no benchmark"
    start, end = close_on(bench, entry), close_on(bench, exit_day)
    if start is None or end is None or bench[-1][0] < exit_day:
        return None, "the benchmark's bars do not cover the call"
    return end[1] / start[1] - 1, ""


def score(call: Call, exit_day: date, today: date, stock: Closes, bench: Closes | None) -> Scored:
    """What happened to `call` by `today`, from the stock's and the benchmark's forward-adjusted closes."""
    assert call.entry_day is not None
    if exit_day > today:
        return Scored(call, "pending", f"the horizon ends on {exit_day}", exit_day)
    data_end = max([closes[-1][0] for closes in (stock, bench) if closes], default=None)
    if data_end is None or data_end < exit_day:
        return Scored(call, "pending", f"the bars end on {data_end}, before the horizon ends on {exit_day}", exit_day)
    start, end = close_on(stock, call.entry_day), close_on(stock, exit_day)
    if start is None or end is None or start[0] != call.entry_day:
        return Scored(call, "unscored", f"no close of {call.symbol} on its as-of session {call.entry_day}", exit_day)
    ret = end[1] / start[1] - 1
    bench_ret, note = _relative(bench, call.entry_day, exit_day)
    excess = None if bench_ret is None else ret - bench_ret
    return Scored(
        call,
        "matured",
        note,
        exit_day,
        ret,
        bench_ret,
        suspended=end[0] != exit_day,
        outcome=None if call.band is None else scenario_outcome(ret, call.band),
        hit=judge(call.action, excess, call.band),
    )


# ---- summaries -----------------------------------------------------------------------------------------------
def by_action(scored: Sequence[Scored]) -> dict[str, dict[str, Any]]:
    """Per action: matured calls, judged calls, hits, the hit rate and the mean returns in percent."""
    result = {}
    for action in ACTIONS:
        mine = [s for s in scored if s.status == "matured" and s.call.action == action]
        judged = [s for s in mine if s.hit is not None]
        hits = sum(1 for s in judged if s.hit)
        result[action] = {
            "calls": len(mine),
            "judged": len(judged),
            "hits": hits,
            "hit_rate": _rate(hits, len(judged)),
            "mean_return_pct": _pct(_mean([s.stock_return for s in mine if s.stock_return is not None])),
            "mean_benchmark_pct": _pct(_mean([s.benchmark_return for s in mine if s.benchmark_return is not None])),
            "mean_excess_pct": _pct(_mean([e for s in mine if (e := s.excess) is not None])),
            "rule": RULES[action],
        }
    return result


def calibration(scored: Sequence[Scored], base_rate: Mapping[str, Decimal]) -> dict[str, Any]:
    """Brier scores of the calls' scenario probabilities and of the base rate, with a reliability table."""
    usable = [s for s in scored if s.status == "matured" and s.outcome and set(s.call.probabilities) >= set(OUTCOMES)]
    n = len(usable)
    calls = _mean([brier(s.call.probabilities, str(s.outcome)) for s in usable])
    base = _mean([brier(base_rate, str(s.outcome)) for s in usable])
    skill = None if calls is None or not base else (1 - calls / base).quantize(RATE)
    observed: dict[str, Decimal] = {o: Decimal(sum(s.outcome == o for s in usable)) / n for o in OUTCOMES} if n else {}
    hindsight = _mean([brier(observed, str(s.outcome)) for s in usable])
    return {
        "n": n,
        "brier": None if calls is None else calls.quantize(RATE),
        "base_rate_brier": None if base is None else base.quantize(RATE),
        "skill": skill,
        "sample_rate_brier": None if hindsight is None else hindsight.quantize(RATE),
        "base_rate": {o: str(base_rate[o]) for o in OUTCOMES},
        "observed": {o: _rate(sum(1 for s in usable if s.outcome == o), n) for o in OUTCOMES},
        "mean_forecast": {o: _mean_of([s.call.probabilities[o] for s in usable]) if n else None for o in OUTCOMES},
        "reliability": reliability(usable),
    }


def reliability(usable: Sequence[Scored]) -> list[dict[str, Any]]:
    """Per outcome and forecast decile: calls, the mean forecast and how often the outcome happened."""
    bins: dict[tuple[str, int], list[tuple[Decimal, bool]]] = defaultdict(list)
    for s in usable:
        for o in OUTCOMES:
            p = s.call.probabilities[o]
            bins[(o, min(int(p * BINS), BINS - 1))].append((p, s.outcome == o))
    rows = []
    for (outcome, b), found in sorted(bins.items(), key=lambda x: (OUTCOMES.index(x[0][0]), x[0][1])):
        rows.append(
            {
                "outcome": outcome,
                "bin": f"{Decimal(b) / BINS:.1f}-{Decimal(b + 1) / BINS:.1f}",
                "n": len(found),
                "mean_forecast": _mean_of([p for p, _ in found]),
                "observed": _rate(sum(1 for _, hit in found if hit), len(found)),
            }
        )
    return rows


def costs(calls: Sequence[Call]) -> dict[str, Any]:
    """Model cost per report (from the journal), overall and by model."""
    models: dict[str, list[Call]] = defaultdict(list)
    for c in calls:
        models[c.model].append(c)

    def part(found: Sequence[Call]) -> dict[str, Any]:
        total = sum((c.cost for c in found), Decimal(0))
        return {
            "reports": len(found),
            "total": total,
            "per_report": (total / len(found)).quantize(Decimal("0.000001")) if found else None,
            "calls_of_unknown_cost": sum(c.cost_unknown for c in found),
        }

    return {**part(calls), "by_model": {m: part(found) for m, found in sorted(models.items())}}


@dataclass(frozen=True)
class TrackRecord:
    """Scored calls at one instant, with the benchmarks and base rate they were judged by."""

    as_of: datetime
    benchmarks: Mapping[str, Benchmark]
    scored: tuple[Scored, ...]
    base_rate: Mapping[str, Decimal]
    calibration_source: str
    filters: Mapping[str, Any] = field(default_factory=dict)

    def matured(self) -> list[Scored]:
        return [s for s in self.scored if s.status == "matured"]

    def summary(self) -> dict[str, Any]:
        """Counts, hit rates by action, calibration and cost (without the calls)."""
        actions = by_action(self.scored)
        judged = sum(a["judged"] for a in actions.values())
        counts = {k: sum(1 for s in self.scored if s.status == k) for k in ("matured", "pending", "unscored")}
        return {
            "as_of": self.as_of,
            "filters": dict(self.filters),
            "benchmarks": {m: b.as_dict() for m, b in self.benchmarks.items()},
            "counts": {"reports": len(self.scored), **counts, "replayed": sum(1 for s in self.scored if s.call.replay)},
            "hit_rate": _rate(sum(a["hits"] for a in actions.values()), judged),
            "by_action": actions,
            "calibration": {**calibration(self.scored, self.base_rate), "base_rate_source": self.calibration_source},
            "cost": costs([s.call for s in self.scored]),
        }

    def as_dict(self, *, calls: bool = True) -> dict[str, Any]:
        data = self.summary()
        if calls:
            data["calls"] = [s.as_dict() for s in self.scored]
        return data


def plain(value: Any) -> Any:
    """`value` with Decimals, dates and instants as strings (for a facts block)."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, date):
        return value.isoformat()
    return value


# ---- the service ---------------------------------------------------------------------------------------------
_CALLS = """
SELECT p.report_id, p.run_id, p.symbol, p.model, p.action, p.published_at, r.as_of IS NOT NULL, p.summary,
       json_extract_string(e.payload, '$.zones.as_of'), json_extract_string(e.payload, '$.states.day'),
       json_extract_string(e.payload, '$.scenarios.horizon'), json_extract_string(e.payload, '$.zones.atr14'),
       json_extract_string(e.payload, '$.zones.last')
FROM reports p JOIN runs r USING (run_id)
LEFT JOIN run_events e ON e.run_id = p.run_id AND e.key = 'preprocess/facts' AND e.phase = 'result'
WHERE p.published_at <= ? {where}
ORDER BY p.published_at, p.report_id
"""
_COSTS = """
SELECT run_id, coalesce(sum(cost), 0), count(*) FILTER (WHERE kind = 'model_call' AND cost IS NULL)
FROM run_events WHERE phase = 'result' AND run_id IN (SELECT run_id FROM reports WHERE TRUE {where}) GROUP BY run_id
"""


def base_rate() -> tuple[dict[str, Decimal], str]:
    """The calibrated table's base-rate probabilities, and where they came from."""
    from stockbench.analytics.scenarios import load_calibration

    table = load_calibration()
    cell = next(level for level in table["levels"] if not level["keys"])["cells"][0]
    source = table["provenance"]
    text = f"{source['data_file']} {source['first_day']}..{source['last_day']} ({cell['n']} session rows)"
    return {o: Decimal(str(cell["p"][o])) for o in OUTCOMES}, text


def _day(text: str | None) -> date | None:
    return date.fromisoformat(text) if text else None


def _probabilities(summary: str) -> dict[str, Decimal]:
    import json

    found = {s["name"]: Decimal(str(s["probability"])) for s in json.loads(summary).get("scenarios") or []}
    return found if set(found) >= set(OUTCOMES) else {}


class TrackRecords:
    """Track records of one workspace's published reports, at its clock."""

    def __init__(self, db: Database, clock: Clock, market: MarketRules, data: DataService) -> None:
        from stockbench.analytics.rule_tables import load_rule_tables

        self.db, self.clock, self.market, self.data = db, clock, market, data
        table = load_rule_tables().scenarios
        self._multiple, self._horizon = table.decimal("band_atr_multiple"), table.integer("horizon")
        self._closes: dict[str, list[tuple[date, Decimal]]] = {}
        self._calendars: dict[Market, TradingCalendar] = {}

    # ---- prices ----------------------------------------------------------------------------------------------
    def closes(self, symbol: str) -> list[tuple[date, Decimal]]:
        """`symbol`'s forward-adjusted closes visible at the clock, in day order (empty when there are none)."""
        if symbol not in self._closes:
            try:
                market = parse_symbol(symbol).market
                frame = self.data.cache.bars(symbol, end=today_in(self.clock, market), adjust="forward")
            except UserError:
                frame = None
            rows = [] if frame is None else frame.select("day", "close").iter_rows()
            self._closes[symbol] = [(d, Decimal(c)) for d, c in rows if c is not None]
        return self._closes[symbol]

    def _name(self, symbol: str) -> str:
        return self.market.registry.instrument(symbol).name or symbol

    def benchmark(self, market: str, explicit: str | None = None) -> Benchmark:
        """The official index when its bars are stored; else a labelled stand-in; else none (and why)."""
        official = OFFICIAL_BENCHMARKS.get(market)
        if explicit:
            symbol = parse_symbol(explicit).symbol
            if not self.closes(symbol):
                return Benchmark(market, None, "", False, f"{symbol} has no bars in this workspace")
            note = "" if symbol == official else f"chosen by the user; the official benchmark is {official}"
            return Benchmark(market, symbol, self._name(symbol), symbol == official, note)
        if official and self.closes(official):
            return Benchmark(market, official, self._name(official), True, "")
        missing = f"the official benchmark {official} has no bars in this workspace"
        settings = Settings(self.db)
        composite = ((settings.get(COMPOSITE_SETTING) or {}).get("market_index") or {}).get(market)
        stand_in = (settings.get(FALLBACK_SETTING) or {}).get(market) or composite
        if stand_in and self.closes(stand_in):
            name = self._name(stand_in)
            return Benchmark(market, stand_in, name, False, f"{missing}; measured against {stand_in} ({name}) instead")
        return Benchmark(market, None, "", False, f"{missing}: relative returns and hit rates are not computed")

    def remember(self, benchmark: str) -> Benchmark:
        """Store `benchmark` as the workspace's labelled stand-in for its market (when the official one is absent)."""
        instrument = parse_symbol(benchmark)
        settings = Settings(self.db)
        chosen = dict(settings.get(FALLBACK_SETTING) or {})
        chosen[instrument.market] = instrument.symbol
        settings.set(FALLBACK_SETTING, chosen)
        return self.benchmark(instrument.market)

    # ---- calls -----------------------------------------------------------------------------------------------
    def calls(
        self,
        *,
        symbol: str | None = None,
        model: str | None = None,
        run_ids: Iterable[str] | None = None,
        since: date | None = None,
        until: date | None = None,
    ) -> list[Call]:
        """Published reports visible at the clock, as calls (oldest first)."""
        chosen = {"symbol": parse_symbol(symbol).symbol if symbol else None, "model": model}
        params = [v for v in chosen.values() if v]
        columns = [k for k, v in chosen.items() if v]
        rows = self.db.fetchall(_CALLS.format(where="".join(f" AND p.{c} = ?" for c in columns)),
                                [self.clock.now(), *params])  # fmt: skip
        costs_sql = _COSTS.format(where="".join(f" AND {c} = ?" for c in columns))
        spent = {r[0]: (Decimal(r[1]), int(r[2])) for r in self.db.fetchall(costs_sql, params)}
        wanted = None if run_ids is None else set(run_ids)
        found = []
        for row in rows:
            call = self._call(row, spent.get(row[1], (Decimal(0), 0)))
            day = call.entry_day or call.published_at.date()
            if (wanted is None or call.run_id in wanted) and (since or day) <= day <= (until or day):
                found.append(call)
        return found

    def _call(self, row: tuple[Any, ...], spent: tuple[Decimal, int]) -> Call:
        report_id, run_id, symbol, model, action, published, replay, summary, zone_day, state_day, *rest = row
        horizon = int(rest[0]) if rest[0] else self._horizon
        atr, last = rest[1], rest[2]
        band = None
        if atr and last and Decimal(last) > 0:
            band = self._multiple * Decimal(atr) / Decimal(last) * Decimal(horizon).sqrt()
        return Call(
            report_id,
            run_id,
            symbol,
            parse_symbol(symbol).market,
            model,
            action,
            published,
            bool(replay),
            _day(zone_day or state_day),
            horizon,
            band,
            _probabilities(summary),
            *spent,
        )

    # ---- the record --------------------------------------------------------------------------------------------
    def compute(
        self,
        *,
        symbol: str | None = None,
        model: str | None = None,
        run_ids: Iterable[str] | None = None,
        since: date | None = None,
        until: date | None = None,
        benchmark: str | None = None,
    ) -> TrackRecord:
        """Every call chosen by the filters, scored at the clock."""
        calls = self.calls(symbol=symbol, model=model, run_ids=run_ids, since=since, until=until)
        markets = sorted({c.market for c in calls} or ({parse_symbol(symbol).market} if symbol else {"CN"}))
        benchmarks: dict[str, Benchmark] = {m: self.benchmark(m, benchmark) for m in markets}
        rate, source = base_rate()
        scored = tuple(self._score(c, benchmarks[c.market]) for c in calls)
        filters = {"symbol": symbol, "model": model, "since": since, "until": until, "benchmark": benchmark}
        return TrackRecord(self.clock.now(), benchmarks, scored, rate, source, filters)

    def _score(self, call: Call, benchmark: Benchmark) -> Scored:
        if call.entry_day is None:
            return Scored(call, "unscored", "the run computed no analytics (no as-of session)")
        try:
            if call.market not in self._calendars:
                self._calendars[call.market] = self.market.calendars.calendar(call.market)
            exit_day = self._calendars[call.market].session_offset(call.entry_day, call.horizon)
        except UserError as error:
            return Scored(call, "pending", error.message)
        bench = self.closes(benchmark.symbol) if benchmark.symbol else None
        found = score(call, exit_day, today_in(self.clock, call.market), self.closes(call.symbol), bench)
        if found.status == "matured" and bench is None:
            return replace(found, reason=benchmark.note)
        return found

    def facts(self, symbol: str) -> dict[str, Any]:
        """The `track_record` facts block for a run on `symbol`: the symbol's matured calls, program-computed."""
        record = self.compute(symbol=symbol)
        summary = record.summary()
        recent = [
            {k: s.as_dict()[k] for k in ("entry_day", "action", "return_pct", "excess_pct", "outcome", "hit")}
            for s in record.matured()[-RECENT:]
        ]
        calib = summary["calibration"]
        data = {
            "symbol": parse_symbol(symbol).symbol,
            "benchmark": next(iter(summary["benchmarks"].values()), None),
            "counts": summary["counts"],
            "hit_rate": summary["hit_rate"],
            "by_action": {
                a: {k: v for k, v in d.items() if k != "rule"} for a, d in summary["by_action"].items() if d["calls"]
            },
            "rules": RULES,
            "calibration": {k: calib[k] for k in ("n", "brier", "base_rate_brier", "skill")},
            "cost_per_report": summary["cost"]["per_report"],
            "recent": recent,
            "note": "程序按已到期的历史报告计算（收益为前复权收盘价，相对基准指数）；不是模型的判断。",
        }
        result: dict[str, Any] = plain(data)
        return result
