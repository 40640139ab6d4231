"""The offline rules model's prose, written from the run's own facts in the report's language.

What the model argues, risks, concludes and says about its previous report is read from the facts blocks
(`Reading`): the states and their inputs, the indicators, the price facts, the zones, the baseline, the
valuation, the data gaps and the path since the previous report. Each sentence states only numbers copied
from one block (shown at most at that block's precision) and cites that block's evidence, so the number gate
passes by construction; and each names its own run's states, levels and prices, so no sentence is shared by
every report. The words come from the catalogue (`offline.*` keys, stockbench.research.wording.report); the
continuity is written in stockbench.research.offline_continuity.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from stockbench.research.blocks import (
    BaselineFact,
    PriceFactsFact,
    RunFacts,
    ZonesFact,
    parse,
)
from stockbench.research.wording import Language, has, price, say

LONG = frozenset({"buy", "add", "hold"})
BEARISH = frozenset({"reduce", "sell", "avoid"})
UP = frozenset({"strong_up", "up"})
DOWN = frozenset({"strong_down", "down"})
_CENT = Decimal("0.01")


# ---- reading the facts ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _StateDetail:
    state: str | None = None
    inputs: Mapping[str, Decimal | None] = field(default_factory=dict)


@dataclass(frozen=True)
class _States:
    trend: _StateDetail = field(default_factory=_StateDetail)
    capital: _StateDetail = field(default_factory=_StateDetail)
    relative_strength: _StateDetail = field(default_factory=_StateDetail)
    volatility: _StateDetail = field(default_factory=_StateDetail)


@dataclass(frozen=True)
class _Indicators:
    values: Mapping[str, Decimal | None] = field(default_factory=dict)


@dataclass(frozen=True)
class _Metric:
    value: Decimal | None = None
    percentile: Decimal | None = None


@dataclass(frozen=True)
class Reading:
    """What the offline prose reads from a run's facts, with the evidence id of each block it reads."""

    language: Language
    name: str
    symbol: str
    close: Decimal | None = None
    close_block: str = "zones"  # the block the close is read from (the zones' last price, else the trend's inputs)
    trend: str = "unknown"
    capital: str = "unknown"
    relative: str = "unknown"
    volatility: str = "unknown"
    trend_inputs: Mapping[str, Decimal | None] = field(default_factory=dict)
    capital_inputs: Mapping[str, Decimal | None] = field(default_factory=dict)
    relative_inputs: Mapping[str, Decimal | None] = field(default_factory=dict)
    volatility_inputs: Mapping[str, Decimal | None] = field(default_factory=dict)
    indicators: Mapping[str, Decimal | None] = field(default_factory=dict)
    price: PriceFactsFact | None = None
    zones: ZonesFact | None = None
    baseline: BaselineFact | None = None
    pe: _Metric | None = None
    gaps: tuple[str, ...] = ()
    sector: str | None = None
    ev: Mapping[str, str] = field(default_factory=dict)  # block -> its evidence id

    @classmethod
    def of(cls, facts: RunFacts) -> Reading:
        raw = facts.raw.get("analytics") or {}
        analytics = facts.analytics
        prepare = facts.prepare
        states = parse(_States, raw["states"]) if raw.get("states") else _States()
        indicators = parse(_Indicators, raw["indicators"]).values if raw.get("indicators") else {}
        valuation = raw.get("valuation") or {}
        zones = facts.zones
        close = zones.last if zones and zones.last is not None else states.trend.inputs.get("close")
        name = prepare.instrument.name or prepare.instrument.symbol if prepare else ""
        ev = dict(analytics.evidence) if analytics else {}
        if prepare is not None and prepare.gates_evidence_id:
            ev["gates"] = prepare.gates_evidence_id
        if ev.get("price_facts"):
            ev["price"] = ev["price_facts"]
        return cls(
            language=facts.language,
            name=name,
            symbol=prepare.instrument.symbol if prepare else "",
            close=close,
            close_block="zones" if zones and zones.last is not None else "states",
            trend=states.trend.state or "unknown",
            capital=states.capital.state or "unknown",
            relative=states.relative_strength.state or "unknown",
            volatility=states.volatility.state or "unknown",
            trend_inputs=states.trend.inputs,
            capital_inputs=states.capital.inputs,
            relative_inputs=states.relative_strength.inputs,
            volatility_inputs=states.volatility.inputs,
            indicators=indicators,
            price=analytics.price if analytics else None,
            zones=zones,
            baseline=analytics.baseline if analytics else None,
            pe=parse(_Metric, valuation["pe_ttm"]) if isinstance(valuation.get("pe_ttm"), dict) else None,
            gaps=facts.gaps,
            sector=(facts.raw.get("collect") or {}).get("sector_index", {}).get("symbol"),
            ev=ev,
        )

    # ---- words -------------------------------------------------------------------------------------------------
    def say(self, key: str, **values: object) -> str:
        return say(f"offline.{key}", self.language, **values)

    def term(self, group: str, code: str | None) -> str:
        """A code's word in the report's language: the report glossary's (`state.trend.up`, `action.wait`,
        `position.in_buy`, `gate.financials`), else this model's own (`offline.term.anchor.swing_low`)."""
        code = code or "unknown"
        for key in (f"{group}.{code}", f"offline.term.{group}.{code}", f"state.{code}"):
            if has(key):
                return say(key, self.language)
        return code

    def cite(self, *blocks: str) -> list[str]:
        return [self.ev[b] for b in dict.fromkeys(blocks) if self.ev.get(b)]

    # ---- values ------------------------------------------------------------------------------------------------
    def ma(self, name: str) -> Decimal | None:
        return self.trend_inputs.get(name) or self.indicators.get(name)


