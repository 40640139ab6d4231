"""The evidence pane's reading of a program's own record (a zones computation): every field and code in words of the
interface's language, numbers and dates as stored, the value looked up still found to be marked. Found on main: the
Chinese evidence pane showed the record's JSON ("position": "in_buy", "what": "ma20 on the as-of session")."""

from __future__ import annotations

import json
import re

from stockbench.evidence.records import EvidenceRequest
from stockbench.evidence.store import EvidenceStore
from stockbench.research.record_words import SAMPLE_PARTS, record_words
from stockbench.workbench import Workbench
from ui.screens.reports.evidence_record import readable_record, readable_value

ZONES = {
    "as_of": "2026-11-27", "atr14": "0.2271",
    "buy": {"anchors": [
        {"day": "2026-09-16", "id": "buy:swing_low:pivot_low", "price": "10.3000", "role": "basis",
         "what": "extreme of 5 sessions either side"},
        {"day": "2026-11-27", "id": "sell:ma:ma60", "price": "10.9305", "role": "confluence",
         "what": "ma60 on the as-of session"},
        {"day": "2026-11-27", "id": "buy:atr_band:atr14", "price": "0.2271", "role": "width",
         "what": "basis - 0.5 x ATR14 to basis + 0.25 x ATR14"}], "high": "10.35", "low": "10.18"},
    "flags": ["ex_rights: 2026-06-15 (factor 1.063358); earlier bars adjusted onto the 2026-11-27 scale"],
    "last": "10.43", "position": "in_buy", "reasons": [], "tradeable": True, "float_mcap": None,
}  # fmt: skip
PASSAGE = json.dumps(ZONES, ensure_ascii=False, indent=1, sort_keys=True)  # as the evidence look-up gives it


def test_a_zones_record_is_read_in_chinese() -> None:
    said = readable_record(PASSAGE, "zh")
    assert "   · 日期：2026-09-16\n     价格：10.3000\n     作用：基准\n     依据：波段低点" in said
    assert "依据：60日均线" in said and "依据：平均真实波幅（14日）带宽" in said
    assert "价格位置：位于买入区间" in said and "最新价：10.43" in said and "可交易：是" in said
    assert "· 2026-06-15 除权除息（复权因子 1.063358）；之前的日线已按 2026-11-27 的价格尺度复权" in said
    assert "原因：无" in said and "流通市值：无" in said
    left = re.sub(r"ATR14|UTC", "", said)
    assert not re.findall(r"[A-Za-z]{2,}", left), left
    assert readable_value(json.dumps("10.3000")) in said


def test_a_record_cut_short_is_read_as_far_as_it_goes() -> None:
    cut = PASSAGE[:300] + "\n…"
    said = readable_record(cut, "zh")
    assert said.startswith("  截至：2026-11-27\n  平均真实波幅（14日）：0.2271\n  买入区间：") and said.endswith("…")


def test_in_english_the_fields_are_words_too() -> None:
    said = readable_record(PASSAGE, "en")
    assert "position: in the buy zone" in said and "built on: swing low" in said and "tradeable: yes" in said
    assert "ex_rights: 2026-06-15 (factor 1.063358)" in said  # the flag as the analytics wrote it


# ---- every record a report cites, as the evidence pane reads it ---------------------------------------------------
# What may stay in Latin letters in a Chinese reading: evidence ids, symbols, file names, the names of indicators and
# ratios as Chinese readers write them (ATR, MACD, TTM...), a rule table's version, a problem's stable code (its
# message beside it is in words), and the names a data service gives an index.
LATIN_KEPT = re.compile(
    r"ev-[0-9a-f]+|R\d{8}-[0-9a-f]+|(?<![A-Za-z])[0-9A-Z]{1,6}\.(?:SH|SZ|BJ|HK)(?![A-Za-z])|(?<![A-Za-z])[A-Z][A-Z0-9]+(?![A-Za-z])"
    r"|\b\w+\.json\b|\bv\d[\d.]*\b|(?:代码|条目)：[a-z_.]+$|[a-z_]+:\S+|Hang Seng Index"
)


