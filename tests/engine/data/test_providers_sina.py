"""The Sina adapter against the loopback replay server: GBK quote lines with the Referer, and money flow."""

from __future__ import annotations

from decimal import Decimal

import pytest

from stockbench.data.http import FetchError, HttpClient
from stockbench.data.providers.sina import SinaEndpoints, SinaProvider
from tests.engine.data.replay_server import ReplayServer, Reply, sina_a_line, sina_flow_rows, sina_hk_line

A_LINE = sina_a_line(
    "sh600519", "贵州茅台", open_="1450.00", prev="1460.00", last="1455.50", volume=2345678, amount="3412345678.000"
)
HK_LINE = sina_hk_line("00700", "TENCENT", "腾讯控股", open_="380.000", prev="378.400", last="382.200", volume=1500000)
FLOW = "/quotes_service/api/json_v2.php/MoneyFlow.ssl_qsfx_zjlrqs"
FLOW_ROWS = sina_flow_rows([("2024-06-27", 3_000_000, 5_000_000), ("2024-06-28", -300, 100)])


def provider(replay: ReplayServer, http: HttpClient) -> SinaProvider:
    return SinaProvider(http, SinaEndpoints.at(replay.base_url))


def test_quotes_decode_gbk_and_send_the_referer(replay: ReplayServer, http: HttpClient) -> None:
    replay.route("/list=sh600519,rt_hk00700", Reply.gbk(A_LINE + HK_LINE, declared="application/javascript"))
    a_share, hk = provider(replay, http).quotes(["600519.SH", "00700.HK"])
    assert (a_share.name, a_share.open, a_share.prev_close, a_share.last) == (
        "贵州茅台",
        Decimal("1450.00"),
        Decimal("1460.00"),
        Decimal("1455.50"),
    )
    assert a_share.volume == 2345678 and a_share.amount == Decimal("3412345678.000")  # shares and yuan already
    assert a_share.at.isoformat() == "2024-06-28T15:00:03+08:00"
    assert (hk.name, hk.open, hk.prev_close, hk.last) == (
        "腾讯控股",
        Decimal("380.000"),
        Decimal("378.400"),
        Decimal("382.200"),
    )
    assert (hk.volume, hk.currency, hk.at.isoformat()) == (1500000, "HKD", "2024-06-28T16:08:00+08:00")
    (seen,) = replay.seen("/list=sh600519,rt_hk00700")
    assert seen.headers["referer"] == "https://finance.sina.com.cn/"


def test_a_403_for_a_missing_referer_is_not_retried(replay: ReplayServer, http: HttpClient) -> None:
    replay.route("/list=sh600519", Reply.failing(403))
    with pytest.raises(FetchError) as caught:
        provider(replay, http).quotes(["600519.SH"])
    assert (caught.value.failure.kind, caught.value.failure.status) == ("http_status", 403)
    assert len(replay.seen("/list=sh600519")) == 1


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (Reply.gbk('var hq_str_sh600519="";\n'), "unknown_symbol"),
        (Reply.gbk(A_LINE.replace("1455.50,1455.50,1450.00", "0.000,0.000,0.000")), "empty"),  # no trade: last 0
        (Reply.gbk(""), "empty"),
        (Reply.firewall(), "blocked"),
        (Reply.failing(503), "http_status"),
        (Reply.failing(429), "http_status"),
        (Reply.truncated(A_LINE.encode("gbk")), "unparseable"),
        (Reply.gbk(A_LINE[:60] + '";\n'), "unparseable"),
    ],
    ids=["unknown-code", "not-traded", "empty", "html-200", "5xx", "429", "truncated", "short-line"],
)
def test_quote_faults(replay: ReplayServer, http: HttpClient, reply: Reply, kind: str) -> None:
    replay.route("/list=sh600519", reply)
    with pytest.raises(FetchError) as caught:
        provider(replay, http).quotes(["600519.SH"])
    assert caught.value.failure.kind == kind and caught.value.failure.source == "sina"


def test_quote_timeout(replay: ReplayServer, impatient_http: HttpClient) -> None:
    replay.route("/list=sh600519", Reply.slow(1.0))
    with pytest.raises(FetchError) as caught:
        provider(replay, impatient_http).quotes(["600519.SH"])
    assert caught.value.failure.kind == "network"


def test_us_quotes_are_unsupported(replay: ReplayServer, http: HttpClient) -> None:
    with pytest.raises(FetchError) as caught:
        provider(replay, http).quotes(["AAPL.US"])
    assert caught.value.failure.kind == "unsupported" and replay.requests == []


def test_money_flow_main_is_r0_net_oldest_first(replay: ReplayServer, http: HttpClient) -> None:
    """main_net is r0_net (主力净流入), as go-stock reads it; netamount, the net inflow of all orders, is not the main
    force's; no order-size split is in this endpoint."""
    replay.route(FLOW, Reply.json(FLOW_ROWS), daima="sh600519")
    first, second = provider(replay, http).money_flow("600519.SH")
    assert (first.day.isoformat(), second.day.isoformat()) == ("2024-06-27", "2024-06-28")
    assert first.main_net == Decimal(5_000_000)
    assert (first.super_large_net, first.large_net, first.medium_net, first.small_net) == (None, None, None, None)
    assert second.main_net == Decimal(100)
    (seen,) = replay.seen(FLOW)
    assert seen.params["sort"] == "opendate" and seen.headers["referer"] == "https://finance.sina.com.cn/"


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (Reply.json([]), "empty"),
        (Reply(b"null", content_type="application/json"), "empty"),
        (Reply.json({"error": "unknown"}), "unparseable"),
        (Reply.json([{"opendate": "2024-06-28", "netamount": "1.0"}]), "unparseable"),  # r0_net missing
        (Reply.firewall(), "blocked"),
        (Reply.failing(502), "http_status"),
        (Reply.truncated(Reply.json(FLOW_ROWS).body), "unparseable"),
    ],
    ids=["empty-list", "null", "not-a-list", "missing-fields", "html-200", "5xx", "truncated"],
)
def test_money_flow_faults(replay: ReplayServer, http: HttpClient, reply: Reply, kind: str) -> None:
    replay.route(FLOW, reply)
    with pytest.raises(FetchError) as caught:
        provider(replay, http).money_flow("600519.SH")
    assert caught.value.failure.kind == kind and caught.value.failure.what == "money_flow"


def test_money_flow_for_hong_kong_is_unsupported(replay: ReplayServer, http: HttpClient) -> None:
    with pytest.raises(FetchError) as caught:
        provider(replay, http).money_flow("00700.HK")
    assert caught.value.failure.kind == "unsupported"
