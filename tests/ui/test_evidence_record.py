"""The evidence pane's reading of a program's own record (a zones computation): every field and code in words of the
interface's language, numbers and dates as stored, the value looked up still found to be marked. Found on main: the
Chinese evidence pane showed the record's JSON ("position": "in_buy", "what": "ma20 on the as-of session")."""

from __future__ import annotations

import json
import re

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
