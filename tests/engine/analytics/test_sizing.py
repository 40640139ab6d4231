"""Order sizing and the pre-trade check: risk budget, cash, weight and lot caps, cautious ticks and the day's limits,
sells within the sellable quantity, refusals with reasons; and the service against a real ledger (realdata)."""

from __future__ import annotations

import shutil
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

import pytest

from stockbench.analytics.rule_tables import load_rule_tables
from stockbench.analytics.sizing import AccountView, Plan, SizeResult, Sizing, TradeDate, plan_with_defaults, size_order
from stockbench.clock import MARKET_TZ, ReplayClock
from stockbench.data.records import Quote
from stockbench.errors import InvalidInput
from stockbench.ledger.validation import FillDraft
from stockbench.market.fees import FeeSettings, order_fees
from stockbench.market.instruments import parse_symbol
from stockbench.market.limits import price_limits
from stockbench.workbench import Workbench
from tests.engine.analytics.test_zones import real_workspace, shared_folder

DAY = date(2021, 7, 1)
SETTINGS = FeeSettings(Decimal("0.00025"), Decimal("5"))
PAB = parse_symbol("000001.SZ")


def view(cash: str = "1000000", equity: str | None = None, holding: int = 0, sellable: int = 0) -> AccountView:
    value = Decimal(equity or cash)
    cost = Decimal("14.00") if holding else None
    return AccountView("a", "CNY", Decimal(cash), value, holding, sellable, cost, SETTINGS)


def plan(side: str = "buy", entry: str = "15.00", stop: str = "14.00", risk: str = "0.01", weight: str = "0.2") -> Plan:
    return Plan("buy" if side == "buy" else "sell", Decimal(entry), Decimal(stop), Decimal(risk), Decimal(weight))


def sized(result: SizeResult) -> Sizing:
    assert result.problems == () and result.sizing is not None
    return result.sizing


def codes(result: SizeResult) -> list[str]:
    assert result.sizing is None
    return [p.code for p in result.problems]


def loss(qty: int, entry: str, stop: str) -> Decimal:
    fees = order_fees(PAB, "buy", qty, Decimal(entry), DAY, settings=SETTINGS).total
    return (
        qty * (Decimal(entry) - Decimal(stop))
        + fees
        + order_fees(PAB, "sell", qty, Decimal(stop), DAY, settings=SETTINGS).total
    )


def test_risk_budget_sets_the_quantity_in_whole_lots() -> None:
    found = sized(size_order(PAB, plan(), view(), TradeDate(DAY, None)))
    budget = Decimal("10000.00")  # 1% of 1,000,000
    expected = max(q for q in range(100, 20000, 100) if loss(q, "15.00", "14.00") <= budget)
    assert found.qty == expected == 9700 and found.bound_by == ("risk",)
    assert found.loss_at_stop == loss(9700, "15.00", "14.00").quantize(Decimal("0.01")) <= found.risk_budget == budget
    assert found.fees.total == order_fees(PAB, "buy", 9700, Decimal("15.00"), DAY, settings=SETTINGS).total
    assert found.cash_after == Decimal("1000000") - 9700 * Decimal("15.00") - found.fees.total
    weight = 9700 * Decimal("15.00") / (Decimal("1000000") - found.fees.total)
    assert found.weight_after == weight.quantize(Decimal("0.0001"))
    assert found.break_even is not None and found.break_even > found.price


def test_weight_and_cash_caps() -> None:
    capped = sized(size_order(PAB, plan(weight="0.05"), view(), TradeDate(DAY, None)))
    assert capped.qty == 3300 and capped.bound_by == ("weight",)  # 3,300 x 15 = 49,500 <= 5% of the equity
    poor = sized(size_order(PAB, plan(), view(cash="20000", equity="1000000"), TradeDate(DAY, None)))
    assert poor.qty == 1300 and poor.bound_by == ("cash",) and poor.cash_after >= 0  # 1,400 x 15 > 20,000


def test_cash_too_small_for_one_lot() -> None:
    moutai = parse_symbol("600519.SH")
    rich = view(cash="10000", equity="10000000")  # the equity is in holdings: only the cash is short
    result = size_order(moutai, plan(entry="2000", stop="1900"), rich, TradeDate(DAY, None))
    assert codes(result) == ["cash_below_one_lot"]
    assert "less than one lot" in result.problems[0].message


