"""Publication gates: pure functions from a draft and its context to a list of problems.

Each gate returns `Problem(code, message, fix, location)` items and never rewrites text; any problem
blocks publishing. `run_gates` runs them all in one pass, in a fixed order, and returns every problem.
A report with disclosed data gaps may publish, but carries no executable orders.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from decimal import Decimal

from stockbench.errors import Problem
from stockbench.evidence.citations import ground_statement
from stockbench.evidence.documents import ActionChoice, ActionRule, GateContext, QuoteRef, ReportDraft, Statement
from stockbench.evidence.levels import level_problems, order_problems
from stockbench.evidence.numbers import ground_numbers
from stockbench.evidence.quotes import normalise, quote_problem, quoted_spans
from stockbench.messages import allowed_now, problem, value_word

Gate = Callable[[ReportDraft, GateContext], list[Problem]]


def structure(draft: ReportDraft, ctx: GateContext) -> list[Problem]:
    """Every required section is present and non-empty, and every required judgment was submitted."""
    problems = []
    for key in ctx.required_sections:
        section = draft.section(key)
        if section is None or not section.text.strip():
            problems.append(problem("section_missing", section=key, location=key))
    for kind in ctx.required_judgments:
        if not str(draft.judgments.get(kind, "")).strip():
            problems.append(problem("judgment_missing", kind=kind, location=kind))
    return problems


def _cites(ids: tuple[str, ...], ctx: GateContext, what: str, n: int, location: str) -> list[Problem]:
    """Problems of the evidence ids that statement `n` (1-based) of kind `what` (claim, risk) cites."""
    cited = {"what": what, "what_zh": value_word("cited", what, "zh"), "n": n}
    if not ids:
        return [problem("evidence_missing", location=location, **cited)]
    return [problem("evidence_unknown", location=location, evidence=evidence_id, run=ctx.run_id, **cited)
            for evidence_id in ids if evidence_id not in ctx.evidence]  # fmt: skip


def evidence(draft: ReportDraft, ctx: GateContext) -> list[Problem]:
    """Every claim cites existing evidence of this run."""
    problems: list[Problem] = []
    for i, claim in enumerate(draft.claims):
        problems += _cites(claim.evidence, ctx, "claim", i + 1, f"claims[{i}]")
    return problems


def texts(draft: ReportDraft) -> Iterator[tuple[str, str]]:
    """Every free text of a draft that a reader sees, with its location: each must be grounded."""
    for section in draft.sections:
        yield f"section:{section.key}.title", section.title
        yield f"section:{section.key}", section.text
    for i, claim in enumerate(draft.claims):
        yield f"claims[{i}]", claim.text
    for i, risk in enumerate(draft.risks):
        yield f"risks[{i}]", risk.text
    for scenario in draft.scenarios:
        yield f"scenarios.{scenario.name}", scenario.text
    for kind, summary in draft.judgments.items():
        yield f"judgments.{kind}", summary
    for gap in draft.gaps:
        yield f"gaps.{gap.name}", gap.reason
    for step in draft.method:
        yield f"method.{step.step}", step.reason
    for statement in draft.statements:
        yield statement.location, statement.text


def statements(draft: ReportDraft) -> Iterator[Statement]:
    """Every model-written text with the evidence its numbers must come from: claims, risks and the rest."""
    for i, claim in enumerate(draft.claims):
        yield Statement(f"claims[{i}]", claim.text, claim.evidence)
    for i, risk in enumerate(draft.risks):
        yield Statement(f"risks[{i}]", risk.text, risk.evidence)
    yield from draft.statements


def numbers(draft: ReportDraft, ctx: GateContext) -> list[Problem]:
    """Every number in every section, title, scenario, judgment, gap and skip reason is grounded in this run's
    evidence; the model's own statements (claims, risks and the rest) are held to the evidence they cite
    (`citations`), so they are not checked twice here."""
    covered = {s.location for s in statements(draft)}
    problems: list[Problem] = []
    for location, text in texts(draft):
        if location not in covered:
            problems += ground_numbers(text, ctx.numbers, location)
    return problems


def citations(draft: ReportDraft, ctx: GateContext) -> list[Problem]:
    """Every number of a statement is a value of the evidence the statement cites, saying what the sentence says."""
    return [p for statement in statements(draft) for p in ground_statement(statement, ctx, draft.symbol)]


def _reference(ctx: GateContext) -> Decimal | None:
    levels = sorted(ctx.levels())
    return levels[len(levels) // 2] if levels else None


def levels(draft: ReportDraft, ctx: GateContext) -> list[Problem]:
    """Prices that describe zones, stops or orders are the program's; orders in text are sized orders (none with
    gaps)."""
    executable = [o for o in draft.orders if o.action in {"new", "modify"}]
    problems: list[Problem] = []
    for statement in statements(draft):
        problems += level_problems(statement, ctx, executable, reference=_reference(ctx))
        problems += order_problems(statement, executable, gaps=bool(draft.gaps), lot=ctx.lot)
    return problems


def quotes(draft: ReportDraft, ctx: GateContext) -> list[Problem]:
    """Every quote appears verbatim in the full text it cites, and every quotation in the text is such a quote."""
    problems = []
    for quote in draft.quotes:
        found = ctx.evidence.get(quote.evidence_id)
        problem = quote_problem(
            quote.text, quote.evidence_id, found.kind if found else None, found.body if found else None, quote.location
        )
        if problem is not None:
            problems.append(problem)
    registered = [(normalise(q.text), q) for q in draft.quotes]
    for location, text in texts(draft):
        for span in quoted_spans(text):
            problems += quotation_problems(span, location, registered, ctx)
    return problems


def quotation_problems(
    span: str, location: str, registered: list[tuple[str, QuoteRef]], ctx: GateContext
) -> list[Problem]:
    """A quotation in the text must be (part of) a submitted quote, and as a part it may not drop what the source
    attaches to it (a negation, a condition): it is checked against the source like the quote itself."""
    holders = [quote for text, quote in registered if span in text]
    if not holders:
        return [problem("quote_unregistered", span=span, where=location, location=location)]
    found: list[Problem] = []
    for quote in holders:
        source = ctx.evidence.get(quote.evidence_id)
        refused = quote_problem(
            span, quote.evidence_id, source.kind if source else None, source.body if source else None, location
        )
        if refused is None:
            return []
        found.append(refused)
    return found[:1]


def risk_evidence(draft: ReportDraft, ctx: GateContext) -> list[Problem]:
    """Every risk statement has evidence of this run."""
    problems: list[Problem] = []
    if not draft.risks:
        problems.append(problem("risks_missing"))
    for i, risk in enumerate(draft.risks):
        problems += _cites(risk.evidence, ctx, "risk", i + 1, f"risks[{i}]")
    return problems


def method_coverage(draft: ReportDraft, ctx: GateContext) -> list[Problem]:
    """Every handbook step that applies was done, or skipped with a reason."""
    steps = {m.step: m for m in draft.method}
    problems = []
    for step in ctx.required_steps:
        found = steps.get(step)
        if found is None:
            problems.append(problem("step_missing", step=step, location=step))
        elif found.status == "skipped" and not found.reason.strip():
            problems.append(problem("skip_unexplained", step=step, location=step))
        elif found.status not in {"done", "skipped"}:
            problems.append(problem("step_status", step=step, status=found.status, done="done", skipped="skipped"))
    return problems


def zone_anchors(draft: ReportDraft, ctx: GateContext) -> list[Problem]:
    """A proposed zone rests on anchors the program computed, and its bounds lie at those anchors' levels."""
    zones = draft.zones
    if zones is None:
        return []
    problems: list[Problem] = []
    for name, band in (("buy", zones.buy), ("sell", zones.sell)):
        if band is None:
            continue
        problems += _anchor_problems(name, band.anchors, (band.low, band.high), ctx)
        if band.low > band.high:
            problems.append(problem("zone_inverted", low=band.low, high=band.high, location=f"zones.{name}",
                                    **_zone_name(name)))  # fmt: skip
    if zones.stop is not None:
        problems += _anchor_problems("stop", zones.stop_anchors, (zones.stop,), ctx)
    if zones.buy and zones.sell and zones.buy.high > zones.sell.low:
        problems.append(problem("zones_overlap", location="zones"))
    return problems


