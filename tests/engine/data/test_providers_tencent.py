"""The Tencent adapter against the loopback replay server: quote lines (GBK) and paged unadjusted k-lines."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from stockbench.data.http import FetchError, HttpClient
from stockbench.data.providers.tencent import TencentEndpoints, TencentProvider
from tests.engine.data.replay_server import (
    TENCENT_UNKNOWN,
    ReplayServer,
    Reply,
    tencent_a_line,
    tencent_hk_line,
    tencent_kline,
)

A_LINE = tencent_a_line(
    "sh",
    "600000",
    "浦发银行",
    last="8.51",
    prev="8.40",
    high="8.60",
    low="8.38",
    lots=412345,
    amount_yuan=351234567,
    limit_up="9.24",
    limit_down="7.56",
)
HK_LINE = tencent_hk_line("00005", "汇丰控股", "HSBC HOLDINGS", last="66.250", prev="65.900", lot=400, volume=1234567)
QUOTE_PATH = "/q=sh600000,hk00005"
KLINE = "/ifzqgtimg/appstock/app/newfqkline/get"
PAGE_1 = "sh600000,day,2020-01-01,2021-12-30,640,"
PAGE_2 = "sh600000,day,2021-12-31,2022-06-30,640,"


def provider(replay: ReplayServer, http: HttpClient) -> TencentProvider:
    return TencentProvider(http, TencentEndpoints.at(replay.base_url))


def test_quotes_for_a_shares_and_hong_kong_in_shares_and_yuan(replay: ReplayServer, http: HttpClient) -> None:
    replay.route(QUOTE_PATH, Reply.gbk(A_LINE + HK_LINE))
    a_share, hk = provider(replay, http).quotes(["600000.SH", "00005.HK"])
    assert (a_share.symbol, a_share.name, a_share.last, a_share.prev_close) == (
        "600000.SH",
        "浦发银行",
        Decimal("8.51"),
        Decimal("8.40"),
    )
    assert a_share.volume == 41_234_500  # lots x 100
    assert a_share.amount == Decimal(351234567)  # the exact yuan of field 35, within field 37's 10k rounding
    assert (a_share.limit_up, a_share.limit_down, a_share.currency) == (Decimal("9.24"), Decimal("7.56"), "CNY")
    assert a_share.at.isoformat() == "2024-06-28T15:00:03+08:00"
    assert (hk.name, hk.board_lot, hk.currency, hk.volume) == ("汇丰控股", 400, "HKD", 1234567)
    assert hk.limit_up is None and hk.at.utcoffset() is not None


def test_star_volume_is_already_in_shares(replay: ReplayServer, http: HttpClient) -> None:
    line = tencent_a_line(
        "sh", "688981", "示例科创", last="50.00", prev="49.00", high="51", low="48", lots=123456, amount_yuan=6172800
    )
    replay.route("/q=sh688981", Reply.gbk(line))
    (quote,) = provider(replay, http).quotes(["688981.SH"])
    assert quote.volume == 123456


def test_unknown_code_fails_the_whole_batch_as_unknown_symbol(replay: ReplayServer, http: HttpClient) -> None:
    replay.route("/q=sh600000,sh600999", Reply.gbk(A_LINE + TENCENT_UNKNOWN))
    with pytest.raises(FetchError) as caught:
        provider(replay, http).quotes(["600000.SH", "600999.SH"])
    failure = caught.value.failure
    assert (failure.kind, failure.source, failure.what) == ("unknown_symbol", "tencent", "quote")
    assert "sh600999" in failure.reason and failure.symbol == "600000.SH,600999.SH"


def test_a_drifted_market_code_is_unparseable(replay: ReplayServer, http: HttpClient) -> None:
    replay.route("/q=sh600000", Reply.gbk(A_LINE.replace('="1~', '="51~')))
    with pytest.raises(FetchError) as caught:
        provider(replay, http).quotes(["600000.SH"])
    assert caught.value.failure.kind == "unparseable" and "field 0" in caught.value.failure.reason


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (Reply.failing(503), "http_status"),
        (Reply.failing(429, retry_after="0"), "http_status"),
        (Reply.firewall(), "blocked"),
        (Reply.gbk(""), "empty"),
        (Reply.gbk('v_sh600000="";\n'), "unknown_symbol"),
        (Reply.gbk(A_LINE.replace("~8.51~8.40~", "~0.00~8.40~", 1)), "empty"),
        (Reply.truncated((A_LINE + HK_LINE).encode("gbk")), "unparseable"),
        (Reply.gbk(A_LINE.split("~20240628")[0]), "unparseable"),  # a line cut before its time field
    ],
    ids=["5xx", "429", "html-200", "empty", "unknown-code", "no-last-price", "truncated", "short-line"],
)
def test_quote_faults(replay: ReplayServer, http: HttpClient, reply: Reply, kind: str) -> None:
    replay.route("/q=sh600000", reply)
    with pytest.raises(FetchError) as caught:
        provider(replay, http).quotes(["600000.SH"])
    assert caught.value.failure.kind == kind


def test_quote_timeout(replay: ReplayServer, impatient_http: HttpClient) -> None:
    replay.route("/q=sh600000", Reply.slow(1.0))
    with pytest.raises(FetchError) as caught:
        provider(replay, impatient_http).quotes(["600000.SH"])
    assert caught.value.failure.kind == "network"


def test_a_5xx_then_a_good_answer_succeeds(replay: ReplayServer, http: HttpClient) -> None:
    replay.route("/q=sh600000", Reply.failing(502), Reply.gbk(A_LINE))
    (quote,) = provider(replay, http).quotes(["600000.SH"])
    assert quote.last == Decimal("8.51") and len(replay.seen("/q=sh600000")) == 2


def test_daily_bars_are_paged_unadjusted_and_in_shares(replay: ReplayServer, http: HttpClient) -> None:
    first = [
        ["2020-01-02", "12.47", "12.47", "12.64", "12.42", "1234.000"],
        ["2021-12-30", "8.60", "8.61", "8.66", "8.58", "900.000"],
    ]
    second = [["2021-12-31", "8.61", "8.63", "8.67", "8.59", "800.000"]]
    replay.route(KLINE, Reply.json(tencent_kline("sh600000", first)), param=PAGE_1)
    replay.route(KLINE, Reply.json(tencent_kline("sh600000", second)), param=PAGE_2)
    bars = provider(replay, http).daily_bars("600000.SH", date(2020, 1, 1), date(2022, 6, 30))
    assert [bar.day for bar in bars] == [date(2020, 1, 2), date(2021, 12, 30), date(2021, 12, 31)]
    assert bars[0].close == Decimal("12.47") and bars[0].high == Decimal("12.64") and bars[0].low == Decimal("12.42")
    assert bars[0].volume == 123_400 and bars[0].prev_close is None and bars[0].amount is None
    assert {request.params["param"] for request in replay.seen(KLINE)} == {PAGE_1, PAGE_2}


def test_a_failure_on_a_later_page_returns_nothing(replay: ReplayServer, http: HttpClient) -> None:
    rows = [["2020-01-02", "12.47", "12.47", "12.64", "12.42", "1234.000"]]
    replay.route(KLINE, Reply.json(tencent_kline("sh600000", rows)), param=PAGE_1)
    replay.route(KLINE, Reply.firewall(), param=PAGE_2)
    with pytest.raises(FetchError) as caught:
        provider(replay, http).daily_bars("600000.SH", date(2020, 1, 1), date(2022, 6, 30))
    assert caught.value.failure.kind == "blocked" and caught.value.failure.what == "bars"


def test_an_adjusted_series_is_refused(replay: ReplayServer, http: HttpClient) -> None:
    payload = tencent_kline("sh600000", [])
    payload["data"]["sh600000"] = {"qfqday": [["2022-01-04", "8.6", "8.6", "8.7", "8.5", "100"]], "qt": {}}
    replay.route(KLINE, Reply.json(payload))
    with pytest.raises(FetchError) as caught:
        provider(replay, http).daily_bars("600000.SH", date(2022, 1, 1), date(2022, 1, 31))
    assert caught.value.failure.kind == "unparseable" and "adjusted" in caught.value.failure.reason


def test_rows_in_another_field_order_are_caught(replay: ReplayServer, http: HttpClient) -> None:
    # Rows written as [date, open, HIGH, CLOSE, LOW, volume]: read in the real order, the "high" (8.65) lies
    # below the "close" (8.70), and the bar is refused instead of stored with a wrong close.
    rows = [["2022-01-04", "8.60", "8.70", "8.65", "8.50", "100.000"]]
    replay.route(KLINE, Reply.json(tencent_kline("sh600000", rows)))
    with pytest.raises(FetchError) as caught:
        provider(replay, http).daily_bars("600000.SH", date(2022, 1, 1), date(2022, 1, 31))
    assert caught.value.failure.kind == "unparseable" and "field order" in caught.value.failure.reason


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (Reply.json(tencent_kline("sh600000", [])), "empty"),
        (Reply.json({"code": 0, "msg": "", "data": {}}), "unknown_symbol"),
        (Reply.json({"code": -1, "msg": "param error", "data": []}), "unparseable"),
        (Reply.firewall(), "blocked"),
        (Reply.failing(500), "http_status"),
        (
            Reply.truncated(
                b'{"code":0,"msg":"","data":{"sh600000":{"day":[["2022-01-04","8.6","8.6","8.7","8.5","1"]]}}}'
            ),
            "unparseable",
        ),
        (
            Reply(
                b'{"code":0,"msg":"","data":{"sh600000":{"day":[["2022-01-04","8.6"', content_type="application/json"
            ),
            "unparseable",
        ),
        (Reply(b""), "empty"),
    ],
    ids=["empty-data", "unknown-code", "service-error", "html-200", "5xx", "truncated", "cut-json", "empty-body"],
)
def test_bar_faults(replay: ReplayServer, http: HttpClient, reply: Reply, kind: str) -> None:
    replay.route(KLINE, reply)
    with pytest.raises(FetchError) as caught:
        provider(replay, http).daily_bars("600000.SH", date(2022, 1, 1), date(2022, 1, 31))
    assert caught.value.failure.kind == kind


def test_bar_timeout(replay: ReplayServer, impatient_http: HttpClient) -> None:
    replay.route(KLINE, Reply.slow(1.0))
    with pytest.raises(FetchError) as caught:
        provider(replay, impatient_http).daily_bars("600000.SH", date(2022, 1, 1), date(2022, 1, 31))
    assert caught.value.failure.kind == "network"


def test_us_bars_are_unsupported_without_asking(replay: ReplayServer, http: HttpClient) -> None:
    tencent = provider(replay, http)
    with pytest.raises(FetchError) as caught:
        tencent.daily_bars("AAPL.US", date(2024, 1, 1), date(2024, 1, 31))
    assert caught.value.failure.kind == "unsupported" and replay.requests == []
    with pytest.raises(FetchError) as caught:
        tencent.money_flow("600000.SH")
    assert caught.value.failure.kind == "unsupported"
    assert tencent.supports("quote") and not tencent.supports("valuation")