def _percent(value: Decimal | None) -> str:
    """A fraction the facts hold (0.0312, to four places) as the percent people read (3.12, shown with "%")."""
    return format(((value or Decimal(0)) * 100).quantize(_CENT, ROUND_HALF_UP), "f")


def pct(value: Decimal) -> str:
    """A percentage's magnitude (the sentence says up or down)."""
    return format(abs(value).quantize(_CENT, ROUND_HALF_UP), "f")


def out_of_reach(zones: ZonesFact | None) -> str | None:
    """How far under the price the buy zone's top lies (its magnitude, in percent) when that puts the plan out of
    reach (the zones' reason buy_out_of_reach), else None: a plan that no price near this one can trade, so the text
    never tells the reader to wait for that zone."""
    if zones is None or "buy_out_of_reach" not in zones.reasons or zones.distance_pct.buy_high_pct is None:
        return None
    return pct(zones.distance_pct.buy_high_pct)


def _rel(reading: Reading, value: Decimal, other: Decimal) -> str:
    return reading.say("rel.above" if value > other else "rel.below" if value < other else "rel.at")


# ---- findings: the facts each side argues from ----------------------------------------------------------------
@dataclass(frozen=True)
class Finding:
    """One fact read for a side: its words (with the numbers of the blocks it cites), its weight, a label (words
    only: a report text may name it beside zone words) and its figure (the label with its key number)."""

    code: str
    weight: int
    text: str
    evidence: tuple[str, ...]
    label: str
    figure: str = ""

    def cited(self) -> dict[str, Any]:
        return {"text": self.text, "evidence": list(self.evidence)}


def _finding(reading: Reading, code: str, weight: int, blocks: Sequence[str], **values: object) -> Finding:
    """A finding in words; a sentence that states the close also cites the block the close is read from."""
    label = reading.say(f"label.{code}", **values) if has(f"offline.label.{code}") else ""
    figure = reading.say(f"figure.{code}", **values) if has(f"offline.figure.{code}") else label
    cited = (*blocks, reading.close_block) if "close" in values else tuple(blocks)
    text = reading.say(f"finding.{code}", **values)
    return Finding(code, weight, text, tuple(reading.cite(*cited)), label, figure)


