"""Levels and orders come only from the program: what model text may say about prices, zones and orders.

Zones, stops and order sizes are computed by the program. A model that writes its own buy zone into a path
trigger ("价格回落到 341.17-351.56 之间 → 重仓买入"), or its own order into prose ("立即以 73.18 元卖出 2100 股"),
bypasses every check on them, so:
- a price in a path, or a price that a reason, conclusion or answer ties to a zone, stop, target or order
  (by the words around it), must be one of this run's levels (zone bounds, stop, a sized order's price); a
  continuity text may also name the previous report's levels;
- a range of prices in such a text must be one of the program's zones exactly;
- an order-like clause (a side and a quantity of shares, in any text) must be a sized order of the same side
  and quantity (and price, when it gives one); a report with data gaps has none at all.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal

from stockbench.errors import Problem
from stockbench.evidence.documents import GateContext, OrderPlan, Statement
from stockbench.evidence.numbers import TextNumber, _within, extract_numbers, listed
from stockbench.messages import problem

_CLAUSE = re.compile(r"[^，,。；;！？!?\n]+")
_LEVEL_WORDS = re.compile(
    r"买入|卖出|买点|卖点|加仓|减仓|建仓|清仓|区间|区域|止损|止盈|目标|挂单|限价|价位|回落|回踩|跌破|突破|站上|站稳|"
    r"支撑|压力|阻力|入场|离场|接回|低吸|高抛|"
    r"\bbuy\b|\bsell\b|\bzone\b|\bstop\b|\btarget\b|\blimit\b|\bsupport\b|\bresistance\b|\bentry\b|\bexit\b|"
    r"\bbreak(?:s|ing)?\b|\bfalls? (?:to|below)\b|\brises? (?:to|above)\b",
    re.IGNORECASE,
)
_RANGE_JOIN = re.compile(r"\s*(?:-|–|—|~|～|至|到|to|and)\s*")
_BUY = re.compile(r"买入|加仓|建仓|补仓|增持|低吸|接回|\bbuy(?:ing|s)?\b|\badd(?:ing|s)?\b", re.IGNORECASE)
_SELL = re.compile(r"卖出|减仓|清仓|平仓|止盈|高抛|减持|\bsell(?:ing|s)?\b|\btrim(?:ming|s)?\b|\breduc(?:e|ing|es)\b",
                   re.IGNORECASE)  # fmt: skip
_SHARES = re.compile(r"\s*(?P<unit>股|手|shares?\b|lots?\b)", re.IGNORECASE)
_SHARES_TAIL = re.compile(r"(?P<unit>股|手|shares?|lots?)$", re.IGNORECASE)
_PRICE_WORDS = re.compile(r"(?:以|在|价格?|@|\bat\b|\bprice\b)\s*$", re.IGNORECASE)
_PRICE_RANGE = (Decimal("0.3"), Decimal(3))


@dataclass(frozen=True, slots=True)
class OrderMention:
    """An order-like clause: a side with a quantity of shares, and the price it names (if any)."""

    side: str
    shares: int | None  # None: counted in lots of unknown size
    lots: Decimal | None
    price: TextNumber | None
    text: str
    start: int


def _clauses(text: str) -> Iterator[tuple[int, str]]:
    for match in _CLAUSE.finditer(text):
        yield match.start(), match.group(0)


def _is_price(number: TextNumber, reference: Decimal | None) -> bool:
    if number.unit != "plain" or number.period:
        return False
    if reference is None or reference <= 0:
        return True
    low, high = reference * _PRICE_RANGE[0], reference * _PRICE_RANGE[1]
    return low <= abs(number.value) <= high


def _shares_after(clause: str, number: TextNumber, offset: int) -> str | None:
    found = _SHARES.match(clause, number.end - offset)
    if found is not None:
        return found["unit"].lower()
    tail = _SHARES_TAIL.search(number.text)  # the reader may have taken the word as the number's unit
    return tail["unit"].lower() if tail else None


def order_mentions(text: str, lot: int | None) -> list[OrderMention]:
    """Every order-like clause of `text`: a buy or sell verb with a quantity of shares or lots."""
    found = []
    every = extract_numbers(text)
    for offset, clause in _clauses(text):
        buy, sell = _BUY.search(clause), _SELL.search(clause)
        if not buy and not sell:
            continue
        side = "buy" if buy and (not sell or buy.start() < sell.start()) else "sell"
        numbers = [n for n in every if offset <= n.start < offset + len(clause)]
        for number in numbers:
            unit = _shares_after(clause, number, offset)
            if unit is None:
                continue
            in_lots = unit in {"手", "lot", "lots"}
            shares = int(number.value) if not in_lots else (int(number.value * lot) if lot else None)
            price = next((n for n in numbers if n is not number and _named_as_price(text, n)), None)
            found.append(OrderMention(side, shares, number.value if in_lots else None, price, clause, offset))
    return found


def _named_as_price(text: str, number: TextNumber) -> bool:
    return bool(_PRICE_WORDS.search(text[max(number.start - 4, 0) : number.start])) or number.text.endswith(
        ("元", "港元", "美元")
    )


def _matches_level(number: TextNumber, levels: Sequence[Decimal]) -> bool:
    return any(_within(number, level) for level in levels)


def _level_context(text: str, number: TextNumber) -> bool:
    start = text.rfind("\n", 0, number.start) + 1
    clause_start = max((m.end() for m in re.finditer(r"[，,。；;！？!?]", text[start : number.start])), default=0)
    before = text[start + clause_start : number.start]
    after = re.split(r"[，,。；;！？!?\n]", text[number.end : number.end + 12], maxsplit=1)[0]
    return bool(_LEVEL_WORDS.search(before) or _LEVEL_WORDS.search(after))


def _ranges(text: str, numbers: Sequence[TextNumber]) -> Iterator[tuple[TextNumber, TextNumber]]:
    for first, second in itertools.pairwise(numbers):
        if _RANGE_JOIN.fullmatch(text[first.end : second.start]):
            yield first, second


def level_problems(
    statement: Statement, ctx: GateContext, orders: Sequence[OrderPlan], *, reference: Decimal | None
) -> list[Problem]:
    """Prices in `statement` that describe a zone, stop or order but are not one of this run's levels."""
    if statement.kind in {"claim", "prose"}:
        return []
    text = statement.text
    levels = [*ctx.levels(), *(o.price for o in orders)]
    if statement.kind == "continuity":
        levels += list(ctx.previous_levels)
    zones = [b for name, b in ctx.zone_bounds.items() if name in {"buy", "sell"} and len(b) == 2]
    numbers = [n for n in extract_numbers(text) if _is_price(n, reference)]
    problems: list[Problem] = []
    ranged: set[int] = set()
    for low, high in _ranges(text, numbers):
        ranged |= {low.start, high.start}
        if statement.kind == "continuity" and all(_matches_level(n, ctx.previous_levels) for n in (low, high)):
            continue
        if not any(_within(low, z[0]) and _within(high, z[1]) for z in zones):
            shown = ", ".join(f"{z[0]}-{z[1]}" for z in zones) or "none"
            where = f"{statement.location}[{low.start}:{high.end}]"
            problems.append(
                problem(
                    "level_not_program.range",
                    low=low.text,
                    high=high.text,
                    where=where,
                    **listed("shown", shown),
                    location=where,
                )
            )
    for number in numbers:
        if number.start in ranged or _matches_level(number, levels):
            continue
        if statement.kind != "path" and not _level_context(text, number):
            continue
        where = f"{statement.location}[{number.start}:{number.end}]"
        shown = ", ".join(f"{v}" for v in dict.fromkeys(levels)) or "none"
        problems.append(
            problem("level_not_program.price", price=number.text, where=where, **listed("shown", shown), location=where)
        )
    return problems


def order_problems(statement: Statement, orders: Sequence[OrderPlan], *, gaps: bool, lot: int | None) -> list[Problem]:
    """Order-like clauses of `statement` that are not a sized, gated order of this run."""
    problems: list[Problem] = []
    for mention in order_mentions(statement.text, lot):
        where = f"{statement.location}[{mention.start}:{mention.start + len(mention.text)}]"
        if gaps:
            problems.append(problem("order_in_text_with_gaps", text=mention.text.strip(), where=where, location=where))
            continue
        if not any(_same(mention, order) for order in orders):
            sized = "; ".join(f"{o.side} {o.qty} @ {o.price}" for o in orders) or "none"
            problems.append(
                problem(
                    "order_in_text", text=mention.text.strip(), where=where, location=where, **listed("sized", sized)
                )
            )
    return problems


def _same(mention: OrderMention, order: OrderPlan) -> bool:
    side = "buy" if order.side == "buy" else "sell"
    if mention.side != side or mention.shares is None or mention.shares != order.qty:
        return False
    return mention.price is None or _within(mention.price, order.price)
