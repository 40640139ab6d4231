"""A program record's sentences said again in the reader's language from the codes and figures stored beside them
(stockbench.research.record_words), the record itself left as stored. The records of a whole research run, read in
the evidence pane, are checked in tests/ui/test_evidence_record.py."""

from __future__ import annotations

from datetime import datetime

from stockbench.analytics.valuation import LABELS
from stockbench.messages import VALUES, problem
from stockbench.research.record_words import SAMPLE_PARTS, record_words
from stockbench.research.track_scoring import RULES


def test_the_track_records_rules_are_the_scorings_own_and_said_in_chinese() -> None:
    assert {a: VALUES[f"record.rule.{a}"].en for a in RULES} == RULES  # the catalogue says what the scoring uses
    said = record_words({"rules": dict(RULES)}, "zh")
    assert said["rules"]["buy"] == "跑赢基准" and said["rules"]["wait"] == "未以判断的区间或更多跑赢基准（错过的上涨）"
    changed = record_words({"rules": {"buy": "beats the benchmark by 2%"}}, "zh")  # not this program's: as written
    assert changed["rules"]["buy"] == "beats the benchmark by 2%"


def test_a_refused_action_is_said_from_its_catalogue_key() -> None:
    found = problem("action_needs_position", action="hold", action_zh="持有")
    stored = {"code": found.code, "key": found.key, "message": found.message, "fix": found.fix,
              "params": dict(found.params)}  # fmt: skip
    said = record_words({"refused": {"hold": [stored]}}, "zh")["refused"]["hold"][0]
    assert "持有" in said["message"] and "hold" not in said["message"] and said["fix"] and said["code"] == found.code
    assert record_words({"refused": {"hold": [stored]}}, "en")["refused"]["hold"][0] == stored


def test_the_benchmark_notes_and_a_missing_benchmarks_bars() -> None:
    notes = {
        "the official benchmark 000300.SH has no bars in this workspace; measured against 000690.SH (示例综合指数) "
        "instead": "官方基准 000300.SH 在本工作区没有行情数据；改以 000690.SH（示例综合指数）衡量",
        "the official benchmark 000300.SH has no bars in this workspace: relative returns and hit rates are not "
        "computed": "官方基准 000300.SH 在本工作区没有行情数据：不计算相对收益与命中率",
        "no daily bars of HSI.HK are stored on or before 2026-11-27": "2026-11-27 及之前没有存储 HSI.HK 的日线",
    }
    for english, chinese in notes.items():
        assert record_words({"note": english}, "zh") == {"note": chinese}
        assert record_words({"note": english}, "en") == {"note": english}


def test_a_valuation_gap_is_said_by_its_metrics_name() -> None:
    stored = {m: {"days": 0, "status": "gap", "reason": f"no {label} history"} for m, label in LABELS.items()}
    said = record_words(stored, "zh")
    assert [said[m]["reason"] for m in ("pe_ttm", "pb_mrq", "ps_ttm")] == [
        "无市盈率TTM历史数据", "无市净率历史数据", "无市销率TTM历史数据"]  # fmt: skip
    assert record_words(stored, "en") == stored


def test_a_states_rule_and_the_scenarios_cell_are_said_with_their_inputs_in_words() -> None:
    states = {"capital": {"rule": "outflow: flow_short <= -0.03 and flow_long <= 0", "state": "outflow",
                          "table": "capital"},
              "trend": {"rule": "range: no rule matched", "state": "range", "table": "trend"}}  # fmt: skip
    said = record_words(states, "zh")
    assert said["capital"]["rule"] == "净流出：短窗口主力净额占成交额 <= -0.03 且 长窗口主力净额占成交额 <= 0"
    assert said["trend"]["rule"].endswith("：没有规则匹配")
    note = ("probabilities from trend=range, volatility=normal (806758 samples); finer cells skipped: "
            "relative_strength unknown")  # fmt: skip
    scenarios = {"cell": {"trend": "range", "volatility": "normal"}, "note": note}
    chinese = record_words(scenarios, "zh")["note"]
    assert chinese.startswith("概率取自 趋势=") and "806758 个样本" in chinese and chinese.endswith("相对强弱未知")
    assert record_words(scenarios, "en")["note"] == (  # the same statement, the states in words
        "probabilities from trend=range-bound, volatility=normal (806758 samples); finer cells skipped: relative "
        "strength unknown"
    )


def test_an_instant_is_said_in_the_exchanges_time_and_the_kept_notes_are_not_shown() -> None:
    stored = {"published_at": "2026-11-27 10:00:00+00:00", "sample_note": "x", SAMPLE_PARTS: []}
    said = record_words(stored, "zh", "605903.SH")
    assert said["published_at"] == "2026-11-27 18:00:00 北京时间（UTC+08:00）" and SAMPLE_PARTS not in said
    assert record_words(stored, "en", "00700.HK")["published_at"] == "2026-11-27 18:00:00 Hong Kong time (UTC+08:00)"
    assert record_words(stored, "en")["published_at"] == stored["published_at"]  # no exchange named: as stored
    assert datetime.fromisoformat(stored["published_at"])  # the stored value is untouched


def test_a_record_of_another_shape_is_left_as_written() -> None:
    """A record of an older version (a gate without its figures' names, a refused action whose parameters do not fill
    its words, an instant of a symbol this program does not read) is shown as written, never a failed look-up."""
    odd = {
        "gates": [
            {
                "name": "fresh_quote",
                "status": "pass",
                "code": "last_close",
                "reason": "as written",
                "values": {"at": "not a time"},
            }
        ],
        "refused": {"add": [{"code": "x", "key": "action_needs_position", "message": "as written", "params": {}}]},
        "at": "2026-11-27 10:00:00+00:00",
    }
    said = record_words(odd, "zh", "not a symbol")
    assert said["gates"][0]["reason"] and said["refused"]["add"][0]["message"] == "as written"
    assert said["at"] == odd["at"]


def test_the_continuity_records_codes_have_words_in_both_languages() -> None:
    """The evidence pane says a record's codes in words: the previous report's call, the event that decided its
    grade, the grade and its notes (reversed_later and target_after_entry among them) were shown as stored codes."""
    import re
    from typing import get_args

    from stockbench.messages import value_word
    from stockbench.research.continuity import Call, Event, Grade, Note

    codes = [c for kind in (Call, Event, Grade, Note) for c in get_args(kind) if c != "none"]
    assert {"reversed_later", "target_after_entry", "bearish", "stop_closed"} <= set(codes)
    unsaid = [c for c in codes if not re.search("[\u4e00-\u9fff]", value_word("evidence_value", c, "zh"))]
    assert unsaid == []
    assert [c for c in codes if "_" in c and value_word("evidence_value", c, "en") == c] == []  # no code in English