def _trend_finding(reading: Reading, side: str) -> Finding | None:
    close, ma20, ma60 = reading.close, reading.ma("ma20"), reading.ma("ma60")
    wanted = UP if side == "bull" else DOWN
    if reading.trend not in wanted or close is None or ma20 is None or ma60 is None:
        return None
    weight = {"strong_up": 60, "up": 50, "strong_down": 90, "down": 80}[reading.trend]
    trend = reading.term("state.trend", reading.trend)
    return _finding(reading, "trend", weight, ("states", "indicators"), trend=trend, close=price(close),
                    ma20=price(ma20), ma60=price(ma60), rel_close=_rel(reading, close, ma60),
                    rel_ma20=_rel(reading, ma20, ma60))  # fmt: skip


def _zone_finding(reading: Reading, side: str) -> Finding | None:
    zones, close = reading.zones, reading.close
    if zones is None or close is None:
        return None
    basis = next((a for a in zones.sell.anchors if a.role == "basis"), None)
    based = reading.say("based_on", anchor=_anchor_word(reading, basis.id), price=price(basis.price)) if basis else ""
    found = {
        ("bear", "stop_hit"): ("stop_hit", 100, {"stop": price(zones.stop.price or zones.buy.low)}),
        ("bear", "above_sell"): ("above_sell", 75, {"high": price(zones.sell.high), "based": based}),
        ("bear", "in_sell"): ("in_sell", 70, {"low": price(zones.sell.low), "high": price(zones.sell.high),
                                              "based": based}),
        ("bull", "in_buy"): ("in_buy", 55, {"low": price(zones.buy.low), "high": price(zones.buy.high)}),
        ("bull", "below_buy"): ("below_buy", 45, {"low": price(zones.buy.low)}),
    }.get((side, zones.position or ""))  # fmt: skip
    if found is None:
        return None
    code, weight, values = found
    # a 52-week anchor's name carries a number of its own (52周高点): the price facts hold that range (range_weeks)
    weeks = basis is not None and "52w" in basis.id and code in ("above_sell", "in_sell")
    return _finding(reading, code, weight, ("zones", "price") if weeks else ("zones",), close=price(close), **values)


def _anchor_word(reading: Reading, anchor_id: str) -> str:
    """An anchor's name in words: its moving average by its sessions (ma20 -> 20日均线), else its kind
    (swing_high -> 波段高点)."""
    _, kind, name = [*anchor_id.split(":"), "", ""][:3]
    if kind == "ma" and name[2:].isdigit():
        return reading.say("term.anchor.ma", sessions=name[2:])
    return reading.term("anchor", kind)


def _long_average(reading: Reading, side: str) -> Finding | None:
    close = reading.close
    facts = reading.price
    ma250 = facts.ma250 if facts and facts.ma250 is not None else reading.indicators.get("ma250")
    if close is None or ma250 is None or close == ma250 or (close > ma250) != (side == "bull"):
        return None
    block = "price" if facts and facts.ma250 is not None else "indicators"
    distance = facts.ma250_distance_pct if facts else None
    if distance is not None:
        weight = min(int(abs(distance)), 65) if side == "bear" else 30
        return _finding(reading, f"ma250_{side}_pct", weight, (block,), close=price(close), ma250=price(ma250),
                        distance=pct(distance))  # fmt: skip
    return _finding(reading, f"ma250_{side}", 40 if side == "bear" else 30, (block,), close=price(close),
                    ma250=price(ma250))  # fmt: skip


def _extension(reading: Reading) -> Finding | None:
    """A close further above ma250 than the decision baseline's overheating limit (its `extension` check failed):
    the program's own rule calls it overheated, and a return to the long average would take a larger fall. A
    distance within the limit is the setup's healthy range, never a risk on its own."""
    facts, close, baseline = reading.price, reading.close, reading.baseline
    if facts is None or facts.ma250 is None or facts.ma250_distance_pct is None or close is None or baseline is None:
        return None
    failed = next((r for r in baseline.reasons if r.get("code") == "check_failed" and r.get("check") == "extension"),
                  None)  # fmt: skip
    if failed is None or failed.get("limit") is None:
        return None
    distance, limit = facts.ma250_distance_pct, format(Decimal(str(failed["limit"])).normalize(), "f")
    return _finding(reading, "ma250_extended", min(int(distance), 65), ("price", "baseline"), close=price(close),
                    ma250=price(facts.ma250), distance=pct(distance), limit=limit)  # fmt: skip


