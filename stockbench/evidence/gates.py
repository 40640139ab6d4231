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

Gate = Callable[[ReportDraft, GateContext], list[Problem]]


def structure(draft: ReportDraft, ctx: GateContext) -> list[Problem]:
    """Every required section is present and non-empty, and every required judgment was submitted."""
    problems = []
    for key in ctx.required_sections:
        section = draft.section(key)
        if section is None or not section.text.strip():
            problems.append(
                Problem("section_missing", f"the report has no '{key}' section", f"write the {key} section", key)
            )
    for kind in ctx.required_judgments:
        if not str(draft.judgments.get(kind, "")).strip():
            problems.append(
                Problem("judgment_missing", f"no '{kind}' judgment was submitted", f"submit the {kind} judgment", kind)
            )
    return problems


def _cites(ids: tuple[str, ...], ctx: GateContext, what: str, location: str) -> list[Problem]:
    if not ids:
        return [Problem("evidence_missing", f"{what} cites no evidence", "cite the evidence ids it rests on", location)]
    return [
        Problem(
            "evidence_unknown",
            f"{what} cites {evidence_id}, which is not evidence of run {ctx.run_id}",
            "cite only evidence ids returned by this run's tools",
            location,
        )
        for evidence_id in ids
        if evidence_id not in ctx.evidence
    ]


def evidence(draft: ReportDraft, ctx: GateContext) -> list[Problem]:
    """Every claim cites existing evidence of this run."""
    problems: list[Problem] = []
    for i, claim in enumerate(draft.claims):
        problems += _cites(claim.evidence, ctx, f"claim {i + 1}", f"claims[{i}]")
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
        return [
            Problem(
                "quote_unregistered",
                f"the quotation «{span}» in {location} is not a submitted quote",
                "submit it as a quote citing the document it comes from, or say it without quotation marks",
                location,
            )
        ]
    found: list[Problem] = []
    for quote in holders:
        source = ctx.evidence.get(quote.evidence_id)
        problem = quote_problem(
            span, quote.evidence_id, source.kind if source else None, source.body if source else None, location
        )
        if problem is None:
            return []
        found.append(problem)
    return found[:1]


def risk_evidence(draft: ReportDraft, ctx: GateContext) -> list[Problem]:
    """Every risk statement has evidence of this run."""
    problems: list[Problem] = []
    if not draft.risks:
        problems.append(Problem("risks_missing", "the report states no risks", "state the main risks with evidence"))
    for i, risk in enumerate(draft.risks):
        problems += _cites(risk.evidence, ctx, f"risk {i + 1}", f"risks[{i}]")
    return problems


def method_coverage(draft: ReportDraft, ctx: GateContext) -> list[Problem]:
    """Every handbook step that applies was done, or skipped with a reason."""
    steps = {m.step: m for m in draft.method}
    problems = []
    for step in ctx.required_steps:
        found = steps.get(step)
        if found is None:
            problems.append(
                Problem("step_missing", f"method step '{step}' was neither done nor skipped", f"do {step}", step)
            )
        elif found.status == "skipped" and not found.reason.strip():
            problems.append(
                Problem(
                    "skip_unexplained", f"method step '{step}' was skipped without a reason", "give the reason", step
                )
            )
        elif found.status not in {"done", "skipped"}:
            problems.append(
                Problem("step_status", f"method step '{step}' has status '{found.status}'", "done or skipped")
            )
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
            problems.append(
                Problem(
                    "zone_inverted",
                    f"the {name} zone's low {band.low} is above its high {band.high}",
                    "swap the bounds",
                    f"zones.{name}",
                )
            )
    if zones.stop is not None:
        problems += _anchor_problems("stop", zones.stop_anchors, (zones.stop,), ctx)
    if zones.buy and zones.sell and zones.buy.high > zones.sell.low:
        problems.append(
            Problem("zones_overlap", "the buy zone reaches above the sell zone", "use the program's zones", "zones")
        )
    return problems


def _anchor_problems(
    name: str, anchors: tuple[str, ...], levels: tuple[Decimal, ...], ctx: GateContext
) -> list[Problem]:
    location = f"zones.{name}"
    if not anchors:
        return [Problem("zone_unanchored", f"the {name} zone names no anchors", "cite the program's anchors", location)]
    unknown = [a for a in anchors if a not in ctx.anchors and a not in ctx.anchor_widths]
    if unknown:
        return [
            Problem(
                "zone_anchor_unknown",
                f"the {name} zone cites anchor '{a}', which the program did not compute",
                f"use one of: {', '.join(sorted(ctx.anchors)) or 'none'}",
                location,
            )
            for a in unknown
        ]
    computed = ctx.zone_bounds.get(name)
    if computed is not None:
        if tuple(levels) != tuple(computed):
            shown = "..".join(str(v) for v in computed)
            return [
                Problem(
                    "zone_off_anchor",
                    f"the {name} levels {', '.join(map(str, levels))} are not the program's ({shown})",
                    "take the bounds from the program's zones",
                    location,
                )
            ]
        return []
    prices = {ctx.anchors[a] for a in anchors if a in ctx.anchors}
    if not prices:
        return [
            Problem("zone_unanchored", f"the {name} zone cites only widths, no level", "cite a level anchor", location)
        ]
    width = sum((ctx.anchor_widths[a] for a in anchors if a in ctx.anchor_widths), Decimal(0))
    low, high = min(prices) - width, max(prices) + width
    off = [level for level in levels if not (low * Decimal("0.98") <= level <= high * Decimal("1.02"))]
    return [
        Problem(
            "zone_off_anchor",
            f"the {name} level {level} is not at its anchors ({low}..{high})",
            "take the bounds from the program's zones",
            location,
        )
        for level in off
    ]