def _anchor_problems(
    name: str, anchors: tuple[str, ...], levels: tuple[Decimal, ...], ctx: GateContext
) -> list[Problem]:
    location, named = f"zones.{name}", _zone_name(name)
    if not anchors:
        return [problem("zone_unanchored", location=location, **named)]
    unknown = [a for a in anchors if a not in ctx.anchors and a not in ctx.anchor_widths]
    if unknown:
        known = ", ".join(sorted(ctx.anchors))
        return [problem("zone_anchor_unknown", anchor=a, anchors=known or "none", anchors_zh=known or "无",
                        location=location, **named) for a in unknown]  # fmt: skip
    computed = ctx.zone_bounds.get(name)
    if computed is not None:
        if tuple(levels) != tuple(computed):
            shown = "..".join(str(v) for v in computed)
            return [problem("zone_off_anchor", levels=", ".join(map(str, levels)), shown=shown, location=location,
                            **named)]  # fmt: skip
        return []
    prices = {ctx.anchors[a] for a in anchors if a in ctx.anchors}
    if not prices:
        return [problem("zone_unanchored.widths", location=location, **named)]
    width = sum((ctx.anchor_widths[a] for a in anchors if a in ctx.anchor_widths), Decimal(0))
    low, high = min(prices) - width, max(prices) + width
    off = [level for level in levels if not (low * Decimal("0.98") <= level <= high * Decimal("1.02"))]
    return [problem("zone_off_anchor.level", level=level, low=low, high=high, location=location, **named)
            for level in off]  # fmt: skip


