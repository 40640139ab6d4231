"""Zones: the one algorithm on real bars of 600519.SH, 000001.SZ, 688981.SH and 300750.SZ across 2019-2021 (realdata),
the edge cases (limit-up closes, a suspension, ex-rights dates, a STAR listing), and a property on generated bars:
zone prices are always valid ticks, buy.high <= sell.low and the stop lies under the buy zone."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stockbench.analytics.indicators import add_indicators
from stockbench.analytics.zones import (
    POSITIONS,
    TradeDay,
    ZoneParams,
    Zones,
    compute_levels,
    zone_problems,
    zones_for,
)
from stockbench.clock import ReplayClock
from stockbench.errors import DataUnavailable
from stockbench.market.instruments import parse_symbol
from stockbench.market.limits import price_limits
from stockbench.market.ticks import is_valid_tick
from stockbench.workbench import Workbench
from tests.conftest import SHARED_DATA

REAL = {"600519.SH": "sh600519", "000001.SZ": "sz000001", "688981.SH": "sh688981", "300750.SZ": "sz300750"}
DATES = [date(2019, 3, 29), date(2019, 12, 31), date(2020, 6, 30), date(2020, 12, 31), date(2021, 6, 30)]


def real_workspace(folder: Path, shared: Path, codes: Sequence[str], since: str = "2017-01-01") -> Path:
    """A workspace holding the community CSVs of `codes` (e.g. sh600519) from `since` on, imported through the
    data importer (rows before `since` are left out of a copy of each file, to keep the import quick)."""
    copies = folder / "csv"
    copies.mkdir(parents=True, exist_ok=True)
    for code in codes:
        lines = (shared / "ashare_full" / f"{code}.csv").read_text(encoding="utf-8").splitlines()
        kept = lines[:2] + [line for line in lines[2:] if line.split(",")[2] >= since]
        (copies / f"{code}.csv").write_text("\n".join(kept) + "\n", encoding="utf-8")
    home = folder / "workspace"
    with Workbench.open(home, clock=ReplayClock.as_of(date(2022, 1, 14))) as bench:
        report = bench.data.import_file(copies)
        assert report.rejected == 0 and report.symbols == len(codes)
        bench.market.calendars.calendar("CN")  # build the calendar once, outside the timed tests
    return home


def shared_folder() -> Path:
    """The shared real-data folder (the `shared_data` fixture's check, for module-scoped fixtures)."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real data not available: {SHARED_DATA} is absent (it ships beside the repository in CI)")
    return SHARED_DATA


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return real_workspace(tmp_path_factory.mktemp("zones"), shared_folder(), [*REAL.values(), "sh600078"])


def zones_on(home: Path, symbol: str, day: date, price: Decimal | None = None) -> Zones:
    with Workbench.open(home, clock=ReplayClock.as_of(day)) as bench:
        return bench.analytics.zones(symbol, price=price)


def check_prices(found: Zones) -> None:
    """Every price is a valid tick; the bounds are ordered; each zone rests on a basis and an ATR width."""
    instrument = parse_symbol(found.symbol)
    day = found.trade_day.day or found.as_of
    for price in (found.buy.low, found.buy.high, found.sell.low, found.sell.high, found.stop):
        assert is_valid_tick(instrument, price, day), price
    assert found.stop < found.buy.low <= found.buy.high < found.sell.low <= found.sell.high  # never share a price
    for zone in (found.buy, found.sell):
        roles = [a.role for a in zone.anchors]
        assert roles.count("basis") == 1 and roles[-1] == "width"
        basis = next(a for a in zone.anchors if a.role == "basis")
        assert zone.low - Decimal("0.01") <= basis.value <= zone.high + Decimal("0.01")
    assert found.position in POSITIONS


@pytest.mark.realdata
@pytest.mark.parametrize(
    ("symbol", "day"), [(s, d) for s in REAL for d in DATES if s != "688981.SH" or d > date(2020, 7, 16)]
)
def test_real_zones_are_valid_ticks_and_ordered(home: Path, symbol: str, day: date) -> None:
    found = zones_on(home, symbol, day)
    assert found.as_of == day  # none of the four was suspended on these days
    check_prices(found)
    limits = found.trade_day.limits
    assert limits is not None and limits.up is not None and limits.down is not None
    for zone in (found.buy, found.sell):
        if zone.tradable is not None:
            assert limits.down <= zone.tradable[0] <= zone.tradable[1] <= limits.up


@pytest.mark.realdata
def test_position_of_a_price(home: Path) -> None:
    found = zones_on(home, "600519.SH", date(2021, 6, 30))
    assert found.price == Decimal("2056.70")
    assert found.position_of(found.stop) == "stop_hit"
    assert found.position_of(found.buy.low) == "in_buy"
    assert found.position_of(found.buy.low - Decimal("0.01")) == "below_buy"
    assert found.position_of(found.sell.high) == "in_sell"
    assert found.position_of(found.sell.high + Decimal("0.01")) == "above_sell"
    between = zones_on(home, "600519.SH", date(2021, 6, 30), price=found.sell.low - Decimal("0.01"))
    assert between.position == ("between" if found.buy.high < found.sell.low - Decimal("0.01") else "in_buy")


@pytest.mark.realdata
def test_zones_are_deterministic(home: Path) -> None:
    one, two = zones_on(home, "300750.SZ", date(2021, 3, 31)), zones_on(home, "300750.SZ", date(2021, 3, 31))
    assert one == two


@pytest.mark.realdata
def test_limit_up_close(home: Path) -> None:
    # 000001.SZ closed at its limit-up 15.68 on 2020-07-06 (reference 14.25); the next session's limits come from it.
    found = zones_on(home, "000001.SZ", date(2020, 7, 6))
    assert found.price == Decimal("15.68")
    assert any(f.startswith("closed_limit_up") for f in found.flags)
    assert found.trade_day.day == date(2020, 7, 7)
    assert found.trade_day.limits == price_limits(parse_symbol("000001.SZ"), Decimal("15.68"), date(2020, 7, 7))
    check_prices(found)


@pytest.mark.realdata
def test_chinext_limit_up_before_the_reform(home: Path) -> None:
    found = zones_on(home, "300750.SZ", date(2020, 2, 4))  # a 10% ChiNext limit-up, before 2020-08-24
    assert any(f.startswith("closed_limit_up") for f in found.flags)
    limits = found.trade_day.limits
    assert limits is not None and limits.pct == Decimal("0.10")
    check_prices(found)


@pytest.mark.realdata
def test_suspension(home: Path) -> None:
    # 600078.SH was suspended from 2019-06-10 to 2019-06-21 and resumed on 2019-06-24 at its limit-up, 4.29.
    found = zones_on(home, "600078.SH", date(2019, 6, 21))
    assert found.as_of == date(2019, 6, 6) and found.price == Decimal("3.90")
    assert any(f.startswith("no_bar: no bar on 2019-06-21") for f in found.flags)
    limits = found.trade_day.limits
    assert found.trade_day.day == date(2019, 6, 24) and limits is not None and limits.up == Decimal("4.29")
    check_prices(found)
    resumed = zones_on(home, "600078.SH", date(2019, 6, 24))
    assert not any(f.startswith("no_bar") for f in resumed.flags)
    assert any(f.startswith("closed_limit_up") for f in resumed.flags)
    check_prices(resumed)


@pytest.mark.realdata
def test_ex_rights_levels_move_onto_the_new_scale(home: Path) -> None:
    # 600519.SH went ex-dividend on 2021-06-25 (factor close 2021-06-24 / reference 2021-06-25).
    before, after = zones_on(home, "600519.SH", date(2021, 6, 24)), zones_on(home, "600519.SH", date(2021, 6, 25))
    flags = [f for f in after.flags if f.startswith("ex_rights: 2021-06-25")]
    assert len(flags) == 1
    factor = Decimal(flags[0].split("factor ")[1].split(")")[0])
    old = {(a.name, a.day): a.value for z in (before.buy, before.sell) for a in z.anchors if a.kind == "swing_high"}
    new = {(a.name, a.day): a.value for z in (after.buy, after.sell) for a in z.anchors if a.kind == "swing_high"}
    shared = set(old) & set(new)
    assert shared, "a swing high from before the ex-date anchors both days"
    for key in shared:
        assert abs(new[key] - old[key] / factor) <= Decimal("0.001"), key
    assert not any(f.startswith("ex_rights") for f in zones_on(home, "600519.SH", date(2021, 1, 29)).flags)


@pytest.mark.realdata
def test_star_listing_needs_fifteen_sessions(home: Path) -> None:
    with pytest.raises(DataUnavailable, match="too few sessions"):
        zones_on(home, "688981.SH", date(2020, 7, 31))
    found = zones_on(home, "688981.SH", date(2020, 8, 6))  # session 16 since the 2020-07-16 listing
    limits = found.trade_day.limits
    assert limits is not None and limits.pct == Decimal("0.20")
    check_prices(found)


@pytest.mark.realdata
def test_proposed_zone_must_rest_on_an_anchor(home: Path) -> None:
    found = zones_on(home, "600519.SH", date(2021, 6, 30))
    assert zone_problems("buy", found.buy.low, found.buy.high, found) == []
    far = found.buy.low - Decimal("300")
    assert [p.code for p in zone_problems("buy", far - 10, far, found)] == ["zone_unanchored"]


# ---- generated bars (no real data) ------------------------------------------------------------------------------


def walk(seed: int, steps: Sequence[float], start: float) -> Iterator[dict[str, object]]:
    close, day = start, date(2021, 1, 4)
    for i, step in enumerate(steps):
        prev, close = close, max(0.05, round(close * (1 + step), 2))
        high = round(max(prev, close) * (1 + abs(steps[(i + seed) % len(steps)]) / 2), 2)
        low = max(0.01, round(min(prev, close) * (1 - abs(steps[(i + 1) % len(steps)]) / 2), 2))
        volume = 1000.0 + (i * 7919 + seed) % 5000
        bar = {"symbol": "600000.SH", "day": day + timedelta(days=i), "open": prev, "high": high, "low": low}
        yield bar | {"close": close, "prev_close": prev, "volume": volume, "amount": 0.0}


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 100),
    start=st.floats(0.5, 3000),
    steps=st.lists(st.floats(-0.1, 0.1), min_size=30, max_size=160),
)
def test_generated_zone_prices_are_ticks_and_ordered(seed: int, start: float, steps: list[float]) -> None:
    frame = add_indicators(pl.DataFrame(list(walk(seed, steps, start))))
    close = Decimal(str(frame.get_column("close")[-1]))
    raw, _ = compute_levels(frame)
    trade = TradeDay(None, None, None)
    if raw.is_empty() or raw.get_column("buy_low")[0] < 0.02:  # never moved (ATR 0), or no room for a stop
        with pytest.raises(DataUnavailable):
            zones_for(frame, parse_symbol("600000.SH"), price=close, trade=trade)
        return
    found = zones_for(frame, parse_symbol("600000.SH"), price=close, trade=trade)
    check_prices(found)