def _drawdown(reading: Reading) -> Finding | None:
    facts, close = reading.price, reading.close
    if facts is not None and facts.drawdown_pct is not None and facts.high_52w is not None and facts.drawdown_pct:
        weight = min(int(abs(facts.drawdown_pct)), 68)
        return _finding(reading, "drawdown_pct", weight, ("price",), high=price(facts.high_52w),
                        drawdown=pct(facts.drawdown_pct))  # fmt: skip
    high = reading.indicators.get("high_52w")
    if close is None or high is None or close >= high:
        return None
    return _finding(reading, "below_high", 35, ("indicators",), close=price(close), high=price(high))


def _special_treatment(reading: Reading) -> Finding | None:
    """A stock under special treatment on the session (its name *ST or ST): the weightiest risk there is for a
    delisting warning, and its daily price limit beside it (an ST stock at 5% moves, and exits, slower)."""
    facts = reading.price
    if facts is None or facts.special_treatment is None or facts.limit_pct is None:
        return None
    delisting = facts.special_treatment == "*ST"
    code, weight = ("special_delisting", 95) if delisting else ("special_other", 85)
    limit = format(facts.limit_pct.normalize(), "f")
    return _finding(reading, code, weight, ("price",), flag=facts.special_treatment, limit=limit)


def _volatility(reading: Reading, side: str) -> Finding | None:
    rank, atr = reading.volatility_inputs.get("atr_pct_rank"), reading.zones.atr14 if reading.zones else None
    wanted = {"high": 40, "extreme": 50} if side == "bear" else {"low": 20}
    if reading.volatility not in wanted or rank is None:
        return None
    state = reading.term("state.volatility", reading.volatility)
    shown = format(rank.quantize(_CENT, ROUND_HALF_UP), "f")
    return _finding(reading, "volatility", wanted[reading.volatility], ("states", "zones"), state=state,
                    rank=shown, atr=price(atr) if atr is not None else "-")  # fmt: skip


def _state_finding(reading: Reading, side: str) -> list[Finding]:
    found = []
    capital = {"bear": {"outflow": 45}, "bull": {"inflow": 40}}[side]
    flows = reading.capital_inputs
    if reading.capital in capital and flows.get("flow_short") is not None and flows.get("flow_long") is not None:
        found.append(_finding(reading, f"capital_{reading.capital}", capital[reading.capital], ("states",),
                              short=_percent(flows["flow_short"]), long=_percent(flows["flow_long"])))  # fmt: skip
    relative = {"bear": {"lagging": 35}, "bull": {"leading": 35}}[side]
    excess = reading.relative_inputs
    if reading.relative in relative and excess.get("rs_short") is not None and excess.get("rs_long") is not None:
        found.append(_finding(reading, f"relative_{reading.relative}", relative[reading.relative], ("states",),
                              sector=reading.sector or "-", short=_percent(excess["rs_short"]),
                              long=_percent(excess["rs_long"])))  # fmt: skip
    pe = reading.pe
    if pe is not None and pe.percentile is not None and pe.value is not None:
        high = side == "bear" and pe.percentile >= Decimal("0.8")
        low = side == "bull" and pe.percentile <= Decimal("0.2")
        if high or low:
            found.append(_finding(reading, f"valuation_{side}", 60 if high else 40, ("valuation",),
                                  pe=format(pe.value, "f"), percentile=format(pe.percentile, "f")))  # fmt: skip
    return found


def findings(reading: Reading, side: str) -> list[Finding]:
    """Every fact of the run that argues for `side` (bull or bear), the weightiest first."""
    found = [
        _trend_finding(reading, side),
        _zone_finding(reading, side),
        _long_average(reading, side),
        _special_treatment(reading) if side == "bear" else None,
        _drawdown(reading) if side == "bear" else None,
        _extension(reading) if side == "bear" else None,
        _volatility(reading, side),
    ]
    every = [f for f in found if f is not None] + _state_finding(reading, side)
    return sorted(every, key=lambda f: -f.weight)


def arguments(reading: Reading, side: str) -> list[dict[str, Any]]:
    """A sub-study's arguments: its side's findings, or (when the rules give it none) what the states do say."""
    found = [f.cited() for f in findings(reading, side)]
    return found or [_none_for(reading, side).cited()]


