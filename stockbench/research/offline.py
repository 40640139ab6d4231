"""The offline rules model: the same interface as an LLM, no network, fully deterministic.

It reads the conversation it is given (the program's FACTS blocks, the current STAGE instruction, earlier
tool results) and answers with tool calls: the scene from rule defaults; BULL and BEAR arguments, the
diagnosis and the verdict from the program's states, backtest and baseline; judgments through the same
tools and gates as any model. Every number it writes is copied from a facts value and cites that block's
evidence, so its reports pass the number gate by construction, and they say they were produced without an LLM.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

from stockbench.analytics.position_states import ACTIONS
from stockbench.evidence.gates import order_fits
from stockbench.research import offline_prose as prose
from stockbench.research.backtest_argument import backtest_argument
from stockbench.research.blocks import AnalyticsFacts, Prepared, RunFacts, ZonesFact
from stockbench.research.conversation import current_stage, read_facts, tool_results
from stockbench.research.models import BasePort, Call, Reply
from stockbench.research.offline_continuity import continuity
from stockbench.research.wording import Language, has, say
from stockbench.research.wording.actions import action_word

LABEL = "离线规则模型（未使用大语言模型）"  # the Chinese edition of `label` (what a zh report's header names)
_UNTRUSTED = re.compile(r"<<<UNTRUSTED (?P<tag>ev-[0-9a-f]+ [0-9a-f]+)>>>\n(?P<body>.*?)\n<<<END UNTRUSTED (?P=tag)>>>",
                        re.DOTALL)  # fmt: skip
POSITIVE = frozenset({"strong_up", "up", "inflow", "leading", "low"})
NEGATIVE = frozenset({"strong_down", "down", "outflow", "lagging", "high", "extreme"})
Answer = tuple[str, dict[str, Any]]
# What a path does when the price enters the buy zone, by action (buy: buy in steps as planned; wait: assess
# again, since the baseline gave no buy and a price in the zone alone is no reason to build; hold: keep holding,
# since the baseline gave no add).
ON_BUY_ZONE = {"avoid": "path.recheck", "reduce": "path.recheck", "sell": "path.recheck", "hold": "path.hold_no_add",
               "add": "path.add_in_steps", "wait": "path.reassess"}  # fmt: skip


def _unwrapped(text: str) -> str:
    """The text between an untrusted block's delimiters (the program hands quote candidates over that way)."""
    match = _UNTRUSTED.search(text)
    return match["body"] if match else text


def _cite(text: str, *evidence: str | None) -> dict[str, Any]:
    return {"text": text, "evidence": [e for e in evidence if e]}


def _scene_rationale(prepare: Prepared, sector: str, language: Language) -> dict[str, Any]:
    """The scene's rationale: how the sector index and the peers were chosen, as the context block records it (a
    prepare block written before the context block gets the older general sentence)."""
    from stockbench.research.context import built_name

    inst, context = prepare.instrument, prepare.context
    name = inst.name or inst.symbol
    if context is None:
        return _cite(say("offline.scene", language, name=name), inst.evidence_id)
    if context.built is not None and context.built.symbol == sector:
        sector = f"{sector} {built_name(context.built, language)}"
    elif context.sector == sector and context.sector_name:
        sector = f"{sector} {context.sector_name}"
    basis = context.sector_basis if has(f"offline.scene.sector.{context.sector_basis}") else "none"
    peers = context.peer_basis if has(f"offline.scene.peers.{context.peer_basis}") else "none"
    text = say("offline.scene.chosen", language,
               sector=say(f"offline.scene.sector.{basis}", language, name=name, sector=sector),
               peers=say(f"offline.scene.peers.{peers}", language))  # fmt: skip
    return _cite(text, inst.evidence_id, context.evidence_id)


def label(language: Language) -> str:
    """How the offline model names itself in a report of `language`."""
    return say("offline.label", language)


def legal_action(analytics: AnalyticsFacts) -> str:
    """The baseline's direction when the position allows it now; else hold for a holder and wait otherwise (never
    hold with nothing held), whichever the position allows."""
    baseline, state = analytics.baseline, analytics.position_state
    direction = baseline.direction if baseline else "wait"
    allowed = state.actions if state else {}
    if not allowed:  # a block written before actions were tied to the position
        return direction if direction in ACTIONS else "wait"
    if direction in allowed:
        return direction
    fallbacks = ("hold", "wait") if state is not None and state.qty else ("wait", "avoid")
    return next((a for a in fallbacks if a in allowed), next(iter(allowed)))