@pytest.mark.realdata
def test_compute_levels_is_vectorised_per_symbol(shared_data: Path) -> None:
    from stockbench.analytics.frames import bars_from_community_csv

    frames = [bars_from_community_csv(shared_data / "ashare_full" / f"{c}.csv") for c in REAL.values()]
    cut = [f.filter(pl.col("day") <= date(2021, 6, 30)) for f in frames]
    together, _ = compute_levels(add_indicators(pl.concat(cut)))
    alone = pl.concat([compute_levels(add_indicators(f))[0] for f in cut]).sort("symbol")
    assert together.sort("symbol").equals(alone)
    assert ZoneParams.from_table().cite == "zones v1.0"


@pytest.mark.parametrize(
    ("symbol", "buy", "sell", "apart"),
    [
        ("601997.SH", ("7.90", "8.00"), ("8.00", "8.10"), ("8.01", "8.10")),  # met on a tick (replay, 2020-11-25)
        ("00700.HK", ("19.80", "20.00"), ("20.00", "20.00"), ("20.05", "20.05")),  # the tick grows above 20 HKD
        ("601997.SH", ("7.90", "7.99"), ("8.00", "8.10"), ("8.00", "8.10")),  # already apart: unchanged
    ],
)
def test_zones_that_meet_on_a_tick_are_set_apart(
    symbol: str, buy: tuple[str, str], sell: tuple[str, str], apart: tuple[str, str]
) -> None:
    from stockbench.analytics.zones import Zone, _apart, _Rounder

    rounder = _Rounder(parse_symbol(symbol), date(2020, 11, 25), Decimal(1), None)
    zone = {side: Zone(Decimal(lo), Decimal(hi), (), (Decimal(lo), Decimal(hi))) for side, (lo, hi) in
            (("buy", buy), ("sell", sell))}  # fmt: skip
    moved = _apart(zone["buy"], zone["sell"], rounder, TradeDay(None, None, None))
    assert (moved.low, moved.high) == (Decimal(apart[0]), Decimal(apart[1]))
    assert moved.tradable == (moved.low, moved.high)
