"""Polite HTTP for the public market-data services: pacing per host with jitter, timeouts, retries with
backoff, decoding of the bytes (never the declared charset), firewall-page detection and a guarded document fetch.

Every failure leaves here as a `FetchError` carrying a `FetchFailure`; nothing returns an empty or partial result.
With `record=DIR` every exchange (redirect hops and failures included) is written into DIR as it happens; with
`replay=DIR` the client answers from such a recording with no network (no pacing, no DNS); the folder's layout
is described in stockbench.data.recording.
"""

from __future__ import annotations

import ipaddress
import json
import random
import re
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal

import httpx

from stockbench.data.recording import NotRecorded, Recorder, ReplayTransport, redact_url
from stockbench.data.records import DataKind, FetchFailure
from stockbench.errors import DataUnavailable

FailureKind = Literal[
    "network", "http_status", "blocked", "unparseable", "empty", "unknown_symbol", "unsupported", "not_recorded"
]
Encoding = Literal["gbk", "utf-8"]

# One stable desktop browser identity: rotating agents looks like a scraper, a constant one like a reader.
USER_AGENT = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
)
MAX_DOCUMENT_BYTES = 50 * 1024 * 1024
MAX_REDIRECTS = 5

_HINTS: dict[str, str] = {
    "network": "check the connection; the service may be down or slow, try again later",
    "http_status": "the service refused or failed the request; try again later",
    "blocked": "the service answered with a firewall or challenge page; wait before asking it again",
    "unparseable": "the service's answer did not have the expected format; another source may help",
    "empty": "the service had no data for this request",
    "unknown_symbol": "check the symbol; the service does not know it",
    "unsupported": "use another source for this kind of data",
    "not_recorded": "the recording holds no answer to this request; record the fetch again with --record",
}
_PAGE_MARKERS = ("<html", "<!doctype", "<head", "<body", "<script", "<meta", "<title")
_CHALLENGE_MARKERS = ("访问过于频繁", "请求过于频繁", "滑动验证", "安全验证", "captcha", "access denied")


class FetchError(DataUnavailable):
    """A fetch that failed; `failure` says which source, what, why and of which kind."""

    def __init__(self, failure: FetchFailure) -> None:
        super().__init__(
            f"{failure.source} {failure.what} for {failure.symbol}: {failure.reason}", _HINTS[failure.kind]
        )
        self.failure = failure


@dataclass(frozen=True, slots=True)
class Target:
    """What a fetch is for; it names the failure when the fetch fails."""

    source: str
    what: DataKind
    symbol: str

    def failure(
        self, kind: FailureKind, reason: str, *, url: str = "", status: int | None = None, **details: str
    ) -> FetchError:
        """The FetchError for this target."""
        return FetchError(FetchFailure(self.source, self.what, self.symbol, reason, kind, url, status, dict(details)))


@dataclass(frozen=True, slots=True)
class HostPolicy:
    """How politely to treat one host (or a group of hosts run by one service, which bans as one)."""

    min_interval: float = 0.5  # seconds between two requests to the host or group
    jitter: float = 0.3  # +/- fraction applied to min_interval
    timeout: float = 10.0
    retries: int = 2  # further attempts after the first, for network errors, 429 and 5xx
    backoff: float = 1.0  # the first retry waits about this long; each later one twice as long, jittered
    max_backoff: float = 30.0
    group: str = ""


_EASTMONEY = HostPolicy(min_interval=1.5, jitter=0.3, group="eastmoney")
DEFAULT_POLICIES: dict[str, HostPolicy] = {
    "push2.eastmoney.com": _EASTMONEY,
    "push2his.eastmoney.com": _EASTMONEY,
    "push2delay.eastmoney.com": _EASTMONEY,
    "datacenter-web.eastmoney.com": _EASTMONEY,
    "qt.gtimg.cn": HostPolicy(min_interval=0.3),
    "web.ifzq.gtimg.cn": HostPolicy(min_interval=0.5),
    "proxy.finance.qq.com": HostPolicy(min_interval=0.5),
    "hq.sinajs.cn": HostPolicy(min_interval=0.3),
    "vip.stock.finance.sina.com.cn": HostPolicy(min_interval=1.0),
    "www.cninfo.com.cn": HostPolicy(min_interval=1.0),
    "static.cninfo.com.cn": HostPolicy(min_interval=0.5),
}