def test_stop_above_the_entry_is_refused() -> None:
    assert codes(size_order(PAB, plan(stop="15.50"), view(), TradeDate(DAY, None))) == ["stop_not_below_entry"]
    assert codes(size_order(PAB, plan(stop="15.00"), view(), TradeDate(DAY, None))) == ["stop_not_below_entry"]
    # rounding can bring them together: a buy at 15.009 is placed at 15.00, on the stop
    assert codes(size_order(PAB, plan(entry="15.009", stop="15.00"), view(), TradeDate(DAY, None))) == [
        "stop_not_below_entry"
    ]


def test_star_lots_are_200_then_1() -> None:
    smic = parse_symbol("688981.SH")
    found = sized(
        size_order(smic, plan(entry="55.00", stop="50.00", risk="0.02", weight="1"), view(), TradeDate(DAY, None))
    )
    assert found.qty >= 200 and found.qty % 100 != 0  # 1-share steps above 200
    fees = order_fees(smic, "buy", found.qty + 1, found.price, DAY, settings=SETTINGS).total
    fees += order_fees(smic, "sell", found.qty + 1, found.stop, DAY, settings=SETTINGS).total
    assert (found.qty + 1) * 5 + fees > found.risk_budget
    small = size_order(smic, plan(entry="55.00", stop="50.00", risk="0.00075"), view(), TradeDate(DAY, None))
    assert codes(small) == ["risk_budget_below_one_lot"]  # 150 shares' worth of risk is below the 200 minimum


def test_hong_kong_board_lot_and_unknown_lot() -> None:
    tencent = parse_symbol("00700.HK")
    hkd = AccountView("h", "HKD", Decimal("1000000"), Decimal("1000000"), 0, 0, None, FeeSettings.default("HK"))
    found = sized(
        size_order(tencent.with_data(board_lot=100), plan(entry="400", stop="380"), hkd, TradeDate(DAY, None))
    )
    assert found.qty % 100 == 0 and found.qty > 0
    assert codes(size_order(tencent, plan(entry="400", stop="380"), hkd, TradeDate(DAY, None))) == ["lot_unknown"]


def test_cautious_ticks_and_the_days_limits() -> None:
    limits = price_limits(PAB, Decimal("15.00"), DAY)  # 13.50 - 16.50
    day = TradeDate(DAY, limits)
    buy = sized(size_order(PAB, plan(entry="15.009", stop="14.005"), view(), day))
    assert (buy.price, buy.stop) == (Decimal("15.00"), Decimal("14.00"))
    high = sized(size_order(PAB, plan(entry="17.00", stop="14.00"), view(), day))
    assert high.price == Decimal("16.50") and any("limit-up" in n for n in high.notes)
    assert codes(size_order(PAB, plan(entry="13.00", stop="12.00"), view(), day)) == ["entry_below_limit_down"]
    holder = view(holding=30000, sellable=30000)
    sell = sized(size_order(PAB, plan("sell", entry="15.001", stop="14.00"), holder, day))
    assert sell.price == Decimal("15.01")
    assert codes(size_order(PAB, plan("sell", entry="17.00", stop="14.00"), holder, day)) == ["entry_above_limit_up"]
    low = sized(size_order(PAB, plan("sell", entry="13.00", stop="12.00"), holder, day))
    assert low.price == Decimal("13.50")


def test_sells_reduce_to_the_budget_within_the_sellable_quantity() -> None:
    found = sized(size_order(PAB, plan("sell"), view(holding=20000, sellable=20000), TradeDate(DAY, None)))
    rest = 20000 - found.qty
    assert found.qty % 100 == 0 and found.bound_by == ("risk",)
    assert rest * Decimal("1.00") + found.fees.total <= found.risk_budget
    odd = sized(size_order(PAB, plan("sell"), view(holding=20050, sellable=20050), TradeDate(DAY, None)))
    assert odd.qty % 100 in (0, 50)
    capped = sized(size_order(PAB, plan("sell"), view(holding=20000, sellable=6000), TradeDate(DAY, None)))
    assert capped.qty == 6000 and capped.bound_by == ("sellable",)
    assert any("sellable today" in n for n in capped.notes)
    per_share = capped.fees.total / 6000  # 120.48 of fees: the average cost 14.00 plus 0.0201, rounded up
    assert capped.break_even == Decimal("14.03") and Decimal("14.02") < Decimal("14.00") + per_share


