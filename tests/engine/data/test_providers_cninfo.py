"""The cninfo adapter against the loopback replay server: orgId lookup, paged lists, PDF text, firewall pages."""

from __future__ import annotations

import json
from datetime import date, datetime

import pytest

from stockbench.clock import MARKET_TZ
from stockbench.data.http import FetchError, HostPolicy, HttpClient
from stockbench.data.providers.cninfo import CninfoEndpoints, CninfoProvider
from stockbench.data.records import Announcement
from tests.engine.data.replay_server import (
    ReplayServer,
    Reply,
    cninfo_item,
    cninfo_page,
    cninfo_stock_list,
    make_pdf,
)

STOCKS, QUERY = "/new/data/szse_stock.json", "/new/hisAnnouncement/query"
ORG_ID = "9900012345"  # orgIds do not follow the code: the adapter must look them up
STOCK_LIST = cninfo_stock_list([("000001", "gssz0000001", "平安银行"), ("600519", ORG_ID, "示例股份")])
QUARTER = (date(2024, 4, 1), date(2024, 6, 30))
DAY_MS = 1_719_504_000_000  # 2024-06-28 00:00 Beijing time


def provider(replay: ReplayServer, http: HttpClient) -> CninfoProvider:
    return CninfoProvider(http, CninfoEndpoints.at(replay.base_url))


def items(count: int, first: int = 0) -> list[dict[str, object]]:
    return [
        cninfo_item(
            "600519",
            ORG_ID,
            f"12200{n:05d}",
            title=f"示例股份关于<em>股东</em>减持的公告{n}",
            millis=DAY_MS - n * 86_400_000,
            adjunct=f"finalpage/2024-06-28/12200{n:05d}.PDF",
        )
        for n in range(first, first + count)
    ]


def test_announcements_are_paged_with_the_looked_up_org_id(replay: ReplayServer, http: HttpClient) -> None:
    replay.route(STOCKS, Reply.json(STOCK_LIST))
    replay.route(QUERY, Reply.json(cninfo_page(items(30), total=31, has_more=True)), pageNum="1")
    replay.route(QUERY, Reply.json(cninfo_page(items(1, first=30), total=31, has_more=False)), pageNum="2")
    found = provider(replay, http).announcements("600519.SH", *QUARTER)
    assert len(found) == 31 and len({a.source_id for a in found}) == 31
    newest = found[-1]
    assert newest.title == "示例股份关于股东减持的公告0"  # highlight tags stripped
    assert newest.published_at.isoformat() == "2024-06-28T00:00:00+08:00"
    assert newest.url == f"{replay.base_url}/static/finalpage/2024-06-28/1220000000.PDF"
    assert (newest.source, newest.symbol, newest.text) == ("cninfo", "600519.SH", None)
    form = replay.seen(QUERY)[0].form
    assert form["stock"] == f"600519,{ORG_ID}" and form["seDate"] == "2024-04-01~2024-06-30"
    assert form["column"] == "szse" and form["tabName"] == "fulltext"


def test_no_announcements_in_the_period_is_an_empty_list(replay: ReplayServer, http: HttpClient) -> None:
    replay.route(STOCKS, Reply.json(STOCK_LIST))
    replay.route(QUERY, Reply.json(cninfo_page([], total=0, has_more=False)))
    assert provider(replay, http).announcements("600519.SH", *QUARTER) == []


def test_the_stock_list_is_fetched_once(replay: ReplayServer, http: HttpClient) -> None:
    replay.route(STOCKS, Reply.json(STOCK_LIST))
    replay.route(QUERY, Reply.json(cninfo_page([], total=0, has_more=False)))
    cninfo = provider(replay, http)
    cninfo.announcements("600519.SH", *QUARTER)
    cninfo.announcements("000001.SZ", *QUARTER)
    assert len(replay.seen(STOCKS)) == 1
    assert replay.seen(QUERY)[1].form["stock"] == "000001,gssz0000001"


def test_a_code_missing_from_the_stock_list_is_unknown(replay: ReplayServer, http: HttpClient) -> None:
    replay.route(STOCKS, Reply.json(STOCK_LIST))
    with pytest.raises(FetchError) as caught:
        provider(replay, http).announcements("600999.SH", *QUARTER)
    assert caught.value.failure.kind == "unknown_symbol" and replay.seen(QUERY) == []