def _none_for(reading: Reading, side: str) -> Finding:
    close = price(reading.close) if reading.close is not None else "-"
    position = reading.term("position", reading.zones.position if reading.zones else None)
    return _finding(reading, f"none_{side}", 0, ("states", "zones"), trend=reading.term("state.trend", reading.trend),
                    capital=reading.term("state.capital", reading.capital), close=close, position=position)  # fmt: skip


# ---- risks ------------------------------------------------------------------------------------------------------
def price_risk(reading: Reading) -> Finding | None:
    """The stop and what its hit means: always a risk when the zones have a stop."""
    zones, close = reading.zones, reading.close
    if zones is None or zones.stop.price is None or close is None:
        return None
    atr = price(zones.atr14) if zones.atr14 is not None else "-"
    return _finding(reading, "stop", 10, ("zones",), stop=price(zones.stop.price), close=price(close), atr=atr)


def gap_risks(reading: Reading) -> list[Finding]:
    """What each data gap leaves unchecked (a gap the catalogue does not know is named by its gate)."""
    found = []
    for gap in reading.gaps:
        words = say(f"gap.{gap}" if has(f"gap.{gap}") else "gap.other", reading.language)
        found.append(_finding(reading, "gap", 5, ("gates",), gate=reading.term("gate", gap), words=words))
    return found


def risks(reading: Reading) -> list[dict[str, Any]]:
    """The report's risks: the bear findings by weight, then the stop, then what the data gaps leave unchecked."""
    found = [*findings(reading, "bear"), price_risk(reading), *gap_risks(reading)]
    return [f.cited() for f in found if f is not None and f.evidence]


# ---- the verdict: the handbook's four questions ---------------------------------------------------------------
def verdict(reading: Reading, action: str) -> dict[str, Any]:
    """The four verdict questions answered from the run's facts (the opposition never overturns the program's
    call here: the offline model has no judgment beyond the rules)."""
    bear = findings(reading, "bear")
    strongest = bear[0] if bear else price_risk(reading) or _none_for(reading, "bear")
    return {
        "strongest_case_for_selling": strongest.cited(),
        "most_likely_wrong": _most_likely_wrong(reading, action).cited(),
        "conflicting_evidence": _conflict(reading, action, bear).cited(),
        "opposition_overturns": False,
        "explanation": _explanation(reading, action, strongest).cited(),
    }


def _most_likely_wrong(reading: Reading, action: str) -> Finding:
    close, ma60, zones = reading.close, reading.ma("ma60"), reading.zones
    word = reading.term("action", action)
    if close is not None and ma60 is not None and (reading.trend in UP or reading.trend in DOWN):
        rising = reading.trend in UP
        if action in LONG:
            code = "wrong.trend_long" if rising else "wrong.against_trend"
        else:
            code = "wrong.trend_flat_up" if rising else "wrong.trend_flat_down"
        return _finding(reading, code, 0, ("states", "indicators"), trend=reading.term("state.trend",
                        reading.trend), close=price(close), ma60=price(ma60), action=word)  # fmt: skip
    if zones is not None and zones.stop.price is not None and action in LONG:
        return _finding(reading, "wrong.support", 0, ("zones",), low=price(zones.buy.low), high=price(zones.buy.high),
                        stop=price(zones.stop.price), action=word)  # fmt: skip
    if zones is not None:
        return _finding(reading, "wrong.breakout", 0, ("zones",), high=price(zones.sell.high), action=word,
                        trend=reading.term("state.trend", reading.trend))  # fmt: skip
    return _finding(reading, "wrong.no_zones", 0, ("states",), trend=reading.term("state.trend", reading.trend),
                    action=word)  # fmt: skip