class OfflineModel(BasePort):
    """Deterministic tool calls from the program's own results."""

    name = "offline"
    offline = True

    def complete(self, request: str, *, ceiling_left: Decimal | None) -> tuple[str, Decimal | None]:
        data = json.loads(request)
        messages: list[dict[str, Any]] = data["messages"]
        reply = self.answer(messages)
        return reply.to_json(), Decimal(0)

    def builders(self) -> Mapping[str, Callable[[RunFacts, dict[str, Any], dict[str, Any]], Answer]]:
        """The answer of each stage this model knows (a subclass adds its own)."""
        return {
            "scene": self._scene,
            "bull": lambda facts, spec, last: self._side(facts, "bull"),
            "bear": lambda facts, spec, last: self._side(facts, "bear"),
            "analyze": self._analyze,
            "decide": self._decide,
            "report": self._report,
            "publish_fix": self._report,
        }

    def answer(self, messages: list[dict[str, Any]]) -> Reply:
        stage = current_stage(messages)
        if stage is None:
            return Reply("", ())
        name, spec = stage
        facts = RunFacts.of(read_facts(messages))
        previous = [r for n, r in tool_results(messages) if n.startswith("submit_")]
        last = previous[-1] if previous else {}
        turn = sum(1 for m in messages if m.get("role") == "assistant")
        builder = self.builders().get(name)
        if builder is None:
            return Reply(say("offline.no_rule", facts.language, label=label(facts.language), stage=name), ())
        tool, arguments = builder(facts, spec, last)
        return Reply(
            "",
            (Call(f"call_{turn + 1}", tool, json.dumps(arguments, ensure_ascii=False), arguments, None),),
            model="offline",
        )

    # ---- stages ------------------------------------------------------------------------------------
    def _scene(self, facts: RunFacts, spec: dict[str, Any], last: dict[str, Any]) -> Answer:
        prepare = facts.prepare
        assert prepare is not None
        inst = prepare.instrument
        reading = [a.id for a in prepare.announcements if a.thesis_level][:3]
        reading += [a.id for a in prepare.announcements if a.id not in reading][: 3 - len(reading)]
        sector = prepare.sector_default or (prepare.sector_candidates or (inst.symbol,))[0]
        return "submit_scene", {
            "sector_index": sector,
            "overseas_bound": inst.market == "HK",
            "international_anchors": list(prepare.anchor_defaults),
            "peers": list(prepare.peer_candidates[:3]),
            "search_terms": [],
            "announcements_to_read": reading,
            "rationale": _scene_rationale(prepare, sector, facts.language),
        }

    @staticmethod
    def _arguments(facts: RunFacts, side: str) -> list[dict[str, Any]]:
        """Every fact of the run that argues for `side`, each citing the block its numbers come from."""
        found = prose.arguments(prose.Reading.of(facts), side)
        backtest = (facts.analytics or AnalyticsFacts()).backtest
        cited = backtest_argument(backtest, "bull" if side == "bull" else "bear", facts.language)
        if backtest is not None and cited is not None:  # only when the signal fires, beside the base rate
            found.append(_cite(cited, backtest.evidence_id))
        return found

    def _side(self, facts: RunFacts, side: str) -> Answer:
        return "submit_arguments", {
            "side": side,
            "arguments": self._arguments(facts, side),
        }

    def _analyze(self, facts: RunFacts, spec: dict[str, Any], last: dict[str, Any]) -> Answer:
        summary, chain = prose.diagnosis(prose.Reading.of(facts))
        documents = facts.collect.documents if facts.collect else ()
        quotes = [{"text": _unwrapped(d.quote), "evidence_id": d.evidence_id} for d in documents if d.quote]
        return "submit_diagnosis", {
            "summary": summary,
            "causal_chain": chain,
            "claims": [],
            "quotes": quotes[:2],
        }

    def _decide(self, facts: RunFacts, spec: dict[str, Any], last: dict[str, Any]) -> Answer:
        analytics = facts.analytics or AnalyticsFacts()
        prepare = facts.prepare
        assert prepare is not None
        debate = facts.raw.get("debate", {})
        bear = list((debate.get("bear") or {}).get("arguments", []))
        baseline = analytics.baseline
        direction = baseline.direction if baseline else "wait"
        ev_base = baseline.evidence_id if baseline else None
        scenarios = analytics.scenarios
        action = legal_action(analytics)
        reading = prose.Reading.of(facts)
        judgments: dict[str, Any] = {
            "risks": self._risks(reading, bear),
            "debate_verdict": prose.verdict(reading, action),
            "position_state": self._position_state(analytics, action),
            "zones": {"accept_program_zones": True, "reason": reading.say("zones_reason")},
            "scenarios": [
                {"name": s.name, "probability": format(s.probability, "f"), "narrative": s.description or s.name}
                for s in (scenarios.items if scenarios else ())
            ],
            "continuity": continuity(reading, prepare.previous_report, prepare.previous_refused, action),
            "paths": self._paths(analytics.zones, action, facts.language),
            "open_orders": self._open_orders(facts, action),
            "action": {"action": action, "why": _cite(self._why(direction, action, facts.language), ev_base)},
        }
        if prepare.gaps:
            judgments["gaps"] = [{"gap": g, "disclosure": self._disclosure(reading, g)} for g in prepare.gaps]
        if last.get("accepted") is False:
            judgments = self._repair(judgments, last)
        return "submit_judgments", judgments

    @staticmethod
    def _risks(reading: prose.Reading, bear: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The run's specific risks, then any BEAR argument they do not already state."""
        found = prose.risks(reading)
        stated = {r["text"] for r in found}
        return found + [dict(a) for a in bear if a.get("text") not in stated]

    @staticmethod
    def _disclosure(reading: prose.Reading, gap: str) -> str:
        words = say(f"gap.{gap}" if has(f"gap.{gap}") else "gap.other", reading.language)
        return reading.say("gap_disclosure", gate=reading.term("gate", gap), words=words)

    @staticmethod
    def _open_orders(facts: RunFacts, action: str) -> list[dict[str, Any]]:
        """KEEP an order inside its side's new zone that the call goes with, else CANCEL it (the handbook, 11.3): a
        buy order only under buy or add (a hold, a wait or an avoid buys nothing now; a hold kept the open buy in its
        buy zone while its path said not to add), a sell order only where something is held (not under wait or
        avoid)."""
        zones, language = facts.zones, facts.language
        found = []
        for order in facts.open_orders:
            fits = order_fits(order.side, action)
            inside = zones is not None and zones.band(order.side).holds(order.price)
            if not fits:
                key = "offline.order.no_buy" if order.side == "buy" else "offline.order.no_sell"
                reason = say(key, language, action=action_word(action, language))
            else:
                reason = say("offline.order.KEEP" if inside else "offline.order.CANCEL", language)
            found.append(
                {
                    "order_id": order.order_id,
                    "decision": "KEEP" if inside and fits else "CANCEL",
                    "new_price": None,
                    "reason": reason,
                }
            )
        return found

    @staticmethod
    def _position_state(analytics: AnalyticsFacts, action: str) -> str:
        """A state the action goes with now: the program's suggestion when it is one, else watching when flat,
        else staying put (a block written before actions were tied to states: the states allowed)."""
        state = analytics.position_state
        allowed = list(state.allowed) if state and state.allowed else ["watching"]
        states = list(state.actions.get(action, ())) if state and state.actions else []
        suggested = state.suggested if state else None
        acting = {"building": {"buy", "add"}, "reducing": {"reduce", "sell"}, "exited": {"sell"}}
        if states:
            allowed = states
        current = state.current if state else None
        if suggested != current and suggested in allowed and action in acting.get(str(suggested), {action}):
            return str(suggested)
        if current in {"no_position", "exited"} and "watching" in allowed:
            return "watching"
        return str(current) if current in allowed else allowed[0]

    @staticmethod
    def _why(direction: str, action: str, language: Language) -> str:
        if action == direction:
            return say("action.why.baseline", language, action=action_word(action, language))
        baseline, taken = action_word(direction, language), action_word(action, language)
        return say("action.why.not_allowed", language, baseline=baseline, action=taken)

    @staticmethod
    def _repair(judgments: dict[str, Any], last: dict[str, Any]) -> dict[str, Any]:
        """Drop the judgments a rejection names, keeping the rest, so the offline model never loops."""
        bad = {str(p.get("location", "")).split("[")[0].split(".")[0] for p in last.get("problems", [])}
        return {k: v for k, v in judgments.items() if k not in bad} or judgments

    @staticmethod
    def _paths(zones: ZonesFact | None, action: str, language: Language) -> list[dict[str, Any]]:
        """The plan's paths for `action`: under avoid the buy zone is a reason to research again, never to buy,
        and with nothing held there is nothing to sell (avoid has no sell path; wait's sell zone says not to chase
        and its stop that the plan's support failed)."""
        if zones is None:
            return [{"trigger": say("path.no_zones", language), "action": say("path.stay_out", language)}]
        entering = "path.in_buy" if zones.position == "in_buy" else "path.enter_buy"  # already inside: no "enters"
        buy = say(entering, language, low=zones.buy.low, high=zones.buy.high)
        on_buy = ON_BUY_ZONE.get(action, "path.buy_in_steps")
        if not zones.tradeable and on_buy in {"path.buy_in_steps", "path.add_in_steps"}:  # never buy a bad plan
            on_buy = "plan.path.not_tradeable"
        paths = [{"trigger": buy, "action": say(on_buy, language)}]
        if action == "avoid":
            return paths
        held = action != "wait"  # wait is a move of watching: nothing is held, so nothing is sold at either level
        sell = say("path.enter_sell", language, low=zones.sell.low, high=zones.sell.high)
        paths.append({"trigger": sell, "action": say("path.sell_in_steps" if held else "path.no_chase", language)})
        if zones.stop.price is not None:
            stop = say("path.close_below_stop", language, stop=zones.stop.price)
            paths.append({"trigger": stop, "action": say("path.stop_out" if held else "path.support_fails", language)})
        return paths

    def _report(self, facts: RunFacts, spec: dict[str, Any], last: dict[str, Any]) -> Answer:
        action = legal_action(facts.analytics or AnalyticsFacts())
        return "submit_report", prose.report_text(prose.Reading.of(facts), action)
