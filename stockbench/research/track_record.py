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
table's base rate (every session of the calibration file, whatever its states; for each call the table research
as of its entry day uses, built only from data before it) and of the sample's own outcome frequencies (a
hindsight reference no forecaster could have had). Everything is point-in-time:
only reports published, and bars visible, at the clock count.

This module reads the reports, bars and journals (`TrackRecords`); the arithmetic over what it reads is pure:
one call in track_scoring.py, the figures over many in track_summary.py (both re-exported here).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stockbench.analytics.calibration import OUTCOMES
from stockbench.analytics.calibration_tables import choose_table, stored_tables
from stockbench.clock import Clock, Market, today_in
from stockbench.errors import UserError
from stockbench.market.instruments import parse_symbol
from stockbench.research.track_scoring import RULES, Call, Scored, score
from stockbench.research.track_summary import OFFICIAL_BENCHMARKS, Benchmark, TrackRecord
from stockbench.store.database import Database
from stockbench.store.settings import FALLBACK_BENCHMARK, SECTOR_MAP, Settings

if TYPE_CHECKING:
    from stockbench.data.service import DataService
    from stockbench.market.calendars import TradingCalendar
    from stockbench.market.service import MarketRules

__all__ = ["TrackRecords", "base_rate", "point_in_time_rates"]

RECENT = 5


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


def base_rate(path: Path | None = None) -> tuple[dict[str, Decimal], str]:
    """A calibrated table's base-rate probabilities (the rule table's file by default), and where they came from."""
    from stockbench.analytics.scenarios import load_calibration

    table = load_calibration(path)
    cell = next(level for level in table["levels"] if not level["keys"])["cells"][0]
    source = table["provenance"]
    text = f"{source['data_file']} {source['first_day']}..{source['last_day']} ({cell['n']} session rows)"
    return {o: Decimal(str(cell["p"][o])) for o in OUTCOMES}, text


def point_in_time_rates(calls: Iterable[Call]) -> tuple[dict[str, dict[str, Decimal]], str]:
    """Each call's base rate from the table research as of its entry day would use (built only from data before
    it, see analytics/calibration_tables.py), keyed by report id, and a line naming the tables and how many calls
    each served (and how many had only a look-ahead table)."""
    from collections import Counter

    rates: dict[str, dict[str, Decimal]] = {}
    read: dict[Path, tuple[dict[str, Decimal], str]] = {}
    tables = stored_tables()  # once: every call chooses among the same stored tables
    used: Counter[tuple[Path, bool]] = Counter()
    for call in calls:
        chosen = choose_table(tables, call.entry_day)
        if chosen.path not in read:
            read[chosen.path] = base_rate(chosen.path)
        rates[call.report_id] = read[chosen.path][0]
        used[(chosen.path, chosen.look_ahead)] += 1
    ahead = " (look-ahead: no table ends before them)"
    parts = [f"{path.name}: {read[path][1]}, {n} call(s){ahead if looks else ''}"
             for (path, looks), n in sorted(used.items())]  # fmt: skip
    return rates, "point in time: " + ", ".join(parts) if parts else "point in time: no calls"


def _day(text: str | None) -> date | None:
    return date.fromisoformat(text) if text else None


def _probabilities(summary: str) -> dict[str, Decimal]:
    import json

    found = {s["name"]: Decimal(str(s["probability"])) for s in json.loads(summary).get("scenarios") or []}
    return found if set(found) >= set(OUTCOMES) else {}


def _baseline(summary: str) -> tuple[str | None, bool]:
    """The summary's baseline direction, and whether it was a buy candidate (a buy or add, or `capped`: only an
    unknown input held it back)."""
    import json

    found = json.loads(summary).get("baseline") or {}
    direction = found.get("direction")
    return direction, bool(found.get("capped")) or direction in {"buy", "add"}


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
        composite = (settings.get(SECTOR_MAP).get("market_index") or {}).get(market)  # the demo's composite
        stand_in = settings.get(FALLBACK_BENCHMARK).get(market) or composite
        if stand_in and self.closes(stand_in):
            name = self._name(stand_in)
            return Benchmark(market, stand_in, name, False, f"{missing}; measured against {stand_in} ({name}) instead")
        return Benchmark(market, None, "", False, f"{missing}: relative returns and hit rates are not computed")

    def remember(self, benchmark: str) -> Benchmark:
        """Store `benchmark` as the workspace's labelled stand-in for its market (when the official one is absent)."""
        instrument = parse_symbol(benchmark)
        settings = Settings(self.db)
        stored: dict[str, str] = settings.get(FALLBACK_BENCHMARK)
        chosen = dict(stored)
        chosen[instrument.market] = instrument.symbol
        settings.set(FALLBACK_BENCHMARK, chosen)
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
            *_baseline(summary),
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
        rate, _newest = base_rate(choose_table(stored_tables(), None).path)
        rates, source = point_in_time_rates(calls)
        scored = tuple(self._score(c, benchmarks[c.market]) for c in calls)
        filters = {"symbol": symbol, "model": model, "since": since, "until": until, "benchmark": benchmark}
        return TrackRecord(self.clock.now(), benchmarks, scored, rate, source, filters, rates)

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
        """The `track_record` facts block for a run on `symbol`: the symbol's matured calls, program-computed.

        Plain JSON (Decimals and dates as text): it becomes evidence the model reads.
        """
        record = self.compute(symbol=symbol)
        summary = record.summary()
        recent = [
            {k: s.as_dict()[k] for k in ("entry_day", "action", "return_pct", "excess_pct", "outcome", "hit")}
            for s in record.matured()[-RECENT:]
        ]
        calib = summary.calibration.as_dict()
        benchmark = next(iter(summary.benchmarks.values()), None)
        data = {
            "symbol": parse_symbol(symbol).symbol,
            "benchmark": None if benchmark is None else benchmark.as_dict(),
            "counts": summary.counts.as_dict(),
            "hit_rate": summary.hit_rate,
            "by_action": {
                a: {k: v for k, v in d.as_dict().items() if k != "rule"}
                for a, d in summary.by_action.items()
                if d.calls
            },
            "rules": RULES,
            "calibration": {k: calib[k] for k in ("n", "brier", "base_rate_brier", "skill")},
            "cost_per_report": summary.cost.per_report,
            "recent": recent,
            "note": "程序按已到期的历史报告计算（收益为前复权收盘价，相对基准指数）；不是模型的判断。",
        }
        result: dict[str, Any] = plain(data)
        return result
