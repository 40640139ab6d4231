"""A local replay HTTP server (127.0.0.1 only, no network) for adapter tests, and builders of answers in the
recorded formats of each service.

The builders write the exact shapes of the real payloads in ../shared/data/payloads/ (Tencent quote lines and
k-line JSON, the Eastmoney k-line JSON) and of the services' public client code (akshare, easyquotation) for
the rest; the values in them are made up. Faults: a delay past the client timeout, any status (5xx, 429 with
Retry-After), an HTML firewall page with 200, empty bodies, GBK bytes under a wrong declared charset, and
truncated bodies (a Content-Length larger than the bytes sent).
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from tests.loopback import LoopbackServer

FIREWALL_PAGE = (
    "<!DOCTYPE html><html><head><meta charset='utf-8'><title>访问验证</title></head>"
    "<body><h1>请求过于频繁</h1><p>您的访问过于频繁，请完成滑动验证后继续访问。</p>"
    "<script src='/waf/challenge.js'></script></body></html>"
)


@dataclass(frozen=True)
class Reply:
    """One recorded answer, possibly with a fault."""

    body: bytes = b""
    status: int = 200
    content_type: str = "text/plain; charset=utf-8"
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds to wait before answering (past the client timeout = a timeout)
    declared_length: int | None = None  # more than len(body): the connection closes early (truncated)

    @classmethod
    def json(cls, payload: Any, *, status: int = 200) -> Reply:
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        return cls(text.encode("utf-8"), status, "application/json; charset=utf-8")

    @classmethod
    def gbk(cls, text: str, *, declared: str = "text/html; charset=UTF-8") -> Reply:
        """GBK bytes under a declared charset that lies (the services' real headers are not to be trusted)."""
        return cls(text.encode("gbk"), content_type=declared)

    @classmethod
    def firewall(cls) -> Reply:
        return cls(FIREWALL_PAGE.encode("utf-8"), content_type="text/html; charset=utf-8")

    @classmethod
    def failing(cls, status: int, *, retry_after: str = "") -> Reply:
        headers = {"Retry-After": retry_after} if retry_after else {}
        return cls(f"<html><body>{status}</body></html>".encode(), status, "text/html", headers)

    @classmethod
    def slow(cls, seconds: float) -> Reply:
        return cls(b"{}", delay=seconds, content_type="application/json")

    @classmethod
    def truncated(cls, body: bytes) -> Reply:
        """The first half of `body`, announced with the full length."""
        return cls(body[: len(body) // 2], declared_length=len(body))

    @classmethod
    def pdf(cls, data: bytes) -> Reply:
        return cls(data, content_type="application/pdf")


@dataclass(frozen=True)
class Seen:
    """A request the server received."""

    method: str
    path: str
    params: dict[str, str]
    form: dict[str, str]
    headers: dict[str, str]


@dataclass
class _Route:
    path: str
    match: dict[str, str]
    replies: list[Reply]

    def next_reply(self) -> Reply:
        return self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]


class ReplayServer:
    """Serves routes by path (plus query or form fields that must match); the last reply of a route repeats.
    Servers given one `journal` note each request there as (their base URL, path), in the order they came: which
    host was asked when, across hosts."""

    def __init__(self, journal: list[tuple[str, str]] | None = None) -> None:
        self.requests: list[Seen] = []
        self._journal = journal
        self._routes: list[_Route] = []
        self._lock = threading.Lock()
        self._loopback = LoopbackServer(self._handler_class(), "replay-server")
        self._stopping = self._loopback.stopping

    @property
    def base_url(self) -> str:
        return self._loopback.origin

    def start(self) -> ReplayServer:
        self._loopback.start()
        return self

    def stop(self) -> None:
        self._loopback.stop()

    def route(self, path: str, *replies: Reply, **match: str) -> None:
        """Answer requests to `path` whose query or form has every `match` field with these replies in turn."""
        with self._lock:
            self._routes.append(_Route(path, dict(match), list(replies)))

    def seen(self, path: str) -> list[Seen]:
        return [request for request in self.requests if request.path == path]

    def _find(self, seen: Seen) -> Reply | None:
        fields = {**seen.params, **seen.form}
        with self._lock:
            self.requests.append(seen)
            if self._journal is not None:
                self._journal.append((self.base_url, seen.path))  # list.append is atomic across the servers' threads
            routes = [r for r in self._routes if r.path == seen.path and r.match.items() <= fields.items()]
            if not routes:
                return None
            best = max(enumerate(routes), key=lambda pair: (len(pair[1].match), pair[0]))[1]
            return best.next_reply()

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        replay = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self._serve({})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self._serve(dict(parse_qsl(self.rfile.read(length).decode("utf-8"), keep_blank_values=True)))

            def _serve(self, form: dict[str, str]) -> None:
                parts = urlsplit(self.path)
                params = dict(parse_qsl(parts.query, keep_blank_values=True))
                headers = {key.lower(): value for key, value in self.headers.items()}
                reply = replay._find(Seen(self.command, unquote(parts.path), params, form, headers))
                reply = reply or Reply(b"no route", 404)
                if reply.delay and replay._stopping.wait(reply.delay):
                    return
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up: a timeout test
                    self._write(reply)

            def _write(self, reply: Reply) -> None:
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                self.send_header("Content-Length", str(reply.declared_length or len(reply.body)))
                for key, value in reply.headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(reply.body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler


# ---- Tencent (qt.gtimg.cn quote lines, GBK; fqkline JSON) ----


def tencent_a_line(
    prefix: str,
    code: str,
    name: str,
    *,
    last: str,
    prev: str,
    high: str,
    low: str,
    lots: int,
    amount_yuan: int,
    time: str = "20240628150003",
    limit_up: str = "-1",
    limit_down: str = "-1",
    market: str = "1",
) -> str:
    """An A-share quote line in the 2019 layout of the real sh600000 payload (65 fields)."""
    f = ["0"] * 65
    f[0:7] = [market, name, code, last, prev, last, str(lots)]
    f[7], f[8] = str(lots // 2), str(lots - lots // 2)
    for level in range(5):  # bids 9-18 and asks 19-28: price, lots
        f[9 + 2 * level], f[10 + 2 * level] = last, "100"
        f[19 + 2 * level], f[20 + 2 * level] = last, "100"
    f[29], f[30], f[31], f[32], f[33], f[34] = "", time, "0.00", "0.00", high, low
    f[35], f[36], f[37] = f"{last}/{lots}/{amount_yuan}", str(lots), str(amount_yuan // 10_000)
    f[38], f[39], f[40], f[41], f[42], f[43] = "0.50", "12.30", "", high, low, "1.00"
    f[44], f[45], f[46], f[47], f[48] = "1000.00", "1200.00", "1.50", limit_up, limit_down
    f[60], f[61], f[62] = "", "GP-A", "10.00"
    return f'v_{prefix}{code}="' + "~".join(f) + '";\n'


def tencent_hk_line(code: str, name: str, en_name: str, *, last: str, prev: str, lot: int, volume: int) -> str:
    """A Hong Kong quote line in the layout of the real hk00700 payload (78 fields)."""
    f = ["0"] * 78
    f[0:7] = ["100", name, code, last, prev, last, f"{volume}.0"]
    f[9], f[19], f[29], f[30] = last, last, f"{volume}.0", "2024/06/28 16:08:09"
    f[31], f[32], f[33], f[34], f[35], f[36] = "0.000", "0.00", last, last, last, f"{volume}.0"
    f[37], f[39], f[40], f[46] = f"{Decimal(last) * volume:.3f}", "15.00", "", en_name  # amount = last x volume
    f[48], f[49], f[60], f[75], f[76], f[77] = last, last, str(lot), "HKD", "1", "50"
    return f'v_hk{code}="' + "~".join(f) + '";\n'


TENCENT_UNKNOWN = 'v_pv_none_match="1";\n'


def tencent_kline(code: str, rows: Sequence[Sequence[str]]) -> dict[str, Any]:
    """A fqkline answer with unadjusted rows [date, open, close, high, low, volume in lots]."""
    node = {"day": [list(row) for row in rows], "qt": {}, "mx_price": {"mx": [], "price": []}, "version": "16"}
    return {"code": 0, "msg": "", "data": {code: node}}


# ---- Sina (hq.sinajs.cn, GBK; MoneyFlow JSON) ----


def sina_a_line(code: str, name: str, *, open_: str, prev: str, last: str, volume: int, amount: str) -> str:
    """An A-share line: name, open, prev close, last, high, low, bid, ask, volume (shares), amount, 20 book
    fields, date, time, status."""
    book = ",".join(["100", last] * 10)
    fields = (
        f"{name},{open_},{prev},{last},{last},{open_},{last},{last},{volume},{amount},{book},2024-06-28,15:00:03,00"
    )
    return f'var hq_str_{code}="{fields}";\n'


def sina_hk_line(code: str, en_name: str, name: str, *, open_: str, prev: str, last: str, volume: int) -> str:
    """A Hong Kong line (rt_hk): names, open, prev close, high, low, last, change, change %, bid, ask, amount,
    volume, PE, yield, 52-week high and low, date, time, then trailing fields."""
    fields = (
        f"{en_name},{name},{open_},{prev},{last},{open_},{last},0.000,0.000,{last},{last},"
        f"{volume * 100}.000,{volume},15.000,1.000,{last},{open_},2024/06/28,16:08,,,,,,"
    )
    return f'var hq_str_rt_hk{code}="{fields}";\n'


def sina_flow_rows(days: Sequence[tuple[str, int, int]]) -> list[dict[str, str]]:
    """MoneyFlow.ssl_qsfx_zjlrqs rows in the real shape (../shared/data/payloads/real/), newest first:
    (date, net inflow of all orders = netamount, main net = r0_net) in yuan."""
    rows = []
    for opendate, net, r0 in sorted(days, reverse=True):
        rows.append(
            {
                "opendate": opendate,
                "trade": "10.0000",
                "changeratio": "0.0123",
                "turnover": "1.2345",
                "netamount": f"{net}.0000",
                "ratioamount": "0.0100",
                "r0_net": f"{r0}.0000",
                "r0_ratio": "0.00500000",
                "r0x_ratio": "71.2000",
                "cnt_r0x_ratio": "1",
                "cate_ra": "0.0200",
                "cate_na": "90000000.0000",
            }
        )
    return rows


# ---- Eastmoney (push2 / push2his JSON, data center JSON) ----

EASTMONEY_NULL = {"rc": 0, "rt": 17, "svr": 181669437, "lt": 1, "full": 0, "dlmkts": "", "data": None}


def eastmoney_kline(code: str, market: int, name: str, rows: Sequence[str]) -> dict[str, Any]:
    """A kline answer; rows are 'date,open,close,high,low,volume,amount,amplitude,change%,change,turnover'."""
    data = {
        "code": code,
        "market": market,
        "name": name,
        "decimal": 2,
        "dktotal": len(rows),
        "preKPrice": 10.0,
        "klines": list(rows),
    }
    return {"rc": 0, "rt": 17, "svr": 181669437, "lt": 1, "full": 0, "dlmkts": "", "data": data}


def eastmoney_quote(fields: Mapping[str, Any]) -> dict[str, Any]:
    return {"rc": 0, "rt": 4, "svr": 181669437, "lt": 1, "full": 1, "dlmkts": "", "data": dict(fields)}


def eastmoney_flow(code: str, market: int, name: str, rows: Sequence[str]) -> dict[str, Any]:
    """A fflow/daykline answer; rows are 'date,main,small,medium,large,super,5 shares %,close,change%,0,0'."""
    data = {"code": code, "market": market, "name": name, "tradePeriods": None, "klines": list(rows)}
    return {"rc": 0, "rt": 21, "svr": 181669437, "lt": 1, "full": 0, "dlmkts": "", "data": data}


def datacenter(rows: Sequence[Mapping[str, Any]], *, pages: int = 1) -> dict[str, Any]:
    result = {"pages": pages, "data": [dict(row) for row in rows], "count": len(rows) * pages}
    return {"version": "0b4b5c0e3d5e4a3e", "result": result, "success": True, "message": "ok", "code": 0}


DATACENTER_EMPTY = {"version": None, "result": None, "success": False, "message": "返回数据为空", "code": 9201}


# ---- cninfo ----


def cninfo_stock_list(entries: Sequence[tuple[str, str, str]]) -> dict[str, Any]:
    """szse_stock.json: (code, orgId, short name)."""
    return {
        "stockList": [
            {"orgId": org, "category": "A股", "code": code, "pinyin": "sl", "zwjc": name} for code, org, name in entries
        ]
    }


def cninfo_page(items: Sequence[Mapping[str, Any]], *, total: int, has_more: bool) -> dict[str, Any]:
    return {
        "classifiedAnnouncements": None,
        "totalSecurities": 0,
        "totalAnnouncement": total,
        "totalRecordNum": total,
        "announcements": [dict(item) for item in items] or None,
        "categoryList": None,
        "hasMore": has_more,
        "totalpages": max(1, -(-total // 30)),
    }


def cninfo_item(code: str, org_id: str, ident: str, *, title: str, millis: int, adjunct: str) -> dict[str, Any]:
    return {
        "id": None,
        "secCode": code,
        "secName": "示例股份",
        "orgId": org_id,
        "announcementId": ident,
        "announcementTitle": title,
        "announcementTime": millis,
        "adjunctUrl": adjunct,
        "adjunctSize": 215,
        "adjunctType": "PDF",
        "storageTime": None,
        "columnId": "250401||251302",
        "pageColumn": "SZZB",
        "announcementType": "01010503||010112||01239999",
        "associateAnnouncement": None,
        "important": None,
        "batchNum": None,
        "announcementContent": "",
        "orgName": None,
        "tileSecName": "示例股份",
        "shortTitle": title,
    }


def make_pdf(lines: Sequence[str]) -> bytes:
    """A one-page PDF whose text (any Unicode, via the predefined UniGB-UTF16-H CMap) pypdf can extract."""
    ops = ["BT", "/F1 12 Tf", "72 770 Td"]
    for index, line in enumerate(lines):
        ops.extend((["0 -20 Td"] if index else []) + [f"<{line.encode('utf-16-be').hex().upper()}> Tj"])
    content = "\n".join([*ops, "ET"]).encode("ascii")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> "
        b"/Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UTF16-H /DescendantFonts [6 0 R] >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light "
        b"/CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 2 >> /FontDescriptor 7 0 R >>",
        b"<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [0 -200 1000 900] /ItalicAngle 0 "
        b"/Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)
