"""The Eastmoney adapter against the loopback replay server: bars, quote, money flow, valuation, financials."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal

import pytest

from stockbench.data.http import FetchError, HttpClient
from stockbench.data.providers.eastmoney import EastmoneyEndpoints, EastmoneyProvider
from tests.engine.data.replay_server import (
    DATACENTER_EMPTY,
    EASTMONEY_NULL,
    ReplayServer,
    Reply,
    datacenter,
    eastmoney_flow,
    eastmoney_kline,
    eastmoney_quote,
)

KLINE, QUOTE, FLOW, DATA = (
    "/api/qt/stock/kline/get",
    "/api/qt/stock/get",
    "/api/qt/stock/fflow/daykline/get",
    "/api/data/v1/get",
)
ROWS = [
    "2024-06-27,8.40,8.45,8.50,8.38,412345,347936245.00,1.43,0.60,0.05,0.14",
    "2024-06-28,8.45,8.51,8.60,8.41,398765,339321512.00,2.25,0.71,0.06,0.14",
]
# Forward-adjusted prices 0.30 below the unadjusted ones, with the unadjusted amount: average 8.44 > high 8.20.
ADJUSTED_ROW = ROWS[0].replace(",8.40,8.45,8.50,8.38,", ",8.10,8.15,8.20,8.08,")
KLINE_OK = eastmoney_kline("600000", 1, "浦发银行", ROWS)
JUNE = (date(2024, 6, 1), date(2024, 6, 30))


def provider(replay: ReplayServer, http: HttpClient) -> EastmoneyProvider:
    return EastmoneyProvider(http, EastmoneyEndpoints.at(replay.base_url))


def test_daily_bars_unadjusted_in_shares(replay: ReplayServer, http: HttpClient) -> None:
    replay.route(KLINE, Reply.json(KLINE_OK), secid="1.600000")
    first, second = provider(replay, http).daily_bars("600000.SH", *JUNE)
    assert (first.day, first.open, first.close, first.high, first.low) == (
        date(2024, 6, 27),
        Decimal("8.40"),
        Decimal("8.45"),
        Decimal("8.50"),
        Decimal("8.38"),
    )
    assert first.volume == 41_234_500 and first.amount == Decimal("347936245.00")
    assert first.turnover_pct == Decimal("0.14") and first.prev_close is None and second.day == date(2024, 6, 28)
    (seen,) = replay.seen(KLINE)
    assert (seen.params["fqt"], seen.params["klt"], seen.params["beg"], seen.params["end"]) == (
        "0",
        "101",
        "20240601",
        "20240630",
    )
    assert seen.params["fields2"] == "f51,f52,f53,f54,f55,f56,f57,f58,f59,f60,f61"


def test_hong_kong_bars_use_market_116_and_shares(replay: ReplayServer, http: HttpClient) -> None:
    rows = ["2024-06-28,380.0,382.2,385.0,379.0,15000000,5730000000.000,1.58,1.00,3.80,0.16"]
    replay.route(KLINE, Reply.json(eastmoney_kline("00700", 116, "腾讯控股", rows)), secid="116.00700")
    (bar,) = provider(replay, http).daily_bars("00700.HK", *JUNE)
    assert bar.volume == 15_000_000


def test_a_hong_kong_kline_in_akshare_s_column_order_reads_each_column(replay: ReplayServer, http: HttpClient) -> None:
    """The columns akshare's stock_hk_hist (akshare 4771e6e, stock_feature/stock_hist_em.py) reads from secid 116:
    date, open, close, high, low, volume (shares), amount (HKD), amplitude %, change %, change, turnover %."""
    rows = ["2026-08-20,478.000,482.400,485.000,475.200,18234567,8765432100.000,2.05,0.88,4.20,0.20"]
    replay.route(KLINE, Reply.json(eastmoney_kline("00700", 116, "腾讯控股", rows)), secid="116.00700")
    (bar,) = provider(replay, http).daily_bars("00700.HK", date(2026, 8, 1), date(2026, 8, 31))
    assert (bar.day, bar.open, bar.close, bar.high, bar.low) == (
        date(2026, 8, 20), Decimal("478"), Decimal("482.4"), Decimal("485"), Decimal("475.2")
    )  # fmt: skip
    assert (bar.volume, bar.amount, bar.turnover_pct, bar.prev_close) == (
        18_234_567, Decimal("8765432100"), Decimal("0.2"), None
    )  # fmt: skip
    (seen,) = replay.seen(KLINE)
    assert (seen.params["secid"], seen.params["klt"], seen.params["fqt"]) == ("116.00700", "101", "0")


def test_us_bars_try_the_us_markets_and_remember_the_hit(replay: ReplayServer, http: HttpClient) -> None:
    rows = ["2024-06-28,215.77,210.62,216.07,210.30,82542718,17561453232.000,2.75,-1.63,-3.49,0.54"]
    replay.route(KLINE, Reply.json(EASTMONEY_NULL), secid="105.KO")
    replay.route(KLINE, Reply.json(eastmoney_kline("KO", 106, "可口可乐", rows)), secid="106.KO")
    eastmoney = provider(replay, http)
    eastmoney.daily_bars("KO.US", *JUNE)
    eastmoney.daily_bars("KO.US", *JUNE)
    assert [seen.params["secid"] for seen in replay.seen(KLINE)] == ["105.KO", "106.KO", "106.KO"]


def test_an_unknown_us_ticker_is_unknown_on_every_market(replay: ReplayServer, http: HttpClient) -> None:
    replay.route(KLINE, Reply.json(EASTMONEY_NULL))
    with pytest.raises(FetchError) as caught:
        provider(replay, http).daily_bars("ZZZZ.US", *JUNE)
    assert caught.value.failure.kind == "unknown_symbol" and len(replay.seen(KLINE)) == 3


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (Reply.json(EASTMONEY_NULL), "unknown_symbol"),
        (Reply.json(eastmoney_kline("600000", 1, "浦发银行", [])), "empty"),
        (Reply.json(eastmoney_kline("600001", 1, "别的股票", ROWS)), "unparseable"),
        (Reply.json(eastmoney_kline("600000", 1, "浦发银行", ["2024-06-28,8.45,8.51"])), "unparseable"),
        (Reply.json(eastmoney_kline("600000", 1, "浦发银行", [ADJUSTED_ROW])), "unparseable"),
        (Reply(json.dumps(KLINE_OK, ensure_ascii=False).encode("gbk")), "unparseable"),  # GBK where UTF-8 is due
        (Reply.firewall(), "blocked"),
        (Reply.failing(503), "http_status"),
        (Reply.failing(429, retry_after="0"), "http_status"),
        (Reply.truncated(Reply.json(KLINE_OK).body), "unparseable"),
        (Reply(b""), "empty"),
    ],
    ids=[
        "unknown-code",
        "empty-data",
        "other-code",
        "short-row",
        "adjusted-prices",
        "gbk",
        "html-200",
        "5xx",
        "429",
        "truncated",
        "empty",
    ],
)
def test_bar_faults(replay: ReplayServer, http: HttpClient, reply: Reply, kind: str) -> None:
    replay.route(KLINE, reply)
    with pytest.raises(FetchError) as caught:
        provider(replay, http).daily_bars("600000.SH", *JUNE)
    assert (caught.value.failure.kind, caught.value.failure.source) == (kind, "eastmoney")


def test_bar_timeout(replay: ReplayServer, impatient_http: HttpClient) -> None:
    replay.route(KLINE, Reply.slow(1.0))
    with pytest.raises(FetchError) as caught:
        provider(replay, impatient_http).daily_bars("600000.SH", *JUNE)
    assert caught.value.failure.kind == "network"


QUOTE_FIELDS = {
    "f43": 8.51,
    "f44": 8.6,
    "f45": 8.41,
    "f46": 8.45,
    "f47": 398765,
    "f48": 339321512.0,
    "f51": 9.3,
    "f52": 7.6,
    "f57": "600000",
    "f58": "浦发银行",
    "f60": 8.45,
    "f86": 1719558000,
    "f168": 0.14,
}


def test_quote_with_limit_prices(replay: ReplayServer, http: HttpClient) -> None:
    replay.route(QUOTE, Reply.json(eastmoney_quote(QUOTE_FIELDS)), secid="1.600000")
    (quote,) = provider(replay, http).quotes(["600000.SH"])
    assert (quote.last, quote.prev_close, quote.limit_up, quote.limit_down) == (
        Decimal("8.51"),
        Decimal("8.45"),
        Decimal("9.3"),
        Decimal("7.6"),
    )
    assert quote.volume == 39_876_500 and quote.amount == Decimal("339321512.0") and quote.board_lot is None
    assert quote.at.isoformat() == "2024-06-28T15:00:00+08:00" and quote.name == "浦发银行"
    (seen,) = replay.seen(QUOTE)
    assert seen.params["fltt"] == "2" and "f51" in seen.params["fields"]


@pytest.mark.parametrize(
    ("fields", "kind"),
    [
        (None, "unknown_symbol"),
        ({**QUOTE_FIELDS, "f43": "-"}, "empty"),
        ({**QUOTE_FIELDS, "f86": "-"}, "unparseable"),
        ({**QUOTE_FIELDS, "f57": "600001"}, "unparseable"),
        ({**QUOTE_FIELDS, "f60": "n/a"}, "unparseable"),
    ],
    ids=["unknown-code", "no-last-price", "no-time", "other-code", "bad-number"],
)
def test_quote_faults(replay: ReplayServer, http: HttpClient, fields: dict[str, object] | None, kind: str) -> None:
    replay.route(QUOTE, Reply.json(EASTMONEY_NULL if fields is None else eastmoney_quote(fields)))
    with pytest.raises(FetchError) as caught:
        provider(replay, http).quotes(["600000.SH"])
    assert caught.value.failure.kind == kind


def test_money_flow(replay: ReplayServer, http: HttpClient) -> None:
    rows = [
        "2024-06-28,-12345678.0,2345678.0,10000000.0,-2345678.0,-10000000.0,-3.64,0.69,2.95,-0.69,-2.95,8.51,0.71,0.00,0.00",
        "2024-06-27,5000000.0,-3000000.0,-2000000.0,1000000.0,4000000.0,1.44,-0.86,-0.57,0.29,1.15,8.45,0.60,0.00,0.00",
    ]
    replay.route(FLOW, Reply.json(eastmoney_flow("600000", 1, "浦发银行", rows)), secid="1.600000")
    older, newer = provider(replay, http).money_flow("600000.SH")
    assert older.day == date(2024, 6, 27) and newer.main_net == Decimal("-12345678.0")
    assert (newer.small_net, newer.medium_net, newer.large_net, newer.super_large_net) == (
        Decimal("2345678.0"),
        Decimal("10000000.0"),
        Decimal("-2345678.0"),
        Decimal("-10000000.0"),
    )
    assert replay.seen(FLOW)[0].params["lmt"] == "0"


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (Reply.json(EASTMONEY_NULL), "unknown_symbol"),
        (Reply.json(eastmoney_flow("600000", 1, "浦发银行", [])), "empty"),
        (Reply.firewall(), "blocked"),
        (Reply.failing(500), "http_status"),
        (
            Reply.truncated(Reply.json(eastmoney_flow("600000", 1, "浦发银行", ["2024-06-28,1,2,3,4,5"])).body),
            "unparseable",
        ),
    ],
    ids=["unknown-code", "empty-data", "html-200", "5xx", "truncated"],
)
def test_money_flow_faults(replay: ReplayServer, http: HttpClient, reply: Reply, kind: str) -> None:
    replay.route(FLOW, reply)
    with pytest.raises(FetchError) as caught:
        provider(replay, http).money_flow("600000.SH")
    assert caught.value.failure.kind == kind


def valuation_row(day: str, close: float) -> dict[str, object]:
    return {
        "SECUCODE": "300766.SZ",
        "SECURITY_CODE": "300766",
        "SECURITY_NAME_ABBR": "示例互动",
        "TRADE_DATE": f"{day} 00:00:00",
        "CLOSE_PRICE": close,
        "CHANGE_RATE": 1.23,
        "TOTAL_MARKET_CAP": 12345678901.23,
        "PE_TTM": 45.67,
        "PE_LAR": 50.1,
        "PB_MRQ": 4.2,
        "PEG_CAR": 1.1,
        "PCF_OCF_TTM": 30.5,
        "PS_TTM": 8.9,
    }


def test_valuation_history_is_read_page_by_page(replay: ReplayServer, http: HttpClient) -> None:
    page_1 = datacenter([valuation_row("2024-06-28", 20.5)], pages=2)
    page_2 = datacenter([valuation_row("2024-06-27", 20.1)], pages=2)
    replay.route(DATA, Reply.json(page_1), reportName="RPT_VALUEANALYSIS_DET", pageNumber="1")
    replay.route(DATA, Reply.json(page_2), reportName="RPT_VALUEANALYSIS_DET", pageNumber="2")
    older, newer = provider(replay, http).valuation_history("300766.SZ")
    assert (older.day, newer.day) == (date(2024, 6, 27), date(2024, 6, 28))
    assert (newer.close, newer.total_mcap, newer.pe_ttm, newer.pe_static) == (
        Decimal("20.5"),
        Decimal("12345678901.23"),
        Decimal("45.67"),
        Decimal("50.1"),
    )
    assert (newer.pb_mrq, newer.ps_ttm, newer.pcf_ocf_ttm) == (Decimal("4.2"), Decimal("8.9"), Decimal("30.5"))
    assert replay.seen(DATA)[0].params["filter"] == '(SECURITY_CODE="300766")'


def test_valuation_fails_whole_when_a_later_page_is_a_firewall_page(replay: ReplayServer, http: HttpClient) -> None:
    replay.route(DATA, Reply.json(datacenter([valuation_row("2024-06-28", 20.5)], pages=2)), pageNumber="1")
    replay.route(DATA, Reply.firewall(), pageNumber="2")
    with pytest.raises(FetchError) as caught:
        provider(replay, http).valuation_history("300766.SZ")
    assert caught.value.failure.kind == "blocked" and caught.value.failure.what == "valuation"


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (Reply.json(DATACENTER_EMPTY), "empty"),
        (Reply.json({**DATACENTER_EMPTY, "message": "报表不存在", "code": 9501}), "unparseable"),
        (Reply.json(datacenter([])), "empty"),
        (Reply.json(datacenter([{**valuation_row("2024-06-28", 20.5), "TRADE_DATE": "28/06/2024"}])), "unparseable"),
        (Reply.truncated(Reply.json(datacenter([valuation_row("2024-06-28", 20.5)])).body), "unparseable"),
    ],
    ids=["no-data", "service-error", "empty-rows", "bad-date", "truncated"],
)
def test_valuation_faults(replay: ReplayServer, http: HttpClient, reply: Reply, kind: str) -> None:
    replay.route(DATA, reply)
    with pytest.raises(FetchError) as caught:
        provider(replay, http).valuation_history("300766.SZ")
    assert caught.value.failure.kind == kind


def finance_row(report: str, notice: str, revenue: float, roe: float | None) -> dict[str, object]:
    return {
        "SECUCODE": "600519.SH",
        "SECURITY_CODE": "600519",
        "REPORT_DATE": f"{report} 00:00:00",
        "REPORT_TYPE": "年报",
        "NOTICE_DATE": f"{notice} 00:00:00",
        "TOTALOPERATEREVE": revenue,
        "PARENTNETPROFIT": 86228146421.62,
        "EPSJB": 68.64,
        "ROEJQ": roe,
        "XSMLL": 91.93,
        "LD": 4.45,
    }


def test_financials_map_to_stable_keys_with_units_and_publication_dates(replay: ReplayServer, http: HttpClient) -> None:
    rows = [
        finance_row("2024-12-31", "2025-04-03", 174144069958.25, 36.02),
        finance_row("2024-12-31", "2025-06-30", 174000000000.00, 36.02),  # a later restatement of the same period
        finance_row("2024-09-30", "2024-10-26", 123123260991.91, None),
    ]
    replay.route(DATA, Reply.json(datacenter(rows)), reportName="RPT_F10_FINANCE_MAINFINADATA")
    items = provider(replay, http).financials("600519.SH")
    by_key = {(item.period_end, item.item): item for item in items}
    revenue = by_key[(date(2024, 12, 31), "revenue")]
    assert (revenue.statement, revenue.value, revenue.unit, revenue.published) == (
        "income",
        Decimal("174144069958.25"),
        "CNY",
        date(2025, 4, 3),
    )
    assert by_key[(date(2024, 12, 31), "roe_weighted")].unit == "%"
    assert by_key[(date(2024, 12, 31), "eps_basic")].unit == "CNY/share"
    assert by_key[(date(2024, 12, 31), "current_ratio")].unit == "ratio"
    assert (date(2024, 9, 30), "roe_weighted") not in by_key  # null values are left out, not zero
    assert by_key[(date(2024, 9, 30), "gross_margin")].published == date(2024, 10, 26)
    assert replay.seen(DATA)[0].params["filter"] == '(SECUCODE="600519.SH")'


def test_financials_for_hong_kong_are_unsupported(replay: ReplayServer, http: HttpClient) -> None:
    with pytest.raises(FetchError) as caught:
        provider(replay, http).financials("00700.HK")
    assert caught.value.failure.kind == "unsupported" and replay.requests == []
