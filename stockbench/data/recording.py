"""Recordings of the data services' HTTP exchanges, for bug reports and tests: written as they happen
(`stockbench data fetch SYMBOL --record DIR`) and answered from with no network at all (`--replay DIR`).

The layout of a recording folder DIR (a user attaches the whole folder to a bug report):

    DIR/README.txt      what the folder is, this layout, and the stockbench version that wrote it
    DIR/index.jsonl     one JSON object per line, one line per exchange, in the order they happened:
        seq               1, 2, 3 ... (the order of the exchanges)
        method            "GET" or "POST"
        url               the full URL; the value of every secret query parameter is "<redacted>"
        form              a POST's form fields (url-encoded text, secrets redacted the same way; "" for a GET)
        request_headers   {name: value}, secret headers' values "<redacted>"
        status            the HTTP status (null when no answer came: see error)
        response_headers  {name: value}, redacted the same way (Set-Cookie, ...)
        time              when the request was sent (UTC, ISO 8601)
        elapsed_ms        how long the answer took
        body              the body's file name under bodies/ ("" when no answer came)
        sha256            the SHA-256 of the body bytes (hex)
        error             "" for an answer; else the failure's class and text (a timeout, a refused connection)
    DIR/bodies/NNNN.bin the exact bytes of exchange NNNN's response body (NNNN is seq, four digits or more)

A name is secret when it contains token, key, sign, secret, password, auth, cookie, session, ticket or
credential (any case); a URL's user and password are dropped. A replay matches a request by method, URL and
form as redacted, answering the exchanges recorded for it in order (the last one repeats); a request that was
never recorded fails with `NotRecorded`, naming the URL, and is never sent. What a replayed fetch stores is stamped
with the `time` of the exchange it was answered from (see stockbench.data.service), never the time of the replay.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import unquote_plus

import httpx

from stockbench import __version__

REDACTED = "<redacted>"
SECRET_WORDS = ("token", "key", "sign", "secret", "password", "passwd", "auth", "cookie", "session", "ticket",
                "credential")  # fmt: skip
INDEX = "index.jsonl"
BODIES = "bodies"
README = "README.txt"


class NotRecorded(httpx.TransportError):
    """A replayed request that the recording does not hold (it is never sent to the network)."""


class BadRecording(ValueError):
    """A recording folder that cannot be read: missing, malformed, or a body that does not match its hash."""


def is_secret(name: str) -> bool:
    """Whether a query parameter or header of this name may carry a secret."""
    lowered = name.lower()
    return any(word in lowered for word in SECRET_WORDS)


def redact_query(query: str) -> str:
    """A url-encoded query or form with every secret value replaced by "<redacted>" (the rest verbatim)."""
    parts = []
    for part in query.split("&") if query else []:
        name, sep, _ = part.partition("=")
        parts.append(f"{name}={REDACTED}" if sep and is_secret(unquote_plus(name)) else part)
    return "&".join(parts)


def redact_url(url: str | httpx.URL) -> str:
    """The URL as it may be shown and stored: secret query values redacted, user and password dropped."""
    parsed = httpx.URL(url)
    query = parsed.query.decode("ascii", "replace")
    port = f":{parsed.port}" if parsed.port else ""
    text = f"{parsed.scheme}://{parsed.host}{port}{parsed.raw_path.decode('ascii', 'replace').split('?')[0]}"
    return f"{text}?{redact_query(query)}" if query else text


def redact_headers(headers: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Headers with every secret one's value replaced by "<redacted>"."""
    return {name: REDACTED if is_secret(name) else value for name, value in headers}


def _form(request: httpx.Request) -> str:
    if request.method != "POST":
        return ""
    return redact_query(request.read().decode("utf-8", "replace"))


def request_key(request: httpx.Request) -> tuple[str, str, str]:
    """What a replay matches a request by: method, redacted URL, redacted form."""
    return request.method, redact_url(request.url), _form(request)


@dataclass(frozen=True, slots=True)
class Exchange:
    """One line of index.jsonl (see the module docstring)."""

    seq: int
    method: str
    url: str
    form: str
    request_headers: dict[str, str]
    status: int | None
    response_headers: dict[str, str]
    time: str
    elapsed_ms: int
    body: str
    sha256: str
    error: str = ""

    @property
    def key(self) -> tuple[str, str, str]:
        return self.method, self.url, self.form


def _readme(started: datetime) -> str:
    doc = (__doc__ or "").split("The layout", 1)[1]
    return (
        f"A recording of Stock Workbench's requests to the market-data services.\n"
        f"Written by stockbench {__version__}, started {started.isoformat()}.\n"
        f"Replay it with: stockbench data fetch SYMBOL --replay <this folder>\n\nThe layout{doc}"
    )


