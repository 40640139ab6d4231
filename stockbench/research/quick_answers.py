"""The model's half of a quick review: one answer per change, checked the moment it is submitted.

Answers are checked like judgments: every number grounded in the evidence it cites, no level lowered, only the
actions the table allows for the level, a followed path copied from the report; thesis-level news is never
adjudicated on the spot (a protective action, then a full analysis). The offline rules model answers each change
at its minimum level, in the run's language (the facts' `language`; the words from the research catalogue). The
instructions to the model stay Chinese: no person reads them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from stockbench.errors import Problem
from stockbench.messages import problem
from stockbench.research import judgments as j
from stockbench.research.blocks import RunFacts
from stockbench.research.changes import Change, Level, LevelTable, QuickAction, rank
from stockbench.research.offline import OfflineModel
from stockbench.research.results import ToolResult, rejected
from stockbench.research.tools import Tool
from stockbench.research.validate import Checker
from stockbench.research.wording import say
from stockbench.research.wording.entry import Language, is_language, language_of

STAGE = "quick_review"
REFERENCE = "quick-review-levels"
INSTRUCTIONS = """\
逐项回答 FACTS 中 `changes` 的每一个变化项，每项一条，通过 submit_answers 一次提交：
- level 不得低于该项的最低级别（可以提高）；action 只能取该级别允许的动作（见阶段说明的 actions）。
- follow_path：path 必须逐字抄写基准报告 paths 中的一个 trigger；没有对应路径就是 protect。
- 论点级公告（thesis_level 为 true）从不当场裁决：level 为 full_analysis，action 为 protect（先暂停未成交的买单、\
不加仓、持仓按原止损执行），随后需要完整分析。
- 不重新收集财务与公告全文，不改区间，不改情景概率；需要这些时就是 full_analysis。
- response 的每个数字都必须来自本次运行的证据，并在 evidence 中引用其 evidence_id。"""


class QuickAnswer(j.Strict):
    change: str = Field(description="The id of the change answered (c1, c2 ...).")
    level: Level = Field(description="At least the change's minimum level; you may raise it, never lower it.")
    action: QuickAction = Field(description="One of the actions the table allows at the chosen level.")
    response: j.Cited = Field(description="Why, and what to do or watch next; every number from cited evidence.")
    path: str | None = Field(default=None, description="For follow_path: a trigger of the report's paths, copied.")


class QuickAnswers(j.Strict):
    """Answer every change of the quick review's change list, exactly one answer per change, in one call."""

    answers: list[QuickAnswer]


@dataclass(frozen=True)
class AnswerContext:
    """What the answers are checked against: the change list, the report's path triggers, the checks, the table."""

    changes: Sequence[Change]
    triggers: Collection[str]
    checker: Checker
    table: LevelTable


def submit_answers(ctx: AnswerContext, answers: QuickAnswers) -> ToolResult:
    """Answer every change of the quick review's change list, exactly one answer per change, in one call."""
    problems = answer_problems(answers, ctx.changes, ctx.triggers, ctx.checker, ctx.table)
    if problems:
        return rejected(problems)
    return ToolResult({"accepted": True, "judgment": "quick_answers", "value": answers_json(answers)})


SUBMIT = Tool.of(submit_answers)


def answer_problems(
    batch: QuickAnswers, changes: Sequence[Change], triggers: Collection[str], checker: Checker, table: LevelTable
) -> list[Problem]:
    """Every problem with a batch of answers: coverage, levels, actions, paths, thesis-level news, numbers."""
    by_id = {c.id: c for c in changes}
    given = [a.change for a in batch.answers]
    problems = [
        problem("answer_missing", change=c.id, kind=c.kind, location="answers") for c in changes if c.id not in given
    ]
    problems += [
        problem("answer_duplicate", change=cid, count=given.count(cid), location="answers")
        for cid in sorted({g for g in given if given.count(g) > 1})
    ]
    for i, answer in enumerate(batch.answers):
        change = by_id.get(answer.change)
        where = f"answers[{i}]"
        if change is None:
            problems.append(problem("change_unknown", change=answer.change, changes=", ".join(by_id), location=where))
            continue
        problems += _answer_problems(answer, change, where, triggers, table) + checker.cited(
            answer.response, f"{where}.response"
        )
    return problems


