"""The parsers on the real recorded payloads in ../shared/data/payloads/ (skipped with the reason when absent).

The recordings are stored as UTF-8 text; the services send GBK (Tencent) or UTF-8 (Eastmoney) bytes, which
the HTTP layer decodes before the parsers run. Unit checks use the data's own arithmetic: the average price
amount / volume must lie between the day's low and high, which holds only when volume is in shares and
amount in currency units.
"""

from __future__ import annotations

import itertools
import json
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from stockbench.data.http import HttpClient
from stockbench.data.providers import eastmoney, tencent
from stockbench.data.providers.base import PayloadError
from stockbench.data.providers.tencent import TencentEndpoints, TencentProvider
from stockbench.data.records import Bar, Quote
from stockbench.market.instruments import parse_symbol
from stockbench.market.limits import price_limits
from tests.engine.data.replay_server import ReplayServer, Reply

pytestmark = pytest.mark.realdata
D = Decimal


def payload(shared_data: Path, name: str) -> str:
    path = shared_data / "payloads" / name
    if not path.is_file():
        pytest.skip(f"real payload not available: {path} is absent")
    return path.read_text(encoding="utf-8")


def tencent_quotes(text: str, symbols: list[str]) -> dict[str, Quote]:
    wanted = {tencent.tencent_code(parse_symbol(s)): parse_symbol(s) for s in symbols}
    return {quote.symbol: quote for quote in tencent.parse_quotes(text, wanted)}


def assert_average_price_within_the_day(item: Quote | Bar) -> None:
    assert item.volume and item.amount and item.high is not None and item.low is not None
    assert item.low <= item.amount / item.volume <= item.high


SEPT_30 = ["AAPL.US", "00700.HK", "09988.HK", "00005.HK", "HSI.HK", "000001.SH"]


def test_tencent_hong_kong_board_lots_and_currency(shared_data: Path) -> None:
    quotes = tencent_quotes(payload(shared_data, "tencent_qt_2026-09-30.txt"), SEPT_30)
    assert {s: quotes[s].board_lot for s in ("00700.HK", "09988.HK", "00005.HK")} == {
        "00700.HK": 100,
        "09988.HK": 100,
        "00005.HK": 400,
    }
    tencent_hk = quotes["00700.HK"]
    assert (tencent_hk.name, tencent_hk.last, tencent_hk.prev_close, tencent_hk.currency) == (
        "腾讯控股",
        D("431.000"),
        D("432.000"),
        "HKD",
    )
    assert tencent_hk.volume == 22_634_903 and tencent_hk.at.isoformat() == "2026-09-30T16:08:33+08:00"
    for symbol in ("00700.HK", "09988.HK", "00005.HK"):
        assert_average_price_within_the_day(quotes[symbol])  # HK volume in shares, amount in HKD


def test_tencent_us_quote(shared_data: Path) -> None:
    aapl = tencent_quotes(payload(shared_data, "tencent_qt_2026-09-30.txt"), SEPT_30)["AAPL.US"]
    assert (aapl.name, aapl.last, aapl.prev_close, aapl.open, aapl.currency) == (
        "苹果",
        D("333.02"),
        D("329.40"),
        D("330.80"),
        "USD",
    )
    assert aapl.at.isoformat() == "2026-09-30T16:00:01-04:00"  # the US close, New York time
    assert aapl.board_lot is None and aapl.limit_up is None
    assert_average_price_within_the_day(aapl)


def test_tencent_indices_have_no_lot_limit_or_share_volume(shared_data: Path) -> None:
    quotes = tencent_quotes(payload(shared_data, "tencent_qt_2026-09-30.txt"), SEPT_30)
    hsi, composite = quotes["HSI.HK"], quotes["000001.SH"]
    assert (hsi.name, hsi.last, hsi.board_lot, hsi.volume, hsi.amount) == ("恒生指数", D("24613.270"), None, None, None)
    assert (composite.name, composite.last, composite.prev_close) == ("上证指数", D("3842.19"), D("3830.45"))
    assert (composite.limit_up, composite.limit_down, composite.pe, composite.pb) == (None, None, None, None)
    assert composite.volume == 414_560_247 * 100 and composite.amount == D(679398992445)
    assert composite.at.isoformat() == "2026-09-30T16:15:00+08:00"


