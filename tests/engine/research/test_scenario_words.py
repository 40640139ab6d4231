"""The scenarios and the plan as research reads them: each scenario's words written from its landing place in both
languages (never a zone it does not reach), the facts blocks and summaries that carry the program's figures, and
the summaries and blocks stored before those figures existed."""

from __future__ import annotations

from decimal import Decimal

import pytest

from stockbench.analytics.scenarios import LANDS
from stockbench.research.blocks import RunFacts
from stockbench.research.summary import ReportSummary, ScenarioLine
from stockbench.research.wording import LANGUAGES, Language
from stockbench.research.wording.plan import scenario_words

LEVELS = {"buy_low": "1981.75", "buy_high": "2028.36", "sell_low": "2148.93", "sell_high": "2211.08",
          "stop": "1919.61", "horizon": 20, "move": "6.8", "low": "1910.60", "high": "2189.40"}  # fmt: skip
# The words that name a landing place, by language: each may appear only for its own place.
PLACES = {
    "zh": {"in_buy": "位于买入区", "in_sell": "位于卖出区", "below_stop": "低于止损", "above_sell": "高于卖出区",
           "below_buy": "低于买入区"},
    "en": {"in_buy": "in the buy zone", "in_sell": "in the sell zone", "below_stop": "below the stop",
           "above_sell": "above the sell zone", "below_buy": "below the buy zone"},
}  # fmt: skip


def test_the_issue_example_in_both_languages() -> None:
    values = {**LEVELS, "price": "1910.60"}
    assert (
        scenario_words("zh", "down", "below_stop", **values)
        == "20个交易日内下跌6.8%或更多，至1910.60附近，低于止损1919.61"
    )
    assert scenario_words("en", "down", "below_stop", **values) == (
        "falls 6.8% or more within 20 sessions, to about 1910.60, below the stop 1919.61"
    )


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("lands", LANDS)
@pytest.mark.parametrize("name", ["up", "sideways", "down"])
def test_a_scenario_names_only_the_place_it_lands(language: Language, lands: str, name: str) -> None:
    text = scenario_words(language, name, lands, **LEVELS, price="2050.00")
    for place, words in PLACES[language].items():
        assert (words in text) == (place == lands), (place, text)
    assert "2050.00" in text and "6.8" in text and "20" in text


def test_without_a_landing_price_no_place_is_named() -> None:
    for language in LANGUAGES:
        text = scenario_words(language, "up", None, **LEVELS)
        assert not any(words in text for words in PLACES[language].values())


def test_a_summary_stored_before_the_figures_still_loads() -> None:
    old = {"action": "hold", "scenarios": [{"name": "down", "probability": "0.24", "narrative": "falls"}], "schema": 1}
    found = ReportSummary.from_json(old)
    assert found.scenarios == (ScenarioLine("down", "0.24", "falls"),)
    assert (found.scenarios[0].move_pct, found.scenarios[0].price, found.scenarios[0].lands) == (None, None, None)
    line = ScenarioLine("down", "0.26", "falls", Decimal("-6.8"), Decimal("1910.60"), "below_stop")
    stored = ReportSummary("wait", scenarios=(line,)).as_json()
    assert stored["scenarios"] == [{"name": "down", "probability": "0.26", "narrative": "falls", "move_pct": "-6.8",
                                    "price": "1910.60", "lands": "below_stop"}]  # fmt: skip
    assert ReportSummary.from_json(stored).scenarios == (line,)


ZONES = {"buy": {"low": "9.50", "high": "10.00"}, "sell": {"low": "12.00", "high": "12.60"}, "stop": {"price": "9.10"}}


def test_the_zones_block_carries_the_plan_and_an_old_block_never_passes() -> None:
    plan = {"reward_risk": "3.92", "min_reward_risk": "1.5", "tradeable": True, "reasons": [],
            "distance_pct": {"buy_high_pct": "-1.96", "sell_low_pct": "17.65", "stop_pct": "-10.78"}}  # fmt: skip
    zones = RunFacts.of({"analytics": {"zones": {**ZONES, **plan}}}).zones
    assert zones is not None and zones.tradeable and zones.reasons == ()
    assert (zones.reward_risk, zones.distance_pct.buy_high_pct) == (Decimal("3.92"), Decimal("-1.96"))
    old = RunFacts.of({"analytics": {"zones": ZONES}}).zones
    assert old is not None and not old.tradeable and old.reasons == ("not_assessed",) and old.reward_risk is None


def test_the_scenarios_block_carries_each_landing() -> None:
    item = {"name": "down", "probability": "0.26", "move_pct": "-6.8", "price": "1910.60", "lands": "below_stop"}
    found = RunFacts.of({"analytics": {"scenarios": {"items": [item]}}})
    assert found.analytics is not None and found.analytics.scenarios is not None
    (down,) = found.analytics.scenarios.items
    assert (down.move_pct, down.price, down.lands) == (Decimal("-6.8"), Decimal("1910.60"), "below_stop")