def test_sell_refusals() -> None:
    assert codes(size_order(PAB, plan("sell"), view(), TradeDate(DAY, None))) == ["no_position"]
    assert codes(size_order(PAB, plan("sell"), view(holding=1000, sellable=0), TradeDate(DAY, None))) == [
        "nothing_sellable"
    ]
    assert codes(size_order(PAB, plan("sell"), view(holding=1000, sellable=1000), TradeDate(DAY, None))) == [
        "nothing_to_sell"
    ]


def test_bad_fractions_and_defaults() -> None:
    assert codes(size_order(PAB, plan(risk="1.5"), view(), TradeDate(DAY, None))) == ["bad_risk_pct"]
    table = load_rule_tables().sizing
    chosen = plan_with_defaults("buy", Decimal("15"), Decimal("14"), risk_pct=None, max_weight=None, table=table)
    assert (chosen.risk_pct, chosen.max_weight) == (table.decimal("risk_pct"), table.decimal("max_weight"))
    with pytest.raises(InvalidInput):
        plan_with_defaults("short", Decimal("15"), Decimal("14"), risk_pct=None, max_weight=None, table=table)


def test_a_chosen_risk_above_the_ceiling_needs_confirmation() -> None:
    table = load_rule_tables().sizing
    ceiling = table.decimal("risk_pct_ceiling")
    assert table.decimal("risk_pct") <= ceiling == Decimal("0.02")

    def chosen(risk: str | None, confirm: bool = False) -> SizeResult:
        found = plan_with_defaults("buy", Decimal("15"), Decimal("14"), risk_pct=None if risk is None else
                                   Decimal(risk), max_weight=None, table=table, confirm_risk=confirm)  # fmt: skip
        return size_order(PAB, found, view(), TradeDate(DAY, None))

    assert codes(chosen("0.05")) == ["risk_above_ceiling"]
    assert sized(chosen("0.05", confirm=True)).risk_budget == Decimal("50000.00")
    assert sized(chosen("0.02")).risk_budget == Decimal("20000.00")  # at the ceiling: allowed
    assert sized(chosen(None)).risk_budget == Decimal("10000.00")  # the table's default never asks
    assert codes(chosen("1.5")) == ["bad_risk_pct"]  # out of range: one problem, not two


# ---- against a real ledger -----------------------------------------------------------------------------------


def cn(day: date, hour: int = 10) -> datetime:
    return datetime(day.year, day.month, day.day, hour, tzinfo=MARKET_TZ["CN"])


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    found = real_workspace(tmp_path_factory.mktemp("sizing"), shared_folder(), ["sh600519", "sh688981"])
    with Workbench.open(found, clock=ReplayClock.as_of(date(2021, 6, 30))) as bench:
        bench.ledger.add_account("main", "CNY")
        bench.ledger.cash("main", "deposit", Decimal("3000000"), at=cn(date(2021, 6, 1)))
        bench.ledger.record_fill(FillDraft("main", "600519.SH", "buy", 100, Decimal("2000.00"), cn(date(2021, 6, 28))))
        bench.ledger.record_fill(FillDraft("main", "688981.SH", "buy", 1000, Decimal("55.00"), cn(date(2021, 6, 30))))
    return found


@pytest.mark.realdata
def test_service_sizes_against_the_ledger_and_the_zones(home: Path) -> None:
    with Workbench.open(home, clock=ReplayClock.as_of(date(2021, 6, 30))) as bench:
        zones = bench.analytics.zones("600519.SH")
        result = bench.analytics.size("main", "600519.SH", "buy", zones.buy.high, zones.stop, risk_pct=Decimal("0.02"))
        cash = bench.ledger.balance("main")["CNY"]
    found = sized(result)
    assert found.day == date(2021, 7, 1) and found.price == zones.buy.high
    assert found.equity == cash + 100 * Decimal("2056.70") + 1000 * Decimal("61.82")  # the 2021-06-30 closes
    assert found.qty % 100 == 0 and found.loss_at_stop <= found.risk_budget == (
        found.equity * Decimal("0.02")
    ).quantize(Decimal("0.01"))
    assert found.cash_after == cash - found.qty * found.price - found.fees.total