def probability(draft: ReportDraft, ctx: GateContext) -> list[Problem]:
    """Scenario probabilities sum to 1 and match the calibrated table within tolerance."""
    if not draft.scenarios:
        return []
    problems = []
    total = sum((s.probability for s in draft.scenarios), Decimal(0))
    if abs(total - 1) > Decimal("0.001"):
        problems.append(
            Problem(
                "probabilities_sum", f"scenario probabilities sum to {total}, not 1", "make them sum to 1", "scenarios"
            )
        )
    names = [s.name for s in draft.scenarios]
    for name in sorted({n for n in names if names.count(n) > 1}):
        message = f"scenario '{name}' is given {names.count(name)} times"
        problems.append(Problem("scenario_duplicate", message, "give each scenario once", f"scenarios.{name}"))
    for name in ctx.calibrated:
        if name not in names:
            message = f"the calibrated scenario '{name}' is missing"
            problems.append(Problem("scenario_missing", message, "give every scenario of the table", "scenarios"))
    for s in draft.scenarios:
        where = f"scenarios.{s.name}"
        if not Decimal(0) <= s.probability <= Decimal(1):
            message = f"scenario '{s.name}' has probability {s.probability}"
            problems.append(Problem("probability_range", message, "use a value between 0 and 1", where))
        calibrated = ctx.calibrated.get(s.name)
        if calibrated is None:
            fix = f"use the table's scenarios: {', '.join(ctx.calibrated)}"
            problems.append(
                Problem("scenario_unknown", f"scenario '{s.name}' is not in the calibrated table", fix, where)
            )
        elif abs(s.probability - calibrated) > ctx.probability_tolerance:
            message = (
                f"scenario '{s.name}' has probability {s.probability}; the calibrated table gives {calibrated} "
                f"(tolerance {ctx.probability_tolerance})"
            )
            fix = "stay within the tolerance of the calibrated value; argue any difference in the text"
            problems.append(Problem("probability_off_table", message, fix, where))
    return problems


# A path that buys or adds: "按计划分批买入", "buy in steps" (a negated one, "不建仓" or "no buy", does not).
BUYING = re.compile(r"(?<![不勿别未])(?:分批)?(?:买入|加仓|建仓)|(?<!no )(?<!not )(?<!never )\b(?:buy|add)\b", re.I)


def buy_paths(statements: Iterable[Statement]) -> list[Problem]:
    """The paths whose action buys or adds (under avoid there may be none)."""
    fix = "under avoid a path watches or re-examines, never buys; or choose wait, which may plan a buy"
    return [
        Problem(
            "avoid_with_buy_path", f"the action is avoid, but the path {s.location} buys: {s.text}", fix, s.location
        )
        for s in statements
        if s.kind == "path" and s.location.endswith(".action") and BUYING.search(s.text)
    ]


def choice_problems(
    choice: ActionChoice, rules: Mapping[str, ActionRule], statements: Iterable[Statement]
) -> list[Problem]:
    """Problems of an action choice against what the position allows (`rules`, every action of the closed set),
    with the paths given beside it; an empty position_state is not checked (it was not submitted with it)."""
    allowed = ", ".join(a for a, rule in rules.items() if not rule.problems)
    rule = rules.get(choice.action)
    if rule is None:
        return [Problem("action_unknown", f"'{choice.action}' is not an action", f"one of: {allowed}", "action")]
    problems = [replace(p, fix=f"{p.fix} (allowed now: {allowed})", location="action") for p in rule.problems]
    if not problems and choice.position_state and choice.position_state not in rule.states:
        states = " or ".join(rule.states) or "none now"
        message = f"{choice.action} goes with the position state {states}, not {choice.position_state}"
        fix = f"submit position_state {rule.states[0]} with {choice.action}" if rule.states else f"one of: {allowed}"
        problems.append(Problem("action_state_mismatch", message, fix, "position_state"))
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


def orders(draft: ReportDraft, ctx: GateContext) -> list[Problem]:
    """Orders are legal under the market rules and the ledger; a report with gaps carries none."""
    problems = [
        Problem(
            "order_action_unknown",
            f"order {i + 1} has action '{o.action}'",
            "new, modify, keep or cancel",
            f"orders[{i}]",
        )
        for i, o in enumerate(draft.orders)
        if o.action not in ORDER_ACTIONS
    ]
    executable = [o for o in draft.orders if o.action in EXECUTABLE]
    if draft.gaps and executable:
        names = ", ".join(g.name for g in draft.gaps)
        message = f"the report discloses data gaps ({names}) but carries executable orders"
        fix = "drop the orders, or close the gaps and run again"
        problems.append(Problem("orders_with_gaps", message, fix, "orders"))
    if executable and ctx.check_order is None:
        message = "the report carries executable orders but no order check against the rules and the ledger was given"
        problems.append(Problem("orders_unchecked", message, "check the orders against the ledger snapshot", "orders"))
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
