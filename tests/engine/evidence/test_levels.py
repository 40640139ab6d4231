"""Levels and orders come only from the program: prices that describe a zone, stop or order must be this run's
levels, a range must be one of its zones, and an order-like clause must be a sized order (none with gaps)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from stockbench.evidence.documents import GateContext, OrderPlan, Statement, StatementKind
from stockbench.evidence.levels import level_problems, order_mentions, order_problems

D = Decimal
ZONES = {"buy": (D("341.17"), D("351.56")), "sell": (D("361.08"), D("371.47")), "stop": (D("329.80"),)}
ORDER = OrderPlan("main", "605903.SH", "buy", 500, D("351.56"))


@pytest.fixture
def ctx() -> GateContext:
    return GateContext("run", {}, (), (), (), {}, {}, zone_bounds=ZONES, lot=100, previous_levels=(D("300.00"),))


def levels(ctx: GateContext, text: str, kind: StatementKind = "path") -> list[str]:
    found = level_problems(Statement("paths[0].trigger", text, (), kind), ctx, [ORDER], reference=D("355"))
    return [p.code for p in found]


def test_a_path_names_only_the_programs_levels(ctx: GateContext) -> None:
    assert levels(ctx, "价格进入买入区间 341.17-351.56") == []
    assert levels(ctx, "收盘跌破止损位 329.80") == []
    assert levels(ctx, "价格回落到 343.00-349.90 之间") == ["level_not_program"]  # a zone of the model's own
    assert levels(ctx, "价格回落到 341.17-361.08 之间") == ["level_not_program"]  # real levels, not a zone
    assert levels(ctx, "价格站上 357.20") == ["level_not_program"]
    assert levels(ctx, "成交量放大到 120万股") == []  # not a price


def test_other_texts_are_held_to_the_levels_where_they_speak_of_one(ctx: GateContext) -> None:
    assert levels(ctx, "现价 355.10 元，位于两区间之间", "report") == []  # the last price, not a level
    assert levels(ctx, "建议在 347.00 元挂单买入", "report") == ["level_not_program"]
    assert levels(ctx, "在 351.56 元挂单买入", "report") == []  # the sized order's price
    assert levels(ctx, "旧止损 300.00 已失效", "continuity") == []  # the previous report's level
    assert levels(ctx, "旧止损 300.00 已失效", "reason") == ["level_not_program"]
    assert levels(ctx, "买入 347.00", "claim") == []  # a claim is held to its evidence, not to the levels


def orders(ctx: GateContext, text: str, gaps: bool = False) -> list[str]:
    found = order_problems(Statement("report.what_to_do_now", text, (), "report"), [ORDER], gaps=gaps, lot=ctx.lot)
    return [p.code for p in found]


def test_an_order_in_prose_must_be_a_sized_order(ctx: GateContext) -> None:
    assert orders(ctx, "按计划以 351.56 元买入 500 股") == []
    assert orders(ctx, "买入 5 手") == []  # lots of 100
    assert orders(ctx, "立即以 73.18 元卖出 2100 股") == ["order_in_text"]
    assert orders(ctx, "买入 2100 手") == ["order_in_text"]
    assert orders(ctx, "以 350.00 元买入 500 股") == ["order_in_text"]  # the sized quantity at another price
    assert orders(ctx, "持有 1000 股，可卖 1000 股") == []  # a position, not an order
    assert orders(ctx, "按计划以 351.56 元买入 500 股", gaps=True) == ["order_in_text_with_gaps"]


def test_order_mentions_read_side_quantity_and_price() -> None:
    (mention,) = order_mentions("立即以 73.18 元卖出 2,100 股", 100)
    assert (mention.side, mention.shares) == ("sell", 2100) and mention.price is not None
    assert mention.price.value == D("73.18")
    (lots,) = order_mentions("buy 3 lots", 500)
    assert (lots.side, lots.shares) == ("buy", 1500)
    (english,) = order_mentions("Buy 200 shares at 16.21", 100)
    assert (english.side, english.shares) == ("buy", 200) and english.price is not None