@pytest.mark.realdata
def test_service_star_sell_is_refused_on_the_day_of_purchase(home: Path) -> None:
    during = ReplayClock(cn(date(2021, 6, 30), 14))  # the shares were bought at 10:00 that day: T+1
    with Workbench.open(home, clock=during) as bench:
        today = bench.analytics.size(
            "main", "688981.SH", "sell", Decimal("56"), Decimal("50"), risk_pct=Decimal("0.001")
        )
    assert codes(today) == ["nothing_sellable"]
    with Workbench.open(home, clock=ReplayClock.as_of(date(2021, 6, 30))) as bench:  # after the close
        later = bench.analytics.size(
            "main", "688981.SH", "sell", Decimal("56"), Decimal("50"), risk_pct=Decimal("0.001")
        )
    found = sized(later)
    assert found.qty == 510 and found.day == date(2021, 7, 1)  # the rest, 490 shares, loses at most 0.1%


@pytest.mark.parametrize("status", ["suspended", "delisted", "not_listed"])
def test_a_halted_name_is_not_sized(status: str) -> None:
    result = size_order(PAB, plan(), view(), TradeDate(DAY, None, status))  # type: ignore[arg-type]
    assert result.sizing is None and codes(result) == ["halted"]
    assert result.problems[0].key == f"halted.{status}" and PAB.symbol in result.problems[0].message
    assert sized(size_order(PAB, plan(), view(), TradeDate(DAY, None, "trading"))).qty > 0


@pytest.mark.realdata
def test_service_refuses_to_size_a_name_whose_latest_quote_is_suspended(home: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(home, copy)
    with Workbench.open(copy, clock=ReplayClock.as_of(date(2021, 6, 30))) as bench:
        zones = bench.analytics.zones("600519.SH")
        before = bench.analytics.size("main", "600519.SH", "buy", zones.buy.high, zones.stop)
        halted = Quote("600519.SH", cn(date(2021, 6, 30), 15), Decimal("2056.70"), Decimal("2056.70"), None, None,
                       None, 0, None, "tencent", status="suspended")  # fmt: skip
        bench.data.cache.store_quotes([halted])
        after = bench.analytics.size("main", "600519.SH", "buy", zones.buy.high, zones.stop)
        halted_zones = bench.analytics.zones("600519.SH")
        earlier = bench.analytics.zones("600519.SH", date(2021, 6, 29))  # a day before the quote: not read
    assert before.sizing is not None and codes(after) == ["halted"]
    assert "halted" not in zones.reasons and zones.trade_day.status == "trading"
    assert halted_zones.trade_day.status == "suspended" and not halted_zones.tradeable
    assert halted_zones.reasons[0] == "halted" and halted_zones.as_dict()["trade_day"]["status"] == "suspended"  # type: ignore[index]
    assert earlier.trade_day.status == "trading" and "halted" not in earlier.reasons


def test_service_refuses_to_size_a_name_before_its_listing_date(tmp_path: Path) -> None:
    from stockbench.market.registry import InstrumentData

    home = tmp_path / "workspace"
    with Workbench.open(home, clock=ReplayClock.as_of(date(2020, 7, 10))) as bench:
        bench.market.registry.save(InstrumentData("688981.SH", list_date=date(2020, 7, 16)))
        bench.ledger.add_account("main", "CNY")
        bench.ledger.cash("main", "deposit", Decimal("1000000"), at=cn(date(2020, 7, 1)))
        before = bench.analytics.size("main", "688981.SH", "buy", Decimal("30.00"), Decimal("27.00"))
        quote = bench.data.quote("688981.SH", fetch=False)
    assert codes(before) == ["halted"] and before.problems[0].key == "halted.not_listed"
    assert quote.status == "not_listed"
    with Workbench.open(home, clock=ReplayClock.as_of(date(2020, 7, 15))) as bench:  # orders go into its first session
        listing_day = bench.analytics.size("main", "688981.SH", "buy", Decimal("30.00"), Decimal("27.00"))
    assert sized(listing_day).day == date(2020, 7, 16)