def _answer_problems(
    answer: QuickAnswer, change: Change, where: str, triggers: Collection[str], table: LevelTable
) -> list[Problem]:
    problems = []
    if rank(answer.level) < rank(change.level):
        problems.append(problem("level_lowered", change=change.id, level=answer.level, minimum=change.level,
                                location=where))  # fmt: skip
    allowed = table.actions[answer.level]
    if answer.action not in allowed:
        problems.append(problem("action_not_allowed", action=answer.action, level=answer.level,
                                allowed=", ".join(allowed), location=where))  # fmt: skip
    if change.thesis_level and (answer.level != "full_analysis" or answer.action != "protect"):
        problems.append(problem("thesis_adjudicated", change=change.id, level="full_analysis", action="protect",
                                location=where))  # fmt: skip
    if answer.action == "follow_path" and answer.path not in triggers:
        if triggers:
            problems.append(problem("path_unknown", path=answer.path, triggers=" | ".join(triggers), location=where))
        else:
            problems.append(problem("path_unknown.none", path=answer.path, action="protect", location=where))
    return problems


class OfflineQuickReview(OfflineModel):
    """The offline rules model, answering each change at its minimum level (a path when the report has one)."""

    def builders(
        self,
    ) -> Mapping[str, Callable[[RunFacts, dict[str, Any], dict[str, Any]], tuple[str, dict[str, Any]]]]:
        return {**super().builders(), STAGE: self._quick_review}

    def _quick_review(self, facts: RunFacts, spec: dict[str, Any], last: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        block = facts.raw.get(STAGE, {})
        stop = ((block.get("baseline") or {}).get("zones") or {}).get("stop")
        actions: dict[str, list[str]] = spec.get("actions", {})
        plan = [
            e for e in ((block.get("baseline") or {}).get("evidence_id"), block.get("baseline_text_evidence_id")) if e
        ]
        written = str(block.get("language") or "zh")  # runs before the language was stored: Chinese
        language: Language = language_of(written) if is_language(written) else "zh"
        answers = [_offline_answer(c, actions, stop, plan, language) for c in block.get("changes", [])]
        return "submit_answers", {"answers": answers}


def _offline_answer(
    change: dict[str, Any], actions: dict[str, list[str]], stop: str | None, plan: list[str], language: Language = "zh"
) -> dict[str, Any]:
    """One change answered at its minimum level; a text that restates the report's path or stop cites the report."""
    level, detail, path = change["level"], change["detail"], change.get("path")
    allowed = actions.get(level, [])
    if level in ("act", "full_analysis") and not ("follow_path" in allowed and path):
        level, action = "full_analysis", "protect"  # no report path covers it: protect, then a full analysis
    else:
        action = "follow_path" if "follow_path" in allowed else allowed[0]
    values: dict[str, object] = {"detail": detail}
    if action == "keep_plan":
        values["level"] = say(f"quick.level.{change['level']}", language)
    elif action == "watch":
        values["next"] = change.get("next_check") or say("quick.answer.watch_default", language)
    elif action == "follow_path":
        values["path"] = path
    else:
        values["stop"] = f" {stop}" if stop else ""
    text = say(f"quick.answer.{action}", language, **values)
    cited = [*change["evidence"], *(e for e in plan if e not in change["evidence"])] if action != "watch" else []
    return {
        "change": change["id"],
        "level": level,
        "action": action,
        "response": {"text": text, "evidence": cited or change["evidence"]},
        "path": path if action == "follow_path" else None,
    }


def answers_json(batch: QuickAnswers) -> dict[str, Any]:
    return {
        "answers": [
            {
                "change": a.change,
                "level": a.level,
                "action": a.action,
                "response": a.response.text,
                "evidence": list(a.response.evidence),
                "path": a.path,
            }
            for a in batch.answers
        ]
    }