def _conflict(reading: Reading, action: str, bear: Sequence[Finding]) -> Finding:
    """The first conflict the facts show, and how this call weighs it."""
    close, zones = reading.close, reading.zones
    ma250 = reading.price.ma250 if reading.price and reading.price.ma250 is not None else reading.indicators.get(
        "ma250")  # fmt: skip
    trend = reading.term("state.trend", reading.trend)
    inside = zones is not None and zones.position == "in_buy"  # already in the buy zone: no "wait for it"
    far = out_of_reach(zones)  # out of a plan's reach: no "wait for it" either
    flat = "weigh.flat_in_buy" if inside else "weigh.flat_out_of_reach" if far else "weigh.flat"
    flat = "weigh.avoid" if flat == "weigh.flat" and action == "avoid" else flat
    weigh = reading.say(
        "weigh.long" if action in LONG else flat,
        stop=price(zones.stop.price) if zones and zones.stop.price is not None else "-",
        low=price(zones.buy.low) if zones else "-",
        high=price(zones.buy.high) if zones else "-",
        distance=far or "-",
    )
    if close is not None and ma250 is not None and reading.trend in UP and close < ma250:
        block = "price" if reading.price and reading.price.ma250 is not None else "indicators"
        return _finding(reading, "conflict.under_ma250", 0, ("states", block, "zones"), trend=trend,
                        close=price(close), ma250=price(ma250), weigh=weigh)  # fmt: skip
    position = zones.position if zones else None
    if zones is not None and close is not None and reading.trend in UP and position in {"in_sell", "above_sell"}:
        return _finding(reading, "conflict.up_in_sell", 0, ("states", "zones"), trend=trend, close=price(close),
                        low=price(zones.sell.low), high=price(zones.sell.high), weigh=weigh)  # fmt: skip
    if zones is not None and close is not None and reading.trend in DOWN and position in {"in_buy", "below_buy"}:
        return _finding(reading, "conflict.down_in_buy", 0, ("states", "zones"), trend=trend, close=price(close),
                        low=price(zones.buy.low), high=price(zones.buy.high), weigh=weigh)  # fmt: skip
    bull, zones_ev = findings(reading, "bull"), tuple(reading.cite("zones"))
    if bull and bear:
        evidence = tuple(dict.fromkeys((*bull[0].evidence, *bear[0].evidence, *zones_ev)))
        return Finding("conflict.sides", 0, reading.say("conflict.sides", bull=bull[0].text, bear=bear[0].text,
                       weigh=weigh), evidence, "")  # fmt: skip
    one = (bull or bear or [_none_for(reading, "bull")])[0]
    evidence = tuple(dict.fromkeys((*one.evidence, *zones_ev)))
    return Finding("conflict.none", 0, reading.say("conflict.none", fact=one.text, weigh=weigh), evidence, "")


def _explanation(reading: Reading, action: str, strongest: Finding) -> Finding:
    baseline = reading.baseline
    direction = reading.term("action", baseline.direction if baseline else None)
    confidence = format(baseline.confidence, "f") if baseline and baseline.confidence is not None else "-"
    zones = reading.zones
    stop = price(zones.stop.price) if zones and zones.stop.price is not None else "-"
    key = "explain.long" if action in LONG else "explain.flat"
    text = reading.say(key, name=reading.name, baseline=direction, confidence=confidence,
                       action=reading.term("action", action), strongest=strongest.figure, stop=stop)  # fmt: skip
    return Finding(key, 0, text, tuple(dict.fromkeys((*reading.cite("baseline", "zones"), *strongest.evidence))), "")


def what_to_do(reading: Reading, action: str) -> str:
    zones = reading.zones
    word = reading.term("action", action)
    if zones is None:
        return reading.say("todo.no_zones", action=word)
    stop = price(zones.stop.price) if zones.stop.price is not None else "-"
    key = f"todo.{action}" if has(f"offline.todo.{action}") else "todo.other"
    baseline = reading.baseline
    far = out_of_reach(zones)
    if action in ("wait", "avoid") and far is not None:
        key = f"todo.{action}_out_of_reach"  # no waiting for a zone no plan can reach
    elif action == "wait" and baseline is not None and baseline.capped and baseline.unknown:
        key = "todo.wait_unknown"  # the plan may be good; an unknown input is never a pass
    elif action == "wait" and zones.position == "in_buy":
        key = "todo.wait_in_buy"  # already in the buy zone: waiting is for the baseline, not for the price
    elif action == "avoid" and zones.position == "in_buy":
        key = "todo.avoid_in_buy"  # already in the buy zone: not "even if it returns there"
    unknown = "、" if reading.language == "zh" else ", "
    unknown = unknown.join(reading.term("baseline.check", u) for u in (baseline.unknown if baseline else ()))
    return reading.say(key, action=word, unknown=unknown, distance=far or "-",
                       buy_low=price(zones.buy.low), buy_high=price(zones.buy.high), sell_low=price(zones.sell.low),
                       sell_high=price(zones.sell.high), stop=stop)  # fmt: skip