def _zone_name(name: str) -> dict[str, str]:
    return {"name": name, "name_zh": value_word("zone_name", name, "zh")}


def probability(draft: ReportDraft, ctx: GateContext) -> list[Problem]:
    """Scenario probabilities sum to 1 and match the calibrated table within tolerance."""
    if not draft.scenarios:
        return []
    problems = []
    total = sum((s.probability for s in draft.scenarios), Decimal(0))
    if abs(total - 1) > Decimal("0.001"):
        problems.append(problem("probabilities_sum", total=total, location="scenarios"))
    names = [s.name for s in draft.scenarios]
    for name in sorted({n for n in names if names.count(n) > 1}):
        problems.append(problem("scenario_duplicate", name=name, count=names.count(name), location=f"scenarios.{name}"))
    for name in ctx.calibrated:
        if name not in names:
            problems.append(problem("scenario_missing", name=name, location="scenarios"))
    for s in draft.scenarios:
        where = f"scenarios.{s.name}"
        if not Decimal(0) <= s.probability <= Decimal(1):
            problems.append(problem("probability_range", name=s.name, probability=s.probability, location=where))
        calibrated = ctx.calibrated.get(s.name)
        if calibrated is None:
            problems.append(problem("scenario_unknown", name=s.name, names=", ".join(ctx.calibrated), location=where))
        elif abs(s.probability - calibrated) > ctx.probability_tolerance:
            off = {"calibrated": calibrated, "tolerance": ctx.probability_tolerance}
            problems.append(problem("probability_off_table", name=s.name, probability=s.probability, location=where,
                                    **off))  # fmt: skip
    return problems


# A path that buys or adds: "按计划分批买入", "buy in steps" (a negated one, "不建仓" or "no buy", does not).
BUYING = re.compile(r"(?<![不勿别未])(?:分批)?(?:买入|加仓|建仓)|(?<!no )(?<!not )(?<!never )\b(?:buy|add)\b", re.I)


def buy_paths(statements: Iterable[Statement]) -> list[Problem]:
    """The paths whose action buys or adds (under avoid there may be none)."""
    buying = [s for s in statements if s.kind == "path" and s.location.endswith(".action") and BUYING.search(s.text)]
    return [problem("avoid_with_buy_path", where=s.location, text=s.text, location=s.location) for s in buying]