class Recorder:
    """Writes each exchange into a recording folder the moment it completes (thread-safe)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        try:
            (folder / BODIES).mkdir(parents=True, exist_ok=True)
            if any((folder / BODIES).iterdir()) or (folder / INDEX).exists():
                raise BadRecording(f"{folder} already holds a recording; record into an empty folder")
            (folder / README).write_text(_readme(datetime.now(UTC)), encoding="utf-8")
        except OSError as exc:
            raise BadRecording(f"cannot write a recording into {folder}: {exc.strerror or exc}") from None
        self._lock = threading.Lock()
        self._seq = 0

    def started(self, request: httpx.Request) -> None:
        """Note when a request leaves (its exchange's time and elapsed_ms are measured from here)."""
        request.extensions = {**request.extensions, "stockbench_sent": (datetime.now(UTC), time.perf_counter())}

    def answered(self, response: httpx.Response) -> None:
        """Record a response (its body read in full) with its request."""
        response.read()
        self._write(response.request, response.status_code, response.headers.multi_items(), response.content, "")

    def failed(self, request: httpx.Request, error: Exception) -> None:
        """Record a request that got no answer (a timeout, a refused connection)."""
        self._write(request, None, [], b"", f"{type(error).__name__}: {error}")

    def _write(
        self, request: httpx.Request, status: int | None, headers: list[tuple[str, str]], body: bytes, error: str
    ) -> None:
        sent, clock = request.extensions.get("stockbench_sent", (datetime.now(UTC), time.perf_counter()))
        with self._lock:
            self._seq += 1
            name = f"{self._seq:04d}.bin" if not error else ""
            exchange = Exchange(
                self._seq,
                request.method,
                redact_url(request.url),
                _form(request),
                redact_headers(request.headers.multi_items()),
                status,
                redact_headers(headers),
                sent.isoformat(),
                int((time.perf_counter() - clock) * 1000),
                name,
                hashlib.sha256(body).hexdigest(),
                error,
            )
            if name:
                (self.folder / BODIES / name).write_bytes(body)
            with (self.folder / INDEX).open("a", encoding="utf-8") as index:
                index.write(json.dumps(asdict(exchange), ensure_ascii=False) + "\n")


def load(folder: Path) -> list[Exchange]:
    """The exchanges of a recording folder, every body checked against its hash; raises BadRecording."""
    try:
        lines = (folder / INDEX).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise BadRecording(f"{folder} is not a recording ({INDEX}: {exc.strerror or exc})") from None
    found = []
    for number, line in enumerate(lines, 1):
        try:
            exchange = Exchange(**json.loads(line))
        except (ValueError, TypeError) as exc:
            raise BadRecording(f"{folder / INDEX} line {number} is not an exchange ({exc})") from None
        _instant(exchange.time)
        if exchange.body:
            body = _body(folder, exchange.body)
            if hashlib.sha256(body).hexdigest() != exchange.sha256:
                raise BadRecording(f"{folder / BODIES / exchange.body} does not match its sha256 in {INDEX}")
        found.append(exchange)
    return found


def recorded_at(folder: Path) -> datetime | None:
    """When the recording in `folder` was made: the instant its first request was sent (None: it holds none)."""
    exchanges = load(folder)
    return datetime.fromisoformat(exchanges[0].time) if exchanges else None


def _instant(text: str) -> datetime:
    """An exchange's time as a UTC instant (a recording edited by hand may give it with another offset)."""
    try:
        found = datetime.fromisoformat(text)
    except ValueError:
        raise BadRecording(f"{INDEX} gives an exchange the time {text!r}, not an ISO 8601 instant") from None
    if found.tzinfo is None:
        raise BadRecording(f"{INDEX} gives an exchange the time {text!r} with no offset")
    return found.astimezone(UTC)


def _body(folder: Path, name: str) -> bytes:
    path = folder / BODIES / name
    if path.parent != folder / BODIES:
        raise BadRecording(f"{INDEX} names a body outside {BODIES}/: {name}")
    try:
        return path.read_bytes()
    except OSError as exc:
        raise BadRecording(f"{path} cannot be read ({exc.strerror or exc})") from None


class ReplayTransport(httpx.BaseTransport):
    """Answers requests from a recording folder with no network: the exchanges recorded for a request in order,
    the last one repeating; a recorded failure is raised again; an unrecorded request raises NotRecorded.

    It notes, per thread, when each exchange it answered from was recorded (see `answered_times`), so that what a
    replayed fetch stores carries the recording's time rather than the time of the replay."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._queues: dict[tuple[str, str, str], list[Exchange]] = {}
        exchanges = load(folder)
        for exchange in exchanges:
            self._queues.setdefault(exchange.key, []).append(exchange)
        self.recorded_at = _instant(exchanges[0].time) if exchanges else None
        self._lock = threading.Lock()
        self._answered = threading.local()

    def answered_times(self) -> list[datetime]:
        """When the exchanges answered on this thread since the last call were recorded (and forget them)."""
        found: list[datetime] = getattr(self._answered, "times", [])
        self._answered.times = []
        return found

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        key = request_key(request)
        with self._lock:
            queue = self._queues.get(key)
            if not queue:
                raise NotRecorded(f"not in the recording {self.folder}: {key[0]} {key[1]}", request=request)
            exchange = queue.pop(0) if len(queue) > 1 else queue[0]
        self._answered.times = [*getattr(self._answered, "times", []), _instant(exchange.time)]
        if exchange.error:
            kind = httpx.ReadTimeout if "Timeout" in exchange.error.split(":", 1)[0] else httpx.ConnectError
            raise kind(f"as recorded: {exchange.error}", request=request)
        headers = _replayed_headers(exchange.response_headers)
        body = _body(self.folder, exchange.body)
        return httpx.Response(exchange.status or 200, headers=headers, content=body, request=request)


def _replayed_headers(headers: Mapping[str, str]) -> dict[str, str]:
    # the body is stored decoded: a recorded Content-Encoding or Transfer-Encoding would make httpx decode it again
    dropped = {"content-encoding", "transfer-encoding", "content-length"}
    return {name: value for name, value in headers.items() if name.lower() not in dropped}