def test_a_new_listing_refreshes_the_kept_stock_list_once(replay: ReplayServer, http: HttpClient) -> None:
    later = cninfo_stock_list([("600519", ORG_ID, "示例股份"), ("603999", "9900054321", "示例新股")])
    replay.route(STOCKS, Reply.json(STOCK_LIST), Reply.json(later))
    replay.route(QUERY, Reply.json(cninfo_page([], total=0, has_more=False)))
    cninfo = provider(replay, http)
    cninfo.announcements("600519.SH", *QUARTER)
    cninfo.announcements("603999.SH", *QUARTER)
    assert len(replay.seen(STOCKS)) == 2 and replay.seen(QUERY)[1].form["stock"] == "603999,9900054321"


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (Reply.firewall(), "blocked"),
        (Reply.json({"stockList": []}), "unparseable"),
        (Reply.failing(503), "http_status"),
        (Reply.truncated(Reply.json(STOCK_LIST).body), "unparseable"),
    ],
    ids=["html-200", "empty-list", "5xx", "truncated"],
)
def test_stock_list_faults(replay: ReplayServer, http: HttpClient, reply: Reply, kind: str) -> None:
    replay.route(STOCKS, reply)
    with pytest.raises(FetchError) as caught:
        provider(replay, http).announcements("600519.SH", *QUARTER)
    assert caught.value.failure.kind == kind


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (Reply.firewall(), "blocked"),  # a firewall page is never "no announcements"
        (Reply.json({"announcements": None}), "unparseable"),
        (
            Reply(json.dumps(cninfo_page(items(2), total=2, has_more=False), ensure_ascii=False).encode("gbk")),
            "unparseable",
        ),
        (Reply.json(cninfo_page([{**items(1)[0], "adjunctUrl": None}], total=1, has_more=False)), "unparseable"),
        (Reply.failing(502), "http_status"),
        (Reply.failing(429, retry_after="0"), "http_status"),
        (Reply.truncated(Reply.json(cninfo_page(items(2), total=2, has_more=False)).body), "unparseable"),
        (Reply(b""), "empty"),
    ],
    ids=["html-200", "no-total", "gbk", "no-adjunct", "5xx", "429", "truncated", "empty-body"],
)
def test_list_faults(replay: ReplayServer, http: HttpClient, reply: Reply, kind: str) -> None:
    replay.route(STOCKS, Reply.json(STOCK_LIST))
    replay.route(QUERY, reply)
    with pytest.raises(FetchError) as caught:
        provider(replay, http).announcements("600519.SH", *QUARTER)
    assert (caught.value.failure.kind, caught.value.failure.what) == (kind, "announcements")


def test_list_timeout(replay: ReplayServer, impatient_http: HttpClient) -> None:
    replay.route(STOCKS, Reply.json(STOCK_LIST))
    replay.route(QUERY, Reply.slow(1.0))
    with pytest.raises(FetchError) as caught:
        provider(replay, impatient_http).announcements("600519.SH", *QUARTER)
    assert caught.value.failure.kind == "network"


def test_a_firewall_page_on_a_later_page_returns_nothing(replay: ReplayServer, http: HttpClient) -> None:
    replay.route(STOCKS, Reply.json(STOCK_LIST))
    replay.route(QUERY, Reply.json(cninfo_page(items(30), total=31, has_more=True)), pageNum="1")
    replay.route(QUERY, Reply.firewall(), pageNum="2")
    with pytest.raises(FetchError) as caught:
        provider(replay, http).announcements("600519.SH", *QUARTER)
    assert caught.value.failure.kind == "blocked"


def announcement(url: str) -> Announcement:
    published = datetime(2024, 6, 28, tzinfo=MARKET_TZ["CN"])
    return Announcement("600519.SH", "1220000000", published, "股东减持预披露公告", "", url, "cninfo")


def test_announcement_text_comes_from_the_pdf(replay: ReplayServer, http: HttpClient) -> None:
    lines = ["示例股份有限公司关于持股5%以上股东减持股份的预披露公告", "本次减持不超过公司总股本的1%。"]
    replay.route("/static/finalpage/2024-06-28/1220000000.PDF", Reply.pdf(make_pdf(lines)))
    text = provider(replay, http).announcement_text(
        announcement(f"{replay.base_url}/static/finalpage/2024-06-28/1220000000.PDF")
    )
    assert text.splitlines() == lines


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (Reply.firewall(), "blocked"),
        (Reply(b"PK\x03\x04 not a pdf", content_type="application/pdf"), "unparseable"),
        (Reply.pdf(make_pdf([])), "empty"),  # a scanned document: no text layer
        (Reply.truncated(make_pdf(["公告"])), "unparseable"),
        (Reply.pdf(b"%PDF-1.4\n garbage without objects"), "unparseable"),
        (Reply.failing(404), "http_status"),
    ],
    ids=["html-200", "not-pdf", "no-text", "truncated", "broken-pdf", "404"],
)
def test_announcement_text_faults(replay: ReplayServer, http: HttpClient, reply: Reply, kind: str) -> None:
    replay.route("/static/a.PDF", reply)
    with pytest.raises(FetchError) as caught:
        provider(replay, http).announcement_text(announcement(f"{replay.base_url}/static/a.PDF"))
    assert caught.value.failure.kind == kind


def test_announcement_text_refuses_private_and_default_loopback_urls(replay: ReplayServer, http: HttpClient) -> None:
    with pytest.raises(FetchError) as caught:
        provider(replay, http).announcement_text(announcement("http://10.0.0.8/finalpage/a.PDF"))
    assert caught.value.failure.kind == "unsupported" and "private" in caught.value.failure.reason
    strict = HttpClient(default_policy=HostPolicy(min_interval=0), trust_env=False)
    replay.route("/static/a.PDF", Reply.pdf(make_pdf(["公告"])))
    with pytest.raises(FetchError) as caught:
        provider(replay, strict).announcement_text(announcement(f"{replay.base_url}/static/a.PDF"))
    strict.close()
    assert "loopback" in caught.value.failure.reason and replay.requests == []


def test_other_markets_are_unsupported(replay: ReplayServer, http: HttpClient) -> None:
    with pytest.raises(FetchError) as caught:
        provider(replay, http).announcements("00700.HK", *QUARTER)
    assert caught.value.failure.kind == "unsupported" and replay.requests == []