def choice_problems(
    choice: ActionChoice, rules: Mapping[str, ActionRule], statements: Iterable[Statement]
) -> list[Problem]:
    """Problems of an action choice against what the position allows (`rules`, every action of the closed set),
    with the paths given beside it; an empty position_state is not checked (it was not submitted with it)."""
    allowed = ", ".join(a for a, rule in rules.items() if not rule.problems)
    rule = rules.get(choice.action)
    if rule is None:
        return [problem("action_unknown", action=choice.action, allowed=allowed, location="action")]
    now = [a for a, rule in rules.items() if not rule.problems]
    problems = [replace(allowed_now(p, now), location="action") for p in rule.problems]
    if not problems and choice.position_state and choice.position_state not in rule.states:
        words = [f"“{value_word('position_state', s, 'zh')}”" for s in rule.states]
        said = {"action": choice.action, "action_zh": value_word("action", choice.action, "zh"),
                "states": " or ".join(rule.states) or "none now", "states_zh": "或".join(words) or "目前没有",
                "state": choice.position_state,
                "state_zh": value_word("position_state", choice.position_state, "zh")}  # fmt: skip
        if rule.states:
            problems.append(problem("action_state_mismatch", first=rule.states[0], location="position_state",
                                    first_zh=value_word("position_state", rule.states[0], "zh"), **said))  # fmt: skip
        else:
            problems.append(problem("action_state_mismatch.none", allowed=allowed, location="position_state", **said))
    if choice.action == "avoid":
        problems += buy_paths(statements)
    return problems


def actions(draft: ReportDraft, ctx: GateContext) -> list[Problem]:
    """The action is one the position allows now (hold, reduce and sell need shares held: nothing held and nothing
    to do is wait; the move to its state must be legal), with a position state it goes with, and an avoid lists no
    buy path."""
    if draft.decision is None or not ctx.action_rules:
        return []  # published before the action gate, or not a full analysis
    return choice_problems(draft.decision, ctx.action_rules, draft.statements)


ORDER_ACTIONS = frozenset({"new", "modify", "keep", "cancel"})
EXECUTABLE = frozenset({"new", "modify", "keep"})


BUYING_ACTIONS = frozenset({"buy", "add"})  # the calls a buy order goes with
HOLDING_NOTHING = frozenset({"wait", "avoid"})  # the calls with nothing held, which no sell order goes with


def order_fits(side: str, action: str) -> bool:
    """Whether an order on `side` goes with the final `action` (the handbook, 11.3): a buy only under buy or add, a
    sell not where nothing is held."""
    return action in BUYING_ACTIONS if side == "buy" else action not in HOLDING_NOTHING


def orders(draft: ReportDraft, ctx: GateContext) -> list[Problem]:
    """Orders are legal under the market rules and the ledger, and go with the call (a buy only under buy or add, a
    sell not where nothing is held); a report with gaps carries none."""
    problems = [problem("order_action_unknown", n=i + 1, action=o.action, choices="new, modify, keep or cancel",
                        choices_zh="new、modify、keep 或 cancel", location=f"orders[{i}]")
                for i, o in enumerate(draft.orders) if o.action not in ORDER_ACTIONS]  # fmt: skip
    executable = [o for o in draft.orders if o.action in EXECUTABLE]
    call = draft.decision.action if draft.decision is not None and ctx.orders_follow_action else None
    for i, o in enumerate(draft.orders):
        if call is not None and o.action in EXECUTABLE and not order_fits(o.side, call):
            problems.append(problem("order_against_action", side=o.side, side_zh=value_word("side", o.side, "zh"),
                                    price=o.price, action=call, action_zh=value_word("action", call, "zh"),
                                    cancel="CANCEL", location=f"orders[{i}]"))  # fmt: skip
    if draft.gaps and executable:
        problems.append(problem("orders_with_gaps", names=", ".join(g.name for g in draft.gaps), location="orders"))
    if executable and ctx.check_order is None:
        problems.append(problem("orders_unchecked", location="orders"))
    if ctx.check_order is not None:
        for order in executable:
            problems += ctx.check_order(order)
    return problems


GATES: tuple[tuple[str, Gate], ...] = (
    ("structure", structure),
    ("evidence", evidence),
    ("numbers", numbers),
    ("citations", citations),
    ("levels", levels),
    ("quotes", quotes),
    ("risk_evidence", risk_evidence),
    ("method_coverage", method_coverage),
    ("zone_anchors", zone_anchors),
    ("probability", probability),
    ("actions", actions),
    ("orders", orders),
)


def run_gates(draft: ReportDraft, ctx: GateContext) -> dict[str, list[Problem]]:
    """Every gate's problems, by gate name (empty lists for gates that pass)."""
    return {name: gate(draft, ctx) for name, gate in GATES}


def blocking(results: dict[str, list[Problem]]) -> list[Problem]:
    return [p for problems in results.values() for p in problems]