def _records(bench: Workbench) -> list[tuple[str, str, object]]:
    """Every program record (JSON) of the runs that published the reports (the pane shows any evidence id a report
    cites): (its run's symbol, evidence id, its value)."""
    store = EvidenceStore(bench.workspace.db)
    rows = bench.workspace.db.execute(
        "SELECT DISTINCT r.symbol, e.evidence_id FROM run_evidence e JOIN runs r ON r.run_id = e.run_id "
        "JOIN reports p ON p.run_id = r.run_id ORDER BY 2"
    ).fetchall()
    found = [(symbol, evidence_id, store.get(evidence_id)) for symbol, evidence_id in rows]
    return [(symbol, evidence_id, stored.json()) for symbol, evidence_id, stored in found
            if stored.media_type == "application/json"]  # fmt: skip


def _english_left(said: str) -> list[str]:
    return [line for line in said.splitlines() if re.search(r"[A-Za-z]{2,}", LATIN_KEPT.sub("", line.strip()))]


def test_every_record_a_report_cites_reads_in_chinese(reports_bench: Workbench) -> None:
    """Found on main: the Chinese evidence pane read most records with English field names ("now_local",
    "exception_allowed"), codes ("check_failed", "built_sector") and the program's English sentences (a gate's
    reason, a refused action's message, the baseline's reasons, the backtest's sample note, the scenarios' texts)."""
    records = _records(reports_bench)
    assert len(records) >= 40  # every computation of three runs: clock, ledger, gates, zones, scenarios, sizing...
    left: dict[str, list[str]] = {}
    for symbol, evidence_id, value in records:
        passage = json.dumps(record_words(value, "zh", symbol), ensure_ascii=False, indent=1, sort_keys=True)
        english = _english_left(readable_record(passage, "zh"))
        if english:
            left[evidence_id] = english
    assert left == {}, "\n".join(f"{k}: {v[:6]}" for k, v in left.items())


def test_the_records_kept_codes_say_in_english_exactly_what_is_stored(reports_bench: Workbench) -> None:
    """The catalogue notes and zone levels kept beside the backtest's sample note and the scenarios' texts say, in the
    language each was stored in, exactly the stored sentence (so what is said from them in the other language is the
    same statement), and are not shown."""
    checked = 0
    for symbol, _, value in _records(reports_bench):
        if not isinstance(value, dict) or not ({"horizons", "items"} & value.keys()):
            continue
        english, chinese = record_words(value, "en", symbol), record_words(value, "zh", symbol)
        assert SAMPLE_PARTS not in json.dumps(english) + json.dumps(chinese)
        for horizon, stats in (value.get("horizons") or {}).items():  # the sample note is stored in English
            assert stats[SAMPLE_PARTS] and english["horizons"][horizon]["sample_note"] == stats["sample_note"]
            assert "次信号" in chinese["horizons"][horizon]["sample_note"]
            checked += 1
        for item, words in zip(value.get("items") or [], chinese.get("items") or [], strict=True):
            assert words["description"] == item["description"]  # the scenarios' texts in the run's language (zh)
            checked += 1
    assert checked >= 10


def test_the_evidence_look_up_says_a_record_in_the_language_asked_and_leaves_it_stored(
    reports_bench: Workbench,
) -> None:
    symbol, evidence_id, value = next(r for r in _records(reports_bench) if "gates" in r[2])  # type: ignore[operator]
    before = EvidenceStore(reports_bench.workspace.db).get(evidence_id)
    [chinese] = reports_bench.evidence.lookup(EvidenceRequest((evidence_id,)), "zh", symbol)
    [english] = reports_bench.evidence.lookup(EvidenceRequest((evidence_id,)), "en", symbol)
    assert "原因：" in readable_record(chinese.passage, "zh") and "日线" in chinese.passage
    assert before.json() == value  # the look-up said it again; the record is as stored
    assert "daily bars" in english.passage and "daily bars" not in chinese.passage
    [stored] = reports_bench.evidence.lookup(EvidenceRequest((evidence_id,)))  # no language: the text as stored
    as_stored = json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True)
    assert as_stored.startswith(stored.passage.removesuffix("\n…"))
    after = EvidenceStore(reports_bench.workspace.db).get(evidence_id)
    assert after.body == before.body and chinese.intact and chinese.sha256 == before.sha256
