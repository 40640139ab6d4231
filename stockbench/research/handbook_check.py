"""The handbook check: the method handbook and the code name the same things, and both editions share one shape.

The naming convention (also stated at the top of handbook/index.toml):

- In the handbook a code name is written in backticks (`trend`, `submit_judgments`, `KEEP`) and a reference
  document is cited by its slug in backticks (`valuation-method`).
- handbook/index.toml lists, by category, every code name the handbook uses. A category under [code] is
  compared with its code registry both ways (a listed name the code lacks, or a code name the index lacks, is
  a problem) and each of its names must appear in backticks in both main editions. A category under [exists]
  is checked one way (each listed name exists in the code) and each name must appear in backticks somewhere
  in the handbook. [terms] lists the other identifiers the handbook writes in backticks (facts keys, data
  service fields); they are not checked against the code. [references] lists the reference slugs.
- Every backticked identifier anywhere in the handbook (lower_snake_case, an upper-case word such as `KEEP`, or
  a CamelCase model name such as `DebateVerdict`) must be listed in the index, and every backticked slug
  (words joined by hyphens) must be a reference. Fenced code blocks are not scanned.
- Each stage section starts with `<!-- stage:NAME -->` on its own line; the markers are exactly the stages
  and sub-studies of the engine, once each, in the engine's order, and both editions have the same headings
  (levels and numbers) and markers in the same order.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args

from pydantic import BaseModel

from stockbench.errors import Problem
from stockbench.research.handbook import MAIN_EN, MAIN_ZH, Handbook

INDEX = "index.toml"
SECTORS = "tables/sector_indices.toml"
ANNOUNCEMENTS = "tables/announcement_levels.toml"
SECTOR_REFERENCE = "references/sector-index-map.md"
REVIEW_LEVELS = ("note", "watch", "act", "full_analysis")
MARKER = re.compile(r"^<!-- stage:([a-z_]+) -->[ \t]*$", re.MULTILINE)
_FENCE = re.compile(r"^```.*?^```[ \t]*$", re.MULTILINE | re.DOTALL)
_TICKS = re.compile(r"`([^`\n]+)`")
_IDENTIFIER = re.compile(r"^(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)*|[A-Z]{2,}|(?:[A-Z][a-z]+)+)$")
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)+$")
_HEADING = re.compile(r"^(#{1,6})[ \t]+(\S.*)$", re.MULTILINE)
_NUMBER = re.compile(r"^(\d+(?:\.\d+)*)\b")


@dataclass(frozen=True, slots=True)
class Category:
    """A kind of code name: where the code keeps them (`module:ATTR` or a description), whether the handbook must
    describe every one, and how to read them."""

    name: str
    complete: bool
    source: str
    read: Callable[[], frozenset[str]] | None = None

    def names(self) -> frozenset[str]:
        return self.read() if self.read is not None else _registry(self.source)


def _registry(spec: str) -> frozenset[str]:
    """The names of `module:ATTR`: a Literal's values, a mapping's keys, or a sequence (of names or (name, x))."""
    module, attr = spec.split(":")
    value = getattr(importlib.import_module(module), attr)
    items = get_args(value) or value
    return frozenset(str(v[0] if isinstance(v, tuple) else v) for v in items)


# ---- registries that are not a single attribute ------------------------------------------------------------


def _substudies() -> frozenset[str]:
    return _registry("stockbench.research.stages:STAGE_TOOLS") - _registry("stockbench.research.state:STAGES")


def _models() -> list[type[BaseModel]]:
    """Every judgment model and tool parameter model (those the tools build from their signatures too)."""
    from stockbench.research import judgments, tools

    found = [m for mod in (judgments, tools) for _, m in inspect.getmembers(mod, inspect.isclass)]
    found += [t.params for t in tools.TOOLS.values()]
    return [m for m in dict.fromkeys(found) if issubclass(m, BaseModel) and m not in (BaseModel, judgments.Strict)]


def _judgment_fields() -> frozenset[str]:
    """The fields of every judgment and tool parameter model (what the model fills in)."""
    return frozenset(f for m in _models() for f in m.model_fields)


def _judgment_models() -> frozenset[str]:
    """The names of the judgment and tool parameter models (their JSON schemas carry these titles)."""
    return frozenset(m.__name__ for m in _models())


def _facts_blocks() -> frozenset[str]:
    from stockbench.research import engine

    return frozenset(re.findall(r'facts_message\(\s*"([a-z_]+)"', inspect.getsource(engine)))


def _toml(name: str) -> dict[str, Any]:
    from stockbench.config import resources_dir

    with (resources_dir() / name).open("rb") as handle:
        return tomllib.load(handle)


def _data_gates() -> frozenset[str]:
    return frozenset(_toml("data_gates.toml")["gates"])


def _rule_tables() -> frozenset[str]:
    from stockbench.analytics.rule_tables import load_rule_tables

    return frozenset(load_rule_tables().versions())


def _rule_states() -> frozenset[str]:
    from stockbench.analytics.rule_tables import load_rule_tables

    return frozenset(s for t in load_rule_tables().state_tables() for s in t.states)


def _keys(data: Any) -> Iterator[str]:
    """Every key of nested TOML data, and the `name` of every table in an array of tables."""
    if isinstance(data, Mapping):
        for key, value in data.items():
            yield str(key)
            yield from _keys(value)
    elif isinstance(data, list):
        for item in data:
            if isinstance(item, Mapping) and isinstance(item.get("name"), str):
                yield item["name"]
            yield from _keys(item)


def _rule_parameters() -> frozenset[str]:
    files = ("rule_tables.toml", "zone_tables.toml", "data_gates.toml", "market_rules.toml")
    return frozenset(k for f in files for k in _keys(_toml(f)))


def _indicators() -> frozenset[str]:
    from stockbench.analytics.rule_tables import load_rule_tables

    inputs = {i for t in load_rule_tables().state_tables() for i in t.inputs}
    bars = _registry("stockbench.analytics.frames:BAR_COLUMNS")
    return bars | _registry("stockbench.analytics.indicators:INDICATOR_COLUMNS") | inputs


def _problem_codes() -> frozenset[str]:
    """Every Problem code and error code written in the engine's source, and every code of the message catalogue
    (stockbench.messages: a key's code is the part before any dot)."""
    import stockbench
    from stockbench.messages import PROBLEMS

    pattern = re.compile(r'Problem\(\s*"([a-z_]+)"|^\s+code = "([a-z_]+)"', re.MULTILINE)
    files = Path(stockbench.__file__).parent.rglob("*.py")
    written = {a or b for p in files for a, b in pattern.findall(p.read_text(encoding="utf-8"))}
    return frozenset(written | {key.split(".", 1)[0] for key in PROBLEMS})


_J, _A = "stockbench.research.judgments", "stockbench.analytics"
CATEGORIES: tuple[Category, ...] = (
    Category("stages", True, "stockbench.research.state:STAGES"),
    Category("substudies", True, "research.stages.STAGE_TOOLS that are not stages", _substudies),
    Category("tools", True, "stockbench.research.tools:TOOLS"),
    Category("judgment_types", True, f"{_J}:JUDGMENT_TYPES"),
    Category("judgment_fields", True, "fields of the models in research.judgments and .tools", _judgment_fields),
    Category("facts_blocks", True, "facts_message(...) calls in research.engine", _facts_blocks),
    Category("gates", True, "stockbench.evidence.gates:GATES"),
    Category("data_gates", True, "[gates] of resources/data_gates.toml", _data_gates),
    Category("rule_tables", True, "analytics.rule_tables.load_rule_tables()", _rule_tables),
    Category("zone_tables", True, "stockbench.analytics.scan:load_zone_tables", lambda: frozenset(_zone_tables())),
    Category("rule_states", True, "states of the state tables in resources/rule_tables.toml", _rule_states),
    Category("position_states", True, f"{_A}.position_states:STATES"),
    Category("zone_positions", True, f"{_A}.zones:POSITIONS"),
    Category("scenario_outcomes", True, f"{_A}.calibration:OUTCOMES"),
    Category("actions", True, f"{_J}:Action"),
    Category("order_decisions", True, f"{_J}:OrderDecision"),
    Category("baseline_directions", True, f"{_A}.baseline:Direction"),
    Category("report_sections", True, "stockbench.research.compose:REQUIRED_SECTIONS"),
    Category("calc_units", True, "stockbench.evidence.numerals:UNITS"),
    Category("question_routes", True, "stockbench.research.plan:ROUTES"),
    Category("judgment_models", False, "models in research.judgments and research.tools", _judgment_models),
    Category("rule_parameters", False, "keys of the rule, zone, data-gate and market TOML tables", _rule_parameters),
    Category("indicators", False, "analytics bar and indicator columns, state-table inputs", _indicators),
    Category("problem_codes", False, "Problem(...) and error codes in the engine's source", _problem_codes),
)


def _zone_tables() -> dict[str, Any]:
    from stockbench.analytics.scan import load_zone_tables

    return load_zone_tables()


@functools.cache
def code_names(category: str) -> frozenset[str]:
    """The names the code holds for `category` (computed once per process)."""
    return next(c for c in CATEGORIES if c.name == category).names()


# ---- reading the handbook ----------------------------------------------------------------------------------


def without_code(text: str) -> str:
    """`text` without fenced code blocks (their backticks and headings are not the handbook's own)."""
    return _FENCE.sub("", text)


def backticked(text: str) -> list[str]:
    """The backticked spans of `text`, outside fenced code."""
    return _TICKS.findall(without_code(text))


def markers(text: str) -> list[str]:
    """The stage markers of `text`, in order."""
    return MARKER.findall(without_code(text))


def stage_sections(text: str) -> dict[str, str]:
    """The section after each stage marker, up to the next marker (or the end), by stage name."""
    found = list(MARKER.finditer(text))
    ends = [m.start() for m in found[1:]] + [len(text)] * bool(found)
    return {m.group(1): text[m.end() : end].strip() for m, end in zip(found, ends, strict=True)}


AFTER_PUBLISH = ("publish_fix",)  # sub-stages that follow publication (the gates' findings, back to the model)


def stage_order() -> list[str]:
    """The markers a main edition carries, in order: the engine's stages, with the sub-studies (which open the
    analyze stage) just before analyze, and the publication fix after publish."""
    from stockbench.research.engine import STAGES
    from stockbench.research.stages import STAGE_TOOLS

    at = STAGES.index("analyze")
    substudies = [s for s in STAGE_TOOLS if s not in STAGES and s not in AFTER_PUBLISH]
    return [*STAGES[:at], *substudies, *STAGES[at:], *AFTER_PUBLISH]


def skeleton(text: str) -> list[tuple[str, str]]:
    """The shape of an edition: (key, line) for every heading (level and number) and stage marker, in order."""
    shape = []
    for line in without_code(text).splitlines():
        if marker := MARKER.match(line):
            shape.append((f"stage:{marker.group(1)}", line))
        elif heading := _HEADING.match(line):
            number = _NUMBER.match(heading.group(2))
            shape.append((f"h{len(heading.group(1))} {number.group(1) if number else '-'}", line))
    return shape


# ---- the check -----------------------------------------------------------------------------------------------

# Each problem's message and fix, formatted with the fields a call gives (`where` is always one of them).
MESSAGES: dict[str, tuple[str, str]] = {
    "index_missing": ("the handbook has no index.toml", "restore handbook/index.toml"),
    "index_invalid": ("index.toml is not valid TOML: {error}", "fix the syntax"),
    "index_category_missing": ("{where} has no '{name}' list", "add {name} = [...] under it"),
    "index_category_unknown": ("{where} lists the unknown category '{name}'", "use: {wanted}"),
    "name_unknown": (
        "the handbook names {category} '{name}', which the code does not have ({source})",
        "fix the name, or remove it from the handbook and the index",
    ),
    "name_undescribed": (
        "{category} '{name}' exists in the code ({source}) but the handbook does not describe it",
        "describe `{name}` in both editions and list it in {index}",
    ),
    "name_absent": (
        "{category} '{name}' is listed in index.toml but `{name}` does not appear in {where}",
        "write `{name}` where the handbook describes it, or unlist it",
    ),
    "name_unindexed": (
        "`{name}` in {where} is not listed in index.toml",
        "list it under its category in index.toml (or [terms]), or fix the name",
    ),
    "reference_missing": (
        "{where} cites the reference `{slug}`, which does not exist",
        "write handbook/references/{slug}.md, or fix or unlist the slug",
    ),
    "reference_unlisted": ("{where} is not listed in index.toml [references]", "list its slug"),
    "reference_front_matter": (
        "{where} has no {field} in its front matter",
        "start the file with ---, then title:, title_en: and summary: on one line each, then ---",
    ),
    "marker_unknown": ("{where} has a marker for the unknown stage '{name}'", "use one of: {expected}"),
    "marker_missing": ("{where} has no `<!-- stage:{name} -->` section", "write the stage section"),
    "marker_duplicate": ("{where} has {count} markers for '{name}'", "keep one"),
    "marker_order": (
        "{where} has the stage sections in the order {order}",
        "order them as the engine runs: {expected}",
    ),
    "stage_empty": ("the {name} stage section of {where} is empty", "write its instructions"),
    "edition_missing": ("the handbook has no English edition ({where})", "write it"),
    "sections_differ": (
        "the editions differ: {detail}",
        "give both editions the same headings (levels and numbers) and stage markers in the same order",
    ),
    "table_invalid": ("{where} is not valid TOML: {error}", "fix the syntax"),
    "sector_index_invalid": (
        "'{symbol}' ({name}) is not an index symbol the program can identify",
        "use a 000xxx.SH, 399xxx.SZ or HK index symbol",
    ),
    "sector_index_undocumented": ("'{symbol}' is not in the sector reference", f"list it in {SECTOR_REFERENCE}"),
    "announcement_level_invalid": ("category '{name}': {detail}", "levels: " + ", ".join(REVIEW_LEVELS)),
}


def _problem(code: str, where: str, **fields: object) -> Problem:
    message, fix = MESSAGES[code]
    return Problem(code, message.format(where=where, **fields), fix.format(where=where, **fields), where)


def check(handbook: Handbook) -> list[Problem]:
    """Every problem with `handbook`: names against the code, markers, editions, references and tables."""
    index, problems = _index(handbook)
    if index is None:
        return problems
    problems += _names(handbook, index) + _text_names(handbook, index)
    for path in (MAIN_ZH, MAIN_EN):
        if path in handbook.files:
            problems += _markers(handbook.files[path], path)
    problems += _editions(handbook) + _references(handbook, index)
    return problems + _sectors(handbook) + _announcements(handbook)


def _index(handbook: Handbook) -> tuple[dict[str, Any] | None, list[Problem]]:
    if INDEX not in handbook.files:
        return None, [_problem("index_missing", INDEX)]
    try:
        index = tomllib.loads(handbook.files[INDEX])
    except tomllib.TOMLDecodeError as error:
        return None, [_problem("index_invalid", INDEX, error=error)]
    problems = []
    for section, complete in (("code", True), ("exists", False)):
        wanted, given = {c.name for c in CATEGORIES if c.complete == complete}, set(index.get(section, {}))
        where = f"{INDEX} [{section}]"
        problems += [_problem("index_category_missing", where, name=n) for n in sorted(wanted - given)]
        unknown = sorted(given - wanted)
        problems += [
            _problem("index_category_unknown", where, name=n, wanted=", ".join(sorted(wanted))) for n in unknown
        ]
    return index, problems


def _listed(index: Mapping[str, Any], category: Category) -> set[str]:
    return {str(n) for n in index.get("code" if category.complete else "exists", {}).get(category.name, [])}


def _names(handbook: Handbook, index: Mapping[str, Any]) -> list[Problem]:
    """Listed names against the code (both ways for [code]), and each listed name present in the text."""
    problems = []
    mains = {path: set(backticked(handbook.files.get(path, ""))) for path in (MAIN_ZH, MAIN_EN)}
    anywhere = {t for path, text in handbook.files.items() if path.endswith(".md") for t in backticked(text)}
    for c in CATEGORIES:
        listed, code = _listed(index, c), code_names(c.name)
        where = f"{INDEX} [{'code' if c.complete else 'exists'}].{c.name}"
        fields = {"category": c.name, "source": c.source, "index": where}
        problems += [_problem("name_unknown", where, name=n, **fields) for n in sorted(listed - code)]
        if c.complete:
            problems += [_problem("name_undescribed", where, name=n, **fields) for n in sorted(code - listed)]
        for name in sorted(listed & code):
            places = [p for p, found in mains.items() if name not in found] if c.complete else []
            places += ["the handbook"] if not c.complete and name not in anywhere else []
            problems += [_problem("name_absent", place, name=name, **fields) for place in places]
    return problems


def _text_names(handbook: Handbook, index: Mapping[str, Any]) -> list[Problem]:
    """Every backticked identifier is indexed, and every backticked slug is a reference."""
    slugs = set(handbook.references())
    known = {str(n) for part in ("code", "exists", "terms") for names in index.get(part, {}).values() for n in names}
    problems = []
    for path, text in sorted(handbook.files.items()):
        for token in sorted(set(backticked(text))) if path.endswith(".md") else []:
            if _SLUG.match(token) and token not in slugs:
                problems.append(_problem("reference_missing", path, slug=token))
            elif _IDENTIFIER.match(token) and token not in known | slugs:
                problems.append(_problem("name_unindexed", path, name=token))
    return problems


def _markers(text: str, path: str) -> list[Problem]:
    """One marker per stage and sub-study, none unknown, in the engine's order, each section non-empty."""
    expected, found = stage_order(), markers(text)
    listed = ", ".join(expected)
    problems = [_problem("marker_unknown", path, name=m, expected=listed) for m in sorted(set(found) - set(expected))]
    problems += [_problem("marker_missing", path, name=m) for m in expected if m not in found]
    problems += [
        _problem("marker_duplicate", path, name=m, count=found.count(m)) for m in expected if found.count(m) > 1
    ]
    order = [m for m in dict.fromkeys(found) if m in expected]
    if order != [m for m in expected if m in order]:
        problems.append(_problem("marker_order", path, order=", ".join(order), expected=listed))
    sections = stage_sections(text).items()
    return problems + [_problem("stage_empty", path, name=n) for n, body in sections if not without_code(body).strip()]


def _editions(handbook: Handbook) -> list[Problem]:
    """Both editions have the same headings (level and number) and stage markers, in the same order."""
    if MAIN_EN not in handbook.files:
        return [_problem("edition_missing", MAIN_EN)]
    zh, en = skeleton(handbook.main), skeleton(handbook.main_en)
    for i, (a, b) in enumerate(zip(zh, en, strict=False)):
        if a[0] != b[0]:
            return [
                _problem(
                    "sections_differ", MAIN_EN, detail=f"at heading or marker {i + 1} zh has «{a[1]}», en has «{b[1]}»"
                )
            ]
    if len(zh) != len(en):
        longer, extra = (MAIN_ZH, zh[len(en)]) if len(zh) > len(en) else (MAIN_EN, en[len(zh)])
        detail = f"{len(zh)} and {len(en)} headings and markers; {longer} goes on with «{extra[1]}»"
        return [_problem("sections_differ", MAIN_EN, detail=detail)]
    return []


def _references(handbook: Handbook, index: Mapping[str, Any]) -> list[Problem]:
    """The listed references exist, every reference is listed, and each has a title, title_en and summary."""
    from stockbench.research.handbook import _front_matter

    listed, present = [str(s) for s in index.get("references", {}).get("slugs", [])], handbook.references()
    where = f"{INDEX} [references]"
    problems = [_problem("reference_missing", where, slug=s) for s in listed if s not in present]
    problems += [_problem("reference_unlisted", f"references/{s}.md") for s in present if s not in listed]
    for slug in present:
        path = f"references/{slug}.md"
        meta, _ = _front_matter(handbook.files[path])
        fields = [f for f in ("title", "title_en", "summary") if not meta.get(f, "").strip()]
        problems += [_problem("reference_front_matter", path, field=f) for f in fields]
    return problems


def _table(handbook: Handbook, path: str) -> tuple[dict[str, Any], list[Problem]]:
    if path not in handbook.files:
        return {}, []
    try:
        return tomllib.loads(handbook.files[path]), []
    except tomllib.TOMLDecodeError as error:
        return {}, [_problem("table_invalid", path, error=error)]


def _is_index(symbol: str) -> bool:
    from stockbench.errors import UserError
    from stockbench.market.instruments import SecurityType, parse_symbol

    try:
        return parse_symbol(symbol).security_type is SecurityType.INDEX
    except UserError:
        return False


def _sectors(handbook: Handbook) -> list[Problem]:
    """Every sector index symbol is an index the program can identify, and the sector reference names it."""
    table, problems = _table(handbook, SECTORS)
    documented = handbook.files.get(SECTOR_REFERENCE, "")
    for row in table.get("industry", []):
        for symbol in map(str, row.get("indices", [])):
            if not _is_index(symbol):
                problems.append(_problem("sector_index_invalid", SECTORS, symbol=symbol, name=row.get("key")))
            if symbol not in documented:
                problems.append(_problem("sector_index_undocumented", SECTORS, symbol=symbol))
    return problems


def _pattern_error(pattern: str) -> str | None:
    try:
        re.compile(pattern)
    except re.error as error:
        return f"{pattern!r} is not a regular expression ({error})"
    return None


def _announcements(handbook: Handbook) -> list[Problem]:
    """Each announcement category has a known response level; thesis-level ones require a full analysis."""
    table, problems = _table(handbook, ANNOUNCEMENTS)
    for row in table.get("category", []):
        level, details = row.get("level"), []
        if level not in REVIEW_LEVELS:
            details.append(f"the level {level!r} is unknown")
        if row.get("thesis_level") and level != "full_analysis":
            details.append(f"thesis-level news requires full_analysis, not {level!r}")
        details += [e for e in map(_pattern_error, map(str, row.get("title_patterns", []))) if e]
        problems += [
            _problem("announcement_level_invalid", ANNOUNCEMENTS, name=row.get("key"), detail=d) for d in details
        ]
    return problems