class _Pacer:
    """Spaces requests to each host or group by its minimum interval, with jitter; thread-safe."""

    def __init__(self, clock: Callable[[], float], sleep: Callable[[float], None], rng: random.Random) -> None:
        self._clock, self._sleep, self._rng = clock, sleep, rng
        self._lock = threading.Lock()
        self._next: dict[str, float] = {}

    def wait(self, key: str, policy: HostPolicy) -> None:
        with self._lock:
            now = self._clock()
            start = max(now, self._next.get(key, now))
            spread = policy.jitter * self._rng.uniform(-1.0, 1.0)
            self._next[key] = start + max(0.0, policy.min_interval * (1.0 + spread))
        if start > now:
            self._sleep(start - now)


def looks_like_page(text: str) -> bool:
    """True for an HTML document or a challenge page where data (JSON, quote text) was expected."""
    head = text.lstrip()[:2048].lower()
    if head.startswith("<") and any(marker in head for marker in _PAGE_MARKERS):
        return True
    return not head.startswith(("{", "[")) and any(marker in head for marker in _CHALLENGE_MARKERS)


def decode_body(body: bytes, encoding: Encoding) -> str:
    """Decode bytes as the service really encodes them; raises ValueError with the reason.

    "gbk" services (Sina, Tencent) have also been seen answering in UTF-8 (hq.sinajs.cn, 2026-09): bytes that
    decode strictly as UTF-8 are UTF-8 (Chinese GBK text practically never does: its second bytes fall outside
    UTF-8's continuation range), the rest GB18030, which covers GBK. Decoding UTF-8 bytes as GB18030 would give
    mojibake names without any error."""
    if encoding == "gbk":
        try:
            return body.decode("utf-8-sig")
        except UnicodeDecodeError:
            pass
    codec = "gb18030" if encoding == "gbk" else "utf-8-sig"
    try:
        return body.decode(codec)
    except UnicodeDecodeError as exc:
        raise ValueError(f"the body is not valid {encoding.upper()} text (byte {exc.start})") from None


