"""The polite HTTP layer: pacing with jitter, retries and backoff, decoding, page detection, the document guard."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from decimal import Decimal

import httpx
import pytest

from stockbench.data.http import (
    DEFAULT_POLICIES,
    USER_AGENT,
    FetchError,
    HostPolicy,
    HttpClient,
    Target,
    looks_like_page,
)
from stockbench.errors import DataUnavailable, UserError
from tests.engine.data.replay_server import FIREWALL_PAGE, ReplayServer, Reply, make_pdf

TARGET = Target("testsource", "bars", "600000.SH")


class FakeTime:
    """A clock that only moves when someone sleeps."""

    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def mock_client(
    handler: Callable[[httpx.Request], httpx.Response], policy: HostPolicy, fake: FakeTime, **kwargs: object
) -> HttpClient:
    transport = httpx.MockTransport(handler)
    return HttpClient(
        policies={},
        default_policy=policy,
        sleep=fake.sleep,
        clock=fake.clock,
        rng=random.Random(7),
        transport=transport,
        trust_env=False,
        **kwargs,  # type: ignore[arg-type]
    )


def test_requests_to_one_host_are_spaced_by_the_interval_with_jitter() -> None:
    fake, times = FakeTime(), []

    def handler(request: httpx.Request) -> httpx.Response:
        times.append((request.url.host, fake.now))
        return httpx.Response(200, text="ok")

    policy = HostPolicy(min_interval=1.5, jitter=0.3, retries=0)
    with mock_client(handler, policy, fake) as client:
        for _ in range(20):
            client.get_text(TARGET, "https://push2his.example/api")
        client.get_text(TARGET, "https://other.example/api")
    gaps = [later - earlier for (_, earlier), (_, later) in itertools.pairwise(times[:20])]
    assert all(1.5 * 0.7 - 1e-9 <= gap <= 1.5 * 1.3 + 1e-9 for gap in gaps)
    assert len({round(gap, 6) for gap in gaps}) > 5  # jittered, not a fixed beat
    assert times[20] == ("other.example", times[19][1])  # another host is not held back


def test_hosts_of_one_group_share_the_pacing() -> None:
    fake, times = FakeTime(), []

    def handler(request: httpx.Request) -> httpx.Response:
        times.append(fake.now)
        return httpx.Response(200, text="ok")

    shared = HostPolicy(min_interval=2.0, jitter=0.0, retries=0, group="svc")
    client = mock_client(handler, HostPolicy(), fake)
    client.policies.update({"a.example": shared, "b.example": shared})
    client.get_text(TARGET, "https://a.example/x")
    client.get_text(TARGET, "https://b.example/y")
    client.close()
    assert times[1] - times[0] == pytest.approx(2.0)


def test_default_policies_pace_eastmoney_as_one_service_at_least_1_5_s() -> None:
    eastmoney = [policy for host, policy in DEFAULT_POLICIES.items() if host.endswith("eastmoney.com")]
    assert len(eastmoney) == 4  # push2, push2his, push2delay, datacenter-web
    assert {policy.group for policy in eastmoney} == {"eastmoney"}
    assert all(policy.min_interval >= 1.5 and policy.jitter == pytest.approx(0.3) for policy in eastmoney)


def test_5xx_is_retried_with_growing_jittered_backoff_then_succeeds() -> None:
    fake, answers = FakeTime(), [503, 502, 200]

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(answers.pop(0), text="ok")

    policy = HostPolicy(min_interval=0.0, jitter=0.0, retries=2, backoff=1.0, max_backoff=30.0)
    with mock_client(handler, policy, fake) as client:
        assert client.get_text(TARGET, "https://svc.example/x") == "ok"
    first, second = fake.sleeps
    assert 0.5 <= first <= 1.5 and 1.0 <= second <= 3.0


def test_persistent_5xx_fails_as_http_status_after_every_retry() -> None:
    fake, calls = FakeTime(), []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        return httpx.Response(503)

    with (
        mock_client(handler, HostPolicy(min_interval=0, retries=2, backoff=0.01), fake) as client,
        pytest.raises(FetchError) as caught,
    ):
        client.get_text(TARGET, "https://svc.example/x")
    assert len(calls) == 3
    assert caught.value.failure.kind == "http_status" and caught.value.failure.status == 503


def test_429_waits_at_least_retry_after_capped_by_max_backoff() -> None:
    fake, answers = FakeTime(), [httpx.Response(429, headers={"Retry-After": "7"}), httpx.Response(200, text="ok")]
    policy = HostPolicy(min_interval=0, retries=1, backoff=0.01, max_backoff=20.0)
    with mock_client(lambda request: answers.pop(0), policy, fake) as client:
        assert client.get_text(TARGET, "https://svc.example/x") == "ok"
    assert fake.sleeps == [7.0]


@pytest.mark.parametrize("status", [400, 403, 404])
def test_other_4xx_are_not_retried(status: int) -> None:
    fake, calls = FakeTime(), []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        return httpx.Response(status)

    with (
        mock_client(handler, HostPolicy(min_interval=0, retries=3), fake) as client,
        pytest.raises(FetchError) as caught,
    ):
        client.get_text(TARGET, "https://svc.example/x")
    assert len(calls) == 1
    assert (caught.value.failure.kind, caught.value.failure.status) == ("http_status", status)


def test_network_errors_are_retried_then_reported_as_network() -> None:
    fake, calls = FakeTime(), []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        raise httpx.ConnectError("connection refused", request=request)

    with (
        mock_client(handler, HostPolicy(min_interval=0, retries=1, backoff=0.01), fake) as client,
        pytest.raises(FetchError) as caught,
    ):
        client.get_json(TARGET, "https://svc.example/x")
    assert len(calls) == 2
    assert caught.value.failure.kind == "network" and "refused" in caught.value.failure.reason


def test_a_timeout_is_a_network_failure(replay: ReplayServer, impatient_http: HttpClient) -> None:
    replay.route("/slow", Reply.slow(1.0))
    with pytest.raises(FetchError) as caught:
        impatient_http.get_json(TARGET, replay.base_url + "/slow")
    assert caught.value.failure.kind == "network"
    assert "0.15 s" in caught.value.failure.reason


def test_a_truncated_body_is_unparseable_not_a_short_success(replay: ReplayServer, http: HttpClient) -> None:
    replay.route("/cut", Reply.truncated(b'{"data": {"klines": ["2024-06-28,1,2,3,4,5"]}}'))
    with pytest.raises(FetchError) as caught:
        http.get_json(TARGET, replay.base_url + "/cut")
    assert caught.value.failure.kind == "unparseable"
    assert "truncated" in caught.value.failure.reason
    assert len(replay.seen("/cut")) == 2  # retried once: a cut connection may be transient


def test_cut_json_is_unparseable_with_the_reason(replay: ReplayServer, http: HttpClient) -> None:
    replay.route("/cut", Reply(b'{"data": {"klines": ["2024-06-28,1,2', content_type="application/json"))
    with pytest.raises(FetchError) as caught:
        http.get_json(TARGET, replay.base_url + "/cut")
    assert caught.value.failure.kind == "unparseable" and "invalid JSON" in caught.value.failure.reason


def test_gbk_is_decoded_from_the_bytes_whatever_the_declared_charset(replay: ReplayServer, http: HttpClient) -> None:
    replay.route("/q", Reply.gbk('v_sh600000="1~浦发银行~600000";', declared="text/html; charset=UTF-8"))
    assert "浦发银行" in http.get_text(TARGET, replay.base_url + "/q", encoding="gbk")
    with pytest.raises(FetchError) as caught:
        http.get_text(TARGET, replay.base_url + "/q", encoding="utf-8")
    assert caught.value.failure.kind == "unparseable" and "UTF-8" in caught.value.failure.reason


@pytest.mark.parametrize("reader", ["text", "json"])
def test_an_html_page_with_200_is_blocked(replay: ReplayServer, http: HttpClient, reader: str) -> None:
    replay.route("/api", Reply.firewall())
    fetch = http.get_text if reader == "text" else http.get_json
    with pytest.raises(FetchError) as caught:
        fetch(TARGET, replay.base_url + "/api")
    assert caught.value.failure.kind == "blocked"


def test_page_detection_tells_pages_from_data() -> None:
    assert looks_like_page(FIREWALL_PAGE)
    assert looks_like_page("  \n<HTML><BODY>denied</BODY></HTML>")
    assert looks_like_page("您的访问过于频繁，请稍后再试")
    assert not looks_like_page('v_sh600000="1~浦发银行~600000";')
    assert not looks_like_page('{"data": "<html> inside a JSON string is data"}')


def test_an_empty_body_is_a_failure_of_kind_empty(replay: ReplayServer, http: HttpClient) -> None:
    replay.route("/api", Reply(b"  \n"))
    with pytest.raises(FetchError) as caught:
        http.get_json(TARGET, replay.base_url + "/api")
    assert caught.value.failure.kind == "empty"


def test_json_numbers_with_a_fraction_are_exact_decimals(replay: ReplayServer, http: HttpClient) -> None:
    replay.route("/api", Reply.json({"preKPrice": 6.08}))
    assert http.get_json(TARGET, replay.base_url + "/api") == {"preKPrice": Decimal("6.08")}


def test_requests_carry_the_stable_desktop_user_agent(replay: ReplayServer, http: HttpClient) -> None:
    replay.route("/api", Reply(b"ok"))
    http.get_text(TARGET, replay.base_url + "/api", headers={"Referer": "https://finance.sina.com.cn/"})
    (seen,) = replay.seen("/api")
    assert seen.headers["user-agent"] == USER_AGENT and "Chrome" in USER_AGENT
    assert seen.headers["referer"] == "https://finance.sina.com.cn/"


def test_fetch_error_is_a_user_facing_data_unavailable_with_its_record(replay: ReplayServer, http: HttpClient) -> None:
    replay.route("/api", Reply.failing(404))
    with pytest.raises(DataUnavailable) as caught:
        http.get_text(TARGET, replay.base_url + "/api")
    error = caught.value
    assert isinstance(error, FetchError) and isinstance(error, UserError)
    assert error.failure.source == "testsource" and error.failure.what == "bars"
    assert error.failure.url == replay.base_url + "/api"
    assert "testsource bars for 600000.SH" in error.message and error.hint


@pytest.fixture(scope="module")
def guarded() -> Iterator[HttpClient]:
    """A default client (no loopback) whose resolver knows two made-up names and reads IP literals."""
    names = {"intranet.example": ["10.1.2.3"], "static.example": ["203.0.113.7"]}
    client = HttpClient(resolver=lambda host: names.get(host) or [host.strip("[]")], trust_env=False)
    yield client
    client.close()


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("file:///etc/passwd", "scheme"),
        ("ftp://static.example/a.pdf", "scheme"),
        ("http://10.0.0.1/a.pdf", "private"),
        ("http://192.168.1.20/a.pdf", "private"),
        ("http://169.254.169.254/latest/meta-data", "link-local"),
        ("http://224.0.0.1/a.pdf", "multicast"),
        ("http://127.0.0.1:8080/a.pdf", "loopback"),
        ("http://[::1]/a.pdf", "loopback"),
        ("http://[::ffff:127.0.0.1]/a.pdf", "loopback"),
        ("http://0.0.0.0/a.pdf", "reserved"),
        ("http://intranet.example/a.pdf", "private"),  # resolves to 10.1.2.3
    ],
)
def test_document_urls_to_private_places_are_refused(guarded: HttpClient, url: str, why: str) -> None:
    assert why in guarded.refusal(url)


def test_public_document_urls_pass_the_guard() -> None:
    client = HttpClient(resolver=lambda host: ["8.8.8.8"], trust_env=False)
    assert client.refusal("https://static.cninfo.com.cn/finalpage/2024-06-28/1.PDF") == ""
    client.close()


def test_loopback_is_allowed_only_when_asked_and_private_stays_refused() -> None:
    client = HttpClient(allow_loopback=True, trust_env=False)
    assert client.refusal("http://127.0.0.1:9/a.pdf") == ""
    assert "private" in client.refusal("http://10.0.0.1/a.pdf")
    client.close()


def test_fetch_document_refuses_loopback_by_default_without_sending(replay: ReplayServer) -> None:
    replay.route("/doc.pdf", Reply.pdf(make_pdf(["公告"])))
    client = HttpClient(default_policy=HostPolicy(min_interval=0), trust_env=False)
    with pytest.raises(FetchError) as caught:
        client.fetch_document(TARGET, replay.base_url + "/doc.pdf")
    client.close()
    assert caught.value.failure.kind == "unsupported" and "loopback" in caught.value.failure.reason
    assert replay.seen("/doc.pdf") == []


def test_fetch_document_checks_every_redirect(replay: ReplayServer, http: HttpClient) -> None:
    replay.route("/doc.pdf", Reply(b"", 302, headers={"Location": "http://10.9.8.7/secret.pdf"}))
    with pytest.raises(FetchError) as caught:
        http.fetch_document(TARGET, replay.base_url + "/doc.pdf")
    assert "10.9.8.7" in caught.value.failure.reason and "private" in caught.value.failure.reason


def test_fetch_document_returns_the_bytes_when_allowed(replay: ReplayServer, http: HttpClient) -> None:
    data = make_pdf(["示例公告"])
    replay.route("/moved.pdf", Reply(b"", 301, headers={"Location": "/doc.pdf"}))
    replay.route("/doc.pdf", Reply.pdf(data))
    assert http.fetch_document(TARGET, replay.base_url + "/moved.pdf") == data