# ---- the diagnosis and the report's texts ----------------------------------------------------------------------
def diagnosis(reading: Reading) -> tuple[str, list[dict[str, Any]]]:
    """The diagnosis summary and its causal chain (each link cites the block it reads)."""
    close = price(reading.close) if reading.close is not None else "-"
    trend, capital = reading.term("state.trend", reading.trend), reading.term("state.capital", reading.capital)
    baseline = reading.baseline
    direction = reading.term("action", baseline.direction if baseline else None)
    confidence = format(baseline.confidence, "f") if baseline and baseline.confidence is not None else "-"
    ma20, ma60 = reading.ma("ma20"), reading.ma("ma60")
    chain = [
        _finding(reading, "chain.trend", 0, ("states",), close=close, trend=trend,
                 ma20=price(ma20) if ma20 is not None else "-", ma60=price(ma60) if ma60 is not None else "-"),
        _finding(reading, "chain.capital" if reading.capital != "unknown" else "chain.capital_unknown", 0,
                 ("states",), capital=capital),
        _finding(reading, "chain.baseline", 0, ("baseline",), baseline=direction, confidence=confidence),
    ]  # fmt: skip
    summary = reading.say("summary", name=reading.name, close=close, trend=trend, capital=capital,
                          baseline=direction)  # fmt: skip
    return summary, [c.cited() for c in chain if c.evidence]


def report_text(reading: Reading, action: str) -> dict[str, Any]:
    """The title, the conclusion and the three answers."""
    zones = reading.zones
    word = reading.term("action", action)
    position = reading.term("position", zones.position if zones else None)
    reason = reading.say("title_reason", trend=reading.term("state.trend", reading.trend), position=position)
    bear = findings(reading, "bear")
    baseline = reading.baseline
    confidence = format(baseline.confidence, "f") if baseline and baseline.confidence is not None else "-"
    main_risk = bear[0].label if bear else reading.say("label.stop")
    levels = {"buy_low": "-", "buy_high": "-", "sell_low": "-", "sell_high": "-", "stop": "-"}
    if zones is not None:
        levels = {"buy_low": price(zones.buy.low), "buy_high": price(zones.buy.high),
                  "sell_low": price(zones.sell.low), "sell_high": price(zones.sell.high),
                  "stop": price(zones.stop.price) if zones.stop.price is not None else "-"}  # fmt: skip
    change = "change.long" if action in LONG else "change.flat"
    if change == "change.flat" and zones is not None and zones.position == "in_buy":
        change = "change.flat_in_buy"  # already in the buy zone: a return to it is no change
    elif change == "change.flat" and out_of_reach(zones) is not None:
        change = "change.flat_out_of_reach"  # a zone out of reach: new zones, not a return to it
    elif change == "change.flat" and action == "avoid":
        change = "change.avoid"  # an avoid waits for no zone: the baseline must change
    return {
        "title": reading.say("title", name=reading.name, symbol=reading.symbol, action=word, reason=reason),
        "conclusion": reading.say(
            "conclusion",
            name=reading.name,
            action=word,
            baseline=reading.term("action", baseline.direction if baseline else None),
            confidence=confidence,
            risk=main_risk,
        ),
        "what_to_do_now": what_to_do(reading, action),
        "what_would_change_my_mind": reading.say(
            change if zones is not None else "change.no_zones",
            trend=reading.term("state.trend", reading.trend),
            distance=out_of_reach(zones) or "-",
            **levels,
        ),
        "what_to_watch": reading.say("watch" if zones is not None else "watch.no_zones", position=position, **levels),
    }
