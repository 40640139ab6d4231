"""The research checks' and evidence gates' refusals are said in Chinese from the message catalogue, one typical
refusal per module, while the English the model reads stays as it was."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Any

import pytest

from stockbench.errors import InvalidInput, Problem, UserError
from stockbench.evidence.citations import ground_statement
from stockbench.evidence.documents import GateContext, Statement, grounding
from stockbench.evidence.levels import order_problems
from stockbench.evidence.numbers import ground_numbers
from stockbench.evidence.quotes import quote_problem
from stockbench.evidence.store import Evidence, canonical_json, digest, evidence_id_for
from stockbench.messages import error_words, problem, said
from stockbench.research import judgments as j
from stockbench.research.calc import calculate
from stockbench.research.changes import Change, load_table
from stockbench.research.decisions import agreement
from stockbench.research.quick_answers import QuickAnswers, answer_problems
from stockbench.research.replay import replay_days
from stockbench.research.tools import Tool, call_tool
from stockbench.research.validate import Checker
from tests.engine.test_messages import ENGLISH_WORD

AT = datetime(2026, 11, 27, 7, tzinfo=UTC)


def _chinese(found: Problem | UserError) -> tuple[str, str]:
    words = said(found, "zh") if isinstance(found, Problem) else error_words(found, "zh")
    english = (found.message, found.fix) if isinstance(found, Problem) else (found.message, found.hint)
    assert words != english
    return words


def _raised(error: type[UserError], call: Any, *args: Any, **kwargs: Any) -> UserError:
    with pytest.raises(error) as raised:
        call(*args, **kwargs)
    return raised.value


def test_a_calc_refusal_is_said_in_chinese_and_its_english_is_unchanged() -> None:
    found = _raised(InvalidInput, calculate, "a + b", {}, {}, None)
    assert (found.message, found.hint) == (
        "a computation needs inputs from evidence", "name each number as an input: evidence_id and path")  # fmt: skip
    assert _chinese(found) == ("计算需要取自证据的输入", "请把每个数作为输入给出：证据编号（evidence_id）和路径")
    unit = _raised(InvalidInput, calculate, "a", {"a": {}}, {}, "percent")
    assert unit.message == "unit 'percent' is unknown" and error_words(unit, "zh")[0] == "单位“percent”未知"


def test_a_tool_refusal_keeps_its_english_for_the_model_and_is_said_in_chinese_from_its_problem() -> None:
    def refuse(ctx: Any, expression: str) -> Any:
        """Compute `expression`, with no inputs."""
        return calculate(expression, {}, {}, None)

    tools = {"refuse": Tool.of(refuse)}
    unknown = call_tool(None, "nope", {}, None, tools)
    assert unknown.content["problems"] == [
        {"code": "unknown_tool", "message": "there is no tool 'nope'", "fix": "use one of: refuse"}]  # fmt: skip
    assert said(problem("unknown_tool.call", tool="nope", tools="refuse"), "zh") == (
        "没有工具“nope”",
        "请使用以下之一：refuse",
    )
    # a user error a tool raises reaches the model as it was; a problem made of it is said by the error's words
    result = call_tool(None, "refuse", {"expression": "a + b"}, None, tools)
    english = ("a computation needs inputs from evidence", "name each number as an input: evidence_id and path")
    assert result.content["problems"] == [{"code": "invalid_input", "message": english[0], "fix": english[1]}]
    made = Problem("invalid_input", *english, key="calc_no_inputs")
    assert said(made, "zh") == ("计算需要取自证据的输入", "请把每个数作为输入给出：证据编号（evidence_id）和路径")


def test_a_judgment_whose_reason_contradicts_its_action_is_said_in_chinese() -> None:
    (found,) = agreement("buy", "This follows the baseline.", "hold")
    assert found.message == "the reason says the action follows the baseline (hold), but the action is buy"
    assert _chinese(found)[0] == "理由说操作与基线（持有）一致，但操作是买入"
    (named,) = agreement("hold", "We should reduce now.", "")
    assert _chinese(named)[0] == "理由提到了减仓，但操作是持有"


def test_a_sub_study_on_the_wrong_side_is_said_in_chinese() -> None:
    checker = Checker({}, grounding({}))
    wrong, empty = checker.arguments(j.Arguments(side="bear", arguments=[]), "bull")
    assert (wrong.message, wrong.fix) == ("this sub-study argues the bull side, not bear", "submit side=bull")
    assert _chinese(wrong) == ("本子研究论证的是看多一方，而不是看空一方", "请提交 side=bull")
    assert _chinese(empty) == ("未提交任何论据", "请给出你找到的每一条论据")


def test_an_unanswered_change_of_a_quick_review_is_said_in_chinese() -> None:
    change = Change("stop_hit", "the close is under the stop", "act", (), "stop", id="c1")
    (found,) = answer_problems(QuickAnswers(answers=[]), [change], (), Checker({}, grounding({})), load_table())
    assert found.message == "change c1 (stop_hit) has no answer"
    assert _chinese(found) == ("变化 c1（stop_hit）没有回答", "请对每项变化各回答一次")


def test_a_replay_refusal_is_said_in_chinese() -> None:
    found = _raised(InvalidInput, replay_days, [date(2024, 1, 2)], 0)
    assert (found.message, found.hint) == ("--every 0 is not a number of sessions", "use 1 or more")
    assert _chinese(found) == ("--every 0 不是交易日数", "请使用 1 或更大的数")


def test_a_quote_of_a_missing_source_is_said_in_chinese() -> None:
    found = quote_problem("营收增长", "ev-x", None, None, "diagnosis.quotes[0]")
    assert found is not None
    assert found.message == "the quote at diagnosis.quotes[0] cites ev-x, which is not evidence of this run"
    assert _chinese(found)[0] == "diagnosis.quotes[0] 处的引文引用的 ev-x 不是本次研究的证据"


def test_an_ungrounded_number_is_said_in_chinese_with_none_in_chinese() -> None:
    (found,) = ground_numbers("营收 123.45 亿元", grounding({}), "report.conclusion")
    assert found.fix.endswith("nearest: none")
    message, fix = _chinese(found)
    assert message.startswith("report.conclusion[") and message.endswith("与本次研究的任何证据都不符")
    assert fix.endswith("最接近的值：无") and not ENGLISH_WORD.findall(fix)


def test_an_order_in_the_text_of_a_report_with_gaps_is_said_in_chinese() -> None:
    statement = Statement("report.conclusion", "建议买入 100 股", ())
    (found,) = order_problems(statement, [], gaps=True, lot=100)
    assert found.message.endswith("states an order, but the report has data gaps")
    assert _chinese(found)[1] == "有缺口的报告不带可执行委托：请删去数量和价格"


def test_a_number_outside_the_cited_evidence_is_said_in_chinese() -> None:
    text = canonical_json({"symbol": "605903.SH", "price": "358.53"})
    quote = Evidence(evidence_id_for(text), digest(text), "quote", "test", "application/json", AT, text)
    ctx = GateContext("run", {quote.evidence_id: quote}, (), (), (), {}, {})
    (found,) = ground_statement(Statement("risks[0]", "收于358.53元", (), "reason"), ctx, "605903.SH")
    assert found.code == "number_uncited" and "this statement cites (none)" in found.message
    assert "本句所引证据（无）" in _chinese(found)[0]
    assert json.loads(json.dumps(found.as_dict()))["message"] == found.message