def test_tencent_a_share_line_with_limits_that_match_the_rules(shared_data: Path) -> None:
    text = payload(shared_data, "tencent_qt_sh600000_2019-10-11.txt")
    quote = tencent_quotes(text, ["600000.SH"])["600000.SH"]
    assert (quote.name, quote.last, quote.prev_close, quote.open) == ("浦发银行", D("12.45"), D("11.96"), D("12.05"))
    assert (quote.high, quote.low, quote.pe, quote.pb, quote.turnover_pct) == (
        D("12.45"),
        D("12.00"),
        D("6.15"),
        D("0.79"),
        D("0.33"),
    )
    assert quote.volume == 920_308 * 100  # lots to shares
    assert quote.amount == D(1131441679)  # field 35, exact; field 37 says 113144 (x 10k)
    assert_average_price_within_the_day(quote)
    rules = price_limits(parse_symbol("600000.SH"), quote.prev_close, date(2019, 10, 11))
    assert (quote.limit_up, quote.limit_down) == (rules.up, rules.down) == (D("13.16"), D("10.76"))
    assert quote.at.isoformat() == "2019-10-11T15:58:58+08:00"


def test_tencent_unknown_code_answer(shared_data: Path) -> None:
    text = payload(shared_data, "tencent_qt_sh600000_2019-10-11.txt")
    wanted = {"sh600000": parse_symbol("600000.SH"), "sh600999": parse_symbol("600999.SH")}
    with pytest.raises(PayloadError) as caught:
        tencent.parse_quotes(text, wanted)
    assert caught.value.kind == "unknown_symbol" and "sh600999" in caught.value.reason


def test_the_real_line_served_as_gbk_through_the_provider(
    shared_data: Path, replay: ReplayServer, http: HttpClient
) -> None:
    text = payload(shared_data, "tencent_qt_sh600000_2019-10-11.txt").split(";")[0] + ";"
    replay.route("/q=sh600000", Reply.gbk(text))
    (quote,) = TencentProvider(http, TencentEndpoints.at(replay.base_url)).quotes(["600000.SH"])
    assert quote.name == "浦发银行" and quote.limit_up == D("13.16")


def test_tencent_kline_rows_are_date_open_close_high_low_lots(shared_data: Path) -> None:
    data = json.loads(payload(shared_data, "tencent_kline_sh600601.json"))
    first, second = tencent.parse_daily_bars(data, parse_symbol("600601.SH"), "sh600601")
    assert (first.day, first.open, first.close, first.high, first.low) == (
        date(2023, 1, 19),
        D("2.550"),
        D("2.600"),
        D("2.610"),
        D("2.550"),
    )
    assert first.volume == 8_616_200 and first.prev_close is None and first.amount is None
    assert (second.day, second.close, second.volume) == (date(2023, 1, 20), D("2.620"), 10_073_500)


def test_eastmoney_kline_rows(shared_data: Path) -> None:
    data = json.loads(payload(shared_data, "eastmoney_kline_601872.json"), parse_float=Decimal)
    bars = eastmoney.parse_kline_rows(data, parse_symbol("601872.SH"))
    assert len(bars) == 10 and bars[0].day == date(2024, 12, 18) and bars[-1].day == date(2024, 12, 31)
    first = bars[0]
    assert (first.open, first.close, first.high, first.low) == (D("6.11"), D("6.18"), D("6.28"), D("6.10"))
    assert first.volume == 84_274_300 and first.amount == D("542829495.00") and first.turnover_pct == D("1.03")
    changes = [D(row.split(",")[9]) for row in data["data"]["klines"]]
    closes = [data["data"]["preKPrice"], *(bar.close for bar in bars)]
    assert changes == [now - before for before, now in itertools.pairwise(closes)]  # close is field 2


def test_the_eastmoney_recording_has_adjusted_prices_and_is_refused_as_bars(shared_data: Path) -> None:
    """On all ten rows amount / volume lies 0.14-0.30 CNY above the day's high: the recording's prices are
    forward-adjusted (fqt=1; Eastmoney adjusts prices only, not volume or amount). The adapter asks for fqt=0,
    and refuses an answer like this one rather than store adjusted prices as unadjusted bars."""
    data = json.loads(payload(shared_data, "eastmoney_kline_601872.json"), parse_float=Decimal)
    rows = eastmoney.parse_kline_rows(data, parse_symbol("601872.SH"))
    assert all(bar.amount and bar.amount / bar.volume > bar.high for bar in rows)
    with pytest.raises(PayloadError) as caught:
        eastmoney.parse_daily_bars(data, parse_symbol("601872.SH"))
    assert "adjusted" in caught.value.reason and caught.value.kind == "unparseable"