class HttpClient:
    """The one HTTP door of the data providers (sync; the data service calls it from a thread pool)."""

    def __init__(
        self,
        *,
        policies: Mapping[str, HostPolicy] | None = None,
        default_policy: HostPolicy | None = None,
        allow_loopback: bool = False,
        trust_env: bool = True,
        user_agent: str = USER_AGENT,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
        resolver: Callable[[str], list[str]] | None = None,
        transport: httpx.BaseTransport | None = None,
        record: Path | None = None,
        replay: Path | None = None,
    ) -> None:
        """`record`: write every exchange into this folder (see stockbench.data.recording); `replay`: answer
        from the recording in this folder, with no network. Raises BadRecording when the folder cannot serve."""
        if record is not None and replay is not None:
            raise ValueError("a client records or replays, not both")
        self.policies = dict(DEFAULT_POLICIES if policies is None else policies)
        self.default_policy = default_policy or HostPolicy()
        self.allow_loopback = allow_loopback
        self._sleep = sleep
        self._rng = rng or random.Random()
        self._pacer = _Pacer(clock, sleep, self._rng)
        self._resolve = resolver or _resolve_host
        headers = {"User-Agent": user_agent, "Accept": "*/*", "Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8"}
        self.recorder = Recorder(record) if record is not None else None
        self.replaying = replay is not None
        self.replay_folder = replay
        self._replay = ReplayTransport(replay) if replay is not None else None
        if self._replay is not None:
            transport = self._replay
        hooks: dict[str, list[Callable[..., Any]]] = {}
        if self.recorder is not None:
            hooks = {"request": [self.recorder.started], "response": [self.recorder.answered]}
        self._client = httpx.Client(
            headers=headers, trust_env=trust_env, transport=transport, follow_redirects=True, event_hooks=hooks
        )

    def close(self) -> None:
        self._client.close()

    @property
    def recorded_at(self) -> datetime | None:
        """When the replayed recording was made: its first request's time (None: not replaying, or it holds none)."""
        return self._replay.recorded_at if self._replay is not None else None

    def replayed_times(self) -> list[datetime]:
        """When the recorded exchanges a replay answered on this thread since the last call were recorded (and
        forget them); empty when not replaying."""
        return self._replay.answered_times() if self._replay is not None else []

    def __enter__(self) -> HttpClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def policy_for(self, host: str) -> HostPolicy:
        return self.policies.get(host, self.default_policy)

    def get_text(
        self,
        target: Target,
        url: str,
        *,
        params: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        encoding: Encoding = "utf-8",
    ) -> str:
        """GET a text answer (quote lines, JSON text); refuses empty bodies and firewall pages."""
        response = self._send(target, "GET", url, params=params, headers=headers)
        return self._text(target, response, encoding)

    def get_json(
        self,
        target: Target,
        url: str,
        *,
        params: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        encoding: Encoding = "utf-8",
    ) -> Any:
        """GET and parse JSON (numbers with a fraction become exact Decimals)."""
        response = self._send(target, "GET", url, params=params, headers=headers)
        return self._json(target, response, self._text(target, response, encoding))

    def post_form_json(
        self, target: Target, url: str, form: Mapping[str, str], *, headers: Mapping[str, str] | None = None
    ) -> Any:
        """POST a form and parse the JSON answer."""
        response = self._send(target, "POST", url, data=form, headers=headers)
        return self._json(target, response, self._text(target, response, "utf-8"))

    def fetch_document(self, target: Target, url: str, *, headers: Mapping[str, str] | None = None) -> bytes:
        """GET a document (a PDF) from a URL that came from data: refuses non-http(s) schemes and private,
        loopback, link-local, multicast or reserved addresses (loopback only with allow_loopback), per redirect."""
        for _ in range(MAX_REDIRECTS + 1):
            reason = self.refusal(url)
            if reason:
                raise target.failure("unsupported", f"refused to fetch {url}: {reason}", url=url)
            response = self._send(target, "GET", url, headers=headers, follow_redirects=False)
            if response.is_redirect and "location" in response.headers:
                url = str(response.url.join(response.headers["location"]))
                continue
            if len(response.content) > MAX_DOCUMENT_BYTES:
                raise target.failure("unparseable", f"document larger than {MAX_DOCUMENT_BYTES} bytes", url=url)
            if not response.content.strip():
                raise target.failure("empty", "empty body", url=url, status=response.status_code)
            return response.content
        raise target.failure("unsupported", f"more than {MAX_REDIRECTS} redirects", url=url)

    def refusal(self, url: str) -> str:
        """Why `url` may not be fetched as a document ('' when it may). Every address the host resolves to must
        be public; a host that answers differently between this check and the connection is not caught."""
        try:
            parsed = httpx.URL(url)
        except httpx.InvalidURL as exc:
            return f"not a valid URL ({exc})"
        if parsed.scheme not in {"http", "https"}:
            return f"scheme '{parsed.scheme}' is not http or https"
        if not parsed.host:
            return "the URL has no host"
        if self.replaying:  # the answer comes from the recording: nothing is resolved or reached
            return ""
        try:
            addresses = self._resolve(parsed.host)
        except OSError as exc:
            return f"host '{parsed.host}' does not resolve ({exc})"
        for address in addresses:
            problem = _address_problem(address, self.allow_loopback)
            if problem:
                return f"host '{parsed.host}' resolves to {address}, {problem}"
        return "" if addresses else f"host '{parsed.host}' has no address"

    def _send(
        self,
        target: Target,
        method: str,
        url: str,
        *,
        params: Mapping[str, str] | None = None,
        data: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        follow_redirects: bool = True,
    ) -> httpx.Response:
        full = str(httpx.URL(url, params=params)) if params else url
        host = httpx.URL(full).host
        policy = self.policy_for(host)
        last: FetchError | None = None
        for attempt in range(policy.retries + 1):
            if attempt and not self.replaying:
                self._sleep(self._backoff(policy, attempt, last))
            if not self.replaying:
                self._pacer.wait(policy.group or host, policy)
            last, response = self._attempt(
                target, method, full, data=data, headers=headers, policy=policy, follow_redirects=follow_redirects
            )
            if response is not None:
                return response
        assert last is not None
        raise last

    def _attempt(
        self,
        target: Target,
        method: str,
        url: str,
        *,
        data: Mapping[str, str] | None,
        headers: Mapping[str, str] | None,
        policy: HostPolicy,
        follow_redirects: bool,
    ) -> tuple[FetchError | None, httpx.Response | None]:
        """One try: (the retryable failure, None) or (None, the response); raises what retrying cannot fix."""
        try:
            response = self._client.request(
                method, url, data=data, headers=headers, timeout=policy.timeout, follow_redirects=follow_redirects
            )
        except NotRecorded:
            shown = redact_url(url)
            reason = f"the recording holds no answer to {method} {shown}"
            raise target.failure("not_recorded", reason, url=shown) from None
        except httpx.RequestError as exc:
            if self.recorder is not None:
                self.recorder.failed(exc.request, exc)  # the client always sets the request of what it raises
            return self._transport_failure(target, url, policy, exc), None
        status = response.status_code
        if status == 501:  # Not Implemented: the endpoint is gone (fqkline since 2026-10); asking again cannot help
            raise target.failure("http_status", "HTTP 501 (the endpoint is not served)", url=url, status=status)
        if status == 429 or status >= 500:
            retry_after = response.headers.get("retry-after", "")
            return target.failure(
                "http_status", f"HTTP {status}", url=url, status=status, retry_after=retry_after
            ), None
        if status >= 400:
            raise target.failure("http_status", f"HTTP {status}", url=url, status=status)
        if status >= 300 and follow_redirects:
            raise target.failure("http_status", f"HTTP {status} without a usable redirect", url=url, status=status)
        return None, response

    @staticmethod
    def _transport_failure(target: Target, url: str, policy: HostPolicy, exc: httpx.RequestError) -> FetchError:
        if isinstance(exc, httpx.TimeoutException):
            return target.failure("network", f"no answer within {policy.timeout:g} s", url=url)
        if isinstance(exc, httpx.RemoteProtocolError):
            if "complete message body" in str(exc):
                return target.failure("unparseable", f"truncated body: {exc}", url=url)
            return target.failure("network", f"protocol error: {exc}", url=url)
        return target.failure("network", f"{type(exc).__name__}: {exc}", url=url)

    def _backoff(self, policy: HostPolicy, attempt: int, last: FetchError | None) -> float:
        delay = policy.backoff * (2.0 ** (attempt - 1)) * self._rng.uniform(0.5, 1.5)
        retry_after = last.failure.details.get("retry_after", "") if last else ""
        if retry_after.isdigit():
            delay = max(delay, float(retry_after))
        return min(delay, policy.max_backoff)

    def _text(self, target: Target, response: httpx.Response, encoding: Encoding) -> str:
        url, status = str(response.url), response.status_code
        if not response.content.strip():
            raise target.failure("empty", "empty body", url=url, status=status)
        try:
            text = decode_body(response.content, encoding)
        except ValueError as exc:
            text, problem = response.content.decode("utf-8", "replace"), str(exc)
        else:
            problem = ""
        if looks_like_page(text):  # a firewall page may come in another encoding than the data
            raise target.failure("blocked", f"an HTML page came back instead of data: {_snippet(text)}", url=url)
        if problem:
            raise target.failure("unparseable", problem, url=url, status=status)
        return text

    def _json(self, target: Target, response: httpx.Response, text: str) -> Any:
        try:
            return json.loads(text, parse_float=Decimal)
        except json.JSONDecodeError as exc:
            reason = f"invalid JSON ({exc.msg} at char {exc.pos} of {len(text)}): {_snippet(text)}"
            raise target.failure("unparseable", reason, url=str(response.url), status=response.status_code) from None


def _snippet(text: str, size: int = 80) -> str:
    flat = re.sub(r"\s+", " ", text.strip())
    return flat[:size] + ("..." if len(flat) > size else "")


def _resolve_host(host: str) -> list[str]:
    try:
        return [str(ipaddress.ip_address(host.strip("[]")))]
    except ValueError:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
        return sorted({str(info[4][0]) for info in infos})


def _address_problem(text: str, allow_loopback: bool) -> str:
    try:
        address = ipaddress.ip_address(text.split("%", maxsplit=1)[0])
    except ValueError:
        return "not an IP address"
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    if address.is_loopback:
        return "" if allow_loopback else "a loopback address"
    checks = (
        (address.is_link_local, "a link-local address"),
        (address.is_multicast, "a multicast address"),
        (address.is_reserved or address.is_unspecified, "a reserved address"),
        (address.is_private, "a private address"),
        (not address.is_global, "not a public address"),
    )
    return next((label for flag, label in checks if flag), "")
