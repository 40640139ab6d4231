"""The plan and cost contract of a run, made before anything is spent.

A plan lists the stages and tools and why, the data period, the estimated model cost and each stage's
fallback. A question run ("type my own question") is routed by rules, not by the model: the plan holds
only the stages, data and tools the question needs (a purely technical question fetches no announcements
and runs no search). A plan naming an unknown tool, over its ceiling, or unapproved is refused before
anything runs, with a record of why. An unknown price is never counted as zero.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from stockbench.errors import Problem
from stockbench.messages import problem
from stockbench.research.stages import STAGE_TOOLS, TOOL_NAMES
from stockbench.research.wording.entry import Language, language_of

ALL_STAGES = ("prepare", "scene", "collect", "preprocess", "analyze", "decide", "report", "publish")
ALL_DATA = ("quote", "bars", "financials", "announcements", "money_flow", "valuation")
# Model calls and tokens a stage typically needs (input tokens are mostly the cached shared prefix).
STAGE_CALLS = {"scene": 2, "analyze": 6, "decide": 4, "report": 1}
INPUT_TOKENS_PER_CALL = 30_000
OUTPUT_TOKENS_PER_CALL = 1_500
WHY = {
    "prepare": "clock, identity, ledger snapshot and data gates, fetched before the model says a word",
    "scene": "the model declares the sector index, anchors and peers the rest depends on",
    "collect": "the program fetches what the scene implies (sector index, peers, announcements to read)",
    "preprocess": "the program computes indicators, valuation, states, zones, backtest and scenarios",
    "analyze": "BULL and BEAR sub-studies on the same facts, then the diagnosis with its causal chain",
    "decide": "judgments submitted and checked at once; the program sizes the orders",
    "report": "the model writes the title, conclusion and three answers; the program composes the rest",
    "publish": "every gate in one pass, then the report is archived with its evidence",
}
ROUTES = {
    "technical": re.compile(
        r"均线|MACD|KDJ|RSI|BOLL|支撑|压力|阻力|技术|趋势|K线|量能|成交量|突破|买点|卖点|止损|"
        r"support|resistance|trend|chart|technical|breakout|stop",
        re.IGNORECASE,
    ),
    "fundamental": re.compile(
        r"财报|业绩|营收|收入|利润|毛利|现金流|ROE|基本面|earnings|revenue|profit|margin|"
        r"fundamental",
        re.IGNORECASE,
    ),
    "valuation": re.compile(r"估值|市盈率|市净率|PE|PB|贵不贵|便宜|valuation|cheap|expensive", re.IGNORECASE),
    "news": re.compile(r"公告|消息|新闻|政策|减持|增持|回购|重组|事件|announcement|news|policy|buyback", re.IGNORECASE),
    "position": re.compile(r"持仓|仓位|加仓|减仓|卖出|买入|补仓|止盈|position|add|reduce|sell|buy", re.IGNORECASE),
}
ROUTE_DATA = {
    "technical": {"quote", "bars", "money_flow"},
    "fundamental": {"quote", "bars", "financials"},
    "valuation": {"quote", "bars", "valuation", "financials"},
    "news": {"quote", "bars", "announcements"},
    "position": {"quote", "bars", "money_flow"},
}

CostEstimator = Callable[[str, int, int], Decimal | None]


@dataclass(frozen=True)
class Plan:
    kind: str
    model: str
    stages: tuple[str, ...]
    tools: tuple[str, ...]
    data: tuple[str, ...]
    why: dict[str, str]
    data_from: date
    data_to: date
    routes: tuple[str, ...]
    estimated_cost: Decimal | None
    fallback: dict[str, str]
    search: bool = False
    notes: tuple[str, ...] = field(default=())
    language: Language = "zh"  # the language the report is written in (plans made before it existed: Chinese)

    def to_json(self) -> str:
        data = asdict(self)
        return json.dumps(data, ensure_ascii=False, sort_keys=True, default=str)

    @classmethod
    def from_json(cls, text: str) -> Plan:
        data: dict[str, Any] = json.loads(text)
        cost = data.get("estimated_cost")
        return cls(
            kind=data["kind"],
            model=data["model"],
            stages=tuple(data["stages"]),
            tools=tuple(data["tools"]),
            data=tuple(data["data"]),
            why=dict(data["why"]),
            data_from=date.fromisoformat(data["data_from"]),
            data_to=date.fromisoformat(data["data_to"]),
            routes=tuple(data["routes"]),
            estimated_cost=None if cost is None else Decimal(cost),
            fallback=dict(data["fallback"]),
            search=bool(data.get("search", False)),
            notes=tuple(data.get("notes", ())),
            language=language_of(data.get("language", "zh")),
        )


def route(question: str | None) -> tuple[str, ...]:
    """The topics a question touches, by rule; an unrouted question gets the full method."""
    if not question:
        return ()
    return tuple(name for name, pattern in ROUTES.items() if pattern.search(question))


def build_plan(
    *,
    model: str,
    question: str | None,
    today: date,
    estimate: CostEstimator,
    fallback: str = "offline",
    search_available: bool = False,
    language: Language = "zh",
) -> Plan:
    routes = route(question)
    data = set(ALL_DATA)
    tools = {name for stage in STAGE_TOOLS.values() for name in stage}
    kind = "full"
    if routes:
        kind = "question"
        data = set().union(*(ROUTE_DATA[r] for r in routes))
        if "news" not in routes:
            tools -= {"documents_read", "search"}
    if not search_available:
        tools.discard("search")
    stages = ALL_STAGES
    calls = sum(STAGE_CALLS.values()) + 2  # plus BULL and BEAR
    cost = estimate(model, calls * INPUT_TOKENS_PER_CALL, calls * OUTPUT_TOKENS_PER_CALL)
    notes = () if search_available else ("no search provider is configured: search is unavailable",)
    return Plan(
        kind,
        model,
        stages,
        tuple(sorted(tools)),
        tuple(sorted(data)),
        {s: WHY[s] for s in stages},
        today - timedelta(days=5 * 365),
        today,
        routes,
        cost,
        dict.fromkeys(("scene", "analyze", "decide", "report"), fallback),
        search_available,
        notes,
        language,
    )


def plan_problems(plan: Plan, ceiling: Decimal | None, approved: bool) -> list[Problem]:
    """Why a plan may not run (empty when it may)."""
    problems = [problem("unknown_tool.plan", tool=t) for t in plan.tools if t not in TOOL_NAMES]
    problems += [problem("unknown_stage", stage=s) for s in plan.stages if s not in WHY]
    if ceiling is not None:
        if plan.estimated_cost is None:
            problems.append(problem("price_unknown", model=plan.model, ceiling=ceiling, option="--max-cost"))
        elif plan.estimated_cost > ceiling and not approved:
            problems.append(problem("over_ceiling", cost=plan.estimated_cost, ceiling=ceiling, option="--max-cost",
                                    approve="--approve-plan"))  # fmt: skip
    return problems
